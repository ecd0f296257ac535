//! Memory: allocations, the allocation table, copies and sets.
//!
//! "Device" memory is host memory (256-byte aligned, like CUDA's), each
//! owned allocation a mapping of its own between guard regions
//! ([`crate::arena`]), apart from the heap; every
//! allocation the runtime hands out or is told about — device, managed,
//! page-locked host, registered host ranges and `__device__` variable storage —
//! is recorded in an interval map keyed by start address
//! ([`crate::alloc_table`]). Copies check that
//! each device-side range lies inside one live allocation, `cudaFree` rejects
//! pointers it did not hand out, and `cudaPointerGetAttributes` answers from it.
//!
//! Synchronous copies and sets run in legacy-default-stream order. Asynchronous
//! ones are queued on their stream, except when the host side is pageable
//! (not in the table): CUDA returns from those only once the host buffer has
//! been consumed (host to device) or filled (device to host), so here they wait.

use std::ffi::{c_int, c_uint, c_void};
use std::sync::Arc;

use crate::alloc_table::write as table_write;
pub use crate::alloc_table::{check_device_range, find, insert_range, Alloc, Kind};
use crate::bulk;
use crate::errors::{api_dev, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::{
    cudaExtent, cudaPitchedPtr, cudaPointerAttributes, cudaStream_t, memory_type,
    INVALID_DEVICE_ID, MEMCPY_DEFAULT, MEMCPY_DEVICE_TO_DEVICE, MEMCPY_DEVICE_TO_HOST,
    MEMCPY_HOST_TO_DEVICE, MEMCPY_HOST_TO_HOST,
};
use crate::registry::resolve_symbol;
use crate::stream::{legacy, resolve, resolve_ptsz, run_sync, submit, synchronize_all, Stream};

/// Entry points that run one operation on a stream and differ only in
/// which stream and how: the plain form on the legacy stream, `_ptds` on
/// the calling thread's default stream (both waiting for the operation),
/// `Async` queued on the caller's stream and `_ptsz` with 0 naming the
/// per-thread one. `unsafe` forms forward their caller's contract.
macro_rules! stream_entry_points {
    (safe $($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*)
        => $op:ident($($call:expr),*) on $stream:expr, $mode:ident;)*) => {$(
        $(#[$doc])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $name($($arg: $ty),*) -> cudaError_t {
            api_dev(|| $op($($call,)* &$stream?, Mode::$mode))
        }
    )*};
    (unsafe $($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*)
        => $op:ident($($call:expr),*) on $stream:expr, $mode:ident;)*) => {$(
        $(#[$doc])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> cudaError_t {
            // SAFETY: forwarded contract.
            api_dev(|| unsafe { $op($($call,)* &$stream?, Mode::$mode) })
        }
    )*};
}

/// Alignment of every allocation (CUDA guarantees at least 256 bytes).
pub const ALLOC_ALIGN: usize = 256;
/// Row alignment of pitched allocations.
pub const PITCH_ALIGN: usize = 256;

pub(crate) fn allocate(size: usize, kind: Kind) -> CudaResult<*mut c_void> {
    let _p = crate::profile::Scope::new(crate::profile::Category::Malloc);
    let commit = size >= bulk::COMMIT_BYTES && bulk::commit_enabled();
    // A mapping of its own, between guards, apart from the host heap.
    let ptr = crate::arena::map(size).ok_or(Error::MemoryAllocation)? as *mut c_void;
    if commit {
        // SAFETY: the allocation just made.
        unsafe { bulk::commit(ptr as usize, size) };
    }
    table_write().insert(ptr as usize, Alloc { size, kind });
    Ok(ptr)
}

