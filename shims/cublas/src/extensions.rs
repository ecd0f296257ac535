//! The BLAS-like extensions: geam, batched GEMM (pointer arrays and
//! strided), and mixed-precision GEMM (`cublasGemmEx`, `cublasSgemmEx`,
//! `cublasHgemm` and their batched forms).
//!
//! Half (FP16) and bfloat16 matrices are converted to `f32`, multiplied by
//! OpenBLAS's sgemm and converted back, so results are at least as accurate
//! as cuBLAS's (which may accumulate in half for `CUBLAS_COMPUTE_16F`).

use std::ffi::{c_int, c_longlong, c_void};

use cblas_sys::{self as cb, CBLAS_TRANSPOSE};
use half::{bf16, f16};

use crate::call::*;
use crate::elem::Elem;
use crate::level3::{gemm_check, gemm_now};
use crate::types::*;

// ---------------------------------------------------------------- geam

#[allow(clippy::too_many_arguments)]
fn geam<T: Elem>(
    h: cublasHandle_t,
    transa: cublasOperation_t,
    transb: cublasOperation_t,
    m: c_int,
    n: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    beta: *const T,
    b: *const T,
    ldb: c_int,
    c: *mut T,
    ldc: c_int,
) -> Status {
    let s = settings(h)?;
    let (ta, tb) = (op(transa)?, op(transb)?);
    require(m >= 0 && n >= 0)?;
    require(lda >= ld_min(if is_n(ta) { m } else { n }))?;
    require(ldb >= ld_min(if is_n(tb) { m } else { n }))?;
    require(ldc >= ld_min(m))?;
    // In place only as cuBLAS allows: C aliases an untransposed operand
    // with the same leading dimension.
    require(a != c.cast_const() || (is_n(ta) && lda == ldc))?;
    require(b != c.cast_const() || (is_n(tb) && ldb == ldc))?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr(c));
    run(&s, false, move || {
        let (al, be) = (al.value(), be.value());
        let read = |p: Ptr<T>, t: CBLAS_TRANSPOSE, ld: c_int, i: isize, j: isize| -> T {
            let ld = ld as isize;
            // SAFETY: (i, j) lies in op(X), an m x n matrix with leading dimension ld.
            unsafe {
                match t {
                    cb::CblasNoTrans => *p.get().offset(i + j * ld),
                    cb::CblasTrans => *p.get().offset(j + i * ld),
                    cb::CblasConjTrans => (*p.get().offset(j + i * ld)).conj(),
                }
            }
        };
        for j in 0..n as isize {
            for i in 0..m as isize {
                // A zero scale does not read its matrix (it may be NULL).
                let x = if al == T::zero() {
                    T::zero()
                } else {
                    al.mul(read(a, ta, lda, i, j))
                };
                let y = if be == T::zero() {
                    T::zero()
                } else {
                    be.mul(read(b, tb, ldb, i, j))
                };
                // SAFETY: C is m x n with leading dimension ldc.
                unsafe { *c.m().offset(i + j * ldc as isize) = x.add(y) };
            }
        }
    })
}

// ---------------------------------------------------------------- batched

