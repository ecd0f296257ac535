//! 32-bit index arithmetic of a parallel loop that a run-time check shows
//! cannot wrap, so the loop's checked copy may flag it `nsw`.
//!
//! PTX's `add.s32`/`mul.lo.s32` wrap, and so do CUDA's unsigned sums
//! (`blockIdx.x * blockDim.x + threadIdx.x`): the C compiler cannot read
//! `(int64_t)(int32_t)(row * cols + col)` as affine in the loop counters,
//! so it neither vectorises nor strength-reduces the accesses through it.
//! The ops followed here are 32-bit `add`, `sub` and `mul` whose operands
//! are the loop's indices, values defined before the loop, constants or
//! other such ops, and whose results reach a sign extension. Before the
//! loop, an interval per op is computed in 64 bits from the indices'
//! ranges (`[0, ub - 1]`), the invariant values and the constants; the
//! check is that every interval lies within 32 bits. In order of
//! definition each op's operands then lie in their intervals and its exact
//! result in its own, so none wraps in any iteration and `nsw` holds.

use cucc_ir::{BinOp, Builder, CastOp, CmpPred, Function, Op, OpKind, Region, Types, Value};
use std::collections::{HashMap, HashSet};

/// At most this many ops are checked per loop (the check's size).
const MAX_OPS: usize = 32;

/// True if region argument `v` belongs to a region outside `body` and its
/// nested regions (an enclosing loop's counter).
fn arg_outside(func: &Function, inner: &HashSet<Region>, v: Value) -> bool {
    match func.values[v].def {
        cucc_ir::ValueDef::Arg { region, .. } => !inner.contains(&region),
        cucc_ir::ValueDef::Result { .. } => false,
    }
}

/// The followed 32-bit ops of parallel loop `p` that reach a sign
/// extension (with the ops they use), in definition order; empty when
/// there are none or too many.
pub(crate) fn index_ops(types: &Types, func: &Function, p: Op) -> Vec<Op> {
    let body = func.ops[p].body();
    let ivs = &func.regions[body].args;
    if ivs.len() != func.ops[p].ubs().len() {
        return Vec::new();
    }
    let mut walk = Vec::new();
    func.walk_region(body, &mut walk);
    let inside: HashSet<Op> = walk.iter().map(|&(_, o)| o).collect();
    let mut inner: HashSet<Region> = HashSet::from([body]);
    for &(_, o) in &walk {
        inner.extend(func.ops[o].regions.iter().copied());
    }
    let is32 = |v: Value| types[func.value_type(v)].int_bits() == Some(32);
    let mut followed: HashMap<Op, usize> = HashMap::new();
    let mut order: Vec<Op> = Vec::new();
    // An index of the loop, a value defined before it, a constant, or a
    // followed op's result.
    let known = |followed: &HashMap<Op, usize>, v: Value| -> bool {
        if ivs.contains(&v) {
            return true;
        }
        match func.defining_op(v) {
            Some(d) => {
                followed.contains_key(&d)
                    || !inside.contains(&d)
                    || matches!(func.ops[d].kind, OpKind::Const { .. })
            }
            None => arg_outside(func, &inner, v),
        }
    };
    for &(_, o) in &walk {
        let data = &func.ops[o];
        let OpKind::Binary(b, _) = data.kind else {
            continue;
        };
        if !b.takes_nsw() || data.operands.len() != 2 || !is32(data.results[0]) {
            continue;
        }
        let ok = data
            .operands
            .iter()
            .all(|&v| is32(v) && known(&followed, v));
        if ok {
            followed.insert(o, order.len());
            order.push(o);
        }
    }
    // Keep what reaches a sign extension, with what it uses.
    let mut keep: HashSet<Op> = HashSet::new();
    let mut work: Vec<Op> = walk
        .iter()
        .filter(|&&(_, o)| matches!(func.ops[o].kind, OpKind::Cast(CastOp::SExt)))
        .filter_map(|&(_, o)| func.defining_op(func.ops[o].input()))
        .filter(|d| followed.contains_key(d))
        .collect();
    while let Some(o) = work.pop() {
        if !keep.insert(o) {
            continue;
        }
        for &v in &func.ops[o].operands {
            if let Some(d) = func.defining_op(v).filter(|d| followed.contains_key(d)) {
                work.push(d);
            }
        }
    }
    let out: Vec<Op> = order.into_iter().filter(|o| keep.contains(o)).collect();
    let wraps = out
        .iter()
        .any(|&o| matches!(func.ops[o].kind, OpKind::Binary(_, f) if !f.nsw));
    if out.len() > MAX_OPS || !wraps {
        return Vec::new();
    }
    out
}

