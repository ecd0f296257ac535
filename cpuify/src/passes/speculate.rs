//! `speculate` (last): if-conversion of thread-loop bodies, with loads from
//! shared memory speculated.
//!
//! gcc vectorises a thread loop only when its body is straight-line code
//! over affine addresses. Tiled kernels guard their work (`if (tx >= i+1
//! && ...) { ... }`) and read clamped neighbours (`prev[max(tx-1, xmin)]`),
//! which arrive as `if`s and as loads through an `if`-selected index: gcc
//! will not if-convert the guard chains (too many merged paths) and sees
//! the clamped load as a gather. In every block-level thread loop, and
//! every outermost signed `for` (the nests `serialize-inner` makes of
//! thread loops; its indices count from 0 by 1 to bounds defined outside),
//! this pass
//!
//! - moves the pure, non-trapping ops of an `if`'s branches in front of
//!   the `if` (their `nsw` flags dropped: they now run on values the
//!   source never computed them with), and replaces an `if` left with
//!   nothing but its yields by `select`s — innermost first;
//! - splits a load of `ptr.index %shared, select(c, a, b)` into two loads
//!   and a `select` of their values;
//! - moves loads of shared allocas out of `if` branches when nothing before
//!   them in the branch may write memory.
//!
//! Loads executed where the source did not execute them are marked
//! `speculative`: their value is used only where the source read the same
//! address, so it is the same value. Their addresses must stay readable:
//! each is `alloca + Σ scale·index` with indices `iv + invariant` or
//! invariant (built with `nsw` arithmetic, so the i64 sums below are the
//! values), and the runtime keeps [`GUARD`] readable bytes around the
//! shared scratch (docs/abi.md). The loop runs as transformed only when
//! every such address lies within `[-GUARD, size + GUARD)` of its alloca
//! over the loop's bounds — decided at compile time when the bounds and
//! indices are constants (the block-shape specialised loops), else tested
//! at run time before the loop, whose untransformed copy runs otherwise.
//! Stores stay under their `if`s (gcc masks them).

use crate::error::CpuifyError;
use crate::passes::predicate_barriers::speculable;
use crate::remarks::Remarks;
use cucc_ir::edit::{clone_op, replace_all_uses};
use cucc_ir::{
    ArithFlags, BinOp, Builder, CastOp, CmpPred, FuncId, Function, FunctionKind, Level, Module, Op,
    OpKind, Region, Space, Type, Types, Value, ValueDef,
};
use std::collections::HashMap;

/// Readable bytes before and after shared scratch (the runtime's
/// `SCRATCH_GUARD`).
pub const GUARD: i64 = 256;

/// What was done to one thread loop.
#[derive(Default)]
struct Stats {
    hoisted: usize,
    selects: usize,
    split: usize,
    loads: usize,
}

/// If-converts the block-level thread loops of `fid` (launch form);
/// returns how many changed.
pub fn speculate(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
) -> Result<usize, CpuifyError> {
    if module.functions[fid].kind != FunctionKind::Launch {
        return Ok(0);
    }
    let Module {
        types, functions, ..
    } = module;
    let func = &mut functions[fid];
    let mut loops: Vec<(Region, Op)> = Vec::new();
    roots(func, func.body, &mut loops);
    let mut changed = 0;
    for (region, p) in loops {
        let name = func.name.clone();
        let loc = func.ops[p].loc;
        let kind = match func.ops[p].kind {
            OpKind::For { .. } => "serial loop nest",
            _ => "thread loop",
        };
        let original = clone_op(func, p, &mut HashMap::new());
        let body = func.ops[p].regions[0];
        let mut st = Stats::default();
        convert(types, func, p, body, &mut st);
        split_clamped_loads(types, func, p, &mut st);
        convert(types, func, p, body, &mut st);
        if st.hoisted + st.selects + st.split == 0 {
            continue;
        }
        // A serial nest gets no `ivdep`: if-converted arithmetic alone only
        // adds work there (srad_v2's halo `if`s); a shared load moved out
        // of its `if` is what lets gcc vectorise it with an alias check.
        if kind == "serial loop nest" && st.loads + st.split == 0 {
            if let Some(at) = func.find_op(region, p) {
                func.regions[region].ops[at] = original;
            }
            continue;
        }
        let how = match guard_checks(types, func, region, p) {
            Check::Proved => "addresses proved in bounds",
            Check::Runtime(cond) => {
                version(types, func, region, p, original, cond);
                "addresses checked once before the loop"
            }
            Check::Refused => {
                if let Some(at) = func.find_op(region, p) {
                    func.regions[region].ops[at] = original;
                }
                remarks.add(
                    "speculate",
                    &name,
                    loc,
                    "loop left as it was: a speculated load's address is not an affine \
                     function of the loop indices",
                );
                continue;
            }
        };
        changed += 1;
        remarks.add(
            "speculate",
            &name,
            loc,
            format!(
                "{} if-converted: {} op(s) moved out of `if`s, {} `if`(s) made selects, \
                 {} clamped shared load(s) split; {how}",
                kind, st.hoisted, st.selects, st.split
            ),
        );
    }
    Ok(changed)
}

