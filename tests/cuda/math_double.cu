// Device math in double compared with the host library within a relative
// tolerance of 1e-12 plus absolute 1e-14.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define ND 14

__host__ __device__ void mathd(double x, double y, double *o) {
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = tan(x * 0.25);
    o[3] = exp(x * 0.5);
    o[4] = log(y);
    o[5] = sqrt(y);
    o[6] = pow(y, 1.5);
    o[7] = fabs(x) + floor(x) + ceil(x);
    o[8] = fmin(x, y) + fmax(x, y);
    o[9] = fma(x, y, 1.0);
    o[10] = tanh(x * 0.3);
    o[11] = atan2(x, y);
    o[12] = log2(y) + log10(y) + log1p(y) + expm1(x * 0.1);
    o[13] = fmod(x, 1.5) + trunc(x) + round(x) + asin(x / 8.0) + acos(x / 8.0) + atan(x);
}

__global__ void math_kernel(const double *x, const double *y, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) mathd(x[i], y[i], out + i * ND);
}

int main() {
    const int n = 128;
    double hx[n], hy[n], hout[n * ND];
    for (int i = 0; i < n; ++i) {
        hx[i] = (i - 64) * 0.09;
        hy[i] = 0.05 + i * 0.11;
    }
    double *dx, *dy, *dout;
    alloc_copy(&dx, hx, sizeof(hx));
    alloc_copy(&dy, hy, sizeof(hy));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    math_kernel<<<4, 32>>>(dx, dy, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        double want[ND];
        mathd(hx[i], hy[i], want);
        for (int k = 0; k < ND; ++k) {
            double got = hout[i * ND + k];
            if (std::fabs(got - want[k]) > 1e-12 * std::fabs(want[k]) + 1e-14) {
                if (bad < 5) printf("element %d function %d: got %.17g want %.17g\n", i, k, got, want[k]);
                ++bad;
            }
        }
    }
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dout);
    return report("math_double", bad);
}
