// Device printf, assert, clock and the C++ standard headers on the host.
#include <cuda_runtime.h>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

__device__ int counter;
__constant__ float scale[4];

__device__ __forceinline__ float twice(float v) { return 2.0f * v; }

__host__ __device__ float square(float v) { return v * v; }

__global__ void __launch_bounds__(128) report(const float *in, int n) {
    long long start = clock64();
    clock_t c = clock();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i >= 0);
    if (i < n) {
        float v = twice(in[i]) * scale[0] + square(in[i]);
        printf("thread %d block %d value %f sqrt %f\n", threadIdx.x, blockIdx.x, v, sqrtf(v));
        atomicAdd(&counter, 1);
    }
    if (threadIdx.x == 0)
        printf("cycles %lld %d\n", clock64() - start, (int)c);
}

int main() {
    std::vector<float> h(16);
    for (size_t i = 0; i < h.size(); ++i)
        h[i] = std::sqrt((float)i) + square(1.0f);
    float *d;
    cudaMalloc(&d, h.size() * sizeof(float));
    cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
    float s[4] = {1, 2, 3, 4};
    cudaMemcpyToSymbol(scale, s, sizeof(s));
    report<<<2, 8>>>(d, (int)h.size());
    cudaDeviceSynchronize();
    int count = 0;
    cudaMemcpyFromSymbol(&count, counter, sizeof(int));
    assert(count >= 0);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    std::cout << prop.name << " " << prop.clockRate << " " << prop.deviceOverlap << " " << prop.computeMode << " "
              << prop.memoryClockRate << std::endl;
    cudaThreadSynchronize();
    cudaThreadExit();
    cudaStream_t st;
    cudaStreamCreate(&st);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventRecord(e0, st);
    report<<<1, 4, 0, st>>>(d, 4);
    cudaEventRecord(e1, st);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaStreamDestroy(st);
    std::cout << ms << std::endl;
    return 0;
}
