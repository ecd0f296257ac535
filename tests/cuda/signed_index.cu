// Signed index arithmetic (integers, exact): indices computed in `int` from
// `int` copies of the thread and block ids, negative offsets (`i + k` with
// k from 3 down to -3, `x - 1` at x = 0) under guards, a shared tile with a
// halo loaded by the edge threads, reversed indexing `n - 1 - i`, and
// `long long` products of negative factors. cucc marks this arithmetic
// `nsw` and emits it as signed C; the results must not change.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define R 3
#define TILE 16

__global__ void window1d(const int *in, int *out, int n) {
    int tx = threadIdx.x, bx = blockIdx.x, bd = blockDim.x;
    int i = bx * bd + tx;
    if (i >= n) return;
    int acc = 0;
    for (int k = R; k >= -R; --k) {
        int j = i + k;
        if (j < 0 || j >= n) continue;
        acc += in[j] * (k - 2 * R);
    }
    int left = i - 1;
    acc -= left >= 0 ? in[left] : 0;
    out[i] = acc;
}

__global__ void halo2d(const int *in, int *out, int w, int h) {
    __shared__ int tile[TILE + 2][TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int bx = blockIdx.x, by = blockIdx.y;
    int x = bx * TILE + tx, y = by * TILE + ty;
    bool inside = x < w && y < h;
    tile[ty + 1][tx + 1] = inside ? in[y * w + x] : 0;
    if (tx == 0) {
        int xl = x - 1;
        tile[ty + 1][0] = (xl >= 0 && y < h) ? in[y * w + xl] : 0;
    }
    if (tx == TILE - 1) {
        int xr = x + 1;
        tile[ty + 1][TILE + 1] = (xr < w && y < h) ? in[y * w + xr] : 0;
    }
    if (ty == 0) {
        int yu = y - 1;
        tile[0][tx + 1] = (yu >= 0 && x < w) ? in[yu * w + x] : 0;
    }
    if (ty == TILE - 1) {
        int yd = y + 1;
        tile[TILE + 1][tx + 1] = (yd < h && x < w) ? in[yd * w + x] : 0;
    }
    __syncthreads();
    if (inside) {
        int v = 4 * tile[ty + 1][tx + 1];
        v -= tile[ty][tx + 1] + tile[ty + 2][tx + 1];
        v -= tile[ty + 1][tx] + tile[ty + 1][tx + 2];
        out[y * w + x] = v;
    }
}

__global__ void reverse_mix(const int *in, int *out, long long *wide, int n) {
    int i = (int)blockIdx.x * (int)blockDim.x + (int)threadIdx.x;
    if (i < n) {
        int r = n - 1 - i;
        out[r] = in[i] - 2 * in[r];
        long long f = (long long)(i - n / 2) * -3000000007LL;
        wide[i] = f + (long long)in[r] * (long long)(r - i);
    }
}

static int at(const int *a, int n, int k) { return k >= 0 && k < n ? a[k] : 0; }

int main() {
    int bad = 0;

    const int n = 300;
    int *hin = (int *)malloc(n * sizeof(int));
    for (int k = 0; k < n; k++) hin[k] = (k * 37) % 101 - 50;
    int *din, *dout;
    long long *dwide;
    alloc_copy(&din, hin, n * sizeof(int));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMalloc(&dwide, n * sizeof(long long)));
    window1d<<<(n + 63) / 64, 64>>>(din, dout, n);
    CHECK(cudaGetLastError());
    int *hout = (int *)malloc(n * sizeof(int));
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int want = 0;
        for (int k = R; k >= -R; --k) want += at(hin, n, i + k) * (k - 2 * R);
        want -= at(hin, n, i - 1);
        if (hout[i] != want) {
            if (bad < 5) printf("window1d[%d] = %d, want %d\n", i, hout[i], want);
            bad++;
        }
    }

    reverse_mix<<<(n + 127) / 128, 128>>>(din, dout, dwide, n);
    CHECK(cudaGetLastError());
    long long *hwide = (long long *)malloc(n * sizeof(long long));
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hwide, dwide, n * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int r = n - 1 - i;
        int want = hin[r] - 2 * hin[i];
        long long wwant = (long long)(i - n / 2) * -3000000007LL + (long long)hin[r] * (r - i);
        if (hout[i] != want || hwide[i] != wwant) {
            if (bad < 5) printf("reverse_mix[%d] = %d %lld, want %d %lld\n", i, hout[i], hwide[i], want, wwant);
            bad++;
        }
    }

    const int w = 37, h = 21;
    int *hg = (int *)malloc(w * h * sizeof(int));
    for (int k = 0; k < w * h; k++) hg[k] = (k * 53) % 97 - 48;
    int *dg, *dgo;
    alloc_copy(&dg, hg, w * h * sizeof(int));
    CHECK(cudaMalloc(&dgo, w * h * sizeof(int)));
    dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, TILE);
    halo2d<<<grid, block>>>(dg, dgo, w, h);
    CHECK(cudaGetLastError());
    int *hgo = (int *)malloc(w * h * sizeof(int));
    CHECK(cudaMemcpy(hgo, dgo, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int c = hg[y * w + x];
            int up = y > 0 ? hg[(y - 1) * w + x] : 0, down = y + 1 < h ? hg[(y + 1) * w + x] : 0;
            int left = x > 0 ? hg[y * w + x - 1] : 0, right = x + 1 < w ? hg[y * w + x + 1] : 0;
            int want = 4 * c - up - down - left - right;
            if (hgo[y * w + x] != want) {
                if (bad < 5) printf("halo2d[%d][%d] = %d, want %d\n", y, x, hgo[y * w + x], want);
                bad++;
            }
        }
    }

    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dwide));
    CHECK(cudaFree(dg));
    CHECK(cudaFree(dgo));
    free(hin);
    free(hout);
    free(hwide);
    free(hg);
    free(hgo);
    return report("signed_index", bad);
}
