// Matrix transpose through a padded shared-memory tile (no bank
// conflicts), with a rectangular matrix whose sizes are not tile multiples.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define TILE 16

__global__ void transpose(const int *in, int *out, int rows, int cols) {
    __shared__ int tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x;
    int ty = blockIdx.x * TILE + threadIdx.y;
    if (tx < rows && ty < cols) out[ty * rows + tx] = tile[threadIdx.x][threadIdx.y];
}

int main() {
    const int rows = 40, cols = 24;
    int hin[rows * cols], hout[rows * cols];
    for (int i = 0; i < rows * cols; ++i) hin[i] = i * 3 + 1;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    dim3 block(TILE, TILE);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<grid, block>>>(din, dout, rows, cols);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if (hout[c * rows + r] != hin[r * cols + c]) {
                if (bad < 5) printf("out[%d][%d] differs\n", c, r);
                ++bad;
            }
    cudaFree(din);
    cudaFree(dout);
    return report("transpose", bad);
}
