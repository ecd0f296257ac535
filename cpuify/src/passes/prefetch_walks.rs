//! `prefetch`'s second part: serial loops that walk a pointer argument with
//! a wide stride prefetch the element they will load [`AHEAD`] trips later.
//!
//! A grid-stride loop (`for (i = gid; i < n; i += blockDim.x *
//! gridDim.x)`), once its thread loop runs as a serial loop, has each
//! thread step through the whole array a grid's width at a time: every
//! trip a new page, a pattern the hardware prefetchers do not follow
//! (they track strides of up to about 2 KB). huffman's histogram kernel
//! spent most of its time waiting for those loads. The loop's index is a
//! value it carries and advances by a loop-invariant step `S`, so the
//! address `AHEAD` trips on is the same `ptr.index` of `i + AHEAD * S`
//! (wrapping arithmetic: a prefetch never faults, wherever it points).
//!
//! Only loads directly in the loop's body whose address is `ptr.index` of
//! a loop-invariant pointer derived from a parameter (global memory) by
//! the carried index (or its sign or zero extension) are prefetched, and
//! only when the step is known at run time only or at least
//! [`MIN_CONST_STRIDE`] bytes: a constant narrow stride is what the
//! hardware follows, and a prefetch in such a loop would stop the C
//! compiler vectorising it.

use super::prefetch::{from_parameter, Emitter};
use cucc_ir::{
    ArithFlags, BinOp, CastOp, Function, Op, OpKind, Region, Type, TypeId, Types, Value,
};
use std::collections::HashSet;

/// Trips ahead of the load a walk prefetches.
pub const AHEAD: u64 = 16;
/// Constant strides (in bytes) narrower than this are left to the hardware.
pub const MIN_CONST_STRIDE: i64 = 1024;
/// Most loads prefetched in one loop.
const MAX_PER_LOOP: usize = 4;

/// Adds the prefetches to the serial loops nested in `region`; returns how
/// many loads got one.
pub(super) fn prefetch_walks(types: &mut Types, func: &mut Function, region: Region) -> usize {
    let mut walk = Vec::new();
    func.walk_region(region, &mut walk);
    let mut n = 0;
    for (_, op) in walk {
        let found = match func.ops[op].kind {
            OpKind::While => while_indices(func, op),
            OpKind::For { .. } => for_index(func, op),
            _ => Vec::new(),
        };
        if found.is_empty() {
            continue;
        }
        let body = func.ops[op].regions[func.ops[op].regions.len() - 1];
        n += prefetch_body(types, func, op, body, &found);
    }
    n
}

/// A carried index of a loop: its value in the body and its step.
#[derive(Clone, Copy)]
struct Walk {
    index: Value,
    step: Value,
}

/// The indices a `while` carries and advances by a loop-invariant step:
/// the before region passes its argument `j` on as condition value `k`,
/// and the after region yields `arg k + step` as argument `j`.
fn while_indices(func: &Function, op: Op) -> Vec<Walk> {
    let (before, after) = (func.ops[op].before(), func.ops[op].after());
    let (Some(&cond), Some(&yld)) = (
        func.regions[before].ops.last(),
        func.regions[after].ops.last(),
    ) else {
        return Vec::new();
    };
    if func.ops[cond].kind != OpKind::Condition || func.ops[yld].kind != OpKind::Yield {
        return Vec::new();
    }
    let inside = defined_in(func, op);
    let before_args = &func.regions[before].args;
    let after_args = &func.regions[after].args;
    let passed = func.ops[cond].values();
    let mut out = Vec::new();
    for (k, &v) in passed.iter().enumerate() {
        let Some(j) = before_args.iter().position(|&a| a == v) else {
            continue;
        };
        let (Some(&index), Some(&next)) = (after_args.get(k), func.ops[yld].values().get(j)) else {
            continue;
        };
        if let Some(step) = step_of(func, next, index, &inside) {
            out.push(Walk { index, step });
        }
    }
    out
}

/// The counter of a `for` and its step, when the step is loop-invariant.
fn for_index(func: &Function, op: Op) -> Vec<Walk> {
    let data = &func.ops[op];
    let (step, body) = (data.step(), data.body());
    let Some(&index) = func.regions[body].args.first() else {
        return Vec::new();
    };
    vec![Walk { index, step }]
}

/// `s` if `next` is `index + s` (either order) with `s` loop-invariant:
/// defined outside the loop or computed in it by pure ops from such values
/// (`blockDim.x * gridDim.x` is often recomputed in the body).
fn step_of(func: &Function, next: Value, index: Value, inside: &HashSet<Value>) -> Option<Value> {
    let op = func.defining_op(next)?;
    let d = &func.ops[op];
    if !matches!(d.kind, OpKind::Binary(BinOp::Add, _)) {
        return None;
    }
    let (a, b) = (d.lhs(), d.rhs());
    let step = if a == index {
        b
    } else if b == index {
        a
    } else {
        return None;
    };
    invariant(func, step, inside, 0).then_some(step)
}

/// Whether `v` has the same value on every trip of the loop whose values
/// are `inside`: defined outside it, or by pure ops on such values.
fn invariant(func: &Function, v: Value, inside: &HashSet<Value>, depth: u32) -> bool {
    if !inside.contains(&v) {
        return true;
    }
    if depth > 16 {
        return false;
    }
    let Some(op) = func.defining_op(v) else {
        return false;
    };
    let d = &func.ops[op];
    d.kind.is_pure()
        && d.regions.is_empty()
        && d.operands
            .iter()
            .all(|&o| invariant(func, o, inside, depth + 1))
}

