//! Entry points driver-API tools commonly use beyond the core: 2D copies
//! (`CUDA_MEMCPY2D`), the JIT linker (`cuLink*`, as NVRTC- and Numba-style
//! code drives it), PCI bus ids, shared memory bank configurations and
//! stream ids.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::Mutex;

use super::context::need_context;
use super::result::{INVALID_DEVICE, INVALID_HANDLE, INVALID_VALUE, NOT_SUPPORTED};
use super::{drv, drv_ctx, out, rt, CUresult, DrvResult};
use crate::ffi::cudaStream_t;
use crate::log::{log, Level};
use crate::sync::lock;

/// `CUDA_MEMCPY2D`.
#[repr(C)]
pub struct Memcpy2D {
    src_x: usize,
    src_y: usize,
    src_type: c_uint,
    src_host: *const c_void,
    src_device: u64,
    src_array: *mut c_void,
    src_pitch: usize,
    dst_x: usize,
    dst_y: usize,
    dst_type: c_uint,
    dst_host: *mut c_void,
    dst_device: u64,
    dst_array: *mut c_void,
    dst_pitch: usize,
    width: usize,
    height: usize,
}

/// The address of one side of a 2D copy: `CU_MEMORYTYPE_HOST` (1) names
/// the host pointer, `DEVICE` (2) and `UNIFIED` (4) the device pointer;
/// arrays (3) are not supported through the driver API.
fn side(
    kind: c_uint,
    host: usize,
    device: u64,
    x: usize,
    y: usize,
    pitch: usize,
) -> DrvResult<usize> {
    let base = match kind {
        1 => host,
        2 | 4 => device as usize,
        3 => return Err(NOT_SUPPORTED),
        _ => return Err(INVALID_VALUE),
    };
    y.checked_mul(pitch)
        .and_then(|o| o.checked_add(x))
        .and_then(|o| base.checked_add(o))
        .ok_or(INVALID_VALUE)
}

/// # Safety
/// `p` must be NULL or a valid descriptor whose host sides are valid.
unsafe fn memcpy_2d(p: *const Memcpy2D, stream: Option<cudaStream_t>) -> DrvResult {
    need_context()?;
    if p.is_null() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: checked non-null; the caller's descriptor.
    let c = unsafe { &*p };
    // One row needs no pitch (CUDA accepts 0 there).
    let pitch = |p: usize| if c.height <= 1 { p.max(c.width) } else { p };
    let (sp, dp) = (pitch(c.src_pitch), pitch(c.dst_pitch));
    let src = side(
        c.src_type,
        c.src_host as usize,
        c.src_device,
        c.src_x,
        c.src_y,
        sp,
    )?;
    let dst = side(
        c.dst_type,
        c.dst_host as usize,
        c.dst_device,
        c.dst_x,
        c.dst_y,
        dp,
    )?;
    let (d, s) = (dst as *mut c_void, src as *const c_void);
    // `cudaMemcpyDefault` (4): the allocation table tells the sides apart.
    // SAFETY: the caller's contract for the host sides; device sides are
    // checked by the runtime.
    rt(unsafe {
        match stream {
            None => crate::memory::cudaMemcpy2D(d, dp, s, sp, c.width, c.height, 4),
            Some(h) => crate::memory::cudaMemcpy2DAsync(d, dp, s, sp, c.width, c.height, 4, h),
        }
    })
}

unsafe extern "C" fn cuMemcpy2D_v2(p: *const Memcpy2D) -> CUresult {
    // SAFETY: forwarded contract.
    drv(|| unsafe { memcpy_2d(p, None) })
}

unsafe extern "C" fn cuMemcpy2DAsync_v2(p: *const Memcpy2D, s: cudaStream_t) -> CUresult {
    // SAFETY: forwarded contract.
    drv(|| unsafe { memcpy_2d(p, Some(s)) })
}

/// A link in progress: its inputs, and the image once completed.
#[derive(Default)]
struct Link {
    inputs: Vec<Vec<u8>>,
    image: Option<Vec<u8>>,
}

