//! C types of the CUDA runtime ABI, laid out as CUDA 13's public headers lay
//! them out (field order, sizes and enum values), so that programs compiled
//! against NVIDIA's headers read them correctly.
//!
//! Enum-typed parameters arrive as plain `c_int`s and are validated before use:
//! a Rust `enum` receiving an out-of-range value from C would be undefined
//! behaviour.

#![allow(non_camel_case_types, non_snake_case)]

use std::ffi::{c_char, c_int, c_long, c_uint, c_void};

/// CUDA's `dim3` (passed by value in launches, 12 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dim3 {
    /// Extent in x.
    pub x: c_uint,
    /// Extent in y.
    pub y: c_uint,
    /// Extent in z.
    pub z: c_uint,
}

impl Dim3 {
    /// A `dim3` from its three extents.
    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    /// `x * y * z` without overflow.
    pub fn count(self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }
}

/// `cudaStream_t`: an opaque handle (0 and 1 are the legacy default stream,
/// 2 the per-thread default stream).
pub type cudaStream_t = *mut c_void;
/// `cudaEvent_t`: an opaque handle.
pub type cudaEvent_t = *mut c_void;

/// `cudaMemcpyHostToHost`.
pub const MEMCPY_HOST_TO_HOST: c_int = 0;
/// `cudaMemcpyHostToDevice`.
pub const MEMCPY_HOST_TO_DEVICE: c_int = 1;
/// `cudaMemcpyDeviceToHost`.
pub const MEMCPY_DEVICE_TO_HOST: c_int = 2;
/// `cudaMemcpyDeviceToDevice`.
pub const MEMCPY_DEVICE_TO_DEVICE: c_int = 3;
/// `cudaMemcpyDefault`: direction inferred from the pointers (unified addressing).
pub const MEMCPY_DEFAULT: c_int = 4;

/// `cudaStreamNonBlocking`: the stream does not synchronise with the legacy default stream.
pub const STREAM_NON_BLOCKING: c_uint = 0x1;
/// `cudaStreamLegacy`.
pub const STREAM_LEGACY: usize = 0x1;
/// `cudaStreamPerThread`.
pub const STREAM_PER_THREAD: usize = 0x2;

/// `cudaEventDisableTiming`.
pub const EVENT_DISABLE_TIMING: c_uint = 0x2;
/// All `cudaEvent*` creation flags (`Default`, `BlockingSync`, `DisableTiming`, `Interprocess`).
pub const EVENT_FLAGS_MASK: c_uint = 0x7;

/// `cudaMemoryType` values.
pub mod memory_type {
    /// Host memory the runtime does not know.
    pub const UNREGISTERED: i32 = 0;
    /// Page-locked (or registered) host memory.
    pub const HOST: i32 = 1;
    /// Device memory.
    pub const DEVICE: i32 = 2;
    /// Managed (unified) memory.
    pub const MANAGED: i32 = 3;
}

/// `cudaInvalidDeviceId`, the device of memory no device owns.
pub const INVALID_DEVICE_ID: c_int = -2;

/// `cudaUUID_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cudaUUID_t {
    /// The 16 bytes of the id.
    pub bytes: [c_char; 16],
}

