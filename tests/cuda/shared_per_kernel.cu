// corpus: runtime-api
// Static shared memory is a kernel's own: nine kernels of one program use
// 32 KiB each (288 KiB together, more than a block may have), and each
// launches, as on a GPU, whichever build path made the program.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define N 8192 /* ints: 32 KiB */
#define BS 256

template <int K> __global__ void scale_k(const int *in, int *out) {
    __shared__ int s[N];
    for (int i = threadIdx.x; i < N; i += BS) s[i] = in[i] * K;
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += BS) out[i] = s[N - 1 - i];
}

__global__ void reverse_a(const int *in, int *out) {
    __shared__ int a[N];
    for (int i = threadIdx.x; i < N; i += BS) a[i] = in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += BS) out[i] = a[N - 1 - i];
}

__global__ void rotate_b(const int *in, int *out) {
    __shared__ int b[N];
    for (int i = threadIdx.x; i < N; i += BS) b[i] = in[i] * 2;
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += BS) out[i] = b[(i + 1) % N];
}

__global__ void pair_c(const int *in, int *out) {
    __shared__ int c[N];
    for (int i = threadIdx.x; i < N; i += BS) c[i] = in[i] + 3;
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += BS) out[i] = c[i ^ 1];
}

int main() {
    static int h[N], r[N];
    for (int i = 0; i < N; ++i) h[i] = (i * 7919) % 1009;
    int *din, *dout;
    alloc_copy(&din, h, sizeof(h));
    CHECK(cudaMalloc(&dout, sizeof(r)));
    int bad = 0;
    for (int k = 0; k < 3; ++k) {
        if (k == 0) reverse_a<<<1, BS>>>(din, dout);
        if (k == 1) rotate_b<<<1, BS>>>(din, dout);
        if (k == 2) pair_c<<<1, BS>>>(din, dout);
        copy_back(r, dout, sizeof(r));
        for (int i = 0; i < N; ++i) {
            int want = k == 0 ? h[N - 1 - i] : k == 1 ? h[(i + 1) % N] * 2 : h[i ^ 1] + 3;
            if (r[i] != want && bad++ < 5) printf("kernel %d: out[%d] = %d, want %d\n", k, i, r[i], want);
        }
    }
    scale_k<1><<<1, BS>>>(din, dout);
    scale_k<2><<<1, BS>>>(din, dout);
    scale_k<3><<<1, BS>>>(din, dout);
    scale_k<4><<<1, BS>>>(din, dout);
    scale_k<5><<<1, BS>>>(din, dout);
    scale_k<6><<<1, BS>>>(din, dout);
    copy_back(r, dout, sizeof(r));
    for (int i = 0; i < N; ++i)
        if (r[i] != h[N - 1 - i] * 6 && bad++ < 5) printf("scale_k<6>: out[%d] = %d\n", i, r[i]);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return report("shared_per_kernel", bad);
}
