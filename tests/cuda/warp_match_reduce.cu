// Warp match and reduce intrinsics: __match_any_sync and __match_all_sync
// (32- and 64-bit values, floats by bit pattern), __reduce_add/min/max_sync
// (signed and unsigned), __reduce_and/or/xor_sync, with the full mask and,
// inside a branch taken by the low half of each warp, with a 16-lane mask.
// Compared exactly with host computations over each warp's values.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NW 14

__global__ void warp_kernel(const unsigned *u, unsigned *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = i / 32;
    unsigned v = u[i];
    unsigned *o = out + i * NW;
    unsigned key = v % 5;
    o[0] = __match_any_sync(0xffffffffu, key);
    o[1] = __match_any_sync(0xffffffffu, (unsigned long long)key << 40);
    o[2] = __match_any_sync(0xffffffffu, (float)(key & 1));
    int pred = 7;
    // Warp 1 has one value everywhere: match_all holds there only.
    unsigned same = warp == 1 ? 42u : key;
    o[3] = __match_all_sync(0xffffffffu, same, &pred);
    o[4] = (unsigned)pred;
    o[5] = (unsigned)__reduce_add_sync(0xffffffffu, (int)v);
    o[6] = (unsigned)__reduce_min_sync(0xffffffffu, (int)v);
    o[7] = __reduce_min_sync(0xffffffffu, v);
    o[8] = (unsigned)__reduce_max_sync(0xffffffffu, (int)v);
    o[9] = __reduce_max_sync(0xffffffffu, v);
    o[10] = __reduce_and_sync(0xffffffffu, v | 0x01010101u);
    o[11] = __reduce_or_sync(0xffffffffu, v & 0x00ff00ffu) ^ __reduce_xor_sync(0xffffffffu, v);
    unsigned lane = threadIdx.x % 32;
    unsigned part = 0, any = 0;
    if (lane < 16) {
        part = __reduce_add_sync(0x0000ffffu, v & 0xffffu);
        any = __match_any_sync(0x0000ffffu, key);
    }
    o[12] = part;
    o[13] = any;
}

int main() {
    const int n = 128;
    unsigned hu[n];
    unsigned hout[n * NW];
    lcg_fill(hu, n, 99u, 11);
    unsigned *du, *dout;
    alloc_copy(&du, hu, sizeof(hu));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    warp_kernel<<<2, 64>>>(du, dout);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int base = i / 32 * 32, warp = i / 32, lane = i % 32;
        unsigned key = hu[i] % 5;
        unsigned want[NW];
        unsigned m0 = 0, m2 = 0, m16 = 0;
        long long add = 0;
        int smin = 0x7fffffff, smax = -0x7fffffff - 1;
        unsigned umin = 0xffffffffu, umax = 0, band = 0xffffffffu, bor = 0, bxor = 0, part = 0;
        for (int l = 0; l < 32; ++l) {
            unsigned w = hu[base + l], k = w % 5;
            if (k == key) m0 |= 1u << l;
            if ((k & 1) == (key & 1)) m2 |= 1u << l;
            add += (int)w;
            if ((int)w < smin) smin = (int)w;
            if ((int)w > smax) smax = (int)w;
            if (w < umin) umin = w;
            if (w > umax) umax = w;
            band &= w | 0x01010101u;
            bor |= w & 0x00ff00ffu;
            bxor ^= w;
            if (l < 16) {
                part += w & 0xffffu;
                if (k == key) m16 |= 1u << l;
            }
        }
        bool all_same = true;
        for (int l = 0; l < 32; ++l)
            if ((warp == 1 ? 42u : hu[base + l] % 5) != (warp == 1 ? 42u : key)) all_same = false;
        want[0] = m0;
        want[1] = m0;
        want[2] = m2;
        want[3] = all_same ? 0xffffffffu : 0u;
        want[4] = all_same ? 1u : 0u;
        want[5] = (unsigned)add;
        want[6] = (unsigned)smin;
        want[7] = umin;
        want[8] = (unsigned)smax;
        want[9] = umax;
        want[10] = band;
        want[11] = bor ^ bxor;
        want[12] = lane < 16 ? part : 0u;
        want[13] = lane < 16 ? m16 : 0u;
        check_row("thread", i, hout + i * NW, want, NW, bad);
    }
    cudaFree(du);
    cudaFree(dout);
    return report("warp_match_reduce", bad);
}