/// Frees an owned allocation of one of `kinds` that starts exactly at `ptr`.
pub(crate) fn release(ptr: usize, kinds: &[Kind]) -> CudaResult {
    let _p = crate::profile::Scope::new(crate::profile::Category::Free);
    let mut table = table_write();
    let size = match table.get(&ptr) {
        Some(a) if kinds.contains(&a.kind) => a.size,
        _ => return Err(Error::InvalidValue),
    };
    table.remove(&ptr);
    drop(table);
    crate::sanitize::memcheck::note_free(ptr, size);
    // SAFETY: the pointer came from `arena::map(size)` and was live in the table.
    unsafe { crate::arena::unmap(ptr, size) };
    Ok(())
}

/// Frees every owned allocation (`cudaDeviceReset`); variable storage stays.
pub fn release_all() {
    crate::mempool::reset();
    let mut table = table_write();
    let owned: Vec<(usize, Alloc)> = table
        .iter()
        .filter(|(_, a)| matches!(a.kind, Kind::Device | Kind::Managed | Kind::PinnedHost))
        .map(|(s, a)| (*s, *a))
        .collect();
    for (start, a) in owned {
        table.remove(&start);
        // SAFETY: owned allocations came from `arena::map(a.size)`.
        unsafe { crate::arena::unmap(start, a.size) };
    }
    table.retain(|_, a| a.kind != Kind::Registered);
}

/// An address that may cross to a stream thread (CUDA's contract: the caller
/// keeps the memory valid until the operation completes).
#[derive(Clone, Copy)]
struct Addr(usize);

/// Copy work: `count` bytes from `src` to `dst` (may overlap).
///
/// # Safety
/// `dst` and `src` must be valid for `count` bytes of writes and
/// reads when the work runs (device sides are checked by the caller).
/// `prefault_dst`: the destination is pageable host memory, faulted in
/// ahead of the copy when large ([`bulk::prefault`]).
/// `dst_dev`: the destination is device memory ([`bulk::copy_to_device`]).
unsafe fn copy_work(
    dst: Addr,
    src: Addr,
    count: usize,
    prefault_dst: bool,
    dst_dev: bool,
) -> impl FnOnce() + Send + 'static {
    move || {
        let (d, s) = (dst, src);
        // SAFETY: ranges validated at submission (device side) or promised by
        // the caller (host side, writable when prefaulted); every copy
        // tolerates overlap.
        unsafe {
            if prefault_dst {
                bulk::copy_to_host(d.0, s.0, count)
            } else if dst_dev {
                bulk::copy_to_device(d.0, s.0, count)
            } else {
                bulk::copy(d.0, s.0, count)
            }
        };
    }
}

/// Copy work for a pitched region: `rows` from `src` to `dst`.
///
/// # Safety
/// Every row of `rows` at `dst` and `src` must be valid for writes and
/// reads when the work runs (device sides are checked by the caller).
unsafe fn copy_2d_work(dst: Addr, src: Addr, rows: bulk::Rows) -> impl FnOnce() + Send + 'static {
    move || {
        let (d, s) = (dst, src);
        // SAFETY: rows validated at submission (device side) or promised
        // by the caller (host side).
        unsafe { bulk::copy_rows(d.0, s.0, rows) };
    }
}

/// Which sides of a copy are device memory, after validating the direction.
/// Returns `(dst_is_device, src_is_device)`.
fn copy_sides(dst: usize, src: usize, kind: c_int) -> CudaResult<(bool, bool)> {
    match kind {
        MEMCPY_HOST_TO_HOST => Ok((false, false)),
        MEMCPY_HOST_TO_DEVICE => Ok((true, false)),
        MEMCPY_DEVICE_TO_HOST => Ok((false, true)),
        MEMCPY_DEVICE_TO_DEVICE => Ok((true, true)),
        MEMCPY_DEFAULT => Ok((find(dst).is_some(), find(src).is_some())),
        _ => Err(Error::InvalidMemcpyDirection),
    }
}

