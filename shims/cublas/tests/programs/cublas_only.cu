// A cuBLAS-only program (no kernels), built by NVIDIA's nvcc against
// cucc's cuBLAS headers and run with `cucc run`: cudaMalloc, Set/GetMatrix,
// Sgemm, Dgemm with a transposed operand, Saxpy, Sdot in device pointer
// mode, and an error code. Prints `PASS cublas_only`.
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CHECK(x) do { int r_ = (int)(x); if (r_ != 0) { \
    printf("%s:%d: %s returned %d\n", __FILE__, __LINE__, #x, r_); return 1; } } while (0)

int main() {
    const int m = 7, n = 5, k = 3, lda = 9, ldb = 4, ldc = 8;
    float hA[lda * k], hB[ldb * n], hC[ldc * n];
    for (int i = 0; i < lda * k; i++) hA[i] = (float)((i * 5) % 9) * 0.5f - 1.0f;
    for (int i = 0; i < ldb * n; i++) hB[i] = (float)((i * 3) % 7) * 0.25f;
    for (int i = 0; i < ldc * n; i++) hC[i] = (float)(i % 4);
    float *A, *B, *C;
    CHECK(cudaMalloc(&A, sizeof(hA)));
    CHECK(cudaMalloc(&B, sizeof(hB)));
    CHECK(cudaMalloc(&C, sizeof(hC)));
    cublasHandle_t h;
    CHECK(cublasCreate(&h));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cublasSetStream(h, s));
    CHECK(cublasSetMatrix(m, k, sizeof(float), hA, lda, A, lda));
    CHECK(cublasSetMatrix(k, n, sizeof(float), hB, ldb, B, ldb));
    CHECK(cublasSetMatrix(m, n, sizeof(float), hC, ldc, C, ldc));
    float alpha = 2.0f, beta = -1.0f;
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc));
    float out[ldc * n];
    CHECK(cudaStreamSynchronize(s));
    CHECK(cublasGetMatrix(m, n, sizeof(float), C, ldc, out, ldc));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float acc = 0.0f;
            for (int p = 0; p < k; p++) acc += hA[i + p * lda] * hB[p + j * ldb];
            float want = alpha * acc + beta * hC[i + j * ldc];
            if (std::fabs(out[i + j * ldc] - want) > 1e-4f) {
                printf("Sgemm (%d,%d): %g != %g\n", i, j, out[i + j * ldc], want);
                return 1;
            }
        }

    // Dgemm: C2 = A2^T * A2 (3x3), A2 is 4x3.
    double hA2[12], hC2[9];
    for (int i = 0; i < 12; i++) hA2[i] = i * 0.5 - 2.0;
    double *A2, *C2;
    CHECK(cudaMalloc(&A2, sizeof(hA2)));
    CHECK(cudaMalloc(&C2, sizeof(hC2)));
    CHECK(cudaMemcpy(A2, hA2, sizeof(hA2), cudaMemcpyHostToDevice));
    double one = 1.0, zero = 0.0;
    CHECK(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 3, 3, 4, &one, A2, 4, A2, 4, &zero, C2, 3));
    CHECK(cudaMemcpyAsync(hC2, C2, sizeof(hC2), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double acc = 0.0;
            for (int p = 0; p < 4; p++) acc += hA2[p + i * 4] * hA2[p + j * 4];
            if (std::fabs(hC2[i + j * 3] - acc) > 1e-12) { printf("Dgemm (%d,%d)\n", i, j); return 1; }
        }

    // Saxpy, then Sdot with the result left in device memory.
    float hx[16], hy[16];
    for (int i = 0; i < 16; i++) { hx[i] = (float)i; hy[i] = 1.0f; }
    float *x, *y, *r;
    CHECK(cudaMalloc(&x, sizeof(hx)));
    CHECK(cudaMalloc(&y, sizeof(hy)));
    CHECK(cudaMalloc(&r, sizeof(float)));
    CHECK(cublasSetVector(16, sizeof(float), hx, 1, x, 1));
    CHECK(cublasSetVector(16, sizeof(float), hy, 1, y, 1));
    float three = 3.0f;
    CHECK(cublasSaxpy(h, 16, &three, x, 1, y, 1));
    CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK(cublasSdot(h, 16, x, 1, y, 1, r));
    float dot = 0.0f;
    CHECK(cudaMemcpyAsync(&dot, r, sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    float want = 0.0f;
    for (int i = 0; i < 16; i++) want += hx[i] * (3.0f * hx[i] + 1.0f);
    if (dot != want) { printf("Sdot %g != %g\n", dot, want); return 1; }

    if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, 2, B, ldb, &beta, C, ldc) !=
        CUBLAS_STATUS_INVALID_VALUE) { printf("lda < m accepted\n"); return 1; }
    CHECK(cublasDestroy(h));
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(A2); cudaFree(C2);
    cudaFree(x); cudaFree(y); cudaFree(r);
    printf("PASS cublas_only\n");
    return 0;
}
