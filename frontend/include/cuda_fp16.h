/* cucc: half precision.
 *
 * `__half` (alias `half`) is a struct holding the IEEE binary16 bits in one
 * field `unsigned short __x`; `__half2` holds two `__half` fields `x`, `y`.
 * The frontend recognises the record name `__half` and treats it as the IR's
 * f16 scalar.  Conversions and arithmetic are intrinsics: declared only on
 * the device side (mapped by name), defined with _Float16 on the host. */
#ifndef __CUCC_CUDA_FP16_H__
#define __CUCC_CUDA_FP16_H__
/* The guard NVIDIA's cuda_fp16.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __CUDA_FP16_H__
#include "__cucc_defines.h"
#include "vector_types.h"

struct __half;
struct __half2;

#ifdef __CUDA_ARCH__
#define __CUCC_H_FN(decl, body) extern __host__ __device__ decl;
#else
#define __CUCC_H_FN(decl, body) static __inline__ __host__ __device__ decl body
#endif

struct __attribute__((aligned(2))) __half {
    unsigned short __x;
    __half() = default;
    __host__ __device__ __half(float f);
    __host__ __device__ __half(double f);
    __host__ __device__ __half(int i);
    __host__ __device__ __half(unsigned int i);
    __host__ __device__ __half(short i);
    __host__ __device__ __half(unsigned short i);
    __host__ __device__ __half(long long i);
    __host__ __device__ __half(unsigned long long i);
    __host__ __device__ operator float() const;
    __host__ __device__ __half &operator=(float f);
};
typedef struct __half half;
typedef unsigned short __half_raw_bits;

struct __attribute__((aligned(4))) __half2 {
    __half x, y;
    __half2() = default;
    __host__ __device__ constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
};
typedef struct __half2 half2;

#ifndef __CUDA_ARCH__
static __inline__ __host__ _Float16 __cucc_h2f16(__half h) {
    _Float16 v;
    __builtin_memcpy(&v, &h.__x, 2);
    return v;
}
static __inline__ __host__ __half __cucc_f16h(_Float16 v) {
    __half h;
    __builtin_memcpy(&h.__x, &v, 2);
    return h;
}
#endif

/* Conversions. */
__CUCC_H_FN(__half __float2half(float a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __float2half_rn(float a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __float2half_rz(float a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __float2half_rd(float a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __float2half_ru(float a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __double2half(double a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(float __half2float(__half a), { return (float)__cucc_h2f16(a); })
__CUCC_H_FN(__half __int2half_rn(int a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __uint2half_rn(unsigned int a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __short2half_rn(short a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __ushort2half_rn(unsigned short a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __ll2half_rn(long long a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(__half __ull2half_rn(unsigned long long a), { return __cucc_f16h((_Float16)a); })
__CUCC_H_FN(int __half2int_rz(__half a), { return (int)__cucc_h2f16(a); })
__CUCC_H_FN(unsigned int __half2uint_rz(__half a), { return (unsigned int)__cucc_h2f16(a); })
__CUCC_H_FN(short __half2short_rz(__half a), { return (short)__cucc_h2f16(a); })
__CUCC_H_FN(unsigned short __half2ushort_rz(__half a), { return (unsigned short)__cucc_h2f16(a); })
__CUCC_H_FN(long long __half2ll_rz(__half a), { return (long long)__cucc_h2f16(a); })
__CUCC_H_FN(unsigned long long __half2ull_rz(__half a), { return (unsigned long long)__cucc_h2f16(a); })
__CUCC_H_FN(unsigned short __half_as_ushort(__half a), { return a.__x; })
__CUCC_H_FN(short __half_as_short(__half a), { return (short)a.__x; })
__CUCC_H_FN(__half __ushort_as_half(unsigned short a), { __half h; h.__x = a; return h; })
__CUCC_H_FN(__half __short_as_half(short a), { __half h; h.__x = (unsigned short)a; return h; })

/* Arithmetic and comparisons. */
__CUCC_H_FN(__half __hadd(__half a, __half b), { return __cucc_f16h(__cucc_h2f16(a) + __cucc_h2f16(b)); })
__CUCC_H_FN(__half __hsub(__half a, __half b), { return __cucc_f16h(__cucc_h2f16(a) - __cucc_h2f16(b)); })
__CUCC_H_FN(__half __hmul(__half a, __half b), { return __cucc_f16h(__cucc_h2f16(a) * __cucc_h2f16(b)); })
__CUCC_H_FN(__half __hdiv(__half a, __half b), { return __cucc_f16h(__cucc_h2f16(a) / __cucc_h2f16(b)); })
__CUCC_H_FN(__half __hneg(__half a), { return __cucc_f16h(-__cucc_h2f16(a)); })
__CUCC_H_FN(__half __habs(__half a), { __half h; h.__x = (unsigned short)(a.__x & 0x7fffu); return h; })
__CUCC_H_FN(__half __hfma(__half a, __half b, __half c), { return __cucc_f16h((_Float16)((float)__cucc_h2f16(a) * (float)__cucc_h2f16(b) + (float)__cucc_h2f16(c))); })
__CUCC_H_FN(__half __hmin(__half a, __half b), { return __cucc_h2f16(a) < __cucc_h2f16(b) ? a : b; })
__CUCC_H_FN(__half __hmax(__half a, __half b), { return __cucc_h2f16(a) > __cucc_h2f16(b) ? a : b; })
__CUCC_H_FN(bool __heq(__half a, __half b), { return __cucc_h2f16(a) == __cucc_h2f16(b); })
__CUCC_H_FN(bool __hne(__half a, __half b), { return __cucc_h2f16(a) != __cucc_h2f16(b); })
__CUCC_H_FN(bool __hlt(__half a, __half b), { return __cucc_h2f16(a) < __cucc_h2f16(b); })
__CUCC_H_FN(bool __hle(__half a, __half b), { return __cucc_h2f16(a) <= __cucc_h2f16(b); })
__CUCC_H_FN(bool __hgt(__half a, __half b), { return __cucc_h2f16(a) > __cucc_h2f16(b); })
__CUCC_H_FN(bool __hge(__half a, __half b), { return __cucc_h2f16(a) >= __cucc_h2f16(b); })
__CUCC_H_FN(bool __hisnan(__half a), { return __cucc_h2f16(a) != __cucc_h2f16(a); })
__CUCC_H_FN(int __hisinf(__half a), { return (a.__x & 0x7fffu) == 0x7c00u ? ((a.__x & 0x8000u) ? -1 : 1) : 0; })

#undef __CUCC_H_FN

/* Math on half (device only). */
__CUCC_DEV __half hsqrt(__half a);
__CUCC_DEV __half hrsqrt(__half a);
__CUCC_DEV __half hrcp(__half a);
__CUCC_DEV __half hexp(__half a);
__CUCC_DEV __half hexp2(__half a);
__CUCC_DEV __half hlog(__half a);
__CUCC_DEV __half hlog2(__half a);
__CUCC_DEV __half hsin(__half a);
__CUCC_DEV __half hcos(__half a);
__CUCC_DEV __half hfloor(__half a);
__CUCC_DEV __half hceil(__half a);
__CUCC_DEV __half htrunc(__half a);
__CUCC_DEV __half hrint(__half a);

/* Members of __half, through the conversion intrinsics. */
__host__ __device__ inline __half::__half(float f) : __x(__float2half(f).__x) {}
__host__ __device__ inline __half::__half(double f) : __x(__double2half(f).__x) {}
__host__ __device__ inline __half::__half(int i) : __x(__int2half_rn(i).__x) {}
__host__ __device__ inline __half::__half(unsigned int i) : __x(__uint2half_rn(i).__x) {}
__host__ __device__ inline __half::__half(short i) : __x(__short2half_rn(i).__x) {}
__host__ __device__ inline __half::__half(unsigned short i) : __x(__ushort2half_rn(i).__x) {}
__host__ __device__ inline __half::__half(long long i) : __x(__ll2half_rn(i).__x) {}
__host__ __device__ inline __half::__half(unsigned long long i) : __x(__ull2half_rn(i).__x) {}
__host__ __device__ inline __half::operator float() const { return __half2float(*this); }
__host__ __device__ inline __half &__half::operator=(float f) { __x = __float2half(f).__x; return *this; }

/* Operators. */
__host__ __device__ inline __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
__host__ __device__ inline __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
__host__ __device__ inline __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
__host__ __device__ inline __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
__host__ __device__ inline __half operator-(const __half &a) { return __hneg(a); }
__host__ __device__ inline __half operator+(const __half &a) { return a; }
__host__ __device__ inline __half &operator+=(__half &a, const __half &b) { a = __hadd(a, b); return a; }
__host__ __device__ inline __half &operator-=(__half &a, const __half &b) { a = __hsub(a, b); return a; }
__host__ __device__ inline __half &operator*=(__half &a, const __half &b) { a = __hmul(a, b); return a; }
__host__ __device__ inline __half &operator/=(__half &a, const __half &b) { a = __hdiv(a, b); return a; }
__host__ __device__ inline bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
__host__ __device__ inline bool operator!=(const __half &a, const __half &b) { return __hne(a, b); }
__host__ __device__ inline bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
__host__ __device__ inline bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
__host__ __device__ inline bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
__host__ __device__ inline bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }

/* half2: lane-wise, in terms of the scalar intrinsics. */
__host__ __device__ inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__host__ __device__ inline __half2 __half2half2(__half a) { return __half2(a, a); }
__host__ __device__ inline __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half(a), __float2half(b)); }
__host__ __device__ inline __half2 __float2half2_rn(float a) { return __half2(__float2half(a), __float2half(a)); }
__host__ __device__ inline __half2 __float22half2_rn(float2 a) { return __half2(__float2half(a.x), __float2half(a.y)); }
__host__ __device__ inline float2 __half22float2(__half2 a) { float2 r; r.x = __half2float(a.x); r.y = __half2float(a.y); return r; }
__host__ __device__ inline __half __low2half(__half2 a) { return a.x; }
__host__ __device__ inline __half __high2half(__half2 a) { return a.y; }
__host__ __device__ inline float __low2float(__half2 a) { return __half2float(a.x); }
__host__ __device__ inline float __high2float(__half2 a) { return __half2float(a.y); }
__host__ __device__ inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__host__ __device__ inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__host__ __device__ inline __half2 __hadd2(__half2 a, __half2 b) { return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
__host__ __device__ inline __half2 __hsub2(__half2 a, __half2 b) { return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
__host__ __device__ inline __half2 __hmul2(__half2 a, __half2 b) { return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
__host__ __device__ inline __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
__host__ __device__ inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
__host__ __device__ inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
__host__ __device__ inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
__host__ __device__ inline __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
__host__ __device__ inline __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
__host__ __device__ inline __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
__host__ __device__ inline __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
__host__ __device__ inline __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
__host__ __device__ inline __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
__host__ __device__ inline __half2 operator-(const __half2 &a) { return __hneg2(a); }
__host__ __device__ inline __half2 &operator+=(__half2 &a, const __half2 &b) { a = __hadd2(a, b); return a; }
__host__ __device__ inline __half2 &operator-=(__half2 &a, const __half2 &b) { a = __hsub2(a, b); return a; }
__host__ __device__ inline __half2 &operator*=(__half2 &a, const __half2 &b) { a = __hmul2(a, b); return a; }
__host__ __device__ inline __half2 &operator/=(__half2 &a, const __half2 &b) { a = __h2div(a, b); return a; }
__host__ __device__ inline bool operator==(const __half2 &a, const __half2 &b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
__host__ __device__ inline bool operator!=(const __half2 &a, const __half2 &b) { return !(a == b); }

/* Device-only: atomics, shuffles and read-only loads on half types. */
__CUCC_DEV __half atomicAdd(__half *address, __half val);
__CUCC_DEV __half atomicAdd_block(__half *address, __half val);
__CUCC_DEV __half atomicAdd_system(__half *address, __half val);
__CUCC_DEV __half2 atomicAdd(__half2 *address, __half2 val);
__CUCC_DEV __half2 atomicAdd_block(__half2 *address, __half2 val);
__CUCC_DEV __half2 atomicAdd_system(__half2 *address, __half2 val);
#define __CUCC_H_SHFL(T) \
    __CUCC_DEV T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32); \
    __CUCC_DEV T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
    __CUCC_DEV T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
    __CUCC_DEV T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32); \
    __CUCC_DEV T __ldg(const T *ptr);
__CUCC_H_SHFL(__half)
__CUCC_H_SHFL(__half2)
#undef __CUCC_H_SHFL

#endif
