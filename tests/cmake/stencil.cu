#include "stencil.cuh"

__device__ float smooth3(const float *x, int i, int n) {
    float l = i > 0 ? x[i - 1] : x[i];
    float r = i + 1 < n ? x[i + 1] : x[i];
    return 0.25f * l + 0.5f * x[i] + 0.25f * r;
}

__global__ void smooth_kernel(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = smooth3(in, i, n);
}

void smooth_on_device(const float *in, float *out, int n, cudaStream_t s) {
    smooth_kernel<<<(n + 127) / 128, 128, 0, s>>>(in, out, n);
}
