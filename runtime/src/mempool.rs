//! Stream-ordered allocation (`cudaMallocAsync`, `cudaFreeAsync`) and
//! memory pools (`cudaMemPool*`).
//!
//! A pool is a cache of freed blocks. An allocation takes the smallest
//! cached block that fits (and is at most twice the request), else maps a
//! new one through [`crate::memory`]; a stream-ordered free queues a task
//! on its stream that moves the block back into the cache once the work
//! before it has run. Blocks are reused only after that task ran, so no
//! stream can see memory another stream still uses, whatever the reuse
//! attributes say (they are recorded and reported). The cache keeps at most
//! the release threshold (`cudaMemPoolAttrReleaseThreshold`, default 0):
//! the rest is unmapped when a block comes back, and `cudaMemPoolTrimTo`
//! unmaps more. Cached blocks leave the allocation table, so copies into
//! freed pool memory fail as copies into freed `cudaMalloc` memory do.
//!
//! Locks: `POOLS` is a leaf, taken after the allocation table has been
//! left (allocation and release take the table themselves).

use crate::errors::{api, api_dev, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::cudaStream_t;
use crate::memory::Kind;
use crate::stream::{resolve, resolve_ptsz, Stream};
use crate::sync::lock;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

/// `cudaMemPool_t` as the program holds it.
#[allow(non_camel_case_types)]
pub type cudaMemPool_t = *mut c_void;

/// `struct cudaMemLocation`: a location type and an id (the device ordinal).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct cudaMemLocation {
    /// `cudaMemLocationType` (1 device, 2 host, 3 host NUMA node, 4 the
    /// calling thread's NUMA node).
    pub kind: c_int,
    /// The device ordinal or NUMA node.
    pub id: c_int,
}

/// `struct cudaMemPoolProps` (88 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemPoolProps {
    /// `cudaMemAllocationType` (1 pinned, 2 managed).
    pub alloc_type: c_int,
    /// `cudaMemAllocationHandleType` bits.
    pub handle_types: c_int,
    /// Where the memory lives.
    pub location: cudaMemLocation,
    /// Windows only.
    pub win32_security_attributes: *mut c_void,
    /// Largest total size the pool may reserve (0: no limit).
    pub max_size: usize,
    /// Usage hints.
    pub usage: u16,
    /// Zero.
    pub reserved: [u8; 54],
}

/// `struct cudaMemAccessDesc`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemAccessDesc {
    /// Who accesses.
    pub location: cudaMemLocation,
    /// `cudaMemAccessFlags` (0 none, 1 read, 3 read-write).
    pub flags: c_int,
}

const LOCATION_DEVICE: c_int = 1;
const LOCATION_HOST: c_int = 2;
const LOCATION_HOST_NUMA: c_int = 3;
const LOCATION_HOST_NUMA_CURRENT: c_int = 4;
const ALLOC_PINNED: c_int = 1;
const ALLOC_MANAGED: c_int = 2;
const ACCESS_READ_WRITE: c_int = 3;

/// Base of pool handles; far from stream, event and graph handles.
const POOL_HANDLE_BASE: usize = 0x5c00_0000;

struct Pool {
    props: cudaMemPoolProps,
    /// Reuse policies (attributes 1-3), recorded only.
    reuse: [c_int; 3],
    release_threshold: u64,
    reserved: u64,
    reserved_high: u64,
    used: u64,
    used_high: u64,
    /// Cached blocks: (address, size).
    free: Vec<(usize, usize)>,
}

impl Pool {
    fn new(props: cudaMemPoolProps) -> Pool {
        Pool {
            props,
            reuse: [1, 1, 1],
            release_threshold: 0,
            reserved: 0,
            reserved_high: 0,
            used: 0,
            used_high: 0,
            free: Vec::new(),
        }
    }

    fn kind(&self) -> Kind {
        match (self.props.alloc_type, self.props.location.kind) {
            (ALLOC_MANAGED, _) => Kind::Managed,
            (_, LOCATION_DEVICE) => Kind::Device,
            _ => Kind::PinnedHost,
        }
    }

