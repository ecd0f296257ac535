//! Votes whose mask may differ between the lanes of a warp, and
//! `activemask` under an `if`.
//!
//! A vote counts only the lanes its mask names, and lanes may vote at the
//! same time with different masks (`lane < 16 ? 0xffff : 0xffff0000`).
//! Fission reduces a vote once per warp, which needs one mask for the whole
//! warp; so a vote whose mask is computed per lane is first rewritten as a
//! ballot of every lane followed by each lane's own reduction:
//!
//! ```text
//! r = vote.any %m, %p   =>   b = vote.ballot -1, %p;  r = (b & %m) != 0
//! r = vote.all %m, %p   =>   b = vote.ballot -1, %p;  r = (b & %m) == (lanes & %m)
//! ```
//!
//! where `lanes` is the mask of the warp's existing lanes. Lanes that do not
//! execute the vote (a divergent `if` around it) contribute no bit: the
//! predication of the `if` folds the lane's condition into the predicate.

use super::Distributor;
use cucc_ir::edit::{remove_op, replace_all_uses, replace_uses_in_region};
use cucc_ir::{BinOp, CmpPred, Op, OpKind, Region, VoteKind};
use std::collections::HashMap;

impl Distributor<'_> {
    /// True if `v`, used in lane loop `p`, has one value for the whole warp:
    /// a constant, or defined outside the loop.
    pub(crate) fn warp_wide(&self, p: Op, v: cucc_ir::Value) -> bool {
        let body = self.func.ops[p].body();
        if let Some(d) = self.func.defining_op(v) {
            if matches!(self.func.ops[d].kind, OpKind::Const { .. }) {
                return true;
            }
        }
        if self.func.regions[body].args.contains(&v) {
            return false;
        }
        let mut inside = Vec::new();
        self.func.walk_region(body, &mut inside);
        !inside
            .iter()
            .any(|&(_, o)| self.func.ops[o].results.contains(&v))
    }

    /// If vote `op` (top level of lane loop `p`) has a mask that may differ
    /// between lanes, rewrites it as described above and returns the ballot
    /// that replaces it.
    pub(crate) fn vote_lane_masks(&mut self, p: Op, op: Op, kind: VoteKind) -> Option<Op> {
        let (mask, pred) = (self.func.ops[op].mask(), self.func.ops[op].pred());
        if self.warp_wide(p, mask) {
            return None;
        }
        let body = self.func.ops[p].body();
        let lanes = *self.func.ops[p].ubs().first()?;
        let result = *self.func.ops[op].results.first()?;
        let k = self.position(body, op);
        let (ballot, value) = {
            let loc = self.func.ops[op].loc;
            let mut b = self.at(body, k);
            b.set_loc(loc);
            let all = b.i32(-1);
            let bits = b.vote(VoteKind::Ballot, all, pred);
            let seen = b.binary(BinOp::And, bits, mask);
            let value = match kind {
                VoteKind::Ballot => seen,
                VoteKind::Any => {
                    let z = b.i32(0);
                    b.cmp(CmpPred::Ne, seen, z)
                }
                VoteKind::All => {
                    let existing = super::warp::lane_mask(&mut b, lanes, Some(all));
                    let named = b.binary(BinOp::And, existing, mask);
                    b.cmp(CmpPred::Eq, seen, named)
                }
            };
            (b.func.defining_op(bits)?, value)
        };
        replace_all_uses(self.func, result, value);
        remove_op(self.func, body, op);
        Some(ballot)
    }
}

impl Distributor<'_> {
    /// Rewrites each `activemask` of lane region `r` that sits directly in
    /// an `if` of its top level as a ballot of `true` over the whole warp:
    /// the lanes that reach it are those whose condition holds, which the
    /// predication of a divergent `if` gives the vote (a warp-uniform one
    /// is interchanged, so every lane reaches it). At the top level, deeper
    /// in `if`s (predication does not nest) and in loops, it stays the
    /// warp's existing lanes.
    pub(crate) fn activemask_as_votes(&mut self, r: Region) {
        let mut found = Vec::new();
        for &op in &self.func.regions[r].ops {
            if self.func.ops[op].kind != OpKind::If {
                continue;
            }
            for &inner in &self.func.ops[op].regions {
                for &o in &self.func.regions[inner].ops {
                    if self.func.ops[o].kind == OpKind::ActiveMask {
                        found.push((inner, o));
                    }
                }
            }
        }
        let mut renames = HashMap::new();
        for (region, op) in found {
            let Some(&old) = self.func.ops[op].results.first() else {
                continue;
            };
            let k = self.position(region, op);
            let loc = self.func.ops[op].loc;
            let mut b = self.at(region, k);
            b.set_loc(loc);
            let all = b.i32(-1);
            let t = b.bool(true);
            let v = b.vote(VoteKind::Ballot, all, t);
            renames.insert(old, v);
            remove_op(self.func, region, op);
        }
        replace_uses_in_region(self.func, r, &renames);
    }
}
