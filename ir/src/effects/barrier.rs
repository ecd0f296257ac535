//! What a barrier orders: its memory effects in the sense of the Polygeist
//! paper (section III-A).
//!
//! A barrier is observable only through the accesses of *other* threads
//! that it orders with this thread's. Those are the accesses of its
//! *window*: the ops from the previous barrier to it and from it to the next
//! one, as every thread of the block runs the same barriers.
//!
//! # The window
//!
//! Backwards, the ops before the barrier in its region, last first, until a
//! barrier of the same scope; then, at the start of the region, the ops
//! before the enclosing op, and so on outwards, up to the op the barrier
//! binds to (the block- or warp-level `parallel` in launch form, the
//! function body in kernel form). Forwards likewise. An op on the way that
//! contains barriers is included whole; the walk stops after it if it
//! certainly runs one (`if` with one on both sides, a `while` with one at
//! the top of its condition region, a `for` with constant bounds that
//! iterates at least once with one at the top of its body), and goes on
//! otherwise. Leaving a `for`, `while` or nested `parallel` includes the
//! whole loop, since the loop wraps around. Including too much is always
//! safe. A warp barrier stops at block barriers and at full-mask warp
//! barriers only, since a partial `__syncwarp` leaves other lanes unordered.
//!
//! # Which accesses count
//!
//! Accesses to thread-private storage never count: any private-space
//! access in kernel or device form, and in launch form the private allocas
//! inside the parallel the barrier binds to. Of the rest, an access `e`
//! counts unless it is *own-only*: for every access `e2` of the window
//! (`e` itself included) such that one of the two writes and their bases
//! may alias, both are on the same base with affine offsets that differ
//! only in the constant, and the thread-injectivity gap
//! ([`crate::affine::thread_disjoint`]) shows that `e` run by one thread and
//! `e2` run by a different one never touch a common byte. Then no other
//! thread interferes through `e`'s locations and the barrier does not order
//! `e` with anything.
//!
//! This is stricter than excluding every thread-injective access: in a tree
//! reduction, `sdata[tid] = ...` is injective but other threads read it
//! through `sdata[tid + s]`, so the barrier does order it (leaving it out
//! would let a pass hoist the other thread's read above the barrier). The
//! precise per-access question, "may another thread's access in the window
//! conflict with this access by me?", which store-to-load forwarding needs,
//! is [`BarrierWindow::conflicts_with`]; for `sdata[tid]` it answers no.
//!
//! In a device function, parameters may differ between threads, so no
//! access is own-only there; only thread-private ones are left out.

use super::{bases_may_alias, CallSummaries, FunctionEffects, MemEffect};
use crate::affine::{thread_disjoint, Coords};
use crate::effects::Base;
use crate::func::{Function, FunctionKind, Op, ParamAttrs, Region};
use crate::module::Module;
use crate::ops::{BarrierScope, Level, OpKind};
use crate::types::Space;

/// The accesses other threads make around a barrier, and what they imply.
#[derive(Clone, Debug)]
pub struct BarrierWindow {
    /// The window's reads and writes, less thread-private ones (see the
    /// module docs), each once.
    pub accesses: Vec<MemEffect>,
    /// The ranges of the thread coordinates used for injectivity.
    pub coords: Coords,
    /// Whether own-only accesses may be recognised (not in device functions).
    own_only_allowed: bool,
    params: Vec<ParamAttrs>,
}

impl BarrierWindow {
    /// The barrier's effects: the reads and the writes of the window that
    /// are not own-only.
    pub fn effects(&self) -> (Vec<MemEffect>, Vec<MemEffect>) {
        let kept = self.accesses.iter().filter(|e| !self.own_only(e));
        kept.cloned().partition(|e| !e.is_write())
    }

    /// True if some access of the window, run by another thread, may
    /// conflict with `access` run by this thread: the barrier orders them.
    pub fn conflicts_with(&self, access: &MemEffect) -> bool {
        self.accesses
            .iter()
            .any(|e| self.cross_thread_conflict(e, access))
    }

    fn own_only(&self, e: &MemEffect) -> bool {
        self.own_only_allowed
            && self
                .accesses
                .iter()
                .all(|other| !self.cross_thread_conflict(e, other))
    }

    /// May `a` by one thread and `b` by a different thread conflict?
    fn cross_thread_conflict(&self, a: &MemEffect, b: &MemEffect) -> bool {
        cross_thread_conflict(&self.params, self.own_only_allowed, &self.coords, a, b)
    }
}

