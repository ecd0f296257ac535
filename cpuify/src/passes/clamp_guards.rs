//! `clamp-guards`: a thread loop whose only work is guarded by a bound on
//! one thread index iterates only up to that bound.
//!
//! Kernels start with `if (blockIdx.x * blockDim.x + threadIdx.x < n)` (or
//! `if (i >= n) return;`); in a grid rounded up to whole blocks, or in
//! gaussian's n² launches where most threads fall outside the shrinking
//! matrix, many iterations of the thread loop only test and leave. For a
//! block-level `parallel` whose body is pure ops and one `if` with an inert
//! branch, each comparison the taken branch needs — `iv + a < b`,
//! `iv + a <= b`, or the same spelt with `>`/`>=` or negated, reached
//! through `&&`, `||`'s negation, `!` and the frontend's short-circuit
//! `if`s — with `a` and `b` computable before the loop gives the bound
//! `min(ub, max(0, b - a))` (one more for `<=`) for that dimension. The
//! guard stays (iterations below the bound still test it), so the clamp
//! only skips iterations that do nothing. The bound is computed in 64 bits,
//! and the loop is left unclamped at run time when `a + ub - 1` would wrap
//! the index's type, where the wrapped comparison could still pass.

use crate::error::CpuifyError;
use crate::remarks::Remarks;
use cucc_ir::{
    ArithFlags, BinOp, Builder, CastOp, CmpPred, FuncId, Function, FunctionKind, Level, Module, Op,
    OpKind, Region, Types, Value,
};
use std::collections::HashMap;

/// Depth limit for following a condition's definition.
const MAX_DEPTH: usize = 12;

/// Clamps the guarded thread loops of function `fid` (launch form); returns
/// how many bounds were clamped.
pub fn clamp_guards(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
) -> Result<usize, CpuifyError> {
    let Module {
        types, functions, ..
    } = module;
    let func = &mut functions[fid];
    if func.kind != FunctionKind::Launch {
        return Ok(0);
    }
    let loops: Vec<(Region, Op)> = func
        .walk()
        .into_iter()
        .filter(|&(_, o)| {
            func.ops[o].kind
                == OpKind::Parallel {
                    level: Level::Block,
                }
                || crate::passes::collapse::nd_shape(func, o).is_some()
        })
        .collect();
    let mut clamped = 0;
    for (region, p) in loops {
        let n = clamp_loop(types, func, region, p);
        if n > 0 {
            let (name, loc) = (func.name.clone(), func.ops[p].loc);
            remarks.add(
                "clamp-guards",
                &name,
                loc,
                if func.ops[p].kind == (OpKind::Parallel { level: Level::Grid }) {
                    format!("global thread loop bound clamped by its guard in {n} dimension(s)")
                } else {
                    format!("thread loop bound clamped by its guard in {n} dimension(s)")
                },
            );
        }
        clamped += n;
    }
    Ok(clamped)
}

/// One bound `lhs < rhs` (or `<=`) a guard implies.
#[derive(Clone, Copy, Debug)]
struct Atom {
    lhs: Value,
    rhs: Value,
    strict: bool,
    signed: bool,
}

