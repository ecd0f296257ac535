/* cucc: CUDA execution-space keywords and compiler macros for clang's CUDA
 * mode with -nocudainc.  Part of cucc's own CUDA headers. */
#ifndef __CUCC_DEFINES_H__
#define __CUCC_DEFINES_H__

#define __CUCC__ 1
/* __CUDACC__ and __NVCC__ say "compiled as CUDA": only when clang is in CUDA
 * mode. Plain C and C++ files may include cuda_runtime.h for the host API,
 * as with nvcc, and then see empty execution-space keywords. */
#ifdef __CUDA__
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
/* Calling convention of host callbacks (`void CUDART_CB cb(...)`): empty
 * outside Windows, as in CUDA's headers. */
#ifndef CUDART_CB
#define CUDART_CB
#endif
#ifndef __CUDART_API_VERSION
#define __CUDART_API_VERSION CUDART_VERSION
#endif

#ifdef __CUDA__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang supports `managed` only for HIP: a managed variable is a device
 * variable marked with the one `annotate` attribute cucc's headers use (it
 * shows as AnnotateAttr in the AST). */
#define __managed__ __attribute__((device)) __attribute__((annotate("cucc.managed")))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#endif
#define __grid_constant__
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __thread__ __thread
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDAAPI
#define __CUDA_DEPRECATED

/* Intrinsics are declared, never defined, on the device side: cucc's
 * frontend recognises a call by the callee's name when the callee is
 * declared in this include directory. */
#define __CUCC_DEV extern __device__
#define __CUCC_HD __host__ __device__
#define __CUCC_INLINE static __inline__ __attribute__((always_inline))

#endif
