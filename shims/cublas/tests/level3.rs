//! Level 3 and the GEMM extensions against naive references: every
//! transpose combination, leading dimensions above the row count, all four
//! precisions, both pointer modes, and cuBLAS's argument errors.

mod common;

use std::ffi::c_int;

use common::*;
use cublas::extensions::*;
use cublas::handle::*;
use cublas::level3::*;
use cublas::types::*;

type H = cublasHandle_t;

/// The routines of one precision.
#[allow(clippy::type_complexity)]
trait L3: E {
    const GEMM: unsafe extern "C" fn(
        H,
        i32,
        i32,
        c_int,
        c_int,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *const Self,
        c_int,
        *const Self,
        *mut Self,
        c_int,
    ) -> i32;
    const SYMM: unsafe extern "C" fn(
        H,
        i32,
        i32,
        c_int,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *const Self,
        c_int,
        *const Self,
        *mut Self,
        c_int,
    ) -> i32;
    const SYRK: unsafe extern "C" fn(
        H,
        i32,
        i32,
        c_int,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *const Self,
        *mut Self,
        c_int,
    ) -> i32;
    const TRSM: unsafe extern "C" fn(
        H,
        i32,
        i32,
        i32,
        i32,
        c_int,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *mut Self,
        c_int,
    ) -> i32;
    const TRMM: unsafe extern "C" fn(
        H,
        i32,
        i32,
        i32,
        i32,
        c_int,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *const Self,
        c_int,
        *mut Self,
        c_int,
    ) -> i32;
    const GEAM: unsafe extern "C" fn(
        H,
        i32,
        i32,
        c_int,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *mut Self,
        c_int,
    ) -> i32;
    const BATCHED: unsafe extern "C" fn(
        H,
        i32,
        i32,
        c_int,
        c_int,
        c_int,
        *const Self,
        *const *const Self,
        c_int,
        *const *const Self,
        c_int,
        *const Self,
        *const *mut Self,
        c_int,
        c_int,
    ) -> i32;
    const STRIDED: unsafe extern "C" fn(
        H,
        i32,
        i32,
        c_int,
        c_int,
        c_int,
        *const Self,
        *const Self,
        c_int,
        i64,
        *const Self,
        c_int,
        i64,
        *const Self,
        *mut Self,
        c_int,
        i64,
        c_int,
    ) -> i32;
}