/// `struct cudaDeviceProp` as of CUDA 13.0.
///
/// CUDA 13 removed the fields it had deprecated (`clockRate`, `deviceOverlap`,
/// `kernelExecTimeoutEnabled`, `computeMode`, `maxTexture1DLinear`,
/// `memoryClockRate`, `singleToDoublePrecisionPerfRatio`,
/// `cooperativeMultiDeviceLaunch`) and added the NUMA, MPS and PCI id fields
/// before `reserved`. Size: 1008 bytes on LP64 (checked by a test).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaDeviceProp {
    /// ASCII name of the device, NUL-terminated.
    pub name: [c_char; 256],
    /// Device UUID.
    pub uuid: cudaUUID_t,
    /// Windows LUID (unused).
    pub luid: [c_char; 8],
    /// Windows LUID node mask (unused).
    pub luidDeviceNodeMask: c_uint,
    /// Global memory in bytes.
    pub totalGlobalMem: usize,
    /// Static shared memory per block in bytes.
    pub sharedMemPerBlock: usize,
    /// 32-bit registers per block.
    pub regsPerBlock: c_int,
    /// Threads per warp.
    pub warpSize: c_int,
    /// Maximum pitch of a pitched copy.
    pub memPitch: usize,
    /// Maximum threads per block.
    pub maxThreadsPerBlock: c_int,
    /// Maximum block extents.
    pub maxThreadsDim: [c_int; 3],
    /// Maximum grid extents.
    pub maxGridSize: [c_int; 3],
    /// Constant memory in bytes.
    pub totalConstMem: usize,
    /// Compute capability, major.
    pub major: c_int,
    /// Compute capability, minor.
    pub minor: c_int,
    /// Texture base alignment.
    pub textureAlignment: usize,
    /// Pitch alignment for pitched textures.
    pub texturePitchAlignment: usize,
    /// Multiprocessors (here: CPU cores that run blocks).
    pub multiProcessorCount: c_int,
    /// Whether the device shares memory with the host.
    pub integrated: c_int,
    /// Whether host memory can be mapped.
    pub canMapHostMemory: c_int,
    /// Maximum 1D texture size.
    pub maxTexture1D: c_int,
    /// Maximum 1D mipmapped texture size.
    pub maxTexture1DMipmap: c_int,
    /// Maximum 2D texture sizes.
    pub maxTexture2D: [c_int; 2],
    /// Maximum 2D mipmapped texture sizes.
    pub maxTexture2DMipmap: [c_int; 2],
    /// Maximum 2D linear texture sizes.
    pub maxTexture2DLinear: [c_int; 3],
    /// Maximum 2D gather texture sizes.
    pub maxTexture2DGather: [c_int; 2],
    /// Maximum 3D texture sizes.
    pub maxTexture3D: [c_int; 3],
    /// Alternate maximum 3D texture sizes.
    pub maxTexture3DAlt: [c_int; 3],
    /// Maximum cubemap texture size.
    pub maxTextureCubemap: c_int,
    /// Maximum 1D layered texture sizes.
    pub maxTexture1DLayered: [c_int; 2],
    /// Maximum 2D layered texture sizes.
    pub maxTexture2DLayered: [c_int; 3],
    /// Maximum cubemap layered texture sizes.
    pub maxTextureCubemapLayered: [c_int; 2],
    /// Maximum 1D surface size.
    pub maxSurface1D: c_int,
    /// Maximum 2D surface sizes.
    pub maxSurface2D: [c_int; 2],
    /// Maximum 3D surface sizes.
    pub maxSurface3D: [c_int; 3],
    /// Maximum 1D layered surface sizes.
    pub maxSurface1DLayered: [c_int; 2],
    /// Maximum 2D layered surface sizes.
    pub maxSurface2DLayered: [c_int; 3],
    /// Maximum cubemap surface size.
    pub maxSurfaceCubemap: c_int,
    /// Maximum cubemap layered surface sizes.
    pub maxSurfaceCubemapLayered: [c_int; 2],
    /// Surface alignment.
    pub surfaceAlignment: usize,
    /// Whether kernels may run concurrently.
    pub concurrentKernels: c_int,
    /// Whether ECC is on.
    pub ECCEnabled: c_int,
    /// PCI bus id.
    pub pciBusID: c_int,
    /// PCI device id.
    pub pciDeviceID: c_int,
    /// PCI domain id.
    pub pciDomainID: c_int,
    /// Whether the TCC driver is used.
    pub tccDriver: c_int,
    /// Number of asynchronous copy engines.
    pub asyncEngineCount: c_int,
    /// Whether host and device share one address space.
    pub unifiedAddressing: c_int,
    /// Memory bus width in bits.
    pub memoryBusWidth: c_int,
    /// L2 cache size in bytes.
    pub l2CacheSize: c_int,
    /// Maximum persisting L2 size.
    pub persistingL2CacheMaxSize: c_int,
    /// Maximum resident threads per multiprocessor.
    pub maxThreadsPerMultiProcessor: c_int,
    /// Whether stream priorities are supported.
    pub streamPrioritiesSupported: c_int,
    /// Whether globals are cached in L1.
    pub globalL1CacheSupported: c_int,
    /// Whether locals are cached in L1.
    pub localL1CacheSupported: c_int,
    /// Shared memory per multiprocessor.
    pub sharedMemPerMultiprocessor: usize,
    /// Registers per multiprocessor.
    pub regsPerMultiprocessor: c_int,
    /// Whether managed memory is supported.
    pub managedMemory: c_int,
    /// Whether the device is on a multi-GPU board.
    pub isMultiGpuBoard: c_int,
    /// Multi-GPU board group.
    pub multiGpuBoardGroupID: c_int,
    /// Whether host-device atomics are native.
    pub hostNativeAtomicSupported: c_int,
    /// Whether pageable host memory is device accessible.
    pub pageableMemoryAccess: c_int,
    /// Whether managed memory can be accessed concurrently.
    pub concurrentManagedAccess: c_int,
    /// Whether compute preemption is supported.
    pub computePreemptionSupported: c_int,
    /// Whether registered host pointers can be used on the device.
    pub canUseHostPointerForRegisteredMem: c_int,
    /// Whether cooperative launches are supported.
    pub cooperativeLaunch: c_int,
    /// Opt-in maximum shared memory per block.
    pub sharedMemPerBlockOptin: usize,
    /// Whether pageable access uses the host page tables.
    pub pageableMemoryAccessUsesHostPageTables: c_int,
    /// Whether the host can access managed memory directly.
    pub directManagedMemAccessFromHost: c_int,
    /// Maximum resident blocks per multiprocessor.
    pub maxBlocksPerMultiProcessor: c_int,
    /// Maximum access policy window.
    pub accessPolicyMaxWindowSize: c_int,
    /// Shared memory reserved by the system per block.
    pub reservedSharedMemPerBlock: usize,
    /// Whether `cudaHostRegister` is supported.
    pub hostRegisterSupported: c_int,
    /// Whether sparse arrays are supported.
    pub sparseCudaArraySupported: c_int,
    /// Whether read-only host registration is supported.
    pub hostRegisterReadOnlySupported: c_int,
    /// Whether timeline semaphores interoperate.
    pub timelineSemaphoreInteropSupported: c_int,
    /// Whether memory pools are supported.
    pub memoryPoolsSupported: c_int,
    /// Whether GPUDirect RDMA is supported.
    pub gpuDirectRDMASupported: c_int,
    /// GPUDirect RDMA flush options.
    pub gpuDirectRDMAFlushWritesOptions: c_uint,
    /// GPUDirect RDMA write ordering.
    pub gpuDirectRDMAWritesOrdering: c_int,
    /// Memory pool handle types.
    pub memoryPoolSupportedHandleTypes: c_uint,
    /// Whether deferred mapping of arrays is supported.
    pub deferredMappingCudaArraySupported: c_int,
    /// Whether IPC events are supported.
    pub ipcEventSupported: c_int,
    /// Whether cluster launch is supported.
    pub clusterLaunch: c_int,
    /// Whether unified function pointers are supported.
    pub unifiedFunctionPointers: c_int,
    /// NUMA configuration of device memory.
    pub deviceNumaConfig: c_int,
    /// NUMA node of device memory.
    pub deviceNumaId: c_int,
    /// Whether MPS is on.
    pub mpsEnabled: c_int,
    /// NUMA node closest to the device.
    pub hostNumaId: c_int,
    /// Combined PCI device and vendor id.
    pub gpuPciDeviceID: c_uint,
    /// Combined PCI subsystem ids.
    pub gpuPciSubsystemID: c_uint,
    /// Whether multinode NUMA IPC is supported.
    pub hostNumaMultinodeIpcSupported: c_int,
    /// Reserved.
    pub reserved: [c_int; 56],
}

