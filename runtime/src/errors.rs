//! CUDA error codes, the per-thread "last error" and the process-wide sticky error.
//!
//! CUDA keeps two kinds of error state. Every runtime call that fails records its
//! code as the calling thread's *last error*, which `cudaGetLastError` returns and
//! clears and `cudaPeekAtLastError` returns without clearing. A *sticky* error
//! (a kernel that trapped or failed an assertion) corrupts the context: from then
//! on every call that touches the device returns it, and `cudaGetLastError`
//! cannot clear it. Here only `cudaDeviceReset` clears it (CUDA requires a new
//! process; resetting is the CPU runtime's courtesy).

use std::cell::Cell;
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicI32, Ordering};

/// The C type of every CUDA runtime return value (`cudaError_t`, an `enum`).
#[allow(non_camel_case_types)]
pub type cudaError_t = i32;

/// A `&'static CStr` from a string literal, checked at compile time.
macro_rules! cstr {
    ($s:expr) => {
        const {
            match CStr::from_bytes_with_nul(concat!($s, "\0").as_bytes()) {
                Ok(c) => c,
                Err(_) => panic!("string literal with an interior NUL"),
            }
        }
    };
}

macro_rules! cuda_errors {
    ($($variant:ident = $value:literal, $name:literal, $text:literal;)*) => {
        /// A CUDA runtime error, with the numeric value CUDA 13 gives it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(i32)]
        pub enum Error {
            $(
                #[doc = $text]
                $variant = $value,
            )*
        }

        impl Error {
            /// The error for a raw code, if the runtime knows the code.
            pub fn from_code(code: i32) -> Option<Error> {
                match code {
                    $($value => Some(Error::$variant),)*
                    _ => None,
                }
            }

            /// The enumerator's name as CUDA spells it (`cudaErrorInvalidValue`).
            pub fn name(self) -> &'static CStr {
                match self {
                    $(Error::$variant => cstr!($name),)*
                }
            }

            /// A one-line description in the project's own words.
            pub fn description(self) -> &'static CStr {
                match self {
                    $(Error::$variant => cstr!($text),)*
                }
            }
        }
    };
}

