// Float to 8- and 16-bit integer conversions of values out of the narrow
// type's range: nvcc's code converts to 32 bits (rounding toward zero,
// saturating at the 32-bit limits, NaN to 0) and keeps the low bits, so
// (signed char)300.5f is 44 and (unsigned short)-5.0f is 0. The reference
// spells that rule out on the host.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void narrow(const float *f, const double *g, signed char *a, unsigned char *b,
                       short *c, unsigned short *d, signed char *e, unsigned short *h, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    a[t] = (signed char)f[t];
    b[t] = (unsigned char)f[t];
    c[t] = (short)f[t];
    d[t] = (unsigned short)f[t];
    e[t] = (signed char)g[t];
    h[t] = (unsigned short)g[t];
}

static int sat_s32(double x) {
    if (x != x) return 0;
    if (x >= 2147483647.0) return INT_MAX;
    if (x <= -2147483648.0) return INT_MIN;
    return (int)x;
}

static unsigned sat_u32(double x) {
    if (x != x || x <= 0.0) return 0;
    if (x >= 4294967295.0) return UINT_MAX;
    return (unsigned)x;
}

int main() {
    const float fs[] = {300.5f, -200.0f, 70000.0f, -70000.0f, 1e10f, -1e10f, 255.9f, -1.5f,
                        128.0f, -129.0f, 65535.5f, 65536.0f, 3e9f, NAN, INFINITY, -0.5f};
    const int n = sizeof fs / sizeof fs[0];
    double gs[n];
    for (int i = 0; i < n; ++i) gs[i] = (double)fs[i] * 1.5;
    float *f;
    double *g;
    signed char *a, *e;
    unsigned char *b;
    short *c;
    unsigned short *d, *h;
    alloc_copy(&f, fs, sizeof fs);
    alloc_copy(&g, gs, sizeof gs);
    CHECK(cudaMalloc(&a, n));
    CHECK(cudaMalloc(&b, n));
    CHECK(cudaMalloc(&e, n));
    CHECK(cudaMalloc(&c, n * sizeof(short)));
    CHECK(cudaMalloc(&d, n * sizeof(short)));
    CHECK(cudaMalloc(&h, n * sizeof(short)));
    narrow<<<1, 32>>>(f, g, a, b, c, d, e, h, n);
    CHECK(cudaGetLastError());
    signed char ha[n], he[n];
    unsigned char hb[n];
    short hc[n];
    unsigned short hd[n], hh[n];
    CHECK(cudaMemcpy(ha, a, n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, b, n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(he, e, n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hh, h, sizeof hh, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        signed char wa = (signed char)(sat_s32(fs[i]) & 0xff);
        unsigned char wb = (unsigned char)(sat_u32(fs[i]) & 0xff);
        short wc = (short)(sat_s32(fs[i]) & 0xffff);
        unsigned short wd = (unsigned short)(sat_u32(fs[i]) & 0xffff);
        signed char we = (signed char)(sat_s32(gs[i]) & 0xff);
        unsigned short wh = (unsigned short)(sat_u32(gs[i]) & 0xffff);
        if (ha[i] != wa || hb[i] != wb || hc[i] != wc || hd[i] != wd || he[i] != we || hh[i] != wh) {
            printf("%g: got %d %u %d %u %d %u, want %d %u %d %u %d %u\n", fs[i], ha[i], hb[i], hc[i],
                   hd[i], he[i], hh[i], wa, wb, wc, wd, we, wh);
            ++bad;
        }
    }
    cudaFree(f); cudaFree(g); cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(d);
    cudaFree(e); cudaFree(h);
    return report("narrow_float_conversions", bad);
}
