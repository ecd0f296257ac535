// Byte and funnel-shift intrinsics and integer dot products: __byte_perm
// (selector nibbles with bit 3 set too: only their low 3 bits count, as
// CUDA documents and nvcc compiles it, prmt.b32 with s & 0x7777),
// __funnelshift_l/_lc/_r/_rc with amounts 0..63 (wrapped modulo 32 or
// clamped to 32), __dp4a and __dp2a_lo/_hi (signed, unsigned, vector forms),
// compared exactly with host implementations.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NB 14

__global__ void bits_kernel(const unsigned *u, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = u[i], b = u[(i + 1) % n], c = u[(i + 5) % n];
    unsigned *o = out + i * NB;
    o[0] = __byte_perm(a, b, c);
    o[1] = __funnelshift_l(a, b, i);
    o[2] = __funnelshift_lc(a, b, i);
    o[3] = __funnelshift_r(a, b, i);
    o[4] = __funnelshift_rc(a, b, i);
    o[5] = (unsigned)__dp4a((int)a, (int)b, (int)c);
    o[6] = __dp4a(a, b, c);
    o[7] = (unsigned)__dp2a_lo((int)a, (int)b, (int)c);
    o[8] = (unsigned)__dp2a_hi((int)a, (int)b, (int)c);
    o[9] = __dp2a_lo(a, b, c);
    o[10] = __dp2a_hi(a, b, c);
    char4 ca = make_char4((char)a, (char)(a >> 8), (char)(a >> 16), (char)(a >> 24));
    char4 cb = make_char4((char)b, (char)(b >> 8), (char)(b >> 16), (char)(b >> 24));
    o[11] = (unsigned)__dp4a(ca, cb, 7);
    o[12] = __byte_perm(a, b, 0x3210u + (unsigned)i);
    o[13] = __funnelshift_l(a, b, 32u + (unsigned)i) ^ __funnelshift_rc(a, b, 0xffffffffu);
}

static unsigned byte_of(unsigned long long v, unsigned k) { return (unsigned)(v >> (8 * k)) & 0xffu; }

static unsigned byte_perm(unsigned a, unsigned b, unsigned s) {
    unsigned long long v = ((unsigned long long)b << 32) | a;
    unsigned r = 0;
    for (unsigned k = 0; k < 4; ++k) r |= byte_of(v, (s >> (4 * k)) & 7u) << (8 * k);
    return r;
}

static unsigned funnel(unsigned lo, unsigned hi, unsigned n, bool left, bool clamp) {
    n = clamp ? (n > 32 ? 32 : n) : n % 32;
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return left ? (unsigned)((v << n) >> 32) : (unsigned)(v >> n);
}

static long long sbyte(unsigned v, int k) { return (signed char)(v >> (8 * k)); }
static long long shalf(unsigned v, int k) { return (short)(v >> (16 * k)); }

int main() {
    const int n = 64;
    unsigned hu[n];
    unsigned hout[n * NB];
    lcg_fill(hu, n, 2024u, 13);
    unsigned *du, *dout;
    alloc_copy(&du, hu, sizeof(hu));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    bits_kernel<<<2, 32>>>(du, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        unsigned a = hu[i], b = hu[(i + 1) % n], c = hu[(i + 5) % n];
        unsigned want[NB];
        want[0] = byte_perm(a, b, c);
        want[1] = funnel(a, b, i, true, false);
        want[2] = funnel(a, b, i, true, true);
        want[3] = funnel(a, b, i, false, false);
        want[4] = funnel(a, b, i, false, true);
        long long d4 = (int)c, d4u = c;
        for (int k = 0; k < 4; ++k) {
            d4 += sbyte(a, k) * sbyte(b, k);
            d4u += (long long)byte_of(a, k) * byte_of(b, k);
        }
        want[5] = (unsigned)d4;
        want[6] = (unsigned)d4u;
        long long lo = (int)c, hi = (int)c, ulo = c, uhi = c;
        for (int k = 0; k < 2; ++k) {
            lo += shalf(a, k) * sbyte(b, k);
            hi += shalf(a, k) * sbyte(b, k + 2);
            ulo += (long long)((a >> (16 * k)) & 0xffffu) * byte_of(b, k);
            uhi += (long long)((a >> (16 * k)) & 0xffffu) * byte_of(b, k + 2);
        }
        want[7] = (unsigned)lo;
        want[8] = (unsigned)hi;
        want[9] = (unsigned)ulo;
        want[10] = (unsigned)uhi;
        long long d4c = 7;
        for (int k = 0; k < 4; ++k) d4c += sbyte(a, k) * sbyte(b, k);
        want[11] = (unsigned)d4c;
        want[12] = byte_perm(a, b, 0x3210u + (unsigned)i);
        want[13] = funnel(a, b, 32u + (unsigned)i, true, false) ^ funnel(a, b, 0xffffffffu, false, true);
        check_row("element", i, hout + i * NB, want, NB, bad);
    }
    cudaFree(du);
    cudaFree(dout);
    return report("bit_intrinsics", bad);
}