/// `struct cudaPointerAttributes`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaPointerAttributes {
    /// A `cudaMemoryType` value.
    pub type_: c_int,
    /// Device the memory belongs to.
    pub device: c_int,
    /// Address usable on the device, or NULL.
    pub devicePointer: *mut c_void,
    /// Address usable on the host, or NULL.
    pub hostPointer: *mut c_void,
    /// Reserved.
    pub reserved: [c_long; 8],
}

/// `struct cudaFuncAttributes`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cudaFuncAttributes {
    /// Static shared memory of the kernel.
    pub sharedSizeBytes: usize,
    /// Constant memory of the kernel.
    pub constSizeBytes: usize,
    /// Local memory per thread.
    pub localSizeBytes: usize,
    /// Maximum threads per block for this kernel.
    pub maxThreadsPerBlock: c_int,
    /// Registers per thread.
    pub numRegs: c_int,
    /// PTX version (major*10+minor).
    pub ptxVersion: c_int,
    /// Binary version (major*10+minor).
    pub binaryVersion: c_int,
    /// Whether compiled with `-Xptxas --dlcm=ca`.
    pub cacheModeCA: c_int,
    /// Maximum dynamic shared memory a launch may request.
    pub maxDynamicSharedSizeBytes: c_int,
    /// Preferred shared memory carveout.
    pub preferredShmemCarveout: c_int,
    /// Whether a cluster size must be given.
    pub clusterDimMustBeSet: c_int,
    /// Required cluster width.
    pub requiredClusterWidth: c_int,
    /// Required cluster height.
    pub requiredClusterHeight: c_int,
    /// Required cluster depth.
    pub requiredClusterDepth: c_int,
    /// Cluster scheduling policy.
    pub clusterSchedulingPolicyPreference: c_int,
    /// Whether non-portable cluster sizes are allowed.
    pub nonPortableClusterSizeAllowed: c_int,
    /// Reserved.
    pub reserved: [c_int; 16],
}

