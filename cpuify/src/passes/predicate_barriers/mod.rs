//! `predicate-barriers`: an `if` on a thread-dependent condition that
//! contains block barriers becomes straight-line code every thread runs,
//! with the work guarded by the thread's own condition.
//!
//! CUDA code exits early before barriers (`if (i >= n) return; ...
//! __syncthreads();`, which the frontends make an `if` around the rest of
//! the kernel, or `if (i < n) { ...; __syncthreads(); ... }`). On GPUs since
//! Volta the barrier waits only for the threads that have not exited, so
//! the partial last block of a grid works. `distribute` interchanges an `if`
//! holding barriers with the thread loop by evaluating its condition once,
//! which is only right when the condition is the same for the whole block.
//! This pass runs first and rewrites such an `if` so that every thread
//! reaches its barriers and only the threads whose condition held do work:
//!
//! ```text
//! if c { A; barrier; B; yield x } else { yield y }
//!   =>  a.. = if c { A; yield a.. } else { yield undef.. }   (guarded segment)
//!       barrier
//!       b.. = if c { B; yield b.. } else { yield undef.. }
//!       r = select c, x', y
//! ```
//!
//! Inside the region, pure arithmetic that cannot trap (and private
//! allocas) is speculated, every other op without barriers (loads, stores,
//! divisions, calls, atomics, printf, traps, barrier-free control flow) goes
//! into a guarded segment, nested `if`s holding barriers are flattened the
//! same way under `flag && cond` / `flag && !cond`, loops holding barriers
//! run for every thread with their bodies flattened under the flag, and a
//! `barrier.reduce` gets the flag folded into its predicate (non-taking
//! threads add nothing to a count or an `or`, and `true` to an `and`), as
//! exited threads on a GPU contribute nothing.
//!
//! A `while` holding barriers whose condition is thread-dependent (the
//! frontends' form of `for (...) { if (i >= n) break; ...; __syncthreads(); }`)
//! is predicated the same way: every thread runs it while any thread's own
//! condition holds (`barrier.reduce or` of `active && cond`, a carried
//! `active` flag), its condition ops and body are guarded by `active`, and
//! a thread keeps the values it left the loop with (carried exit values,
//! which replace the loop's results). Its condition region must hold no
//! barrier.
//!
//! Loops holding barriers must run the same iterations in every thread:
//! their bounds (a `for`'s) or condition (a `while`'s) must be block-uniform
//! ([`Uniformity`]) and computed by speculated ops only, from values every
//! thread has, never from a guarded segment (which gives non-taking threads
//! `undef`). When that cannot be shown, or the region holds anything else
//! this pass does not model, the `if` is left alone with a remark and
//! `distribute` handles it as before (with `--check-barriers`, its run-time
//! check traps when the block disagrees).

mod rewrite;

use super::entry::{launch_parts, Changed};
use super::launch_form::parallels;
use super::uniform::Uniformity;
use crate::remarks::Remarks;
use cucc_ir::{
    BarrierScope, BinOp, Callee, CastOp, FuncId, Function, Level, Module, Op, OpKind, Region,
    Space, Types, Value,
};
use std::collections::HashSet;

/// Name in remarks and the pipeline.
const PASS: &str = "predicate-barriers";

/// Predicates the divergent `if`s and `while`s holding barriers in the
/// thread loops of function `fid` (launch form); returns how many were
/// rewritten.
pub fn predicate_barriers(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
    let loops = parallels(func, Level::Block);
    let mut done = 0;
    let mut rejected = HashSet::new();
    for (_, p) in loops {
        loop {
            let u = Uniformity::of_thread_loop(types, func, p);
            let body = func.ops[p].body();
            let Some(c) = find_divergent(func, &u, body, &rejected) else {
                break;
            };
            let (name, loc) = (func.name.clone(), func.ops[c].loc);
            let is_while = func.ops[c].kind == OpKind::While;
            let what = if is_while { "while" } else { "if" };
            match legal(func, &u, c) {
                Ok(whiles) => {
                    let segments = rewrite::predicate(types, func, c, whiles);
                    done += 1;
                    let how = if is_while {
                        "the block iterates while any thread's condition holds, threads that \
                         left it pass its barriers idle"
                    } else {
                        "every thread reaches its barriers"
                    };
                    remarks.add(
                        PASS,
                        &name,
                        loc,
                        format!(
                            "`{what}` containing a barrier on a thread-dependent condition \
                             predicated: {how}, {segments} guarded segment(s)"
                        ),
                    );
                }
                Err(why) => {
                    rejected.insert(c);
                    remarks.add(
                        PASS,
                        &name,
                        loc,
                        format!(
                            "`{what}` containing a barrier on a thread-dependent condition not \
                             predicated: {why}; its condition is taken from one thread of the block"
                        ),
                    );
                }
            }
        }
    }
    Ok(done)
}

