/* cucc: device intrinsics.
 *
 * Every function here is declared, not defined.  cucc's frontend recognises
 * a call by the callee's name (and, for overloads, its parameter types) when
 * the callee is declared in this include directory, and maps it to an IR op
 * or to a known extern.  See docs/frontend.md. */
#ifndef __CUCC_DEVICE_FUNCTIONS_H__
#define __CUCC_DEVICE_FUNCTIONS_H__
#include "__cucc_defines.h"
#include "vector_types.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <assert.h>

/* ---- Barriers and fences ---- */
__CUCC_DEV void __syncthreads(void);
__CUCC_DEV int __syncthreads_count(int predicate);
__CUCC_DEV int __syncthreads_and(int predicate);
__CUCC_DEV int __syncthreads_or(int predicate);
__CUCC_DEV void __syncwarp(unsigned int mask = 0xffffffffu);
__CUCC_DEV void __threadfence(void);
__CUCC_DEV void __threadfence_block(void);
__CUCC_DEV void __threadfence_system(void);
__CUCC_DEV void __nanosleep(unsigned int ns);
__CUCC_DEV void __trap(void);
__CUCC_DEV void __brkpt(void);

/* ---- Timers ---- */
extern "C" __device__ clock_t clock(void);
__CUCC_DEV long long int clock64(void);
__CUCC_DEV unsigned long long int __globaltimer(void);

/* ---- printf, assert, heap and memory helpers on the device ---- */
extern "C" __device__ int printf(const char *format, ...);
extern "C" __device__ int vprintf(const char *format, void *args);
extern "C" __device__ void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function);
extern "C" __device__ void __assertfail(const char *message, const char *file, unsigned int line, const char *function, size_t charSize);
extern "C" __device__ void *malloc(size_t size);
extern "C" __device__ void free(void *ptr);
extern "C" __device__ void *memcpy(void *dst, const void *src, size_t n);
extern "C" __device__ void *memset(void *dst, int value, size_t n);

/* ---- Integer intrinsics ---- */
__CUCC_DEV int __popc(unsigned int x);
__CUCC_DEV int __popcll(unsigned long long int x);
__CUCC_DEV int __clz(int x);
__CUCC_DEV int __clzll(long long int x);
__CUCC_DEV int __ffs(int x);
__CUCC_DEV int __ffsll(long long int x);
__CUCC_DEV unsigned int __brev(unsigned int x);
__CUCC_DEV unsigned long long int __brevll(unsigned long long int x);
__CUCC_DEV int __mul24(int x, int y);
__CUCC_DEV unsigned int __umul24(unsigned int x, unsigned int y);
__CUCC_DEV int __mulhi(int x, int y);
__CUCC_DEV unsigned int __umulhi(unsigned int x, unsigned int y);
__CUCC_DEV long long int __mul64hi(long long int x, long long int y);
__CUCC_DEV unsigned long long int __umul64hi(unsigned long long int x, unsigned long long int y);
__CUCC_DEV unsigned int __sad(int x, int y, unsigned int z);
__CUCC_DEV unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
__CUCC_DEV int __hadd(int x, int y);
__CUCC_DEV int __rhadd(int x, int y);
__CUCC_DEV unsigned int __uhadd(unsigned int x, unsigned int y);
__CUCC_DEV unsigned int __urhadd(unsigned int x, unsigned int y);

/* min and max for every integer and floating type, host and device. */
#define __CUCC_MINMAX(R, A, B) \
    __CUCC_INLINE __CUCC_HD R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; } \
    __CUCC_INLINE __CUCC_HD R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
__CUCC_MINMAX(int, int, int)
__CUCC_MINMAX(unsigned int, unsigned int, unsigned int)
__CUCC_MINMAX(unsigned int, int, unsigned int)
__CUCC_MINMAX(unsigned int, unsigned int, int)
__CUCC_MINMAX(long, long, long)
__CUCC_MINMAX(unsigned long, unsigned long, unsigned long)
__CUCC_MINMAX(unsigned long, long, unsigned long)
__CUCC_MINMAX(unsigned long, unsigned long, long)
__CUCC_MINMAX(long long, long long, long long)
__CUCC_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__CUCC_MINMAX(unsigned long long, long long, unsigned long long)
__CUCC_MINMAX(unsigned long long, unsigned long long, long long)
#undef __CUCC_MINMAX
/* Floating min and max: math_functions.h. */

