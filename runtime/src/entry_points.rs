//! `cudaGetDriverEntryPoint*`: driver API functions by name, answered by
//! the driver API this library carries ([`crate::driver`], the same
//! lookup as `cuGetProcAddress`). The flags and query results have the
//! same values in both APIs.

use crate::errors::{api, cudaError_t, Error};
use std::ffi::{c_char, c_int, c_uint, c_void};

/// The CUDA version the runtime reports (`cudaRuntimeGetVersion`).
const RUNTIME_VERSION: c_int = 13000;

/// # Safety
/// `symbol` NULL or a C string; `func` NULL or writable; `status` NULL or
/// writable.
unsafe fn lookup(
    symbol: *const c_char,
    func: *mut *mut c_void,
    version: c_int,
    flags: u64,
    status: *mut c_int,
) -> cudaError_t {
    api(|| {
        if symbol.is_null() || func.is_null() || flags > 2 {
            return Err(Error::InvalidValue);
        }
        let mut st: c_int = 1;
        // SAFETY: forwarded contract; `st` is a local.
        let r = unsafe {
            crate::driver::cuGetProcAddress_v2(
                symbol,
                func as *mut *const c_void,
                version,
                flags,
                &mut st,
            )
        };
        // CUDA_ERROR_INVALID_VALUE; not finding the symbol is reported
        // through the status only.
        if r == 1 {
            return Err(Error::InvalidValue);
        }
        if !status.is_null() {
            // SAFETY: checked non-null; the caller's out-pointer.
            unsafe { status.write(st) };
        }
        Ok(())
    })
}

/// A driver API function by its base name (as of CUDA 13.0).
///
/// # Safety
/// `symbol` a C string; `func` writable; `status` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDriverEntryPoint(
    symbol: *const c_char,
    func: *mut *mut c_void,
    flags: u64,
    status: *mut c_int,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { lookup(symbol, func, RUNTIME_VERSION, flags, status) }
}

/// A driver API function by its base name as of CUDA version `version`.
///
/// # Safety
/// As [`cudaGetDriverEntryPoint`].
#[no_mangle]
pub unsafe extern "C" fn cudaGetDriverEntryPointByVersion(
    symbol: *const c_char,
    func: *mut *mut c_void,
    version: c_uint,
    flags: u64,
    status: *mut c_int,
) -> cudaError_t {
    let v = c_int::try_from(version).unwrap_or(c_int::MAX);
    // SAFETY: forwarded contract.
    unsafe { lookup(symbol, func, v, flags, status) }
}

crate::ptsz::forwards! {
    /// [`cudaGetDriverEntryPoint`] (no stream is involved).
    cudaGetDriverEntryPoint_ptsz => entry_points::cudaGetDriverEntryPoint (symbol: *const c_char, func: *mut *mut c_void, flags: u64, status: *mut c_int);
    /// [`cudaGetDriverEntryPointByVersion`] (no stream is involved).
    cudaGetDriverEntryPointByVersion_ptsz => entry_points::cudaGetDriverEntryPointByVersion (symbol: *const c_char, func: *mut *mut c_void, version: c_uint, flags: u64, status: *mut c_int);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_driver_functions_and_reports_unknown_names() {
        let mut f: *mut c_void = std::ptr::null_mut();
        let mut st: c_int = -1;
        let code = unsafe { cudaGetDriverEntryPoint(c"cuMemAlloc".as_ptr(), &mut f, 0, &mut st) };
        assert_eq!((code, st), (0, 0));
        assert!(!f.is_null());
        let code =
            unsafe { cudaGetDriverEntryPoint(c"cuNoSuchThing".as_ptr(), &mut f, 0, &mut st) };
        assert_eq!((code, st), (0, 1));
        assert!(f.is_null());
        let code = unsafe { cudaGetDriverEntryPoint(std::ptr::null(), &mut f, 0, &mut st) };
        assert_eq!(code, Error::InvalidValue as i32);
    }
}
