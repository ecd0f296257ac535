//! The element types cuDNN computes in (`float`, `double`) and their GEMM.

use std::ffi::c_void;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub};

use cblas_sys::{CBLAS_LAYOUT, CBLAS_TRANSPOSE};

/// A floating-point element type with its OpenBLAS GEMM.
pub trait Real:
    Copy
    + Send
    + Sync
    + PartialOrd
    + Default
    + std::fmt::Debug
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + MulAssign
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Converts from `f64` (rounding for `f32`).
    fn from_f64(v: f64) -> Self;
    /// Widens to `f64`.
    fn to_f64(self) -> f64;
    /// `e^self`.
    fn exp(self) -> Self;
    /// Natural logarithm.
    fn ln(self) -> Self;
    /// Hyperbolic tangent.
    fn tanh(self) -> Self;
    /// Square root.
    fn sqrt(self) -> Self;
    /// `self^e`.
    fn powf(self, e: Self) -> Self;
    /// Whether the value is NaN.
    fn is_nan(self) -> bool;
    /// Reads a cuDNN scaling factor: `double` for double tensors, `float`
    /// otherwise.
    ///
    /// # Safety
    /// `p` must point to a readable value of that type.
    unsafe fn read_scalar(p: *const c_void) -> Self;
    /// `C = alpha * op(A) * op(B) + beta * C`, row-major; `beta == 0` does
    /// not read `C`.
    ///
    /// # Safety
    /// The pointers must cover the matrices their dimensions describe.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(
        ta: bool,
        tb: bool,
        m: usize,
        n: usize,
        k: usize,
        alpha: Self,
        a: *const Self,
        lda: usize,
        b: *const Self,
        ldb: usize,
        beta: Self,
        c: *mut Self,
        ldc: usize,
    );
}

fn trans(t: bool) -> CBLAS_TRANSPOSE {
    if t {
        CBLAS_TRANSPOSE::CblasTrans
    } else {
        CBLAS_TRANSPOSE::CblasNoTrans
    }
}

macro_rules! real_impl {
    ($t:ty, $gemm:ident) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            fn tanh(self) -> Self {
                <$t>::tanh(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn powf(self, e: Self) -> Self {
                <$t>::powf(self, e)
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            unsafe fn read_scalar(p: *const c_void) -> Self {
                p.cast::<$t>().read_unaligned()
            }
            unsafe fn gemm(
                ta: bool,
                tb: bool,
                m: usize,
                n: usize,
                k: usize,
                alpha: Self,
                a: *const Self,
                lda: usize,
                b: *const Self,
                ldb: usize,
                beta: Self,
                c: *mut Self,
                ldc: usize,
            ) {
                if m == 0 || n == 0 {
                    return;
                }
                ensure_single_threaded_blas();
                cblas_sys::$gemm(
                    CBLAS_LAYOUT::CblasRowMajor,
                    trans(ta),
                    trans(tb),
                    m as i32,
                    n as i32,
                    k as i32,
                    alpha,
                    a,
                    lda.max(1) as i32,
                    b,
                    ldb.max(1) as i32,
                    beta,
                    c,
                    ldc.max(1) as i32,
                );
            }
        }
    };
}

real_impl!(f32, cblas_sgemm);
real_impl!(f64, cblas_dgemm);

extern "C" {
    fn openblas_set_num_threads(n: i32);
}

/// The convolutions parallelise over images and channels with rayon, each
/// task calling a small GEMM; OpenBLAS's own threads would oversubscribe the
/// cores, so it is set to one thread once, before the first GEMM.
fn ensure_single_threaded_blas() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: plain setter of OpenBLAS's global thread count.
    ONCE.call_once(|| unsafe { openblas_set_num_threads(1) });
}

/// cuDNN's data types this library computes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataType {
    /// `CUDNN_DATA_FLOAT` (0).
    Float,
    /// `CUDNN_DATA_DOUBLE` (1).
    Double,
    /// `CUDNN_DATA_HALF` (2): accepted in descriptors, not computed.
    Half,
}

impl DataType {
    /// Decodes a `cudnnDataType_t`; other types are `NOT_SUPPORTED` here
    /// (int8 and friends), unknown values `BAD_PARAM`.
    pub fn from_raw(v: i32) -> crate::status::Result<DataType> {
        match v {
            0 => Ok(DataType::Float),
            1 => Ok(DataType::Double),
            2 => Ok(DataType::Half),
            3..=14 => Err(crate::Status::NOT_SUPPORTED),
            _ => Err(crate::Status::BAD_PARAM),
        }
    }
    /// The `cudnnDataType_t` value.
    pub fn raw(self) -> i32 {
        match self {
            DataType::Float => 0,
            DataType::Double => 1,
            DataType::Half => 2,
        }
    }
    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DataType::Float => 4,
            DataType::Double => 8,
            DataType::Half => 2,
        }
    }
}

/// A raw pointer that may cross to the stream's worker thread: device memory
/// is host memory owned by the program, which keeps it alive until the
/// stream has run the work (CUDA's contract for asynchronous calls).
#[derive(Clone, Copy, Debug)]
pub struct Ptr<T>(pub *mut T);

// SAFETY: see the type's doc; the pointee is plain numeric data.
unsafe impl<T> Send for Ptr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for Ptr<T> {}

impl<T> Ptr<T> {
    /// From a C `const void *`.
    pub fn from_const(p: *const c_void) -> Ptr<T> {
        Ptr(p as *mut T)
    }
    /// From a C `void *`.
    pub fn from_mut(p: *mut c_void) -> Ptr<T> {
        Ptr(p.cast())
    }
    /// Reads element `i`.
    ///
    /// # Safety
    /// `i` must be in bounds of the user's buffer.
    #[inline(always)]
    pub unsafe fn get(self, i: usize) -> T
    where
        T: Copy,
    {
        *self.0.add(i)
    }
    /// Writes element `i`.
    ///
    /// # Safety
    /// `i` must be in bounds of the user's buffer.
    #[inline(always)]
    pub unsafe fn set(self, i: usize, v: T) {
        *self.0.add(i) = v;
    }
}

/// `dst = alpha * v + beta * dst`, not reading `dst` when `beta == 0`
/// (cuDNN's blending rule: the destination may hold NaNs then).
///
/// # Safety
/// `i` must be in bounds of `dst`.
#[inline(always)]
pub unsafe fn blend<T: Real>(dst: Ptr<T>, i: usize, v: T, alpha: T, beta: T) {
    let out = if beta == T::ZERO {
        alpha * v
    } else {
        alpha * v + beta * dst.get(i)
    };
    dst.set(i, out);
}
