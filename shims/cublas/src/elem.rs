//! The four BLAS element types (S, D, C, Z): a little arithmetic for the
//! routines written here, and each routine's OpenBLAS (cblas) entry point.
//!
//! All matrices are column-major, as in cuBLAS. Callers have checked every
//! argument cuBLAS checks, so OpenBLAS's own checks never fire.

use std::ffi::c_int;

use cb::{CBLAS_DIAG, CBLAS_SIDE, CBLAS_TRANSPOSE, CBLAS_UPLO};
use cblas_sys as cb;

use crate::types::{Complex32, Complex64};

const COL: cb::CBLAS_LAYOUT = cb::CblasColMajor;

/// An element type with its BLAS routines. Pointers are device pointers,
/// which in cucc are ordinary host memory.
#[allow(clippy::too_many_arguments, missing_docs)]
pub trait Elem: Copy + Send + Sync + Default + PartialEq + std::fmt::Debug + 'static {
    /// The real type of norms and of real scale factors.
    type Real: Copy + Send + Sync + Default + std::fmt::Debug + 'static;
    /// Whether the type is complex (`CUBLAS_OP_C` conjugates).
    const COMPLEX: bool;
    fn zero() -> Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn conj(self) -> Self;
    fn neg(self) -> Self;
    fn mul_real(self, r: Self::Real) -> Self;
    /// `|re| + |im|`, the measure of `i?amax`/`i?amin`.
    fn abs1(self) -> f64;

    unsafe fn axpy(n: c_int, a: Self, x: *const Self, incx: c_int, y: *mut Self, incy: c_int);
    unsafe fn scal(n: c_int, a: Self, x: *mut Self, incx: c_int);
    unsafe fn copy(n: c_int, x: *const Self, incx: c_int, y: *mut Self, incy: c_int);
    unsafe fn swap(n: c_int, x: *mut Self, incx: c_int, y: *mut Self, incy: c_int);
    unsafe fn dotu(n: c_int, x: *const Self, incx: c_int, y: *const Self, incy: c_int) -> Self;
    unsafe fn dotc(n: c_int, x: *const Self, incx: c_int, y: *const Self, incy: c_int) -> Self;
    unsafe fn nrm2(n: c_int, x: *const Self, incx: c_int) -> Self::Real;
    unsafe fn asum(n: c_int, x: *const Self, incx: c_int) -> Self::Real;
    /// 0-based index of the first largest `abs1`.
    unsafe fn iamax(n: c_int, x: *const Self, incx: c_int) -> c_int;
    unsafe fn gemv(
        t: CBLAS_TRANSPOSE,
        m: c_int,
        n: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        x: *const Self,
        incx: c_int,
        beta: Self,
        y: *mut Self,
        incy: c_int,
    );
    unsafe fn geru(
        m: c_int,
        n: c_int,
        alpha: Self,
        x: *const Self,
        incx: c_int,
        y: *const Self,
        incy: c_int,
        a: *mut Self,
        lda: c_int,
    );
    unsafe fn gerc(
        m: c_int,
        n: c_int,
        alpha: Self,
        x: *const Self,
        incx: c_int,
        y: *const Self,
        incy: c_int,
        a: *mut Self,
        lda: c_int,
    );
    /// `y = alpha*A*x + beta*y` with A symmetric, one triangle stored.
    /// Written here for every type (cblas has no complex symv).
    unsafe fn symv(
        upper: bool,
        n: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        x: *const Self,
        incx: c_int,
        beta: Self,
        y: *mut Self,
        incy: c_int,
    ) {
        symv_generic(upper, n, alpha, a, lda, x, incx, beta, y, incy)
    }
    unsafe fn trsv(
        u: CBLAS_UPLO,
        t: CBLAS_TRANSPOSE,
        d: CBLAS_DIAG,
        n: c_int,
        a: *const Self,
        lda: c_int,
        x: *mut Self,
        incx: c_int,
    );
    unsafe fn gemm(
        ta: CBLAS_TRANSPOSE,
        tb: CBLAS_TRANSPOSE,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        b: *const Self,
        ldb: c_int,
        beta: Self,
        c: *mut Self,
        ldc: c_int,
    );
    unsafe fn symm(
        s: CBLAS_SIDE,
        u: CBLAS_UPLO,
        m: c_int,
        n: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        b: *const Self,
        ldb: c_int,
        beta: Self,
        c: *mut Self,
        ldc: c_int,
    );
    unsafe fn syrk(
        u: CBLAS_UPLO,
        t: CBLAS_TRANSPOSE,
        n: c_int,
        k: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        beta: Self,
        c: *mut Self,
        ldc: c_int,
    );
    unsafe fn trsm(
        s: CBLAS_SIDE,
        u: CBLAS_UPLO,
        t: CBLAS_TRANSPOSE,
        d: CBLAS_DIAG,
        m: c_int,
        n: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        b: *mut Self,
        ldb: c_int,
    );
    unsafe fn trmm(
        s: CBLAS_SIDE,
        u: CBLAS_UPLO,
        t: CBLAS_TRANSPOSE,
        d: CBLAS_DIAG,
        m: c_int,
        n: c_int,
        alpha: Self,
        a: *const Self,
        lda: c_int,
        b: *mut Self,
        ldb: c_int,
    );
}

