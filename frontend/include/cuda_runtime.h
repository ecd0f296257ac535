/* cucc: the CUDA runtime header.  Brings in the runtime API, the device
 * built-ins and intrinsics, math, textures, and the C++ conveniences
 * (templated cudaMalloc, cudaMemcpyToSymbol, texture binding, ...). */
#ifndef __CUCC_CUDA_RUNTIME_H__
#define __CUCC_CUDA_RUNTIME_H__
/* The guard NVIDIA's cuda_runtime.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __CUDA_RUNTIME_H__
#include "__cucc_defines.h"
#include "vector_types.h"
#include "vector_functions.h"
#include "driver_types.h"
#include "device_types.h"
#include "cuda_runtime_api.h"
#include "texture_types.h"
/* Device code only exists when compiling CUDA; a plain C or C++ file that
 * includes this header gets the host API alone. */
#ifdef __CUDA__
#include "device_launch_parameters.h"
#include "device_functions.h"
#include "math_functions.h"
#include "texture_fetch_functions.h"
#endif

#ifdef __cplusplus

/* Extents and pitched pointers. */
static __inline__ __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
    struct cudaPitchedPtr s = {d, p, xsz, ysz};
    return s;
}
static __inline__ __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
    struct cudaPos p = {x, y, z};
    return p;
}
static __inline__ __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
    struct cudaExtent e = {w, h, d};
    return e;
}

/* Typed allocation helpers. */
template <class T> static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
    return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
    return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
    return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
    return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
    return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

/* Symbols: `symbol` is a __device__ or __constant__ variable. */
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
    return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T> static __inline__ __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
    return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
    return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T> static __inline__ __host__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
    return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

/* Kernels, by function pointer. */
template <class T> static __inline__ __host__ cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0) {
    return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
/* Extended launch: the arguments are converted to the kernel's parameter
 * types first, then passed by address (a trailing NULL keeps the array
 * non-empty for kernels without parameters). */
template <typename... ExpTypes, typename... ActTypes>
static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(ExpTypes...), ActTypes &&...args) {
    return [&](ExpTypes... converted) {
        void *argv[sizeof...(ExpTypes) + 1] = {((void *)&converted)..., 0};
        return ::cudaLaunchKernelExC(config, (const void *)kernel, argv);
    }(static_cast<ActTypes &&>(args)...);
}
template <class T> static __inline__ __host__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, T *kernel, void **args) {
    return ::cudaLaunchKernelExC(config, (const void *)kernel, args);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream) {
    return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncGetName(const char **name, T *func) {
    return ::cudaFuncGetName(name, (const void *)func);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func) {
    return ::cudaFuncGetAttributes(attr, (const void *)func);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
    return ::cudaFuncSetAttribute((const void *)func, attr, value);
}
template <class T> static __inline__ __host__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
    return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize, size_t dynamicSMemSize) {
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func, blockSize, dynamicSMemSize);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
    return ::cudaOccupancyMaxPotentialBlockSize(minGridSize, blockSize, (const void *)func, dynamicSMemSize, blockSizeLimit);
}
template <class T> static __inline__ __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize, dynamicSMemSize, flags);
}
static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
    return ::cudaEventCreateWithFlags(event, flags);
}

/* Channel descriptors for a texel type. */
template <class T> struct __cucc_channel { static const int x = 0, y = 0, z = 0, w = 0; static const enum cudaChannelFormatKind f = cudaChannelFormatKindNone; };
#define __CUCC_CHANNEL(T, X, Y, Z, W, F) \
    template <> struct __cucc_channel<T> { static const int x = X, y = Y, z = Z, w = W; static const enum cudaChannelFormatKind f = F; };
#define __CUCC_CHANNEL4(S, T, K) \
    __CUCC_CHANNEL(T, 8 * (int)sizeof(S), 0, 0, 0, K) \
    __CUCC_CHANNEL(T##1, 8 * (int)sizeof(S), 0, 0, 0, K) \
    __CUCC_CHANNEL(T##2, 8 * (int)sizeof(S), 8 * (int)sizeof(S), 0, 0, K) \
    __CUCC_CHANNEL(T##4, 8 * (int)sizeof(S), 8 * (int)sizeof(S), 8 * (int)sizeof(S), 8 * (int)sizeof(S), K)
__CUCC_CHANNEL(char, 8, 0, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(signed char, 8, 0, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(unsigned char, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(short, 16, 0, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(unsigned short, 16, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(int, 32, 0, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(unsigned int, 32, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(float, 32, 0, 0, 0, cudaChannelFormatKindFloat)
__CUCC_CHANNEL(char1, 8, 0, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(char2, 8, 8, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(char4, 8, 8, 8, 8, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(uchar1, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(uchar2, 8, 8, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(uchar4, 8, 8, 8, 8, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(short1, 16, 0, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(short2, 16, 16, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(short4, 16, 16, 16, 16, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(ushort1, 16, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(ushort2, 16, 16, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(ushort4, 16, 16, 16, 16, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(int1, 32, 0, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(int2, 32, 32, 0, 0, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(int4, 32, 32, 32, 32, cudaChannelFormatKindSigned)
__CUCC_CHANNEL(uint1, 32, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(uint2, 32, 32, 0, 0, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(uint4, 32, 32, 32, 32, cudaChannelFormatKindUnsigned)
__CUCC_CHANNEL(float1, 32, 0, 0, 0, cudaChannelFormatKindFloat)
__CUCC_CHANNEL(float2, 32, 32, 0, 0, cudaChannelFormatKindFloat)
__CUCC_CHANNEL(float4, 32, 32, 32, 32, cudaChannelFormatKindFloat)
#undef __CUCC_CHANNEL
#undef __CUCC_CHANNEL4
template <class T> static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
    return ::cudaCreateChannelDesc(__cucc_channel<T>::x, __cucc_channel<T>::y, __cucc_channel<T>::z, __cucc_channel<T>::w, __cucc_channel<T>::f);
}

/* Legacy texture binding through a `texture<T, dim, mode>` reference. */
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex, const void *devPtr, const struct cudaChannelFormatDesc &desc, size_t size = UINT_MAX) {
    return ::cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex, const void *devPtr, size_t size = UINT_MAX) {
    struct cudaChannelFormatDesc desc = cudaCreateChannelDesc<T>();
    return ::cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex, const void *devPtr, const struct cudaChannelFormatDesc &desc, size_t width, size_t height, size_t pitch) {
    return ::cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex, const void *devPtr, size_t width, size_t height, size_t pitch) {
    struct cudaChannelFormatDesc desc = cudaCreateChannelDesc<T>();
    return ::cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex, cudaArray_const_t array, const struct cudaChannelFormatDesc &desc) {
    return ::cudaBindTextureToArray(&tex, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex, cudaArray_const_t array) {
    struct cudaChannelFormatDesc desc;
    cudaError_t err = ::cudaGetChannelDesc(&desc, array);
    return err == cudaSuccess ? ::cudaBindTextureToArray(&tex, array, &desc) : err;
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t cudaUnbindTexture(const struct texture<T, dim, readMode> &tex) {
    return ::cudaUnbindTexture(&tex);
}

#endif /* __cplusplus */

#endif
