// corpus: runtime-api
// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync on the device's
// default pool, a pool of our own (attributes, reuse after a stream-ordered
// free, trimming), cudaMallocFromPoolAsync, cudaFreeAsync of cudaMalloc
// memory, and the memory hints (cudaMemAdvise, cudaMemPrefetchAsync) with
// their error codes.
#include <cstdio>

__global__ void fill(int *p, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

#include "expect.h"

int main() {
    const int n = 4096;
    cudaStream_t s;
    cudaStreamCreate(&s);

    // The default pool.
    int *a = nullptr;
    EXPECT(cudaMallocAsync((void **)&a, n * sizeof(int), s) == cudaSuccess && a != nullptr);
    fill<<<n / 256, 256, 0, s>>>(a, 7, n);
    int h[n];
    EXPECT(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    EXPECT(cudaFreeAsync(a, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(h[0] == 7 && h[n - 1] == 7 + n - 1);
    // Freed pool memory is no longer device memory.
    EXPECT(cudaMemset(a, 0, 16) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaMemPool_t def = nullptr, cur = nullptr;
    EXPECT(cudaDeviceGetDefaultMemPool(&def, 0) == cudaSuccess && def != nullptr);
    EXPECT(cudaDeviceGetMemPool(&cur, 0) == cudaSuccess && cur == def);
    EXPECT(cudaDeviceGetDefaultMemPool(&def, 1) == cudaErrorInvalidDevice);
    cudaGetLastError();

    // A pool of our own that keeps what is freed.
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool;
    EXPECT(cudaMemPoolCreate(&pool, &props) == cudaSuccess);
    unsigned long long threshold = ~0ull;
    EXPECT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess);
    int *b = nullptr;
    EXPECT(cudaMallocFromPoolAsync((void **)&b, n * sizeof(int), pool, s) == cudaSuccess);
    unsigned long long used = 0, reserved = 0;
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess);
    EXPECT(used >= n * sizeof(int));
    fill<<<n / 256, 256, 0, s>>>(b, 1, n);
    EXPECT(cudaFreeAsync(b, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess && used == 0);
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess);
    EXPECT(reserved >= n * sizeof(int));
    // The freed block is reused for a request of the same size.
    int *c = nullptr;
    EXPECT(cudaMallocFromPoolAsync((void **)&c, n * sizeof(int), pool, s) == cudaSuccess && c == b);
    fill<<<n / 256, 256, 0, s>>>(c, 100, n);
    EXPECT(cudaMemcpyAsync(h, c, sizeof h, cudaMemcpyDeviceToHost, s) == cudaSuccess);
    EXPECT(cudaFreeAsync(c, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(h[5] == 105);
    // Trimming gives the cached memory back.
    EXPECT(cudaMemPoolTrimTo(pool, 0) == cudaSuccess);
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess && reserved == 0);
    unsigned long long high = 0, zero = 0;
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high) == cudaSuccess && high >= n * sizeof(int));
    EXPECT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero) == cudaSuccess);
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high) == cudaSuccess && high == 0);
    cudaMemAccessDesc acc = {};
    acc.location.type = cudaMemLocationTypeDevice;
    acc.location.id = 0;
    acc.flags = cudaMemAccessFlagsProtReadWrite;
    EXPECT(cudaMemPoolSetAccess(pool, &acc, 1) == cudaSuccess);
    cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
    EXPECT(cudaMemPoolGetAccess(&flags, pool, &acc.location) == cudaSuccess && flags == cudaMemAccessFlagsProtReadWrite);

    // The pool as the device's current pool.
    EXPECT(cudaDeviceSetMemPool(0, pool) == cudaSuccess);
    int *d = nullptr;
    EXPECT(cudaMallocAsync((void **)&d, 1000, s) == cudaSuccess);
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess && used >= 1000);
    EXPECT(cudaFreeAsync(d, s) == cudaSuccess);
    EXPECT(cudaDeviceSetMemPool(0, def) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(cudaMemPoolDestroy(pool) == cudaSuccess);
    EXPECT(cudaMemPoolDestroy(def) == cudaErrorInvalidValue);
    EXPECT(cudaMallocFromPoolAsync((void **)&d, 16, pool, s) == cudaErrorInvalidValue);
    cudaGetLastError();

    // cudaMalloc memory may be freed in stream order; unknown pointers may not.
    int *m;
    cudaMalloc(&m, 64);
    EXPECT(cudaFreeAsync(m, s) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(cudaFreeAsync(m, s) == cudaErrorInvalidValue);
    EXPECT(cudaFreeAsync(h, s) == cudaErrorInvalidValue);
    cudaGetLastError();

    // Hints: validated, nothing to move.
    int *u;
    cudaMallocManaged(&u, n * sizeof(int));
    cudaMemLocation dev = {};
    dev.type = cudaMemLocationTypeDevice;
    dev.id = 0;
    cudaMemLocation host = {};
    host.type = cudaMemLocationTypeHost;
    EXPECT(cudaMemAdvise(u, n * sizeof(int), cudaMemAdviseSetReadMostly, dev) == cudaSuccess);
    EXPECT(cudaMemAdvise(u, n * sizeof(int), cudaMemAdviseSetPreferredLocation, host) == cudaSuccess);
    EXPECT(cudaMemPrefetchAsync(u, n * sizeof(int), dev, 0, s) == cudaSuccess);
    EXPECT(cudaMemPrefetchAsync(u, 2 * n * sizeof(int), dev, 0, s) == cudaErrorInvalidValue);
    EXPECT(cudaMemPrefetchAsync(h, 16, dev, 0, s) == cudaErrorInvalidValue);
    cudaMemLocation other = dev;
    other.id = 3;
    EXPECT(cudaMemPrefetchAsync(u, 16, other, 0, s) == cudaErrorInvalidDevice);
    EXPECT(cudaMemAdvise(u, 16, cudaMemAdviseSetAccessedBy, other) == cudaErrorInvalidDevice);
    EXPECT(cudaMemAdvise(u, 16, (cudaMemoryAdvise)42, dev) == cudaErrorInvalidValue);
    // Attaching managed memory to a stream: validated, nothing to change.
    EXPECT(cudaStreamAttachMemAsync(s, u, 0, cudaMemAttachSingle) == cudaSuccess);
    EXPECT(cudaStreamAttachMemAsync(s, u, 0, 3) == cudaErrorInvalidValue);
    EXPECT(cudaStreamAttachMemAsync(s, h, 0, cudaMemAttachHost) == cudaErrorInvalidValue);
    int *pinned;
    cudaMallocHost(&pinned, 64);
    unsigned int hflags = 0;
    EXPECT(cudaHostGetFlags(&hflags, pinned) == cudaSuccess && (hflags & cudaHostAllocMapped));
    EXPECT(cudaHostGetFlags(&hflags, h) == cudaErrorInvalidValue);
    cudaFreeHost(pinned);
    cudaGetLastError();
    cudaFree(u);
    cudaStreamDestroy(s);
    return report("api_mempool", bad);
}
