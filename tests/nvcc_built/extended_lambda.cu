// cucc-flags: --extended-lambda
// Extended lambdas (nvcc --extended-lambda): a __device__ lambda written in
// host code and passed by value to a kernel template, capturing a host
// variable by copy, and a __host__ __device__ lambda used on both sides.
// Built by nvcc (tests/nvcc_built.rs) and by cucc (tests/nvcc.rs).
#include <cstdio>

template <typename F>
__global__ void map_kernel(int *out, int n, F f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(i);
}

int main() {
    const int n = 100;
    int k = 7;
    auto both = [] __host__ __device__(int x) { return x * x - 3; };
    int *d;
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 1;
    map_kernel<<<(n + 31) / 32, 32>>>(d, n, [=] __device__(int i) { return i * k + 1; });
    int h[n];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != i * k + 1;
    map_kernel<<<(n + 31) / 32, 32>>>(d, n, both);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad += h[i] != both(i);
    cudaFree(d);
    if (bad) {
        printf("FAIL extended_lambda (%d mismatches)\n", bad);
        return 1;
    }
    printf("PASS extended_lambda\n");
    return 0;
}