fn clamp_loop(types: &mut Types, func: &mut Function, region: Region, p: Op) -> usize {
    let body = func.ops[p].regions[0];
    let ivs = func.regions[body].args.clone();
    let ops = func.regions[body].ops.clone();
    let Some((_, work)) = ops.split_last() else {
        return 0;
    };
    let effectful: Vec<Op> = work
        .iter()
        .copied()
        .filter(|&o| !inert_op(func, o))
        .collect();
    let [guard] = effectful[..] else {
        return 0;
    };
    if func.ops[guard].kind != OpKind::If {
        return 0;
    }
    let regions = func.ops[guard].regions.clone();
    let polarity = match (
        region_inert(func, regions[0]),
        region_inert(func, regions[1]),
    ) {
        (false, true) => true,
        (true, false) => false,
        _ => return 0,
    };
    let mut atoms = Vec::new();
    necessary(func, func.ops[guard].operands[0], polarity, 0, &mut atoms);
    let mut done = vec![false; ivs.len()];
    let mut count = 0;
    for atom in atoms {
        let mut memo = HashMap::new();
        let Some((d, offset)) = split_iv(func, &ivs, atom.lhs) else {
            continue;
        };
        if done[d] || func.value_type(atom.rhs) != func.value_type(ivs[d]) {
            continue;
        }
        let at = position(func, region, p);
        let mut inserted = Vec::new();
        let rhs = materialize(func, body, atom.rhs, &mut memo, &mut inserted);
        let offset = match offset {
            Some(a) => materialize(func, body, a, &mut memo, &mut inserted).map(Some),
            None => Some(None),
        };
        let (Some(rhs), Some(offset)) = (rhs, offset) else {
            continue;
        };
        // Clones go just before the loop, in definition order.
        for (i, op) in inserted.into_iter().enumerate() {
            func.regions[region].ops.insert(at + i, op);
        }
        let at = position(func, region, p);
        let ub = func.ops[p].operands[d];
        let new_ub = {
            let mut b = Builder::new(types, func);
            b.set_insertion_at(region, at);
            b.set_loc(b.func.ops[p].loc);
            let wide = b.func.ops[p].kind == (OpKind::Parallel { level: Level::Grid });
            bound(&mut b, atom, rhs, offset, ub, wide)
        };
        let Some(mut new_ub) = new_ub else { continue };
        if func.ops[p].kind == (OpKind::Parallel { level: Level::Grid }) {
            // A collapsed grid loop keeps its extent visible to the emitter
            // (`collapse::nd_shape`): `select(k < extent, k, extent)`.
            let mut b = Builder::new(types, func);
            let at = position(b.func, region, p);
            b.set_insertion_at(region, at);
            b.set_loc(b.func.ops[p].loc);
            let lt = b.cmp(CmpPred::Ult, new_ub, ub);
            new_ub = b.select(lt, new_ub, ub);
        }
        func.ops[p].operands[d] = new_ub;
        done[d] = true;
        count += 1;
    }
    count
}

/// `min(ub, max(0, rhs - offset [+1]))`, or `ub` where `offset + ub - 1`
/// leaves the index's range; `None` for types it does not handle. `wide`
/// (a collapsed grid loop, whose extent may pass 2^31) checks the range
/// without an offset too.
fn bound(
    b: &mut Builder<'_>,
    atom: Atom,
    rhs: Value,
    offset: Option<Value>,
    ub: Value,
    wide: bool,
) -> Option<Value> {
    let ty = b.ty(ub);
    let bits = b.types[ty].int_bits()?;
    if b.ty(rhs) != ty || bits > 32 {
        return None;
    }
    let i64t = b.types.i64();
    let ext = if atom.signed {
        CastOp::SExt
    } else {
        CastOp::ZExt
    };
    let widen = |b: &mut Builder<'_>, v: Value, op: CastOp| b.cast(op, v, i64t);
    let r = widen(b, rhs, ext);
    let ub64 = widen(b, ub, CastOp::ZExt);
    let mut k = r;
    let mut fits = None;
    let offset = match offset {
        None if wide => Some(b.const_int(b.ty(ub), 0)),
        o => o,
    };
    if let Some(a) = offset {
        let a64 = widen(b, a, ext);
        k = b.binary(BinOp::Sub, r, a64);
        let one = b.const_int(i64t, 1);
        let last = b.binary(BinOp::Add, a64, ub64);
        let last = b.binary(BinOp::Sub, last, one);
        let max = if atom.signed {
            (1i64 << (bits - 1)) - 1
        } else {
            (1i64 << bits) - 1
        };
        let max = b.const_int(i64t, max);
        fits = Some(b.cmp(CmpPred::Sle, last, max));
    }
    if !atom.strict {
        let one = b.const_int(i64t, 1);
        k = b.binary(BinOp::Add, k, one);
    }
    let zero = b.const_int(i64t, 0);
    let neg = b.cmp(CmpPred::Slt, k, zero);
    let k = b.select(neg, zero, k);
    let below = b.cmp(CmpPred::Slt, k, ub64);
    let mut k = b.select(below, k, ub64);
    if let Some(fits) = fits {
        k = b.select(fits, k, ub64);
    }
    Some(b.cast(CastOp::Trunc, k, ty))
}

