//! What the machine offers and what the runtime presents of it: cores,
//! memory, the worker threads' count and stack size, and the launch limits
//! of the CUDA device the cores pretend to be.
//!
//! A leaf module: it imports nothing from the crate, so the modules that
//! need these facts (device properties, launches, the pool, streams, the
//! big-stack runner, the spin budget) do not import each other for them.

use std::ffi::c_int;

/// Maximum threads per block.
pub const MAX_THREADS_PER_BLOCK: u32 = 1024;
/// Maximum block extents.
pub const MAX_BLOCK_DIM: [u32; 3] = [1024, 1024, 64];
/// Maximum grid extents.
pub const MAX_GRID_DIM: [u32; 3] = [0x7fff_ffff, 65535, 65535];
/// Shared memory per block without opt-in (48 KiB).
pub const SHARED_PER_BLOCK: u64 = 48 * 1024;
/// Shared memory per block with `cudaFuncAttributeMaxDynamicSharedMemorySize`
/// (compute capability 8.0's 163 KiB).
pub const SHARED_PER_BLOCK_OPTIN: u64 = 163 * 1024;

/// Stack size of the block workers and stream threads: translated kernels
/// keep per-thread arrays (1024 slots per value carried across a barrier) on
/// the stack of the thread that runs them, and only these threads run them.
pub const WORKER_STACK: usize = 64 << 20;

/// Number of cores that run blocks.
pub fn core_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Number of worker threads: `CUCC_NUM_THREADS`, else all cores.
pub fn worker_count() -> usize {
    std::env::var("CUCC_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(core_count)
}

fn sysconf(name: c_int) -> usize {
    // SAFETY: sysconf has no preconditions.
    let v = unsafe { libc::sysconf(name) };
    usize::try_from(v).unwrap_or(0)
}

/// Physical memory in bytes.
pub fn physical_memory() -> usize {
    sysconf(libc::_SC_PHYS_PAGES).saturating_mul(sysconf(libc::_SC_PAGESIZE))
}

/// Currently available memory in bytes.
pub fn available_memory() -> usize {
    sysconf(libc::_SC_AVPHYS_PAGES).saturating_mul(sysconf(libc::_SC_PAGESIZE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_plausible() {
        assert!(core_count() >= 1);
        assert!(worker_count() >= 1);
        assert!(physical_memory() >= available_memory());
        assert!(MAX_BLOCK_DIM.iter().all(|&d| d <= MAX_THREADS_PER_BLOCK));
        const { assert!(SHARED_PER_BLOCK <= SHARED_PER_BLOCK_OPTIN) };
    }
}
