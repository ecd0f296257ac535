// corpus: runtime-api
// Errors that are not sticky: cudaGetLastError/cudaPeekAtLastError after
// invalid launch configurations (the launch does not run, later launches
// do), cudaGetErrorName/String, bad pointers and sizes to cudaMemcpy,
// cudaMemset and cudaFree giving cudaErrorInvalidValue, double frees, an
// unknown copy kind, NULL output pointers, and timing an unrecorded event.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

// `call` must return `want`, which must then be the last error (once).
#define EXPECT_ERR(call, want)                                                   \
    do {                                                                         \
        cudaError_t got_ = (call);                                               \
        if (got_ != (want)) {                                                    \
            printf("line %d: %s returned %s, want %s\n", __LINE__, #call,         \
                   cudaGetErrorName(got_), cudaGetErrorName(want));              \
            ++bad;                                                               \
        }                                                                        \
        cudaError_t last_ = cudaGetLastError();                                  \
        if (last_ != (want)) {                                                   \
            printf("line %d: last error %s, want %s\n", __LINE__,                \
                   cudaGetErrorName(last_), cudaGetErrorName(want));             \
            ++bad;                                                               \
        }                                                                        \
    } while (0)

__global__ void mark(int *p, int v) {
    p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void uses_dynamic(int *p) {
    extern __shared__ int scratch[];
    scratch[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = scratch[blockDim.x - 1 - threadIdx.x];
}

int main() {
    // Names and descriptions.
    EXPECT(strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
                  "cudaErrorInvalidConfiguration") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorAssert), "cudaErrorAssert") == 0);
    EXPECT(cudaErrorInvalidValue == 1 && cudaErrorInvalidConfiguration == 9 &&
           cudaErrorInvalidDevice == 101 && cudaErrorAssert == 710);
    const char *s = cudaGetErrorString(cudaErrorMemoryAllocation);
    EXPECT(s != nullptr && strlen(s) > 0);
    EXPECT(strcmp(cudaGetErrorString(cudaSuccess), cudaGetErrorString(cudaErrorInvalidValue)) != 0);
    EXPECT(cudaGetErrorName((cudaError_t)12345) != nullptr);

    int *d;
    CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 1024 * sizeof(int)));

    // Too many threads per block: the launch fails and does not run.
    mark<<<1, 2048>>>(d, 1);
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    // A zero-sized grid, a block too deep in z, a grid too large in y.
    mark<<<0, 32>>>(d, 2);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    mark<<<1, dim3(1, 1, 128)>>>(d, 3);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    mark<<<dim3(1, 70000), 1>>>(d, 4);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    // More dynamic shared memory than a block may have.
    uses_dynamic<<<1, 32, 1 << 20>>>(d);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    // None of them ran; the device still works and a good launch runs.
    int h[1024];
    CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 1024; ++i) EXPECT(h[i] == 0 || (printf("  at %d\n", i), false));
    uses_dynamic<<<1, 32, 32 * sizeof(int)>>>(d);
    CHECK(cudaGetLastError());
    mark<<<4, 256>>>(d + 0, 5);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 1024; ++i) EXPECT(h[i] == 5 || (printf("  at %d\n", i), false));

    // Copies and sets whose device range is not in an allocation.
    int stack[16];
    EXPECT_ERR(cudaMemcpy(d, stack, 2048 * sizeof(int), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy(stack, d + 1020, 16 * sizeof(int), cudaMemcpyDeviceToHost),
               cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy(stack, stack + 8, 8 * sizeof(int), cudaMemcpyDeviceToHost),
               cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemset(d + 1000, 0, 100 * sizeof(int)), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy(d, stack, 4, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection);
    // Freeing what is not an allocation's start, and freeing twice.
    EXPECT_ERR(cudaFree(d + 4), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFree(stack), cudaErrorInvalidValue);
    int *e;
    CHECK(cudaMalloc(&e, 64));
    CHECK(cudaFree(e));
    EXPECT_ERR(cudaFree(e), cudaErrorInvalidValue);
    CHECK(cudaFree(nullptr));
    // Output pointers that are NULL.
    EXPECT_ERR(cudaMalloc((void **)nullptr, 16), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGetDeviceCount(nullptr), cudaErrorInvalidValue);

    // Timing an event that was never recorded.
    cudaEvent_t ev;
    CHECK(cudaEventCreate(&ev));
    float ms;
    EXPECT_ERR(cudaEventElapsedTime(&ms, ev, ev), cudaErrorInvalidResourceHandle);

    // None of these errors is sticky: the device still works.
    CHECK(cudaMemcpy(stack, d, sizeof(stack), cudaMemcpyDeviceToHost));
    EXPECT(stack[15] == 5);
    CHECK(cudaDeviceSynchronize());
    EXPECT(cudaGetLastError() == cudaSuccess);

    CHECK(cudaEventDestroy(ev));
    CHECK(cudaFree(d));
    return report("api_errors", bad);
}
