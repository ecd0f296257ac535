// corpus: runtime-api
// The OpenGL interop API (cuda_gl_interop.h, included as Rodinia's
// hybridsort includes OpenGL headers) links and answers with errors a
// program can handle: registering a GL object is not supported, no
// resource can be mapped, and no CUDA device drives the GL context. The
// program's kernels still run.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

__global__ void add_one(int *x) { x[threadIdx.x] += 1; }

static int expect(cudaError_t got, cudaError_t want, const char *what) {
    if (got != want) {
        printf("FAIL %s: %d (%s), expected %d\n", what, (int)got, cudaGetErrorString(got), (int)want);
        return 1;
    }
    return 0;
}

int main() {
    int bad = 0;
    cudaGraphicsResource_t res = 0;
    bad |= expect(cudaGraphicsGLRegisterBuffer(&res, 1, cudaGraphicsRegisterFlagsNone),
                  cudaErrorNotSupported, "cudaGraphicsGLRegisterBuffer");
    bad |= expect(cudaGraphicsGLRegisterImage(&res, 1, 0x0DE1 /* GL_TEXTURE_2D */, 0),
                  cudaErrorNotSupported, "cudaGraphicsGLRegisterImage");
    bad |= expect(cudaGetLastError(), cudaErrorNotSupported, "cudaGetLastError after a failure");
    bad |= expect(cudaGetLastError(), cudaSuccess, "cudaGetLastError cleared");
    bad |= expect(cudaGraphicsMapResources(1, &res, 0), cudaErrorInvalidResourceHandle,
                  "cudaGraphicsMapResources");
    void *p = 0;
    size_t size = 0;
    bad |= expect(cudaGraphicsResourceGetMappedPointer(&p, &size, res),
                  cudaErrorInvalidResourceHandle, "cudaGraphicsResourceGetMappedPointer");
    bad |= expect(cudaGraphicsUnregisterResource(res), cudaErrorInvalidResourceHandle,
                  "cudaGraphicsUnregisterResource");
    unsigned int count = 7;
    int devices[1];
    bad |= expect(cudaGLGetDevices(&count, devices, 1, cudaGLDeviceListAll), cudaErrorNoDevice,
                  "cudaGLGetDevices");
    if (count != 0) {
        printf("FAIL cudaGLGetDevices count %u\n", count);
        bad = 1;
    }
    cudaGetLastError();
    int h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    add_one<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; i++)
        if (h[i] != i + 2) {
            printf("FAIL kernel %d: %d\n", i, h[i]);
            bad = 1;
        }
    if (bad)
        return 1;
    printf("PASS gl_interop_unsupported\n");
    return 0;
}
