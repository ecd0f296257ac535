//! `if`s around warp collectives whose condition is the same for every lane
//! of a warp: the lane loop goes inside the `if` (interchange), so the
//! collectives in its branches are split out of plain lane loops instead of
//! per-lane predicated segments, and collectives nested in loops inside the
//! `if` (the warp-per-row kernels' `for (off = 16; off > 0; off /= 2)
//! s += __shfl_down_sync(...)`) can be translated at all.
//!
//! Warp uniformity is proved statically when the condition depends only on
//! values defined outside the lane loop (the warp index, block values,
//! parameters: [`Uniformity`] of the lane loop). The usual guard,
//! `if (row < n)` with `row = (blockIdx.x * blockDim.x + threadIdx.x) / 32`,
//! is warp-uniform only when `blockDim.x` is a multiple of 32 (and in the
//! PTX form it arrives as shifts with a sign fix-up), which is known at run
//! time only. Such an `if` is versioned per warp: a serial loop evaluates
//! the condition of every lane (the ops before the `if` run in every lane
//! anyway, so evaluating them again executes nothing new) and the lane loop
//! is interchanged only when all lanes agree. When they do not, the other
//! version runs: the `if` predicated per lane (see `predicate.rs`), or, when
//! a collective sits in a loop inside the `if` and cannot be predicated, a
//! trap naming the kernel and the line. Never lane 0's condition for all.

use super::{monotone, Distributor};
use crate::error::CpuifyError;
use crate::passes::uniform::Uniformity;
use cucc_ir::edit::clone_op;
use cucc_ir::{BinOp, CmpPred, Op, OpKind, Region, Value};
use std::collections::HashMap;

