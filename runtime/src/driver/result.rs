//! `CUresult`: the driver API's codes, their names (CUDA 13's enumerators)
//! and descriptions in the project's own words, and the mapping from the
//! runtime's `cudaError_t` (most codes from 100 on share their value).

use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::sync::OnceLock;

use crate::errors::Error;

/// The C type of every driver API return value.
#[allow(non_camel_case_types)]
pub type CUresult = u32;

/// `CUDA_SUCCESS`.
pub const SUCCESS: CUresult = 0;
/// `CUDA_ERROR_INVALID_VALUE`.
pub const INVALID_VALUE: CUresult = 1;
/// `CUDA_ERROR_OUT_OF_MEMORY`.
pub const OUT_OF_MEMORY: CUresult = 2;
/// `CUDA_ERROR_NOT_INITIALIZED`: `cuInit` was not called.
pub const NOT_INITIALIZED: CUresult = 3;
/// `CUDA_ERROR_INVALID_DEVICE`.
pub const INVALID_DEVICE: CUresult = 101;
/// `CUDA_ERROR_INVALID_IMAGE`.
pub const INVALID_IMAGE: CUresult = 200;
/// `CUDA_ERROR_INVALID_CONTEXT`.
pub const INVALID_CONTEXT: CUresult = 201;
/// `CUDA_ERROR_NO_BINARY_FOR_GPU`.
pub const NO_BINARY_FOR_GPU: CUresult = 209;
/// `CUDA_ERROR_INVALID_PTX`.
pub const INVALID_PTX: CUresult = 218;
/// `CUDA_ERROR_FILE_NOT_FOUND`.
pub const FILE_NOT_FOUND: CUresult = 301;
/// `CUDA_ERROR_INVALID_HANDLE`.
pub const INVALID_HANDLE: CUresult = 400;
/// `CUDA_ERROR_NOT_FOUND`.
pub const NOT_FOUND: CUresult = 500;
/// `CUDA_ERROR_NOT_SUPPORTED`: what the CPU driver does not implement.
pub const NOT_SUPPORTED: CUresult = 801;
/// `CUDA_ERROR_UNKNOWN`.
pub const UNKNOWN: CUresult = 999;

/// The driver code for a runtime error.
pub fn from_runtime(e: Error) -> CUresult {
    match e {
        Error::Success => SUCCESS,
        Error::CudartUnloading => 4,
        Error::InvalidConfiguration
        | Error::InvalidPitchValue
        | Error::InvalidHostPointer
        | Error::InvalidDevicePointer
        | Error::InvalidTexture
        | Error::InvalidTextureBinding
        | Error::InvalidChannelDescriptor
        | Error::InvalidMemcpyDirection
        | Error::MissingConfiguration => INVALID_VALUE,
        Error::InvalidSymbol | Error::SymbolNotFound => NOT_FOUND,
        Error::NotYetImplemented => NOT_SUPPORTED,
        Error::InvalidDeviceFunction | Error::InvalidResourceHandle => INVALID_HANDLE,
        Error::InvalidKernelImage => INVALID_IMAGE,
        Error::NoKernelImageForDevice => NO_BINARY_FOR_GPU,
        // The rest share their values (CUDA aligned the two enums).
        other => other as i32 as CUresult,
    }
}

/// The driver code for a raw runtime return value.
pub fn from_code(code: i32) -> CUresult {
    Error::from_code(code).map_or(UNKNOWN, from_runtime)
}