    /// Takes out the cached blocks beyond `keep` bytes of reservation.
    fn shrink_to(&mut self, keep: u64) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        // Largest blocks go first: fewer unmaps for the same bytes.
        self.free.sort_by_key(|&(_, size)| size);
        while self.reserved > keep {
            let Some((ptr, size)) = self.free.pop() else {
                break;
            };
            self.reserved -= size as u64;
            out.push((ptr, size));
        }
        out
    }
}

struct Pools {
    next: usize,
    pools: HashMap<usize, Pool>,
    /// The device's default pool, created on first use.
    default: Option<usize>,
    /// The device's current pool (`cudaDeviceSetMemPool`), if not the default.
    current: Option<usize>,
    /// Live pool allocations: address -> (pool, block size).
    live: HashMap<usize, (usize, usize)>,
}

static POOLS: Mutex<Option<Pools>> = Mutex::new(None);

// SAFETY: the one raw pointer, `win32SecurityAttributes`, is never
// dereferenced (Windows only); it is kept to hand the properties back.
unsafe impl Send for Pool {}

fn with_pools<T>(f: impl FnOnce(&mut Pools) -> T) -> T {
    let mut guard = lock(&POOLS);
    let pools = guard.get_or_insert_with(|| Pools {
        next: 0,
        pools: HashMap::new(),
        default: None,
        current: None,
        live: HashMap::new(),
    });
    f(pools)
}

fn default_props() -> cudaMemPoolProps {
    cudaMemPoolProps {
        alloc_type: ALLOC_PINNED,
        handle_types: 0,
        location: cudaMemLocation {
            kind: LOCATION_DEVICE,
            id: 0,
        },
        win32_security_attributes: std::ptr::null_mut(),
        max_size: 0,
        usage: 0,
        reserved: [0; 54],
    }
}

fn insert_pool(p: &mut Pools, props: cudaMemPoolProps) -> usize {
    p.next += 1;
    let handle = POOL_HANDLE_BASE + p.next * 16;
    p.pools.insert(handle, Pool::new(props));
    handle
}

fn default_pool(p: &mut Pools) -> usize {
    if let Some(h) = p.default {
        return h;
    }
    let h = insert_pool(p, default_props());
    p.default = Some(h);
    h
}

fn current_pool(p: &mut Pools) -> usize {
    match p.current {
        Some(h) => h,
        None => default_pool(p),
    }
}

/// Unmaps blocks taken out of a pool (no pool lock held).
fn unmap(blocks: Vec<(usize, usize)>) {
    for (ptr, size) in blocks {
        // SAFETY: cached blocks came from `arena::map(size)` and left the
        // allocation table when they were cached.
        unsafe { crate::arena::unmap(ptr, size) };
    }
}

/// Allocates `size` bytes from `pool` (a handle) for use in stream order.
fn malloc_from(pool: usize, size: usize, stream: &Arc<Stream>) -> CudaResult<*mut c_void> {
    crate::capture::refuse_if_capturing(stream)?;
    if size == 0 {
        return Ok(std::ptr::null_mut());
    }
    let size = size
        .checked_next_multiple_of(crate::memory::ALLOC_ALIGN)
        .ok_or(Error::MemoryAllocation)?;
    let (reused, kind) = with_pools(|p| {
        let pool = p.pools.get_mut(&pool).ok_or(Error::InvalidValue)?;
        let kind = pool.kind();
        let best = pool
            .free
            .iter()
            .enumerate()
            .filter(|(_, &(_, s))| s >= size && s / 2 <= size)
            .min_by_key(|(_, &(_, s))| s)
            .map(|(i, _)| i);
        let reused = best.map(|i| pool.free.swap_remove(i));
        if reused.is_none() {
            let limit = pool.props.max_size as u64;
            if limit != 0 && pool.reserved + size as u64 > limit {
                return Err(Error::MemoryAllocation);
            }
        }
        Ok((reused, kind))
    })?;
    let (ptr, block) = match reused {
        Some((ptr, block)) => {
            // SAFETY: a cached block of this pool: mapped, `block` bytes,
            // out of the table until now.
            unsafe { crate::memory::insert_range(ptr, block, kind) };
            (ptr, block)
        }
        None => (crate::memory::allocate(size, kind)? as usize, size),
    };
    with_pools(|p| {
        if let Some(pl) = p.pools.get_mut(&pool) {
            if reused.is_none() {
                pl.reserved += block as u64;
                pl.reserved_high = pl.reserved_high.max(pl.reserved);
            }
            pl.used += block as u64;
            pl.used_high = pl.used_high.max(pl.used);
        }
        p.live.insert(ptr, (pool, block));
    });
    Ok(ptr as *mut c_void)
}

