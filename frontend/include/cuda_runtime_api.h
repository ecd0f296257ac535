/* cucc: the CUDA runtime API (host functions).  Implemented by cucc's
 * runtime library. */
#ifndef __CUCC_CUDA_RUNTIME_API_H__
#define __CUCC_CUDA_RUNTIME_API_H__
/* The guard NVIDIA's cuda_runtime_api.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __CUDA_RUNTIME_API_H__
#include "__cucc_defines.h"
#include "driver_types.h"

#ifdef __cplusplus
extern "C" {
#define __CUCC_DEFAULT(v) = v
#else
#define __CUCC_DEFAULT(v)
#endif

/* Devices. */
extern cudaError_t cudaGetDeviceCount(int *count);
extern cudaError_t cudaSetDevice(int device);
extern cudaError_t cudaGetDevice(int *device);
extern cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
extern cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
extern cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
extern cudaError_t cudaSetDeviceFlags(unsigned int flags);
extern cudaError_t cudaGetDeviceFlags(unsigned int *flags);
extern cudaError_t cudaDeviceSynchronize(void);
extern cudaError_t cudaDeviceReset(void);
extern cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
extern cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *cacheConfig);
extern cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
extern cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
extern cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
extern cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
extern cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
extern cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
extern cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
extern cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
extern cudaError_t cudaDriverGetVersion(int *driverVersion);
extern cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);

/* Legacy thread management (removed from CUDA 13; kept for old programs). */
extern cudaError_t cudaThreadSynchronize(void);
extern cudaError_t cudaThreadExit(void);
extern cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
extern cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit);
extern cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
extern cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *cacheConfig);

/* Errors. */
extern cudaError_t cudaGetLastError(void);
extern cudaError_t cudaPeekAtLastError(void);
extern const char *cudaGetErrorString(cudaError_t error);
extern const char *cudaGetErrorName(cudaError_t error);

/* Memory. */
extern cudaError_t cudaMalloc(void **devPtr, size_t size);
extern cudaError_t cudaMallocHost(void **ptr, size_t size);
extern cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
extern cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags __CUCC_DEFAULT(cudaMemAttachGlobal));
extern cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
extern cudaError_t cudaFree(void *devPtr);
extern cudaError_t cudaFreeHost(void *ptr);
extern cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
extern cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
extern cudaError_t cudaHostUnregister(void *ptr);
extern cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
extern cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
extern cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
extern cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
extern cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
extern cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
extern cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
extern cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset __CUCC_DEFAULT(0), enum cudaMemcpyKind kind __CUCC_DEFAULT(cudaMemcpyHostToDevice));
extern cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset __CUCC_DEFAULT(0), enum cudaMemcpyKind kind __CUCC_DEFAULT(cudaMemcpyDeviceToHost));
extern cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
extern cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
extern cudaError_t cudaMemset(void *devPtr, int value, size_t count);
extern cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
extern cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
extern cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags, cudaStream_t stream __CUCC_DEFAULT(0));

/* Arrays. */
extern cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height __CUCC_DEFAULT(0), unsigned int flags __CUCC_DEFAULT(0));
extern cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent, unsigned int flags __CUCC_DEFAULT(0));
extern cudaError_t cudaFreeArray(cudaArray_t array);
extern cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags, cudaArray_t array);
extern cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
extern cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);

/* Streams. */
extern cudaError_t cudaStreamCreate(cudaStream_t *pStream);
extern cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
extern cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
extern cudaError_t cudaStreamDestroy(cudaStream_t stream);
extern cudaError_t cudaStreamSynchronize(cudaStream_t stream);
extern cudaError_t cudaStreamQuery(cudaStream_t stream);
extern cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
extern cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority);
extern cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags __CUCC_DEFAULT(0));
extern cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags);
extern cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);

/* Events. */
extern cudaError_t cudaEventCreate(cudaEvent_t *event);
extern cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
extern cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream __CUCC_DEFAULT(0), unsigned int flags __CUCC_DEFAULT(0));
extern cudaError_t cudaEventQuery(cudaEvent_t event);
extern cudaError_t cudaEventSynchronize(cudaEvent_t event);
extern cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
extern cudaError_t cudaEventDestroy(cudaEvent_t event);

/* Kernels and launches.  clang lowers `k<<<g, b, s, st>>>(args)` to
 * __cudaPushCallConfiguration (CUDA >= 9.2 protocol) or, for older SDK
 * versions, cudaConfigureCall; both are declared. */
extern cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);
extern cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream);
extern cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __CUCC_DEFAULT(0), cudaStream_t stream __CUCC_DEFAULT(0));
extern cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
extern cudaError_t cudaLaunch(const void *func);
extern unsigned int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __CUCC_DEFAULT(0), struct CUstream_st *stream __CUCC_DEFAULT(0));
extern cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
extern cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
extern cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
extern cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
extern cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
extern cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);
extern cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags);
/* An inline template in CUDA's headers; cucc's runtime implements it (the
 * template in cuda_runtime.h calls this). */
extern cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, const void *func, size_t dynamicSMemSize, int blockSizeLimit);

/* Textures and surfaces. */
extern struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
extern cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
extern cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc);
extern cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
extern cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject);
extern cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject);
extern cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject);
extern cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc);
extern cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
/* Legacy texture references (removed from CUDA 12; kept for old programs). */
extern cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref, const void *devPtr, const struct cudaChannelFormatDesc *desc, size_t size __CUCC_DEFAULT(UINT_MAX));
extern cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref, const void *devPtr, const struct cudaChannelFormatDesc *desc, size_t width, size_t height, size_t pitch);
extern cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array, const struct cudaChannelFormatDesc *desc);
extern cudaError_t cudaUnbindTexture(const struct textureReference *texref);
extern cudaError_t cudaGetTextureAlignmentOffset(size_t *offset, const struct textureReference *texref);
extern cudaError_t cudaGetTextureReference(const struct textureReference **texref, const void *symbol);

/* Profiler control. */
extern cudaError_t cudaProfilerStart(void);
extern cudaError_t cudaProfilerStop(void);

/* The rest of CUDA 13's runtime API: graphs, capture, pools, ... */
#include "__cucc_runtime_more.h"

#ifdef __cplusplus
}
#endif
#undef __CUCC_DEFAULT

#endif