macro_rules! l3 {
    ($t:ty, $g:ident, $sy:ident, $rk:ident, $sm:ident, $mm:ident, $ge:ident, $b:ident, $s:ident) => {
        impl L3 for $t {
            const GEMM: unsafe extern "C" fn(
                H,
                i32,
                i32,
                c_int,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *const Self,
                *mut Self,
                c_int,
            ) -> i32 = $g;
            const SYMM: unsafe extern "C" fn(
                H,
                i32,
                i32,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *const Self,
                *mut Self,
                c_int,
            ) -> i32 = $sy;
            const SYRK: unsafe extern "C" fn(
                H,
                i32,
                i32,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                *mut Self,
                c_int,
            ) -> i32 = $rk;
            const TRSM: unsafe extern "C" fn(
                H,
                i32,
                i32,
                i32,
                i32,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $sm;
            const TRMM: unsafe extern "C" fn(
                H,
                i32,
                i32,
                i32,
                i32,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $mm;
            const GEAM: unsafe extern "C" fn(
                H,
                i32,
                i32,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $ge;
            const BATCHED: unsafe extern "C" fn(
                H,
                i32,
                i32,
                c_int,
                c_int,
                c_int,
                *const Self,
                *const *const Self,
                c_int,
                *const *const Self,
                c_int,
                *const Self,
                *const *mut Self,
                c_int,
                c_int,
            ) -> i32 = $b;
            const STRIDED: unsafe extern "C" fn(
                H,
                i32,
                i32,
                c_int,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                i64,
                *const Self,
                c_int,
                i64,
                *const Self,
                *mut Self,
                c_int,
                i64,
                c_int,
            ) -> i32 = $s;
        }
    };
}

l3!(
    f32,
    cublasSgemm_v2,
    cublasSsymm_v2,
    cublasSsyrk_v2,
    cublasStrsm_v2,
    cublasStrmm_v2,
    cublasSgeam,
    cublasSgemmBatched,
    cublasSgemmStridedBatched
);
l3!(
    f64,
    cublasDgemm_v2,
    cublasDsymm_v2,
    cublasDsyrk_v2,
    cublasDtrsm_v2,
    cublasDtrmm_v2,
    cublasDgeam,
    cublasDgemmBatched,
    cublasDgemmStridedBatched
);
l3!(
    Complex32,
    cublasCgemm_v2,
    cublasCsymm_v2,
    cublasCsyrk_v2,
    cublasCtrsm_v2,
    cublasCtrmm_v2,
    cublasCgeam,
    cublasCgemmBatched,
    cublasCgemmStridedBatched
);
l3!(
    Complex64,
    cublasZgemm_v2,
    cublasZsymm_v2,
    cublasZsyrk_v2,
    cublasZtrsm_v2,
    cublasZtrmm_v2,
    cublasZgeam,
    cublasZgemmBatched,
    cublasZgemmStridedBatched
);

const OPS: [i32; 3] = [0, 1, 2];

fn alpha<T: E>() -> T {
    T::of(Cx::new(1.25, -0.5))
}
fn beta<T: E>() -> T {
    T::of(Cx::new(-0.75, 0.25))
}

/// Reference GEMM on the full ldc x n storage of C.
#[allow(clippy::too_many_arguments)]
fn gemm_ref<T: E>(
    ta: i32,
    tb: i32,
    m: usize,
    n: usize,
    k: usize,
    al: T,
    a: &[T],
    lda: usize,
    b: &[T],
    ldb: usize,
    be: T,
    c: &[T],
    ldc: usize,
) -> Vec<Cx> {
    let mut out: Vec<Cx> = c.iter().map(|v| v.cx()).collect();
    for j in 0..n {
        for i in 0..m {
            let mut acc = Cx::default();
            for p in 0..k {
                acc = acc.add(op_at(a, lda, ta, i, p).mul(op_at(b, ldb, tb, p, j)));
            }
            out[i + j * ldc] = al.cx().mul(acc).add(be.cx().mul(c[i + j * ldc].cx()));
        }
    }
    out
}

fn gemm_all<T: L3>() {
    let (m, n, k) = (7usize, 5usize, 3usize);
    for mode in MODES {
        let h = handle(mode);
        for ta in OPS {
            for tb in OPS {
                let (ar, ac) = if ta == 0 { (m, k) } else { (k, m) };
                let (br, bc) = if tb == 0 { (k, n) } else { (n, k) };
                let (lda, ldb, ldc) = (ar + 2, br + 1, m + 3);
                let a = data::<T>(lda * ac, 1);
                let b = data::<T>(ldb * bc, 2);
                let c0 = data::<T>(ldc * n, 3);
                let mut c = c0.clone();
                let (al, be) = (alpha::<T>(), beta::<T>());
                let mut sc = Scalars::new();
                let rc = unsafe {
                    T::GEMM(
                        h,
                        ta,
                        tb,
                        m as c_int,
                        n as c_int,
                        k as c_int,
                        sp(mode, &mut sc, &al),
                        a.as_ptr(),
                        lda as c_int,
                        b.as_ptr(),
                        ldb as c_int,
                        sp(mode, &mut sc, &be),
                        c.as_mut_ptr(),
                        ldc as c_int,
                    )
                };
                assert_eq!(rc, CUBLAS_STATUS_SUCCESS);
                sync(h);
                let want = gemm_ref(ta, tb, m, n, k, al, &a, lda, &b, ldb, be, &c0, ldc);
                assert_close(&c, &want, &format!("gemm ta={ta} tb={tb} mode={mode}"));
            }
        }
        assert_eq!(cublasDestroy_v2(h), 0);
    }
}

#[test]
fn gemm_every_transpose_and_precision() {
    gemm_all::<f32>();
    gemm_all::<f64>();
    gemm_all::<Complex32>();
    gemm_all::<Complex64>();
}

/// beta == 0 must not read C (NaN stays out), as in BLAS.
#[test]
fn gemm_beta_zero_ignores_c() {
    let h = handle(POINTER_MODE_HOST);
    let a = data::<f64>(4, 1);
    let b = data::<f64>(4, 2);
    let mut c = vec![f64::NAN; 4];
    let (one, zero) = (1.0f64, 0.0f64);
    let rc = unsafe {
        cublasDgemm_v2(
            h,
            0,
            0,
            2,
            2,
            2,
            &one,
            a.as_ptr(),
            2,
            b.as_ptr(),
            2,
            &zero,
            c.as_mut_ptr(),
            2,
        )
    };
    assert_eq!(rc, 0);
    sync(h);
    let want = gemm_ref(0, 0, 2, 2, 2, 1.0, &a, 2, &b, 2, 0.0, &[0.0; 4], 2);
    assert_close(&c, &want, "beta=0");
    cublasDestroy_v2(h);
}

#[test]
fn gemm_argument_errors() {
    let h = handle(POINTER_MODE_HOST);
    let buf = vec![0.0f32; 64];
    let mut c = vec![0.0f32; 64];
    let one = 1.0f32;
    let call = |ta: i32,
                tb: i32,
                m: i32,
                n: i32,
                k: i32,
                lda: i32,
                ldb: i32,
                ldc: i32,
                c: &mut Vec<f32>| unsafe {
        cublasSgemm_v2(
            h,
            ta,
            tb,
            m,
            n,
            k,
            &one,
            buf.as_ptr(),
            lda,
            buf.as_ptr(),
            ldb,
            &one,
            c.as_mut_ptr(),
            ldc,
        )
    };
    let bad = CUBLAS_STATUS_INVALID_VALUE;
    assert_eq!(call(0, 0, -1, 2, 2, 2, 2, 2, &mut c), bad);
    assert_eq!(call(0, 0, 2, -1, 2, 2, 2, 2, &mut c), bad);
    assert_eq!(call(0, 0, 2, 2, -1, 2, 2, 2, &mut c), bad);
    assert_eq!(call(3, 0, 2, 2, 2, 2, 2, 2, &mut c), bad, "CUBLAS_OP_CONJG");
    assert_eq!(call(0, 7, 2, 2, 2, 2, 2, 2, &mut c), bad);
    assert_eq!(call(0, 0, 4, 2, 3, 3, 3, 4, &mut c), bad, "lda < m");
    assert_eq!(call(1, 0, 4, 2, 3, 2, 3, 4, &mut c), bad, "lda < k for A^T");
    assert_eq!(call(0, 0, 4, 2, 3, 4, 2, 4, &mut c), bad, "ldb < k");
    assert_eq!(call(0, 1, 4, 2, 3, 4, 1, 4, &mut c), bad, "ldb < n for B^T");
    assert_eq!(call(0, 0, 4, 2, 3, 4, 3, 3, &mut c), bad, "ldc < m");
    assert_eq!(call(0, 0, 0, 0, 0, 0, 0, 0, &mut c), bad, "ld < 1");
    assert_eq!(call(0, 0, 0, 0, 0, 1, 1, 1, &mut c), CUBLAS_STATUS_SUCCESS);
    // Transposed A with lda == k is fine; m == 0 is a quick return.
    assert_eq!(call(1, 0, 4, 2, 3, 3, 3, 4, &mut c), CUBLAS_STATUS_SUCCESS);
    let rc = unsafe {
        cublasSgemm_v2(
            h,
            0,
            0,
            2,
            2,
            2,
            std::ptr::null(),
            buf.as_ptr(),
            2,
            buf.as_ptr(),
            2,
            &one,
            c.as_mut_ptr(),
            2,
        )
    };
    assert_eq!(rc, bad, "NULL alpha");
    let rc = unsafe {
        cublasSgemm_v2(
            std::ptr::null_mut(),
            0,
            0,
            2,
            2,
            2,
            &one,
            buf.as_ptr(),
            2,
            buf.as_ptr(),
            2,
            &one,
            c.as_mut_ptr(),
            2,
        )
    };
    assert_eq!(rc, CUBLAS_STATUS_NOT_INITIALIZED);
    sync(h);
    cublasDestroy_v2(h);
    let rc = unsafe {
        cublasSgemm_v2(
            h,
            0,
            0,
            2,
            2,
            2,
            &one,
            buf.as_ptr(),
            2,
            buf.as_ptr(),
            2,
            &one,
            c.as_mut_ptr(),
            2,
        )
    };
    assert_eq!(rc, CUBLAS_STATUS_NOT_INITIALIZED, "destroyed handle");
}

fn symm_all<T: L3>() {
    let (m, n) = (7usize, 5usize);
    for mode in MODES {
        let h = handle(mode);
        for side in [0, 1] {
            for uplo in [0, 1] {
                let ka = if side == 0 { m } else { n };
                let lda = ka + 2;
                let ldb = m + 1;
                let ldc = m + 2;
                let a = data::<T>(lda * ka, 4);
                let b = data::<T>(ldb * n, 5);
                let c0 = data::<T>(ldc * n, 6);
                let mut c = c0.clone();
                // The full symmetric matrix from the referenced triangle.
                let full: Vec<T> = (0..ka * ka)
                    .map(|idx| {
                        let (i, j) = (idx % ka, idx / ka);
                        let (r, cc) = if (i <= j) == (uplo == 1) {
                            (i, j)
                        } else {
                            (j, i)
                        };
                        a[r + cc * lda]
                    })
                    .collect();
                let (al, be) = (alpha::<T>(), beta::<T>());
                let mut sc = Scalars::new();
                let rc = unsafe {
                    T::SYMM(
                        h,
                        side,
                        uplo,
                        m as c_int,
                        n as c_int,
                        sp(mode, &mut sc, &al),
                        a.as_ptr(),
                        lda as c_int,
                        b.as_ptr(),
                        ldb as c_int,
                        sp(mode, &mut sc, &be),
                        c.as_mut_ptr(),
                        ldc as c_int,
                    )
                };
                assert_eq!(rc, 0);
                sync(h);
                let want = if side == 0 {
                    gemm_ref(0, 0, m, n, m, al, &full, ka, &b, ldb, be, &c0, ldc)
                } else {
                    gemm_ref(0, 0, m, n, n, al, &b, ldb, &full, ka, be, &c0, ldc)
                };
                assert_close(&c, &want, &format!("symm side={side} uplo={uplo}"));
            }
        }
        let x = [T::default(); 4];
        let mut y = [T::default(); 4];
        let one = T::of(Cx::new(1.0, 0.0));
        let mut sc = Scalars::new();
        let rc = unsafe {
            T::SYMM(
                h,
                0,
                2,
                2,
                2,
                sp(mode, &mut sc, &one),
                x.as_ptr(),
                2,
                x.as_ptr(),
                2,
                sp(mode, &mut sc, &one),
                y.as_mut_ptr(),
                2,
            )
        };
        assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "FULL fill mode");
        let rc = unsafe {
            T::SYMM(
                h,
                1,
                0,
                2,
                3,
                sp(mode, &mut sc, &one),
                x.as_ptr(),
                2,
                x.as_ptr(),
                2,
                sp(mode, &mut sc, &one),
                y.as_mut_ptr(),
                2,
            )
        };
        assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "lda < n on the right");
        sync(h);
        cublasDestroy_v2(h);
    }
}

#[test]
fn symm_sides_and_triangles() {
    symm_all::<f32>();
    symm_all::<f64>();
    symm_all::<Complex32>();
    symm_all::<Complex64>();
}

fn syrk_all<T: L3>() {
    let (n, k) = (5usize, 3usize);
    for mode in MODES {
        let h = handle(mode);
        for uplo in [0, 1] {
            for trans in OPS {
                let (ar, ac) = if trans == 0 { (n, k) } else { (k, n) };
                let lda = ar + 2;
                let ldc = n + 1;
                let a = data::<T>(lda * ac, 7);
                let c0 = data::<T>(ldc * n, 8);
                let mut c = c0.clone();
                let (al, be) = (alpha::<T>(), beta::<T>());
                let mut sc = Scalars::new();
                let rc = unsafe {
                    T::SYRK(
                        h,
                        uplo,
                        trans,
                        n as c_int,
                        k as c_int,
                        sp(mode, &mut sc, &al),
                        a.as_ptr(),
                        lda as c_int,
                        sp(mode, &mut sc, &be),
                        c.as_mut_ptr(),
                        ldc as c_int,
                    )
                };
                if trans == 2 && T::COMPLEX {
                    assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "complex syrk with OP_C");
                    continue;
                }
                assert_eq!(rc, 0);
                sync(h);
                // op(A) op(A)^T with a plain (unconjugated) transpose.
                let t = if trans == 0 { 0 } else { 1 };
                let at: Vec<T> = (0..k * n)
                    .map(|idx| T::of(op_at(&a, lda, t, idx / k, idx % k)))
                    .collect();
                let full = gemm_ref(t, 0, n, n, k, al, &a, lda, &at, k, be, &c0, ldc);
                let want: Vec<Cx> = (0..ldc * n)
                    .map(|idx| {
                        let (i, j) = (idx % ldc, idx / ldc);
                        let in_tri = i < n && if uplo == 1 { i <= j } else { i >= j };
                        if in_tri {
                            full[idx]
                        } else {
                            c0[idx].cx()
                        }
                    })
                    .collect();
                assert_close(&c, &want, &format!("syrk uplo={uplo} trans={trans}"));
            }
        }
        cublasDestroy_v2(h);
    }
}

