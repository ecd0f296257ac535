/* kmeans: Lloyd's algorithm.  The features are copied to the device once
 * and transposed there (column-major: feature f of every point is
 * contiguous, so neighbouring threads read neighbouring words).  Each pass
 * copies the centres into constant memory, assigns every point to its
 * nearest centre (one thread per point, square 2-D grid of 256-thread
 * blocks), and copies the memberships back; the host counts the changes and
 * recomputes the centres.  Passes stop when no membership changes or after
 * MAX_PASSES. */
#include <cuda_runtime.h>
#include "kmeans_common.h"

#define THREADS 256

__constant__ float km_centres[KM_MAX_CENTRE_FLOATS];

__global__ void km_transpose(const float *rows, float *columns, int n, int nf) {
    int p = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (p < n)
        for (int f = 0; f < nf; f++) columns[(size_t)f * n + p] = rows[(size_t)p * nf + f];
}

__global__ void km_assign(const float *columns, int *membership, int n, int nf, int k) {
    int p = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (p >= n) return;
    int best = 0;
    float best_dist = FLT_MAX;
    for (int c = 0; c < k; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nf; f++) {
            float d = columns[(size_t)f * n + p] - km_centres[c * nf + f];
            dist += d * d;
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    membership[p] = best;
}

int main(int argc, char **argv) {
    int n, nf, k, max_passes, *counts, *membership, *fresh;
    float *features, *centres, *sums;
    km_setup(argc, argv, &n, &nf, &k, &max_passes, &features, &centres, &sums, &counts,
             &membership, &fresh);
    size_t bytes = (size_t)n * nf * sizeof(float);

    int blocks = (n + THREADS - 1) / THREADS;
    int side = 1;
    while (side * side < blocks) side++;
    dim3 grid(side, side);

    float *d_rows, *d_columns;
    int *d_membership;
    RD_CUDA_CHECK(cudaMalloc(&d_rows, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_columns, bytes));
    RD_CUDA_CHECK(cudaMalloc(&d_membership, (size_t)n * sizeof(int)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_rows, features, bytes, cudaMemcpyHostToDevice));
    km_transpose<<<grid, THREADS>>>(d_rows, d_columns, n, nf);
    RD_CUDA_CHECK(cudaGetLastError());
    int passes = 0, delta;
    do {
        RD_CUDA_CHECK(cudaMemcpyToSymbol(km_centres, centres, (size_t)k * nf * sizeof(float)));
        km_assign<<<grid, THREADS>>>(d_columns, d_membership, n, nf, k);
        RD_CUDA_CHECK(cudaGetLastError());
        RD_CUDA_CHECK(cudaMemcpy(fresh, d_membership, (size_t)n * sizeof(int),
                                 cudaMemcpyDeviceToHost));
        delta = km_update(n, nf, k, features, membership, fresh, centres, sums, counts);
        passes++;
    } while (delta > 0 && passes < max_passes);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    km_write(argv[5], n, nf, k, passes, membership, centres);
    RD_CUDA_FREE(d_rows, d_columns, d_membership);
    RD_FREE(features, centres, sums, counts, membership, fresh);
    return 0;
}
