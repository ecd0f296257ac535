//! CUDA arrays (`cudaArray_t`): opaque texel storage that textures read.
//!
//! An array is host memory laid out densely (rows of `width` texels, `height`
//! rows per slice, `depth` slices), 256-byte aligned. The handle is the
//! address of that storage; the runtime keeps a table of live arrays, so
//! unknown handles are rejected (`cudaErrorInvalidResourceHandle`) and
//! `cudaDeviceReset` frees them. Textures hold a reference to the arrays they
//! read, so an array freed while a launch still reads it stays alive until
//! the launch completes.
//!
//! Copies to and from arrays run in legacy-default-stream order and return
//! when done; `cudaMemcpy3D` (arrays or pitched pointers on either side) is
//! here too.

use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::{Arc, Mutex};

use crate::errors::{api_dev, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::{
    cudaChannelFormatDesc, cudaExtent, cudaMemcpy3DParms, cudaPitchedPtr, cudaStream_t,
    MEMCPY_DEFAULT, MEMCPY_DEVICE_TO_DEVICE, MEMCPY_DEVICE_TO_HOST, MEMCPY_HOST_TO_DEVICE,
    MEMCPY_HOST_TO_HOST,
};
use crate::memory::{check_device_range, find, ALLOC_ALIGN};
use crate::sample::{FORMAT_FLOAT, FORMAT_SIGNED, FORMAT_UNSIGNED};
use crate::stream::{legacy, resolve, run_sync, Stream};
use crate::sync::lock;

/// `cudaArrayLayered`.
const ARRAY_LAYERED: c_uint = 0x1;
/// `cudaArrayCubemap`.
const ARRAY_CUBEMAP: c_uint = 0x4;
/// Every `cudaArray*` flag CUDA 13 defines.
const ARRAY_FLAGS: c_uint = 0x3f;

/// A validated texel format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// The descriptor as given.
    pub desc: cudaChannelFormatDesc,
    /// 1, 2 or 4.
    pub channels: u8,
    /// 8, 16 or 32.
    pub bits: u8,
    /// 0 signed, 1 unsigned, 2 float.
    pub kind: u8,
}

impl Format {
    /// Checks a channel descriptor: 1, 2 or 4 channels of one size (8, 16 or
    /// 32 bits; 16 or 32 for floats) given from x on, and a signed, unsigned
    /// or float kind. Anything else is `cudaErrorInvalidChannelDescriptor`.
    pub fn new(desc: &cudaChannelFormatDesc) -> CudaResult<Format> {
        let bits = [desc.x, desc.y, desc.z, desc.w];
        let channels = bits.iter().take_while(|&&b| b != 0).count();
        let size = desc.x;
        let ok_size = matches!(size, 8 | 16 | 32);
        let uniform =
            bits[..channels].iter().all(|&b| b == size) && bits[channels..].iter().all(|&b| b == 0);
        let kind = match desc.f {
            0 => FORMAT_SIGNED,
            1 => FORMAT_UNSIGNED,
            2 => FORMAT_FLOAT,
            _ => return Err(Error::InvalidChannelDescriptor),
        };
        if !ok_size
            || !uniform
            || !matches!(channels, 1 | 2 | 4)
            || (kind == FORMAT_FLOAT && size == 8)
        {
            return Err(Error::InvalidChannelDescriptor);
        }
        Ok(Format {
            desc: *desc,
            channels: channels as u8,
            bits: size as u8,
            kind,
        })
    }

    /// Bytes per texel.
    pub fn texel_size(&self) -> usize {
        usize::from(self.channels) * usize::from(self.bits / 8)
    }
}

/// A live CUDA array.
#[derive(Debug)]
pub struct Array {
    /// Storage (also the handle).
    pub data: usize,
    /// Texel format.
    pub format: Format,
    /// The extent as allocated (0 for absent dimensions).
    pub extent: cudaExtent,
    /// Allocation flags.
    pub flags: c_uint,
}

impl Array {
    /// Texels per row.
    pub fn width(&self) -> usize {
        self.extent.width
    }

    /// Rows per slice (at least 1).
    pub fn rows(&self) -> usize {
        self.extent.height.max(1)
    }

    /// Slices (at least 1).
    pub fn slices(&self) -> usize {
        self.extent.depth.max(1)
    }

    /// Bytes per row.
    pub fn pitch(&self) -> usize {
        self.extent.width * self.format.texel_size()
    }

