//! The convolution entry points: forward, backward data, backward filter,
//! backward bias, the fused bias + activation forward, workspace sizes and
//! the algorithm queries.

use std::ffi::{c_int, c_void};

use rayon::prelude::*;

use super::algo::{engine, heuristic, measure, rank, workspace_bytes, AlgoPerf, Dir};
use super::exec::{self, Engine};
use super::Geom;
use crate::activation::{forward_value, IDENTITY};
use crate::desc::{conv, filter, tensor, ActivationDesc, ConvDesc, FilterDesc, TensorDesc};
use crate::handle::{handle, Handle};
use crate::scalar::{blend, Ptr, Real};
use crate::status::{check, guard, supported, Result, Status};
use crate::stream::{submit, synchronize};
use crate::strided::{par_walk, walk};

/// Runs one direction's engine. Operands are (x, w, y) forward, (w, dy, dx)
/// backward data and (x, dy, dw) backward filter.
///
/// # Safety
/// The pointers must hold what `g` describes; `ws` the engine's workspace.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run<T: Real>(
    g: &Geom,
    dir: Dir,
    e: Engine,
    a: Ptr<T>,
    b: Ptr<T>,
    out: Ptr<T>,
    alpha: T,
    beta: T,
    ws: Ptr<T>,
) {
    match dir {
        Dir::Forward => exec::forward(g, e, a, b, out, alpha, beta, ws),
        Dir::BackwardData => exec::backward_data(g, e, a, b, out, alpha, beta, ws),
        Dir::BackwardFilter => exec::backward_filter(g, e, a, b, out, alpha, beta, ws),
    }
}

/// The raw operands of one call.
#[derive(Clone, Copy)]
struct Operands {
    a: *const c_void,
    b: *const c_void,
    out: *mut c_void,
    ws: *mut c_void,
    ws_size: usize,
}

fn check_workspace(g: &Geom, need: usize, o: &Operands) -> Result<()> {
    check(o.ws_size >= need)?;
    if need > 0 {
        check(!o.ws.is_null() && (o.ws as usize) % g.dtype.size() == 0)?;
    }
    Ok(())
}

unsafe fn execute(
    h: &Handle,
    g: Geom,
    dir: Dir,
    algo: c_int,
    alpha: *const c_void,
    beta: *const c_void,
    o: Operands,
) -> Result<()> {
    check(
        !alpha.is_null() && !beta.is_null() && !o.a.is_null() && !o.b.is_null() && !o.out.is_null(),
    )?;
    let e = engine(dir, algo)?;
    check_workspace(&g, workspace_bytes(&g, dir, e), &o)?;
    by_type!(g.dtype, queue(h.stream, g, dir, e, alpha, beta, o))
}

unsafe fn queue<T: Real>(
    stream: *mut c_void,
    g: Geom,
    dir: Dir,
    e: Engine,
    alpha: *const c_void,
    beta: *const c_void,
    o: Operands,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (a, b, out, ws) = (
        Ptr::<T>::from_const(o.a),
        Ptr::<T>::from_const(o.b),
        Ptr::<T>::from_mut(o.out),
        Ptr::<T>::from_mut(o.ws),
    );
    // SAFETY: checked by `execute`; the program keeps the buffers alive
    // until the stream has run this work.
    submit(stream, move || unsafe {
        run(&g, dir, e, a, b, out, alpha, beta, ws)
    })
}

unsafe fn fwd_geom(
    xd: *const TensorDesc,
    wd: *const FilterDesc,
    cd: *const ConvDesc,
    yd: *const TensorDesc,
) -> Result<Geom> {
    Geom::new(tensor(xd)?, filter(wd)?, conv(cd)?, Some(tensor(yd)?))
}

/// `cudnnConvolutionForward`: `y = alpha * conv(x, w) + beta * y`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnConvolutionForward(
    h: *mut Handle,
    alpha: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    wd: *const FilterDesc,
    w: *const c_void,
    cd: *const ConvDesc,
    algo: c_int,
    ws: *mut c_void,
    ws_size: usize,
    beta: *const c_void,
    yd: *const TensorDesc,
    y: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let g = fwd_geom(xd, wd, cd, yd)?;
        let o = Operands {
            a: x,
            b: w,
            out: y,
            ws,
            ws_size,
        };
        execute(h, g, Dir::Forward, algo, alpha, beta, o)
    })
}

