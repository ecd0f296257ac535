//! `barrier-elim`: deletes block barriers that order nothing (Polygeist,
//! section IV-A).
//!
//! A barrier `B` is observable only through accesses that other threads
//! make on either side of it. With
//! - `M†before`: the accesses from the previous barrier (or the start of
//!   the thread loop) to `B`,
//! - `Mbefore`: the accesses from the start of the thread loop to `B`,
//! - `Mafter`: the accesses from `B` to the end of the thread loop,
//! - `M†after`: the accesses from `B` to the next barrier (or the end),
//!
//! `B` is deleted when no access of `M†before` conflicts across threads
//! with one of `Mafter` (the previous barrier already orders everything
//! `B` would), or symmetrically when `Mbefore` and `M†after` do not
//! conflict (the next barrier does). "Conflicts across threads" is
//! [`cucc_ir::effects::conflicts_across_threads`]: one of the two writes,
//! their bases may alias (`noalias` parameters, distinct allocas and
//! globals and distinct spaces do not), and the thread-injectivity gap does
//! not show that two *different* threads never touch a common byte. That is
//! the paper's hole: `a[tid] = ..; barrier; .. = a[tid]` needs no barrier,
//! since each thread reads what it wrote itself. A barrier whose window
//! ([`cucc_ir::effects::BarrierWindow`]) has no effects at all is deleted
//! too. Accesses to thread-private storage never count.
//!
//! The walks climb out of nested regions: leaving a `for`, `while` or
//! nested `parallel` adds the whole loop (it wraps around), and the walk
//! ends at the thread loop the barrier binds to (in kernel form, the
//! function body). A walk to the neighbouring barrier stops at a block
//! barrier at the same level; at a `for` with constant bounds that runs at
//! least once and has a barrier at the top of its body, it takes only the
//! part of the body next to `B` (after the body's last barrier, walking
//! backwards; before its first, walking forwards); at an `if` or `while`
//! that certainly runs a barrier it takes the whole op and stops. Anything
//! else is included whole, which only ever keeps a barrier. Deleting one
//! barrier widens its neighbours' windows, so the pass deletes one at a time
//! and analyses again.
//!
//! The pass runs on kernel form (the barrier binds to the implicit block)
//! and on launch form (it binds to the nearest `parallel<block>` or
//! `parallel<warp>`); in the pipeline it runs after `lower-launch`. Only
//! `barrier block` is considered: `barrier.reduce` has a result, and warp
//! barriers are left to the `warp` pass.

use crate::passes::entry::{has_threads, Changed};
use crate::remarks::Remarks;
use cucc_ir::affine::Coords;
use cucc_ir::edit::remove_op;
use cucc_ir::effects::conflicts_across_threads;
use cucc_ir::{
    BarrierScope, Base, CallSummaries, FuncId, Function, FunctionEffects, FunctionKind, Level,
    MemEffect, Module, Op, OpKind, Region, Space, Value,
};

/// Deletes the removable block barriers of function `fid` (kernel or
/// launch form; other functions are left alone). Returns how many were
/// deleted. Every barrier gets a remark saying why it was deleted or, for
/// the ones kept, which pair of accesses needs it.
pub fn barrier_elim(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    if !has_threads(module, fid) {
        return Ok(0);
    }
    let summaries = CallSummaries::compute(module);
    let mut removed = 0;
    loop {
        let found = {
            let func = &module.functions[fid];
            let fx = FunctionEffects::new(module, func, &summaries);
            block_barriers(func).into_iter().find_map(|(region, b)| {
                match analyse(module, &fx, func, b) {
                    Verdict::Remove(why) => Some((region, b, why)),
                    Verdict::Keep(_) => None,
                }
            })
        };
        let Some((region, b, why)) = found else {
            break;
        };
        let func = &mut module.functions[fid];
        let loc = func.ops[b].loc;
        remove_op(func, region, b);
        removed += 1;
        let name = func.name.clone();
        remarks.add(
            "barrier-elim",
            &name,
            loc,
            format!("barrier removed: {why}"),
        );
    }
    let func = &module.functions[fid];
    let fx = FunctionEffects::new(module, func, &summaries);
    for (_, b) in block_barriers(func) {
        if let Verdict::Keep(why) = analyse(module, &fx, func, b) {
            remarks.add(
                "barrier-elim",
                &func.name,
                func.ops[b].loc,
                format!("barrier kept: {why}"),
            );
        }
    }
    Ok(removed)
}

