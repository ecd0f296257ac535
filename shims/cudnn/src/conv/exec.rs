//! The convolution engines, for one checked [`Geom`].
//!
//! - **Direct** loops: no workspace; each task owns one output plane
//!   (forward: image x output channel; backward data: image x input
//!   channel; backward filter: output channel x input channel), so tasks
//!   never share a destination. Best for depthwise/grouped convolutions
//!   with few channels per group.
//! - **GEMM**: im2col + OpenBLAS GEMM per image and group (col2im after
//!   the transposed GEMM for backward data; GEMM against the transposed
//!   col matrix, accumulated per worker and reduced, for backward filter).
//!   A 1x1 unit-stride unpadded convolution over packed NCHW data reads
//!   the input as the matrix itself, and packed NCHW outputs receive the
//!   GEMM directly with cuDNN's `alpha`/`beta`. Scratch comes from the
//!   caller's workspace: one slice per worker, workers = min(batch, rayon
//!   threads).

use rayon::prelude::*;

use super::{col2im, col2im_at, im2col, im2col_at, in_index, pack_weights, valid_range, Geom};
use crate::scalar::{blend, Ptr, Real};
use crate::strided::offsets;

/// Which implementation an algorithm id runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Direct loops, no workspace.
    Direct,
    /// im2col/col2im + GEMM, with workspace.
    Gemm,
}

/// Parallel workers the GEMM engine splits a batch across.
pub fn workers(n: usize) -> usize {
    n.min(rayon::current_num_threads()).max(1)
}

/// Workspace elements the forward engine needs.
pub fn fwd_elems(g: &Geom, e: Engine) -> usize {
    match e {
        Engine::Direct => 0,
        Engine::Gemm if g.batch > 1 => {
            // Several images side by side: always gathered and scattered.
            let cols = g.batch * g.p_out();
            g.workers * (g.col_rows() * cols + g.kg * cols)
        }
        Engine::Gemm => {
            let p = g.p_out();
            let col = if g.x_is_matrix() { 0 } else { g.col_rows() * p };
            let out = if g.y_is_matrix() { 0 } else { g.kg * p };
            g.workers * (col + out)
        }
    }
}

/// Workspace elements the backward-data engine needs.
pub fn bwd_data_elems(g: &Geom, e: Engine) -> usize {
    match e {
        Engine::Direct => 0,
        Engine::Gemm if g.batch > 1 => {
            let cols = g.batch * g.p_out();
            g.workers * (g.col_rows() * cols + g.cg * g.p_in() + g.kg * cols)
        }
        Engine::Gemm => {
            let p = g.p_out();
            let (col, acc) = if g.x_is_matrix() {
                (0, 0)
            } else {
                (g.col_rows() * p, g.cg * g.p_in())
            };
            let dy = if g.y_is_matrix() { 0 } else { g.kg * p };
            g.workers * (col + acc + dy)
        }
    }
}

/// Workspace elements the backward-filter engine needs.
pub fn bwd_filter_elems(g: &Geom, e: Engine) -> usize {
    match e {
        Engine::Direct => 0,
        Engine::Gemm if g.batch > 1 => {
            let cols = g.batch * g.p_out();
            g.workers * (g.k * g.col_rows() + g.col_rows() * cols + g.kg * cols)
        }
        Engine::Gemm => {
            let p = g.p_out();
            let col = if g.x_is_matrix() { 0 } else { g.col_rows() * p };
            let dy = if g.y_is_matrix() { 0 } else { g.kg * p };
            g.workers * (g.k * g.col_rows() + col + dy)
        }
    }
}

fn sp_offsets(sp: &[usize; 3], s: &[usize; 5]) -> Vec<usize> {
    offsets(sp, &s[2..])
}

/// The (d, h, w) indices of filter tap `t`.
fn tap(g: &Geom, t: usize) -> (usize, usize, usize) {
    let [_, fh, fw] = g.filt;
    (t / (fh * fw), t / fw % fh, t % fw)
}

