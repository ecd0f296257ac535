/* cucc: legacy texture references `texture<T, dim, mode>`.
 *
 * A file-scope `texture<...>` variable is a device variable (clang's
 * device_builtin_texture_type attribute makes it one); cucc's frontend
 * recognises the variable by its type's name `texture`. */
#ifndef __CUCC_TEXTURE_TYPES_H__
#define __CUCC_TEXTURE_TYPES_H__
/* The guard NVIDIA's texture_types.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __TEXTURE_TYPES_H__
#include "driver_types.h"

#ifdef __CUDA__
#define __CUCC_TEXTURE_TYPE __attribute__((device_builtin_texture_type))
#else
#define __CUCC_TEXTURE_TYPE
#endif

#ifdef __cplusplus
template <class T, int texType = cudaTextureType1D, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __CUCC_TEXTURE_TYPE texture : public textureReference {
    __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                     enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
        normalized = norm;
        filterMode = fMode;
        addressMode[0] = aMode;
        addressMode[1] = aMode;
        addressMode[2] = aMode;
        channelDesc.x = 0;
        channelDesc.y = 0;
        channelDesc.z = 0;
        channelDesc.w = 0;
        channelDesc.f = cudaChannelFormatKindNone;
    }
    __host__ texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
                     struct cudaChannelFormatDesc desc) {
        normalized = norm;
        filterMode = fMode;
        addressMode[0] = aMode;
        addressMode[1] = aMode;
        addressMode[2] = aMode;
        channelDesc = desc;
    }
};
#endif

#endif
