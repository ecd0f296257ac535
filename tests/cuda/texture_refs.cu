// Legacy texture references (removed in CUDA 12; nvcc 11.x or cucc):
// cudaBindTexture + tex1Dfetch, cudaBindTexture2D over pitched memory +
// tex2D, and cudaBindTextureToArray + tex1D.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define W 16
#define H 8

texture<float, 1, cudaReadModeElementType> tex_lin;
texture<int, 1, cudaReadModeElementType> tex_int;
texture<float, 2, cudaReadModeElementType> tex_img;
texture<float, 1, cudaReadModeElementType> tex_arr;

__global__ void sample(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = i % W, y = i / W;
    out[3 * i + 0] = tex1Dfetch(tex_lin, i) + (float)tex1Dfetch(tex_int, n - 1 - i);
    out[3 * i + 1] = tex2D(tex_img, x + 0.5f, y + 0.5f);
    out[3 * i + 2] = tex1D(tex_arr, x + 0.5f);
}

int main() {
    const int n = W * H;
    float hlin[n], himg[n], harr[W], hout[3 * n];
    int hint[n];
    for (int i = 0; i < n; ++i) {
        hlin[i] = i * 0.25f;
        hint[i] = i * 3 - 50;
        himg[i] = (float)((i * 11) % 37);
    }
    for (int x = 0; x < W; ++x) harr[x] = -1.0f * x;
    float *dlin, *dimg, *dout;
    int *dint;
    size_t pitch = 0;
    CHECK(cudaMalloc(&dlin, sizeof(hlin)));
    CHECK(cudaMalloc(&dint, sizeof(hint)));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMallocPitch(&dimg, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy(dlin, hlin, sizeof(hlin), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dint, hint, sizeof(hint), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2D(dimg, pitch, himg, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fdesc, W, 0));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, harr, sizeof(harr), sizeof(harr), 1, cudaMemcpyHostToDevice));
    size_t offset = 0;
    CHECK(cudaBindTexture(&offset, tex_lin, dlin, sizeof(hlin)));
    CHECK(cudaBindTexture(&offset, tex_int, dint, sizeof(hint)));
    CHECK(cudaBindTexture2D(&offset, tex_img, dimg, fdesc, W, H, pitch));
    CHECK(cudaBindTextureToArray(tex_arr, arr));
    sample<<<4, 32>>>(dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float want[3] = {hlin[i] + (float)hint[n - 1 - i], himg[i], harr[i % W]};
        check_row("texel", i, hout + i * 3, want, 3, bad);
    }
    cudaUnbindTexture(tex_lin);
    cudaUnbindTexture(tex_int);
    cudaUnbindTexture(tex_img);
    cudaUnbindTexture(tex_arr);
    cudaFreeArray(arr);
    cudaFree(dlin);
    cudaFree(dint);
    cudaFree(dimg);
    cudaFree(dout);
    return report("texture_refs", bad);
}