/// The address of element `i` of a BLAS vector of `n` elements with stride
/// `inc` (a negative stride walks from the end, as in BLAS).
pub fn vec_index(i: c_int, n: c_int, inc: c_int) -> isize {
    if inc >= 0 {
        i as isize * inc as isize
    } else {
        (n - 1 - i) as isize * (-inc) as isize
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn symv_generic<T: Elem>(
    upper: bool,
    n: c_int,
    alpha: T,
    a: *const T,
    lda: c_int,
    x: *const T,
    incx: c_int,
    beta: T,
    y: *mut T,
    incy: c_int,
) {
    let lda = lda as isize;
    for i in 0..n {
        let mut sum = T::zero();
        for j in 0..n {
            let (r, c) = if (i <= j) == upper { (i, j) } else { (j, i) };
            // SAFETY: indices within the n x n matrix and the vectors.
            let aij = unsafe { *a.offset(r as isize + c as isize * lda) };
            let xj = unsafe { *x.offset(vec_index(j, n, incx)) };
            sum = sum.add(aij.mul(xj));
        }
        // SAFETY: as above.
        let yi = unsafe { &mut *y.offset(vec_index(i, n, incy)) };
        let old = if beta == T::zero() {
            T::zero()
        } else {
            beta.mul(*yi)
        };
        *yi = alpha.mul(sum).add(old);
    }
}

/// The cblas-backed routines every element type has alike. `$s` passes a
/// scalar as the routine takes it (by value for real types, by pointer for
/// complex ones); pointers are cast to the routine's element type.
macro_rules! blas_routines {
    ($s:ident; $axpy:ident, $scal:ident, $copy:ident, $swap:ident, $nrm2:ident,
     $iamax:ident, $gemv:ident, $geru:ident, $gerc:ident, $trsv:ident, $gemm:ident,
     $symm:ident, $syrk:ident, $trsm:ident, $trmm:ident) => {
        unsafe fn axpy(n: c_int, a: Self, x: *const Self, ix: c_int, y: *mut Self, iy: c_int) {
            unsafe { cb::$axpy(n, $s(&a), x.cast(), ix, y.cast(), iy) }
        }
        unsafe fn scal(n: c_int, a: Self, x: *mut Self, ix: c_int) {
            unsafe { cb::$scal(n, $s(&a), x.cast(), ix) }
        }
        unsafe fn copy(n: c_int, x: *const Self, ix: c_int, y: *mut Self, iy: c_int) {
            unsafe { cb::$copy(n, x.cast(), ix, y.cast(), iy) }
        }
        unsafe fn swap(n: c_int, x: *mut Self, ix: c_int, y: *mut Self, iy: c_int) {
            unsafe { cb::$swap(n, x.cast(), ix, y.cast(), iy) }
        }
        unsafe fn nrm2(n: c_int, x: *const Self, ix: c_int) -> Self::Real {
            unsafe { cb::$nrm2(n, x.cast(), ix) }
        }
        unsafe fn iamax(n: c_int, x: *const Self, ix: c_int) -> c_int {
            unsafe { cb::$iamax(n, x.cast(), ix) }
        }
        unsafe fn gemv(
            t: CBLAS_TRANSPOSE,
            m: c_int,
            n: c_int,
            alpha: Self,
            a: *const Self,
            lda: c_int,
            x: *const Self,
            ix: c_int,
            beta: Self,
            y: *mut Self,
            iy: c_int,
        ) {
            let (alpha, beta) = ($s(&alpha), $s(&beta));
            unsafe {
                cb::$gemv(
                    COL,
                    t,
                    m,
                    n,
                    alpha,
                    a.cast(),
                    lda,
                    x.cast(),
                    ix,
                    beta,
                    y.cast(),
                    iy,
                )
            }
        }
        unsafe fn geru(
            m: c_int,
            n: c_int,
            alpha: Self,
            x: *const Self,
            ix: c_int,
            y: *const Self,
            iy: c_int,
            a: *mut Self,
            lda: c_int,
        ) {
            let (x, y, a) = (x.cast(), y.cast(), a.cast());
            unsafe { cb::$geru(COL, m, n, $s(&alpha), x, ix, y, iy, a, lda) }
        }
        unsafe fn gerc(
            m: c_int,
            n: c_int,
            alpha: Self,
            x: *const Self,
            ix: c_int,
            y: *const Self,
            iy: c_int,
            a: *mut Self,
            lda: c_int,
        ) {
            let (x, y, a) = (x.cast(), y.cast(), a.cast());
            unsafe { cb::$gerc(COL, m, n, $s(&alpha), x, ix, y, iy, a, lda) }
        }
        unsafe fn trsv(
            u: CBLAS_UPLO,
            t: CBLAS_TRANSPOSE,
            d: CBLAS_DIAG,
            n: c_int,
            a: *const Self,
            lda: c_int,
            x: *mut Self,
            ix: c_int,
        ) {
            unsafe { cb::$trsv(COL, u, t, d, n, a.cast(), lda, x.cast(), ix) }
        }
        unsafe fn gemm(
            ta: CBLAS_TRANSPOSE,
            tb: CBLAS_TRANSPOSE,
            m: c_int,
            n: c_int,
            k: c_int,
            alpha: Self,
            a: *const Self,
            lda: c_int,
            b: *const Self,
            ldb: c_int,
            beta: Self,
            c: *mut Self,
            ldc: c_int,
        ) {
            let (alpha, beta) = ($s(&alpha), $s(&beta));
            let (a, b, c) = (a.cast(), b.cast(), c.cast());
            unsafe { cb::$gemm(COL, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
        }
        unsafe fn symm(
            s: CBLAS_SIDE,
            u: CBLAS_UPLO,
            m: c_int,
            n: c_int,
            alpha: Self,
            a: *const Self,
            lda: c_int,
            b: *const Self,
            ldb: c_int,
            beta: Self,
            c: *mut Self,
            ldc: c_int,
        ) {
            let (alpha, beta) = ($s(&alpha), $s(&beta));
            let (a, b, c) = (a.cast(), b.cast(), c.cast());
            unsafe { cb::$symm(COL, s, u, m, n, alpha, a, lda, b, ldb, beta, c, ldc) }
        }
        unsafe fn syrk(
            u: CBLAS_UPLO,
            t: CBLAS_TRANSPOSE,
            n: c_int,
            k: c_int,
            alpha: Self,
            a: *const Self,
            lda: c_int,
            beta: Self,
            c: *mut Self,
            ldc: c_int,
        ) {
            let (alpha, beta) = ($s(&alpha), $s(&beta));
            unsafe { cb::$syrk(COL, u, t, n, k, alpha, a.cast(), lda, beta, c.cast(), ldc) }
        }
        unsafe fn trsm(
            s: CBLAS_SIDE,
            u: CBLAS_UPLO,
            t: CBLAS_TRANSPOSE,
            d: CBLAS_DIAG,
            m: c_int,
            n: c_int,
            alpha: Self,
            a: *const Self,
            lda: c_int,
            b: *mut Self,
            ldb: c_int,
        ) {
            let (a, b) = (a.cast(), b.cast());
            unsafe { cb::$trsm(COL, s, u, t, d, m, n, $s(&alpha), a, lda, b, ldb) }
        }
        unsafe fn trmm(
            s: CBLAS_SIDE,
            u: CBLAS_UPLO,
            t: CBLAS_TRANSPOSE,
            d: CBLAS_DIAG,
            m: c_int,
            n: c_int,
            alpha: Self,
            a: *const Self,
            lda: c_int,
            b: *mut Self,
            ldb: c_int,
        ) {
            let (a, b) = (a.cast(), b.cast());
            unsafe { cb::$trmm(COL, s, u, t, d, m, n, $s(&alpha), a, lda, b, ldb) }
        }
    };
}

/// A real scalar as cblas takes it: by value.
fn v<T: Copy>(x: &T) -> T {
    *x
}

/// A complex scalar as the `*const [re, im]` cblas takes.
fn p<T, C>(x: &T) -> *const C {
    (x as *const T).cast()
}

macro_rules! real_elem {
    ($t:ty, $dot:ident, $asum:ident, $symv:ident; $($routine:ident),*) => {
        impl Elem for $t {
            type Real = $t;
            const COMPLEX: bool = false;
            fn zero() -> Self {
                0.0
            }
            fn add(self, o: Self) -> Self {
                self + o
            }
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn conj(self) -> Self {
                self
            }
            fn neg(self) -> Self {
                -self
            }
            fn mul_real(self, r: $t) -> Self {
                self * r
            }
            fn abs1(self) -> f64 {
                f64::from(self.abs())
            }
            unsafe fn dotu(n: c_int, x: *const Self, ix: c_int, y: *const Self, iy: c_int) -> Self {
                unsafe { cb::$dot(n, x, ix, y, iy) }
            }
            unsafe fn dotc(n: c_int, x: *const Self, ix: c_int, y: *const Self, iy: c_int) -> Self {
                unsafe { cb::$dot(n, x, ix, y, iy) }
            }
            unsafe fn asum(n: c_int, x: *const Self, ix: c_int) -> $t {
                unsafe { cb::$asum(n, x, ix) }
            }
            unsafe fn symv(
                upper: bool,
                n: c_int,
                alpha: Self,
                a: *const Self,
                lda: c_int,
                x: *const Self,
                ix: c_int,
                beta: Self,
                y: *mut Self,
                iy: c_int,
            ) {
                let u = if upper {
                    cb::CblasUpper
                } else {
                    cb::CblasLower
                };
                unsafe { cb::$symv(COL, u, n, alpha, a, lda, x, ix, beta, y, iy) }
            }
            blas_routines!(v; $($routine),*);
        }
    };
}

// Real BLAS has one `ger`: it serves as both `geru` and `gerc`.
real_elem!(f32, cblas_sdot, cblas_sasum, cblas_ssymv;
    cblas_saxpy, cblas_sscal, cblas_scopy, cblas_sswap, cblas_snrm2, cblas_isamax, cblas_sgemv,
    cblas_sger, cblas_sger, cblas_strsv, cblas_sgemm, cblas_ssymm, cblas_ssyrk, cblas_strsm,
    cblas_strmm);
real_elem!(f64, cblas_ddot, cblas_dasum, cblas_dsymv;
    cblas_daxpy, cblas_dscal, cblas_dcopy, cblas_dswap, cblas_dnrm2, cblas_idamax, cblas_dgemv,
    cblas_dger, cblas_dger, cblas_dtrsv, cblas_dgemm, cblas_dsymm, cblas_dsyrk, cblas_dtrsm,
    cblas_dtrmm);

macro_rules! complex_elem {
    ($t:ty, $r:ty, $dotu:ident, $dotc:ident; $($routine:ident),*) => {
        impl Elem for $t {
            type Real = $r;
            const COMPLEX: bool = true;
            fn zero() -> Self {
                Self { re: 0.0, im: 0.0 }
            }
            fn add(self, o: Self) -> Self {
                Self {
                    re: self.re + o.re,
                    im: self.im + o.im,
                }
            }
            fn mul(self, o: Self) -> Self {
                Self {
                    re: self.re * o.re - self.im * o.im,
                    im: self.re * o.im + self.im * o.re,
                }
            }
            fn conj(self) -> Self {
                Self {
                    re: self.re,
                    im: -self.im,
                }
            }
            fn neg(self) -> Self {
                Self {
                    re: -self.re,
                    im: -self.im,
                }
            }
            fn mul_real(self, r: $r) -> Self {
                Self {
                    re: self.re * r,
                    im: self.im * r,
                }
            }
            fn abs1(self) -> f64 {
                f64::from(self.re.abs()) + f64::from(self.im.abs())
            }
            unsafe fn dotu(n: c_int, x: *const Self, ix: c_int, y: *const Self, iy: c_int) -> Self {
                let mut r = Self::zero();
                unsafe { cb::$dotu(n, x.cast(), ix, y.cast(), iy, (&mut r as *mut Self).cast()) };
                r
            }
            unsafe fn dotc(n: c_int, x: *const Self, ix: c_int, y: *const Self, iy: c_int) -> Self {
                let mut r = Self::zero();
                unsafe { cb::$dotc(n, x.cast(), ix, y.cast(), iy, (&mut r as *mut Self).cast()) };
                r
            }
            unsafe fn asum(n: c_int, x: *const Self, ix: c_int) -> $r {
                // Σ |re| + |im|, computed here rather than by the BLAS:
                // Debian's OpenBLAS 0.3.21 gets scasum wrong with the
                // kernels it picks on AVX-512 CPUs with BF16 (its
                // `Cooperlake` core, chosen on AMD Zen 4; fixed upstream in
                // 0.3.26), so no build's complex asum is trusted. Summed
                // in double precision (at least as accurate as a BLAS).
                if n <= 0 || ix <= 0 {
                    return 0.0;
                }
                let mut sum = 0.0f64;
                for i in 0..n as usize {
                    // SAFETY: `x` holds `n` elements `ix` apart.
                    sum += unsafe { *x.add(i * ix as usize) }.abs1();
                }
                sum as $r
            }
            blas_routines!(p; $($routine),*);
        }
    };
}

complex_elem!(Complex32, f32, cblas_cdotu_sub, cblas_cdotc_sub;
    cblas_caxpy, cblas_cscal, cblas_ccopy, cblas_cswap, cblas_scnrm2, cblas_icamax, cblas_cgemv,
    cblas_cgeru, cblas_cgerc, cblas_ctrsv, cblas_cgemm, cblas_csymm, cblas_csyrk, cblas_ctrsm,
    cblas_ctrmm);
complex_elem!(Complex64, f64, cblas_zdotu_sub, cblas_zdotc_sub;
    cblas_zaxpy, cblas_zscal, cblas_zcopy, cblas_zswap, cblas_dznrm2, cblas_izamax, cblas_zgemv,
    cblas_zgeru, cblas_zgerc, cblas_ztrsv, cblas_zgemm, cblas_zsymm, cblas_zsyrk, cblas_ztrsm,
    cblas_ztrmm);
