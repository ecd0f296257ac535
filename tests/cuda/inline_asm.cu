// Inline PTX in device code: lane id, bfe/prmt/lop3 with "n" immediates,
// an add.cc/addc carry chain, mul.hi, mad.wide, popc/clz/brev/bfind, a
// "+r" and a "+l" operand, shfl.sync, vote.sync, activemask,
// %clock64, a block with scoped registers, a loop with local labels,
// ld.global.nc and st.global.cs with "memory" clobbers and membar, and
// f16/f64 conversions through "h", "f" and "d" operands. Each result is
// compared with a plain C++ computation on the host.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "check.h"

#define NB 26

#define LANE_ID(v) asm("mov.u32 %0, %%laneid;" : "=r"(v))

__device__ unsigned sum_to(unsigned m) {
    unsigned s;
    asm("{\n\t"
        ".reg .pred p;\n\t"
        ".reg .u32 k;\n\t"
        "mov.u32 %0, 0;\n\t"
        "mov.u32 k, %1;\n"
        "asm_loop:\n\t"
        "setp.eq.u32 p, k, 0;\n\t"
        "@p bra asm_done;\n\t"
        "add.u32 %0, %0, k;\n\t"
        "sub.u32 k, k, 1;\n\t"
        "bra asm_loop;\n"
        "asm_done:\n\t"
        "}"
        : "=r"(s)
        : "r"(m));
    return s;
}

__global__ void asm_kernel(const unsigned *u, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = u[i], b = u[(i + 1) % n], c = u[(i + 5) % n], d = u[(i + 2) % n];
    unsigned *o = out + i * NB;
    unsigned lane;
    LANE_ID(lane);
    o[0] = lane;
    unsigned r;
    unsigned pos = (unsigned)i % 32u;
    asm volatile("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "n"(8));
    o[1] = r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 0x7777u));
    o[2] = r;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(0xE8));
    o[3] = r;
    // (b:a) + (d:c) as a 64-bit sum through the carry flag.
    unsigned lo, hi;
    asm("add.cc.u32 %0, %2, %4;\n\t"
        "addc.u32 %1, %3, %5;"
        : "=r"(lo), "=r"(hi)
        : "r"(a), "r"(b), "r"(c), "r"(d));
    o[4] = lo;
    o[5] = hi;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    o[6] = r;
    unsigned x = a;
    asm("add.u32 %0, %0, %1;" : "+r"(x) : "r"(b));
    o[7] = x;
    unsigned src = (lane + 1u) & 31u;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(a), "r"(src));
    o[8] = r;
    asm("{\n\t"
        ".reg .u32 t1, t2;\n\t"
        "mul.lo.u32 t1, %1, %2;\n\t"
        "xor.b32 t2, t1, %1;\n\t"
        "shr.u32 %0, t2, 3;\n\t"
        "}"
        : "=r"(r)
        : "r"(a), "r"(b));
    o[9] = r;
    unsigned pc, lz;
    asm("popc.b32 %0, %1;" : "=r"(pc) : "r"(a));
    asm("clz.b32 %0, %1;" : "=r"(lz) : "r"(b));
    o[10] = pc + lz;
    asm("brev.b32 %0, %1;" : "=r"(r) : "r"(c));
    o[11] = r;
    unsigned long long w, c64 = ((unsigned long long)d << 32) | c;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(w) : "r"(a), "r"(b), "l"(c64));
    o[12] = (unsigned)w;
    o[13] = (unsigned)(w >> 32);
    asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a >> (i % 32)));
    o[14] = r;
    asm volatile("st.global.cs.u32 [%0], %1;" : : "l"(o + 15), "r"(a ^ 0x5a5a5a5au) : "memory");
    asm volatile("membar.gl;" : : : "memory");
    o[16] = o[15] + 1u;
    asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(r) : "l"(u + (i + 3) % n) : "memory");
    o[17] = r;
    float f = (float)(a & 0x3ffu), g;
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    asm("cvt.f32.f16 %0, %1;" : "=f"(g) : "h"(h));
    unsigned gb;
    memcpy(&gb, &g, 4);
    o[18] = gb;
    double dr;
    asm("add.rn.f64 %0, %1, %2;" : "=d"(dr) : "d"((double)(a & 0xffffu)), "d"(0.5));
    o[19] = (unsigned)(dr * 2.0);
    asm("{\n\t"
        ".reg .pred p;\n\t"
        "setp.ne.u32 p, %1, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "}"
        : "=r"(r)
        : "r"(a & 1u));
    o[20] = r;
    asm volatile("activemask.b32 %0;" : "=r"(r));
    o[21] = r;
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
    o[22] = t1 >= t0 ? 1u : 0u;
    o[23] = sum_to((unsigned)i & 15u);
    unsigned long long acc = c64;
    asm("add.u64 %0, %0, %1;" : "+l"(acc) : "l"((unsigned long long)a));
    o[24] = (unsigned)(acc ^ (acc >> 32));
    int sv = -(int)(a & 0xffu);
    long long wide;
    asm("cvt.s64.s32 %0, %1;" : "=l"(wide) : "r"(sv));
    o[25] = (unsigned)(wide >> 32) ^ (unsigned)wide;
}

