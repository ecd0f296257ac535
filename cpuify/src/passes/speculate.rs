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

use crate::passes::entry::{launch_parts, Changed};
use crate::passes::predicate_barriers::{constant_shift, speculable};
use crate::remarks::Remarks;
use cucc_ir::edit::{clone_op, replace_all_uses, replace_uses_in_op};
use cucc_ir::{
    ArithFlags, BinOp, Builder, Callee, CastOp, CmpPred, FuncId, Function, Level, Module, Op,
    OpKind, Region, Type, Types, Value, ValueDef,
};
use std::collections::{HashMap, HashSet};

mod affine;

use affine::{address, lin, materialize, Lin};

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
    widened: usize,
    /// 32-bit values the split loads' 64-bit indices equal only if they
    /// fit `i32`; the bounds check tests them.
    narrow: Vec<Lin>,
    /// Ops whose `nsw` holds wherever they run (the 64-bit indices above,
    /// exact by the check), kept when they are hoisted.
    exact: HashSet<Op>,
}

/// If-converts the block-level thread loops of `fid` (launch form);
/// returns how many changed.
pub fn speculate(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
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
        let body = func.ops[p].body();
        let mut st = Stats::default();
        convert(types, func, p, body, &mut st);
        split_clamped_loads(types, func, p, &mut st);
        convert(types, func, p, body, &mut st);
        if st.hoisted + st.selects + st.split == 0 {
            continue;
        }
        widen_indices(types, func, p, &mut st);
        // A serial nest gets no `ivdep`: if-converted arithmetic alone only
        // adds work there (srad_v2's halo `if`s); a shared load moved out
        // of its `if` is what lets gcc vectorise it with an alias check.
        if kind == "serial loop nest" && st.loads + st.split == 0 {
            func.replace_op(region, p, original);
            continue;
        }
        let how = match guard_checks(types, func, region, p, &st.narrow) {
            Check::Proved => "addresses proved in bounds",
            Check::Runtime(cond) => {
                version(types, func, region, p, original, cond);
                "addresses checked once before the loop"
            }
            Check::Refused => {
                func.replace_op(region, p, original);
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
                 {} clamped shared load(s) split, {} wrapping 32-bit index(es) recomputed in \
                 64 bits; {how}",
                kind, st.hoisted, st.selects, st.split, st.widened
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
            // Without results, so the loop can be swapped for its copy; a
            // serial loop around thread loops (`interchange`'s) is no nest
            // of thread loops: its thread loops are the roots.
            OpKind::For { unsigned: false }
                if func.ops[o].results.is_empty() && !holds_thread_loop(func, o) =>
            {
                out.push((r, o))
            }
            _ => {
                for &sub in &func.ops[o].regions {
                    roots(func, sub, out);
                }
            }
        }
    }
}