/// Prefetches for the loads of loop `op`'s body region `body` indexed by
/// one of `walks`; returns how many.
fn prefetch_body(
    types: &mut Types,
    func: &mut Function,
    op: Op,
    body: Region,
    walks: &[Walk],
) -> usize {
    let inside = defined_in(func, op);
    let mut picked: Vec<Pick> = Vec::new();
    let mut seen = HashSet::new();
    for &o in &func.regions[body].ops {
        if picked.len() == MAX_PER_LOOP {
            break;
        }
        let d = &func.ops[o];
        if !matches!(
            d.kind,
            OpKind::Load {
                volatile: false,
                ..
            }
        ) {
            continue;
        }
        let Some(addr_op) = func.defining_op(d.ptr()) else {
            continue;
        };
        let a = &func.ops[addr_op];
        let OpKind::PtrIndex { elem } = a.kind else {
            continue;
        };
        let (base, idx) = (a.ptr(), a.index());
        if inside.contains(&base) || !from_parameter(func, base) || !seen.insert((base, idx)) {
            continue;
        }
        // The index: a walk's value, or its extension.
        let (walk, cast) = match walks.iter().find(|w| w.index == idx) {
            Some(w) => (*w, None),
            None => {
                let Some(c) = func.defining_op(idx) else {
                    continue;
                };
                let cd = &func.ops[c];
                let OpKind::Cast(k @ (CastOp::SExt | CastOp::ZExt)) = cd.kind else {
                    continue;
                };
                match walks.iter().find(|w| w.index == cd.input()) {
                    Some(w) => (*w, Some(k)),
                    None => continue,
                }
            }
        };
        let Ok(size) = i64::try_from(types.size_of(elem)) else {
            continue;
        };
        if let Some(bits) = func.const_bits(walk.step) {
            let step = signed(types, func.value_type(walk.step), bits);
            if step.saturating_mul(size).saturating_abs() < MIN_CONST_STRIDE {
                continue;
            }
        }
        let idx_ty = func.value_type(idx);
        picked.push(Pick {
            load: o,
            walk,
            cast,
            base,
            elem,
            idx_ty,
        });
    }
    // At the end of the body, where every value of its top level (the
    // step's computation included) is defined.
    let Some(&last) = func.regions[body].ops.last() else {
        return 0;
    };
    if func.ops[last].kind != OpKind::Yield {
        return 0;
    }
    let top: HashSet<Value> = func.regions[body]
        .ops
        .iter()
        .flat_map(|&o| func.ops[o].results.iter().copied())
        .chain(func.regions[body].args.iter().copied())
        .collect();
    picked.retain(|p| !inside.contains(&p.walk.step) || top.contains(&p.walk.step));
    let n = picked.len();
    for Pick {
        load,
        walk,
        cast,
        base,
        elem,
        idx_ty,
    } in picked
    {
        let at = func.regions[body].ops.len() - 1;
        let loc = func.ops[load].loc;
        let mut ins = Emitter {
            func: &mut *func,
            region: body,
            at,
            loc,
        };
        let ty = ins.func.value_type(walk.index);
        let ahead = ins.op(OpKind::Const { bits: AHEAD }, vec![], ty);
        let dist = ins.op(
            OpKind::Binary(BinOp::Mul, ArithFlags::NONE),
            vec![walk.step, ahead],
            ty,
        );
        let next = ins.op(
            OpKind::Binary(BinOp::Add, ArithFlags::NONE),
            vec![walk.index, dist],
            ty,
        );
        let idx = match cast {
            Some(k) => ins.op(OpKind::Cast(k), vec![next], idx_ty),
            None => next,
        };
        let base_ty = ins.func.value_type(base);
        let p = ins.op(OpKind::PtrIndex { elem }, vec![base, idx], base_ty);
        let i64t = types.i64();
        let len = ins.op(OpKind::Const { bits: 1 }, vec![], i64t);
        let pf = ins
            .func
            .new_op(OpKind::Prefetch, vec![p, len], &[], vec![], loc);
        ins.func.regions[body].ops.insert(ins.at, pf);
    }
    n
}

/// A load to prefetch ahead: the walk indexing it, the extension between
/// the walk and the index, and the `ptr.index` base, element and index type.
struct Pick {
    load: Op,
    walk: Walk,
    cast: Option<CastOp>,
    base: Value,
    elem: TypeId,
    idx_ty: TypeId,
}

/// `bits` of an integer of type `ty` read as signed.
fn signed(types: &Types, ty: TypeId, bits: u64) -> i64 {
    match &types[ty] {
        Type::Int(w) if *w < 64 => {
            let w = u32::from(*w);
            ((bits << (64 - w)) as i64) >> (64 - w)
        }
        _ => bits as i64,
    }
}

/// Values defined in `op`'s regions (results and region arguments).
fn defined_in(func: &Function, op: Op) -> HashSet<Value> {
    func.ops[op]
        .regions
        .iter()
        .flat_map(|&r| super::prefetch::defined_in(func, r))
        .collect()
}
