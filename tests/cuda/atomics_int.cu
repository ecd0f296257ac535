// Integer atomics on every type CUDA allows: add (int, unsigned, unsigned
// long long), sub, exch, min/max (int, unsigned, long long, unsigned long
// long), inc, dec, and/or/xor (int, unsigned, unsigned long long), on
// global and shared memory. Final values do not depend on the order.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void atomics(int *ci, unsigned *cu, unsigned long long *cull, long long *cll, int *slots, int n) {
    __shared__ int s_sum;
    __shared__ unsigned s_or;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t == 0) {
        s_sum = 0;
        s_or = 0;
    }
    __syncthreads();
    if (i < n) {
        atomicAdd(&ci[0], i);
        atomicSub(&ci[1], i * 2);
        atomicMin(&ci[2], 1000 - i * 7);
        atomicMax(&ci[3], (i * 37) % 101 - 50);
        atomicAnd(&ci[4], ~(1 << (i % 31)));
        atomicOr(&ci[5], 1 << (i % 29));
        atomicXor(&ci[6], (i % 128) * 0x01010101);
        slots[i] = atomicExch(&slots[i], i * 3) + 1000;
        atomicAdd(&cu[0], (unsigned)i * 3u);
        atomicSub(&cu[1], 1u);
        atomicMin(&cu[2], 0x80000000u + (unsigned)((i * 13) % 200));
        atomicMax(&cu[3], (unsigned)(i * 2654435761u) >> 4);
        atomicInc(&cu[4], 16u);
        atomicDec(&cu[5], 9u);
        atomicAnd(&cu[6], ~(1u << (i % 32)));
        atomicOr(&cu[7], 1u << ((i * 5) % 32));
        atomicXor(&cu[8], (unsigned)i * 0x9e3779b9u);
        atomicExch(&cu[9], 77u);
        atomicAdd(&cull[0], (unsigned long long)i << 33);
        atomicMin(&cull[1], 0xffff0000ull + (unsigned long long)((i * 7) % 50));
        atomicMax(&cull[2], (unsigned long long)i * 0x100000001ull);
        atomicAnd(&cull[3], ~(1ull << (i % 64)));
        atomicOr(&cull[4], 1ull << ((i * 3) % 64));
        atomicXor(&cull[5], (unsigned long long)i * 0x9e3779b97f4a7c15ull);
        atomicExch(&cull[6], 0xabcdef0123ull);
        atomicMin(&cll[0], -(long long)i * 1000000007ll);
        atomicMax(&cll[1], (long long)((i * 31) % 97) << 35);
        atomicAdd(&s_sum, i % 10);
        atomicOr(&s_or, 1u << (t % 32));
    }
    __syncthreads();
    if (t == 0) {
        atomicAdd(&ci[7], s_sum);
        atomicOr(&cu[10], s_or);
    }
}

