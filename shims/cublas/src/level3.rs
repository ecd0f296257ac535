//! Level 3: matrix-matrix routines (gemm, symm, syrk, trsm, trmm).

use std::ffi::c_int;

use cblas_sys::{self as cb, CBLAS_TRANSPOSE};

use crate::call::*;
use crate::elem::Elem;
use crate::types::*;

/// Checks GEMM's arguments as cuBLAS does and returns the two cblas
/// operations.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_check(
    transa: cublasOperation_t,
    transb: cublasOperation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    lda: c_int,
    ldb: c_int,
    ldc: c_int,
) -> Result<(CBLAS_TRANSPOSE, CBLAS_TRANSPOSE), cublasStatus_t> {
    let (ta, tb) = (op(transa)?, op(transb)?);
    require(m >= 0 && n >= 0 && k >= 0)?;
    require(lda >= ld_min(if is_n(ta) { m } else { k }))?;
    require(ldb >= ld_min(if is_n(tb) { k } else { n }))?;
    require(ldc >= ld_min(m))?;
    Ok((ta, tb))
}

/// `C = alpha * op(A) * op(B) + beta * C` (also used per batch entry).
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_now<T: Elem>(
    ta: CBLAS_TRANSPOSE,
    tb: CBLAS_TRANSPOSE,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: T,
    a: *const T,
    lda: c_int,
    b: *const T,
    ldb: c_int,
    beta: T,
    c: *mut T,
    ldc: c_int,
) {
    if m == 0 || n == 0 {
        return;
    }
    // SAFETY: the caller checked the arguments; the matrices are cuBLAS's
    // contract.
    unsafe { T::gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
}

#[allow(clippy::too_many_arguments)]
fn gemm<T: Elem>(
    h: cublasHandle_t,
    transa: cublasOperation_t,
    transb: cublasOperation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    b: *const T,
    ldb: c_int,
    beta: *const T,
    c: *mut T,
    ldc: c_int,
) -> Status {
    let s = settings(h)?;
    let (ta, tb) = gemm_check(transa, transb, m, n, k, lda, ldb, ldc)?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr(c));
    run(&s, false, move || {
        gemm_now(
            ta,
            tb,
            m,
            n,
            k,
            al.value(),
            a.get(),
            lda,
            b.get(),
            ldb,
            be.value(),
            c.m(),
            ldc,
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn symm<T: Elem>(
    h: cublasHandle_t,
    sd: cublasSideMode_t,
    fill: cublasFillMode_t,
    m: c_int,
    n: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    b: *const T,
    ldb: c_int,
    beta: *const T,
    c: *mut T,
    ldc: c_int,
) -> Status {
    let s = settings(h)?;
    let ((sd, left), u) = (side(sd)?, uplo(fill)?);
    require(m >= 0 && n >= 0)?;
    require(lda >= ld_min(if left { m } else { n }) && ldb >= ld_min(m) && ldc >= ld_min(m))?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr(c));
    run(&s, false, move || {
        // SAFETY: checked arguments; cuBLAS's contract on the matrices.
        unsafe {
            T::symm(
                sd,
                u,
                m,
                n,
                al.value(),
                a.get(),
                lda,
                b.get(),
                ldb,
                be.value(),
                c.m(),
                ldc,
            )
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn syrk<T: Elem>(
    h: cublasHandle_t,
    fill: cublasFillMode_t,
    trans: cublasOperation_t,
    n: c_int,
    k: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    beta: *const T,
    c: *mut T,
    ldc: c_int,
) -> Status {
    let s = settings(h)?;
    let u = uplo(fill)?;
    // Real types read `C` as `T`; complex syrk has no conjugate form.
    let t = match (op(trans)?, T::COMPLEX) {
        (cb::CblasConjTrans, true) => return Err(CUBLAS_STATUS_INVALID_VALUE),
        (cb::CblasConjTrans, false) => cb::CblasTrans,
        (t, _) => t,
    };
    require(n >= 0 && k >= 0)?;
    require(lda >= ld_min(if is_n(t) { n } else { k }) && ldc >= ld_min(n))?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if n == 0 {
        return Ok(());
    }
    let (a, c) = (Ptr::c(a), Ptr(c));
    run(&s, false, move || {
        // SAFETY: checked arguments; cuBLAS's contract on the matrices.
        unsafe { T::syrk(u, t, n, k, al.value(), a.get(), lda, be.value(), c.m(), ldc) }
    })
}

#[allow(clippy::too_many_arguments)]
fn trsm<T: Elem>(
    h: cublasHandle_t,
    sd: cublasSideMode_t,
    fill: cublasFillMode_t,
    trans: cublasOperation_t,
    dg: cublasDiagType_t,
    m: c_int,
    n: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    b: *mut T,
    ldb: c_int,
) -> Status {
    let s = settings(h)?;
    let ((sd, left), u, t, d) = (side(sd)?, uplo(fill)?, op(trans)?, diag(dg)?);
    require(m >= 0 && n >= 0)?;
    require(lda >= ld_min(if left { m } else { n }) && ldb >= ld_min(m))?;
    let al = Scalar::capture(&s, alpha)?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (a, b) = (Ptr::c(a), Ptr(b));
    run(&s, false, move || {
        // SAFETY: checked arguments; cuBLAS's contract on the matrices.
        unsafe { T::trsm(sd, u, t, d, m, n, al.value(), a.get(), lda, b.m(), ldb) }
    })
}

/// The v2 trmm: `C = alpha * op(A) * B` (or `B * op(A)`), out of place;
/// `C == B` (with `ldb == ldc`) is the in-place form.
/// Other overlaps of B and C are undefined, as in cuBLAS.
#[allow(clippy::too_many_arguments)]
fn trmm<T: Elem>(
    h: cublasHandle_t,
    sd: cublasSideMode_t,
    fill: cublasFillMode_t,
    trans: cublasOperation_t,
    dg: cublasDiagType_t,
    m: c_int,
    n: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    b: *const T,
    ldb: c_int,
    c: *mut T,
    ldc: c_int,
) -> Status {
    let s = settings(h)?;
    let ((sd, left), u, t, d) = (side(sd)?, uplo(fill)?, op(trans)?, diag(dg)?);
    require(m >= 0 && n >= 0)?;
    require(lda >= ld_min(if left { m } else { n }) && ldb >= ld_min(m) && ldc >= ld_min(m))?;
    let al = Scalar::capture(&s, alpha)?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr(c));
    run(&s, false, move || {
        if b.get() != c.get() {
            for j in 0..n as isize {
                // SAFETY: B and C hold m x n matrices with their leading dimensions.
                unsafe {
                    std::ptr::copy(
                        b.get().offset(j * ldb as isize),
                        c.m().offset(j * ldc as isize),
                        m as usize,
                    )
                };
            }
        }
        // SAFETY: checked arguments; cuBLAS's contract on the matrices.
        unsafe { T::trmm(sd, u, t, d, m, n, al.value(), a.get(), lda, c.m(), ldc) }
    })
}

macro_rules! level3_api {
    ($t:ty, $gemm:ident, $symm:ident, $syrk:ident, $trsm:ident, $trmm:ident) => {
        api!(
            concat!(
                "`C = alpha * op(A) * op(B) + beta * C` (",
                stringify!($t),
                ")."
            ),
            fn $gemm(
                h: cublasHandle_t,
                transa: cublasOperation_t,
                transb: cublasOperation_t,
                m: c_int,
                n: c_int,
                k: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                b: *const $t,
                ldb: c_int,
                beta: *const $t,
                c: *mut $t,
                ldc: c_int,
            ) {
                gemm::<$t>(
                    h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                )
            }
        );
        api!(
            concat!(
                "`C = alpha * A * B + beta * C` (or `B * A`), A symmetric (",
                stringify!($t),
                ")."
            ),
            fn $symm(
                h: cublasHandle_t,
                sd: cublasSideMode_t,
                fill: cublasFillMode_t,
                m: c_int,
                n: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                b: *const $t,
                ldb: c_int,
                beta: *const $t,
                c: *mut $t,
                ldc: c_int,
            ) {
                symm::<$t>(h, sd, fill, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
            }
        );
        api!(
            concat!(
                "`C = alpha * op(A) * op(A)^T + beta * C`, one triangle (",
                stringify!($t),
                ")."
            ),
            fn $syrk(
                h: cublasHandle_t,
                fill: cublasFillMode_t,
                trans: cublasOperation_t,
                n: c_int,
                k: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                beta: *const $t,
                c: *mut $t,
                ldc: c_int,
            ) {
                syrk::<$t>(h, fill, trans, n, k, alpha, a, lda, beta, c, ldc)
            }
        );
        api!(
            concat!(
                "Solves `op(A) X = alpha B` (or `X op(A)`) in place in B (",
                stringify!($t),
                ")."
            ),
            fn $trsm(
                h: cublasHandle_t,
                sd: cublasSideMode_t,
                fill: cublasFillMode_t,
                trans: cublasOperation_t,
                dg: cublasDiagType_t,
                m: c_int,
                n: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                b: *mut $t,
                ldb: c_int,
            ) {
                trsm::<$t>(h, sd, fill, trans, dg, m, n, alpha, a, lda, b, ldb)
            }
        );
        api!(
            concat!(
                "`C = alpha * op(A) * B` (or `B * op(A)`), A triangular (",
                stringify!($t),
                ")."
            ),
            fn $trmm(
                h: cublasHandle_t,
                sd: cublasSideMode_t,
                fill: cublasFillMode_t,
                trans: cublasOperation_t,
                dg: cublasDiagType_t,
                m: c_int,
                n: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                b: *const $t,
                ldb: c_int,
                c: *mut $t,
                ldc: c_int,
            ) {
                trmm::<$t>(h, sd, fill, trans, dg, m, n, alpha, a, lda, b, ldb, c, ldc)
            }
        );
    };
}

level3_api!(
    f32,
    cublasSgemm_v2,
    cublasSsymm_v2,
    cublasSsyrk_v2,
    cublasStrsm_v2,
    cublasStrmm_v2
);
level3_api!(
    f64,
    cublasDgemm_v2,
    cublasDsymm_v2,
    cublasDsyrk_v2,
    cublasDtrsm_v2,
    cublasDtrmm_v2
);
level3_api!(
    Complex32,
    cublasCgemm_v2,
    cublasCsymm_v2,
    cublasCsyrk_v2,
    cublasCtrsm_v2,
    cublasCtrmm_v2
);
level3_api!(
    Complex64,
    cublasZgemm_v2,
    cublasZsymm_v2,
    cublasZsyrk_v2,
    cublasZtrsm_v2,
    cublasZtrmm_v2
);
