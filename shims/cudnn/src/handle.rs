//! The handle (`cudnnCreate`/`cudnnDestroy`, its stream) and the library
//! queries (`cudnnGetVersion`, `cudnnGetProperty`, ...).

use std::ffi::{c_int, c_void};

use crate::status::{check, guard, Result, Status};

/// cuDNN 9.6.0, the version this library's header describes.
pub const VERSION: usize = 90600;

/// `cudnnHandle_t`'s pointee: the stream the handle's work is queued on.
#[derive(Debug)]
pub struct Handle {
    /// `cudaStream_t` (NULL: the legacy default stream).
    pub stream: *mut c_void,
}

/// Dereferences a handle argument: NULL is `BAD_PARAM`.
///
/// # Safety
/// A non-NULL `h` must come from `cudnnCreate` and not be destroyed.
pub unsafe fn handle<'a>(h: *const Handle) -> Result<&'a Handle> {
    h.as_ref().ok_or(Status::BAD_PARAM)
}

/// `cudnnCreate`: a handle on the legacy default stream.
#[no_mangle]
pub unsafe extern "C" fn cudnnCreate(out: *mut *mut Handle) -> Status {
    guard(|| {
        check(!out.is_null())?;
        *out = Box::into_raw(Box::new(Handle {
            stream: std::ptr::null_mut(),
        }));
        Ok(())
    })
}

/// `cudnnDestroy`: work already queued still runs (it owns its data).
#[no_mangle]
pub unsafe extern "C" fn cudnnDestroy(h: *mut Handle) -> Status {
    guard(|| {
        check(!h.is_null())?;
        drop(Box::from_raw(h));
        Ok(())
    })
}

/// `cudnnSetStream`.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetStream(h: *mut Handle, stream: *mut c_void) -> Status {
    guard(|| {
        check(!h.is_null())?;
        (*h).stream = stream;
        Ok(())
    })
}

/// `cudnnGetStream`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetStream(h: *mut Handle, stream: *mut *mut c_void) -> Status {
    guard(|| {
        check(!h.is_null() && !stream.is_null())?;
        *stream = (*h).stream;
        Ok(())
    })
}

/// `cudnnGetVersion`: `CUDNN_VERSION` of the header (90600).
#[no_mangle]
pub extern "C" fn cudnnGetVersion() -> usize {
    VERSION
}

/// `cudnnGetCudartVersion`: the CUDA runtime cucc implements (13.0).
#[no_mangle]
pub extern "C" fn cudnnGetCudartVersion() -> usize {
    13000
}

/// `cudnnGetMaxDeviceVersion`: the compute capability cucc's device reports
/// (8.0, as `major * 100 + minor * 10`).
#[no_mangle]
pub extern "C" fn cudnnGetMaxDeviceVersion() -> usize {
    800
}

/// `cudnnGetProperty`: MAJOR_VERSION (0), MINOR_VERSION (1), PATCH_LEVEL (2).
#[no_mangle]
pub unsafe extern "C" fn cudnnGetProperty(kind: c_int, value: *mut c_int) -> Status {
    guard(|| {
        check(!value.is_null())?;
        *value = match kind {
            0 => (VERSION / 10000) as c_int,
            1 => (VERSION / 100 % 100) as c_int,
            2 => (VERSION % 100) as c_int,
            _ => return Err(Status::BAD_PARAM),
        };
        Ok(())
    })
}
