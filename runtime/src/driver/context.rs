//! Devices and contexts. There is one device (the CPU, ordinal 0), and every
//! context shares the runtime's state: a context is bookkeeping that keeps
//! the driver API's rules (a current context per thread, a stack of them,
//! a reference-counted primary context) without separating memory, as a
//! single-process CPU has no use for separate address spaces.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::result::{INVALID_CONTEXT, INVALID_DEVICE, INVALID_VALUE};
use super::{drv, drv_ctx, out, rt, CUresult, DrvResult};
use crate::sync::lock;

/// A `CUcontext`.
pub type CUcontext = *mut c_void;

/// The primary context's handle: the address of this static.
static PRIMARY_TAG: u8 = 0;

fn primary_handle() -> usize {
    &PRIMARY_TAG as *const u8 as usize
}

#[derive(Default)]
struct Contexts {
    /// Created contexts: handle → flags.
    created: HashMap<usize, c_uint>,
    /// The primary context's reference count and flags.
    primary_refs: u32,
    primary_flags: c_uint,
}

static CONTEXTS: Mutex<Option<Contexts>> = Mutex::new(None);

/// Set once the runtime API has initialised the device (`cudaSetDevice`,
/// `cudaFree`, `cudaMalloc`, a launch, ...): CUDA's runtime then holds the
/// primary context and makes it current, so driver calls that follow find
/// it (`cudaFree(0)` then `cuCtxGetCurrent` is the usual interop idiom).
/// One flag for the process, where CUDA's is per thread: a thread that has
/// not used the runtime yet sees the primary context too.
static RUNTIME_PRIMARY: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Set while a driver entry point runs: the runtime functions it calls
    /// are the driver's implementation, not the program's runtime use.
    static IN_DRIVER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the calling thread as running a driver entry point; returns
/// whether it already was (for [`leave_driver`]).
pub(crate) fn enter_driver() -> bool {
    IN_DRIVER.with(|d| d.replace(true))
}

/// Ends what [`enter_driver`] began.
pub(crate) fn leave_driver(outer: bool) {
    IN_DRIVER.with(|d| d.set(outer));
}

/// Records that the runtime API initialised the device (cheap after the
/// first call: a load), unless the driver layer is the caller. CUDA's
/// runtime calls `cuInit(0)` as it initialises, so driver calls that
/// follow work without the program's own `cuInit` (mummergpu calls
/// `cuMemGetInfo` after `cudaMalloc` and never calls `cuInit`).
pub fn runtime_holds_primary() {
    if !RUNTIME_PRIMARY.load(Ordering::Relaxed) && !IN_DRIVER.with(|d| d.get()) {
        super::initialize();
        RUNTIME_PRIMARY.store(true, Ordering::Relaxed);
    }
}

/// Whether the primary context is active: retained through the driver API
/// or held by the runtime.
fn primary_active(c: &Contexts) -> bool {
    c.primary_refs > 0 || RUNTIME_PRIMARY.load(Ordering::Relaxed)
}

fn with<T>(f: impl FnOnce(&mut Contexts) -> T) -> T {
    f(lock(&CONTEXTS).get_or_insert_with(Contexts::default))
}

thread_local! {
    /// The thread's context stack; its top is the current context.
    static STACK: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

fn is_live(ctx: usize) -> bool {
    ctx == primary_handle() || with(|c| c.created.contains_key(&ctx))
}

/// The calling thread's current context: the top of its stack, else the
/// primary context while it is retained or the runtime holds it (as the
/// runtime API makes it current); `CUDA_ERROR_INVALID_CONTEXT` without one.
pub fn current() -> DrvResult<usize> {
    match STACK.with(|s| s.borrow().last().copied()) {
        Some(c) if is_live(c) => Ok(c),
        Some(_) => Err(INVALID_CONTEXT),
        None if with(|c| primary_active(c)) => Ok(primary_handle()),
        None => Err(INVALID_CONTEXT),
    }
}

/// Fails without a current context.
pub fn need_context() -> DrvResult {
    current().map(|_| ())
}

fn check_device(dev: c_int) -> DrvResult {
    if dev == 0 {
        Ok(())
    } else {
        Err(INVALID_DEVICE)
    }
}

unsafe extern "C" fn cuDeviceGet(device: *mut c_int, ordinal: c_int) -> CUresult {
    drv(|| {
        check_device(ordinal)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(device, 0) }
    })
}

unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CUresult {
    // SAFETY: the caller's out-pointer.
    drv(|| unsafe { out(count, 1) })
}

unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        if name.is_null() || len <= 0 {
            return Err(INVALID_VALUE);
        }
        let src = &crate::device::properties().name;
        let n = src.iter().position(|&c| c == 0).unwrap_or(src.len());
        let n = n.min(len as usize - 1);
        // SAFETY: the caller promises `len` writable bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), name, n);
            name.add(n).write(0);
        }
        Ok(())
    })
}

unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(bytes, crate::device::properties().totalGlobalMem) }
    })
}

unsafe extern "C" fn cuDeviceGetAttribute(value: *mut c_int, attr: c_int, dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        if value.is_null() {
            return Err(INVALID_VALUE);
        }
        // `CUdevice_attribute` and `cudaDeviceAttr` share their values.
        // SAFETY: checked non-null.
        rt(unsafe { crate::device::cudaDeviceGetAttribute(value, attr, dev) })
    })
}

unsafe extern "C" fn cuDeviceGetUuid(uuid: *mut [c_char; 16], dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(uuid, crate::device::properties().uuid.bytes) }
    })
}

unsafe extern "C" fn cuDeviceComputeCapability(
    major: *mut c_int,
    minor: *mut c_int,
    dev: c_int,
) -> CUresult {
    drv(|| {
        check_device(dev)?;
        let p = crate::device::properties();
        // SAFETY: the caller's out-pointers.
        unsafe {
            out(major, p.major)?;
            out(minor, p.minor)
        }
    })
}

/// `CUdevprop` (the deprecated property struct).
#[repr(C)]
struct CUdevprop {
    max_threads_per_block: c_int,
    max_threads_dim: [c_int; 3],
    max_grid_size: [c_int; 3],
    shared_mem_per_block: c_int,
    total_constant_memory: c_int,
    simd_width: c_int,
    mem_pitch: c_int,
    regs_per_block: c_int,
    clock_rate: c_int,
    texture_align: c_int,
}

/// One device attribute's value (0 when unknown).
fn attribute(attr: c_int) -> c_int {
    let mut v = 0;
    // SAFETY: a local out-value.
    let _ = unsafe { crate::device::cudaDeviceGetAttribute(&mut v, attr, 0) };
    v
}

unsafe extern "C" fn cuDeviceGetProperties(prop: *mut CUdevprop, dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        let p = crate::device::properties();
        let int = |v: usize| c_int::try_from(v).unwrap_or(c_int::MAX);
        let v = CUdevprop {
            max_threads_per_block: p.maxThreadsPerBlock,
            max_threads_dim: p.maxThreadsDim,
            max_grid_size: p.maxGridSize,
            shared_mem_per_block: int(p.sharedMemPerBlock),
            total_constant_memory: int(p.totalConstMem),
            simd_width: p.warpSize,
            mem_pitch: int(p.memPitch),
            regs_per_block: p.regsPerBlock,
            clock_rate: attribute(13),
            texture_align: int(p.textureAlignment),
        };
        // SAFETY: the caller's out-pointer.
        unsafe { out(prop, v) }
    })
}

unsafe extern "C" fn cuDeviceCanAccessPeer(can: *mut c_int, dev: c_int, peer: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        check_device(peer)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(can, 0) }
    })
}

unsafe extern "C" fn cuDevicePrimaryCtxRetain(pctx: *mut CUcontext, dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        if pctx.is_null() {
            return Err(INVALID_VALUE);
        }
        with(|c| c.primary_refs = c.primary_refs.saturating_add(1));
        // SAFETY: checked non-null.
        unsafe { pctx.write(primary_handle() as CUcontext) };
        Ok(())
    })
}