    /// Total bytes.
    pub fn bytes(&self) -> usize {
        self.pitch() * self.rows() * self.slices()
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        // SAFETY: `data` came from posix_memalign and is freed only here.
        unsafe { libc::free(self.data as *mut c_void) };
    }
}

static ARRAYS: Mutex<Option<HashMap<usize, Arc<Array>>>> = Mutex::new(None);

/// The live array with handle `handle`.
pub fn get(handle: *const c_void) -> CudaResult<Arc<Array>> {
    lock(&ARRAYS)
        .as_ref()
        .and_then(|m| m.get(&(handle as usize)).cloned())
        .ok_or(Error::InvalidResourceHandle)
}

/// Forgets every array (`cudaDeviceReset`); storage goes when the last
/// texture holding it does.
pub fn release_all() {
    *lock(&ARRAYS) = None;
}

/// Allocates an array of `extent` texels of format `*desc`.
///
/// # Safety
/// `desc` must be NULL or point to a readable descriptor.
unsafe fn create(
    desc: *const cudaChannelFormatDesc,
    extent: cudaExtent,
    flags: c_uint,
) -> CudaResult<Arc<Array>> {
    non_null(desc)?;
    // SAFETY: non-null; the caller promises a readable descriptor.
    let format = Format::new(unsafe { &*desc })?;
    if flags & !ARRAY_FLAGS != 0 {
        return Err(Error::InvalidValue);
    }
    if flags & (ARRAY_LAYERED | ARRAY_CUBEMAP) != 0 {
        return Err(Error::NotSupported);
    }
    if extent.width == 0 || (extent.height == 0 && extent.depth != 0) {
        return Err(Error::InvalidValue);
    }
    let bytes = extent
        .width
        .checked_mul(format.texel_size())
        .and_then(|v| v.checked_mul(extent.height.max(1)))
        .and_then(|v| v.checked_mul(extent.depth.max(1)))
        .ok_or(Error::MemoryAllocation)?;
    let mut ptr: *mut c_void = std::ptr::null_mut();
    // SAFETY: posix_memalign writes a fresh pointer or fails.
    let rc = unsafe { libc::posix_memalign(&mut ptr, ALLOC_ALIGN, bytes.max(1)) };
    if rc != 0 || ptr.is_null() {
        return Err(Error::MemoryAllocation);
    }
    let array = Arc::new(Array {
        data: ptr as usize,
        format,
        extent,
        flags,
    });
    lock(&ARRAYS)
        .get_or_insert_with(HashMap::new)
        .insert(array.data, Arc::clone(&array));
    Ok(array)
}

/// Allocates a 1D (`height == 0`) or 2D array.
///
/// # Safety
/// `array` must be NULL or valid for a write; `desc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocArray(
    array: *mut *mut c_void,
    desc: *const cudaChannelFormatDesc,
    width: usize,
    height: usize,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        non_null(array)?;
        let extent = cudaExtent {
            width,
            height,
            depth: 0,
        };
        // SAFETY: forwarded contract.
        let a = unsafe { create(desc, extent, flags) }?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(array, a.data as *mut c_void) }
    })
}

/// Allocates a 1D, 2D or 3D array (`extent` in texels; 0 for absent
/// dimensions).
///
/// # Safety
/// `array` must be NULL or valid for a write; `desc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc3DArray(
    array: *mut *mut c_void,
    desc: *const cudaChannelFormatDesc,
    extent: cudaExtent,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        non_null(array)?;
        // SAFETY: forwarded contract.
        let a = unsafe { create(desc, extent, flags) }?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(array, a.data as *mut c_void) }
    })
}

/// Frees an array (NULL is accepted). Waits for outstanding work first.
///
/// Safe: only handles the array table holds are freed.
#[no_mangle]
pub extern "C" fn cudaFreeArray(array: *mut c_void) -> cudaError_t {
    api_dev(|| {
        if array.is_null() {
            return Ok(());
        }
        get(array)?;
        let _ = crate::stream::synchronize_all();
        lock(&ARRAYS)
            .as_mut()
            .and_then(|m| m.remove(&(array as usize)))
            .map(|_| ())
            .ok_or(Error::InvalidResourceHandle)
    })
}