#[allow(clippy::too_many_arguments)]
fn gemm_batched<T: Elem>(
    h: cublasHandle_t,
    transa: cublasOperation_t,
    transb: cublasOperation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const T,
    a: *const *const T,
    lda: c_int,
    b: *const *const T,
    ldb: c_int,
    beta: *const T,
    c: *const *mut T,
    ldc: c_int,
    count: c_int,
) -> Status {
    let s = settings(h)?;
    let (ta, tb) = gemm_check(transa, transb, m, n, k, lda, ldb, ldc)?;
    require(count >= 0)?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if m == 0 || n == 0 || count == 0 {
        return Ok(());
    }
    let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr::c(c));
    run(&s, false, move || {
        let (al, be) = (al.value(), be.value());
        for i in 0..count as usize {
            // SAFETY: the pointer arrays hold `count` matrices (device memory).
            let (ai, bi, ci) = unsafe { (*a.get().add(i), *b.get().add(i), *c.get().add(i)) };
            gemm_now(ta, tb, m, n, k, al, ai, lda, bi, ldb, be, ci, ldc);
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn gemm_strided<T: Elem>(
    h: cublasHandle_t,
    transa: cublasOperation_t,
    transb: cublasOperation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const T,
    a: *const T,
    lda: c_int,
    stride_a: c_longlong,
    b: *const T,
    ldb: c_int,
    stride_b: c_longlong,
    beta: *const T,
    c: *mut T,
    ldc: c_int,
    stride_c: c_longlong,
    count: c_int,
) -> Status {
    let s = settings(h)?;
    let (ta, tb) = gemm_check(transa, transb, m, n, k, lda, ldb, ldc)?;
    require(count >= 0)?;
    let (al, be) = (Scalar::capture(&s, alpha)?, Scalar::capture(&s, beta)?);
    if m == 0 || n == 0 || count == 0 {
        return Ok(());
    }
    let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr(c));
    run(&s, false, move || {
        let (al, be) = (al.value(), be.value());
        for i in 0..count as isize {
            // Offsets stay inside the caller's batch (cuBLAS's contract).
            let ai = a.get().wrapping_offset(i * stride_a as isize);
            let bi = b.get().wrapping_offset(i * stride_b as isize);
            let ci = c.m().wrapping_offset(i * stride_c as isize);
            gemm_now(ta, tb, m, n, k, al, ai, lda, bi, ldb, be, ci, ldc);
        }
    })
}

macro_rules! ext_api {
    ($t:ty, $geam:ident, $batched:ident, $strided:ident) => {
        api!(
            concat!("`C = alpha * op(A) + beta * op(B)` (", stringify!($t), ")."),
            fn $geam(
                h: cublasHandle_t,
                transa: cublasOperation_t,
                transb: cublasOperation_t,
                m: c_int,
                n: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                beta: *const $t,
                b: *const $t,
                ldb: c_int,
                c: *mut $t,
                ldc: c_int,
            ) {
                geam::<$t>(h, transa, transb, m, n, alpha, a, lda, beta, b, ldb, c, ldc)
            }
        );
        api!(
            concat!(
                "GEMM over arrays of matrix pointers (",
                stringify!($t),
                ")."
            ),
            fn $batched(
                h: cublasHandle_t,
                transa: cublasOperation_t,
                transb: cublasOperation_t,
                m: c_int,
                n: c_int,
                k: c_int,
                alpha: *const $t,
                a: *const *const $t,
                lda: c_int,
                b: *const *const $t,
                ldb: c_int,
                beta: *const $t,
                c: *const *mut $t,
                ldc: c_int,
                count: c_int,
            ) {
                gemm_batched::<$t>(
                    h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, count,
                )
            }
        );
        api!(
            concat!(
                "GEMM over matrices at fixed strides (",
                stringify!($t),
                ")."
            ),
            fn $strided(
                h: cublasHandle_t,
                transa: cublasOperation_t,
                transb: cublasOperation_t,
                m: c_int,
                n: c_int,
                k: c_int,
                alpha: *const $t,
                a: *const $t,
                lda: c_int,
                stride_a: c_longlong,
                b: *const $t,
                ldb: c_int,
                stride_b: c_longlong,
                beta: *const $t,
                c: *mut $t,
                ldc: c_int,
                stride_c: c_longlong,
                count: c_int,
            ) {
                gemm_strided::<$t>(
                    h, transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c,
                    ldc, stride_c, count,
                )
            }
        );
    };
}

ext_api!(
    f32,
    cublasSgeam,
    cublasSgemmBatched,
    cublasSgemmStridedBatched
);
ext_api!(
    f64,
    cublasDgeam,
    cublasDgemmBatched,
    cublasDgemmStridedBatched
);
ext_api!(
    Complex32,
    cublasCgeam,
    cublasCgemmBatched,
    cublasCgemmStridedBatched
);
ext_api!(
    Complex64,
    cublasZgeam,
    cublasZgemmBatched,
    cublasZgemmStridedBatched
);

// ---------------------------------------------------------------- GemmEx

/// How a mixed-precision GEMM computes: which BLAS routine, which storage
/// types are converted to and from `f32`, and the scalars' type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// sgemm; A/B/C are R_32F, R_16F or R_16BF (converted through f32).
    Real32 {
        a: cudaDataType_t,
        b: cudaDataType_t,
        c: cudaDataType_t,
    },
    /// dgemm on R_64F.
    Real64,
    /// cgemm on C_32F.
    Complex32,
    /// zgemm on C_64F.
    Complex64,
}

/// The scalar type of a compute type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ScaleType {
    F16,
    F32,
    F64,
    C32,
    C64,
}