/// The user's workspace slice of worker `i`.
///
/// # Safety
/// `ws` must hold `(i + 1) * per` elements.
unsafe fn scratch<'a, T>(ws: Ptr<T>, i: usize, per: usize) -> &'a mut [T] {
    if per == 0 {
        return &mut [];
    }
    std::slice::from_raw_parts_mut(ws.0.add(i * per), per)
}

/// Calls `f(o, i)` for each output position `o` (linear in out_sp) and the
/// linear input position `i` it reads under tap `(kd, kh, kw)`.
#[inline(always)]
fn for_tap(g: &Geom, kd: usize, kh: usize, kw: usize, mut f: impl FnMut(usize, usize)) {
    let [od, oh, ow] = g.out_sp;
    let [_, ihn, iwn] = g.in_sp;
    let (wlo, whi) = valid_range(kw, g.stride[2], g.dil[2], g.pad[2], iwn, ow);
    for zd in 0..od {
        let Some(id) = in_index(zd, kd, g.stride[0], g.dil[0], g.pad[0], g.in_sp[0]) else {
            continue;
        };
        for zh in 0..oh {
            let Some(ih) = in_index(zh, kh, g.stride[1], g.dil[1], g.pad[1], ihn) else {
                continue;
            };
            let orow = (zd * oh + zh) * ow;
            let irow = (id * ihn + ih) * iwn;
            for zw in wlo..whi {
                let iw = zw * g.stride[2] + kw * g.dil[2] - g.pad[2];
                f(orow + zw, irow + iw);
            }
        }
    }
}

/// `y = alpha * conv(x, w) + beta * y`.
///
/// # Safety
/// Pointers must hold the tensors `g` describes; `ws` must hold
/// [`fwd_elems`] elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn forward<T: Real>(
    g: &Geom,
    e: Engine,
    x: Ptr<T>,
    w: Ptr<T>,
    y: Ptr<T>,
    alpha: T,
    beta: T,
    ws: Ptr<T>,
) {
    let p = g.p_out();
    let xsp = sp_offsets(&g.in_sp, &g.xs);
    let ysp = sp_offsets(&g.out_sp, &g.ys);
    match e {
        Engine::Direct => {
            (0..g.n * g.k).into_par_iter().for_each_init(
                || vec![T::ZERO; p],
                |acc, nk| {
                    let (n, k) = (nk / g.k, nk % g.k);
                    let grp = k / g.kg;
                    acc.fill(T::ZERO);
                    for c in 0..g.cg {
                        let xb = n * g.xs[0] + (grp * g.cg + c) * g.xs[1];
                        for t in 0..g.taps() {
                            let wv = w.get(g.w_offset(k, c, t));
                            let (kd, kh, kw) = tap(g, t);
                            for_tap(g, kd, kh, kw, |o, i| acc[o] += wv * x.get(xb + xsp[i]));
                        }
                    }
                    let yb = n * g.ys[0] + k * g.ys[1];
                    for (o, &v) in acc.iter().enumerate() {
                        blend(y, yb + ysp[o], v, alpha, beta);
                    }
                },
            );
        }
        Engine::Gemm if g.batch > 1 => forward_batched(g, x, w, y, alpha, beta, ws, &ysp),
        Engine::Gemm => {
            let wm = pack_weights(g, w);
            let rows = g.col_rows();
            let col_len = if g.x_is_matrix() { 0 } else { rows * p };
            let out_len = if g.y_is_matrix() { 0 } else { g.kg * p };
            let nw = g.workers;
            (0..nw).into_par_iter().for_each(|wi| {
                let s = scratch(ws, wi, col_len + out_len);
                let (col, out) = s.split_at_mut(col_len);
                for n in (wi..g.n).step_by(nw) {
                    for grp in 0..g.groups {
                        let b = if g.x_is_matrix() {
                            x.0.add(n * g.xs[0] + grp * g.cg * g.xs[1]).cast_const()
                        } else {
                            im2col(g, x, n, grp, col);
                            col.as_ptr()
                        };
                        let a = wm.as_ptr().add(grp * g.kg * rows);
                        if g.y_is_matrix() {
                            let c = y.0.add(n * g.ys[0] + grp * g.kg * g.ys[1]);
                            T::gemm(
                                false, false, g.kg, p, rows, alpha, a, rows, b, p, beta, c, p,
                            );
                        } else {
                            T::gemm(
                                false,
                                false,
                                g.kg,
                                p,
                                rows,
                                T::ONE,
                                a,
                                rows,
                                b,
                                p,
                                T::ZERO,
                                out.as_mut_ptr(),
                                p,
                            );
                            for kk in 0..g.kg {
                                let yb = n * g.ys[0] + (grp * g.kg + kk) * g.ys[1];
                                for o in 0..p {
                                    blend(y, yb + ysp[o], out[kk * p + o], alpha, beta);
                                }
                            }
                        }
                    }
                }
            });
        }
    }
}

