//! The C types of the cuBLAS ABI: status codes and enums with NVIDIA's
//! values, complex numbers laid out as `cuComplex`/`cuDoubleComplex`.

#![allow(non_camel_case_types)]

use std::ffi::c_void;

/// `cublasStatus_t`.
pub type cublasStatus_t = i32;
/// The operation completed.
pub const CUBLAS_STATUS_SUCCESS: cublasStatus_t = 0;
/// A null or destroyed handle.
pub const CUBLAS_STATUS_NOT_INITIALIZED: cublasStatus_t = 1;
/// Memory could not be allocated.
pub const CUBLAS_STATUS_ALLOC_FAILED: cublasStatus_t = 3;
/// An argument is out of range.
pub const CUBLAS_STATUS_INVALID_VALUE: cublasStatus_t = 7;
/// The device lacks a feature.
pub const CUBLAS_STATUS_ARCH_MISMATCH: cublasStatus_t = 8;
/// Device memory could not be accessed (a failed transfer).
pub const CUBLAS_STATUS_MAPPING_ERROR: cublasStatus_t = 11;
/// The work could not be put on the stream.
pub const CUBLAS_STATUS_EXECUTION_FAILED: cublasStatus_t = 13;
/// An internal failure.
pub const CUBLAS_STATUS_INTERNAL_ERROR: cublasStatus_t = 14;
/// The combination of arguments is not supported.
pub const CUBLAS_STATUS_NOT_SUPPORTED: cublasStatus_t = 15;
/// A licensing failure (never returned).
pub const CUBLAS_STATUS_LICENSE_ERROR: cublasStatus_t = 16;

/// `cublasOperation_t`: `N` 0, `T` 1, `C` 2 (`CONJG` 3 is rejected).
pub type cublasOperation_t = i32;
/// `cublasFillMode_t`: lower 0, upper 1, full 2.
pub type cublasFillMode_t = i32;
/// `cublasDiagType_t`: non-unit 0, unit 1.
pub type cublasDiagType_t = i32;
/// `cublasSideMode_t`: left 0, right 1.
pub type cublasSideMode_t = i32;
/// `cublasPointerMode_t`: host 0, device 1.
pub type cublasPointerMode_t = i32;
/// `cublasAtomicsMode_t`: not allowed 0, allowed 1.
pub type cublasAtomicsMode_t = i32;
/// `cublasMath_t` (a mode plus flag bits).
pub type cublasMath_t = i32;
/// `cublasComputeType_t`.
pub type cublasComputeType_t = i32;
/// `cublasGemmAlgo_t`.
pub type cublasGemmAlgo_t = i32;
/// `cudaDataType_t`.
pub type cudaDataType_t = i32;
/// `libraryPropertyType`.
pub type libraryPropertyType = i32;
/// `cudaStream_t`.
pub type cudaStream_t = *mut c_void;
/// `cublasHandle_t`: an opaque pointer naming a handle (see `handle.rs`).
pub type cublasHandle_t = *mut c_void;

/// `CUBLAS_POINTER_MODE_HOST`.
pub const POINTER_MODE_HOST: cublasPointerMode_t = 0;
/// `CUBLAS_POINTER_MODE_DEVICE`.
pub const POINTER_MODE_DEVICE: cublasPointerMode_t = 1;

/// cudaDataType values the library reads.
pub mod dtype {
    use super::cudaDataType_t;
    /// `CUDA_R_32F`.
    pub const R_32F: cudaDataType_t = 0;
    /// `CUDA_R_64F`.
    pub const R_64F: cudaDataType_t = 1;
    /// `CUDA_R_16F`.
    pub const R_16F: cudaDataType_t = 2;
    /// `CUDA_C_32F`.
    pub const C_32F: cudaDataType_t = 4;
    /// `CUDA_C_64F`.
    pub const C_64F: cudaDataType_t = 5;
    /// `CUDA_R_16BF`.
    pub const R_16BF: cudaDataType_t = 14;
}