/// `cudnnConvolutionBackwardData`: `dx = alpha * conv^T(dy, w) + beta * dx`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnConvolutionBackwardData(
    h: *mut Handle,
    alpha: *const c_void,
    wd: *const FilterDesc,
    w: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    cd: *const ConvDesc,
    algo: c_int,
    ws: *mut c_void,
    ws_size: usize,
    beta: *const c_void,
    dxd: *const TensorDesc,
    dx: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let g = fwd_geom(dxd, wd, cd, dyd)?;
        let o = Operands {
            a: w,
            b: dy,
            out: dx,
            ws,
            ws_size,
        };
        execute(h, g, Dir::BackwardData, algo, alpha, beta, o)
    })
}

/// `cudnnConvolutionBackwardFilter`: `dw = alpha * corr(x, dy) + beta * dw`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnConvolutionBackwardFilter(
    h: *mut Handle,
    alpha: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    cd: *const ConvDesc,
    algo: c_int,
    ws: *mut c_void,
    ws_size: usize,
    beta: *const c_void,
    dwd: *const FilterDesc,
    dw: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let g = fwd_geom(xd, dwd, cd, dyd)?;
        let o = Operands {
            a: x,
            b: dy,
            out: dw,
            ws,
            ws_size,
        };
        execute(h, g, Dir::BackwardFilter, algo, alpha, beta, o)
    })
}

/// `cudnnConvolutionBackwardBias`: `db = alpha * sum(dy over N and space)
/// + beta * db`, db of extents 1 x K x 1 x ... .
#[no_mangle]
pub unsafe extern "C" fn cudnnConvolutionBackwardBias(
    h: *mut Handle,
    alpha: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    beta: *const c_void,
    dbd: *const TensorDesc,
    db: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let (dyd, dbd) = (tensor(dyd)?, tensor(dbd)?);
        check(!alpha.is_null() && !beta.is_null() && !dy.is_null() && !db.is_null())?;
        check(dyd.dtype == dbd.dtype && dyd.dims.len() == dbd.dims.len())?;
        check(
            dbd.dims[1] == dyd.dims[1]
                && dbd.dims.iter().enumerate().all(|(i, &d)| i == 1 || d == 1),
        )?;
        by_type!(
            dyd.dtype,
            bias_grad(h.stream, alpha, beta, dyd.clone(), dy, dbd.strides[1], db)
        )
    })
}

unsafe fn bias_grad<T: Real>(
    stream: *mut c_void,
    alpha: *const c_void,
    beta: *const c_void,
    dyd: TensorDesc,
    dy: *const c_void,
    db_stride: usize,
    db: *mut c_void,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (dy, db) = (Ptr::<T>::from_const(dy), Ptr::<T>::from_mut(db));
    submit(stream, move || {
        let k = dyd.dims[1];
        let mut rest_dims = dyd.dims.clone();
        let mut rest_strides = dyd.strides.clone();
        rest_dims.remove(1);
        rest_strides.remove(1);
        (0..k).into_par_iter().for_each(|c| {
            let mut sum = 0.0f64;
            walk(&rest_dims, [&rest_strides], |[o]| {
                // SAFETY: offsets come from the validated descriptor.
                sum += unsafe { dy.get(c * dyd.strides[1] + o) }.to_f64();
            });
            // SAFETY: db has k elements at `db_stride`.
            unsafe { blend(db, c * db_stride, T::from_f64(sum), alpha, beta) };
        });
    })
}

