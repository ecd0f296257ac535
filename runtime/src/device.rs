//! Device management: one device, the CPU, described honestly (name, cores,
//! memory) while keeping the limits CUDA programs check (1024 threads per block,
//! 48 KiB static shared memory, warp size 32, compute capability 8.0).

use std::ffi::{c_char, c_int, c_uint};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::errors::{api, api_dev, clear_sticky, cudaError_t, write_out, CudaResult, Error};
use crate::ffi::{cudaDeviceProp, cudaUUID_t};
use crate::host::{
    core_count, physical_memory, MAX_BLOCK_DIM, MAX_GRID_DIM, MAX_THREADS_PER_BLOCK,
    SHARED_PER_BLOCK, SHARED_PER_BLOCK_OPTIN,
};
use crate::stream::synchronize_all;
use crate::sync::lock;

/// CUDA runtime version reported (13.0).
pub const RUNTIME_VERSION: c_int = 13000;
/// Driver version reported (the driver API level this runtime implements).
pub const DRIVER_VERSION: c_int = 13000;
/// Compute capability reported.
pub const COMPUTE_CAPABILITY: (c_int, c_int) = (8, 0);
/// Constant memory (64 KiB, as on every CUDA GPU).
pub const CONSTANT_MEMORY: usize = 64 * 1024;

/// The CPU's model name from `/proc/cpuinfo`, or a generic name.
fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("{} CPU", std::env::consts::ARCH))
}

/// Largest L2 (or last-level) cache reported by sysfs, in bytes.
fn l2_cache_bytes() -> c_int {
    let dir = "/sys/devices/system/cpu/cpu0/cache";
    let mut best = 0usize;
    for idx in 0..8 {
        let level = std::fs::read_to_string(format!("{dir}/index{idx}/level")).ok();
        let size = std::fs::read_to_string(format!("{dir}/index{idx}/size")).ok();
        if let (Some(level), Some(size)) = (level, size) {
            let size = size.trim();
            let bytes = match size.strip_suffix('K') {
                Some(k) => k.parse::<usize>().ok().map(|v| v * 1024),
                None => match size.strip_suffix('M') {
                    Some(m) => m.parse::<usize>().ok().map(|v| v * 1024 * 1024),
                    None => size.parse().ok(),
                },
            };
            if level.trim() == "2" {
                best = best.max(bytes.unwrap_or(0));
            }
        }
    }
    c_int::try_from(best).unwrap_or(c_int::MAX)
}

fn to_int(v: usize) -> c_int {
    c_int::try_from(v).unwrap_or(c_int::MAX)
}

/// The device properties, computed once.
pub fn properties() -> &'static cudaDeviceProp {
    static PROPS: OnceLock<cudaDeviceProp> = OnceLock::new();
    PROPS.get_or_init(build_properties)
}