/// The forward GEMM engine with `g.batch` images per GEMM: each worker
/// lays the im2col matrices of its images side by side (`[rows, batch *
/// p]`), multiplies once per group and blends the columns back per image.
#[allow(clippy::too_many_arguments)]
unsafe fn forward_batched<T: Real>(
    g: &Geom,
    x: Ptr<T>,
    w: Ptr<T>,
    y: Ptr<T>,
    alpha: T,
    beta: T,
    ws: Ptr<T>,
    ysp: &[usize],
) {
    let wm = pack_weights(g, w);
    let rows = g.col_rows();
    let p = g.p_out();
    let cols = g.batch * p;
    let nw = g.workers;
    (0..nw).into_par_iter().for_each(|wi| {
        let s = scratch(ws, wi, rows * cols + g.kg * cols);
        let (col, out) = s.split_at_mut(rows * cols);
        let mine: Vec<usize> = (wi..g.n).step_by(nw).collect();
        for chunk in mine.chunks(g.batch) {
            let ld = chunk.len() * p;
            for grp in 0..g.groups {
                for (j, &n) in chunk.iter().enumerate() {
                    im2col_at(g, x, n, grp, col, ld, j * p);
                }
                let a = wm.as_ptr().add(grp * g.kg * rows);
                T::gemm(
                    false,
                    false,
                    g.kg,
                    ld,
                    rows,
                    T::ONE,
                    a,
                    rows,
                    col.as_ptr(),
                    ld,
                    T::ZERO,
                    out.as_mut_ptr(),
                    ld,
                );
                for (j, &n) in chunk.iter().enumerate() {
                    for kk in 0..g.kg {
                        let yb = n * g.ys[0] + (grp * g.kg + kk) * g.ys[1];
                        let row = &out[kk * ld + j * p..kk * ld + (j + 1) * p];
                        for (o, &v) in row.iter().enumerate() {
                            blend(y, yb + ysp[o], v, alpha, beta);
                        }
                    }
                }
            }
        }
    });
}

/// Gathers dy of image `n`, group `grp` as the packed matrix `[kg, p]`, or
/// points at it when dy is packed.
unsafe fn dy_matrix<T: Real>(
    g: &Geom,
    dy: Ptr<T>,
    n: usize,
    grp: usize,
    ysp: &[usize],
    buf: &mut [T],
) -> *const T {
    if g.y_is_matrix() {
        return dy.0.add(n * g.ys[0] + grp * g.kg * g.ys[1]).cast_const();
    }
    let p = g.p_out();
    for kk in 0..g.kg {
        let b = n * g.ys[0] + (grp * g.kg + kk) * g.ys[1];
        for o in 0..p {
            buf[kk * p + o] = dy.get(b + ysp[o]);
        }
    }
    buf.as_ptr()
}

