// corpus: runtime-api
// Device management as programs start up: cudaGetDeviceCount, cudaSetDevice
// with a good and a bad ordinal, cudaGetDevice, cudaGetDeviceProperties with
// the fields older programs print (including those CUDA 13 removed),
// cudaDeviceGetAttribute agreeing with the properties, the driver and
// runtime versions, limits, cache and shared-memory configurations,
// device flags, and the sizes of the API's structs (CUDA 13's layouts).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

static int attr(cudaDeviceAttr a) {
    int v = -12345;
    CHECK(cudaDeviceGetAttribute(&v, a, 0));
    return v;
}

int main() {
    // The structs a program shares with the runtime have CUDA 13's sizes.
    EXPECT(sizeof(cudaDeviceProp) == 1008);
    EXPECT(sizeof(cudaPointerAttributes) == 88);
    EXPECT(sizeof(cudaFuncAttributes) == 144);
    EXPECT(sizeof(cudaPitchedPtr) == 32);
    EXPECT(sizeof(cudaExtent) == 24);
    EXPECT(sizeof(cudaMemcpy3DParms) == 160);
    EXPECT(sizeof(cudaChannelFormatDesc) == 20);
    EXPECT(sizeof(dim3) == 12);

    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count >= 1);
    for (int d = 0; d < count; ++d) CHECK(cudaSetDevice(d));
    CHECK(cudaSetDevice(0));
    EXPECT(cudaSetDevice(count) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    EXPECT(cudaSetDevice(-1) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    int dev = -1;
    CHECK(cudaGetDevice(&dev));
    EXPECT(dev == 0);
    cudaDeviceProp prop;
    EXPECT(cudaGetDeviceProperties(&prop, count) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    int v = 0;
    EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);

    // The classic deviceQuery fields.
    memset(&prop, 0, sizeof(prop));
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(strlen(prop.name) > 0 && strlen(prop.name) < sizeof(prop.name));
    EXPECT(prop.major >= 3 && prop.minor >= 0);
    EXPECT(prop.totalGlobalMem > 0);
    EXPECT(prop.sharedMemPerBlock >= 48 * 1024);
    EXPECT(prop.regsPerBlock > 0);
    EXPECT(prop.warpSize == 32);
    EXPECT(prop.memPitch > 0);
    EXPECT(prop.maxThreadsPerBlock == 1024);
    EXPECT(prop.maxThreadsDim[0] == 1024 && prop.maxThreadsDim[1] == 1024 && prop.maxThreadsDim[2] == 64);
    EXPECT(prop.maxGridSize[0] == 2147483647 && prop.maxGridSize[1] == 65535 &&
           prop.maxGridSize[2] == 65535);
    EXPECT(prop.totalConstMem == 65536);
    EXPECT(prop.textureAlignment > 0);
    EXPECT(prop.multiProcessorCount >= 1);
    EXPECT(prop.maxThreadsPerMultiProcessor >= prop.maxThreadsPerBlock);
    EXPECT(prop.canMapHostMemory == 1);
    EXPECT(prop.unifiedAddressing == 1);
    EXPECT(prop.managedMemory == 1);
    EXPECT(prop.concurrentKernels == 1);
    EXPECT(prop.asyncEngineCount >= 0);
    EXPECT(prop.l2CacheSize >= 0);
    EXPECT(prop.sharedMemPerBlockOptin >= prop.sharedMemPerBlock);
    // Fields CUDA 13 removed, which older programs still read.
    EXPECT(prop.clockRate > 0);
    EXPECT(prop.memoryClockRate > 0);
    EXPECT(prop.deviceOverlap == 1);
    EXPECT(prop.kernelExecTimeoutEnabled == 0);
    EXPECT(prop.computeMode == cudaComputeModeDefault);

    // Attributes agree with the properties.
    EXPECT(attr(cudaDevAttrMaxThreadsPerBlock) == prop.maxThreadsPerBlock);
    EXPECT(attr(cudaDevAttrMaxBlockDimX) == prop.maxThreadsDim[0]);
    EXPECT(attr(cudaDevAttrMaxBlockDimZ) == prop.maxThreadsDim[2]);
    EXPECT(attr(cudaDevAttrMaxGridDimX) == prop.maxGridSize[0]);
    EXPECT(attr(cudaDevAttrMaxGridDimY) == prop.maxGridSize[1]);
    EXPECT(attr(cudaDevAttrMaxSharedMemoryPerBlock) == (int)prop.sharedMemPerBlock);
    EXPECT(attr(cudaDevAttrTotalConstantMemory) == (int)prop.totalConstMem);
    EXPECT(attr(cudaDevAttrWarpSize) == 32);
    EXPECT(attr(cudaDevAttrMultiProcessorCount) == prop.multiProcessorCount);
    EXPECT(attr(cudaDevAttrComputeCapabilityMajor) == prop.major);
    EXPECT(attr(cudaDevAttrComputeCapabilityMinor) == prop.minor);
    EXPECT(attr(cudaDevAttrClockRate) == prop.clockRate);
    EXPECT(attr(cudaDevAttrMemoryClockRate) == prop.memoryClockRate);
    EXPECT(attr(cudaDevAttrGpuOverlap) == prop.deviceOverlap);
    EXPECT(attr(cudaDevAttrComputeMode) == prop.computeMode);
    EXPECT(attr(cudaDevAttrIntegrated) == prop.integrated);
    EXPECT(attr(cudaDevAttrCanMapHostMemory) == 1);
    EXPECT(attr(cudaDevAttrUnifiedAddressing) == 1);
    EXPECT(attr(cudaDevAttrManagedMemory) == 1);
    EXPECT(attr(cudaDevAttrMaxThreadsPerMultiProcessor) == prop.maxThreadsPerMultiProcessor);
    EXPECT(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin) == (int)prop.sharedMemPerBlockOptin);

    // Versions.
    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    EXPECT(runtime >= 9000 && driver >= runtime);

    // Limits: read, set, read back.
    size_t stack = 0, heap = 0, fifo = 0;
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    EXPECT(stack > 0 && heap > 0 && fifo > 0);
    CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
    CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    EXPECT(fifo == (size_t)(4 << 20));
    EXPECT(cudaDeviceSetLimit((cudaLimit)99, 1) == cudaErrorUnsupportedLimit);
    EXPECT(cudaGetLastError() == cudaErrorUnsupportedLimit);

    // Configurations programs set and forget.
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    cudaFuncCache cache;
    CHECK(cudaDeviceGetCacheConfig(&cache));
    CHECK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte));
    cudaSharedMemConfig bank;
    CHECK(cudaDeviceGetSharedMemConfig(&bank));
    CHECK(cudaFuncSetCacheConfig(touch, cudaFuncCachePreferL1));
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
    unsigned flags = 0;
    CHECK(cudaGetDeviceFlags(&flags));
    int least = 0, greatest = 0;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT(least >= greatest);

    // And the device works.
    int *d, h[32];
    CHECK(cudaMalloc(&d, sizeof(h)));
    touch<<<1, 32>>>(d);
    CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; ++i) EXPECT(h[i] == i);
    CHECK(cudaFree(d));
    CHECK(cudaDeviceSynchronize());
    return report("api_device", bad);
}
