//! What a loaded kernel is: the entry's calling convention (`cucc_kernel_fn`
//! and the `cucc_launch` description it receives, `docs/abi.md`) and what
//! the registry records of each kernel a device object registers.
//!
//! A leaf module: it imports nothing of the crate, so the registry, which
//! records kernels, and the launch job, which calls them, need not import
//! each other for it.

use std::ffi::c_void;

/// Launch description handed to a kernel entry (`cucc_launch`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CuccLaunch {
    /// Grid extents in blocks.
    pub grid: [u32; 3],
    /// Block extents in threads.
    pub block: [u32; 3],
    /// Bytes of `extern __shared__` memory, placed after the static shared bytes.
    pub dynamic_shared: u64,
    /// Texture view (`const struct cucc_tex_api *`, see
    /// [`crate::texture_abi::TexApi`]); NULL when the program has no textures.
    pub tex: *const c_void,
    /// 1 when the entry's range is of global linear thread ids (only for
    /// kernels registered with [`KERNEL_THREAD_RANGES`]), 2 when it is of
    /// outer-loop indices ([`KERNEL_OUTER_RANGES`]), 0 for blocks.
    pub thread_ranges: u32,
}

/// `cucc_kernel_info.flags` bit: the entry accepts ranges of global linear
/// thread ids (`block * threads_per_block + linear thread id in the block`).
pub const KERNEL_THREAD_RANGES: u32 = 1;

/// `cucc_kernel_info.flags` bit: the entry (an N-D collapsed launch) accepts
/// ranges of the linear index `g_outer * extent_middle + g_middle` of its
/// two outer global-coordinate loops, with `launch.thread_ranges == 2`. The
/// outer loop's launch dimension is in bits 2-3, the middle one's in 4-5.
pub const KERNEL_OUTER_RANGES: u32 = 2;

/// A kernel entry (`cucc_kernel_fn`): runs blocks `[block_begin, block_end)`
/// (linear ids `x + y*gx + z*gx*gy`) with `scratch` as shared memory.
pub type CuccKernelFn = unsafe extern "C" fn(
    args: *mut *mut c_void,
    launch: *const CuccLaunch,
    block_begin: u32,
    block_end: u32,
    scratch: *mut c_void,
);

/// A kernel implementation registered by a device object.
#[derive(Debug)]
pub struct KernelImpl {
    /// Mangled name.
    pub name: String,
    /// Entry point.
    pub entry: CuccKernelFn,
    /// Static shared memory per block.
    pub static_shared: u64,
    /// Parameter sizes in bytes.
    pub param_sizes: Vec<u32>,
    /// The entry accepts thread ranges ([`KERNEL_THREAD_RANGES`]).
    pub thread_ranges: bool,
    /// The launch dimensions (outer, middle) of an entry accepting outer-loop
    /// ranges ([`KERNEL_OUTER_RANGES`]).
    pub outer_ranges: Option<(usize, usize)>,
}
