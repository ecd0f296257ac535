// Cooperative groups: a block and tiles of 32 and 4 threads.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void tile_sum(const int *in, int *out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<4> quad = cg::tiled_partition<4>(block);
    int v = in[block.thread_rank()];
    for (unsigned int offset = warp.size() / 2; offset > 0; offset /= 2)
        v += warp.shfl_down(v, offset);
    int q = cg::reduce(quad, in[block.thread_rank()], cg::plus<int>());
    quad.sync();
    bool any = warp.any(v > 10);
    bool all = warp.all(v >= 0);
    unsigned int bits = quad.ballot(q > 0);
    int first = quad.shfl(q, 0);
    block.sync();
    if (warp.thread_rank() == 0)
        out[block.thread_rank() / 32] = v + any + all + (int)bits + first + (int)warp.meta_group_rank();
}

int main() {
    int *in, *out;
    cudaMalloc(&in, 128 * sizeof(int));
    cudaMalloc(&out, 4 * sizeof(int));
    tile_sum<<<1, 128>>>(in, out);
    cudaDeviceSynchronize();
    printf("ok\n");
    return 0;
}