fn cross_thread_conflict(
    params: &[ParamAttrs],
    uniform: bool,
    coords: &Coords,
    a: &MemEffect,
    b: &MemEffect,
) -> bool {
    if !(a.is_access() && b.is_access() && (a.is_write() || b.is_write())) {
        return false;
    }
    if !bases_may_alias(params, a, b) {
        return false;
    }
    if !uniform || a.base != b.base || a.base == Base::Unknown {
        return true;
    }
    match (&a.offset, &b.offset, a.size, b.size) {
        (Some(oa), Some(ob), Some(sa), Some(sb)) => !thread_disjoint(oa, sa, ob, sb, coords),
        _ => true,
    }
}

/// True if `a` run by one thread of a block and `b` run by a *different*
/// thread of the same block may conflict (one writes, and they may touch a
/// common byte). Pairs the same thread runs are ordered by program order
/// and need no barrier, which is what barrier elimination asks: `a[tid]`
/// written before a barrier and read after it never conflicts across
/// threads when `a[tid]` is thread-injective. In a device function,
/// parameters may differ between threads and only bases are compared.
pub fn conflicts_across_threads(
    func: &Function,
    coords: &Coords,
    a: &MemEffect,
    b: &MemEffect,
) -> bool {
    let uniform = func.kind != FunctionKind::Device;
    cross_thread_conflict(&func.params, uniform, coords, a, b)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Backward,
    Forward,
}