/// CUDA 13's `CUresult` enumerators (from NVIDIA's public `cuda.h`).
const NAMES: &[(CUresult, &str)] = &[
    (0, "CUDA_SUCCESS"),
    (1, "CUDA_ERROR_INVALID_VALUE"),
    (2, "CUDA_ERROR_OUT_OF_MEMORY"),
    (3, "CUDA_ERROR_NOT_INITIALIZED"),
    (4, "CUDA_ERROR_DEINITIALIZED"),
    (5, "CUDA_ERROR_PROFILER_DISABLED"),
    (6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"),
    (7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"),
    (8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"),
    (34, "CUDA_ERROR_STUB_LIBRARY"),
    (36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"),
    (46, "CUDA_ERROR_DEVICE_UNAVAILABLE"),
    (47, "CUDA_ERROR_MULTICAST_RESOURCE_FULL"),
    (100, "CUDA_ERROR_NO_DEVICE"),
    (101, "CUDA_ERROR_INVALID_DEVICE"),
    (102, "CUDA_ERROR_DEVICE_NOT_LICENSED"),
    (200, "CUDA_ERROR_INVALID_IMAGE"),
    (201, "CUDA_ERROR_INVALID_CONTEXT"),
    (202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"),
    (205, "CUDA_ERROR_MAP_FAILED"),
    (206, "CUDA_ERROR_UNMAP_FAILED"),
    (207, "CUDA_ERROR_ARRAY_IS_MAPPED"),
    (208, "CUDA_ERROR_ALREADY_MAPPED"),
    (209, "CUDA_ERROR_NO_BINARY_FOR_GPU"),
    (210, "CUDA_ERROR_ALREADY_ACQUIRED"),
    (211, "CUDA_ERROR_NOT_MAPPED"),
    (212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"),
    (213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"),
    (214, "CUDA_ERROR_ECC_UNCORRECTABLE"),
    (215, "CUDA_ERROR_UNSUPPORTED_LIMIT"),
    (216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"),
    (217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"),
    (218, "CUDA_ERROR_INVALID_PTX"),
    (219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"),
    (220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"),
    (221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"),
    (222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"),
    (223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"),
    (224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"),
    (225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"),
    (226, "CUDA_ERROR_CONTAINED"),
    (227, "CUDA_ERROR_INSUFFICIENT_LOADER_VERSION"),
    (300, "CUDA_ERROR_INVALID_SOURCE"),
    (301, "CUDA_ERROR_FILE_NOT_FOUND"),
    (302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"),
    (303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"),
    (304, "CUDA_ERROR_OPERATING_SYSTEM"),
    (400, "CUDA_ERROR_INVALID_HANDLE"),
    (401, "CUDA_ERROR_ILLEGAL_STATE"),
    (402, "CUDA_ERROR_LOSSY_QUERY"),
    (500, "CUDA_ERROR_NOT_FOUND"),
    (600, "CUDA_ERROR_NOT_READY"),
    (700, "CUDA_ERROR_ILLEGAL_ADDRESS"),
    (701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"),
    (702, "CUDA_ERROR_LAUNCH_TIMEOUT"),
    (703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"),
    (704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"),
    (705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"),
    (708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"),
    (709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"),
    (710, "CUDA_ERROR_ASSERT"),
    (711, "CUDA_ERROR_TOO_MANY_PEERS"),
    (712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"),
    (713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"),
    (714, "CUDA_ERROR_HARDWARE_STACK_ERROR"),
    (715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"),
    (716, "CUDA_ERROR_MISALIGNED_ADDRESS"),
    (717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"),
    (718, "CUDA_ERROR_INVALID_PC"),
    (719, "CUDA_ERROR_LAUNCH_FAILED"),
    (720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"),
    (721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"),
    (800, "CUDA_ERROR_NOT_PERMITTED"),
    (801, "CUDA_ERROR_NOT_SUPPORTED"),
    (802, "CUDA_ERROR_SYSTEM_NOT_READY"),
    (803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
    (804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"),
    (805, "CUDA_ERROR_MPS_CONNECTION_FAILED"),
    (806, "CUDA_ERROR_MPS_RPC_FAILURE"),
    (807, "CUDA_ERROR_MPS_SERVER_NOT_READY"),
    (808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"),
    (809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"),
    (810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"),
    (811, "CUDA_ERROR_CDP_NOT_SUPPORTED"),
    (812, "CUDA_ERROR_CDP_VERSION_MISMATCH"),
    (900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"),
    (901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"),
    (902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"),
    (903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"),
    (904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"),
    (905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"),
    (906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"),
    (907, "CUDA_ERROR_CAPTURED_EVENT"),
    (908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"),
    (909, "CUDA_ERROR_TIMEOUT"),
    (910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"),
    (911, "CUDA_ERROR_EXTERNAL_DEVICE"),
    (912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"),
    (913, "CUDA_ERROR_FUNCTION_NOT_LOADED"),
    (914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"),
    (915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"),
    (916, "CUDA_ERROR_KEY_ROTATION"),
    (917, "CUDA_ERROR_STREAM_DETACHED"),
    (918, "CUDA_ERROR_GRAPH_RECAPTURE_FAILURE"),
    (919, "CUDA_ERROR_FABRIC_NOT_READY"),
    (999, "CUDA_ERROR_UNKNOWN"),
];

/// The enumerator's name, if `code` is one.
pub fn name(code: CUresult) -> Option<&'static CStr> {
    strings().get(&code).map(|(n, _)| n.as_c_str())
}

/// A one-line description, if `code` is known.
pub fn description(code: CUresult) -> Option<&'static CStr> {
    strings().get(&code).map(|(_, d)| d.as_c_str())
}

/// Our wording for the codes programs meet on the CPU; the others are
/// described by their name.
fn own_words(code: CUresult) -> Option<&'static str> {
    Some(match code {
        0 => "no error",
        1 => "invalid argument",
        2 => "out of memory",
        3 => "the driver API was not initialized (call cuInit first)",
        4 => "the driver is shutting down",
        100 => "no CUDA-capable device is available",
        101 => "invalid device ordinal",
        200 => "the module image is invalid (corrupt PTX text or fat binary)",
        201 => "no valid context is current on this thread",
        209 => "no code the CPU can run in the image (GPU machine code only, no PTX)",
        218 => "the PTX could not be translated",
        301 => "file not found",
        400 => "invalid resource handle",
        500 => "named symbol not found",
        600 => "the asynchronous work has not completed yet",
        700 => "a kernel accessed an illegal address",
        701 => "too many resources requested for launch",
        710 => "a device-side assertion failed",
        719 => "the kernel trapped while executing",
        801 => "operation not supported by cucc's CPU driver",
        999 => "unknown error",
        _ => return None,
    })
}

fn strings() -> &'static HashMap<CUresult, (CString, CString)> {
    static STRINGS: OnceLock<HashMap<CUresult, (CString, CString)>> = OnceLock::new();
    STRINGS.get_or_init(|| {
        NAMES
            .iter()
            .map(|&(code, name)| {
                let text = own_words(code).map(str::to_string).unwrap_or_else(|| {
                    name.trim_start_matches("CUDA_ERROR_")
                        .replace('_', " ")
                        .to_lowercase()
                });
                let c = |s: String| CString::new(s).unwrap_or_default();
                (code, (c(name.to_string()), c(text)))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_mapping() {
        assert_eq!(name(0).map(CStr::to_bytes), Some(&b"CUDA_SUCCESS"[..]));
        assert_eq!(
            name(801).map(CStr::to_bytes),
            Some(&b"CUDA_ERROR_NOT_SUPPORTED"[..])
        );
        assert!(name(12345).is_none());
        assert_eq!(from_runtime(Error::InvalidConfiguration), INVALID_VALUE);
        assert_eq!(from_runtime(Error::IllegalAddress), 700);
        assert_eq!(from_runtime(Error::InvalidResourceHandle), INVALID_HANDLE);
        assert_eq!(from_code(-5), UNKNOWN);
    }
}
