//! Level 1: vector-vector routines (axpy, scal, copy, swap, dot, nrm2, asum,
//! iamax, iamin, rot, rotg, rotm, rotmg).
//!
//! cuBLAS checks nothing here but the handle and the scalar pointers:
//! `n <= 0` (and, for the reductions, `incx <= 0`) is a quick return, with
//! a zero result.

use std::ffi::c_int;

use crate::call::*;
use crate::elem::{vec_index, Elem};
use crate::types::*;

/// Delivers a reduction's result: written to host memory before the call
/// returns (host pointer mode), or to device memory in stream order.
fn reduce<R: Copy + Send + 'static>(
    h: cublasHandle_t,
    result: *mut R,
    f: impl FnOnce() -> R + Send + 'static,
) -> Status {
    let s = settings(h)?;
    require(!result.is_null())?;
    let out = Ptr(result);
    let on_host = s.pointer_mode == POINTER_MODE_HOST;
    run(&s, on_host, move || {
        let v = f();
        // SAFETY: the result pointer stays valid until the work has run.
        unsafe { *out.m() = v };
    })
}

fn axpy<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    alpha: *const T,
    x: *const T,
    incx: c_int,
    y: *mut T,
    incy: c_int,
) -> Status {
    let s = settings(h)?;
    let a = Scalar::capture(&s, alpha)?;
    if n <= 0 {
        return Ok(());
    }
    let (x, y) = (Ptr::c(x), Ptr(y));
    // SAFETY: cuBLAS's contract: x and y hold n elements at their strides.
    run(&s, false, move || unsafe {
        T::axpy(n, a.value(), x.get(), incx, y.m(), incy)
    })
}

fn scal<T: Elem>(h: cublasHandle_t, n: c_int, alpha: *const T, x: *mut T, incx: c_int) -> Status {
    let s = settings(h)?;
    let a = Scalar::capture(&s, alpha)?;
    if n <= 0 || incx <= 0 {
        return Ok(());
    }
    let x = Ptr(x);
    // SAFETY: x holds n elements at stride incx.
    run(&s, false, move || unsafe {
        T::scal(n, a.value(), x.m(), incx)
    })
}

fn scal_real<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    alpha: *const T::Real,
    x: *mut T,
    incx: c_int,
) -> Status {
    let s = settings(h)?;
    let a = Scalar::capture(&s, alpha)?;
    if n <= 0 || incx <= 0 {
        return Ok(());
    }
    let x = Ptr(x);
    run(&s, false, move || {
        let a = a.value();
        for i in 0..n as isize {
            // SAFETY: x holds n elements at stride incx > 0.
            let e = unsafe { &mut *x.m().offset(i * incx as isize) };
            *e = e.mul_real(a);
        }
    })
}

fn copy<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    x: *const T,
    incx: c_int,
    y: *mut T,
    incy: c_int,
) -> Status {
    let s = settings(h)?;
    if n <= 0 {
        return Ok(());
    }
    let (x, y) = (Ptr::c(x), Ptr(y));
    // SAFETY: x and y hold n elements at their strides.
    run(&s, false, move || unsafe {
        T::copy(n, x.get(), incx, y.m(), incy)
    })
}

fn swap<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    x: *mut T,
    incx: c_int,
    y: *mut T,
    incy: c_int,
) -> Status {
    let s = settings(h)?;
    if n <= 0 {
        return Ok(());
    }
    let (x, y) = (Ptr(x), Ptr(y));
    // SAFETY: x and y hold n elements at their strides.
    run(&s, false, move || unsafe {
        T::swap(n, x.m(), incx, y.m(), incy)
    })
}

#[allow(clippy::too_many_arguments)]
fn dot<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    x: *const T,
    incx: c_int,
    y: *const T,
    incy: c_int,
    result: *mut T,
    conj: bool,
) -> Status {
    let (x, y) = (Ptr::c(x), Ptr::c(y));
    reduce(h, result, move || {
        if n <= 0 {
            return T::zero();
        }
        // SAFETY: x and y hold n elements at their strides.
        unsafe {
            if conj {
                T::dotc(n, x.get(), incx, y.get(), incy)
            } else {
                T::dotu(n, x.get(), incx, y.get(), incy)
            }
        }
    })
}

