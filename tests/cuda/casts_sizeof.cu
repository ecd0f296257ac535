// Every cast kind C++ allows in device code (static_cast, reinterpret_cast,
// const_cast, C-style and functional casts, implicit conversions between
// integer, floating and boolean types, pointer <-> integer) and
// sizeof/alignof. dynamic_cast and typeid need RTTI, which device code
// does not have.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#include <cstdint>

#define NOUT 20

struct Mixed {
    char c;
    int i;
    double d;
};

enum Color { Red = 1, Green = 2, Blue = 4 };

__host__ __device__ void casts(float f, int i, double d, long long *o) {
    int k = 0;
    o[k++] = static_cast<int>(f);                 // truncation toward zero
    o[k++] = (int)(f * 10.0f);                    // C-style
    o[k++] = int(d);                              // functional
    o[k++] = static_cast<long long>(d * 1000.0);  // double -> 64-bit
    o[k++] = (unsigned char)i;                    // narrowing, modular
    o[k++] = (signed char)(i * 3);                // narrowing to signed
    o[k++] = (short)(i * 1000);
    o[k++] = (unsigned)i;                         // signed -> unsigned
    o[k++] = (long long)(unsigned)i;              // zero extension
    o[k++] = (long long)i;                        // sign extension
    bool b = i;                                   // int -> bool
    bool bf = f;                                  // float -> bool
    o[k++] = b + 2 * bf;
    float g = i;                                  // implicit int -> float
    double h = f;                                 // float -> double
    o[k++] = (long long)(g * 0.5f + h);
    float ff = (float)d;                          // double -> float
    o[k++] = (long long)(ff * 4.0f);
    unsigned uf = (unsigned)(f < 0 ? -f : f);     // float -> unsigned
    o[k++] = uf;
    float bitsrc = f;
    const unsigned *bits = reinterpret_cast<const unsigned *>(&bitsrc);
    o[k++] = *bits;
    const int ci = i;
    int *mut = const_cast<int *>(&ci);
    o[k++] = *mut + 1;
    Color c = static_cast<Color>((i & 3) + 1);
    o[k++] = c;
    int arr[4] = {0, 1, 2, 3};
    uintptr_t p0 = reinterpret_cast<uintptr_t>(&arr[0]);
    uintptr_t p3 = reinterpret_cast<uintptr_t>(&arr[3]);
    o[k++] = (long long)(p3 - p0);
    o[k++] = *reinterpret_cast<int *>(p0 + 2 * sizeof(int));
    o[k++] = (long long)(1u << 31) + (long long)(char)(200 - 256);
}

__global__ void cast_kernel(const float *f, const int *i, const double *d, long long *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) casts(f[t], i[t], d[t], out + t * NOUT);
}

__global__ void sizes(int *out) {
    int k = 0;
    out[k++] = sizeof(char);
    out[k++] = sizeof(short);
    out[k++] = sizeof(int);
    out[k++] = sizeof(long long);
    out[k++] = sizeof(float);
    out[k++] = sizeof(double);
    out[k++] = sizeof(void *);
    out[k++] = sizeof(float4);
    out[k++] = alignof(float4);
    out[k++] = sizeof(double2);
    out[k++] = alignof(double2);
    out[k++] = sizeof(Mixed);
    out[k++] = alignof(Mixed);
    out[k++] = sizeof(int[7]);
    out[k++] = sizeof(char3);
    out[k++] = alignof(int2);
}

int main() {
    const int n = 64;
    float hf[n];
    int hi[n];
    double hd[n];
    long long hout[n * NOUT];
    for (int t = 0; t < n; ++t) {
        hf[t] = (t - 32) * 0.37f;
        hi[t] = (t * 9973) % 1000 - 500;
        hd[t] = (t - 20) * 1.0625;
    }
    float *df;
    int *di;
    double *dd;
    long long *dout;
    alloc_copy(&df, hf, sizeof(hf));
    alloc_copy(&di, hi, sizeof(hi));
    alloc_copy(&dd, hd, sizeof(hd));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    cast_kernel<<<2, 32>>>(df, di, dd, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int t = 0; t < n; ++t) {
        long long want[NOUT];
        casts(hf[t], hi[t], hd[t], want);
        check_row("thread", t, hout + t * NOUT, want, NOUT, bad);
    }
    int hs[16];
    int *ds;
    CHECK(cudaMalloc(&ds, sizeof(hs)));
    sizes<<<1, 1>>>(ds);
    CHECK(cudaMemcpy(hs, ds, sizeof(hs), cudaMemcpyDeviceToHost));
    const int want_sizes[16] = {1, 2, 4, 8, 4, 8, 8, 16, 16, 16, 16, 16, 8, 28, 3, 8};
    for (int k = 0; k < 16; ++k)
        if (hs[k] != want_sizes[k]) {
            printf("sizeof/alignof %d: got %d want %d\n", k, hs[k], want_sizes[k]);
            ++bad;
        }
    cudaFree(df);
    cudaFree(di);
    cudaFree(dd);
    cudaFree(dout);
    cudaFree(ds);
    return report("casts_sizeof", bad);
}
