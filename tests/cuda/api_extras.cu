// corpus: runtime-api
// Smaller runtime entry points: device choice, peer access on a single
// device, profiler markers, prefetch, cudaMemset3D, surfaces (not
// supported), a cooperative launch, and the pre-CUDA-9 launch protocol
// (cudaConfigureCall / cudaSetupArgument / cudaLaunch).
#include <cstdio>

__global__ void axpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

#include "expect.h"

int main() {
    cudaDeviceProp want;
    cudaGetDeviceProperties(&want, 0);
    int dev = -1;
    EXPECT(cudaChooseDevice(&dev, &want) == cudaSuccess && dev == 0);
    int can = 7;
    EXPECT(cudaDeviceCanAccessPeer(&can, 0, 0) == cudaSuccess && can == 0);
    EXPECT(cudaDeviceCanAccessPeer(&can, 0, 3) == cudaErrorInvalidDevice);
    EXPECT(cudaDeviceEnablePeerAccess(0, 0) != cudaSuccess);
    cudaGetLastError();
    EXPECT(cudaProfilerStart() == cudaSuccess && cudaProfilerStop() == cudaSuccess);

    const int n = 300;
    float *x, *y;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    struct cudaMemLocation here = {};
    here.type = cudaMemLocationTypeDevice;
    here.id = 0;
    EXPECT(cudaMemPrefetchAsync(x, n * sizeof(float), here, 0, 0) == cudaSuccess);

    // The pre-CUDA-9 launch protocol.
    float a = 2.0f;
    EXPECT(cudaConfigureCall(dim3((n + 127) / 128), dim3(128), 0, 0) == cudaSuccess);
    size_t off = 0;
    EXPECT(cudaSetupArgument(&a, sizeof a, off) == cudaSuccess);
    off += sizeof(float *);  // pointers are 8-aligned
    EXPECT(cudaSetupArgument(&x, sizeof x, off) == cudaSuccess);
    off += sizeof x;
    EXPECT(cudaSetupArgument(&y, sizeof y, off) == cudaSuccess);
    off += sizeof y;
    int nn = n;
    EXPECT(cudaSetupArgument(&nn, sizeof nn, off) == cudaSuccess);
    EXPECT(cudaLaunch((const void *)axpy) == cudaSuccess);
    // A cooperative launch of the same kernel.
    void *args[] = {&a, &x, &y, &nn};
    EXPECT(cudaLaunchCooperativeKernel((const void *)axpy, dim3((n + 127) / 128), dim3(128), args, 0, 0) ==
           cudaSuccess);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < n; i++) EXPECT(y[i] == 1.0f + 4.0f * i || (printf("y[%d]=%f\n", i, y[i]), 0));
    EXPECT(cudaLaunch((const void *)axpy) == cudaErrorMissingConfiguration);
    cudaGetLastError();

    // cudaMemset3D over a pitched volume.
    cudaExtent ext = make_cudaExtent(10, 4, 3);
    cudaPitchedPtr pp;
    EXPECT(cudaMalloc3D(&pp, ext) == cudaSuccess);
    EXPECT(cudaMemset3D(pp, 0x5a, ext) == cudaSuccess);
    unsigned char host[3][4][10];
    cudaMemcpy3DParms c = {};
    c.srcPtr = pp;
    c.dstPtr = make_cudaPitchedPtr(host, 10, 10, 4);
    c.extent = ext;
    c.kind = cudaMemcpyDeviceToHost;
    EXPECT(cudaMemcpy3D(&c) == cudaSuccess);
    bool all = true;
    for (int z = 0; z < 3; z++)
        for (int yy = 0; yy < 4; yy++)
            for (int xx = 0; xx < 10; xx++) all = all && host[z][yy][xx] == 0x5a;
    EXPECT(all);

    cudaSurfaceObject_t s;
    cudaResourceDesc rd = {};
    EXPECT(cudaCreateSurfaceObject(&s, &rd) == cudaErrorNotSupported);
    cudaGetLastError();

    cudaFree(x);
    cudaFree(y);
    cudaFree(pp.ptr);
    return report("api_extras", bad);
}
