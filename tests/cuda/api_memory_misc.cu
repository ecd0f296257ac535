// corpus: runtime-api
// Linear memory as programs query and move it: cudaMemGetInfo (free within
// total, total stable), cudaMalloc of 0 bytes, cudaMemset byte
// patterns, cudaMemcpy with cudaMemcpyDefault in every direction (unified
// addressing), cudaMemcpyPeer and cudaMemcpyPeerAsync on device 0, host to
// host copies, cudaMemcpyAsync on the per-thread default stream, and
// cudaPointerGetAttributes on device memory.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

__global__ void negate(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = -p[i];
}

int main() {
    size_t free0 = 0, total = 0;
    CHECK(cudaMemGetInfo(&free0, &total));
    EXPECT(total > 0 && free0 > 0 && free0 <= total);

    // A zero-byte allocation succeeds; freeing its result is fine.
    void *nothing = (void *)0x1;
    CHECK(cudaMalloc(&nothing, 0));
    CHECK(cudaFree(nothing));

    const int n = 4096;
    int *d1, *d2;
    CHECK(cudaMalloc(&d1, n * sizeof(int)));
    CHECK(cudaMalloc(&d2, n * sizeof(int)));
    size_t free1 = 0, total1 = 0;
    CHECK(cudaMemGetInfo(&free1, &total1));
    EXPECT(total1 == total && free1 <= total1);

    // cudaMemset sets bytes.
    static int h[n], g[n];
    CHECK(cudaMemset(d1, 0xab, n * sizeof(int)));
    CHECK(cudaMemset(d1 + 10, 0, 5 * sizeof(int)));
    CHECK(cudaMemcpy(h, d1, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        int want = i >= 10 && i < 15 ? 0 : (int)0xabababab;
        if (h[i] != want) {
            if (bad < 5) printf("memset %d: %x\n", i, h[i]);
            ++bad;
        }
    }

    // cudaMemcpyDefault: host->device, device->device, device->host, host->host.
    for (int i = 0; i < n; ++i) h[i] = i * 3 + 1;
    CHECK(cudaMemcpy(d1, h, n * sizeof(int), cudaMemcpyDefault));
    negate<<<n / 256, 256>>>(d1, n);
    CHECK(cudaMemcpy(d2, d1, n * sizeof(int), cudaMemcpyDefault));
    negate<<<n / 256, 256>>>(d1, n);
    CHECK(cudaMemcpy(g, d2, n * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < n; ++i)
        if (g[i] != -(i * 3 + 1)) {
            if (bad < 5) printf("default %d: %d\n", i, g[i]);
            ++bad;
        }
    CHECK(cudaMemcpy(g, h, 16 * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaMemcpy(g + 16, h + 16, 16 * sizeof(int), cudaMemcpyHostToHost));
    for (int i = 0; i < 32; ++i) EXPECT(g[i] == i * 3 + 1 || (printf("  at %d\n", i), false));

    // Peer copies within device 0 (the only device).
    CHECK(cudaMemset(d2, 0, n * sizeof(int)));
    CHECK(cudaMemcpyPeer(d2, 0, d1, 0, n / 2 * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaMemcpyPeerAsync(d2 + n / 2, 0, d1 + n / 2, 0, n / 2 * sizeof(int), s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(g, d2, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (g[i] != i * 3 + 1) {
            if (bad < 5) printf("peer %d: %d\n", i, g[i]);
            ++bad;
        }
    EXPECT(cudaMemcpyPeer(d2, 1, d1, 0, 4) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);

    // The per-thread default stream.
    int *pinned;
    CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
    for (int i = 0; i < n; ++i) pinned[i] = i;
    CHECK(cudaMemcpyAsync(d1, pinned, n * sizeof(int), cudaMemcpyHostToDevice, cudaStreamPerThread));
    negate<<<n / 256, 256, 0, cudaStreamPerThread>>>(d1, n);
    CHECK(cudaMemsetAsync(d1, 0, sizeof(int), cudaStreamPerThread));
    CHECK(cudaMemcpyAsync(pinned, d1, n * sizeof(int), cudaMemcpyDeviceToHost, cudaStreamPerThread));
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    for (int i = 0; i < n; ++i)
        if (pinned[i] != -i) {
            if (bad < 5) printf("per-thread %d: %d\n", i, pinned[i]);
            ++bad;
        }

    // Interior device pointers are device memory, for copies and attributes.
    CHECK(cudaMemcpy(d1 + 100, h, 10 * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaMemcpy(g, d1 + 100, 10 * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < 10; ++i) EXPECT(g[i] == h[i]);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, d1 + 100));
    EXPECT(attr.type == cudaMemoryTypeDevice && attr.device == 0);
    EXPECT(attr.devicePointer == d1 + 100 && attr.hostPointer == nullptr);

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(d1));
    CHECK(cudaFree(d2));
    return report("api_memory_misc", bad);
}
