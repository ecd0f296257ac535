// Two objects with the same static kernel, linked together. Prints PASS.
#include <cstdio>
#include "fill.cuh"

int fill_other(int *d, int n);

int main() {
    const int n = 40;
    int *d, h[n];
    cudaMalloc(&d, sizeof h);
    fill<7><<<1, 64>>>(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = h[n - 1] != 7 + n - 1;
    cudaMemset(d, 0, sizeof h);
    bad |= !fill_other(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) bad |= h[i] != 7 + i;
    if (bad) {
        printf("wrong values\n");
        return 1;
    }
    printf("PASS static_kernels\n");
    return 0;
}
