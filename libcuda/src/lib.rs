//! cucc's `libcuda.so.1`: every entry point of NVIDIA's driver library,
//! each a two-instruction trampoline through a table that is filled, when
//! the library is loaded, from cucc's runtime (`libcudart.so.13`, which
//! this library depends on). The driver API's implementation and state
//! live in the runtime (`runtime/src/driver`), so a program that uses both
//! APIs, or NVIDIA's static runtime on top of this library, sees one
//! device, one memory table and one set of streams.
//!
//! An entry point the runtime does not implement jumps to a handler that
//! reports its name once and returns `CUDA_ERROR_NOT_SUPPORTED`.
//! `docs/driver-api.md` in the repository explains the design.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_char, c_void, CStr};

include!(concat!(env!("OUT_DIR"), "/trampolines.rs"));

extern "C" {
    fn __cucc_driver_entry(name: *const c_char) -> *const c_void;
    fn __cucc_driver_attach(lookup: Option<unsafe extern "C" fn(*const c_char) -> *const c_void>);
    fn __cucc_driver_unsupported(name: *const c_char) -> u32;
}

/// Where each trampoline jumps: the runtime's implementation, or
/// [`unsupported_entry`] until (and unless) the runtime provides one.
static mut SLOTS: [unsafe extern "C" fn(); N] = [unsupported_entry; N];

/// An unimplemented entry point: the trampoline left its index in `eax`
/// (a scratch register no driver function takes an argument in).
#[unsafe(naked)]
unsafe extern "C" fn unsupported_entry() {
    core::arch::naked_asm!("mov edi, eax", "jmp {report}", report = sym unsupported);
}

/// Reports unimplemented entry point `index` and returns
/// `CUDA_ERROR_NOT_SUPPORTED`.
unsafe extern "C" fn unsupported(index: u32) -> u32 {
    match NAMES.get(index as usize) {
        // SAFETY: a NUL-terminated name.
        Some(name) => unsafe { __cucc_driver_unsupported(name.as_ptr()) },
        None => 801,
    }
}

/// The trampoline of export `name` (NULL if there is none), for the
/// runtime's `cuGetProcAddress`.
unsafe extern "C" fn lookup(name: *const c_char) -> *const c_void {
    if name.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the runtime passes a NUL-terminated name.
    let name = unsafe { CStr::from_ptr(name) };
    NAMES
        .iter()
        .position(|n| *n == name)
        .map_or(std::ptr::null(), |i| TRAMPOLINES[i] as *const c_void)
}

/// Fills the table from the runtime (a constructor: it runs when the
/// library is loaded, after the runtime it depends on).
unsafe extern "C" fn init() {
    for (i, name) in NAMES.iter().enumerate() {
        // SAFETY: a NUL-terminated name; the runtime returns NULL or a
        // function of the entry point's C signature.
        let p = unsafe { __cucc_driver_entry(name.as_ptr()) };
        if !p.is_null() {
            // SAFETY: the loader runs constructors on one thread, before
            // any code can call through the table.
            unsafe {
                (*std::ptr::addr_of_mut!(SLOTS))[i] =
                    std::mem::transmute::<*const c_void, unsafe extern "C" fn()>(p)
            };
        }
    }
    // SAFETY: `lookup` has the signature the runtime expects.
    unsafe { __cucc_driver_attach(Some(lookup)) };
}

#[used]
#[link_section = ".init_array"]
static INIT: unsafe extern "C" fn() = init;
