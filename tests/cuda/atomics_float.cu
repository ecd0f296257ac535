// Floating-point atomics: atomicAdd on float and double (global and
// shared) and atomicExch on float. The addends are small multiples of 1/4,
// so every order of additions gives the same exact sum.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void float_atomics(float *fsum, double *dsum, float *slots, float *block_sums, int n) {
    __shared__ float s_sum;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t == 0) s_sum = 0.0f;
    __syncthreads();
    if (i < n) {
        atomicAdd(fsum, (i % 17) * 0.25f);
        atomicAdd(dsum, i * 0.5 + 1e9);
        float old = atomicExch(&slots[i], i * 1.5f);
        slots[n + i] = old;
        atomicAdd(&s_sum, 1.0f + (t % 4) * 0.25f);
    }
    __syncthreads();
    if (t == 0) block_sums[blockIdx.x] = s_sum;
}

int main() {
    const int n = 256, bs = 64, blocks = n / bs;
    float hslots[2 * n];
    for (int i = 0; i < n; ++i) hslots[i] = -(float)i;
    float *dfsum, *dslots, *dblock;
    double *ddsum;
    float hf = 0.0f;
    double hd = 0.0;
    alloc_copy(&dfsum, &hf, sizeof(float));
    alloc_copy(&ddsum, &hd, sizeof(double));
    CHECK(cudaMalloc(&dslots, sizeof(hslots)));
    CHECK(cudaMalloc(&dblock, blocks * sizeof(float)));
    CHECK(cudaMemcpy(dslots, hslots, n * sizeof(float), cudaMemcpyHostToDevice));
    float_atomics<<<blocks, bs>>>(dfsum, ddsum, dslots, dblock, n);
    CHECK(cudaGetLastError());
    float rblock[blocks], rslots[2 * n];
    CHECK(cudaMemcpy(&hf, dfsum, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hd, ddsum, sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rslots, dslots, sizeof(rslots), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rblock, dblock, sizeof(rblock), cudaMemcpyDeviceToHost));
    float wf = 0.0f;
    double wd = 0.0;
    float wblock = 0.0f;
    for (int i = 0; i < n; ++i) {
        wf += (i % 17) * 0.25f;
        wd += i * 0.5 + 1e9;
    }
    for (int t = 0; t < bs; ++t) wblock += 1.0f + (t % 4) * 0.25f;
    int bad = 0;
    if (hf != wf || hd != wd) {
        printf("sums: got %f %f want %f %f\n", hf, hd, wf, wd);
        ++bad;
    }
    for (int b = 0; b < blocks; ++b)
        if (rblock[b] != wblock) ++bad;
    for (int i = 0; i < n; ++i)
        if (rslots[i] != i * 1.5f || rslots[n + i] != -(float)i) ++bad;
    cudaFree(dfsum);
    cudaFree(ddsum);
    cudaFree(dslots);
    cudaFree(dblock);
    return report("atomics_float", bad);
}
