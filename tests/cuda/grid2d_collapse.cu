// 2-D grids of small blocks indexed by global (row, column) coordinates
// with guards, row-major and column-major accesses: the shape cpuify's
// N-D `collapse` turns into loops over global thread coordinates.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

// x is the row, y the column (as in rodinia's gaussian): row-major reads,
// a row-major and a column-major write; threads past the guard do nothing.
__global__ void rows_cols(const int *a, int *out, int *outT, int rows, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= rows - 1 || j >= cols) return;
    out[i * cols + j] = a[i * cols + j] * 2 + a[(i + 1) * cols + j];
    outT[j * rows + i] = i * 1000 + j;
}

// x is the column: the unit-stride dimension is already x.
__global__ void cols_rows(int *c, int rows, int cols) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols && j >= 1) c[i * cols + j] += i - j;
}

int main() {
    const int rows = 37, cols = 29, n = rows * cols;
    int h_a[n], h_out[n], h_outT[n], h_c[n];
    for (int k = 0; k < n; ++k) h_a[k] = (k * 37) % 101 - 50;
    int *a, *out, *outT, *c;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&outT, n * sizeof(int));
    cudaMalloc(&c, n * sizeof(int));
    cudaMemcpy(a, h_a, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(c, h_a, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, n * sizeof(int));
    cudaMemset(outT, 0, n * sizeof(int));
    dim3 block(4, 4), grid((rows + 3) / 4, (cols + 3) / 4);
    rows_cols<<<grid, block>>>(a, out, outT, rows, cols);
    dim3 block2(8, 2), grid2((cols + 7) / 8, (rows + 1) / 2);
    cols_rows<<<grid2, block2>>>(c, rows, cols);
    cudaMemcpy(h_out, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_outT, outT, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_c, c, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            int in = i < rows - 1;
            int w = in ? h_a[i * cols + j] * 2 + h_a[(i + 1) * cols + j] : 0;
            int wt = in ? i * 1000 + j : 0;
            int wc = h_a[i * cols + j] + (j >= 1 ? i - j : 0);
            if (h_out[i * cols + j] != w || h_outT[j * rows + i] != wt || h_c[i * cols + j] != wc) {
                if (bad++ < 5) printf("mismatch at (%d, %d)\n", i, j);
            }
        }
    cudaFree(a);
    cudaFree(out);
    cudaFree(outT);
    cudaFree(c);
    return report("grid2d_collapse", bad);
}