/// Returns a pool block to its cache (run in stream order).
fn give_back(ptr: usize, pool: usize, block: usize) {
    // Out of the table first: the memory is no longer the program's.
    crate::alloc_table::write().remove(&ptr);
    let doomed = with_pools(|p| match p.pools.get_mut(&pool) {
        Some(pl) => {
            pl.used = pl.used.saturating_sub(block as u64);
            pl.free.push((ptr, block));
            let keep = pl.release_threshold;
            pl.shrink_to(keep)
        }
        // The pool was destroyed while the block was live.
        None => vec![(ptr, block)],
    });
    unmap(doomed);
}

/// Frees `ptr` in `stream`'s order.
fn free_async(ptr: *mut c_void, stream: &Arc<Stream>) -> CudaResult {
    crate::capture::refuse_if_capturing(stream)?;
    if ptr.is_null() {
        return Ok(());
    }
    let addr = ptr as usize;
    let entry = with_pools(|p| p.live.remove(&addr));
    match entry {
        Some((pool, block)) => {
            crate::stream::submit(stream, move || give_back(addr, pool, block))?;
        }
        None => {
            // `cudaMalloc` memory may be freed in stream order too.
            match crate::memory::find(addr) {
                Some((start, a))
                    if start == addr && matches!(a.kind, Kind::Device | Kind::Managed) => {}
                _ => return Err(Error::InvalidValue),
            }
            crate::stream::submit(stream, move || {
                let _ = crate::memory::release(addr, &[Kind::Device, Kind::Managed]);
            })?;
        }
    }
    Ok(())
}

/// Forgets a live pool allocation that `cudaFree` released directly.
pub(crate) fn forget(ptr: usize) {
    let mut guard = lock(&POOLS);
    if let Some(p) = guard.as_mut() {
        if let Some((pool, block)) = p.live.remove(&ptr) {
            if let Some(pl) = p.pools.get_mut(&pool) {
                pl.used = pl.used.saturating_sub(block as u64);
                pl.reserved = pl.reserved.saturating_sub(block as u64);
            }
        }
    }
}

/// `cudaDeviceReset`: every pool and cached block goes (live blocks are in
/// the allocation table, which the reset empties).
pub(crate) fn reset() {
    let taken = lock(&POOLS).take();
    if let Some(p) = taken {
        for (_, pool) in p.pools {
            unmap(pool.free);
        }
    }
}

/// Validates a pool handle.
fn check_pool(pool: cudaMemPool_t) -> CudaResult<usize> {
    let h = pool as usize;
    with_pools(|p| {
        if p.pools.contains_key(&h) {
            Ok(h)
        } else {
            Err(Error::InvalidValue)
        }
    })
}

/// Allocates from the device's current pool in stream order.
///
/// # Safety
/// `ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocAsync(
    ptr: *mut *mut c_void,
    size: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    api_dev(|| {
        non_null(ptr)?;
        let pool = with_pools(current_pool);
        let p = malloc_from(pool, size, &resolve(stream)?)?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(ptr, p) }
    })
}

/// `cudaMallocAsync` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaMallocAsync`].
#[no_mangle]
pub unsafe extern "C" fn cudaMallocAsync_ptsz(
    ptr: *mut *mut c_void,
    size: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    let s = if stream.is_null() {
        crate::ffi::STREAM_PER_THREAD as cudaStream_t
    } else {
        stream
    };
    // SAFETY: forwarded contract.
    unsafe { cudaMallocAsync(ptr, size, s) }
}