/* ---- Single- and double-precision intrinsics ---- */
__CUCC_DEV float __expf(float x);
__CUCC_DEV float __exp10f(float x);
__CUCC_DEV float __logf(float x);
__CUCC_DEV float __log2f(float x);
__CUCC_DEV float __log10f(float x);
__CUCC_DEV float __sinf(float x);
__CUCC_DEV float __cosf(float x);
__CUCC_DEV float __tanf(float x);
__CUCC_DEV void __sincosf(float x, float *s, float *c);
__CUCC_DEV float __powf(float x, float y);
__CUCC_DEV float __fdividef(float x, float y);
__CUCC_DEV float fdividef(float x, float y);
__CUCC_DEV float __saturatef(float x);
__CUCC_DEV float __frsqrt_rn(float x);
#define __CUCC_ROUNDED_F(op) \
    __CUCC_DEV float op##_rn(float x, float y); __CUCC_DEV float op##_rz(float x, float y); \
    __CUCC_DEV float op##_ru(float x, float y); __CUCC_DEV float op##_rd(float x, float y);
#define __CUCC_ROUNDED_D(op) \
    __CUCC_DEV double op##_rn(double x, double y); __CUCC_DEV double op##_rz(double x, double y); \
    __CUCC_DEV double op##_ru(double x, double y); __CUCC_DEV double op##_rd(double x, double y);
__CUCC_ROUNDED_F(__fadd)
__CUCC_ROUNDED_F(__fsub)
__CUCC_ROUNDED_F(__fmul)
__CUCC_ROUNDED_F(__fdiv)
__CUCC_ROUNDED_D(__dadd)
__CUCC_ROUNDED_D(__dsub)
__CUCC_ROUNDED_D(__dmul)
__CUCC_ROUNDED_D(__ddiv)
#undef __CUCC_ROUNDED_F
#undef __CUCC_ROUNDED_D
__CUCC_DEV float __fmaf_rn(float x, float y, float z);
__CUCC_DEV float __fmaf_rz(float x, float y, float z);
__CUCC_DEV float __fmaf_ru(float x, float y, float z);
__CUCC_DEV float __fmaf_rd(float x, float y, float z);
__CUCC_DEV double __fma_rn(double x, double y, double z);
__CUCC_DEV double __fma_rz(double x, double y, double z);
__CUCC_DEV double __fma_ru(double x, double y, double z);
__CUCC_DEV double __fma_rd(double x, double y, double z);
#define __CUCC_ROUNDED_1(R, op) \
    __CUCC_DEV R op##_rn(R x); __CUCC_DEV R op##_rz(R x); \
    __CUCC_DEV R op##_ru(R x); __CUCC_DEV R op##_rd(R x);
__CUCC_ROUNDED_1(float, __frcp)
__CUCC_ROUNDED_1(float, __fsqrt)
__CUCC_ROUNDED_1(double, __drcp)
__CUCC_ROUNDED_1(double, __dsqrt)
#undef __CUCC_ROUNDED_1

/* ---- Conversions and reinterpretations ---- */
#define __CUCC_CVT(name, R, A) \
    __CUCC_DEV R name##_rn(A x); __CUCC_DEV R name##_rz(A x); \
    __CUCC_DEV R name##_ru(A x); __CUCC_DEV R name##_rd(A x);
