// The runtime API and the driver API in one program share one device, one
// memory and one set of streams and events: memory from cudaMalloc is
// launched on through cuLaunchKernel on a cudaStream_t, memory from
// cuMemAlloc is copied with cudaMemcpy, events cross over, and failing
// driver calls leave the runtime's last error alone. Host code only (the
// kernels come from the PTX file given as argv[1]); built by cucc with
// -lcuda.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                \
    do {                                                           \
        if (!(cond)) {                                             \
            printf("FAIL line %d: %s\n", __LINE__, #cond);         \
            failures++;                                            \
        }                                                          \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s KERNELS.ptx\n", argv[0]);
        return 2;
    }
    enum { N = 4096 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 2.0f;
    }

    /* The runtime first, then the driver on the primary context. */
    float *dx = 0, *dy = 0;
    CHECK(cudaMalloc((void **)&dx, sizeof x) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dy, sizeof y) == cudaSuccess);
    CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice) == cudaSuccess);
    /* CUDA's runtime calls cuInit itself as it initialises: driver calls
     * after its first device call work without the program's cuInit
     * (Rodinia's mummergpu calls cuMemGetInfo after cudaMalloc so). */
    size_t free_bytes = 0, total_bytes = 0;
    CHECK(cuMemGetInfo(&free_bytes, &total_bytes) == CUDA_SUCCESS);
    CHECK(total_bytes > 0 && free_bytes <= total_bytes);
    CHECK(cuInit(0) == CUDA_SUCCESS);
    /* The runtime made the primary context current: driver calls find it
     * without retaining it (cudaFree(0) then cuCtxGetCurrent is how
     * libraries pick up the runtime's context). */
    CUcontext current = 0;
    CHECK(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current != 0);
    unsigned flags = 0;
    int active = 0;
    CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active == 1);
    CUdeviceptr base = 0;
    size_t extent = 0;
    CHECK(cuMemGetAddressRange(&base, &extent, (CUdeviceptr)(size_t)dx) == CUDA_SUCCESS);
    CHECK(base == (CUdeviceptr)(size_t)dx && extent == sizeof x);
    CUcontext primary;
    CHECK(cuDevicePrimaryCtxRetain(&primary, 0) == CUDA_SUCCESS);
    CHECK(primary == current);
    CHECK(cuCtxSetCurrent(primary) == CUDA_SUCCESS);

    CUmodule mod;
    CHECK(cuModuleLoad(&mod, argv[1]) == CUDA_SUCCESS);
    CUfunction saxpy;
    CHECK(cuModuleGetFunction(&saxpy, mod, "saxpy") == CUDA_SUCCESS);

    /* A driver launch on runtime memory and a runtime stream. */
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s) == cudaSuccess);
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done) == cudaSuccess);
    int n = N;
    float a = 3.0f;
    CUdeviceptr px = (CUdeviceptr)(size_t)dx, py = (CUdeviceptr)(size_t)dy;
    void *params[] = {&n, &a, &px, &py};
    CHECK(cuLaunchKernel(saxpy, N / 256, 1, 1, 256, 1, 1, 0, (CUstream)s, params, 0) == CUDA_SUCCESS);
    CHECK(cudaEventRecord(done, s) == cudaSuccess);
    CHECK(cuEventSynchronize((CUevent)done) == CUDA_SUCCESS);
    CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost) == cudaSuccess);
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (y[i] != 3.0f * (float)i + 2.0f)
            bad++;
    CHECK(bad == 0);

    /* Driver memory through the runtime. */
    CUdeviceptr d;
    CHECK(cuMemAlloc(&d, 256) == CUDA_SUCCESS);
    CHECK(cudaMemset((void *)(size_t)d, 7, 256) == cudaSuccess);
    unsigned char back[256];
    CHECK(cuMemcpyDtoH(back, d, sizeof back) == CUDA_SUCCESS);
    CHECK(back[0] == 7 && back[255] == 7);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, (void *)(size_t)d) == cudaSuccess);
    CHECK(attr.type == cudaMemoryTypeDevice);
    unsigned type = 0;
    CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, px) == CUDA_SUCCESS);
    CHECK(type == CU_MEMORYTYPE_DEVICE);
    CHECK(cudaFree((void *)(size_t)d) == cudaSuccess);
    CHECK(cuMemFree(px) == CUDA_SUCCESS);
    CHECK(cudaFree(dx) == cudaErrorInvalidValue); /* already freed */

    /* The driver API has no last error: a failing driver call leaves the
     * runtime's as it was. */
    (void)cudaGetLastError();
    CUfunction none;
    CHECK(cuModuleGetFunction(&none, mod, "missing") == CUDA_ERROR_NOT_FOUND);
    CHECK(cudaGetLastError() == cudaSuccess);

    CHECK(cuModuleUnload(mod) == CUDA_SUCCESS);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(cudaEventDestroy(done) == cudaSuccess);
    CHECK(cudaFree(dy) == cudaSuccess);
    CHECK(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
    if (failures) {
        printf("FAIL mixed_api: %d failures\n", failures);
        return 1;
    }
    printf("PASS mixed_api\n");
    return 0;
}