/// `dx = alpha * conv_transpose(dy, w) + beta * dx` (x strides of `g` are
/// dx's, y strides dy's).
///
/// # Safety
/// As [`forward`], with [`bwd_data_elems`] workspace elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn backward_data<T: Real>(
    g: &Geom,
    e: Engine,
    w: Ptr<T>,
    dy: Ptr<T>,
    dx: Ptr<T>,
    alpha: T,
    beta: T,
    ws: Ptr<T>,
) {
    let p = g.p_out();
    let pin = g.p_in();
    let xsp = sp_offsets(&g.in_sp, &g.xs);
    let ysp = sp_offsets(&g.out_sp, &g.ys);
    match e {
        Engine::Direct => {
            (0..g.n * g.c).into_par_iter().for_each_init(
                || vec![T::ZERO; pin],
                |acc, nc| {
                    let (n, ci) = (nc / g.c, nc % g.c);
                    let (grp, c) = (ci / g.cg, ci % g.cg);
                    acc.fill(T::ZERO);
                    for kk in grp * g.kg..(grp + 1) * g.kg {
                        let yb = n * g.ys[0] + kk * g.ys[1];
                        for t in 0..g.taps() {
                            let wv = w.get(g.w_offset(kk, c, t));
                            let (kd, kh, kw) = tap(g, t);
                            for_tap(g, kd, kh, kw, |o, i| acc[i] += wv * dy.get(yb + ysp[o]));
                        }
                    }
                    let xb = n * g.xs[0] + ci * g.xs[1];
                    for (i, &v) in acc.iter().enumerate() {
                        blend(dx, xb + xsp[i], v, alpha, beta);
                    }
                },
            );
        }
        Engine::Gemm if g.batch > 1 => {
            backward_data_batched(g, w, dy, dx, alpha, beta, ws, &xsp, &ysp)
        }
        Engine::Gemm => {
            let wm = pack_weights(g, w);
            let rows = g.col_rows();
            let direct_out = g.x_is_matrix();
            let (col_len, acc_len) = if direct_out {
                (0, 0)
            } else {
                (rows * p, g.cg * pin)
            };
            let dy_len = if g.y_is_matrix() { 0 } else { g.kg * p };
            let nw = g.workers;
            (0..nw).into_par_iter().for_each(|wi| {
                let s = scratch(ws, wi, col_len + acc_len + dy_len);
                let (col, rest) = s.split_at_mut(col_len);
                let (acc, dybuf) = rest.split_at_mut(acc_len);
                for n in (wi..g.n).step_by(nw) {
                    for grp in 0..g.groups {
                        let b = dy_matrix(g, dy, n, grp, &ysp, dybuf);
                        let a = wm.as_ptr().add(grp * g.kg * rows);
                        if direct_out {
                            let c = dx.0.add(n * g.xs[0] + grp * g.cg * g.xs[1]);
                            T::gemm(true, false, rows, p, g.kg, alpha, a, rows, b, p, beta, c, p);
                            continue;
                        }
                        T::gemm(
                            true,
                            false,
                            rows,
                            p,
                            g.kg,
                            T::ONE,
                            a,
                            rows,
                            b,
                            p,
                            T::ZERO,
                            col.as_mut_ptr(),
                            p,
                        );
                        acc.fill(T::ZERO);
                        col2im(g, col, acc);
                        for c in 0..g.cg {
                            let xb = n * g.xs[0] + (grp * g.cg + c) * g.xs[1];
                            for i in 0..pin {
                                blend(dx, xb + xsp[i], acc[c * pin + i], alpha, beta);
                            }
                        }
                    }
                }
            });
        }
    }
}

