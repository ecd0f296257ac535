// corpus: runtime-api
// Symbols: cudaMemcpyToSymbol/FromSymbol with offsets into __constant__ and
// __device__ arrays, device-to-device kinds, the Async forms on a stream,
// cudaGetSymbolAddress (the address kernels see, usable with cudaMemcpy and
// as a kernel argument) and cudaGetSymbolSize, and the errors for
// out-of-range offsets and a wrong direction.
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "expect.h"

struct Params {
    float scale;
    int offset;
    double weights[4];
};

__constant__ float coeffs[64];
__constant__ Params params;
__device__ int results[32];
__device__ unsigned long long counter;

__global__ void apply(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = coeffs[i % 64] * params.scale + (float)params.offset + (float)params.weights[i % 4];
    if (i < 32) results[i] = i * params.offset;
    atomicAdd(&counter, 1ull);
}

__global__ void through_pointer(int *p, int n) {
    int i = threadIdx.x;
    if (i < n) p[i] += 1000;
}

int main() {
    // Sizes of each symbol.
    size_t size = 0;
    CHECK(cudaGetSymbolSize(&size, coeffs));
    EXPECT(size == 64 * sizeof(float));
    CHECK(cudaGetSymbolSize(&size, params));
    EXPECT(size == sizeof(Params));
    CHECK(cudaGetSymbolSize(&size, counter));
    EXPECT(size == sizeof(unsigned long long));

    // Fill coeffs in two halves, the second with an offset.
    float lo[32], hi[32];
    for (int i = 0; i < 32; ++i) {
        lo[i] = (float)i;
        hi[i] = (float)(100 + i);
    }
    CHECK(cudaMemcpyToSymbol(coeffs, lo, sizeof(lo)));
    CHECK(cudaMemcpyToSymbol(coeffs, hi, sizeof(hi), 32 * sizeof(float)));
    Params p = {2.0f, 3, {0.5, 0.25, 0.125, 0.0625}};
    CHECK(cudaMemcpyToSymbol(params, &p, sizeof(p), 0, cudaMemcpyHostToDevice));
    unsigned long long zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof(zero)));

    const int n = 256;
    float *out;
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    apply<<<n / 64, 64>>>(out, n);
    CHECK(cudaGetLastError());
    float hout[n];
    CHECK(cudaMemcpy(hout, out, sizeof(hout), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        int k = i % 64;
        float c = k < 32 ? (float)k : (float)(100 + k - 32);
        float want = c * 2.0f + 3.0f + (float)p.weights[i % 4];
        if (hout[i] != want) {
            if (bad < 5) printf("apply %d: %g want %g\n", i, hout[i], want);
            ++bad;
        }
    }

    // Read back part of a symbol with an offset, and a field of a struct.
    int part[8];
    CHECK(cudaMemcpyFromSymbol(part, results, sizeof(part), 20 * sizeof(int)));
    for (int k = 0; k < 8; ++k) EXPECT(part[k] == (20 + k) * 3);
    double w2 = 0;
    CHECK(cudaMemcpyFromSymbol(&w2, params, sizeof(double),
                               offsetof(Params, weights) + 2 * sizeof(double)));
    EXPECT(w2 == 0.125);
    unsigned long long count = 0;
    CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof(count), 0, cudaMemcpyDeviceToHost));
    EXPECT(count == (unsigned long long)n);

    // The symbol's address is device memory kernels and copies can use.
    int *results_addr = nullptr;
    CHECK(cudaGetSymbolAddress((void **)&results_addr, results));
    EXPECT(results_addr != nullptr);
    through_pointer<<<1, 32>>>(results_addr, 32);
    CHECK(cudaMemcpy(part, results_addr + 4, sizeof(part), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 8; ++k) EXPECT(part[k] == (4 + k) * 3 + 1000);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, results_addr));
    EXPECT(attr.type == cudaMemoryTypeDevice);

    // Device-to-device symbol copies: from a buffer into a symbol and out.
    int *dbuf;
    CHECK(cudaMalloc(&dbuf, 32 * sizeof(int)));
    int seq[32];
    for (int i = 0; i < 32; ++i) seq[i] = 7 * i;
    CHECK(cudaMemcpy(dbuf, seq, sizeof(seq), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(results, dbuf, 16 * sizeof(int), 16 * sizeof(int),
                             cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpyFromSymbol(dbuf, results, 32 * sizeof(int), 0, cudaMemcpyDeviceToDevice));
    int all[32];
    CHECK(cudaMemcpy(all, dbuf, sizeof(all), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; ++i) {
        int want = i < 16 ? i * 3 + 1000 : 7 * (i - 16);
        if (all[i] != want) {
            if (bad < 5) printf("d2d symbol %d: %d want %d\n", i, all[i], want);
            ++bad;
        }
    }

    // The Async forms, ordered on one stream with a launch in between.
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    float *pinned;
    CHECK(cudaMallocHost(&pinned, (8 + 64) * sizeof(float)));
    for (int i = 0; i < 64; ++i) pinned[i] = 1.0f;
    CHECK(cudaMemcpyToSymbolAsync(coeffs, pinned, 64 * sizeof(float), 0, cudaMemcpyHostToDevice, s));
    Params q = {1.0f, 0, {0, 0, 0, 0}};
    CHECK(cudaMemcpyToSymbolAsync(params, &q, sizeof(q), 0, cudaMemcpyHostToDevice, s));
    apply<<<1, 64, 0, s>>>(out, 64);
    CHECK(cudaMemcpyFromSymbolAsync(pinned, coeffs, 8 * sizeof(float), 56 * sizeof(float),
                                    cudaMemcpyDeviceToHost, s));
    CHECK(cudaMemcpyAsync(pinned + 8, out, 64 * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < 8 + 64; ++i)
        if (pinned[i] != 1.0f) {
            if (bad < 5) printf("async %d: %g\n", i, pinned[i]);
            ++bad;
        }

    // Past the end of the symbol, and a direction a symbol cannot take.
    EXPECT(cudaMemcpyToSymbol(coeffs, lo, sizeof(lo), 40 * sizeof(float)) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaMemcpyFromSymbol(part, results, sizeof(part), 0, cudaMemcpyHostToDevice) ==
           cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaGetLastError() == cudaSuccess);

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(out));
    CHECK(cudaFree(dbuf));
    return report("api_symbols", bad);
}
