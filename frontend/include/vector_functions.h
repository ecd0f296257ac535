/* cucc: make_<vector> constructors for the CUDA vector types. */
#ifndef __CUCC_VECTOR_FUNCTIONS_H__
#define __CUCC_VECTOR_FUNCTIONS_H__
/* The guard NVIDIA's vector_functions.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __VECTOR_FUNCTIONS_H__
#include "vector_types.h"

#define __CUCC_MAKE1(V, T) __CUCC_INLINE __CUCC_HD V make_##V(T x) { V r; r.x = x; return r; }
#define __CUCC_MAKE2(V, T) __CUCC_INLINE __CUCC_HD V make_##V(T x, T y) { V r; r.x = x; r.y = y; return r; }
#define __CUCC_MAKE3(V, T) __CUCC_INLINE __CUCC_HD V make_##V(T x, T y, T z) { V r; r.x = x; r.y = y; r.z = z; return r; }
#define __CUCC_MAKE4(V, T) __CUCC_INLINE __CUCC_HD V make_##V(T x, T y, T z, T w) { V r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }
#define __CUCC_MAKE(P, T) __CUCC_MAKE1(P##1, T) __CUCC_MAKE2(P##2, T) __CUCC_MAKE3(P##3, T) __CUCC_MAKE4(P##4, T)

__CUCC_MAKE(char, signed char)
__CUCC_MAKE(uchar, unsigned char)
__CUCC_MAKE(short, short)
__CUCC_MAKE(ushort, unsigned short)
__CUCC_MAKE(int, int)
__CUCC_MAKE(uint, unsigned int)
__CUCC_MAKE(long, long)
__CUCC_MAKE(ulong, unsigned long)
__CUCC_MAKE(longlong, long long)
__CUCC_MAKE(ulonglong, unsigned long long)
__CUCC_MAKE(float, float)
__CUCC_MAKE(double, double)

#undef __CUCC_MAKE
#undef __CUCC_MAKE1
#undef __CUCC_MAKE2
#undef __CUCC_MAKE3
#undef __CUCC_MAKE4
#endif
