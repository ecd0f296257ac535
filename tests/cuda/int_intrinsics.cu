// Integer intrinsics (__popc, __popcll, __clz, __clzll, __ffs, __ffsll,
// __brev, __brevll, __mul24, __umul24, __mulhi, __umulhi, __mul64hi,
// __umul64hi, __sad, __usad) and min/max on every integer width, compared
// exactly with portable host implementations.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NI 14

static unsigned long long bit_reverse64(unsigned long long v) {
    unsigned long long r = 0;
    for (int k = 0; k < 64; ++k) r |= ((v >> k) & 1ull) << (63 - k);
    return r;
}
static int popcount64(unsigned long long v) {
    int c = 0;
    for (; v; v &= v - 1) ++c;
    return c;
}
static int clz64(unsigned long long v) {
    int c = 0;
    for (int k = 63; k >= 0 && !((v >> k) & 1ull); --k) ++c;
    return c;
}
static int ffs64(unsigned long long v) {
    for (int k = 0; k < 64; ++k)
        if ((v >> k) & 1ull) return k + 1;
    return 0;
}

__global__ void int_kernel(const unsigned *u, const int *s, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = u[i], b = u[(i + 1) % n];
    int x = s[i], y = s[(i + 3) % n];
    unsigned long long w = ((unsigned long long)a << 32) | b;
    long long *o = out + i * NI;
    o[0] = __popc(a) + 100 * __popcll(w);
    o[1] = __clz(a) + 100 * __clzll(w >> (i % 40));
    o[2] = __ffs(a) + 100 * __ffsll((long long)(w << (i % 50)));
    o[3] = __brev(a);
    o[4] = (long long)__brevll(w);
    o[5] = __mul24(x, y);
    o[6] = __umul24(a & 0xffffff, b & 0xffffff);
    o[7] = __mulhi((x >> 4) * 977, (y >> 4) * 1013);
    o[8] = __umulhi(a, b);
    o[9] = __mul64hi((long long)w, (long long)x * 123456789);
    o[10] = (long long)__umul64hi(w, w ^ 0xdeadbeefcafef00dull);
    o[11] = __sad(x, y, 7u) + 3 * (long long)__usad(a, b, 1u);
    o[12] = min(x, y) * 3 + max(x, y) + (long long)min(a, b) - (long long)max(a, b);
    o[13] = min((long long)x * 1048576, (long long)y) + (long long)(max((unsigned long long)w, 5ull) >> 3);
}

int main() {
    const int n = 64;
    unsigned hu[n];
    int hs[n];
    long long hout[n * NI];
    unsigned state = 12345u;
    for (int i = 0; i < n; ++i) {
        lcg(state);
        hu[i] = (i % 16 == 0) ? 0u : state >> (i % 7);
        hs[i] = (int)(state % 16777216u) - 8388608;  // 24-bit signed range
    }
    unsigned *du;
    int *ds;
    long long *dout;
    alloc_copy(&du, hu, sizeof(hu));
    alloc_copy(&ds, hs, sizeof(hs));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    int_kernel<<<2, 32>>>(du, ds, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        unsigned a = hu[i], b = hu[(i + 1) % n];
        int x = hs[i], y = hs[(i + 3) % n];
        unsigned long long w = ((unsigned long long)a << 32) | b;
        long long want[NI];
        want[0] = popcount64(a) + 100 * popcount64(w);
        want[1] = (clz64(a) - 32) + 100 * clz64(w >> (i % 40));
        want[2] = ffs64(a) + 100 * ffs64(w << (i % 50));
        want[3] = (unsigned)(bit_reverse64(a) >> 32);
        want[4] = (long long)bit_reverse64(w);
        want[5] = (int)((long long)x * y);  // x, y fit in 24 bits: low 32 bits of the product
        want[6] = (unsigned)((unsigned long long)(a & 0xffffff) * (b & 0xffffff));
        want[7] = (int)(((long long)((x >> 4) * 977) * (long long)((y >> 4) * 1013)) >> 32);
        want[8] = (unsigned)(((unsigned long long)a * b) >> 32);
        want[9] = (long long)(((__int128)(long long)w * (__int128)((long long)x * 123456789)) >> 64);
        want[10] = (long long)(unsigned long long)(((unsigned __int128)w * (w ^ 0xdeadbeefcafef00dull)) >> 64);
        want[11] = (unsigned)((x > y ? (long long)x - y : (long long)y - x) + 7) +
                   3 * (long long)(unsigned)((a > b ? a - b : b - a) + 1u);
        want[12] = (x < y ? x : y) * 3 + (x > y ? x : y) + (long long)(a < b ? a : b) - (long long)(a > b ? a : b);
        long long xs = (long long)x * 1048576;
        want[13] = (xs < y ? xs : (long long)y) + (long long)((w > 5ull ? w : 5ull) >> 3);
        check_row("element", i, hout + i * NI, want, NI, bad);
    }
    cudaFree(du);
    cudaFree(ds);
    cudaFree(dout);
    return report("int_intrinsics", bad);
}