cuda_errors! {
    Success = 0, "cudaSuccess", "no error";
    InvalidValue = 1, "cudaErrorInvalidValue", "invalid argument";
    MemoryAllocation = 2, "cudaErrorMemoryAllocation", "out of memory";
    InitializationError = 3, "cudaErrorInitializationError", "the runtime could not be initialized";
    CudartUnloading = 4, "cudaErrorCudartUnloading", "the runtime is shutting down";
    InvalidConfiguration = 9, "cudaErrorInvalidConfiguration", "invalid launch configuration (grid, block or shared memory size out of range)";
    InvalidPitchValue = 12, "cudaErrorInvalidPitchValue", "invalid pitch argument";
    InvalidSymbol = 13, "cudaErrorInvalidSymbol", "invalid device symbol";
    InvalidHostPointer = 16, "cudaErrorInvalidHostPointer", "invalid host pointer";
    InvalidDevicePointer = 17, "cudaErrorInvalidDevicePointer", "invalid device pointer";
    InvalidTexture = 18, "cudaErrorInvalidTexture", "invalid texture reference";
    InvalidTextureBinding = 19, "cudaErrorInvalidTextureBinding", "the texture reference is not bound";
    InvalidChannelDescriptor = 20, "cudaErrorInvalidChannelDescriptor", "invalid channel format descriptor";
    InvalidMemcpyDirection = 21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction";
    NotYetImplemented = 31, "cudaErrorNotYetImplemented", "this runtime function is not implemented by the CPU runtime yet";
    MissingConfiguration = 52, "cudaErrorMissingConfiguration", "launch without a call configuration";
    InvalidDeviceFunction = 98, "cudaErrorInvalidDeviceFunction", "invalid device function";
    NoDevice = 100, "cudaErrorNoDevice", "no CUDA-capable device is available";
    InvalidDevice = 101, "cudaErrorInvalidDevice", "invalid device ordinal";
    InvalidKernelImage = 200, "cudaErrorInvalidKernelImage", "the kernel image is invalid";
    NoKernelImageForDevice = 209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device";
    UnsupportedLimit = 215, "cudaErrorUnsupportedLimit", "the limit is not supported";
    PeerAccessUnsupported = 217, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these devices";
    InvalidPtx = 218, "cudaErrorInvalidPtx", "the PTX could not be translated";
    InvalidResourceHandle = 400, "cudaErrorInvalidResourceHandle", "invalid resource handle";
    IllegalState = 401, "cudaErrorIllegalState", "the resource is not in a state that allows the operation";
    SymbolNotFound = 500, "cudaErrorSymbolNotFound", "named symbol not found";
    NotReady = 600, "cudaErrorNotReady", "the asynchronous work has not completed yet";
    IllegalAddress = 700, "cudaErrorIllegalAddress", "a kernel accessed an illegal address";
    LaunchOutOfResources = 701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch";
    Assert = 710, "cudaErrorAssert", "a device-side assertion failed";
    HostMemoryAlreadyRegistered = 712, "cudaErrorHostMemoryAlreadyRegistered", "the host memory range is already registered";
    HostMemoryNotRegistered = 713, "cudaErrorHostMemoryNotRegistered", "the pointer does not start a registered host memory range";
    LaunchFailure = 719, "cudaErrorLaunchFailure", "the kernel trapped while executing";
    NotPermitted = 800, "cudaErrorNotPermitted", "operation not permitted";
    NotSupported = 801, "cudaErrorNotSupported", "operation not supported";
    StreamCaptureUnsupported = 900, "cudaErrorStreamCaptureUnsupported", "the operation cannot be recorded while the stream is being captured";
    StreamCaptureInvalidated = 901, "cudaErrorStreamCaptureInvalidated", "the stream capture was invalidated by an earlier error";
    StreamCaptureUnmatched = 903, "cudaErrorStreamCaptureUnmatched", "the capture was not begun in this stream";
    StreamCaptureUnjoined = 904, "cudaErrorStreamCaptureUnjoined", "a stream forked from the capture was not joined back";
    StreamCaptureImplicit = 906, "cudaErrorStreamCaptureImplicit", "the operation would synchronise implicitly with a capturing stream";
    StreamCaptureWrongThread = 908, "cudaErrorStreamCaptureWrongThread", "the capture was begun by another thread";
    GraphExecUpdateFailure = 910, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because the graphs differ";
    Unknown = 999, "cudaErrorUnknown", "unknown error";
}

impl Error {
    /// Whether the error corrupts the context (CUDA's "sticky" errors).
    pub fn is_sticky(self) -> bool {
        matches!(
            self,
            Error::Assert | Error::LaunchFailure | Error::IllegalAddress
        )
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({})",
            self.name().to_string_lossy(),
            self.description().to_string_lossy()
        )
    }
}

impl std::error::Error for Error {}

/// The result type of every runtime operation.
pub type CudaResult<T = ()> = Result<T, Error>;

/// The process-wide sticky error (0 when the context is healthy).
static STICKY: AtomicI32 = AtomicI32::new(0);

thread_local! {
    static LAST_ERROR: Cell<i32> = const { Cell::new(0) };
}

/// Records a sticky error; the first one wins, as later failures are consequences.
pub fn set_sticky(error: Error) {
    let _ = STICKY.compare_exchange(0, error as i32, Ordering::AcqRel, Ordering::Acquire);
}

/// The sticky error, if the context is corrupted.
pub fn sticky() -> Option<Error> {
    match STICKY.load(Ordering::Acquire) {
        0 => None,
        code => Some(Error::from_code(code).unwrap_or(Error::Unknown)),
    }
}

/// Clears the sticky error and the calling thread's last error (only
/// `cudaDeviceReset` does this).
pub fn clear_sticky() {
    STICKY.store(0, Ordering::Release);
    LAST_ERROR.with(|e| e.set(0));
}

