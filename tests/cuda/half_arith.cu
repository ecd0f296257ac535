// half precision (cuda_fp16.h): conversions, intrinsics and operators.
// Inputs are multiples of 1/8 with small magnitude, so every result is exact
// in half precision and is compared exactly.
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void half_ops(const float *a, const float *b, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    half x = __float2half(a[i]);
    half y = __float2half(b[i]);
    half s = __hadd(x, y);
    half d = __hsub(x, y);
    half p = __hmul(x, y);
    half f = __hfma(x, y, s);
    half o = x * y + s - d;  // operator overloads
    out[6 * i + 0] = __half2float(s);
    out[6 * i + 1] = __half2float(d);
    out[6 * i + 2] = __half2float(p);
    out[6 * i + 3] = __half2float(f);
    out[6 * i + 4] = __half2float(o);
    out[6 * i + 5] = __hlt(x, y) ? 1.0f : (__heq(x, y) ? 0.5f : 0.0f);
}

int main() {
    const int n = 96;
    float ha[n], hb[n], hout[6 * n];
    for (int i = 0; i < n; ++i) {
        ha[i] = (i % 16) * 0.5f - 3.0f;
        hb[i] = (i % 7) * 0.25f + 1.0f;
    }
    float *da, *db, *dout;
    alloc_copy(&da, ha, sizeof(ha));
    alloc_copy(&db, hb, sizeof(hb));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    half_ops<<<3, 32>>>(da, db, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float x = ha[i], y = hb[i];
        float want[6] = {x + y, x - y, x * y, x * y + (x + y), x * y + (x + y) - (x - y),
                         x < y ? 1.0f : (x == y ? 0.5f : 0.0f)};
        check_row("element", i, hout + i * 6, want, 6, bad);
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    return report("half_arith", bad);
}
