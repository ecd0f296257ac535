/* cucc: the cuBLAS API (types, enums with NVIDIA's values, and the entry
 * points libcublas.so.13 implements). Include cublas_v2.h, which maps the
 * usual names (cublasSgemm, ...) to the _v2 symbols. Part of cucc's own
 * CUDA headers; it also compiles with NVIDIA's nvcc and CUDA headers. */
#ifndef CUBLAS_API_H_
#define CUBLAS_API_H_

#include <stddef.h>
#include "driver_types.h"
#include "cuComplex.h"

#if defined(__cplusplus)
#include "cuda_fp16.h"
#else
struct __half;
typedef struct __half __half;
#endif

/* cudaDataType and libraryPropertyType: from library_types.h when there is
 * one (NVIDIA's headers), otherwise defined here with the same values. */
#if defined(__has_include)
#if __has_include(<library_types.h>)
#include <library_types.h>
#endif
#endif
#if !defined(__LIBRARY_TYPES_H__)
#define __LIBRARY_TYPES_H__
typedef enum cudaDataType_t {
    CUDA_R_16F = 2, CUDA_C_16F = 6, CUDA_R_16BF = 14, CUDA_C_16BF = 15,
    CUDA_R_32F = 0, CUDA_C_32F = 4, CUDA_R_64F = 1, CUDA_C_64F = 5,
    CUDA_R_4I = 16, CUDA_C_4I = 17, CUDA_R_4U = 18, CUDA_C_4U = 19,
    CUDA_R_8I = 3, CUDA_C_8I = 7, CUDA_R_8U = 8, CUDA_C_8U = 9,
    CUDA_R_16I = 20, CUDA_C_16I = 21, CUDA_R_16U = 22, CUDA_C_16U = 23,
    CUDA_R_32I = 10, CUDA_C_32I = 11, CUDA_R_32U = 12, CUDA_C_32U = 13,
    CUDA_R_64I = 24, CUDA_C_64I = 25, CUDA_R_64U = 26, CUDA_C_64U = 27,
    CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 = 29
} cudaDataType;
typedef enum libraryPropertyType_t {
    MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
} libraryPropertyType;
#endif

#ifndef CUBLASAPI
#define CUBLASAPI
#endif
#ifndef CUBLASWINAPI
#define CUBLASWINAPI
#endif

#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 1
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VER_BUILD 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

