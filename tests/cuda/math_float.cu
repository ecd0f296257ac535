// Device math in float (the f-suffixed C functions and the float overloads)
// compared with the host library within a stated tolerance: relative 1e-5
// plus absolute 1e-6.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NF 16

__host__ __device__ void mathf(float x, float y, float *o) {
    o[0] = sinf(x);
    o[1] = cosf(x);
    o[2] = tanf(x * 0.25f);
    o[3] = expf(x * 0.5f);
    o[4] = logf(y);
    o[5] = sqrtf(y);
    o[6] = powf(y, 1.5f);
    o[7] = fabsf(x) + floorf(x) + ceilf(x);
    o[8] = fminf(x, y) + fmaxf(x, y);
    o[9] = fmaf(x, y, 1.0f);
    o[10] = tanhf(x * 0.3f);
    o[11] = atan2f(x, y);
    o[12] = 1.0f / sqrtf(y);
    o[13] = log2f(y) + log10f(y);
    o[14] = fmodf(x, 1.5f) + truncf(x) + roundf(x);
    o[15] = exp2f(x * 0.25f) + cbrtf(y) + hypotf(x, y);
}

__global__ void math_kernel(const float *x, const float *y, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) mathf(x[i], y[i], out + i * NF);
}

__global__ void math_overloads(const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sin(x[i]) + std::cos(x[i]) + sqrt(fabs(x[i])) + rsqrtf(1.0f + x[i] * x[i]);
}

int main() {
    const int n = 128;
    float hx[n], hy[n], hout[n * NF], hov[n];
    for (int i = 0; i < n; ++i) {
        hx[i] = (i - 64) * 0.09f;
        hy[i] = 0.05f + i * 0.11f;
    }
    float *dx, *dy, *dout, *dov;
    alloc_copy(&dx, hx, sizeof(hx));
    alloc_copy(&dy, hy, sizeof(hy));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMalloc(&dov, sizeof(hov)));
    math_kernel<<<4, 32>>>(dx, dy, dout, n);
    math_overloads<<<4, 32>>>(dx, dov, n);
    copy_back(hout, dout, sizeof(hout));
    CHECK(cudaMemcpy(hov, dov, sizeof(hov), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float want[NF + 1];
        mathf(hx[i], hy[i], want);
        want[NF] = std::sin(hx[i]) + std::cos(hx[i]) + std::sqrt(std::fabs(hx[i])) + 1.0f / std::sqrt(1.0f + hx[i] * hx[i]);
        for (int k = 0; k <= NF; ++k) {
            float got = k < NF ? hout[i * NF + k] : hov[i];
            if (std::fabs(got - want[k]) > 1e-5f * std::fabs(want[k]) + 1e-6f) {
                if (bad < 5) printf("element %d function %d: got %.9g want %.9g\n", i, k, got, want[k]);
                ++bad;
            }
        }
    }
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dout);
    cudaFree(dov);
    return report("math_float", bad);
}