/// `dw = alpha * correlate(x, dy) + beta * dw`.
///
/// # Safety
/// As [`forward`], with [`bwd_filter_elems`] workspace elements.
#[allow(clippy::too_many_arguments)]
pub unsafe fn backward_filter<T: Real>(
    g: &Geom,
    e: Engine,
    x: Ptr<T>,
    dy: Ptr<T>,
    dw: Ptr<T>,
    alpha: T,
    beta: T,
    ws: Ptr<T>,
) {
    let p = g.p_out();
    let taps = g.taps();
    let rows = g.col_rows();
    let xsp = sp_offsets(&g.in_sp, &g.xs);
    let ysp = sp_offsets(&g.out_sp, &g.ys);
    match e {
        Engine::Direct => {
            (0..g.k * g.cg).into_par_iter().for_each_init(
                || vec![T::ZERO; taps],
                |acc, kc| {
                    let (k, c) = (kc / g.cg, kc % g.cg);
                    let grp = k / g.kg;
                    acc.fill(T::ZERO);
                    for n in 0..g.n {
                        let xb = n * g.xs[0] + (grp * g.cg + c) * g.xs[1];
                        let yb = n * g.ys[0] + k * g.ys[1];
                        for (t, a) in acc.iter_mut().enumerate() {
                            let (kd, kh, kw) = tap(g, t);
                            let mut sum = T::ZERO;
                            for_tap(g, kd, kh, kw, |o, i| {
                                sum += dy.get(yb + ysp[o]) * x.get(xb + xsp[i])
                            });
                            *a += sum;
                        }
                    }
                    for (t, &v) in acc.iter().enumerate() {
                        blend(dw, g.w_offset(k, c, t), v, alpha, beta);
                    }
                },
            );
        }
        Engine::Gemm if g.batch > 1 => {
            let cols = g.batch * p;
            let per = g.k * rows + rows * cols + g.kg * cols;
            let nw = g.workers;
            (0..nw).into_par_iter().for_each(|wi| {
                let s = scratch(ws, wi, per);
                let (part, rest) = s.split_at_mut(g.k * rows);
                let (col, dybuf) = rest.split_at_mut(rows * cols);
                part.fill(T::ZERO);
                let mine: Vec<usize> = (wi..g.n).step_by(nw).collect();
                for chunk in mine.chunks(g.batch) {
                    let ld = chunk.len() * p;
                    for grp in 0..g.groups {
                        for (j, &n) in chunk.iter().enumerate() {
                            im2col_at(g, x, n, grp, col, ld, j * p);
                            gather_dy(g, dy, n, grp, &ysp, dybuf, ld, j * p);
                        }
                        let c = part.as_mut_ptr().add(grp * g.kg * rows);
                        T::gemm(
                            false,
                            true,
                            g.kg,
                            rows,
                            ld,
                            T::ONE,
                            dybuf.as_ptr(),
                            ld,
                            col.as_ptr(),
                            ld,
                            T::ONE,
                            c,
                            rows,
                        );
                    }
                }
            });
            reduce_filter(g, dw, alpha, beta, ws, per);
        }
        Engine::Gemm => {
            let part_len = g.k * rows;
            let col_len = if g.x_is_matrix() { 0 } else { rows * p };
            let dy_len = if g.y_is_matrix() { 0 } else { g.kg * p };
            let per = part_len + col_len + dy_len;
            let nw = g.workers;
            (0..nw).into_par_iter().for_each(|wi| {
                let s = scratch(ws, wi, per);
                let (part, rest) = s.split_at_mut(part_len);
                let (col, dybuf) = rest.split_at_mut(col_len);
                part.fill(T::ZERO);
                for n in (wi..g.n).step_by(nw) {
                    for grp in 0..g.groups {
                        let b = if g.x_is_matrix() {
                            x.0.add(n * g.xs[0] + grp * g.cg * g.xs[1]).cast_const()
                        } else {
                            im2col(g, x, n, grp, col);
                            col.as_ptr()
                        };
                        let a = dy_matrix(g, dy, n, grp, &ysp, dybuf);
                        let c = part.as_mut_ptr().add(grp * g.kg * rows);
                        T::gemm(
                            false,
                            true,
                            g.kg,
                            rows,
                            p,
                            T::ONE,
                            a,
                            p,
                            b,
                            p,
                            T::ONE,
                            c,
                            rows,
                        );
                    }
                }
            });
            reduce_filter(g, dw, alpha, beta, ws, per);
        }
    }
}

