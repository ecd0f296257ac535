/* nw: the score matrix is filled in 16x16 tiles along anti-diagonals of
 * tiles: one launch per tile diagonal (the first kernel for the upper-left
 * triangle of tiles, the second for the lower-right one), one block of 16
 * threads per tile.  A block loads its tile's substitution scores and the
 * borders from the neighbouring tiles into shared memory and sweeps the
 * tile's own anti-diagonals with a barrier after each. */
#include <cuda_runtime.h>
#include "nw_input.h"

#define TILE 16

__device__ __forceinline__ int nw_max3_dev(int a, int b, int c) {
    int m = a > b ? a : b;
    return m > c ? m : c;
}

__device__ void nw_tile(int *score, const int *ref, int cols, int penalty, int tile_x, int tile_y) {
    __shared__ int s[TILE + 1][TILE + 1];
    __shared__ int sub[TILE][TILE];
    int tx = threadIdx.x;
    int r0 = 1 + TILE * tile_y, c0 = 1 + TILE * tile_x;

    if (tx == 0) s[0][0] = score[(r0 - 1) * cols + c0 - 1];
    for (int i = 0; i < TILE; i++) sub[i][tx] = ref[(r0 + i) * cols + c0 + tx];
    s[tx + 1][0] = score[(r0 + tx) * cols + c0 - 1];
    s[0][tx + 1] = score[(r0 - 1) * cols + c0 + tx];
    __syncthreads();

    for (int m = 0; m < TILE; m++) {
        if (tx <= m) {
            int i = m - tx + 1, j = tx + 1;
            s[i][j] = nw_max3_dev(s[i - 1][j - 1] + sub[i - 1][j - 1], s[i][j - 1] - penalty,
                                  s[i - 1][j] - penalty);
        }
        __syncthreads();
    }
    for (int m = TILE - 2; m >= 0; m--) {
        if (tx <= m) {
            int i = TILE - tx, j = tx + TILE - m;
            s[i][j] = nw_max3_dev(s[i - 1][j - 1] + sub[i - 1][j - 1], s[i][j - 1] - penalty,
                                  s[i - 1][j] - penalty);
        }
        __syncthreads();
    }
    for (int i = 0; i < TILE; i++) score[(r0 + i) * cols + c0 + tx] = s[i + 1][tx + 1];
}

/* Tile diagonal `diag` (1-based, diag tiles) of the upper-left triangle. */
__global__ void nw_upper(int *score, const int *ref, int cols, int penalty, int diag) {
    nw_tile(score, ref, cols, penalty, blockIdx.x, diag - 1 - blockIdx.x);
}

/* The lower-right triangle: diagonal with `diag` tiles, starting at the
 * bottom row of tiles. */
__global__ void nw_lower(int *score, const int *ref, int cols, int penalty, int diag, int tiles) {
    nw_tile(score, ref, cols, penalty, blockIdx.x + tiles - diag, tiles - 1 - blockIdx.x);
}

int main(int argc, char **argv) {
    int n, penalty;
    nw_parse(argc, argv, TILE, &n, &penalty);
    int cols = n + 1;
    size_t bytes = (size_t)cols * cols * sizeof(int);
    int *score, *ref;
    nw_generate(n, penalty, &score, &ref);
    int tiles = n / TILE;

    int *d_score, *d_ref;
    RD_CUDA_CHECK(cudaMalloc(&d_score, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_ref, bytes));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_ref, ref, bytes, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_score, score, bytes, cudaMemcpyHostToDevice));
    for (int d = 1; d <= tiles; d++) nw_upper<<<d, TILE>>>(d_score, d_ref, cols, penalty, d);
    for (int d = tiles - 1; d >= 1; d--)
        nw_lower<<<d, TILE>>>(d_score, d_ref, cols, penalty, d, tiles);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(score, d_score, bytes, cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    nw_write(argv[3], n, score);
    RD_CUDA_FREE(d_score, d_ref);
    RD_FREE(score, ref);
    return 0;
}