#[test]
fn syrk_triangles_and_transposes() {
    syrk_all::<f32>();
    syrk_all::<f64>();
    syrk_all::<Complex32>();
    syrk_all::<Complex64>();
}

/// A well-conditioned triangular matrix (dominant diagonal) with garbage
/// in the other triangle, which must not be read.
fn tri<T: E>(k: usize, lda: usize, uplo: i32, seed: u64) -> Vec<T> {
    let mut a = data::<T>(lda * k, seed);
    for j in 0..k {
        for i in 0..k {
            let inside = if uplo == 1 { i <= j } else { i >= j };
            if i == j {
                a[i + j * lda] = T::of(Cx::new(4.0 + i as f64, 0.5));
            } else if !inside {
                a[i + j * lda] = T::of(Cx::new(1e6, -1e6));
            }
        }
    }
    a
}

/// The dense op(A) of a triangular A (unit diagonal if `diag == 1`).
fn tri_dense<T: E>(a: &[T], k: usize, lda: usize, uplo: i32, op: i32, diag: i32) -> Vec<T> {
    let mut d = vec![T::default(); k * k];
    for j in 0..k {
        for i in 0..k {
            let inside = if uplo == 1 { i <= j } else { i >= j };
            let v = if i == j && diag == 1 {
                Cx::new(1.0, 0.0)
            } else if inside {
                a[i + j * lda].cx()
            } else {
                Cx::default()
            };
            d[i + j * k] = T::of(v);
        }
    }
    (0..k * k)
        .map(|idx| T::of(op_at(&d, k, op, idx % k, idx / k)))
        .collect()
}

