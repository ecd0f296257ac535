//! `cudnnStatus_t`: NVIDIA's codes, `cudnnGetErrorString`, and the guard
//! every exported function runs its body under.

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A `cudnnStatus_t` value.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status(pub i32);

impl Status {
    /// The call succeeded.
    pub const SUCCESS: Status = Status(0);
    /// The library was not initialised (a NULL handle).
    pub const NOT_INITIALIZED: Status = Status(1001);
    /// An argument is invalid (NULL pointer, mismatched shapes, bad enum).
    pub const BAD_PARAM: Status = Status(2000);
    /// A NULL pointer where one is required.
    pub const BAD_PARAM_NULL_POINTER: Status = Status(2002);
    /// The arguments are valid but the configuration is not implemented.
    pub const NOT_SUPPORTED: Status = Status(3000);
    /// An unexpected internal failure (a caught panic).
    pub const INTERNAL_ERROR: Status = Status(4000);
    /// Host memory could not be allocated (also `CUDNN_STATUS_ALLOC_FAILED`).
    pub const ALLOC_FAILED: Status = Status(4003);
    /// The work could not be run.
    pub const EXECUTION_FAILED: Status = Status(5000);
    /// The CUDA runtime refused to queue the work on the stream.
    pub const EXECUTION_FAILED_CUDART: Status = Status(5003);
}

/// The result of an entry point's body.
pub type Result<T> = std::result::Result<T, Status>;

/// Runs an exported function's body: its error becomes the returned status
/// and a panic becomes `CUDNN_STATUS_INTERNAL_ERROR` (nothing unwinds into C).
pub fn guard(f: impl FnOnce() -> Result<()>) -> Status {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => Status::SUCCESS,
        Ok(Err(s)) => s,
        Err(_) => Status::INTERNAL_ERROR,
    }
}

/// The name of a status code, as NVIDIA's `cudnnGetErrorString` gives it.
pub fn name(code: i32) -> &'static CStr {
    match code {
        0 => c"CUDNN_STATUS_SUCCESS",
        1001 => c"CUDNN_STATUS_NOT_INITIALIZED",
        1002 => c"CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH",
        1003 => c"CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH",
        1004 => c"CUDNN_STATUS_DEPRECATED",
        1005 => c"CUDNN_STATUS_LICENSE_ERROR",
        1006 => c"CUDNN_STATUS_RUNTIME_IN_PROGRESS",
        1007 => c"CUDNN_STATUS_RUNTIME_FP_OVERFLOW",
        1008 => c"CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED",
        2000 => c"CUDNN_STATUS_BAD_PARAM",
        2001 => c"CUDNN_STATUS_INVALID_VALUE",
        2002 => c"CUDNN_STATUS_BAD_PARAM_NULL_POINTER",
        2003 => c"CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER",
        2004 => c"CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED",
        2005 => c"CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND",
        2006 => c"CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT",
        2007 => c"CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH",
        2008 => c"CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH",
        2009 => c"CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES",
        2010 => c"CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE",
        2011 => c"CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH",
        2012 => c"CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE",
        3000 => c"CUDNN_STATUS_NOT_SUPPORTED",
        3001 => c"CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN",
        3002 => c"CUDNN_STATUS_NOT_SUPPORTED_SHAPE",
        3003 => c"CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE",
        3004 => c"CUDNN_STATUS_NOT_SUPPORTED_LAYOUT",
        3005 => c"CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER",
        3006 => c"CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART",
        3007 => c"CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH",
        3008 => c"CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING",
        3009 => c"CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE",
        3010 => c"CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT",
        3011 => c"CUDNN_STATUS_NOT_SUPPORTED_PADDING",
        3012 => c"CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM",
        3013 => c"CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API",
        4000 => c"CUDNN_STATUS_INTERNAL_ERROR",
        4001 => c"CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED",
        4002 => c"CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE",
        4003 => c"CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED",
        4004 => c"CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED",
        4005 => c"CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM",
        4006 => c"CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED",
        5000 => c"CUDNN_STATUS_EXECUTION_FAILED",
        5001 => c"CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER",
        5002 => c"CUDNN_STATUS_EXECUTION_FAILED_CUBLAS",
        5003 => c"CUDNN_STATUS_EXECUTION_FAILED_CUDART",
        5004 => c"CUDNN_STATUS_EXECUTION_FAILED_CURAND",
        _ => c"CUDNN_UNKNOWN_STATUS",
    }
}

/// `cudnnGetErrorString`: a static NUL-terminated name for `status`.
#[no_mangle]
pub extern "C" fn cudnnGetErrorString(status: i32) -> *const c_char {
    name(status).as_ptr()
}

/// Returns `BAD_PARAM` when `cond` is false.
pub fn check(cond: bool) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Status::BAD_PARAM)
    }
}

/// Returns `BAD_PARAM` when any of the pointer arguments is NULL.
pub fn non_null(ptrs: &[*const c_void]) -> Result<()> {
    check(ptrs.iter().all(|p| !p.is_null()))
}

/// Returns `NOT_SUPPORTED` when `cond` is false.
pub fn supported(cond: bool) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Status::NOT_SUPPORTED)
    }
}
