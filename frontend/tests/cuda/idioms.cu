// Common idioms of older CUDA programs: C headers first, <cuda.h>,
// `using namespace std`, 2-D shared tiles, __constant__/__device__/__managed__
// variables, user operators on structs, legacy thread synchronisation.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
using namespace std;

#define BLOCK 16

__constant__ int c_table[16];
__device__ float g_val;
__device__ __managed__ int m_val;
__managed__ int m_counter;

struct P {
    float x, y;
};
__device__ inline P operator+(P a, P b) { return P{a.x + b.x, a.y + b.y}; }

__global__ void tile2d(float *m, int w) {
    __shared__ float tile[BLOCK][BLOCK + 1];
    extern __shared__ float dyn[];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BLOCK + tx, y = blockIdx.y * BLOCK + ty;
    tile[ty][tx] = m[y * w + x];
    __syncthreads();
    float v = max(tile[tx][ty], 0.0f) + min(x, y) + fabs(-1.0f) + abs(-2) + sqrt((float)x) + exp(1.0) +
              floorf(2.5f) + powf(2.f, 3.f) + c_table[tx & 15] + g_val + m_val;
    v += fmaxf(v, 1.0f) + rsqrtf(v) + __fdividef(v, 2.0f) + log10f(v) + std::isnan(v) + (isinf(v) ? 1 : 0) +
         dyn[0];
    P p = P{1, 2} + P{3, 4};
    unsigned long long t = clock64();
    m[y * w + x] = v + p.x + (float)t + (float)lrintf(v);
}

__global__ void bump() { m_counter = m_val + 1; }

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 64;
    float *d = NULL;
    cudaMalloc((void **)&d, n * n * sizeof(float));
    dim3 threads(BLOCK, BLOCK), grid(n / BLOCK, n / BLOCK);
    tile2d<<<grid, threads, BLOCK * sizeof(float)>>>(d, n);
    bump<<<1, 1>>>();
    cudaThreadSynchronize();
    int h[16] = {0};
    cudaMemcpyToSymbol(c_table, h, sizeof(h));
    printf("%f %d %f %f\n", max(1.0, 2.0), min(3, 4), fabs(-1.0), std::max(1.f, 2.f));
    CUdevice dev;
    cuDeviceGet(&dev, 0);
    cudaFree(d);
    return 0;
}
