// __device__ global variables (scalars, arrays, an initialised 2-D table)
// read back with cudaMemcpyFromSymbol and written with cudaMemcpyToSymbol,
// __restrict__ pointers, and volatile accesses.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__device__ int counter;
__device__ float table[16];
__device__ int lut[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
__device__ unsigned long long stamp = 0x1234567890ull;

__global__ void fill_table(float scale) {
    int i = threadIdx.x;
    if (i < 16) table[i] = i * i * scale;
    if (i == 0) stamp += 1;
}

__global__ void use_table(const int *__restrict__ in, int *__restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    out[i] = (int)table[v % 16] + lut[v % 4][(v / 4) % 4];
    if (v % 3 == 0) atomicAdd(&counter, 1);
}

__global__ void volatile_update(volatile float *data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    data[i] = data[i] + 1.0f;
    data[i] = data[i] * 2.0f;
    volatile int local = i;
    local += 3;
    data[i] = data[i] + local;
}

int main() {
    const int n = 128;
    int start = 5;
    CHECK(cudaMemcpyToSymbol(counter, &start, sizeof(int)));
    fill_table<<<1, 32>>>(0.5f);
    CHECK(cudaGetLastError());
    int hin[n], hout[n];
    for (int i = 0; i < n; ++i) hin[i] = (i * 53) % 113;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    use_table<<<4, 32>>>(din, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int hcounter = 0;
    float htable[16];
    unsigned long long hstamp = 0;
    CHECK(cudaMemcpyFromSymbol(&hcounter, counter, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(htable, table, sizeof(htable)));
    CHECK(cudaMemcpyFromSymbol(&hstamp, stamp, sizeof(hstamp)));
    int bad = 0;
    int want_counter = start;
    for (int i = 0; i < n; ++i) {
        int v = hin[i];
        int w = (int)((v % 16) * (v % 16) * 0.5f) + (v % 4) * 4 + (v / 4) % 4 + 1;
        if (hout[i] != w) {
            if (bad < 5) printf("use_table %d: got %d want %d\n", i, hout[i], w);
            ++bad;
        }
        if (v % 3 == 0) ++want_counter;
    }
    for (int i = 0; i < 16; ++i)
        if (htable[i] != i * i * 0.5f) ++bad;
    if (hcounter != want_counter || hstamp != 0x1234567891ull) {
        printf("counter %d (want %d), stamp %llx\n", hcounter, want_counter, hstamp);
        ++bad;
    }
    float hf[n], hf2[n];
    for (int i = 0; i < n; ++i) hf[i] = i * 0.25f;
    float *df;
    alloc_copy(&df, hf, sizeof(hf));
    volatile_update<<<4, 32>>>(df, n);
    CHECK(cudaMemcpy(hf2, df, sizeof(hf2), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (hf2[i] != (hf[i] + 1.0f) * 2.0f + (float)(i + 3)) {
            if (bad < 5) printf("volatile %d differs\n", i);
            ++bad;
        }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(df);
    return report("device_globals", bad);
}
