//! Memory: allocations, copies, sets and pointer attributes, on the
//! runtime's allocation table (a `CUdeviceptr` is a pointer the table
//! knows). Copies and byte sets take the runtime's paths; 16- and 32-bit
//! sets with a value whose bytes differ are filled here, in stream order.

use std::ffi::{c_int, c_uint, c_void};

use super::context::{current, need_context};
use super::result::{INVALID_VALUE, NOT_FOUND};
use super::{drv, drv_ctx, rt, CUresult, DrvResult};
use crate::alloc_table::{check_device_range, find, Kind};
use crate::ffi::cudaStream_t;
use crate::memory as m;

/// A `CUdeviceptr`.
pub type CUdeviceptr = u64;

fn ptr(d: CUdeviceptr) -> *mut c_void {
    d as usize as *mut c_void
}

/// `cuMemAlloc_v2`: a size of 0 is an error, unlike `cudaMalloc`'s.
pub unsafe extern "C" fn cuMemAlloc_v2(dptr: *mut CUdeviceptr, size: usize) -> CUresult {
    drv_ctx(|| {
        if dptr.is_null() || size == 0 {
            return Err(INVALID_VALUE);
        }
        let mut p = std::ptr::null_mut();
        // SAFETY: a local out-value.
        rt(unsafe { m::cudaMalloc(&mut p, size) })?;
        // SAFETY: checked non-null.
        unsafe { dptr.write(p as u64) };
        Ok(())
    })
}

unsafe extern "C" fn cuMemFree_v2(d: CUdeviceptr) -> CUresult {
    drv_ctx(|| rt(m::cudaFree(ptr(d))))
}

