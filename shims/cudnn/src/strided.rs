//! Walking tensors whose elements are laid out by arbitrary strides.
//!
//! cuDNN describes every tensor by dimensions and strides (NCHW, NHWC and
//! anything else are just stride patterns), so element-wise operations walk
//! the index space of the dimensions and compute each operand's offset from
//! its own strides. The walk is an odometer over all but the last
//! dimension with a plain loop over the last one.

use rayon::prelude::*;

/// Calls `f` with the offsets of each operand for every index of `dims`, in
/// row-major index order. `strides[k]` are operand `k`'s strides (a stride
/// of 0 broadcasts the operand along that dimension).
pub fn walk<const K: usize>(dims: &[usize], strides: [&[usize]; K], mut f: impl FnMut([usize; K])) {
    walk_from(dims, strides, [0; K], &mut f);
}

fn walk_from<const K: usize>(
    dims: &[usize],
    strides: [&[usize]; K],
    base: [usize; K],
    f: &mut impl FnMut([usize; K]),
) {
    let nd = dims.len();
    if nd == 0 {
        f(base);
        return;
    }
    if dims.contains(&0) {
        return;
    }
    let last = nd - 1;
    let mut idx = vec![0usize; last];
    let mut off = base;
    loop {
        let mut o = off;
        for _ in 0..dims[last] {
            f(o);
            for k in 0..K {
                o[k] += strides[k][last];
            }
        }
        // Advance the odometer over the outer dimensions.
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            for k in 0..K {
                off[k] += strides[k][d];
            }
            if idx[d] < dims[d] {
                break;
            }
            for k in 0..K {
                off[k] -= strides[k][d] * dims[d];
            }
            idx[d] = 0;
        }
    }
}

/// [`walk`] with the outermost dimension split across rayon's threads; `f`
/// must only write elements owned by the index it is given.
pub fn par_walk<const K: usize>(
    dims: &[usize],
    strides: [&[usize]; K],
    f: impl Fn([usize; K]) + Sync + Send,
) {
    if dims.is_empty() {
        f([0; K]);
        return;
    }
    let inner = &dims[1..];
    let inner_strides: [&[usize]; K] = std::array::from_fn(|k| &strides[k][1..]);
    (0..dims[0]).into_par_iter().for_each(|i| {
        let base: [usize; K] = std::array::from_fn(|k| i * strides[k][0]);
        walk_from(inner, inner_strides, base, &mut |o| f(o));
    });
}

/// Packed row-major strides for `dims`.
pub fn packed_strides(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

/// Whether `strides` are the packed row-major strides of `dims` (dimensions
/// of extent 1 may have any stride).
pub fn is_packed(dims: &[usize], strides: &[usize]) -> bool {
    let p = packed_strides(dims);
    dims.iter()
        .zip(strides.iter().zip(&p))
        .all(|(&d, (&s, &q))| d == 1 || s == q)
}

/// Offsets of every index of `dims` under `strides`, in row-major order
/// (used for the spatial part of a tensor, which is small).
pub fn offsets(dims: &[usize], strides: &[usize]) -> Vec<usize> {
    let mut v = Vec::with_capacity(dims.iter().product());
    walk(dims, [strides], |[o]| v.push(o));
    v
}
