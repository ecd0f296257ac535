//! Small queries with a direct CPU answer: the device's PCI bus id (the
//! one device has the ids its properties report, all zero), kernel names
//! and parameter counts from the registry, stream ids and devices,
//! device initialisation, and hints and flags that are no-ops on a CPU
//! once validated (attaching managed memory, L2 persistence, RDMA flushes).

use crate::errors::{api, api_dev, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::cudaStream_t;
use crate::memory::Kind;
use crate::stream::{resolve, resolve_ptsz};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::sync::Mutex;

/// The device's bus id as CUDA formats it: `domain:bus:device.function`.
fn bus_id(device: c_int) -> CudaResult<String> {
    let p = crate::device::properties_of(device)?;
    Ok(format!(
        "{:04x}:{:02x}:{:02x}.0",
        p.pciDomainID, p.pciBusID, p.pciDeviceID
    ))
}

/// Parses `[domain:]bus:device[.function]` (hexadecimal) into
/// (domain, bus, device).
fn parse_bus_id(s: &str) -> Option<(u32, u32, u32)> {
    let s = s.trim();
    let (head, _function) = match s.rsplit_once('.') {
        Some((h, f)) if !f.is_empty() && u32::from_str_radix(f, 16).is_ok() => (h, Some(f)),
        Some(_) => return None,
        None => (s, None),
    };
    let parts: Vec<&str> = head.split(':').collect();
    let hex = |t: &str| u32::from_str_radix(t, 16).ok();
    match parts.as_slice() {
        [d, b, v] => Some((hex(d)?, hex(b)?, hex(v)?)),
        [b, v] => Some((0, hex(b)?, hex(v)?)),
        _ => None,
    }
}

/// Writes the device's PCI bus id (`len` counts the terminating NUL).
///
/// # Safety
/// `out` must be NULL or writable for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetPCIBusId(
    out: *mut c_char,
    len: c_int,
    device: c_int,
) -> cudaError_t {
    api(|| {
        let id = bus_id(device)?;
        if out.is_null() || len <= id.len() as c_int {
            return Err(Error::InvalidValue);
        }
        // SAFETY: `len` bytes are writable and the id and its NUL fit.
        unsafe {
            std::ptr::copy_nonoverlapping(id.as_ptr() as *const c_char, out, id.len());
            out.add(id.len()).write(0);
        }
        Ok(())
    })
}

/// The device with a PCI bus id (the one device, if the id is its own).
///
/// # Safety
/// `device` NULL or writable; `id` NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetByPCIBusId(
    device: *mut c_int,
    id: *const c_char,
) -> cudaError_t {
    api(|| {
        non_null(id)?;
        // SAFETY: checked non-null; caller promises a C string.
        let s = unsafe { CStr::from_ptr(id) }.to_string_lossy();
        let wanted = parse_bus_id(&s).ok_or(Error::InvalidValue)?;
        let count = crate::devices::list()?.len() as c_int;
        let Some(found) = (0..count).find(|&d| {
            crate::device::properties_of(d).is_ok_and(|p| {
                wanted
                    == (
                        p.pciDomainID as u32,
                        p.pciBusID as u32,
                        p.pciDeviceID as u32,
                    )
            })
        }) else {
            return Err(Error::InvalidDevice);
        };
        // SAFETY: forwarded contract.
        unsafe { write_out(device, found) }
    })
}

/// Names handed out by `cudaFuncGetName`, kept for the process's life.
static NAMES: Mutex<Vec<CString>> = Mutex::new(Vec::new());

/// The kernel's (mangled) device name, valid for the process's life.
///
/// # Safety
/// `name` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetName(
    name: *mut *const c_char,
    func: *const c_void,
) -> cudaError_t {
    api(|| {
        non_null(name)?;
        let f = crate::registry::function(func)?;
        let c = CString::new(f.device_name.clone()).map_err(|_| Error::InvalidDeviceFunction)?;
        let mut names = crate::sync::lock(&NAMES);
        let ptr = match names.iter().find(|n| **n == c) {
            Some(n) => n.as_ptr(),
            None => {
                names.push(c);
                names.last().map_or(std::ptr::null(), |n| n.as_ptr())
            }
        };
        // SAFETY: checked non-null.
        unsafe { name.write(ptr) };
        Ok(())
    })
}

