// corpus: runtime-api
// Events: creation flags, record, query, synchronize, elapsed time around
// real work (only checked to be positive), re-recording, the errors of
// cudaEventElapsedTime (pending, never recorded, timing disabled), and an
// event as the host's point of completion for a stream's results.
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "expect.h"

// Enough arithmetic per element that the launch takes measurable time.
__global__ void busy(float *x, int n, int rounds) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    for (int r = 0; r < rounds; ++r) v = v * 0.999f + 0.5f;
    x[i] = v;
}

__global__ void iota(int *p, int n, int base) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = base + i;
}

#include "gate.h"

int main() {
    cudaEvent_t start, stop, blocking, untimed, never;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync));
    CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    CHECK(cudaEventCreate(&never));
    // An event never recorded has no work to wait for.
    EXPECT(cudaEventQuery(never) == cudaSuccess);
    CHECK(cudaEventSynchronize(never));

    // Elapsed time around real work on the legacy default stream.
    const int n = 1 << 14;
    float *x;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMemset(x, 0, n * sizeof(float)));
    CHECK(cudaEventRecord(start));
    busy<<<n / 256, 256>>>(x, n, 400);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    EXPECT(cudaEventQuery(stop) == cudaSuccess);
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms > 0.0f);
    float back = 0.0f;
    CHECK(cudaEventElapsedTime(&back, stop, start));
    EXPECT(back < 0.0f);

    // Timing on a user stream, with the C++ overload cudaEventCreate(ev, flags).
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a, cudaEventDefault));
    CHECK(cudaEventCreate(&b, cudaEventBlockingSync));
    CHECK(cudaEventRecord(a, s));
    busy<<<n / 128, 128, 0, s>>>(x, n, 200);
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventSynchronize(b));
    float ms2 = -1.0f;
    CHECK(cudaEventElapsedTime(&ms2, a, b));
    EXPECT(ms2 > 0.0f);

    // A record held behind a gate is pending: query says cudaErrorNotReady
    // (not recorded as an error), and so does the elapsed time.
    Gate g = {0, 0};
    CHECK(cudaEventRecord(a, s));
    CHECK(cudaLaunchHostFunc(s, hold, &g));
    busy<<<n / 256, 256, 0, s>>>(x, n, 10);
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventRecord(untimed, s));
    CHECK(cudaEventRecord(blocking, s));
    EXPECT(cudaEventQuery(b) == cudaErrorNotReady);
    EXPECT(cudaEventQuery(blocking) == cudaErrorNotReady);
    float pending = 0.0f;
    EXPECT(cudaEventElapsedTime(&pending, a, b) == cudaErrorNotReady);
    EXPECT(cudaGetLastError() == cudaSuccess);
    open_gate(&g);
    CHECK(cudaEventSynchronize(blocking));
    EXPECT(cudaEventQuery(b) == cudaSuccess);
    EXPECT(cudaEventQuery(untimed) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&pending, a, b));
    EXPECT(pending > 0.0f);
    EXPECT(!g.timed_out);

    // Elapsed time needs two timed, recorded events.
    float t = 0.0f;
    EXPECT(cudaEventElapsedTime(&t, start, untimed) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaEventElapsedTime(&t, never, stop) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    EXPECT(cudaGetLastError() == cudaSuccess);

    // An event marks when a stream's results may be read by the host.
    int *d, *h;
    const int m = 1000;
    CHECK(cudaMalloc(&d, m * sizeof(int)));
    CHECK(cudaMallocHost(&h, m * sizeof(int)));
    for (int round = 0; round < 3; ++round) {
        iota<<<(m + 255) / 256, 256, 0, s>>>(d, m, 100 * round);
        CHECK(cudaMemcpyAsync(h, d, m * sizeof(int), cudaMemcpyDeviceToHost, s));
        CHECK(cudaEventRecord(untimed, s));
        CHECK(cudaEventSynchronize(untimed));
        for (int i = 0; i < m; ++i)
            if (h[i] != 100 * round + i) {
                if (bad < 5) printf("round %d: h[%d] = %d\n", round, i, h[i]);
                ++bad;
            }
    }

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(blocking));
    CHECK(cudaEventDestroy(untimed));
    CHECK(cudaEventDestroy(never));
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(x));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    return report("api_events", bad);
}
