//! Shared by the cuBLAS tests: the four element types seen through one
//! trait (with a complex f64 view for the references), random data, naive
//! reference routines, and a handle that limits OpenBLAS to one thread.

#![allow(dead_code)]

use std::ffi::{c_int, c_void};

use cublas::handle::*;
use cublas::types::*;
// The runtime is linked into the test binary; the shim calls its C API.
pub use cucc_runtime as runtime;

extern "C" {
    fn openblas_set_num_threads(n: c_int);
}

/// A complex f64, the reference arithmetic for every type.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cx {
    pub re: f64,
    pub im: f64,
}

impl Cx {
    pub fn new(re: f64, im: f64) -> Cx {
        Cx { re, im }
    }
    pub fn add(self, o: Cx) -> Cx {
        Cx::new(self.re + o.re, self.im + o.im)
    }
    pub fn sub(self, o: Cx) -> Cx {
        Cx::new(self.re - o.re, self.im - o.im)
    }
    pub fn mul(self, o: Cx) -> Cx {
        Cx::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
    pub fn conj(self) -> Cx {
        Cx::new(self.re, -self.im)
    }
    pub fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
}

/// An element type under test.
pub trait E: Copy + Default + std::fmt::Debug + Send + 'static {
    const COMPLEX: bool;
    /// Relative tolerance of results.
    const TOL: f64;
    fn cx(self) -> Cx;
    fn of(c: Cx) -> Self;
}

impl E for f32 {
    const COMPLEX: bool = false;
    const TOL: f64 = 1e-4;
    fn cx(self) -> Cx {
        Cx::new(self as f64, 0.0)
    }
    fn of(c: Cx) -> Self {
        c.re as f32
    }
}
impl E for f64 {
    const COMPLEX: bool = false;
    const TOL: f64 = 1e-11;
    fn cx(self) -> Cx {
        Cx::new(self, 0.0)
    }
    fn of(c: Cx) -> Self {
        c.re
    }
}
impl E for Complex32 {
    const COMPLEX: bool = true;
    const TOL: f64 = 1e-4;
    fn cx(self) -> Cx {
        Cx::new(self.re as f64, self.im as f64)
    }
    fn of(c: Cx) -> Self {
        Complex32 {
            re: c.re as f32,
            im: c.im as f32,
        }
    }
}
impl E for Complex64 {
    const COMPLEX: bool = true;
    const TOL: f64 = 1e-11;
    fn cx(self) -> Cx {
        Cx::new(self.re, self.im)
    }
    fn of(c: Cx) -> Self {
        Complex64 { re: c.re, im: c.im }
    }
}

/// Deterministic data in [-1, 1] (imaginary parts too for complex types).
pub fn data<T: E>(n: usize, seed: u64) -> Vec<T> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 33) as f64 / (1u64 << 31) as f64) * 2.0 - 1.0
    };
    (0..n)
        .map(|_| {
            let re = next();
            let im = next();
            T::of(Cx::new(re, im))
        })
        .collect()
}

/// Asserts `got` is within the type's tolerance of `want`.
pub fn assert_close<T: E>(got: &[T], want: &[Cx], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let scale = want.iter().map(|w| w.abs()).fold(1.0, f64::max);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let d = g.cx().sub(*w).abs();
        assert!(
            d <= T::TOL * scale,
            "{what}: element {i}: got {:?}, want {w:?}",
            g.cx()
        );
    }
}

/// `op(X)(i, j)` for a column-major X with leading dimension `ld`.
pub fn op_at<T: E>(x: &[T], ld: usize, op: i32, i: usize, j: usize) -> Cx {
    match op {
        0 => x[i + j * ld].cx(),
        1 => x[j + i * ld].cx(),
        _ => x[j + i * ld].cx().conj(),
    }
}

/// A handle (OpenBLAS limited to one thread for the test machine) on the
/// legacy stream, in the given pointer mode.
pub fn handle(mode: i32) -> cublasHandle_t {
    // SAFETY: OpenBLAS's thread-count setter.
    unsafe { openblas_set_num_threads(1) };
    let mut h: cublasHandle_t = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cublasCreate_v2(&mut h) }, CUBLAS_STATUS_SUCCESS);
    assert_eq!(cublasSetPointerMode_v2(h, mode), CUBLAS_STATUS_SUCCESS);
    h
}

/// Waits for the handle's stream.
pub fn sync(h: cublasHandle_t) {
    let mut s: cudaStream_t = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cublasGetStream_v2(h, &mut s) }, 0);
    assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
}

/// Both pointer modes.
pub const MODES: [i32; 2] = [POINTER_MODE_HOST, POINTER_MODE_DEVICE];

/// A scalar for the pointer mode: in host mode a pointer to a local copy,
/// in device mode a pointer to device memory (`cudaMalloc`) that outlives
/// the call.
pub struct Scalars {
    ptrs: Vec<*mut c_void>,
}

impl Scalars {
    pub fn new() -> Scalars {
        Scalars { ptrs: Vec::new() }
    }
    /// Device memory holding `v`.
    pub fn put<T: Copy>(&mut self, v: T) -> *const T {
        let mut p: *mut c_void = std::ptr::null_mut();
        // SAFETY: runtime allocation, then a write of one T into it.
        unsafe {
            assert_eq!(
                runtime::memory::cudaMalloc(&mut p, std::mem::size_of::<T>()),
                0
            );
            *(p as *mut T) = v;
        }
        self.ptrs.push(p);
        p as *const T
    }
}

impl Drop for Scalars {
    fn drop(&mut self) {
        for p in &self.ptrs {
            runtime::memory::cudaFree(*p);
        }
    }
}

/// `v` as the pointer mode wants it: its own address (host mode, read at
/// call time) or a copy in device memory kept by `sc`.
pub fn sp<T: Copy>(mode: i32, sc: &mut Scalars, v: &T) -> *const T {
    if mode == POINTER_MODE_DEVICE {
        sc.put(*v)
    } else {
        v as *const T
    }
}