fn trsm_trmm_all<T: L3>() {
    let (m, n) = (7usize, 5usize);
    for mode in MODES {
        let h = handle(mode);
        for side in [0, 1] {
            for uplo in [0, 1] {
                for trans in OPS {
                    for diag in [0, 1] {
                        let ka = if side == 0 { m } else { n };
                        let lda = ka + 1;
                        let ldb = m + 2;
                        let a = tri::<T>(ka, lda, uplo, 9);
                        let opa = tri_dense(&a, ka, lda, uplo, trans, diag);
                        let b0 = data::<T>(ldb * n, 10);
                        let al = alpha::<T>();
                        let zero = T::default();
                        let what = format!(
                            "side={side} uplo={uplo} trans={trans} diag={diag} mode={mode}"
                        );
                        // trmm out of place: C = alpha op(A) B.
                        let ldc = m + 3;
                        let mut c = data::<T>(ldc * n, 11);
                        let mut sc = Scalars::new();
                        let rc = unsafe {
                            T::TRMM(
                                h,
                                side,
                                uplo,
                                trans,
                                diag,
                                m as c_int,
                                n as c_int,
                                sp(mode, &mut sc, &al),
                                a.as_ptr(),
                                lda as c_int,
                                b0.as_ptr(),
                                ldb as c_int,
                                c.as_mut_ptr(),
                                ldc as c_int,
                            )
                        };
                        assert_eq!(rc, 0);
                        sync(h);
                        let full = if side == 0 {
                            gemm_ref(
                                0,
                                0,
                                m,
                                n,
                                m,
                                al,
                                &opa,
                                m,
                                &b0,
                                ldb,
                                zero,
                                &vec![zero; ldc * n],
                                ldc,
                            )
                        } else {
                            gemm_ref(
                                0,
                                0,
                                m,
                                n,
                                n,
                                al,
                                &b0,
                                ldb,
                                &opa,
                                n,
                                zero,
                                &vec![zero; ldc * n],
                                ldc,
                            )
                        };
                        let got: Vec<T> = (0..n)
                            .flat_map(|j| c[j * ldc..j * ldc + m].to_vec())
                            .collect();
                        let want: Vec<Cx> = (0..n)
                            .flat_map(|j| full[j * ldc..j * ldc + m].to_vec())
                            .collect();
                        assert_close(&got, &want, &format!("trmm {what}"));
                        // trmm in place (C == B).
                        let mut bb = b0.clone();
                        let rc = unsafe {
                            T::TRMM(
                                h,
                                side,
                                uplo,
                                trans,
                                diag,
                                m as c_int,
                                n as c_int,
                                sp(mode, &mut sc, &al),
                                a.as_ptr(),
                                lda as c_int,
                                bb.as_ptr(),
                                ldb as c_int,
                                bb.as_mut_ptr(),
                                ldb as c_int,
                            )
                        };
                        assert_eq!(rc, 0);
                        sync(h);
                        let got: Vec<T> = (0..n)
                            .flat_map(|j| bb[j * ldb..j * ldb + m].to_vec())
                            .collect();
                        assert_close(&got, &want, &format!("trmm in place {what}"));
                        // trsm: X with op(A) X = alpha B (or X op(A) = alpha B).
                        let mut x = b0.clone();
                        let rc = unsafe {
                            T::TRSM(
                                h,
                                side,
                                uplo,
                                trans,
                                diag,
                                m as c_int,
                                n as c_int,
                                sp(mode, &mut sc, &al),
                                a.as_ptr(),
                                lda as c_int,
                                x.as_mut_ptr(),
                                ldb as c_int,
                            )
                        };
                        assert_eq!(rc, 0);
                        sync(h);
                        let back = if side == 0 {
                            gemm_ref(
                                0,
                                0,
                                m,
                                n,
                                m,
                                T::of(Cx::new(1.0, 0.0)),
                                &opa,
                                m,
                                &x,
                                ldb,
                                zero,
                                &vec![zero; ldb * n],
                                ldb,
                            )
                        } else {
                            gemm_ref(
                                0,
                                0,
                                m,
                                n,
                                n,
                                T::of(Cx::new(1.0, 0.0)),
                                &x,
                                ldb,
                                &opa,
                                n,
                                zero,
                                &vec![zero; ldb * n],
                                ldb,
                            )
                        };
                        let got: Vec<T> = (0..n)
                            .flat_map(|j| (0..m).map(move |i| (i, j)))
                            .map(|(i, j)| T::of(back[i + j * ldb]))
                            .collect();
                        let want: Vec<Cx> = (0..n)
                            .flat_map(|j| (0..m).map(move |i| (i, j)))
                            .map(|(i, j)| al.cx().mul(b0[i + j * ldb].cx()))
                            .collect();
                        assert_close(&got, &want, &format!("trsm {what}"));
                    }
                }
            }
        }
        let z = [T::default(); 4];
        let mut w = [T::default(); 4];
        let one = T::of(Cx::new(1.0, 0.0));
        let rc = unsafe { T::TRSM(h, 0, 0, 0, 2, 2, 2, &one, z.as_ptr(), 2, w.as_mut_ptr(), 2) };
        assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "bad diag");
        let rc = unsafe {
            T::TRMM(
                h,
                0,
                0,
                0,
                0,
                2,
                2,
                &one,
                z.as_ptr(),
                2,
                z.as_ptr(),
                2,
                w.as_mut_ptr(),
                1,
            )
        };
        assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "ldc < m");
        cublasDestroy_v2(h);
    }
}