unsafe extern "C" fn cuMemAllocHost_v2(pp: *mut *mut c_void, size: usize) -> CUresult {
    drv_ctx(|| {
        if pp.is_null() || size == 0 {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null.
        rt(unsafe { m::cudaMallocHost(pp, size) })
    })
}

unsafe extern "C" fn cuMemHostAlloc(pp: *mut *mut c_void, size: usize, flags: c_uint) -> CUresult {
    drv_ctx(|| {
        if pp.is_null() || size == 0 {
            return Err(INVALID_VALUE);
        }
        // `CU_MEMHOSTALLOC_*` and `cudaHostAlloc*` share their bits.
        // SAFETY: checked non-null.
        rt(unsafe { m::cudaHostAlloc(pp, size, flags) })
    })
}

unsafe extern "C" fn cuMemFreeHost(p: *mut c_void) -> CUresult {
    drv_ctx(|| rt(m::cudaFreeHost(p)))
}

unsafe extern "C" fn cuMemHostGetDevicePointer_v2(
    dptr: *mut CUdeviceptr,
    p: *mut c_void,
    flags: c_uint,
) -> CUresult {
    drv_ctx(|| {
        if dptr.is_null() {
            return Err(INVALID_VALUE);
        }
        let mut d = std::ptr::null_mut();
        // SAFETY: a local out-value.
        rt(unsafe { m::cudaHostGetDevicePointer(&mut d, p, flags) })?;
        // SAFETY: checked non-null.
        unsafe { dptr.write(d as u64) };
        Ok(())
    })
}

unsafe extern "C" fn cuMemHostRegister_v2(p: *mut c_void, size: usize, flags: c_uint) -> CUresult {
    drv_ctx(|| {
        // SAFETY: the caller's contract, as `cudaHostRegister`'s.
        rt(unsafe { m::cudaHostRegister(p, size, flags) })
    })
}

unsafe extern "C" fn cuMemHostUnregister(p: *mut c_void) -> CUresult {
    drv_ctx(|| rt(m::cudaHostUnregister(p)))
}

unsafe extern "C" fn cuMemAllocManaged(
    dptr: *mut CUdeviceptr,
    size: usize,
    flags: c_uint,
) -> CUresult {
    drv_ctx(|| {
        if dptr.is_null() {
            return Err(INVALID_VALUE);
        }
        let mut p = std::ptr::null_mut();
        // `CU_MEM_ATTACH_GLOBAL`/`HOST` are `cudaMemAttach*`'s values.
        // SAFETY: a local out-value.
        rt(unsafe { m::cudaMallocManaged(&mut p, size, flags) })?;
        // SAFETY: checked non-null.
        unsafe { dptr.write(p as u64) };
        Ok(())
    })
}

unsafe extern "C" fn cuMemAllocPitch_v2(
    dptr: *mut CUdeviceptr,
    pitch: *mut usize,
    width: usize,
    height: usize,
    element: c_uint,
) -> CUresult {
    drv_ctx(|| {
        if dptr.is_null() || pitch.is_null() || !matches!(element, 4 | 8 | 16) {
            return Err(INVALID_VALUE);
        }
        if width == 0 || height == 0 {
            return Err(INVALID_VALUE);
        }
        let mut p = std::ptr::null_mut();
        // SAFETY: a local out-value and the caller's out-pointer.
        rt(unsafe { m::cudaMallocPitch(&mut p, pitch, width, height) })?;
        // SAFETY: checked non-null.
        unsafe { dptr.write(p as u64) };
        Ok(())
    })
}

unsafe extern "C" fn cuMemGetAddressRange_v2(
    base: *mut CUdeviceptr,
    size: *mut usize,
    d: CUdeviceptr,
) -> CUresult {
    drv_ctx(|| {
        let (start, a) = find(d as usize).ok_or(NOT_FOUND)?;
        // SAFETY: the caller's optional out-pointers.
        unsafe {
            if !base.is_null() {
                base.write(start as u64);
            }
            if !size.is_null() {
                size.write(a.size);
            }
        }
        Ok(())
    })
}

unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CUresult {
    drv_ctx(|| {
        // SAFETY: the caller's out-pointers.
        rt(unsafe { m::cudaMemGetInfo(free, total) })
    })
}

/// `cudaMemcpyKind` values.
const HTOD: c_int = 1;
const DTOH: c_int = 2;
const DTOD: c_int = 3;
const DEFAULT: c_int = 4;

/// A copy: synchronous (`stream` None) or queued; per-thread default
/// stream semantics for the `_ptds`/`_ptsz` symbols.
///
/// # Safety
/// The host side of the copy must be valid for `n` bytes.
unsafe fn copy(
    dst: *mut c_void,
    src: *const c_void,
    n: usize,
    kind: c_int,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> DrvResult {
    need_context()?;
    // SAFETY: the caller's contract.
    rt(unsafe {
        match (stream, per_thread) {
            (None, false) => m::cudaMemcpy(dst, src, n, kind),
            (None, true) => m::cudaMemcpy_ptds(dst, src, n, kind),
            (Some(s), false) => m::cudaMemcpyAsync(dst, src, n, kind, s),
            (Some(s), true) => m::cudaMemcpyAsync_ptsz(dst, src, n, kind, s),
        }
    })
}

/// Defines the synchronous copy entry points: `name(dst, src, n)`.
macro_rules! sync_copies {
    ($($name:ident: $dst:ty, $src:ty, $kind:expr, $pt:expr;)*) => {$(
        unsafe extern "C" fn $name(dst: $dst, src: $src, n: usize) -> CUresult {
            drv(|| {
                let (d, s) = (dst as usize as *mut c_void, src as usize as *const c_void);
                // SAFETY: the caller's buffers (CUDA's contract).
                unsafe { copy(d, s, n, $kind, None, $pt) }
            })
        }
    )*};
}

sync_copies! {
    cuMemcpy: CUdeviceptr, CUdeviceptr, DEFAULT, false;
    cuMemcpy_ptds: CUdeviceptr, CUdeviceptr, DEFAULT, true;
    cuMemcpyHtoD_v2: CUdeviceptr, *const c_void, HTOD, false;
    cuMemcpyDtoH_v2: *mut c_void, CUdeviceptr, DTOH, false;
    cuMemcpyDtoD_v2: CUdeviceptr, CUdeviceptr, DTOD, false;
    cuMemcpyDtoH_v2_ptds: *mut c_void, CUdeviceptr, DTOH, true;
    cuMemcpyDtoD_v2_ptds: CUdeviceptr, CUdeviceptr, DTOD, true;
}

/// `cuMemcpyHtoD_v2_ptds`, named for the `cuGetProcAddress` tests.
pub unsafe extern "C" fn cuMemcpyHtoD_v2_ptds(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
) -> CUresult {
    // SAFETY: the caller's buffers.
    drv(|| unsafe { copy(ptr(dst), src, n, HTOD, None, true) })
}

unsafe extern "C" fn cuMemcpyAsync(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: the caller's buffers.
    drv(|| unsafe { copy(ptr(dst), ptr(src), n, DEFAULT, Some(s), false) })
}

unsafe extern "C" fn cuMemcpyAsync_ptsz(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: the caller's buffers.
    drv(|| unsafe { copy(ptr(dst), ptr(src), n, DEFAULT, Some(s), true) })
}

unsafe extern "C" fn cuMemcpyHtoDAsync_v2(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: the caller's buffers.
    drv(|| unsafe { copy(ptr(dst), src, n, HTOD, Some(s), false) })
}

unsafe extern "C" fn cuMemcpyHtoDAsync_v2_ptsz(
    dst: CUdeviceptr,
    src: *const c_void,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: the caller's buffers.
    drv(|| unsafe { copy(ptr(dst), src, n, HTOD, Some(s), true) })
}

unsafe extern "C" fn cuMemcpyDtoHAsync_v2(
    dst: *mut c_void,
    src: CUdeviceptr,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: the caller's buffers.
    drv(|| unsafe { copy(dst, ptr(src), n, DTOH, Some(s), false) })
}

unsafe extern "C" fn cuMemcpyDtoHAsync_v2_ptsz(
    dst: *mut c_void,
    src: CUdeviceptr,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: the caller's buffers.
    drv(|| unsafe { copy(dst, ptr(src), n, DTOH, Some(s), true) })
}

unsafe extern "C" fn cuMemcpyDtoDAsync_v2(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: device memory on both sides, checked by the runtime.
    drv(|| unsafe { copy(ptr(dst), ptr(src), n, DTOD, Some(s), false) })
}

unsafe extern "C" fn cuMemcpyDtoDAsync_v2_ptsz(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    n: usize,
    s: cudaStream_t,
) -> CUresult {
    // SAFETY: device memory on both sides, checked by the runtime.
    drv(|| unsafe { copy(ptr(dst), ptr(src), n, DTOD, Some(s), true) })
}

/// Sets `height` rows of `width` elements of `size` bytes (the low bytes of
/// `value`), rows `pitch` bytes apart. A value whose bytes are all equal
/// takes the runtime's byte set; others are filled here in stream order.
#[allow(clippy::too_many_arguments)]
fn set(
    dst: CUdeviceptr,
    pitch: usize,
    value: u32,
    size: usize,
    width: usize,
    height: usize,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> DrvResult {
    need_context()?;
    let bytes = &value.to_le_bytes()[..size];
    let row = width.checked_mul(size).ok_or(INVALID_VALUE)?;
    if dst as usize % size != 0 || (height > 1 && pitch < row) {
        return Err(INVALID_VALUE);
    }
    if width == 0 || height == 0 {
        return Ok(());
    }
    if bytes.iter().all(|&b| b == bytes[0]) {
        let v = c_int::from(bytes[0]);
        return rt(match (stream, per_thread, height) {
            (None, false, 1) => m::cudaMemset(ptr(dst), v, row),
            (None, true, 1) => m::cudaMemset_ptds(ptr(dst), v, row),
            (Some(s), false, 1) => m::cudaMemsetAsync(ptr(dst), v, row, s),
            (Some(s), true, 1) => m::cudaMemsetAsync_ptsz(ptr(dst), v, row, s),
            (None, _, _) => m::cudaMemset2D(ptr(dst), pitch, v, row, height),
            (Some(s), _, _) => m::cudaMemset2DAsync(ptr(dst), pitch, v, row, height, s),
        });
    }
    crate::errors::check_sticky().map_err(super::result::from_runtime)?;
    let span = pitch
        .checked_mul(height - 1)
        .and_then(|p| p.checked_add(row))
        .ok_or(INVALID_VALUE)?;
    check_device_range(dst as usize, span).map_err(super::result::from_runtime)?;
    let (start, pattern) = (dst as usize, bytes.to_vec());
    let work = move || {
        for r in 0..height {
            let base = start + r * pitch;
            for i in 0..width {
                // SAFETY: the range was checked against the allocation
                // table; the program may not free it while work is queued.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        pattern.as_ptr(),
                        (base + i * size) as *mut u8,
                        size,
                    )
                };
            }
        }
    };
    let resolve = |s| {
        if per_thread {
            crate::stream::resolve_ptsz(s)
        } else {
            crate::stream::resolve(s)
        }
    };
    let r = match stream {
        None => resolve(std::ptr::null_mut()).and_then(|s| crate::stream::run_sync(&s, work)),
        Some(h) => resolve(h).and_then(|s| crate::stream::submit(&s, work).map(|_| ())),
    };
    r.map_err(super::result::from_runtime)
}

/// Defines the set entry points.
macro_rules! sets {
    ($($name:ident($($arg:ident: $t:ty),*) => $size:expr, $pitch:expr, $w:expr, $h:expr, $v:expr, $stream:expr, $pt:expr;)*) => {$(
        unsafe extern "C" fn $name(dst: CUdeviceptr, $($arg: $t),*) -> CUresult {
            drv(|| set(dst, $pitch, $v as u32, $size, $w, $h, $stream, $pt))
        }
    )*};
}

sets! {
    cuMemsetD8_v2(v: u8, n: usize) => 1, n, n, 1, v, None, false;
    cuMemsetD16_v2(v: u16, n: usize) => 2, n * 2, n, 1, v, None, false;
    cuMemsetD32_v2(v: u32, n: usize) => 4, n * 4, n, 1, v, None, false;
    cuMemsetD8_v2_ptds(v: u8, n: usize) => 1, n, n, 1, v, None, true;
    cuMemsetD16_v2_ptds(v: u16, n: usize) => 2, n * 2, n, 1, v, None, true;
    cuMemsetD32_v2_ptds(v: u32, n: usize) => 4, n * 4, n, 1, v, None, true;
    cuMemsetD8Async(v: u8, n: usize, s: cudaStream_t) => 1, n, n, 1, v, Some(s), false;
    cuMemsetD16Async(v: u16, n: usize, s: cudaStream_t) => 2, n * 2, n, 1, v, Some(s), false;
    cuMemsetD32Async(v: u32, n: usize, s: cudaStream_t) => 4, n * 4, n, 1, v, Some(s), false;
    cuMemsetD8Async_ptsz(v: u8, n: usize, s: cudaStream_t) => 1, n, n, 1, v, Some(s), true;
    cuMemsetD16Async_ptsz(v: u16, n: usize, s: cudaStream_t) => 2, n * 2, n, 1, v, Some(s), true;
    cuMemsetD32Async_ptsz(v: u32, n: usize, s: cudaStream_t) => 4, n * 4, n, 1, v, Some(s), true;
    cuMemsetD2D8_v2(p: usize, v: u8, w: usize, h: usize) => 1, p, w, h, v, None, false;
    cuMemsetD2D16_v2(p: usize, v: u16, w: usize, h: usize) => 2, p, w, h, v, None, false;
    cuMemsetD2D32_v2(p: usize, v: u32, w: usize, h: usize) => 4, p, w, h, v, None, false;
    cuMemsetD2D8Async(p: usize, v: u8, w: usize, h: usize, s: cudaStream_t) => 1, p, w, h, v, Some(s), false;
    cuMemsetD2D16Async(p: usize, v: u16, w: usize, h: usize, s: cudaStream_t) => 2, p, w, h, v, Some(s), false;
    cuMemsetD2D32Async(p: usize, v: u32, w: usize, h: usize, s: cudaStream_t) => 4, p, w, h, v, Some(s), false;
}

/// `CUmemorytype`.
const MEMORYTYPE_HOST: u32 = 1;
const MEMORYTYPE_DEVICE: u32 = 2;

/// Writes one pointer attribute of `p` to `data`.
///
/// # Safety
/// `data` must be valid for a write of the attribute's type.
unsafe fn attribute(data: *mut c_void, attr: c_int, p: CUdeviceptr) -> DrvResult {
    if data.is_null() {
        return Err(INVALID_VALUE);
    }
    let found = find(p as usize);
    let known = || found.ok_or(INVALID_VALUE);
    let host_side = |k: Kind| matches!(k, Kind::Managed | Kind::PinnedHost | Kind::Registered);
    // SAFETY (each write): the caller's contract for the attribute's type.
    unsafe {
        match attr {
            1 => {
                known()?;
                (data as *mut usize).write(current().unwrap_or(0));
            }
            2 => {
                let k = known()?.1.kind;
                let t = if matches!(k, Kind::PinnedHost | Kind::Registered) {
                    MEMORYTYPE_HOST
                } else {
                    MEMORYTYPE_DEVICE
                };
                (data as *mut u32).write(t);
            }
            3 => {
                known()?;
                (data as *mut u64).write(p);
            }
            4 => {
                if !host_side(known()?.1.kind) {
                    return Err(INVALID_VALUE);
                }
                (data as *mut u64).write(p);
            }
            6 => {
                known()?;
                (data as *mut u32).write(1);
            }
            7 | 20 => (data as *mut u64).write(known()?.0 as u64),
            8 => (data as *mut u32).write(u32::from(
                found.is_some_and(|(_, a)| a.kind == Kind::Managed),
            )),
            9 => {
                known()?;
                (data as *mut c_int).write(0);
            }
            11 | 19 => (data as *mut u64).write(known()?.0 as u64),
            12 | 18 => (data as *mut usize).write(known()?.1.size),
            13 => (data as *mut u32).write(u32::from(found.is_some())),
            10 | 15 | 21 => (data as *mut u32).write(0),
            14 => (data as *mut u64).write(0),
            16 => (data as *mut u32).write(if found.is_some() { 3 } else { 0 }),
            17 => (data as *mut usize).write(0),
            22 => (data as *mut c_int).write(-1),
            _ => return Err(INVALID_VALUE),
        }
    }
    Ok(())
}

unsafe extern "C" fn cuPointerGetAttribute(
    data: *mut c_void,
    attr: c_int,
    p: CUdeviceptr,
) -> CUresult {
    // SAFETY: the caller's out-pointer for the attribute's type.
    drv(|| unsafe { attribute(data, attr, p) })
}

unsafe extern "C" fn cuPointerGetAttributes(
    n: c_uint,
    attrs: *const c_int,
    data: *mut *mut c_void,
    p: CUdeviceptr,
) -> CUresult {
    drv(|| {
        if n == 0 || attrs.is_null() || data.is_null() {
            return Err(INVALID_VALUE);
        }
        for i in 0..n as usize {
            // SAFETY: the caller promises `n` attributes and `n` data slots.
            let (a, d) = unsafe { (attrs.add(i).read(), data.add(i).read()) };
            // Unlike the single query, unknown pointers answer with
            // defaults rather than fail.
            // SAFETY: the caller's slot for the attribute's type.
            match unsafe { attribute(d, a, p) } {
                Err(e) if find(p as usize).is_some() || d.is_null() => return Err(e),
                Err(_) if a == 1 || a == 3 || a == 4 || a == 11 => {
                    // SAFETY: pointer-sized slot.
                    unsafe { (d as *mut u64).write(0) }
                }
                Err(_) if a == 2 || a == 6 => {
                    // SAFETY: 4-byte slot.
                    unsafe { (d as *mut u32).write(0) }
                }
                Err(_) if a == 9 => {
                    // SAFETY: int slot.
                    unsafe { (d as *mut c_int).write(-2) }
                }
                Err(_) if a == 12 => {
                    // SAFETY: size_t slot.
                    unsafe { (d as *mut usize).write(0) }
                }
                Err(e) => return Err(e),
                Ok(()) => {}
            }
        }
        Ok(())
    })
}

/// This module's entry points by NVIDIA's symbol names.
pub fn entries() -> Vec<(&'static str, usize)> {
    entries![
        cuMemAlloc_v2,
        cuMemFree_v2,
        cuMemAllocHost_v2,
        cuMemHostAlloc,
        cuMemFreeHost,
        cuMemHostGetDevicePointer_v2,
        "cuMemHostRegister" => cuMemHostRegister_v2,
        cuMemHostRegister_v2,
        cuMemHostUnregister,
        cuMemAllocManaged,
        cuMemAllocPitch_v2,
        cuMemGetAddressRange_v2,
        cuMemGetInfo_v2,
        cuMemcpy,
        cuMemcpy_ptds,
        cuMemcpyAsync,
        cuMemcpyAsync_ptsz,
        cuMemcpyHtoD_v2,
        cuMemcpyHtoD_v2_ptds,
        cuMemcpyDtoH_v2,
        cuMemcpyDtoH_v2_ptds,
        cuMemcpyDtoD_v2,
        cuMemcpyDtoD_v2_ptds,
        cuMemcpyHtoDAsync_v2,
        cuMemcpyHtoDAsync_v2_ptsz,
        cuMemcpyDtoHAsync_v2,
        cuMemcpyDtoHAsync_v2_ptsz,
        cuMemcpyDtoDAsync_v2,
        cuMemcpyDtoDAsync_v2_ptsz,
        cuMemsetD8_v2,
        cuMemsetD16_v2,
        cuMemsetD32_v2,
        cuMemsetD8_v2_ptds,
        cuMemsetD16_v2_ptds,
        cuMemsetD32_v2_ptds,
        cuMemsetD8Async,
        cuMemsetD16Async,
        cuMemsetD32Async,
        cuMemsetD8Async_ptsz,
        cuMemsetD16Async_ptsz,
        cuMemsetD32Async_ptsz,
        cuMemsetD2D8_v2,
        cuMemsetD2D16_v2,
        cuMemsetD2D32_v2,
        cuMemsetD2D8Async,
        cuMemsetD2D16Async,
        cuMemsetD2D32Async,
        cuPointerGetAttribute,
        cuPointerGetAttributes,
    ]
}
