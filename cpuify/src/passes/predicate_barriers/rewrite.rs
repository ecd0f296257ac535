//! The rewrite of one divergent `if` into guarded segments around its
//! barriers (see the module docs of `predicate_barriers`).

use super::{has_barrier, speculable};
use cucc_ir::edit::{add_region_arg, add_result, replace_uses_map, uses};
use cucc_ir::{
    ArithFlags, BarrierReduceKind, BinOp, Function, Loc, Op, OpKind, Region, TypeId, Types, Value,
};
use std::collections::{HashMap, HashSet};

/// Rewrites `if` op `c` in place (its checks passed); `whiles` are the
/// `while`s inside it to iterate while any thread's condition holds.
/// Returns the number of guarded segments made.
pub(super) fn predicate(
    types: &mut Types,
    func: &mut Function,
    c: Op,
    whiles: HashSet<Op>,
) -> usize {
    let users = uses(func);
    let i1 = types.i1();
    let Some(parent) = func.parents().region_of(c) else {
        return 0;
    };
    let mut rw = Rewriter {
        func,
        users,
        results: HashMap::new(),
        segments: 0,
        i1,
        whiles,
    };
    let mut out = Vec::new();
    if rw.func.ops[c].kind == OpKind::While {
        rw.while_in(c, None, &mut out);
        out.push(c);
    } else {
        let cond = rw.func.ops[c].cond();
        rw.flatten_if(c, cond, None, &mut out);
    }
    if let Some(k) = rw.func.find_op(parent, c) {
        rw.func.regions[parent].ops.splice(k..=k, out);
    }
    let results = std::mem::take(&mut rw.results);
    replace_uses_map(rw.func, &results);
    rw.segments
}

struct Rewriter<'a> {
    func: &'a mut Function,
    /// Uses of every value before the rewrite: (user op, operand index).
    users: HashMap<Value, Vec<(Op, usize)>>,
    /// Results of flattened `if`s and the `select`s that replace them.
    results: HashMap<Value, Value>,
    segments: usize,
    i1: TypeId,
    /// `while`s to run while any thread's condition holds.
    whiles: HashSet<Op>,
}

