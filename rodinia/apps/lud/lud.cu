/* lud: blocked right-looking LU.  For each diagonal block at offset `o`:
 * one 16-thread block factors the diagonal block in shared memory; a row of
 * blocks of 32 threads solves the perimeter (threads 0..15 a block of U's
 * row panel, threads 16..31 a block of L's column panel); a 2-D grid of
 * 16x16 blocks updates the trailing matrix with a shared-memory tile product. */
#include <cuda_runtime.h>
#include "lud_common.h"

#define B LUD_BLOCK

__global__ void lud_diagonal(float *m, int n, int o) {
    __shared__ float d[B][B];
    int tx = threadIdx.x;
    for (int i = 0; i < B; i++) d[i][tx] = m[(size_t)(o + i) * n + o + tx];
    __syncthreads();
    for (int k = 0; k < B - 1; k++) {
        if (tx > k) d[tx][k] /= d[k][k];
        __syncthreads();
        if (tx > k)
            for (int j = k + 1; j < B; j++) d[tx][j] -= d[tx][k] * d[k][j];
        __syncthreads();
    }
    for (int i = 0; i < B; i++) m[(size_t)(o + i) * n + o + tx] = d[i][tx];
}

__global__ void lud_perimeter(float *m, int n, int o) {
    __shared__ float d[B][B];
    __shared__ float row[B][B];
    __shared__ float col[B][B];
    int tx = threadIdx.x;
    int off = o + (blockIdx.x + 1) * B;  /* the perimeter block's offset */
    if (tx < B) {
        for (int i = 0; i < B; i++) {
            d[i][tx] = m[(size_t)(o + i) * n + o + tx];
            row[i][tx] = m[(size_t)(o + i) * n + off + tx];
        }
    } else {
        int t = tx - B;
        for (int i = 0; i < B; i++) col[i][t] = m[(size_t)(off + i) * n + o + t];
    }
    __syncthreads();
    if (tx < B) {
        /* Column tx of U's block: forward substitution with unit L. */
        for (int i = 1; i < B; i++)
            for (int j = 0; j < i; j++) row[i][tx] -= d[i][j] * row[j][tx];
        for (int i = 0; i < B; i++) m[(size_t)(o + i) * n + off + tx] = row[i][tx];
    } else {
        /* Row t of L's block: solve against U. */
        int t = tx - B;
        for (int j = 0; j < B; j++) {
            for (int k = 0; k < j; k++) col[t][j] -= col[t][k] * d[k][j];
            col[t][j] /= d[j][j];
        }
        /* Each thread writes the row it solved (no other thread's row may
         * be complete yet: there is no barrier here). */
        for (int j = 0; j < B; j++) m[(size_t)(off + t) * n + o + j] = col[t][j];
    }
}

__global__ void lud_internal(float *m, int n, int o) {
    __shared__ float row[B][B];
    __shared__ float col[B][B];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = o + (blockIdx.y + 1) * B, c = o + (blockIdx.x + 1) * B;
    row[ty][tx] = m[(size_t)(o + ty) * n + c + tx];
    col[ty][tx] = m[(size_t)(r + ty) * n + o + tx];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < B; k++) sum += col[ty][k] * row[k][tx];
    m[(size_t)(r + ty) * n + c + tx] -= sum;
}

int main(int argc, char **argv) {
    rd_usage(argc, argv, 2, "SIZE OUTPUT");
    int n = rd_arg_int(argv[1], "size");
    rd_require(n % B == 0, "the size must be a multiple of %d\n", B);
    float *m = lud_generate(n);
    size_t bytes = (size_t)n * n * sizeof(float);
    float *d_m;
    RD_CUDA_CHECK(cudaMalloc(&d_m, bytes));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_m, m, bytes, cudaMemcpyHostToDevice));
    int o;
    for (o = 0; o < n - B; o += B) {
        lud_diagonal<<<1, B>>>(d_m, n, o);
        int rest = (n - o) / B - 1;
        lud_perimeter<<<rest, 2 * B>>>(d_m, n, o);
        dim3 grid(rest, rest);
        dim3 block(B, B);
        lud_internal<<<grid, block>>>(d_m, n, o);
    }
    lud_diagonal<<<1, B>>>(d_m, n, o);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(m, d_m, bytes, cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    lud_write(argv[2], n, m);
    cudaFree(d_m);
    free(m);
    return 0;
}
