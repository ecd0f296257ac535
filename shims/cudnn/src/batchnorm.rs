//! Batch normalisation: training forward (batch statistics, running
//! averages, saved mean and inverse deviation), inference forward and
//! backward, per activation (statistics over N for each C x spatial
//! element) or spatial (over N x spatial for each channel;
//! `SPATIAL_PERSISTENT` computes the same).
//!
//! Parameter tensors (scale, bias, means, variances) have their own
//! descriptor of extents 1 x C x 1 x 1 (spatial) or 1 x C x H x W (per
//! activation), float for float and half data, double for double.

use std::ffi::{c_int, c_void};

use rayon::prelude::*;

use crate::desc::{tensor, TensorDesc};
use crate::handle::{handle, Handle};
use crate::scalar::{blend, DataType, Ptr, Real};
use crate::status::{check, guard, non_null, Result, Status};
use crate::stream::submit;
use crate::strided::offsets;

/// The statistics layout for one x shape.
#[derive(Clone, Debug)]
struct Layout {
    n: usize,
    c: usize,
    /// Spatial positions per channel.
    s: usize,
    spatial: bool,
}

impl Layout {
    fn new(mode: c_int, xd: &TensorDesc, pd: &TensorDesc) -> Result<Layout> {
        check((0..=2).contains(&mode))?;
        let spatial = mode != 0;
        check(pd.dims.len() == xd.dims.len() && pd.dims[0] == 1 && pd.dims[1] == xd.dims[1])?;
        let want_sp = |i: usize| if spatial { 1 } else { xd.dims[i] };
        check((2..xd.dims.len()).all(|i| pd.dims[i] == want_sp(i)))?;
        let want = if xd.dtype == DataType::Double {
            DataType::Double
        } else {
            DataType::Float
        };
        check(pd.dtype == want)?;
        Ok(Layout {
            n: xd.dims[0],
            c: xd.dims[1],
            s: xd.dims[2..].iter().product(),
            spatial,
        })
    }

    /// Calls `f(n, s)` for every member of statistic `j`: each image's
    /// spatial positions in spatial mode, each image's position `j` else.
    fn members(&self, j: usize, f: &mut dyn FnMut(usize, usize)) {
        for n in 0..self.n {
            if self.spatial {
                for s in 0..self.s {
                    f(n, s);
                }
            } else {
                f(n, j);
            }
        }
    }

    /// Statistics per channel (1 spatial, s per activation).
    fn per_channel(&self) -> usize {
        if self.spatial {
            1
        } else {
            self.s
        }
    }
    /// Elements each statistic averages over.
    fn count(&self) -> usize {
        if self.spatial {
            self.n * self.s
        } else {
            self.n
        }
    }
}

/// Offsets of a tensor: channel stride, batch stride and spatial offsets.
#[derive(Clone, Debug)]
struct Access {
    n: usize,
    c: usize,
    sp: Vec<usize>,
}

impl Access {
    fn of(d: &TensorDesc) -> Access {
        Access {
            n: d.strides[0],
            c: d.strides[1],
            sp: offsets(&d.dims[2..], &d.strides[2..]),
        }
    }
    fn at(&self, n: usize, c: usize, s: usize) -> usize {
        n * self.n + c * self.c + self.sp[s]
    }
}

/// `cudnnDeriveBNTensorDescriptor`: the parameter descriptor for `xd`.
#[no_mangle]
pub unsafe extern "C" fn cudnnDeriveBNTensorDescriptor(
    out: *mut TensorDesc,
    xd: *const TensorDesc,
    mode: c_int,
) -> Status {
    guard(|| {
        let xd = tensor(xd)?;
        check(!out.is_null() && (0..=2).contains(&mode))?;
        let mut dims = xd.dims.clone();
        dims[0] = 1;
        if mode != 0 {
            dims[2..].iter_mut().for_each(|d| *d = 1);
        }
        let dtype = if xd.dtype == DataType::Double {
            DataType::Double
        } else {
            DataType::Float
        };
        let strides = crate::strided::packed_strides(&dims);
        *out = TensorDesc::new(dtype, dims, strides);
        Ok(())
    })
}

/// Parameter offsets: channel `c`, statistic `j`.
fn param_offset(pd: &TensorDesc, psp: &[usize], l: &Layout, c: usize, j: usize) -> usize {
    c * pd.strides[1] + if l.spatial { 0 } else { psp[j] }
}

