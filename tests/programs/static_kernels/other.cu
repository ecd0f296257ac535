#include "fill.cuh"

int fill_other(int *d, int n) {
    fill<7><<<1, 64>>>(d, n);
    return cudaDeviceSynchronize() == cudaSuccess;
}
