// The CUDA part of the extension: y = a*x + y on the device, summed on the host.
#include <cuda_runtime.h>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// Returns the sum of y after one saxpy with x[i] = i, y[i] = 1, or -1 on a
// CUDA error.
extern "C" double saxpy_sum(int n, float a) {
    std::vector<float> x(n), y(n, 1.0f);
    for (int i = 0; i < n; i++) x[i] = (float)i;
    float *dx = nullptr, *dy = nullptr;
    if (cudaMalloc(&dx, n * sizeof(float)) != cudaSuccess) return -1;
    if (cudaMalloc(&dy, n * sizeof(float)) != cudaSuccess) return -1;
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
    if (cudaGetLastError() != cudaSuccess) return -1;
    cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dx);
    cudaFree(dy);
    double s = 0;
    for (int i = 0; i < n; i++) s += y[i];
    return s;
}