/// The extent a pitched region spans: `pitch * (height - 1) + width`.
fn pitched_extent(pitch: usize, width: usize, height: usize) -> CudaResult<usize> {
    if height == 0 {
        return Ok(0);
    }
    pitch
        .checked_mul(height - 1)
        .and_then(|v| v.checked_add(width))
        .ok_or(Error::InvalidValue)
}

/// Whether a host-side pointer is pageable (unknown to the runtime).
fn is_pageable(ptr: usize) -> bool {
    find(ptr).is_none()
}

/// How a copy or set is issued.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Returns once done (`cudaMemcpy`).
    Sync,
    /// Queued (`cudaMemcpyAsync`), unless a host side is pageable.
    Async,
}

fn issue(
    stream: &Arc<Stream>,
    mode: Mode,
    wait: bool,
    work: impl FnOnce() + Send + 'static,
) -> CudaResult {
    if mode == Mode::Sync || wait {
        run_sync(stream, work)
    } else {
        submit(stream, work).map(|_| ())
    }
}

/// A copy of `count` bytes in `stream`'s order: every `cudaMemcpy*`.
///
/// # Safety
/// The host sides of the copy (those `kind` does not make device memory)
/// must be valid for `count` bytes of reads (`src`) or writes (`dst`)
/// until the copy has run; device sides are checked here.
unsafe fn memcpy(
    dst: usize,
    src: usize,
    count: usize,
    kind: c_int,
    stream: &Arc<Stream>,
    mode: Mode,
) -> CudaResult {
    let (dst_dev, src_dev) = copy_sides(dst, src, kind)?;
    if count == 0 {
        return Ok(());
    }
    if dst == 0 || src == 0 {
        return Err(Error::InvalidValue);
    }
    if dst_dev {
        check_device_range(dst, count)?;
    }
    if src_dev {
        check_device_range(src, count)?;
    }
    if let Some(r) = crate::capture::memcpy_1d(stream, dst, src, count, kind) {
        return r;
    }
    let pageable_dst = !dst_dev && is_pageable(dst);
    let pageable = pageable_dst || (!src_dev && is_pageable(src));
    let category = crate::profile::Category::memcpy(dst_dev, src_dev);
    let work = unsafe { copy_work(Addr(dst), Addr(src), count, pageable_dst, dst_dev) };
    issue(
        stream,
        mode,
        pageable,
        crate::profile::timed(category, count, work),
    )
}

/// A pitched 2D copy in `stream`'s order: every `cudaMemcpy2D*`.
///
/// # Safety
/// As [`memcpy`], for every row of the pitched regions.
#[allow(clippy::too_many_arguments)]
unsafe fn memcpy_2d(
    dst: usize,
    dpitch: usize,
    src: usize,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    stream: &Arc<Stream>,
    mode: Mode,
) -> CudaResult {
    let (dst_dev, src_dev) = copy_sides(dst, src, kind)?;
    if width > dpitch || width > spitch {
        return Err(Error::InvalidPitchValue);
    }
    if width == 0 || height == 0 {
        return Ok(());
    }
    if dst == 0 || src == 0 {
        return Err(Error::InvalidValue);
    }
    if dst_dev {
        check_device_range(dst, pitched_extent(dpitch, width, height)?)?;
    }
    if src_dev {
        check_device_range(src, pitched_extent(spitch, width, height)?)?;
    }
    let shape = [dpitch, spitch, width, height];
    if let Some(r) = crate::capture::memcpy_2d(stream, dst, src, shape, kind) {
        return r;
    }
    let pageable = (!dst_dev && is_pageable(dst)) || (!src_dev && is_pageable(src));
    let rows = bulk::Rows {
        dpitch,
        spitch,
        width,
        height,
    };
    let category = crate::profile::Category::memcpy(dst_dev, src_dev);
    let work = unsafe { copy_2d_work(Addr(dst), Addr(src), rows) };
    issue(
        stream,
        mode,
        pageable,
        crate::profile::timed(category, width * height, work),
    )
}

