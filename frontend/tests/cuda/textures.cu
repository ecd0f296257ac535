// Texture objects and legacy texture references.
#include <cuda_runtime.h>
#include <cstdio>

texture<float, 1, cudaReadModeElementType> tex_lin;
texture<float, 2, cudaReadModeElementType> tex_2d;
texture<uchar4, cudaTextureType2D, cudaReadModeNormalizedFloat> tex_img;

__global__ void fetch_legacy(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 px = tex2D(tex_img, i + 0.5f, 0.5f);
        out[i] = tex1Dfetch(tex_lin, i) + tex2D(tex_2d, i + 0.5f, 0.5f) + px.x;
    }
}

__global__ void fetch_object(cudaTextureObject_t lin, cudaTextureObject_t vol, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = tex1Dfetch<float>(lin, i);
        float b = tex1D<float>(lin, i + 0.5f);
        float c = tex2D<float>(lin, i + 0.5f, 0.5f);
        float d = tex3D<float>(vol, i + 0.5f, 0.5f, 0.5f);
        float e;
        tex1Dfetch(&e, lin, i);
        out[i] = a + b + c + d + e;
    }
}

int main() {
    const int n = 64;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    size_t offset = 0;
    cudaBindTexture(&offset, tex_lin, d, n * sizeof(float));
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaBindTexture2D(&offset, tex_2d, d, desc, 8, 8, 8 * sizeof(float));
    cudaArray_t arr;
    cudaChannelFormatDesc cdesc = cudaCreateChannelDesc<uchar4>();
    cudaMallocArray(&arr, &cdesc, 8, 8);
    cudaBindTextureToArray(tex_img, arr);
    fetch_legacy<<<1, n>>>(d, n);
    cudaUnbindTexture(tex_lin);
    cudaUnbindTexture(tex_2d);
    cudaUnbindTexture(tex_img);

    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d;
    res.res.linear.desc = desc;
    res.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t obj = 0;
    cudaCreateTextureObject(&obj, &res, &td, nullptr);
    fetch_object<<<1, n>>>(obj, obj, d, n);
    cudaDestroyTextureObject(obj);
    cudaFreeArray(arr);
    cudaFree(d);
    printf("ok\n");
    return 0;
}
