// Half and bfloat16 arithmetic, device math and integer intrinsics.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math_constants.h>
#include <cmath>
#include <cstdio>

__global__ void half_ops(const half *a, const half *b, half *c, __nv_bfloat16 *bf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    half x = a[i] * b[i] + a[i];
    x += __float2half(0.5f);
    x = -x / b[i];
    if (x < a[i] && __hgt(b[i], x))
        x = __hfma(a[i], b[i], x);
    half2 p = __halves2half2(a[i], b[i]);
    p = p * p + __float2half2_rn(1.0f);
    c[i] = x + __low2half(p) + hsqrt(__habs(x));
    float f = __half2float(c[i]) + (float)a[i];
    __nv_bfloat16 y = bf[i] * __float2bfloat16(f) - bf[i];
    bf[i] = y + __nv_bfloat16(2.0f);
}

__global__ void math_ops(float *f, double *d, int *k, unsigned int *u) {
    int i = threadIdx.x;
    float x = f[i];
    double y = d[i];
    f[i] = sinf(x) + cosf(x) + expf(x) + logf(x) + sqrtf(x) + rsqrtf(x) + powf(x, 2.0f) + fabsf(x) + floorf(x) +
           fmaf(x, x, x) + __expf(x) + __logf(x) + __sinf(x) + __cosf(x) + __powf(x, x) + __fdividef(x, 3.0f) +
           __saturatef(x) + sin(x) + std::exp(x) + std::sqrt(x) + fminf(x, 1.0f) + fmaxf(x, 0.0f) + min(x, 2.0f) +
           CUDART_PI_F + erff(x) + exp2f(x) + log2f(x) + tanhf(x) + atan2f(x, 1.0f) + __int_as_float(k[i]);
    d[i] = sin(y) + cos(y) + exp(y) + log(y) + sqrt(y) + pow(y, 2.0) + fabs(y) + floor(y) + ceil(y) + fma(y, y, y) +
           std::pow(y, 3) + std::fabs(y) + rsqrt(y) + tgamma(y) + CUDART_PI + __longlong_as_double(k[i]) +
           max(y, 1.0);
    k[i] = __popc(u[i]) + __clz(k[i]) + __ffs(k[i]) + __popcll(1ull) + __mul24(k[i], 3) + (int)__umulhi(u[i], 7u) +
           (int)__sad(k[i], 3, 1u) + min(k[i], 4) + max(k[i], 5) + abs(k[i]) + __float2int_rn(x) +
           __float_as_int(x) + (int)__brev(u[i]) + __clzll(5ll) + __ffsll(4ll);
    u[i] = __brev(u[i]) + __byte_perm(u[i], 0u, 0x3210u) + __funnelshift_l(u[i], 1u, 3u) + max(u[i], 3u) +
           __umul24(u[i], u[i]) + __usad(u[i], 1u, 2u);
}

int main() {
    half h = __float2half(1.5f);
    half g = h * h + h;
    __nv_bfloat16 b = __float2bfloat16(2.0f);
    printf("%f %f %f\n", __half2float(g), (float)b, std::sqrt(2.0));
    half_ops<<<1, 32>>>(nullptr, nullptr, nullptr, nullptr, 0);
    math_ops<<<1, 32>>>(nullptr, nullptr, nullptr, nullptr);
    return 0;
}