/// `v` as `iv_d + a` (or `iv_d`): (d, a).
fn split_iv(func: &Function, ivs: &[Value], v: Value) -> Option<(usize, Option<Value>)> {
    if let Some(d) = ivs.iter().position(|&iv| iv == v) {
        return Some((d, None));
    }
    let op = func.defining_op(v)?;
    let data = &func.ops[op];
    if !matches!(data.kind, OpKind::Binary(BinOp::Add, _)) {
        return None;
    }
    let (x, y) = (data.operands[0], data.operands[1]);
    if let Some(d) = ivs.iter().position(|&iv| iv == x) {
        return Some((d, Some(y)));
    }
    ivs.iter().position(|&iv| iv == y).map(|d| (d, Some(x)))
}

/// Collects comparisons `lhs < rhs` / `lhs <= rhs` that must hold when `v`
/// equals `polarity`.
fn necessary(func: &Function, v: Value, polarity: bool, depth: usize, out: &mut Vec<Atom>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(op) = func.defining_op(v) else {
        return;
    };
    let data = &func.ops[op];
    match &data.kind {
        OpKind::Cmp(pred) => {
            let (x, y) = (data.operands[0], data.operands[1]);
            // Normalise to `pred` holding.
            let pred = if polarity { *pred } else { negate(*pred) };
            let atom = |lhs, rhs, strict, signed| Atom {
                lhs,
                rhs,
                strict,
                signed,
            };
            let a = match pred {
                CmpPred::Slt => atom(x, y, true, true),
                CmpPred::Sle => atom(x, y, false, true),
                CmpPred::Sgt => atom(y, x, true, true),
                CmpPred::Sge => atom(y, x, false, true),
                CmpPred::Ult => atom(x, y, true, false),
                CmpPred::Ule => atom(x, y, false, false),
                CmpPred::Ugt => atom(y, x, true, false),
                CmpPred::Uge => atom(y, x, false, false),
                _ => return,
            };
            out.push(a);
        }
        OpKind::Binary(BinOp::Xor, _) => {
            if let Some(c) = const_bool(func, data.operands[1]) {
                necessary(func, data.operands[0], polarity ^ c, depth + 1, out);
            } else if let Some(c) = const_bool(func, data.operands[0]) {
                necessary(func, data.operands[1], polarity ^ c, depth + 1, out);
            }
        }
        OpKind::Binary(BinOp::And, _) if polarity => {
            necessary(func, data.operands[0], true, depth + 1, out);
            necessary(func, data.operands[1], true, depth + 1, out);
        }
        OpKind::Binary(BinOp::Or, _) if !polarity => {
            necessary(func, data.operands[0], false, depth + 1, out);
            necessary(func, data.operands[1], false, depth + 1, out);
        }
        OpKind::If if data.results.len() == 1 => {
            // v == pol  <=>  (c && t == pol) || (!c && e == pol)
            let c = data.operands[0];
            let yielded = |r: Region| {
                func.regions[r]
                    .ops
                    .last()
                    .and_then(|&t| func.ops[t].operands.first().copied())
            };
            let (Some(t), Some(e)) = (yielded(data.regions[0]), yielded(data.regions[1])) else {
                return;
            };
            if const_bool(func, t) == Some(!polarity) {
                necessary(func, c, false, depth + 1, out);
                necessary(func, e, polarity, depth + 1, out);
            } else if const_bool(func, e) == Some(!polarity) {
                necessary(func, c, true, depth + 1, out);
                necessary(func, t, polarity, depth + 1, out);
            }
        }
        _ => {}
    }
}

