//! Uniform work out of the thread loops of an interchanged op: the ops at
//! the top of a new thread loop's body that compute the same value for
//! every thread run once, before the loop. They are what carried values,
//! loop conditions and `if` results of interchanged ops are made of (row
//! counters, break flags), so these stay scalars instead of per-thread
//! arrays, and fission never has to store them.

use super::Distributor;
use crate::passes::uniform::Uniformity;
use cucc_ir::{Callee, Op, OpKind, Region, Value};
use std::collections::HashSet;

impl Distributor<'_> {
    /// Removes from `body` (a thread loop's body, without its terminator)
    /// the top-level ops that compute uniform values from values defined
    /// outside it, and returns them in order, to be placed before the loop.
    ///
    /// An op moves if it is pure (not a thread or lane id), a known math
    /// function, a load `uniform` found uniform (its memory is not written
    /// in the block's loop), or an `if`/`for`/`while` containing only such
    /// pure ops, and every value it uses is defined outside `body` or by an
    /// op that moves. Ops at the top of a thread loop's body run for every
    /// thread (a block has at least one), so running them once before the
    /// loop executes nothing that would not have run.
    pub(crate) fn hoist_uniform(&mut self, body: Region, uniform: &Uniformity) -> Vec<Op> {
        let inside = self.defined_in(body);
        let mut moved_defs: HashSet<Value> = HashSet::new();
        let mut moved = Vec::new();
        let ops = self.func.regions[body].ops.clone();
        for op in ops {
            if !self.hoistable_kind(op, uniform) {
                continue;
            }
            let own = self.defined_in_op(op);
            let used = self.inputs(op);
            let ready = used
                .iter()
                .all(|v| own.contains(v) || !inside.contains(v) || moved_defs.contains(v));
            if ready {
                moved_defs.extend(self.func.ops[op].results.iter().copied());
                moved.push(op);
            }
        }
        let set: HashSet<Op> = moved.iter().copied().collect();
        self.func.regions[body].ops.retain(|o| !set.contains(o));
        moved
    }

    fn hoistable_kind(&self, op: Op, uniform: &Uniformity) -> bool {
        let data = &self.func.ops[op];
        match &data.kind {
            OpKind::ThreadId(_) | OpKind::LaneId => false,
            k if k.is_pure() => true,
            OpKind::Call(Callee::Extern(name)) => cucc_ir::intrinsics::lookup(name).is_some(),
            OpKind::Load {
                volatile: false, ..
            } => data
                .results
                .first()
                .is_some_and(|&r| uniform.is_uniform_inside(r)),
            OpKind::If | OpKind::For { .. } | OpKind::While => {
                let mut walk = Vec::new();
                for &r in &data.regions {
                    self.func.walk_region(r, &mut walk);
                }
                walk.iter().all(|&(_, o)| {
                    let k = &self.func.ops[o].kind;
                    matches!(
                        k,
                        OpKind::Yield
                            | OpKind::Condition
                            | OpKind::If
                            | OpKind::For { .. }
                            | OpKind::While
                    ) || (k.is_pure() && !matches!(k, OpKind::ThreadId(_) | OpKind::LaneId))
                        || matches!(k, OpKind::Call(Callee::Extern(n)) if cucc_ir::intrinsics::lookup(n).is_some())
                })
            }
            _ => false,
        }
    }

    /// Every value defined in `region`: its arguments, and the results and
    /// region arguments of every op in it, at any depth.
    pub(crate) fn defined_in(&self, region: Region) -> HashSet<Value> {
        let mut out: HashSet<Value> = self.func.regions[region].args.iter().copied().collect();
        let mut walk = Vec::new();
        self.func.walk_region(region, &mut walk);
        for (_, o) in walk {
            out.extend(self.func.ops[o].results.iter().copied());
            for &r in &self.func.ops[o].regions {
                out.extend(self.func.regions[r].args.iter().copied());
            }
        }
        out
    }

    /// The values `op`'s regions define.
    fn defined_in_op(&self, op: Op) -> HashSet<Value> {
        let mut out = HashSet::new();
        for &r in &self.func.ops[op].regions {
            out.extend(self.defined_in(r));
        }
        out
    }
}