/// `cudnnBatchNormalizationForwardTraining`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnBatchNormalizationForwardTraining(
    h: *mut Handle,
    mode: c_int,
    alpha: *const c_void,
    beta: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    yd: *const TensorDesc,
    y: *mut c_void,
    pd: *const TensorDesc,
    scale: *const c_void,
    bias: *const c_void,
    factor: f64,
    running_mean: *mut c_void,
    running_var: *mut c_void,
    epsilon: f64,
    saved_mean: *mut c_void,
    saved_inv_var: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let (xd, yd, pd) = (tensor(xd)?, tensor(yd)?, tensor(pd)?);
        non_null(&[alpha, beta, x, y.cast_const(), scale, bias])?;
        check(xd.dims == yd.dims && xd.dtype == yd.dtype && epsilon >= 0.0)?;
        // Running statistics and saved statistics come in pairs.
        check(running_mean.is_null() == running_var.is_null())?;
        check(saved_mean.is_null() == saved_inv_var.is_null())?;
        let l = Layout::new(mode, xd, pd)?;
        check(l.count() > 1)?;
        let t = Train {
            l,
            descs: [xd.clone(), yd.clone(), pd.clone()],
            ptrs: [
                x,
                y.cast_const(),
                scale,
                bias,
                running_mean.cast_const(),
                running_var.cast_const(),
                saved_mean.cast_const(),
                saved_inv_var.cast_const(),
            ],
            factor,
            epsilon,
        };
        by_type!(xd.dtype, train(h.stream, alpha, beta, t))
    })
}

struct Train {
    l: Layout,
    descs: [TensorDesc; 3],
    ptrs: [*const c_void; 8],
    factor: f64,
    epsilon: f64,
}

unsafe fn train<T: Real>(
    stream: *mut c_void,
    alpha: *const c_void,
    beta: *const c_void,
    t: Train,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let [x, y, scale, bias, rm, rv, sm, siv] = t.ptrs.map(Ptr::<T>::from_const);
    submit(stream, move || {
        let [xd, yd, pd] = &t.descs;
        let (xa, ya) = (Access::of(xd), Access::of(yd));
        let psp = offsets(&pd.dims[2..], &pd.strides[2..]);
        let l = &t.l;
        let m = l.count() as f64;
        (0..l.c).into_par_iter().for_each(|c| {
            for j in 0..l.per_channel() {
                let members = |f: &mut dyn FnMut(usize, usize)| l.members(j, f);
                // SAFETY (whole block): offsets come from validated descriptors.
                unsafe {
                    let mut sum = 0.0;
                    members(&mut |n, s| sum += x.get(xa.at(n, c, s)).to_f64());
                    let mean = sum / m;
                    let mut sq = 0.0;
                    members(&mut |n, s| {
                        let d = x.get(xa.at(n, c, s)).to_f64() - mean;
                        sq += d * d;
                    });
                    let var = sq / m;
                    let inv = 1.0 / (var + t.epsilon).sqrt();
                    let po = param_offset(pd, &psp, l, c, j);
                    let (g, b) = (scale.get(po).to_f64(), bias.get(po).to_f64());
                    members(&mut |n, s| {
                        let v = (x.get(xa.at(n, c, s)).to_f64() - mean) * inv * g + b;
                        blend(y, ya.at(n, c, s), T::from_f64(v), alpha, beta);
                    });
                    if !rm.0.is_null() {
                        let f = t.factor;
                        let unbiased = var * m / (m - 1.0);
                        rm.set(po, T::from_f64((1.0 - f) * rm.get(po).to_f64() + f * mean));
                        rv.set(
                            po,
                            T::from_f64((1.0 - f) * rv.get(po).to_f64() + f * unbiased),
                        );
                    }
                    if !sm.0.is_null() {
                        sm.set(po, T::from_f64(mean));
                        siv.set(po, T::from_f64(inv));
                    }
                }
            }
        });
    })
}

/// `cudnnBatchNormalizationForwardInference`: normalises with the
/// estimated mean and variance.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnBatchNormalizationForwardInference(
    h: *mut Handle,
    mode: c_int,
    alpha: *const c_void,
    beta: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    yd: *const TensorDesc,
    y: *mut c_void,
    pd: *const TensorDesc,
    scale: *const c_void,
    bias: *const c_void,
    mean: *const c_void,
    var: *const c_void,
    epsilon: f64,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let (xd, yd, pd) = (tensor(xd)?, tensor(yd)?, tensor(pd)?);
        non_null(&[alpha, beta, x, y.cast_const(), scale, bias, mean, var])?;
        check(xd.dims == yd.dims && xd.dtype == yd.dtype && epsilon >= 0.0)?;
        let l = Layout::new(mode, xd, pd)?;
        let descs = [xd.clone(), yd.clone(), pd.clone()];
        let ptrs = [x, y.cast_const(), scale, bias, mean, var];
        by_type!(
            xd.dtype,
            infer(h.stream, alpha, beta, l, descs, ptrs, epsilon)
        )
    })
}

unsafe fn infer<T: Real>(
    stream: *mut c_void,
    alpha: *const c_void,
    beta: *const c_void,
    l: Layout,
    descs: [TensorDesc; 3],
    ptrs: [*const c_void; 6],
    epsilon: f64,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let [x, y, scale, bias, mean, var] = ptrs.map(Ptr::<T>::from_const);
    submit(stream, move || {
        let [xd, yd, pd] = &descs;
        let (xa, ya) = (Access::of(xd), Access::of(yd));
        let psp = offsets(&pd.dims[2..], &pd.strides[2..]);
        (0..l.c).into_par_iter().for_each(|c| {
            for n in 0..l.n {
                for s in 0..l.s {
                    let po = param_offset(pd, &psp, &l, c, if l.spatial { 0 } else { s });
                    // SAFETY: offsets come from validated descriptors.
                    unsafe {
                        let inv = 1.0 / (var.get(po).to_f64() + epsilon).sqrt();
                        let v = (x.get(xa.at(n, c, s)).to_f64() - mean.get(po).to_f64())
                            * inv
                            * scale.get(po).to_f64()
                            + bias.get(po).to_f64();
                        blend(y, ya.at(n, c, s), T::from_f64(v), alpha, beta);
                    }
                }
            }
        });
    })
}