/// Allocates from `pool` in stream order.
///
/// # Safety
/// `ptr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocFromPoolAsync(
    ptr: *mut *mut c_void,
    size: usize,
    pool: cudaMemPool_t,
    stream: cudaStream_t,
) -> cudaError_t {
    api_dev(|| {
        non_null(ptr)?;
        let pool = check_pool(pool)?;
        let p = malloc_from(pool, size, &resolve(stream)?)?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(ptr, p) }
    })
}

/// `cudaMallocFromPoolAsync` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaMallocFromPoolAsync`].
#[no_mangle]
pub unsafe extern "C" fn cudaMallocFromPoolAsync_ptsz(
    ptr: *mut *mut c_void,
    size: usize,
    pool: cudaMemPool_t,
    stream: cudaStream_t,
) -> cudaError_t {
    api_dev(|| {
        non_null(ptr)?;
        let pool = check_pool(pool)?;
        let p = malloc_from(pool, size, &resolve_ptsz(stream)?)?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(ptr, p) }
    })
}

/// Frees memory in stream order: pool memory returns to its pool, `cudaMalloc`
/// memory is unmapped, once the work queued before the call has run.
///
/// Safe: only pointers the pools or the allocation table hold are freed.
#[no_mangle]
pub extern "C" fn cudaFreeAsync(ptr: *mut c_void, stream: cudaStream_t) -> cudaError_t {
    api_dev(|| free_async(ptr, &resolve(stream)?))
}

/// `cudaFreeAsync` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaFreeAsync_ptsz(ptr: *mut c_void, stream: cudaStream_t) -> cudaError_t {
    api_dev(|| free_async(ptr, &resolve_ptsz(stream)?))
}

fn check_location(loc: &cudaMemLocation) -> CudaResult {
    match loc.kind {
        LOCATION_DEVICE => crate::devices::kind(loc.id).map(drop),
        LOCATION_HOST | LOCATION_HOST_NUMA | LOCATION_HOST_NUMA_CURRENT => Ok(()),
        _ => Err(Error::InvalidValue),
    }
}

/// Creates a pool (device or host location, pinned or managed memory;
/// shareable handle types are recorded, exporting is not supported).
///
/// # Safety
/// `pool` must be NULL or valid for a write; `props` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolCreate(
    pool: *mut cudaMemPool_t,
    props: *const cudaMemPoolProps,
) -> cudaError_t {
    api_dev(|| {
        non_null(pool)?;
        non_null(props)?;
        // SAFETY: checked non-null; caller promises validity.
        let props = unsafe { props.read() };
        if !matches!(props.alloc_type, ALLOC_PINNED | ALLOC_MANAGED) {
            return Err(Error::InvalidValue);
        }
        check_location(&props.location)?;
        let h = with_pools(|p| insert_pool(p, props));
        // SAFETY: checked non-null.
        unsafe { write_out(pool, h as cudaMemPool_t) }
    })
}

/// Destroys a pool: cached blocks are unmapped; blocks still allocated stay
/// valid until freed. The default pool cannot be destroyed.
#[no_mangle]
pub extern "C" fn cudaMemPoolDestroy(pool: cudaMemPool_t) -> cudaError_t {
    api_dev(|| {
        let h = pool as usize;
        let freed = with_pools(|p| {
            if p.default == Some(h) {
                return Err(Error::InvalidValue);
            }
            let pl = p.pools.remove(&h).ok_or(Error::InvalidValue)?;
            if p.current == Some(h) {
                p.current = None;
            }
            Ok(pl.free)
        })?;
        unmap(freed);
        Ok(())
    })
}

/// Unmaps cached blocks until the pool reserves at most `keep` bytes.
#[no_mangle]
pub extern "C" fn cudaMemPoolTrimTo(pool: cudaMemPool_t, keep: usize) -> cudaError_t {
    api_dev(|| {
        let h = check_pool(pool)?;
        let doomed = with_pools(|p| {
            p.pools
                .get_mut(&h)
                .map_or(Vec::new(), |pl| pl.shrink_to(keep as u64))
        });
        unmap(doomed);
        Ok(())
    })
}