__CUCC_CVT(__float2int, int, float)
__CUCC_CVT(__float2uint, unsigned int, float)
__CUCC_CVT(__float2ll, long long int, float)
__CUCC_CVT(__float2ull, unsigned long long int, float)
__CUCC_CVT(__int2float, float, int)
__CUCC_CVT(__uint2float, float, unsigned int)
__CUCC_CVT(__ll2float, float, long long int)
__CUCC_CVT(__ull2float, float, unsigned long long int)
__CUCC_CVT(__double2int, int, double)
__CUCC_CVT(__double2uint, unsigned int, double)
__CUCC_CVT(__double2ll, long long int, double)
__CUCC_CVT(__double2ull, unsigned long long int, double)
__CUCC_CVT(__double2float, float, double)
__CUCC_CVT(__ll2double, double, long long int)
__CUCC_CVT(__ull2double, double, unsigned long long int)
#undef __CUCC_CVT
__CUCC_DEV double __int2double_rn(int x);
__CUCC_DEV double __uint2double_rn(unsigned int x);
__CUCC_DEV int __float_as_int(float x);
__CUCC_DEV unsigned int __float_as_uint(float x);
__CUCC_DEV float __int_as_float(int x);
__CUCC_DEV float __uint_as_float(unsigned int x);
__CUCC_DEV long long int __double_as_longlong(double x);
__CUCC_DEV double __longlong_as_double(long long int x);
__CUCC_DEV int __double2hiint(double x);
__CUCC_DEV int __double2loint(double x);
__CUCC_DEV double __hiloint2double(int hi, int lo);

/* ---- Atomics ----
 * Plain names are device-scope; _block and _system variants differ only in
 * scope.  The type list is CUDA's. */
#define __CUCC_ATOMIC_SCOPES(R, name, ...) \
    __CUCC_DEV R name(__VA_ARGS__); __CUCC_DEV R name##_block(__VA_ARGS__); __CUCC_DEV R name##_system(__VA_ARGS__);