/// An array's format, extent and flags; each out-pointer may be NULL.
///
/// # Safety
/// Non-null pointers must be valid for writes.
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetInfo(
    desc: *mut cudaChannelFormatDesc,
    extent: *mut cudaExtent,
    flags: *mut c_uint,
    array: *mut c_void,
) -> cudaError_t {
    api_dev(|| {
        let a = get(array)?;
        // SAFETY: caller promises validity of non-null pointers.
        unsafe {
            if !desc.is_null() {
                desc.write(a.format.desc);
            }
            if !extent.is_null() {
                extent.write(a.extent);
            }
            if !flags.is_null() {
                flags.write(a.flags);
            }
        }
        Ok(())
    })
}

/// An array's channel format.
///
/// # Safety
/// `desc` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetChannelDesc(
    desc: *mut cudaChannelFormatDesc,
    array: *const c_void,
) -> cudaError_t {
    api_dev(|| {
        let a = get(array)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(desc, a.format.desc) }
    })
}

/// A channel descriptor from its parts (no validation, as in CUDA).
#[no_mangle]
pub extern "C" fn cudaCreateChannelDesc(
    x: c_int,
    y: c_int,
    z: c_int,
    w: c_int,
    f: c_int,
) -> cudaChannelFormatDesc {
    cudaChannelFormatDesc { x, y, z, w, f }
}

/// Whether the linear side of an array copy is device memory (`to_array`:
/// the linear side is the source).
fn linear_is_device(ptr: usize, kind: c_int, to_array: bool) -> CudaResult<bool> {
    match (kind, to_array) {
        (MEMCPY_HOST_TO_DEVICE, true) | (MEMCPY_DEVICE_TO_HOST, false) => Ok(false),
        (MEMCPY_DEVICE_TO_DEVICE, _) => Ok(true),
        (MEMCPY_DEFAULT, _) => Ok(find(ptr).is_some()),
        (MEMCPY_HOST_TO_HOST, _) | (MEMCPY_HOST_TO_DEVICE, _) | (MEMCPY_DEVICE_TO_HOST, _) => {
            Err(Error::InvalidMemcpyDirection)
        }
        _ => Err(Error::InvalidMemcpyDirection),
    }
}

/// One side of a 3D copy: a base address, its pitches, and the bounds it may
/// touch.
#[derive(Clone, Copy)]
struct Side {
    base: usize,
    pitch: usize,
    slice: usize,
}

/// A rectangular block of `width` bytes x `height` rows x `depth` slices.
#[derive(Clone, Copy)]
struct Block {
    width: usize,
    height: usize,
    depth: usize,
}

/// Copies block `b` from `src` to `dst` in `stream`'s order and waits.
///
/// # Safety
/// Both blocks must be valid for their reads (`src`) and writes (`dst`):
/// array sides and device sides are checked by the caller, host sides are
/// the program's promise.
unsafe fn copy_block(stream: &Arc<Stream>, dst: Side, src: Side, b: Block) -> CudaResult {
    if b.width == 0 || b.height == 0 || b.depth == 0 {
        return Ok(());
    }
    run_sync(stream, move || {
        for z in 0..b.depth {
            for y in 0..b.height {
                let s = src.base + z * src.slice + y * src.pitch;
                let d = dst.base + z * dst.slice + y * dst.pitch;
                // SAFETY: both blocks are valid (the caller's contract).
                unsafe { std::ptr::copy(s as *const u8, d as *mut u8, b.width) };
            }
        }
    })
}

/// The extent a pitched block spans from its first byte.
fn span(side: Side, b: Block) -> CudaResult<usize> {
    if b.width == 0 || b.height == 0 || b.depth == 0 {
        return Ok(0);
    }
    (b.depth - 1)
        .checked_mul(side.slice)
        .and_then(|v| v.checked_add((b.height - 1).checked_mul(side.pitch)?))
        .and_then(|v| v.checked_add(b.width))
        .ok_or(Error::InvalidValue)
}

/// Checks that a block at byte offset (`x`, row `y`, slice `z`) fits `a`.
fn array_side(a: &Array, x: usize, y: usize, z: usize, b: Block) -> CudaResult<Side> {
    let fits = x.checked_add(b.width).is_some_and(|e| e <= a.pitch())
        && y.checked_add(b.height).is_some_and(|e| e <= a.rows())
        && z.checked_add(b.depth).is_some_and(|e| e <= a.slices());
    if !fits {
        return Err(Error::InvalidValue);
    }
    let slice = a.pitch() * a.rows();
    Ok(Side {
        base: a.data + z * slice + y * a.pitch() + x,
        pitch: a.pitch(),
        slice,
    })
}