/// Before `p` in `region`: `true` when no op of `ops` ([`index_ops`] of
/// `p`, in definition order) can leave 32 bits in any iteration; `None`
/// for no ops.
pub(crate) fn condition(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    ops: &[Op],
) -> Option<Value> {
    if ops.is_empty() {
        return None;
    }
    let body = func.ops[p].body();
    let ivs = func.regions[body].args.clone();
    let ubs = func.ops[p].ubs().to_vec();
    let at = func.find_op(region, p)?;
    let loc = func.ops[p].loc;
    let mut b = Builder::new(types, func);
    b.set_loc(loc);
    b.set_insertion_at(region, at);
    let i64t = b.types.i64();
    let min = b.const_int(i64t, i64::from(i32::MIN));
    let max = b.const_int(i64t, i64::from(i32::MAX));
    let zero = b.const_int(i64t, 0);
    let one = b.const_int(i64t, 1);
    let mut checks: Vec<Value> = Vec::new();
    let mut index: HashMap<usize, (Value, Value)> = HashMap::new();
    let mut of_op: HashMap<Op, (Value, Value)> = HashMap::new();
    let mut fixed: HashMap<Value, Value> = HashMap::new();
    for &o in ops {
        let OpKind::Binary(op, _) = b.func.ops[o].kind else {
            return None;
        };
        let mut args = Vec::with_capacity(2);
        let d = &b.func.ops[o];
        for v in [d.lhs(), d.rhs()] {
            let iv = if let Some(d) = ivs.iter().position(|&iv| iv == v) {
                if let Some(&r) = index.get(&d) {
                    r
                } else {
                    let ub = b.cast(CastOp::ZExt, ubs[d], i64t);
                    let hi = b.binary(BinOp::Sub, ub, one);
                    checks.push(b.cmp(CmpPred::Sle, hi, max));
                    index.insert(d, (zero, hi));
                    (zero, hi)
                }
            } else if let Some(&r) = b.func.defining_op(v).and_then(|d| of_op.get(&d)) {
                r
            } else if let Some(&w) = fixed.get(&v) {
                (w, w)
            } else {
                // A constant may be defined in the body: made again here.
                let w = match b.func.const_bits(v) {
                    Some(raw) => b.const_int(i64t, i64::from(raw as u32 as i32)),
                    None => b.cast(CastOp::SExt, v, i64t),
                };
                fixed.insert(v, w);
                (w, w)
            };
            args.push(iv);
        }
        let ((alo, ahi), (blo, bhi)) = (args[0], args[1]);
        let (lo, hi) = match op {
            BinOp::Add => (
                b.binary(BinOp::Add, alo, blo),
                b.binary(BinOp::Add, ahi, bhi),
            ),
            BinOp::Sub => (
                b.binary(BinOp::Sub, alo, bhi),
                b.binary(BinOp::Sub, ahi, blo),
            ),
            BinOp::Mul => {
                let c = [
                    b.binary(BinOp::Mul, alo, blo),
                    b.binary(BinOp::Mul, alo, bhi),
                    b.binary(BinOp::Mul, ahi, blo),
                    b.binary(BinOp::Mul, ahi, bhi),
                ];
                let (mut lo, mut hi) = (c[0], c[0]);
                for &x in &c[1..] {
                    let lt = b.cmp(CmpPred::Slt, x, lo);
                    lo = b.select(lt, x, lo);
                    let gt = b.cmp(CmpPred::Sgt, x, hi);
                    hi = b.select(gt, x, hi);
                }
                (lo, hi)
            }
            _ => return None,
        };
        checks.push(b.cmp(CmpPred::Sge, lo, min));
        checks.push(b.cmp(CmpPred::Sle, hi, max));
        of_op.insert(o, (lo, hi));
    }
    let mut cond = checks.pop()?;
    for c in checks {
        cond = b.binary(BinOp::And, cond, c);
    }
    Some(cond)
}

/// Flags `nsw` the copies (through `map`, from cloning the loop) of the
/// index ops `adds`: the checked copy's arithmetic, which cannot wrap.
pub(crate) fn flag_copies(func: &mut Function, map: &HashMap<Value, Value>, adds: &[Op]) {
    for &a in adds {
        let new = map
            .get(&func.ops[a].results[0])
            .and_then(|&r| func.defining_op(r));
        if let Some(OpKind::Binary(_, flags)) = new.map(|o| &mut func.ops[o].kind) {
            flags.nsw = true;
        }
    }
}
