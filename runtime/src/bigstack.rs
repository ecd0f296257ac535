//! Running kernels on a host thread: a stack as large as a worker's.
//!
//! Translated kernels keep per-thread arrays on the stack of the thread that
//! runs them ([`crate::host::WORKER_STACK`]), which a program's own threads
//! (8 MiB for the main thread, often less for others) may not have. A host
//! thread that waits for a launch runs the launch itself (as an OpenMP master
//! thread runs its share of a parallel region) on a stack of that size,
//! mapped once per thread (`MAP_NORESERVE`: only the pages touched use
//! memory) with a guard page below it, and switched to for the call.
//!
//! Only x86-64 switches stacks; elsewhere [`available`] is false on host
//! threads and their launches stay on the runtime's threads.

use std::cell::Cell;

thread_local! {
    /// Whether kernels may run on the current stack: set on the runtime's
    /// own threads (created with worker stacks) and while on a switched one.
    static LARGE: Cell<bool> = const { Cell::new(false) };
}

/// Marks the calling thread as one created with a worker-sized stack.
pub fn mark_worker_thread() {
    LARGE.with(|l| l.set(true));
}

/// Whether the calling thread is one of the runtime's threads (or already
/// on a switched stack).
pub fn on_large_stack() -> bool {
    LARGE.with(|l| l.get())
}

/// Whether [`run`] can give the calling thread a worker-sized stack (on a
/// host thread this maps the thread's stack if it is not mapped yet).
pub fn available() -> bool {
    on_large_stack() || imp::mapped()
}

/// Runs `f` on a worker-sized stack: directly on the runtime's threads,
/// else on the calling thread's switched stack. `f` must not unwind (callers
/// catch panics inside it). Returns `None` (without calling `f`) when no
/// such stack can be had: not [`available`], or the mapping failed.
pub fn run(f: &mut dyn FnMut()) -> Option<()> {
    if on_large_stack() {
        f();
        return Some(());
    }
    imp::run_switched(f)
}

#[cfg(target_arch = "x86_64")]
mod imp {
    use super::LARGE;
    use std::cell::RefCell;
    use std::ffi::c_void;

    const GUARD: usize = 64 << 10;

    /// A mapped stack, unmapped when its thread exits.
    struct Stack {
        base: *mut c_void,
        len: usize,
    }

    impl Drop for Stack {
        fn drop(&mut self) {
            // SAFETY: the mapping made in `map`, no longer in use (the
            // thread is exiting and is not on it).
            unsafe { libc::munmap(self.base, self.len) };
        }
    }

    impl Stack {
        fn map() -> Option<Stack> {
            let len = crate::host::WORKER_STACK + GUARD;
            // SAFETY: a fresh private anonymous mapping.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
                    -1,
                    0,
                )
            };
            if base == libc::MAP_FAILED {
                return None;
            }
            // The lowest pages trap an overflow instead of running into
            // whatever lies below. SAFETY: inside the mapping.
            if unsafe { libc::mprotect(base, GUARD, libc::PROT_NONE) } != 0 {
                // SAFETY: the mapping just made.
                unsafe { libc::munmap(base, len) };
                return None;
            }
            Some(Stack { base, len })
        }

        fn top(&self) -> *mut u8 {
            // Page aligned, hence 16-byte aligned as the ABI wants at a call.
            (self.base as usize + self.len) as *mut u8
        }
    }

    thread_local! {
        static STACK: RefCell<Option<Stack>> = const { RefCell::new(None) };
    }

    /// The body handed across the switch.
    struct Call<'a> {
        f: &'a mut dyn FnMut(),
    }

    unsafe extern "C" fn trampoline(call: *mut c_void) {
        // SAFETY: `run_switched` passes a live `Call` and waits for us.
        let call = unsafe { &mut *(call as *mut Call<'_>) };
        LARGE.with(|l| l.set(true));
        // Unwinding across the switch is impossible: stop here instead.
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (call.f)())).is_err() {
            std::process::abort();
        }
        LARGE.with(|l| l.set(false));
    }

    /// The top of the calling thread's stack, mapped on first use.
    fn top() -> Option<*mut u8> {
        STACK
            .try_with(|s| {
                let mut s = s.borrow_mut();
                if s.is_none() {
                    *s = Stack::map();
                }
                s.as_ref().map(Stack::top)
            })
            .ok()
            .flatten()
    }

    pub fn mapped() -> bool {
        top().is_some()
    }

    pub fn run_switched(f: &mut dyn FnMut()) -> Option<()> {
        let top = top()?;
        let mut call = Call { f };
        let arg = &mut call as *mut Call<'_> as *mut c_void;
        // SAFETY: switches to the top of a stack owned by this thread and not
        // in use (LARGE is false here, so we are not on it), calls the
        // trampoline with the C ABI and restores the stack pointer from a
        // callee-saved register. The trampoline never unwinds.
        unsafe {
            std::arch::asm!(
                "mov r12, rsp",
                "mov rsp, {top}",
                "call {func}",
                "mov rsp, r12",
                top = in(reg) top,
                func = in(reg) trampoline as unsafe extern "C" fn(*mut c_void),
                in("rdi") arg,
                out("r12") _,
                clobber_abi("C"),
            );
        }
        Some(())
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod imp {
    pub fn mapped() -> bool {
        false
    }

    pub fn run_switched(_f: &mut dyn FnMut()) -> Option<()> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_frames_fit_on_the_switched_stack() {
        // Touches 32 MiB of stack: more than a test thread has.
        fn deep(depth: u32) -> u64 {
            let pad = std::hint::black_box([depth as u8; 1 << 16]);
            if depth == 0 {
                u64::from(pad[7])
            } else {
                deep(depth - 1) + u64::from(pad[depth as usize % pad.len()])
            }
        }
        let mut got = 0;
        let ran = run(&mut || got = deep(512));
        if available() {
            assert_eq!(ran, Some(()));
            assert_eq!(got, (0..=512u64).map(|d| d as u8 as u64).sum::<u64>());
        }
        assert!(!on_large_stack());
    }
}
