// corpus: runtime-api
// Host-side allocations: cudaMallocHost, cudaHostAlloc (mapped, portable,
// write-combined) and cudaFreeHost, cudaHostGetDevicePointer and kernels
// reading and writing mapped memory, cudaHostRegister/Unregister of a
// malloc'ed buffer, cudaMallocManaged used by the host and by kernels in
// turn, and cudaPointerGetAttributes on each kind.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

__global__ void square_into(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

__global__ void bump_and_sum(int *data, int n, unsigned long long *total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += 1;
        atomicAdd(total, (unsigned long long)data[i]);
    }
}

static void check_attributes(const char *what, const void *p, cudaMemoryType type,
                             bool has_device, bool has_host) {
    cudaPointerAttributes attr;
    memset(&attr, 0x5a, sizeof(attr));
    cudaError_t err = cudaPointerGetAttributes(&attr, p);
    if (err != cudaSuccess) {
        printf("%s: cudaPointerGetAttributes returned %s\n", what, cudaGetErrorName(err));
        ++bad;
        return;
    }
    if (attr.type != type) {
        printf("%s: type %d, want %d\n", what, (int)attr.type, (int)type);
        ++bad;
    }
    if (has_device && (attr.device != 0 || attr.devicePointer != p)) {
        printf("%s: device %d, devicePointer %p (want 0, %p)\n", what, attr.device,
               attr.devicePointer, p);
        ++bad;
    }
    if (!has_device && attr.devicePointer != nullptr) {
        printf("%s: unexpected device pointer %p\n", what, attr.devicePointer);
        ++bad;
    }
    if (has_host && attr.hostPointer != p) {
        printf("%s: hostPointer %p, want %p\n", what, attr.hostPointer, p);
        ++bad;
    }
    if (!has_host && attr.hostPointer != nullptr) {
        printf("%s: unexpected host pointer %p\n", what, attr.hostPointer);
        ++bad;
    }
}

int main() {
    const int n = 1000;
    // Page-locked buffers from both allocators, as copy sources and targets.
    int *pinned_in, *pinned_out, *dev;
    CHECK(cudaMallocHost((void **)&pinned_in, n * sizeof(int)));
    CHECK(cudaHostAlloc((void **)&pinned_out, n * sizeof(int), cudaHostAllocPortable));
    CHECK(cudaMalloc(&dev, 2 * n * sizeof(int)));
    for (int i = 0; i < n; ++i) pinned_in[i] = i - 500;
    CHECK(cudaMemcpy(dev, pinned_in, n * sizeof(int), cudaMemcpyHostToDevice));
    square_into<<<(n + 127) / 128, 128>>>(dev, dev + n, n);
    CHECK(cudaMemcpy(pinned_out, dev + n, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (pinned_out[i] != (i - 500) * (i - 500)) {
            if (bad < 5) printf("pinned %d: %d\n", i, pinned_out[i]);
            ++bad;
        }

    // Mapped (zero-copy) memory: the kernel works on the host buffer through
    // its device pointer.
    int *mapped_in, *mapped_out, *dmapped_in, *dmapped_out;
    CHECK(cudaHostAlloc((void **)&mapped_in, n * sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostAlloc((void **)&mapped_out, n * sizeof(int),
                        cudaHostAllocMapped | cudaHostAllocWriteCombined));
    CHECK(cudaHostGetDevicePointer((void **)&dmapped_in, mapped_in, 0));
    CHECK(cudaHostGetDevicePointer(&dmapped_out, mapped_out, 0));
    for (int i = 0; i < n; ++i) mapped_in[i] = 3 * i;
    square_into<<<(n + 127) / 128, 128>>>(dmapped_in, dmapped_out, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i)
        if (mapped_out[i] != 9 * i * i) {
            if (bad < 5) printf("mapped %d: %d\n", i, mapped_out[i]);
            ++bad;
        }

    // A malloc'ed buffer registered in place.
    int *plain = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) plain[i] = 7;
    CHECK(cudaHostRegister(plain, n * sizeof(int), cudaHostRegisterDefault));
    check_attributes("registered", plain, cudaMemoryTypeHost, true, true);
    CHECK(cudaMemcpyAsync(dev, plain, n * sizeof(int), cudaMemcpyHostToDevice, 0));
    square_into<<<(n + 127) / 128, 128>>>(dev, dev + n, n);
    CHECK(cudaMemcpyAsync(plain, dev + n, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; ++i)
        if (plain[i] != 49) {
            if (bad < 5) printf("registered %d: %d\n", i, plain[i]);
            ++bad;
        }
    CHECK(cudaHostUnregister(plain));
    check_attributes("unregistered", plain, cudaMemoryTypeUnregistered, false, false);

    // Managed memory: host writes, kernel updates, host reads, kernel again.
    int *managed;
    unsigned long long *total;
    CHECK(cudaMallocManaged(&managed, n * sizeof(int)));
    CHECK(cudaMallocManaged(&total, sizeof(*total)));
    for (int i = 0; i < n; ++i) managed[i] = i;
    *total = 0;
    bump_and_sum<<<(n + 255) / 256, 256>>>(managed, n, total);
    CHECK(cudaDeviceSynchronize());
    unsigned long long want_total = 0;
    for (int i = 0; i < n; ++i) {
        if (managed[i] != i + 1) ++bad;
        want_total += i + 1;
        managed[i] *= 2;
    }
    EXPECT(*total == want_total);
    *total = 0;
    bump_and_sum<<<(n + 255) / 256, 256>>>(managed, n, total);
    CHECK(cudaDeviceSynchronize());
    EXPECT(managed[0] == 3 && managed[n - 1] == 2 * n + 1);
    EXPECT(*total == 2 * want_total + n);
    int *managed_host;
    CHECK(cudaMallocManaged(&managed_host, 64, cudaMemAttachHost));

    check_attributes("device", dev, cudaMemoryTypeDevice, true, false);
    check_attributes("device interior", dev + 10, cudaMemoryTypeDevice, true, false);
    check_attributes("cudaMallocHost", pinned_in, cudaMemoryTypeHost, true, true);
    check_attributes("cudaHostAlloc", mapped_in, cudaMemoryTypeHost, true, true);
    check_attributes("managed", managed, cudaMemoryTypeManaged, true, true);
    check_attributes("managed (attach host)", managed_host, cudaMemoryTypeManaged, true, true);
    int on_stack = 0;
    check_attributes("stack", &on_stack, cudaMemoryTypeUnregistered, false, false);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, &on_stack));
    EXPECT(attr.device == cudaInvalidDeviceId);

    // Freeing with the wrong function is an error and frees nothing.
    EXPECT(cudaFreeHost(dev) == cudaErrorInvalidValue);
    EXPECT(cudaFree(pinned_in) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaFreeHost(pinned_in));
    CHECK(cudaFreeHost(pinned_out));
    CHECK(cudaFreeHost(mapped_in));
    CHECK(cudaFreeHost(mapped_out));
    CHECK(cudaFreeHost(nullptr));
    CHECK(cudaFree(managed));
    CHECK(cudaFree(managed_host));
    CHECK(cudaFree(total));
    CHECK(cudaFree(dev));
    free(plain);
    return report("api_host_memory", bad);
}