static LINKS: Mutex<Option<HashMap<usize, Link>>> = Mutex::new(None);

fn with_links<T>(f: impl FnOnce(&mut HashMap<usize, Link>) -> T) -> T {
    f(lock(&LINKS).get_or_insert_with(HashMap::new))
}

unsafe extern "C" fn cuLinkCreate_v2(
    _n: c_uint,
    _options: *mut c_int,
    _values: *mut *mut c_void,
    state: *mut *mut c_void,
) -> CUresult {
    drv_ctx(|| {
        if state.is_null() {
            return Err(INVALID_VALUE);
        }
        let h = Box::into_raw(Box::new(0u64)) as usize;
        with_links(|l| l.insert(h, Link::default()));
        // SAFETY: checked non-null.
        unsafe { state.write(h as *mut c_void) };
        Ok(())
    })
}

/// `CUjitInputType`: PTX (1) and fat binaries (2) are what cucc can run.
fn add_input(state: *mut c_void, kind: c_int, bytes: Vec<u8>) -> DrvResult {
    match kind {
        1 | 2 => {}
        0 | 3 | 4 => {
            log(Level::Error, || {
                "cuLinkAddData: cubins, objects and libraries hold GPU code only; cucc links PTX and fat binaries".into()
            });
            return Err(super::result::NO_BINARY_FOR_GPU);
        }
        5 => return Err(NOT_SUPPORTED),
        _ => return Err(INVALID_VALUE),
    }
    with_links(|l| {
        let link = l.get_mut(&(state as usize)).ok_or(INVALID_HANDLE)?;
        link.inputs.push(bytes);
        Ok(())
    })
}

unsafe extern "C" fn cuLinkAddData_v2(
    state: *mut c_void,
    kind: c_int,
    data: *mut c_void,
    size: usize,
    _name: *const c_char,
    _n: c_uint,
    _options: *mut c_int,
    _values: *mut *mut c_void,
) -> CUresult {
    drv(|| {
        if data.is_null() {
            return Err(INVALID_VALUE);
        }
        let bytes = if size == 0 && kind == 1 {
            // SAFETY: PTX without a size is a NUL-terminated string.
            unsafe { CStr::from_ptr(data as *const c_char) }
                .to_bytes()
                .to_vec()
        } else {
            // SAFETY: the caller's `size` readable bytes.
            unsafe { std::slice::from_raw_parts(data as *const u8, size) }.to_vec()
        };
        add_input(state, kind, bytes)
    })
}

unsafe extern "C" fn cuLinkAddFile_v2(
    state: *mut c_void,
    kind: c_int,
    path: *const c_char,
    _n: c_uint,
    _options: *mut c_int,
    _values: *mut *mut c_void,
) -> CUresult {
    drv(|| {
        if path.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's NUL-terminated path.
        let path = unsafe { CStr::from_ptr(path) }
            .to_string_lossy()
            .into_owned();
        let bytes = std::fs::read(&path).map_err(|e| {
            log(Level::Error, || {
                format!("cuLinkAddFile: cannot read {path}: {e}")
            });
            super::result::FILE_NOT_FOUND
        })?;
        add_input(state, kind, bytes)
    })
}

/// Completes a link of one input: the image is that input (PTX text, NUL
/// terminated, or a fat binary), which `cuModuleLoadData` accepts. PTX
/// modules that reference each other's symbols are not linked (as with
/// the runtime's JIT, `docs/jit.md`).
unsafe extern "C" fn cuLinkComplete(
    state: *mut c_void,
    image: *mut *const c_void,
    size: *mut usize,
) -> CUresult {
    drv(|| {
        if image.is_null() {
            return Err(INVALID_VALUE);
        }
        let (p, n) = with_links(|l| {
            let link = l.get_mut(&(state as usize)).ok_or(INVALID_HANDLE)?;
            let mut input = match link.inputs.as_slice() {
                [one] => one.clone(),
                [] => return Err(INVALID_VALUE),
                _ => {
                    log(Level::Error, || {
                        "cuLinkComplete: linking several PTX modules together is not supported; load them as separate modules".into()
                    });
                    return Err(NOT_SUPPORTED);
                }
            };
            if input.last() != Some(&0) {
                input.push(0);
            }
            let img = link.image.insert(input);
            Ok((img.as_ptr() as *const c_void, img.len()))
        })?;
        // SAFETY: checked non-null; the size is optional.
        unsafe {
            image.write(p);
            if !size.is_null() {
                size.write(n);
            }
        }
        Ok(())
    })
}