fn build_properties() -> cudaDeviceProp {
    let cores = to_int(core_count());
    // SAFETY: cudaDeviceProp is plain old data; all-zero is a valid value.
    let mut p: cudaDeviceProp = unsafe { std::mem::zeroed() };
    let name = cpu_name();
    for (dst, src) in p.name.iter_mut().zip(name.bytes().take(255)) {
        *dst = src as c_char;
    }
    let mut uuid = cudaUUID_t::default();
    for (dst, src) in uuid.bytes.iter_mut().zip(b"cucc-cpu-device0") {
        *dst = *src as c_char;
    }
    p.uuid = uuid;
    p.totalGlobalMem = physical_memory();
    p.sharedMemPerBlock = SHARED_PER_BLOCK as usize;
    p.regsPerBlock = 65536;
    p.warpSize = 32;
    p.memPitch = c_int::MAX as usize;
    p.maxThreadsPerBlock = MAX_THREADS_PER_BLOCK as c_int;
    p.maxThreadsDim = MAX_BLOCK_DIM.map(|v| v as c_int);
    p.maxGridSize = MAX_GRID_DIM.map(|v| v as c_int);
    p.totalConstMem = CONSTANT_MEMORY;
    (p.major, p.minor) = COMPUTE_CAPABILITY;
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.multiProcessorCount = cores;
    p.integrated = 1;
    p.canMapHostMemory = 1;
    p.maxTexture1D = 131072;
    p.maxTexture1DMipmap = 32768;
    p.maxTexture2D = [131072, 65536];
    p.maxTexture2DMipmap = [32768, 32768];
    p.maxTexture2DLinear = [131072, 65000, 2097120];
    p.maxTexture2DGather = [32768, 32768];
    p.maxTexture3D = [16384, 16384, 16384];
    p.maxTexture3DAlt = [8192, 8192, 32768];
    p.maxTextureCubemap = 32768;
    p.maxTexture1DLayered = [32768, 2048];
    p.maxTexture2DLayered = [32768, 32768, 2048];
    p.maxTextureCubemapLayered = [32768, 2046];
    p.maxSurface1D = 32768;
    p.maxSurface2D = [131072, 65536];
    p.maxSurface3D = [16384, 16384, 16384];
    p.maxSurface1DLayered = [32768, 2048];
    p.maxSurface2DLayered = [32768, 32768, 2048];
    p.maxSurfaceCubemap = 32768;
    p.maxSurfaceCubemapLayered = [32768, 2046];
    p.surfaceAlignment = 512;
    p.concurrentKernels = 1;
    p.asyncEngineCount = 1;
    p.unifiedAddressing = 1;
    p.memoryBusWidth = 64;
    p.l2CacheSize = l2_cache_bytes();
    p.maxThreadsPerMultiProcessor = 2048;
    p.streamPrioritiesSupported = 1;
    p.globalL1CacheSupported = 1;
    p.localL1CacheSupported = 1;
    p.sharedMemPerMultiprocessor = SHARED_PER_BLOCK_OPTIN as usize;
    p.regsPerMultiprocessor = 65536;
    p.managedMemory = 1;
    p.hostNativeAtomicSupported = 1;
    p.pageableMemoryAccess = 1;
    p.concurrentManagedAccess = 1;
    p.canUseHostPointerForRegisteredMem = 1;
    p.cooperativeLaunch = 0;
    p.sharedMemPerBlockOptin = SHARED_PER_BLOCK_OPTIN as usize;
    p.pageableMemoryAccessUsesHostPageTables = 1;
    p.directManagedMemAccessFromHost = 1;
    p.maxBlocksPerMultiProcessor = 32;
    p.hostRegisterSupported = 1;
    p.hostRegisterReadOnlySupported = 1;
    p.deviceNumaId = -1;
    p.hostNumaId = -1;
    // Fields CUDA 13 removed live at the start of `reserved` in cucc's own
    // header (docs/runtime.md), so older programs compiled by cucc read them.
    let legacy = [
        cpu_clock_khz(), // clockRate
        1,               // deviceOverlap
        0,               // kernelExecTimeoutEnabled
        0,               // computeMode: cudaComputeModeDefault
        1 << 27,         // maxTexture1DLinear
        cpu_clock_khz(), // memoryClockRate
        2,               // singleToDoublePrecisionPerfRatio
        0,               // cooperativeMultiDeviceLaunch
    ];
    p.reserved[..legacy.len()].copy_from_slice(&legacy);
    p
}

/// The CPU's clock in kHz from /proc/cpuinfo, or 2 GHz when unknown.
fn cpu_clock_khz() -> c_int {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("cpu MHz"))
                .and_then(|l| l.split(':').nth(1))
                .and_then(|v| v.trim().parse::<f64>().ok())
        })
        .map_or(2_000_000, |mhz| (mhz * 1000.0) as c_int)
}

/// The properties of device `device`.
pub(crate) fn properties_of(device: c_int) -> CudaResult<&'static cudaDeviceProp> {
    Ok(match crate::devices::kind(device)? {
        crate::devices::DeviceKind::Cpu => properties(),
        crate::devices::DeviceKind::Snitch => crate::snitch::properties(),
        crate::devices::DeviceKind::Racer => crate::racer::properties(),
    })
}

