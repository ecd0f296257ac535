// Kernels using a device variable, a constant, device functions and a
// kernel of another translation unit (linked_lib.cu), with symbol copies
// from this unit's host code.
#include <cstdio>
#include "linked.h"

// Not linked_lib.cu's `bucket`: same name, internal, another body.
static __device__ __noinline__ int bucket(int v) { return (v >> 1) & 3; }

__global__ void fill(const int *in, float *out, int n) {
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        count(in[i]);
        tile[threadIdx.x] = scale * (float)in[i] + (float)bucket(in[i]);
    }
    __syncthreads();
    if (i < n) out[i] = twice(tile[threadIdx.x]) + (float)lib_offset();
    if (i == 0) printf("main: fill ran\n");
}

int main() {
    const int n = 64, off = lib_offset_host();
    int in[n], *d_in, *d_rev, rev[32];
    float out[n], *d_out;
    for (int i = 0; i < n; i++) in[i] = (i * 7) % 23;
    int start[8];
    for (int k = 0; k < 8; k++) start[k] = 100 * k;
    int bad = 0;
    if (cudaMemcpyToSymbol(hits, start, sizeof start) != cudaSuccess) { printf("FAIL hits symbol\n"); return 1; }
    float s = 3.0f;
    if (cudaMemcpyToSymbol(scale, &s, sizeof s) != cudaSuccess) { printf("FAIL scale symbol\n"); return 1; }
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_out, sizeof out);
    cudaMalloc(&d_rev, sizeof rev);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    fill<<<2, 32, 32 * sizeof(float)>>>(d_in, d_out, n);
    reverse_buckets<<<1, 32, 32 * sizeof(int)>>>(d_rev);
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL launch\n"); return 1; }
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    cudaMemcpy(rev, d_rev, sizeof rev, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        float want = 2.0f * (3.0f * (float)in[i] + (float)((in[i] >> 1) & 3)) + (float)off;
        if (out[i] != want && bad++ < 5) printf("out[%d] = %f, expected %f\n", i, out[i], want);
    }
    for (int t = 0; t < 32; t++) {
        int want = ((31 - t) & 7) + off;
        if (rev[t] != want && bad++ < 5) printf("rev[%d] = %d, expected %d\n", t, rev[t], want);
    }
    // The kernels counted into the storage the host wrote: one variable.
    int got[8], via_addr[8], want[8];
    for (int k = 0; k < 8; k++) want[k] = 100 * k;
    for (int i = 0; i < n; i++) want[in[i] & 7]++;
    cudaMemcpyFromSymbol(got, hits, sizeof got);
    int *addr = nullptr;
    if (cudaGetSymbolAddress((void **)&addr, hits) != cudaSuccess) { printf("FAIL address\n"); return 1; }
    cudaMemcpy(via_addr, addr, sizeof via_addr, cudaMemcpyDeviceToHost);
    for (int k = 0; k < 8; k++) {
        if (got[k] != want[k] && bad++ < 5) printf("hits[%d] = %d, expected %d\n", k, got[k], want[k]);
        if (via_addr[k] != want[k] && bad++ < 5) printf("*(hits + %d) = %d, expected %d\n", k, via_addr[k], want[k]);
    }
    float back = 0.0f;
    cudaMemcpyFromSymbol(&back, scale, sizeof back);
    if (back != 3.0f) { printf("scale = %f, expected 3\n", back); bad++; }
    if (bad) { printf("FAIL rdc linked\n"); return 1; }
    printf("PASS rdc linked\n");
    return 0;
}