unsafe extern "C" fn cuLinkDestroy(state: *mut c_void) -> CUresult {
    drv(|| {
        with_links(|l| l.remove(&(state as usize))).ok_or(INVALID_HANDLE)?;
        // SAFETY: made by Box::into_raw in cuLinkCreate and removed from the
        // table above, so freed once.
        drop(unsafe { Box::from_raw(state as *mut u64) });
        Ok(())
    })
}

fn pci_bus_id() -> String {
    let p = crate::device::properties();
    format!(
        "{:04x}:{:02x}:{:02x}.0",
        p.pciDomainID, p.pciBusID, p.pciDeviceID
    )
}

unsafe extern "C" fn cuDeviceGetPCIBusId(buf: *mut c_char, len: c_int, dev: c_int) -> CUresult {
    drv(|| {
        if dev != 0 {
            return Err(INVALID_DEVICE);
        }
        if buf.is_null() || len <= 0 {
            return Err(INVALID_VALUE);
        }
        let id = pci_bus_id();
        let n = id.len().min(len as usize - 1);
        // SAFETY: the caller promises `len` writable bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(id.as_ptr() as *const c_char, buf, n);
            buf.add(n).write(0);
        }
        Ok(())
    })
}

unsafe extern "C" fn cuDeviceGetByPCIBusId(dev: *mut c_int, id: *const c_char) -> CUresult {
    drv(|| {
        if id.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's NUL-terminated id.
        let asked = unsafe { CStr::from_ptr(id) }
            .to_string_lossy()
            .to_lowercase();
        let ours = pci_bus_id();
        // The domain may be left out (`bus:device.function`).
        if asked != ours && !ours.ends_with(&format!(":{asked}")) {
            return Err(INVALID_DEVICE);
        }
        // SAFETY: the caller's out-pointer.
        unsafe { out(dev, 0) }
    })
}

unsafe extern "C" fn cuCtxGetSharedMemConfig(config: *mut c_int) -> CUresult {
    drv_ctx(|| {
        // CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE.
        // SAFETY: the caller's out-pointer.
        unsafe { out(config, 1) }
    })
}

unsafe extern "C" fn cuCtxSetSharedMemConfig(config: c_int) -> CUresult {
    drv_ctx(|| {
        if (0..=2).contains(&config) {
            Ok(())
        } else {
            Err(INVALID_VALUE)
        }
    })
}

unsafe extern "C" fn cuStreamGetId(h: cudaStream_t, id: *mut u64) -> CUresult {
    drv(|| {
        crate::stream::resolve(h).map_err(super::result::from_runtime)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(id, h as u64) }
    })
}

/// This module's entry points by NVIDIA's symbol names.
pub fn entries() -> Vec<(&'static str, usize)> {
    entries![
        cuMemcpy2D_v2,
        "cuMemcpy2DUnaligned_v2" => cuMemcpy2D_v2,
        cuMemcpy2DAsync_v2,
        "cuLinkCreate" => cuLinkCreate_v2,
        cuLinkCreate_v2,
        "cuLinkAddData" => cuLinkAddData_v2,
        cuLinkAddData_v2,
        "cuLinkAddFile" => cuLinkAddFile_v2,
        cuLinkAddFile_v2,
        cuLinkComplete,
        cuLinkDestroy,
        cuDeviceGetPCIBusId,
        cuDeviceGetByPCIBusId,
        cuCtxGetSharedMemConfig,
        cuCtxSetSharedMemConfig,
        cuStreamGetId,
    ]
}
