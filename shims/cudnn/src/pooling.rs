//! Pooling: max and average (padding counted or not), 1-D to 3-D windows,
//! forward and backward, with output-dimension queries.

use std::ffi::{c_int, c_void};

use rayon::prelude::*;

use crate::desc::{pooling, tensor, write_nchw, PoolingDesc, TensorDesc};
use crate::handle::{handle, Handle};
use crate::scalar::{blend, Ptr, Real};
use crate::status::{check, guard, Result, Status};
use crate::stream::submit;
use crate::strided::offsets;

/// A checked pooling over one x shape, normalised to 3 spatial dimensions.
#[derive(Clone, Debug)]
struct Pool {
    mode: c_int,
    propagate_nan: bool,
    n: usize,
    c: usize,
    in_sp: [usize; 3],
    out_sp: [usize; 3],
    win: [usize; 3],
    pad: [usize; 3],
    stride: [usize; 3],
}

fn to3(v: &[usize], fill: usize) -> [usize; 3] {
    let mut out = [fill; 3];
    out[3 - v.len()..].copy_from_slice(v);
    out
}

impl Pool {
    fn new(p: &PoolingDesc, xd: &TensorDesc) -> Result<Pool> {
        let sp = p.window.len();
        check(xd.dims.len() == sp + 2)?;
        let mut out = Vec::with_capacity(sp);
        for i in 0..sp {
            let inp = xd.dims[2 + i] + 2 * p.pad[i];
            check(inp >= p.window[i] && p.pad[i] < p.window[i])?;
            out.push((inp - p.window[i]) / p.stride[i] + 1);
        }
        Ok(Pool {
            mode: p.mode,
            propagate_nan: p.propagate_nan,
            n: xd.dims[0],
            c: xd.dims[1],
            in_sp: to3(&xd.dims[2..], 1),
            out_sp: to3(&out, 1),
            win: to3(&p.window, 1),
            pad: to3(&p.pad, 0),
            stride: to3(&p.stride, 1),
        })
    }

    fn out_dims(&self, nb: usize) -> Vec<usize> {
        let mut v = vec![self.n, self.c];
        v.extend_from_slice(&self.out_sp[3 - (nb - 2)..]);
        v
    }

    fn is_max(&self) -> bool {
        self.mode == 0 || self.mode == 3
    }

    /// Linear input positions under output position `o`, and the divisor
    /// for averages.
    fn window(&self, o: usize, cells: &mut Vec<usize>) -> usize {
        let [od, oh, ow] = self.out_sp;
        let idx = [o / (oh * ow), o / ow % oh, o % ow];
        let _ = od;
        let mut lo = [0usize; 3];
        let mut hi = [0usize; 3];
        for i in 0..3 {
            let start = (idx[i] * self.stride[i]) as isize - self.pad[i] as isize;
            let end = start + self.win[i] as isize;
            lo[i] = start.max(0) as usize;
            hi[i] = (end.min(self.in_sp[i] as isize)).max(0) as usize;
        }
        cells.clear();
        for d in lo[0]..hi[0] {
            for h in lo[1]..hi[1] {
                for w in lo[2]..hi[2] {
                    cells.push((d * self.in_sp[1] + h) * self.in_sp[2] + w);
                }
            }
        }
        if self.mode == 1 {
            self.win.iter().product()
        } else {
            cells.len().max(1)
        }
    }
}

/// `cudnnGetPooling2dForwardOutputDim`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetPooling2dForwardOutputDim(
    pd: *const PoolingDesc,
    xd: *const TensorDesc,
    n: *mut c_int,
    c: *mut c_int,
    h: *mut c_int,
    w: *mut c_int,
) -> Status {
    guard(|| {
        let mut out = [0 as c_int; 4];
        let s = cudnnGetPoolingNdForwardOutputDim(pd, xd, 4, out.as_mut_ptr());
        write_nchw(s, out, [n, c, h, w])
    })
}

/// `cudnnGetPoolingNdForwardOutputDim`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetPoolingNdForwardOutputDim(
    pd: *const PoolingDesc,
    xd: *const TensorDesc,
    nb: c_int,
    out: *mut c_int,
) -> Status {
    guard(|| {
        let (p, xd) = (pooling(pd)?, tensor(xd)?);
        check(!out.is_null() && nb as usize == xd.dims.len())?;
        let pool = Pool::new(p, xd)?;
        for (i, d) in pool.out_dims(xd.dims.len()).into_iter().enumerate() {
            *out.add(i) = d as c_int;
        }
        Ok(())
    })
}

fn sp_offsets(sp: &[usize; 3], d: &TensorDesc) -> Vec<usize> {
    let nb = d.dims.len();
    let mut s = [0usize; 3];
    s[3 - (nb - 2)..].copy_from_slice(&d.strides[2..]);
    offsets(sp, &s)
}

