// atomicCAS on int, unsigned and unsigned long long: a one-winner claim
// per slot, and CAS loops building atomic operations CUDA does not have
// (float max through the bit pattern, unsigned multiply, 64-bit add).
#include <cstdio>
#include <cstdlib>

#include "check.h"

__device__ float atomic_max_float(float *addr, float v) {
    int *p = (int *)addr;
    int old = *p;
    while (__int_as_float(old) < v) {
        int assumed = old;
        old = atomicCAS(p, assumed, __float_as_int(v));
        if (old == assumed) break;
    }
    return __int_as_float(old);
}

__device__ unsigned atomic_mul(unsigned *addr, unsigned v) {
    unsigned old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed * v);
    } while (old != assumed);
    return old;
}

__device__ unsigned long long atomic_add64(unsigned long long *addr, unsigned long long v) {
    unsigned long long old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed + v);
    } while (old != assumed);
    return old;
}

__global__ void cas_kernel(int *owner, int *wins, float *fmax, unsigned *prod, unsigned long long *sum,
                           const float *vals, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int slot = i % 8;
    if (atomicCAS(&owner[slot], -1, i) == -1) atomicAdd(wins, 1);
    atomic_max_float(fmax, vals[i]);
    atomic_mul(prod, 2u * (unsigned)i + 1u);
    atomic_add64(sum, (unsigned long long)i * 0x100000007ull);
}

int main() {
    const int n = 160;
    int howner[8];
    for (int k = 0; k < 8; ++k) howner[k] = -1;
    int hwins = 0;
    float hmax = -1000.0f, hvals[n];
    unsigned hprod = 1;
    unsigned long long hsum = 5;
    for (int i = 0; i < n; ++i) hvals[i] = (float)((i * 61) % 157) * 0.5f - 20.0f;
    int *downer, *dwins;
    float *dmax, *dvals;
    unsigned *dprod;
    unsigned long long *dsum;
    alloc_copy(&downer, howner, sizeof(howner));
    alloc_copy(&dwins, &hwins, sizeof(int));
    alloc_copy(&dmax, &hmax, sizeof(float));
    alloc_copy(&dvals, hvals, sizeof(hvals));
    alloc_copy(&dprod, &hprod, sizeof(unsigned));
    alloc_copy(&dsum, &hsum, sizeof(unsigned long long));
    cas_kernel<<<5, 32>>>(downer, dwins, dmax, dprod, dsum, dvals, n);
    copy_back(howner, downer, sizeof(howner));
    CHECK(cudaMemcpy(&hwins, dwins, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hmax, dmax, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hprod, dprod, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hsum, dsum, sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    int bad = 0;
    // Which thread wins a slot depends on scheduling; that exactly one does, does not.
    for (int k = 0; k < 8; ++k)
        if (howner[k] < 0 || howner[k] >= n || howner[k] % 8 != k) {
            printf("slot %d owned by %d\n", k, howner[k]);
            ++bad;
        }
    float wmax = -1000.0f;
    unsigned wprod = 1;
    unsigned long long wsum = 5;
    for (int i = 0; i < n; ++i) {
        if (hvals[i] > wmax) wmax = hvals[i];
        wprod *= 2u * (unsigned)i + 1u;
        wsum += (unsigned long long)i * 0x100000007ull;
    }
    if (hwins != 8 || hmax != wmax || hprod != wprod || hsum != wsum) {
        printf("wins %d max %f prod %u sum %llu; want 8 %f %u %llu\n", hwins, hmax, hprod, hsum, wmax, wprod, wsum);
        ++bad;
    }
    cudaFree(downer);
    cudaFree(dwins);
    cudaFree(dmax);
    cudaFree(dvals);
    cudaFree(dprod);
    cudaFree(dsum);
    return report("atomic_cas", bad);
}
