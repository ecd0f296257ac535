//! Stream attributes (`cudaStreamSetAttribute`, `cudaStreamGetAttribute`,
//! `cudaStreamCopyAttributes`): the launch attributes CUDA allows on a
//! stream, recorded per stream and reported back. None changes how the
//! CPU runs the stream's work (an L2 access policy window, a
//! synchronisation policy, memory-sync domains, a priority the scheduler
//! does not use), so recording them is the whole job.
//!
//! Locks: `ATTRS` is a leaf.

use crate::errors::{api, cudaError_t, non_null, CudaResult, Error};
use crate::ffi::cudaStream_t;
use crate::stream::{resolve, resolve_ptsz, Stream};
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

/// `cudaLaunchAttributeValue`: 64 bytes.
type Value = [u64; 8];

/// Attribute values set on streams, by stream handle and attribute id.
static ATTRS: Mutex<Option<HashMap<usize, HashMap<c_int, Value>>>> = Mutex::new(None);

/// Access policy window, synchronisation policy, priority, memory-sync
/// domain map and domain: the attributes CUDA accepts on streams.
fn stream_attribute(id: c_int) -> CudaResult {
    match id {
        1 | 3 | 8 | 9 | 10 => Ok(()),
        _ => Err(Error::InvalidValue),
    }
}

fn validate(id: c_int, v: &Value) -> CudaResult {
    let word = v[0] as u32;
    match id {
        // hitRatio (a float at byte 16) must lie in [0, 1].
        1 => {
            let hit = f32::from_bits(v[2] as u32);
            if !(0.0..=1.0).contains(&hit) {
                return Err(Error::InvalidValue);
            }
        }
        // cudaSyncPolicyAuto .. BlockingSync.
        3 if !(1..=4).contains(&word) => return Err(Error::InvalidValue),
        // cudaLaunchMemSyncDomainDefault, Remote.
        10 if word > 1 => return Err(Error::InvalidValue),
        _ => {}
    }
    Ok(())
}

fn get(stream: &Arc<Stream>, id: c_int) -> CudaResult<Value> {
    stream_attribute(id)?;
    let stored = crate::sync::lock(&ATTRS)
        .as_ref()
        .and_then(|m| m.get(&stream.handle()).and_then(|a| a.get(&id).copied()));
    Ok(stored.unwrap_or_else(|| {
        let mut v = [0u64; 8];
        match id {
            8 => {
                let mut p: c_int = 0;
                // SAFETY: a local to write into; the handle names this stream.
                unsafe {
                    crate::stream::cudaStreamGetPriority(stream.handle() as cudaStream_t, &mut p)
                };
                v[0] = p as u32 as u64;
            }
            // cudaSyncPolicyAuto.
            3 => v[0] = 1,
            _ => {}
        }
        v
    }))
}

fn set(stream: &Arc<Stream>, id: c_int, v: Value) -> CudaResult {
    stream_attribute(id)?;
    validate(id, &v)?;
    crate::sync::lock(&ATTRS)
        .get_or_insert_with(HashMap::new)
        .entry(stream.handle())
        .or_default()
        .insert(id, v);
    Ok(())
}

/// # Safety
/// `value` NULL or writable for 64 bytes.
unsafe fn get_into(stream: CudaResult<Arc<Stream>>, id: c_int, value: *mut c_void) -> cudaError_t {
    api(|| {
        non_null(value)?;
        let v = get(&stream?, id)?;
        // SAFETY: checked non-null; a value is 64 bytes.
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr() as *const u8, value as *mut u8, 64) };
        Ok(())
    })
}

/// # Safety
/// `value` NULL or readable for 64 bytes.
unsafe fn set_from(
    stream: CudaResult<Arc<Stream>>,
    id: c_int,
    value: *const c_void,
) -> cudaError_t {
    api(|| {
        non_null(value)?;
        let mut v = [0u64; 8];
        // SAFETY: checked non-null; a value is 64 bytes.
        unsafe { std::ptr::copy_nonoverlapping(value as *const u8, v.as_mut_ptr() as *mut u8, 64) };
        set(&stream?, id, v)
    })
}

fn copy(dst: CudaResult<Arc<Stream>>, src: CudaResult<Arc<Stream>>) -> cudaError_t {
    api(|| {
        let (dst, src) = (dst?, src?);
        let mut guard = crate::sync::lock(&ATTRS);
        let map = guard.get_or_insert_with(HashMap::new);
        let values = map.get(&src.handle()).cloned().unwrap_or_default();
        map.insert(dst.handle(), values);
        Ok(())
    })
}

/// Reads a stream attribute (what was set, else the default).
///
/// # Safety
/// `value` NULL or a writable `cudaStreamAttrValue`.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetAttribute(
    stream: cudaStream_t,
    id: c_int,
    value: *mut c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { get_into(resolve(stream), id, value) }
}

/// `cudaStreamGetAttribute` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaStreamGetAttribute`].
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetAttribute_ptsz(
    stream: cudaStream_t,
    id: c_int,
    value: *mut c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { get_into(resolve_ptsz(stream), id, value) }
}

/// Sets a stream attribute (validated and recorded).
///
/// # Safety
/// `value` NULL or a readable `cudaStreamAttrValue`.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamSetAttribute(
    stream: cudaStream_t,
    id: c_int,
    value: *const c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { set_from(resolve(stream), id, value) }
}

/// `cudaStreamSetAttribute` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaStreamSetAttribute`].
#[no_mangle]
pub unsafe extern "C" fn cudaStreamSetAttribute_ptsz(
    stream: cudaStream_t,
    id: c_int,
    value: *const c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { set_from(resolve_ptsz(stream), id, value) }
}

/// Gives `dst` the attributes set on `src`.
#[no_mangle]
pub extern "C" fn cudaStreamCopyAttributes(dst: cudaStream_t, src: cudaStream_t) -> cudaError_t {
    copy(resolve(dst), resolve(src))
}

/// `cudaStreamCopyAttributes` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaStreamCopyAttributes_ptsz(
    dst: cudaStream_t,
    src: cudaStream_t,
) -> cudaError_t {
    copy(resolve_ptsz(dst), resolve_ptsz(src))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_validated() {
        let mut v = [0u64; 8];
        v[2] = 0.5f32.to_bits() as u64;
        assert_eq!(validate(1, &v), Ok(()));
        v[2] = 1.5f32.to_bits() as u64;
        assert_eq!(validate(1, &v), Err(Error::InvalidValue));
        assert_eq!(validate(3, &[0; 8]), Err(Error::InvalidValue));
        assert_eq!(stream_attribute(2), Err(Error::InvalidValue));
        assert_eq!(stream_attribute(8), Ok(()));
    }
}
