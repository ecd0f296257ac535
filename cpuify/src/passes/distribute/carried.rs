//! Carried values recomputed after a loop instead of kept per thread.
//!
//! A loop interchanged with its thread loop keeps each varying carried
//! value in a per-thread array, stored every trip. Some such values are
//! only ever read after the loop, and each trip computes them afresh from
//! uniform values: a flag like `computed = tx >= i + 1 && tx < n - i` set
//! in every step of a time loop and tested once at the end. The loop then
//! carries the uniform inputs instead — their values on the last trip,
//! scalars outside the thread loops — and whether it ran at all, and the
//! value is recomputed from them after the loop.

use super::Distributor;
use crate::passes::uniform::Uniformity;
use cucc_ir::edit::{add_region_arg, add_result, clone_op, replace_all_uses, uses};
use cucc_ir::{Op, OpKind, Region, Value, ValueDef};
use std::collections::{HashMap, HashSet};

/// One carried value to recompute.
struct Candidate {
    /// The loop result it ends as.
    result: Value,
    /// What the last trip yields for it.
    next: Value,
    /// Its value if the body never runs.
    init: Value,
    /// The carried slot to remove (a `while`'s before-argument or a
    /// `for`'s carried index).
    slot: usize,
    /// For a `while`, the after-argument / result slot.
    exit: usize,
}

