// extern __shared__ arrays sized at launch: a block-local rotate, and one
// dynamic buffer split into an int and a float region.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void rotate(const float *in, float *out, int shift) {
    extern __shared__ float buf[];
    int t = threadIdx.x;
    int n = blockDim.x;
    buf[t] = in[blockIdx.x * n + t];
    __syncthreads();
    out[blockIdx.x * n + t] = buf[(t + shift) % n];
}

__global__ void split(const int *in, int *iout, float *fout) {
    extern __shared__ int raw[];
    int n = blockDim.x;
    int *counts = raw;
    float *weights = (float *)&raw[n];
    int t = threadIdx.x;
    counts[t] = in[blockIdx.x * n + t];
    weights[t] = counts[t] * 0.5f;
    __syncthreads();
    iout[blockIdx.x * n + t] = counts[n - 1 - t] + counts[t];
    fout[blockIdx.x * n + t] = weights[(t + 1) % n] + weights[t];
}

int main() {
    int bad = 0;
    const int blocks = 4, bs = 96, n = blocks * bs, shift = 5;
    float hin[n], hout[n];
    for (int i = 0; i < n; ++i) hin[i] = i * 0.25f;
    float *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    rotate<<<blocks, bs, bs * sizeof(float)>>>(din, dout, shift);
    copy_back(hout, dout, sizeof(hout));
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < bs; ++t)
            if (hout[b * bs + t] != hin[b * bs + (t + shift) % bs]) {
                if (bad < 5) printf("rotate %d,%d differs\n", b, t);
                ++bad;
            }

    const int bs2 = 64, n2 = 2 * bs2;
    int hi[n2], hio[n2];
    float hfo[n2];
    for (int i = 0; i < n2; ++i) hi[i] = (i * 31) % 97;
    int *di, *dio;
    float *dfo;
    alloc_copy(&di, hi, sizeof(hi));
    CHECK(cudaMalloc(&dio, sizeof(hio)));
    CHECK(cudaMalloc(&dfo, sizeof(hfo)));
    split<<<2, bs2, bs2 * (sizeof(int) + sizeof(float))>>>(di, dio, dfo);
    copy_back(hio, dio, sizeof(hio));
    CHECK(cudaMemcpy(hfo, dfo, sizeof(hfo), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < bs2; ++t) {
            const int *c = hi + b * bs2;
            if (hio[b * bs2 + t] != c[bs2 - 1 - t] + c[t] ||
                hfo[b * bs2 + t] != c[(t + 1) % bs2] * 0.5f + c[t] * 0.5f) {
                if (bad < 5) printf("split %d,%d differs\n", b, t);
                ++bad;
            }
        }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(di);
    cudaFree(dio);
    cudaFree(dfo);
    return report("shared_dynamic", bad);
}