/// `struct cudaPitchedPtr`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaPitchedPtr {
    /// Base address.
    pub ptr: *mut c_void,
    /// Row pitch in bytes.
    pub pitch: usize,
    /// Logical row width in bytes.
    pub xsize: usize,
    /// Logical rows per slice.
    pub ysize: usize,
}

/// `struct cudaExtent`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaExtent {
    /// Width in bytes (for linear memory).
    pub width: usize,
    /// Height in rows.
    pub height: usize,
    /// Depth in slices.
    pub depth: usize,
}

/// `struct cudaPos` (x in bytes for pitched pointers, in elements for arrays).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cudaPos {
    /// x position.
    pub x: usize,
    /// y position (row).
    pub y: usize,
    /// z position (slice).
    pub z: usize,
}

/// `struct cudaMemcpy3DParms`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaMemcpy3DParms {
    /// Source array, or NULL.
    pub srcArray: *mut c_void,
    /// Source position.
    pub srcPos: cudaPos,
    /// Source pitched pointer (when `srcArray` is NULL).
    pub srcPtr: cudaPitchedPtr,
    /// Destination array, or NULL.
    pub dstArray: *mut c_void,
    /// Destination position.
    pub dstPos: cudaPos,
    /// Destination pitched pointer (when `dstArray` is NULL).
    pub dstPtr: cudaPitchedPtr,
    /// Extent (elements of the array if one takes part, else bytes in x).
    pub extent: cudaExtent,
    /// `cudaMemcpyKind`.
    pub kind: c_int,
}