/// The supported (types, compute type) combinations, as in cuBLAS's table
/// for `cublasGemmEx`; anything else is `CUBLAS_STATUS_NOT_SUPPORTED`.
fn plan(
    at: cudaDataType_t,
    bt: cudaDataType_t,
    ct: cudaDataType_t,
    compute_type: cublasComputeType_t,
) -> Result<(Kind, ScaleType), cublasStatus_t> {
    use crate::types::compute as ct_;
    use crate::types::dtype as d;
    let unsupported = Err(CUBLAS_STATUS_NOT_SUPPORTED);
    match compute_type {
        ct_::C16F | ct_::C16F_PEDANTIC => {
            if (at, bt, ct) == (d::R_16F, d::R_16F, d::R_16F) {
                Ok((
                    Kind::Real32 {
                        a: at,
                        b: bt,
                        c: ct,
                    },
                    ScaleType::F16,
                ))
            } else {
                unsupported
            }
        }
        ct_::C32F
        | ct_::C32F_PEDANTIC
        | ct_::C32F_FAST_16F
        | ct_::C32F_FAST_16BF
        | ct_::C32F_FAST_TF32
        | ct_::C32F_EMULATED_16BFX9 => match (at, bt, ct) {
            (d::R_32F, d::R_32F, d::R_32F)
            | (d::R_16F, d::R_16F, d::R_16F | d::R_32F)
            | (d::R_16BF, d::R_16BF, d::R_16BF | d::R_32F) => Ok((
                Kind::Real32 {
                    a: at,
                    b: bt,
                    c: ct,
                },
                ScaleType::F32,
            )),
            (d::C_32F, d::C_32F, d::C_32F) => Ok((Kind::Complex32, ScaleType::C32)),
            _ => unsupported,
        },
        ct_::C64F | ct_::C64F_PEDANTIC | ct_::C64F_EMULATED_FIXEDPOINT => match (at, bt, ct) {
            (d::R_64F, d::R_64F, d::R_64F) => Ok((Kind::Real64, ScaleType::F64)),
            (d::C_64F, d::C_64F, d::C_64F) => Ok((Kind::Complex64, ScaleType::C64)),
            _ => unsupported,
        },
        ct_::C32I | ct_::C32I_PEDANTIC => unsupported,
        _ => Err(CUBLAS_STATUS_INVALID_VALUE),
    }
}

/// A scalar of a mixed-precision GEMM, widened to the routine's type.
#[derive(Clone, Copy, Debug)]
enum ExScalar {
    Half(Scalar<u16>),
    F32(Scalar<f32>),
    F64(Scalar<f64>),
    C32(Scalar<Complex32>),
    C64(Scalar<Complex64>),
}

impl ExScalar {
    fn capture(
        s: &crate::handle::Settings,
        t: ScaleType,
        p: *const c_void,
    ) -> Result<Self, cublasStatus_t> {
        Ok(match t {
            ScaleType::F16 => ExScalar::Half(Scalar::capture(s, p.cast())?),
            ScaleType::F32 => ExScalar::F32(Scalar::capture(s, p.cast())?),
            ScaleType::F64 => ExScalar::F64(Scalar::capture(s, p.cast())?),
            ScaleType::C32 => ExScalar::C32(Scalar::capture(s, p.cast())?),
            ScaleType::C64 => ExScalar::C64(Scalar::capture(s, p.cast())?),
        })
    }
    fn f32(self) -> f32 {
        match self {
            ExScalar::Half(v) => f16::from_bits(v.value()).to_f32(),
            ExScalar::F32(v) => v.value(),
            _ => 0.0,
        }
    }
}

