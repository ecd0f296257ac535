//! `parallel-licm`: hoists invariant work out of thread loops and out of
//! serial loops (Polygeist, section IV-C).
//!
//! # Out of a thread loop
//!
//! The iterations of a `parallel` may interleave in any order that respects
//! its barriers, so running them in lock-step is legal: every thread runs
//! op 1, then every thread op 2, and so on. An op at the top level of a
//! `parallel<block>`, `parallel<warp>` or `parallel<lane>` body whose
//! operands are defined outside the loop computes the same value in every
//! thread, and under lock-step it sees memory as left by the ops *before*
//! it. So it may run once, before the loop, if it only reads memory and no
//! earlier op of the body may write what it reads (later ops need not be
//! checked). This takes a `sum(in, n)` loop out of the thread loop
//! (the paper's Figure 1): its `for` is hoisted whole.
//!
//! Hoisted work must not run when the loop would not: a hoisted load could
//! fault where the loop never ran. Thread loops over block dimensions run
//! at least once, since CUDA rejects launches with a zero dimension; ops
//! that may fault (loads, division, shifts, anything with regions) are
//! hoisted only out of loops whose bounds are known positive that way
//! (`block_dim`, `grid_dim`, `warp_size`, positive constants, and the
//! minimum of such values, which is how `warp` bounds its lane loops).
//! Ops that cannot fault are hoisted whatever the bounds. Grid loops are
//! left alone: the C emitter wants nothing outside them.
//!
//! # Out of a serial loop
//!
//! An op at the top level of a `for` body whose operands are defined
//! outside the loop is hoisted before it when it only reads memory, no op
//! of the body (earlier or later: iterations follow each other) may write
//! what it reads, and the body does not synchronise (across a barrier
//! other threads' writes could land between iterations). Ops that may
//! fault are hoisted only when the loop's constant bounds show it runs at
//! least once.
//!
//! "May write what it reads" is [`cucc_ir::effects::conflicts`]: bases that
//! may alias and offsets not provably apart. An offset that depends on the
//! thread is never provably apart from an invariant one, which is what the
//! lock-step argument needs across threads.

use crate::passes::entry::{has_threads, synchronizes, Changed};
use crate::remarks::Remarks;
use cucc_ir::effects::conflicts;
use cucc_ir::{
    ArithFlags, BinOp, CallSummaries, Callee, EffectKind, FuncId, Function, FunctionEffects, Level,
    MemEffect, Module, Op, OpKind, Region, Value,
};
use std::collections::{HashMap, HashSet};

/// Hoists what it can in function `fid` (kernel or launch form); returns
/// the number of ops hoisted.
pub fn parallel_licm(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    if !has_threads(module, fid) {
        return Ok(0);
    }
    let summaries = CallSummaries::compute(module);
    let mut total = 0;
    // Each round hoists out of every loop once; hoisting out of an inner
    // loop can make an outer loop's op invariant, so repeat to a fixpoint
    // (bounded: every round moves ops strictly outwards).
    for _round in 0..64 {
        let plans = {
            let func = &module.functions[fid];
            let fx = FunctionEffects::new(module, func, &summaries);
            let mut plans = Vec::new();
            // Innermost loops first.
            for (region, l) in func.walk().into_iter().rev() {
                if let Some(kind) = loop_kind(func, l) {
                    let (ops, runs_once) = hoistable(module, &fx, func, l, kind);
                    if !ops.is_empty() {
                        plans.push((region, l, kind, ops, runs_once));
                        // One loop per round: the next analysis sees the move.
                        break;
                    }
                }
            }
            plans
        };
        if plans.is_empty() {
            break;
        }
        for (region, l, kind, ops, runs_once) in plans {
            total += ops.len();
            apply(module, fid, region, l, &ops, runs_once);
            report(module, fid, remarks, l, kind, &ops);
        }
    }
    Ok(total)
}

/// Which loops the pass hoists out of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LoopKind {
    /// A thread-level `parallel` (block, warp or lane).
    Threads(Level),
    /// A serial `for`.
    Serial,
}

fn loop_kind(func: &Function, op: Op) -> Option<LoopKind> {
    match func.ops[op].kind {
        OpKind::Parallel { level } if level != Level::Grid => Some(LoopKind::Threads(level)),
        OpKind::For { .. } => Some(LoopKind::Serial),
        _ => None,
    }
}

