//! Running work in the order of the handle's stream.
//!
//! cuDNN calls are asynchronous with respect to the host and ordered with
//! the kernels of the handle's stream. Each call here validates its
//! arguments immediately, then packs the work (with copies of everything it
//! needs from descriptors and host scalars) into a closure queued with the
//! runtime's public `cudaLaunchHostFunc` on that stream: it runs on the
//! stream's worker after the kernels and copies queued before it, and
//! before those queued after. The runtime is not linked: its entry points
//! are looked up in the process (`dlsym(RTLD_DEFAULT)`), where cucc's
//! `libcudart.so.13` is loaded whenever a CUDA program calls cuDNN. Without
//! a runtime in the process (Rust tests of this crate) the work runs on the
//! calling thread, which is the order of a single in-order stream.

use std::ffi::{c_int, c_void, CStr};
use std::sync::OnceLock;

use crate::status::{Result, Status};

type LaunchHostFn = unsafe extern "C" fn(
    stream: *mut c_void,
    f: extern "C" fn(*mut c_void),
    data: *mut c_void,
) -> c_int;
type StreamSyncFn = unsafe extern "C" fn(stream: *mut c_void) -> c_int;

struct Runtime {
    launch_host_func: Option<LaunchHostFn>,
    stream_synchronize: Option<StreamSyncFn>,
}

fn lookup(name: &CStr) -> *mut c_void {
    // SAFETY: dlsym with a NUL-terminated name; RTLD_DEFAULT searches every
    // loaded object.
    unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) }
}

fn runtime() -> &'static Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        let launch = lookup(c"cudaLaunchHostFunc");
        let sync = lookup(c"cudaStreamSynchronize");
        Runtime {
            // SAFETY: the symbols are the CUDA runtime's, with these C types.
            launch_host_func: (!launch.is_null())
                .then(|| unsafe { std::mem::transmute::<*mut c_void, LaunchHostFn>(launch) }),
            // SAFETY: as above.
            stream_synchronize: (!sync.is_null())
                .then(|| unsafe { std::mem::transmute::<*mut c_void, StreamSyncFn>(sync) }),
        }
    })
}

type Work = Box<dyn FnOnce() + Send + 'static>;

extern "C" fn trampoline(data: *mut c_void) {
    // SAFETY: `data` is the `Box<Work>` leaked by `submit`, run exactly once.
    let work = unsafe { Box::from_raw(data.cast::<Work>()) };
    // A panic must not unwind into the runtime's worker; the work's inputs
    // were validated when it was queued, so this only guards against bugs.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
}

/// Queues `work` on `stream` (runs it now when no runtime is loaded).
///
/// # Safety
/// `stream` must be NULL or a live `cudaStream_t` of the loaded runtime.
pub unsafe fn submit(stream: *mut c_void, work: impl FnOnce() + Send + 'static) -> Result<()> {
    match runtime().launch_host_func {
        Some(launch) => {
            let boxed: Box<Work> = Box::new(Box::new(work));
            let data = Box::into_raw(boxed).cast::<c_void>();
            // SAFETY: the runtime's cudaLaunchHostFunc; `data` is freed by
            // the trampoline, or below when the launch is refused.
            let err = unsafe { launch(stream, trampoline, data) };
            if err != 0 {
                // SAFETY: the runtime did not take the callback.
                drop(unsafe { Box::from_raw(data.cast::<Work>()) });
                return Err(Status::EXECUTION_FAILED_CUDART);
            }
            Ok(())
        }
        None => {
            work();
            Ok(())
        }
    }
}

/// Waits until `stream` has run everything queued on it (used by the
/// `Find*` calls, which time work on the calling thread).
///
/// # Safety
/// As [`submit`].
pub unsafe fn synchronize(stream: *mut c_void) -> Result<()> {
    if let Some(sync) = runtime().stream_synchronize {
        // SAFETY: the runtime's cudaStreamSynchronize.
        if unsafe { sync(stream) } != 0 {
            return Err(Status::EXECUTION_FAILED_CUDART);
        }
    }
    Ok(())
}