static unsigned byte_perm(unsigned a, unsigned b, unsigned s) {
    unsigned long long v = ((unsigned long long)b << 32) | a;
    unsigned r = 0;
    for (unsigned k = 0; k < 4; ++k) r |= (unsigned)((v >> (8 * ((s >> (4 * k)) & 7u))) & 0xffu) << (8 * k);
    return r;
}

static unsigned popc(unsigned v) {
    unsigned k = 0;
    for (; v; v &= v - 1) ++k;
    return k;
}

static unsigned clz(unsigned v) {
    unsigned k = 0;
    for (unsigned bit = 0x80000000u; bit && !(v & bit); bit >>= 1) ++k;
    return k;
}

static unsigned brev(unsigned v) {
    unsigned r = 0;
    for (int k = 0; k < 32; ++k) r |= ((v >> k) & 1u) << (31 - k);
    return r;
}

int main() {
    const int n = 64;
    unsigned hu[n];
    unsigned hout[n * NB];
    lcg_fill(hu, n, 77u, 11);
    unsigned *du, *dout;
    alloc_copy(&du, hu, sizeof(hu));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMemset(dout, 0, sizeof(hout)));
    asm_kernel<<<2, 32>>>(du, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        unsigned a = hu[i], b = hu[(i + 1) % n], c = hu[(i + 5) % n], d = hu[(i + 2) % n];
        unsigned want[NB];
        unsigned lane = (unsigned)i % 32u;
        want[0] = lane;
        want[1] = (a >> (i % 32)) & 0xffu;
        want[2] = byte_perm(a, b, c & 0x7777u);
        want[3] = (a & b) | (a & c) | (b & c);
        unsigned long long sum = (((unsigned long long)b << 32) | a) + (((unsigned long long)d << 32) | c);
        want[4] = (unsigned)sum;
        want[5] = (unsigned)(sum >> 32);
        want[6] = (unsigned)(((unsigned long long)a * b) >> 32);
        want[7] = a + b;
        want[8] = hu[(i / 32) * 32 + (int)((lane + 1u) & 31u)];
        want[9] = ((a * b) ^ a) >> 3;
        want[10] = popc(a) + clz(b);
        want[11] = brev(c);
        unsigned long long wv = (unsigned long long)a * b + ((((unsigned long long)d) << 32) | c);
        want[12] = (unsigned)wv;
        want[13] = (unsigned)(wv >> 32);
        unsigned sh = a >> (i % 32);
        want[14] = sh ? 31u - clz(sh) : 0xffffffffu;
        want[15] = a ^ 0x5a5a5a5au;
        want[16] = want[15] + 1u;
        want[17] = hu[(i + 3) % n];
        float fv = (float)(a & 0x3ffu);
        memcpy(&want[18], &fv, 4);
        want[19] = 2u * (a & 0xffffu) + 1u;
        unsigned ballot = 0;
        for (int j = 0; j < 32; ++j) ballot |= (hu[(i / 32) * 32 + j] & 1u) << j;
        want[20] = ballot;
        want[21] = 0xffffffffu;
        want[22] = 1u;
        unsigned m = (unsigned)i & 15u;
        want[23] = m * (m + 1u) / 2u;
        unsigned long long acc = ((((unsigned long long)d) << 32) | c) + a;
        want[24] = (unsigned)(acc ^ (acc >> 32));
        long long sv = -(long long)(a & 0xffu);
        want[25] = (unsigned)((unsigned long long)sv >> 32) ^ (unsigned)sv;
        check_row("thread", i, hout + i * NB, want, NB, bad, 10);
    }
    CHECK(cudaFree(du));
    CHECK(cudaFree(dout));
    return report("inline_asm", bad);
}
