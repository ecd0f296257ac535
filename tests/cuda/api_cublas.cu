// corpus: runtime-api
// cucc-flags: -lcublas
// cuBLAS in a stream with kernels: a kernel fills the matrices, then
// cublasSgemm/Dgemm, axpy, dot (device pointer mode), gemv and geam run in
// the same stream, and a second kernel consumes the GEMM result. Every step
// is checked on the host against a plain loop (tolerance 1e-4 relative for
// float, 1e-10 for double). Also: status codes for bad arguments, and
// Set/GetMatrix round trips with leading dimensions larger than the rows.
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CHECK_CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)
#define CHECK_BLAS(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cublasGetStatusName(s_)); return 1; } } while (0)

template <typename T>
__global__ void fill(T *a, int rows, int cols, int ld, T scale, T shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y;
    if (i < rows && j < cols) a[i + j * ld] = scale * (T)((i * 7 + j * 3) % 11) + shift;
}

// Adds 1 to every element of an m x n matrix, after the GEMM in stream order.
template <typename T>
__global__ void add_one(T *c, int m, int n, int ld) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y;
    if (i < m && j < n) c[i + j * ld] += (T)1;
}

template <typename T>
T host_val(int i, int j, T scale, T shift) { return scale * (T)((i * 7 + j * 3) % 11) + shift; }

template <typename T>
int close(T got, T want, double tol) {
    return std::fabs((double)got - (double)want) <= tol * (1.0 + std::fabs((double)want));
}

// C = alpha * op(A) op(B) + beta * C on the stream, then C += 1 by a kernel.
template <typename T, typename Gemm>
int check_gemm(cublasHandle_t h, cudaStream_t s, Gemm gemm, double tol, const char *what) {
    const int m = 7, n = 5, k = 3;
    const int lda = 9, ldb = 6, ldc = 8; // op(A)=A^T: A is k x m; op(B)=B: k x n
    T *A, *B, *C;
    CHECK_CUDA(cudaMalloc(&A, sizeof(T) * lda * m));
    CHECK_CUDA(cudaMalloc(&B, sizeof(T) * ldb * n));
    CHECK_CUDA(cudaMalloc(&C, sizeof(T) * ldc * n));
    fill<T><<<dim3(1, m), 32, 0, s>>>(A, k, m, lda, (T)0.5, (T)-1);
    fill<T><<<dim3(1, n), 32, 0, s>>>(B, k, n, ldb, (T)0.25, (T)0.5);
    fill<T><<<dim3(1, n), 32, 0, s>>>(C, m, n, ldc, (T)1, (T)0);
    T alpha = (T)1.5, beta = (T)-0.5;
    CHECK_BLAS(gemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc));
    add_one<T><<<dim3(1, n), 32, 0, s>>>(C, m, n, ldc);
    T out[8 * 5];
    CHECK_CUDA(cudaMemcpyAsync(out, C, sizeof(out), cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            T acc = 0;
            for (int p = 0; p < k; p++)
                acc += host_val<T>(p, i, (T)0.5, (T)-1) * host_val<T>(p, j, (T)0.25, (T)0.5);
            T want = alpha * acc + beta * host_val<T>(i, j, (T)1, (T)0) + (T)1;
            if (!close(out[i + j * ldc], want, tol)) {
                printf("%s: C(%d,%d) = %g, want %g\n", what, i, j, (double)out[i + j * ldc],
                       (double)want);
                return 1;
            }
        }
    cudaFree(A); cudaFree(B); cudaFree(C);
    return 0;
}