/// A linear side, checked against the allocation table when it is device memory.
fn linear_side(ptr: usize, pitch: usize, slice: usize, device: bool, b: Block) -> CudaResult<Side> {
    if ptr == 0 {
        return Err(Error::InvalidValue);
    }
    let side = Side {
        base: ptr,
        pitch,
        slice,
    };
    if device {
        check_device_range(ptr, span(side, b)?)?;
    }
    Ok(side)
}

/// Copies `count` bytes into an array, starting at byte `w_offset` of row
/// `h_offset` and running on through the following rows.
///
/// # Safety
/// `src`, when it is host memory (per `kind`), must be valid for `count`
/// bytes of reads.
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToArray(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    let shape = Linear::Flat(count);
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { array_copy(dst, w_offset, h_offset, src as usize, shape, kind, true) })
}

/// Copies `count` bytes out of an array (see [`cudaMemcpyToArray`]).
///
/// # Safety
/// `dst`, when it is host memory (per `kind`), must be valid for `count`
/// bytes of writes.
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromArray(
    dst: *mut c_void,
    src: *const c_void,
    w_offset: usize,
    h_offset: usize,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    let shape = Linear::Flat(count);
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { array_copy(src, w_offset, h_offset, dst as usize, shape, kind, false) })
}

/// Copies a pitched block of `width` bytes x `height` rows into an array at
/// byte `w_offset` of row `h_offset`.
///
/// # Safety
/// `src`, when it is host memory (per `kind`), must be valid for reads
/// of `height` rows of `width` bytes, `spitch` apart.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudaMemcpy2DToArray(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> cudaError_t {
    let shape = pitched(spitch, width, height);
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { array_copy(dst, w_offset, h_offset, src as usize, shape, kind, true) })
}

/// Copies a block out of an array into pitched memory.
///
/// # Safety
/// `dst`, when it is host memory (per `kind`), must be valid for writes
/// of `height` rows of `width` bytes, `dpitch` apart.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudaMemcpy2DFromArray(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    w_offset: usize,
    h_offset: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> cudaError_t {
    let shape = pitched(dpitch, width, height);
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { array_copy(src, w_offset, h_offset, dst as usize, shape, kind, false) })
}

/// The linear side of an array copy: `count` bytes from one position of
/// the array on, or a block of rows `pitch` apart.
enum Linear {
    Flat(usize),
    Pitched(usize, Block),
}

/// A block of rows `pitch` apart.
fn pitched(pitch: usize, width: usize, height: usize) -> Linear {
    let b = Block {
        width,
        height,
        depth: 1,
    };
    Linear::Pitched(pitch, b)
}

/// A copy between an array, at byte `w_offset` of row `h_offset`, and
/// linear memory at `linear`, into the array when `to_array`.
///
/// # Safety
/// The linear side, when it is host memory (per `kind`), must be valid for
/// the reads (`to_array`) or writes `shape` describes.
unsafe fn array_copy(
    array: *const c_void,
    w_offset: usize,
    h_offset: usize,
    linear: usize,
    shape: Linear,
    kind: c_int,
    to_array: bool,
) -> CudaResult {
    let a = get(array)?;
    let device = linear_is_device(linear, kind, to_array)?;
    let (arr, l, b) = match shape {
        Linear::Flat(count) => {
            let start = h_offset
                .checked_mul(a.pitch())
                .and_then(|v| v.checked_add(w_offset))
                .ok_or(Error::InvalidValue)?;
            if start.checked_add(count).is_none_or(|e| e > a.bytes())
                || w_offset >= a.pitch().max(1)
            {
                return Err(Error::InvalidValue);
            }
            let b = Block {
                width: count,
                height: 1,
                depth: 1,
            };
            let l = linear_side(linear, count, count, device, b)?;
            let arr = Side {
                base: a.data + start,
                pitch: count,
                slice: count,
            };
            (arr, l, b)
        }
        Linear::Pitched(pitch, b) => {
            if b.width > pitch {
                return Err(Error::InvalidPitchValue);
            }
            let arr = array_side(&a, w_offset, h_offset, 0, b)?;
            if b.width == 0 || b.height == 0 {
                return Ok(());
            }
            (
                arr,
                linear_side(linear, pitch, pitch * b.height, device, b)?,
                b,
            )
        }
    };
    let (d, s) = if to_array { (arr, l) } else { (l, arr) };
    // SAFETY: forwarded contract for the host side; the array and device
    // sides are checked above.
    unsafe { copy_block(&legacy()?, d, s, b) }
}

