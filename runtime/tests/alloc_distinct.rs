//! `__cucc_alloc_distinct`, the query translated kernels version on: 1 only
//! for pointers into distinct live `cudaMalloc` allocations.

use std::ffi::c_void;

use cucc_runtime::launch::__cucc_alloc_distinct;
use cucc_runtime::memory::{cudaFree, cudaMalloc};

fn distinct(ptrs: &[*const c_void]) -> u8 {
    // SAFETY: `ptrs` holds `len` pointers.
    unsafe { __cucc_alloc_distinct(ptrs.len() as u32, ptrs.as_ptr()) }
}

#[test]
fn distinct_allocations_only() {
    let mut a: *mut c_void = std::ptr::null_mut();
    let mut b: *mut c_void = std::ptr::null_mut();
    // SAFETY: out-pointers to locals.
    unsafe {
        assert_eq!(cudaMalloc(&mut a, 256), 0);
        assert_eq!(cudaMalloc(&mut b, 256), 0);
    }
    let (a, b) = (a as *const c_void, b as *const c_void);
    // SAFETY: pointer arithmetic inside the 256-byte allocation.
    let a_mid = unsafe { a.cast::<u8>().add(100) }.cast::<c_void>();
    assert_eq!(distinct(&[a, b]), 1);
    assert_eq!(
        distinct(&[a_mid, b]),
        1,
        "an interior pointer names its allocation"
    );
    assert_eq!(distinct(&[a, a_mid]), 0, "two pointers into one allocation");
    let host = [0u8; 16];
    assert_eq!(distinct(&[a, host.as_ptr().cast()]), 0, "host memory");
    assert_eq!(distinct(&[a, std::ptr::null()]), 0, "null");
    assert_eq!(cudaFree(a as *mut c_void), 0);
    assert_eq!(cudaFree(b as *mut c_void), 0);
    assert_eq!(distinct(&[a, b]), 0, "freed allocations");
}