fn memset_2d(
    ptr: usize,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: &Arc<Stream>,
    mode: Mode,
) -> CudaResult {
    if width > pitch {
        return Err(Error::InvalidValue);
    }
    if width == 0 || height == 0 {
        return Ok(());
    }
    check_device_range(ptr, pitched_extent(pitch, width, height)?)?;
    if let Some(r) = crate::capture::memset_2d(stream, ptr, pitch, value as u8, width, height) {
        return r;
    }
    let dst = Addr(ptr);
    let work = move || {
        let d = dst;
        if width == pitch || height == 1 {
            // SAFETY: one contiguous validated range.
            unsafe { bulk::set(d.0, value as u8, width * height) };
            return;
        }
        for row in 0..height {
            // SAFETY: every row lies in the validated extent.
            unsafe { std::ptr::write_bytes((d.0 + row * pitch) as *mut u8, value as u8, width) };
        }
    };
    let category = crate::profile::Category::Memset;
    issue(
        stream,
        mode,
        false,
        crate::profile::timed(category, width * height, work),
    )
}

fn memset(ptr: usize, value: c_int, count: usize, stream: &Arc<Stream>, mode: Mode) -> CudaResult {
    memset_2d(ptr, count, value, count, 1, stream, mode)
}

/// Allocates device memory (256-byte aligned; a size of 0 yields NULL).
///
/// # Safety
/// `dev_ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc(dev_ptr: *mut *mut c_void, size: usize) -> cudaError_t {
    crate::driver::context::runtime_holds_primary();
    api_dev(|| {
        non_null(dev_ptr)?;
        let p = if size == 0 {
            std::ptr::null_mut()
        } else {
            allocate(size, Kind::Device)?
        };
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(dev_ptr, p) }
    })
}

/// Frees device or managed memory after all outstanding work (NULL is a no-op).
///
/// Safe: only pointers the allocation table holds are freed.
#[no_mangle]
pub extern "C" fn cudaFree(dev_ptr: *mut c_void) -> cudaError_t {
    crate::driver::context::runtime_holds_primary();
    api_dev(|| {
        if dev_ptr.is_null() {
            return Ok(());
        }
        synchronize_all()?;
        release(dev_ptr as usize, &[Kind::Device, Kind::Managed])?;
        crate::mempool::forget(dev_ptr as usize);
        Ok(())
    })
}

/// Allocates page-locked host memory.
///
/// # Safety
/// `ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocHost(ptr: *mut *mut c_void, size: usize) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaHostAlloc(ptr, size, 0) }
}

/// Allocates page-locked host memory with `cudaHostAlloc*` flags.
///
/// # Safety
/// `ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaHostAlloc(
    ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        if ptr.is_null() || flags & !0x7 != 0 {
            return Err(Error::InvalidValue);
        }
        let p = allocate(size, Kind::PinnedHost)?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(ptr, p) }
    })
}

/// Frees memory from `cudaMallocHost`/`cudaHostAlloc` after outstanding work.
///
/// Safe: only pointers the allocation table holds are freed.
#[no_mangle]
pub extern "C" fn cudaFreeHost(ptr: *mut c_void) -> cudaError_t {
    api_dev(|| {
        if ptr.is_null() {
            return Ok(());
        }
        synchronize_all()?;
        release(ptr as usize, &[Kind::PinnedHost])
    })
}

/// Allocates managed memory (`cudaMemAttachGlobal` or `cudaMemAttachHost`).
///
/// # Safety
/// `dev_ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocManaged(
    dev_ptr: *mut *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        if dev_ptr.is_null() || size == 0 || !(flags == 1 || flags == 2) {
            return Err(Error::InvalidValue);
        }
        let p = allocate(size, Kind::Managed)?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(dev_ptr, p) }
    })
}

fn round_pitch(width: usize) -> CudaResult<usize> {
    width
        .max(1)
        .checked_next_multiple_of(PITCH_ALIGN)
        .ok_or(Error::InvalidValue)
}

