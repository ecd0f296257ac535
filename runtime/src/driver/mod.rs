//! The CUDA driver API (`cu*`) on the runtime's own state, for
//! `libcuda.so.1` (`docs/driver-api.md`).
//!
//! The functions live here, in the runtime library, so that the driver API
//! and the runtime API share one device, one allocation table, one set of
//! streams and events and one registry. They are not exported under their
//! own names: `libcuda.so.1` (the `libcuda` crate) is a table of
//! trampolines, one per entry point of NVIDIA's library, filled when it is
//! loaded from [`__cucc_driver_entry`]; entry points this module does not
//! implement return `CUDA_ERROR_NOT_SUPPORTED` there. `cuGetProcAddress`
//! answers from the list of NVIDIA's symbols and the versions they stand
//! for ([`exports`]).
//!
//! Handles: a `CUstream`/`CUevent` is the runtime's `cudaStream_t`/
//! `cudaEvent_t` (as in CUDA), a `CUdeviceptr` a pointer in the allocation
//! table, a `CUfunction` a key of the registry's kernel table (so a launch
//! takes `cudaLaunchKernel`'s path); contexts, modules and libraries are
//! this module's own objects, checked against their tables before use.

#![allow(non_snake_case, clippy::missing_safety_doc)]

/// A module's entry points as `(symbol, address)` pairs: `f` is exported
/// under its own name, `"name" => f` under another (an older version's
/// symbol served by the same function).
macro_rules! entries {
    (@acc [$($out:tt)*]) => { vec![$($out)*] };
    (@acc [$($out:tt)*] $n:literal => $f:ident $(, $($rest:tt)*)?) => {
        entries!(@acc [$($out)* ($n, $f as *const () as usize),] $($($rest)*)?)
    };
    (@acc [$($out:tt)*] $f:ident $(, $($rest:tt)*)?) => {
        entries!(@acc [$($out)* (stringify!($f), $f as *const () as usize),] $($($rest)*)?)
    };
    ($($rest:tt)*) => { entries!(@acc [] $($rest)*) };
}

pub mod context;
pub mod exports;
pub mod extras;
pub mod memory;
pub mod module;
pub mod result;
pub mod stream;

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::errors::keeping_last_error;
pub use result::CUresult;
use result::{INVALID_VALUE, NOT_FOUND, NOT_INITIALIZED, NOT_SUPPORTED, SUCCESS, UNKNOWN};

/// A driver call's outcome before it becomes a `CUresult`.
pub type DrvResult<T = ()> = Result<T, CUresult>;

/// The driver version `cuDriverGetVersion` reports (CUDA 13.0).
pub const DRIVER_VERSION: c_int = 13000;

static INITIALIZED: AtomicBool = AtomicBool::new(false);

/// Runs a driver entry point's body: no unwinding into C, the runtime's
/// last error untouched, and `CUDA_ERROR_NOT_INITIALIZED` before `cuInit`.
pub(crate) fn drv(body: impl FnOnce() -> DrvResult) -> CUresult {
    if !INITIALIZED.load(Ordering::Acquire) {
        return NOT_INITIALIZED;
    }
    drv_any(body)
}

/// As [`drv`], for the entry points that act on the current context:
/// `CUDA_ERROR_INVALID_CONTEXT` when the thread has none.
pub(crate) fn drv_ctx(body: impl FnOnce() -> DrvResult) -> CUresult {
    drv(|| {
        context::need_context()?;
        body()
    })
}

/// As [`drv`], for the few entry points that work before `cuInit`.
pub(crate) fn drv_any(body: impl FnOnce() -> DrvResult) -> CUresult {
    let outer = context::enter_driver();
    let r =
        keeping_last_error(
            || match catch_unwind(AssertUnwindSafe(body)).unwrap_or(Err(UNKNOWN)) {
                Ok(()) => SUCCESS,
                Err(e) => e,
            },
        );
    context::leave_driver(outer);
    r
}

/// A runtime entry point's return value as a driver result.
pub(crate) fn rt(code: c_int) -> DrvResult {
    match code {
        0 => Ok(()),
        c => Err(result::from_code(c)),
    }
}

/// Writes through an out-pointer from C, rejecting NULL.
///
/// # Safety
/// `ptr` must be NULL or valid for a write of `T`.
pub(crate) unsafe fn out<T>(ptr: *mut T, value: T) -> DrvResult {
    if ptr.is_null() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: non-null; the caller promises validity.
    unsafe { ptr.write(value) };
    Ok(())
}

/// Marks the driver API initialised: what `cuInit(0)` does, and what the
/// runtime API's first device call does too (as CUDA's runtime calls
/// `cuInit` itself).
pub(crate) fn initialize() {
    INITIALIZED.store(true, Ordering::Release);
}

/// `cuInit`: flags must be 0.
pub unsafe extern "C" fn cuInit(flags: u32) -> CUresult {
    drv_any(|| {
        if flags != 0 {
            return Err(INVALID_VALUE);
        }
        initialize();
        Ok(())
    })
}

