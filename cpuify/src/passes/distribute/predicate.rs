//! Predication of an `if` whose branches contain warp collectives.
//!
//! Lanes of a warp may take different sides of an `if` and still shuffle or
//! vote inside it (with a mask naming the lanes that do), so the `if` cannot
//! be interchanged with the lane loop using one lane's condition. Instead
//! each branch is cut at its collectives into segments, each segment runs
//! under `if (own condition)`, and the collectives themselves run for every
//! lane at the top level of the lane loop, where fission removes them:
//!
//! ```text
//! if c { A; v = shuffle(x); B } else { E }
//!   =>  c[t] = c;  if c[t] { A; x[t] = x }  x' = x[t];  v = shuffle(x');
//!       if c[t] { B }  if !c[t] { E }
//! ```
//!
//! Values a segment defines and later code uses go through per-thread
//! storage; lanes that skipped the segment hold unspecified values there,
//! which is what reading an inactive lane gives on a GPU. Collectives nested
//! deeper (in a loop inside the divergent `if`) are reported, not guessed.

use super::Distributor;
use crate::error::CpuifyError;
use cucc_ir::edit::replace_uses_in_op;
use cucc_ir::{BinOp, Op, OpKind, Region, Value, VoteKind};
use std::collections::{HashMap, HashSet};

