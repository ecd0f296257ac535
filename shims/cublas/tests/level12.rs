//! Levels 1 and 2 against naive references: odd sizes, strides (negative
//! ones too, with BLAS's meaning), all four precisions, both pointer modes,
//! and cuBLAS's argument errors.

mod common;

use std::ffi::c_int;

use common::*;
use cublas::handle::*;
use cublas::level1::*;
use cublas::level2::*;
use cublas::types::*;

type H = cublasHandle_t;

/// Index of element `i` of a strided vector of `n` (BLAS semantics).
fn vi(i: usize, n: usize, inc: i32) -> usize {
    if inc >= 0 {
        i * inc as usize
    } else {
        (n - 1 - i) * (-inc) as usize
    }
}

fn vlen(n: usize, inc: i32) -> usize {
    1 + (n - 1) * inc.unsigned_abs() as usize
}

#[allow(clippy::type_complexity)]
trait L12: E {
    type R: Copy + Default + std::fmt::Debug + Into<f64>;
    const AXPY: unsafe extern "C" fn(
        H,
        c_int,
        *const Self,
        *const Self,
        c_int,
        *mut Self,
        c_int,
    ) -> i32;
    const SCAL: unsafe extern "C" fn(H, c_int, *const Self, *mut Self, c_int) -> i32;
    const COPY: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut Self, c_int) -> i32;
    const SWAP: unsafe extern "C" fn(H, c_int, *mut Self, c_int, *mut Self, c_int) -> i32;
    const DOTU: unsafe extern "C" fn(
        H,
        c_int,
        *const Self,
        c_int,
        *const Self,
        c_int,
        *mut Self,
    ) -> i32;
    const DOTC: unsafe extern "C" fn(
        H,
        c_int,
        *const Self,
        c_int,
        *const Self,
        c_int,
        *mut Self,
    ) -> i32;
    const NRM2: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut Self::R) -> i32;
    const ASUM: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut Self::R) -> i32;
    const IAMAX: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut c_int) -> i32;
    const IAMIN: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut c_int) -> i32;
    const GEMV: unsafe extern "C" fn(
        H,
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
    const GERU: unsafe extern "C" fn(
        H,
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
    const GERC: unsafe extern "C" fn(
        H,
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
    const SYMV: unsafe extern "C" fn(
        H,
        i32,
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
    const TRSV: unsafe extern "C" fn(
        H,
        i32,
        i32,
        i32,
        c_int,
        *const Self,
        c_int,
        *mut Self,
        c_int,
    ) -> i32;
}

macro_rules! l12 {
    ($t:ty, $r:ty, $axpy:ident, $scal:ident, $copy:ident, $swap:ident, $dotu:ident, $dotc:ident,
     $nrm2:ident, $asum:ident, $iamax:ident, $iamin:ident, $gemv:ident, $geru:ident, $gerc:ident,
     $symv:ident, $trsv:ident) => {
        impl L12 for $t {
            type R = $r;
            const AXPY: unsafe extern "C" fn(
                H,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $axpy;
            const SCAL: unsafe extern "C" fn(H, c_int, *const Self, *mut Self, c_int) -> i32 =
                $scal;
            const COPY: unsafe extern "C" fn(
                H,
                c_int,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $copy;
            const SWAP: unsafe extern "C" fn(H, c_int, *mut Self, c_int, *mut Self, c_int) -> i32 =
                $swap;
            const DOTU: unsafe extern "C" fn(
                H,
                c_int,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *mut Self,
            ) -> i32 = $dotu;
            const DOTC: unsafe extern "C" fn(
                H,
                c_int,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *mut Self,
            ) -> i32 = $dotc;
            const NRM2: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut Self::R) -> i32 =
                $nrm2;
            const ASUM: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut Self::R) -> i32 =
                $asum;
            const IAMAX: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut c_int) -> i32 =
                $iamax;
            const IAMIN: unsafe extern "C" fn(H, c_int, *const Self, c_int, *mut c_int) -> i32 =
                $iamin;
            const GEMV: unsafe extern "C" fn(
                H,
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
            ) -> i32 = $gemv;
            const GERU: unsafe extern "C" fn(
                H,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $geru;
            const GERC: unsafe extern "C" fn(
                H,
                c_int,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $gerc;
            const SYMV: unsafe extern "C" fn(
                H,
                i32,
                c_int,
                *const Self,
                *const Self,
                c_int,
                *const Self,
                c_int,
                *const Self,
                *mut Self,
                c_int,
            ) -> i32 = $symv;
            const TRSV: unsafe extern "C" fn(
                H,
                i32,
                i32,
                i32,
                c_int,
                *const Self,
                c_int,
                *mut Self,
                c_int,
            ) -> i32 = $trsv;
        }
    };
}

l12!(
    f32,
    f32,
    cublasSaxpy_v2,
    cublasSscal_v2,
    cublasScopy_v2,
    cublasSswap_v2,
    cublasSdot_v2,
    cublasSdot_v2,
    cublasSnrm2_v2,
    cublasSasum_v2,
    cublasIsamax_v2,
    cublasIsamin_v2,
    cublasSgemv_v2,
    cublasSger_v2,
    cublasSger_v2,
    cublasSsymv_v2,
    cublasStrsv_v2
);
l12!(
    f64,
    f64,
    cublasDaxpy_v2,
    cublasDscal_v2,
    cublasDcopy_v2,
    cublasDswap_v2,
    cublasDdot_v2,
    cublasDdot_v2,
    cublasDnrm2_v2,
    cublasDasum_v2,
    cublasIdamax_v2,
    cublasIdamin_v2,
    cublasDgemv_v2,
    cublasDger_v2,
    cublasDger_v2,
    cublasDsymv_v2,
    cublasDtrsv_v2
);
l12!(
    Complex32,
    f32,
    cublasCaxpy_v2,
    cublasCscal_v2,
    cublasCcopy_v2,
    cublasCswap_v2,
    cublasCdotu_v2,
    cublasCdotc_v2,
    cublasScnrm2_v2,
    cublasScasum_v2,
    cublasIcamax_v2,
    cublasIcamin_v2,
    cublasCgemv_v2,
    cublasCgeru_v2,
    cublasCgerc_v2,
    cublasCsymv_v2,
    cublasCtrsv_v2
);
l12!(
    Complex64,
    f64,
    cublasZaxpy_v2,
    cublasZscal_v2,
    cublasZcopy_v2,
    cublasZswap_v2,
    cublasZdotu_v2,
    cublasZdotc_v2,
    cublasDznrm2_v2,
    cublasDzasum_v2,
    cublasIzamax_v2,
    cublasIzamin_v2,
    cublasZgemv_v2,
    cublasZgeru_v2,
    cublasZgerc_v2,
    cublasZsymv_v2,
    cublasZtrsv_v2
);

fn al<T: E>() -> T {
    T::of(Cx::new(0.75, 1.5))
}
fn be<T: E>() -> T {
    T::of(Cx::new(-1.25, 0.5))
}

/// Results land where the pointer mode says: host memory when the call
/// returns, device memory after the stream synchronises.
fn result<T: Copy + Default>(mode: i32, h: H, f: impl FnOnce(*mut T) -> i32) -> T {
    let mut sc = Scalars::new();
    let mut host = T::default();
    let p = if mode == POINTER_MODE_DEVICE {
        sc.put(T::default()).cast_mut()
    } else {
        &mut host as *mut T
    };
    assert_eq!(f(p), 0);
    if mode == POINTER_MODE_DEVICE {
        sync(h);
        // SAFETY: device memory is host memory in cucc.
        unsafe { *p }
    } else {
        host
    }
}

fn level1_all<T: L12>() {
    let n = 13usize;
    for mode in MODES {
        let h = handle(mode);
        for (incx, incy) in [(1, 1), (2, 3), (-2, 1), (3, -1)] {
            let x = data::<T>(vlen(n, incx), 21);
            let y0 = data::<T>(vlen(n, incy), 22);
            let what = format!("incx={incx} incy={incy} mode={mode}");
            let mut sc = Scalars::new();
            let a = al::<T>();
            // axpy
            let mut y = y0.clone();
            assert_eq!(
                unsafe {
                    T::AXPY(
                        h,
                        n as c_int,
                        sp(mode, &mut sc, &a),
                        x.as_ptr(),
                        incx,
                        y.as_mut_ptr(),
                        incy,
                    )
                },
                0
            );
            sync(h);
            let mut want: Vec<Cx> = y0.iter().map(|v| v.cx()).collect();
            for i in 0..n {
                want[vi(i, n, incy)] = a
                    .cx()
                    .mul(x[vi(i, n, incx)].cx())
                    .add(y0[vi(i, n, incy)].cx());
            }
            assert_close(&y, &want, &format!("axpy {what}"));
            // copy and swap
            let mut y = y0.clone();
            assert_eq!(
                unsafe { T::COPY(h, n as c_int, x.as_ptr(), incx, y.as_mut_ptr(), incy) },
                0
            );
            sync(h);
            let mut want: Vec<Cx> = y0.iter().map(|v| v.cx()).collect();
            for i in 0..n {
                want[vi(i, n, incy)] = x[vi(i, n, incx)].cx();
            }
            assert_close(&y, &want, &format!("copy {what}"));
            let (mut xs, mut ys) = (x.clone(), y0.clone());
            assert_eq!(
                unsafe { T::SWAP(h, n as c_int, xs.as_mut_ptr(), incx, ys.as_mut_ptr(), incy) },
                0
            );
            sync(h);
            for i in 0..n {
                assert_eq!(
                    xs[vi(i, n, incx)].cx(),
                    y0[vi(i, n, incy)].cx(),
                    "swap {what}"
                );
                assert_eq!(
                    ys[vi(i, n, incy)].cx(),
                    x[vi(i, n, incx)].cx(),
                    "swap {what}"
                );
            }
            // dot (unconjugated and conjugated)
            let mut du = Cx::default();
            let mut dc = Cx::default();
            for i in 0..n {
                let (xi, yi) = (x[vi(i, n, incx)].cx(), y0[vi(i, n, incy)].cx());
                du = du.add(xi.mul(yi));
                dc = dc.add(xi.conj().mul(yi));
            }
            let got = result::<T>(mode, h, |p| unsafe {
                T::DOTU(h, n as c_int, x.as_ptr(), incx, y0.as_ptr(), incy, p)
            });
            assert_close(&[got], &[du], &format!("dotu {what}"));
            let got = result::<T>(mode, h, |p| unsafe {
                T::DOTC(h, n as c_int, x.as_ptr(), incx, y0.as_ptr(), incy, p)
            });
            assert_close(
                &[got],
                &[if T::COMPLEX { dc } else { du }],
                &format!("dotc {what}"),
            );
        }
        // Reductions and scal take positive strides only.
        for incx in [1, 3] {
            let x = data::<T>(vlen(n, incx), 23);
            let xs: Vec<Cx> = (0..n).map(|i| x[i * incx as usize].cx()).collect();
            let nrm = xs.iter().map(|v| v.abs() * v.abs()).sum::<f64>().sqrt();
            let asum: f64 = xs.iter().map(|v| v.re.abs() + v.im.abs()).sum();
            let measure: Vec<f64> = xs.iter().map(|v| v.re.abs() + v.im.abs()).collect();
            let imax = 1 + (0..n).fold(0, |b, i| if measure[i] > measure[b] { i } else { b });
            let imin = 1 + (0..n).fold(0, |b, i| if measure[i] < measure[b] { i } else { b });
            let got: f64 = result::<T::R>(mode, h, |p| unsafe {
                T::NRM2(h, n as c_int, x.as_ptr(), incx, p)
            })
            .into();
            assert!((got - nrm).abs() <= T::TOL * nrm, "nrm2 {got} {nrm}");
            let got: f64 = result::<T::R>(mode, h, |p| unsafe {
                T::ASUM(h, n as c_int, x.as_ptr(), incx, p)
            })
            .into();
            assert!((got - asum).abs() <= T::TOL * asum, "asum {got} {asum}");
            assert_eq!(
                result::<c_int>(mode, h, |p| unsafe {
                    T::IAMAX(h, n as c_int, x.as_ptr(), incx, p)
                }),
                imax as c_int
            );
            assert_eq!(
                result::<c_int>(mode, h, |p| unsafe {
                    T::IAMIN(h, n as c_int, x.as_ptr(), incx, p)
                }),
                imin as c_int
            );
            let mut xx = x.clone();
            let a = al::<T>();
            let mut sc = Scalars::new();
            assert_eq!(
                unsafe { T::SCAL(h, n as c_int, sp(mode, &mut sc, &a), xx.as_mut_ptr(), incx) },
                0
            );
            sync(h);
            let want: Vec<Cx> = x
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if i % incx as usize == 0 && i / (incx as usize) < n {
                        a.cx().mul(v.cx())
                    } else {
                        v.cx()
                    }
                })
                .collect();
            assert_close(&xx, &want, "scal");
        }
        // Quick returns: empty vectors and non-positive strides give zero results.
        let x = data::<T>(4, 24);
        assert_eq!(
            result::<c_int>(mode, h, |p| unsafe { T::IAMAX(h, 0, x.as_ptr(), 1, p) }),
            0
        );
        assert_eq!(
            result::<c_int>(mode, h, |p| unsafe { T::IAMIN(h, 4, x.as_ptr(), -1, p) }),
            0
        );
        let z: f64 = result::<T::R>(mode, h, |p| unsafe { T::NRM2(h, 4, x.as_ptr(), 0, p) }).into();
        assert_eq!(z, 0.0);
        let z = result::<T>(mode, h, |p| unsafe {
            T::DOTU(h, -3, x.as_ptr(), 1, x.as_ptr(), 1, p)
        });
        assert_eq!(z.cx(), Cx::default());
        // A NULL result pointer or scalar is refused; a NULL handle is not initialised.
        assert_eq!(
            unsafe { T::NRM2(h, 4, x.as_ptr(), 1, std::ptr::null_mut()) },
            CUBLAS_STATUS_INVALID_VALUE
        );
        let mut y = x.clone();
        assert_eq!(
            unsafe { T::AXPY(h, 4, std::ptr::null(), x.as_ptr(), 1, y.as_mut_ptr(), 1) },
            CUBLAS_STATUS_INVALID_VALUE
        );
        let a = al::<T>();
        assert_eq!(
            unsafe {
                T::AXPY(
                    std::ptr::null_mut(),
                    4,
                    &a,
                    x.as_ptr(),
                    1,
                    y.as_mut_ptr(),
                    1,
                )
            },
            CUBLAS_STATUS_NOT_INITIALIZED
        );
        cublasDestroy_v2(h);
    }
}

#[test]
fn level1_every_precision() {
    level1_all::<f32>();
    level1_all::<f64>();
    level1_all::<Complex32>();
    level1_all::<Complex64>();
}

#[test]
fn rotations() {
    for mode in MODES {
        let h = handle(mode);
        let n = 9usize;
        let x0 = data::<f64>(n * 2, 25);
        let y0 = data::<f64>(n, 26);
        let (c, s) = (0.6f64, 0.8f64);
        let mut sc = Scalars::new();
        let (mut x, mut y) = (x0.clone(), y0.clone());
        assert_eq!(
            unsafe {
                cublasDrot_v2(
                    h,
                    n as c_int,
                    x.as_mut_ptr(),
                    2,
                    y.as_mut_ptr(),
                    -1,
                    sp(mode, &mut sc, &c),
                    sp(mode, &mut sc, &s),
                )
            },
            0
        );
        sync(h);
        for i in 0..n {
            let (xi, yi) = (x0[2 * i], y0[n - 1 - i]);
            assert!((x[2 * i] - (c * xi + s * yi)).abs() < 1e-14);
            assert!((y[n - 1 - i] - (c * yi - s * xi)).abs() < 1e-14);
        }
        // Complex rotation with a complex sine: y = c*y - conj(s)*x.
        let xc0 = data::<Complex32>(n, 27);
        let yc0 = data::<Complex32>(n, 28);
        let sc_ = Complex32 { re: 0.48, im: 0.64 };
        let cf = 0.6f32;
        let (mut xc, mut yc) = (xc0.clone(), yc0.clone());
        assert_eq!(
            unsafe {
                cublasCrot_v2(
                    h,
                    n as c_int,
                    xc.as_mut_ptr(),
                    1,
                    yc.as_mut_ptr(),
                    1,
                    sp(mode, &mut sc, &cf),
                    sp(mode, &mut sc, &sc_),
                )
            },
            0
        );
        sync(h);
        let s_cx = sc_.cx();
        let cx = Cx::new(0.6, 0.0);
        let wx: Vec<Cx> = (0..n)
            .map(|i| cx.mul(xc0[i].cx()).add(s_cx.mul(yc0[i].cx())))
            .collect();
        let wy: Vec<Cx> = (0..n)
            .map(|i| cx.mul(yc0[i].cx()).sub(s_cx.conj().mul(xc0[i].cx())))
            .collect();
        assert_close(&xc, &wx, "crot x");
        assert_close(&yc, &wy, "crot y");
        // rotg: r = hypot(a, b), c = a/r, s = b/r (a dominant: positive r).
        let mut v = [3.0f32, 4.0, 0.0, 0.0];
        let p = if mode == POINTER_MODE_DEVICE {
            sc.put(v).cast_mut() as *mut f32
        } else {
            v.as_mut_ptr()
        };
        assert_eq!(
            unsafe { cublasSrotg_v2(h, p, p.add(1), p.add(2), p.add(3)) },
            0
        );
        sync(h);
        let got = unsafe { std::slice::from_raw_parts(p, 4) };
        assert!(
            (got[0] - 5.0).abs() < 1e-6
                && (got[2] - 0.6).abs() < 1e-6
                && (got[3] - 0.8).abs() < 1e-6,
            "rotg {got:?}"
        );
        // rotm with flag -1 (full H matrix).
        let param = [-1.0f64, 2.0, 3.0, -1.0, 0.5];
        let (mut x, mut y) = (x0[..n].to_vec(), y0.clone());
        let pp = if mode == POINTER_MODE_DEVICE {
            sc.put(param).cast::<f64>()
        } else {
            param.as_ptr()
        };
        assert_eq!(
            unsafe { cublasDrotm_v2(h, n as c_int, x.as_mut_ptr(), 1, y.as_mut_ptr(), 1, pp) },
            0
        );
        sync(h);
        for i in 0..n {
            let (xi, yi) = (x0[i], y0[i]);
            assert!((x[i] - (2.0 * xi - yi)).abs() < 1e-13, "rotm x");
            assert!((y[i] - (3.0 * xi + 0.5 * yi)).abs() < 1e-13, "rotm y");
        }
        cublasDestroy_v2(h);
    }
}

fn level2_all<T: L12>() {
    let (m, n) = (7usize, 5usize);
    for mode in MODES {
        let h = handle(mode);
        let mut sc = Scalars::new();
        let (a_, b_) = (al::<T>(), be::<T>());
        for trans in [0, 1, 2] {
            for (incx, incy) in [(1, 1), (2, -3)] {
                let lda = m + 2;
                let a = data::<T>(lda * n, 30);
                let (xl, yl) = if trans == 0 { (n, m) } else { (m, n) };
                let x = data::<T>(vlen(xl, incx), 31);
                let y0 = data::<T>(vlen(yl, incy), 32);
                let mut y = y0.clone();
                let rc = unsafe {
                    T::GEMV(
                        h,
                        trans,
                        m as c_int,
                        n as c_int,
                        sp(mode, &mut sc, &a_),
                        a.as_ptr(),
                        lda as c_int,
                        x.as_ptr(),
                        incx,
                        sp(mode, &mut sc, &b_),
                        y.as_mut_ptr(),
                        incy,
                    )
                };
                assert_eq!(rc, 0);
                sync(h);
                let mut want: Vec<Cx> = y0.iter().map(|v| v.cx()).collect();
                for i in 0..yl {
                    let mut acc = Cx::default();
                    for j in 0..xl {
                        acc = acc.add(op_at(&a, lda, trans, i, j).mul(x[vi(j, xl, incx)].cx()));
                    }
                    want[vi(i, yl, incy)] =
                        a_.cx().mul(acc).add(b_.cx().mul(y0[vi(i, yl, incy)].cx()));
                }
                assert_close(
                    &y,
                    &want,
                    &format!("gemv trans={trans} incx={incx} incy={incy}"),
                );
            }
        }
        // ger / geru / gerc
        for conj in [false, true] {
            let lda = m + 1;
            let a0 = data::<T>(lda * n, 33);
            let x = data::<T>(vlen(m, 2), 34);
            let y = data::<T>(vlen(n, -1), 35);
            let mut a = a0.clone();
            let f = if conj { T::GERC } else { T::GERU };
            assert_eq!(
                unsafe {
                    f(
                        h,
                        m as c_int,
                        n as c_int,
                        sp(mode, &mut sc, &a_),
                        x.as_ptr(),
                        2,
                        y.as_ptr(),
                        -1,
                        a.as_mut_ptr(),
                        lda as c_int,
                    )
                },
                0
            );
            sync(h);
            let mut want: Vec<Cx> = a0.iter().map(|v| v.cx()).collect();
            for j in 0..n {
                let yj = y[vi(j, n, -1)].cx();
                let yj = if conj { yj.conj() } else { yj };
                for i in 0..m {
                    want[i + j * lda] =
                        want[i + j * lda].add(a_.cx().mul(x[vi(i, m, 2)].cx()).mul(yj));
                }
            }
            assert_close(&a, &want, &format!("ger conj={conj}"));
        }
        // symv: only the referenced triangle is read.
        for uplo in [0, 1] {
            let lda = n + 2;
            let mut a = data::<T>(lda * n, 36);
            let full: Vec<Cx> = (0..n * n)
                .map(|idx| {
                    let (i, j) = (idx % n, idx / n);
                    let (r, c) = if (i <= j) == (uplo == 1) {
                        (i, j)
                    } else {
                        (j, i)
                    };
                    a[r + c * lda].cx()
                })
                .collect();
            for j in 0..n {
                for i in 0..n {
                    if (i <= j) != (uplo == 1) && i != j {
                        a[i + j * lda] = T::of(Cx::new(f64::NAN, f64::NAN));
                    }
                }
            }
            let x = data::<T>(vlen(n, -2), 37);
            let y0 = data::<T>(n, 38);
            let mut y = y0.clone();
            assert_eq!(
                unsafe {
                    T::SYMV(
                        h,
                        uplo,
                        n as c_int,
                        sp(mode, &mut sc, &a_),
                        a.as_ptr(),
                        lda as c_int,
                        x.as_ptr(),
                        -2,
                        sp(mode, &mut sc, &b_),
                        y.as_mut_ptr(),
                        1,
                    )
                },
                0
            );
            sync(h);
            let want: Vec<Cx> = (0..n)
                .map(|i| {
                    let mut acc = Cx::default();
                    for j in 0..n {
                        acc = acc.add(full[i + j * n].mul(x[vi(j, n, -2)].cx()));
                    }
                    a_.cx().mul(acc).add(b_.cx().mul(y0[i].cx()))
                })
                .collect();
            assert_close(&y, &want, &format!("symv uplo={uplo}"));
        }
        // trsv: op(A) x = b, checked by multiplying back.
        for uplo in [0, 1] {
            for trans in [0, 1, 2] {
                for diag in [0, 1] {
                    let lda = n + 1;
                    let mut a = data::<T>(lda * n, 39);
                    for i in 0..n {
                        a[i + i * lda] = T::of(Cx::new(3.0 + i as f64, -0.5));
                    }
                    let b = data::<T>(vlen(n, 2), 40);
                    let mut x = b.clone();
                    assert_eq!(
                        unsafe {
                            T::TRSV(
                                h,
                                uplo,
                                trans,
                                diag,
                                n as c_int,
                                a.as_ptr(),
                                lda as c_int,
                                x.as_mut_ptr(),
                                2,
                            )
                        },
                        0
                    );
                    sync(h);
                    let got: Vec<T> = (0..n)
                        .map(|i| {
                            let mut acc = Cx::default();
                            for j in 0..n {
                                let (r, c) = if trans == 0 { (i, j) } else { (j, i) };
                                let inside = if uplo == 1 { r <= c } else { r >= c };
                                let v = if r == c && diag == 1 {
                                    Cx::new(1.0, 0.0)
                                } else if inside {
                                    let v = a[r + c * lda].cx();
                                    if trans == 2 {
                                        v.conj()
                                    } else {
                                        v
                                    }
                                } else {
                                    Cx::default()
                                };
                                acc = acc.add(v.mul(x[2 * j].cx()));
                            }
                            T::of(acc)
                        })
                        .collect();
                    let want: Vec<Cx> = (0..n).map(|i| b[2 * i].cx()).collect();
                    assert_close(
                        &got,
                        &want,
                        &format!("trsv uplo={uplo} trans={trans} diag={diag}"),
                    );
                }
            }
        }
        // Argument errors, as cuBLAS checks them.
        let z = [T::default(); 64];
        let mut w = [T::default(); 64];
        let bad = CUBLAS_STATUS_INVALID_VALUE;
        let (pa, pb) = (sp(mode, &mut sc, &a_), sp(mode, &mut sc, &b_));
        assert_eq!(
            unsafe {
                T::GEMV(
                    h,
                    0,
                    -1,
                    2,
                    pa,
                    z.as_ptr(),
                    2,
                    z.as_ptr(),
                    1,
                    pb,
                    w.as_mut_ptr(),
                    1,
                )
            },
            bad
        );
        assert_eq!(
            unsafe {
                T::GEMV(
                    h,
                    0,
                    2,
                    2,
                    pa,
                    z.as_ptr(),
                    1,
                    z.as_ptr(),
                    1,
                    pb,
                    w.as_mut_ptr(),
                    1,
                )
            },
            bad,
            "lda < m"
        );
        assert_eq!(
            unsafe {
                T::GEMV(
                    h,
                    0,
                    2,
                    2,
                    pa,
                    z.as_ptr(),
                    2,
                    z.as_ptr(),
                    0,
                    pb,
                    w.as_mut_ptr(),
                    1,
                )
            },
            bad,
            "incx == 0"
        );
        assert_eq!(
            unsafe {
                T::GEMV(
                    h,
                    0,
                    2,
                    2,
                    pa,
                    z.as_ptr(),
                    2,
                    z.as_ptr(),
                    1,
                    pb,
                    w.as_mut_ptr(),
                    0,
                )
            },
            bad,
            "incy == 0"
        );
        assert_eq!(
            unsafe {
                T::GEMV(
                    h,
                    3,
                    2,
                    2,
                    pa,
                    z.as_ptr(),
                    2,
                    z.as_ptr(),
                    1,
                    pb,
                    w.as_mut_ptr(),
                    1,
                )
            },
            bad,
            "OP_CONJG"
        );
        assert_eq!(
            unsafe {
                T::GERU(
                    h,
                    2,
                    -2,
                    pa,
                    z.as_ptr(),
                    1,
                    z.as_ptr(),
                    1,
                    w.as_mut_ptr(),
                    2,
                )
            },
            bad
        );
        assert_eq!(
            unsafe { T::GERU(h, 3, 2, pa, z.as_ptr(), 1, z.as_ptr(), 1, w.as_mut_ptr(), 2) },
            bad,
            "lda < m"
        );
        assert_eq!(
            unsafe {
                T::SYMV(
                    h,
                    2,
                    2,
                    pa,
                    z.as_ptr(),
                    2,
                    z.as_ptr(),
                    1,
                    pb,
                    w.as_mut_ptr(),
                    1,
                )
            },
            bad,
            "FULL"
        );
        assert_eq!(
            unsafe {
                T::SYMV(
                    h,
                    0,
                    3,
                    pa,
                    z.as_ptr(),
                    2,
                    z.as_ptr(),
                    1,
                    pb,
                    w.as_mut_ptr(),
                    1,
                )
            },
            bad,
            "lda < n"
        );
        assert_eq!(
            unsafe { T::TRSV(h, 0, 0, 2, 2, z.as_ptr(), 2, w.as_mut_ptr(), 1) },
            bad,
            "diag"
        );
        assert_eq!(
            unsafe { T::TRSV(h, 0, 0, 0, 2, z.as_ptr(), 2, w.as_mut_ptr(), 0) },
            bad,
            "incx == 0"
        );
        assert_eq!(
            unsafe { T::TRSV(h, 0, 0, 0, -1, z.as_ptr(), 2, w.as_mut_ptr(), 1) },
            bad,
            "n < 0"
        );
        sync(h);
        cublasDestroy_v2(h);
    }
}

#[test]
fn level2_every_precision() {
    level2_all::<f32>();
    level2_all::<f64>();
    level2_all::<Complex32>();
    level2_all::<Complex64>();
}

/// OpenBLAS picks its kernels by the CPU it runs on, and some builds get
/// some kernels wrong (Debian's 0.3.21: `scasum` with the `Cooperlake`
/// kernels it picks on AMD Zen 4), so a test passing here says little about
/// another machine. The level-1 checks therefore run again under every
/// kernel set this CPU can execute (`OPENBLAS_CORETYPE`), each in a child
/// process: on an AVX-512 machine with BF16 that covers what Intel and AMD
/// machines pick.
#[test]
fn level1_under_every_openblas_kernel_set() {
    if std::env::var_os("OPENBLAS_CORETYPE").is_some() {
        return; // A child, or a forced kernel set: the plain test covers it.
    }
    let flags: Vec<String> = std::fs::read_to_string("/proc/cpuinfo")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("flags"))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let has = |need: &[&str]| need.iter().all(|f| flags.iter().any(|g| g == f));
    let avx512 = ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"];
    let sets: [(&str, Vec<&str>); 5] = [
        ("Nehalem", vec!["sse4_2"]),
        ("Sandybridge", vec!["avx"]),
        ("Haswell", vec!["avx2", "fma"]),
        ("SkylakeX", avx512.to_vec()),
        ("Cooperlake", [&avx512[..], &["avx512_bf16"]].concat()),
    ];
    let exe = std::env::current_exe().expect("exe");
    let mut ran = Vec::new();
    for (core, need) in &sets {
        if !has(need) {
            continue;
        }
        let out = std::process::Command::new(&exe)
            .args(["--exact", "level1_every_precision", "--test-threads=1"])
            .env("OPENBLAS_CORETYPE", core)
            .output()
            .expect("child");
        assert!(
            out.status.success(),
            "level-1 routines wrong with OpenBLAS's {core} kernels:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran.push(*core);
    }
    eprintln!("level-1 checked under OpenBLAS kernel sets {ran:?}");
}