/// `struct cudaChannelFormatDesc`: bits per channel and the channel format.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct cudaChannelFormatDesc {
    /// Bits of channel x.
    pub x: c_int,
    /// Bits of channel y.
    pub y: c_int,
    /// Bits of channel z.
    pub z: c_int,
    /// Bits of channel w.
    pub w: c_int,
    /// `cudaChannelFormatKind` (0 signed, 1 unsigned, 2 float, 3 none).
    pub f: c_int,
}

/// `cudaResourceDesc.res.linear`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaResourceLinear {
    /// Device memory.
    pub devPtr: *mut c_void,
    /// Texel format.
    pub desc: cudaChannelFormatDesc,
    /// Bytes.
    pub sizeInBytes: usize,
}

/// `cudaResourceDesc.res.pitch2D`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cudaResourcePitch2D {
    /// Device memory.
    pub devPtr: *mut c_void,
    /// Texel format.
    pub desc: cudaChannelFormatDesc,
    /// Width in texels.
    pub width: usize,
    /// Height in rows.
    pub height: usize,
    /// Bytes between rows.
    pub pitchInBytes: usize,
}

/// The union `cudaResourceDesc.res`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union cudaResourceUnion {
    /// `cudaResourceTypeArray`: the array handle.
    pub array: *mut c_void,
    /// `cudaResourceTypeMipmappedArray`: the mipmapped array handle.
    pub mipmap: *mut c_void,
    /// `cudaResourceTypeLinear`.
    pub linear: cudaResourceLinear,
    /// `cudaResourceTypePitch2D`.
    pub pitch2D: cudaResourcePitch2D,
}

/// `struct cudaResourceDesc` (64 bytes: the type and the union; a trailing
/// `flags` word, where a header has one, is neither read nor written).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaResourceDesc {
    /// `cudaResourceType` (0 array, 1 mipmapped array, 2 linear, 3 pitch 2D).
    pub resType: c_int,
    /// The resource.
    pub res: cudaResourceUnion,
}

/// `struct cudaTextureDesc` (72 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cudaTextureDesc {
    /// `cudaTextureAddressMode` per dimension (0 wrap, 1 clamp, 2 mirror, 3 border).
    pub addressMode: [c_int; 3],
    /// `cudaTextureFilterMode` (0 point, 1 linear).
    pub filterMode: c_int,
    /// `cudaTextureReadMode` (0 element type, 1 normalized float).
    pub readMode: c_int,
    /// sRGB conversion (ignored).
    pub sRGB: c_int,
    /// Border colour for `cudaAddressModeBorder`.
    pub borderColor: [f32; 4],
    /// Whether coordinates are normalized to [0, 1).
    pub normalizedCoords: c_int,
    /// Anisotropy (ignored).
    pub maxAnisotropy: c_uint,
    /// Mipmap filter (ignored).
    pub mipmapFilterMode: c_int,
    /// Mipmap level bias (ignored).
    pub mipmapLevelBias: f32,
    /// Mipmap clamp (ignored).
    pub minMipmapLevelClamp: f32,
    /// Mipmap clamp (ignored).
    pub maxMipmapLevelClamp: f32,
    /// Ignored.
    pub disableTrilinearOptimization: c_int,
    /// Ignored.
    pub seamlessCubemap: c_int,
}

/// `struct cudaResourceViewDesc` (accepted, ignored).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cudaResourceViewDesc {
    /// `cudaResourceViewFormat`.
    pub format: c_int,
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Depth.
    pub depth: usize,
    /// First mipmap level.
    pub firstMipmapLevel: c_uint,
    /// Last mipmap level.
    pub lastMipmapLevel: c_uint,
    /// First layer.
    pub firstLayer: c_uint,
    /// Last layer.
    pub lastLayer: c_uint,
}

