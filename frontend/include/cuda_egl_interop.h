/* cucc: the EGL interoperability API. The CPU runtime has no EGL
 * interop: every call returns cudaErrorNotSupported. The EGL handle types
 * are spelled as EGL defines them, so no EGL header is needed. */
#ifndef __CUCC_CUDA_EGL_INTEROP_H__
#define __CUCC_CUDA_EGL_INTEROP_H__
#include "cuda_runtime_api.h"
#include <stdint.h>

typedef void *EGLImageKHR;
typedef void *EGLStreamKHR;
typedef void *EGLSyncKHR;
typedef int32_t EGLint;

#ifdef __cplusplus
extern "C" {
#endif
extern cudaError_t cudaEGLStreamConsumerAcquireFrame(cudaEglStreamConnection *conn, cudaGraphicsResource_t *pCudaResource, cudaStream_t *pStream, unsigned int timeout);
extern cudaError_t cudaEGLStreamConsumerConnect(cudaEglStreamConnection *conn, EGLStreamKHR eglStream);
extern cudaError_t cudaEGLStreamConsumerConnectWithFlags(cudaEglStreamConnection *conn, EGLStreamKHR eglStream, unsigned int flags);
extern cudaError_t cudaEGLStreamConsumerDisconnect(cudaEglStreamConnection *conn);
extern cudaError_t cudaEGLStreamConsumerReleaseFrame(cudaEglStreamConnection *conn, cudaGraphicsResource_t pCudaResource, cudaStream_t *pStream);
extern cudaError_t cudaEGLStreamProducerConnect(cudaEglStreamConnection *conn, EGLStreamKHR eglStream, EGLint width, EGLint height);
extern cudaError_t cudaEGLStreamProducerDisconnect(cudaEglStreamConnection *conn);
extern cudaError_t cudaEGLStreamProducerPresentFrame(cudaEglStreamConnection *conn, cudaEglFrame eglframe, cudaStream_t *pStream);
extern cudaError_t cudaEGLStreamProducerReturnFrame(cudaEglStreamConnection *conn, cudaEglFrame *eglframe, cudaStream_t *pStream);
extern cudaError_t cudaEventCreateFromEGLSync(cudaEvent_t *phEvent, EGLSyncKHR eglSync, unsigned int flags);
extern cudaError_t cudaGraphicsEGLRegisterImage(struct cudaGraphicsResource **pCudaResource, EGLImageKHR image, unsigned int flags);
extern cudaError_t cudaGraphicsResourceGetMappedEglFrame(cudaEglFrame *eglFrame, cudaGraphicsResource_t resource, unsigned int index, unsigned int mipLevel);
#ifdef __cplusplus
}
#endif
#endif