/// The ops of loop `l`'s body that may move before `l`, in order.
fn hoistable(
    module: &Module,
    fx: &FunctionEffects<'_>,
    func: &Function,
    l: Op,
    kind: LoopKind,
) -> (Vec<Op>, bool) {
    let body = func.ops[l].body();
    let inside = defined_in(func, &func.ops[l].regions);
    let runs_once = match kind {
        LoopKind::Threads(_) => func.ops[l]
            .ubs()
            .iter()
            .all(|&v| known_positive(func, v, 0)),
        LoopKind::Serial => runs_at_least_once(fx, func, l),
    };
    let body_ops = func.regions[body].ops.clone();
    // Writes that the candidate must not read: earlier ops for thread
    // loops, the whole body for serial loops.
    let mut writes: Vec<MemEffect> = Vec::new();
    if kind == LoopKind::Serial {
        if body_ops.iter().any(|&o| synchronizes(func, o)) {
            // Other threads may write between iterations: only ops that
            // do not read memory may move.
            writes.push(unknown_write(l));
        }
        for &o in &body_ops {
            writes.extend(fx.op_effects(o).into_iter().filter(|e| e.is_write()));
        }
    }
    let mut moved_defs: HashSet<Value> = HashSet::new();
    // Constants are not worth moving on their own; they move with the ops
    // that use them (they stay visible to the ops left in the loop).
    let mut consts: HashMap<Value, Op> = HashMap::new();
    let mut needed: HashSet<Op> = HashSet::new();
    let mut hoisted: HashSet<Op> = HashSet::new();
    for &op in &body_ops {
        if matches!(func.ops[op].kind, OpKind::Const { .. } | OpKind::Undef) {
            for &r in &func.ops[op].results {
                consts.insert(r, op);
            }
            continue;
        }
        let effects = fx.op_effects(op);
        let free = free_values(func, op);
        let ok = candidate(func, op, kind)
            && free
                .iter()
                .all(|v| !inside.contains(v) || moved_defs.contains(v) || consts.contains_key(v))
            && effects
                .iter()
                .all(|e| e.kind == EffectKind::Read && !e.volatile && !e.atomic)
            && (runs_once || !may_fault(func, op))
            && effects
                .iter()
                .all(|r| writes.iter().all(|w| !conflicts(module, func, w, r)));
        if ok {
            needed.extend(free.iter().filter_map(|v| consts.get(v).copied()));
            moved_defs.extend(func.ops[op].results.iter().copied());
            hoisted.insert(op);
        } else if kind != LoopKind::Serial {
            writes.extend(effects.into_iter().filter(|e| e.is_write()));
        }
    }
    let ops = body_ops
        .into_iter()
        .filter(|o| hoisted.contains(o) || needed.contains(o))
        .collect();
    (ops, runs_once)
}

/// A write of unknown memory, standing for other threads' writes.
fn unknown_write(op: Op) -> MemEffect {
    MemEffect {
        kind: EffectKind::Write,
        op,
        space: cucc_ir::Space::Generic,
        base: cucc_ir::Base::Unknown,
        offset: None,
        size: None,
        volatile: false,
        atomic: false,
    }
}

/// True if `op` may be considered at all: it has results, is no
/// terminator, and neither synchronises nor reads the executing thread's
/// coordinates (nor calls a function, which could).
fn candidate(func: &Function, op: Op, kind: LoopKind) -> bool {
    let data = &func.ops[op];
    if data.results.is_empty() {
        return false;
    }
    let mut all = vec![(func.body, op)];
    for &r in &data.regions {
        func.walk_region(r, &mut all);
    }
    all.iter().all(|&(_, o)| {
        let k = &func.ops[o].kind;
        // Reads of the executing thread's identity or warp: their value
        // belongs to the thread, not to the loop around it.
        let id_read = matches!(
            k,
            OpKind::ThreadId(_) | OpKind::LaneId | OpKind::BlockId(_) | OpKind::ActiveMask
        );
        !(k.is_synchronizing()
            || matches!(
                k,
                OpKind::Yield | OpKind::Condition | OpKind::Return if o == op
            )
            || matches!(k, OpKind::Call(Callee::Func(_)) | OpKind::Alloca { .. })
            || (id_read && matches!(kind, LoopKind::Threads(_))))
    })
}

/// True if running `op` may fault: memory reads, integer division and
/// remainder, shifts (by too much), and anything with regions.
fn may_fault(func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    !data.regions.is_empty()
        || matches!(
            data.kind,
            OpKind::Load { .. } | OpKind::TexFetch(_) | OpKind::Call(_)
        )
        || matches!(data.kind, OpKind::Binary(b, _) if b.can_fail())
}

