// Smooths a vector twice: once with the library's kernel, once with a
// kernel of this file calling the library's device function; then takes a
// dot product with cuBLAS. Prints PASSED when everything matches the host.
#include "stencil.cuh"
#include <cublas_v2.h>
#include <cstdio>
#include <vector>

bool report(const char *what, double got, double want);

__global__ void smooth_twice(const float *in, float *tmp, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * smooth3(in, i, n);
}

int main() {
    const int n = 1000;
    std::vector<float> x(n), ref(n), a(n), b(n);
    for (int i = 0; i < n; i++) x[i] = (float)((i * 37) % 101) / 7.0f;
    for (int i = 0; i < n; i++) {
        float l = i > 0 ? x[i - 1] : x[i], r = i + 1 < n ? x[i + 1] : x[i];
        ref[i] = 0.25f * l + 0.5f * x[i] + 0.25f * r;
    }
    float *dx, *da, *db;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&da, n * sizeof(float));
    cudaMalloc(&db, n * sizeof(float));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    smooth_on_device(dx, da, n, 0);
    smooth_twice<<<(n + 255) / 256, 256>>>(dx, nullptr, db, n);
    cudaMemcpy(a.data(), da, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), db, n * sizeof(float), cudaMemcpyDeviceToHost);

    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        std::printf("cublasCreate failed\n");
        return 1;
    }
    float dot = 0;
    cublasSdot(h, n, da, 1, db, 1, &dot);
    cublasDestroy(h);

    double sa = 0, sb = 0, sd = 0;
    for (int i = 0; i < n; i++) {
        sa += a[i] - ref[i];
        sb += b[i] - 2.0 * ref[i];
        sd += 2.0 * ref[i] * ref[i];
    }
    bool ok = report("library kernel error", sa, 0.0);
    ok &= report("cross-unit device call error", sb, 0.0);
    ok &= report("cublasSdot", dot, sd);
    int version = 0;
    cudaRuntimeGetVersion(&version);
    std::printf("runtime version %d\n", version);
    cudaFree(dx);
    cudaFree(da);
    cudaFree(db);
    std::printf(ok ? "PASSED\n" : "FAILED\n");
    return ok ? 0 : 1;
}
