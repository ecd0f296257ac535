//! `split-guards`: work a thread loop does in one row or column of its
//! threads only moves out into a loop over that row or column.
//!
//! Tiled kernels load a tile's halo with the threads on its edge: `if
//! (threadIdx.y == 0) tile[0][tx + 1] = in[...]`. Run as a loop over the
//! threads, every iteration tests each such guard, and the guarded global
//! loads (a clamped neighbour index) keep the C compiler from vectorising
//! the loop. In a thread loop whose iterations are independent (kept
//! `parallel` by `serialize-inner`, possibly under its run-time checks),
//! a top-level `if` without results whose condition requires
//! `threadIdx.d == k` (`k` a constant) moves after the loop as
//!
//! ```text
//! if (k < extent_d) { parallel (x, y, z) in (.., 1 in d, ..) { body with t_d = k } }
//! ```
//!
//! with the pure values it uses from earlier in the body recomputed. The
//! guarded work of thread `t*` then runs after the other iterations'
//! work and after what follows it in its own iteration: the first is
//! legal because no two iterations touch a common byte with one writing
//! (the loop's own dependence test, facts included), the second is
//! checked here (no access of the `if` may conflict, in one thread, with
//! an access after it in the body). Guards moved out keep their order.

use crate::passes::entry::{is_launch, parts, Changed};
use crate::passes::serialize_inner::{
    iterations_independent, operands_of, pin_of, same_thread_conflict,
};
use crate::remarks::Remarks;
use cucc_ir::edit::clone_op;
use cucc_ir::{
    BinOp, Builder, CallSummaries, CmpPred, FuncId, Function, FunctionEffects, Level, Module, Op,
    OpKind, Region, Types, Value, ValueDef,
};
use std::collections::{HashMap, HashSet};

/// Name in remarks and the pipeline.
const PASS: &str = "split-guards";

/// A guard to move: the `if`, the pinned dimension and coordinate, and
/// the ops of the body before it whose values it uses (in body order).
struct Guard {
    op: Op,
    dim: usize,
    at: i64,
    slice: Vec<Op>,
    /// Where the work is: in the then branch when the condition holds
    /// (`if (t == k) { work }`), in the else branch for nvcc's
    /// `if (t != k) {} else { work }`.
    holds: bool,
}

/// Moves the row- and column-guarded work of the independent thread loops
/// of function `fid` (launch form) into loops of its own; returns how many
/// guards moved.
pub fn split_guards(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    if !is_launch(module, fid) {
        return Ok(0);
    }
    let plans: Vec<(Region, Op, Vec<Guard>)> = {
        let func = &module.functions[fid];
        let summaries = CallSummaries::compute(module);
        let fx = FunctionEffects::new(module, func, &summaries);
        func.walk()
            .into_iter()
            .filter(|&(_, o)| {
                func.ops[o].kind
                    == OpKind::Parallel {
                        level: Level::Block,
                    }
            })
            .filter_map(|(r, p)| {
                let guards = movable(module, &fx, func, p);
                (!guards.is_empty() && iterations_independent(&fx, func, p))
                    .then_some((r, p, guards))
            })
            .collect()
    };
    let (types, func) = parts(module, fid);
    let mut moved = 0;
    for (region, p, guards) in plans {
        let name = func.name.clone();
        let mut after = p;
        for g in &guards {
            let loc = func.ops[g.op].loc;
            let Some(op) = split(types, func, region, p, after, g) else {
                continue;
            };
            after = op;
            moved += 1;
            remarks.add(
                PASS,
                &name,
                loc,
                format!(
                    "work guarded by `threadIdx.{} == {}` moved out of the thread loop into a \
                     loop over the other thread coordinates",
                    ["x", "y", "z"][g.dim],
                    g.at
                ),
            );
        }
    }
    Ok(moved)
}

/// The guards of thread loop `p` that may move out, in body order.
fn movable(module: &Module, fx: &FunctionEffects<'_>, func: &Function, p: Op) -> Vec<Guard> {
    let body = func.ops[p].body();
    let ivs = &func.regions[body].args;
    if ivs.len() != 3 || func.ops[p].ubs().len() != 3 {
        return Vec::new();
    }
    let ops = &func.regions[body].ops;
    let mut out: Vec<Guard> = Vec::new();
    for (i, &op) in ops.iter().enumerate() {
        let data = &func.ops[op];
        if data.kind != OpKind::If || !data.results.is_empty() {
            continue;
        }
        let empty = |r: Region| {
            func.regions[r]
                .ops
                .iter()
                .all(|&o| func.ops[o].kind == OpKind::Yield)
        };
        // The work runs where the condition holds (`and` of atoms, one
        // `t == k`), or where it fails (`or` of atoms, one `t != k`).
        let holds = if empty(data.else_region()) {
            true
        } else if empty(data.then_region()) {
            false
        } else {
            continue;
        };
        let mut atoms = Vec::new();
        let joint = if holds { BinOp::And } else { BinOp::Or };
        operands_of(func, joint, data.cond(), &mut atoms);
        let Some((dim, at)) = atoms.iter().find_map(|&a| pin_of(func, ivs, a, holds)) else {
            continue;
        };
        let Some(slice) = slice_of(func, body, op) else {
            continue;
        };
        // What stays after it in the body must commute with it in one
        // thread; guards moved before it keep their order with it.
        let mine = fx.op_effects(op);
        let later = ops[i + 1..]
            .iter()
            .filter(|&&o| !out.iter().any(|g| g.op == o))
            .flat_map(|&o| fx.op_effects(o));
        let clash = later.into_iter().any(|b| {
            mine.iter()
                .any(|a| same_thread_conflict(module, fx, func, p, a, &b))
        });
        if clash {
            continue;
        }
        out.push(Guard {
            op,
            dim,
            at,
            slice,
            holds,
        });
    }
    out
}