/// `cudnnConvolutionBiasActivationForward`:
/// `y = act(alpha1 * conv(x, w) + alpha2 * z + bias)`, with relu or
/// identity (other activations: `NOT_SUPPORTED`, as in cuDNN).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnConvolutionBiasActivationForward(
    h: *mut Handle,
    alpha1: *const c_void,
    xd: *const TensorDesc,
    x: *const c_void,
    wd: *const FilterDesc,
    w: *const c_void,
    cd: *const ConvDesc,
    algo: c_int,
    ws: *mut c_void,
    ws_size: usize,
    alpha2: *const c_void,
    zd: *const TensorDesc,
    z: *const c_void,
    biasd: *const TensorDesc,
    bias: *const c_void,
    act: *const ActivationDesc,
    yd: *const TensorDesc,
    y: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let g = fwd_geom(xd, wd, cd, yd)?;
        let (ydesc, zdesc, bdesc) = (tensor(yd)?, tensor(zd)?, tensor(biasd)?);
        let a = *act.as_ref().ok_or(Status::BAD_PARAM)?;
        supported(a.mode == 1 || a.mode == IDENTITY)?;
        let ptrs = [alpha1, x, w, alpha2, z, bias, y.cast_const()];
        check(ptrs.iter().all(|p| !p.is_null()))?;
        check(
            zdesc.dims == ydesc.dims && zdesc.dtype == ydesc.dtype && bdesc.dtype == ydesc.dtype,
        )?;
        check(bdesc.dims.len() == ydesc.dims.len() && bdesc.dims[1] == g.k)?;
        check(
            bdesc
                .dims
                .iter()
                .enumerate()
                .all(|(i, &d)| i == 1 || d == 1),
        )?;
        let e = engine(Dir::Forward, algo)?;
        let o = Operands {
            a: x,
            b: w,
            out: y,
            ws,
            ws_size,
        };
        check_workspace(&g, workspace_bytes(&g, Dir::Forward, e), &o)?;
        let f = Fused {
            alpha1,
            alpha2,
            z,
            z_strides: zdesc.strides.clone(),
            bias,
            bias_stride: bdesc.strides[1],
            y_desc: ydesc.clone(),
            act: a,
        };
        by_type!(g.dtype, fused(h.stream, g, e, o, f))
    })
}

struct Fused {
    alpha1: *const c_void,
    alpha2: *const c_void,
    z: *const c_void,
    z_strides: Vec<usize>,
    bias: *const c_void,
    bias_stride: usize,
    y_desc: TensorDesc,
    act: ActivationDesc,
}

unsafe fn fused<T: Real>(
    stream: *mut c_void,
    g: Geom,
    e: Engine,
    o: Operands,
    f: Fused,
) -> Result<()> {
    let (a1, a2) = (T::read_scalar(f.alpha1), T::read_scalar(f.alpha2));
    let (x, w, y, ws) = (
        Ptr::<T>::from_const(o.a),
        Ptr::<T>::from_const(o.b),
        Ptr::<T>::from_mut(o.out),
        Ptr::<T>::from_mut(o.ws),
    );
    let (z, bias) = (Ptr::<T>::from_const(f.z), Ptr::<T>::from_const(f.bias));
    submit(stream, move || {
        // z may alias y (residual connections), so the convolution goes to
        // a temporary laid out like y.
        let mut tmp = vec![T::ZERO; f.y_desc.span()];
        let t = Ptr(tmp.as_mut_ptr());
        // SAFETY: `t` has y's span; the other operands were checked.
        unsafe { exec::forward(&g, e, x, w, t, a1, T::ZERO, ws) };
        let ys = &f.y_desc.strides;
        par_walk(&f.y_desc.dims, [ys, &f.z_strides], |[oy, oz]| {
            // SAFETY: offsets come from the validated descriptors.
            unsafe { y.set(oy, t.get(oy) + a2 * z.get(oz)) };
        });
        // Bias and activation per channel (a second pass keeps the channel
        // index explicit for any layout).
        let dims = &f.y_desc.dims;
        let mut rest_dims = dims.clone();
        let mut rest_strides = ys.clone();
        rest_dims.remove(1);
        rest_strides.remove(1);
        (0..dims[1]).into_par_iter().for_each(|c| {
            // SAFETY: bias has one element per channel.
            let b = unsafe { bias.get(c * f.bias_stride) };
            walk(&rest_dims, [&rest_strides], |[o]| {
                let off = c * ys[1] + o;
                // SAFETY: as above.
                unsafe { y.set(off, forward_value(&f.act, y.get(off) + b)) };
            });
        });
    })
}

// --------------------------------------------------------- workspace sizes

