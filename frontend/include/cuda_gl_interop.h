/* cucc: the CUDA runtime's OpenGL interoperability API. cucc's device is
 * the CPU, which shares no memory with an OpenGL implementation, so the
 * runtime registers no OpenGL buffer or texture: registration calls return
 * cudaErrorNotSupported, calls on a resource cudaErrorInvalidResourceHandle
 * (none can exist), and cudaGLGetDevices finds no device behind the GL
 * context (docs/runtime.md). The GL types are spelled as the integers
 * GL/gl.h defines them to be, so the header needs no OpenGL headers. */
#ifndef __CUCC_CUDA_GL_INTEROP_H__
#define __CUCC_CUDA_GL_INTEROP_H__
#define __CUDA_GL_INTEROP_H__
#include "cuda_runtime_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __CUCC_CUDA_GRAPHICS_RESOURCE__
#define __CUCC_CUDA_GRAPHICS_RESOURCE__
struct cudaGraphicsResource;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;

enum cudaGraphicsRegisterFlags {
    cudaGraphicsRegisterFlagsNone = 0,
    cudaGraphicsRegisterFlagsReadOnly = 1,
    cudaGraphicsRegisterFlagsWriteDiscard = 2,
    cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
    cudaGraphicsRegisterFlagsTextureGather = 8
};

enum cudaGraphicsMapFlags {
    cudaGraphicsMapFlagsNone = 0,
    cudaGraphicsMapFlagsReadOnly = 1,
    cudaGraphicsMapFlagsWriteDiscard = 2
};
#endif

enum cudaGLDeviceList {
    cudaGLDeviceListAll = 1,
    cudaGLDeviceListCurrentFrame = 2,
    cudaGLDeviceListNextFrame = 3
};

enum cudaGLMapFlags {
    cudaGLMapFlagsNone = 0,
    cudaGLMapFlagsReadOnly = 1,
    cudaGLMapFlagsWriteDiscard = 2
};

cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices,
                             unsigned int cudaDeviceCount, enum cudaGLDeviceList deviceList);
cudaError_t cudaGraphicsGLRegisterImage(cudaGraphicsResource_t *resource, unsigned int image,
                                        unsigned int target, unsigned int flags);
cudaError_t cudaGraphicsGLRegisterBuffer(cudaGraphicsResource_t *resource, unsigned int buffer,
                                         unsigned int flags);
cudaError_t cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource);
cudaError_t cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource, unsigned int flags);
cudaError_t cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources,
                                     cudaStream_t stream);
cudaError_t cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t *resources,
                                       cudaStream_t stream);
cudaError_t cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size,
                                                 cudaGraphicsResource_t resource);
cudaError_t cudaGraphicsSubResourceGetMappedArray(cudaArray_t *array,
                                                  cudaGraphicsResource_t resource,
                                                  unsigned int arrayIndex, unsigned int mipLevel);

/* Deprecated since CUDA 3.0, still declared by CUDA 13. */
cudaError_t cudaGLSetGLDevice(int device);
cudaError_t cudaGLRegisterBufferObject(unsigned int bufObj);
cudaError_t cudaGLMapBufferObject(void **devPtr, unsigned int bufObj);
cudaError_t cudaGLUnmapBufferObject(unsigned int bufObj);
cudaError_t cudaGLUnregisterBufferObject(unsigned int bufObj);
cudaError_t cudaGLSetBufferObjectMapFlags(unsigned int bufObj, unsigned int flags);
cudaError_t cudaGLMapBufferObjectAsync(void **devPtr, unsigned int bufObj, cudaStream_t stream);
cudaError_t cudaGLUnmapBufferObjectAsync(unsigned int bufObj, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
