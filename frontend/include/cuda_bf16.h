/* cucc: bfloat16.
 *
 * `__nv_bfloat16` (alias `nv_bfloat16`) is a struct holding the bfloat16 bits
 * in one field `unsigned short __x`; `__nv_bfloat162` holds two of them in
 * `x`, `y`.  The frontend recognises the record name `__nv_bfloat16` as the
 * IR's bf16 scalar.  Conversions are intrinsics (declared only on the
 * device, defined with integer arithmetic on the host); arithmetic goes
 * through float, as bfloat16 arithmetic does on most hardware. */
#ifndef __CUCC_CUDA_BF16_H__
#define __CUCC_CUDA_BF16_H__
/* The guard NVIDIA's cuda_bf16.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __CUDA_BF16_H__
#include "__cucc_defines.h"
#include "vector_types.h"

struct __nv_bfloat16;

#ifdef __CUDA_ARCH__
#define __CUCC_B_FN(decl, body) extern __host__ __device__ decl;
#else
#define __CUCC_B_FN(decl, body) static __inline__ __host__ __device__ decl body
#endif

struct __attribute__((aligned(2))) __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    __host__ __device__ __nv_bfloat16(float f);
    __host__ __device__ __nv_bfloat16(double f);
    __host__ __device__ __nv_bfloat16(int i);
    __host__ __device__ operator float() const;
};
typedef struct __nv_bfloat16 nv_bfloat16;

struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    __host__ __device__ constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
};
typedef struct __nv_bfloat162 nv_bfloat162;

__CUCC_B_FN(__nv_bfloat16 __float2bfloat16(float a), {
    unsigned int u;
    __builtin_memcpy(&u, &a, 4);
    __nv_bfloat16 r;
    if ((u & 0x7fffffffu) > 0x7f800000u)
        r.__x = (unsigned short)((u >> 16) | 0x40u);
    else
        r.__x = (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    return r;
})
__CUCC_B_FN(__nv_bfloat16 __float2bfloat16_rn(float a), { return __float2bfloat16(a); })
__CUCC_B_FN(__nv_bfloat16 __float2bfloat16_rz(float a), {
    unsigned int u;
    __builtin_memcpy(&u, &a, 4);
    __nv_bfloat16 r;
    r.__x = (unsigned short)(u >> 16);
    return r;
})
__CUCC_B_FN(float __bfloat162float(__nv_bfloat16 a), {
    unsigned int u = (unsigned int)a.__x << 16;
    float f;
    __builtin_memcpy(&f, &u, 4);
    return f;
})
__CUCC_B_FN(__nv_bfloat16 __double2bfloat16(double a), { return __float2bfloat16((float)a); })
__CUCC_B_FN(__nv_bfloat16 __int2bfloat16_rn(int a), { return __float2bfloat16((float)a); })
__CUCC_B_FN(int __bfloat162int_rz(__nv_bfloat16 a), { return (int)__bfloat162float(a); })
__CUCC_B_FN(unsigned short __bfloat16_as_ushort(__nv_bfloat16 a), { return a.__x; })
__CUCC_B_FN(__nv_bfloat16 __ushort_as_bfloat16(unsigned short a), { __nv_bfloat16 r; r.__x = a; return r; })
#undef __CUCC_B_FN

__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(float f) : __x(__float2bfloat16(f).__x) {}
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(double f) : __x(__double2bfloat16(f).__x) {}
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(int i) : __x(__int2bfloat16_rn(i).__x) {}
__host__ __device__ inline __nv_bfloat16::operator float() const { return __bfloat162float(*this); }

#define __CUCC_B_BIN(fn, op) \
    __host__ __device__ inline __nv_bfloat16 fn(__nv_bfloat16 a, __nv_bfloat16 b) { \
        return __float2bfloat16(__bfloat162float(a) op __bfloat162float(b)); }
__CUCC_B_BIN(__hadd, +)
__CUCC_B_BIN(__hsub, -)
__CUCC_B_BIN(__hmul, *)
__CUCC_B_BIN(__hdiv, /)
#undef __CUCC_B_BIN
__host__ __device__ inline __nv_bfloat16 __hneg(__nv_bfloat16 a) { __nv_bfloat16 r; r.__x = (unsigned short)(a.__x ^ 0x8000u); return r; }
__host__ __device__ inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
    return __float2bfloat16(__bfloat162float(a) * __bfloat162float(b) + __bfloat162float(c));
}
__host__ __device__ inline __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
__host__ __device__ inline __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
__host__ __device__ inline __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
__host__ __device__ inline __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
__host__ __device__ inline __nv_bfloat16 operator-(const __nv_bfloat16 &a) { return __hneg(a); }
__host__ __device__ inline __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hadd(a, b); return a; }
__host__ __device__ inline __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hsub(a, b); return a; }
__host__ __device__ inline __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hmul(a, b); return a; }
__host__ __device__ inline __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { a = __hdiv(a, b); return a; }
__host__ __device__ inline bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __bfloat162float(a) == __bfloat162float(b); }
__host__ __device__ inline bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __bfloat162float(a) != __bfloat162float(b); }
__host__ __device__ inline bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __bfloat162float(a) < __bfloat162float(b); }
__host__ __device__ inline bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __bfloat162float(a) <= __bfloat162float(b); }
__host__ __device__ inline bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __bfloat162float(a) > __bfloat162float(b); }
__host__ __device__ inline bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __bfloat162float(a) >= __bfloat162float(b); }
__host__ __device__ inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b)); }
__host__ __device__ inline float2 __bfloat1622float2(__nv_bfloat162 a) { float2 r; r.x = __bfloat162float(a.x); r.y = __bfloat162float(a.y); return r; }
__host__ __device__ inline __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
__host__ __device__ inline __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hmul(a.x, b.x), __hmul(a.y, b.y)); }

/* Comparisons, min/max (a NaN operand yields the other one, as fmaxf) and
 * the pair functions, all through float like the arithmetic above. */
