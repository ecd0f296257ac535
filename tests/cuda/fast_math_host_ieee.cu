// cucc-flags: -use_fast_math
// --use_fast_math changes device code only: host code built in the same
// file keeps IEEE arithmetic (Rodinia's particlefilter builds its host
// likelihood and random numbers so). Under a host -ffast-math the NaN test
// below folds to false and the sum is reassociated.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x, float f) { x[threadIdx.x] = x[threadIdx.x] * f; }

static int host_checks(volatile float zero, volatile double big) {
    float nan = zero / zero;
    if (!std::isnan(nan)) {
        printf("FAIL host isnan(0/0) is false\n");
        return 1;
    }
    float inf = 1.0f / zero;
    if (!std::isinf(inf)) {
        printf("FAIL host isinf(1/0) is false\n");
        return 1;
    }
    // (big + 1) - big is 0 in IEEE doubles at 2^53; reassociated, it is 1.
    double d = big;
    double r = (d + 1.0) - d;
    if (r != 0.0) {
        printf("FAIL host (2^53 + 1) - 2^53 = %g\n", r);
        return 1;
    }
    return 0;
}

int main() {
    if (host_checks(0.0f, 9007199254740992.0))
        return 1;
    float h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    scale<<<1, 4>>>(d, 2.0f);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; i++) {
        if (h[i] != 2.0f * (i + 1)) {
            printf("FAIL device %d: %g\n", i, h[i]);
            return 1;
        }
    }
    printf("PASS fast_math_host_ieee\n");
    return 0;
}
