//! Smaller runtime entry points programs call: device choice, peer access
//! (one device: there is no peer), profiler markers, prefetch hints,
//! `cudaMemset3D`, and the pre-CUDA-9 launch protocol
//! (`cudaConfigureCall` / `cudaSetupArgument` / `cudaLaunch`).

use crate::cudaError_t;
use crate::errors::{api, api_dev, non_null, write_out, CudaResult, Error};
use crate::ffi::{cudaDeviceProp, cudaExtent, cudaPitchedPtr, cudaStream_t, Dim3};
use std::cell::RefCell;
use std::ffi::{c_int, c_uint, c_void};

/// There is one device: it is the best match for any properties.
///
/// # Safety
/// `device` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaChooseDevice(
    device: *mut c_int,
    prop: *const cudaDeviceProp,
) -> cudaError_t {
    api(|| {
        non_null(prop)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(device, 0) }
    })
}

fn check_ordinal(d: c_int) -> CudaResult {
    crate::devices::kind(d).map(drop)
}

/// No device can access a peer (the peer-access calls are not implemented;
/// every device's memory is host memory, reachable by copies).
///
/// # Safety
/// `can` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceCanAccessPeer(
    can: *mut c_int,
    device: c_int,
    peer: c_int,
) -> cudaError_t {
    api(|| {
        check_ordinal(device)?;
        check_ordinal(peer)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(can, 0) }
    })
}

/// Enabling access to a peer fails as CUDA fails for a device and itself.
#[no_mangle]
pub extern "C" fn cudaDeviceEnablePeerAccess(peer: c_int, _flags: c_uint) -> cudaError_t {
    api(|| {
        check_ordinal(peer)?;
        Err(Error::InvalidDevice)
    })
}

/// Disabling peer access: it was never enabled.
#[no_mangle]
pub extern "C" fn cudaDeviceDisablePeerAccess(peer: c_int) -> cudaError_t {
    api(|| {
        check_ordinal(peer)?;
        Err(Error::PeerAccessUnsupported)
    })
}

/// The legacy cache configuration query: no preference.
///
/// # Safety
/// `config` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaThreadGetCacheConfig(config: *mut c_int) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(config, 0) })
}

/// Profiler markers do nothing on the CPU.
#[no_mangle]
pub extern "C" fn cudaProfilerStart() -> cudaError_t {
    0
}

/// Profiler markers do nothing on the CPU.
#[no_mangle]
pub extern "C" fn cudaProfilerStop() -> cudaError_t {
    0
}

/// Fills a pitched 3-D region one slice at a time.
///
/// Safe: each slice is checked against the allocation table.
#[no_mangle]
pub extern "C" fn cudaMemset3D(p: cudaPitchedPtr, value: c_int, extent: cudaExtent) -> cudaError_t {
    let slice = p.pitch.saturating_mul(p.ysize);
    for z in 0..extent.depth {
        let base = (p.ptr as usize).wrapping_add(z.saturating_mul(slice)) as *mut c_void;
        let r = crate::memory::cudaMemset2D(base, p.pitch, value, extent.width, extent.height);
        if r != 0 {
            return r;
        }
    }
    0
}

/// Surfaces are not supported by this runtime.
#[no_mangle]
pub extern "C" fn cudaCreateSurfaceObject(_obj: *mut u64, _desc: *const c_void) -> cudaError_t {
    api(|| Err(Error::NotSupported))
}

/// Surfaces are not supported by this runtime.
#[no_mangle]
pub extern "C" fn cudaDestroySurfaceObject(_obj: u64) -> cudaError_t {
    api(|| Err(Error::NotSupported))
}

crate::ptsz::forwards! {
    /// A cooperative launch runs as an ordinary launch (grid-wide
    /// synchronisation is not offered by cucc's device code).
    cudaLaunchCooperativeKernel => launch::cudaLaunchKernel (func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: cudaStream_t);
}

/// A launch being assembled with the pre-CUDA-9 protocol.
struct Legacy {
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: cudaStream_t,
    /// (offset, bytes) of each argument, in call order.
    args: Vec<(usize, Vec<u8>)>,
}

thread_local! {
    static LEGACY: RefCell<Vec<Legacy>> = const { RefCell::new(Vec::new()) };
}

/// Starts a legacy launch: the configuration `cudaLaunch` will use.
#[no_mangle]
pub extern "C" fn cudaConfigureCall(
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    LEGACY.with(|l| {
        l.borrow_mut().push(Legacy {
            grid,
            block,
            shared,
            stream,
            args: Vec::new(),
        })
    });
    0
}

/// Records one argument of the pending legacy launch.
///
/// # Safety
/// `arg` must point at `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn cudaSetupArgument(
    arg: *const c_void,
    size: usize,
    offset: usize,
) -> cudaError_t {
    api(|| {
        if arg.is_null() && size != 0 {
            return Err(Error::InvalidValue);
        }
        // SAFETY: forwarded contract.
        let bytes = unsafe { std::slice::from_raw_parts(arg.cast::<u8>(), size) }.to_vec();
        LEGACY.with(|l| match l.borrow_mut().last_mut() {
            Some(p) => {
                p.args.push((offset, bytes));
                Ok(())
            }
            None => Err(Error::MissingConfiguration),
        })
    })
}

/// Launches `func` with the pending configuration and arguments.
///
/// # Safety
/// `func` must be a registered kernel stub address.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunch(func: *const c_void) -> cudaError_t {
    let Some(mut p) = LEGACY.with(|l| l.borrow_mut().pop()) else {
        return api_dev(|| Err(Error::MissingConfiguration));
    };
    p.args.sort_by_key(|(off, _)| *off);
    let mut ptrs: Vec<*mut c_void> = p
        .args
        .iter_mut()
        .map(|(_, b)| b.as_mut_ptr().cast::<c_void>())
        .collect();
    // SAFETY: the pointers stay valid for the call, which copies the
    // arguments before returning.
    unsafe {
        crate::launch::cudaLaunchKernel(
            func,
            p.grid,
            p.block,
            ptrs.as_mut_ptr(),
            p.shared,
            p.stream,
        )
    }
}