unsafe fn workspace_query(g: Result<Geom>, dir: Dir, algo: c_int, size: *mut usize) -> Result<()> {
    let g = g?;
    check(!size.is_null())?;
    *size = workspace_bytes(&g, dir, engine(dir, algo)?);
    Ok(())
}

/// `cudnnGetConvolutionForwardWorkspaceSize`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionForwardWorkspaceSize(
    h: *mut Handle,
    xd: *const TensorDesc,
    wd: *const FilterDesc,
    cd: *const ConvDesc,
    yd: *const TensorDesc,
    algo: c_int,
    size: *mut usize,
) -> Status {
    guard(|| {
        handle(h)?;
        workspace_query(fwd_geom(xd, wd, cd, yd), Dir::Forward, algo, size)
    })
}

/// `cudnnGetConvolutionBackwardDataWorkspaceSize`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionBackwardDataWorkspaceSize(
    h: *mut Handle,
    wd: *const FilterDesc,
    dyd: *const TensorDesc,
    cd: *const ConvDesc,
    dxd: *const TensorDesc,
    algo: c_int,
    size: *mut usize,
) -> Status {
    guard(|| {
        handle(h)?;
        workspace_query(fwd_geom(dxd, wd, cd, dyd), Dir::BackwardData, algo, size)
    })
}

/// `cudnnGetConvolutionBackwardFilterWorkspaceSize`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionBackwardFilterWorkspaceSize(
    h: *mut Handle,
    xd: *const TensorDesc,
    dyd: *const TensorDesc,
    cd: *const ConvDesc,
    dwd: *const FilterDesc,
    algo: c_int,
    size: *mut usize,
) -> Status {
    guard(|| {
        handle(h)?;
        workspace_query(fwd_geom(xd, dwd, cd, dyd), Dir::BackwardFilter, algo, size)
    })
}

// ------------------------------------------------------- algorithm queries

unsafe fn max_count(h: *mut Handle, dir: Dir, count: *mut c_int) -> Status {
    guard(|| {
        handle(h)?;
        check(!count.is_null())?;
        *count = dir.count() as c_int;
        Ok(())
    })
}

/// `cudnnGetConvolutionForwardAlgorithmMaxCount`: 8 (every id is reported).
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionForwardAlgorithmMaxCount(
    h: *mut Handle,
    count: *mut c_int,
) -> Status {
    max_count(h, Dir::Forward, count)
}

/// `cudnnGetConvolutionBackwardDataAlgorithmMaxCount`: 6.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionBackwardDataAlgorithmMaxCount(
    h: *mut Handle,
    count: *mut c_int,
) -> Status {
    max_count(h, Dir::BackwardData, count)
}

/// `cudnnGetConvolutionBackwardFilterAlgorithmMaxCount`: 7.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(
    h: *mut Handle,
    count: *mut c_int,
) -> Status {
    max_count(h, Dir::BackwardFilter, count)
}

