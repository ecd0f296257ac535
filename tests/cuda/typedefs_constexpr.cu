// cucc-flags: --expt-relaxed-constexpr
// Declarations as real programs write them: <cstdint> typedefs as array
// element and function result types in device code (uint32_t n[10],
// uint32_t f()), a program's own typedefs and aliases, sizeof in const and
// static const initialisers, std::numeric_limits<T>::max/min/lowest/epsilon
// and std::min/std::max in device code (constexpr functions, as nvcc's
// --expt-relaxed-constexpr allows), and a variable template in __constant__
// memory filled with cudaMemcpyToSymbol on two instances.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "check.h"

typedef unsigned short u16;
using word = uint32_t;
typedef word pair_t[2];

struct Rec {
    int a;
    double b;
    char c;
};
const int kRecInts = sizeof(Rec) / sizeof(int);
static const int kVecBytes = sizeof(float4) * 2 + sizeof(u16);
static const size_t kWords = sizeof(pair_t) / sizeof(word);

template <typename T>
__constant__ T coef[4];

__device__ uint32_t mix(uint32_t x) { return x * 2654435769u ^ (x >> 7); }
__device__ u16 low16(word x) { return (u16)(x & 0xffffu); }
__device__ int64_t widen(int32_t x) { return (int64_t)x << 20; }

#define NT 16

__global__ void decls_kernel(const uint32_t *in, int64_t *out, float *fout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t hist[10];
    u16 parts[4];
    pair_t pr;
    for (int k = 0; k < 10; ++k) hist[k] = mix(in[i] + (uint32_t)k);
    for (int k = 0; k < 4; ++k) parts[k] = low16(hist[k] >> k);
    pr[0] = hist[9];
    pr[1] = (word)kWords;
    int64_t *o = out + i * NT;
    o[0] = hist[i % 10];
    o[1] = parts[i % 4];
    o[2] = pr[0] ^ pr[1];
    o[3] = widen((int32_t)in[i]);
    o[4] = kRecInts;
    o[5] = kVecBytes;
    o[6] = std::numeric_limits<int>::max();
    o[7] = std::numeric_limits<int>::min();
    o[8] = std::numeric_limits<uint32_t>::max();
    o[9] = std::numeric_limits<int64_t>::lowest();
    o[10] = std::numeric_limits<u16>::max();
    o[11] = std::min((int)in[i] & 1023, 500) + std::max(i, 7);
    o[12] = std::max<int64_t>(in[i], 3000000000ll);
    o[13] = (int64_t)coef<int>[i % 4];
    o[14] = std::min(hist[1], hist[2]);
    o[15] = (int64_t)sizeof(hist) + sizeof(parts);
    float *f = fout + i * 5;
    f[0] = std::numeric_limits<float>::max();
    f[1] = std::numeric_limits<float>::lowest();
    f[2] = std::numeric_limits<float>::epsilon();
    f[3] = std::numeric_limits<float>::min();
    f[4] = coef<float>[i % 4] * std::max(1.5f, (float)(i % 3));
}

static uint32_t mix_h(uint32_t x) { return x * 2654435769u ^ (x >> 7); }

int main() {
    const int n = 48;
    uint32_t hin[n];
    int64_t hout[n * NT];
    float hf[n * 5];
    for (int i = 0; i < n; ++i) hin[i] = (uint32_t)i * 2246822519u + 7u;
    int ci[4] = {-5, 17, 1 << 20, 3};
    float cf[4] = {0.5f, -2.0f, 8.0f, 0.25f};
    CHECK(cudaMemcpyToSymbol(coef<int>, ci, sizeof(ci)));
    CHECK(cudaMemcpyToSymbol(coef<float>, cf, sizeof(cf)));
    uint32_t *din;
    int64_t *dout;
    float *dfo;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMalloc(&dfo, sizeof(hf)));
    decls_kernel<<<2, 32>>>(din, dout, dfo, n);
    copy_back(hout, dout, sizeof(hout));
    CHECK(cudaMemcpy(hf, dfo, sizeof(hf), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        uint32_t hist[10];
        for (int k = 0; k < 10; ++k) hist[k] = mix_h(hin[i] + (uint32_t)k);
        int64_t want[NT];
        want[0] = hist[i % 10];
        want[1] = (uint16_t)((hist[i % 4] >> (i % 4)) & 0xffffu);
        want[2] = hist[9] ^ 2u;
        want[3] = (int64_t)(int32_t)hin[i] * (1 << 20);
        want[4] = 6;   // sizeof(Rec) == 24
        want[5] = 34;  // 2 * 16 + 2
        want[6] = 2147483647;
        want[7] = -2147483647 - 1;
        want[8] = 4294967295ll;
        want[9] = (int64_t)(-9223372036854775807ll - 1);
        want[10] = 65535;
        int a = (int)hin[i] & 1023;
        want[11] = (a < 500 ? a : 500) + (i > 7 ? i : 7);
        want[12] = hin[i] > 3000000000u ? (int64_t)hin[i] : 3000000000ll;
        want[13] = ci[i % 4];
        want[14] = hist[1] < hist[2] ? hist[1] : hist[2];
        want[15] = 48;
        for (int k = 0; k < NT; ++k)
            if (hout[i * NT + k] != want[k]) {
                if (bad < 5) printf("element %d value %d: got %lld want %lld\n", i, k, (long long)hout[i * NT + k], (long long)want[k]);
                ++bad;
            }
        float wf[5] = {3.40282347e38f, -3.40282347e38f, 1.1920929e-7f, 1.17549435e-38f,
                       cf[i % 4] * ((float)(i % 3) > 1.5f ? (float)(i % 3) : 1.5f)};
        check_row("element", i, hf + i * 5, wf, 5, bad);
    }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dfo);
    return report("typedefs_constexpr", bad);
}
