// corpus: runtime-api
// The legacy thread-management API of CUDA 3.x programs (cucc keeps it):
// cudaThreadSynchronize waiting for queued work, cudaThreadSetLimit/
// cudaThreadGetLimit, cudaThreadSetCacheConfig, and cudaThreadExit, which
// releases everything the program allocated; the device is usable again
// afterwards, as it is in CUDA.
#include <cstdio>
#include <cstdlib>

#include "expect.h"

__global__ void accumulate(float *acc, const float *x, int n, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = acc[i];
    for (int r = 0; r < rounds; ++r) a += x[i];
    acc[i] = a;
}

int main() {
    const int n = 2048;
    float *acc, *x;
    CHECK(cudaMalloc((void **)&acc, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&x, n * sizeof(float)));
    float *hx = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) hx[i] = (float)(i % 8);
    CHECK(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(acc, 0, n * sizeof(float)));

    // Launches and an asynchronous copy into pinned memory queued on a
    // stream; cudaThreadSynchronize is what orders them with the host.
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    float *pinned;
    CHECK(cudaMallocHost((void **)&pinned, n * sizeof(float)));
    for (int k = 0; k < 5; ++k) accumulate<<<n / 256, 256, 0, s>>>(acc, x, n, 10);
    CHECK(cudaMemcpyAsync(pinned, acc, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaThreadSynchronize());
    EXPECT(cudaStreamQuery(s) == cudaSuccess);
    for (int i = 0; i < n; ++i)
        if (pinned[i] != 50.0f * (float)(i % 8)) {
            if (bad < 5) printf("after cudaThreadSynchronize %d: %g\n", i, pinned[i]);
            ++bad;
        }

    // Limits and cache configuration under their old names.
    size_t stack = 0;
    CHECK(cudaThreadSetLimit(cudaLimitStackSize, 8192));
    CHECK(cudaThreadGetLimit(&stack, cudaLimitStackSize));
    EXPECT(stack == 8192);
    size_t same = 0;
    CHECK(cudaDeviceGetLimit(&same, cudaLimitStackSize));
    EXPECT(same == 8192);
    CHECK(cudaThreadSetCacheConfig(cudaFuncCachePreferShared));

    // cudaThreadExit tears the context down: allocations are gone.
    CHECK(cudaThreadExit());
    EXPECT(cudaFree(acc) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    EXPECT(stack != 8192);

    // A fresh start works.
    CHECK(cudaMalloc((void **)&acc, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&x, n * sizeof(float)));
    CHECK(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(acc, 0, n * sizeof(float)));
    accumulate<<<n / 256, 256>>>(acc, x, n, 3);
    CHECK(cudaThreadSynchronize());
    CHECK(cudaMemcpy(hx, acc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (hx[i] != 3.0f * (float)(i % 8)) {
            if (bad < 5) printf("after cudaThreadExit %d: %g\n", i, hx[i]);
            ++bad;
        }
    CHECK(cudaFree(acc));
    CHECK(cudaFree(x));
    CHECK(cudaThreadExit());
    free(hx);
    return report("api_legacy_thread", bad);
}