unsafe extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        with(|c| {
            if c.primary_refs == 0 {
                return Err(INVALID_CONTEXT);
            }
            c.primary_refs -= 1;
            Ok(())
        })
    })
}

/// Resets the primary context: as `cudaDeviceReset`, which is the same
/// operation in CUDA (the runtime uses the primary context).
unsafe extern "C" fn cuDevicePrimaryCtxReset_v2(dev: c_int) -> CUresult {
    drv(|| {
        check_device(dev)?;
        with(|c| c.primary_refs = 0);
        RUNTIME_PRIMARY.store(false, Ordering::Relaxed);
        rt(crate::device::cudaDeviceReset())
    })
}

unsafe extern "C" fn cuDevicePrimaryCtxGetState(
    dev: c_int,
    flags: *mut c_uint,
    active: *mut c_int,
) -> CUresult {
    drv(|| {
        check_device(dev)?;
        let (f, a) = with(|c| (c.primary_flags, c_int::from(primary_active(c))));
        // SAFETY: the caller's out-pointers.
        unsafe {
            out(flags, f)?;
            out(active, a)
        }
    })
}

/// Scheduling flags a context accepts (`CU_CTX_SCHED_MASK`, `MAP_HOST`,
/// `LMEM_RESIZE_TO_MAX`, `COREDUMP`, `USER_COREDUMP`, `SYNC_MEMOPS`).
const CTX_FLAGS: c_uint = 0x07 | 0x08 | 0x10 | 0x20 | 0x40 | 0x80;

unsafe extern "C" fn cuDevicePrimaryCtxSetFlags_v2(dev: c_int, flags: c_uint) -> CUresult {
    drv(|| {
        check_device(dev)?;
        if flags & !CTX_FLAGS != 0 {
            return Err(INVALID_VALUE);
        }
        with(|c| c.primary_flags = flags);
        Ok(())
    })
}

/// Makes a context and pushes it on the calling thread's stack.
fn create(pctx: *mut CUcontext, flags: c_uint, dev: c_int) -> DrvResult {
    check_device(dev)?;
    if pctx.is_null() || flags & !CTX_FLAGS != 0 {
        return Err(INVALID_VALUE);
    }
    // A unique address for the handle, freed by cuCtxDestroy.
    let handle = Box::into_raw(Box::new(0u64)) as usize;
    with(|c| c.created.insert(handle, flags));
    STACK.with(|s| s.borrow_mut().push(handle));
    // SAFETY: checked non-null; the caller promises validity.
    unsafe { pctx.write(handle as CUcontext) };
    Ok(())
}

unsafe extern "C" fn cuCtxCreate_v2(pctx: *mut CUcontext, flags: c_uint, dev: c_int) -> CUresult {
    drv(|| create(pctx, flags, dev))
}

unsafe extern "C" fn cuCtxCreate_v3(
    pctx: *mut CUcontext,
    _affinity: *mut c_void,
    _n: c_int,
    flags: c_uint,
    dev: c_int,
) -> CUresult {
    drv(|| create(pctx, flags, dev))
}

unsafe extern "C" fn cuCtxCreate_v4(
    pctx: *mut CUcontext,
    _params: *mut c_void,
    flags: c_uint,
    dev: c_int,
) -> CUresult {
    drv(|| create(pctx, flags, dev))
}

unsafe extern "C" fn cuCtxDestroy_v2(ctx: CUcontext) -> CUresult {
    drv(|| {
        let h = ctx as usize;
        if with(|c| c.created.remove(&h)).is_none() {
            return Err(INVALID_CONTEXT);
        }
        // Work submitted in it finishes first, as CUDA's destroy waits.
        let r = rt(crate::device::cudaDeviceSynchronize());
        STACK.with(|s| s.borrow_mut().retain(|&c| c != h));
        // SAFETY: made by Box::into_raw in `create`, removed from the table
        // above, so freed once.
        drop(unsafe { Box::from_raw(h as *mut u64) });
        r
    })
}

