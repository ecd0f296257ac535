//! Per-thread-default-stream forms (`_ptsz`, `_ptds`) of entry points the
//! runtime already has, and asynchronous forms of array copies and
//! `cudaMemset3D`.
//!
//! `_ptsz` forms name the calling thread's stream by 0 and are otherwise
//! the base call. `_ptds` forms of synchronous calls run the base call,
//! which is ordered after the legacy stream and so after every blocking
//! stream, the per-thread streams included: at least the ordering CUDA
//! gives them. The asynchronous array copies wait for their stream and then
//! copy: correct in stream order, only less concurrent.

use crate::errors::cudaError_t;
use crate::ffi::{
    cudaExtent, cudaMemcpy3DParms, cudaPitchedPtr, cudaStream_t, Dim3, STREAM_PER_THREAD,
};
use std::ffi::{c_int, c_uint, c_void};

/// The stream a `_ptsz` call means.
pub(crate) fn ptsz(stream: cudaStream_t) -> cudaStream_t {
    if stream.is_null() {
        STREAM_PER_THREAD as cudaStream_t
    } else {
        stream
    }
}

/// Waits for `stream`, then runs a synchronous copy.
fn after(stream: cudaStream_t, copy: impl FnOnce() -> cudaError_t) -> cudaError_t {
    let e = crate::stream::cudaStreamSynchronize(stream);
    if e != 0 {
        return e;
    }
    copy()
}

/// `cudaEventRecordWithFlags` on the per-thread stream for 0.
#[no_mangle]
pub extern "C" fn cudaEventRecordWithFlags_ptsz(
    event: *mut c_void,
    stream: cudaStream_t,
    flags: c_uint,
) -> cudaError_t {
    crate::event::cudaEventRecordWithFlags(event, ptsz(stream), flags)
}

/// `cudaLaunchHostFunc` with a synchronisation mode (CUDA 13), which the
/// CPU runtime has no use for: host functions always run on the stream's
/// thread.
///
/// # Safety
/// As `cudaLaunchHostFunc`.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchHostFunc_v2(
    stream: cudaStream_t,
    f: crate::stream::HostFn,
    data: *mut c_void,
    _sync_mode: c_uint,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { crate::stream::cudaLaunchHostFunc(stream, f, data) }
}

/// [`cudaLaunchHostFunc_v2`] on the per-thread stream for 0.
///
/// # Safety
/// As `cudaLaunchHostFunc`.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchHostFunc_v2_ptsz(
    stream: cudaStream_t,
    f: crate::stream::HostFn,
    data: *mut c_void,
    _sync_mode: c_uint,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { crate::stream::cudaLaunchHostFunc(ptsz(stream), f, data) }
}

/// `cudaStreamGetFlags` with 0 naming the per-thread stream.
///
/// # Safety
/// As `cudaStreamGetFlags`.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetFlags_ptsz(
    stream: cudaStream_t,
    flags: *mut c_uint,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { crate::stream::cudaStreamGetFlags(ptsz(stream), flags) }
}

/// `cudaStreamGetPriority` with 0 naming the per-thread stream.
///
/// # Safety
/// As `cudaStreamGetPriority`.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetPriority_ptsz(
    stream: cudaStream_t,
    priority: *mut c_int,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { crate::stream::cudaStreamGetPriority(ptsz(stream), priority) }
}

/// `cudaMemset2DAsync` on the per-thread stream for 0.
#[no_mangle]
pub extern "C" fn cudaMemset2DAsync_ptsz(
    ptr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    crate::memory::cudaMemset2DAsync(ptr, pitch, value, width, height, ptsz(stream))
}

/// `cudaMemset2D` (ordered after every blocking stream).
#[no_mangle]
pub extern "C" fn cudaMemset2D_ptds(
    ptr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
) -> cudaError_t {
    crate::memory::cudaMemset2D(ptr, pitch, value, width, height)
}

/// `cudaMemset3D` (ordered after every blocking stream).
#[no_mangle]
pub extern "C" fn cudaMemset3D_ptds(
    p: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
) -> cudaError_t {
    crate::extras::cudaMemset3D(p, value, extent)
}

/// `cudaMemset3D` in `stream`'s order (waits for the stream, then sets).
#[no_mangle]
pub extern "C" fn cudaMemset3DAsync(
    p: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
    stream: cudaStream_t,
) -> cudaError_t {
    after(stream, || crate::extras::cudaMemset3D(p, value, extent))
}

/// [`cudaMemset3DAsync`] on the per-thread stream for 0.
#[no_mangle]
pub extern "C" fn cudaMemset3DAsync_ptsz(
    p: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
    stream: cudaStream_t,
) -> cudaError_t {
    cudaMemset3DAsync(p, value, extent, ptsz(stream))
}

