//! What every BLAS entry point does first: look up the handle, map cuBLAS
//! enums to cblas ones (rejecting what cuBLAS rejects), capture scalars by
//! pointer mode; and how results travel back.

use std::ffi::c_int;

use cblas_sys as cb;

use crate::cudart;
use crate::handle::{self, Settings};
use crate::types::*;

/// `Err` carries the status to return.
pub type Status = Result<(), cublasStatus_t>;

/// Converts an internal result into the C status.
pub fn status(r: Status) -> cublasStatus_t {
    match r {
        Ok(()) => CUBLAS_STATUS_SUCCESS,
        Err(e) => e,
    }
}

/// `CUBLAS_STATUS_INVALID_VALUE` unless `ok`.
pub fn require(ok: bool) -> Status {
    if ok {
        Ok(())
    } else {
        Err(CUBLAS_STATUS_INVALID_VALUE)
    }
}

/// The handle's settings, or `NOT_INITIALIZED`.
pub fn settings(handle: cublasHandle_t) -> Result<Settings, cublasStatus_t> {
    handle::settings(handle)
}

/// A raw pointer that may cross to the stream's thread: device memory (or
/// host memory the caller keeps valid until the work has run, as CUDA
/// requires).
#[derive(Debug)]
pub struct Ptr<T>(pub *mut T);
impl<T> Clone for Ptr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Ptr<T> {}
// SAFETY: see the type's doc; the pointee is plain data.
unsafe impl<T> Send for Ptr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for Ptr<T> {}

impl<T> Ptr<T> {
    /// From a const pointer.
    pub fn c(p: *const T) -> Self {
        Ptr(p.cast_mut())
    }
    /// The pointer, const.
    pub fn get(self) -> *const T {
        self.0
    }
    /// The pointer, mutable (a method, so closures capture the `Send` wrapper).
    pub fn m(self) -> *mut T {
        self.0
    }
}

/// A scalar argument: its value (host pointer mode, read at call time) or
/// its device address (read when the work runs).
#[derive(Clone, Copy, Debug)]
pub enum Scalar<T> {
    /// Read at call time.
    Host(T),
    /// Read when the work runs.
    Device(Ptr<T>),
}

impl<T: Copy> Scalar<T> {
    /// Captures `p` by the handle's pointer mode; NULL is `INVALID_VALUE`.
    pub fn capture(s: &Settings, p: *const T) -> Result<Self, cublasStatus_t> {
        if p.is_null() {
            return Err(CUBLAS_STATUS_INVALID_VALUE);
        }
        Ok(if s.pointer_mode == POINTER_MODE_DEVICE {
            Scalar::Device(Ptr::c(p))
        } else {
            // SAFETY: host pointer mode: a valid host pointer, read now.
            Scalar::Host(unsafe { *p })
        })
    }

    /// The value (reads device memory in device mode).
    pub fn value(self) -> T {
        match self {
            Scalar::Host(v) => v,
            // SAFETY: a device scalar stays valid until the work has run.
            Scalar::Device(p) => unsafe { *p.get() },
        }
    }
}

/// Submits `work` to the handle's stream; if `result_on_host`, waits for
/// it (a result written to host memory must be there when the call returns).
pub fn run(s: &Settings, result_on_host: bool, work: impl FnOnce() + Send + 'static) -> Status {
    match cudart::submit(s.stream, work) {
        CUBLAS_STATUS_SUCCESS => {}
        e => return Err(e),
    }
    if result_on_host {
        match cudart::synchronize(s.stream) {
            CUBLAS_STATUS_SUCCESS => {}
            e => return Err(e),
        }
    }
    Ok(())
}

/// `cublasOperation_t` to cblas. `CUBLAS_OP_CONJG` and unknown values are
/// invalid.
pub fn op(t: cublasOperation_t) -> Result<cb::CBLAS_TRANSPOSE, cublasStatus_t> {
    match t {
        0 => Ok(cb::CblasNoTrans),
        1 => Ok(cb::CblasTrans),
        2 => Ok(cb::CblasConjTrans),
        _ => Err(CUBLAS_STATUS_INVALID_VALUE),
    }
}

/// Whether a cblas transpose is `NoTrans`.
pub fn is_n(t: cb::CBLAS_TRANSPOSE) -> bool {
    matches!(t, cb::CblasNoTrans)
}

/// `cublasFillMode_t` (lower or upper; `FULL` is invalid for these routines).
pub fn uplo(u: cublasFillMode_t) -> Result<cb::CBLAS_UPLO, cublasStatus_t> {
    match u {
        0 => Ok(cb::CblasLower),
        1 => Ok(cb::CblasUpper),
        _ => Err(CUBLAS_STATUS_INVALID_VALUE),
    }
}

/// `cublasDiagType_t`.
pub fn diag(d: cublasDiagType_t) -> Result<cb::CBLAS_DIAG, cublasStatus_t> {
    match d {
        0 => Ok(cb::CblasNonUnit),
        1 => Ok(cb::CblasUnit),
        _ => Err(CUBLAS_STATUS_INVALID_VALUE),
    }
}

/// `cublasSideMode_t`; `true` is left.
pub fn side(s: cublasSideMode_t) -> Result<(cb::CBLAS_SIDE, bool), cublasStatus_t> {
    match s {
        0 => Ok((cb::CblasLeft, true)),
        1 => Ok((cb::CblasRight, false)),
        _ => Err(CUBLAS_STATUS_INVALID_VALUE),
    }
}

/// `max(1, n)`, the least leading dimension of `n` rows.
pub fn ld_min(n: c_int) -> c_int {
    n.max(1)
}

/// Declares a C entry point: doc, signature, body returning [`Status`].
macro_rules! api {
    ($doc:expr, fn $name:ident($($p:ident: $pt:ty),* $(,)?) $body:block) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// Pointer arguments as cuBLAS documents them: device memory, or host
        /// memory for host-mode scalars and results.
        #[no_mangle]
        #[allow(clippy::redundant_closure_call, clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name($($p: $pt),*) -> cublasStatus_t {
            // The closure lets the body return early with `?`.
            $crate::call::status((|| -> $crate::call::Status { $body })())
        }
    };
}
pub(crate) use api;