/// `cudnnPoolingForward`: `y = alpha * pool(x) + beta * y`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnPoolingForward(
    h: *mut Handle,
    pd: *const PoolingDesc,
    alpha: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    beta: *const c_void,
    yd: *const TensorDesc,
    y: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let (p, xd, yd) = (pooling(pd)?, tensor(xd)?, tensor(yd)?);
        check(!alpha.is_null() && !beta.is_null() && !x.is_null() && !y.is_null())?;
        let pool = Pool::new(p, xd)?;
        check(yd.dims == pool.out_dims(xd.dims.len()) && yd.dtype == xd.dtype)?;
        let (xd, yd) = (xd.clone(), yd.clone());
        by_type!(xd.dtype, forward(h.stream, pool, alpha, beta, xd, x, yd, y))
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn forward<T: Real>(
    stream: *mut c_void,
    pool: Pool,
    alpha: *const c_void,
    beta: *const c_void,
    xd: TensorDesc,
    x: *const c_void,
    yd: TensorDesc,
    y: *mut c_void,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (x, y) = (Ptr::<T>::from_const(x), Ptr::<T>::from_mut(y));
    submit(stream, move || {
        let xsp = sp_offsets(&pool.in_sp, &xd);
        let ysp = sp_offsets(&pool.out_sp, &yd);
        (0..pool.n * pool.c)
            .into_par_iter()
            .for_each_init(Vec::new, |cells, nc| {
                let (n, c) = (nc / pool.c, nc % pool.c);
                let xb = n * xd.strides[0] + c * xd.strides[1];
                let yb = n * yd.strides[0] + c * yd.strides[1];
                for (o, &yo) in ysp.iter().enumerate() {
                    let div = pool.window(o, cells);
                    // SAFETY: offsets come from the validated descriptors.
                    let v = unsafe {
                        if pool.is_max() {
                            let mut m: Option<T> = None;
                            for &i in cells.iter() {
                                let v = x.get(xb + xsp[i]);
                                if v.is_nan() && pool.propagate_nan {
                                    m = Some(v);
                                    break;
                                }
                                if m.is_none_or(|m| v > m) {
                                    m = Some(v);
                                }
                            }
                            m.unwrap_or(T::ZERO)
                        } else {
                            let mut s = T::ZERO;
                            for &i in cells.iter() {
                                s += x.get(xb + xsp[i]);
                            }
                            s / T::from_f64(div as f64)
                        }
                    };
                    // SAFETY: as above.
                    unsafe { blend(y, yb + yo, v, alpha, beta) };
                }
            });
    })
}

/// `cudnnPoolingBackward`: `dx = alpha * pool'(dy) + beta * dx`; max
/// pooling routes each gradient to the first maximum of its window in x.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnPoolingBackward(
    h: *mut Handle,
    pd: *const PoolingDesc,
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
        let p = pooling(pd)?;
        let (yd, dyd, xd, dxd) = (tensor(yd)?, tensor(dyd)?, tensor(xd)?, tensor(dxd)?);
        check(
            [alpha, beta, y, dy, x, dx.cast_const()]
                .iter()
                .all(|q| !q.is_null()),
        )?;
        let pool = Pool::new(p, xd)?;
        let od = pool.out_dims(xd.dims.len());
        check(yd.dims == od && dyd.dims == od && dxd.dims == xd.dims)?;
        check([yd, dyd, dxd].iter().all(|d| d.dtype == xd.dtype))?;
        let ds = (dyd.clone(), xd.clone(), dxd.clone());
        by_type!(
            xd.dtype,
            backward(h.stream, pool, alpha, beta, ds, dy, x, dx)
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn backward<T: Real>(
    stream: *mut c_void,
    pool: Pool,
    alpha: *const c_void,
    beta: *const c_void,
    (dyd, xd, dxd): (TensorDesc, TensorDesc, TensorDesc),
    dy: *const c_void,
    x: *const c_void,
    dx: *mut c_void,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (dy, x, dx) = (
        Ptr::<T>::from_const(dy),
        Ptr::<T>::from_const(x),
        Ptr::<T>::from_mut(dx),
    );
    submit(stream, move || {
        let xsp = sp_offsets(&pool.in_sp, &xd);
        let dxsp = sp_offsets(&pool.in_sp, &dxd);
        let dysp = sp_offsets(&pool.out_sp, &dyd);
        let pin: usize = pool.in_sp.iter().product();
        (0..pool.n * pool.c).into_par_iter().for_each_init(
            || (Vec::new(), vec![T::ZERO; pin]),
            |(cells, acc), nc| {
                let (n, c) = (nc / pool.c, nc % pool.c);
                let xb = n * xd.strides[0] + c * xd.strides[1];
                let dyb = n * dyd.strides[0] + c * dyd.strides[1];
                acc.fill(T::ZERO);
                for (o, &dyo) in dysp.iter().enumerate() {
                    let div = pool.window(o, cells);
                    // SAFETY: offsets come from the validated descriptors.
                    unsafe {
                        let g = dy.get(dyb + dyo);
                        if pool.is_max() {
                            let mut best: Option<(usize, T)> = None;
                            for &i in cells.iter() {
                                let v = x.get(xb + xsp[i]);
                                if best.is_none_or(|(_, m)| v > m) {
                                    best = Some((i, v));
                                }
                            }
                            if let Some((i, _)) = best {
                                acc[i] += g;
                            }
                        } else {
                            let share = g / T::from_f64(div as f64);
                            for &i in cells.iter() {
                                acc[i] += share;
                            }
                        }
                    }
                }
                let dxb = n * dxd.strides[0] + c * dxd.strides[1];
                for (i, &v) in acc.iter().enumerate() {
                    // SAFETY: as above.
                    unsafe { blend(dx, dxb + dxsp[i], v, alpha, beta) };
                }
            },
        );
    })
}