/// Sums the workers' partial dW (at the start of each worker's `per`
/// elements of workspace) and blends it into dw.
///
/// # Safety
/// `ws` holds `g.workers * per` elements; dw the filter `g` describes.
unsafe fn reduce_filter<T: Real>(g: &Geom, dw: Ptr<T>, alpha: T, beta: T, ws: Ptr<T>, per: usize) {
    let taps = g.taps();
    let rows = g.col_rows();
    (0..g.k).into_par_iter().for_each(|k| {
        for c in 0..g.cg {
            for t in 0..taps {
                let j = k * rows + c * taps + t;
                let mut v = T::ZERO;
                for wi in 0..g.workers {
                    v += ws.get(wi * per + j);
                }
                blend(dw, g.w_offset(k, c, t), v, alpha, beta);
            }
        }
    });
}

/// Copies dy of image `n`, group `grp` into columns `first..first + p` of
/// the `[kg, ld]` matrix `buf`.
#[allow(clippy::too_many_arguments)]
unsafe fn gather_dy<T: Real>(
    g: &Geom,
    dy: Ptr<T>,
    n: usize,
    grp: usize,
    ysp: &[usize],
    buf: &mut [T],
    ld: usize,
    first: usize,
) {
    let p = g.p_out();
    for kk in 0..g.kg {
        let b = n * g.ys[0] + (grp * g.kg + kk) * g.ys[1];
        for o in 0..p {
            buf[kk * ld + first + o] = dy.get(b + ysp[o]);
        }
    }
}

/// The backward-data GEMM engine with `g.batch` images per GEMM.
#[allow(clippy::too_many_arguments)]
unsafe fn backward_data_batched<T: Real>(
    g: &Geom,
    w: Ptr<T>,
    dy: Ptr<T>,
    dx: Ptr<T>,
    alpha: T,
    beta: T,
    ws: Ptr<T>,
    xsp: &[usize],
    ysp: &[usize],
) {
    let wm = pack_weights(g, w);
    let rows = g.col_rows();
    let p = g.p_out();
    let pin = g.p_in();
    let cols = g.batch * p;
    let nw = g.workers;
    (0..nw).into_par_iter().for_each(|wi| {
        let s = scratch(ws, wi, rows * cols + g.cg * pin + g.kg * cols);
        let (col, rest) = s.split_at_mut(rows * cols);
        let (acc, dybuf) = rest.split_at_mut(g.cg * pin);
        let mine: Vec<usize> = (wi..g.n).step_by(nw).collect();
        for chunk in mine.chunks(g.batch) {
            let ld = chunk.len() * p;
            for grp in 0..g.groups {
                for (j, &n) in chunk.iter().enumerate() {
                    gather_dy(g, dy, n, grp, ysp, dybuf, ld, j * p);
                }
                let a = wm.as_ptr().add(grp * g.kg * rows);
                T::gemm(
                    true,
                    false,
                    rows,
                    ld,
                    g.kg,
                    T::ONE,
                    a,
                    rows,
                    dybuf.as_ptr(),
                    ld,
                    T::ZERO,
                    col.as_mut_ptr(),
                    ld,
                );
                for (j, &n) in chunk.iter().enumerate() {
                    acc.fill(T::ZERO);
                    col2im_at(g, col, acc, ld, j * p);
                    for c in 0..g.cg {
                        let xb = n * g.xs[0] + (grp * g.cg + c) * g.xs[1];
                        for i in 0..pin {
                            blend(dx, xb + xsp[i], acc[c * pin + i], alpha, beta);
                        }
                    }
                }
            }
        }
    });
}