/// The devices `CUCC_DEVICE`/`CUCC_DEVICES` list (the CPU alone by
/// default; `crate::devices`).
///
/// # Safety
/// `count` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceCount(count: *mut c_int) -> cudaError_t {
    api(|| {
        let n = crate::devices::list()?.len();
        // SAFETY: forwarded contract.
        unsafe { write_out(count, n as c_int) }
    })
}

/// Makes a listed device the calling thread's current one
/// (`cudaErrorInvalidDevice` for other ordinals).
#[no_mangle]
pub extern "C" fn cudaSetDevice(device: c_int) -> cudaError_t {
    crate::driver::context::runtime_holds_primary();
    api(|| crate::devices::set_current(device))
}

/// The calling thread's current device (0 until `cudaSetDevice`).
///
/// # Safety
/// `device` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDevice(device: *mut c_int) -> cudaError_t {
    api(|| {
        crate::devices::list()?;
        // SAFETY: forwarded contract.
        unsafe { write_out(device, crate::devices::current()) }
    })
}

/// Waits for all work on all streams; returns a sticky error if one occurred.
#[no_mangle]
pub extern "C" fn cudaDeviceSynchronize() -> cudaError_t {
    crate::driver::context::runtime_holds_primary();
    api(|| {
        let _p = crate::profile::Scope::new(crate::profile::Category::Synchronize);
        synchronize_all()
    })
}

/// Legacy name of [`cudaDeviceSynchronize`].
#[no_mangle]
pub extern "C" fn cudaThreadSynchronize() -> cudaError_t {
    cudaDeviceSynchronize()
}

/// Waits for all work, then frees every allocation, destroys every stream and
/// event, restores limits and flags and clears the sticky error.
#[no_mangle]
pub extern "C" fn cudaDeviceReset() -> cudaError_t {
    api(|| {
        let _ = synchronize_all();
        crate::stream::destroy_all_user_streams();
        crate::event::destroy_all_events();
        crate::memory::release_all();
        crate::texture::release_all();
        crate::array::release_all();
        *lock(&LIMITS) = DEFAULT_LIMITS;
        DEVICE_FLAGS.store(0, Ordering::Relaxed);
        clear_sticky();
        Ok(())
    })
}

/// Legacy name of [`cudaDeviceReset`].
#[no_mangle]
pub extern "C" fn cudaThreadExit() -> cudaError_t {
    cudaDeviceReset()
}

/// Fills `*prop` for `device` (both `cudaGetDeviceProperties` names).
///
/// # Safety
/// `prop` must be NULL or point to a writable `cudaDeviceProp`.
unsafe fn get_properties(prop: *mut cudaDeviceProp, device: c_int) -> cudaError_t {
    api(|| {
        let p = properties_of(device)?;
        // SAFETY: the caller's contract.
        unsafe { write_out(prop, *p) }
    })
}

/// Fills CUDA 13's `cudaDeviceProp` (the symbol CUDA 13 headers call).
///
/// # Safety
/// `prop` must be NULL or point to a writable CUDA 13 `cudaDeviceProp`.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties(
    prop: *mut cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { get_properties(prop, device) }
}

/// The name CUDA 12 headers map `cudaGetDeviceProperties` to; fills the
/// CUDA 13 layout, which CUDA 12 programs linked against this library get.
///
/// # Safety
/// As [`cudaGetDeviceProperties`].
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties_v2(
    prop: *mut cudaDeviceProp,
    device: c_int,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { get_properties(prop, device) }
}