__CUCC_ATOMIC_SCOPES(int, atomicAdd, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicAdd, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicAdd, unsigned long long int *address, unsigned long long int val)
__CUCC_ATOMIC_SCOPES(float, atomicAdd, float *address, float val)
__CUCC_ATOMIC_SCOPES(double, atomicAdd, double *address, double val)
__CUCC_ATOMIC_SCOPES(float2, atomicAdd, float2 *address, float2 val)
__CUCC_ATOMIC_SCOPES(float4, atomicAdd, float4 *address, float4 val)
__CUCC_ATOMIC_SCOPES(int, atomicSub, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicSub, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(int, atomicExch, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicExch, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicExch, unsigned long long int *address, unsigned long long int val)
__CUCC_ATOMIC_SCOPES(float, atomicExch, float *address, float val)
__CUCC_ATOMIC_SCOPES(int, atomicMin, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicMin, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(long long int, atomicMin, long long int *address, long long int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicMin, unsigned long long int *address, unsigned long long int val)
__CUCC_ATOMIC_SCOPES(int, atomicMax, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicMax, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(long long int, atomicMax, long long int *address, long long int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicMax, unsigned long long int *address, unsigned long long int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicInc, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicDec, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(int, atomicCAS, int *address, int compare, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicCAS, unsigned int *address, unsigned int compare, unsigned int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicCAS, unsigned long long int *address, unsigned long long int compare, unsigned long long int val)
__CUCC_ATOMIC_SCOPES(unsigned short int, atomicCAS, unsigned short int *address, unsigned short int compare, unsigned short int val)
__CUCC_ATOMIC_SCOPES(int, atomicAnd, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicAnd, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicAnd, unsigned long long int *address, unsigned long long int val)
__CUCC_ATOMIC_SCOPES(int, atomicOr, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicOr, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicOr, unsigned long long int *address, unsigned long long int val)
__CUCC_ATOMIC_SCOPES(int, atomicXor, int *address, int val)
__CUCC_ATOMIC_SCOPES(unsigned int, atomicXor, unsigned int *address, unsigned int val)
__CUCC_ATOMIC_SCOPES(unsigned long long int, atomicXor, unsigned long long int *address, unsigned long long int val)

/* ---- Warp shuffles, votes and matches ---- */
#define __CUCC_SHFL(T) \
    __CUCC_DEV T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32); \
    __CUCC_DEV T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
    __CUCC_DEV T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
    __CUCC_DEV T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32); \
    __CUCC_DEV T __shfl(T var, int srcLane, int width = 32); \
    __CUCC_DEV T __shfl_up(T var, unsigned int delta, int width = 32); \
    __CUCC_DEV T __shfl_down(T var, unsigned int delta, int width = 32); \
    __CUCC_DEV T __shfl_xor(T var, int laneMask, int width = 32); \
    __CUCC_DEV unsigned int __match_any_sync(unsigned int mask, T value); \
    __CUCC_DEV unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
__CUCC_SHFL(int)
__CUCC_SHFL(unsigned int)
__CUCC_SHFL(long)
__CUCC_SHFL(unsigned long)
__CUCC_SHFL(long long)
__CUCC_SHFL(unsigned long long)
__CUCC_SHFL(float)
__CUCC_SHFL(double)
#undef __CUCC_SHFL
__CUCC_DEV unsigned int __ballot_sync(unsigned int mask, int predicate);
__CUCC_DEV int __any_sync(unsigned int mask, int predicate);
__CUCC_DEV int __all_sync(unsigned int mask, int predicate);
__CUCC_DEV int __uni_sync(unsigned int mask, int predicate);
__CUCC_DEV unsigned int __activemask(void);
__CUCC_DEV unsigned int __ballot(int predicate);
__CUCC_DEV int __any(int predicate);
__CUCC_DEV int __all(int predicate);
__CUCC_DEV unsigned int __lanemask_lt(void);
__CUCC_DEV unsigned int __lanemask_le(void);
__CUCC_DEV unsigned int __lanemask_eq(void);
__CUCC_DEV unsigned int __lanemask_ge(void);
__CUCC_DEV unsigned int __lanemask_gt(void);
__CUCC_DEV int __reduce_add_sync(unsigned int mask, int value);
__CUCC_DEV unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__CUCC_DEV int __reduce_min_sync(unsigned int mask, int value);
__CUCC_DEV unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__CUCC_DEV int __reduce_max_sync(unsigned int mask, int value);
__CUCC_DEV unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__CUCC_DEV unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__CUCC_DEV unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__CUCC_DEV unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);

/* __byte_perm, __funnelshift_*, __dp4a and __dp2a_* are inline code in
 * __cucc_intrinsics.h. */

/* ---- Read-only and cache-hinted loads and stores ---- */
#define __CUCC_LDST(T) \
    __CUCC_DEV T __ldg(const T *ptr); __CUCC_DEV T __ldcg(const T *ptr); \
    __CUCC_DEV T __ldca(const T *ptr); __CUCC_DEV T __ldcs(const T *ptr); \
    __CUCC_DEV T __ldlu(const T *ptr); __CUCC_DEV T __ldcv(const T *ptr); \
    __CUCC_DEV void __stwb(T *ptr, T value); __CUCC_DEV void __stcg(T *ptr, T value); \
    __CUCC_DEV void __stcs(T *ptr, T value); __CUCC_DEV void __stwt(T *ptr, T value);
__CUCC_LDST(char)
__CUCC_LDST(signed char)
__CUCC_LDST(short)
__CUCC_LDST(int)
__CUCC_LDST(long)
__CUCC_LDST(long long)
__CUCC_LDST(unsigned char)
__CUCC_LDST(unsigned short)
__CUCC_LDST(unsigned int)
__CUCC_LDST(unsigned long)
__CUCC_LDST(unsigned long long)
__CUCC_LDST(float)
__CUCC_LDST(double)
__CUCC_LDST(char2)
__CUCC_LDST(char4)
__CUCC_LDST(short2)
__CUCC_LDST(short4)
__CUCC_LDST(int2)
__CUCC_LDST(int4)
__CUCC_LDST(longlong2)
__CUCC_LDST(uchar2)
__CUCC_LDST(uchar4)
__CUCC_LDST(ushort2)
__CUCC_LDST(ushort4)
__CUCC_LDST(uint2)
__CUCC_LDST(uint4)
__CUCC_LDST(ulonglong2)
__CUCC_LDST(float2)
__CUCC_LDST(float4)
__CUCC_LDST(double2)
#undef __CUCC_LDST

/* ---- Address-space queries ---- */
__CUCC_DEV unsigned int __isGlobal(const void *ptr);
__CUCC_DEV unsigned int __isShared(const void *ptr);
__CUCC_DEV unsigned int __isConstant(const void *ptr);
__CUCC_DEV unsigned int __isLocal(const void *ptr);

#include "__cucc_intrinsics.h"

#endif