#[test]
fn trsm_and_trmm_every_variant() {
    trsm_trmm_all::<f32>();
    trsm_trmm_all::<f64>();
    trsm_trmm_all::<Complex32>();
    trsm_trmm_all::<Complex64>();
}

fn geam_all<T: L3>() {
    let (m, n) = (7usize, 5usize);
    for mode in MODES {
        let h = handle(mode);
        for ta in OPS {
            for tb in OPS {
                let lda = if ta == 0 { m + 1 } else { n + 2 };
                let ldb = if tb == 0 { m + 2 } else { n + 1 };
                let ldc = m + 1;
                let a = data::<T>(lda * if ta == 0 { n } else { m }, 12);
                let b = data::<T>(ldb * if tb == 0 { n } else { m }, 13);
                let mut c = data::<T>(ldc * n, 14);
                let (al, be) = (alpha::<T>(), beta::<T>());
                let mut sc = Scalars::new();
                let rc = unsafe {
                    T::GEAM(
                        h,
                        ta,
                        tb,
                        m as c_int,
                        n as c_int,
                        sp(mode, &mut sc, &al),
                        a.as_ptr(),
                        lda as c_int,
                        sp(mode, &mut sc, &be),
                        b.as_ptr(),
                        ldb as c_int,
                        c.as_mut_ptr(),
                        ldc as c_int,
                    )
                };
                assert_eq!(rc, 0);
                sync(h);
                let got: Vec<T> = (0..n)
                    .flat_map(|j| c[j * ldc..j * ldc + m].to_vec())
                    .collect();
                let want: Vec<Cx> = (0..n)
                    .flat_map(|j| (0..m).map(move |i| (i, j)))
                    .map(|(i, j)| {
                        al.cx()
                            .mul(op_at(&a, lda, ta, i, j))
                            .add(be.cx().mul(op_at(&b, ldb, tb, i, j)))
                    })
                    .collect();
                assert_close(&got, &want, &format!("geam ta={ta} tb={tb}"));
            }
        }
        // In place: C == A (untransposed, lda == ldc) and C == B.
        let ld = m + 1;
        let a0 = data::<T>(ld * n, 15);
        let b = data::<T>(ld * n, 16);
        let (al, be) = (alpha::<T>(), beta::<T>());
        let mut sc = Scalars::new();
        let mut ca = a0.clone();
        let rc = unsafe {
            T::GEAM(
                h,
                0,
                0,
                m as c_int,
                n as c_int,
                sp(mode, &mut sc, &al),
                ca.as_ptr(),
                ld as c_int,
                sp(mode, &mut sc, &be),
                b.as_ptr(),
                ld as c_int,
                ca.as_mut_ptr(),
                ld as c_int,
            )
        };
        assert_eq!(rc, 0);
        let mut cb = b.clone();
        let rc = unsafe {
            T::GEAM(
                h,
                0,
                0,
                m as c_int,
                n as c_int,
                sp(mode, &mut sc, &al),
                a0.as_ptr(),
                ld as c_int,
                sp(mode, &mut sc, &be),
                cb.as_ptr(),
                ld as c_int,
                cb.as_mut_ptr(),
                ld as c_int,
            )
        };
        assert_eq!(rc, 0);
        sync(h);
        let want: Vec<Cx> = (0..n)
            .flat_map(|j| (0..m).map(move |i| i + j * ld))
            .map(|idx| al.cx().mul(a0[idx].cx()).add(be.cx().mul(b[idx].cx())))
            .collect();
        for got in [&ca, &cb] {
            let g: Vec<T> = (0..n)
                .flat_map(|j| got[j * ld..j * ld + m].to_vec())
                .collect();
            assert_close(&g, &want, "geam in place");
        }
        // In place with a transposed operand or another leading dimension: refused.
        let mut sq = data::<T>(8 * 8, 17);
        let p = sq.as_mut_ptr();
        let rc = unsafe {
            T::GEAM(
                h,
                1,
                0,
                4,
                4,
                sp(mode, &mut sc, &al),
                p,
                8,
                sp(mode, &mut sc, &be),
                b.as_ptr(),
                8,
                p,
                8,
            )
        };
        assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "C == A transposed");
        let rc = unsafe {
            T::GEAM(
                h,
                0,
                0,
                4,
                4,
                sp(mode, &mut sc, &al),
                b.as_ptr(),
                8,
                sp(mode, &mut sc, &be),
                p,
                8,
                p,
                4,
            )
        };
        assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "C == B with ldb != ldc");
        sync(h);
        cublasDestroy_v2(h);
    }
}