impl Distributor<'_> {
    /// Removes the warp collectives of `if` op `c` at the top level of lane
    /// loop `p` (in `parent`). Returns the lane loop holding what followed
    /// `c`, where processing goes on.
    pub(crate) fn warp_if(&mut self, parent: Region, p: Op, c: Op) -> Result<Op, CpuifyError> {
        let loc = self.func.ops[c].loc;
        let cond = self.func.ops[c].cond();
        let uniform = Uniformity::of_thread_loop(self.types, self.func, p);
        if uniform.is_uniform(cond) {
            let next = self.interchange_at(parent, p, c, &uniform)?;
            self.remark(
                loc,
            "`if` around a warp collective interchanged with the lane loop: its condition is uniform over the warp",
            );
            return Ok(next);
        }
        let nested = self.collective_nested(c);
        // Both versions see the results through per-thread storage.
        self.demote(p, c, None)?;
        let (p2, p3) = self.isolate(parent, p, c)?;
        let k2 = self.position(self.func.ops[p2].body(), c);

        let agree = self.lanes_agree(parent, p2, c);
        let pi = self.position(parent, p2);
        let then_r = self.func.new_region(&[]);
        let else_r = self.func.new_region(&[]);
        let y = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        self.func.regions[then_r].ops.extend([p2, y]);
        let fallback = if nested {
            let message = format!(
                "lanes of a warp disagree on the condition of an `if` around a warp collective in a loop, which cucc translates only when the condition is the same for every lane (kernel `{}`, {})",
                self.func.name,
                self.err(c, "").location
            );
            let trap = self.func.new_op(
                super::interchange::divergence_trap(message),
                vec![],
                &[],
                vec![],
                loc,
            );
            self.func.regions[else_r].ops.push(trap);
            None
        } else {
            let mut map = HashMap::new();
            let p2c = clone_op(self.func, p2, &mut map);
            self.func.regions[else_r].ops.push(p2c);
            let body_c = self.func.ops[p2c].body();
            let cc = self.func.regions[body_c].ops[k2];
            Some((p2c, cc))
        };
        let y = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        self.func.regions[else_r].ops.push(y);
        let version = self
            .func
            .new_op(OpKind::If, vec![agree], &[], vec![then_r, else_r], loc);
        self.func.regions[parent].ops[pi] = version;

        let uniform2 = Uniformity::of_thread_loop(self.types, self.func, p2);
        let inner = self.interchange(then_r, p2, c, &uniform2)?;
        for (r, q) in inner {
            self.process(r, q)?;
        }
        if let Some((p2c, cc)) = fallback {
            self.predicate_if(p2c, cc)?;
            self.process(else_r, p2c)?;
        }
        let what = if nested {
            "traps otherwise (a collective in a loop cannot be predicated)"
        } else {
            "predicated per lane otherwise"
        };
        self.remark(
            loc,
        format!(
            "`if` around a warp collective interchanged with the lane loop when all lanes of the warp agree on its condition (checked at run time), {what}"
        ),
        );
        Ok(p3)
    }

    /// The block path for a warp-uniform `if`: results kept as scalars
    /// where uniform, the lane loop split around `c` and interchanged.
    fn interchange_at(
        &mut self,
        parent: Region,
        p: Op,
        c: Op,
        uniform: &Uniformity,
    ) -> Result<Op, CpuifyError> {
        self.demote(p, c, Some(uniform))?;
        let (p2, p3) = self.isolate(parent, p, c)?;
        let inner = self.interchange(parent, p2, c, uniform)?;
        for (r, q) in inner {
            self.process(r, q)?;
        }
        Ok(p3)
    }

    /// True if a collective of `c`'s branches sits inside other control
    /// flow (where per-lane predication cannot reach it).
    fn collective_nested(&self, c: Op) -> bool {
        self.func.ops[c].regions.iter().any(|&r| {
            self.func.regions[r]
                .ops
                .iter()
                .any(|&o| !self.is_sync(&self.func.ops[o].kind) && self.contains_sync(o))
        })
    }

    /// Inserts before lane loop `p2` (in `parent`, body: the ops computing
    /// `c`'s condition, then `c`) a test of whether every lane of the warp
    /// computes the same condition. The ops before `c` are reloads and
    /// recomputed values that fission left: every lane runs them already.
    /// When the condition is monotone in the lane (`monotone.rs`), the
    /// first and last lanes decide, under run-time checks that the
    /// monotonicity argument holds; otherwise, or when those checks fail, a
    /// serial loop evaluates every lane.
    fn lanes_agree(&mut self, parent: Region, p2: Op, c: Op) -> Value {
        let body = self.func.ops[p2].body();
        let lane = self.func.regions[body].args[0];
        let lanes = self.func.ops[p2].ubs()[0];
        let cond = self.func.ops[c].cond();
        let k = self.position(body, c);
        let prelude: Vec<Op> = self.func.regions[body].ops[..k].to_vec();
        let inside = self.defined_in(body);
        let check = monotone::endpoint_check(self.func, self.types, lane, &inside, cond);
        let loc = self.func.ops[c].loc;
        let pi = self.position(parent, p2);
        let (zero, one) = {
            let mut b = self.at(parent, pi);
            b.set_loc(loc);
            let i32t = b.types.i32();
            (b.const_int(i32t, 0), b.i32(1))
        };
        let mut at = self.position(parent, p2);
        let map0 = self.clone_at_lane(parent, &mut at, &prelude, lane, zero);
        let c0 = *map0.get(&cond).unwrap_or(&cond);
        let mut b = self.at(parent, at);
        b.set_loc(loc);
        let Some(check) = check else {
            return every_lane_agrees(&mut b, &prelude, lane, lanes, cond, c0);
        };
        let last = b.binary(BinOp::Sub, lanes, one);
        let mut at = self.position(parent, p2);
        let map_last = self.clone_at_lane(parent, &mut at, &prelude, lane, last);
        let ends = |v: Value| (*map0.get(&v).unwrap_or(&v), *map_last.get(&v).unwrap_or(&v));
        let mut b = self.at(parent, at);
        b.set_loc(loc);
        let sound = check.emit_holds(&mut b, ends);
        let mut same = b.bool(true);
        for &leaf in &check.leaves {
            let (first, end) = ends(leaf);
            let eq = b.cmp(CmpPred::Eq, end, first);
            same = b.binary(BinOp::And, same, eq);
        }
        let i1 = b.types.i1();
        b.if_else(
            sound,
            &[i1],
            |_| vec![same],
            |b| vec![every_lane_agrees(b, &prelude, lane, lanes, cond, c0)],
        )[0]
    }

    /// Clones `prelude` into `region` at `*at` with `lane` replaced by
    /// `value`; advances `at` past the clones and returns the value map.
    fn clone_at_lane(
        &mut self,
        region: Region,
        at: &mut usize,
        prelude: &[Op],
        lane: Value,
        value: Value,
    ) -> HashMap<Value, Value> {
        let mut map = HashMap::from([(lane, value)]);
        for &op in prelude {
            let cl = clone_op(self.func, op, &mut map);
            self.func.regions[region].ops.insert(*at, cl);
            *at += 1;
        }
        map
    }
}

/// A serial loop over lanes 1.. that evaluates `cond` (computed by
/// `prelude` from `lane`) in each and returns whether all equal lane 0's
/// value `c0`.
fn every_lane_agrees(
    b: &mut cucc_ir::Builder<'_>,
    prelude: &[Op],
    lane: Value,
    lanes: Value,
    cond: Value,
    c0: Value,
) -> Value {
    let one = b.i32(1);
    let yes = b.bool(true);
    b.for_(one, lanes, one, &[yes], |b, j, acc| {
        let mut map: HashMap<Value, Value> = HashMap::from([(lane, j)]);
        for &op in prelude {
            let cl = clone_op(b.func, op, &mut map);
            let r = b.insertion_region();
            b.func.regions[r].ops.push(cl);
        }
        let cj = *map.get(&cond).unwrap_or(&cond);
        let same = b.cmp(CmpPred::Eq, cj, c0);
        vec![b.binary(BinOp::And, acc[0], same)]
    })[0]
}
