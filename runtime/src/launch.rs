//! Kernel launches: the call-configuration stack, `cudaLaunchKernel`, the
//! block scheduler's cut of a grid, function attributes, occupancy and
//! kernel traps.
//!
//! A launch is validated against CUDA's limits, captures its argument values
//! (CUDA's semantics: arguments are read at launch time) and is queued on
//! its stream as a job (`job.rs`), inline in the queue. When the stream
//! reaches it, the grid's linear block range is cut into chunks that the
//! stream thread and the block pool ([`crate::pool`]) run together,
//! `CUCC_NUM_THREADS` threads in all (default: all cores), each with its own
//! scratch buffer (see [`SCRATCH_GUARD`] and `job.rs`).
//!
//! Kernels registered with thread ranges (`collapse`d launches without
//! shared memory or barriers, `docs/abi.md`) are cut at thread granularity
//! instead: `[0, total threads)` in chunks of at least [`MIN_CHUNK_THREADS`],
//! so a launch of a few big blocks still spreads over every worker and one of
//! many tiny blocks runs as a few chunks (or one, on the stream thread).

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::errors::{
    api, api_dev, cudaError_t, non_null, set_sticky, write_out, CudaResult, Error,
};
use crate::ffi::{cudaFuncAttributes, cudaStream_t, Dim3};
use crate::host::{
    MAX_BLOCK_DIM, MAX_GRID_DIM, MAX_THREADS_PER_BLOCK, SHARED_PER_BLOCK, SHARED_PER_BLOCK_OPTIN,
};
pub use crate::job::SCRATCH_GUARD;
use crate::job::{abort_current_launch, current_launch_aborted, Job, Params};
use crate::kernel::{CuccLaunch, KernelImpl};
use crate::registry::{function, Function};
use crate::stream::{resolve, resolve_ptsz, Stream};

/// Fewest threads in a chunk of a thread-range launch: below that a worker's
/// hand-off costs more than the work.
pub const MIN_CHUNK_THREADS: u64 = 4096;

#[derive(Clone, Copy)]
struct CallConfig {
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: usize,
}

thread_local! {
    static CONFIGS: RefCell<Vec<CallConfig>> = const { RefCell::new(Vec::new()) };
}

/// Pushes a launch configuration (`<<<grid, block, shared, stream>>>`).
#[no_mangle]
pub extern "C" fn __cudaPushCallConfiguration(
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: *mut c_void,
) -> c_uint {
    CONFIGS.with(|c| {
        c.borrow_mut().push(CallConfig {
            grid,
            block,
            shared,
            stream: stream as usize,
        })
    });
    0
}

/// Pops the configuration the stub passes on to `cudaLaunchKernel`.
///
/// # Safety
/// Each pointer must be NULL or valid for a write (`stream` of a `cudaStream_t`).
#[no_mangle]
pub unsafe extern "C" fn __cudaPopCallConfiguration(
    grid: *mut Dim3,
    block: *mut Dim3,
    shared: *mut usize,
    stream: *mut c_void,
) -> cudaError_t {
    api(|| {
        let config = CONFIGS
            .with(|c| c.borrow_mut().pop())
            .ok_or(Error::MissingConfiguration)?;
        // SAFETY: caller promises validity of non-null pointers.
        unsafe {
            write_out(grid, config.grid)?;
            write_out(block, config.block)?;
            write_out(shared, config.shared)?;
            write_out(stream as *mut cudaStream_t, config.stream as cudaStream_t)
        }
    })
}

/// The dynamic shared memory a launch of `f` may request.
fn dynamic_limit(f: &Function, k: &KernelImpl) -> u64 {
    match f.max_dynamic_shared.load(Ordering::Relaxed) {
        u64::MAX => SHARED_PER_BLOCK.saturating_sub(k.static_shared),
        v => v,
    }
}