/// `cuDriverGetVersion` (works before `cuInit`).
pub unsafe extern "C" fn cuDriverGetVersion(version: *mut c_int) -> CUresult {
    // SAFETY: the caller's out-pointer.
    drv_any(|| unsafe { out(version, DRIVER_VERSION) })
}

/// `cuGetErrorName`: `CUDA_ERROR_INVALID_VALUE` (and NULL) for unknown codes.
pub unsafe extern "C" fn cuGetErrorName(code: CUresult, s: *mut *const c_char) -> CUresult {
    drv_any(|| {
        let n = result::name(code);
        // SAFETY: the caller's out-pointer.
        unsafe { out(s, n.map_or(std::ptr::null(), CStr::as_ptr))? };
        n.map(|_| ()).ok_or(INVALID_VALUE)
    })
}

/// `cuGetErrorString`: as [`cuGetErrorName`], with a description.
pub unsafe extern "C" fn cuGetErrorString(code: CUresult, s: *mut *const c_char) -> CUresult {
    drv_any(|| {
        let d = result::description(code);
        // SAFETY: the caller's out-pointer.
        unsafe { out(s, d.map_or(std::ptr::null(), CStr::as_ptr))? };
        d.map(|_| ()).ok_or(INVALID_VALUE)
    })
}

/// The value of an entry point in the table: a function's address.
type Entry = usize;

/// Every entry point this module implements, by NVIDIA's symbol name.
fn implemented() -> &'static HashMap<&'static str, Entry> {
    static TABLE: OnceLock<HashMap<&'static str, Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = HashMap::new();
        let own: &[(&'static str, Entry)] = &[
            ("cuInit", cuInit as *const () as Entry),
            (
                "cuDriverGetVersion",
                cuDriverGetVersion as *const () as Entry,
            ),
            ("cuGetErrorName", cuGetErrorName as *const () as Entry),
            ("cuGetErrorString", cuGetErrorString as *const () as Entry),
            ("cuGetProcAddress", cuGetProcAddress as *const () as Entry),
            (
                "cuGetProcAddress_v2",
                cuGetProcAddress_v2 as *const () as Entry,
            ),
            ("cuGetExportTable", cuGetExportTable as *const () as Entry),
        ];
        t.extend(own.iter().copied());
        t.extend(context::entries());
        t.extend(memory::entries());
        t.extend(module::entries());
        t.extend(stream::entries());
        t.extend(extras::entries());
        t
    })
}

/// Called for an entry point nobody implements (when `libcuda.so.1` is not
/// there to name it).
unsafe extern "C" fn not_supported() -> CUresult {
    NOT_SUPPORTED
}

/// `libcuda.so.1`'s own lookup of its trampolines, which name the entry
/// point in a diagnostic when an unimplemented one is called.
static SHIM_LOOKUP: AtomicUsize = AtomicUsize::new(0);

/// The implementation of NVIDIA driver entry point `name`, or NULL when
/// the CPU driver does not implement it. `libcuda.so.1` calls this for
/// each of its exports when it is loaded.
///
/// # Safety
/// `name` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn __cucc_driver_entry(name: *const c_char) -> *const c_void {
    if name.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the caller's contract.
    let name = unsafe { CStr::from_ptr(name) };
    catch_unwind(|| {
        name.to_str()
            .ok()
            .and_then(|n| implemented().get(n).copied())
            .unwrap_or(0) as *const c_void
    })
    .unwrap_or(std::ptr::null())
}

/// `libcuda.so.1` hands over its lookup of its own exports, so that
/// `cuGetProcAddress` can return the trampoline of an unimplemented entry
/// point (which names itself when called).
#[no_mangle]
pub extern "C" fn __cucc_driver_attach(
    lookup: Option<unsafe extern "C" fn(*const c_char) -> *const c_void>,
) {
    SHIM_LOOKUP.store(lookup.map_or(0, |f| f as usize), Ordering::Release);
}

/// Called by `libcuda.so.1` for an entry point the runtime does not
/// implement: says so once per name (`CUCC_LOG=warn`, the default) and
/// returns `CUDA_ERROR_NOT_SUPPORTED`.
///
/// # Safety
/// `name` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn __cucc_driver_unsupported(name: *const c_char) -> CUresult {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    if !name.is_null() {
        // SAFETY: the caller's contract.
        let n = unsafe { CStr::from_ptr(name) }
            .to_string_lossy()
            .into_owned();
        let mut seen = crate::sync::lock(&SEEN);
        if !seen.contains(&n) {
            crate::log::log(crate::log::Level::Warn, || {
                format!(
                    "{n}: not supported by cucc's CPU driver (returns CUDA_ERROR_NOT_SUPPORTED)"
                )
            });
            seen.push(n);
        }
    }
    NOT_SUPPORTED
}