fn elem_size(t: cudaDataType_t) -> usize {
    match t {
        dtype::R_16F | dtype::R_16BF => 2,
        dtype::R_32F => 4,
        _ => 8,
    }
}

/// Reads element `(i, j)` of a column-major matrix of type `t` as f32.
///
/// # Safety
/// `p` must hold the element.
unsafe fn load_f32(p: *const c_void, t: cudaDataType_t, idx: isize) -> f32 {
    // SAFETY: the caller's contract.
    unsafe {
        match t {
            dtype::R_16F => f16::from_bits(*p.cast::<u16>().offset(idx)).to_f32(),
            dtype::R_16BF => bf16::from_bits(*p.cast::<u16>().offset(idx)).to_f32(),
            _ => *p.cast::<f32>().offset(idx),
        }
    }
}

/// Stores f32 `v` as type `t` at element `idx`.
///
/// # Safety
/// `p` must hold the element.
unsafe fn store_f32(p: *mut c_void, t: cudaDataType_t, idx: isize, v: f32) {
    // SAFETY: the caller's contract.
    unsafe {
        match t {
            dtype::R_16F => *p.cast::<u16>().offset(idx) = f16::from_f32(v).to_bits(),
            dtype::R_16BF => *p.cast::<u16>().offset(idx) = bf16::from_f32(v).to_bits(),
            _ => *p.cast::<f32>().offset(idx) = v,
        }
    }
}

/// Copies a `rows x cols` matrix of type `t` into a packed f32 buffer.
fn widen(p: *const c_void, t: cudaDataType_t, rows: c_int, cols: c_int, ld: c_int) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows as usize * cols as usize);
    for j in 0..cols as isize {
        for i in 0..rows as isize {
            // SAFETY: the matrix is rows x cols with leading dimension ld.
            out.push(unsafe { load_f32(p, t, i + j * ld as isize) });
        }
    }
    out
}

/// One mixed-precision GEMM, run on the stream.
#[derive(Clone, Copy, Debug)]
struct ExGemm {
    kind: Kind,
    ta: CBLAS_TRANSPOSE,
    tb: CBLAS_TRANSPOSE,
    m: c_int,
    n: c_int,
    k: c_int,
    lda: c_int,
    ldb: c_int,
    ldc: c_int,
}

impl ExGemm {
    fn run(
        &self,
        alpha: ExScalar,
        beta: ExScalar,
        a: *const c_void,
        b: *const c_void,
        c: *mut c_void,
    ) {
        let ExGemm {
            ta,
            tb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc,
            ..
        } = *self;
        match (self.kind, alpha, beta) {
            (Kind::Real64, ExScalar::F64(al), ExScalar::F64(be)) => gemm_now::<f64>(
                ta,
                tb,
                m,
                n,
                k,
                al.value(),
                a.cast(),
                lda,
                b.cast(),
                ldb,
                be.value(),
                c.cast(),
                ldc,
            ),
            (Kind::Complex32, ExScalar::C32(al), ExScalar::C32(be)) => gemm_now::<Complex32>(
                ta,
                tb,
                m,
                n,
                k,
                al.value(),
                a.cast(),
                lda,
                b.cast(),
                ldb,
                be.value(),
                c.cast(),
                ldc,
            ),
            (Kind::Complex64, ExScalar::C64(al), ExScalar::C64(be)) => gemm_now::<Complex64>(
                ta,
                tb,
                m,
                n,
                k,
                al.value(),
                a.cast(),
                lda,
                b.cast(),
                ldb,
                be.value(),
                c.cast(),
                ldc,
            ),
            (
                Kind::Real32 {
                    a: at,
                    b: bt,
                    c: ct,
                },
                al,
                be,
            ) => {
                let (al, be) = (al.f32(), be.f32());
                let (ar, ac) = if is_n(ta) { (m, k) } else { (k, m) };
                let (br, bc) = if is_n(tb) { (k, n) } else { (n, k) };
                // Plain f32 operands are used in place; narrower ones are widened.
                let wa = (at != dtype::R_32F).then(|| widen(a, at, ar, ac, lda));
                let wb = (bt != dtype::R_32F).then(|| widen(b, bt, br, bc, ldb));
                let (pa, la) = wa
                    .as_ref()
                    .map_or((a.cast::<f32>(), lda), |v| (v.as_ptr(), ar.max(1)));
                let (pb, lb) = wb
                    .as_ref()
                    .map_or((b.cast::<f32>(), ldb), |v| (v.as_ptr(), br.max(1)));
                if ct == dtype::R_32F {
                    gemm_now::<f32>(ta, tb, m, n, k, al, pa, la, pb, lb, be, c.cast(), ldc);
                    return;
                }
                // Narrow C: accumulate in f32, then round once.
                let mut wc = if be == 0.0 {
                    vec![0.0f32; m as usize * n as usize]
                } else {
                    widen(c, ct, m, n, ldc)
                };
                gemm_now::<f32>(
                    ta,
                    tb,
                    m,
                    n,
                    k,
                    al,
                    pa,
                    la,
                    pb,
                    lb,
                    be,
                    wc.as_mut_ptr(),
                    m.max(1),
                );
                for j in 0..n as isize {
                    for i in 0..m as isize {
                        let v = wc[(i + j * m as isize) as usize];
                        // SAFETY: C is m x n with leading dimension ldc.
                        unsafe { store_f32(c, ct, i + j * ldc as isize, v) };
                    }
                }
            }
            _ => {}
        }
    }
}