unsafe fn report(
    list: &[AlgoPerf],
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Result<()> {
    let n = (requested as usize).min(list.len());
    for (i, p) in list.iter().take(n).enumerate() {
        *results.add(i) = *p;
    }
    *returned = n as c_int;
    Ok(())
}

unsafe fn get_v7(
    g: Result<Geom>,
    dir: Dir,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Result<()> {
    let g = g?;
    check(requested > 0 && !returned.is_null() && !results.is_null())?;
    report(&heuristic(&g, dir), requested, returned, results)
}

/// `cudnnGetConvolutionForwardAlgorithm_v7`: every id, implemented ones
/// first by estimated time.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetConvolutionForwardAlgorithm_v7(
    h: *mut Handle,
    xd: *const TensorDesc,
    wd: *const FilterDesc,
    cd: *const ConvDesc,
    yd: *const TensorDesc,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Status {
    guard(|| {
        handle(h)?;
        get_v7(
            fwd_geom(xd, wd, cd, yd),
            Dir::Forward,
            requested,
            returned,
            results,
        )
    })
}

/// `cudnnGetConvolutionBackwardDataAlgorithm_v7`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetConvolutionBackwardDataAlgorithm_v7(
    h: *mut Handle,
    wd: *const FilterDesc,
    dyd: *const TensorDesc,
    cd: *const ConvDesc,
    dxd: *const TensorDesc,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Status {
    guard(|| {
        handle(h)?;
        get_v7(
            fwd_geom(dxd, wd, cd, dyd),
            Dir::BackwardData,
            requested,
            returned,
            results,
        )
    })
}

/// `cudnnGetConvolutionBackwardFilterAlgorithm_v7`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetConvolutionBackwardFilterAlgorithm_v7(
    h: *mut Handle,
    xd: *const TensorDesc,
    dyd: *const TensorDesc,
    cd: *const ConvDesc,
    dwd: *const FilterDesc,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Status {
    guard(|| {
        handle(h)?;
        get_v7(
            fwd_geom(xd, dwd, cd, dyd),
            Dir::BackwardFilter,
            requested,
            returned,
            results,
        )
    })
}

/// Element spans of the (a, b, out) operands of `dir`.
fn spans(g: &Geom, dir: Dir) -> [usize; 3] {
    let span5 =
        |dims: [usize; 5], s: &[usize; 5]| 1 + (0..5).map(|i| (dims[i] - 1) * s[i]).sum::<usize>();
    let x = span5([g.n, g.c, g.in_sp[0], g.in_sp[1], g.in_sp[2]], &g.xs);
    let y = span5([g.n, g.k, g.out_sp[0], g.out_sp[1], g.out_sp[2]], &g.ys);
    let w = g.k * g.cg * g.taps();
    match dir {
        Dir::Forward => [x, w, y],
        Dir::BackwardData => [w, y, x],
        Dir::BackwardFilter => [x, y, w],
    }
}

/// Times every implemented algorithm on the calling thread after the
/// stream has drained. With `user` operands the results land in the
/// user's output (as cuDNN's `Find*Ex` do) and algorithms needing more
/// workspace than given report `CUDNN_STATUS_ALLOC_FAILED`; without,
/// buffers are allocated here.
unsafe fn find_typed<T: Real>(g: &Geom, dir: Dir, user: Option<Operands>) -> Vec<AlgoPerf> {
    let [la, lb, lo] = spans(g, dir);
    let mut own_a = Vec::new();
    let mut own_b = Vec::new();
    let mut own_o = Vec::new();
    let (a, b, out, ws_size) = match user {
        Some(o) => (
            Ptr::<T>::from_const(o.a),
            Ptr::<T>::from_const(o.b),
            Ptr::<T>::from_mut(o.out),
            Some(o.ws_size),
        ),
        None => {
            own_a = (0..la)
                .map(|i| T::from_f64((i % 7) as f64 * 0.25 - 0.75))
                .collect();
            own_b = (0..lb)
                .map(|i| T::from_f64((i % 5) as f64 * 0.125 - 0.25))
                .collect();
            own_o = vec![T::ZERO; lo];
            (
                Ptr(own_a.as_mut_ptr()),
                Ptr(own_b.as_mut_ptr()),
                Ptr(own_o.as_mut_ptr()),
                None,
            )
        }
    };
    let list = rank(g, dir, |e, mem| {
        let mut own_ws = Vec::new();
        let ws = match (user, ws_size) {
            (Some(o), Some(size)) => {
                if mem > size {
                    return Err(Status::ALLOC_FAILED);
                }
                Ptr::<T>::from_mut(o.ws)
            }
            _ => {
                own_ws = vec![T::ZERO; mem / std::mem::size_of::<T>()];
                Ptr(own_ws.as_mut_ptr())
            }
        };
        let t = measure(|| run(g, dir, e, a, b, out, T::ONE, T::ZERO, ws));
        drop(own_ws);
        Ok(t)
    });
    drop((own_a, own_b, own_o));
    list
}

unsafe fn find(
    h: *mut Handle,
    g: Result<Geom>,
    dir: Dir,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
    user: Option<Operands>,
) -> Result<()> {
    let h = handle(h)?;
    let g = g?;
    check(requested > 0 && !returned.is_null() && !results.is_null())?;
    if let Some(o) = user {
        check(!o.a.is_null() && !o.b.is_null() && !o.out.is_null())?;
        check(o.ws_size == 0 || !o.ws.is_null())?;
    }
    synchronize(h.stream)?;
    let list = by_type!(g.dtype, find_ok(&g, dir, user))?;
    report(&list, requested, returned, results)
}

unsafe fn find_ok<T: Real>(g: &Geom, dir: Dir, user: Option<Operands>) -> Result<Vec<AlgoPerf>> {
    Ok(find_typed::<T>(g, dir, user))
}

/// `cudnnFindConvolutionForwardAlgorithm`: measured on buffers of its own.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnFindConvolutionForwardAlgorithm(
    h: *mut Handle,
    xd: *const TensorDesc,
    wd: *const FilterDesc,
    cd: *const ConvDesc,
    yd: *const TensorDesc,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Status {
    guard(|| {
        find(
            h,
            fwd_geom(xd, wd, cd, yd),
            Dir::Forward,
            requested,
            returned,
            results,
            None,
        )
    })
}

/// `cudnnFindConvolutionForwardAlgorithmEx`: measured on the caller's
/// buffers and workspace (y is overwritten).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnFindConvolutionForwardAlgorithmEx(
    h: *mut Handle,
    xd: *const TensorDesc,
    x: *const c_void,
    wd: *const FilterDesc,
    w: *const c_void,
    cd: *const ConvDesc,
    yd: *const TensorDesc,
    y: *mut c_void,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
    ws: *mut c_void,
    ws_size: usize,
) -> Status {
    guard(|| {
        let o = Operands {
            a: x,
            b: w,
            out: y,
            ws,
            ws_size,
        };
        find(
            h,
            fwd_geom(xd, wd, cd, yd),
            Dir::Forward,
            requested,
            returned,
            results,
            Some(o),
        )
    })
}

/// `cudnnFindConvolutionBackwardDataAlgorithm`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnFindConvolutionBackwardDataAlgorithm(
    h: *mut Handle,
    wd: *const FilterDesc,
    dyd: *const TensorDesc,
    cd: *const ConvDesc,
    dxd: *const TensorDesc,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Status {
    guard(|| {
        find(
            h,
            fwd_geom(dxd, wd, cd, dyd),
            Dir::BackwardData,
            requested,
            returned,
            results,
            None,
        )
    })
}

/// `cudnnFindConvolutionBackwardDataAlgorithmEx` (dx is overwritten).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnFindConvolutionBackwardDataAlgorithmEx(
    h: *mut Handle,
    wd: *const FilterDesc,
    w: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    cd: *const ConvDesc,
    dxd: *const TensorDesc,
    dx: *mut c_void,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
    ws: *mut c_void,
    ws_size: usize,
) -> Status {
    guard(|| {
        let o = Operands {
            a: w,
            b: dy,
            out: dx,
            ws,
            ws_size,
        };
        find(
            h,
            fwd_geom(dxd, wd, cd, dyd),
            Dir::BackwardData,
            requested,
            returned,
            results,
            Some(o),
        )
    })
}

