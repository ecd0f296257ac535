// corpus: runtime-api
// A kernel whose threads each keep a 128 KiB local array across a
// __syncthreads (valid on a GPU: under its 512 KiB per thread) needs
// 1024 x 128 KiB of per-thread storage per block on a CPU, more than the
// stack the block runs on. As for any memory fault in a kernel, the launch
// stops with the sticky cudaErrorIllegalAddress (700) at the next
// synchronisation and the host program goes on, whichever thread ran the
// blocks. (The fault is reported on stderr; that is expected.)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

#define WORDS (32 * 1024)

__global__ void big_locals(int stride, int *out) {
    __shared__ int total;
    int local[WORDS];
    if (threadIdx.x == 0) total = 0;
    for (int i = 0; i < WORDS; i += stride) local[i] = i + (int)threadIdx.x;
    __syncthreads();
    atomicAdd(&total, local[(threadIdx.x * stride) % WORDS]);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = total + local[WORDS - stride];
}

__global__ void small(int *out) { out[threadIdx.x] = (int)threadIdx.x; }

int main() {
    int *out = nullptr;
    EXPECT(cudaMalloc(&out, 4 * 1024 * sizeof(int)) == cudaSuccess);
    small<<<1, 64>>>(out);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    big_locals<<<4, 1024>>>(1024, out);
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress);
    printf("synchronize: %s\n", cudaGetErrorName(e));
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress);
    // The host goes on: its heap and stack are intact.
    char *p = (char *)malloc(1 << 20);
    memset(p, 1, 1 << 20);
    EXPECT(p[12345] == 1);
    free(p);
    return report("api_stack_overflow", bad);
}
