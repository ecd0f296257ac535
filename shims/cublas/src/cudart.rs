//! The few CUDA runtime calls the library makes, and how its work is put in
//! stream order.
//!
//! Every BLAS call becomes one closure run in the handle's stream order:
//! after the kernels and copies submitted to that stream before it, before
//! those submitted after it. When the stream has work pending, the closure
//! is queued with `cudaLaunchHostFunc` and the call returns at once. When it
//! has none (and the legacy default stream, which orders blocking streams,
//! has none either), the closure runs at once on the calling thread: the
//! same order, without two thread hops (the runtime does the same for
//! synchronous calls on an idle legacy stream). Host-mode scalars are
//! copied into the closure at call time; device-mode scalars are pointers
//! read when the closure runs. Calls that return a result to host memory
//! (host pointer mode) wait for the stream, as cuBLAS does.

use std::ffi::{c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::types::*;

/// `cudaMemcpyHostToDevice`.
pub const MEMCPY_HOST_TO_DEVICE: c_int = 1;
/// `cudaMemcpyDeviceToHost`.
pub const MEMCPY_DEVICE_TO_HOST: c_int = 2;

type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;

extern "C" {
    fn cudaLaunchHostFunc(stream: cudaStream_t, f: HostFn, data: *mut c_void) -> c_int;
    fn cudaStreamSynchronize(stream: cudaStream_t) -> c_int;
    fn cudaStreamQuery(stream: cudaStream_t) -> c_int;
    fn cudaMemcpy2D(
        dst: *mut c_void,
        dpitch: usize,
        src: *const c_void,
        spitch: usize,
        width: usize,
        height: usize,
        kind: c_int,
    ) -> c_int;
    fn cudaMemcpy2DAsync(
        dst: *mut c_void,
        dpitch: usize,
        src: *const c_void,
        spitch: usize,
        width: usize,
        height: usize,
        kind: c_int,
        stream: cudaStream_t,
    ) -> c_int;
}

type Work = Box<dyn FnOnce() + Send>;

unsafe extern "C" fn run_work(data: *mut c_void) {
    // SAFETY: `data` is the `Box<Work>` leaked by `submit`, run exactly once.
    let work = unsafe { Box::from_raw(data.cast::<Work>()) };
    // A panic must not cross the C boundary; the work has no result to report.
    let _ = catch_unwind(AssertUnwindSafe(work));
}

/// Whether nothing submitted so far can still run before new work on
/// `stream`: the stream and the legacy default stream are idle (and the
/// runtime has no error to report).
fn idle(stream: cudaStream_t) -> bool {
    // SAFETY: plain runtime calls; an unknown stream is an error, not idle.
    unsafe { cudaStreamQuery(stream) == 0 && cudaStreamQuery(std::ptr::null_mut()) == 0 }
}

/// Runs `work` in `stream`'s order after everything submitted to it so far:
/// at once if the stream is idle, else queued on it.
pub fn submit(stream: cudaStream_t, work: impl FnOnce() + Send + 'static) -> cublasStatus_t {
    if idle(stream) {
        // A panic must not cross the C boundary (as in `run_work`).
        let _ = catch_unwind(AssertUnwindSafe(work));
        return CUBLAS_STATUS_SUCCESS;
    }
    let boxed: Box<Work> = Box::new(Box::new(work));
    let raw = Box::into_raw(boxed).cast::<c_void>();
    // SAFETY: `run_work` takes ownership of `raw` when the runtime calls it.
    let rc = unsafe { cudaLaunchHostFunc(stream, Some(run_work), raw) };
    if rc != 0 {
        // SAFETY: the runtime refused the function, so `raw` is still ours.
        drop(unsafe { Box::from_raw(raw.cast::<Work>()) });
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    CUBLAS_STATUS_SUCCESS
}

/// Waits for everything on `stream`.
pub fn synchronize(stream: cudaStream_t) -> cublasStatus_t {
    // SAFETY: plain runtime call.
    match unsafe { cudaStreamSynchronize(stream) } {
        0 => CUBLAS_STATUS_SUCCESS,
        _ => CUBLAS_STATUS_EXECUTION_FAILED,
    }
}

/// A strided 2-D copy (`cudaMemcpy2D`, or the Async form when `stream` is
/// given); a runtime failure is `CUBLAS_STATUS_MAPPING_ERROR`.
#[allow(clippy::too_many_arguments)]
pub fn copy_2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    stream: Option<cudaStream_t>,
) -> cublasStatus_t {
    // SAFETY: the runtime checks device sides against its memory table; host
    // sides are the buffers the cuBLAS caller passed (the exported functions'
    // contract).
    let rc = unsafe {
        match stream {
            None => cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind),
            Some(s) => cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, s),
        }
    };
    if rc == 0 {
        CUBLAS_STATUS_SUCCESS
    } else {
        CUBLAS_STATUS_MAPPING_ERROR
    }
}
