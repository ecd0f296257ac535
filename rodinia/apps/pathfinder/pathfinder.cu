/* pathfinder: dynamic programming over a grid of costs: the cheapest path
 * from the top row to each cell of the bottom row, moving down, down-left or
 * down-right.  A block of 256 threads owns a strip of columns plus a halo and
 * advances it several rows in shared memory ("pyramid"), shrinking the valid
 * range by one column per side and row. */
#include <cuda_runtime.h>
#include "pathfinder_input.h"

#define BLOCK 256

__global__ void pathfinder_rows(int steps, const int *wall, const int *src, int *dst, int cols,
                                int rows, int start_row, int border) {
    __shared__ int prev[BLOCK];
    __shared__ int result[BLOCK];
    int tx = threadIdx.x;
    int inner = BLOCK - 2 * steps;
    int x0 = inner * blockIdx.x - border;
    int x = x0 + tx;

    int xmin = x0 < 0 ? -x0 : 0;
    int xmax = x0 + BLOCK - 1 > cols - 1 ? BLOCK - 1 - (x0 + BLOCK - cols) : BLOCK - 1;
    int w = tx - 1 < xmin ? xmin : tx - 1;
    int e = tx + 1 > xmax ? xmax : tx + 1;
    bool valid = tx >= xmin && tx <= xmax;

    if (x >= 0 && x < cols) prev[tx] = src[x];
    __syncthreads();

    bool computed = false;
    for (int i = 0; i < steps; i++) {
        computed = false;
        if (tx >= i + 1 && tx <= BLOCK - i - 2 && valid) {
            computed = true;
            int best = prev[w];
            if (prev[tx] < best) best = prev[tx];
            if (prev[e] < best) best = prev[e];
            result[tx] = best + wall[(size_t)cols * (start_row + i) + x];
        }
        __syncthreads();
        if (i == steps - 1) break;
        if (computed) prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed) dst[x] = result[tx];
}

int main(int argc, char **argv) {
    rd_usage(argc, argv, 4, "COLS ROWS PYRAMID_HEIGHT OUTPUT");
    int cols = rd_arg_int(argv[1], "cols");
    int rows = rd_arg_int(argv[2], "rows");
    int pyramid = rd_arg_int(argv[3], "pyramid height");
    rd_require(2 * pyramid < BLOCK, "pyramid height must be below %d\n", BLOCK / 2);
    int *wall = pf_generate(rows, cols);
    int *result = (int *)malloc(cols * sizeof(int));
    int inner = BLOCK - 2 * pyramid;
    int blocks = (cols + inner - 1) / inner;

    int *d_wall, *d_row[2];
    size_t wall_bytes = (size_t)(rows - 1) * cols * sizeof(int);
    RD_CUDA_CHECK(cudaMalloc(&d_wall, wall_bytes > 0 ? wall_bytes : sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_row[0], cols * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_row[1], cols * sizeof(int)));

    double t0 = rd_now();
    /* The first row is where every path starts; the kernel reads the rest. */
    RD_CUDA_CHECK(cudaMemcpy(d_row[0], wall, cols * sizeof(int), cudaMemcpyHostToDevice));
    if (wall_bytes > 0)
        RD_CUDA_CHECK(cudaMemcpy(d_wall, wall + cols, wall_bytes, cudaMemcpyHostToDevice));
    int cur = 0;
    for (int t = 0; t < rows - 1; t += pyramid) {
        int steps = rows - 1 - t < pyramid ? rows - 1 - t : pyramid;
        pathfinder_rows<<<blocks, BLOCK>>>(steps, d_wall, d_row[cur], d_row[1 - cur], cols, rows,
                                           t, steps);
        cur = 1 - cur;
    }
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(result, d_row[cur], cols * sizeof(int), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    pf_write(argv[4], cols, result);
    RD_CUDA_FREE(d_wall, d_row[0], d_row[1]);
    RD_FREE(wall, result);
    return 0;
}