fn nrm2<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    x: *const T,
    incx: c_int,
    result: *mut T::Real,
) -> Status {
    let x = Ptr::c(x);
    reduce(h, result, move || {
        if n <= 0 || incx <= 0 {
            return T::Real::default();
        }
        // SAFETY: x holds n elements at stride incx.
        unsafe { T::nrm2(n, x.get(), incx) }
    })
}

fn asum<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    x: *const T,
    incx: c_int,
    result: *mut T::Real,
) -> Status {
    let x = Ptr::c(x);
    reduce(h, result, move || {
        if n <= 0 || incx <= 0 {
            return T::Real::default();
        }
        // SAFETY: x holds n elements at stride incx.
        unsafe { T::asum(n, x.get(), incx) }
    })
}

/// 1-based index of the first element with the largest (`max`) or smallest
/// `|re| + |im|`; 0 for an empty vector.
fn iamax_iamin<T: Elem>(
    h: cublasHandle_t,
    n: c_int,
    x: *const T,
    incx: c_int,
    result: *mut c_int,
    max: bool,
) -> Status {
    let x = Ptr::c(x);
    reduce(h, result, move || {
        if n <= 0 || incx <= 0 {
            return 0;
        }
        if max {
            // SAFETY: x holds n elements at stride incx.
            return unsafe { T::iamax(n, x.get(), incx) } + 1;
        }
        let mut best = 0;
        let mut best_v = f64::INFINITY;
        for i in 0..n {
            // SAFETY: as above.
            let v = unsafe { *x.get().offset(i as isize * incx as isize) }.abs1();
            if v < best_v {
                best = i;
                best_v = v;
            }
        }
        best + 1
    })
}

/// Applies the plane rotation `[c s; -conj(s) c]` to the pairs `(x_i, y_i)`.
#[allow(clippy::too_many_arguments)]
fn rot<T: Elem, S: Copy + Send + 'static>(
    h: cublasHandle_t,
    n: c_int,
    x: *mut T,
    incx: c_int,
    y: *mut T,
    incy: c_int,
    c: *const T::Real,
    s_: *const S,
    to_elem: fn(S) -> T,
) -> Status {
    let st = settings(h)?;
    let c = Scalar::capture(&st, c)?;
    let sv = Scalar::capture(&st, s_)?;
    if n <= 0 {
        return Ok(());
    }
    let (x, y) = (Ptr(x), Ptr(y));
    run(&st, false, move || {
        let (c, s) = (c.value(), to_elem(sv.value()));
        for i in 0..n {
            // SAFETY: x and y hold n elements at their strides.
            let (xi, yi) = unsafe {
                (
                    &mut *x.m().offset(vec_index(i, n, incx)),
                    &mut *y.m().offset(vec_index(i, n, incy)),
                )
            };
            let (a, b) = (*xi, *yi);
            *xi = a.mul_real(c).add(s.mul(b));
            *yi = b.mul_real(c).add(s.conj().mul(a).neg());
        }
    })
}

