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

macro_rules! real_elem {
    ($t:ty, $s:ident, $axpy:ident, $scal:ident, $copy:ident, $swap:ident, $dot:ident,
     $nrm2:ident, $asum:ident, $iamax:ident, $gemv:ident, $ger:ident, $symv:ident,
     $trsv:ident, $gemm:ident, $symm:ident, $syrk:ident, $trsm:ident, $trmm:ident) => {
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
            unsafe fn axpy(n: c_int, a: Self, x: *const Self, ix: c_int, y: *mut Self, iy: c_int) {
                unsafe { cb::$axpy(n, a, x, ix, y, iy) }
            }
            unsafe fn scal(n: c_int, a: Self, x: *mut Self, ix: c_int) {
                unsafe { cb::$scal(n, a, x, ix) }
            }
            unsafe fn copy(n: c_int, x: *const Self, ix: c_int, y: *mut Self, iy: c_int) {
                unsafe { cb::$copy(n, x, ix, y, iy) }
            }
            unsafe fn swap(n: c_int, x: *mut Self, ix: c_int, y: *mut Self, iy: c_int) {
                unsafe { cb::$swap(n, x, ix, y, iy) }
            }
            unsafe fn dotu(n: c_int, x: *const Self, ix: c_int, y: *const Self, iy: c_int) -> Self {
                unsafe { cb::$dot(n, x, ix, y, iy) }
            }
            unsafe fn dotc(n: c_int, x: *const Self, ix: c_int, y: *const Self, iy: c_int) -> Self {
                unsafe { cb::$dot(n, x, ix, y, iy) }
            }
            unsafe fn nrm2(n: c_int, x: *const Self, ix: c_int) -> $t {
                unsafe { cb::$nrm2(n, x, ix) }
            }
            unsafe fn asum(n: c_int, x: *const Self, ix: c_int) -> $t {
                unsafe { cb::$asum(n, x, ix) }
            }
            unsafe fn iamax(n: c_int, x: *const Self, ix: c_int) -> c_int {
                unsafe { cb::$iamax(n, x, ix) }
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
                unsafe { cb::$gemv(COL, t, m, n, alpha, a, lda, x, ix, beta, y, iy) }
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
                unsafe { cb::$ger(COL, m, n, alpha, x, ix, y, iy, a, lda) }
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
                unsafe { cb::$ger(COL, m, n, alpha, x, ix, y, iy, a, lda) }
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
                unsafe { cb::$trsv(COL, u, t, d, n, a, lda, x, ix) }
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
                unsafe { cb::$syrk(COL, u, t, n, k, alpha, a, lda, beta, c, ldc) }
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
                unsafe { cb::$trsm(COL, s, u, t, d, m, n, alpha, a, lda, b, ldb) }
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
                unsafe { cb::$trmm(COL, s, u, t, d, m, n, alpha, a, lda, b, ldb) }
            }
        }
    };
}

real_elem!(
    f32,
    s,
    cblas_saxpy,
    cblas_sscal,
    cblas_scopy,
    cblas_sswap,
    cblas_sdot,
    cblas_snrm2,
    cblas_sasum,
    cblas_isamax,
    cblas_sgemv,
    cblas_sger,
    cblas_ssymv,
    cblas_strsv,
    cblas_sgemm,
    cblas_ssymm,
    cblas_ssyrk,
    cblas_strsm,
    cblas_strmm
);
real_elem!(
    f64,
    d,
    cblas_daxpy,
    cblas_dscal,
    cblas_dcopy,
    cblas_dswap,
    cblas_ddot,
    cblas_dnrm2,
    cblas_dasum,
    cblas_idamax,
    cblas_dgemv,
    cblas_dger,
    cblas_dsymv,
    cblas_dtrsv,
    cblas_dgemm,
    cblas_dsymm,
    cblas_dsyrk,
    cblas_dtrsm,
    cblas_dtrmm
);

