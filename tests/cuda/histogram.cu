// Histogram: per-block histograms in shared memory with atomicAdd, merged
// into the global histogram with atomicAdd; grid-stride loop over bytes.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define BINS 64

__global__ void histogram(const unsigned char *data, unsigned *hist, int n) {
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b]) atomicAdd(&hist[b], local[b]);
}

int main() {
    const int n = 4000;
    static unsigned char hdata[n];
    unsigned state = 2024u;
    for (int i = 0; i < n; ++i) {
        state = state * 1103515245u + 12345u;
        hdata[i] = (unsigned char)(state >> 16);
    }
    unsigned char *ddata;
    unsigned *dhist;
    unsigned hhist[BINS], want[BINS] = {0};
    alloc_copy(&ddata, hdata, sizeof(hdata));
    CHECK(cudaMalloc(&dhist, sizeof(hhist)));
    CHECK(cudaMemset(dhist, 0, sizeof(hhist)));
    histogram<<<4, 128>>>(ddata, dhist, n);
    copy_back(hhist, dhist, sizeof(hhist));
    for (int i = 0; i < n; ++i) want[hdata[i] % BINS]++;
    int bad = 0;
    for (int b = 0; b < BINS; ++b)
        if (hhist[b] != want[b]) {
            if (bad < 5) printf("bin %d: got %u want %u\n", b, hhist[b], want[b]);
            ++bad;
        }
    cudaFree(ddata);
    cudaFree(dhist);
    return report("histogram", bad);
}