unsafe extern "C" fn cuCtxPushCurrent_v2(ctx: CUcontext) -> CUresult {
    drv(|| {
        if !is_live(ctx as usize) {
            return Err(INVALID_CONTEXT);
        }
        STACK.with(|s| s.borrow_mut().push(ctx as usize));
        Ok(())
    })
}

unsafe extern "C" fn cuCtxPopCurrent_v2(pctx: *mut CUcontext) -> CUresult {
    drv(|| {
        let top = STACK
            .with(|s| s.borrow_mut().pop())
            .ok_or(INVALID_CONTEXT)?;
        if !pctx.is_null() {
            // SAFETY: the caller's optional out-pointer.
            unsafe { pctx.write(top as CUcontext) };
        }
        Ok(())
    })
}

unsafe extern "C" fn cuCtxSetCurrent(ctx: CUcontext) -> CUresult {
    drv(|| {
        let h = ctx as usize;
        if h != 0 && !is_live(h) {
            return Err(INVALID_CONTEXT);
        }
        STACK.with(|s| {
            let mut s = s.borrow_mut();
            s.pop();
            if h != 0 {
                s.push(h);
            }
        });
        Ok(())
    })
}

unsafe extern "C" fn cuCtxGetCurrent(pctx: *mut CUcontext) -> CUresult {
    drv(|| {
        // The stack's top, else the primary context if the runtime made it
        // current; a primary context only retained is not current.
        let top = STACK
            .with(|s| s.borrow().last().copied())
            .unwrap_or_else(|| {
                if RUNTIME_PRIMARY.load(Ordering::Relaxed) {
                    primary_handle()
                } else {
                    0
                }
            });
        // SAFETY: the caller's out-pointer.
        unsafe { out(pctx, top as CUcontext) }
    })
}

unsafe extern "C" fn cuCtxGetDevice(dev: *mut c_int) -> CUresult {
    drv_ctx(|| {
        // SAFETY: the caller's out-pointer.
        unsafe { out(dev, 0) }
    })
}

unsafe extern "C" fn cuCtxGetDevice_v2(dev: *mut c_int, ctx: CUcontext) -> CUresult {
    drv(|| {
        if ctx.is_null() {
            need_context()?;
        } else if !is_live(ctx as usize) {
            return Err(INVALID_CONTEXT);
        }
        // SAFETY: the caller's out-pointer.
        unsafe { out(dev, 0) }
    })
}

unsafe extern "C" fn cuCtxSynchronize() -> CUresult {
    drv_ctx(|| rt(crate::device::cudaDeviceSynchronize()))
}

unsafe extern "C" fn cuCtxSynchronize_v2(ctx: CUcontext) -> CUresult {
    drv(|| {
        if ctx.is_null() {
            need_context()?;
        } else if !is_live(ctx as usize) {
            return Err(INVALID_CONTEXT);
        }
        rt(crate::device::cudaDeviceSynchronize())
    })
}

unsafe extern "C" fn cuCtxGetFlags(flags: *mut c_uint) -> CUresult {
    drv(|| {
        let ctx = current()?;
        let f = with(|c| {
            if ctx == primary_handle() {
                c.primary_flags
            } else {
                c.created.get(&ctx).copied().unwrap_or(0)
            }
        });
        // SAFETY: the caller's out-pointer.
        unsafe { out(flags, f) }
    })
}

unsafe extern "C" fn cuCtxSetFlags(flags: c_uint) -> CUresult {
    drv(|| {
        let ctx = current()?;
        if flags & !CTX_FLAGS != 0 {
            return Err(INVALID_VALUE);
        }
        with(|c| {
            if ctx == primary_handle() {
                c.primary_flags = flags;
            } else if let Some(f) = c.created.get_mut(&ctx) {
                *f = flags;
            }
        });
        Ok(())
    })
}

unsafe extern "C" fn cuCtxGetApiVersion(ctx: CUcontext, version: *mut c_uint) -> CUresult {
    drv(|| {
        if ctx.is_null() {
            need_context()?;
        } else if !is_live(ctx as usize) {
            return Err(INVALID_CONTEXT);
        }
        // SAFETY: the caller's out-pointer.
        unsafe { out(version, super::DRIVER_VERSION as c_uint) }
    })
}

