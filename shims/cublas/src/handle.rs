//! Handles and their settings: stream, pointer mode, math mode, atomics
//! mode and workspace; version queries and status names.
//!
//! A handle is a number (never reused) cast to a pointer; its settings live
//! in a table, so a null, unknown or destroyed handle is
//! `CUBLAS_STATUS_NOT_INITIALIZED` rather than a wild read.

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void};
use std::sync::{Mutex, MutexGuard};

use crate::types::*;

/// cuBLAS version this library implements (major, minor, patch).
pub const VERSION: (c_int, c_int, c_int) = (13, 1, 0);

/// A handle's settings, copied into each call.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The stream work is submitted to.
    pub stream: cudaStream_t,
    /// Where scalars live: host or device memory.
    pub pointer_mode: cublasPointerMode_t,
    /// Math mode (accepted and reported; results are always IEEE).
    pub math_mode: cublasMath_t,
    /// Atomics mode (accepted and reported).
    pub atomics_mode: cublasAtomicsMode_t,
    /// User workspace (unused: OpenBLAS needs none).
    pub workspace: (usize, usize),
}

// SAFETY: the stream is an opaque handle the runtime accepts from any thread.
unsafe impl Send for Settings {}

struct Table {
    next: usize,
    live: BTreeMap<usize, Settings>,
}

static HANDLES: Mutex<Table> = Mutex::new(Table {
    next: 1,
    live: BTreeMap::new(),
});

fn table() -> MutexGuard<'static, Table> {
    HANDLES.lock().unwrap_or_else(|e| e.into_inner())
}

/// The settings of `handle`, or `NOT_INITIALIZED`.
pub fn settings(handle: cublasHandle_t) -> Result<Settings, cublasStatus_t> {
    table()
        .live
        .get(&(handle as usize))
        .copied()
        .ok_or(CUBLAS_STATUS_NOT_INITIALIZED)
}

fn update(handle: cublasHandle_t, f: impl FnOnce(&mut Settings)) -> cublasStatus_t {
    match table().live.get_mut(&(handle as usize)) {
        Some(s) => {
            f(s);
            CUBLAS_STATUS_SUCCESS
        }
        None => CUBLAS_STATUS_NOT_INITIALIZED,
    }
}

