// __syncthreads_count/_and/_or, and __threadfence in the "last block
// finishes the job" pattern: every block writes its partial sum, fences,
// takes a ticket, and the last block adds the partials.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__device__ unsigned int tickets = 0;

__global__ void votes(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int count = __syncthreads_count(v > 50);
    int all = __syncthreads_and(v >= 0);
    int any = __syncthreads_or(v == 77);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = count;
        out[3 * blockIdx.x + 1] = all != 0;
        out[3 * blockIdx.x + 2] = any != 0;
    }
}

__global__ void sum_last_block(const int *in, volatile int *partials, int *total, int n) {
    __shared__ int s[128];
    __shared__ bool last;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partials[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&tickets, gridDim.x);
        last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (last && t == 0) {
        int acc = 0;
        for (int b = 0; b < (int)gridDim.x; ++b) acc += partials[b];
        *total = acc;
        tickets = 0;
    }
}

int main() {
    const int bs = 128, blocks = 5, n = blocks * bs - 17;
    int hin[blocks * bs];
    for (int i = 0; i < n; ++i) hin[i] = (i * 89) % 101 - (i % 37 == 5 ? 200 : 0);
    hin[3] = 77;
    int *din, *dout, *dpart, *dtotal;
    CHECK(cudaMalloc(&din, sizeof(hin)));
    CHECK(cudaMalloc(&dout, 3 * blocks * sizeof(int)));
    CHECK(cudaMalloc(&dpart, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dtotal, sizeof(int)));
    CHECK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
    votes<<<blocks, bs>>>(din, dout, n);
    sum_last_block<<<blocks, bs>>>(din, dpart, dtotal, n);
    CHECK(cudaGetLastError());
    int hout[3 * blocks], htotal = 0;
    CHECK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&htotal, dtotal, sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0, want_total = 0;
    for (int b = 0; b < blocks; ++b) {
        int count = 0, all = 1, any = 0;
        for (int t = 0; t < bs; ++t) {
            int i = b * bs + t;
            int v = i < n ? hin[i] : 0;
            count += v > 50;
            all &= v >= 0;
            any |= v == 77;
            want_total += v;
        }
        if (hout[3 * b] != count || hout[3 * b + 1] != all || hout[3 * b + 2] != any) {
            printf("block %d: got %d %d %d want %d %d %d\n", b, hout[3 * b], hout[3 * b + 1], hout[3 * b + 2], count, all, any);
            ++bad;
        }
    }
    if (htotal != want_total) {
        printf("total: got %d want %d\n", htotal, want_total);
        ++bad;
    }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dpart);
    cudaFree(dtotal);
    return report("block_sync_fence", bad);
}