/// True if `op` is or contains a block barrier.
pub(crate) fn has_barrier(func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    matches!(
        data.kind,
        OpKind::Barrier(BarrierScope::Block) | OpKind::BarrierReduce(_)
    ) || data
        .regions
        .iter()
        .any(|&r| func.regions[r].ops.iter().any(|&o| has_barrier(func, o)))
}

/// True if `op` may run in threads whose condition failed: pure, cannot
/// trap, no regions (and private allocas, whose storage must outlive the
/// segment anyway).
pub(crate) fn speculable(func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    if !data.regions.is_empty() {
        return false;
    }
    match &data.kind {
        OpKind::Binary(b, _) => !b.can_fail(),
        OpKind::Cast(c) => !matches!(c, CastOp::FpToSi | CastOp::FpToUi),
        OpKind::Alloca { space, .. } => *space == Space::Private,
        k => k.is_pure(),
    }
}

/// True if `o` is a shift by a constant below its width: it cannot fail,
/// so it may be speculated like the ops [`speculable`] accepts.
pub(crate) fn constant_shift(types: &Types, func: &Function, o: Op) -> bool {
    let data = &func.ops[o];
    let OpKind::Binary(BinOp::Shl | BinOp::LShr | BinOp::AShr, _) = data.kind else {
        return false;
    };
    let bits = types[func.value_type(data.results[0])].int_bits();
    match (func.const_bits(data.rhs()), bits) {
        (Some(k), Some(bits)) => k < u64::from(bits),
        _ => false,
    }
}

/// The first `if` (pre-order) in `r` holding barriers whose condition is
/// not block-uniform, outside the ones already `rejected`.
fn find_divergent(
    func: &Function,
    u: &Uniformity,
    r: Region,
    rejected: &HashSet<Op>,
) -> Option<Op> {
    for &op in &func.regions[r].ops {
        if !has_barrier(func, op) {
            continue;
        }
        let data = &func.ops[op];
        let cond = match data.kind {
            OpKind::If => Some(data.cond()),
            OpKind::While => while_cond(func, op),
            _ => None,
        };
        if !rejected.contains(&op) && cond.is_some_and(|c| !u.is_uniform(c)) {
            return Some(op);
        }
        for &inner in &data.regions {
            if let Some(found) = find_divergent(func, u, inner, rejected) {
                return Some(found);
            }
        }
    }
    None
}

/// The condition of `while` op `w`.
fn while_cond(func: &Function, w: Op) -> Option<Value> {
    let t = *func.regions[func.ops[w].before()].ops.last()?;
    Some(func.ops[t].cond())
}

/// A `while` predicated as a whole needs a condition region without
/// barriers.
fn barrier_free_condition(func: &Function, w: Op) -> Result<(), String> {
    let before = func.ops[w].before();
    if func.regions[before]
        .ops
        .iter()
        .any(|&o| has_barrier(func, o))
    {
        return Err("the condition of a loop holding a barrier holds a barrier".into());
    }
    Ok(())
}