fn param_sizes(func: *const c_void) -> CudaResult<Vec<u32>> {
    Ok(crate::registry::function(func)?
        .kernel()?
        .param_sizes
        .clone())
}

/// The number of parameters a kernel takes.
///
/// # Safety
/// `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetParamCount(
    func: *const c_void,
    count: *mut usize,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { write_out(count, param_sizes(func)?.len()) })
}

/// A parameter's offset and size in the kernel's parameter buffer (each
/// parameter aligned to its size, up to 8 bytes; 16-byte vector types are
/// not told apart).
///
/// # Safety
/// `offset` and `size` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetParamInfo(
    func: *const c_void,
    index: usize,
    offset: *mut usize,
    size: *mut usize,
) -> cudaError_t {
    api_dev(|| {
        let sizes = param_sizes(func)?;
        if index >= sizes.len() {
            return Err(Error::InvalidValue);
        }
        let mut at = 0usize;
        for (i, &s) in sizes.iter().enumerate() {
            let align = (s as usize).clamp(1, 8).next_power_of_two();
            at = at.next_multiple_of(align);
            if i == index {
                break;
            }
            at += s as usize;
        }
        // SAFETY: forwarded contract.
        unsafe {
            write_out(offset, at)?;
            write_out(size, sizes[index] as usize)
        }
    })
}

/// A stream's process-unique id (its handle).
///
/// # Safety
/// `id` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetId(stream: cudaStream_t, id: *mut u64) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(id, resolve(stream)?.handle() as u64) })
}

/// `cudaStreamGetId` with per-thread default stream semantics.
///
/// # Safety
/// `id` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetId_ptsz(stream: cudaStream_t, id: *mut u64) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(id, resolve_ptsz(stream)?.handle() as u64) })
}

/// Streams belong to no device (work goes to the device current when it is
/// submitted, docs/runtime.md): the calling thread's current device.
///
/// # Safety
/// `device` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetDevice(
    stream: cudaStream_t,
    device: *mut c_int,
) -> cudaError_t {
    api(|| {
        resolve(stream)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(device, crate::devices::current()) }
    })
}

/// `cudaStreamGetDevice` with per-thread default stream semantics.
///
/// # Safety
/// `device` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetDevice_ptsz(
    stream: cudaStream_t,
    device: *mut c_int,
) -> cudaError_t {
    api(|| {
        resolve_ptsz(stream)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(device, crate::devices::current()) }
    })
}

/// Initialises the device: nothing to do beyond checking the arguments.
#[no_mangle]
pub extern "C" fn cudaInitDevice(
    device: c_int,
    device_flags: c_uint,
    flags: c_uint,
) -> cudaError_t {
    api(|| {
        if device != 0 {
            return Err(Error::InvalidDevice);
        }
        // cudaInitDeviceFlagsAreValid (1) is the only flag.
        if flags & !1 != 0 || device_flags & !0x1f != 0 {
            return Err(Error::InvalidValue);
        }
        Ok(())
    })
}

/// Accepts a device list that names only device 0.
///
/// # Safety
/// `devices` must point to `len` readable ints when `len > 0`.
#[no_mangle]
pub unsafe extern "C" fn cudaSetValidDevices(devices: *mut c_int, len: c_int) -> cudaError_t {
    api(|| {
        if len < 0 || (len > 0 && devices.is_null()) {
            return Err(Error::InvalidValue);
        }
        for i in 0..len as usize {
            // SAFETY: the caller's array.
            if unsafe { devices.add(i).read() } != 0 {
                return Err(Error::InvalidDevice);
            }
        }
        Ok(())
    })
}

/// Host memory the runtime knows is page-locked, mapped and portable: all
/// of it is reachable from the one device.
///
/// # Safety
/// `flags` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaHostGetFlags(flags: *mut c_uint, host: *mut c_void) -> cudaError_t {
    api_dev(|| {
        match crate::memory::find(host as usize) {
            Some((_, a)) if matches!(a.kind, Kind::PinnedHost | Kind::Registered) => {}
            _ => return Err(Error::InvalidValue),
        }
        // cudaHostAllocPortable | cudaHostAllocMapped.
        // SAFETY: forwarded contract.
        unsafe { write_out(flags, 1 | 2) }
    })
}

