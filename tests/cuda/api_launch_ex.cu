// corpus: runtime-api
// cudaLaunchKernelEx with attributes (ignored ones, a cluster shape that
// must divide the grid, a completion event), cudaFuncGetName, the PCI bus
// id round trip, and an entry point without a CPU meaning returning
// cudaErrorNotSupported.
#include <cstdio>
#include <cstring>

__global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

#include "expect.h"

int main() {
    const int n = 1024;
    float *x, *y, h[n];
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    for (int i = 0; i < n; ++i) h[i] = (float)i;
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(y, 0, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaEvent_t done;
    cudaEventCreate(&done);

    cudaLaunchAttribute attrs[3];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = cudaLaunchAttributePriority;
    attrs[0].val.priority = 0;
    attrs[1].id = cudaLaunchAttributeClusterDimension;
    attrs[1].val.clusterDim.x = 2;
    attrs[1].val.clusterDim.y = 1;
    attrs[1].val.clusterDim.z = 1;
    attrs[2].id = cudaLaunchAttributeLaunchCompletionEvent;
    attrs[2].val.launchCompletionEvent.event = done;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(n / 128);
    config.blockDim = dim3(128);
    config.stream = s;
    config.attrs = attrs;
    config.numAttrs = 3;
    EXPECT(cudaLaunchKernelEx(&config, saxpy, 2.0f, (const float *)x, y, n) == cudaSuccess);
    EXPECT(cudaEventSynchronize(done) == cudaSuccess);
    cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(h[0] == 0.0f && h[3] == 6.0f && h[n - 1] == 2.0f * (n - 1));

    // The C form with an argument array.
    float a = 1.0f;
    int nn = n;
    void *args[] = {&a, &x, &y, &nn};
    config.numAttrs = 1;
    EXPECT(cudaLaunchKernelExC(&config, (const void *)saxpy, args) == cudaSuccess);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(h[3] == 9.0f);

    // A cluster that does not divide the grid, an unknown attribute.
    config.numAttrs = 2;
    attrs[1].val.clusterDim.x = 3;
    EXPECT(cudaLaunchKernelExC(&config, (const void *)saxpy, args) == cudaErrorInvalidConfiguration);
    attrs[1].id = (cudaLaunchAttributeID)1000;
    EXPECT(cudaLaunchKernelExC(&config, (const void *)saxpy, args) == cudaErrorInvalidValue);
    cudaGetLastError();

    // Kernel names.
    const char *name = nullptr;
    EXPECT(cudaFuncGetName(&name, (const void *)saxpy) == cudaSuccess);
    EXPECT(name != nullptr && strstr(name, "saxpy") != nullptr);
    EXPECT(cudaFuncGetName(&name, (const void *)&bad) == cudaErrorInvalidDeviceFunction);
    cudaGetLastError();

    // PCI bus id round trip.
    char bus[32];
    EXPECT(cudaDeviceGetPCIBusId(bus, sizeof bus, 0) == cudaSuccess);
    EXPECT(strlen(bus) == 12 && bus[4] == ':' && bus[7] == ':' && bus[10] == '.');
    int dev = -1;
    EXPECT(cudaDeviceGetByPCIBusId(&dev, bus) == cudaSuccess && dev == 0);
    EXPECT(cudaDeviceGetPCIBusId(bus, 4, 0) == cudaErrorInvalidValue);
    EXPECT(cudaDeviceGetPCIBusId(bus, sizeof bus, 1) == cudaErrorInvalidDevice);
    EXPECT(cudaDeviceGetByPCIBusId(&dev, "not a bus id") == cudaErrorInvalidValue);
    cudaGetLastError();

    // One device: no peer attributes; one block per core: the whole limit.
    int value = 0;
    EXPECT(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice);
    size_t smem = 0;
    EXPECT(cudaOccupancyAvailableDynamicSMemPerBlock(&smem, (const void *)saxpy, 4, 128) == cudaSuccess);
    EXPECT(smem >= 48 * 1024);
    cudaGetLastError();

    // Stream attributes: recorded, validated, reported back.
    cudaStreamAttrValue av;
    memset(&av, 0, sizeof av);
    EXPECT(cudaStreamGetAttribute(s, cudaStreamAttributePriority, &av) == cudaSuccess && av.priority == 0);
    av.accessPolicyWindow.base_ptr = x;
    av.accessPolicyWindow.num_bytes = 4096;
    av.accessPolicyWindow.hitRatio = 0.5f;
    av.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    av.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    EXPECT(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &av) == cudaSuccess);
    cudaStreamAttrValue back;
    memset(&back, 0, sizeof back);
    EXPECT(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back) == cudaSuccess);
    EXPECT(back.accessPolicyWindow.num_bytes == 4096 && back.accessPolicyWindow.hitRatio == 0.5f);
    av.accessPolicyWindow.hitRatio = 2.0f;
    EXPECT(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &av) == cudaErrorInvalidValue);
    cudaStream_t s2;
    cudaStreamCreate(&s2);
    EXPECT(cudaStreamCopyAttributes(s2, s) == cudaSuccess);
    memset(&back, 0, sizeof back);
    EXPECT(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &back) == cudaSuccess);
    EXPECT(back.accessPolicyWindow.base_ptr == x);
    cudaStreamDestroy(s2);
    cudaGetLastError();

    // Driver functions by name.
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    EXPECT(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 13000, cudaEnableDefault, &found) == cudaSuccess);
    EXPECT(fn != nullptr && found == cudaDriverEntryPointSuccess);
    EXPECT(cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000, cudaEnableDefault, &found) == cudaSuccess);
    EXPECT(fn == nullptr && found == cudaDriverEntryPointSymbolNotFound);

    // No CPU meaning: cudaErrorNotSupported, recorded as the last error.
    cudaIpcMemHandle_t handle;
    EXPECT(cudaIpcGetMemHandle(&handle, x) == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaSuccess);

    cudaEventDestroy(done);
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(y);
    return report("api_launch_ex", bad);
}
