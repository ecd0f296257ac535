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
//! lanes of the warp that exist and that their mask names.

use super::{Distributor, Mode};
use crate::error::CpuifyError;
use cucc_ir::edit::{clone_op, remove_op, replace_all_uses, replace_uses_in_region};
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
            let (warp_region, lane_loop, base, lanes, n) = self.split_block_loop(parent, p);
            let saved = self.mode;
            self.mode = Mode::Lane { base };
            let result = (|| {
                if self.contains_sync(lane_loop) {
                    self.hoist_private_allocas(lane_loop);
                    self.process(warp_region, lane_loop)?;
                    self.warp_slot_addresses(warp_region, base);
                    let solved = self.solve_lane_guards(warp_region);
                    let loc = self.func.ops[p].loc;
                    if solved > 0 {
                        self.remark(
                            loc,
                        format!("{solved} lane loop(s) guarded by `lane id % m == c` run their one passing lane"),
                        );
                    }
                    let hoisted = self.hoist_warp_uniform(warp_region);
                    if hoisted > 0 {
                        self.remark(
                            loc,
                        format!("{hoisted} warp-uniform value(s) computed once per warp where the first and last lane agree"),
                        );
                    }
                    self.peel_partial_warp(parent, warp_region, lanes, n);
                    self.remark(
                        loc,
                    "full warps run their lane loops 32 times (a constant); a block's partial last warp runs a copy",
                    );
                }
                Ok(())
            })();
            self.mode = saved;
            result?;
        }
        Ok(())
    }

    /// Per-thread slots in lane loops are `ptr.index %cache, (%base + %lane)`;
    /// they become `ptr.index (ptr.index %cache, %base), %lane`. Same
    /// address, but affine in the lane loop's counter once in C (a 32-bit
    /// sum converted to a 64-bit index is not), so gcc vectorises the
    /// copies and sums of the split lane loops.
    fn warp_slot_addresses(&mut self, warp_region: Region, base: Value) {
        let mut walk = Vec::new();
        self.func.walk_region(warp_region, &mut walk);
        let lane_ivs: std::collections::HashSet<Value> = walk
            .iter()
            .filter(|&&(_, o)| self.func.ops[o].kind == OpKind::Parallel { level: Level::Lane })
            .filter_map(|&(_, o)| {
                self.func.regions[self.func.ops[o].body()]
                    .args
                    .first()
                    .copied()
            })
            .collect();
        for (region, op) in walk {
            let OpKind::PtrIndex { elem } = self.func.ops[op].kind else {
                continue;
            };
            let (cache, index) = (self.func.ops[op].ptr(), self.func.ops[op].index());
            let Some(add) = self.func.defining_op(index) else {
                continue;
            };
            let add = &self.func.ops[add];
            if !matches!(add.kind, OpKind::Binary(BinOp::Add, _))
                || add.lhs() != base
                || !lane_ivs.contains(&add.rhs())
            {
                continue;
            }
            let lane = add.rhs();
            let at = self.position(region, op);
            let w = self.at(region, at).ptr_index(cache, base, elem);
            self.func.ops[op].set_ptr(w);
            self.func.ops[op].set_index(lane);
        }
    }

    fn uses_warp_ops(&self, op: Op) -> bool {
        self.any_nested(op, &|k| k.is_warp_collective() || *k == OpKind::ActiveMask)
    }

    /// Splits the warp loop whose body is `warp_region` (in `parent`) into
    /// the block's full warps (of its `n` threads), where the lane count
    /// `lanes` is the constant
    /// 32 (the C compiler then unrolls and vectorises the lane loops
    /// without remainders and copies per-thread slots inline), and a copy
    /// for the partial last warp, which runs when the block size is not a
    /// multiple of 32.
    fn peel_partial_warp(&mut self, parent: Region, warp_region: Region, lanes: Value, n: Value) {
        let Some(warp_loop) = self.func.regions[parent]
            .ops
            .iter()
            .copied()
            .find(|&o| self.func.ops[o].regions.first() == Some(&warp_region))
        else {
            return;
        };
        let loc = self.func.ops[warp_loop].loc;
        let pos = self.position(parent, warp_loop);
        let (full, partial) = {
            let mut b = self.at(parent, pos);
            b.set_loc(loc);
            let c32 = b.i32(32);
            let full = b.binary(BinOp::UDiv, n, c32);
            let rem = b.binary(BinOp::URem, n, c32);
            let zero = b.i32(0);
            let some = b.cmp(CmpPred::Ne, rem, zero);
            let i32t = b.types.i32();
            (full, b.cast(CastOp::ZExt, some, i32t))
        };
        // The copy for the partial warp: warp index `full`.
        let mut map = HashMap::new();
        let tail = clone_op(self.func, warp_loop, &mut map);
        self.func.ops[tail].set_ubs([partial]);
        let tail_body = self.func.ops[tail].body();
        let t = self.func.regions[tail_body].args[0];
        let shifted = {
            let mut b = self.at(tail_body, 0);
            b.set_loc(loc);
            b.binary_flags(BinOp::Add, ArithFlags::NSW, full, t)
        };
        let mut shift = HashMap::from([(t, shifted)]);
        replace_uses_in_region(self.func, tail_body, &shift);
        // The add itself reads the argument.
        if let Some(add) = self.func.defining_op(shifted) {
            self.func.ops[add].set_lhs(full);
            self.func.ops[add].set_rhs(t);
        }
        shift.clear();
        // Full warps: 32 lanes.
        let c32 = {
            let mut b = self.at(warp_region, 0);
            b.set_loc(loc);
            b.i32(32)
        };
        replace_uses_in_region(self.func, warp_region, &HashMap::from([(lanes, c32)]));
        self.func.ops[warp_loop].set_ubs([full]);
        let pos = self.position(parent, warp_loop);
        self.func.regions[parent].ops.insert(pos + 1, tail);
    }

    /// Rewrites block loop `p` as `parallel<warp> { parallel<lane> {..} }`.
    /// Returns the warp body, the lane loop, the warp's base thread id, its
    /// lane count and the block's thread count.
    fn split_block_loop(&mut self, parent: Region, p: Op) -> (Region, Op, Value, Value, Value) {
        let ubs = self.func.ops[p].ubs().to_vec();
        let body = self.func.ops[p].body();
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
            let full = lane_mask(&mut b, lanes, None);
            b.name(base, "warp_base");
            b.name(lanes, "lanes");
            (base, lanes, full)
        };
        // Lane 0's thread ids, and whether the warp's lanes all lie in one
        // x row of the block (always so when blockDim.x is a multiple of
        // 32): then lane l's ids are lane 0's with x + l, which saves a
        // division per lane and dimension.
        let (ids0, fits) = {
            let at = self.func.regions[warp_region].ops.len();
            let mut b = self.at(warp_region, at);
            b.set_loc(loc);
            let ids0 = thread_ids(&mut b, base, &ubs);
            let room = b.binary(BinOp::Sub, ubs[0], ids0[0]);
            (ids0, b.cmp(CmpPred::Ule, lanes, room))
        };
        let lane_region = self.func.new_region(&[i32t]);
        let l = self.func.regions[lane_region].args[0];
        self.func.values[l].name = Some("lane".into());
        let mut map = HashMap::new();
        {
            let mut b = self.at(lane_region, 0);
            b.set_loc(loc);
            // Linear ids within a block stay below 1024: no signed wrap.
            let ids = if ivs.len() == 1 {
                vec![b.binary_flags(BinOp::Add, ArithFlags::NSW, base, l)]
            } else {
                let types = vec![i32t; ivs.len()];
                b.if_else(
                    fits,
                    &types,
                    |b| {
                        let mut v = ids0.clone();
                        v[0] = b.binary_flags(BinOp::Add, ArithFlags::NSW, ids0[0], l);
                        v
                    },
                    |b| {
                        let lin = b.binary_flags(BinOp::Add, ArithFlags::NSW, base, l);
                        thread_ids(b, lin, &ubs)
                    },
                )
            };
            for (&iv, &t) in ivs.iter().zip(&ids) {
                map.insert(iv, t);
            }
        }
        let moved = std::mem::take(&mut self.func.regions[body].ops);
        self.func.regions[lane_region].ops.extend(moved);
        replace_uses_in_region(self.func, lane_region, &map);
        // activemask: the lanes of this warp, or a vote where an `if` may
        // leave some out (`vote_mask`).
        self.activemask_as_votes(lane_region);
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
        (warp_region, lane_loop, base, lanes, n)
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
        let body = self.func.ops[p].body();
        let lane = self.func.regions[body].args[0];
        let lanes = self.func.ops[p].ubs()[0];
        let data = &self.func.ops[op];
        if data.operands.len() != 4 {
            return Err(self.err(op, "`shuffle` needs 4 operands"));
        }
        let (x, d, width) = (data.shuffled(), data.lane(), data.width());
        let ty = self.func.value_type(x);
        let result = self.func.ops[op].results[0];
        // 32 spare slots on each side: an up/down shuffle reads its
        // neighbour at a clamped offset unconditionally (see below).
        let pad = 32u64;
        let cache = {
            let arr = self.types.array(ty, self.cache_len + 2 * pad);
            self.new_cell(arr)
        };
        let k = self.position(body, op);
        // This warp's slots: `warp[lane]` is lane `lane`'s.
        let warp_slots = |b: &mut cucc_ir::Builder<'_>| {
            let p32 = b.i32(pad as i32);
            let first = b.binary(BinOp::Add, base, p32);
            b.ptr_index(cache, first, ty)
        };
        {
            let mut b = self.at(body, k);
            let warp = warp_slots(&mut b);
            let addr = b.ptr_index(warp, lane, ty);
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
            // The source lane `t` if it is in the caller's segment of the
            // warp and exists (`ok`); the caller itself otherwise.
            let (t, ok) = match mode {
                ShuffleMode::Idx => {
                    let off = b.binary(BinOp::And, d, wm1);
                    (b.binary(BinOp::Add, sub, off), b.bool(true))
                }
                ShuffleMode::Up => {
                    let t = b.binary(BinOp::Sub, lane, d);
                    (t, b.cmp(CmpPred::Sge, t, sub))
                }
                ShuffleMode::Down => {
                    let t = b.binary(BinOp::Add, lane, d);
                    (t, b.cmp(CmpPred::Slt, t, end))
                }
                ShuffleMode::Xor => {
                    let t = b.binary(BinOp::Xor, lane, d);
                    let lo = b.cmp(CmpPred::Sge, t, sub);
                    let hi = b.cmp(CmpPred::Slt, t, end);
                    (t, b.binary(BinOp::And, lo, hi))
                }
            };
            let exists = b.cmp(CmpPred::Ult, t, lanes);
            let ok = b.binary(BinOp::And, ok, exists);
            let warp = warp_slots(&mut b);
            match mode {
                // The source is `t = lane + e` (e = d, or -d for up, as
                // 32-bit sums) when `ok`. If e is outside [-31, 31] as a
                // signed number, `t` (wrapping) is no lane and `ok` fails;
                // clamping e to [-32, 32] keeps the neighbour's address in
                // the padding and changes no selected value. Both loads are affine in the lane: the
                // loop vectorises, where a load at `src` would not.
                ShuffleMode::Up | ShuffleMode::Down => {
                    let e = if mode == ShuffleMode::Up {
                        let zero = b.i32(0);
                        b.binary(BinOp::Sub, zero, d)
                    } else {
                        d
                    };
                    let hi = b.i32(pad as i32);
                    let lo = b.i32(-(pad as i32));
                    let e = b.binary(BinOp::SMin, e, hi);
                    let e = b.binary(BinOp::SMax, e, lo);
                    let shifted = b.ptr_index(warp, e, ty);
                    let other = b.ptr_index(shifted, lane, ty);
                    let other = b.load(other, ty);
                    let mine = b.ptr_index(warp, lane, ty);
                    let mine = b.load(mine, ty);
                    b.select(ok, other, mine)
                }
                ShuffleMode::Idx | ShuffleMode::Xor => {
                    let src = b.select(ok, t, lane);
                    let addr = b.ptr_index(warp, src, ty);
                    b.load(addr, ty)
                }
            }
        };
        replace_all_uses(self.func, result, value);
        let loc = self.func.ops[op].loc;
        let k = self.position(body, op);
        let (next, stored, recomputed) = self.split(parent, p, k, true)?;
        self.remark(
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
        // A mask that differs between lanes: a ballot of the whole warp,
        // reduced by each lane under its own mask (`vote_mask`).
        let (op, kind) = match self.vote_lane_masks(p, op, kind) {
            Some(ballot) => (ballot, VoteKind::Ballot),
            None => (op, kind),
        };
        let body = self.func.ops[p].body();
        let lane = self.func.regions[body].args[0];
        let lanes = self.func.ops[p].ubs()[0];
        if self.func.ops[op].operands.len() < 2 {
            return Err(self.err(op, "`vote` needs a predicate"));
        }
        let pred = self.func.ops[op].pred();
        let result = self.func.ops[op].results[0];
        // The mask, if it is known for the whole warp: a constant, or a
        // value defined outside the lane loop. Otherwise every lane counts.
        let mask = self.func.ops[op].mask();
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
                    let full = lane_mask(&mut b, lanes, None);
                    let full = match warp_mask {
                        Some(m) => b.binary(BinOp::And, full, m),
                        None => full,
                    };
                    b.cmp(CmpPred::Eq, bits, full)
                }
            }
        };
        replace_all_uses(self.func, result, value);
        self.remark(
            loc,
            format!("vote.{} removed by lane-loop fission", kind.name()),
        );
        Ok(next)
    }
}