/// Checks a launch configuration against CUDA's limits.
fn validate(grid: Dim3, block: Dim3, shared: u64, f: &Function, k: &KernelImpl) -> CudaResult {
    let b = [block.x, block.y, block.z];
    let g = [grid.x, grid.y, grid.z];
    let block_ok = b
        .iter()
        .zip(MAX_BLOCK_DIM)
        .all(|(&v, max)| v >= 1 && v <= max)
        && block.count() <= u64::from(MAX_THREADS_PER_BLOCK);
    let grid_ok = g.iter().zip(MAX_GRID_DIM).all(|(&v, max)| v >= 1 && v <= max)
        // The entry ABI numbers blocks with 32 bits.
        && grid.count() <= u64::from(u32::MAX);
    let shared_ok = shared <= dynamic_limit(f, k) && k.static_shared <= SHARED_PER_BLOCK_OPTIN;
    if block_ok && grid_ok && shared_ok {
        Ok(())
    } else {
        Err(Error::InvalidConfiguration)
    }
}

/// The range kind and unit count of a launch of `k`: outer-loop indices
/// (2) when the entry takes them and their count fits the entry's u32s,
/// threads (1) likewise, blocks (0) otherwise; and the fewest units worth a
/// chunk of their own.
fn range_units(k: &KernelImpl, grid: Dim3, block: Dim3) -> (u32, u64, u64) {
    let threads = grid.count().saturating_mul(block.count());
    let g = [grid.x, grid.y, grid.z];
    let b = [block.x, block.y, block.z];
    let extent = |d: usize| u64::from(g[d]) * u64::from(b[d]);
    if let Some((outer, middle)) = k.outer_ranges {
        let units = extent(outer).saturating_mul(extent(middle));
        if units <= u64::from(u32::MAX) {
            let per_unit = (threads / units.max(1)).max(1);
            return (2, units, MIN_CHUNK_THREADS.div_ceil(per_unit));
        }
    }
    if k.thread_ranges && threads <= u64::from(u32::MAX) {
        return (1, threads, MIN_CHUNK_THREADS);
    }
    (0, grid.count(), 1)
}

/// Validates a launch of `func`, captures its arguments and queues it.
///
/// # Safety
/// `args` must hold one pointer per kernel parameter, each to a readable
/// value of the parameter's size (CUDA's contract).
unsafe fn launch(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: &Arc<Stream>,
) -> CudaResult {
    // SAFETY: the caller's contract for `args`.
    if let Some(r) = unsafe { crate::capture::kernel(stream, func, grid, block, args, shared) } {
        return r;
    }
    let f = function(func)?;
    let k = f.kernel()?;
    validate(grid, block, shared as u64, &f, &k)?;
    let sim = crate::sim_device::SimLaunch(grid, block, args, shared, stream);
    match crate::devices::current_kind()? {
        crate::devices::DeviceKind::Cpu => {}
        crate::devices::DeviceKind::Snitch => {
            // SAFETY: the caller's contract for `args`.
            return unsafe { crate::snitch::launch(&f, &k, sim) };
        }
        crate::devices::DeviceKind::Racer => {
            // SAFETY: the caller's contract for `args`.
            return unsafe { crate::racer::launch(&f, &k, sim) };
        }
    }
    // SAFETY: the caller's contract for `args`.
    let params = unsafe { Params::capture(args, &k.param_sizes)? };
    let textures = crate::texture::launch_snapshot();
    let (kind, units, min_chunk) = range_units(&k, grid, block);
    let job = Job {
        entry: k.entry,
        profiled: crate::profile::enabled(),
        kernel: Arc::clone(&k),
        _textures: textures.clone(),
        launch: CuccLaunch {
            grid: [grid.x, grid.y, grid.z],
            block: [block.x, block.y, block.z],
            dynamic_shared: shared as u64,
            tex: textures.as_ref().map_or(std::ptr::null(), |t| t.api()),
            thread_ranges: kind,
        },
        params,
        // Dynamic shared memory starts at the static size rounded up to 16.
        scratch: (k.static_shared.next_multiple_of(16) + shared as u64) as usize,
        units,
        min_chunk,
    };
    crate::stream::submit_launch(stream, job)?;
    Ok(())
}

