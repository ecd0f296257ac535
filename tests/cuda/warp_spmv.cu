// Warp-per-row CSR SpMV (32 lanes stride over a row, __shfl_down_sync tree
// reduction in a loop, lane 0 writes) under a guard on the warp's row, and
// `if`s around shuffles: warp-uniform on the warp index, uniform on the
// block, and divergent (lanes < 16, with a 16-lane mask). Values are small
// integers in doubles, so every sum is exact.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define FULL 0xffffffffu

__global__ void spmv_warp(int n, const int *rowptr, const int *col, const double *val,
                          const double *x, double *y) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int row = tid / 32;
    int lane = threadIdx.x % 32;
    if (row < n) {
        double s = 0.0;
        for (int j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32) s += val[j] * x[col[j]];
        for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(FULL, s, off);
        if (lane == 0) y[row] = s;
    }
}

// out[3 * i + 0]: warp sum where the warp's index is even (-1 elsewhere);
// out[3 * i + 1]: in odd blocks, the value of the lane above (xor 1);
// out[3 * i + 2]: lanes 0..15 swap with their xor-2 partner, others keep.
__global__ void guards(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int warp = i / 32;
    int v = in[i];
    int a = -1, b = -1, c = v;
    if (warp % 2 == 0) {
        a = v;
        a += __shfl_xor_sync(FULL, a, 16);
        a += __shfl_xor_sync(FULL, a, 8);
        a += __shfl_xor_sync(FULL, a, 4);
        a += __shfl_xor_sync(FULL, a, 2);
        a += __shfl_xor_sync(FULL, a, 1);
    }
    if (blockIdx.x % 2 == 1) b = __shfl_xor_sync(FULL, v, 1);
    if (lane < 16) c = __shfl_xor_sync(0xffffu, v, 2);
    out[3 * i + 0] = a;
    out[3 * i + 1] = b;
    out[3 * i + 2] = c;
}

int main() {
    // SpMV: 50 rows of 0..77 non-zeros (some longer than a warp, some empty).
    const int n = 50;
    int hrowptr[n + 1];
    hrowptr[0] = 0;
    for (int r = 0; r < n; ++r) hrowptr[r + 1] = hrowptr[r] + (r * 37) % 78;
    const int nnz = hrowptr[n];
    int *hcol = (int *)malloc(nnz * sizeof(int));
    double *hval = (double *)malloc(nnz * sizeof(double));
    double hx[n], hy[n];
    for (int r = 0; r < n; ++r) hx[r] = (double)((r * 7) % 11 - 5);
    for (int k = 0; k < nnz; ++k) {
        hcol[k] = (k * 13) % n;
        hval[k] = (double)((k * 5) % 9 - 4);
    }
    int *drowptr, *dcol;
    double *dval, *dx, *dy;
    alloc_copy(&drowptr, hrowptr, sizeof(hrowptr));
    alloc_copy(&dcol, hcol, nnz * sizeof(int));
    alloc_copy(&dval, hval, nnz * sizeof(double));
    alloc_copy(&dx, hx, sizeof(hx));
    CHECK(cudaMalloc(&dy, sizeof(hy)));
    CHECK(cudaMemset(dy, 0, sizeof(hy)));
    // 64-thread blocks (two warps, two rows each); the last block is partial in rows.
    spmv_warp<<<(n * 32 + 63) / 64, 64>>>(n, drowptr, dcol, dval, dx, dy);
    copy_back(hy, dy, sizeof(hy));
    int bad = 0;
    for (int r = 0; r < n; ++r) {
        double s = 0.0;
        for (int k = hrowptr[r]; k < hrowptr[r + 1]; ++k) s += hval[k] * hx[hcol[k]];
        if (hy[r] != s) {
            if (bad < 5) printf("row %d: got %g want %g\n", r, hy[r], s);
            ++bad;
        }
    }

    const int m = 256;
    int hin[m], hout[3 * m];
    for (int i = 0; i < m; ++i) hin[i] = (i * 29) % 101 - 50;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    guards<<<4, 64>>>(din, dout);
    copy_back(hout, dout, sizeof(hout));
    for (int i = 0; i < m; ++i) {
        int lane = i % 32, w = i / 32, blk = i / 64;
        int sum = 0;
        for (int k = 0; k < 32; ++k) sum += hin[w * 32 + k];
        int want[3] = {w % 2 == 0 ? sum : -1, blk % 2 == 1 ? hin[i ^ 1] : -1, lane < 16 ? hin[i ^ 2] : hin[i]};
        check_row("thread", i, hout + i * 3, want, 3, bad);
    }
    cudaFree(drowptr);
    cudaFree(dcol);
    cudaFree(dval);
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(din);
    cudaFree(dout);
    free(hcol);
    free(hval);
    return report("warp_spmv", bad);
}