/// The thread ids (x fastest) of linear thread id `lin` in a block of
/// extents `ubs`.
fn thread_ids(b: &mut cucc_ir::Builder<'_>, lin: Value, ubs: &[Value]) -> Vec<Value> {
    let mut rest = lin;
    let mut ids = Vec::with_capacity(ubs.len());
    for (k, &ub) in ubs.iter().enumerate() {
        if k + 1 == ubs.len() {
            ids.push(rest);
        } else {
            ids.push(b.binary(BinOp::URem, rest, ub));
            rest = b.binary(BinOp::UDiv, rest, ub);
        }
    }
    ids
}

/// The mask of a warp's existing lanes: `lanes == 32 ? ~0 : (1 << lanes) - 1`.
/// `all` is a `-1` built before, if there is one.
pub(super) fn lane_mask(b: &mut cucc_ir::Builder<'_>, lanes: Value, all: Option<Value>) -> Value {
    let c32 = b.i32(32);
    let one = b.i32(1);
    let is32 = b.cmp(CmpPred::Eq, lanes, c32);
    let c31 = b.i32(31);
    let safe = b.binary(BinOp::And, lanes, c31);
    let sh = b.binary(BinOp::Shl, one, safe);
    let part = b.binary(BinOp::Sub, sh, one);
    let all = all.unwrap_or_else(|| b.i32(-1));
    b.select(is32, all, part)
}
