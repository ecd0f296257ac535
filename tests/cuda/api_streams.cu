// corpus: runtime-api
// Streams as real programs use them: creation with flags and priorities,
// copies, sets and launches queued on several streams, cudaStreamQuery and
// cudaStreamSynchronize, cudaStreamWaitEvent across streams, the legacy
// default stream's ordering against blocking and non-blocking streams, and
// host work queued with cudaLaunchHostFunc and cudaStreamAddCallback.
//
// A "gate" is a host function that waits until main opens it: queued first
// on a stream, it holds everything behind it at a known point, which makes
// the ordering checks deterministic. A gate gives up after two seconds (and
// says so) rather than hang when the ordering under test is wrong.
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "expect.h"

__global__ void scale_add(float *x, int n, float a, float b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * a + b;
}

__global__ void set_value(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

__global__ void twice_plus(const int *src, int *dst, int n, int add) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = 2 * src[i] + add;
}

#include "gate.h"

// The order in which host functions ran, and what they saw.
static int order[8];
static int order_len = 0;
static int seen_at_host_fn = -1;
static cudaStream_t callback_stream;
static cudaError_t callback_status = cudaErrorUnknown;

struct Note {
    int tag;
    const int *watch;
};

static void CUDART_CB note(void *arg) {
    Note *n = (Note *)arg;
    order[order_len++] = n->tag;
    if (n->watch) seen_at_host_fn = *n->watch;
}

static void CUDART_CB callback(cudaStream_t stream, cudaError_t status, void *arg) {
    callback_stream = stream;
    callback_status = status;
    order[order_len++] = *(int *)arg;
}

