// Built only by nvcc (tests/nvcc_built.rs): PTX instructions that reach
// cucc only through nvcc's PTX. CUDA's SIMD intrinsics (__vadd2,
// __vabsdiffu4, __vcmpgtu4, ... written with lop3, prmt and vabsdiff4 in
// NVIDIA's headers), and inline assembly for bmsk, szext, fns, the prmt
// modes, mul24/mad24 and testp, with amounts of 32 and more and the float
// classes at their edges. The host computes every value from the PTX
// ISA's definitions.
#include <cmath>
#include <cstdio>
#include <cstring>

#define NOUT 20

__device__ unsigned bmsk_clamp(unsigned a, unsigned b) {
    unsigned d;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

__device__ unsigned bmsk_wrap(unsigned a, unsigned b) {
    unsigned d;
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
}

__device__ int szext_clamp_s(unsigned a, unsigned n) {
    int d;
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(n));
    return d;
}

__device__ unsigned prmt_ecl(unsigned a, unsigned b, unsigned c) {
    unsigned d;
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned prmt_b4e(unsigned a, unsigned b, unsigned c) {
    unsigned d;
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ int mad24_hi_sat(int a, int b, int c) {
    int d;
    asm("mad24.hi.sat.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

__device__ unsigned classes(float x) {
    unsigned r = 0, p;
    asm("{ .reg .pred q; testp.finite.f32 q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p) : "f"(x));
    r |= p;
    asm("{ .reg .pred q; testp.infinite.f32 q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p) : "f"(x));
    r |= p << 1;
    asm("{ .reg .pred q; testp.notanumber.f32 q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p) : "f"(x));
    r |= p << 2;
    asm("{ .reg .pred q; testp.normal.f32 q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p) : "f"(x));
    r |= p << 3;
    asm("{ .reg .pred q; testp.subnormal.f32 q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(p) : "f"(x));
    r |= p << 4;
    return r;
}

__global__ void simd_bits(const unsigned *u, const float *f, unsigned *out) {
    int t = threadIdx.x;
    unsigned a = u[2 * t], b = u[2 * t + 1];
    unsigned s = a % 40, n = b % 36;
    unsigned *o = out + NOUT * t;
    o[0] = __vadd2(a, b);
    o[1] = __vsub4(a, b);
    o[2] = __vabsdiffu4(a, b);
    o[3] = __vabsdiffu2(a, b);
    o[4] = __vsadu4(a, b);
    o[5] = __vcmpgtu4(a, b);
    o[6] = __vmaxs2(a, b);
    o[7] = __vminu4(a, b);
    o[8] = __vavgu4(a, b);
    o[9] = __vabsss2(a);
    o[10] = bmsk_clamp(s, n);
    o[11] = bmsk_wrap(s, n);
    o[12] = (unsigned)szext_clamp_s(a, n);
    o[13] = __fns(a, s & 31, (int)n - 18);
    o[14] = prmt_ecl(a, b, s);
    o[15] = prmt_b4e(a, b, s);
    o[16] = __umul24(a, b);
    o[17] = (unsigned)mad24_hi_sat((int)a, (int)b, (int)b);
    o[18] = classes(f[t]);
    o[19] = __vsetltu2(a, b);
}

// Host models, from the PTX ISA's definitions.
static unsigned lanes(unsigned a, unsigned b, int w, long long (*op)(long long, long long), bool sa) {
    unsigned r = 0, m = (1u << w) - 1;
    for (int k = 0; k < 32 / w; ++k) {
        long long x = (a >> (w * k)) & m, y = (b >> (w * k)) & m;
        if (sa) {
            if (x >> (w - 1)) x -= 1ll << w;
            if (y >> (w - 1)) y -= 1ll << w;
        }
        r |= ((unsigned)op(x, y) & m) << (w * k);
    }
    return r;
}
static long long add_(long long x, long long y) { return x + y; }
static long long sub_(long long x, long long y) { return x - y; }
static long long absd(long long x, long long y) { return x > y ? x - y : y - x; }
static long long gt_(long long x, long long y) { return x > y ? -1 : 0; }
static long long lt1(long long x, long long y) { return x < y ? 1 : 0; }
static long long max_(long long x, long long y) { return x > y ? x : y; }
static long long min_(long long x, long long y) { return x < y ? x : y; }
static long long avg(long long x, long long y) { return (x + y + 1) >> 1; }
static long long abss(long long x, long long) {
    long long v = x < 0 ? -x : x;
    return v > 32767 ? 32767 : v;
}

int main() {
    const int n = 64;
    unsigned hu[2 * n], hout[NOUT * n];
    float hf[n];
    unsigned st = 12345;
    for (int i = 0; i < 2 * n; ++i) {
        st = st * 1664525u + 1013904223u;
        hu[i] = st ^ (st >> 15);
    }
    const unsigned special[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x00ffffffu, 0x00800000u, 0x80008000u};
    for (int i = 0; i < 8; ++i) hu[i] = special[i];
    for (int i = 0; i < n; ++i) hf[i] = (float)(i - 30) * 1.5e-3f;
    const float fs[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-45f, 1.17549435e-38f, 3.4e38f};
    for (int i = 0; i < 9; ++i) hf[i] = fs[i];
    unsigned *du, *dout;
    float *df;
    cudaMalloc(&du, sizeof(hu));
    cudaMalloc(&df, sizeof(hf));
    cudaMalloc(&dout, sizeof(hout));
    cudaMemcpy(du, hu, sizeof(hu), cudaMemcpyHostToDevice);
    cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
    simd_bits<<<1, n>>>(du, df, dout);
    cudaError_t e = cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("CUDA error %s\n", cudaGetErrorString(e));
        return 1;
    }
    int bad = 0;
    for (int t = 0; t < n; ++t) {
        unsigned a = hu[2 * t], b = hu[2 * t + 1];
        unsigned s = a % 40, w = b % 36;
        unsigned want[NOUT];
        want[0] = lanes(a, b, 16, add_, false);
        want[1] = lanes(a, b, 8, sub_, false);
        want[2] = lanes(a, b, 8, absd, false);
        want[3] = lanes(a, b, 16, absd, false);
        unsigned sad = 0;
        for (int k = 0; k < 4; ++k) sad += (unsigned)absd((a >> (8 * k)) & 255, (b >> (8 * k)) & 255);
        want[4] = sad;
        want[5] = lanes(a, b, 8, gt_, false);
        want[6] = lanes(a, b, 16, max_, true);
        want[7] = lanes(a, b, 8, min_, false);
        want[8] = lanes(a, b, 8, avg, false);
        want[9] = lanes(a, 0, 16, abss, true);
        // bmsk: bits [s, s + w) of a word; clamp keeps amounts of 32 and
        // more, wrap takes them modulo 32.
        {
            unsigned m = 0;
            if (s < 32 && w != 0)
                for (unsigned k = s; k < s + (w >= 32 ? 32 : w) && k < 32; ++k) m |= 1u << k;
            want[10] = m;
            unsigned p = s & 31, q = w & 31;
            m = 0;
            if (q != 0)
                for (unsigned k = p; k < p + q && k < 32; ++k) m |= 1u << k;
            want[11] = m;
        }
        want[12] = w == 0 ? 0 : w >= 32 ? a : (unsigned)((int)(a << (32 - w)) >> (32 - w));
        {
            unsigned base = s & 31;
            int off = (int)w - 18;
            unsigned r = 0xffffffffu;
            if (off == 0) {
                if ((a >> base) & 1) r = base;
            } else {
                int count = off > 0 ? off : -off, pos = (int)base, inc = off > 0 ? 1 : -1;
                for (; pos >= 0 && pos < 32; pos += inc)
                    if ((a >> pos) & 1) {
                        if (--count == 0) {
                            r = (unsigned)pos;
                            break;
                        }
                    }
            }
            want[13] = r;
        }
        {
            unsigned long long v = ((unsigned long long)b << 32) | a;
            unsigned k = s & 3, r = 0, r2 = 0;
            const unsigned b4e[4] = {0, 7, 6, 5};
            for (unsigned j = 0; j < 4; ++j) {
                unsigned e = j > k ? j : k;
                r |= (unsigned)((v >> (8 * e)) & 255) << (8 * j);
                r2 |= (unsigned)((v >> (8 * ((b4e[j] + k) % 8))) & 255) << (8 * j);
            }
            want[14] = r;
            want[15] = r2;
        }
        want[16] = (a & 0xffffff) * (b & 0xffffff);
        {
            long long x = (long long)((int)(a << 8) >> 8), y = (long long)((int)(b << 8) >> 8);
            long long hi = (long long)(int)(unsigned)((x * y) >> 16) + (long long)(int)b;
            if (hi > 2147483647ll) hi = 2147483647ll;
            if (hi < -2147483648ll) hi = -2147483648ll;
            want[17] = (unsigned)(int)hi;
        }
        {
            float x = hf[t];
            unsigned r = 0;
            r |= std::isfinite(x) ? 1 : 0;
            r |= std::isinf(x) ? 2 : 0;
            r |= std::isnan(x) ? 4 : 0;
            r |= std::isnormal(x) ? 8 : 0;
            r |= std::fpclassify(x) == FP_SUBNORMAL ? 16 : 0;
            want[18] = r;
        }
        want[19] = lanes(a, b, 16, lt1, false);
        for (int k = 0; k < NOUT; ++k)
            if (hout[NOUT * t + k] != want[k]) {
                if (bad < 10) printf("thread %d result %d (a=%08x b=%08x): got %08x want %08x\n", t, k, a, b, hout[NOUT * t + k], want[k]);
                ++bad;
            }
    }
    cudaFree(du);
    cudaFree(df);
    cudaFree(dout);
    if (bad) {
        printf("FAIL ptx_simd_bits (%d mismatches)\n", bad);
        return 1;
    }
    printf("PASS ptx_simd_bits\n");
    return 0;
}
