// Built the way Rodinia's Makefiles build: `-arch sm_13` (older than any
// architecture clang knows), `-cuda` (host side to FILE.cu.cpp.ii), and
// flags added through NVCC_APPEND_FLAGS, which must define LEGACY_FLAG.
#include <cstdio>

#ifndef LEGACY_FLAG
#error "LEGACY_FLAG is not defined: NVCC_APPEND_FLAGS was not applied"
#endif

__global__ void twice(double *x) { x[threadIdx.x] *= 2.0; }

int main() {
    double h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    twice<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; i++) {
        if (h[i] != 2.0 * (i + 1)) {
            printf("x[%d] = %g\n", i, h[i]);
            return 1;
        }
    }
    printf("PASS legacy_driver (arch %d)\n", LEGACY_FLAG);
    return 0;
}
