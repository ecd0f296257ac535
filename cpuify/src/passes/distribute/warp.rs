//! Warp-level primitives: a block loop that uses shuffles, votes or warp
//! barriers is split into a warp loop around a lane loop, and the lane loop
//! is then split at each warp collective the way block loops are split at
//! block barriers (the COX approach). A shuffle stores each lane's value
//! per thread before the cut and reads the source lane's slot after it; a
//! vote stores each lane's predicate and is reduced once per warp, between
//! the two lane loops.
//!
//! A warp is 32 consecutive linear thread ids; the last warp of a block
//! whose size is not a multiple of 32 has fewer lanes, and a shuffle from a
//! lane that does not exist returns the caller's own value. Votes count the
//! lanes of the warp that exist; lanes outside the mask are assumed not to
//! diverge from those inside it.

use super::{Distributor, Mode};
use crate::error::CpuifyError;
use cucc_ir::edit::{remove_op, replace_all_uses, replace_uses_in_region};
use cucc_ir::{
    ArithFlags, BinOp, CastOp, CmpPred, Level, Op, OpKind, Region, ShuffleMode, Value, VoteKind,
};
use std::collections::HashMap;

impl Distributor<'_> {
    /// Splits every block loop under `region` that uses warp primitives into
    /// warp x lane loops and removes the primitives.
    pub(crate) fn split_warps(&mut self, region: Region) -> Result<(), CpuifyError> {
        let mut walk = Vec::new();
        self.func.walk_region(region, &mut walk);
        let targets: Vec<(Region, Op)> = walk
            .into_iter()
            .filter(|&(_, op)| {
                self.func.ops[op].kind
                    == OpKind::Parallel {
                        level: Level::Block,
                    }
                    && self.uses_warp_ops(op)
            })
            .collect();
        for (parent, p) in targets {
            let (warp_region, lane_loop, base) = self.split_block_loop(parent, p);
            let saved = self.mode;
            self.mode = Mode::Lane { base };
            let result = (|| {
                if self.contains_sync(lane_loop) {
                    self.hoist_private_allocas(lane_loop);
                    self.process(warp_region, lane_loop)?;
                }
                Ok(())
            })();
            self.mode = saved;
            result?;
        }
        Ok(())
    }

    fn uses_warp_ops(&self, op: Op) -> bool {
        let data = &self.func.ops[op];
        if data.kind.is_warp_collective() || data.kind == OpKind::ActiveMask {
            return true;
        }
        data.regions.iter().any(|&r| {
            self.func.regions[r]
                .ops
                .iter()
                .any(|&o| self.uses_warp_ops(o))
        })
    }

    /// Rewrites block loop `p` as `parallel<warp> { parallel<lane> {..} }`.
    /// Returns the warp body, the lane loop and the warp's base thread id.
    fn split_block_loop(&mut self, parent: Region, p: Op) -> (Region, Op, Value) {
        let ubs = self.func.ops[p].operands.clone();
        let body = self.func.ops[p].regions[0];
        let ivs = self.func.regions[body].args.clone();
        let loc = self.func.ops[p].loc;
        let i32t = self.types.i32();
        let pi = self.position(parent, p);
        let (nwarps, n) = {
            let mut b = self.at(parent, pi);
            b.set_loc(loc);
            let mut n = ubs[0];
            for &u in &ubs[1..] {
                n = b.binary(BinOp::Mul, n, u);
            }
            let c31 = b.i32(31);
            let c32 = b.i32(32);
            let t = b.binary(BinOp::Add, n, c31);
            (b.binary(BinOp::UDiv, t, c32), n)
        };
        let pi = self.position(parent, p);
        let warp_region = self.func.new_region(&[i32t]);
        let w = self.func.regions[warp_region].args[0];
        self.func.values[w].name = Some("warp".into());
        let (base, lanes, full) = {
            let mut b = self.at(warp_region, 0);
            b.set_loc(loc);
            let c32 = b.i32(32);
            // Warp bases and the linear ids made from them (`base + lane`
            // below) are under the block's 1024 threads: `nsw`.
            let base = b.binary_flags(BinOp::Mul, ArithFlags::NSW, w, c32);
            let rem = b.binary(BinOp::Sub, n, base);
            let lanes = b.binary(BinOp::UMin, rem, c32);
            let full = lane_mask(&mut b, lanes);
            b.name(base, "warp_base");
            b.name(lanes, "lanes");
            (base, lanes, full)
        };
        let lane_region = self.func.new_region(&[i32t]);
        let l = self.func.regions[lane_region].args[0];
        self.func.values[l].name = Some("lane".into());
        let mut map = HashMap::new();
        {
            let mut b = self.at(lane_region, 0);
            b.set_loc(loc);
            let lin = b.binary_flags(BinOp::Add, ArithFlags::NSW, base, l);
            let mut rest = lin;
            for k in 0..ivs.len() {
                let t = if k + 1 == ivs.len() {
                    rest
                } else {
                    let t = b.binary(BinOp::URem, rest, ubs[k]);
                    rest = b.binary(BinOp::UDiv, rest, ubs[k]);
                    t
                };
                map.insert(ivs[k], t);
            }
        }
        let moved = std::mem::take(&mut self.func.regions[body].ops);
        self.func.regions[lane_region].ops.extend(moved);
        replace_uses_in_region(self.func, lane_region, &map);
        // activemask: the lanes of this warp.
        let mut walk = Vec::new();
        self.func.walk_region(lane_region, &mut walk);
        // The loops are not attached yet, so renaming is by region.
        let mut masks = HashMap::new();
        for (r, op) in walk {
            if self.func.ops[op].kind == OpKind::ActiveMask {
                masks.insert(self.func.ops[op].results[0], full);
                remove_op(self.func, r, op);
            }
        }
        replace_uses_in_region(self.func, lane_region, &masks);
        let lane_loop = self.func.new_op(
            OpKind::Parallel { level: Level::Lane },
            vec![lanes],
            &[],
            vec![lane_region],
            loc,
        );
        let y = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        self.func.regions[warp_region].ops.extend([lane_loop, y]);
        let warp_loop = self.func.new_op(
            OpKind::Parallel { level: Level::Warp },
            vec![nwarps],
            &[],
            vec![warp_region],
            loc,
        );
        self.func.regions[parent].ops[pi] = warp_loop;
        (warp_region, lane_loop, base)
    }

    /// Removes shuffle `op` at the top level of lane loop `p`.
    pub(crate) fn split_shuffle(
        &mut self,
        parent: Region,
        p: Op,
        op: Op,
        mode: ShuffleMode,
    ) -> Result<Op, CpuifyError> {
        let Mode::Lane { base } = self.mode else {
            return Err(self.err(op, "shuffle outside a lane loop"));
        };
        let body = self.func.ops[p].regions[0];
        let lane = self.func.regions[body].args[0];
        let lanes = self.func.ops[p].operands[0];
        let operands = self.func.ops[op].operands.clone();
        if operands.len() != 4 {
            return Err(self.err(op, "`shuffle` needs 4 operands"));
        }
        let (x, d, width) = (operands[1], operands[2], operands[3]);
        let ty = self.func.value_type(x);
        let result = self.func.ops[op].results[0];
        let cache = self.new_cache(ty);
        let k = self.position(body, op);
        {
            let mut b = self.at(body, k);
            let lin = b.binary_flags(BinOp::Add, ArithFlags::NSW, base, lane);
            let addr = b.ptr_index(cache, lin, ty);
            b.store(addr, x);
        }
        let k = self.position(body, op);
        let value = {
            let mut b = self.at(body, k + 1);
            let one = b.i32(1);
            let wm1 = b.binary(BinOp::Sub, width, one);
            let all = b.i32(-1);
            let notw = b.binary(BinOp::Xor, wm1, all);
            let sub = b.binary(BinOp::And, lane, notw);
            let end = b.binary(BinOp::Add, sub, width);
            let src = match mode {
                ShuffleMode::Idx => {
                    let off = b.binary(BinOp::And, d, wm1);
                    b.binary(BinOp::Add, sub, off)
                }
                ShuffleMode::Up => {
                    let t = b.binary(BinOp::Sub, lane, d);
                    let ok = b.cmp(CmpPred::Sge, t, sub);
                    b.select(ok, t, lane)
                }
                ShuffleMode::Down => {
                    let t = b.binary(BinOp::Add, lane, d);
                    let ok = b.cmp(CmpPred::Slt, t, end);
                    b.select(ok, t, lane)
                }
                ShuffleMode::Xor => {
                    let t = b.binary(BinOp::Xor, lane, d);
                    let lo = b.cmp(CmpPred::Sge, t, sub);
                    let hi = b.cmp(CmpPred::Slt, t, end);
                    let ok = b.binary(BinOp::And, lo, hi);
                    b.select(ok, t, lane)
                }
            };
            let exists = b.cmp(CmpPred::Ult, src, lanes);
            let src = b.select(exists, src, lane);
            let lin = b.binary_flags(BinOp::Add, ArithFlags::NSW, base, src);
            let addr = b.ptr_index(cache, lin, ty);
            b.load(addr, ty)
        };
        replace_all_uses(self.func, result, value);
        let loc = self.func.ops[op].loc;
        let k = self.position(body, op);
        let (next, stored, recomputed) = self.split(parent, p, k, true)?;
        let fname = self.func.name.clone();
        self.remarks.add(
            "distribute",
            &fname,
            loc,
            format!(
                "shuffle.{} removed by lane-loop fission; {stored} value(s) stored per thread, {recomputed} recomputed",
                mode.name()
            ),
        );
        Ok(next)
    }

    /// Removes vote `op` at the top level of lane loop `p`.
    pub(crate) fn split_vote(
        &mut self,
        parent: Region,
        p: Op,
        op: Op,
        kind: VoteKind,
    ) -> Result<Op, CpuifyError> {
        let Mode::Lane { base } = self.mode else {
            return Err(self.err(op, "vote outside a lane loop"));
        };
        let body = self.func.ops[p].regions[0];
        let lane = self.func.regions[body].args[0];
        let lanes = self.func.ops[p].operands[0];
        let Some(&pred) = self.func.ops[op].operands.get(1) else {
            return Err(self.err(op, "`vote` needs a predicate"));
        };
        let result = self.func.ops[op].results[0];
        // The mask, if it is known for the whole warp: a constant, or a
        // value defined outside the lane loop. Otherwise every lane counts.
        let mask = self.func.ops[op].operands[0];
        let mask_const = self
            .func
            .defining_op(mask)
            .and_then(|d| match self.func.ops[d].kind {
                OpKind::Const { bits } => Some(bits as u32),
                _ => None,
            });
        let mut inside = Vec::new();
        self.func.walk_region(body, &mut inside);
        let mask_outside = !self.func.regions[body].args.contains(&mask)
            && !inside
                .iter()
                .any(|&(_, o)| self.func.ops[o].results.contains(&mask));
        let i32t = self.types.i32();
        let cache = self.new_cache(i32t);
        let k = self.position(body, op);
        {
            let mut b = self.at(body, k);
            let lin = b.binary_flags(BinOp::Add, ArithFlags::NSW, base, lane);
            let addr = b.ptr_index(cache, lin, i32t);
            let z = b.cast(CastOp::ZExt, pred, i32t);
            b.store(addr, z);
        }
        let loc = self.func.ops[op].loc;
        let k = self.position(body, op);
        let (next, _, _) = self.split(parent, p, k, true)?;
        // Between the two lane loops: bits = OR over lanes j of pred[j] << j.
        let at = self.position(parent, next);
        let value = {
            let mut b = self.at(parent, at);
            b.set_loc(loc);
            let zero = b.i32(0);
            let one = b.i32(1);
            let bits = b.for_(zero, lanes, one, &[zero], |b, j, acc| {
                let i32t = b.types.i32();
                let lin = b.binary_flags(BinOp::Add, ArithFlags::NSW, base, j);
                let addr = b.ptr_index(cache, lin, i32t);
                let v = b.load(addr, i32t);
                let sh = b.binary(BinOp::Shl, v, j);
                vec![b.binary(BinOp::Or, acc[0], sh)]
            })[0];
            let warp_mask = match (mask_const, mask_outside) {
                (Some(m), _) => Some(b.i32(m as i32)),
                (None, true) => Some(mask),
                _ => None,
            };
            let bits = match warp_mask {
                Some(m) => b.binary(BinOp::And, bits, m),
                None => bits,
            };
            match kind {
                VoteKind::Ballot => bits,
                VoteKind::Any => b.cmp(CmpPred::Ne, bits, zero),
                VoteKind::All => {
                    let full = lane_mask(&mut b, lanes);
                    let full = match warp_mask {
                        Some(m) => b.binary(BinOp::And, full, m),
                        None => full,
                    };
                    b.cmp(CmpPred::Eq, bits, full)
                }
            }
        };
        replace_all_uses(self.func, result, value);
        let fname = self.func.name.clone();
        self.remarks.add(
            "distribute",
            &fname,
            loc,
            format!("vote.{} removed by lane-loop fission", kind.name()),
        );
        Ok(next)
    }
}

/// The mask of a warp's existing lanes: `lanes == 32 ? ~0 : (1 << lanes) - 1`.
fn lane_mask(b: &mut cucc_ir::Builder<'_>, lanes: Value) -> Value {
    let c32 = b.i32(32);
    let one = b.i32(1);
    let is32 = b.cmp(CmpPred::Eq, lanes, c32);
    let c31 = b.i32(31);
    let safe = b.binary(BinOp::And, lanes, c31);
    let sh = b.binary(BinOp::Shl, one, safe);
    let part = b.binary(BinOp::Sub, sh, one);
    let all = b.i32(-1);
    b.select(is32, all, part)
}