/// True if a block-level thread loop is nested somewhere inside `op`.
fn holds_thread_loop(func: &Function, op: Op) -> bool {
    let mut walk = Vec::new();
    func.walk_region(func.ops[op].body(), &mut walk);
    walk.iter().any(|&(_, o)| {
        func.ops[o].kind
            == OpKind::Parallel {
                level: Level::Block,
            }
    })
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
        func.walk_region(func.ops[p].body(), &mut walk);
        walk.into_iter()
            .map(|(_, o)| o)
            .find(|&o| func.ops[o].regions.contains(&region))?
    };
    let data = &func.ops[owner];
    match data.kind {
        OpKind::Parallel {
            level: Level::Block,
        } => data.ubs().get(index as usize).copied(),
        OpKind::For { unsigned: false } if index == 0 => {
            let (lb, ub, step) = data.bounds();
            let defined_outside = |v: Value| match func.values[v].def {
                ValueDef::Result { op, .. } => op != p && !inside_loop(func, p, op),
                ValueDef::Arg { region, .. } => {
                    !func.ops[p].regions.contains(&region) && {
                        let mut walk = Vec::new();
                        func.walk_region(func.ops[p].body(), &mut walk);
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
///
/// An `if` made selects leaves its results to be replaced: they can only be
/// used after it in `r` (and in what those ops nest), so the replacements
/// collect in `subst` and each later op takes them when the walk reaches
/// it, one pass over the region instead of one over the function per `if`
/// (which made large kernels quadratic).
fn convert(types: &mut Types, func: &mut Function, p: Op, r: Region, st: &mut Stats) {
    let mut subst: HashMap<Value, Value> = HashMap::new();
    let mut i = 0;
    while i < func.regions[r].ops.len() {
        let op = func.regions[r].ops[i];
        replace_uses_in_op(func, op, &subst);
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
                .map(|&s| func.ops[func.regions[s].ops[0]].values().to_vec())
                .collect();
            let cond = func.ops[op].cond();
            let results = func.ops[op].results.clone();
            if yields.iter().any(|y| y.len() != results.len()) {
                i += 1;
                continue;
            }
            let loc = func.ops[op].loc;
            let before = func.regions[r].ops.len();
            let mut b = Builder::new(types, func);
            b.set_loc(loc);
            b.set_insertion_at(r, i);
            let sels: Vec<Value> = (0..results.len())
                .map(|k| select(&mut b, cond, yields[0][k], yields[1][k]))
                .collect();
            subst.extend(results.iter().copied().zip(sels.iter().copied()));
            // Past the ops built (none when a result is the condition
            // itself), so the op after the `if` is still visited.
            i += func.regions[r].ops.len() - before;
            func.unlink_op(r, op);
            st.selects += 1;
            continue;
        }
        // A result that is `true` exactly when the condition holds is the
        // condition (gcc mixes up such flags' mask widths).
        if regions.len() == 2 {
            let yields: Vec<Vec<Value>> = regions
                .iter()
                .filter_map(|&s| func.regions[s].ops.last())
                .map(|&y| func.ops[y].values().to_vec())
                .collect();
            let cond = func.ops[op].cond();
            for (k, &res) in func.ops[op].results.clone().iter().enumerate() {
                let arm = |n: usize| yields.get(n).and_then(|y| y.get(k)).copied();
                if let (Some(t), Some(e)) = (arm(0), arm(1)) {
                    if bool_const(types, func, t) == Some(true)
                        && bool_const(types, func, e) == Some(false)
                    {
                        subst.insert(res, cond);
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
        let pure = (speculable(func, o) || constant_shift(types, func, o) || fused(func, o))
            && !matches!(func.ops[o].kind, OpKind::Alloca { .. });
        if ready && (pure || (!wrote && shared_load(types, func, p, o))) {
            if let OpKind::Binary(_, flags) = &mut func.ops[o].kind {
                if !st.exact.contains(&o) {
                    *flags = ArithFlags::NONE;
                }
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
        )
        || math_call(func, o));
    own || data.regions.iter().any(|&r| {
        func.regions[r]
            .ops
            .iter()
            .any(|&inner| may_write(func, inner))
    })
}

/// True if `o` calls a known math function: no effect on memory (the C
/// is compiled without `errno` for math).
fn math_call(func: &Function, o: Op) -> bool {
    matches!(&func.ops[o].kind, OpKind::Call(Callee::Extern(n)) if cucc_ir::intrinsics::lookup(n).is_some())
}

/// True if `o` is a fused multiply-add (PTX's `fma.rn`): one instruction,
/// no trap, as cheap to speculate as the arithmetic around it.
fn fused(func: &Function, o: Op) -> bool {
    matches!(&func.ops[o].kind, OpKind::Call(Callee::Extern(n)) if n == "fma" || n == "fmaf")
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
    ) && address(types, func, p, func.ops[o].ptr()).is_some()
}

/// A load from a shared alloca whose index (anywhere in the address's
/// chain of `ptr.index`es) is computed from one clamp — `select(c, a, b)`,
/// `smin(a, b)` or `smax(a, b)` — through `sext`s, sums, differences,
/// products and shifts becomes two speculative loads, at the index
/// computed from `a` and from `b`, and a `select` of their values.
fn split_clamped_loads(types: &mut Types, func: &mut Function, p: Op, st: &mut Stats) {
    let body = func.ops[p].body();
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
        // the first whose index is computed from a clamp.
        let mut chain: Vec<Op> = Vec::new();
        let mut ptr = func.ops[load].ptr();
        let mut found = None;
        while let Some(pi) = func.defining_op(ptr) {
            if !matches!(func.ops[pi].kind, OpKind::PtrIndex { .. }) || chain.len() > 8 {
                break;
            }
            chain.push(pi);
            let mut path = Vec::new();
            if let Some(clamp) = find_clamp(func, p, func.ops[pi].index(), &mut path, 0) {
                found = Some((clamp, path));
                break;
            }
            ptr = func.ops[pi].ptr();
        }
        let Some((clamp, path)) = found else {
            continue;
        };
        let Some(&outer) = chain.last() else {
            continue;
        };
        let base = func.ops[outer].ptr();
        if address(types, func, p, base).is_none() {
            continue;
        }
        let steps: Vec<(cucc_ir::TypeId, Value)> = chain
            .iter()
            .filter_map(|&pi| match func.ops[pi].kind {
                OpKind::PtrIndex { elem } => Some((elem, func.ops[pi].index())),
                _ => None,
            })
            .collect();
        if steps.len() != chain.len() {
            continue;
        }
        let start = func.op_index(r, load);
        let cd = &func.ops[clamp];
        let clamped = cd.results[0];
        let (cond, a, b) = match cd.kind {
            OpKind::Select => (Some(cd.cond()), cd.if_true(), cd.if_false()),
            _ => (None, cd.lhs(), cd.rhs()),
        };
        let old = func.ops[load].results[0];
        let lty = func.value_type(old);
        let loc = func.ops[load].loc;
        // The index computed from `pick`, the ops on `path` cloned.
        let rebuild = |func: &mut Function, pick: Value| -> (Vec<Op>, Value) {
            let mut map = HashMap::from([(clamped, pick)]);
            let mut ops = Vec::new();
            let mut v = pick;
            for &o in &path {
                let c = clone_op(func, o, &mut map);
                v = func.ops[c].results[0];
                ops.push(c);
            }
            (ops, v)
        };
        let (ops_a, ia) = rebuild(func, a);
        let (ops_b, ib) = rebuild(func, b);
        func.insert_before(r, load, ops_a.into_iter().chain(ops_b));
        // An index computed in 32 bits that may wrap is recomputed in 64
        // bits, exact where the wrapping form fits `i32` (which the
        // bounds check then tests): gcc sees an affine address.
        let mut narrow = Vec::new();
        let mut bld = Builder::new(types, func);
        bld.set_loc(loc);
        bld.set_insertion_before(r, load);
        let mut exact = Vec::new();
        let mut widened = 0;
        let mut widen = |bld: &mut Builder<'_>, i: Value| {
            let mut found = Vec::new();
            match lin(bld.types, bld.func, p, i, 0, &mut found) {
                Some(l) if l.wraps || !found.is_empty() => {
                    let len = bld.func.regions[r].ops.len();
                    let Some(m) = materialize(bld, &l) else {
                        return i;
                    };
                    // The new ops sit just before the insertion point.
                    let grown = bld.func.regions[r].ops.len() - len;
                    let end = bld.func.op_index(r, load);
                    exact.extend(bld.func.regions[r].ops[end - grown..end].iter().copied());
                    if l.wraps {
                        found.push(l);
                    }
                    narrow.extend(found);
                    widened += 1;
                    m
                }
                _ => i,
            }
        };
        let ia = widen(&mut bld, ia);
        let ib = widen(&mut bld, ib);
        let cond = cond.unwrap_or_else(|| match bld.func.ops[clamp].kind {
            OpKind::Binary(BinOp::SMin, _) => bld.cmp(CmpPred::Slt, a, b),
            _ => bld.cmp(CmpPred::Sgt, a, b),
        });
        let mut one = |i: Value| {
            let (outer_elem, _) = steps[steps.len() - 1];
            let mut q = bld.ptr_index(base, i, outer_elem);
            for &(elem, idx) in steps[..steps.len() - 1].iter().rev() {
                q = bld.ptr_index(q, idx, elem);
            }
            let l = bld.op1(
                OpKind::Load {
                    volatile: false,
                    speculative: true,
                },
                vec![q],
                lty,
            );
            (q, l)
        };
        let (qa, la) = one(ia);
        let (qb, lb) = one(ib);
        let v = bld.select(cond, la, lb);
        if address(types, func, p, qa).is_none() || address(types, func, p, qb).is_none() {
            // Not affine: take the new ops out again.
            let end = func.op_index(r, load);
            func.regions[r].ops.drain(start..end);
            continue;
        }
        replace_all_uses(func, old, v);
        func.unlink_op(r, load);
        st.narrow.extend(narrow);
        st.exact.extend(exact);
        st.widened += widened;
        st.split += 1;
    }
}

/// Recomputes in 64 bits (with `nsw`) every 32-bit index of a speculative
/// load's address that may wrap, recording the values that must fit
/// `i32` for the bounds check: the loop only runs in this form when they
/// do, where both forms are equal, and gcc then sees affine addresses.
fn widen_indices(types: &mut Types, func: &mut Function, p: Op, st: &mut Stats) {
    let mut walk = Vec::new();
    func.walk_region(func.ops[p].body(), &mut walk);
    let mut indexes = Vec::new();
    for &(_, o) in &walk {
        if !matches!(
            func.ops[o].kind,
            OpKind::Load {
                speculative: true,
                ..
            }
        ) {
            continue;
        }
        let mut ptr = func.ops[o].ptr();
        while let Some(pi) = func.defining_op(ptr) {
            if !matches!(func.ops[pi].kind, OpKind::PtrIndex { .. }) {
                break;
            }
            if inside_loop(func, p, pi) && !indexes.contains(&pi) {
                indexes.push(pi);
            }
            ptr = func.ops[pi].ptr();
        }
    }
    for pi in indexes {
        let Some(&(r, _)) = walk.iter().find(|&&(_, o)| o == pi) else {
            continue;
        };
        let idx = func.ops[pi].index();
        let mut found = Vec::new();
        let Some(l) = lin(types, func, p, idx, 0, &mut found) else {
            continue;
        };
        if !l.wraps && found.is_empty() {
            continue;
        }
        let mut b = Builder::new(types, func);
        b.set_loc(b.func.ops[pi].loc);
        b.set_insertion_before(r, pi);
        let Some(m) = materialize(&mut b, &l) else {
            continue;
        };
        if l.wraps {
            found.push(l);
        }
        func.ops[pi].set_index(m);
        st.narrow.extend(found);
        st.widened += 1;
    }
}

/// The clamp (`select`, `smin`, `smax` inside `p`) `v` is computed from
/// through `sext`, `add`, `sub`, `mul` and `shl` ops inside `p`; `path`
/// gets those ops, the clamp's user first.
fn find_clamp(func: &Function, p: Op, v: Value, path: &mut Vec<Op>, depth: u32) -> Option<Op> {
    if depth > 8 {
        return None;
    }
    let d = func.defining_op(v)?;
    if !inside_loop(func, p, d) {
        return None;
    }
    match func.ops[d].kind {
        OpKind::Select | OpKind::Binary(BinOp::SMin | BinOp::SMax, _) => Some(d),
        OpKind::Cast(CastOp::SExt)
        | OpKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl, _) => {
            for &x in &func.ops[d].operands {
                if let Some(c) = find_clamp(func, p, x, path, depth + 1) {
                    path.push(d);
                    return Some(c);
                }
            }
            None
        }
        _ => None,
    }
}

/// True if `op` lies inside loop `p`.
fn inside_loop(func: &Function, p: Op, op: Op) -> bool {
    let mut walk = Vec::new();
    func.walk_region(func.ops[p].body(), &mut walk);
    walk.iter().any(|&(_, o)| o == op)
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
fn guard_checks(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    narrow: &[Lin],
) -> Check {
    let body = func.ops[p].body();
    let mut walk = Vec::new();
    func.walk_region(body, &mut walk);
    // Per load: (lowest byte, one past the highest, and their limits),
    // and per 32-bit value its address needs exact: (lowest, highest,
    // i32's limits).
    let mut bounds: Vec<(Sum, Sum, i64, i64)> = Vec::new();
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
        let Some(addr) = address(types, func, p, func.ops[o].ptr()) else {
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
            if extend_range(func, p, l, *scale, &mut lo, &mut hi).is_none() {
                return Check::Refused;
            }
        }
        bounds.push((lo, hi, -GUARD, addr.size + GUARD));
        for l in &addr.narrow {
            let (mut lo, mut hi) = (Sum::default(), Sum::default());
            if extend_range(func, p, l, 1, &mut lo, &mut hi).is_none() {
                return Check::Refused;
            }
            bounds.push((lo, hi, i64::from(i32::MIN), i64::from(i32::MAX)));
        }
    }
    for l in narrow {
        let (mut lo, mut hi) = (Sum::default(), Sum::default());
        if extend_range(func, p, l, 1, &mut lo, &mut hi).is_none() {
            return Check::Refused;
        }
        bounds.push((lo, hi, i64::from(i32::MIN), i64::from(i32::MAX)));
    }
    let mut cond = None;
    let mut b = Builder::new(types, func);
    let loc = b.func.ops[p].loc;
    b.set_loc(loc);
    b.set_insertion_before(region, p);
    for (lo, hi, min, max) in bounds {
        let checks = [(lo, CmpPred::Sge, min), (hi, CmpPred::Sle, max)];
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

/// Adds `scale · l` over the iterations of `p` to the range `[lo, hi]`:
/// each iv runs over `[0, ub - 1]`, taken at the end its coefficient
/// favours. `None` if a bound is unknown or the constants overflow.
fn extend_range(
    func: &Function,
    p: Op,
    l: &Lin,
    scale: i64,
    lo: &mut Sum,
    hi: &mut Sum,
) -> Option<()> {
    let c = l.c.checked_mul(scale)?;
    lo.c = lo.c.checked_add(c)?;
    hi.c = hi.c.checked_add(c)?;
    for &(v, s) in &l.parts {
        let s = s.checked_mul(scale)?;
        lo.dynamic.push((v, s));
        hi.dynamic.push((v, s));
    }
    for &(iv, k) in &l.ivs {
        let coef = k.checked_mul(scale)?;
        let side = if coef >= 0 { &mut *hi } else { &mut *lo };
        let ubv = iv_bound(func, p, iv)?;
        match func.const_bits(ubv).and_then(|ub| i64::try_from(ub).ok()) {
            Some(ub) => side.c = side.c.checked_add((ub - 1).checked_mul(coef)?)?,
            None => {
                side.dynamic.push((ubv, coef));
                side.c = side.c.checked_sub(coef)?;
            }
        }
    }
    Some(())
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
    let loc = func.ops[p].loc;
    let (if_op, then_r, else_r) = {
        let mut b = Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_before(region, p);
        b.create_if(cond, &[])
    };
    func.unlink_op(region, p);
    debug_assert!(func.regions[region].ops.contains(&if_op));
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[then_r].ops.extend([p, y]);
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[else_r].ops.extend([original, y]);
}