macro_rules! level1_api {
    ($t:ty, $r:ty, $axpy:ident, $scal:ident, $copy:ident, $swap:ident, $nrm2:ident, $asum:ident,
     $iamax:ident, $iamin:ident) => {
        api!(
            concat!("`y = alpha * x + y` (", stringify!($t), ")."),
            fn $axpy(
                h: cublasHandle_t,
                n: c_int,
                alpha: *const $t,
                x: *const $t,
                incx: c_int,
                y: *mut $t,
                incy: c_int,
            ) {
                axpy::<$t>(h, n, alpha, x, incx, y, incy)
            }
        );
        api!(
            concat!("`x = alpha * x` (", stringify!($t), ")."),
            fn $scal(h: cublasHandle_t, n: c_int, alpha: *const $t, x: *mut $t, incx: c_int) {
                scal::<$t>(h, n, alpha, x, incx)
            }
        );
        api!(
            concat!("`y = x` (", stringify!($t), ")."),
            fn $copy(
                h: cublasHandle_t,
                n: c_int,
                x: *const $t,
                incx: c_int,
                y: *mut $t,
                incy: c_int,
            ) {
                copy::<$t>(h, n, x, incx, y, incy)
            }
        );
        api!(
            concat!("Exchanges x and y (", stringify!($t), ")."),
            fn $swap(
                h: cublasHandle_t,
                n: c_int,
                x: *mut $t,
                incx: c_int,
                y: *mut $t,
                incy: c_int,
            ) {
                swap::<$t>(h, n, x, incx, y, incy)
            }
        );
        api!(
            concat!("Euclidean norm of x (", stringify!($t), ")."),
            fn $nrm2(h: cublasHandle_t, n: c_int, x: *const $t, incx: c_int, result: *mut $r) {
                nrm2::<$t>(h, n, x, incx, result)
            }
        );
        api!(
            concat!("Sum of `|re| + |im|` over x (", stringify!($t), ")."),
            fn $asum(h: cublasHandle_t, n: c_int, x: *const $t, incx: c_int, result: *mut $r) {
                asum::<$t>(h, n, x, incx, result)
            }
        );
        api!(
            concat!(
                "1-based index of the largest `|re| + |im|` (",
                stringify!($t),
                ")."
            ),
            fn $iamax(h: cublasHandle_t, n: c_int, x: *const $t, incx: c_int, result: *mut c_int) {
                iamax_iamin::<$t>(h, n, x, incx, result, true)
            }
        );
        api!(
            concat!(
                "1-based index of the smallest `|re| + |im|` (",
                stringify!($t),
                ")."
            ),
            fn $iamin(h: cublasHandle_t, n: c_int, x: *const $t, incx: c_int, result: *mut c_int) {
                iamax_iamin::<$t>(h, n, x, incx, result, false)
            }
        );
    };
}

level1_api!(
    f32,
    f32,
    cublasSaxpy_v2,
    cublasSscal_v2,
    cublasScopy_v2,
    cublasSswap_v2,
    cublasSnrm2_v2,
    cublasSasum_v2,
    cublasIsamax_v2,
    cublasIsamin_v2
);
level1_api!(
    f64,
    f64,
    cublasDaxpy_v2,
    cublasDscal_v2,
    cublasDcopy_v2,
    cublasDswap_v2,
    cublasDnrm2_v2,
    cublasDasum_v2,
    cublasIdamax_v2,
    cublasIdamin_v2
);
level1_api!(
    Complex32,
    f32,
    cublasCaxpy_v2,
    cublasCscal_v2,
    cublasCcopy_v2,
    cublasCswap_v2,
    cublasScnrm2_v2,
    cublasScasum_v2,
    cublasIcamax_v2,
    cublasIcamin_v2
);
level1_api!(
    Complex64,
    f64,
    cublasZaxpy_v2,
    cublasZscal_v2,
    cublasZcopy_v2,
    cublasZswap_v2,
    cublasDznrm2_v2,
    cublasDzasum_v2,
    cublasIzamax_v2,
    cublasIzamin_v2
);

