//! Softmax forward and backward: fast, accurate (max-subtracted) and log,
//! per instance (over C x spatial) or per channel (over C at each position).

use std::ffi::{c_int, c_void};

use rayon::prelude::*;

use crate::desc::{tensor, TensorDesc};
use crate::handle::{handle, Handle};
use crate::scalar::{blend, Ptr, Real};
use crate::status::{check, guard, non_null, Result, Status};
use crate::stream::submit;
use crate::strided::offsets;

/// For `mode` (0 instance, 1 channel): the base offset of every softmax
/// group and the offsets of a group's members, under `d`'s strides.
fn groups(d: &TensorDesc, mode: c_int) -> (Vec<usize>, Vec<usize>) {
    let (n, c) = (d.dims[0], d.dims[1]);
    let sp = offsets(&d.dims[2..], &d.strides[2..]);
    if mode == 0 {
        let bases = (0..n).map(|i| i * d.strides[0]).collect();
        let members = (0..c)
            .flat_map(|ci| sp.iter().map(move |&s| ci * d.strides[1] + s))
            .collect();
        (bases, members)
    } else {
        let bases = (0..n)
            .flat_map(|i| sp.iter().map(move |&s| i * d.strides[0] + s))
            .collect();
        let members = (0..c).map(|ci| ci * d.strides[1]).collect();
        (bases, members)
    }
}

fn check_modes(algo: c_int, mode: c_int) -> Result<()> {
    check((0..=2).contains(&algo) && (0..=1).contains(&mode))
}

/// `cudnnSoftmaxForward`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnSoftmaxForward(
    h: *mut Handle,
    algo: c_int,
    mode: c_int,
    alpha: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    beta: *const c_void,
    yd: *const TensorDesc,
    y: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        check_modes(algo, mode)?;
        let (xd, yd) = (tensor(xd)?, tensor(yd)?);
        check(!alpha.is_null() && !beta.is_null() && !x.is_null() && !y.is_null())?;
        check(xd.dims == yd.dims && xd.dtype == yd.dtype)?;
        let (xg, yg) = (groups(xd, mode), groups(yd, mode));
        by_type!(xd.dtype, forward(h.stream, algo, alpha, beta, xg, x, yg, y))
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn forward<T: Real>(
    stream: *mut c_void,
    algo: c_int,
    alpha: *const c_void,
    beta: *const c_void,
    xg: (Vec<usize>, Vec<usize>),
    x: *const c_void,
    yg: (Vec<usize>, Vec<usize>),
    y: *mut c_void,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (x, y) = (Ptr::<T>::from_const(x), Ptr::<T>::from_mut(y));
    submit(stream, move || {
        (0..xg.0.len())
            .into_par_iter()
            .for_each_init(Vec::new, |e, gi| {
                let (xb, yb) = (xg.0[gi], yg.0[gi]);
                // SAFETY: offsets come from the validated descriptors.
                unsafe {
                    let vals: Vec<T> = xg.1.iter().map(|&m| x.get(xb + m)).collect();
                    let max = if algo == 0 {
                        T::ZERO
                    } else {
                        vals.iter()
                            .copied()
                            .fold(vals[0], |a, b| if b > a { b } else { a })
                    };
                    e.clear();
                    e.extend(vals.iter().map(|&v| (v - max).exp()));
                    let sum = e.iter().fold(T::ZERO, |a, &b| a + b);
                    for (j, &m) in yg.1.iter().enumerate() {
                        let v = if algo == 2 {
                            vals[j] - max - sum.ln()
                        } else {
                            e[j] / sum
                        };
                        blend(y, yb + m, v, alpha, beta);
                    }
                }
            });
    })
}

/// `cudnnSoftmaxBackward`: from y and dy.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnSoftmaxBackward(
    h: *mut Handle,
    algo: c_int,
    mode: c_int,
    alpha: *const c_void,
    yd: *const TensorDesc,
    y: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    beta: *const c_void,
    dxd: *const TensorDesc,
    dx: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        check_modes(algo, mode)?;
        let (yd, dyd, dxd) = (tensor(yd)?, tensor(dyd)?, tensor(dxd)?);
        non_null(&[alpha, beta, y, dy, dx.cast_const()])?;
        check(yd.dims == dyd.dims && yd.dims == dxd.dims)?;
        check(yd.dtype == dyd.dtype && yd.dtype == dxd.dtype)?;
        let gs = [groups(yd, mode), groups(dyd, mode), groups(dxd, mode)];
        by_type!(
            yd.dtype,
            backward(h.stream, algo, alpha, beta, gs, [y, dy, dx.cast_const()])
        )
    })
}

unsafe fn backward<T: Real>(
    stream: *mut c_void,
    algo: c_int,
    alpha: *const c_void,
    beta: *const c_void,
    gs: [(Vec<usize>, Vec<usize>); 3],
    p: [*const c_void; 3],
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let [y, dy, dx] = p.map(Ptr::<T>::from_const);
    submit(stream, move || {
        let [yg, dyg, dxg] = &gs;
        (0..yg.0.len()).into_par_iter().for_each(|gi| {
            let (yb, dyb, dxb) = (yg.0[gi], dyg.0[gi], dxg.0[gi]);
            // SAFETY: offsets come from the validated descriptors.
            unsafe {
                let m = yg.1.len();
                let yv = |j: usize| y.get(yb + yg.1[j]);
                let dyv = |j: usize| dy.get(dyb + dyg.1[j]);
                let s = if algo == 2 {
                    (0..m).fold(T::ZERO, |a, j| a + dyv(j))
                } else {
                    (0..m).fold(T::ZERO, |a, j| a + dyv(j) * yv(j))
                };
                for j in 0..m {
                    let g = if algo == 2 {
                        dyv(j) - yv(j).exp() * s
                    } else {
                        yv(j) * (dyv(j) - s)
                    };
                    blend(dx, dxb + dxg.1[j], g, alpha, beta);
                }
            }
        });
    })
}
