//! Local response normalisation across channels:
//! `y_c = x_c * (k + alpha / n * sum_{j in W(c)} x_j^2)^-beta` with the
//! window `W(c) = [c - (n-1)/2, c + n/2]` clipped to the channels.

use std::ffi::{c_int, c_void};

use rayon::prelude::*;

use crate::desc::{same_shape, tensor, LrnDesc, TensorDesc};
use crate::handle::{handle, Handle};
use crate::scalar::{blend, Ptr, Real};
use crate::status::{check, guard, non_null, Result, Status};
use crate::stream::submit;
use crate::strided::offsets;

/// Base offsets of every (n, spatial) position under `d`'s strides.
fn positions(d: &TensorDesc) -> Vec<usize> {
    let sp = offsets(&d.dims[2..], &d.strides[2..]);
    (0..d.dims[0])
        .flat_map(|n| sp.iter().map(move |&s| n * d.strides[0] + s))
        .collect()
}

fn window(l: &LrnDesc, c: usize, channels: usize) -> (usize, usize) {
    let n = l.n as usize;
    (c.saturating_sub((n - 1) / 2), (c + n / 2 + 1).min(channels))
}

/// `k + alpha/n * sum x^2` for every channel of one position.
fn scales<T: Real>(l: &LrnDesc, xs: &[T]) -> Vec<T> {
    let c = xs.len();
    let a = T::from_f64(l.alpha / l.n as f64);
    (0..c)
        .map(|i| {
            let (lo, hi) = window(l, i, c);
            let sq = xs[lo..hi].iter().fold(T::ZERO, |s, &v| s + v * v);
            T::from_f64(l.k) + a * sq
        })
        .collect()
}

/// `cudnnLRNCrossChannelForward` (mode `CUDNN_LRN_CROSS_CHANNEL_DIM1`).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnLRNCrossChannelForward(
    h: *mut Handle,
    ld: *const LrnDesc,
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
        let l = *ld.as_ref().ok_or(Status::BAD_PARAM)?;
        check(mode == 0)?;
        let (xd, yd) = (tensor(xd)?, tensor(yd)?);
        check(!alpha.is_null() && !beta.is_null() && !x.is_null() && !y.is_null())?;
        check(xd.dims == yd.dims && xd.dtype == yd.dtype)?;
        let io = [
            (positions(xd), xd.strides[1]),
            (positions(yd), yd.strides[1]),
        ];
        by_type!(
            xd.dtype,
            forward(h.stream, l, alpha, beta, xd.dims[1], io, x, y)
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn forward<T: Real>(
    stream: *mut c_void,
    l: LrnDesc,
    alpha: *const c_void,
    beta: *const c_void,
    channels: usize,
    io: [(Vec<usize>, usize); 2],
    x: *const c_void,
    y: *mut c_void,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (x, y) = (Ptr::<T>::from_const(x), Ptr::<T>::from_mut(y));
    submit(stream, move || {
        let [(xp, xc), (yp, yc)] = &io;
        let e = T::from_f64(-l.beta);
        (0..xp.len()).into_par_iter().for_each(|i| {
            // SAFETY: offsets come from the validated descriptors.
            unsafe {
                let xs: Vec<T> = (0..channels).map(|c| x.get(xp[i] + c * xc)).collect();
                let s = scales(&l, &xs);
                for c in 0..channels {
                    blend(y, yp[i] + c * yc, xs[c] * s[c].powf(e), alpha, beta);
                }
            }
        });
    })
}

/// `cudnnLRNCrossChannelBackward`:
/// `dx_i = dy_i s_i^-beta - 2 alpha beta / n * x_i * sum_{j: i in W(j)} dy_j y_j / s_j`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnLRNCrossChannelBackward(
    h: *mut Handle,
    ld: *const LrnDesc,
    mode: c_int,
    alpha: *const c_void,
    yd: *const TensorDesc,
    y: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    beta: *const c_void,
    dxd: *const TensorDesc,
    dx: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let l = *ld.as_ref().ok_or(Status::BAD_PARAM)?;
        check(mode == 0)?;
        let ds = [tensor(dyd)?, tensor(xd)?, tensor(dxd)?, tensor(yd)?];
        non_null(&[alpha, beta, y, dy, x, dx.cast_const()])?;
        same_shape(&ds)?;
        let io = [
            (positions(ds[0]), ds[0].strides[1]),
            (positions(ds[1]), ds[1].strides[1]),
            (positions(ds[2]), ds[2].strides[1]),
        ];
        let ptrs = [dy, x, dx.cast_const()];
        by_type!(
            ds[0].dtype,
            backward(h.stream, l, alpha, beta, ds[0].dims[1], io, ptrs)
        )
    })
}

unsafe fn backward<T: Real>(
    stream: *mut c_void,
    l: LrnDesc,
    alpha: *const c_void,
    beta: *const c_void,
    channels: usize,
    io: [(Vec<usize>, usize); 3],
    p: [*const c_void; 3],
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let [dy, x, dx] = p.map(Ptr::<T>::from_const);
    submit(stream, move || {
        let [(dyp, dyc), (xp, xc), (dxp, dxc)] = &io;
        let e = T::from_f64(-l.beta);
        let k2 = T::from_f64(2.0 * l.alpha * l.beta / l.n as f64);
        (0..xp.len()).into_par_iter().for_each(|i| {
            // SAFETY: offsets come from the validated descriptors.
            unsafe {
                let xs: Vec<T> = (0..channels).map(|c| x.get(xp[i] + c * xc)).collect();
                let gs: Vec<T> = (0..channels).map(|c| dy.get(dyp[i] + c * dyc)).collect();
                let s = scales(&l, &xs);
                // r_j = dy_j * y_j / s_j with y_j = x_j s_j^-beta.
                let r: Vec<T> = (0..channels)
                    .map(|j| gs[j] * xs[j] * s[j].powf(e) / s[j])
                    .collect();
                for c in 0..channels {
                    let mut acc = T::ZERO;
                    for (j, &rj) in r.iter().enumerate() {
                        let (lo, hi) = window(&l, j, channels);
                        if (lo..hi).contains(&c) {
                            acc += rj;
                        }
                    }
                    let g = gs[c] * s[c].powf(e) - k2 * xs[c] * acc;
                    blend(dx, dxp[i] + c * dxc, g, alpha, beta);
                }
            }
        });
    })
}
