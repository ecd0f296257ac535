// Cooperative groups: this_thread_block (sync, thread_rank, size) and
// tiled_partition<32> and <8> tiles (sync, thread_rank, size, shfl_down,
// shfl) computing per-tile sums and a block sum.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace cg = cooperative_groups;

template <unsigned N>
__device__ int tile_sum(cg::thread_block_tile<N> tile, int v) {
    for (unsigned d = tile.size() / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
    return tile.shfl(v, 0);
}

__global__ void groups(const int *in, int *out) {
    __shared__ int warp_sums[8];
    cg::thread_block block = cg::this_thread_block();
    unsigned r = block.thread_rank();
    int v = in[blockIdx.x * block.size() + r];
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> oct = cg::tiled_partition<8>(block);
    int s8 = tile_sum(oct, v);
    int s32 = tile_sum(warp, v);
    if (warp.thread_rank() == 0) warp_sums[r / 32] = s32;
    block.sync();
    int total = 0;
    for (unsigned w = 0; w < block.size() / 32; ++w) total += warp_sums[w];
    oct.sync();
    int base = blockIdx.x * block.size() + r;
    out[4 * base + 0] = s8;
    out[4 * base + 1] = s32;
    out[4 * base + 2] = total;
    out[4 * base + 3] = (int)(oct.thread_rank() * 100 + oct.size() * 10000 + warp.size());
}

int main() {
    const int bs = 128, blocks = 2, n = bs * blocks;
    int hin[n], hout[4 * n];
    for (int i = 0; i < n; ++i) hin[i] = (i * 41) % 83 - 40;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    groups<<<blocks, bs>>>(din, dout);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int s8 = 0, s32 = 0, total = 0;
        for (int k = i - i % 8; k < i - i % 8 + 8; ++k) s8 += hin[k];
        for (int k = i - i % 32; k < i - i % 32 + 32; ++k) s32 += hin[k];
        for (int k = i - i % bs; k < i - i % bs + bs; ++k) total += hin[k];
        int want[4] = {s8, s32, total, (i % 8) * 100 + 80000 + 32};
        check_row("thread", i, hout + i * 4, want, 4, bad);
    }
    cudaFree(din);
    cudaFree(dout);
    return report("coop_groups", bad);
}
