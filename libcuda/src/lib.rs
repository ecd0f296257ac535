//! cucc's `libcuda.so.1`: every entry point of NVIDIA's driver library,
//! each a two-instruction trampoline through a table that is filled, when
//! the library is loaded, from cucc's runtime (`libcudart.so.13`, which
//! this library depends on). The driver API's implementation and state
//! live in the runtime (`runtime/src/driver`), so a program that uses both
//! APIs, or NVIDIA's static runtime on top of this library, sees one
//! device, one memory table and one set of streams.
//!
//! An entry point the runtime does not implement jumps to a handler that
//! reports its name once and returns `CUDA_ERROR_NOT_SUPPORTED`. With
//! `CUCC_DRIVER_TRACE=1`, every call through the library (and through the
//! addresses `cuGetProcAddress` hands out) prints the entry point's name.
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

/// With `CUCC_DRIVER_TRACE` set, each trampoline's slot points to
/// [`trace_entry`] and its target is kept here.
static mut TARGETS: [unsafe extern "C" fn(); N] = [unsupported_entry; N];

/// A traced call: saves the argument registers (and the index in `eax`),
/// has [`trace`] print the entry point's name and return its target, and
/// jumps there with the registers as they were.
#[unsafe(naked)]
unsafe extern "C" fn trace_entry() {
    core::arch::naked_asm!(
        "push rax",
        "push rdi",
        "push rsi",
        "push rdx",
        "push rcx",
        "push r8",
        "push r9",
        "mov edi, eax",
        "call {trace}",
        "mov r11, rax",
        "pop r9",
        "pop r8",
        "pop rcx",
        "pop rdx",
        "pop rsi",
        "pop rdi",
        "pop rax",
        "jmp r11",
        trace = sym trace,
    );
}

/// Prints entry point `index`'s name and returns where its call goes.
unsafe extern "C" fn trace(index: u32) -> usize {
    let i = index as usize;
    if let Some(name) = NAMES.get(i) {
        eprintln!("cucc libcuda: {}", name.to_string_lossy());
    }
    // SAFETY: written only by `init`, before any call.
    unsafe {
        (*std::ptr::addr_of!(TARGETS))
            .get(i)
            .map_or(unsupported_entry as *const () as usize, |f| *f as usize)
    }
}

/// Fills the table from the runtime (a constructor: it runs when the
/// library is loaded, after the runtime it depends on).
unsafe extern "C" fn init() {
    let tracing = std::env::var_os("CUCC_DRIVER_TRACE").is_some_and(|v| !v.is_empty() && v != "0");
    for (i, name) in NAMES.iter().enumerate() {
        // SAFETY: a NUL-terminated name; the runtime returns NULL or a
        // function of the entry point's C signature.
        let p = unsafe { __cucc_driver_entry(name.as_ptr()) };
        // SAFETY: the loader runs constructors on one thread, before any
        // code can call through the tables.
        unsafe {
            if !p.is_null() {
                (*std::ptr::addr_of_mut!(SLOTS))[i] =
                    std::mem::transmute::<*const c_void, unsafe extern "C" fn()>(p);
            }
            if tracing {
                (*std::ptr::addr_of_mut!(TARGETS))[i] = (*std::ptr::addr_of!(SLOTS))[i];
                (*std::ptr::addr_of_mut!(SLOTS))[i] = trace_entry;
            }
        }
    }
    // SAFETY: `lookup` has the signature the runtime expects.
    unsafe { __cucc_driver_attach(Some(lookup)) };
}

/// Takes the lookup back from the runtime when the library is unloaded
/// (a program may `dlclose` it while the runtime stays).
unsafe extern "C" fn fini() {
    // SAFETY: clears the pointer `init` handed over.
    unsafe { __cucc_driver_attach(None) };
}

#[used]
#[link_section = ".init_array"]
static INIT: unsafe extern "C" fn() = init;

#[used]
#[link_section = ".fini_array"]
static FINI: unsafe extern "C" fn() = fini;