/// Every `barrier block` of `func`, in program order.
fn block_barriers(func: &Function) -> Vec<(Region, Op)> {
    func.walk()
        .into_iter()
        .filter(|&(_, op)| func.ops[op].kind == OpKind::Barrier(BarrierScope::Block))
        .collect()
}

enum Verdict {
    /// The barrier can go; why.
    Remove(String),
    /// The barrier must stay; why.
    Keep(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Backward,
    Forward,
}

/// The walks around one barrier.
struct Walker<'a, 'f> {
    fx: &'a FunctionEffects<'f>,
    func: &'f Function,
    parents: cucc_ir::Parents,
    /// The thread loop the barrier binds to (`None`: the function body).
    binding: Option<Op>,
}

fn analyse(module: &Module, fx: &FunctionEffects<'_>, func: &Function, b: Op) -> Verdict {
    let parents = func.parents();
    let binding = parents.ancestors(b).into_iter().find(|&a| {
        matches!(
            func.ops[a].kind,
            OpKind::Parallel {
                level: Level::Block | Level::Warp
            }
        )
    });
    if func.kind == FunctionKind::Launch && binding.is_none() {
        return Verdict::Keep("not inside a thread loop".into());
    }
    let Some(window) = fx.barrier_window(b, [None; 3]) else {
        return Verdict::Keep("not a block barrier".into());
    };
    let (reads, writes) = window.effects();
    if reads.is_empty() && writes.is_empty() {
        return Verdict::Remove("it orders no memory access of another thread (no effects)".into());
    }
    let coords = window.coords;
    let w = Walker {
        fx,
        func,
        parents,
        binding,
    };
    let private = w.thread_private_allocas();
    let shared_only = |mut v: Vec<MemEffect>| {
        v.retain(|e| e.is_access() && !is_thread_private(func, &private, e));
        v
    };
    let near_before = shared_only(w.collect(b, Direction::Backward, true));
    let all_after = shared_only(w.collect(b, Direction::Forward, false));
    let Some(c1) = first_conflict(func, &coords, &near_before, &all_after) else {
        return Verdict::Remove(
            "no access from the previous barrier to it conflicts across threads with any access after it"
                .into(),
        );
    };
    let all_before = shared_only(w.collect(b, Direction::Backward, false));
    let near_after = shared_only(w.collect(b, Direction::Forward, true));
    if first_conflict(func, &coords, &all_before, &near_after).is_none() {
        return Verdict::Remove(
            "no access before it conflicts across threads with any access from it to the next barrier"
                .into(),
        );
    }
    Verdict::Keep(format!(
        "{} before it and {} after it may touch the same memory from different threads",
        describe(module, func, &c1.0),
        describe(module, func, &c1.1)
    ))
}

/// The first pair (a in `xs`, b in `ys`) that may conflict across threads.
fn first_conflict(
    func: &Function,
    coords: &Coords,
    xs: &[MemEffect],
    ys: &[MemEffect],
) -> Option<(MemEffect, MemEffect)> {
    xs.iter().find_map(|a| {
        ys.iter()
            .find(|b| conflicts_across_threads(func, coords, a, b))
            .map(|b| (a.clone(), b.clone()))
    })
}

/// Thread-private accesses: private space in kernel form; in launch form,
/// private allocas inside the thread loop.
fn is_thread_private(func: &Function, inner_allocas: &[Op], e: &MemEffect) -> bool {
    match func.kind {
        FunctionKind::Launch => {
            e.space == Space::Private
                && matches!(e.base, Base::Alloca(a) if inner_allocas.contains(&a))
        }
        _ => e.space == Space::Private,
    }
}

/// "`store` to %a" for remarks.
fn describe(module: &Module, func: &Function, e: &MemEffect) -> String {
    let what = func.ops.try_get(e.op).map_or("?", |d| d.kind.mnemonic());
    let base = match e.base {
        Base::Param(i) => func
            .param_values()
            .get(i as usize)
            .and_then(|&v| func.values[v].name.clone())
            .map_or_else(|| format!("parameter {i}"), |n| format!("%{n}")),
        Base::Global(g) => module
            .globals
            .try_get(g)
            .map_or_else(|| "a global".to_string(), |g| format!("@{}", g.name)),
        Base::Alloca(a) => func
            .ops
            .try_get(a)
            .and_then(|d| d.results.first())
            .and_then(|&v| func.values[v].name.clone())
            .map_or_else(|| "an alloca".to_string(), |n| format!("%{n}")),
        Base::DynamicShared => "dynamic shared memory".to_string(),
        Base::Texture => "texture memory".to_string(),
        Base::Unknown => "unknown memory".to_string(),
    };
    let dir = if e.is_write() { "to" } else { "from" };
    let loc = func.ops.try_get(e.op).map(|d| d.loc);
    match loc.filter(|l| !l.is_unknown()) {
        Some(l) => format!("`{what}` {dir} {base} ({})", module.describe_loc(l)),
        None => format!("`{what}` {dir} {base}"),
    }
}

impl Walker<'_, '_> {
    fn thread_private_allocas(&self) -> Vec<Op> {
        let Some(p) = self.binding else {
            return Vec::new();
        };
        let mut ops = Vec::new();
        for &r in &self.func.ops[p].regions {
            self.func.walk_region(r, &mut ops);
        }
        ops.into_iter()
            .map(|(_, o)| o)
            .filter(|&o| matches!(self.func.ops[o].kind, OpKind::Alloca { .. }))
            .collect()
    }

