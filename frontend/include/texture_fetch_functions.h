/* cucc: texture fetches, for texture objects (`cudaTextureObject_t`) and
 * legacy texture references (`texture<T, dim, mode>`).  Declared, not
 * defined; the frontend maps each call to a texture-fetch op. */
#ifndef __CUCC_TEXTURE_FETCH_FUNCTIONS_H__
#define __CUCC_TEXTURE_FETCH_FUNCTIONS_H__
#include "texture_types.h"
#include "vector_types.h"

/* Texture objects: the result type is the template argument. */
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t tex, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t tex, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t tex, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t tex, float x, float y, float z);
template <class T> __device__ T tex1DLod(cudaTextureObject_t tex, float x, float level);
template <class T> __device__ T tex2DLod(cudaTextureObject_t tex, float x, float y, float level);
template <class T> __device__ T tex3DLod(cudaTextureObject_t tex, float x, float y, float z, float level);
template <class T> __device__ T tex1DLayered(cudaTextureObject_t tex, float x, int layer);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t tex, float x, float y, int layer);
template <class T> __device__ void tex1Dfetch(T *ret, cudaTextureObject_t tex, int x);
template <class T> __device__ void tex1D(T *ret, cudaTextureObject_t tex, float x);
template <class T> __device__ void tex2D(T *ret, cudaTextureObject_t tex, float x, float y);
template <class T> __device__ void tex3D(T *ret, cudaTextureObject_t tex, float x, float y, float z);

/* Legacy references: element-type reads return T; normalized-float reads
 * return float (or floatN for vector texels). */
template <class T> struct __cucc_tex_norm { typedef float type; };
template <> struct __cucc_tex_norm<char2> { typedef float2 type; };
template <> struct __cucc_tex_norm<uchar2> { typedef float2 type; };
template <> struct __cucc_tex_norm<short2> { typedef float2 type; };
template <> struct __cucc_tex_norm<ushort2> { typedef float2 type; };
template <> struct __cucc_tex_norm<char4> { typedef float4 type; };
template <> struct __cucc_tex_norm<uchar4> { typedef float4 type; };
template <> struct __cucc_tex_norm<short4> { typedef float4 type; };
template <> struct __cucc_tex_norm<ushort4> { typedef float4 type; };

template <class T> __device__ T tex1Dfetch(texture<T, cudaTextureType1D, cudaReadModeElementType> t, int x);
template <class T> __device__ typename __cucc_tex_norm<T>::type tex1Dfetch(texture<T, cudaTextureType1D, cudaReadModeNormalizedFloat> t, int x);
template <class T> __device__ T tex1D(texture<T, cudaTextureType1D, cudaReadModeElementType> t, float x);
template <class T> __device__ typename __cucc_tex_norm<T>::type tex1D(texture<T, cudaTextureType1D, cudaReadModeNormalizedFloat> t, float x);
template <class T> __device__ T tex2D(texture<T, cudaTextureType2D, cudaReadModeElementType> t, float x, float y);
template <class T> __device__ typename __cucc_tex_norm<T>::type tex2D(texture<T, cudaTextureType2D, cudaReadModeNormalizedFloat> t, float x, float y);
template <class T> __device__ T tex3D(texture<T, cudaTextureType3D, cudaReadModeElementType> t, float x, float y, float z);
template <class T> __device__ typename __cucc_tex_norm<T>::type tex3D(texture<T, cudaTextureType3D, cudaReadModeNormalizedFloat> t, float x, float y, float z);

#endif
