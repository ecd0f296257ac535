//! Loop interchange: a block-level loop whose only work is one `if`, `for`
//! or `while` becomes that op with a block-level loop inside each region.

use super::Distributor;
use crate::error::CpuifyError;
use crate::passes::uniform::Uniformity;
use cucc_ir::edit::{clone_op, replace_all_uses, replace_uses_in_op};
use cucc_ir::{Builder, Op, OpKind, Region, Value};
use std::collections::{HashMap, HashSet};

impl Distributor<'_> {
    /// Interchanges `c` with block-parallel `p` (whose body is the reload
    /// prelude, `c` and `yield`). `c`'s remaining results and carried
    /// values are uniform ([`Distributor::demote`] kept them): they stay
    /// scalars of the interchanged op, computed outside the thread loop when
    /// their ops can be hoisted ([`Distributor::hoist_uniform`]) and passed
    /// out through one cell otherwise. Returns the new inner parallels with
    /// their regions.
    pub(crate) fn interchange(
        &mut self,
        parent: Region,
        p: Op,
        c: Op,
        uniform: &Uniformity,
    ) -> Result<Vec<(Region, Op)>, CpuifyError> {
        let body = self.func.ops[p].body();
        let ops = self.func.regions[body].ops.clone();
        let k = self.position(body, c);
        let prelude: Vec<Op> = ops[..k].to_vec();
        // Ops between `c` and the yield (stores of values the next loop
        // needs) run in a loop of their own after the interchanged op.
        let post: Vec<Op> = ops[k + 1..ops.len().saturating_sub(1)].to_vec();
        let ivs = self.func.regions[body].args.clone();
        let ubs = self.func.ops[p].ubs().to_vec();
        let kind = self.func.ops[c].kind.clone();
        let loc = self.func.ops[c].loc;
        if !matches!(kind, OpKind::If | OpKind::For { .. } | OpKind::While) {
            return Err(self.err(c, "only `if`, `for` and `while` can be interchanged"));
        }
        let operands = self.func.ops[c].operands.clone();
        let result_types: Vec<_> = self.func.ops[c]
            .results
            .iter()
            .map(|&v| self.func.value_type(v))
            .collect();
        let prelude_defs: HashSet<Value> = prelude
            .iter()
            .flat_map(|&o| self.func.ops[o].results.clone())
            .collect();

        // Uniform control values: evaluate the prelude as thread 0 outside.
        let mut pi = self.position(parent, p);
        let mut map0: HashMap<Value, Value> = HashMap::new();
        if operands
            .iter()
            .any(|v| prelude_defs.contains(v) || ivs.contains(v))
        {
            for &iv in &ivs {
                let ty = self.func.value_type(iv);
                let zero = self.at(parent, pi).const_int(ty, 0);
                pi += 1;
                map0.insert(iv, zero);
            }
            for &op in &prelude {
                let cl = clone_op(self.func, op, &mut map0);
                self.func.regions[parent].ops.insert(pi, cl);
                pi += 1;
            }
        }
        let new_operands: Vec<Value> = operands.iter().map(|v| *map0.get(v).unwrap_or(v)).collect();

        let mut inner = Vec::new();
        let mut new_regions = Vec::new();
        let regions = self.func.ops[c].regions.clone();
        for (ri, &r) in regions.iter().enumerate() {
            let r_args = self.func.regions[r].args.clone();
            let r_types: Vec<_> = r_args.iter().map(|&v| self.func.value_type(v)).collect();
            let r2 = self.func.new_region(&r_types);
            let r2_args = self.func.regions[r2].args.clone();
            let iv_types: Vec<_> = ivs.iter().map(|&v| self.func.value_type(v)).collect();
            let q_body = self.func.new_region(&iv_types);
            let fresh = self.func.regions[q_body].args.clone();
            let mut map: HashMap<Value, Value> = HashMap::new();
            for (&a, &b) in r_args.iter().zip(&r2_args) {
                self.func.values[b].name = self.func.values[a].name.clone();
                map.insert(a, b);
            }
            for (&a, &b) in ivs.iter().zip(&fresh) {
                self.func.values[b].name = self.func.values[a].name.clone();
                map.insert(a, b);
            }
            for &op in &prelude {
                let cl = clone_op(self.func, op, &mut map);
                self.func.regions[q_body].ops.push(cl);
            }
            let mut moved = self.func.regions[r].ops.clone();
            let Some(term) = moved.pop() else {
                return Err(self.err(c, "region without a terminator"));
            };
            for &op in &moved {
                replace_uses_in_op(self.func, op, &map);
            }
            self.func.regions[q_body].ops.extend(moved);
            let term_vals: Vec<Value> = self.func.ops[term]
                .operands
                .iter()
                .map(|v| *map.get(v).unwrap_or(v))
                .collect();
            let is_before = kind == OpKind::While && ri == 0;
            let hoisted = self.hoist_uniform(q_body, uniform);
            self.func.regions[r2].ops.extend(hoisted);
            let inside = self.defined_in(q_body);
            // Values the terminator needs that stay inside the loop: every
            // thread stores its (uniform) value to one cell.
            let mut spills = Vec::new();
            let mut helper = None;
            for (i, &v) in term_vals.iter().enumerate() {
                if !inside.contains(&v) {
                    continue;
                }
                let ty = self.func.value_type(v);
                let cell = self.new_cell(ty);
                let end = self.func.regions[q_body].ops.len();
                self.at(q_body, end).store(cell, v);
                if is_before && i == 0 {
                    helper = Some(cell);
                } else {
                    spills.push((i, cell));
                }
            }
            let y = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
            self.func.regions[q_body].ops.push(y);
            let q = self.func.new_op(
                self.func.ops[p].kind.clone(),
                ubs.clone(),
                &[],
                vec![q_body],
                loc,
            );
            self.func.regions[r2].ops.push(q);
            if let (Some(cell), true) = (helper, self.check_barriers) {
                let msg = self.divergence_message(c, "condition");
                self.check_while_condition(r2, q, cell, loc, msg);
            }
            let end = self.func.regions[r2].ops.len();
            let mut b = self.at(r2, end);
            b.set_loc(loc);
            let mut vals = term_vals.clone();
            for &(i, cell) in &spills {
                let ty = b.func.value_type(vals[i]);
                vals[i] = b.load(cell, ty);
            }
            if let Some(cell) = helper {
                let i1 = b.types.i1();
                vals[0] = b.load(cell, i1);
            }
            if is_before {
                b.condition(vals[0], vals[1..].to_vec());
            } else {
                b.yield_(vals);
            }
            inner.push((r2, q));
            new_regions.push(r2);
        }
        let c2 = self.func.new_op(
            kind.clone(),
            new_operands.clone(),
            &result_types,
            new_regions,
            loc,
        );
        let old_results = self.func.ops[c].results.clone();
        let new_results = self.func.ops[c2].results.clone();
        for (&a, &b) in old_results.iter().zip(&new_results) {
            self.func.values[b].name = self.func.values[a].name.clone();
            self.pending.remove(&a);
            replace_all_uses(self.func, a, b);
        }
        let pi = self.position(parent, p);
        self.func.regions[parent].ops[pi] = c2;
        if self.check_barriers && !map0.is_empty() {
            let what = if kind == OpKind::If {
                "condition"
            } else {
                "bounds"
            };
            let msg = self.divergence_message(c, what);
            // A value defined outside the thread loop, or a constant, is
            // the same for every thread: nothing to check.
            let own = self.func.ops[c].controls();
            let checks: Vec<(Value, Value)> = own
                .iter()
                .zip(self.func.ops[c2].controls())
                .map(|(&own, &uniform)| (own, uniform))
                .filter(|&(own, uniform)| {
                    let same_const = self
                        .func
                        .const_bits(own)
                        .is_some_and(|c| self.func.const_bits(uniform) == Some(c));
                    own != uniform && !same_const
                })
                .collect();
            if !checks.is_empty() {
                self.check_uniform(parent, pi, &prelude, &ivs, &ubs, &checks, loc, msg);
            }
        }
        if !post.is_empty() {
            let iv_types: Vec<_> = ivs.iter().map(|&v| self.func.value_type(v)).collect();
            let t_body = self.func.new_region(&iv_types);
            let fresh = self.func.regions[t_body].args.clone();
            let mut map: HashMap<Value, Value> = ivs.iter().copied().zip(fresh).collect();
            for &op in &prelude {
                let cl = clone_op(self.func, op, &mut map);
                self.func.regions[t_body].ops.push(cl);
            }
            for &op in &post {
                replace_uses_in_op(self.func, op, &map);
            }
            self.func.regions[t_body].ops.extend(post);
            let y = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
            self.func.regions[t_body].ops.push(y);
            let t = self
                .func
                .new_op(self.func.ops[p].kind.clone(), ubs, &[], vec![t_body], loc);
            self.func.regions[parent].ops.insert(pi + 1, t);
        }
        Ok(inner)
    }
}