api!(
    "`result = x . y` (float).",
    fn cublasSdot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *const f32,
        incx: c_int,
        y: *const f32,
        incy: c_int,
        result: *mut f32,
    ) {
        dot::<f32>(h, n, x, incx, y, incy, result, false)
    }
);
api!(
    "`result = x . y` (double).",
    fn cublasDdot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *const f64,
        incx: c_int,
        y: *const f64,
        incy: c_int,
        result: *mut f64,
    ) {
        dot::<f64>(h, n, x, incx, y, incy, result, false)
    }
);
api!(
    "`result = sum x_i y_i` (cuComplex).",
    fn cublasCdotu_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *const Complex32,
        incx: c_int,
        y: *const Complex32,
        incy: c_int,
        result: *mut Complex32,
    ) {
        dot::<Complex32>(h, n, x, incx, y, incy, result, false)
    }
);
api!(
    "`result = sum conj(x_i) y_i` (cuComplex).",
    fn cublasCdotc_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *const Complex32,
        incx: c_int,
        y: *const Complex32,
        incy: c_int,
        result: *mut Complex32,
    ) {
        dot::<Complex32>(h, n, x, incx, y, incy, result, true)
    }
);
api!(
    "`result = sum x_i y_i` (cuDoubleComplex).",
    fn cublasZdotu_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *const Complex64,
        incx: c_int,
        y: *const Complex64,
        incy: c_int,
        result: *mut Complex64,
    ) {
        dot::<Complex64>(h, n, x, incx, y, incy, result, false)
    }
);
api!(
    "`result = sum conj(x_i) y_i` (cuDoubleComplex).",
    fn cublasZdotc_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *const Complex64,
        incx: c_int,
        y: *const Complex64,
        incy: c_int,
        result: *mut Complex64,
    ) {
        dot::<Complex64>(h, n, x, incx, y, incy, result, true)
    }
);

api!(
    "`x = alpha * x` with a real alpha (cuComplex).",
    fn cublasCsscal_v2(
        h: cublasHandle_t,
        n: c_int,
        alpha: *const f32,
        x: *mut Complex32,
        incx: c_int,
    ) {
        scal_real::<Complex32>(h, n, alpha, x, incx)
    }
);
api!(
    "`x = alpha * x` with a real alpha (cuDoubleComplex).",
    fn cublasZdscal_v2(
        h: cublasHandle_t,
        n: c_int,
        alpha: *const f64,
        x: *mut Complex64,
        incx: c_int,
    ) {
        scal_real::<Complex64>(h, n, alpha, x, incx)
    }
);

fn same<T>(v: T) -> T {
    v
}
fn c_of_f32(v: f32) -> Complex32 {
    Complex32 { re: v, im: 0.0 }
}
fn z_of_f64(v: f64) -> Complex64 {
    Complex64 { re: v, im: 0.0 }
}

api!(
    "Plane rotation of (x, y) by c and s (float).",
    fn cublasSrot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *mut f32,
        incx: c_int,
        y: *mut f32,
        incy: c_int,
        c: *const f32,
        s: *const f32,
    ) {
        rot::<f32, f32>(h, n, x, incx, y, incy, c, s, same)
    }
);
api!(
    "Plane rotation of (x, y) by c and s (double).",
    fn cublasDrot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *mut f64,
        incx: c_int,
        y: *mut f64,
        incy: c_int,
        c: *const f64,
        s: *const f64,
    ) {
        rot::<f64, f64>(h, n, x, incx, y, incy, c, s, same)
    }
);
api!(
    "Plane rotation with a real c and complex s (cuComplex).",
    fn cublasCrot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *mut Complex32,
        incx: c_int,
        y: *mut Complex32,
        incy: c_int,
        c: *const f32,
        s: *const Complex32,
    ) {
        rot::<Complex32, Complex32>(h, n, x, incx, y, incy, c, s, same)
    }
);
api!(
    "Plane rotation with real c and s (cuComplex).",
    fn cublasCsrot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *mut Complex32,
        incx: c_int,
        y: *mut Complex32,
        incy: c_int,
        c: *const f32,
        s: *const f32,
    ) {
        rot::<Complex32, f32>(h, n, x, incx, y, incy, c, s, c_of_f32)
    }
);
api!(
    "Plane rotation with a real c and complex s (cuDoubleComplex).",
    fn cublasZrot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *mut Complex64,
        incx: c_int,
        y: *mut Complex64,
        incy: c_int,
        c: *const f64,
        s: *const Complex64,
    ) {
        rot::<Complex64, Complex64>(h, n, x, incx, y, incy, c, s, same)
    }
);
api!(
    "Plane rotation with real c and s (cuDoubleComplex).",
    fn cublasZdrot_v2(
        h: cublasHandle_t,
        n: c_int,
        x: *mut Complex64,
        incx: c_int,
        y: *mut Complex64,
        incy: c_int,
        c: *const f64,
        s: *const f64,
    ) {
        rot::<Complex64, f64>(h, n, x, incx, y, incy, c, s, z_of_f64)
    }
);

