// Warp-synchronous code written for lanes that run in lockstep (before
// Volta), with no __syncwarp: the last-warp unrolled reduction of the CUDA
// samples through a volatile shared pointer, a warp scan (Hillis-Steele)
// in volatile shared memory, and a last-warp reduction as a loop under a
// divergent branch. Each must give the lockstep result.
#include <cstdio>
#include <cstdlib>

#include "check.h"

template <unsigned B>
__device__ void warp_reduce(volatile int *s, unsigned tid) {
    if (B >= 64) s[tid] += s[tid + 32];
    if (B >= 32) s[tid] += s[tid + 16];
    if (B >= 16) s[tid] += s[tid + 8];
    if (B >= 8) s[tid] += s[tid + 4];
    if (B >= 4) s[tid] += s[tid + 2];
    if (B >= 2) s[tid] += s[tid + 1];
}

template <unsigned B>
__global__ void reduce_unrolled(const int *in, int *out) {
    __shared__ int s[B];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * B + tid];
    __syncthreads();
    for (unsigned k = B / 2; k > 32; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid < 32) warp_reduce<B>(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}

// One warp per 32 values: an inclusive scan, the lower half of the buffer
// zeros so no lane needs a bounds test.
__global__ void warp_scan(int *data) {
    volatile __shared__ int s[4][64];
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    s[w][lane] = 0;
    int i = lane + 32;
    s[w][i] = data[g];
    s[w][i] += s[w][i - 1];
    s[w][i] += s[w][i - 2];
    s[w][i] += s[w][i - 4];
    s[w][i] += s[w][i - 8];
    s[w][i] += s[w][i - 16];
    data[g] = s[w][i];
}

__global__ void reduce_loop(const int *in, int *out) {
    volatile __shared__ int s[64];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 32 + tid];
    s[tid + 32] = 0;
    for (int k = 16; k > 0; k >>= 1)
        if (tid < k) s[tid] += s[tid + k];
    if (tid == 0) out[blockIdx.x] = s[0];
}

int main() {
    const int nb = 4, B = 256;
    static int h[nb * B], r[nb * B];
    for (int i = 0; i < nb * B; i++) h[i] = (i * 37) % 11 - 3;
    int *d, *o;
    int ho[nb];
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMalloc(&o, sizeof ho));
    int bad = 0;

    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    reduce_unrolled<B><<<nb, B>>>(d, o);
    CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) {
        int want = 0;
        for (int i = 0; i < B; i++) want += h[b * B + i];
        if (ho[b] != want) {
            printf("reduce_unrolled block %d: got %d want %d\n", b, ho[b], want);
            ++bad;
        }
    }

    warp_scan<<<nb * B / 128, 128>>>(d);
    CHECK(cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost));
    for (int w = 0; w < nb * B / 32; w++) {
        int acc = 0;
        for (int l = 0; l < 32; l++) {
            acc += h[w * 32 + l];
            if (r[w * 32 + l] != acc) {
                if (bad < 10) printf("warp_scan %d: got %d want %d\n", w * 32 + l, r[w * 32 + l], acc);
                ++bad;
            }
        }
    }

    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    reduce_loop<<<nb, 32>>>(d, o);
    CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) {
        int want = 0;
        for (int i = 0; i < 32; i++) want += h[b * 32 + i];
        if (ho[b] != want) {
            printf("reduce_loop block %d: got %d want %d\n", b, ho[b], want);
            ++bad;
        }
    }
    cudaFree(d);
    cudaFree(o);
    return report("warp_sync_legacy", bad);
}
