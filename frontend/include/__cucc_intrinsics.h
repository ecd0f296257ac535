/* cucc: device intrinsics defined as inline code.
 *
 * These have no IR op of their own: after inlining, the lowering sees plain
 * integer arithmetic.  Each one computes what NVIDIA GPUs compute for the
 * PTX instruction nvcc emits for it (prmt, shf, dp4a, dp2a), so programs
 * built by cucc and nvcc-built programs run through cucc's PTX path agree.
 * (__match_*_sync and __reduce_*_sync are intrinsics of the lowering:
 * written here, their 32 lane reads made every unit's AST much larger.) */
#ifndef __CUCC_INTRINSICS_H__
#define __CUCC_INTRINSICS_H__
#include "__cucc_defines.h"
#include "vector_types.h"
#include "device_functions.h"

#define __CUCC_IDEV static __inline__ __device__

/* Byte k of the result is byte (s >> 4k) & 7 of the 64-bit value y:x: as
 * CUDA documents it, and as nvcc compiles it (prmt.b32 with s & 0x7777, so
 * the selectors' sign-replicate bit never reaches the instruction). */
__CUCC_IDEV unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned int r = 0;
    for (int k = 0; k < 4; ++k) {
        unsigned int sel = (s >> (4 * k)) & 7u;
        r |= ((unsigned int)(v >> (8 * sel)) & 0xffu) << (8 * k);
    }
    return r;
}

/* shf.l/shf.r: hi:lo shifted by the amount taken modulo 32 (.wrap) or
 * clamped to 32 (the `c` forms, .clamp). */
__CUCC_IDEV unsigned int __cucc_shf_l(unsigned int lo, unsigned int hi, unsigned int n) {
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)((v << n) >> 32);
}
__CUCC_IDEV unsigned int __cucc_shf_r(unsigned int lo, unsigned int hi, unsigned int n) {
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)(v >> n);
}
__CUCC_IDEV unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
    return __cucc_shf_l(lo, hi, shift & 31u);
}
__CUCC_IDEV unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
    return __cucc_shf_l(lo, hi, shift < 32u ? shift : 32u);
}
__CUCC_IDEV unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
    return __cucc_shf_r(lo, hi, shift & 31u);
}
__CUCC_IDEV unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
    return __cucc_shf_r(lo, hi, shift < 32u ? shift : 32u);
}

/* dp4a: four byte products summed into c; dp2a: two 16-bit halves of a
 * times two bytes of b (the low two for _lo, the high two for _hi). The
 * sum wraps modulo 2^32. */
__CUCC_IDEV int __dp4a(int a, int b, int c) {
    unsigned int r = (unsigned int)c;
    for (int k = 0; k < 4; ++k)
        r += (unsigned int)((int)(signed char)(a >> (8 * k)) * (int)(signed char)(b >> (8 * k)));
    return (int)r;
}
__CUCC_IDEV unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
    unsigned int r = c;
    for (int k = 0; k < 4; ++k)
        r += ((a >> (8 * k)) & 0xffu) * ((b >> (8 * k)) & 0xffu);
    return r;
}
__CUCC_IDEV int __dp4a(char4 a, char4 b, int c) {
    return __dp4a((int)((unsigned char)a.x | (unsigned char)a.y << 8 | (unsigned char)a.z << 16 | (unsigned int)(unsigned char)a.w << 24),
                  (int)((unsigned char)b.x | (unsigned char)b.y << 8 | (unsigned char)b.z << 16 | (unsigned int)(unsigned char)b.w << 24), c);
}
__CUCC_IDEV unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
    return __dp4a((unsigned int)(a.x | a.y << 8 | a.z << 16 | (unsigned int)a.w << 24),
                  (unsigned int)(b.x | b.y << 8 | b.z << 16 | (unsigned int)b.w << 24), c);
}
__CUCC_IDEV int __cucc_dp2a(int a, int b, int c, int shift) {
    unsigned int r = (unsigned int)c;
    for (int k = 0; k < 2; ++k)
        r += (unsigned int)((int)(short)(a >> (16 * k)) * (int)(signed char)(b >> (shift + 8 * k)));
    return (int)r;
}
__CUCC_IDEV unsigned int __cucc_dp2a_u(unsigned int a, unsigned int b, unsigned int c, int shift) {
    unsigned int r = c;
    for (int k = 0; k < 2; ++k)
        r += ((a >> (16 * k)) & 0xffffu) * ((b >> (shift + 8 * k)) & 0xffu);
    return r;
}
__CUCC_IDEV int __dp2a_lo(int a, int b, int c) { return __cucc_dp2a(a, b, c, 0); }
__CUCC_IDEV int __dp2a_hi(int a, int b, int c) { return __cucc_dp2a(a, b, c, 16); }
__CUCC_IDEV unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) { return __cucc_dp2a_u(a, b, c, 0); }
__CUCC_IDEV unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) { return __cucc_dp2a_u(a, b, c, 16); }
__CUCC_IDEV int __cucc_pack_s2(short2 a) { return (int)((unsigned short)a.x | (unsigned int)(unsigned short)a.y << 16); }
__CUCC_IDEV unsigned int __cucc_pack_us2(ushort2 a) { return (unsigned int)a.x | (unsigned int)a.y << 16; }
__CUCC_IDEV int __cucc_pack_c4(char4 b) {
    return (int)((unsigned char)b.x | (unsigned char)b.y << 8 | (unsigned char)b.z << 16 | (unsigned int)(unsigned char)b.w << 24);
}
__CUCC_IDEV unsigned int __cucc_pack_uc4(uchar4 b) { return (unsigned int)(b.x | b.y << 8 | b.z << 16 | (unsigned int)b.w << 24); }
__CUCC_IDEV int __dp2a_lo(short2 a, char4 b, int c) { return __dp2a_lo(__cucc_pack_s2(a), __cucc_pack_c4(b), c); }
__CUCC_IDEV int __dp2a_hi(short2 a, char4 b, int c) { return __dp2a_hi(__cucc_pack_s2(a), __cucc_pack_c4(b), c); }
__CUCC_IDEV unsigned int __dp2a_lo(ushort2 a, uchar4 b, unsigned int c) { return __dp2a_lo(__cucc_pack_us2(a), __cucc_pack_uc4(b), c); }
__CUCC_IDEV unsigned int __dp2a_hi(ushort2 a, uchar4 b, unsigned int c) { return __dp2a_hi(__cucc_pack_us2(a), __cucc_pack_uc4(b), c); }

#undef __CUCC_IDEV

#endif