/// Checks a mixed-precision GEMM's arguments and builds its plan.
#[allow(clippy::too_many_arguments)]
fn ex_plan(
    s: &crate::handle::Settings,
    transa: cublasOperation_t,
    transb: cublasOperation_t,
    m: c_int,
    n: c_int,
    k: c_int,
    lda: c_int,
    ldb: c_int,
    ldc: c_int,
    types: (cudaDataType_t, cudaDataType_t, cudaDataType_t),
    compute_type: cublasComputeType_t,
    algo: cublasGemmAlgo_t,
    alpha: *const c_void,
    beta: *const c_void,
) -> Result<(ExGemm, ExScalar, ExScalar), cublasStatus_t> {
    let (ta, tb) = gemm_check(transa, transb, m, n, k, lda, ldb, ldc)?;
    require(matches!(algo, -1..=23 | 99..=115 | 999))?;
    let (kind, scale) = plan(types.0, types.1, types.2, compute_type)?;
    let al = ExScalar::capture(s, scale, alpha)?;
    let be = ExScalar::capture(s, scale, beta)?;
    Ok((
        ExGemm {
            kind,
            ta,
            tb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc,
        },
        al,
        be,
    ))
}

api!(
    "Mixed-precision GEMM: storage types per matrix and a compute type.",
    fn cublasGemmEx(
        h: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        a: *const c_void,
        a_type: cudaDataType_t,
        lda: c_int,
        b: *const c_void,
        b_type: cudaDataType_t,
        ldb: c_int,
        beta: *const c_void,
        c: *mut c_void,
        c_type: cudaDataType_t,
        ldc: c_int,
        compute_type: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) {
        let s = settings(h)?;
        let (g, al, be) = ex_plan(
            &s,
            transa,
            transb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc,
            (a_type, b_type, c_type),
            compute_type,
            algo,
            alpha,
            beta,
        )?;
        if m == 0 || n == 0 {
            return Ok(());
        }
        let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr(c));
        run(&s, false, move || g.run(al, be, a.get(), b.get(), c.m()))
    }
);

api!(
    "Mixed-precision GEMM over arrays of matrix pointers.",
    fn cublasGemmBatchedEx(
        h: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        a: *const *const c_void,
        a_type: cudaDataType_t,
        lda: c_int,
        b: *const *const c_void,
        b_type: cudaDataType_t,
        ldb: c_int,
        beta: *const c_void,
        c: *const *mut c_void,
        c_type: cudaDataType_t,
        ldc: c_int,
        count: c_int,
        compute_type: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) {
        let s = settings(h)?;
        let (g, al, be) = ex_plan(
            &s,
            transa,
            transb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc,
            (a_type, b_type, c_type),
            compute_type,
            algo,
            alpha,
            beta,
        )?;
        require(count >= 0)?;
        if m == 0 || n == 0 || count == 0 {
            return Ok(());
        }
        let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr::c(c));
        run(&s, false, move || {
            for i in 0..count as usize {
                // SAFETY: the pointer arrays hold `count` matrices.
                let (ai, bi, ci) = unsafe { (*a.get().add(i), *b.get().add(i), *c.get().add(i)) };
                g.run(al, be, ai, bi, ci);
            }
        })
    }
);

