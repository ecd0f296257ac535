//! cucc's CUDA runtime: a CPU implementation of the CUDA runtime API, built as
//! `libcudart.so.13` (soname and symbol versions match NVIDIA's library) for
//! programs compiled by `cucc` and, later, unmodified nvcc-built programs.
//!
//! Every exported function is `extern "C"`, never unwinds into its caller and
//! returns CUDA's numeric error codes. The modules follow the API's areas:
//! [`errors`], [`device`], [`memory`] (ranges it knows in [`alloc_table`]),
//! [`stream`], [`event`], [`launch`], and [`registry`] (kernels and variables
//! of loaded modules; [`kernel`] is what a kernel entry is), [`array`] (CUDA
//! arrays), [`texture`] (texture objects and references) with [`sample`]
//! (what a fetch returns) and [`texture_abi`] (the kernels' view). A queued
//! launch (`job.rs`) and large copies run on [`pool`] (hand-offs through
//! [`signal`], bulk copies in [`bulk`]; a host thread that waits runs kernels
//! itself on a [`bigstack`]); [`profile`] is `CUCC_PROFILE`'s summary.
//! `docs/abi.md` in the repository documents the ABI between the runtime and
//! cucc-compiled device objects (`include/cucc_abi.h` is its C header).
//!
//! Programs built by nvcc register NVIDIA fat binaries: [`fatbin`] reads
//! them and [`jit`] compiles their PTX into cucc device objects at first use
//! (`docs/jit.md`); [`log`] filters the runtime's diagnostics (`CUCC_LOG`).
//! [`sanitize`] is `CUCC_SANITIZE`: kernels rebuilt with memory or race
//! checks (`docs/sanitize.md`).
//!
//! [`driver`] is the CUDA driver API on the same state, reached through
//! `libcuda.so.1` (`docs/driver-api.md`). [`static_cudart`] redirects the
//! entry points of NVIDIA's runtime linked statically into a program to
//! this library's.
//!
//! The process-wide state, its locks and the order they are taken in are
//! listed in one place: `docs/runtime.md`, "Global state and lock order".
//!
//! [`mempool`] is stream-ordered allocation ([`memadvise`] the memory
//! hints), [`graph`] (with [`graph_params`], the generic node API) and
//! [`capture`] are CUDA graphs and stream capture, [`launch_ex`] is
//! `cudaLaunchKernelExC`, [`stream_attrs`] stream attributes, [`queries`]
//! and [`entry_points`] small queries, [`ptsz`] the per-thread-stream forms;
//! [`unsupported`] exports the rest of NVIDIA's entry points as
//! `cudaErrorNotSupported`.
//!
//! Not implemented yet: surfaces, mipmapped and layered arrays.

#![deny(missing_docs)]
#![warn(clippy::dbg_macro, clippy::todo)]

pub mod alloc_table;
pub mod arena;
pub mod array;
pub mod bigstack;
pub mod bulk;
pub mod capture;
pub mod device;
pub mod devices;
pub mod driver;
pub mod entry_points;
pub mod errors;
pub mod event;
pub mod extras;
pub mod fatbin;
pub mod fault;
pub mod ffi;
pub mod gl_interop;
pub mod graph;
pub mod graph_params;
pub mod host;
pub mod host_pages;
pub mod jit;
pub(crate) mod job;
pub mod kernel;
pub mod kernel_ir;
pub mod launch;
pub mod launch_ex;
pub mod log;
pub mod memadvise;
pub mod memory;
pub mod mempool;
pub mod pool;
pub mod profile;
pub mod ptsz;
pub mod queries;
pub mod racer;
pub mod registry;
pub mod sample;
pub mod sanitize;
pub mod signal;
pub mod sim_device;
pub mod snitch;
pub mod static_cudart;
pub mod stream;
pub mod stream_attrs;
pub mod streaming;
pub(crate) mod sync;
#[cfg(test)]
mod test_kernels;
pub mod texture;
pub mod texture_abi;
pub mod unsupported;

pub use errors::{cudaError_t, Error};