/// Allocates `height` rows of `width` bytes with a 256-byte-aligned pitch.
///
/// # Safety
/// Each pointer must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocPitch(
    dev_ptr: *mut *mut c_void,
    pitch: *mut usize,
    width: usize,
    height: usize,
) -> cudaError_t {
    api_dev(|| {
        non_null(dev_ptr)?;
        non_null(pitch)?;
        let p = round_pitch(width)?;
        let bytes = p.checked_mul(height).ok_or(Error::InvalidValue)?;
        let mem = if bytes == 0 {
            std::ptr::null_mut()
        } else {
            allocate(bytes, Kind::Device)?
        };
        // SAFETY: checked non-null; caller promises validity.
        unsafe {
            write_out(pitch, p)?;
            write_out(dev_ptr, mem)
        }
    })
}

/// Allocates a pitched 3D region.
///
/// # Safety
/// `pitched` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc3D(
    pitched: *mut cudaPitchedPtr,
    extent: cudaExtent,
) -> cudaError_t {
    api_dev(|| {
        non_null(pitched)?;
        let p = round_pitch(extent.width)?;
        let bytes = p
            .checked_mul(extent.height)
            .and_then(|v| v.checked_mul(extent.depth))
            .ok_or(Error::InvalidValue)?;
        let mem = if bytes == 0 {
            std::ptr::null_mut()
        } else {
            allocate(bytes, Kind::Device)?
        };
        let value = cudaPitchedPtr {
            ptr: mem,
            pitch: p,
            xsize: extent.width,
            ysize: extent.height,
        };
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(pitched, value) }
    })
}

stream_entry_points! {
    safe
    /// Sets `count` bytes of device memory to `value` (synchronous with the host).
    ///
    /// Safe: the range is checked against the allocation table.
    fn cudaMemset(dev_ptr: *mut c_void, value: c_int, count: usize)
        => memset(dev_ptr as usize, value, count) on legacy(), Sync;

    /// `cudaMemset` in per-thread default stream order.
    ///
    /// Safe: the range is checked against the allocation table.
    fn cudaMemset_ptds(dev_ptr: *mut c_void, value: c_int, count: usize)
        => memset(dev_ptr as usize, value, count) on resolve_ptsz(std::ptr::null_mut()), Sync;

    /// Queues a memset on a stream.
    ///
    /// Safe: the range is checked against the allocation table.
    fn cudaMemsetAsync(dev_ptr: *mut c_void, value: c_int, count: usize, stream: cudaStream_t)
        => memset(dev_ptr as usize, value, count) on resolve(stream), Async;

    /// `cudaMemsetAsync` with per-thread default stream semantics.
    ///
    /// Safe: the range is checked against the allocation table.
    fn cudaMemsetAsync_ptsz(dev_ptr: *mut c_void, value: c_int, count: usize, stream: cudaStream_t)
        => memset(dev_ptr as usize, value, count) on resolve_ptsz(stream), Async;

    /// Sets a pitched 2D region.
    ///
    /// Safe: the range is checked against the allocation table.
    fn cudaMemset2D(dev_ptr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize)
        => memset_2d(dev_ptr as usize, pitch, value, width, height) on legacy(), Sync;

    /// Queues a pitched 2D set on a stream.
    ///
    /// Safe: the range is checked against the allocation table.
    fn cudaMemset2DAsync(dev_ptr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize, stream: cudaStream_t)
        => memset_2d(dev_ptr as usize, pitch, value, width, height) on resolve(stream), Async;
}

