/* cucc: the VDPAU interoperability API. The CPU runtime has no VDPAU
 * interop: every call returns cudaErrorNotSupported. Without vdpau.h the
 * VDPAU handle types are declared as vdpau.h defines them. */
#ifndef __CUCC_CUDA_VDPAU_INTEROP_H__
#define __CUCC_CUDA_VDPAU_INTEROP_H__
#include "cuda_runtime_api.h"
#include <stdint.h>

#ifndef _VDPAU_H
typedef uint32_t VdpDevice;
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;
typedef uint32_t VdpFuncId;
typedef int VdpStatus;
typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id, void **function_pointer);
#endif

#ifdef __cplusplus
extern "C" {
#endif
extern cudaError_t cudaGraphicsVDPAURegisterOutputSurface(struct cudaGraphicsResource **resource, VdpOutputSurface vdpSurface, unsigned int flags);
extern cudaError_t cudaGraphicsVDPAURegisterVideoSurface(struct cudaGraphicsResource **resource, VdpVideoSurface vdpSurface, unsigned int flags);
extern cudaError_t cudaVDPAUGetDevice(int *device, VdpDevice vdpDevice, VdpGetProcAddress *vdpGetProcAddress);
extern cudaError_t cudaVDPAUSetVDPAUDevice(int device, VdpDevice vdpDevice, VdpGetProcAddress *vdpGetProcAddress);
#ifdef __cplusplus
}
#endif
#endif
