// Warp votes: __ballot_sync, __any_sync, __all_sync (full and partial
// masks), __activemask in a partly filled warp, and __syncwarp ordering
// shared-memory exchanges inside a warp.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void votes(const int *in, unsigned *out) {
    __shared__ int buf[64];
    int t = threadIdx.x;
    int lane = t % 32;
    int v = in[blockIdx.x * blockDim.x + t];
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v == 42);
    int all = __all_sync(0xffffffffu, v > -100);
    unsigned half = 0;
    if (lane < 16) half = __ballot_sync(0x0000ffffu, v % 2 == 0);
    buf[t] = v;
    __syncwarp();
    int neighbour = buf[(t & ~31) + (lane + 1) % 32];
    __syncwarp();
    out[4 * (blockIdx.x * blockDim.x + t) + 0] = ballot;
    out[4 * (blockIdx.x * blockDim.x + t) + 1] = (unsigned)(any * 2 + all);
    out[4 * (blockIdx.x * blockDim.x + t) + 2] = half;
    out[4 * (blockIdx.x * blockDim.x + t) + 3] = (unsigned)neighbour;
}

__global__ void active(unsigned *out) {
    // 40 threads: the second warp has 8 active lanes.
    out[threadIdx.x] = __activemask();
}

int main() {
    const int n = 128;
    int hin[n];
    unsigned hout[4 * n], hact[40];
    for (int i = 0; i < n; ++i) hin[i] = (i * 37) % 61 - 20;
    hin[70] = 42;
    for (int i = 96; i < 128; ++i) hin[i] = -150 + i;  // one warp where all() fails
    int *din;
    unsigned *dout, *dact;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMalloc(&dact, sizeof(hact)));
    votes<<<2, 64>>>(din, dout);
    active<<<1, 40>>>(dact);
    copy_back(hout, dout, sizeof(hout));
    CHECK(cudaMemcpy(hact, dact, sizeof(hact), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, w = i - lane;
        unsigned ballot = 0, half = 0;
        int any = 0, all = 1;
        for (int k = 0; k < 32; ++k) {
            int v = hin[w + k];
            if (v > 0) ballot |= 1u << k;
            if (k < 16 && v % 2 == 0) half |= 1u << k;
            any |= v == 42;
            all &= v > -100;
        }
        unsigned want[4] = {ballot, (unsigned)(any * 2 + all), lane < 16 ? half : 0u, (unsigned)hin[w + (lane + 1) % 32]};
        check_row("thread", i, hout + i * 4, want, 4, bad);
    }
    for (int t = 0; t < 40; ++t)
        if (hact[t] != (t < 32 ? 0xffffffffu : 0xffu)) {
            printf("activemask of thread %d: %x\n", t, hact[t]);
            ++bad;
        }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dact);
    return report("warp_vote", bad);
}
