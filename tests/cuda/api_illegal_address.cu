// corpus: runtime-api
// A kernel that writes 128 bytes past the end of its cudaMalloc buffer: the
// launch succeeds, the next synchronisation returns the sticky
// cudaErrorIllegalAddress (700), later device calls return it too, and the
// host program goes on with its heap intact. (cucc's device allocations end
// at a guard region, so the overrun faults at once; a GPU, whose pages are
// larger, may let such a small overrun pass. The fault is reported on
// stderr; that is expected.) api_illegal_far.cu covers far accesses.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

__global__ void fill(float *a, int n, float v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = v + i;
}

// Writes `past` elements beyond the `n` it was given.
__global__ void overrun(float *a, int n, int past) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n + past) a[i] = -1.0f;
}

int main() {
    const int n = 1000;
    // Host heap blocks on both sides of the device allocations.
    char *before = (char *)malloc(4096);
    memset(before, 0x5a, 4096);
    float *a = nullptr, *b = nullptr;
    EXPECT(cudaMalloc(&a, n * sizeof(float)) == cudaSuccess);
    EXPECT(cudaMalloc(&b, n * sizeof(float)) == cudaSuccess);
    char *after = (char *)malloc(4096);
    memset(after, 0xa5, 4096);
    fill<<<(n + 255) / 256, 256>>>(b, n, 1.0f);
    float hb[n];
    EXPECT(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost) == cudaSuccess);
    EXPECT(hb[0] == 1.0f && hb[n - 1] == 1000.0f);

    overrun<<<(n + 32 + 255) / 256, 256>>>(a, n, 32);
    EXPECT(cudaGetLastError() == cudaSuccess);  // the launch itself is fine
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress);
    printf("synchronize: %s\n", cudaGetErrorName(e));
    // Sticky: every later device call fails the same way.
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress);
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress);
    float *c = nullptr;
    EXPECT(cudaMalloc(&c, 64) == cudaErrorIllegalAddress);
    EXPECT(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);
    fill<<<1, 32>>>(b, 32, 0.0f);
    EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    // Queries that do not touch the device still answer.
    int count = 0;
    EXPECT(cudaGetDeviceCount(&count) == cudaSuccess && count == 1);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0);

    // The host heap is intact: the blocks around the allocations kept
    // their contents, and allocating and freeing still work.
    for (int i = 0; i < 4096; ++i) {
        if (before[i] != 0x5a || after[i] != (char)0xa5) {
            printf("host heap corrupted at %d\n", i);
            ++bad;
            break;
        }
    }
    for (int k = 0; k < 100; ++k) {
        char *p = (char *)malloc(100 + k * 37);
        memset(p, k, 100 + k * 37);
        free(p);
    }
    free(before);
    free(after);
    return report("api_illegal_address", bad);
}
