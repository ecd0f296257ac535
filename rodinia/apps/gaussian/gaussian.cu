/* gaussian: forward elimination, one pivot row t at a time, two launches per
 * step: the first computes the multipliers of the rows below the pivot (one
 * thread per row, 512-thread blocks), the second subtracts the scaled pivot
 * row from every row below it (one thread per element, 4x4 blocks over a 2-D
 * grid; column 0 of the grid also updates b). */
#include <cuda_runtime.h>
#include "gaussian_input.h"

#define FAN1_THREADS 512
#define FAN2_BLOCK 4

__global__ void ga_multipliers(float *m, const float *a, int n, int t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1 - t) return;
    int row = i + t + 1;
    m[(size_t)n * row + t] = a[(size_t)n * row + t] / a[(size_t)n * t + t];
}

__global__ void ga_eliminate(const float *m, float *a, float *b, int n, int t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;  /* row below the pivot */
    int j = blockIdx.y * blockDim.y + threadIdx.y;  /* column from the pivot */
    if (i >= n - 1 - t || j >= n - t) return;
    int row = i + 1 + t, col = j + t;
    float mult = m[(size_t)n * row + t];
    a[(size_t)n * row + col] -= mult * a[(size_t)n * t + col];
    if (j == 0) b[row] -= mult * b[t];
}

int main(int argc, char **argv) {
    int n;
    float *a, *b, *x;
    ga_setup(argc, argv, &n, &a, &b, &x);
    size_t bytes = (size_t)n * n * sizeof(float);

    float *d_a, *d_b, *d_m;
    RD_CUDA_CHECK(cudaMalloc(&d_a, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_m, bytes));
    int fan1_blocks = (n + FAN1_THREADS - 1) / FAN1_THREADS;
    int fan2_blocks = (n + FAN2_BLOCK - 1) / FAN2_BLOCK;
    dim3 fan2_grid(fan2_blocks, fan2_blocks);
    dim3 fan2_block(FAN2_BLOCK, FAN2_BLOCK);

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemset(d_m, 0, bytes));
    for (int t = 0; t < n - 1; t++) {
        ga_multipliers<<<fan1_blocks, FAN1_THREADS>>>(d_m, d_a, n, t);
        RD_CUDA_CHECK(cudaDeviceSynchronize());
        ga_eliminate<<<fan2_grid, fan2_block>>>(d_m, d_a, d_b, n, t);
        RD_CUDA_CHECK(cudaDeviceSynchronize());
    }
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(a, d_a, bytes, cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(b, d_b, n * sizeof(float), cudaMemcpyDeviceToHost));
    ga_back_substitute(n, a, b, x);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    ga_write(argv[2], n, x);
    RD_CUDA_FREE(d_a, d_b, d_m);
    RD_FREE(a, b, x);
    return 0;
}