#define __CUCC_B_CMP(fn, op) \
    __host__ __device__ inline bool fn(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) op __bfloat162float(b); }
__CUCC_B_CMP(__heq, ==)
__CUCC_B_CMP(__hne, !=)
__CUCC_B_CMP(__hlt, <)
__CUCC_B_CMP(__hle, <=)
__CUCC_B_CMP(__hgt, >)
__CUCC_B_CMP(__hge, >=)
#undef __CUCC_B_CMP
__host__ __device__ inline bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
__host__ __device__ inline __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
    if (__hisnan(a)) return b;
    if (__hisnan(b)) return a;
    return __bfloat162float(a) > __bfloat162float(b) ? a : b;
}
__host__ __device__ inline __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
    if (__hisnan(a)) return b;
    if (__hisnan(b)) return a;
    return __bfloat162float(a) < __bfloat162float(b) ? a : b;
}
__host__ __device__ inline __nv_bfloat16 __habs(__nv_bfloat16 a) { __nv_bfloat16 r; r.__x = (unsigned short)(a.__x & 0x7fffu); return r; }
__host__ __device__ inline float __low2float(__nv_bfloat162 a) { return __bfloat162float(a.x); }
__host__ __device__ inline float __high2float(__nv_bfloat162 a) { return __bfloat162float(a.y); }
__host__ __device__ inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
__host__ __device__ inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
__host__ __device__ inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__host__ __device__ inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
__host__ __device__ inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
__host__ __device__ inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
__host__ __device__ inline __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(a)); }
__host__ __device__ inline __nv_bfloat162 __float22bfloat162_rn(float2 a) { return __floats2bfloat162_rn(a.x, a.y); }
__host__ __device__ inline __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
__host__ __device__ inline __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
__host__ __device__ inline __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) { return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
__host__ __device__ inline __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __nv_bfloat162(__hneg(a.x), __hneg(a.y)); }
__host__ __device__ inline __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __nv_bfloat162(__habs(a.x), __habs(a.y)); }
__host__ __device__ inline __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
__host__ __device__ inline __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
__host__ __device__ inline __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hadd2(a, b); }
__host__ __device__ inline __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hsub2(a, b); }
__host__ __device__ inline __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hmul2(a, b); }

__CUCC_DEV __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
__CUCC_DEV __nv_bfloat16 atomicAdd_block(__nv_bfloat16 *address, __nv_bfloat16 val);
__CUCC_DEV __nv_bfloat16 atomicAdd_system(__nv_bfloat16 *address, __nv_bfloat16 val);
__CUCC_DEV __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val);
__CUCC_DEV __nv_bfloat162 atomicAdd_block(__nv_bfloat162 *address, __nv_bfloat162 val);
__CUCC_DEV __nv_bfloat162 atomicAdd_system(__nv_bfloat162 *address, __nv_bfloat162 val);
__CUCC_DEV __nv_bfloat16 __shfl_sync(unsigned int mask, __nv_bfloat16 var, int srcLane, int width = 32);
__CUCC_DEV __nv_bfloat16 __shfl_down_sync(unsigned int mask, __nv_bfloat16 var, unsigned int delta, int width = 32);
__CUCC_DEV __nv_bfloat16 __shfl_up_sync(unsigned int mask, __nv_bfloat16 var, unsigned int delta, int width = 32);
__CUCC_DEV __nv_bfloat16 __shfl_xor_sync(unsigned int mask, __nv_bfloat16 var, int laneMask, int width = 32);

#endif