    /// The accesses from barrier `b` in direction `dir`, to the end of the
    /// thread loop, or with `near` to the neighbouring barrier.
    fn collect(&self, b: Op, dir: Direction, near: bool) -> Vec<MemEffect> {
        let f = self.func;
        let mut out = Vec::new();
        let mut cur = b;
        loop {
            let Some(region) = self.parents.region_of(cur) else {
                return out;
            };
            let Some(pos) = f.find_op(region, cur) else {
                return out;
            };
            let ops = &f.regions[region].ops;
            let seq: Vec<Op> = match dir {
                Direction::Backward => ops[..pos].iter().rev().copied().collect(),
                Direction::Forward => ops[pos + 1..].to_vec(),
            };
            for op in seq {
                if near {
                    if f.ops[op].kind.is_block_barrier() {
                        return out;
                    }
                    if let Some(part) = self.barrier_part(op, dir) {
                        out.extend(part);
                        return out;
                    }
                }
                out.extend(self.fx.op_effects(op));
            }
            let Some(parent) = self.parents.op_of(region) else {
                return out;
            };
            if Some(parent) == self.binding {
                return out;
            }
            if matches!(
                f.ops[parent].kind,
                OpKind::For { .. } | OpKind::While | OpKind::Parallel { .. }
            ) {
                out.extend(self.fx.op_effects(parent));
            }
            cur = parent;
        }
    }

    /// If running `op` certainly runs a block barrier, the accesses of the
    /// part of `op` between that barrier and the walk's start.
    fn barrier_part(&self, op: Op, dir: Direction) -> Option<Vec<MemEffect>> {
        let f = self.func;
        let data = &f.ops[op];
        let top_barrier = |r: Region| {
            f.regions[r]
                .ops
                .iter()
                .any(|&o| f.ops[o].kind.is_block_barrier())
        };
        match data.kind {
            OpKind::For { .. } => {
                let c = |v: Value| self.fx.affine().affine_of(v)?.as_constant();
                let (Some(lb), Some(ub)) = (c(data.lb()), c(data.ub())) else {
                    return None;
                };
                let body = data.body();
                if !(0 <= lb && lb < ub && top_barrier(body)) {
                    return None;
                }
                let ops = &f.regions[body].ops;
                let part: Vec<Op> = match dir {
                    Direction::Backward => {
                        let last = ops
                            .iter()
                            .rposition(|&o| f.ops[o].kind.is_block_barrier())?;
                        ops[last + 1..].to_vec()
                    }
                    Direction::Forward => {
                        let first = ops.iter().position(|&o| f.ops[o].kind.is_block_barrier())?;
                        ops[..first].to_vec()
                    }
                };
                Some(
                    part.into_iter()
                        .flat_map(|o| self.fx.op_effects(o))
                        .collect(),
                )
            }
            OpKind::If
                if data.regions.len() == 2 && data.regions.iter().all(|&r| top_barrier(r)) =>
            {
                Some(self.fx.op_effects(op))
            }
            OpKind::While if top_barrier(data.before()) => Some(self.fx.op_effects(op)),
            _ => None,
        }
    }
}