unsafe extern "C" fn cuCtxGetId(ctx: CUcontext, id: *mut u64) -> CUresult {
    drv(|| {
        let h = if ctx.is_null() {
            current()?
        } else {
            ctx as usize
        };
        if !is_live(h) {
            return Err(INVALID_CONTEXT);
        }
        // SAFETY: the caller's out-pointer.
        unsafe { out(id, h as u64) }
    })
}

unsafe extern "C" fn cuCtxGetLimit(value: *mut usize, limit: c_int) -> CUresult {
    drv_ctx(|| {
        if value.is_null() {
            return Err(INVALID_VALUE);
        }
        // `CUlimit` and `cudaLimit` share their values.
        // SAFETY: checked non-null.
        rt(unsafe { crate::device::cudaDeviceGetLimit(value, limit) })
    })
}

unsafe extern "C" fn cuCtxSetLimit(limit: c_int, value: usize) -> CUresult {
    drv_ctx(|| rt(crate::device::cudaDeviceSetLimit(limit, value)))
}

unsafe extern "C" fn cuCtxGetCacheConfig(config: *mut c_int) -> CUresult {
    drv_ctx(|| {
        if config.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null.
        rt(unsafe { crate::device::cudaDeviceGetCacheConfig(config) })
    })
}

unsafe extern "C" fn cuCtxSetCacheConfig(config: c_int) -> CUresult {
    drv_ctx(|| rt(crate::device::cudaDeviceSetCacheConfig(config)))
}

unsafe extern "C" fn cuCtxGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> CUresult {
    drv_ctx(|| {
        // SAFETY: the caller's optional out-pointers.
        rt(unsafe { crate::stream::cudaDeviceGetStreamPriorityRange(least, greatest) })
    })
}

/// This module's entry points by NVIDIA's symbol names (legacy symbols
/// whose arguments did not change share an implementation).
pub fn entries() -> Vec<(&'static str, usize)> {
    entries![
        cuDeviceGet,
        cuDeviceGetCount,
        cuDeviceGetName,
        cuDeviceTotalMem_v2,
        cuDeviceGetAttribute,
        cuDeviceGetUuid,
        "cuDeviceGetUuid_v2" => cuDeviceGetUuid,
        cuDeviceComputeCapability,
        cuDeviceGetProperties,
        cuDeviceCanAccessPeer,
        cuDevicePrimaryCtxRetain,
        "cuDevicePrimaryCtxRelease" => cuDevicePrimaryCtxRelease_v2,
        cuDevicePrimaryCtxRelease_v2,
        "cuDevicePrimaryCtxReset" => cuDevicePrimaryCtxReset_v2,
        cuDevicePrimaryCtxReset_v2,
        cuDevicePrimaryCtxGetState,
        "cuDevicePrimaryCtxSetFlags" => cuDevicePrimaryCtxSetFlags_v2,
        cuDevicePrimaryCtxSetFlags_v2,
        "cuCtxCreate" => cuCtxCreate_v2,
        cuCtxCreate_v2,
        cuCtxCreate_v3,
        cuCtxCreate_v4,
        "cuCtxDestroy" => cuCtxDestroy_v2,
        cuCtxDestroy_v2,
        "cuCtxPushCurrent" => cuCtxPushCurrent_v2,
        cuCtxPushCurrent_v2,
        "cuCtxPopCurrent" => cuCtxPopCurrent_v2,
        cuCtxPopCurrent_v2,
        cuCtxSetCurrent,
        cuCtxGetCurrent,
        cuCtxGetDevice,
        cuCtxGetDevice_v2,
        cuCtxSynchronize,
        cuCtxSynchronize_v2,
        cuCtxGetFlags,
        cuCtxSetFlags,
        cuCtxGetApiVersion,
        cuCtxGetId,
        cuCtxGetLimit,
        cuCtxSetLimit,
        cuCtxGetCacheConfig,
        cuCtxSetCacheConfig,
        cuCtxGetStreamPriorityRange,
    ]
}