/// The body of the `cublasGet*` setting queries: `NOT_INITIALIZED` for an
/// unknown handle, `INVALID_VALUE` for a NULL `out`.
///
/// # Safety
/// `out` must be NULL or valid for a write.
unsafe fn read_setting<T>(
    handle: cublasHandle_t,
    out: *mut T,
    read: impl FnOnce(&Settings) -> T,
) -> cublasStatus_t {
    let s = match settings(handle) {
        Ok(s) => s,
        Err(e) => return e,
    };
    if out.is_null() {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    // SAFETY: checked non-null; the caller promises validity.
    unsafe { *out = read(&s) };
    CUBLAS_STATUS_SUCCESS
}

/// The body of the `cublasSet*` calls: `NOT_INITIALIZED` for an unknown
/// handle, then `INVALID_VALUE` unless the new value is `valid`.
fn write_setting(
    handle: cublasHandle_t,
    valid: bool,
    write: impl FnOnce(&mut Settings),
) -> cublasStatus_t {
    if settings(handle).is_err() {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if !valid {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    update(handle, write)
}

/// Creates a handle on the legacy default stream, host pointer mode.
///
/// # Safety
/// `handle` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cublasCreate_v2(handle: *mut cublasHandle_t) -> cublasStatus_t {
    if handle.is_null() {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    let mut t = table();
    let id = t.next;
    t.next += 1;
    t.live.insert(
        id,
        Settings {
            stream: std::ptr::null_mut(),
            pointer_mode: POINTER_MODE_HOST,
            math_mode: 0,
            atomics_mode: 0,
            workspace: (0, 0),
        },
    );
    // SAFETY: checked non-null; the caller provides a writable slot.
    unsafe { *handle = id as cublasHandle_t };
    CUBLAS_STATUS_SUCCESS
}

/// Destroys a handle. Work already submitted keeps running: it holds copies
/// of what it needs.
#[no_mangle]
pub extern "C" fn cublasDestroy_v2(handle: cublasHandle_t) -> cublasStatus_t {
    match table().live.remove(&(handle as usize)) {
        Some(_) => CUBLAS_STATUS_SUCCESS,
        None => CUBLAS_STATUS_NOT_INITIALIZED,
    }
}

/// Writes `major * 10000 + minor * 100 + patch`.
///
/// # Safety
/// `version` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cublasGetVersion_v2(
    handle: cublasHandle_t,
    version: *mut c_int,
) -> cublasStatus_t {
    if let Err(e) = settings(handle) {
        return e;
    }
    if version.is_null() {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    // SAFETY: checked non-null.
    unsafe { *version = VERSION.0 * 10000 + VERSION.1 * 100 + VERSION.2 };
    CUBLAS_STATUS_SUCCESS
}

/// `MAJOR_VERSION` (0), `MINOR_VERSION` (1) or `PATCH_LEVEL` (2).
///
/// # Safety
/// `value` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cublasGetProperty(
    kind: libraryPropertyType,
    value: *mut c_int,
) -> cublasStatus_t {
    let v = match kind {
        0 => VERSION.0,
        1 => VERSION.1,
        2 => VERSION.2,
        _ => return CUBLAS_STATUS_INVALID_VALUE,
    };
    if value.is_null() {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    // SAFETY: checked non-null.
    unsafe { *value = v };
    CUBLAS_STATUS_SUCCESS
}

/// The version as a `size_t`, without a handle.
#[no_mangle]
pub extern "C" fn cublasGetCudartVersion() -> usize {
    13000
}

/// Sets the stream later calls submit to (0 is the legacy default stream).
/// As in cuBLAS, this also resets the workspace to the default.
#[no_mangle]
pub extern "C" fn cublasSetStream_v2(
    handle: cublasHandle_t,
    stream: cudaStream_t,
) -> cublasStatus_t {
    update(handle, |s| {
        s.stream = stream;
        s.workspace = (0, 0);
    })
}

/// Reads the handle's stream.
///
/// # Safety
/// `stream` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cublasGetStream_v2(
    handle: cublasHandle_t,
    stream: *mut cudaStream_t,
) -> cublasStatus_t {
    // SAFETY: forwarded contract.
    unsafe { read_setting(handle, stream, |s| s.stream) }
}

/// Sets whether scalars are host (0) or device (1) pointers.
#[no_mangle]
pub extern "C" fn cublasSetPointerMode_v2(
    handle: cublasHandle_t,
    mode: cublasPointerMode_t,
) -> cublasStatus_t {
    let valid = mode == POINTER_MODE_HOST || mode == POINTER_MODE_DEVICE;
    write_setting(handle, valid, |s| s.pointer_mode = mode)
}

/// Reads the pointer mode.
///
/// # Safety
/// `mode` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cublasGetPointerMode_v2(
    handle: cublasHandle_t,
    mode: *mut cublasPointerMode_t,
) -> cublasStatus_t {
    // SAFETY: forwarded contract.
    unsafe { read_setting(handle, mode, |s| s.pointer_mode) }
}

/// Sets the math mode: one of 0 (default), 1 (tensor op), 2 (pedantic),
/// 3 (TF32), 4 (BF16x9 emulation), 8 (FP64 emulation), optionally with the
/// flag 16 (no reduced-precision reductions). Results here are always
/// computed in the storage precision or better.
#[no_mangle]
pub extern "C" fn cublasSetMathMode(handle: cublasHandle_t, mode: cublasMath_t) -> cublasStatus_t {
    let valid = matches!(mode & !16, 0 | 1 | 2 | 3 | 4 | 8);
    write_setting(handle, valid, |s| s.math_mode = mode)
}

/// Reads the math mode.
///
/// # Safety
/// `mode` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cublasGetMathMode(
    handle: cublasHandle_t,
    mode: *mut cublasMath_t,
) -> cublasStatus_t {
    // SAFETY: forwarded contract.
    unsafe { read_setting(handle, mode, |s| s.math_mode) }
}

/// Allows (1) or forbids (0) atomics; results here are deterministic either way.
#[no_mangle]
pub extern "C" fn cublasSetAtomicsMode(
    handle: cublasHandle_t,
    mode: cublasAtomicsMode_t,
) -> cublasStatus_t {
    let valid = mode == 0 || mode == 1;
    write_setting(handle, valid, |s| s.atomics_mode = mode)
}

/// Reads the atomics mode.
///
/// # Safety
/// `mode` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cublasGetAtomicsMode(
    handle: cublasHandle_t,
    mode: *mut cublasAtomicsMode_t,
) -> cublasStatus_t {
    // SAFETY: forwarded contract.
    unsafe { read_setting(handle, mode, |s| s.atomics_mode) }
}

/// Gives the handle a workspace. OpenBLAS needs none, so it is only
/// recorded; as in cuBLAS, a non-null workspace must be 256-byte aligned.
#[no_mangle]
pub extern "C" fn cublasSetWorkspace_v2(
    handle: cublasHandle_t,
    workspace: *mut c_void,
    size: usize,
) -> cublasStatus_t {
    let valid = (workspace as usize) % 256 == 0 && (!workspace.is_null() || size == 0);
    write_setting(handle, valid, |s| s.workspace = (workspace as usize, size))
}

/// `"CUBLAS_STATUS_..."` for a status.
#[no_mangle]
pub extern "C" fn cublasGetStatusName(status: cublasStatus_t) -> *const c_char {
    status_name(status).as_ptr()
}

/// A sentence describing a status.
#[no_mangle]
pub extern "C" fn cublasGetStatusString(status: cublasStatus_t) -> *const c_char {
    status_string(status).as_ptr()
}
