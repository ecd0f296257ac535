// corpus: runtime-api
// A device-side assert that fails: the launch itself succeeds, the next
// synchronisation returns cudaErrorAssert, and the error is sticky — every
// later call that touches the device returns it and cudaGetLastError does
// not clear it — while queries that do not touch the device still work.
// (The failed assertion prints a message on stderr; that is expected.)
#include <cassert>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

static int bad = 0;

#define EXPECT(cond)                                                             \
    do {                                                                         \
        if (!(cond)) {                                                           \
            printf("line %d: %s does not hold\n", __LINE__, #cond);              \
            ++bad;                                                               \
        }                                                                        \
    } while (0)

__global__ void check_positive(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(in[i] > 0);
    out[i] = in[i] * 2;
}

int main() {
    const int n = 256;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i + 1;
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));

    // Every assertion holds: nothing happens.
    check_positive<<<n / 64, 64>>>(in, out, n);
    CHECK(cudaDeviceSynchronize());
    int back[n];
    CHECK(cudaMemcpy(back, out, sizeof(back), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT(back[i] == 2 * (i + 1) || (printf("  at %d\n", i), false));

    // One element breaks it.
    h[77] = -5;
    CHECK(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    fflush(stdout);
    check_positive<<<n / 64, 64>>>(in, out, n);
    EXPECT(cudaDeviceSynchronize() == cudaErrorAssert);

    // Sticky: launches, copies, allocations, streams and events all fail with it.
    EXPECT(cudaGetLastError() == cudaErrorAssert);
    EXPECT(cudaGetLastError() == cudaErrorAssert);
    EXPECT(cudaPeekAtLastError() == cudaErrorAssert);
    EXPECT(cudaMemcpy(back, out, sizeof(back), cudaMemcpyDeviceToHost) == cudaErrorAssert);
    EXPECT(cudaMemset(out, 0, sizeof(back)) == cudaErrorAssert);
    int *more = nullptr;
    EXPECT(cudaMalloc(&more, 64) == cudaErrorAssert);
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s) == cudaErrorAssert);
    cudaEvent_t e;
    EXPECT(cudaEventCreate(&e) == cudaErrorAssert);
    check_positive<<<1, 1>>>(in, out, 1);
    EXPECT(cudaGetLastError() == cudaErrorAssert);
    EXPECT(cudaDeviceSynchronize() == cudaErrorAssert);
    EXPECT(cudaStreamSynchronize(0) == cudaErrorAssert);

    // Queries that do not touch the device still answer.
    int count = 0, version = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count >= 1);
    CHECK(cudaRuntimeGetVersion(&version));
    EXPECT(version > 0);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.warpSize == 32);
    EXPECT(cudaGetErrorName(cudaErrorAssert) != nullptr);

    if (bad) {
        printf("FAIL api_assert_sticky (%d problems)\n", bad);
        return 1;
    }
    printf("PASS api_assert_sticky\n");
    return 0;
}
