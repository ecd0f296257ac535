//! What a loaded kernel is: the entry's calling convention (`cucc_kernel_fn`
//! and the `cucc_launch` description it receives, `docs/abi.md`) and what
//! the registry records of each kernel a device object registers.
//!
//! A leaf module: it imports nothing of the crate, so the registry, which
//! records kernels, and the launch job, which calls them, need not import
//! each other for it.

/// The entry's calling convention, defined once with the rest of the
/// device-object ABI (`cucc_cpuify::abi`, checked against the C).
pub use cucc_cpuify::abi::{
    KernelFn as CuccKernelFn, Launch as CuccLaunch, KERNEL_OUTER_RANGES, KERNEL_THREAD_RANGES,
};

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
