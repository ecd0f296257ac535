// Fast float intrinsics (__expf, __logf, __sinf, __cosf, __tanf, __powf,
// __fdividef, __saturatef, __frsqrt_rn) and IEEE-rounded intrinsics
// (__fadd_rn, __fmul_rn, __fmaf_rn, __fsqrt_rn, __frcp_rn, __fdiv_rn). The
// fast ones are checked with a relative tolerance of 1e-3 plus absolute
// 1e-4 (hardware approximations), the rounded ones exactly.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NFAST 8
#define NEXACT 6

__global__ void fast_kernel(const float *x, const float *y, float *fast, float *exact, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i];
    float *f = fast + i * NFAST;
    f[0] = __expf(a);
    f[1] = __logf(b);
    f[2] = __sinf(a);
    f[3] = __cosf(a);
    f[4] = __tanf(a * 0.25f);
    f[5] = __powf(b, 1.25f);
    f[6] = __fdividef(a, b);
    f[7] = __saturatef(a * 0.5f);
    float *e = exact + i * NEXACT;
    e[0] = __fadd_rn(a, b);
    e[1] = __fmul_rn(a, b);
    e[2] = __fmaf_rn(a, b, 0.5f);
    e[3] = __fsqrt_rn(b);
    e[4] = __frcp_rn(b);
    e[5] = __fdiv_rn(a, b);
}

int main() {
    const int n = 96;
    float hx[n], hy[n], hf[n * NFAST], he[n * NEXACT];
    for (int i = 0; i < n; ++i) {
        hx[i] = (i - 48) * 0.0625f;
        hy[i] = 0.25f + i * 0.125f;
    }
    float *dx, *dy, *df, *de;
    alloc_copy(&dx, hx, sizeof(hx));
    alloc_copy(&dy, hy, sizeof(hy));
    CHECK(cudaMalloc(&df, sizeof(hf)));
    CHECK(cudaMalloc(&de, sizeof(he)));
    fast_kernel<<<3, 32>>>(dx, dy, df, de, n);
    copy_back(hf, df, sizeof(hf));
    CHECK(cudaMemcpy(he, de, sizeof(he), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float a = hx[i], b = hy[i];
        float s = a * 0.5f;
        float wf[NFAST] = {std::exp(a), std::log(b), std::sin(a), std::cos(a), std::tan(a * 0.25f),
                           std::pow(b, 1.25f), a / b, s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s)};
        float we[NEXACT] = {a + b, a * b, std::fma(a, b, 0.5f), std::sqrt(b), 1.0f / b, a / b};
        for (int k = 0; k < NFAST; ++k)
            if (std::fabs(hf[i * NFAST + k] - wf[k]) > 1e-3f * std::fabs(wf[k]) + 1e-4f) {
                if (bad < 5) printf("fast %d.%d: got %.9g want %.9g\n", i, k, hf[i * NFAST + k], wf[k]);
                ++bad;
            }
        check_row("exact", i, he + i * NEXACT, we, NEXACT, bad);
    }
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(df);
    cudaFree(de);
    return report("fast_intrinsics", bad);
}