/// Launches a kernel named by its host stub; returns once queued.
///
/// # Safety
/// `args` must hold one pointer per kernel parameter.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    crate::driver::context::runtime_holds_primary();
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { launch(func, grid, block, args, shared, &resolve(stream)?) })
}

/// `cudaLaunchKernel` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaLaunchKernel`].
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernel_ptsz(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { launch(func, grid, block, args, shared, &resolve_ptsz(stream)?) })
}

/// Fills a kernel's attributes.
///
/// # Safety
/// `attr` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetAttributes(
    attr: *mut cudaFuncAttributes,
    func: *const c_void,
) -> cudaError_t {
    api_dev(|| {
        let f = function(func)?;
        let k = f.kernel()?;
        let value = cudaFuncAttributes {
            sharedSizeBytes: k.static_shared as usize,
            maxThreadsPerBlock: MAX_THREADS_PER_BLOCK as c_int,
            numRegs: 32,
            ptxVersion: 80,
            binaryVersion: 80,
            maxDynamicSharedSizeBytes: dynamic_limit(&f, &k) as c_int,
            preferredShmemCarveout: -1,
            ..Default::default()
        };
        // SAFETY: forwarded contract.
        unsafe { write_out(attr, value) }
    })
}

/// Sets a kernel attribute (`MaxDynamicSharedMemorySize` is enforced at
/// launch; carveout and cluster attributes are accepted and have no effect).
#[no_mangle]
pub extern "C" fn cudaFuncSetAttribute(
    func: *const c_void,
    attr: c_int,
    value: c_int,
) -> cudaError_t {
    api_dev(|| {
        let f = function(func)?;
        match attr {
            8 => {
                let k = f.kernel()?;
                let v = u64::try_from(value).map_err(|_| Error::InvalidValue)?;
                if v + k.static_shared > SHARED_PER_BLOCK_OPTIN {
                    return Err(Error::InvalidValue);
                }
                f.max_dynamic_shared.store(v, Ordering::Relaxed);
                Ok(())
            }
            9 if (-1..=100).contains(&value) => Ok(()),
            10..=15 => Ok(()),
            _ => Err(Error::InvalidValue),
        }
    })
}

/// Accepts a cache preference (no effect on a CPU).
#[no_mangle]
pub extern "C" fn cudaFuncSetCacheConfig(func: *const c_void, config: c_int) -> cudaError_t {
    api_dev(|| {
        function(func)?;
        if (0..=3).contains(&config) {
            Ok(())
        } else {
            Err(Error::InvalidValue)
        }
    })
}

/// Accepts a shared memory bank configuration (no effect on a CPU).
#[no_mangle]
pub extern "C" fn cudaFuncSetSharedMemConfig(func: *const c_void, config: c_int) -> cudaError_t {
    api_dev(|| {
        function(func)?;
        if (0..=2).contains(&config) {
            Ok(())
        } else {
            Err(Error::InvalidValue)
        }
    })
}

/// Blocks of `func` one multiprocessor runs at once. On the CPU a core runs
/// one block at a time, so a launchable configuration gets 1, else 0.
fn active_blocks(func: *const c_void, block_size: c_int, shared: usize) -> CudaResult<c_int> {
    let f = function(func)?;
    let k = f.kernel()?;
    let fits = block_size >= 1
        && block_size as u32 <= MAX_THREADS_PER_BLOCK
        && shared as u64 <= dynamic_limit(&f, &k);
    Ok(c_int::from(fits))
}

/// See [`active_blocks`].
///
/// # Safety
/// `num_blocks` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    num_blocks: *mut c_int,
    func: *const c_void,
    block_size: c_int,
    dynamic_shared: usize,
) -> cudaError_t {
    api_dev(|| {
        let n = active_blocks(func, block_size, dynamic_shared)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(num_blocks, n) }
    })
}