/// The value of one `cudaDeviceAttr`, read from the properties.
fn attribute(attr: c_int, device: c_int) -> CudaResult<c_int> {
    let p = properties_of(device)?;
    // `clockRate` and `memoryClockRate` (kHz), which CUDA 13's struct lacks.
    let clock = p.reserved[0];
    let v = match attr {
        1 => p.maxThreadsPerBlock,
        2..=4 => p.maxThreadsDim[(attr - 2) as usize],
        5..=7 => p.maxGridSize[(attr - 5) as usize],
        8 => to_int(p.sharedMemPerBlock),
        9 => to_int(p.totalConstMem),
        10 => p.warpSize,
        11 => to_int(p.memPitch),
        12 => p.regsPerBlock,
        13 => clock, // as `clockRate`
        14 => to_int(p.textureAlignment),
        15 => 1,
        16 => p.multiProcessorCount,
        17 => 0,
        18 => p.integrated,
        19 => p.canMapHostMemory,
        20 => 0, // compute mode: default
        21 => p.maxTexture1D,
        22 => p.maxTexture2D[0],
        23 => p.maxTexture2D[1],
        24..=26 => p.maxTexture3D[(attr - 24) as usize],
        30 => to_int(p.surfaceAlignment),
        31 => p.concurrentKernels,
        32 => p.ECCEnabled,
        33 => p.pciBusID,
        34 => p.pciDeviceID,
        35 => p.tccDriver,
        36 => p.reserved[5], // as `memoryClockRate`
        37 => p.memoryBusWidth,
        38 => p.l2CacheSize,
        39 => p.maxThreadsPerMultiProcessor,
        40 => p.asyncEngineCount,
        41 => p.unifiedAddressing,
        50 => p.pciDomainID,
        51 => to_int(p.texturePitchAlignment),
        75 => p.major,
        76 => p.minor,
        78 => p.streamPrioritiesSupported,
        79 => p.globalL1CacheSupported,
        80 => p.localL1CacheSupported,
        81 => to_int(p.sharedMemPerMultiprocessor),
        82 => p.regsPerMultiprocessor,
        83 => p.managedMemory,
        84 => p.isMultiGpuBoard,
        85 => p.multiGpuBoardGroupID,
        86 => p.hostNativeAtomicSupported,
        87 => 2, // single to double precision performance ratio
        88 => p.pageableMemoryAccess,
        89 => p.concurrentManagedAccess,
        90 => p.computePreemptionSupported,
        91 => p.canUseHostPointerForRegisteredMem,
        95 => p.cooperativeLaunch,
        97 => to_int(p.sharedMemPerBlockOptin),
        99 => p.hostRegisterSupported,
        100 => p.pageableMemoryAccessUsesHostPageTables,
        101 => p.directManagedMemAccessFromHost,
        106 => p.maxBlocksPerMultiProcessor,
        111 => to_int(p.reservedSharedMemPerBlock),
        113 => p.hostRegisterReadOnlySupported,
        115 => p.memoryPoolsSupported,
        120 => p.clusterLaunch,
        130 => p.deviceNumaConfig,
        131 => p.deviceNumaId,
        133 => p.mpsEnabled,
        134 => p.hostNumaId,
        0..=200 => 0,
        _ => return Err(Error::InvalidValue),
    };
    Ok(v)
}

/// One device attribute (`cudaDevAttr*` values as in CUDA 13).
///
/// # Safety
/// `value` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetAttribute(
    value: *mut c_int,
    attr: c_int,
    device: c_int,
) -> cudaError_t {
    api(|| {
        let v = attribute(attr, device)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(value, v) }
    })
}

/// The driver API version.
///
/// # Safety
/// `version` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDriverGetVersion(version: *mut c_int) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(version, DRIVER_VERSION) })
}

/// The runtime version (13000: CUDA 13.0).
///
/// # Safety
/// `version` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaRuntimeGetVersion(version: *mut c_int) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(version, RUNTIME_VERSION) })
}

static DEVICE_FLAGS: AtomicU32 = AtomicU32::new(0);
/// All valid `cudaDevice*` flags (schedule mask, map host, lmem resize).
const DEVICE_FLAGS_MASK: c_uint = 0x1f;

