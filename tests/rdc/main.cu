// Kernels calling device functions of other translation units.
#include <cstdio>
#include "rdc.h"

__global__ void advance(float *x, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = step(x[i], dt) + twice(lookup(i % 16));
        atomicAdd(&steps_taken, 1);
    }
}

int main() {
    const int n = 100;
    float h[n], *d;
    for (int i = 0; i < n; i++) h[i] = (float)i;
    float t[16];
    for (int i = 0; i < 16; i++) t[i] = 0.5f * (float)i;
    if (cudaMemcpyToSymbol(table, t, sizeof t) != cudaSuccess) { printf("FAIL symbol\n"); return 1; }
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    advance<<<(n + 31) / 32, 32>>>(d, n, 0.25f);
    advance<<<(n + 31) / 32, 32>>>(d, n, 0.25f);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int taken = 0;
    cudaMemcpyFromSymbol(&taken, steps_taken, sizeof taken);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float x = (float)i;
        for (int r = 0; r < 2; r++) x = (x + 0.25f * (3.0f * x)) + 2.0f * (0.5f * (float)(i % 16) + 1.0f);
        if (h[i] != x) { if (bad++ < 5) printf("x[%d] = %f, expected %f\n", i, h[i], x); }
    }
    if (taken != 2 * n) { printf("steps_taken = %d, expected %d\n", taken, 2 * n); bad++; }
    if (bad) { printf("FAIL rdc\n"); return 1; }
    printf("PASS rdc\n");
    return 0;
}
