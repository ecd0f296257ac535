// Static __shared__ memory (1-D and 2-D arrays, a shared scalar) with
// __syncthreads: reverse each block and combine neighbours.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define BS 128

__global__ void reverse_blocks(const int *in, int *out) {
    __shared__ int buf[BS];
    __shared__ int grid2[4][BS / 4];
    __shared__ int block_max;
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    buf[t] = in[g];
    grid2[t % 4][t / 4] = in[g] * 2;
    if (t == 0) block_max = in[blockIdx.x * BS];
    __syncthreads();
    if (t == 0)
        for (int k = 1; k < BS; ++k)
            if (buf[k] > block_max) block_max = buf[k];
    __syncthreads();
    int left = t > 0 ? buf[t - 1] : 0;
    out[g] = buf[BS - 1 - t] * 1000 + left + grid2[(t + 1) % 4][(BS - 1 - t) / 4] - block_max;
}

int main() {
    const int blocks = 3, n = blocks * BS;
    int hin[n], hout[n];
    for (int i = 0; i < n; ++i) hin[i] = (i * 7919) % 503;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    reverse_blocks<<<blocks, BS>>>(din, dout);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int b = 0; b < blocks; ++b) {
        const int *blk = hin + b * BS;
        int mx = blk[0];
        for (int k = 1; k < BS; ++k) mx = blk[k] > mx ? blk[k] : mx;
        for (int t = 0; t < BS; ++t) {
            int left = t > 0 ? blk[t - 1] : 0;
            int r = BS - 1 - t;
            // grid2[a][c] holds blk[4 * c + a] * 2
            int want = blk[r] * 1000 + left + blk[4 * (r / 4) + (t + 1) % 4] * 2 - mx;
            if (hout[b * BS + t] != want) {
                if (bad < 5) printf("block %d thread %d: got %d want %d\n", b, t, hout[b * BS + t], want);
                ++bad;
            }
        }
    }
    cudaFree(din);
    cudaFree(dout);
    return report("shared_static", bad);
}