/// Runs a routine on scalars that are all in host memory (host pointer
/// mode: now, on the calling thread) or all in device memory (in stream
/// order).
fn scalars_only(h: cublasHandle_t, ptrs: &[bool], f: impl FnOnce() + Send + 'static) -> Status {
    let s = settings(h)?;
    require(ptrs.iter().all(|ok| *ok))?;
    if s.pointer_mode == POINTER_MODE_HOST {
        f();
        Ok(())
    } else {
        run(&s, false, f)
    }
}

macro_rules! rotg_api {
    ($t:ty, $rotg:ident, $cb_rotg:ident, $rotm:ident, $cb_rotm:ident, $rotmg:ident,
     $cb_rotmg:ident) => {
        api!(
            concat!("Builds a Givens rotation zeroing b (", stringify!($t), ")."),
            fn $rotg(h: cublasHandle_t, a: *mut $t, b: *mut $t, c: *mut $t, s: *mut $t) {
                let p = [Ptr(a), Ptr(b), Ptr(c), Ptr(s)];
                scalars_only(h, &p.map(|q| !q.0.is_null()), move || {
                    // SAFETY: four valid scalars in the pointer mode's memory.
                    unsafe { cblas_sys::$cb_rotg(p[0].m(), p[1].m(), p[2].m(), p[3].m()) }
                })
            }
        );
        api!(
            concat!("Applies a modified Givens rotation (", stringify!($t), ")."),
            fn $rotm(
                h: cublasHandle_t,
                n: c_int,
                x: *mut $t,
                incx: c_int,
                y: *mut $t,
                incy: c_int,
                param: *const $t,
            ) {
                let s = settings(h)?;
                require(!param.is_null())?;
                let prm: Scalar<[$t; 5]> = Scalar::capture(&s, param.cast())?;
                if n <= 0 {
                    return Ok(());
                }
                let (x, y) = (Ptr(x), Ptr(y));
                run(&s, false, move || {
                    let prm = prm.value();
                    // SAFETY: x and y hold n elements at their strides.
                    unsafe { cblas_sys::$cb_rotm(n, x.m(), incx, y.m(), incy, prm.as_ptr()) }
                })
            }
        );
        api!(
            concat!("Builds a modified Givens rotation (", stringify!($t), ")."),
            fn $rotmg(
                h: cublasHandle_t,
                d1: *mut $t,
                d2: *mut $t,
                x1: *mut $t,
                y1: *const $t,
                param: *mut $t,
            ) {
                let p = [Ptr(d1), Ptr(d2), Ptr(x1), Ptr::c(y1), Ptr(param)];
                scalars_only(h, &p.map(|q| !q.0.is_null()), move || {
                    // SAFETY: valid scalars (and a 5-element param) in the mode's memory.
                    unsafe {
                        cblas_sys::$cb_rotmg(p[0].m(), p[1].m(), p[2].m(), *p[3].m(), p[4].m())
                    }
                })
            }
        );
    };
}

rotg_api!(
    f32,
    cublasSrotg_v2,
    cblas_srotg,
    cublasSrotm_v2,
    cblas_srotm,
    cublasSrotmg_v2,
    cblas_srotmg
);
rotg_api!(
    f64,
    cublasDrotg_v2,
    cblas_drotg,
    cublasDrotm_v2,
    cblas_drotm,
    cublasDrotmg_v2,
    cblas_drotmg
);