impl Distributor<'_> {
    /// Replaces `if` op `c` (top level of lane loop `p`) by guarded segments
    /// with its warp collectives at the top level.
    pub(crate) fn predicate_if(&mut self, p: Op, c: Op) -> Result<(), CpuifyError> {
        self.demote(p, c, None)?;
        let body = self.func.ops[p].body();
        let cond = self.func.ops[c].cond();
        let i1 = self.types.i1();
        let ccache = self.new_cache(i1);
        let k = self.position(body, c);
        self.store_slot(body, k, p, ccache, cond);
        let regions = self.func.ops[c].regions.clone();
        let mut replacement = Vec::new();
        for (ri, &r) in regions.iter().enumerate() {
            let ops = self.guard_region(p, c, r, ccache, ri == 1)?;
            replacement.extend(ops);
        }
        let k = self.position(body, c);
        self.func.regions[body].ops.splice(k..=k, replacement);
        Ok(())
    }

    /// The ops that replace region `r` of the predicated `if`: guarded
    /// segments and, between them, the region's collectives.
    fn guard_region(
        &mut self,
        p: Op,
        c: Op,
        r: Region,
        ccache: Value,
        negate: bool,
    ) -> Result<Vec<Op>, CpuifyError> {
        let mut ops = self.func.regions[r].ops.clone();
        ops.pop(); // the (emptied) yield
                   // Cut into segments at the collectives.
        let mut pieces: Vec<Result<Vec<Op>, Op>> = Vec::new();
        let mut current = Vec::new();
        // Constants run unguarded, so a collective's mask or width stays a
        // constant the fission can read.
        let mut hoisted = Vec::new();
        for op in ops {
            if matches!(self.func.ops[op].kind, OpKind::Const { .. }) {
                hoisted.push(op);
            } else if self.is_sync(&self.func.ops[op].kind) {
                pieces.push(Ok(std::mem::take(&mut current)));
                pieces.push(Err(op));
            } else if self.contains_sync(op) {
                return Err(self.err(
                    op,
                    "a warp collective nested in control flow under a divergent `if` cannot be translated",
                ));
            } else {
                current.push(op);
            }
        }
        pieces.push(Ok(current));

        // Values defined in each segment and used outside it.
        let loc = self.func.ops[p].loc;
        let mut out = hoisted;
        let segs: Vec<&Vec<Op>> = pieces.iter().filter_map(|x| x.as_ref().ok()).collect();
        let mut defined_in: HashMap<Value, usize> = HashMap::new();
        for (si, seg) in segs.iter().enumerate() {
            for &op in seg.iter() {
                for &v in &self.func.ops[op].results {
                    defined_in.insert(v, si);
                }
            }
        }
        let mut escaping: Vec<HashSet<Value>> = vec![HashSet::new(); segs.len()];
        let body = self.func.ops[p].body();
        let mut all = Vec::new();
        self.func.walk_region(body, &mut all);
        self.func.walk_region(r, &mut all);
        let mut seg_of_op: HashMap<Op, usize> = HashMap::new();
        for (si, seg) in segs.iter().enumerate() {
            for &op in seg.iter() {
                let mut inner = vec![(r, op)];
                for &rr in &self.func.ops[op].regions {
                    self.func.walk_region(rr, &mut inner);
                }
                for (_, o) in inner {
                    seg_of_op.insert(o, si);
                }
            }
        }
        for &(_, o) in &all {
            for &v in &self.func.ops[o].operands {
                if let Some(&si) = defined_in.get(&v) {
                    if seg_of_op.get(&o) != Some(&si) {
                        escaping[si].insert(v);
                    }
                }
            }
        }

        let mut seg_index = 0;
        let mut renames: HashMap<Value, Value> = HashMap::new();
        for piece in pieces {
            match piece {
                Err(sync) => {
                    replace_uses_in_op(self.func, sync, &renames);
                    out.extend(self.vote_own_lanes(p, sync, ccache, negate));
                    out.push(sync);
                }
                Ok(seg) => {
                    let si = seg_index;
                    seg_index += 1;
                    let mut esc: Vec<Value> = escaping[si].iter().copied().collect();
                    esc.sort();
                    if seg.is_empty() {
                        continue;
                    }
                    for &op in &seg {
                        replace_uses_in_op(self.func, op, &renames);
                    }
                    // if (own condition) { seg; stores }
                    let then_r = self.func.new_region(&[]);
                    let else_r = self.func.new_region(&[]);
                    self.func.regions[then_r].ops.extend(seg);
                    let caches: Vec<Value> = esc
                        .iter()
                        .map(|&v| {
                            let ty = self.func.value_type(v);
                            self.new_cache(ty)
                        })
                        .collect();
                    for (&v, &cache) in esc.iter().zip(&caches) {
                        let end = self.func.regions[then_r].ops.len();
                        self.store_slot(then_r, end, p, cache, v);
                    }
                    let y1 = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
                    let y2 = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
                    self.func.regions[then_r].ops.push(y1);
                    self.func.regions[else_r].ops.push(y2);
                    // The guard and the reloads live in a scratch region
                    // whose ops are then handed back in order.
                    let scratch = self.func.new_region(&[]);
                    let i1 = self.types.i1();
                    let (own, n) = self.load_slot(scratch, 0, p, ccache, i1);
                    let guard = {
                        let mut b = self.at(scratch, n);
                        if negate {
                            let t = b.bool(true);
                            b.binary(BinOp::Xor, own, t)
                        } else {
                            own
                        }
                    };
                    let iff =
                        self.func
                            .new_op(OpKind::If, vec![guard], &[], vec![then_r, else_r], loc);
                    self.func.regions[scratch].ops.push(iff);
                    for (&v, &cache) in esc.iter().zip(&caches) {
                        let ty = self.func.value_type(v);
                        let end = self.func.regions[scratch].ops.len();
                        let (l, _) = self.load_slot(scratch, end, p, cache, ty);
                        self.func.values[l].name = self.func.values[v].name.clone();
                        renames.insert(v, l);
                    }
                    out.extend(std::mem::take(&mut self.func.regions[scratch].ops));
                }
            }
        }
        // Uses after the `if` (in the rest of the lane loop) see the reloads.
        if let Some(at) = self.func.find_op(body, c) {
            let ops = self.func.regions[body].ops.clone();
            for &op in &ops[at + 1..] {
                replace_uses_in_op(self.func, op, &renames);
            }
        }
        Ok(out)
    }

    /// The ops that make vote `sync` (run by every lane of loop `p` once
    /// predicated) count only the lanes whose own condition (`ccache`,
    /// negated for the `else`) holds: their predicate is kept for `ballot`
    /// and `any` and made true for `all`, the others' made false, resp.
    /// true. Lanes that skip the `if` do not take part in the vote on a
    /// GPU. Nothing for other collectives.
    fn vote_own_lanes(&mut self, p: Op, sync: Op, ccache: Value, negate: bool) -> Vec<Op> {
        let OpKind::Vote(kind) = self.func.ops[sync].kind else {
            return Vec::new();
        };
        let pred = self.func.ops[sync].pred();
        let scratch = self.func.new_region(&[]);
        let i1 = self.types.i1();
        let (own, n) = self.load_slot(scratch, 0, p, ccache, i1);
        let pred = {
            let mut b = self.at(scratch, n);
            // Lanes that run the branch: own, or !own for the `else`.
            let t = b.bool(true);
            let run = if negate {
                b.binary(BinOp::Xor, own, t)
            } else {
                own
            };
            match kind {
                VoteKind::All => {
                    let skip = b.binary(BinOp::Xor, run, t);
                    b.binary(BinOp::Or, pred, skip)
                }
                VoteKind::Ballot | VoteKind::Any => b.binary(BinOp::And, pred, run),
            }
        };
        self.func.ops[sync].set_pred(pred);
        std::mem::take(&mut self.func.regions[scratch].ops)
    }
}
