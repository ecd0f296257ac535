// Warp votes with partial masks: lanes outside a vote's mask do not count.
// The two halves of each warp vote at the same time with masks of their
// own (__ballot_sync, __any_sync, __all_sync), a mask from a kernel
// parameter, votes under a divergent branch with a mask loaded from memory,
// an if/else whose two sides vote with complementary masks, __activemask
// under divergent branches (also in a partly filled warp).
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NOUT 9

__global__ void masked_votes(const int *in, const unsigned *masks, unsigned pmask, unsigned *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[t];
    // Each half of the warp votes with the mask of its own 16 lanes.
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    unsigned r0 = __ballot_sync(half, v > 0);
    unsigned r1 = (unsigned)__any_sync(half, v == 7);
    unsigned r2 = (unsigned)__all_sync(half, v > -50);
    // A mask from a parameter, every lane voting.
    unsigned r3 = 0;
    if (pmask & (1u << lane)) r3 = __ballot_sync(pmask, v % 3 == 0);
    // A divergent branch with the mask of the lanes that take it, loaded.
    unsigned r4 = 0, r5 = 0;
    if (masks[lane] != 0) {
        r4 = __ballot_sync(masks[lane], v % 2 == 0);
        r5 = (unsigned)__all_sync(masks[lane], v < 60);
    }
    // Both sides of an if/else vote, each with its own lanes.
    unsigned r6;
    if (lane % 3 == 0)
        r6 = __ballot_sync(0x49249249u, v > 10);
    else
        r6 = __ballot_sync(~0x49249249u, v > 10);
    // The lanes that reach __activemask together.
    unsigned r7 = 0, r8 = 0;
    if (v > 0) r7 = __activemask();
    bool in_rows = (v > 0) & (lane >= 8);
    if (in_rows) r8 = __activemask();
    unsigned *o = out + NOUT * t;
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4;
    o[5] = r5; o[6] = r6; o[7] = r7; o[8] = r8;
}

__global__ void partial_active(const int *in, unsigned *out) {
    // 48 threads: the second warp has 16 lanes.
    int t = threadIdx.x;
    unsigned m = 0;
    if (in[t] % 2 != 0) m = __activemask();
    out[t] = m;
}

int main() {
    const int blocks = 2, bs = 64, n = blocks * bs;
    int hin[n];
    unsigned hmask[32], hout[NOUT * n], hact[48];
    for (int i = 0; i < n; ++i) hin[i] = (i * 29) % 83 - 20;
    hin[5] = 7;      // the low half of warp 0 has a 7
    hin[64 + 20] = 7; // the high half of warp 2 has one
    for (int i = 96; i < 112; ++i) hin[i] = 1 + i % 40; // a half where all > -50 and < 60
    for (int l = 0; l < 32; ++l) hmask[l] = l >= 8 && l < 24 ? 0x00ffff00u : 0u;
    const unsigned pmask = 0x0f0f00ffu;
    int *din;
    unsigned *dmask, *dout, *dact;
    alloc_copy(&din, hin, sizeof(hin));
    alloc_copy(&dmask, hmask, sizeof(hmask));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMalloc(&dact, sizeof(hact)));
    masked_votes<<<blocks, bs>>>(din, dmask, pmask, dout);
    partial_active<<<1, 48>>>(din, dact);
    copy_back(hout, dout, sizeof(hout));
    CHECK(cudaMemcpy(hact, dact, sizeof(hact), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < n; ++t) {
        int lane = t % 32, w = t - lane;
        unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
        unsigned want[NOUT] = {0, 0, 1, 0, 0, 1, 0, 0, 0};
        unsigned rows = 0, pos = 0;
        for (int k = 0; k < 32; ++k) {
            int v = hin[w + k];
            unsigned bit = 1u << k;
            if ((half & bit) && v > 0) want[0] |= bit;
            if ((half & bit) && v == 7) want[1] = 1;
            if ((half & bit) && !(v > -50)) want[2] = 0;
            if ((pmask & bit) && v % 3 == 0) want[3] |= bit;
            if ((hmask[lane] & bit) && v % 2 == 0) want[4] |= bit;
            if ((hmask[lane] & bit) && !(v < 60)) want[5] = 0;
            bool same_side = (k % 3 == 0) == (lane % 3 == 0);
            if (same_side && v > 10) want[6] |= bit;
            if (v > 0) pos |= bit;
            if (v > 0 && k >= 8) rows |= bit;
        }
        if (!(pmask & (1u << lane))) want[3] = 0;
        if (hmask[lane] == 0) want[4] = want[5] = 0;
        int v = hin[t];
        want[7] = v > 0 ? pos : 0;
        want[8] = v > 0 && lane >= 8 ? rows : 0;
        check_row("thread", t, hout + t * NOUT, want, NOUT, bad, 8);
    }
    for (int t = 0; t < 48; ++t) {
        int w = t - t % 32, lanes = t < 32 ? 32 : 16;
        unsigned want = 0;
        for (int k = 0; k < lanes; ++k)
            if (hin[w + k] % 2 != 0) want |= 1u << k;
        if (hin[t] % 2 == 0) want = 0;
        if (hact[t] != want) {
            if (bad < 8) printf("partial_active thread %d: got %x want %x\n", t, hact[t], want);
            ++bad;
        }
    }
    cudaFree(din);
    cudaFree(dmask);
    cudaFree(dout);
    cudaFree(dact);
    return report("warp_vote_masks", bad);
}