/// The loops of region `r` this pass works on: block-level thread loops
/// and outermost serial `for` loops without results (the nests
/// `serialize-inner` makes), not looking inside them.
fn roots(func: &Function, r: Region, out: &mut Vec<(Region, Op)>) {
    for &o in &func.regions[r].ops {
        match func.ops[o].kind {
            OpKind::Parallel {
                level: Level::Block,
            } => out.push((r, o)),
            // Without results, so the loop can be swapped for its copy.
            OpKind::For { unsigned: false } if func.ops[o].results.is_empty() => out.push((r, o)),
            _ => {
                for &sub in &func.ops[o].regions {
                    roots(func, sub, out);
                }
            }
        }
    }
}

/// The upper bound of loop index `iv` if it counts from 0 by 1 and its
/// loop is `p` (a thread loop) or a signed `for` inside `p` whose bound is
/// defined outside `p`.
fn iv_bound(func: &Function, p: Op, iv: Value) -> Option<Value> {
    let ValueDef::Arg { region, index } = func.values[iv].def else {
        return None;
    };
    let owner = if func.ops[p].regions.contains(&region) {
        p
    } else {
        let mut walk = Vec::new();
        func.walk_region(func.ops[p].regions[0], &mut walk);
        walk.into_iter()
            .map(|(_, o)| o)
            .find(|&o| func.ops[o].regions.contains(&region))?
    };
    let data = &func.ops[owner];
    match data.kind {
        OpKind::Parallel {
            level: Level::Block,
        } => data.operands.get(index as usize).copied(),
        OpKind::For { unsigned: false } if index == 0 => {
            let [lb, ub, step] = [0, 1, 2].map(|k| data.operands.get(k).copied());
            let (lb, ub, step) = (lb?, ub?, step?);
            let defined_outside = |v: Value| match func.values[v].def {
                ValueDef::Result { op, .. } => op != p && !inside_loop(func, p, op),
                ValueDef::Arg { region, .. } => {
                    !func.ops[p].regions.contains(&region) && {
                        let mut walk = Vec::new();
                        func.walk_region(func.ops[p].regions[0], &mut walk);
                        !walk
                            .iter()
                            .any(|&(_, o)| func.ops[o].regions.contains(&region))
                    }
                }
            };
            (func.const_bits(lb) == Some(0)
                && func.const_bits(step) == Some(1)
                && defined_outside(ub))
            .then_some(ub)
        }
        _ => None,
    }
}

