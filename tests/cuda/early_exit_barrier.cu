// Early exit before a barrier: threads past the end of the data return (also
// from inside a loop of barriers), skip the region holding the barriers, or
// break out of a loop of them, while the rest of the block still
// synchronises, as GPUs since Volta allow (`bar.sync` waits only for the
// threads that have not exited). The last block is partial: n is not a
// multiple of the block size. Buffers carry a sentinel tail that must stay
// untouched (no thread past n may write). Integers, exact.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define BS 64
#define PAD 64
#define SENTINEL (-7)

// `if (i >= n) return;` before `__syncthreads()`, shared-memory tile.
__global__ void neighbour_sum(const int *in, int *out, int n) {
    __shared__ int tile[BS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    tile[threadIdx.x] = in[i];
    __syncthreads();
    int right = (threadIdx.x + 1 < blockDim.x && i + 1 < n) ? tile[threadIdx.x + 1] : 0;
    out[i] = 2 * tile[threadIdx.x] + right;
}

// The region with the barriers wrapped in `if (i < n)`, a loop of barriers
// inside it: a per-block inclusive scan (Hillis-Steele).
__global__ void block_scan(const int *in, int *out, int n) {
    __shared__ int s[BS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        s[t] = in[i];
        __syncthreads();
        for (int d = 1; d < BS; d *= 2) {
            int v = t >= d ? s[t - d] : 0;
            __syncthreads();
            s[t] += v;
            __syncthreads();
        }
        out[i] = s[t];
    }
}

// `if (i >= n) break;` at the top of a loop of barriers: the threads past
// n leave the loop (and the kernel) in the first round.
__global__ void rounds(int *a, int n) {
    __shared__ int s[BS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < 3; ++r) {
        if (i >= n) break;
        s[threadIdx.x] = a[i];
        __syncthreads();
        int right = (threadIdx.x + 1 < blockDim.x && i + 1 < n) ? s[threadIdx.x + 1] : 0;
        __syncthreads();
        a[i] += right + r;
    }
}

// `return` inside a loop of barriers, then a loop of barriers on a shared
// flag among the threads still running: a per-block running maximum.
__global__ void relax(int *a, int n) {
    __shared__ int s[BS];
    __shared__ int changed;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < 2; ++r) {
        if (i >= n) return;
        s[threadIdx.x] = a[i];
        __syncthreads();
        int left = threadIdx.x > 0 ? s[threadIdx.x - 1] : 0;
        __syncthreads();
        a[i] += left;
    }
    if (threadIdx.x == 0) changed = 1;
    __syncthreads();
    while (changed) {
        __syncthreads();
        if (threadIdx.x == 0) changed = 0;
        s[threadIdx.x] = a[i];
        __syncthreads();
        if (threadIdx.x > 0 && s[threadIdx.x - 1] > a[i]) {
            a[i] = s[threadIdx.x - 1];
            changed = 1;
        }
        __syncthreads();
    }
}

static int check(const char *what, const int *got, const int *want, int n) {
    int bad = 0;
    for (int k = 0; k < n + PAD; ++k) {
        int w = k < n ? want[k] : SENTINEL;
        if (got[k] != w) {
            if (bad < 5) printf("%s %d: got %d want %d\n", what, k, got[k], w);
            ++bad;
        }
    }
    return bad;
}

int main() {
    const int n = 300;  // 4 full blocks of 64 and one of 44
    const int blocks = (n + BS - 1) / BS;
    int hin[n + PAD], hout[n + PAD], want[n];
    for (int k = 0; k < n + PAD; ++k) hin[k] = k < n ? (k * 37) % 101 - 50 : 1000;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    int bad = 0;

    for (int k = 0; k < n + PAD; ++k) hout[k] = SENTINEL;
    CHECK(cudaMemcpy(dout, hout, sizeof(hout), cudaMemcpyHostToDevice));
    neighbour_sum<<<blocks, BS>>>(din, dout, n);
    copy_back(hout, dout, sizeof(hout));
    for (int k = 0; k < n; ++k) {
        int right = (k % BS + 1 < BS && k + 1 < n) ? hin[k + 1] : 0;
        want[k] = 2 * hin[k] + right;
    }
    bad += check("neighbour_sum", hout, want, n);

    for (int k = 0; k < n + PAD; ++k) hout[k] = SENTINEL;
    CHECK(cudaMemcpy(dout, hout, sizeof(hout), cudaMemcpyHostToDevice));
    block_scan<<<blocks, BS>>>(din, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int acc = 0;
    for (int k = 0; k < n; ++k) {
        if (k % BS == 0) acc = 0;
        acc += hin[k];
        want[k] = acc;
    }
    bad += check("block_scan", hout, want, n);

    int ref[n];
    for (int k = 0; k < n; ++k) ref[k] = hin[k];
    for (int r = 0; r < 3; ++r) {
        for (int k = 0; k < n; ++k) {
            int right = (k % BS + 1 < BS && k + 1 < n) ? ref[k + 1] : 0;
            want[k] = ref[k] + right + r;
        }
        for (int k = 0; k < n; ++k) ref[k] = want[k];
    }
    for (int k = 0; k < n + PAD; ++k) hout[k] = k < n ? hin[k] : SENTINEL;
    CHECK(cudaMemcpy(dout, hout, sizeof(hout), cudaMemcpyHostToDevice));
    rounds<<<blocks, BS>>>(dout, n);
    copy_back(hout, dout, sizeof(hout));
    bad += check("rounds", hout, want, n);

    for (int k = 0; k < n; ++k) ref[k] = hin[k];
    for (int r = 0; r < 2; ++r) {
        for (int k = 0; k < n; ++k) want[k] = ref[k] + (k % BS > 0 ? ref[k - 1] : 0);
        for (int k = 0; k < n; ++k) ref[k] = want[k];
    }
    for (int k = 0; k < n; ++k)
        if (k % BS > 0 && want[k - 1] > want[k]) want[k] = want[k - 1];
    for (int k = 0; k < n + PAD; ++k) hout[k] = k < n ? hin[k] : SENTINEL;
    CHECK(cudaMemcpy(dout, hout, sizeof(hout), cudaMemcpyHostToDevice));
    relax<<<blocks, BS>>>(dout, n);
    copy_back(hout, dout, sizeof(hout));
    bad += check("relax", hout, want, n);

    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return report("early_exit_barrier", bad);
}