impl Distributor<'_> {
    /// Rewrites the carried values of `while`/`for` `c` (at the top level of
    /// thread loop `p`) that are varying, whose argument the body never
    /// reads, and whose next value is a pure function of uniform region
    /// arguments and values from before the loop: the loop carries the last
    /// values of those arguments and a "ran" flag instead, and the value is
    /// recomputed after the loop. Returns how many were rewritten.
    pub(crate) fn recompute_carried(&mut self, p: Op, c: Op, uniform: &Uniformity) -> usize {
        let kind = self.func.ops[c].kind.clone();
        let (body, args_from) = match kind {
            OpKind::While => (self.func.ops[c].after(), 0),
            OpKind::For { .. } => (self.func.ops[c].body(), 0),
            _ => return 0,
        };
        if self.func.ops[c]
            .regions
            .iter()
            .any(|&r| self.terminator(r).is_none())
        {
            return 0;
        }
        let used = uses(self.func);
        let cands = self.carried_candidates(c, uniform, &used);
        if cands.is_empty() {
            return 0;
        }
        // The body arguments the recomputations read, in index order.
        let body_args = self.func.regions[body].args.clone();
        let mut needed: Vec<usize> = Vec::new();
        let mut chains: Vec<Vec<Op>> = Vec::new();
        for cand in &cands {
            let (ops, leaves) = self.chain(body, cand.next);
            for (j, a) in body_args.iter().enumerate().skip(args_from) {
                if leaves.contains(a) && !needed.contains(&j) {
                    needed.push(j);
                }
            }
            chains.push(ops);
        }
        needed.sort_unstable();

        // New carried slots: each needed argument's last value, and a flag.
        let pbody = self.func.ops[p].body();
        let at = self.position(pbody, c);
        let i1 = self.types.i1();
        let loc = self.func.ops[c].loc;
        let mut inits = Vec::new();
        for &j in &needed {
            let ty = self.func.value_type(body_args[j]);
            inits.push(self.constant(pbody, at, ty, 0, loc));
        }
        inits.push(self.constant(pbody, at, i1, 0, loc));
        let Some(body_term) = self.terminator(body) else {
            return 0;
        };
        let n_body = self.func.regions[body].ops.len();
        let ran = self.constant(body, n_body - 1, i1, 1, loc);
        let mut yields: Vec<Value> = needed.iter().map(|&j| body_args[j]).collect();
        yields.push(ran);
        let mut exits = Vec::new();
        match kind {
            OpKind::While => {
                let before = self.func.ops[c].before();
                let Some(cond) = self.terminator(before) else {
                    return 0;
                };
                for (&init, &y) in inits.iter().zip(&yields) {
                    let ty = self.func.value_type(y);
                    self.func.ops[c].operands.push(init);
                    let b = add_region_arg(self.func, before, ty);
                    self.func.ops[body_term].operands.push(y);
                    self.func.ops[cond].operands.push(b);
                    add_region_arg(self.func, body, ty);
                    exits.push(add_result(self.func, c, ty));
                }
            }
            _ => {
                for (&init, &y) in inits.iter().zip(&yields) {
                    let ty = self.func.value_type(y);
                    self.func.ops[c].operands.push(init);
                    add_region_arg(self.func, body, ty);
                    self.func.ops[body_term].operands.push(y);
                    exits.push(add_result(self.func, c, ty));
                }
            }
        }
        let Some(&ran_exit) = exits.last() else {
            return 0;
        };

        // After the loop: `ran ? next(last arguments) : init`.
        let mut at = self.position(pbody, c) + 1;
        for (cand, ops) in cands.iter().zip(&chains) {
            let mut map: HashMap<Value, Value> = HashMap::new();
            for (k, &j) in needed.iter().enumerate() {
                map.insert(body_args[j], exits[k]);
            }
            for &op in ops {
                let cl = clone_op(self.func, op, &mut map);
                self.func.regions[pbody].ops.insert(at, cl);
                at += 1;
            }
            let next = *map.get(&cand.next).unwrap_or(&cand.next);
            let ty = self.func.value_type(cand.result);
            let sel = self.func.new_op(
                OpKind::Select,
                vec![ran_exit, next, cand.init],
                &[ty],
                vec![],
                loc,
            );
            self.func.regions[pbody].ops.insert(at, sel);
            at += 1;
            let v = self.func.ops[sel].results[0];
            replace_all_uses(self.func, cand.result, v);
        }
        self.drop_slots(c, &cands);
        cands.len()
    }

    /// The carried values of `c` that [`Distributor::recompute_carried`]
    /// can rewrite.
    fn carried_candidates(
        &self,
        c: Op,
        uniform: &Uniformity,
        used: &HashMap<Value, Vec<(Op, usize)>>,
    ) -> Vec<Candidate> {
        let data = &self.func.ops[c];
        let unused = |v: &Value| !used.contains_key(v);
        let mut out = Vec::new();
        match data.kind {
            OpKind::While => {
                let (before, after) = (data.before(), data.after());
                let bargs = &self.func.regions[before].args;
                let aargs = &self.func.regions[after].args;
                let (Some(cond), Some(term)) = (self.terminator(before), self.terminator(after))
                else {
                    return out;
                };
                let vals = self.func.ops[cond].values();
                let ys = &self.func.ops[term].operands;
                for (e, &r) in data.results.iter().enumerate() {
                    let (Some(&v), Some(&a)) = (vals.get(e), aargs.get(e)) else {
                        continue;
                    };
                    let Some(k) = bargs.iter().position(|&b| b == v) else {
                        continue;
                    };
                    // The before-argument only flows out through `condition`.
                    let only_exit = used.get(&v).is_some_and(|u| u == &[(cond, e + 1)]);
                    if uniform.is_uniform(r) || !unused(&a) || !only_exit {
                        continue;
                    }
                    let (Some(&next), Some(&init)) = (ys.get(k), data.inits().get(k)) else {
                        continue;
                    };
                    if self.recomputable_from_uniform(after, next, uniform) {
                        out.push(Candidate {
                            result: r,
                            next,
                            init,
                            slot: k,
                            exit: e,
                        });
                    }
                }
            }
            OpKind::For { .. } => {
                let body = data.body();
                let args = &self.func.regions[body].args;
                let Some(term) = self.terminator(body) else {
                    return out;
                };
                let ys = &self.func.ops[term].operands;
                for (k, &r) in data.results.iter().enumerate() {
                    let (Some(&a), Some(&next), Some(&init)) =
                        (args.get(k + 1), ys.get(k), data.inits().get(k))
                    else {
                        continue;
                    };
                    if uniform.is_uniform(r) || !unused(&a) {
                        continue;
                    }
                    if self.recomputable_from_uniform(body, next, uniform) {
                        out.push(Candidate {
                            result: r,
                            next,
                            init,
                            slot: k,
                            exit: k,
                        });
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// True if `v` (yielded at the end of `body`) is computed by
    /// recomputable ops of `body` from uniform arguments of `body` and
    /// values defined outside it, and is not a constant-free copy of a
    /// varying value from outside (which needs no rewrite to be cheap).
    fn recomputable_from_uniform(&self, body: Region, v: Value, uniform: &Uniformity) -> bool {
        let top: HashSet<Op> = self.func.regions[body].ops.iter().copied().collect();
        if !self.func.defining_op(v).is_some_and(|o| top.contains(&o)) {
            return false;
        }
        let inner = self.defined_in(body);
        let mut stack = vec![v];
        let mut seen = HashSet::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) || !inner.contains(&x) {
                continue;
            }
            match self.func.values[x].def {
                // Arguments of regions nested in an op of the chain are
                // that op's own (`recomputable` admits none anyway).
                ValueDef::Arg { region, .. } => {
                    if region == body && !uniform.is_uniform(x) {
                        return false;
                    }
                }
                // Values defined inside an op of the chain are its own.
                ValueDef::Result { op, .. } if top.contains(&op) => {
                    if !self.recomputable(op) {
                        return false;
                    }
                    stack.extend(self.inputs(op));
                }
                ValueDef::Result { .. } => {}
            }
        }
        true
    }

    /// The ops of `body` (in order) that compute `v`, and the arguments of
    /// `body` and outside values they read.
    fn chain(&self, body: Region, v: Value) -> (Vec<Op>, HashSet<Value>) {
        let top: HashSet<Op> = self.func.regions[body].ops.iter().copied().collect();
        let mut ops = HashSet::new();
        let mut leaves = HashSet::new();
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            match self.func.defining_op(x) {
                Some(op) if top.contains(&op) => {
                    if ops.insert(op) {
                        stack.extend(self.inputs(op));
                    }
                }
                _ => {
                    leaves.insert(x);
                }
            }
        }
        let ordered = self.func.regions[body]
            .ops
            .iter()
            .copied()
            .filter(|o| ops.contains(o))
            .collect();
        (ordered, leaves)
    }

    /// Removes the rewritten slots of `c` (their results have no uses left,
    /// their arguments never had any) and renumbers what remains.
    fn drop_slots(&mut self, c: Op, cands: &[Candidate]) {
        let mut slots: Vec<usize> = cands.iter().map(|k| k.slot).collect();
        let mut exits: Vec<usize> = cands.iter().map(|k| k.exit).collect();
        slots.sort_unstable();
        exits.sort_unstable();
        match self.func.ops[c].kind {
            OpKind::While => {
                let (before, after) = (self.func.ops[c].before(), self.func.ops[c].after());
                let (Some(cond), Some(yield_op)) =
                    (self.terminator(before), self.terminator(after))
                else {
                    return;
                };
                for &k in slots.iter().rev() {
                    self.func.ops[c].remove_init(k);
                    self.func.regions[before].args.remove(k);
                    self.func.ops[yield_op].remove_value(k);
                }
                for &e in exits.iter().rev() {
                    self.func.ops[cond].remove_value(e);
                    self.func.regions[after].args.remove(e);
                    self.func.ops[c].results.remove(e);
                }
            }
            _ => {
                let body = self.func.ops[c].body();
                let Some(yield_op) = self.terminator(body) else {
                    return;
                };
                for &k in slots.iter().rev() {
                    self.func.ops[c].remove_init(k);

                    self.func.regions[body].args.remove(k + 1);
                    self.func.ops[yield_op].remove_value(k);
                    self.func.ops[c].results.remove(k);
                }
            }
        }
        let results = self.func.ops[c].results.clone();
        for (i, r) in results.into_iter().enumerate() {
            self.func.values[r].def = ValueDef::Result {
                op: c,
                index: i as u32,
            };
        }
        for region in self.func.ops[c].regions.clone() {
            let args = self.func.regions[region].args.clone();
            for (i, a) in args.into_iter().enumerate() {
                self.func.values[a].def = ValueDef::Arg {
                    region,
                    index: i as u32,
                };
            }
        }
    }

    /// The last op of `region` (its terminator).
    fn terminator(&self, region: Region) -> Option<Op> {
        self.func.regions[region].ops.last().copied()
    }

    /// A constant of type `ty` inserted at `index` of `region`.
    fn constant(
        &mut self,
        region: Region,
        index: usize,
        ty: cucc_ir::TypeId,
        bits: u64,
        loc: cucc_ir::Loc,
    ) -> Value {
        let op = self
            .func
            .new_op(OpKind::Const { bits }, vec![], &[ty], vec![], loc);
        self.func.regions[region].ops.insert(index, op);
        self.func.ops[op].results[0]
    }
}
