// Arithmetic rounded toward zero, up and down: __fadd_rz/ru/rd, __fsub_rd,
// __fmul_ru, __fdiv_rz, __frcp_rd, __fsqrt_ru, __fmaf_rd/ru and their double
// forms, on exact, inexact, overflowing, subnormal and exactly cancelling
// inputs. The reference is the host's own IEEE arithmetic under fesetround,
// compared bit for bit.
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "check.h"

#define NF 10
#define ND 7

__global__ void directed(const float *a, const float *b, const float *c, const double *da,
                         const double *db, float *of, double *od, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float x = a[t], y = b[t], z = c[t];
    of[0 * n + t] = __fadd_rz(x, y);
    of[1 * n + t] = __fadd_ru(x, y);
    of[2 * n + t] = __fadd_rd(x, y);
    of[3 * n + t] = __fsub_rd(x, y);
    of[4 * n + t] = __fmul_ru(x, y);
    of[5 * n + t] = __fdiv_rz(x, y);
    of[6 * n + t] = __frcp_rd(x);
    of[7 * n + t] = __fsqrt_ru(fabsf(x));
    of[8 * n + t] = __fmaf_rd(x, y, z);
    of[9 * n + t] = __fmaf_ru(x, y, z);
    double p = da[t], q = db[t];
    od[0 * n + t] = __dadd_rd(p, q);
    od[1 * n + t] = __dsub_ru(p, q);
    od[2 * n + t] = __dmul_rz(p, q);
    od[3 * n + t] = __ddiv_ru(p, q);
    od[4 * n + t] = __drcp_rz(p);
    od[5 * n + t] = __dsqrt_rd(fabs(p));
    od[6 * n + t] = __dmul_rd(p, q);
}

// The host computes each result with the FPU's rounding mode set; volatile
// operands keep the compiler from folding or moving the operations.
static float hf(int k, float x, float y, float z) {
    volatile float vx = x, vy = y, vz = z;
    int mode = k == 0 || k == 5 ? FE_TOWARDZERO
               : k == 1 || k == 4 || k == 7 || k == 9 ? FE_UPWARD
                                                       : FE_DOWNWARD;
    fesetround(mode);
    volatile float r;
    switch (k) {
    case 0: case 1: case 2: r = vx + vy; break;
    case 3: r = vx - vy; break;
    case 4: r = vx * vy; break;
    case 5: r = vx / vy; break;
    case 6: r = 1.0f / vx; break;
    case 7: r = sqrtf(fabsf(vx)); break;
    default: r = fmaf(vx, vy, vz); break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

static double hd(int k, double p, double q) {
    volatile double vp = p, vq = q;
    int mode = k == 1 || k == 3 ? FE_UPWARD : k == 2 || k == 4 ? FE_TOWARDZERO : FE_DOWNWARD;
    fesetround(mode);
    volatile double r;
    switch (k) {
    case 0: r = vp + vq; break;
    case 1: r = vp - vq; break;
    case 2: case 6: r = vp * vq; break;
    case 3: r = vp / vq; break;
    case 4: r = 1.0 / vp; break;
    default: r = sqrt(fabs(vp)); break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

int main() {
    const float fs[] = {1.0f, -1.0f, 3.0f, 0.1f, -0.0f, 0.0f, 1e-30f, 3.0e38f, 1e-40f, 7.0f};
    const double ds[] = {1.0, -1.0, 3.0, 0.1, -0.0, 0.0, 1e-300, 1.5e308, 4e-320, 7.0};
    const int ns = 10;
    const int n = ns * ns;
    float ha[n], hb[n], hc[n];
    double hda[n], hdb[n];
    for (int t = 0; t < n; ++t) {
        ha[t] = fs[t / ns];
        hb[t] = fs[t % ns];
        // Every third addend cancels the product exactly (an exact zero sum).
        hc[t] = t % 3 == 0 ? -ha[t] * hb[t] : fs[(t * 7) % ns] * 0.37f;
        hda[t] = ds[t / ns];
        hdb[t] = ds[t % ns] * (t % 2 ? 1.0 : 1.0000001);
    }
    float *a, *b, *c, *of;
    double *da, *db, *od;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    CHECK(cudaMalloc(&of, NF * n * sizeof(float)));
    CHECK(cudaMalloc(&da, n * sizeof(double)));
    CHECK(cudaMalloc(&db, n * sizeof(double)));
    CHECK(cudaMalloc(&od, ND * n * sizeof(double)));
    CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(da, hda, sizeof hda, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hdb, sizeof hdb, cudaMemcpyHostToDevice));
    directed<<<(n + 63) / 64, 64>>>(a, b, c, da, db, of, od, n);
    CHECK(cudaGetLastError());
    static float gf[NF * n];
    static double gd[ND * n];
    CHECK(cudaMemcpy(gf, of, sizeof gf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gd, od, sizeof gd, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int k = 0; k < NF; ++k)
        for (int t = 0; t < n; ++t) {
            float want = hf(k, ha[t], hb[t], hc[t]);
            float got = gf[k * n + t];
            if (memcmp(&want, &got, 4) != 0 && !(want != want && got != got)) {
                if (bad < 10) printf("f32 op %d x=%a y=%a z=%a: got %a want %a\n", k, ha[t], hb[t], hc[t], got, want);
                ++bad;
            }
        }
    for (int k = 0; k < ND; ++k)
        for (int t = 0; t < n; ++t) {
            double want = hd(k, hda[t], hdb[t]);
            double got = gd[k * n + t];
            if (memcmp(&want, &got, 8) != 0 && !(want != want && got != got)) {
                if (bad < 10) printf("f64 op %d p=%a q=%a: got %a want %a\n", k, hda[t], hdb[t], got, want);
                ++bad;
            }
        }
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(of);
    cudaFree(da); cudaFree(db); cudaFree(od);
    return report("directed_rounding", bad);
}