/// [`cudaOccupancyMaxActiveBlocksPerMultiprocessor`] with flags (0 or 1).
///
/// # Safety
/// `num_blocks` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    num_blocks: *mut c_int,
    func: *const c_void,
    block_size: c_int,
    dynamic_shared: usize,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        if flags > 1 {
            return Err(Error::InvalidValue);
        }
        let n = active_blocks(func, block_size, dynamic_shared)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(num_blocks, n) }
    })
}

/// The block size that keeps every core busy with the fewest blocks: the
/// largest allowed (1024, or `block_size_limit`, rounded down to whole warps),
/// and a minimum grid of one block per core.
///
/// CUDA's headers implement this as an inline template; cucc's own headers
/// call this function instead, with C linkage.
///
/// # Safety
/// Each pointer must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxPotentialBlockSize(
    min_grid_size: *mut c_int,
    block_size: *mut c_int,
    func: *const c_void,
    dynamic_shared: usize,
    block_size_limit: c_int,
) -> cudaError_t {
    api_dev(|| {
        let f = function(func)?;
        let k = f.kernel()?;
        let limit = if block_size_limit > 0 {
            (block_size_limit as u32).min(MAX_THREADS_PER_BLOCK)
        } else {
            MAX_THREADS_PER_BLOCK
        };
        let block = if limit >= 32 { limit / 32 * 32 } else { limit };
        let fits = dynamic_shared as u64 <= dynamic_limit(&f, &k);
        let (grid, block) = if fits {
            (crate::host::core_count() as c_int, block as c_int)
        } else {
            (0, 0)
        };
        // SAFETY: forwarded contract.
        unsafe {
            write_out(min_grid_size, grid)?;
            write_out(block_size, block)
        }
    })
}

/// Lossy text of a C string for messages.
///
/// # Safety
/// `s` must be NULL or NUL-terminated.
unsafe fn text(s: *const c_char) -> String {
    if s.is_null() {
        String::from("?")
    } else {
        // SAFETY: caller promises a NUL-terminated string.
        unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
    }
}

/// Called by kernel code for `__trap()` and other fatal conditions: prints
/// `msg`, records the sticky `cudaErrorLaunchFailure` and stops the launch from
/// starting further chunks. It returns; the caller must return from the entry.
///
/// # Safety
/// `msg` must be NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __cucc_trap(msg: *const c_char) {
    // SAFETY: forwarded contract.
    let m = unsafe { text(msg) };
    eprintln!("cucc: kernel trap: {m}");
    set_sticky(Error::LaunchFailure);
    abort_current_launch();
}

/// Called by kernel code for `alloc.distinct` (docs/ir.md): 1 if each of the
/// `n` pointers lies in a live `cudaMalloc` or `cudaMallocManaged`
/// allocation and no two in the same one, else 0. Translated kernels run a
/// version that treats their pointer parameters as `noalias` only then.
///
/// # Safety
/// `ptrs` must point to `n` readable pointers (or `n` must be 0).
#[no_mangle]
pub unsafe extern "C" fn __cucc_alloc_distinct(n: u32, ptrs: *const *const c_void) -> u8 {
    if ptrs.is_null() {
        return u8::from(n == 0);
    }
    // SAFETY: forwarded contract.
    let ptrs = unsafe { std::slice::from_raw_parts(ptrs, n as usize) };
    u8::from(allocations_distinct(ptrs.iter().map(|&p| p as usize)))
}

/// True if every address lies in a device or managed allocation, no two in
/// the same one.
pub(crate) fn allocations_distinct(addrs: impl Iterator<Item = usize>) -> bool {
    let mut starts = Vec::new();
    for a in addrs {
        match crate::memory::find(a) {
            Some((start, alloc))
                if matches!(
                    alloc.kind,
                    crate::memory::Kind::Device | crate::memory::Kind::Managed
                ) && !starts.contains(&start) =>
            {
                starts.push(start)
            }
            _ => return false,
        }
    }
    true
}