stream_entry_points! {
    unsafe
    /// Copies `count` bytes; returns when the copy is done.
    ///
    /// # Safety
    /// The host sides of the copy (per `kind`; with `cudaMemcpyDefault`,
    /// any pointer the runtime did not allocate or register) must be valid
    /// for `count` bytes of reads (`src`) or writes (`dst`). Device sides
    /// are checked against the allocation table.
    fn cudaMemcpy(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int)
        => memcpy(dst as usize, src as usize, count, kind) on legacy(), Sync;

    /// `cudaMemcpy` in per-thread default stream order.
    ///
    /// # Safety
    /// As [`cudaMemcpy`].
    fn cudaMemcpy_ptds(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int)
        => memcpy(dst as usize, src as usize, count, kind) on resolve_ptsz(std::ptr::null_mut()), Sync;

    /// Queues a copy on a stream.
    ///
    /// # Safety
    /// As [`cudaMemcpy`]; the memory must stay valid until the copy has run.
    fn cudaMemcpyAsync(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int, stream: cudaStream_t)
        => memcpy(dst as usize, src as usize, count, kind) on resolve(stream), Async;

    /// `cudaMemcpyAsync` with per-thread default stream semantics.
    ///
    /// # Safety
    /// As [`cudaMemcpyAsync`].
    fn cudaMemcpyAsync_ptsz(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int, stream: cudaStream_t)
        => memcpy(dst as usize, src as usize, count, kind) on resolve_ptsz(stream), Async;

    /// Copies a pitched 2D region; returns when done.
    ///
    /// # Safety
    /// As [`cudaMemcpy`], for every row of the pitched regions.
    fn cudaMemcpy2D(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int)
        => memcpy_2d(dst as usize, dpitch, src as usize, spitch, width, height, kind) on legacy(), Sync;

    /// Queues a pitched 2D copy on a stream.
    ///
    /// # Safety
    /// As [`cudaMemcpy2D`]; the memory must stay valid until the copy has run.
    fn cudaMemcpy2DAsync(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int, stream: cudaStream_t)
        => memcpy_2d(dst as usize, dpitch, src as usize, spitch, width, height, kind) on resolve(stream), Async;

    /// Copies into a `__device__`/`__constant__` variable (named by its host shadow).
    ///
    /// # Safety
    /// `src`, when it is host memory (per `kind`), must be valid for
    /// `count` bytes of reads.
    fn cudaMemcpyToSymbol(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int)
        => to_symbol(symbol, src as usize, count, offset, kind) on legacy(), Sync;

    /// `cudaMemcpyToSymbol` in per-thread default stream order.
    ///
    /// # Safety
    /// As [`cudaMemcpyToSymbol`].
    fn cudaMemcpyToSymbol_ptds(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int)
        => to_symbol(symbol, src as usize, count, offset, kind) on resolve_ptsz(std::ptr::null_mut()), Sync;

    /// Queued form of [`cudaMemcpyToSymbol`].
    ///
    /// # Safety
    /// As [`cudaMemcpyToSymbol`]; `src` must stay valid until the copy
    /// has run.
    fn cudaMemcpyToSymbolAsync(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int, stream: cudaStream_t)
        => to_symbol(symbol, src as usize, count, offset, kind) on resolve(stream), Async;

    /// Copies out of a `__device__`/`__constant__` variable.
    ///
    /// # Safety
    /// `dst`, when it is host memory (per `kind`), must be valid for
    /// `count` bytes of writes.
    fn cudaMemcpyFromSymbol(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int)
        => from_symbol(dst as usize, symbol, count, offset, kind) on legacy(), Sync;

    /// `cudaMemcpyFromSymbol` in per-thread default stream order.
    ///
    /// # Safety
    /// As [`cudaMemcpyFromSymbol`].
    fn cudaMemcpyFromSymbol_ptds(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int)
        => from_symbol(dst as usize, symbol, count, offset, kind) on resolve_ptsz(std::ptr::null_mut()), Sync;

    /// Queued form of [`cudaMemcpyFromSymbol`].
    ///
    /// # Safety
    /// As [`cudaMemcpyFromSymbol`]; `dst` must stay valid until the copy
    /// has run.
    fn cudaMemcpyFromSymbolAsync(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int, stream: cudaStream_t)
        => from_symbol(dst as usize, symbol, count, offset, kind) on resolve(stream), Async;
}