/// The ops of `body` (top level, before `guard`) that compute the values
/// `guard` uses, in body order; `None` if one is not pure (or is an `if`
/// of anything but pure ops).
fn slice_of(func: &Function, body: Region, guard: Op) -> Option<Vec<Op>> {
    let top: HashMap<Op, usize> = func.regions[body]
        .ops
        .iter()
        .enumerate()
        .map(|(i, &o)| (o, i))
        .collect();
    let mut inner = vec![(body, guard)];
    for &r in &func.ops[guard].regions {
        func.walk_region(r, &mut inner);
    }
    let mut need: Vec<Op> = Vec::new();
    let mut seen: HashSet<Op> = HashSet::new();
    let mut work: Vec<Value> = inner
        .iter()
        .flat_map(|&(_, o)| func.ops[o].operands.iter().copied())
        .collect();
    while let Some(v) = work.pop() {
        let ValueDef::Result { op, .. } = func.values[v].def else {
            continue;
        };
        if op == guard || !top.contains_key(&op) || !seen.insert(op) {
            continue;
        }
        if !pure(func, op) {
            return None;
        }
        need.push(op);
        let mut sub = vec![(body, op)];
        for &r in &func.ops[op].regions {
            func.walk_region(r, &mut sub);
        }
        work.extend(
            sub.iter()
                .flat_map(|&(_, o)| func.ops[o].operands.iter().copied()),
        );
    }
    need.sort_by_key(|o| top[o]);
    Some(need)
}

/// Pure: no effect besides its results, or an `if` of such ops.
fn pure(func: &Function, op: Op) -> bool {
    crate::passes::launch_form::if_tree_all(func, op, &|f, o| f.ops[o].kind.is_pure())
}

/// Moves guard `g` out of loop `p` (in `region`) to just after op `after`:
/// `if (k < extent_d) { parallel over the other coordinates { slice;
/// guarded work } }`. Returns the new outer op, `None` if nothing moved.
fn split(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    after: Op,
    g: &Guard,
) -> Option<Op> {
    let body = func.ops[p].body();
    let at = func.find_op(region, after)? + 1;
    let loc = func.ops[g.op].loc;
    let ubs = func.ops[p].ubs().to_vec();
    let ivs = func.regions[body].args.clone();
    let ty = func.value_type(ivs[g.dim]);
    let extent = ubs[g.dim];
    // Never runs when the block is not that large (a constant extent
    // decides it now).
    if let Some(e) = func.const_bits(extent) {
        if u64::try_from(g.at).map_or(true, |k| k >= e) {
            func.unlink_op(body, g.op);
            return Some(after);
        }
    }
    let (outer, inner) = {
        let mut b = Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_at(region, at);
        let k = b.const_int(ty, g.at);
        let one = b.const_int(ty, 1);
        let cond = b.cmp(CmpPred::Ult, k, extent);
        let (outer, then_r, _) = b.create_if(cond, &[]);
        b.set_insertion_end(then_r);
        let mut new_ubs = ubs.clone();
        new_ubs[g.dim] = one;
        let (_, inner) = b.create_parallel(Level::Block, &new_ubs);
        b.yield_(vec![]);
        b.set_insertion_end(inner);
        // The pinned coordinate, and the else branch's terminator.
        let k_in = b.const_int(ty, g.at);
        b.yield_(vec![]);
        let else_r = b.func.ops[outer].else_region();
        b.set_insertion_end(else_r);
        b.yield_(vec![]);
        (outer, (inner, k_in))
    };
    let (inner, k_in) = inner;
    let new_ivs = func.regions[inner].args.clone();
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (d, (&old, &new)) in ivs.iter().zip(&new_ivs).enumerate() {
        map.insert(old, if d == g.dim { k_in } else { new });
    }
    // Before the inner body's terminator: the slice, then the guard.
    let mut copies = Vec::new();
    for &o in &g.slice {
        copies.push(clone_op(func, o, &mut map));
    }
    let copy = clone_op(func, g.op, &mut map);
    let cond = func.ops[g.op].cond();
    if pin_of(func, &ivs, cond, g.holds).is_some() {
        // The condition is the pin alone, decided the same way in every
        // iteration now: the work runs unguarded.
        let work_r = func.ops[copy].branch(g.holds);
        let mut work = std::mem::take(&mut func.regions[work_r].ops);
        work.pop();
        copies.extend(work);
    } else {
        copies.push(copy);
    }
    let end = func.regions[inner].ops.len() - 1;
    func.regions[inner].ops.splice(end..end, copies);
    func.unlink_op(body, g.op);
    Some(outer)
}