fn attach(
    stream: CudaResult<std::sync::Arc<crate::stream::Stream>>,
    ptr: *mut c_void,
    len: usize,
    flags: c_uint,
) -> CudaResult {
    stream?;
    // Exactly one of cudaMemAttachGlobal, Host, Single.
    if !matches!(flags, 1 | 2 | 4) {
        return Err(Error::InvalidValue);
    }
    match crate::memory::find(ptr as usize) {
        Some((start, a))
            if a.kind == Kind::Managed
                && (len == 0 || (start == ptr as usize && len == a.size)) =>
        {
            Ok(())
        }
        _ => Err(Error::InvalidValue),
    }
}

/// Managed memory is host memory, visible to every stream and the host
/// alike: attaching it changes nothing once validated.
#[no_mangle]
pub extern "C" fn cudaStreamAttachMemAsync(
    stream: cudaStream_t,
    ptr: *mut c_void,
    len: usize,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| attach(resolve(stream), ptr, len, flags))
}

/// `cudaStreamAttachMemAsync` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaStreamAttachMemAsync_ptsz(
    stream: cudaStream_t,
    ptr: *mut c_void,
    len: usize,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| attach(resolve_ptsz(stream), ptr, len, flags))
}

/// There is no persisting L2 set-aside to reset.
#[no_mangle]
pub extern "C" fn cudaCtxResetPersistingL2Cache() -> cudaError_t {
    api_dev(|| Ok(()))
}

/// Writes of other devices into this one's memory: there are none to flush.
#[no_mangle]
pub extern "C" fn cudaDeviceFlushGPUDirectRDMAWrites(target: c_int, scope: c_int) -> cudaError_t {
    api_dev(|| {
        if target != 0 || !matches!(scope, 100 | 200) {
            return Err(Error::InvalidValue);
        }
        Ok(())
    })
}

/// The dynamic shared memory a block may use: a core runs one block at a
/// time, so the kernel's current limit whatever the block count.
///
/// # Safety
/// `size` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyAvailableDynamicSMemPerBlock(
    size: *mut usize,
    func: *const c_void,
    num_blocks: c_int,
    block_size: c_int,
) -> cudaError_t {
    api_dev(|| {
        if size.is_null() || num_blocks < 1 || !(1..=1024).contains(&block_size) {
            return Err(Error::InvalidValue);
        }
        let mut attrs = crate::ffi::cudaFuncAttributes::default();
        // SAFETY: a local to write into.
        let code = unsafe { crate::launch::cudaFuncGetAttributes(&mut attrs, func) };
        if code != 0 {
            return Err(Error::from_code(code).unwrap_or(Error::Unknown));
        }
        // SAFETY: checked non-null.
        unsafe { size.write(attrs.maxDynamicSharedSizeBytes.max(0) as usize) };
        Ok(())
    })
}

/// The widest 1D linear texture: the properties' `maxTexture1DLinear`.
///
/// # Safety
/// `width` NULL or writable; `desc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetTexture1DLinearMaxWidth(
    width: *mut usize,
    desc: *const crate::ffi::cudaChannelFormatDesc,
    device: c_int,
) -> cudaError_t {
    api(|| {
        if device != 0 {
            return Err(Error::InvalidDevice);
        }
        non_null(desc)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(width, 1usize << 27) }
    })
}

/// Peer attributes need two distinct devices; there is one.
///
/// # Safety
/// `value` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetP2PAttribute(
    value: *mut c_int,
    attr: c_int,
    src: c_int,
    dst: c_int,
) -> cudaError_t {
    api(|| {
        if value.is_null() || !(1..=5).contains(&attr) {
            return Err(Error::InvalidValue);
        }
        let _ = (src, dst);
        Err(Error::InvalidDevice)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bus_ids_parse_in_cuda_forms() {
        assert_eq!(parse_bus_id("0000:00:00.0"), Some((0, 0, 0)));
        assert_eq!(parse_bus_id("0001:1a:03"), Some((1, 0x1a, 3)));
        assert_eq!(parse_bus_id("1a:03.0"), Some((0, 0x1a, 3)));
        assert_eq!(parse_bus_id("zz:03.0"), None);
        assert_eq!(parse_bus_id("00:00."), None);
        assert_eq!(parse_bus_id(""), None);
    }
}
