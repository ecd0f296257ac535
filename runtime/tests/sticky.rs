//! Sticky errors: a kernel that traps or fails an assertion corrupts the
//! context until `cudaDeviceReset`. In its own test binary because the state
//! is process-wide.

#[macro_use]
mod common;

use std::sync::atomic::{AtomicU32, Ordering};

use common::*;
use cucc_runtime::device::{cudaDeviceReset, cudaDeviceSynchronize, cudaGetDeviceCount};
use cucc_runtime::errors::{cudaGetLastError, cudaPeekAtLastError};
use cucc_runtime::ffi::Dim3;
use cucc_runtime::launch::{__cucc_assert_fail, __cucc_launch_aborted, __cucc_trap};
use cucc_runtime::memory::{cudaFree, cudaMalloc};

static BLOCKS_RUN: AtomicU32 = AtomicU32::new(0);

kernel! {
    /// Traps in block 3; every block polls the abort flag first.
    fn trapping(_a, _l, begin, end, _s) {
        for b in begin..end {
            if __cucc_launch_aborted() != 0 {
                return;
            }
            BLOCKS_RUN.fetch_add(1, Ordering::SeqCst);
            if b == 3 {
                // SAFETY: a static message.
                unsafe { __cucc_trap(c"trap in block 3".as_ptr()) };
                return;
            }
        }
    }
}

kernel! {
    fn asserting(_a, _l, _begin, _end, _s) {
        // SAFETY: static strings.
        unsafe {
            __cucc_assert_fail(
                c"x < n".as_ptr(),
                c"kernel.cu".as_ptr(),
                12,
                c"void k(int)".as_ptr(),
            )
        };
    }
}

#[test]
fn traps_and_asserts_are_sticky_until_reset() {
    let id = fresh_id();
    register_device(
        id,
        &[
            K {
                name: "trapping",
                entry: trapping,
                static_shared: 0,
                params: &[],
            },
            K {
                name: "asserting",
                entry: asserting,
                static_shared: 0,
                params: &[],
            },
        ],
    );
    let h = register_fatbin(blob(id));
    let (t, a) = (stub(), stub());
    register_function(h, t, "trapping");
    register_function(h, a, "asserting");
    let null = std::ptr::null_mut();

    // The launch itself succeeds; the failure surfaces at synchronisation.
    assert_eq!(
        launch(
            t,
            Dim3::new(10_000, 1, 1),
            Dim3::new(1, 1, 1),
            0,
            null,
            &mut []
        ),
        0
    );
    assert_eq!(cudaDeviceSynchronize(), 719);
    assert!(
        BLOCKS_RUN.load(Ordering::SeqCst) < 10_000,
        "the launch stopped early"
    );
    // Sticky: cudaGetLastError cannot clear it, device calls fail with it.
    assert_eq!(cudaGetLastError(), 719);
    assert_eq!(cudaGetLastError(), 719);
    assert_eq!(cudaPeekAtLastError(), 719);
    let mut p = null;
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMalloc(&mut p, 16) }, 719);
    assert_eq!(
        launch(t, Dim3::new(1, 1, 1), Dim3::new(1, 1, 1), 0, null, &mut []),
        719
    );
    // Queries that do not touch the device still work.
    let mut n = 0;
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaGetDeviceCount(&mut n) }, 0);

    // Reset restores a healthy context.
    assert_eq!(cudaDeviceReset(), 0);
    assert_eq!(cudaGetLastError(), 0);
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMalloc(&mut p, 16) }, 0);
    assert_eq!(cudaFree(p), 0);

    // A failed assertion is the sticky cudaErrorAssert.
    assert_eq!(
        launch(a, Dim3::new(4, 1, 1), Dim3::new(32, 1, 1), 0, null, &mut []),
        0
    );
    assert_eq!(cudaDeviceSynchronize(), 710);
    assert_eq!(cudaGetLastError(), 710);
    assert_eq!(cudaDeviceReset(), 0);
    assert_eq!(cudaDeviceSynchronize(), 0);
}