impl Distributor<'_> {
    /// The trap message for a divergent barrier around `c`.
    fn divergence_message(&self, c: Op, what: &str) -> String {
        format!(
            "divergent barrier: threads of a block disagree on the {what} of the `{}` containing a barrier (kernel `{}`, {})",
            self.func.ops[c].kind.mnemonic(),
            self.func.name,
            self.err(c, "").location
        )
    }

    /// Inserts, at `at` of `parent`, a thread loop that re-evaluates the
    /// prelude per thread and traps if any `(own, uniform)` pair differs.
    #[allow(clippy::too_many_arguments)]
    fn check_uniform(
        &mut self,
        parent: Region,
        at: usize,
        prelude: &[Op],
        ivs: &[Value],
        ubs: &[Value],
        checks: &[(Value, Value)],
        loc: cucc_ir::Loc,
        message: String,
    ) {
        let iv_types: Vec<_> = ivs.iter().map(|&v| self.func.value_type(v)).collect();
        let body = self.func.new_region(&iv_types);
        let fresh = self.func.regions[body].args.clone();
        let mut map: HashMap<Value, Value> = ivs.iter().copied().zip(fresh).collect();
        for &op in prelude {
            let cl = clone_op(self.func, op, &mut map);
            self.func.regions[body].ops.push(cl);
        }
        let end = self.func.regions[body].ops.len();
        let mut b = self.at(body, end);
        b.set_loc(loc);
        for &(own, uniform) in checks {
            let own = *map.get(&own).unwrap_or(&own);
            let differs = b.cmp(cucc_ir::CmpPred::Ne, own, uniform);
            trap_if(&mut b, differs, message.clone());
        }
        b.yield_(vec![]);
        let kind = OpKind::Parallel {
            level: self.thread_level(),
        };
        let q = self.func.new_op(kind, ubs.to_vec(), &[], vec![body], loc);
        self.func.regions[parent].ops.insert(at, q);
    }

    /// Around thread loop `q` (in `region`) whose threads all store their
    /// condition in `cell`: track whether any and all threads said true,
    /// and trap after the loop if they disagree.
    fn check_while_condition(
        &mut self,
        region: Region,
        q: Op,
        cell: Value,
        loc: cucc_ir::Loc,
        message: String,
    ) {
        let i1 = self.types.i1();
        let any = self.new_cell(i1);
        let all = self.new_cell(i1);
        let qi = self.position(region, q);
        {
            let mut b = self.at(region, qi);
            b.set_loc(loc);
            let f = b.bool(false);
            let t = b.bool(true);
            b.store(any, f);
            b.store(all, t);
        }
        let q_body = self.func.ops[q].body();
        let end = self.func.regions[q_body].ops.len().saturating_sub(1);
        {
            let mut b = self.at(q_body, end);
            b.set_loc(loc);
            let i1 = b.types.i1();
            let c = b.load(cell, i1);
            let a = b.load(any, i1);
            let na = b.binary(cucc_ir::BinOp::Or, a, c);
            b.store(any, na);
            let l = b.load(all, i1);
            let nl = b.binary(cucc_ir::BinOp::And, l, c);
            b.store(all, nl);
        }
        let qi = self.position(region, q);
        let mut b = self.at(region, qi + 1);
        b.set_loc(loc);
        let i1 = b.types.i1();
        let a = b.load(any, i1);
        let l = b.load(all, i1);
        let differs = b.cmp(cucc_ir::CmpPred::Ne, a, l);
        trap_if(&mut b, differs, message);
    }

    /// The level of the thread loops being split.
    fn thread_level(&self) -> cucc_ir::Level {
        match self.mode {
            super::Mode::Block => cucc_ir::Level::Block,
            super::Mode::Lane { .. } => cucc_ir::Level::Lane,
        }
    }
}

/// Makes the code `b` builds trap with `message` where `differs` holds: the
/// run-time check that a value assumed uniform over the threads is.
fn trap_if(b: &mut Builder<'_>, differs: Value, message: String) {
    b.if_then(differs, |b| {
        b.op(divergence_trap(message), vec![], &[], vec![]);
    });
}

/// The trap a failed uniformity check runs (not an assertion).
pub(super) fn divergence_trap(message: String) -> OpKind {
    OpKind::Trap {
        message,
        assert: false,
    }
}
