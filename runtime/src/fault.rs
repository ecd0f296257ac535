//! Memory faults in kernel code become `cudaErrorIllegalAddress`.
//!
//! On a GPU a kernel that reads or writes an address it must not gets the
//! launch stopped, and the next synchronising call returns the sticky
//! `cudaErrorIllegalAddress` (700); the host program goes on and can report
//! it. Here such an access raises SIGSEGV or SIGBUS on a worker. Each chunk
//! of a launch runs through `cucc_run_guarded` (`csrc/fault.c`); a fault
//! inside it jumps back there (skipping only the kernel's C frames), and
//! [`run_chunk`] records the sticky error, names the kernel on stderr and
//! stops the launch's other chunks. Device memory lives in its own mappings
//! with guard regions ([`crate::arena`]), so running off the end of a buffer
//! faults instead of corrupting the host heap or the runtime's tables.

use std::ffi::{c_int, c_void};
use std::sync::Once;

use crate::errors::{set_sticky, Error};
use crate::kernel::CuccKernelFn;
use crate::registry::CuccLaunch;

extern "C" {
    fn cucc_run_guarded(
        entry: CuccKernelFn,
        args: *mut *mut c_void,
        launch: *const CuccLaunch,
        begin: u32,
        end: u32,
        scratch: *mut c_void,
        address: *mut usize,
    ) -> c_int;
    fn cucc_install_fault_handler() -> c_int;
}

/// Installs the SIGSEGV/SIGBUS handler once (at the first launch). Faults
/// outside kernel code still reach the handler installed before it, or the
/// default action.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: installs a handler that only acts on threads inside
        // `cucc_run_guarded` and otherwise defers to the previous one.
        if unsafe { cucc_install_fault_handler() } != 0 {
            crate::log::log(crate::log::Level::Warn, || {
                "cannot install the fault handler: a kernel's bad access will end the process"
                    .into()
            });
        }
    });
}

/// Runs one chunk of kernel `name`; a memory fault in it sets the sticky
/// `cudaErrorIllegalAddress`, prints what happened and returns false (the
/// caller stops the launch).
///
/// # Safety
/// The entry's contract (`docs/abi.md`): `args`, `launch` and `scratch`
/// valid for the call.
pub(crate) unsafe fn run_chunk(
    name: &str,
    entry: CuccKernelFn,
    args: *mut *mut c_void,
    launch: &CuccLaunch,
    begin: u32,
    end: u32,
    scratch: *mut c_void,
) -> bool {
    install();
    let mut address = 0usize;
    // SAFETY: forwarded contract; the trampoline calls `entry` once.
    let sig = unsafe { cucc_run_guarded(entry, args, launch, begin, end, scratch, &mut address) };
    if sig == 0 {
        return true;
    }
    let what = if sig == libc::SIGBUS {
        "SIGBUS"
    } else {
        "SIGSEGV"
    };
    let unit = if launch.thread_ranges == 0 {
        "blocks"
    } else {
        "threads"
    };
    crate::log::log(crate::log::Level::Error, || {
        format!(
            "kernel `{}` accessed an illegal address {address:#x} ({what}) in {unit} \
             [{begin}, {end}); the launch was stopped and the context is unusable \
             (cudaErrorIllegalAddress)",
            crate::profile::demangle(name)
        )
    });
    set_sticky(Error::IllegalAddress);
    false
}