/// What `cuGetProcAddress` hands out for symbol `sym`: `libcuda.so.1`'s
/// trampoline when the library is loaded (so `CUCC_DRIVER_TRACE` sees the
/// call, and an unimplemented entry point names itself), else the
/// implementation.
fn address_of(sym: &str) -> Entry {
    let lookup = SHIM_LOOKUP.load(Ordering::Acquire);
    if lookup != 0 {
        if let Ok(c) = std::ffi::CString::new(sym) {
            // SAFETY: the pointer was stored from a function of this type.
            let f: unsafe extern "C" fn(*const c_char) -> *const c_void =
                unsafe { std::mem::transmute(lookup) };
            // SAFETY: a NUL-terminated name.
            let p = unsafe { f(c.as_ptr()) } as Entry;
            if p != 0 {
                return p;
            }
        }
    }
    implemented()
        .get(sym)
        .copied()
        .unwrap_or(not_supported as *const () as Entry)
}

/// `CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`.
const PER_THREAD_DEFAULT_STREAM: u64 = 2;

/// The `cuGetProcAddress` lookup: the symbol for `base` at `version`, and
/// its `CUdriverProcAddressQueryResult` (0 found, 1 no such symbol, 2 the
/// version is too old for it).
fn proc_address(base: &str, version: c_int, flags: u64) -> (Option<Entry>, c_int) {
    let per_thread = flags & PER_THREAD_DEFAULT_STREAM != 0;
    let rows = exports::by_base(base);
    if rows.is_empty() {
        return (None, 1);
    }
    let pick = |want_variant: bool| {
        rows.iter()
            .filter(|r| r.per_thread == want_variant && r.version <= version)
            .max_by_key(|r| r.version)
    };
    let row = if per_thread {
        pick(true).or_else(|| pick(false))
    } else {
        pick(false)
    };
    match row {
        Some(r) => (Some(address_of(r.symbol)), 0),
        None => (None, 2),
    }
}

/// `cuGetProcAddress_v2`: the entry point `symbol` (a base name such as
/// `cuMemAlloc`) as of CUDA version `version`.
pub unsafe extern "C" fn cuGetProcAddress_v2(
    symbol: *const c_char,
    pfn: *mut *const c_void,
    version: c_int,
    flags: u64,
    status: *mut c_int,
) -> CUresult {
    drv_any(|| {
        if symbol.is_null() || pfn.is_null() || flags > 2 {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's NUL-terminated name.
        let name = unsafe { CStr::from_ptr(symbol) }.to_str().unwrap_or("");
        let (found, st) = proc_address(name, version, flags);
        crate::log::log(crate::log::Level::Debug, || {
            format!("cuGetProcAddress({name}, {version}, {flags}) -> status {st}")
        });
        if !status.is_null() {
            // SAFETY: the caller's optional out-pointer.
            unsafe { status.write(st) };
        }
        // SAFETY: checked non-null.
        unsafe { pfn.write(found.map_or(std::ptr::null(), |f| f as *const c_void)) };
        found.map(|_| ()).ok_or(NOT_FOUND)
    })
}

/// `cuGetProcAddress` (CUDA 11.3's form, without the status).
pub unsafe extern "C" fn cuGetProcAddress(
    symbol: *const c_char,
    pfn: *mut *const c_void,
    version: c_int,
    flags: u64,
) -> CUresult {
    // SAFETY: forwarded contract.
    unsafe { cuGetProcAddress_v2(symbol, pfn, version, flags, std::ptr::null_mut()) }
}

/// `cuGetExportTable`: NVIDIA's private tables are not provided
/// (`docs/driver-api.md`).
pub unsafe extern "C" fn cuGetExportTable(
    table: *mut *const c_void,
    id: *const [u8; 16],
) -> CUresult {
    drv_any(|| {
        if table.is_null() || id.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's 16-byte id.
        let uuid = unsafe { id.read() };
        crate::log::log(crate::log::Level::Debug, || {
            let hex: String = uuid.iter().map(|b| format!("{b:02x}")).collect();
            format!("cuGetExportTable({hex}): not provided")
        });
        // SAFETY: checked non-null.
        unsafe { table.write(std::ptr::null()) };
        Err(NOT_SUPPORTED)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_implemented_entry_is_an_nvidia_export() {
        for name in implemented().keys() {
            assert!(
                exports::is_export(name),
                "{name} is not one of NVIDIA's exports"
            );
        }
    }

    #[test]
    fn proc_address_picks_the_version() {
        let (f, st) = proc_address("cuMemAlloc", 13000, 0);
        assert_eq!(
            (f, st),
            (Some(memory::cuMemAlloc_v2 as *const () as Entry), 0)
        );
        let (f, st) = proc_address("cuMemAlloc", 2000, 0);
        assert_eq!(st, 0);
        assert_ne!(f, Some(memory::cuMemAlloc_v2 as *const () as Entry));
        assert_eq!(proc_address("cuMemAlloc", 1000, 0), (None, 2));
        assert_eq!(proc_address("cuNoSuchThing", 13000, 0), (None, 1));
        let (f, _) = proc_address("cuMemcpyHtoD", 13000, PER_THREAD_DEFAULT_STREAM);
        assert_eq!(f, Some(memory::cuMemcpyHtoD_v2_ptds as *const () as Entry));
        // An export nobody implements still answers.
        let (f, st) = proc_address("cuGraphCreate", 13000, 0);
        assert_eq!((f.is_some(), st), (true, 0));
    }
}