/// If-converts region `r` of loop `p`, innermost `if`s first.
fn convert(types: &mut Types, func: &mut Function, p: Op, r: Region, st: &mut Stats) {
    let mut i = 0;
    while i < func.regions[r].ops.len() {
        let op = func.regions[r].ops[i];
        for sub in func.ops[op].regions.clone() {
            convert(types, func, p, sub, st);
        }
        if func.ops[op].kind != OpKind::If {
            i += 1;
            continue;
        }
        for sub in func.ops[op].regions.clone() {
            i += hoist(types, func, p, sub, r, i, st);
        }
        let regions = func.ops[op].regions.clone();
        if regions.len() == 2 && regions.iter().all(|&s| func.regions[s].ops.len() == 1) {
            let yields: Vec<Vec<Value>> = regions
                .iter()
                .map(|&s| func.ops[func.regions[s].ops[0]].operands.clone())
                .collect();
            let cond = func.ops[op].operands[0];
            let results = func.ops[op].results.clone();
            if yields.iter().any(|y| y.len() != results.len()) {
                i += 1;
                continue;
            }
            let loc = func.ops[op].loc;
            let mut b = Builder::new(types, func);
            b.set_loc(loc);
            b.set_insertion_at(r, i);
            let sels: Vec<Value> = (0..results.len())
                .map(|k| select(&mut b, cond, yields[0][k], yields[1][k]))
                .collect();
            for (&old, &new) in results.iter().zip(&sels) {
                replace_all_uses(func, old, new);
            }
            i += sels.len();
            func.regions[r].ops.retain(|&o| o != op);
            st.selects += 1;
            continue;
        }
        // A result that is `true` exactly when the condition holds is the
        // condition (gcc mixes up such flags' mask widths).
        if regions.len() == 2 {
            let yields: Vec<Vec<Value>> = regions
                .iter()
                .filter_map(|&s| func.regions[s].ops.last())
                .map(|&y| func.ops[y].operands.clone())
                .collect();
            let cond = func.ops[op].operands[0];
            for (k, &res) in func.ops[op].results.clone().iter().enumerate() {
                let arm = |n: usize| yields.get(n).and_then(|y| y.get(k)).copied();
                if let (Some(t), Some(e)) = (arm(0), arm(1)) {
                    if bool_const(types, func, t) == Some(true)
                        && bool_const(types, func, e) == Some(false)
                    {
                        replace_all_uses(func, res, cond);
                    }
                }
            }
        }
        i += 1;
    }
}

/// The value of `v` if it is an `i1` constant.
fn bool_const(types: &Types, func: &Function, v: Value) -> Option<bool> {
    (types[func.value_type(v)] == Type::Int(1))
        .then(|| func.const_bits(v))
        .flatten()
        .map(|b| b & 1 == 1)
}

/// `select(c, a, b)`, as `and`/`or` when it is one on `i1`s (plain mask
/// arithmetic for gcc).
fn select(b: &mut Builder<'_>, c: Value, x: Value, y: Value) -> Value {
    let kx = bool_const(b.types, b.func, x);
    let ky = bool_const(b.types, b.func, y);
    match (kx, ky) {
        (Some(true), Some(false)) => c,
        (_, Some(false)) => b.binary(BinOp::And, c, x),
        (Some(true), _) => b.binary(BinOp::Or, c, y),
        _ => b.select(c, x, y),
    }
}

/// Moves the ops of branch `sub` that may run unconditionally to region
/// `r` at index `at`; returns how many moved.
fn hoist(
    types: &Types,
    func: &mut Function,
    p: Op,
    sub: Region,
    r: Region,
    at: usize,
    st: &mut Stats,
) -> usize {
    let mut moved = 0;
    let mut wrote = false;
    let mut j = 0;
    while j < func.regions[sub].ops.len() {
        let o = func.regions[sub].ops[j];
        let inside = |func: &Function, v: Value| match func.values[v].def {
            ValueDef::Arg { region, .. } => region == sub,
            ValueDef::Result { op, .. } => func.regions[sub].ops.contains(&op),
        };
        let ready = !func.ops[o].operands.iter().any(|&v| inside(func, v));
        let pure = speculable(func, o) && !matches!(func.ops[o].kind, OpKind::Alloca { .. });
        if ready && (pure || (!wrote && shared_load(types, func, p, o))) {
            if let OpKind::Binary(_, flags) = &mut func.ops[o].kind {
                *flags = ArithFlags::NONE;
            }
            if let OpKind::Load { speculative, .. } = &mut func.ops[o].kind {
                *speculative = true;
                st.loads += 1;
            }
            func.regions[sub].ops.remove(j);
            func.regions[r].ops.insert(at + moved, o);
            moved += 1;
            st.hoisted += 1;
            continue;
        }
        if may_write(func, o) {
            wrote = true;
        }
        j += 1;
    }
    moved
}

/// True if `o` may write memory or have another effect (anything but pure
/// ops, non-volatile loads and structured control flow over those).
fn may_write(func: &Function, o: Op) -> bool {
    let data = &func.ops[o];
    let own = !(data.kind.is_pure()
        || matches!(
            data.kind,
            OpKind::Load {
                volatile: false,
                ..
            } | OpKind::Yield
                | OpKind::If
                | OpKind::Condition
        ));
    own || data.regions.iter().any(|&r| {
        func.regions[r]
            .ops
            .iter()
            .any(|&inner| may_write(func, inner))
    })
}

