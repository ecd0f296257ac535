//! Test support: fake cucc modules registered through the real entry points,
//! with Rust `extern "C"` kernel entries standing in for translated kernels.

#![allow(dead_code)]

use std::ffi::{c_char, c_void, CStr};

use cucc_runtime::ffi::{cudaStream_t, Dim3};
use cucc_runtime::launch::{
    __cudaPopCallConfiguration, __cudaPushCallConfiguration, cudaLaunchKernel,
};
use cucc_runtime::registry::{
    __cucc_register_module, __cucc_register_variables, __cudaRegisterFatBinary,
    __cudaRegisterFatBinaryEnd, __cudaRegisterFunction, __cudaRegisterVar, CuccKernelFn,
    CuccKernelInfo, CuccLaunch, CuccVarInfo,
};

/// A kernel entry with the runtime's ABI (argument array, launch, block
/// range, scratch); the parameters are named, or `_`-named, by the caller.
macro_rules! kernel {
    ($(#[$attr:meta])* $vis:vis fn $name:ident(
        $args:ident, $launch:ident, $begin:ident, $end:ident, $scratch:ident
    ) $body:block) => {
        $(#[$attr])*
        $vis unsafe extern "C" fn $name(
            $args: *mut *mut ::std::ffi::c_void,
            $launch: *const ::cucc_runtime::registry::CuccLaunch,
            $begin: u32,
            $end: u32,
            $scratch: *mut ::std::ffi::c_void,
        ) $body
    };
}

/// The wrapper struct the host protocol passes to `__cudaRegisterFatBinary`.
#[repr(C)]
pub struct Wrapper {
    pub magic: i32,
    pub version: i32,
    pub data: *const u8,
    pub filename_or_fatbins: *mut c_void,
}

/// A cucc blob: magic, id, version 1, header size 40, total size 40.
pub fn blob(id: [u8; 16]) -> &'static [u8] {
    let mut b = Vec::with_capacity(40);
    b.extend_from_slice(b"CUCCMOD1");
    b.extend_from_slice(&id);
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&40u64.to_le_bytes());
    Box::leak(b.into_boxed_slice())
}

/// Registers a fat binary whose data is `data`; returns the handle.
pub fn register_fatbin(data: &'static [u8]) -> *mut *mut c_void {
    let w = Box::leak(Box::new(Wrapper {
        magic: 0x466243b1,
        version: 1,
        data: data.as_ptr(),
        filename_or_fatbins: std::ptr::null_mut(),
    }));
    // SAFETY: a valid wrapper with readable data.
    let handle = unsafe { __cudaRegisterFatBinary(w as *mut Wrapper as *mut c_void) };
    __cudaRegisterFatBinaryEnd(handle);
    handle
}

/// A leaked C string.
pub fn cstr(s: &str) -> *const c_char {
    let mut v = s.as_bytes().to_vec();
    v.push(0);
    Box::leak(v.into_boxed_slice()).as_ptr() as *const c_char
}

/// A fresh, unique stub address to stand for a host stub.
pub fn stub() -> *const c_char {
    Box::leak(Box::new(0u64)) as *const u64 as *const c_char
}

