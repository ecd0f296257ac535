// Built only by nvcc (tests/nvcc_built.rs): __managed__, __device__ and
// __constant__ variables of an nvcc-built program, copied to before the
// first launch, written by a kernel and read by the host directly.
#include <cstdio>

__managed__ int calls;
__device__ float scaled[4];
__constant__ int factors[4];

__global__ void scale(const int *in) {
    int i = threadIdx.x;
    scaled[i] = (float)(factors[i] * in[i]);
    atomicAdd(&calls, 1);
}

int main() {
    calls = 10;
    int f[4] = {1, 2, 3, 4}, h[4] = {5, 6, 7, 8};
    if (cudaMemcpyToSymbol(factors, f, sizeof f) != cudaSuccess) return 1;
    int *in;
    cudaMalloc(&in, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    scale<<<1, 4>>>(in);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    float out[4];
    cudaMemcpyFromSymbol(out, scaled, sizeof out);
    int bad = calls != 14;
    for (int i = 0; i < 4; ++i) bad |= out[i] != (float)(f[i] * h[i]);
    printf(bad ? "FAIL managed_vars: calls %d, %g %g %g %g\n" : "PASS managed_vars\n", calls,
           out[0], out[1], out[2], out[3]);
    return bad;
}
