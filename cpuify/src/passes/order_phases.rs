//! `order-phases`: in a thread loop that synchronises with barriers, loops
//! that every thread runs one after the other with no barrier between them
//! run phase by phase when a later loop may touch what other threads
//! wrote (or read) in an earlier one.
//!
//! CUDA leaves such a pair unordered across threads: it is a race in the
//! program. On a GPU the warps of a block run these phases nearly in step,
//! so the later loop mostly sees the earlier one's results, and programs
//! that forgot a `__syncthreads` work there (Rodinia's heartwall: the
//! subtraction and the horizontal cumulative sum of its second pass). A
//! CPU thread loop runs each thread to the next barrier before starting
//! the next thread, the order furthest from a GPU's: thread 0's second loop
//! reads entries other threads have not yet written. Every interleaving
//! that keeps each thread's program order is a valid CUDA schedule, so a
//! barrier may be inserted at the top level of the thread loop (or of an
//! `if` or `for` around barriers with a uniform condition or bounds, which
//! every thread reaches together); `distribute` then runs the two loops as
//! two thread loops, the GPU-like order.
//!
//! Scope, kept narrow so that race-free kernels keep their code: only
//! thread loops that already hold a block barrier, only between two
//! `for`/`while` ops of one barrier interval (or `if`s holding one: nvcc
//! guards each rotated loop with its first test), and only when an access of
//! the earlier and one of the later may conflict across threads
//! ([`cucc_ir::effects::conflicts_across_threads`]: one writes, the bases
//! may alias, and thread injectivity does not show different threads'
//! bytes apart). Thread-private storage never counts. `barrier-elim`, which
//! runs next, keeps the inserted barriers, since they order a conflict.

use crate::passes::entry::{is_launch, Changed};
use crate::passes::predicate_barriers::has_barrier;
use crate::passes::uniform::Uniformity;
use crate::remarks::Remarks;
use cucc_ir::affine::Coords;
use cucc_ir::effects::conflicts_across_threads;
use cucc_ir::{
    BarrierScope, Base, CallSummaries, FuncId, Function, FunctionEffects, Level, MemEffect, Module,
    Op, OpKind, Region, Space,
};

/// Inserts the barriers that order loop phases of function `fid` (launch
/// form; other functions are left alone). Returns how many were inserted.
pub fn order_phases(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    if !is_launch(module, fid) {
        return Ok(0);
    }
    let summaries = CallSummaries::compute(module);
    let plan = {
        let func = &module.functions[fid];
        let fx = FunctionEffects::new(module, func, &summaries);
        let mut plan = Vec::new();
        for (_, p) in func.walk() {
            let data = &func.ops[p];
            if data.kind
                != (OpKind::Parallel {
                    level: Level::Block,
                })
                || !has_barrier(func, p)
            {
                continue;
            }
            let body = data.body();
            let phases = Phases {
                func,
                fx: &fx,
                uniform: Uniformity::of_thread_loop(&module.types, func, p),
                private: allocas_in(func, body),
                coords: coords_of(func, p),
            };
            phases.region(body, &mut plan);
        }
        plan
    };
    let func = &mut module.functions[fid];
    let name = func.name.clone();
    for (region, before, why) in &plan {
        let loc = func.ops[*before].loc;
        let barrier = func.new_op(
            OpKind::Barrier(BarrierScope::Block),
            Vec::new(),
            &[],
            Vec::new(),
            loc,
        );
        if let Some(at) = func.find_op(*region, *before) {
            func.regions[*region].ops.insert(at, barrier);
        }
        remarks.add(
            "order-phases",
            &name,
            loc,
            format!("barrier inserted before this loop: {why}"),
        );
    }
    Ok(plan.len())
}

/// The analysis of one block-level thread loop.
struct Phases<'a, 'f> {
    func: &'f Function,
    fx: &'a FunctionEffects<'f>,
    uniform: Uniformity,
    /// Allocas inside the thread loop: per-thread storage.
    private: Vec<Op>,
    coords: Coords,
}

impl Phases<'_, '_> {
    /// Plans barriers in `region`, which every thread of the block runs,
    /// and in the regions of its uniform ops that hold barriers.
    fn region(&self, region: Region, plan: &mut Vec<(Region, Op, String)>) {
        let func = self.func;
        let mut phase: Vec<(Op, Vec<MemEffect>)> = Vec::new();
        for &op in &func.regions[region].ops {
            if has_barrier(func, op) {
                phase.clear();
                if self.uniform_control(op) {
                    let data = &func.ops[op];
                    for &r in &data.regions {
                        self.region(r, plan);
                    }
                }
                continue;
            }
            if !is_loop_phase(func, op) {
                continue;
            }
            let accesses = self.shared_accesses(op);
            let conflict = phase.iter().find_map(|(_, earlier)| {
                earlier.iter().find_map(|a| {
                    accesses
                        .iter()
                        .find(|b| conflicts_across_threads(func, &self.coords, a, b))
                        .map(|b| (a.clone(), b.clone()))
                })
            });
            if let Some((a, b)) = conflict {
                let why = format!(
                    "a {} in an earlier loop and a {} in this one may touch the same memory from different threads with no barrier between them",
                    describe(&a),
                    describe(&b)
                );
                plan.push((region, op, why));
                phase.clear();
            }
            phase.push((op, accesses));
        }
    }

    /// True for an `if` with a uniform condition and a `for` with uniform
    /// bounds: every thread runs the same regions.
    fn uniform_control(&self, op: Op) -> bool {
        let data = &self.func.ops[op];
        match data.kind {
            OpKind::If => data
                .operands
                .first()
                .is_some_and(|&c| self.uniform.is_uniform(c)),
            OpKind::For { .. } => data
                .operands
                .iter()
                .take(3)
                .all(|&v| self.uniform.is_uniform(v)),
            _ => false,
        }
    }

    /// The reads and writes of `op` other threads can see.
    fn shared_accesses(&self, op: Op) -> Vec<MemEffect> {
        let mut v = self.fx.op_effects(op);
        v.retain(|e| {
            e.is_access()
                && !(e.space == Space::Private
                    && matches!(e.base, Base::Alloca(a) if self.private.contains(&a)))
        });
        v
    }
}

/// True for a `for` or `while`, and for an `if` holding one (nvcc's PTX
/// guards each rotated loop with its first test: `if (i < n) do {..}`).
fn is_loop_phase(func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    match data.kind {
        OpKind::For { .. } | OpKind::While => true,
        OpKind::If => data
            .regions
            .iter()
            .any(|&r| func.regions[r].ops.iter().any(|&o| is_loop_phase(func, o))),
        _ => false,
    }
}

/// Every alloca in `region`, nested ones included.
fn allocas_in(func: &Function, region: Region) -> Vec<Op> {
    let mut walk = Vec::new();
    func.walk_region(region, &mut walk);
    walk.into_iter()
        .map(|(_, op)| op)
        .filter(|&op| matches!(func.ops[op].kind, OpKind::Alloca { .. }))
        .collect()
}

/// The block's extents where the thread loop's bounds are constants.
fn coords_of(func: &Function, p: Op) -> Coords {
    let mut extents = [Some(1); 3];
    for (k, slot) in extents.iter_mut().enumerate() {
        if let Some(&v) = func.ops[p].ubs().get(k) {
            *slot = func.const_bits(v);
        }
    }
    Coords::from_extents(extents)
}

/// "write" or "read", for remarks.
fn describe(e: &MemEffect) -> &'static str {
    if e.is_write() {
        "write"
    } else {
        "read"
    }
}