/// Registers a kernel on the host side.
pub fn register_function(handle: *mut *mut c_void, host_fun: *const c_char, name: &str) {
    let n = cstr(name);
    // SAFETY: valid handle and strings.
    unsafe {
        __cudaRegisterFunction(
            handle,
            host_fun,
            n as *mut c_char,
            n,
            -1,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
}

/// Registers a variable on the host side.
pub fn register_var(handle: *mut *mut c_void, host_var: *const c_void, name: &str, size: usize) {
    let n = cstr(name);
    // SAFETY: valid handle and strings.
    unsafe {
        __cudaRegisterVar(
            handle,
            host_var as *mut c_char,
            n as *mut c_char,
            n,
            0,
            size,
            0,
            0,
        )
    };
}

/// A kernel for the device-side table.
pub struct K {
    pub name: &'static str,
    pub entry: CuccKernelFn,
    pub static_shared: u64,
    pub params: &'static [u32],
}

/// Registers device-side kernels under `id`.
pub fn register_device(id: [u8; 16], kernels: &[K]) {
    register_device_flagged(id, kernels, 0);
}

/// Registers device-side kernels under `id`, each with `flags`
/// (`cucc_kernel_info.flags`).
pub fn register_device_flagged(id: [u8; 16], kernels: &[K], flags: u32) {
    let table: Vec<CuccKernelInfo> = kernels
        .iter()
        .map(|k| CuccKernelInfo {
            device_name: cstr(k.name),
            entry: Some(k.entry),
            static_shared: k.static_shared,
            num_params: k.params.len() as u32,
            flags,
            param_sizes: k.params.as_ptr(),
        })
        .collect();
    // SAFETY: valid id and table.
    unsafe { __cucc_register_module(id.as_ptr(), table.as_ptr(), table.len()) };
}

/// Registers device-side variables under `id`.
pub fn register_device_vars(id: [u8; 16], vars: &[(&str, *mut c_void, u64)]) {
    let table: Vec<CuccVarInfo> = vars
        .iter()
        .map(|&(name, storage, size)| CuccVarInfo {
            device_name: cstr(name),
            storage,
            size,
        })
        .collect();
    // SAFETY: valid id and table.
    unsafe { __cucc_register_variables(id.as_ptr(), table.as_ptr(), table.len()) };
}

/// Launches like a host stub does: push, pop, `cudaLaunchKernel`.
pub fn launch(
    host_fun: *const c_char,
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: cudaStream_t,
    args: &mut [*mut c_void],
) -> i32 {
    __cudaPushCallConfiguration(grid, block, shared, stream);
    let (mut g, mut b, mut s) = (Dim3::default(), Dim3::default(), 0usize);
    let mut st: cudaStream_t = std::ptr::null_mut();
    // SAFETY: valid out-pointers.
    let rc = unsafe {
        __cudaPopCallConfiguration(
            &mut g,
            &mut b,
            &mut s,
            &mut st as *mut cudaStream_t as *mut c_void,
        )
    };
    assert_eq!(rc, 0);
    // SAFETY: `args` has one pointer per parameter.
    unsafe { cudaLaunchKernel(host_fun as *const c_void, g, b, args.as_mut_ptr(), s, st) }
}

/// Reads kernel parameter `i` as a `T`.
///
/// # Safety
/// `args[i]` must point to a `T`.
pub unsafe fn arg<T: Copy>(args: *mut *mut c_void, i: usize) -> T {
    unsafe { *(*args.add(i) as *const T) }
}

/// Threads per block of a launch.
pub fn block_threads(l: &CuccLaunch) -> u32 {
    l.block[0] * l.block[1] * l.block[2]
}

kernel! {
    /// `c[i] = a[i] + b[i]` for `i < n` (params: a, b, c, n).
    pub fn vec_add(args, launch, begin, end, _scratch) {
        unsafe {
            let a: *const f32 = arg(args, 0);
            let b: *const f32 = arg(args, 1);
            let c: *mut f32 = arg(args, 2);
            let n: i32 = arg(args, 3);
            let bt = block_threads(&*launch);
            for blk in begin..end {
                for t in 0..bt {
                    let i = (blk * bt + t) as i32;
                    if i < n {
                        *c.add(i as usize) = *a.add(i as usize) + *b.add(i as usize);
                    }
                }
            }
        }
    }
}

/// Parameter sizes of [`vec_add`].
pub const VEC_ADD_PARAMS: &[u32] = &[8, 8, 8, 4];

/// A unique module id per call.
pub fn fresh_id() -> [u8; 16] {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&0x7465_7374_6d6f_6400u64.to_le_bytes());
    id[8..].copy_from_slice(&(n + std::process::id() as u64 * 1000).to_le_bytes());
    id
}

/// The name of an error code.
pub fn name(code: i32) -> String {
    // SAFETY: the runtime returns static NUL-terminated strings.
    unsafe { CStr::from_ptr(cucc_runtime::errors::cudaGetErrorName(code)) }
        .to_string_lossy()
        .into_owned()
}
