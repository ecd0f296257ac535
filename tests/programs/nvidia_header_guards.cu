// Real code tests the include guards of NVIDIA's headers: the samples'
// helper_cuda.h compiles its error-string helpers only `#ifdef
// __DRIVER_TYPES_H__`, and libraries pick fallbacks for half or complex
// types when `__CUDA_FP16_H__` or `CU_COMPLEX_H_` is missing. cucc's
// headers define the same macros. Prints PASS.
#include <cstdio>
#include <string_view>
#include <cuda_runtime.h>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuComplex.h>
#include <math_constants.h>
#include <vector_functions.h>

#if !defined(__CUDA_RUNTIME_H__) || !defined(__CUDA_RUNTIME_API_H__) || \
    !defined(__DRIVER_TYPES_H__) || !defined(__VECTOR_TYPES_H__) ||    \
    !defined(__cuda_cuda_h__) || !defined(__DEVICE_LAUNCH_PARAMETERS_H__) || \
    !defined(__CUDA_FP16_H__) || !defined(__CUDA_BF16_H__) ||           \
    !defined(__TEXTURE_TYPES_H__) || !defined(__MATH_CONSTANTS_H__) ||  \
    !defined(__DEVICE_TYPES_H__) || !defined(__VECTOR_FUNCTIONS_H__) || \
    !defined(CU_COMPLEX_H_)
#error "an include guard of NVIDIA's headers is missing"
#endif

/* As helper_cuda.h writes it: only with the runtime's types in scope. */
#ifdef __DRIVER_TYPES_H__
static const char *error_name(cudaError_t e) { return cudaGetErrorName(e); }
#define CHECK_CUDA(call) check((call), #call)
static int check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        printf("FAIL %s: %s\n", what, error_name(e));
        return 1;
    }
    return 0;
}
#endif

__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
    float h[32], *d = 0;
    for (int i = 0; i < 32; i++) h[i] = (float)i;
    int bad = CHECK_CUDA(cudaMalloc(&d, sizeof h));
    bad += CHECK_CUDA(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    twice<<<1, 32>>>(d);
    bad += CHECK_CUDA(cudaGetLastError());
    bad += CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) bad += h[i] != 2.0f * (float)i;
    /* A failing call reaches the helper with CUDA's error name. */
    if (std::string_view(error_name(cudaFree((void *)0x10))) != "cudaErrorInvalidValue") bad++;
    cudaFree(d);
    if (bad) {
        printf("FAIL %d\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
