// Texture objects over linear memory (tex1Dfetch) and CUDA arrays (tex1D,
// tex2D) with point filtering, unnormalised coordinates and clamping.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "check.h"

#define W 16
#define H 8

__global__ void sample(cudaTextureObject_t lin, cudaTextureObject_t arr1, cudaTextureObject_t arr2, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = i % W, y = i / W;
    float a = tex1Dfetch<float>(lin, i);
    float b = tex1D<float>(arr1, x + 0.5f);
    float c = tex1D<float>(arr1, (float)W + 3.0f);  // clamped to the last texel
    float d = tex2D<float>(arr2, x + 0.5f, y + 0.5f);
    float e = tex2D<float>(arr2, x + 0.5f, -2.0f);  // clamped to row 0
    out[4 * i + 0] = a;
    out[4 * i + 1] = b + c;
    out[4 * i + 2] = d;
    out[4 * i + 3] = e;
}

int main() {
    const int n = W * H;
    float hlin[n], h1[W], h2[n], hout[4 * n];
    for (int i = 0; i < n; ++i) {
        hlin[i] = i * 0.5f;
        h2[i] = (float)((i * 7) % 31);
    }
    for (int x = 0; x < W; ++x) h1[x] = 100.0f + x;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    float *dlin, *dout;
    alloc_copy(&dlin, hlin, sizeof(hlin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    cudaArray_t a1, a2;
    CHECK(cudaMallocArray(&a1, &desc, W, 0));
    CHECK(cudaMallocArray(&a2, &desc, W, H));
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, h1, W * sizeof(float), W * sizeof(float), 1, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, h2, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));

    cudaTextureDesc td;
    memset(&td, 0, sizeof(td));
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;

    cudaResourceDesc rl;
    memset(&rl, 0, sizeof(rl));
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = dlin;
    rl.res.linear.desc = desc;
    rl.res.linear.sizeInBytes = sizeof(hlin);
    cudaResourceDesc r1;
    memset(&r1, 0, sizeof(r1));
    r1.resType = cudaResourceTypeArray;
    r1.res.array.array = a1;
    cudaResourceDesc r2 = r1;
    r2.res.array.array = a2;
    cudaTextureObject_t tlin = 0, t1 = 0, t2 = 0;
    CHECK(cudaCreateTextureObject(&tlin, &rl, &td, nullptr));
    CHECK(cudaCreateTextureObject(&t1, &r1, &td, nullptr));
    CHECK(cudaCreateTextureObject(&t2, &r2, &td, nullptr));
    sample<<<4, 32>>>(tlin, t1, t2, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int x = i % W, y = i / W;
        float want[4] = {hlin[i], h1[x] + h1[W - 1], h2[y * W + x], h2[x]};
        check_row("texel", i, hout + i * 4, want, 4, bad);
    }
    cudaDestroyTextureObject(tlin);
    cudaDestroyTextureObject(t1);
    cudaDestroyTextureObject(t2);
    cudaFreeArray(a1);
    cudaFreeArray(a2);
    cudaFree(dlin);
    cudaFree(dout);
    return report("texture_objects", bad);
}