/// True if `o` is a non-volatile load from a shared alloca at an address
/// [`address`] can bound.
fn shared_load(types: &Types, func: &Function, p: Op, o: Op) -> bool {
    matches!(
        func.ops[o].kind,
        OpKind::Load {
            volatile: false,
            ..
        }
    ) && address(types, func, p, func.ops[o].operands[0]).is_some()
}

/// A load from a shared alloca through `ptr.index %base, select(c, a, b)`
/// (possibly through a `sext`, anywhere in the address's chain of
/// `ptr.index`es) becomes two speculative loads and a `select`.
fn split_clamped_loads(types: &mut Types, func: &mut Function, p: Op, st: &mut Stats) {
    let body = func.ops[p].regions[0];
    let mut walk = Vec::new();
    func.walk_region(body, &mut walk);
    for (r, load) in walk {
        if !matches!(
            func.ops[load].kind,
            OpKind::Load {
                volatile: false,
                ..
            }
        ) {
            continue;
        }
        // The chain of `ptr.index`es from the load's address outwards, to
        // the first whose index is a `select`.
        let mut chain: Vec<Op> = Vec::new();
        let mut ptr = func.ops[load].operands[0];
        let mut found = None;
        while let Some(pi) = func.defining_op(ptr) {
            if !matches!(func.ops[pi].kind, OpKind::PtrIndex { .. }) || chain.len() > 8 {
                break;
            }
            chain.push(pi);
            let idx = func.ops[pi].operands[1];
            let (sel_v, sext) = match func.defining_op(idx).map(|d| &func.ops[d]) {
                Some(d) if d.kind == OpKind::Cast(CastOp::SExt) => (d.operands[0], true),
                _ => (idx, false),
            };
            if let Some(sel) = func.defining_op(sel_v) {
                if func.ops[sel].kind == OpKind::Select {
                    found = Some((sel, sext));
                    break;
                }
            }
            ptr = func.ops[pi].operands[0];
        }
        let Some((sel, sext)) = found else {
            continue;
        };
        let Some(&outer) = chain.last() else {
            continue;
        };
        let [c, a, b] = [0, 1, 2].map(|k| func.ops[sel].operands[k]);
        let base = func.ops[outer].operands[0];
        let bounded = address(types, func, p, base).is_some()
            && chain[..chain.len() - 1]
                .iter()
                .all(|&pi| lin(types, func, p, func.ops[pi].operands[1], 0).is_some())
            && lin(types, func, p, a, 0).is_some()
            && lin(types, func, p, b, 0).is_some();
        let Some(at) = func.find_op(r, load) else {
            continue;
        };
        if !bounded {
            continue;
        }
        let steps: Vec<(cucc_ir::TypeId, Value)> = chain
            .iter()
            .filter_map(|&pi| match func.ops[pi].kind {
                OpKind::PtrIndex { elem } => Some((elem, func.ops[pi].operands[1])),
                _ => None,
            })
            .collect();
        if steps.len() != chain.len() {
            continue;
        }
        let ity = func.value_type(func.ops[outer].operands[1]);
        let old = func.ops[load].results[0];
        let lty = func.value_type(old);
        let loc = func.ops[load].loc;
        let mut bld = Builder::new(types, func);
        bld.set_loc(loc);
        bld.set_insertion_at(r, at);
        let mut one = |x: Value| {
            let i = if sext {
                bld.cast(CastOp::SExt, x, ity)
            } else {
                x
            };
            let (outer_elem, _) = steps[steps.len() - 1];
            let mut q = bld.ptr_index(base, i, outer_elem);
            for &(elem, idx) in steps[..steps.len() - 1].iter().rev() {
                q = bld.ptr_index(q, idx, elem);
            }
            bld.op1(
                OpKind::Load {
                    volatile: false,
                    speculative: true,
                },
                vec![q],
                lty,
            )
        };
        let la = one(a);
        let lb = one(b);
        let v = bld.select(c, la, lb);
        replace_all_uses(func, old, v);
        func.regions[r].ops.retain(|&o| o != load);
        st.split += 1;
    }
}