impl Rewriter<'_> {
    /// Appends a new single-result op to `out`.
    fn emit(
        &mut self,
        kind: OpKind,
        operands: Vec<Value>,
        ty: TypeId,
        loc: Loc,
        out: &mut Vec<Op>,
    ) -> Value {
        let op = self.func.new_op(kind, operands, &[ty], vec![], loc);
        out.push(op);
        self.func.ops[op].results[0]
    }

    fn not(&mut self, v: Value, loc: Loc, out: &mut Vec<Op>) -> Value {
        let t = self.emit(OpKind::Const { bits: 1 }, vec![], self.i1, loc, out);
        self.emit(
            OpKind::Binary(BinOp::Xor, ArithFlags::NONE),
            vec![v, t],
            self.i1,
            loc,
            out,
        )
    }

    fn and(&mut self, a: Option<Value>, b: Value, loc: Loc, out: &mut Vec<Op>) -> Value {
        match a {
            None => b,
            Some(a) => self.emit(
                OpKind::Binary(BinOp::And, ArithFlags::NONE),
                vec![a, b],
                self.i1,
                loc,
                out,
            ),
        }
    }

    /// Flattens `if` op `c` on `cond` (already remapped) into `out`, its
    /// branches guarded by `outer && cond` and `outer && !cond`.
    fn flatten_if(&mut self, c: Op, cond: Value, outer: Option<Value>, out: &mut Vec<Op>) {
        let loc = self.func.ops[c].loc;
        let (then_r, else_r) = (
            self.func.ops[c].then_region(),
            self.func.ops[c].else_region(),
        );
        let t_flag = self.and(outer, cond, loc, out);
        let yt = self.flatten(then_r, t_flag, out);
        let ye = if self.func.regions[else_r].ops.len() > 1 {
            let nc = self.not(cond, loc, out);
            let e_flag = self.and(outer, nc, loc, out);
            self.flatten(else_r, e_flag, out)
        } else {
            self.terminator_operands(else_r)
        };
        let results = self.func.ops[c].results.clone();
        for (k, &r) in results.iter().enumerate() {
            let (a, b) = (yt[k], ye[k]);
            let v = if a == b {
                a
            } else {
                let ty = self.func.value_type(r);
                self.emit(OpKind::Select, vec![cond, a, b], ty, loc, out)
            };
            self.results.insert(r, v);
        }
    }

    /// Makes `while` op `w` run in every thread (active at first where
    /// `init` holds, all threads for `None`) until no active thread's
    /// condition holds; the threads that left it keep their exit values
    /// and run it idle. The ops that set it up go to `out`, `w` stays.
    fn while_in(&mut self, w: Op, init: Option<Value>, out: &mut Vec<Op>) {
        let loc = self.func.ops[w].loc;
        let i1 = self.i1;
        let (before, after) = (self.func.ops[w].before(), self.func.ops[w].after());
        let old_results = self.func.ops[w].results.clone();
        let tys: Vec<TypeId> = old_results
            .iter()
            .map(|&r| self.func.value_type(r))
            .collect();
        let start = match init {
            Some(f) => f,
            None => self.emit(OpKind::Const { bits: 1 }, vec![], i1, loc, out),
        };
        let undefs: Vec<Value> = tys
            .iter()
            .map(|&ty| self.emit(OpKind::Undef, vec![], ty, loc, out))
            .collect();
        let act = add_region_arg(self.func, before, i1);
        let exits: Vec<Value> = tys
            .iter()
            .map(|&ty| add_region_arg(self.func, before, ty))
            .collect();
        let act2 = add_region_arg(self.func, after, i1);
        let exits2: Vec<Value> = tys
            .iter()
            .map(|&ty| add_region_arg(self.func, after, ty))
            .collect();
        // before: own condition while active; the block goes on while any holds.
        let mut ops = Vec::new();
        let term = self.flatten(before, act, &mut ops);
        let (cond, vals) = (term[0], &term[1..]);
        let c2 = self.and(Some(act), cond, loc, &mut ops);
        let mut kept = Vec::new();
        for (k, (&v, &e)) in vals.iter().zip(&exits).enumerate() {
            kept.push(self.emit(OpKind::Select, vec![act, v, e], tys[k], loc, &mut ops));
        }
        let any = self.emit(
            OpKind::BarrierReduce(BarrierReduceKind::Or),
            vec![c2],
            i1,
            loc,
            &mut ops,
        );
        let mut cond_ops = vec![any];
        cond_ops.extend_from_slice(vals);
        cond_ops.push(c2);
        cond_ops.extend(kept);
        let cterm = self
            .func
            .new_op(OpKind::Condition, cond_ops, &[], vec![], loc);
        ops.push(cterm);
        self.func.regions[before].ops = ops;
        // after: the body, guarded by the thread's own condition.
        let mut ops = Vec::new();
        let mut next = self.flatten(after, act2, &mut ops);
        next.push(act2);
        next.extend(exits2);
        let yterm = self.func.new_op(OpKind::Yield, next, &[], vec![], loc);
        ops.push(yterm);
        self.func.regions[after].ops = ops;
        self.func.ops[w].push_inits(std::iter::once(start).chain(undefs));
        add_result(self.func, w, i1);
        for (&old, &ty) in old_results.iter().zip(&tys) {
            let new = add_result(self.func, w, ty);
            self.results.insert(old, new);
        }
    }

    fn terminator_operands(&self, r: Region) -> Vec<Value> {
        self.func.regions[r]
            .ops
            .last()
            .map_or_else(Vec::new, |&t| self.func.ops[t].operands.clone())
    }

    /// Appends the ops of region `r` (but its terminator) to `out`, guarded
    /// by `flag`; returns the terminator's operands after the rewrite.
    fn flatten(&mut self, r: Region, flag: Value, out: &mut Vec<Op>) -> Vec<Value> {
        let ops = self.func.regions[r].ops.clone();
        let body = ops.split_last().map_or(&[][..], |(_, b)| b);
        let mut seg: Vec<Op> = Vec::new();
        let mut seg_vals: HashSet<Value> = HashSet::new();
        for &op in body {
            if has_barrier(self.func, op) {
                self.flush(&mut seg, &mut seg_vals, flag, out);
                self.barrier_op(op, flag, out);
            } else if speculable(self.func, op)
                && !self.func.ops[op]
                    .operands
                    .iter()
                    .any(|v| seg_vals.contains(v))
            {
                // Speculated: threads whose condition failed run it too, on
                // values the source never computed it with.
                if let OpKind::Binary(_, flags) = &mut self.func.ops[op].kind {
                    *flags = ArithFlags::NONE;
                }
                out.push(op);
            } else {
                seg.push(op);
                seg_vals.extend(self.func.ops[op].results.iter().copied());
            }
        }
        self.flush(&mut seg, &mut seg_vals, flag, out);
        self.terminator_operands(r)
    }

    /// An op holding barriers, run by every thread.
    fn barrier_op(&mut self, op: Op, flag: Value, out: &mut Vec<Op>) {
        let loc = self.func.ops[op].loc;
        match self.func.ops[op].kind.clone() {
            OpKind::If => {
                let cond = self.func.ops[op].cond();
                self.flatten_if(op, cond, Some(flag), out);
            }
            OpKind::While if self.whiles.contains(&op) => {
                self.while_in(op, Some(flag), out);
                out.push(op);
            }
            OpKind::For { .. } | OpKind::While => {
                for r in self.func.ops[op].regions.clone() {
                    let mut inner = Vec::new();
                    self.flatten(r, flag, &mut inner);
                    if let Some(&t) = self.func.regions[r].ops.last() {
                        inner.push(t);
                    }
                    self.func.regions[r].ops = inner;
                }
                out.push(op);
            }
            OpKind::BarrierReduce(kind) => {
                let pred = self.func.ops[op].pred();
                let pred = if kind == BarrierReduceKind::And {
                    let nf = self.not(flag, loc, out);
                    self.emit(
                        OpKind::Binary(BinOp::Or, ArithFlags::NONE),
                        vec![nf, pred],
                        self.i1,
                        loc,
                        out,
                    )
                } else {
                    self.and(Some(flag), pred, loc, out)
                };
                self.func.ops[op].set_pred(pred);
                out.push(op);
            }
            _ => out.push(op),
        }
    }

    /// Moves the pending ops `seg` into `if flag { seg } else { undef }`,
    /// whose results replace the segment's values used after it.
    fn flush(
        &mut self,
        seg: &mut Vec<Op>,
        seg_vals: &mut HashSet<Value>,
        flag: Value,
        out: &mut Vec<Op>,
    ) {
        if seg.is_empty() {
            return;
        }
        let ops = std::mem::take(seg);
        seg_vals.clear();
        let mut inside: HashSet<Op> = ops.iter().copied().collect();
        for &op in &ops {
            for r in self.func.ops[op].regions.clone() {
                let mut w = Vec::new();
                self.func.walk_region(r, &mut w);
                inside.extend(w.into_iter().map(|(_, o)| o));
            }
        }
        let mut live = Vec::new();
        for &op in &ops {
            for &v in &self.func.ops[op].results {
                let used_after = self
                    .users
                    .get(&v)
                    .is_some_and(|us| us.iter().any(|(u, _)| !inside.contains(u)));
                if used_after {
                    live.push(v);
                }
            }
        }
        let loc = self.func.ops[ops[0]].loc;
        let tys: Vec<TypeId> = live.iter().map(|&v| self.func.value_type(v)).collect();
        let then_r = self.func.new_region(&[]);
        let else_r = self.func.new_region(&[]);
        let y = self
            .func
            .new_op(OpKind::Yield, live.clone(), &[], vec![], loc);
        self.func.regions[then_r].ops = ops;
        self.func.regions[then_r].ops.push(y);
        let mut else_ops = Vec::new();
        let undefs: Vec<Value> = tys
            .iter()
            .map(|&ty| self.emit(OpKind::Undef, vec![], ty, loc, &mut else_ops))
            .collect();
        let ye = self.func.new_op(OpKind::Yield, undefs, &[], vec![], loc);
        else_ops.push(ye);
        self.func.regions[else_r].ops = else_ops;
        let guarded = self
            .func
            .new_op(OpKind::If, vec![flag], &tys, vec![then_r, else_r], loc);
        let results = self.func.ops[guarded].results.clone();
        for (&v, &nv) in live.iter().zip(&results) {
            let us = self.users.get(&v).cloned().unwrap_or_default();
            for (u, i) in us {
                if !inside.contains(&u) {
                    self.func.ops[u].operands[i] = nv;
                }
            }
        }
        self.segments += 1;
        out.push(guarded);
    }
}
