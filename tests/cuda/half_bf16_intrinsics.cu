// half and bfloat16 as real kernels use them: half2 and nv_bfloat162 built
// from floats (half2 h(0.f, 0.f)), __float2half/__half2float,
// __floats2half2_rn, __float22half2_rn, __half22float2, __low2float,
// __high2float, __low2half/__high2half, __halves2half2, __hadd/__hmul/__hfma
// and their half2 forms, __hmax/__hmin, comparisons, and the same for
// bfloat16 (__float2bfloat16, __bfloat162float, __floats2bfloat162_rn,
// __low2float/__high2float, __hadd/__hmul/__hfma, __hmax/__hmin). Every
// input and result is exact in both formats, so results compare exactly.
#include <cstdio>
#include <cstdlib>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "check.h"

#define NH 16

__global__ void half_kernel(const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = x[(i + 1) % n];
    float *o = out + i * NH;
    half2 acc(0.f, 0.f);
    half2 p = __floats2half2_rn(a, b);
    acc = __hadd2(acc, p);
    acc = __hmul2(acc, __float2half2_rn(2.0f));
    o[0] = __low2float(acc);
    o[1] = __high2float(acc);
    __half s = __hfma(__float2half(a), __float2half(0.5f), __float2half(b));
    o[2] = __half2float(s);
    o[3] = __half2float(__hmax(__low2half(p), __high2half(p))) - __half2float(__hmin(p.x, p.y));
    half2 sw = __halves2half2(__high2half(p), __low2half(p));
    float2 f2 = __half22float2(__hfma2(sw, __float22half2_rn(make_float2(1.0f, -1.0f)), p));
    o[4] = f2.x;
    o[5] = f2.y;
    o[6] = (float)(__hlt(__float2half(a), __float2half(b)) + 2 * __hge(p.x, p.y));
    __half h = a;  // converting constructor
    o[7] = (float)(h + __float2half(1.0f));
    __nv_bfloat162 bacc(0.f, 0.f);
    __nv_bfloat162 bp = __floats2bfloat162_rn(a, b);
    bacc = __hadd2(bacc, bp);
    bacc = __hmul2(bacc, __floats2bfloat162_rn(4.0f, 0.5f));
    o[8] = __low2float(bacc);
    o[9] = __high2float(bacc);
    __nv_bfloat16 bs = __hfma(__float2bfloat16(a), __float2bfloat16(2.0f), __float2bfloat16(b));
    o[10] = __bfloat162float(bs);
    o[11] = __bfloat162float(__hmax(bp.x, bp.y)) + __bfloat162float(__hmin(bp.x, bp.y)) * 3.0f;
    o[12] = __bfloat162float(__hsub(__low2bfloat16(bp), __high2bfloat16(bp)));
    float2 bf2 = __bfloat1622float2(__halves2bfloat162(bp.y, bp.x));
    o[13] = bf2.x;
    o[14] = bf2.y;
    o[15] = __half2float(__float2half((float)i * 0.25f)) + __bfloat162float(__float2bfloat16(-(float)i));
}

int main() {
    const int n = 64;
    float hx[n], hout[n * NH];
    for (int i = 0; i < n; ++i) hx[i] = (float)((i * 37) % 61 - 30) * 0.25f;  // multiples of 1/4 in [-7.5, 7.5]
    float *dx, *dout;
    alloc_copy(&dx, hx, sizeof(hx));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    half_kernel<<<2, 32>>>(dx, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float a = hx[i], b = hx[(i + 1) % n];
        float mx = a > b ? a : b, mn = a < b ? a : b;
        float want[NH] = {
            2 * a, 2 * b, a * 0.5f + b, mx - mn, b + a, b - a,
            (float)((a < b) + 2 * (a >= b)), a + 1.0f,
            4 * a, 0.5f * b, 2 * a + b, mx + 3 * mn, a - b, b, a,
            (float)i * 0.25f - (float)i,
        };
        check_row("element", i, hout + i * NH, want, NH, bad);
    }
    cudaFree(dx);
    cudaFree(dout);
    return report("half_bf16_intrinsics", bad);
}
