// Work-efficient (Blelloch) exclusive prefix scan of 2*BS elements per
// block in shared memory, a scan of the block sums, and a uniform add.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define BS 64
#define SPAN (2 * BS)

__global__ void scan_blocks(const int *in, int *out, int *sums, int n) {
    __shared__ int s[SPAN];
    int t = threadIdx.x;
    int base = blockIdx.x * SPAN;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int offset = 1;
    for (int d = SPAN / 2; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset *= 2;
    }
    if (t == 0) {
        if (sums) sums[blockIdx.x] = s[SPAN - 1];
        s[SPAN - 1] = 0;
    }
    for (int d = 1; d < SPAN; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (base + 2 * t < n) out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = s[2 * t + 1];
}

__global__ void add_offsets(int *out, const int *offsets, int n) {
    int i = blockIdx.x * SPAN + threadIdx.x;
    int off = offsets[blockIdx.x];
    if (i < n) out[i] += off;
    if (i + BS < n) out[i + BS] += off;
}

int main() {
    const int n = 1000;
    const int blocks = (n + SPAN - 1) / SPAN;  // 8, so the block sums fit one block
    int hin[n], hout[n];
    for (int i = 0; i < n; ++i) hin[i] = (i * 17) % 23 - 5;
    int *din, *dout, *dsums, *dscanned;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dscanned, blocks * sizeof(int)));
    scan_blocks<<<blocks, BS>>>(din, dout, dsums, n);
    scan_blocks<<<1, BS>>>(dsums, dscanned, nullptr, blocks);
    add_offsets<<<blocks, BS>>>(dout, dscanned, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0, acc = 0;
    for (int i = 0; i < n; ++i) {
        if (hout[i] != acc) {
            if (bad < 5) printf("element %d: got %d want %d\n", i, hout[i], acc);
            ++bad;
        }
        acc += hin[i];
    }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dsums);
    cudaFree(dscanned);
    return report("prefix_scan", bad);
}