/// Called by kernel code when a device `assert` fails: prints CUDA's message
/// shape, records the sticky `cudaErrorAssert` and stops the launch like
/// [`__cucc_trap`]. It returns; the caller must return from the entry.
///
/// # Safety
/// Each string must be NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __cucc_assert_fail(
    expr: *const c_char,
    file: *const c_char,
    line: c_uint,
    func: *const c_char,
) {
    // SAFETY: forwarded contract.
    let (e, f, fun) = unsafe { (text(expr), text(file), text(func)) };
    eprintln!("{f}:{line}: {fun}: Assertion `{e}` failed.");
    set_sticky(Error::Assert);
    abort_current_launch();
}

/// A failed device `assert` whose message the translator composed
/// (`file:line: function: Assertion \`expr\` failed.`): prints it, records
/// the sticky `cudaErrorAssert` and stops the launch. The kernel returns
/// right after the call.
///
/// # Safety
/// `message` must be NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __cucc_assert_trap(message: *const c_char) {
    // SAFETY: forwarded contract.
    let m = unsafe { text(message) };
    eprintln!("{m}");
    set_sticky(Error::Assert);
    abort_current_launch();
}

/// Whether the launch this thread is running has trapped (1) or not (0);
/// kernels may poll it between blocks to stop early.
#[no_mangle]
pub extern "C" fn __cucc_launch_aborted() -> c_int {
    c_int::from(current_launch_aborted())
}

/// nvcc 13's launch stubs look a kernel handle up once per stub: the handle
/// is the stub's own address (the key the registry already uses).
///
/// # Safety
/// `kernel` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn __cudaGetKernel(
    kernel: *mut *const c_void,
    func: *const c_void,
) -> cudaError_t {
    api_dev(|| {
        non_null(kernel)?;
        function(func)?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { kernel.write(func) };
        Ok(())
    })
}

/// `cudaGetKernel`: the public form of [`__cudaGetKernel`].
///
/// # Safety
/// As [`__cudaGetKernel`].
#[no_mangle]
pub unsafe extern "C" fn cudaGetKernel(
    kernel: *mut *const c_void,
    func: *const c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { __cudaGetKernel(kernel, func) }
}

/// nvcc 13's launch entry: a launch by kernel handle.
///
/// # Safety
/// As [`cudaLaunchKernel`].
#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel(
    kernel: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaLaunchKernel(kernel, grid, block, args, shared, stream) }
}

/// [`__cudaLaunchKernel`] with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaLaunchKernel`].
#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel_ptsz(
    kernel: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaLaunchKernel_ptsz(kernel, grid, block, args, shared, stream) }
}

#[cfg(test)]
mod range_tests {
    use super::*;

    fn kernel(thread_ranges: bool, outer_ranges: Option<(usize, usize)>) -> KernelImpl {
        unsafe extern "C" fn nop(
            _: *mut *mut c_void,
            _: *const CuccLaunch,
            _: u32,
            _: u32,
            _: *mut c_void,
        ) {
        }
        KernelImpl {
            name: String::new(),
            entry: nop,
            static_shared: 0,
            param_sizes: Vec::new(),
            thread_ranges,
            outer_ranges,
        }
    }

    #[test]
    fn outer_ranges_count_the_two_outer_loops() {
        let d = |x, y, z| Dim3 { x, y, z };
        // gaussian: 2-D grid of 4x4 blocks, outer z, middle x.
        let k = kernel(false, Some((2, 0)));
        let (kind, units, min) = range_units(&k, d(512, 512, 1), d(4, 4, 1));
        assert_eq!((kind, units), (2, 2048));
        assert_eq!(min, MIN_CHUNK_THREADS.div_ceil(2048));
        // Too many outer indices for u32: block ranges.
        let (kind, units, _) = range_units(&k, d(65535, 1, 2), d(1024, 1, 64));
        assert_eq!((kind, units), (0, 131070));
        // Old objects (no flags): blocks.
        let (kind, units, min) = range_units(&kernel(false, None), d(3, 2, 1), d(4, 4, 1));
        assert_eq!((kind, units, min), (0, 6, 1));
    }
}
