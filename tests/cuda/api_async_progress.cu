// corpus: runtime-api
// Work nobody waits for still runs: a launch, a copy, an event record and
// a chain of host functions queued on a stream start and finish while the
// host only polls (cudaStreamQuery, cudaEventQuery, a counter), with no
// synchronising call, on a fresh stream, on the legacy default stream and
// after the runtime has been idle long enough to stop polling its queues.
// Each poll gives up after ten seconds (and says so) rather than hang.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "expect.h"

__global__ void fill(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

static std::atomic<int> calls{0};

static void CUDART_CB count_call(void *) { calls.fetch_add(1); }

using Clock = std::chrono::steady_clock;

// Polls `done` until it holds or ten seconds pass; whether it held.
template <class F>
static bool poll(F done) {
    auto start = Clock::now();
    while (!done()) {
        if (Clock::now() - start > std::chrono::seconds(10)) return false;
    }
    return true;
}

// A launch and a copy back queued on `s`, then only polled.
static void launch_and_poll(cudaStream_t s, int *d, int *h, int n, int v, const char *what) {
    fill<<<(n + 127) / 128, 128, 0, s>>>(d, n, v);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    bool finished = poll([&] { return cudaStreamQuery(s) != cudaErrorNotReady; });
    if (!finished) printf("%s: the stream did not finish while polled\n", what);
    EXPECT(finished);
    EXPECT(cudaStreamQuery(s) == cudaSuccess);
    for (int i = 0; i < n; ++i) {
        if (h[i] != v + i) {
            printf("%s: element %d is %d, want %d\n", what, i, h[i], v + i);
            ++bad;
            break;
        }
    }
}

int main() {
    const int n = 4096;
    int *d, *h;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMallocHost(&h, n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));

    launch_and_poll(s, d, h, n, 10, "new stream");
    launch_and_poll(0, d, h, n, 20, "legacy stream");
    // Idle long enough for the stream threads to stop looking at their
    // queues on their own: the next push must wake them.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    launch_and_poll(s, d, h, n, 30, "stream after idling");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    launch_and_poll(0, d, h, n, 40, "legacy stream after idling");

    // An event recorded behind a launch completes while polled.
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    fill<<<(n + 127) / 128, 128, 0, s>>>(d, n, 50);
    CHECK(cudaEventRecord(e, s));
    bool recorded = poll([&] { return cudaEventQuery(e) != cudaErrorNotReady; });
    EXPECT(recorded);
    EXPECT(cudaEventQuery(e) == cudaSuccess);

    // A chain of host functions (only the stream's own thread runs them)
    // runs to the end while the host watches a counter.
    const int chain = 200;
    for (int i = 0; i < chain; ++i) CHECK(cudaLaunchHostFunc(s, count_call, nullptr));
    bool chained = poll([&] { return calls.load() == chain; });
    if (!chained) printf("host functions: %d of %d ran\n", calls.load(), chain);
    EXPECT(chained);

    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventDestroy(e));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    return report("api_async_progress", bad);
}