int main() {
    const int n = 200, bs = 64, blocks = (n + bs - 1) / bs;
    int hci[8] = {0, 0, 1 << 30, -1000, -1, 0, 0, 0};
    unsigned hcu[11] = {0, 1000, 0xffffffffu, 0, 0, 0, 0xffffffffu, 0, 0, 0, 0};
    unsigned long long hcull[7] = {0, ~0ull, 0, ~0ull, 0, 0, 0};
    long long hcll[2] = {0, -5};
    int hslots[n];
    for (int i = 0; i < n; ++i) hslots[i] = -i;
    int *dci, *dslots;
    unsigned *dcu;
    unsigned long long *dcull;
    long long *dcll;
    alloc_copy(&dci, hci, sizeof(hci));
    alloc_copy(&dcu, hcu, sizeof(hcu));
    alloc_copy(&dcull, hcull, sizeof(hcull));
    alloc_copy(&dcll, hcll, sizeof(hcll));
    alloc_copy(&dslots, hslots, sizeof(hslots));
    atomics<<<blocks, bs>>>(dci, dcu, dcull, dcll, dslots, n);
    CHECK(cudaGetLastError());
    int rci[8], rslots[n];
    unsigned rcu[11];
    unsigned long long rcull[7];
    long long rcll[2];
    CHECK(cudaMemcpy(rci, dci, sizeof(rci), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rcu, dcu, sizeof(rcu), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rcull, dcull, sizeof(rcull), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rcll, dcll, sizeof(rcll), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rslots, dslots, sizeof(rslots), cudaMemcpyDeviceToHost));
    int wci[8];
    unsigned wcu[11];
    unsigned long long wcull[7];
    long long wcll[2];
    for (int k = 0; k < 8; ++k) wci[k] = hci[k];
    for (int k = 0; k < 11; ++k) wcu[k] = hcu[k];
    for (int k = 0; k < 7; ++k) wcull[k] = hcull[k];
    for (int k = 0; k < 2; ++k) wcll[k] = hcll[k];
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int t = i % bs;
        wci[0] += i;
        wci[1] -= i * 2;
        if (1000 - i * 7 < wci[2]) wci[2] = 1000 - i * 7;
        if ((i * 37) % 101 - 50 > wci[3]) wci[3] = (i * 37) % 101 - 50;
        wci[4] &= ~(1 << (i % 31));
        wci[5] |= 1 << (i % 29);
        wci[6] ^= (i % 128) * 0x01010101;
        wci[7] += i % 10;
        if (rslots[i] != -i + 1000) ++bad;
        wcu[0] += (unsigned)i * 3u;
        wcu[1] -= 1u;
        unsigned m = 0x80000000u + (unsigned)((i * 13) % 200);
        if (m < wcu[2]) wcu[2] = m;
        unsigned x = (unsigned)(i * 2654435761u) >> 4;
        if (x > wcu[3]) wcu[3] = x;
        wcu[4] = wcu[4] >= 16u ? 0u : wcu[4] + 1u;
        wcu[5] = (wcu[5] == 0u || wcu[5] > 9u) ? 9u : wcu[5] - 1u;
        wcu[6] &= ~(1u << (i % 32));
        wcu[7] |= 1u << ((i * 5) % 32);
        wcu[8] ^= (unsigned)i * 0x9e3779b9u;
        wcu[9] = 77u;
        wcu[10] |= 1u << (t % 32);
        wcull[0] += (unsigned long long)i << 33;
        unsigned long long um = 0xffff0000ull + (unsigned long long)((i * 7) % 50);
        if (um < wcull[1]) wcull[1] = um;
        unsigned long long ux = (unsigned long long)i * 0x100000001ull;
        if (ux > wcull[2]) wcull[2] = ux;
        wcull[3] &= ~(1ull << (i % 64));
        wcull[4] |= 1ull << ((i * 3) % 64);
        wcull[5] ^= (unsigned long long)i * 0x9e3779b97f4a7c15ull;
        wcull[6] = 0xabcdef0123ull;
        long long lm = -(long long)i * 1000000007ll;
        if (lm < wcll[0]) wcll[0] = lm;
        long long lx = (long long)((i * 31) % 97) << 35;
        if (lx > wcll[1]) wcll[1] = lx;
    }
    for (int k = 0; k < 8; ++k)
        if (rci[k] != wci[k]) {
            printf("int counter %d: got %d want %d\n", k, rci[k], wci[k]);
            ++bad;
        }
    for (int k = 0; k < 11; ++k)
        if (rcu[k] != wcu[k]) {
            printf("unsigned counter %d: got %u want %u\n", k, rcu[k], wcu[k]);
            ++bad;
        }
    for (int k = 0; k < 7; ++k)
        if (rcull[k] != wcull[k]) {
            printf("ull counter %d: got %llx want %llx\n", k, rcull[k], wcull[k]);
            ++bad;
        }
    for (int k = 0; k < 2; ++k)
        if (rcll[k] != wcll[k]) {
            printf("long long counter %d: got %lld want %lld\n", k, rcll[k], wcll[k]);
            ++bad;
        }
    cudaFree(dci);
    cudaFree(dcu);
    cudaFree(dcull);
    cudaFree(dcll);
    cudaFree(dslots);
    return report("atomics_int", bad);
}