/// A shared address `alloca + Σ scale·index`: the alloca's size and the
/// terms.
struct Address {
    size: i64,
    terms: Vec<(Lin, i64)>,
}

/// `iv[d]? + Σ sign·invariant + c` (invariants defined outside the loop).
#[derive(Clone, Default)]
struct Lin {
    iv: Option<Value>,
    parts: Vec<(Value, i64)>,
    c: i64,
}

/// Decomposes `ptr` into a shared alloca outside `p` and bounded terms
/// (`None` if it is anything else).
fn address(types: &Types, func: &Function, p: Op, mut ptr: Value) -> Option<Address> {
    let mut terms = Vec::new();
    for _ in 0..16 {
        let d = func.defining_op(ptr)?;
        let data = &func.ops[d];
        match data.kind {
            OpKind::PtrIndex { elem } => {
                let scale = i64::try_from(types.size_of(elem)).ok()?;
                terms.push((lin(types, func, p, data.operands[1], 0)?, scale));
                ptr = data.operands[0];
            }
            OpKind::Alloca {
                space: Space::Shared,
                ty,
            } => {
                if inside_loop(func, p, d) {
                    return None;
                }
                let size = i64::try_from(types.size_of(ty)).ok()?;
                return Some(Address { size, terms });
            }
            _ => return None,
        }
    }
    None
}

/// True if `op` lies inside loop `p`.
fn inside_loop(func: &Function, p: Op, op: Op) -> bool {
    let mut walk = Vec::new();
    func.walk_region(func.ops[p].regions[0], &mut walk);
    walk.iter().any(|&(_, o)| o == op)
}

/// `v` as a [`Lin`]: constants, `p`'s ivs, values defined outside `p`,
/// `sext`s and `nsw` sums and differences of those (exact: no wrap), with
/// at most one iv, added.
fn lin(types: &Types, func: &Function, p: Op, v: Value, depth: u32) -> Option<Lin> {
    if depth > 8 {
        return None;
    }
    let body = func.ops[p].regions[0];
    if iv_bound(func, p, v).is_some() {
        return Some(Lin {
            iv: Some(v),
            ..Lin::default()
        });
    }
    if let Some(bits) = func.const_bits(v) {
        let Type::Int(w) = types[func.value_type(v)] else {
            return None;
        };
        let sh = 64 - u32::from(w).min(64);
        let c = ((bits << sh) as i64) >> sh;
        return Some(Lin {
            c,
            ..Lin::default()
        });
    }
    let outside = match func.values[v].def {
        ValueDef::Arg { region, .. } => {
            let mut walk = Vec::new();
            func.walk_region(body, &mut walk);
            region != body
                && !walk
                    .iter()
                    .any(|&(_, o)| func.ops[o].regions.contains(&region))
        }
        ValueDef::Result { op, .. } => !inside_loop(func, p, op),
    };
    if outside {
        return matches!(types[func.value_type(v)], Type::Int(32 | 64)).then(|| Lin {
            parts: vec![(v, 1)],
            ..Lin::default()
        });
    }
    let def = func.defining_op(v)?;
    let data = &func.ops[def];
    match data.kind {
        OpKind::Cast(CastOp::SExt) => lin(types, func, p, data.operands[0], depth + 1),
        OpKind::Binary(op @ (BinOp::Add | BinOp::Sub), flags) if flags.nsw => {
            let a = lin(types, func, p, data.operands[0], depth + 1)?;
            let b = lin(types, func, p, data.operands[1], depth + 1)?;
            let sign = if op == BinOp::Sub { -1 } else { 1 };
            if b.iv.is_some() && (sign < 0 || a.iv.is_some()) {
                return None;
            }
            let mut out = a;
            out.iv = out.iv.or(b.iv);
            out.parts
                .extend(b.parts.into_iter().map(|(x, s)| (x, s * sign)));
            out.c = out.c.checked_add(b.c.checked_mul(sign)?)?;
            Some(out)
        }
        _ => None,
    }
}

/// The outcome of bounding the speculative loads' addresses.
enum Check {
    /// Every address is within bounds for every iteration.
    Proved,
    /// Within bounds when this `i1` (computed before the loop) holds.
    Runtime(Value),
    /// Some address cannot be bounded (or is out of bounds).
    Refused,
}