/// Entry points that are another call under a second name: `_ptds` forms
/// of synchronous calls, and calls cucc runs as a plainer one.
macro_rules! forwards {
    ($($(#[$doc:meta])* $name:ident => $module:ident::$base:ident ($($arg:ident: $ty:ty),*);)*) => {$(
        $(#[$doc])*
        ///
        /// # Safety
        #[doc = concat!("As `", stringify!($base), "`.")]
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> cudaError_t {
            // SAFETY: forwarded contract.
            unsafe { crate::$module::$base($($arg),*) }
        }
    )*};
}
pub(crate) use forwards;

/// `_ptsz` forms whose stream comes last: the base call, with 0 naming the
/// calling thread's stream.
macro_rules! ptsz_forms {
    ($($name:ident => $module:ident::$base:ident ($($arg:ident: $ty:ty),*);)*) => {$(
        #[doc = concat!("`", stringify!($base), "` on the per-thread stream for 0.")]
        ///
        /// # Safety
        #[doc = concat!("As `", stringify!($base), "`.")]
        #[no_mangle]
        #[allow(clippy::too_many_arguments, unused_unsafe)]
        pub unsafe extern "C" fn $name($($arg: $ty,)* stream: cudaStream_t) -> cudaError_t {
            // SAFETY: forwarded contract.
            unsafe { crate::$module::$base($($arg,)* ptsz(stream)) }
        }
    )*};
}

ptsz_forms! {
    cudaLaunchCooperativeKernel_ptsz => extras::cudaLaunchCooperativeKernel (func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize);
    cudaMemcpy2DAsync_ptsz => memory::cudaMemcpy2DAsync (dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int);
    cudaMemcpy3DAsync_ptsz => array::cudaMemcpy3DAsync (p: *const cudaMemcpy3DParms);
    cudaMemcpyToSymbolAsync_ptsz => memory::cudaMemcpyToSymbolAsync (symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int);
    cudaMemcpyFromSymbolAsync_ptsz => memory::cudaMemcpyFromSymbolAsync (dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int);
    cudaMemPrefetchAsync_ptsz => memadvise::cudaMemPrefetchAsync (ptr: *const c_void, count: usize, location: crate::mempool::cudaMemLocation, flags: c_uint);
}

/// `_ptsz` forms whose stream comes first: the base call, with 0 naming the
/// calling thread's stream.
macro_rules! ptsz_first_forms {
    ($($name:ident => $module:ident::$base:ident ($($arg:ident: $ty:ty),*);)*) => {$(
        #[doc = concat!("`", stringify!($base), "` on the per-thread stream for 0.")]
        ///
        /// # Safety
        #[doc = concat!("As `", stringify!($base), "`.")]
        #[no_mangle]
        #[allow(clippy::too_many_arguments, unused_unsafe)]
        pub unsafe extern "C" fn $name(stream: cudaStream_t, $($arg: $ty),*) -> cudaError_t {
            // SAFETY: forwarded contract.
            unsafe { crate::$module::$base(crate::ptsz::ptsz(stream), $($arg),*) }
        }
    )*};
}
pub(crate) use ptsz_first_forms;

macro_rules! async_array_copies {
    ($($(#[$doc:meta])* $name:ident, $name_ptsz:ident => $base:ident ($($arg:ident: $ty:ty),*);)*) => {$(
        $(#[$doc])*
        ///
        /// # Safety
        #[doc = concat!("As `", stringify!($base), "`.")]
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name($($arg: $ty,)* stream: cudaStream_t) -> cudaError_t {
            // SAFETY: forwarded contract.
            after(stream, || unsafe { crate::array::$base($($arg),*) })
        }

        $(#[$doc])*
        /// (0 names the per-thread stream.)
        ///
        /// # Safety
        #[doc = concat!("As `", stringify!($base), "`.")]
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name_ptsz($($arg: $ty,)* stream: cudaStream_t) -> cudaError_t {
            // SAFETY: forwarded contract.
            after(ptsz(stream), || unsafe { crate::array::$base($($arg),*) })
        }
    )*};
}

forwards! {
    /// `cudaMemcpy2D` (ordered after every blocking stream).
    cudaMemcpy2D_ptds => memory::cudaMemcpy2D (dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int);
    /// `cudaMemcpy3D` (ordered after every blocking stream).
    cudaMemcpy3D_ptds => array::cudaMemcpy3D (p: *const cudaMemcpy3DParms);
    /// `cudaMemcpyToArray` (ordered after every blocking stream).
    cudaMemcpyToArray_ptds => array::cudaMemcpyToArray (dst: *mut c_void, w: usize, h: usize, src: *const c_void, count: usize, kind: c_int);
    /// `cudaMemcpyFromArray` (ordered after every blocking stream).
    cudaMemcpyFromArray_ptds => array::cudaMemcpyFromArray (dst: *mut c_void, src: *const c_void, w: usize, h: usize, count: usize, kind: c_int);
    /// `cudaMemcpy2DToArray` (ordered after every blocking stream).
    cudaMemcpy2DToArray_ptds => array::cudaMemcpy2DToArray (dst: *mut c_void, w: usize, h: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int);
    /// `cudaMemcpy2DFromArray` (ordered after every blocking stream).
    cudaMemcpy2DFromArray_ptds => array::cudaMemcpy2DFromArray (dst: *mut c_void, dpitch: usize, src: *const c_void, w: usize, h: usize, width: usize, height: usize, kind: c_int);
}

async_array_copies! {
    /// `cudaMemcpyToArray` in stream order.
    cudaMemcpyToArrayAsync, cudaMemcpyToArrayAsync_ptsz => cudaMemcpyToArray (dst: *mut c_void, w: usize, h: usize, src: *const c_void, count: usize, kind: c_int);
    /// `cudaMemcpyFromArray` in stream order.
    cudaMemcpyFromArrayAsync, cudaMemcpyFromArrayAsync_ptsz => cudaMemcpyFromArray (dst: *mut c_void, src: *const c_void, w: usize, h: usize, count: usize, kind: c_int);
    /// `cudaMemcpy2DToArray` in stream order.
    cudaMemcpy2DToArrayAsync, cudaMemcpy2DToArrayAsync_ptsz => cudaMemcpy2DToArray (dst: *mut c_void, w: usize, h: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int);
    /// `cudaMemcpy2DFromArray` in stream order.
    cudaMemcpy2DFromArrayAsync, cudaMemcpy2DFromArrayAsync_ptsz => cudaMemcpy2DFromArray (dst: *mut c_void, dpitch: usize, src: *const c_void, w: usize, h: usize, width: usize, height: usize, kind: c_int);
}