/// Sets a pool attribute: the reuse policies (int), the release threshold
/// (u64), or resets a high-water mark (u64 zero).
///
/// # Safety
/// `value` must point to a readable value of the attribute's type.
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolSetAttribute(
    pool: cudaMemPool_t,
    attr: c_int,
    value: *mut c_void,
) -> cudaError_t {
    api_dev(|| {
        let h = check_pool(pool)?;
        non_null(value)?;
        let doomed = with_pools(|p| {
            let pl = p.pools.get_mut(&h).ok_or(Error::InvalidValue)?;
            match attr {
                1..=3 => {
                    // SAFETY: an int attribute; caller promises validity.
                    pl.reuse[attr as usize - 1] = unsafe { (value as *const c_int).read() };
                }
                4 => {
                    // SAFETY: a u64 attribute.
                    pl.release_threshold = unsafe { (value as *const u64).read() };
                    let keep = pl.release_threshold;
                    return Ok(pl.shrink_to(keep));
                }
                6 | 8 => {
                    // SAFETY: a u64 attribute.
                    if unsafe { (value as *const u64).read() } != 0 {
                        return Err(Error::InvalidValue);
                    }
                    if attr == 6 {
                        pl.reserved_high = pl.reserved;
                    } else {
                        pl.used_high = pl.used;
                    }
                }
                _ => return Err(Error::InvalidValue),
            }
            Ok(Vec::new())
        })?;
        unmap(doomed);
        Ok(())
    })
}

/// Reads a pool attribute (CUDA's types: int for policies, handle types,
/// allocation and location; u64 for sizes).
///
/// # Safety
/// `value` must point to writable storage of the attribute's type.
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolGetAttribute(
    pool: cudaMemPool_t,
    attr: c_int,
    value: *mut c_void,
) -> cudaError_t {
    api_dev(|| {
        let h = check_pool(pool)?;
        non_null(value)?;
        enum V {
            I(c_int),
            U(u64),
        }
        let v = with_pools(|p| {
            let pl = p.pools.get(&h).ok_or(Error::InvalidValue)?;
            Ok(match attr {
                1..=3 => V::I(pl.reuse[attr as usize - 1]),
                4 => V::U(pl.release_threshold),
                5 => V::U(pl.reserved),
                6 => V::U(pl.reserved_high),
                7 => V::U(pl.used),
                8 => V::U(pl.used_high),
                9 => V::I(pl.props.alloc_type),
                10 => V::I(pl.props.handle_types),
                11 => V::I(pl.props.location.id),
                12 => V::I(pl.props.location.kind),
                13 => V::U(pl.props.max_size as u64),
                14 => V::I(0),
                _ => return Err(Error::InvalidValue),
            })
        })?;
        // SAFETY: non-null; the caller provides storage of the attribute's type.
        unsafe {
            match v {
                V::I(i) => (value as *mut c_int).write(i),
                V::U(u) => (value as *mut u64).write(u),
            }
        }
        Ok(())
    })
}

/// Access from the one device is always read-write; other locations are
/// invalid devices.
///
/// # Safety
/// `descs` must point to `count` readable descriptors.
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolSetAccess(
    pool: cudaMemPool_t,
    descs: *const cudaMemAccessDesc,
    count: usize,
) -> cudaError_t {
    api_dev(|| {
        check_pool(pool)?;
        if count > 0 && descs.is_null() {
            return Err(Error::InvalidValue);
        }
        for i in 0..count {
            // SAFETY: within the caller's array.
            let d = unsafe { descs.add(i).read() };
            if d.location.kind != LOCATION_DEVICE {
                return Err(Error::InvalidDevice);
            }
            crate::devices::kind(d.location.id)?;
            if d.flags != ACCESS_READ_WRITE {
                return Err(Error::InvalidValue);
            }
        }
        Ok(())
    })
}

/// Reports read-write access for the device.
///
/// # Safety
/// `flags` must be NULL or writable; `location` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolGetAccess(
    flags: *mut c_int,
    pool: cudaMemPool_t,
    location: *mut cudaMemLocation,
) -> cudaError_t {
    api_dev(|| {
        check_pool(pool)?;
        non_null(location)?;
        // SAFETY: checked non-null.
        let loc = unsafe { location.read() };
        check_location(&loc)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(flags, ACCESS_READ_WRITE) }
    })
}

