// corpus: runtime-api
// Kernels that read and write far from any allocation (an address no
// allocation can have: non-canonical on x86-64, unmapped on a GPU) stop
// with the sticky cudaErrorIllegalAddress (700) at the next
// synchronisation; the host program goes on. (The fault is reported on
// stderr; that is expected.)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

// Each thread reads `in[k * stride]` and writes it to out.
__global__ void gather(const float *in, long long stride, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(long long)i * stride];
}

int main() {
    const int n = 256;
    float *in = nullptr, *out = nullptr;
    EXPECT(cudaMalloc(&in, n * sizeof(float)) == cudaSuccess);
    EXPECT(cudaMalloc(&out, n * sizeof(float)) == cudaSuccess);
    EXPECT(cudaMemset(in, 0, n * sizeof(float)) == cudaSuccess);
    gather<<<1, n>>>(in, 1, out, n);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    // Thread 1 reads 2^61 floats (2^63 bytes) further: far outside memory.
    gather<<<1, n>>>(in, 1ll << 61, out, n);
    cudaError_t e = cudaStreamSynchronize(0);
    EXPECT(e == cudaErrorIllegalAddress);
    printf("synchronize: %s\n", cudaGetErrorName(e));
    EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    EXPECT(cudaFree(in) == cudaErrorIllegalAddress);
    char *p = (char *)malloc(1 << 20);
    memset(p, 1, 1 << 20);
    free(p);
    return report("api_illegal_far", bad);
}
