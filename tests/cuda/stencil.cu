// Stencils: a 1-D radius-3 stencil with a shared-memory halo (integers,
// exact), and a 2-D 5-point Jacobi iteration with shared tiles and halos,
// ping-ponged over several sweeps (float, tolerance 1e-5 relative).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define R 3
#define BS1 64
#define T2 8

__global__ void stencil1d(const int *in, int *out, int n) {
    __shared__ int s[BS1 + 2 * R];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + R;
    s[l] = g < n ? in[g] : 0;
    if (threadIdx.x < R) {
        int left = g - R, right = g + BS1;
        s[l - R] = left >= 0 ? in[left] : 0;
        s[l + BS1] = right < n ? in[right] : 0;
    }
    __syncthreads();
    if (g < n) {
        int acc = 0;
        for (int k = -R; k <= R; ++k) acc += s[l + k] * (k + 4);
        out[g] = acc;
    }
}

__global__ void jacobi(const float *in, float *out, int w, int h) {
    __shared__ float s[T2 + 2][T2 + 2];
    int x = blockIdx.x * T2 + threadIdx.x;
    int y = blockIdx.y * T2 + threadIdx.y;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    bool inside = x < w && y < h;
    s[ly][lx] = inside ? in[y * w + x] : 0.0f;
    if (threadIdx.x == 0) s[ly][0] = (x > 0 && y < h) ? in[y * w + x - 1] : 0.0f;
    if (threadIdx.x == T2 - 1) s[ly][T2 + 1] = (x + 1 < w && y < h) ? in[y * w + x + 1] : 0.0f;
    if (threadIdx.y == 0) s[0][lx] = (y > 0 && x < w) ? in[(y - 1) * w + x] : 0.0f;
    if (threadIdx.y == T2 - 1) s[T2 + 1][lx] = (y + 1 < h && x < w) ? in[(y + 1) * w + x] : 0.0f;
    __syncthreads();
    if (!inside) return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[y * w + x] = s[ly][lx];  // fixed boundary
    } else {
        out[y * w + x] = 0.2f * (s[ly][lx] + s[ly - 1][lx] + s[ly + 1][lx] + s[ly][lx - 1] + s[ly][lx + 1]);
    }
}

int main() {
    int bad = 0;
    const int n = 300;
    int hin[n], hout[n];
    for (int i = 0; i < n; ++i) hin[i] = (i * 13) % 29 - 14;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    stencil1d<<<(n + BS1 - 1) / BS1, BS1>>>(din, dout, n);
    copy_back(hout, dout, sizeof(hout));
    for (int i = 0; i < n; ++i) {
        int acc = 0;
        for (int k = -R; k <= R; ++k)
            if (i + k >= 0 && i + k < n) acc += hin[i + k] * (k + 4);
        if (hout[i] != acc) {
            if (bad < 5) printf("stencil1d %d: got %d want %d\n", i, hout[i], acc);
            ++bad;
        }
    }

    const int w = 20, h = 12, sweeps = 4;
    float hg[w * h], ref[w * h], tmp[w * h];
    for (int i = 0; i < w * h; ++i) hg[i] = (float)((i * 7) % 13);
    float *da, *db;
    alloc_copy(&da, hg, sizeof(hg));
    CHECK(cudaMalloc(&db, sizeof(hg)));
    dim3 block(T2, T2), grid((w + T2 - 1) / T2, (h + T2 - 1) / T2);
    for (int s = 0; s < sweeps; ++s) {
        jacobi<<<grid, block>>>(da, db, w, h);
        float *t = da;
        da = db;
        db = t;
    }
    copy_back(tmp, da, sizeof(tmp));
    for (int i = 0; i < w * h; ++i) ref[i] = hg[i];
    for (int s = 0; s < sweeps; ++s) {
        float next[w * h];
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                int i = y * w + x;
                if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                    next[i] = ref[i];
                else
                    next[i] = 0.2f * (ref[i] + ref[i - w] + ref[i + w] + ref[i - 1] + ref[i + 1]);
            }
        for (int i = 0; i < w * h; ++i) ref[i] = next[i];
    }
    for (int i = 0; i < w * h; ++i)
        if (std::fabs(tmp[i] - ref[i]) > 1e-5f * std::fabs(ref[i]) + 1e-6f) {
            if (bad < 5) printf("jacobi %d: got %f want %f\n", i, tmp[i], ref[i]);
            ++bad;
        }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(da);
    cudaFree(db);
    return report("stencil", bad);
}