/// `struct textureReference` (124 bytes): the host-side view of a legacy
/// `texture<T, dim, mode>` variable.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct textureReference {
    /// Whether coordinates are normalized.
    pub normalized: c_int,
    /// `cudaTextureFilterMode`.
    pub filterMode: c_int,
    /// `cudaTextureAddressMode` per dimension.
    pub addressMode: [c_int; 3],
    /// Texel format (set by the bind calls).
    pub channelDesc: cudaChannelFormatDesc,
    /// sRGB conversion (ignored).
    pub sRGB: c_int,
    /// Anisotropy (ignored).
    pub maxAnisotropy: c_uint,
    /// Mipmap filter (ignored).
    pub mipmapFilterMode: c_int,
    /// Mipmap level bias (ignored).
    pub mipmapLevelBias: f32,
    /// Mipmap clamp (ignored).
    pub minMipmapLevelClamp: f32,
    /// Mipmap clamp (ignored).
    pub maxMipmapLevelClamp: f32,
    /// Ignored.
    pub disableTrilinearOptimization: c_int,
    /// Reserved.
    pub __cudaReserved: [c_int; 14],
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Offsets computed with a C compiler from CUDA 13.0's `driver_types.h`.
    #[test]
    fn device_prop_layout_matches_cuda_13() {
        assert_eq!(size_of::<cudaDeviceProp>(), 1008);
        assert_eq!(offset_of!(cudaDeviceProp, totalGlobalMem), 288);
        assert_eq!(offset_of!(cudaDeviceProp, warpSize), 308);
        assert_eq!(offset_of!(cudaDeviceProp, maxThreadsPerBlock), 320);
        assert_eq!(offset_of!(cudaDeviceProp, totalConstMem), 352);
        assert_eq!(offset_of!(cudaDeviceProp, major), 360);
        assert_eq!(offset_of!(cudaDeviceProp, multiProcessorCount), 384);
        assert_eq!(offset_of!(cudaDeviceProp, surfaceAlignment), 552);
        assert_eq!(offset_of!(cudaDeviceProp, sharedMemPerMultiprocessor), 624);
        assert_eq!(offset_of!(cudaDeviceProp, sharedMemPerBlockOptin), 672);
        assert_eq!(offset_of!(cudaDeviceProp, maxBlocksPerMultiProcessor), 688);
        assert_eq!(offset_of!(cudaDeviceProp, clusterLaunch), 748);
        assert_eq!(offset_of!(cudaDeviceProp, reserved), 784);
    }

    #[test]
    fn other_struct_sizes_match_cuda_13() {
        assert_eq!(size_of::<Dim3>(), 12);
        assert_eq!(size_of::<cudaPointerAttributes>(), 88);
        assert_eq!(size_of::<cudaFuncAttributes>(), 144);
        assert_eq!(size_of::<cudaPitchedPtr>(), 32);
        assert_eq!(size_of::<cudaExtent>(), 24);
    }

    /// CUDA 13's `driver_types.h` and cucc's own headers agree on these.
    #[test]
    fn texture_struct_layouts() {
        assert_eq!(size_of::<cudaChannelFormatDesc>(), 20);
        assert_eq!(offset_of!(cudaResourceDesc, res), 8);
        assert_eq!(size_of::<cudaResourceDesc>(), 64);
        assert_eq!(offset_of!(cudaResourceLinear, sizeInBytes), 32);
        assert_eq!(offset_of!(cudaResourcePitch2D, pitchInBytes), 48);
        assert_eq!(size_of::<cudaTextureDesc>(), 72);
        assert_eq!(offset_of!(cudaTextureDesc, borderColor), 24);
        assert_eq!(offset_of!(cudaTextureDesc, normalizedCoords), 40);
        assert_eq!(size_of::<textureReference>(), 124);
        assert_eq!(offset_of!(textureReference, channelDesc), 20);
        assert_eq!(size_of::<cudaMemcpy3DParms>(), 160);
        assert_eq!(offset_of!(cudaMemcpy3DParms, extent), 128);
    }
}