int main() {
    // Priorities: the range, clamping, and what a stream reports back.
    int least = 1, greatest = 1;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT(greatest <= least);
    cudaStream_t hi, lo, clamped, plain, nonblocking;
    CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
    CHECK(cudaStreamCreateWithPriority(&lo, cudaStreamDefault, least));
    CHECK(cudaStreamCreateWithPriority(&clamped, cudaStreamDefault, greatest - 100));
    CHECK(cudaStreamCreate(&plain));
    CHECK(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
    int prio = 7;
    unsigned flags = 7;
    CHECK(cudaStreamGetPriority(hi, &prio));
    EXPECT(prio == greatest);
    CHECK(cudaStreamGetPriority(lo, &prio));
    EXPECT(prio == least);
    CHECK(cudaStreamGetPriority(clamped, &prio));
    EXPECT(prio == greatest);
    CHECK(cudaStreamGetFlags(hi, &flags));
    EXPECT(flags == cudaStreamNonBlocking);
    CHECK(cudaStreamGetFlags(plain, &flags));
    EXPECT(flags == cudaStreamDefault);

    // A pipeline: chunks copied in, scaled and copied out on four streams.
    const int n = 4096, chunks = 4, len = n / chunks;
    float *host, *dev;
    CHECK(cudaMallocHost(&host, n * sizeof(float)));
    CHECK(cudaMalloc(&dev, n * sizeof(float)));
    for (int i = 0; i < n; ++i) host[i] = (float)(i % 97);
    cudaStream_t s[chunks] = {hi, lo, clamped, plain};
    for (int c = 0; c < chunks; ++c) {
        float *h = host + c * len, *d = dev + c * len;
        CHECK(cudaMemcpyAsync(d, h, len * sizeof(float), cudaMemcpyHostToDevice, s[c]));
        scale_add<<<len / 128, 128, 0, s[c]>>>(d, len, 2.0f, (float)c);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h, d, len * sizeof(float), cudaMemcpyDeviceToHost, s[c]));
    }
    for (int c = 0; c < chunks; ++c) CHECK(cudaStreamSynchronize(s[c]));
    for (int c = 0; c < chunks; ++c) CHECK(cudaStreamQuery(s[c]));
    for (int i = 0; i < n; ++i) {
        float want = (float)(i % 97) * 2.0f + (float)(i / len);
        if (host[i] != want) {
            if (bad < 5) printf("pipeline %d: got %g want %g\n", i, host[i], want);
            ++bad;
        }
    }

    // cudaMemsetAsync on two streams, into one pinned result.
    int *a, *b, *pinned;
    const int m = 256;
    CHECK(cudaMalloc(&a, m * sizeof(int)));
    CHECK(cudaMalloc(&b, m * sizeof(int)));
    CHECK(cudaHostAlloc(&pinned, 2 * m * sizeof(int), cudaHostAllocDefault));
    CHECK(cudaMemsetAsync(a, 0x01, m * sizeof(int), hi));
    CHECK(cudaMemsetAsync(b, 0xff, m * sizeof(int), lo));
    CHECK(cudaMemcpyAsync(pinned, a, m * sizeof(int), cudaMemcpyDeviceToHost, hi));
    CHECK(cudaMemcpyAsync(pinned + m, b, m * sizeof(int), cudaMemcpyDeviceToHost, lo));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < m; ++i) {
        EXPECT(pinned[i] == 0x01010101 || (printf("  at %d\n", i), false));
        EXPECT(pinned[m + i] == -1 || (printf("  at %d\n", i), false));
        if (bad > 10) break;
    }

    // cudaStreamQuery on a held stream is cudaErrorNotReady, and that status
    // is not recorded as an error.
    Gate g1 = {0, 0};
    CHECK(cudaLaunchHostFunc(plain, hold, &g1));
    set_value<<<2, 128, 0, plain>>>(a, m, 3);
    EXPECT(cudaStreamQuery(plain) == cudaErrorNotReady);
    EXPECT(cudaGetLastError() == cudaSuccess);
    open_gate(&g1);
    CHECK(cudaStreamSynchronize(plain));
    EXPECT(cudaStreamQuery(plain) == cudaSuccess);
    EXPECT(!g1.timed_out);

    // cudaStreamWaitEvent: `lo` waits for a write queued behind a gate on `hi`.
    Gate g2 = {0, 0};
    cudaEvent_t written;
    CHECK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
    CHECK(cudaMemset(b, 0, m * sizeof(int)));
    CHECK(cudaLaunchHostFunc(hi, hold, &g2));
    set_value<<<2, 128, 0, hi>>>(a, m, 21);
    CHECK(cudaEventRecord(written, hi));
    CHECK(cudaStreamWaitEvent(lo, written, 0));
    twice_plus<<<2, 128, 0, lo>>>(a, b, m, 0);
    EXPECT(cudaStreamQuery(lo) == cudaErrorNotReady);
    open_gate(&g2);
    CHECK(cudaStreamSynchronize(lo));
    CHECK(cudaMemcpy(pinned, b, m * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; ++i)
        if (pinned[i] != 42) {
            if (bad < 5) printf("wait event %d: got %d want 42\n", i, pinned[i]);
            ++bad;
        }
    EXPECT(!g2.timed_out);

    // The legacy default stream waits for blocking streams (`plain`) ...
    Gate g3 = {0, 0};
    CHECK(cudaLaunchHostFunc(plain, hold, &g3));
    set_value<<<2, 128, 0, plain>>>(a, m, 5);
    twice_plus<<<2, 128>>>(a, b, m, 1);
    // ... and blocking streams wait for it.
    twice_plus<<<2, 128, 0, clamped>>>(b, a, m, 0);
    open_gate(&g3);
    CHECK(cudaStreamSynchronize(clamped));
    CHECK(cudaMemcpy(pinned, a, m * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; ++i)
        if (pinned[i] != 22) {
            if (bad < 5) printf("legacy order %d: got %d want 22\n", i, pinned[i]);
            ++bad;
        }
    EXPECT(!g3.timed_out);

    // A non-blocking stream takes no part: the legacy stream runs past it.
    Gate g4 = {0, 0};
    CHECK(cudaLaunchHostFunc(nonblocking, hold, &g4));
    set_value<<<2, 128>>>(b, m, 9);
    CHECK(cudaStreamSynchronize(0));
    EXPECT(cudaStreamQuery(nonblocking) == cudaErrorNotReady);
    open_gate(&g4);
    CHECK(cudaStreamSynchronize(nonblocking));
    EXPECT(!g4.timed_out);

    // Host functions and callbacks run in stream order, after the work
    // before them and before the work after them.
    int *watch;
    CHECK(cudaMallocHost(&watch, sizeof(int)));
    *watch = 0;
    int *dwatch;
    CHECK(cudaMalloc(&dwatch, sizeof(int)));
    Note first = {1, watch}, third = {3, nullptr};
    int second = 2;
    set_value<<<1, 1, 0, lo>>>(dwatch, 1, 77);
    CHECK(cudaMemcpyAsync(watch, dwatch, sizeof(int), cudaMemcpyDeviceToHost, lo));
    CHECK(cudaLaunchHostFunc(lo, note, &first));
    CHECK(cudaStreamAddCallback(lo, callback, &second, 0));
    CHECK(cudaLaunchHostFunc(lo, note, &third));
    CHECK(cudaStreamSynchronize(lo));
    EXPECT(order_len == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3);
    EXPECT(seen_at_host_fn == 77);
    EXPECT(callback_stream == lo);
    EXPECT(callback_status == cudaSuccess);

    CHECK(cudaEventDestroy(written));
    CHECK(cudaStreamDestroy(hi));
    CHECK(cudaStreamDestroy(lo));
    CHECK(cudaStreamDestroy(clamped));
    CHECK(cudaStreamDestroy(plain));
    CHECK(cudaStreamDestroy(nonblocking));
    CHECK(cudaFreeHost(host));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(watch));
    CHECK(cudaFree(dev));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(dwatch));
    return report("api_streams", bad);
}
