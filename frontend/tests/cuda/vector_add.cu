// Vector addition with a host main that launches through <<<>>>.
#include <cuda_runtime.h>
#include <iostream>
#include <vector>

__global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main() {
    const int n = 1000;
    std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n);
    float *da, *db, *dc;
    cudaMalloc(&da, n * sizeof(float));
    cudaMalloc(&db, n * sizeof(float));
    cudaMalloc(&dc, n * sizeof(float));
    cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(256);
    dim3 grid((n + block.x - 1) / block.x);
    vadd<<<grid, block>>>(da, db, dc, n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        std::cerr << cudaGetErrorString(err) << std::endl;
        return 1;
    }
    cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    for (int i = 0; i < n; ++i)
        if (c[i] != 3.0f)
            return 1;
    std::cout << "ok" << std::endl;
    return 0;
}