#[test]
fn geam_transposes_and_in_place() {
    geam_all::<f32>();
    geam_all::<f64>();
    geam_all::<Complex32>();
    geam_all::<Complex64>();
}

fn batched_all<T: L3>() {
    let (m, n, k, count) = (4usize, 3usize, 5usize, 3usize);
    for mode in MODES {
        let h = handle(mode);
        let (ta, tb) = (1, 2);
        let (lda, ldb, ldc) = (k + 1, n + 1, m + 2);
        let (sa, sb, scc) = (lda * m + 3, ldb * k + 1, ldc * n + 2);
        let a = data::<T>(sa * count, 18);
        let b = data::<T>(sb * count, 19);
        let c0 = data::<T>(scc * count, 20);
        let (al, be) = (alpha::<T>(), beta::<T>());
        let mut sc = Scalars::new();
        let mut c1 = c0.clone();
        let rc = unsafe {
            T::STRIDED(
                h,
                ta,
                tb,
                m as c_int,
                n as c_int,
                k as c_int,
                sp(mode, &mut sc, &al),
                a.as_ptr(),
                lda as c_int,
                sa as i64,
                b.as_ptr(),
                ldb as c_int,
                sb as i64,
                sp(mode, &mut sc, &be),
                c1.as_mut_ptr(),
                ldc as c_int,
                scc as i64,
                count as c_int,
            )
        };
        assert_eq!(rc, 0);
        let mut c2 = c0.clone();
        let ap: Vec<*const T> = (0..count).map(|i| a[i * sa..].as_ptr()).collect();
        let bp: Vec<*const T> = (0..count).map(|i| b[i * sb..].as_ptr()).collect();
        let cp: Vec<*mut T> = (0..count).map(|i| c2[i * scc..].as_mut_ptr()).collect();
        let rc = unsafe {
            T::BATCHED(
                h,
                ta,
                tb,
                m as c_int,
                n as c_int,
                k as c_int,
                sp(mode, &mut sc, &al),
                ap.as_ptr(),
                lda as c_int,
                bp.as_ptr(),
                ldb as c_int,
                sp(mode, &mut sc, &be),
                cp.as_ptr(),
                ldc as c_int,
                count as c_int,
            )
        };
        assert_eq!(rc, 0);
        sync(h);
        for i in 0..count {
            let want = gemm_ref(
                ta,
                tb,
                m,
                n,
                k,
                al,
                &a[i * sa..],
                lda,
                &b[i * sb..],
                ldb,
                be,
                &c0[i * scc..i * scc + ldc * n],
                ldc,
            );
            assert_close(&c1[i * scc..i * scc + ldc * n], &want, "gemmStridedBatched");
            assert_close(&c2[i * scc..i * scc + ldc * n], &want, "gemmBatched");
        }
        let rc = unsafe {
            T::STRIDED(
                h,
                0,
                0,
                2,
                2,
                2,
                sp(mode, &mut sc, &al),
                a.as_ptr(),
                2,
                4,
                b.as_ptr(),
                2,
                4,
                sp(mode, &mut sc, &be),
                c1.as_mut_ptr(),
                2,
                4,
                -1,
            )
        };
        assert_eq!(rc, CUBLAS_STATUS_INVALID_VALUE, "batchCount < 0");
        sync(h);
        cublasDestroy_v2(h);
    }
}

#[test]
fn batched_gemm_both_forms() {
    batched_all::<f32>();
    batched_all::<f64>();
    batched_all::<Complex32>();
    batched_all::<Complex64>();
}