/// The copy kind of a copy between devices, once both exist: every
/// device's memory is the host's (unified), so it is a device copy.
fn peer_kind(dst_device: c_int, src_device: c_int) -> CudaResult<c_int> {
    crate::devices::kind(dst_device)?;
    crate::devices::kind(src_device)?;
    Ok(MEMCPY_DEVICE_TO_DEVICE)
}

/// A device-to-device copy (`kind` from [`peer_kind`]).
fn peer_copy(
    dst: usize,
    src: usize,
    count: usize,
    kind: c_int,
    stream: &Arc<Stream>,
    mode: Mode,
) -> CudaResult {
    // SAFETY: both sides are device memory, which `memcpy` checks against
    // the allocation table.
    unsafe { memcpy(dst, src, count, kind, stream, mode) }
}

stream_entry_points! {
    safe
    /// Copies between devices; only device 0 exists, so this is a device copy.
    ///
    /// Safe: both pointers are checked against the allocation table.
    fn cudaMemcpyPeer(dst: *mut c_void, dst_device: c_int, src: *const c_void, src_device: c_int, count: usize)
        => peer_copy(dst as usize, src as usize, count, peer_kind(dst_device, src_device)?) on legacy(), Sync;

    /// Queued form of [`cudaMemcpyPeer`].
    ///
    /// Safe: both pointers are checked against the allocation table.
    fn cudaMemcpyPeerAsync(dst: *mut c_void, dst_device: c_int, src: *const c_void, src_device: c_int, count: usize, stream: cudaStream_t)
        => peer_copy(dst as usize, src as usize, count, peer_kind(dst_device, src_device)?) on resolve(stream), Async;
}

/// The address of `count` bytes at `offset` in a variable's storage, after
/// checking the range and that `kind` is `host_kind` (the direction of the
/// call), device-to-device or default.
fn symbol_bytes(
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    host_kind: c_int,
) -> CudaResult<usize> {
    let (base, size) = resolve_symbol(symbol)?;
    if kind != host_kind && kind != MEMCPY_DEVICE_TO_DEVICE && kind != MEMCPY_DEFAULT {
        return Err(Error::InvalidMemcpyDirection);
    }
    if offset.checked_add(count).is_none_or(|end| end > size) {
        return Err(Error::InvalidValue);
    }
    Ok(base + offset)
}

/// A copy into a variable's storage.
///
/// # Safety
/// As [`memcpy`] for `src` when it is host memory.
unsafe fn to_symbol(
    symbol: *const c_void,
    src: usize,
    count: usize,
    offset: usize,
    kind: c_int,
    stream: &Arc<Stream>,
    mode: Mode,
) -> CudaResult {
    let at = symbol_bytes(symbol, count, offset, kind, MEMCPY_HOST_TO_DEVICE)?;
    // SAFETY: forwarded contract; the symbol side is its registered storage.
    unsafe { memcpy(at, src, count, kind, stream, mode) }
}

/// A copy out of a variable's storage.
///
/// # Safety
/// As [`memcpy`] for `dst` when it is host memory.
unsafe fn from_symbol(
    dst: usize,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    stream: &Arc<Stream>,
    mode: Mode,
) -> CudaResult {
    let at = symbol_bytes(symbol, count, offset, kind, MEMCPY_DEVICE_TO_HOST)?;
    // SAFETY: forwarded contract; the symbol side is its registered storage.
    unsafe { memcpy(dst, at, count, kind, stream, mode) }
}

/// The device address of a variable's storage.
///
/// # Safety
/// `dev_ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolAddress(
    dev_ptr: *mut *mut c_void,
    symbol: *const c_void,
) -> cudaError_t {
    api_dev(|| {
        let (base, _) = resolve_symbol(symbol)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(dev_ptr, base as *mut c_void) }
    })
}