/// Checks that `if` or `while` op `c` can be predicated: the `while`s (with
/// `c` itself if it is one) that must iterate while any thread's condition
/// holds, or the reason it cannot.
fn legal(func: &Function, u: &Uniformity, c: Op) -> Result<HashSet<Op>, String> {
    let mut whiles = HashSet::new();
    if func.ops[c].kind == OpKind::While {
        barrier_free_condition(func, c)?;
        whiles.insert(c);
    }
    let mut walk = Vec::new();
    for &r in &func.ops[c].regions {
        func.walk_region(r, &mut walk);
    }
    for &(_, op) in &walk {
        let data = &func.ops[op];
        match &data.kind {
            OpKind::Parallel { .. } => return Err("it holds a nested `parallel`".into()),
            OpKind::Return => return Err("it holds a `return`".into()),
            OpKind::Call(Callee::Func(_)) => return Err("it holds a call".into()),
            OpKind::If
            | OpKind::For { .. }
            | OpKind::While
            | OpKind::Barrier(BarrierScope::Block)
            | OpKind::BarrierReduce(_) => {}
            k if has_barrier(func, op) => {
                return Err(format!("a barrier inside `{}`", k.mnemonic()));
            }
            _ => {}
        }
    }
    // `while`s whose condition may differ between threads iterate while any
    // thread's holds, which gives their values to no one else: to a fixed
    // point, as that taints what they carry.
    let tainted = loop {
        let tainted = taint(func, c, &whiles);
        let same_for_all = |v: &Value| u.is_uniform(*v) && !tainted.contains(v);
        let mut grew = false;
        for &(_, op) in &walk {
            if func.ops[op].kind == OpKind::While
                && has_barrier(func, op)
                && !whiles.contains(&op)
                && !while_cond(func, op).is_some_and(|v| same_for_all(&v))
            {
                barrier_free_condition(func, op)?;
                whiles.insert(op);
                grew = true;
            }
        }
        if !grew {
            break tainted;
        }
    };
    let same_for_all = |v: &Value| u.is_uniform(*v) && !tainted.contains(v);
    for &(_, op) in &walk {
        let data = &func.ops[op];
        if matches!(data.kind, OpKind::For { .. })
            && has_barrier(func, op)
            && !data.controls().iter().all(same_for_all)
        {
            return Err(
                "the bounds of a `for` holding a barrier are not known to be the same \
                 for every thread"
                    .into(),
            );
        }
    }
    Ok(whiles)
}

/// The values inside `if` or `while` op `c` that threads not taking it would see
/// differently from the threads taking it once predicated: results of
/// guarded segments (`undef` for them), of flattened `if`s, and everything
/// computed from those. Found to a fixed point over loop-carried values.
fn taint(func: &Function, c: Op, whiles: &HashSet<Op>) -> HashSet<Value> {
    let mut set = HashSet::new();
    // A `while` iterating while any thread's condition holds carries
    // garbage in the threads that left it.
    for &w in whiles {
        for &r in &func.ops[w].regions {
            set.extend(func.regions[r].args.iter().copied());
        }
        set.extend(func.ops[w].results.iter().copied());
    }
    loop {
        let before = set.len();
        for &r in &func.ops[c].regions {
            taint_region(func, r, &mut set);
        }
        if set.len() == before {
            return set;
        }
    }
}

fn taint_region(func: &Function, r: Region, set: &mut HashSet<Value>) {
    let any = |set: &HashSet<Value>, vals: &[Value]| vals.iter().any(|v| set.contains(v));
    let term = |r: Region| -> Vec<Value> {
        func.regions[r]
            .ops
            .last()
            .map_or_else(Vec::new, |&t| func.ops[t].operands.clone())
    };
    for &op in &func.regions[r].ops {
        let data = &func.ops[op];
        let (ops, res) = (&data.operands, &data.results);
        if !has_barrier(func, op) {
            if !speculable(func, op) || any(set, ops) {
                set.extend(res.iter().copied());
            }
            continue;
        }
        match data.kind {
            OpKind::For { .. } => {
                let body = data.body();
                let args = func.regions[body].args.clone();
                let bounds = any(set, data.controls());
                if any(set, &[data.lb(), data.step()]) {
                    set.insert(args[0]);
                }
                let ys = term(body);
                for (k, (&init, &y)) in data.inits().iter().zip(&ys).enumerate() {
                    if bounds || set.contains(&init) || set.contains(&y) {
                        set.insert(args[k + 1]);
                        if let Some(&rv) = res.get(k) {
                            set.insert(rv);
                        }
                    }
                }
                taint_region(func, body, set);
            }
            OpKind::While => {
                let (b, a) = (data.before(), data.after());
                let (bargs, aargs) = (&func.regions[b].args, &func.regions[a].args);
                let ys = term(a);
                for (k, (&init, &y)) in data.inits().iter().zip(&ys).enumerate() {
                    if set.contains(&init) || set.contains(&y) {
                        set.insert(bargs[k]);
                    }
                }
                taint_region(func, b, set);
                let cond = term(b);
                for (k, &v) in cond.iter().skip(1).enumerate() {
                    if set.contains(&v) || cond.first().is_some_and(|c| set.contains(c)) {
                        set.insert(aargs[k]);
                        if let Some(&rv) = res.get(k) {
                            set.insert(rv);
                        }
                    }
                }
                taint_region(func, a, set);
            }
            OpKind::If => {
                set.extend(res.iter().copied());
                for &inner in &data.regions {
                    taint_region(func, inner, set);
                }
            }
            // Barriers; a `barrier.reduce` gives every thread the same result.
            _ => {}
        }
    }
}
