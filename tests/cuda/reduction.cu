// Tree reduction in shared memory (a kernel template on the element type
// and block size), a second pass on the host.
#include <cstdio>
#include <cstdlib>

#include "check.h"

template <typename T, unsigned BS>
__global__ void reduce(const T *in, T *partial, int n) {
    __shared__ T s[BS];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (BS * 2) + t;
    T v = 0;
    if (i < (unsigned)n) v += in[i];
    if (i + BS < (unsigned)n) v += in[i + BS];
    s[t] = v;
    __syncthreads();
    for (unsigned stride = BS / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

template <typename T, unsigned BS>
static int run(const char *name, int n) {
    T *h = (T *)malloc(n * sizeof(T));
    for (int i = 0; i < n; ++i) h[i] = (T)((i * 7) % 19) - (T)9;
    int blocks = (n + 2 * BS - 1) / (2 * BS);
    T *din, *dpart;
    T *hpart = (T *)malloc(blocks * sizeof(T));
    alloc_copy(&din, h, n * sizeof(T));
    CHECK(cudaMalloc(&dpart, blocks * sizeof(T)));
    reduce<T, BS><<<blocks, BS>>>(din, dpart, n);
    copy_back(hpart, dpart, blocks * sizeof(T));
    T got = 0, want = 0;
    for (int b = 0; b < blocks; ++b) got += hpart[b];
    for (int i = 0; i < n; ++i) want += h[i];
    cudaFree(din);
    cudaFree(dpart);
    free(h);
    free(hpart);
    if (got != want) {
        printf("%s: got %f want %f\n", name, (double)got, (double)want);
        return 1;
    }
    return 0;
}

int main() {
    int bad = 0;
    bad += run<int, 128>("int/128", 3000);
    bad += run<float, 64>("float/64", 1000);
    bad += run<double, 256>("double/256", 2100);
    if (bad) {
        printf("FAIL reduction\n");
        return 1;
    }
    printf("PASS reduction\n");
    return 0;
}