/// The size of a variable's storage.
///
/// # Safety
/// `size` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> cudaError_t {
    api_dev(|| {
        let (_, len) = resolve_symbol(symbol)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(size, len) }
    })
}

/// Free and total memory: the host's available and physical memory.
///
/// # Safety
/// Each pointer must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> cudaError_t {
    api_dev(|| {
        // SAFETY: forwarded contract.
        unsafe {
            write_out(free, crate::host::available_memory())?;
            write_out(total, crate::host::physical_memory())
        }
    })
}

/// What the runtime knows about a pointer. Unknown pointers are
/// `cudaMemoryTypeUnregistered` host memory (CUDA 11+ behaviour).
///
/// # Safety
/// `attributes` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaPointerGetAttributes(
    attributes: *mut cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    api_dev(|| {
        let p = ptr as *mut c_void;
        let (type_, device, device_ptr, host_ptr) = match find(ptr as usize).map(|(_, a)| a.kind) {
            None => (
                memory_type::UNREGISTERED,
                INVALID_DEVICE_ID,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            ),
            Some(Kind::Device | Kind::Symbol) => (memory_type::DEVICE, 0, p, std::ptr::null_mut()),
            Some(Kind::Managed) => (memory_type::MANAGED, 0, p, p),
            Some(Kind::PinnedHost | Kind::Registered) => (memory_type::HOST, 0, p, p),
        };
        let value = cudaPointerAttributes {
            type_,
            device,
            devicePointer: device_ptr,
            hostPointer: host_ptr,
            reserved: [0; 8],
        };
        // SAFETY: forwarded contract.
        unsafe { write_out(attributes, value) }
    })
}

/// Registers a host range as page-locked (recorded; the memory is unchanged).
///
/// # Safety
/// `[ptr, ptr + size)` must be memory the caller owns, valid for reads and
/// writes until it is unregistered and every copy, set or kernel using it
/// has completed: the runtime then treats it as device-accessible memory.
#[no_mangle]
pub unsafe extern "C" fn cudaHostRegister(
    ptr: *mut c_void,
    size: usize,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        if ptr.is_null() || size == 0 || flags & !0xf != 0 {
            return Err(Error::InvalidValue);
        }
        let start = ptr as usize;
        let end = start.checked_add(size).ok_or(Error::InvalidValue)?;
        let mut table = table_write();
        let overlaps = table
            .range(..end)
            .next_back()
            .is_some_and(|(&s, a)| s + a.size.max(1) > start);
        if overlaps {
            return Err(Error::HostMemoryAlreadyRegistered);
        }
        table.insert(
            start,
            Alloc {
                size,
                kind: Kind::Registered,
            },
        );
        Ok(())
    })
}

/// Unregisters a range registered by [`cudaHostRegister`].
///
/// Safe: only a registered range's start is accepted.
#[no_mangle]
pub extern "C" fn cudaHostUnregister(ptr: *mut c_void) -> cudaError_t {
    api_dev(|| {
        let mut table = table_write();
        match table.get(&(ptr as usize)) {
            Some(a) if a.kind == Kind::Registered => {
                table.remove(&(ptr as usize));
                Ok(())
            }
            _ => Err(Error::HostMemoryNotRegistered),
        }
    })
}

/// The device address of mapped host memory: the same address (one address space).
///
/// # Safety
/// `dev_ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaHostGetDevicePointer(
    dev_ptr: *mut *mut c_void,
    host: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        if flags != 0 {
            return Err(Error::InvalidValue);
        }
        match find(host as usize) {
            Some((_, a))
                if matches!(a.kind, Kind::PinnedHost | Kind::Registered | Kind::Managed) =>
            {
                // SAFETY: forwarded contract.
                unsafe { write_out(dev_ptr, host) }
            }
            _ => Err(Error::InvalidValue),
        }
    })
}
