//! Shared test helpers: element types, strided test tensors that own their
//! cuDNN descriptor, deterministic data and tolerant comparisons.
#![allow(dead_code)]

use std::ffi::c_void;

use cudnn::desc::*;
use cudnn::handle::{cudnnCreate, cudnnDestroy, Handle};
use cudnn::Status;

/// f32 or f64 as the tests use them.
pub trait El: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    /// `cudnnDataType_t`.
    const DT: i32;
    /// Comparison tolerance (relative to the magnitude of the reference).
    const TOL: f64;
    fn f(v: f64) -> Self;
    fn d(self) -> f64;
}

impl El for f32 {
    const DT: i32 = 0;
    const TOL: f64 = 2e-4;
    fn f(v: f64) -> Self {
        v as f32
    }
    fn d(self) -> f64 {
        self as f64
    }
}

impl El for f64 {
    const DT: i32 = 1;
    const TOL: f64 = 1e-10;
    fn f(v: f64) -> Self {
        v
    }
    fn d(self) -> f64 {
        self
    }
}

/// A deterministic generator of values in [-1, 1).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// Memory layouts the tests use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Packed N, C, spatial.
    Nchw,
    /// Packed N, spatial, C.
    Nhwc,
    /// NCHW with gaps after every row and channel (arbitrary strides).
    Padded,
}

pub fn strides_for(dims: &[usize], layout: Layout) -> Vec<usize> {
    let nd = dims.len();
    match layout {
        Layout::Nchw => Format::Nchw.strides(dims),
        Layout::Nhwc => Format::Nhwc.strides(dims),
        Layout::Padded => {
            let mut s = vec![1; nd];
            s[nd - 1] = 1;
            for i in (0..nd - 1).rev() {
                s[i] = s[i + 1] * dims[i + 1] + 1;
            }
            s
        }
    }
}

/// A strided tensor with its own data and descriptor. Unused slots (gaps
/// in padded layouts) hold NaN so that reading them shows up.
pub struct Tensor<T: El> {
    pub dims: Vec<usize>,
    pub strides: Vec<usize>,
    pub data: Vec<T>,
    pub desc: *mut TensorDesc,
}

impl<T: El> Tensor<T> {
    pub fn new(dims: &[usize], layout: Layout, seed: u64) -> Tensor<T> {
        let strides = strides_for(dims, layout);
        Tensor::with_strides(dims, &strides, seed)
    }

    pub fn with_strides(dims: &[usize], strides: &[usize], seed: u64) -> Tensor<T> {
        let span = 1 + dims
            .iter()
            .zip(strides)
            .map(|(d, s)| (d - 1) * s)
            .sum::<usize>();
        let mut t = Tensor {
            dims: dims.to_vec(),
            strides: strides.to_vec(),
            data: vec![T::f(f64::NAN); span],
            desc: std::ptr::null_mut(),
        };
        let mut g = Lcg(seed);
        for i in 0..t.count() {
            let idx = t.unflat(i);
            t.set(&idx, g.next());
        }
        unsafe {
            assert_eq!(cudnnCreateTensorDescriptor(&mut t.desc), Status::SUCCESS);
            let d: Vec<i32> = dims.iter().map(|&v| v as i32).collect();
            let s: Vec<i32> = strides.iter().map(|&v| v as i32).collect();
            assert_eq!(
                cudnnSetTensorNdDescriptor(t.desc, T::DT, d.len() as i32, d.as_ptr(), s.as_ptr()),
                Status::SUCCESS
            );
        }
        t
    }

