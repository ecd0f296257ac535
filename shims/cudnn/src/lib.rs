//! cuDNN 9's legacy API, computed on the CPU.
//!
//! cucc's runtime keeps device memory in ordinary host memory, so every
//! pointer a program hands to cuDNN can be read and written directly. This
//! crate exports NVIDIA's function names with NVIDIA's enum values and
//! `cudnnStatus_t` codes (the header is `frontend/include/cudnn.h`) and
//! computes with its own kernels: convolutions as im2col + OpenBLAS GEMM or
//! as direct loops, everything else as plain loops parallelised with rayon.
//!
//! Every call checks its arguments when it is made and captures what the
//! work needs (descriptor contents, scalars, pointers); the work itself is
//! queued on the handle's stream with `cudaLaunchHostFunc`, so it runs in
//! order with the kernels of that stream ([`stream`]).
//!
//! Layout: [`status`] (codes), [`scalar`] (the f32/f64 element trait and
//! GEMM), [`desc`] (descriptors and their entry points), [`handle`],
//! [`stream`], [`strided`] (walking strided tensors), [`tensor_ops`],
//! [`activation`], [`pooling`], [`softmax`], [`lrn`], [`batchnorm`] and
//! [`conv`].
//!
//! The exported `unsafe extern "C"` functions share one safety contract,
//! cuDNN's: pointers are NULL or valid for what the descriptors say, and
//! descriptors come from their `cudnnCreate*` functions. It is stated
//! here once rather than on each of them.
#![allow(clippy::missing_safety_doc)]

/// Calls `$f::<f32>` or `$f::<f64>` for a tensor's data type (half is
/// described but not computed: `CUDNN_STATUS_NOT_SUPPORTED`).
macro_rules! by_type {
    ($dt:expr, $f:ident ( $($a:expr),* $(,)? )) => {
        match $dt {
            $crate::scalar::DataType::Float => $f::<f32>($($a),*),
            $crate::scalar::DataType::Double => $f::<f64>($($a),*),
            $crate::scalar::DataType::Half => Err($crate::Status::NOT_SUPPORTED),
        }
    };
}

pub mod activation;
pub mod batchnorm;
pub mod conv;
pub mod desc;
pub mod handle;
pub mod lrn;
pub mod pooling;
pub mod scalar;
pub mod softmax;
pub mod status;
pub mod stream;
pub mod strided;
pub mod tensor_ops;

pub use status::Status;
