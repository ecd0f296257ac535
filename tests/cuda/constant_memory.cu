// __constant__ memory: an array set with cudaMemcpyToSymbol, arrays and a
// struct with initialisers, read uniformly and with per-thread indices.
#include <cstdio>
#include <cstdlib>

#include "check.h"

struct Poly {
    int degree;
    float bias;
};

__constant__ float coeffs[8];
__constant__ int offsets[4] = {1, -1, 2, -2};
__constant__ Poly poly = {3, 0.5f};
__constant__ float gain = 2.5f;

__global__ void eval_poly(const float *x, float *y, int *idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = poly.degree; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc * gain + poly.bias + coeffs[4 + i % 4];
    int j = i + offsets[i % 4];
    idx[i] = j < 0 ? 0 : (j >= n ? n - 1 : j);
}

int main() {
    const int n = 100;
    const float hc[8] = {1.0f, -0.5f, 0.25f, 0.125f, 10.0f, 20.0f, 30.0f, 40.0f};
    CHECK(cudaMemcpyToSymbol(coeffs, hc, sizeof(hc)));
    float hx[n], hy[n];
    int hidx[n];
    for (int i = 0; i < n; ++i) hx[i] = (i % 16) * 0.5f - 4.0f;
    float *dx, *dy;
    int *didx;
    alloc_copy(&dx, hx, sizeof(hx));
    CHECK(cudaMalloc(&dy, sizeof(hy)));
    CHECK(cudaMalloc(&didx, sizeof(hidx)));
    eval_poly<<<4, 32>>>(dx, dy, didx, n);
    copy_back(hy, dy, sizeof(hy));
    CHECK(cudaMemcpy(hidx, didx, sizeof(hidx), cudaMemcpyDeviceToHost));
    const int hoff[4] = {1, -1, 2, -2};
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float acc = 0.0f;
        for (int k = 3; k >= 0; --k) acc = acc * hx[i] + hc[k];
        float want = acc * 2.5f + 0.5f + hc[4 + i % 4];
        int j = i + hoff[i % 4];
        int wj = j < 0 ? 0 : (j >= n ? n - 1 : j);
        // Inputs are multiples of 1/2 and the coefficients of 1/8: exact.
        if (hy[i] != want || hidx[i] != wj) {
            if (bad < 5) printf("element %d: got %f/%d want %f/%d\n", i, hy[i], hidx[i], want, wj);
            ++bad;
        }
    }
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(didx);
    return report("constant_memory", bad);
}