fn negate(p: CmpPred) -> CmpPred {
    match p {
        CmpPred::Slt => CmpPred::Sge,
        CmpPred::Sle => CmpPred::Sgt,
        CmpPred::Sgt => CmpPred::Sle,
        CmpPred::Sge => CmpPred::Slt,
        CmpPred::Ult => CmpPred::Uge,
        CmpPred::Ule => CmpPred::Ugt,
        CmpPred::Ugt => CmpPred::Ule,
        CmpPred::Uge => CmpPred::Ult,
        CmpPred::Eq => CmpPred::Ne,
        other => other,
    }
}

fn const_bool(func: &Function, v: Value) -> Option<bool> {
    let op = func.defining_op(v)?;
    match func.ops[op].kind {
        OpKind::Const { bits } if func.ops[op].results.len() == 1 => Some(bits & 1 == 1),
        _ => None,
    }
}

/// `v` made available before the loop whose body is `body`: itself when
/// defined outside, else a clone of its pure defining ops (appended to
/// `inserted`, to be placed before the loop).
fn materialize(
    func: &mut Function,
    body: Region,
    v: Value,
    memo: &mut HashMap<Value, Value>,
    inserted: &mut Vec<Op>,
) -> Option<Value> {
    if let Some(&m) = memo.get(&v) {
        return Some(m);
    }
    if !defined_under(func, body, v) {
        return Some(v);
    }
    let op = func.defining_op(v)?;
    let data = func.ops[op].clone();
    let thread_dependent = matches!(data.kind, OpKind::ThreadId(_) | OpKind::LaneId);
    if !data.kind.is_pure() || thread_dependent || !data.regions.is_empty() {
        return None;
    }
    let mut operands = Vec::new();
    for &o in &data.operands {
        operands.push(materialize(func, body, o, memo, inserted)?);
    }
    let result_types: Vec<_> = data.results.iter().map(|&r| func.value_type(r)).collect();
    // The clone runs before the loop even when no iteration would have run
    // the original: it may not assume `nsw`.
    let kind = match data.kind {
        OpKind::Binary(b, _) => OpKind::Binary(b, ArithFlags::NONE),
        k => k,
    };
    let clone = func.new_op(kind, operands, &result_types, vec![], data.loc);
    for (&old, &new) in data.results.iter().zip(&func.ops[clone].results.clone()) {
        func.values[new].name = func.values[old].name.clone();
        memo.insert(old, new);
    }
    inserted.push(clone);
    memo.get(&v).copied()
}

/// True if `v` is defined in `region` or below it.
fn defined_under(func: &Function, region: Region, v: Value) -> bool {
    let def_region = match func.values[v].def {
        cucc_ir::ValueDef::Arg { region: r, .. } => r,
        cucc_ir::ValueDef::Result { op, .. } => {
            let mut walk = Vec::new();
            func.walk_region(region, &mut walk);
            return walk.iter().any(|&(_, o)| o == op);
        }
    };
    if def_region == region {
        return true;
    }
    let mut walk = Vec::new();
    func.walk_region(region, &mut walk);
    walk.iter()
        .any(|&(_, o)| func.ops[o].regions.contains(&def_region))
}

/// True if `op` has no effect besides its results.
fn inert_op(func: &Function, op: Op) -> bool {
    let d = &func.ops[op];
    d.kind.is_pure()
        || matches!(
            d.kind,
            OpKind::Load {
                volatile: false,
                ..
            }
        )
        || (matches!(d.kind, OpKind::If | OpKind::For { .. })
            && d.regions.iter().all(|&r| region_inert(func, r)))
}

/// True if running `region` has no effect besides its yielded values.
fn region_inert(func: &Function, region: Region) -> bool {
    func.regions[region]
        .ops
        .iter()
        .all(|&o| func.ops[o].kind == OpKind::Yield || inert_op(func, o))
}

fn position(func: &Function, region: Region, op: Op) -> usize {
    func.regions[region]
        .ops
        .iter()
        .position(|&o| o == op)
        .unwrap_or(0)
}