    /// Every element set to NaN (outputs written with beta = 0 must not be read).
    pub fn poison(&mut self) {
        for i in 0..self.count() {
            let idx = self.unflat(i);
            self.set(&idx, f64::NAN);
        }
    }

    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }

    pub fn unflat(&self, mut i: usize) -> Vec<usize> {
        let mut idx = vec![0; self.dims.len()];
        for d in (0..self.dims.len()).rev() {
            idx[d] = i % self.dims[d];
            i /= self.dims[d];
        }
        idx
    }

    pub fn off(&self, idx: &[usize]) -> usize {
        idx.iter().zip(&self.strides).map(|(i, s)| i * s).sum()
    }

    pub fn get(&self, idx: &[usize]) -> f64 {
        self.data[self.off(idx)].d()
    }

    pub fn set(&mut self, idx: &[usize], v: f64) {
        let o = self.off(idx);
        self.data[o] = T::f(v);
    }

    /// Values in row-major index order.
    pub fn values(&self) -> Vec<f64> {
        (0..self.count())
            .map(|i| self.get(&self.unflat(i)))
            .collect()
    }

    pub fn ptr(&self) -> *const c_void {
        self.data.as_ptr().cast()
    }

    pub fn mptr(&mut self) -> *mut c_void {
        self.data.as_mut_ptr().cast()
    }
}

impl<T: El> Drop for Tensor<T> {
    fn drop(&mut self) {
        unsafe {
            cudnnDestroyTensorDescriptor(self.desc);
        }
    }
}

/// A packed filter (NCHW = K, C, spatial; NHWC = K, spatial, C).
pub struct Filter<T: El> {
    pub dims: Vec<usize>,
    pub strides: Vec<usize>,
    pub data: Vec<T>,
    pub desc: *mut FilterDesc,
}

impl<T: El> Filter<T> {
    pub fn new(dims: &[usize], nhwc: bool, seed: u64) -> Filter<T> {
        let strides = strides_for(dims, if nhwc { Layout::Nhwc } else { Layout::Nchw });
        let count: usize = dims.iter().product();
        let mut g = Lcg(seed);
        let data = (0..count).map(|_| T::f(g.next())).collect();
        let mut f = Filter {
            dims: dims.to_vec(),
            strides,
            data,
            desc: std::ptr::null_mut(),
        };
        unsafe {
            assert_eq!(cudnnCreateFilterDescriptor(&mut f.desc), Status::SUCCESS);
            let d: Vec<i32> = dims.iter().map(|&v| v as i32).collect();
            assert_eq!(
                cudnnSetFilterNdDescriptor(f.desc, T::DT, nhwc as i32, d.len() as i32, d.as_ptr()),
                Status::SUCCESS
            );
        }
        f
    }

    pub fn off(&self, idx: &[usize]) -> usize {
        idx.iter().zip(&self.strides).map(|(i, s)| i * s).sum()
    }

    pub fn get(&self, idx: &[usize]) -> f64 {
        self.data[self.off(idx)].d()
    }

    pub fn ptr(&self) -> *const c_void {
        self.data.as_ptr().cast()
    }

    pub fn mptr(&mut self) -> *mut c_void {
        self.data.as_mut_ptr().cast()
    }
}

impl<T: El> Drop for Filter<T> {
    fn drop(&mut self) {
        unsafe {
            cudnnDestroyFilterDescriptor(self.desc);
        }
    }
}

/// A handle destroyed on drop.
pub struct H(pub *mut Handle);

impl H {
    pub fn new() -> H {
        let mut h = std::ptr::null_mut();
        assert_eq!(unsafe { cudnnCreate(&mut h) }, Status::SUCCESS);
        H(h)
    }
}

impl Drop for H {
    fn drop(&mut self) {
        unsafe {
            cudnnDestroy(self.0);
        }
    }
}

/// A scalar argument of the tensors' type, as cuDNN reads it.
pub fn sc<T: El>(v: f64) -> Box<T> {
    Box::new(T::f(v))
}

pub fn scp<T: El>(b: &T) -> *const c_void {
    (b as *const T).cast()
}

/// Asserts `got` matches `want` elementwise within the type's tolerance.
pub fn assert_close<T: El>(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let err = (g - w).abs();
        assert!(
            err <= T::TOL * scale * 10.0 || (g.is_nan() && w.is_nan()),
            "{what}: element {i}: got {g}, want {w} (err {err:e})"
        );
    }
}

/// `alpha * v + beta * old` as cuDNN blends (old unread when beta = 0).
pub fn blend(v: f64, alpha: f64, beta: f64, old: f64) -> f64 {
    if beta == 0.0 {
        alpha * v
    } else {
        alpha * v + beta * old
    }
}