/// Records device flags (scheduling hints have no effect: waits block).
#[no_mangle]
pub extern "C" fn cudaSetDeviceFlags(flags: c_uint) -> cudaError_t {
    api(|| {
        if flags & !DEVICE_FLAGS_MASK != 0 || (flags & 0x7).count_ones() > 1 {
            return Err(Error::InvalidValue);
        }
        DEVICE_FLAGS.store(flags, Ordering::Relaxed);
        Ok(())
    })
}

/// The recorded device flags (`cudaDeviceMapHost` is always set: host memory
/// is always mapped).
///
/// # Safety
/// `flags` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceFlags(flags: *mut c_uint) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(flags, DEVICE_FLAGS.load(Ordering::Relaxed) | 0x8) })
}

/// Accepts a cache preference (`cudaFuncCachePrefer*`, no effect on a CPU).
#[no_mangle]
pub extern "C" fn cudaDeviceSetCacheConfig(config: c_int) -> cudaError_t {
    api(|| {
        if (0..=3).contains(&config) {
            Ok(())
        } else {
            Err(Error::InvalidValue)
        }
    })
}

/// Legacy name of [`cudaDeviceSetCacheConfig`].
#[no_mangle]
pub extern "C" fn cudaThreadSetCacheConfig(config: c_int) -> cudaError_t {
    cudaDeviceSetCacheConfig(config)
}

/// Reports `cudaFuncCachePreferNone`.
///
/// # Safety
/// `config` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetCacheConfig(config: *mut c_int) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(config, 0) })
}

/// Accepts a shared memory bank size (no effect on a CPU).
#[no_mangle]
pub extern "C" fn cudaDeviceSetSharedMemConfig(config: c_int) -> cudaError_t {
    api(|| {
        if (0..=2).contains(&config) {
            Ok(())
        } else {
            Err(Error::InvalidValue)
        }
    })
}

/// Reports `cudaSharedMemBankSizeFourByte`.
///
/// # Safety
/// `config` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetSharedMemConfig(config: *mut c_int) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(config, 1) })
}

/// Number of `cudaLimit` values.
const LIMIT_COUNT: usize = 7;
/// CUDA's defaults: stack 1 KiB, printf FIFO 1 MiB, malloc heap 8 MiB, sync
/// depth 2, pending launches 2048, L2 fetch granularity 64, persisting L2 0.
const DEFAULT_LIMITS: [usize; LIMIT_COUNT] = [1024, 1 << 20, 8 << 20, 2, 2048, 64, 0];
static LIMITS: Mutex<[usize; LIMIT_COUNT]> = Mutex::new(DEFAULT_LIMITS);

fn limit_index(limit: c_int) -> CudaResult<usize> {
    usize::try_from(limit)
        .ok()
        .filter(|&i| i < LIMIT_COUNT)
        .ok_or(Error::UnsupportedLimit)
}

/// Sets a `cudaLimit` (recorded; the CPU needs none of them).
#[no_mangle]
pub extern "C" fn cudaDeviceSetLimit(limit: c_int, value: usize) -> cudaError_t {
    api_dev(|| {
        let i = limit_index(limit)?;
        if i == 5 && !matches!(value, 0 | 32 | 64 | 128) {
            return Err(Error::InvalidValue);
        }
        lock(&LIMITS)[i] = value;
        Ok(())
    })
}

/// Reads a `cudaLimit`.
///
/// # Safety
/// `value` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetLimit(value: *mut usize, limit: c_int) -> cudaError_t {
    api(|| {
        let v = lock(&LIMITS)[limit_index(limit)?];
        // SAFETY: forwarded contract.
        unsafe { write_out(value, v) }
    })
}

/// Legacy name of [`cudaDeviceSetLimit`].
#[no_mangle]
pub extern "C" fn cudaThreadSetLimit(limit: c_int, value: usize) -> cudaError_t {
    cudaDeviceSetLimit(limit, value)
}

/// Legacy name of [`cudaDeviceGetLimit`].
///
/// # Safety
/// As [`cudaDeviceGetLimit`].
#[no_mangle]
pub unsafe extern "C" fn cudaThreadGetLimit(value: *mut usize, limit: c_int) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaDeviceGetLimit(value, limit) }
}
