//! `cudaMemAdvise` and `cudaMemPrefetchAsync`: hints about where memory
//! should live. Device, managed and host memory are all host memory here,
//! so both are validated no-ops: the range must lie in one allocation the
//! runtime made, and the location must name the device or the host.

use crate::errors::{api_dev, cudaError_t, CudaResult, Error};
use crate::ffi::cudaStream_t;
use crate::memory::Kind;
use crate::mempool::cudaMemLocation;
use std::ffi::{c_int, c_uint, c_void};

fn check_range(ptr: *const c_void, count: usize) -> CudaResult {
    if ptr.is_null() || count == 0 {
        return Err(Error::InvalidValue);
    }
    match crate::memory::find(ptr as usize) {
        Some((start, a))
            if matches!(a.kind, Kind::Device | Kind::Managed | Kind::PinnedHost)
                && (ptr as usize - start)
                    .checked_add(count)
                    .is_some_and(|end| end <= a.size) =>
        {
            Ok(())
        }
        _ => Err(Error::InvalidValue),
    }
}

/// Locations: the device (ordinal 0) or the host (any NUMA form).
fn check_location(loc: cudaMemLocation) -> CudaResult {
    match loc.kind {
        1 => crate::devices::kind(loc.id).map(drop),
        2..=4 => Ok(()),
        _ => Err(Error::InvalidValue),
    }
}

/// Accepts advice about a range of memory.
#[no_mangle]
pub extern "C" fn cudaMemAdvise(
    ptr: *const c_void,
    count: usize,
    advice: c_int,
    location: cudaMemLocation,
) -> cudaError_t {
    api_dev(|| {
        if !(1..=6).contains(&advice) {
            return Err(Error::InvalidValue);
        }
        check_range(ptr, count)?;
        // Read-mostly advice ignores the location.
        if !matches!(advice, 1 | 2) {
            check_location(location)?;
        }
        Ok(())
    })
}

fn prefetch(
    ptr: *const c_void,
    count: usize,
    location: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
) -> CudaResult {
    if flags != 0 {
        return Err(Error::InvalidValue);
    }
    check_range(ptr, count)?;
    check_location(location)?;
    crate::stream::resolve(stream)?;
    Ok(())
}

/// Accepts a prefetch of a range to a location (CUDA 13's signature).
#[no_mangle]
pub extern "C" fn cudaMemPrefetchAsync(
    ptr: *const c_void,
    count: usize,
    location: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    api_dev(|| prefetch(ptr, count, location, flags, stream))
}
