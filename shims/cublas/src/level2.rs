//! Level 2: matrix-vector routines (gemv, ger/geru/gerc, symv, trsv).
//!
//! Argument checks are cuBLAS's: negative sizes, zero increments, a leading
//! dimension below `max(1, rows)` and unknown enums are
//! `CUBLAS_STATUS_INVALID_VALUE`, as is a NULL scalar.

use std::ffi::c_int;

use crate::call::*;
use crate::elem::Elem;
use crate::types::*;

#[allow(clippy::too_many_arguments)]
fn gemv<T: Elem>(
    h: cublasHandle_t,
    trans: cublasOperation_t,
    m: c_int,
    n: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    x: *const T,
    incx: c_int,
    beta: *const T,
    y: *mut T,
    incy: c_int,
) -> Status {
    let s = settings(h)?;
    let t = op(trans)?;
    require(m >= 0 && n >= 0 && incx != 0 && incy != 0 && lda >= ld_min(m))?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (a, x, y) = (Ptr::c(a), Ptr::c(x), Ptr(y));
    run(&s, false, move || {
        // SAFETY: cuBLAS's contract on A (lda x n), x and y.
        unsafe {
            T::gemv(
                t,
                m,
                n,
                al.value(),
                a.get(),
                lda,
                x.get(),
                incx,
                be.value(),
                y.m(),
                incy,
            )
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn ger<T: Elem>(
    h: cublasHandle_t,
    m: c_int,
    n: c_int,
    alpha: *const T,
    x: *const T,
    incx: c_int,
    y: *const T,
    incy: c_int,
    a: *mut T,
    lda: c_int,
    conj: bool,
) -> Status {
    let s = settings(h)?;
    require(m >= 0 && n >= 0 && incx != 0 && incy != 0 && lda >= ld_min(m))?;
    let al = Scalar::capture(&s, alpha)?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (x, y, a) = (Ptr::c(x), Ptr::c(y), Ptr(a));
    run(&s, false, move || {
        // SAFETY: cuBLAS's contract on x, y and A (lda x n).
        unsafe {
            if conj {
                T::gerc(m, n, al.value(), x.get(), incx, y.get(), incy, a.m(), lda)
            } else {
                T::geru(m, n, al.value(), x.get(), incx, y.get(), incy, a.m(), lda)
            }
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn symv<T: Elem>(
    h: cublasHandle_t,
    fill: cublasFillMode_t,
    n: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    x: *const T,
    incx: c_int,
    beta: *const T,
    y: *mut T,
    incy: c_int,
) -> Status {
    let s = settings(h)?;
    let upper = matches!(uplo(fill)?, cblas_sys::CblasUpper);
    require(n >= 0 && incx != 0 && incy != 0 && lda >= ld_min(n))?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if n == 0 {
        return Ok(());
    }
    let (a, x, y) = (Ptr::c(a), Ptr::c(x), Ptr(y));
    run(&s, false, move || {
        // SAFETY: cuBLAS's contract on A (lda x n), x and y.
        unsafe {
            T::symv(
                upper,
                n,
                al.value(),
                a.get(),
                lda,
                x.get(),
                incx,
                be.value(),
                y.m(),
                incy,
            )
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn trsv<T: Elem>(
    h: cublasHandle_t,
    fill: cublasFillMode_t,
    trans: cublasOperation_t,
    dg: cublasDiagType_t,
    n: c_int,
    a: *const T,
    lda: c_int,
    x: *mut T,
    incx: c_int,
) -> Status {
    let s = settings(h)?;
    let (u, t, d) = (uplo(fill)?, op(trans)?, diag(dg)?);
    require(n >= 0 && incx != 0 && lda >= ld_min(n))?;
    if n == 0 {
        return Ok(());
    }
    let (a, x) = (Ptr::c(a), Ptr(x));
    // SAFETY: cuBLAS's contract on A (lda x n) and x.
    run(&s, false, move || unsafe {
        T::trsv(u, t, d, n, a.get(), lda, x.m(), incx)
    })
}

macro_rules! level2_api {
    ($t:ty, $gemv:ident, $symv:ident, $trsv:ident) => {
        api!(
            concat!("`y = alpha * op(A) * x + beta * y` (", stringify!($t), ")."),
            fn $gemv(
                h: cublasHandle_t,
                trans: cublasOperation_t,
                m: c_int,
                n: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                x: *const $t,
                incx: c_int,
                beta: *const $t,
                y: *mut $t,
                incy: c_int,
            ) {
                gemv::<$t>(h, trans, m, n, alpha, a, lda, x, incx, beta, y, incy)
            }
        );
        api!(
            concat!(
                "`y = alpha * A * x + beta * y`, A symmetric (",
                stringify!($t),
                ")."
            ),
            fn $symv(
                h: cublasHandle_t,
                fill: cublasFillMode_t,
                n: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                x: *const $t,
                incx: c_int,
                beta: *const $t,
                y: *mut $t,
                incy: c_int,
            ) {
                symv::<$t>(h, fill, n, alpha, a, lda, x, incx, beta, y, incy)
            }
        );
        api!(
            concat!(
                "Solves `op(A) * x = b` in place, A triangular (",
                stringify!($t),
                ")."
            ),
            fn $trsv(
                h: cublasHandle_t,
                fill: cublasFillMode_t,
                trans: cublasOperation_t,
                dg: cublasDiagType_t,
                n: c_int,
                a: *const $t,
                lda: c_int,
                x: *mut $t,
                incx: c_int,
            ) {
                trsv::<$t>(h, fill, trans, dg, n, a, lda, x, incx)
            }
        );
    };
}

level2_api!(f32, cublasSgemv_v2, cublasSsymv_v2, cublasStrsv_v2);
level2_api!(f64, cublasDgemv_v2, cublasDsymv_v2, cublasDtrsv_v2);
level2_api!(Complex32, cublasCgemv_v2, cublasCsymv_v2, cublasCtrsv_v2);
level2_api!(Complex64, cublasZgemv_v2, cublasZsymv_v2, cublasZtrsv_v2);

macro_rules! ger_api {
    ($t:ty, $name:ident, $conj:expr, $doc:expr) => {
        api!(
            $doc,
            fn $name(
                h: cublasHandle_t,
                m: c_int,
                n: c_int,
                alpha: *const $t,
                x: *const $t,
                incx: c_int,
                y: *const $t,
                incy: c_int,
                a: *mut $t,
                lda: c_int,
            ) {
                ger::<$t>(h, m, n, alpha, x, incx, y, incy, a, lda, $conj)
            }
        );
    };
}

ger_api!(f32, cublasSger_v2, false, "`A += alpha * x * y^T` (float).");
ger_api!(
    f64,
    cublasDger_v2,
    false,
    "`A += alpha * x * y^T` (double)."
);
ger_api!(
    Complex32,
    cublasCgeru_v2,
    false,
    "`A += alpha * x * y^T` (cuComplex)."
);
ger_api!(
    Complex32,
    cublasCgerc_v2,
    true,
    "`A += alpha * x * y^H` (cuComplex)."
);
ger_api!(
    Complex64,
    cublasZgeru_v2,
    false,
    "`A += alpha * x * y^T` (cuDoubleComplex)."
);
ger_api!(
    Complex64,
    cublasZgerc_v2,
    true,
    "`A += alpha * x * y^H` (cuDoubleComplex)."
);