/// cublasComputeType_t values.
pub mod compute {
    use super::cublasComputeType_t;
    /// `CUBLAS_COMPUTE_16F`.
    pub const C16F: cublasComputeType_t = 64;
    /// `CUBLAS_COMPUTE_16F_PEDANTIC`.
    pub const C16F_PEDANTIC: cublasComputeType_t = 65;
    /// `CUBLAS_COMPUTE_32F`.
    pub const C32F: cublasComputeType_t = 68;
    /// `CUBLAS_COMPUTE_32F_PEDANTIC`.
    pub const C32F_PEDANTIC: cublasComputeType_t = 69;
    /// `CUBLAS_COMPUTE_64F`.
    pub const C64F: cublasComputeType_t = 70;
    /// `CUBLAS_COMPUTE_64F_PEDANTIC`.
    pub const C64F_PEDANTIC: cublasComputeType_t = 71;
    /// `CUBLAS_COMPUTE_32I`.
    pub const C32I: cublasComputeType_t = 72;
    /// `CUBLAS_COMPUTE_32I_PEDANTIC`.
    pub const C32I_PEDANTIC: cublasComputeType_t = 73;
    /// `CUBLAS_COMPUTE_32F_FAST_16F`.
    pub const C32F_FAST_16F: cublasComputeType_t = 74;
    /// `CUBLAS_COMPUTE_32F_FAST_16BF`.
    pub const C32F_FAST_16BF: cublasComputeType_t = 75;
    /// `CUBLAS_COMPUTE_32F_FAST_TF32`.
    pub const C32F_FAST_TF32: cublasComputeType_t = 77;
    /// `CUBLAS_COMPUTE_32F_EMULATED_16BFX9`.
    pub const C32F_EMULATED_16BFX9: cublasComputeType_t = 78;
    /// `CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT`.
    pub const C64F_EMULATED_FIXEDPOINT: cublasComputeType_t = 79;
}

/// `cuComplex` / `cuFloatComplex` (a `float2`).
#[repr(C, align(8))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex32 {
    /// Real part.
    pub re: f32,
    /// Imaginary part.
    pub im: f32,
}

/// `cuDoubleComplex` (a `double2`).
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex64 {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

/// Status name as `cublasGetStatusName` gives it.
pub fn status_name(s: cublasStatus_t) -> &'static std::ffi::CStr {
    match s {
        CUBLAS_STATUS_SUCCESS => c"CUBLAS_STATUS_SUCCESS",
        CUBLAS_STATUS_NOT_INITIALIZED => c"CUBLAS_STATUS_NOT_INITIALIZED",
        CUBLAS_STATUS_ALLOC_FAILED => c"CUBLAS_STATUS_ALLOC_FAILED",
        CUBLAS_STATUS_INVALID_VALUE => c"CUBLAS_STATUS_INVALID_VALUE",
        CUBLAS_STATUS_ARCH_MISMATCH => c"CUBLAS_STATUS_ARCH_MISMATCH",
        CUBLAS_STATUS_MAPPING_ERROR => c"CUBLAS_STATUS_MAPPING_ERROR",
        CUBLAS_STATUS_EXECUTION_FAILED => c"CUBLAS_STATUS_EXECUTION_FAILED",
        CUBLAS_STATUS_INTERNAL_ERROR => c"CUBLAS_STATUS_INTERNAL_ERROR",
        CUBLAS_STATUS_NOT_SUPPORTED => c"CUBLAS_STATUS_NOT_SUPPORTED",
        CUBLAS_STATUS_LICENSE_ERROR => c"CUBLAS_STATUS_LICENSE_ERROR",
        _ => c"CUBLAS_STATUS_UNKNOWN",
    }
}

/// A sentence describing a status, as `cublasGetStatusString` gives it.
pub fn status_string(s: cublasStatus_t) -> &'static std::ffi::CStr {
    match s {
        CUBLAS_STATUS_SUCCESS => c"success",
        CUBLAS_STATUS_NOT_INITIALIZED => c"the library was not initialized",
        CUBLAS_STATUS_ALLOC_FAILED => c"the resource allocation failed",
        CUBLAS_STATUS_INVALID_VALUE => c"an invalid numeric value was used as an argument",
        CUBLAS_STATUS_ARCH_MISMATCH => c"an absent device architectural feature is required",
        CUBLAS_STATUS_MAPPING_ERROR => c"an access to GPU memory space failed",
        CUBLAS_STATUS_EXECUTION_FAILED => c"the GPU program failed to execute",
        CUBLAS_STATUS_INTERNAL_ERROR => c"an internal operation failed",
        CUBLAS_STATUS_NOT_SUPPORTED => c"the functionality requested is not supported",
        CUBLAS_STATUS_LICENSE_ERROR => c"an error was detected when checking the current licensing",
        _ => c"an unknown internal error has occurred",
    }
}