/// Fails with the sticky error, for calls that need a healthy context.
pub fn check_sticky() -> CudaResult {
    match sticky() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Records `error` as the calling thread's last error.
///
/// `cudaErrorNotReady` is a status, not a failure, and is never recorded.
pub fn record(error: Error) {
    if error != Error::NotReady && error != Error::Success {
        LAST_ERROR.with(|e| e.set(error as i32));
    }
}

/// Runs `f` and leaves the calling thread's last error as it was: the
/// driver API, which has no last error, is built on the runtime's entry
/// points, which record one.
pub fn keeping_last_error<T>(f: impl FnOnce() -> T) -> T {
    let saved = LAST_ERROR.with(Cell::get);
    let r = f();
    LAST_ERROR.with(|e| e.set(saved));
    r
}

/// Runs the body of an exported function: catches panics (never unwinding
/// into C), records a failure as the last error, and returns the C code.
pub fn api(body: impl FnOnce() -> CudaResult) -> cudaError_t {
    let result = catch_unwind(AssertUnwindSafe(body)).unwrap_or(Err(Error::Unknown));
    match result {
        Ok(()) => 0,
        Err(e) => {
            record(e);
            e as i32
        }
    }
}

/// Like [`api`], but first fails with the sticky error if there is one.
pub fn api_dev(body: impl FnOnce() -> CudaResult) -> cudaError_t {
    api(|| {
        check_sticky()?;
        body()
    })
}

/// Rejects a NULL pointer supplied by C: every entry point answers it with
/// `cudaErrorInvalidValue` before touching anything.
pub fn non_null<T>(ptr: *const T) -> CudaResult {
    if ptr.is_null() {
        return Err(Error::InvalidValue);
    }
    Ok(())
}

/// Writes `value` through an out-pointer supplied by C, rejecting NULL.
///
/// # Safety
/// `ptr` must be NULL or valid for a write of `T`.
pub unsafe fn write_out<T>(ptr: *mut T, value: T) -> CudaResult {
    non_null(ptr)?;
    // SAFETY: non-null, and the caller promises validity.
    unsafe { ptr.write(value) };
    Ok(())
}

/// Returns the last error of the calling thread and resets it to
/// `cudaSuccess`; a sticky error is returned and stays.
#[no_mangle]
pub extern "C" fn cudaGetLastError() -> cudaError_t {
    if let Some(e) = sticky() {
        return e as i32;
    }
    LAST_ERROR.with(|e| e.replace(0))
}

/// Returns the last error of the calling thread without resetting it.
#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> cudaError_t {
    if let Some(e) = sticky() {
        return e as i32;
    }
    LAST_ERROR.with(|e| e.get())
}

static UNRECOGNIZED: &CStr = c"unrecognized error code";

/// The enumerator name of an error code, or "unrecognized error code".
#[no_mangle]
pub extern "C" fn cudaGetErrorName(error: cudaError_t) -> *const c_char {
    match Error::from_code(error) {
        Some(e) => e.name().as_ptr(),
        None => UNRECOGNIZED.as_ptr(),
    }
}

/// A description of an error code, or "unrecognized error code".
#[no_mangle]
pub extern "C" fn cudaGetErrorString(error: cudaError_t) -> *const c_char {
    match Error::from_code(error) {
        Some(e) => e.description().as_ptr(),
        None => UNRECOGNIZED.as_ptr(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_names_match_variants() {
        for code in [0, 1, 2, 9, 13, 21, 98, 101, 209, 400, 600, 710, 719, 999] {
            let e = Error::from_code(code).expect("known code");
            assert_eq!(e as i32, code);
            let name = e.name().to_str().expect("ascii");
            assert!(name.starts_with("cuda"), "{name}");
        }
        assert_eq!(Error::from_code(12345), None);
        assert_eq!(Error::InvalidValue.name(), c"cudaErrorInvalidValue");
        assert_eq!(Error::Assert as i32, 710);
    }

    #[test]
    fn last_error_is_per_thread_and_reset_by_get() {
        std::thread::spawn(|| {
            assert_eq!(api(|| Err(Error::InvalidValue)), 1);
            assert_eq!(cudaPeekAtLastError(), 1);
            assert_eq!(cudaGetLastError(), 1);
            assert_eq!(cudaGetLastError(), 0);
            assert_eq!(api(|| Err(Error::NotReady)), 600);
            assert_eq!(cudaGetLastError(), 0);
        })
        .join()
        .expect("thread");
    }

    #[test]
    fn panics_become_unknown() {
        let code = api(|| panic!("boom"));
        assert_eq!(code, Error::Unknown as i32);
        let _ = cudaGetLastError();
    }
}