int main() {
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    CHECK_BLAS(cublasSetStream(h, s));
    cudaStream_t got_stream = 0;
    CHECK_BLAS(cublasGetStream(h, &got_stream));
    if (got_stream != s) { printf("cublasGetStream\n"); return 1; }
    int version = 0;
    CHECK_BLAS(cublasGetVersion(h, &version));
    if (version < 130000) { printf("version %d\n", version); return 1; }

    if (check_gemm<float>(h, s, cublasSgemm, 1e-5, "Sgemm")) return 1;
    if (check_gemm<double>(h, s, cublasDgemm, 1e-12, "Dgemm")) return 1;

    // axpy then dot in device pointer mode; the scalars live in device memory.
    const int n = 1000;
    float *x, *y, *scalars;
    CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&y, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&scalars, 2 * sizeof(float)));
    fill<float><<<dim3((n + 127) / 128, 1), 128, 0, s>>>(x, n, 1, n, 1.0f, 0.0f);
    fill<float><<<dim3((n + 127) / 128, 1), 128, 0, s>>>(y, n, 1, n, -1.0f, 2.0f);
    float two = 2.0f;
    CHECK_CUDA(cudaMemcpyAsync(scalars, &two, sizeof(float), cudaMemcpyHostToDevice, s));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_BLAS(cublasSaxpy(h, n, scalars, x, 1, y, 1)); // y = 2x + y
    CHECK_BLAS(cublasSdot(h, n, x, 1, y, 1, scalars + 1));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    float dot_dev = 0.0f;
    CHECK_CUDA(cudaMemcpyAsync(&dot_dev, scalars + 1, sizeof(float), cudaMemcpyDeviceToHost, s));
    // Host pointer mode: the call returns with the result in host memory.
    float nrm = 0.0f;
    CHECK_BLAS(cublasSnrm2(h, n, y, 1, &nrm));
    int imax = 0;
    CHECK_BLAS(cublasIsamax(h, n, y, 1, &imax));
    CHECK_CUDA(cudaStreamSynchronize(s));
    double want_dot = 0.0, want_nrm = 0.0, best = -1.0;
    int want_imax = 0;
    for (int i = 0; i < n; i++) {
        double xi = (i * 7) % 11, yi = 2.0 * xi + (-1.0 * xi + 2.0);
        want_dot += xi * yi;
        want_nrm += yi * yi;
        if (std::fabs(yi) > best) { best = std::fabs(yi); want_imax = i + 1; }
    }
    if (!close<double>(dot_dev, want_dot, 1e-5) || !close<double>(nrm, std::sqrt(want_nrm), 1e-5) ||
        imax != want_imax) {
        printf("axpy/dot/nrm2/isamax: %g %g %g %g %d %d\n", dot_dev, want_dot, nrm,
               std::sqrt(want_nrm), imax, want_imax);
        return 1;
    }

    // gemv with a transposed A, and geam transposing in one step.
    {
        const int m = 6, k = 4, lda = 7;
        double *A, *v, *w, *T;
        CHECK_CUDA(cudaMalloc(&A, sizeof(double) * lda * k));
        CHECK_CUDA(cudaMalloc(&v, sizeof(double) * m));
        CHECK_CUDA(cudaMalloc(&w, sizeof(double) * k));
        CHECK_CUDA(cudaMalloc(&T, sizeof(double) * k * m));
        double hA[7 * 4], hv[6];
        for (int j = 0; j < k; j++)
            for (int i = 0; i < lda; i++) hA[i + j * lda] = i < m ? i - 2.0 * j : 1e30;
        for (int i = 0; i < m; i++) hv[i] = 0.5 * i + 1;
        CHECK_BLAS(cublasSetMatrix(m, k, sizeof(double), hA, lda, A, lda));
        CHECK_BLAS(cublasSetVector(m, sizeof(double), hv, 1, v, 1));
        double one = 1.0, zero = 0.0;
        CHECK_BLAS(cublasDgemv(h, CUBLAS_OP_T, m, k, &one, A, lda, v, 1, &zero, w, 1));
        CHECK_BLAS(cublasDgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, k, m, &one, A, lda, &zero, NULL, k, T, k));
        double hw[4], hT[4 * 6];
        CHECK_CUDA(cudaStreamSynchronize(s));
        CHECK_BLAS(cublasGetVector(k, sizeof(double), w, 1, hw, 1));
        CHECK_BLAS(cublasGetMatrix(k, m, sizeof(double), T, k, hT, k));
        for (int j = 0; j < k; j++) {
            double acc = 0;
            for (int i = 0; i < m; i++) {
                acc += hA[i + j * lda] * hv[i];
                if (hT[j + i * k] != hA[i + j * lda]) { printf("geam (%d,%d)\n", i, j); return 1; }
            }
            if (!close(hw[j], acc, 1e-12)) { printf("gemv %d: %g %g\n", j, hw[j], acc); return 1; }
        }
        cudaFree(A); cudaFree(v); cudaFree(w); cudaFree(T);
    }

    // Errors, with cuBLAS's codes.
    float one_f = 1.0f;
    if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one_f, x, 3, y, 4, &one_f, x, 4) !=
        CUBLAS_STATUS_INVALID_VALUE) { printf("lda < m accepted\n"); return 1; }
    if (cublasSgemv(h, CUBLAS_OP_N, 2, 2, &one_f, x, 2, y, 0, &one_f, x, 1) !=
        CUBLAS_STATUS_INVALID_VALUE) { printf("incx == 0 accepted\n"); return 1; }
    if (cublasSaxpy(NULL, 1, &one_f, x, 1, y, 1) != CUBLAS_STATUS_NOT_INITIALIZED) {
        printf("null handle accepted\n"); return 1;
    }
    if (cublasSetPointerMode(h, (cublasPointerMode_t)5) != CUBLAS_STATUS_INVALID_VALUE) {
        printf("bad pointer mode accepted\n"); return 1;
    }

    cudaFree(x); cudaFree(y); cudaFree(scalars);
    CHECK_BLAS(cublasDestroy(h));
    if (cublasDestroy(h) != CUBLAS_STATUS_NOT_INITIALIZED) { printf("double destroy\n"); return 1; }
    CHECK_CUDA(cudaStreamDestroy(s));
    printf("PASS api_cublas\n");
    return 0;
}