macro_rules! complex_elem {
    ($t:ty, $r:ty, $c:ty, $axpy:ident, $scal:ident, $copy:ident, $swap:ident, $dotu:ident,
     $dotc:ident, $nrm2:ident, $asum:ident, $iamax:ident, $gemv:ident, $geru:ident,
     $gerc:ident, $trsv:ident, $gemm:ident, $symm:ident, $syrk:ident, $trsm:ident,
     $trmm:ident) => {
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
            unsafe fn axpy(n: c_int, a: Self, x: *const Self, ix: c_int, y: *mut Self, iy: c_int) {
                unsafe { cb::$axpy(n, p(&a), x.cast(), ix, y.cast(), iy) }
            }
            unsafe fn scal(n: c_int, a: Self, x: *mut Self, ix: c_int) {
                unsafe { cb::$scal(n, p(&a), x.cast(), ix) }
            }
            unsafe fn copy(n: c_int, x: *const Self, ix: c_int, y: *mut Self, iy: c_int) {
                unsafe { cb::$copy(n, x.cast(), ix, y.cast(), iy) }
            }
            unsafe fn swap(n: c_int, x: *mut Self, ix: c_int, y: *mut Self, iy: c_int) {
                unsafe { cb::$swap(n, x.cast(), ix, y.cast(), iy) }
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
            unsafe fn nrm2(n: c_int, x: *const Self, ix: c_int) -> $r {
                unsafe { cb::$nrm2(n, x.cast(), ix) }
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
                unsafe {
                    cb::$gemv(
                        COL,
                        t,
                        m,
                        n,
                        p(&alpha),
                        a.cast(),
                        lda,
                        x.cast(),
                        ix,
                        p(&beta),
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
                unsafe {
                    cb::$geru(
                        COL,
                        m,
                        n,
                        p(&alpha),
                        x.cast(),
                        ix,
                        y.cast(),
                        iy,
                        a.cast(),
                        lda,
                    )
                }
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
                unsafe {
                    cb::$gerc(
                        COL,
                        m,
                        n,
                        p(&alpha),
                        x.cast(),
                        ix,
                        y.cast(),
                        iy,
                        a.cast(),
                        lda,
                    )
                }
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
                unsafe {
                    cb::$gemm(
                        COL,
                        ta,
                        tb,
                        m,
                        n,
                        k,
                        p(&alpha),
                        a.cast(),
                        lda,
                        b.cast(),
                        ldb,
                        p(&beta),
                        c.cast(),
                        ldc,
                    )
                }
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
                unsafe {
                    cb::$symm(
                        COL,
                        s,
                        u,
                        m,
                        n,
                        p(&alpha),
                        a.cast(),
                        lda,
                        b.cast(),
                        ldb,
                        p(&beta),
                        c.cast(),
                        ldc,
                    )
                }
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
                unsafe {
                    cb::$syrk(
                        COL,
                        u,
                        t,
                        n,
                        k,
                        p(&alpha),
                        a.cast(),
                        lda,
                        p(&beta),
                        c.cast(),
                        ldc,
                    )
                }
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
                unsafe {
                    cb::$trsm(
                        COL,
                        s,
                        u,
                        t,
                        d,
                        m,
                        n,
                        p(&alpha),
                        a.cast(),
                        lda,
                        b.cast(),
                        ldb,
                    )
                }
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
                unsafe {
                    cb::$trmm(
                        COL,
                        s,
                        u,
                        t,
                        d,
                        m,
                        n,
                        p(&alpha),
                        a.cast(),
                        lda,
                        b.cast(),
                        ldb,
                    )
                }
            }
        }
    };
}

/// A complex scalar as the `*const [re, im]` cblas takes.
fn p<T, C>(v: &T) -> *const C {
    (v as *const T).cast()
}

complex_elem!(
    Complex32,
    f32,
    cb::c_float_complex,
    cblas_caxpy,
    cblas_cscal,
    cblas_ccopy,
    cblas_cswap,
    cblas_cdotu_sub,
    cblas_cdotc_sub,
    cblas_scnrm2,
    cblas_scasum,
    cblas_icamax,
    cblas_cgemv,
    cblas_cgeru,
    cblas_cgerc,
    cblas_ctrsv,
    cblas_cgemm,
    cblas_csymm,
    cblas_csyrk,
    cblas_ctrsm,
    cblas_ctrmm
);
complex_elem!(
    Complex64,
    f64,
    cb::c_double_complex,
    cblas_zaxpy,
    cblas_zscal,
    cblas_zcopy,
    cblas_zswap,
    cblas_zdotu_sub,
    cblas_zdotc_sub,
    cblas_dznrm2,
    cblas_dzasum,
    cblas_izamax,
    cblas_zgemv,
    cblas_zgeru,
    cblas_zgerc,
    cblas_ztrsv,
    cblas_zgemm,
    cblas_zsymm,
    cblas_zsyrk,
    cblas_ztrsm,
    cblas_ztrmm
);
