//! cucc's cuBLAS: the cuBLAS v2 API with NVIDIA's ABI (the `_v2` symbol
//! names `cublas_v2.h` maps to, NVIDIA's enum values and status codes),
//! built as `libcublas.so.13`, computing on the CPU through OpenBLAS.
//!
//! In cucc device memory is host memory, so a device pointer is passed to
//! OpenBLAS as it is. Each call checks its arguments as cuBLAS does, then
//! submits one closure to the handle's stream (see `cudart.rs`), so BLAS work
//! is ordered with the program's kernels and copies on that stream.
//!
//! Layout: [`handle`] (handles and settings), [`transfer`] (Set/Get
//! Vector/Matrix), [`level1`], [`level2`], [`level3`], [`extensions`] (geam,
//! batched and mixed-precision GEMM); `elem.rs` binds the four element
//! types to cblas; `call.rs` holds what every entry point shares.

mod call;
mod cudart;
mod elem;
pub mod extensions;
pub mod handle;
pub mod level1;
pub mod level2;
pub mod level3;
pub mod transfer;
pub mod types;

pub use types::*;