/// `cudnnFindConvolutionBackwardFilterAlgorithm`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnFindConvolutionBackwardFilterAlgorithm(
    h: *mut Handle,
    xd: *const TensorDesc,
    dyd: *const TensorDesc,
    cd: *const ConvDesc,
    dwd: *const FilterDesc,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
) -> Status {
    guard(|| {
        find(
            h,
            fwd_geom(xd, dwd, cd, dyd),
            Dir::BackwardFilter,
            requested,
            returned,
            results,
            None,
        )
    })
}

/// `cudnnFindConvolutionBackwardFilterAlgorithmEx` (dw is overwritten).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnFindConvolutionBackwardFilterAlgorithmEx(
    h: *mut Handle,
    xd: *const TensorDesc,
    x: *const c_void,
    dyd: *const TensorDesc,
    dy: *const c_void,
    cd: *const ConvDesc,
    dwd: *const FilterDesc,
    dw: *mut c_void,
    requested: c_int,
    returned: *mut c_int,
    results: *mut AlgoPerf,
    ws: *mut c_void,
    ws_size: usize,
) -> Status {
    guard(|| {
        let o = Operands {
            a: x,
            b: dy,
            out: dw,
            ws,
            ws_size,
        };
        find(
            h,
            fwd_geom(xd, dwd, cd, dyd),
            Dir::BackwardFilter,
            requested,
            returned,
            results,
            Some(o),
        )
    })
}