fn write_pool(out: *mut cudaMemPool_t, h: usize) -> CudaResult {
    // SAFETY: the callers' contract: `out` NULL or writable.
    unsafe { write_out(out, h as cudaMemPool_t) }
}

/// The device's default pool.
///
/// # Safety
/// `pool` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetDefaultMemPool(
    pool: *mut cudaMemPool_t,
    device: c_int,
) -> cudaError_t {
    api(|| {
        // Every device's memory is host memory: one pool serves them all.
        crate::devices::kind(device)?;
        write_pool(pool, with_pools(default_pool))
    })
}

/// The pool `cudaMallocAsync` uses on the device.
///
/// # Safety
/// `pool` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetMemPool(
    pool: *mut cudaMemPool_t,
    device: c_int,
) -> cudaError_t {
    api(|| {
        // Every device's memory is host memory: one pool serves them all.
        crate::devices::kind(device)?;
        write_pool(pool, with_pools(current_pool))
    })
}

/// Makes `pool` the one `cudaMallocAsync` uses on the device.
#[no_mangle]
pub extern "C" fn cudaDeviceSetMemPool(device: c_int, pool: cudaMemPool_t) -> cudaError_t {
    api(|| {
        // Every device's memory is host memory: one pool serves them all.
        crate::devices::kind(device)?;
        let h = check_pool(pool)?;
        with_pools(|p| p.current = Some(h));
        Ok(())
    })
}

/// Reads a location for the `cudaMem*MemPool` calls: the device (pinned
/// memory) is the only location with a pool of its own.
///
/// # Safety
/// `loc` must be NULL or readable.
unsafe fn device_location(loc: *const cudaMemLocation, alloc_type: c_int) -> CudaResult {
    non_null(loc)?;
    // SAFETY: checked non-null; caller promises validity.
    let l = unsafe { loc.read() };
    check_location(&l)?;
    if l.kind != LOCATION_DEVICE || alloc_type != ALLOC_PINNED {
        crate::unsupported::note("a memory pool of a host location or of managed memory");
        return Err(Error::NotSupported);
    }
    Ok(())
}

/// The default pool of a location (the device's, for pinned memory).
///
/// # Safety
/// `pool` NULL or writable; `loc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaMemGetDefaultMemPool(
    pool: *mut cudaMemPool_t,
    loc: *mut cudaMemLocation,
    alloc_type: c_int,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        unsafe { device_location(loc, alloc_type)? };
        write_pool(pool, with_pools(default_pool))
    })
}

/// The current pool of a location.
///
/// # Safety
/// `pool` NULL or writable; `loc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaMemGetMemPool(
    pool: *mut cudaMemPool_t,
    loc: *mut cudaMemLocation,
    alloc_type: c_int,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        unsafe { device_location(loc, alloc_type)? };
        write_pool(pool, with_pools(current_pool))
    })
}

/// Sets the current pool of a location.
///
/// # Safety
/// `loc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaMemSetMemPool(
    loc: *mut cudaMemLocation,
    alloc_type: c_int,
    pool: cudaMemPool_t,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        unsafe { device_location(loc, alloc_type)? };
        let h = check_pool(pool)?;
        with_pools(|p| p.current = Some(h));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn props_layout_matches_cuda() {
        assert_eq!(std::mem::size_of::<cudaMemPoolProps>(), 88);
        assert_eq!(std::mem::size_of::<cudaMemAccessDesc>(), 12);
        assert_eq!(std::mem::offset_of!(cudaMemPoolProps, max_size), 24);
        assert_eq!(std::mem::offset_of!(cudaMemPoolProps, usage), 32);
    }

    #[test]
    fn shrink_keeps_at_most_the_threshold() {
        let mut p = Pool::new(default_props());
        p.free = vec![(0x1000, 256), (0x2000, 1024), (0x3000, 512)];
        p.reserved = 1792;
        let out = p.shrink_to(600);
        assert!(p.reserved <= 600);
        assert_eq!(
            out.iter().map(|b| b.1).sum::<usize>() as u64,
            1792 - p.reserved
        );
        assert_eq!(out[0].1, 1024);
    }
}