/// Values defined inside `regions`: their arguments and the results of
/// the ops in them, nested ones included.
fn defined_in(func: &Function, regions: &[Region]) -> HashSet<Value> {
    let mut out = HashSet::new();
    let mut ops = Vec::new();
    for &r in regions {
        out.extend(func.regions[r].args.iter().copied());
        func.walk_region(r, &mut ops);
    }
    for (_, o) in ops {
        out.extend(func.ops[o].results.iter().copied());
        for &r in &func.ops[o].regions {
            out.extend(func.regions[r].args.iter().copied());
        }
    }
    out
}

/// Values `op` (with its regions) uses but does not define.
fn free_values(func: &Function, op: Op) -> Vec<Value> {
    let own = defined_in(func, &func.ops[op].regions);
    let mut ops = vec![(func.body, op)];
    for &r in &func.ops[op].regions {
        func.walk_region(r, &mut ops);
    }
    let mut out = Vec::new();
    for (_, o) in ops {
        for &v in &func.ops[o].operands {
            if !own.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// True if `v` is known to be at least 1: block, grid and warp sizes,
/// positive constants, and minima of such values.
fn known_positive(func: &Function, v: Value, depth: u32) -> bool {
    let Some(def) = func.defining_op(v) else {
        return false;
    };
    let data = &func.ops[def];
    match data.kind {
        OpKind::BlockDim(_) | OpKind::GridDim(_) | OpKind::WarpSize => true,
        OpKind::Const { bits } => {
            // Read as a signed number of at most 32 bits (bounds are i32).
            let x = bits as i64;
            x > 0 && x <= i64::from(i32::MAX)
        }
        OpKind::Binary(BinOp::UMin | BinOp::SMin, _) if depth < 8 => data
            .operands
            .iter()
            .all(|&o| known_positive(func, o, depth + 1)),
        _ => false,
    }
}

/// True if `for` op `l` has constant bounds with `0 <= lb < ub`.
fn runs_at_least_once(fx: &FunctionEffects<'_>, func: &Function, l: Op) -> bool {
    let c = |v: Value| fx.affine().affine_of(v)?.as_constant();
    let data = &func.ops[l];
    matches!((c(data.lb()), c(data.ub())), (Some(lb), Some(ub)) if 0 <= lb && lb < ub)
}

/// Moves `ops` (in order) from loop `l`'s body to just before `l` in
/// `region`. Unless the loop is known to run, a moved op may now run where
/// it did not, so it loses its `nsw` (an overflow there would be undefined
/// behaviour the source did not have); ops with regions move only out of
/// loops known to run.
fn apply(module: &mut Module, fid: FuncId, region: Region, l: Op, ops: &[Op], runs_once: bool) {
    let func = &mut module.functions[fid];
    if !runs_once {
        for &o in ops {
            if let OpKind::Binary(_, flags) = &mut func.ops[o].kind {
                *flags = ArithFlags::NONE;
            }
        }
    }
    let body = func.ops[l].body();
    func.regions[body].ops.retain(|o| !ops.contains(o));
    func.insert_before(region, l, ops.iter().copied());
}

fn report(module: &Module, fid: FuncId, remarks: &mut Remarks, l: Op, kind: LoopKind, ops: &[Op]) {
    let func = &module.functions[fid];
    let from = match kind {
        LoopKind::Threads(level) => format!("the thread loop `parallel<{}>`", level.name()),
        LoopKind::Serial => "a serial `for`".to_string(),
    };
    let why = match kind {
        LoopKind::Threads(_) => "no earlier op in the loop writes what it reads",
        LoopKind::Serial => "the loop does not write what it reads",
    };
    let mut arithmetic = 0;
    for &op in ops {
        let data = &func.ops[op];
        if matches!(data.kind, OpKind::Const { .. } | OpKind::Undef) {
            continue;
        }
        let reads = !data.regions.is_empty() || matches!(data.kind, OpKind::Load { .. });
        if reads {
            remarks.add(
                "parallel-licm",
                &func.name,
                data.loc,
                format!(
                    "`{}` hoisted out of {from}: operands invariant and {why}",
                    data.kind.mnemonic()
                ),
            );
        } else {
            arithmetic += 1;
        }
    }
    if arithmetic > 0 {
        remarks.add(
            "parallel-licm",
            &func.name,
            func.ops[l].loc,
            format!("{arithmetic} invariant pure op(s) hoisted out of {from}"),
        );
    }
}