/// A sum `c + Σ scale·sext(value)` in i64.
#[derive(Default)]
struct Sum {
    c: i64,
    dynamic: Vec<(Value, i64)>,
}

/// Builds, before `p`, the test that every speculative load of `p` stays
/// within its alloca and the guard bytes.
fn guard_checks(types: &mut Types, func: &mut Function, region: Region, p: Op) -> Check {
    let body = func.ops[p].regions[0];
    let mut walk = Vec::new();
    func.walk_region(body, &mut walk);
    // Per load: (lowest byte, one past the highest, alloca size).
    let mut bounds: Vec<(Sum, Sum, i64)> = Vec::new();
    for (_, o) in walk {
        if !matches!(
            func.ops[o].kind,
            OpKind::Load {
                speculative: true,
                ..
            }
        ) {
            continue;
        }
        let Some(addr) = address(types, func, p, func.ops[o].operands[0]) else {
            return Check::Refused;
        };
        let Ok(esz) = i64::try_from(types.size_of(func.value_type(func.ops[o].results[0]))) else {
            return Check::Refused;
        };
        let (mut lo, mut hi) = (
            Sum::default(),
            Sum {
                c: esz,
                ..Sum::default()
            },
        );
        for (l, scale) in &addr.terms {
            let Some(c) = l.c.checked_mul(*scale) else {
                return Check::Refused;
            };
            lo.c = lo.c.saturating_add(c);
            hi.c = hi.c.saturating_add(c);
            for &(v, s) in &l.parts {
                lo.dynamic.push((v, s * scale));
                hi.dynamic.push((v, s * scale));
            }
            if let Some(iv) = l.iv {
                // iv in [0, ub - 1].
                let Some(ubv) = iv_bound(func, p, iv) else {
                    return Check::Refused;
                };
                match func.const_bits(ubv).and_then(|ub| i64::try_from(ub).ok()) {
                    Some(ub) => {
                        let Some(top) = (ub - 1).checked_mul(*scale) else {
                            return Check::Refused;
                        };
                        hi.c = hi.c.saturating_add(top);
                    }
                    None => {
                        hi.dynamic.push((ubv, *scale));
                        hi.c = hi.c.saturating_sub(*scale);
                    }
                }
            }
        }
        bounds.push((lo, hi, addr.size));
    }
    let mut cond = None;
    let Some(at) = func.find_op(region, p) else {
        return Check::Refused;
    };
    let mut b = Builder::new(types, func);
    let loc = b.func.ops[p].loc;
    b.set_loc(loc);
    b.set_insertion_at(region, at);
    for (lo, hi, size) in bounds {
        let checks = [(lo, CmpPred::Sge, -GUARD), (hi, CmpPred::Sle, size + GUARD)];
        for (sum, pred, limit) in checks {
            if sum.dynamic.is_empty() {
                let ok = match pred {
                    CmpPred::Sge => sum.c >= limit,
                    _ => sum.c <= limit,
                };
                if !ok {
                    return Check::Refused;
                }
                continue;
            }
            let i64t = b.types.i64();
            let mut acc = b.i64(sum.c);
            for (v, scale) in sum.dynamic {
                let w = match b.func.value_type(v) {
                    t if t == i64t => v,
                    _ => b.cast(CastOp::SExt, v, i64t),
                };
                let s = b.i64(scale);
                let m = b.binary(BinOp::Mul, w, s);
                acc = b.binary(BinOp::Add, acc, m);
            }
            let lim = b.i64(limit);
            let ok = b.cmp(pred, acc, lim);
            cond = Some(match cond {
                None => ok,
                Some(prev) => b.binary(BinOp::And, prev, ok),
            });
        }
    }
    match cond {
        None => Check::Proved,
        Some(c) => Check::Runtime(c),
    }
}

/// Replaces `p` by `if cond { p } else { original }`.
fn version(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    original: Op,
    cond: Value,
) {
    let Some(at) = func.find_op(region, p) else {
        return;
    };
    let loc = func.ops[p].loc;
    let (if_op, then_r, else_r) = {
        let mut b = Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_at(region, at);
        b.create_if(cond, &[])
    };
    func.regions[region].ops.retain(|&o| o != p);
    debug_assert!(func.regions[region].ops.contains(&if_op));
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[then_r].ops.extend([p, y]);
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[else_r].ops.extend([original, y]);
}
