//! Set-up shared by the GEMM benches.

use cublas::handle::*;
use cublas::types::*;
use cucc_runtime as runtime;

/// A handle on its own stream, as applications use cuBLAS.
pub fn stream_handle() -> (cublasHandle_t, cudaStream_t) {
    let mut h: cublasHandle_t = std::ptr::null_mut();
    let mut s: cudaStream_t = std::ptr::null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(cublasCreate_v2(&mut h), 0);
        assert_eq!(runtime::stream::cudaStreamCreate(&mut s), 0);
    }
    assert_eq!(cublasSetStream_v2(h, s), 0);
    (h, s)
}