#if defined(__cplusplus)
extern "C" {
#endif

typedef enum {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
    CUBLAS_OP_N = 0,
    CUBLAS_OP_T = 1,
    CUBLAS_OP_C = 2,
    CUBLAS_OP_HERMITAN = 2,
    CUBLAS_OP_CONJG = 3 /* rejected, as by cuBLAS */
} cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;

typedef enum {
    CUBLAS_GEMM_DFALT = -1,
    CUBLAS_GEMM_DEFAULT = -1,
    CUBLAS_GEMM_ALGO0 = 0, CUBLAS_GEMM_ALGO1 = 1, CUBLAS_GEMM_ALGO2 = 2, CUBLAS_GEMM_ALGO3 = 3,
    CUBLAS_GEMM_ALGO4 = 4, CUBLAS_GEMM_ALGO5 = 5, CUBLAS_GEMM_ALGO6 = 6, CUBLAS_GEMM_ALGO7 = 7,
    CUBLAS_GEMM_ALGO8 = 8, CUBLAS_GEMM_ALGO9 = 9, CUBLAS_GEMM_ALGO10 = 10,
    CUBLAS_GEMM_ALGO11 = 11, CUBLAS_GEMM_ALGO12 = 12, CUBLAS_GEMM_ALGO13 = 13,
    CUBLAS_GEMM_ALGO14 = 14, CUBLAS_GEMM_ALGO15 = 15, CUBLAS_GEMM_ALGO16 = 16,
    CUBLAS_GEMM_ALGO17 = 17, CUBLAS_GEMM_ALGO18 = 18, CUBLAS_GEMM_ALGO19 = 19,
    CUBLAS_GEMM_ALGO20 = 20, CUBLAS_GEMM_ALGO21 = 21, CUBLAS_GEMM_ALGO22 = 22,
    CUBLAS_GEMM_ALGO23 = 23,
    CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
    CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
    CUBLAS_GEMM_ALGO0_TENSOR_OP = 100, CUBLAS_GEMM_ALGO1_TENSOR_OP = 101,
    CUBLAS_GEMM_ALGO2_TENSOR_OP = 102, CUBLAS_GEMM_ALGO3_TENSOR_OP = 103,
    CUBLAS_GEMM_ALGO4_TENSOR_OP = 104, CUBLAS_GEMM_ALGO5_TENSOR_OP = 105,
    CUBLAS_GEMM_ALGO6_TENSOR_OP = 106, CUBLAS_GEMM_ALGO7_TENSOR_OP = 107,
    CUBLAS_GEMM_ALGO8_TENSOR_OP = 108, CUBLAS_GEMM_ALGO9_TENSOR_OP = 109,
    CUBLAS_GEMM_ALGO10_TENSOR_OP = 110, CUBLAS_GEMM_ALGO11_TENSOR_OP = 111,
    CUBLAS_GEMM_ALGO12_TENSOR_OP = 112, CUBLAS_GEMM_ALGO13_TENSOR_OP = 113,
    CUBLAS_GEMM_ALGO14_TENSOR_OP = 114, CUBLAS_GEMM_ALGO15_TENSOR_OP = 115,
    CUBLAS_GEMM_AUTOTUNE = 999
} cublasGemmAlgo_t;

typedef enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3,
    CUBLAS_FP32_EMULATED_BF16X9_MATH = 4,
    CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8,
    CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

typedef cudaDataType cublasDataType_t;

typedef enum {
    CUBLAS_COMPUTE_16F = 64,
    CUBLAS_COMPUTE_16F_PEDANTIC = 65,
    CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_PEDANTIC = 69,
    CUBLAS_COMPUTE_32F_FAST_16F = 74,
    CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
    CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
    CUBLAS_COMPUTE_64F = 70,
    CUBLAS_COMPUTE_64F_PEDANTIC = 71,
    CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT = 79,
    CUBLAS_COMPUTE_32I = 72,
    CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

struct cublasContext;
typedef struct cublasContext *cublasHandle_t;

/* Handles and settings */
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t *handle);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetVersion_v2(cublasHandle_t handle, int *version);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetProperty(libraryPropertyType type, int *value);
CUBLASAPI size_t CUBLASWINAPI cublasGetCudartVersion(void);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetWorkspace_v2(
    cublasHandle_t handle, void *workspace, size_t workspaceSizeInBytes);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetPointerMode_v2(
    cublasHandle_t handle, cublasPointerMode_t *mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetPointerMode_v2(
    cublasHandle_t handle, cublasPointerMode_t mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetAtomicsMode(
    cublasHandle_t handle, cublasAtomicsMode_t *mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetAtomicsMode(
    cublasHandle_t handle, cublasAtomicsMode_t mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
CUBLASAPI const char *CUBLASWINAPI cublasGetStatusName(cublasStatus_t status);
CUBLASAPI const char *CUBLASWINAPI cublasGetStatusString(cublasStatus_t status);

/* Host <-> device transfers */
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetVector(
    int n, int elemSize, const void *x, int incx, void *devicePtr, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetVector(
    int n, int elemSize, const void *x, int incx, void *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetMatrix(
    int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetMatrix(
    int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetVectorAsync(
    int n, int elemSize, const void *hostPtr, int incx, void *devicePtr, int incy,
    cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetVectorAsync(
    int n, int elemSize, const void *devicePtr, int incx, void *hostPtr, int incy,
    cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetMatrixAsync(
    int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
    cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetMatrixAsync(
    int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
    cudaStream_t stream);

/* Level 1 */
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSnrm2_v2(
    cublasHandle_t handle, int n, const float *x, int incx, float *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSdot_v2(
    cublasHandle_t handle, int n, const float *x, int incx, const float *y, int incy,
    float *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSscal_v2(
    cublasHandle_t handle, int n, const float *alpha, float *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSaxpy_v2(
    cublasHandle_t handle, int n, const float *alpha, const float *x, int incx, float *y,
    int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasScopy_v2(
    cublasHandle_t handle, int n, const float *x, int incx, float *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSswap_v2(
    cublasHandle_t handle, int n, float *x, int incx, float *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIsamax_v2(
    cublasHandle_t handle, int n, const float *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIsamin_v2(
    cublasHandle_t handle, int n, const float *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSasum_v2(
    cublasHandle_t handle, int n, const float *x, int incx, float *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrot_v2(
    cublasHandle_t handle, int n, float *x, int incx, float *y, int incy, const float *c,
    const float *s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrotg_v2(
    cublasHandle_t handle, float *a, float *b, float *c, float *s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrotm_v2(
    cublasHandle_t handle, int n, float *x, int incx, float *y, int incy, const float *param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrotmg_v2(
    cublasHandle_t handle, float *d1, float *d2, float *x1, const float *y1, float *param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDnrm2_v2(
    cublasHandle_t handle, int n, const double *x, int incx, double *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDdot_v2(
    cublasHandle_t handle, int n, const double *x, int incx, const double *y, int incy,
    double *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDscal_v2(
    cublasHandle_t handle, int n, const double *alpha, double *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDaxpy_v2(
    cublasHandle_t handle, int n, const double *alpha, const double *x, int incx, double *y,
    int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDcopy_v2(
    cublasHandle_t handle, int n, const double *x, int incx, double *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDswap_v2(
    cublasHandle_t handle, int n, double *x, int incx, double *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIdamax_v2(
    cublasHandle_t handle, int n, const double *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIdamin_v2(
    cublasHandle_t handle, int n, const double *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDasum_v2(
    cublasHandle_t handle, int n, const double *x, int incx, double *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrot_v2(
    cublasHandle_t handle, int n, double *x, int incx, double *y, int incy, const double *c,
    const double *s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrotg_v2(
    cublasHandle_t handle, double *a, double *b, double *c, double *s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrotm_v2(
    cublasHandle_t handle, int n, double *x, int incx, double *y, int incy,
    const double *param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrotmg_v2(
    cublasHandle_t handle, double *d1, double *d2, double *x1, const double *y1, double *param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasScnrm2_v2(
    cublasHandle_t handle, int n, const cuComplex *x, int incx, float *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCdotu_v2(
    cublasHandle_t handle, int n, const cuComplex *x, int incx, const cuComplex *y, int incy,
    cuComplex *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCdotc_v2(
    cublasHandle_t handle, int n, const cuComplex *x, int incx, const cuComplex *y, int incy,
    cuComplex *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCscal_v2(
    cublasHandle_t handle, int n, const cuComplex *alpha, cuComplex *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsscal_v2(
    cublasHandle_t handle, int n, const float *alpha, cuComplex *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCaxpy_v2(
    cublasHandle_t handle, int n, const cuComplex *alpha, const cuComplex *x, int incx,
    cuComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCcopy_v2(
    cublasHandle_t handle, int n, const cuComplex *x, int incx, cuComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCswap_v2(
    cublasHandle_t handle, int n, cuComplex *x, int incx, cuComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIcamax_v2(
    cublasHandle_t handle, int n, const cuComplex *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIcamin_v2(
    cublasHandle_t handle, int n, const cuComplex *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasScasum_v2(
    cublasHandle_t handle, int n, const cuComplex *x, int incx, float *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCrot_v2(
    cublasHandle_t handle, int n, cuComplex *x, int incx, cuComplex *y, int incy,
    const float *c, const cuComplex *s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsrot_v2(
    cublasHandle_t handle, int n, cuComplex *x, int incx, cuComplex *y, int incy,
    const float *c, const float *s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDznrm2_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *x, int incx, double *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdotu_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *x, int incx, const cuDoubleComplex *y,
    int incy, cuDoubleComplex *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdotc_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *x, int incx, const cuDoubleComplex *y,
    int incy, cuDoubleComplex *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZscal_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *alpha, cuDoubleComplex *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdscal_v2(
    cublasHandle_t handle, int n, const double *alpha, cuDoubleComplex *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZaxpy_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *alpha, const cuDoubleComplex *x,
    int incx, cuDoubleComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZcopy_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *x, int incx, cuDoubleComplex *y,
    int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZswap_v2(
    cublasHandle_t handle, int n, cuDoubleComplex *x, int incx, cuDoubleComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIzamax_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIzamin_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *x, int incx, int *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDzasum_v2(
    cublasHandle_t handle, int n, const cuDoubleComplex *x, int incx, double *result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZrot_v2(
    cublasHandle_t handle, int n, cuDoubleComplex *x, int incx, cuDoubleComplex *y, int incy,
    const double *c, const cuDoubleComplex *s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdrot_v2(
    cublasHandle_t handle, int n, cuDoubleComplex *x, int incx, cuDoubleComplex *y, int incy,
    const double *c, const double *s);

/* Level 2 */
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemv_v2(
    cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float *alpha,
    const float *A, int lda, const float *x, int incx, const float *beta, float *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSger_v2(
    cublasHandle_t handle, int m, int n, const float *alpha, const float *x, int incx,
    const float *y, int incy, float *A, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsymv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, int n, const float *alpha, const float *A,
    int lda, const float *x, int incx, const float *beta, float *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrsv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
    cublasDiagType_t diag, int n, const float *A, int lda, float *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemv_v2(
    cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double *alpha,
    const double *A, int lda, const double *x, int incx, const double *beta, double *y,
    int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDger_v2(
    cublasHandle_t handle, int m, int n, const double *alpha, const double *x, int incx,
    const double *y, int incy, double *A, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsymv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, int n, const double *alpha, const double *A,
    int lda, const double *x, int incx, const double *beta, double *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrsv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
    cublasDiagType_t diag, int n, const double *A, int lda, double *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemv_v2(
    cublasHandle_t handle, cublasOperation_t trans, int m, int n, const cuComplex *alpha,
    const cuComplex *A, int lda, const cuComplex *x, int incx, const cuComplex *beta,
    cuComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgeru_v2(
    cublasHandle_t handle, int m, int n, const cuComplex *alpha, const cuComplex *x, int incx,
    const cuComplex *y, int incy, cuComplex *A, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgerc_v2(
    cublasHandle_t handle, int m, int n, const cuComplex *alpha, const cuComplex *x, int incx,
    const cuComplex *y, int incy, cuComplex *A, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsymv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, int n, const cuComplex *alpha,
    const cuComplex *A, int lda, const cuComplex *x, int incx, const cuComplex *beta,
    cuComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrsv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
    cublasDiagType_t diag, int n, const cuComplex *A, int lda, cuComplex *x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemv_v2(
    cublasHandle_t handle, cublasOperation_t trans, int m, int n, const cuDoubleComplex *alpha,
    const cuDoubleComplex *A, int lda, const cuDoubleComplex *x, int incx,
    const cuDoubleComplex *beta, cuDoubleComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgeru_v2(
    cublasHandle_t handle, int m, int n, const cuDoubleComplex *alpha, const cuDoubleComplex *x,
    int incx, const cuDoubleComplex *y, int incy, cuDoubleComplex *A, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgerc_v2(
    cublasHandle_t handle, int m, int n, const cuDoubleComplex *alpha, const cuDoubleComplex *x,
    int incx, const cuDoubleComplex *y, int incy, cuDoubleComplex *A, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsymv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, int n, const cuDoubleComplex *alpha,
    const cuDoubleComplex *A, int lda, const cuDoubleComplex *x, int incx,
    const cuDoubleComplex *beta, cuDoubleComplex *y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrsv_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
    cublasDiagType_t diag, int n, const cuDoubleComplex *A, int lda, cuDoubleComplex *x,
    int incx);

/* Level 3 */
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemm_v2(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
    const float *beta, float *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsymm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n,
    const float *alpha, const float *A, int lda, const float *B, int ldb, const float *beta,
    float *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsyrk_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
    const float *alpha, const float *A, int lda, const float *beta, float *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrsm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float *alpha,
    const float *A, int lda, float *B, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrmm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float *alpha,
    const float *A, int lda, const float *B, int ldb, float *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemm_v2(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const double *alpha, const double *A, int lda, const double *B, int ldb,
    const double *beta, double *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsymm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n,
    const double *alpha, const double *A, int lda, const double *B, int ldb, const double *beta,
    double *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsyrk_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
    const double *alpha, const double *A, int lda, const double *beta, double *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrsm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double *alpha,
    const double *A, int lda, double *B, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrmm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double *alpha,
    const double *A, int lda, const double *B, int ldb, double *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemm_v2(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuComplex *alpha, const cuComplex *A, int lda, const cuComplex *B, int ldb,
    const cuComplex *beta, cuComplex *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsymm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n,
    const cuComplex *alpha, const cuComplex *A, int lda, const cuComplex *B, int ldb,
    const cuComplex *beta, cuComplex *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyrk_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
    const cuComplex *alpha, const cuComplex *A, int lda, const cuComplex *beta, cuComplex *C,
    int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrsm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuComplex *alpha,
    const cuComplex *A, int lda, cuComplex *B, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrmm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuComplex *alpha,
    const cuComplex *A, int lda, const cuComplex *B, int ldb, cuComplex *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemm_v2(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
    const cuDoubleComplex *B, int ldb, const cuDoubleComplex *beta, cuDoubleComplex *C,
    int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsymm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n,
    const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda, const cuDoubleComplex *B,
    int ldb, const cuDoubleComplex *beta, cuDoubleComplex *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsyrk_v2(
    cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
    const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
    const cuDoubleComplex *beta, cuDoubleComplex *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrsm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuDoubleComplex *alpha,
    const cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrmm_v2(
    cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuDoubleComplex *alpha,
    const cuDoubleComplex *A, int lda, const cuDoubleComplex *B, int ldb, cuDoubleComplex *C,
    int ldc);

/* BLAS-like extensions */
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgeam(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    const float *alpha, const float *A, int lda, const float *beta, const float *B, int ldb,
    float *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemmBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const float *alpha, const float *const Aarray[], int lda,
    const float *const Barray[], int ldb, const float *beta, float *const Carray[], int ldc,
    int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemmStridedBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const float *alpha, const float *A, int lda, long long int strideA, const float *B,
    int ldb, long long int strideB, const float *beta, float *C, int ldc, long long int strideC,
    int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgeam(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    const double *alpha, const double *A, int lda, const double *beta, const double *B, int ldb,
    double *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemmBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const double *alpha, const double *const Aarray[], int lda,
    const double *const Barray[], int ldb, const double *beta, double *const Carray[], int ldc,
    int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemmStridedBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const double *alpha, const double *A, int lda, long long int strideA,
    const double *B, int ldb, long long int strideB, const double *beta, double *C, int ldc,
    long long int strideC, int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgeam(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    const cuComplex *alpha, const cuComplex *A, int lda, const cuComplex *beta,
    const cuComplex *B, int ldb, cuComplex *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemmBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuComplex *alpha, const cuComplex *const Aarray[], int lda,
    const cuComplex *const Barray[], int ldb, const cuComplex *beta, cuComplex *const Carray[],
    int ldc, int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemmStridedBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuComplex *alpha, const cuComplex *A, int lda, long long int strideA,
    const cuComplex *B, int ldb, long long int strideB, const cuComplex *beta, cuComplex *C,
    int ldc, long long int strideC, int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgeam(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
    const cuDoubleComplex *beta, const cuDoubleComplex *B, int ldb, cuDoubleComplex *C,
    int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemmBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuDoubleComplex *alpha, const cuDoubleComplex *const Aarray[], int lda,
    const cuDoubleComplex *const Barray[], int ldb, const cuDoubleComplex *beta,
    cuDoubleComplex *const Carray[], int ldc, int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemmStridedBatched(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
    long long int strideA, const cuDoubleComplex *B, int ldb, long long int strideB,
    const cuDoubleComplex *beta, cuDoubleComplex *C, int ldc, long long int strideC,
    int batchCount);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasHgemm(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const __half *alpha, const __half *A, int lda, const __half *B, int ldb,
    const __half *beta, __half *C, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemmEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const float *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
    cudaDataType Btype, int ldb, const float *beta, void *C, cudaDataType Ctype, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGemmEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
    cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGemmBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *const Aarray[], cudaDataType Atype, int lda,
    const void *const Barray[], cudaDataType Btype, int ldb, const void *beta,
    void *const Carray[], cudaDataType Ctype, int ldc, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, cudaDataType Atype, int lda, long long int strideA,
    const void *B, cudaDataType Btype, int ldb, long long int strideB, const void *beta,
    void *C, cudaDataType Ctype, int ldc, long long int strideC, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo);

#if defined(__cplusplus)
}
#endif

#endif /* CUBLAS_API_H_ */