impl FunctionEffects<'_> {
    /// The window of `barrier` (a block barrier, `barrier.reduce` or warp
    /// barrier), or `None` if `barrier` is not one. `extents` bound the
    /// block's thread ids; unknown ones are taken from the constant bounds
    /// of the block-level parallel in launch form.
    pub fn barrier_window(&self, barrier: Op, extents: [Option<u64>; 3]) -> Option<BarrierWindow> {
        let f = self.func();
        let kind = &f.ops.try_get(barrier)?.kind;
        let scope = if kind.is_block_barrier() {
            BarrierScope::Block
        } else if matches!(kind, OpKind::Barrier(BarrierScope::Warp)) {
            BarrierScope::Warp
        } else {
            return None;
        };
        let parents = self.affine().parents();
        let binding = parents
            .ancestors(barrier)
            .into_iter()
            .find(|&a| matches!(f.ops[a].kind, OpKind::Parallel { level } if binds(scope, level)));
        let coords = self.coords(binding, extents);

        let mut all = Vec::new();
        self.walk_window(barrier, binding, scope, Direction::Backward, &mut all);
        self.walk_window(barrier, binding, scope, Direction::Forward, &mut all);

        let inner_allocas = binding
            .map(|p| self.allocas_in(&f.ops[p].regions))
            .unwrap_or_default();
        let thread_private = |e: &MemEffect| match f.kind {
            FunctionKind::Launch => {
                e.space == Space::Private
                    && matches!(e.base, Base::Alloca(a) if inner_allocas.contains(&a))
            }
            _ => e.space == Space::Private,
        };
        let mut accesses: Vec<MemEffect> = Vec::new();
        for e in all {
            if e.is_access() && !thread_private(&e) && !accesses.contains(&e) {
                accesses.push(e);
            }
        }
        Some(BarrierWindow {
            accesses,
            coords,
            own_only_allowed: self.affine().params_uniform(),
            params: f.params.clone(),
        })
    }

    /// The barrier's (reads, writes): see [`BarrierWindow::effects`]. Empty
    /// if `barrier` is not a barrier.
    pub fn barrier_effects(
        &self,
        barrier: Op,
        extents: [Option<u64>; 3],
    ) -> (Vec<MemEffect>, Vec<MemEffect>) {
        self.barrier_window(barrier, extents)
            .map(|w| w.effects())
            .unwrap_or_default()
    }

    /// Thread coordinate ranges: `extents`, completed from the constant
    /// bounds of the parallel the barrier binds to.
    fn coords(&self, binding: Option<Op>, extents: [Option<u64>; 3]) -> Coords {
        let f = self.func();
        let Some(p) = binding else {
            return Coords::from_extents(extents);
        };
        let data = &f.ops[p];
        let bound = |i: usize| {
            let c = self
                .affine()
                .affine_of(*data.operands.get(i)?)?
                .as_constant()?;
            u64::try_from(c).ok()
        };
        match data.kind {
            OpKind::Parallel {
                level: Level::Block,
            } => {
                let mut e = extents;
                for (k, slot) in e.iter_mut().enumerate() {
                    if slot.is_none() {
                        *slot = if k < data.operands.len() {
                            bound(k)
                        } else {
                            Some(1)
                        };
                    }
                }
                Coords::from_extents(e)
            }
            OpKind::Parallel { level: Level::Warp } => Coords {
                warps: bound(0),
                ..Coords::from_extents(extents)
            },
            OpKind::Parallel { level: Level::Lane } => {
                // Ids of the enclosing warp-level parallel, if any, are the
                // warps; the lane loop bounds the lanes.
                let warps = self
                    .affine()
                    .parents()
                    .parent_op(p)
                    .filter(|&w| matches!(f.ops[w].kind, OpKind::Parallel { level: Level::Warp }))
                    .and_then(|w| {
                        let c = self
                            .affine()
                            .affine_of(*f.ops[w].operands.first()?)?
                            .as_constant()?;
                        u64::try_from(c).ok()
                    });
                let base = Coords::from_extents(extents);
                Coords {
                    warps: warps.or(base.warps),
                    lanes: bound(0).map_or(32, |l| l.min(32)),
                    ..base
                }
            }
            _ => Coords::from_extents(extents),
        }
    }

    fn walk_window(
        &self,
        barrier: Op,
        binding: Option<Op>,
        scope: BarrierScope,
        dir: Direction,
        out: &mut Vec<MemEffect>,
    ) {
        let f = self.func();
        let parents = self.affine().parents();
        let mut cur = barrier;
        loop {
            let Some(region) = parents.region_of(cur) else {
                return;
            };
            let ops = &f.regions[region].ops;
            let Some(pos) = ops.iter().position(|&o| o == cur) else {
                return;
            };
            let seq: Vec<Op> = match dir {
                Direction::Backward => ops[..pos].iter().rev().copied().collect(),
                Direction::Forward => ops[pos + 1..].to_vec(),
            };
            for op in seq {
                if self.stops(op, scope) {
                    return;
                }
                self.collect_op(op, out, false);
                if self.runs_barrier(op, scope) {
                    return;
                }
            }
            let Some(parent) = parents.op_of(region) else {
                return;
            };
            if Some(parent) == binding {
                return;
            }
            if matches!(
                f.ops[parent].kind,
                OpKind::For { .. } | OpKind::While | OpKind::Parallel { .. }
            ) {
                self.collect_op(parent, out, false);
            }
            cur = parent;
        }
    }

    /// True if `op` is a barrier that ends a window of a `scope` barrier.
    fn stops(&self, op: Op, scope: BarrierScope) -> bool {
        let data = &self.func().ops[op];
        if data.kind.is_block_barrier() {
            return true;
        }
        scope == BarrierScope::Warp
            && matches!(data.kind, OpKind::Barrier(BarrierScope::Warp))
            && data.operands.first().is_some_and(|&m| {
                self.affine()
                    .affine_of(m)
                    .and_then(|a| a.as_constant())
                    .is_some_and(|c| c as u32 == u32::MAX)
            })
    }

    /// True if running `op` certainly runs a barrier ending the window.
    fn runs_barrier(&self, op: Op, scope: BarrierScope) -> bool {
        let f = self.func();
        let data = &f.ops[op];
        if self.stops(op, scope) {
            return true;
        }
        let region_runs = |r: Option<&Region>| {
            r.is_some_and(|&r| {
                f.regions[r]
                    .ops
                    .iter()
                    .any(|&o| self.runs_barrier(o, scope))
            })
        };
        let constant = |i: usize| {
            self.affine()
                .affine_of(*data.operands.get(i)?)?
                .as_constant()
        };
        match data.kind {
            OpKind::If => {
                data.regions.len() == 2 && data.regions.iter().all(|r| region_runs(Some(r)))
            }
            OpKind::While => region_runs(data.regions.first()),
            OpKind::For { .. } => {
                matches!((constant(0), constant(1)), (Some(lb), Some(ub)) if 0 <= lb && lb < ub)
                    && region_runs(data.regions.first())
            }
            OpKind::Parallel { level } if binds(scope, level) => false,
            OpKind::Parallel { .. } => {
                (0..data.operands.len()).all(|i| constant(i).is_some_and(|c| c >= 1))
                    && region_runs(data.regions.first())
            }
            _ => false,
        }
    }
}

/// True if a barrier of `scope` binds to a parallel of `level`.
fn binds(scope: BarrierScope, level: Level) -> bool {
    match scope {
        BarrierScope::Block => matches!(level, Level::Block | Level::Warp),
        BarrierScope::Warp => matches!(level, Level::Lane | Level::Warp | Level::Block),
    }
}

/// The effects of `barrier` of `func`: (reads, writes) of its window that
/// other threads' accesses make observable (see the module docs). Empty if
/// `barrier` is not a barrier. Computes the module's call summaries; for
/// many queries use [`FunctionEffects::barrier_effects`].
pub fn barrier_effects(
    module: &Module,
    func: &Function,
    barrier: Op,
    extents: [Option<u64>; 3],
) -> (Vec<MemEffect>, Vec<MemEffect>) {
    let summaries = CallSummaries::compute(module);
    FunctionEffects::new(module, func, &summaries).barrier_effects(barrier, extents)
}