/// One side of a `cudaMemcpy3D`: an array, or a pitched pointer.
enum End {
    Array(Arc<Array>),
    Ptr(cudaPitchedPtr),
}

fn end(array: *mut c_void, ptr: cudaPitchedPtr) -> CudaResult<End> {
    match (array.is_null(), ptr.ptr.is_null()) {
        (false, true) => Ok(End::Array(get(array)?)),
        (true, false) => Ok(End::Ptr(ptr)),
        _ => Err(Error::InvalidValue),
    }
}

/// The body of `cudaMemcpy3D*`.
///
/// # Safety
/// `p` must be NULL or point to a readable `cudaMemcpy3DParms` whose host
/// sides are valid for the copy's reads and writes.
unsafe fn memcpy_3d(p: *const cudaMemcpy3DParms, stream: &Arc<Stream>) -> CudaResult {
    non_null(p)?;
    // SAFETY: non-null; the caller promises a readable struct.
    let p = unsafe { *p };
    let src = end(p.srcArray, p.srcPtr)?;
    let dst = end(p.dstArray, p.dstPtr)?;
    if let Some(r) = crate::capture::record(stream, || Ok(crate::graph::Op::Memcpy3D(Box::new(p))))
    {
        return r;
    }
    // With an array involved, x extents and array positions count texels.
    let texel = match (&src, &dst) {
        (End::Array(a), End::Array(b)) => {
            if a.format.texel_size() != b.format.texel_size() {
                return Err(Error::InvalidValue);
            }
            a.format.texel_size()
        }
        (End::Array(a), _) | (_, End::Array(a)) => a.format.texel_size(),
        _ => 1,
    };
    let b = Block {
        width: p
            .extent
            .width
            .checked_mul(texel)
            .ok_or(Error::InvalidValue)?,
        height: p.extent.height,
        depth: p.extent.depth,
    };
    let (src_dev, dst_dev) = match p.kind {
        MEMCPY_HOST_TO_HOST => (false, false),
        MEMCPY_HOST_TO_DEVICE => (false, true),
        MEMCPY_DEVICE_TO_HOST => (true, false),
        MEMCPY_DEVICE_TO_DEVICE => (true, true),
        MEMCPY_DEFAULT => (
            find(p.srcPtr.ptr as usize).is_some(),
            find(p.dstPtr.ptr as usize).is_some(),
        ),
        _ => return Err(Error::InvalidMemcpyDirection),
    };
    let side = |e: &End, pos: crate::ffi::cudaPos, device: bool| -> CudaResult<Side> {
        match e {
            End::Array(a) => {
                let x = pos.x.checked_mul(texel).ok_or(Error::InvalidValue)?;
                array_side(a, x, pos.y, pos.z, b)
            }
            End::Ptr(pp) => {
                if b.width > pp.pitch && b.height * b.depth > 1 {
                    return Err(Error::InvalidPitchValue);
                }
                let slice = pp.pitch.checked_mul(pp.ysize).ok_or(Error::InvalidValue)?;
                let off = pos
                    .z
                    .checked_mul(slice)
                    .and_then(|v| v.checked_add(pos.y.checked_mul(pp.pitch)?))
                    .and_then(|v| v.checked_add(pos.x))
                    .ok_or(Error::InvalidValue)?;
                if b.depth > 1 && b.height > pp.ysize {
                    return Err(Error::InvalidValue);
                }
                linear_side(pp.ptr as usize + off, pp.pitch, slice, device, b)
            }
        }
    };
    let s = side(&src, p.srcPos, src_dev)?;
    let d = side(&dst, p.dstPos, dst_dev)?;
    // SAFETY: the caller's contract for host sides; array and device sides
    // are checked above.
    unsafe { copy_block(stream, d, s, b) }
}

/// Copies a 3D block between arrays and pitched pointers; returns when done.
///
/// # Safety
/// `p` must be NULL or point to a readable `cudaMemcpy3DParms`; its host
/// sides (per `kind`) must be valid for the copy's reads and writes.
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3D(p: *const cudaMemcpy3DParms) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { memcpy_3d(p, &legacy()?) })
}

/// [`cudaMemcpy3D`] in stream order (it returns once the copy is done).
///
/// # Safety
/// As [`cudaMemcpy3D`].
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DAsync(
    p: *const cudaMemcpy3DParms,
    stream: cudaStream_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { memcpy_3d(p, &resolve(stream)?) })
}