/// `cudnnBatchNormalizationBackward`: dx blended with the data factors,
/// d(scale) and d(bias) with the parameter factors; the saved mean and
/// inverse deviation are used when given, else recomputed from x.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnBatchNormalizationBackward(
    h: *mut Handle,
    mode: c_int,
    alpha_data: *const c_void,
    beta_data: *const c_void,
    alpha_param: *const c_void,
    beta_param: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    dxd: *const TensorDesc,
    dx: *mut c_void,
    pd: *const TensorDesc,
    scale: *const c_void,
    dscale: *mut c_void,
    dbias: *mut c_void,
    epsilon: f64,
    saved_mean: *const c_void,
    saved_inv_var: *const c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let (xd, dyd, dxd, pd) = (tensor(xd)?, tensor(dyd)?, tensor(dxd)?, tensor(pd)?);
        non_null(&[
            alpha_data,
            beta_data,
            alpha_param,
            beta_param,
            x,
            dy,
            dx.cast_const(),
            scale,
        ])?;
        non_null(&[dscale.cast_const(), dbias.cast_const()])?;
        check(xd.dims == dyd.dims && xd.dims == dxd.dims && epsilon >= 0.0)?;
        check(xd.dtype == dyd.dtype && xd.dtype == dxd.dtype)?;
        check(saved_mean.is_null() == saved_inv_var.is_null())?;
        let l = Layout::new(mode, xd, pd)?;
        let b = Back {
            l,
            descs: [xd.clone(), dyd.clone(), dxd.clone(), pd.clone()],
            ptrs: [
                x,
                dy,
                dx.cast_const(),
                scale,
                dscale.cast_const(),
                dbias.cast_const(),
                saved_mean,
                saved_inv_var,
            ],
            factors: [alpha_data, beta_data, alpha_param, beta_param],
            epsilon,
        };
        by_type!(xd.dtype, back(h.stream, b))
    })
}

struct Back {
    l: Layout,
    descs: [TensorDesc; 4],
    ptrs: [*const c_void; 8],
    factors: [*const c_void; 4],
    epsilon: f64,
}

unsafe fn back<T: Real>(stream: *mut c_void, b: Back) -> Result<()> {
    let [ad, bd, ap, bp] = b.factors.map(|p| T::read_scalar(p));
    let [x, dy, dx, scale, dscale, dbias, sm, siv] = b.ptrs.map(Ptr::<T>::from_const);
    submit(stream, move || {
        let [xd, dyd, dxd, pd] = &b.descs;
        let (xa, dya, dxa) = (Access::of(xd), Access::of(dyd), Access::of(dxd));
        let psp = offsets(&pd.dims[2..], &pd.strides[2..]);
        let l = &b.l;
        let m = l.count() as f64;
        (0..l.c).into_par_iter().for_each(|c| {
            for j in 0..l.per_channel() {
                let members = |f: &mut dyn FnMut(usize, usize)| l.members(j, f);
                let po = param_offset(pd, &psp, l, c, j);
                // SAFETY (whole block): offsets come from validated descriptors.
                unsafe {
                    let (mean, inv) = if sm.0.is_null() {
                        let mut sum = 0.0;
                        members(&mut |n, s| sum += x.get(xa.at(n, c, s)).to_f64());
                        let mean = sum / m;
                        let mut sq = 0.0;
                        members(&mut |n, s| {
                            let d = x.get(xa.at(n, c, s)).to_f64() - mean;
                            sq += d * d;
                        });
                        (mean, 1.0 / (sq / m + b.epsilon).sqrt())
                    } else {
                        (sm.get(po).to_f64(), siv.get(po).to_f64())
                    };
                    let (mut db, mut ds) = (0.0, 0.0);
                    members(&mut |n, s| {
                        let g = dy.get(dya.at(n, c, s)).to_f64();
                        db += g;
                        ds += g * (x.get(xa.at(n, c, s)).to_f64() - mean) * inv;
                    });
                    let gamma = scale.get(po).to_f64();
                    members(&mut |n, s| {
                        let xhat = (x.get(xa.at(n, c, s)).to_f64() - mean) * inv;
                        let g = dy.get(dya.at(n, c, s)).to_f64();
                        let v = gamma * inv / m * (m * g - db - xhat * ds);
                        blend(dx, dxa.at(n, c, s), T::from_f64(v), ad, bd);
                    });
                    blend(dscale, po, T::from_f64(ds), ap, bp);
                    blend(dbias, po, T::from_f64(db), ap, bp);
                }
            }
        });
    })
}