api!(
    "Mixed-precision GEMM over matrices at fixed strides (in elements).",
    fn cublasGemmStridedBatchedEx(
        h: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        a: *const c_void,
        a_type: cudaDataType_t,
        lda: c_int,
        stride_a: c_longlong,
        b: *const c_void,
        b_type: cudaDataType_t,
        ldb: c_int,
        stride_b: c_longlong,
        beta: *const c_void,
        c: *mut c_void,
        c_type: cudaDataType_t,
        ldc: c_int,
        stride_c: c_longlong,
        count: c_int,
        compute_type: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) {
        let s = settings(h)?;
        let (g, al, be) = ex_plan(
            &s,
            transa,
            transb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc,
            (a_type, b_type, c_type),
            compute_type,
            algo,
            alpha,
            beta,
        )?;
        require(count >= 0)?;
        if m == 0 || n == 0 || count == 0 {
            return Ok(());
        }
        let sizes = (
            elem_size(a_type) as isize,
            elem_size(b_type) as isize,
            elem_size(c_type) as isize,
        );
        let (a, b, c) = (
            Ptr::c(a.cast::<u8>()),
            Ptr::c(b.cast::<u8>()),
            Ptr(c.cast::<u8>()),
        );
        run(&s, false, move || {
            for i in 0..count as isize {
                // Offsets stay inside the caller's batch (cuBLAS's contract).
                let ai = a.get().wrapping_offset(i * stride_a as isize * sizes.0);
                let bi = b.get().wrapping_offset(i * stride_b as isize * sizes.1);
                let ci = c.m().wrapping_offset(i * stride_c as isize * sizes.2);
                g.run(al, be, ai.cast(), bi.cast(), ci.cast());
            }
        })
    }
);

api!(
    "GEMM on float scalars with per-matrix storage types (FP32 compute).",
    fn cublasSgemmEx(
        h: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const f32,
        a: *const c_void,
        a_type: cudaDataType_t,
        lda: c_int,
        b: *const c_void,
        b_type: cudaDataType_t,
        ldb: c_int,
        beta: *const f32,
        c: *mut c_void,
        c_type: cudaDataType_t,
        ldc: c_int,
    ) {
        let s = settings(h)?;
        let (g, al, be) = ex_plan(
            &s,
            transa,
            transb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc,
            (a_type, b_type, c_type),
            compute::C32F,
            -1,
            alpha.cast(),
            beta.cast(),
        )?;
        require(matches!(g.kind, Kind::Real32 { .. }))?;
        if m == 0 || n == 0 {
            return Ok(());
        }
        let (a, b, c) = (Ptr::c(a), Ptr::c(b), Ptr(c));
        run(&s, false, move || g.run(al, be, a.get(), b.get(), c.m()))
    }
);

api!(
    "Half-precision GEMM (`__half` matrices and scalars).",
    fn cublasHgemm(
        h: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const u16,
        a: *const u16,
        lda: c_int,
        b: *const u16,
        ldb: c_int,
        beta: *const u16,
        c: *mut u16,
        ldc: c_int,
    ) {
        let s = settings(h)?;
        let t = dtype::R_16F;
        let (g, al, be) = ex_plan(
            &s,
            transa,
            transb,
            m,
            n,
            k,
            lda,
            ldb,
            ldc,
            (t, t, t),
            compute::C16F,
            -1,
            alpha.cast(),
            beta.cast(),
        )?;
        if m == 0 || n == 0 {
            return Ok(());
        }
        let (a, b, c) = (
            Ptr::c(a.cast::<c_void>()),
            Ptr::c(b.cast::<c_void>()),
            Ptr(c.cast::<c_void>()),
        );
        run(&s, false, move || g.run(al, be, a.get(), b.get(), c.m()))
    }
);
