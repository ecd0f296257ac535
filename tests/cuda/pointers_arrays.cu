// Pointer arithmetic, pointer differences, pointers to pointers, local
// multi-dimensional arrays and a pointer-to-array kernel parameter.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__device__ int sum_range(const int *begin, const int *end) {
    int s = 0;
    for (const int *p = begin; p != end; ++p) s += *p;
    return s;
}

__global__ void rows(const int *in, int *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const int *row = in + t * 8;
    int local[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) local[i][j] = row[(i + j) % 8] * (i + 1) - j;
    int *flat = &local[0][0];
    int diag = 0;
    for (int k = 0; k < 4; ++k) diag += *(flat + k * 5);
    const int *mid = row + 4;
    long long dist = mid - row;
    int *pp[2] = {&local[1][0], &local[3][0]};
    int **q = pp;
    int *last = &row[7] == &in[t * 8 + 7] ? (int *)&local[3][3] : nullptr;
    out[t * 4 + 0] = sum_range(row, row + 8);
    out[t * 4 + 1] = diag;
    out[t * 4 + 2] = (int)dist * (*q[1] + *(q[0] + 2));
    out[t * 4 + 3] = *last - *(row + 6) + (int)(&local[2][1] - &local[0][0]);
}

__global__ void scale_rows(float (*m)[8], int nrows) {
    int r = blockIdx.x;
    int c = threadIdx.x;
    if (r < nrows) m[r][c] = m[r][c] * 2.0f + (float)r;
}

int main() {
    const int n = 40;
    static int hin[n * 8], hout[n * 4];
    for (int i = 0; i < n * 8; ++i) hin[i] = (i * 37) % 101 - 50;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    rows<<<2, 32>>>(din, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int t = 0; t < n; ++t) {
        const int *row = hin + t * 8;
        int local[4][4];
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) local[i][j] = row[(i + j) % 8] * (i + 1) - j;
        int sum = 0, diag = 0;
        for (int k = 0; k < 8; ++k) sum += row[k];
        for (int k = 0; k < 4; ++k) diag += local[k][k];
        int want[4] = {sum, diag, 4 * (local[3][0] + local[1][2]), local[3][3] - row[6] + 9};
        check_row("rows", t, hout + t * 4, want, 4, bad);
    }
    const int nr = 6;
    float hm[nr][8], hm2[nr][8];
    for (int r = 0; r < nr; ++r)
        for (int c = 0; c < 8; ++c) hm[r][c] = (float)(r * 8 + c) * 0.5f;
    float(*dm)[8];
    alloc_copy(&dm, hm, sizeof(hm));
    scale_rows<<<nr, 8>>>(dm, nr);
    CHECK(cudaMemcpy(hm2, dm, sizeof(hm2), cudaMemcpyDeviceToHost));
    for (int r = 0; r < nr; ++r)
        for (int c = 0; c < 8; ++c)
            if (hm2[r][c] != hm[r][c] * 2.0f + (float)r) {
                if (bad < 5) printf("scale_rows %d,%d differs\n", r, c);
                ++bad;
            }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dm);
    return report("pointers_arrays", bad);
}
