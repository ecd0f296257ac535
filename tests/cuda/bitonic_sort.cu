// Bitonic sort of 512 keys: one kernel launch per (k, j) step, every
// thread compares and swaps with its partner i ^ j.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void bitonic_step(int *a, int j, int k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned p = i ^ j;
    if (p > i) {
        bool up = (i & k) == 0;
        int x = a[i], y = a[p];
        if ((x > y) == up) {
            a[i] = y;
            a[p] = x;
        }
    }
}

int main() {
    const int n = 512;
    int h[n], r[n];
    unsigned state = 99u;
    for (int i = 0; i < n; ++i) {
        lcg(state);
        h[i] = (int)(state >> 8) % 10000 - 5000;
    }
    int *d;
    alloc_copy(&d, h, sizeof(h));
    for (int k = 2; k <= n; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) bitonic_step<<<n / 128, 128>>>(d, j, k);
    copy_back(r, d, sizeof(r));
    std::sort(h, h + n);
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (r[i] != h[i]) {
            if (bad < 5) printf("position %d: got %d want %d\n", i, r[i], h[i]);
            ++bad;
        }
    cudaFree(d);
    return report("bitonic_sort", bad);
}
