//! Parallel-loop fission: one block-level loop becomes two, run one after
//! the other, with the values that cross the cut stored per thread or
//! recomputed.

use super::mincut::min_vertex_cut;
use super::Distributor;
use crate::error::CpuifyError;
use cucc_ir::edit::{clone_op, replace_uses_in_op};
use cucc_ir::{Op, OpKind, Region, Value};
use std::collections::{HashMap, HashSet};

impl Distributor<'_> {
    /// Splits block-parallel `p` (in `parent`) before its `at`-th op (which
    /// is dropped when `drop` is set: the barrier being removed). `p` keeps
    /// the ops before; a new parallel inserted after `p` gets the rest.
    /// Returns (new parallel, values stored, values recomputed).
    pub(crate) fn split(
        &mut self,
        parent: Region,
        p: Op,
        at: usize,
        drop: bool,
    ) -> Result<(Op, usize, usize), CpuifyError> {
        let body = self.func.ops[p].body();
        let ops = self.func.regions[body].ops.clone();
        let ivs = self.func.regions[body].args.clone();
        let ubs = self.func.ops[p].ubs().to_vec();
        let first: Vec<Op> = ops[..at].to_vec();
        let second: Vec<Op> = ops[at + usize::from(drop)..].to_vec();
        if second.is_empty() {
            return Err(self.err(p, "parallel body without a terminator"));
        }

        // Values defined at the top level of `first`, and where.
        let mut defined: HashMap<Value, (usize, Op)> = HashMap::new();
        for (i, &op) in first.iter().enumerate() {
            for &r in &self.func.ops[op].results {
                defined.insert(r, (i, op));
            }
        }
        // Crossing values: used anywhere in `second`.
        let mut sinks: Vec<Value> = Vec::new();
        let mut seen = HashSet::new();
        for &op in &second {
            let mut walk = vec![(body, op)];
            for &r in &self.func.ops[op].regions {
                self.func.walk_region(r, &mut walk);
            }
            for (_, o) in walk {
                for &v in &self.func.ops[o].operands {
                    if defined.contains_key(&v) && !self.pending.contains(&v) && seen.insert(v) {
                        sinks.push(v);
                    }
                }
            }
        }

        // The graph of values the sinks depend on within `first`.
        let mut nodes: Vec<Value> = Vec::new();
        let mut index: HashMap<Value, usize> = HashMap::new();
        let mut stack = sinks.clone();
        while let Some(v) = stack.pop() {
            if index.contains_key(&v) {
                continue;
            }
            index.insert(v, nodes.len());
            nodes.push(v);
            if let Some(&(_, op)) = defined.get(&v) {
                for o in self.inputs(op) {
                    if defined.contains_key(&o) {
                        stack.push(o);
                    }
                }
            }
        }
        let mut deps = Vec::new();
        let mut sources = Vec::new();
        for (i, &v) in nodes.iter().enumerate() {
            let Some(&(_, op)) = defined.get(&v) else {
                continue;
            };
            let reload = self.reloads.contains(&op);
            if !(self.recomputable(op) || reload) {
                sources.push(i);
            }
            for o in self.inputs(op) {
                if let Some(&j) = index.get(&o) {
                    deps.push((j, i));
                }
            }
        }
        let sink_ids: Vec<usize> = sinks.iter().map(|v| index[v]).collect();
        let cut: HashSet<Value> = min_vertex_cut(nodes.len(), &deps, &sources, &sink_ids)
            .into_iter()
            .map(|i| nodes[i])
            .collect();

        // Everything between the cut and the sinks is recomputed.
        let mut recompute: HashSet<Value> = HashSet::new();
        let mut stack: Vec<Value> = sinks.iter().copied().filter(|v| !cut.contains(v)).collect();
        while let Some(v) = stack.pop() {
            if cut.contains(&v) || !recompute.insert(v) {
                continue;
            }
            if let Some(&(_, op)) = defined.get(&v) {
                for o in self.inputs(op) {
                    if defined.contains_key(&o) {
                        stack.push(o);
                    }
                }
            }
        }
        let mut recompute_ops: Vec<(usize, Op)> = recompute
            .iter()
            .filter_map(|v| defined.get(v).copied())
            .collect();
        recompute_ops.sort();
        recompute_ops.dedup();
        let mut stored: Vec<Value> = cut.iter().copied().collect();
        stored.sort_by_key(|v| defined.get(v).map(|d| d.0));

        // First loop: the ops before, then the stores, then a fresh yield.
        self.func.regions[body].ops = first;
        let mut caches = Vec::new();
        for &v in &stored {
            let ty = self.func.value_type(v);
            let cache = self.new_cache(ty);
            caches.push(cache);
        }
        let end = self.func.regions[body].ops.len();
        let (lin, mut at_end) = if stored.is_empty() {
            (ivs[0], 0)
        } else {
            self.lin_at(body, end, p)
        };
        for (&v, &cache) in stored.iter().zip(&caches) {
            let ty = self.func.value_type(v);
            let mut b = self.at(body, end + at_end);
            let addr = b.ptr_index(cache, lin, ty);
            b.store(addr, v);
            at_end += 2;
        }
        let loc = self.func.ops[p].loc;
        let y = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        self.func.regions[body].ops.push(y);

        // Second loop: fresh ivs, reloads, recomputation, then the ops after.
        let iv_types: Vec<_> = ivs.iter().map(|&v| self.func.value_type(v)).collect();
        let body2 = self.func.new_region(&iv_types);
        let ivs2 = self.func.regions[body2].args.clone();
        let mut map: HashMap<Value, Value> = HashMap::new();
        for (&old, &new) in ivs.iter().zip(&ivs2) {
            self.func.values[new].name = self.func.values[old].name.clone();
            map.insert(old, new);
        }
        let (lin2, mut n) = if stored.is_empty() {
            (ivs2[0], 0)
        } else {
            self.lin_of(body2, 0, &ivs2, &ubs)
        };
        for (&v, &cache) in stored.iter().zip(&caches) {
            let ty = self.func.value_type(v);
            let mut b = self.at(body2, n);
            let addr = b.ptr_index(cache, lin2, ty);
            let l = b.load(addr, ty);
            n += 2;
            if let Some(op) = self.func.defining_op(l) {
                self.reloads.insert(op);
            }
            self.func.values[l].name = self.func.values[v].name.clone();
            map.insert(v, l);
        }
        for &(_, op) in &recompute_ops {
            let c = clone_op(self.func, op, &mut map);
            if self.reloads.contains(&op) {
                self.reloads.insert(c);
            }
            self.func.regions[body2].ops.insert(n, c);
            n += 1;
        }
        for &op in &second {
            replace_uses_in_op(self.func, op, &map);
        }
        self.func.regions[body2].ops.extend(second);
        let kind = self.func.ops[p].kind.clone();
        let p2 = self.func.new_op(kind, ubs, &[], vec![body2], loc);
        let pi = self.position(parent, p);
        self.func.regions[parent].ops.insert(pi + 1, p2);
        Ok((p2, stored.len(), recompute_ops.len()))
    }
}

impl Distributor<'_> {
    /// The values `op` reads: its operands and those of the ops inside it.
    pub(super) fn inputs(&self, op: Op) -> Vec<Value> {
        let mut out = self.func.ops[op].operands.clone();
        let mut walk = Vec::new();
        for &r in &self.func.ops[op].regions {
            self.func.walk_region(r, &mut walk);
        }
        for (_, o) in walk {
            out.extend(self.func.ops[o].operands.iter().copied());
        }
        out
    }

    /// True if `op` may be executed again after the barrier with the same
    /// result: pure ops, and `if`s (`min`/`max`, clamps, `?:`) whose
    /// regions hold only pure ops (loads may see memory written at the
    /// barrier).
    pub(super) fn recomputable(&self, op: Op) -> bool {
        let data = &self.func.ops[op];
        if data.regions.is_empty() {
            return data.kind.is_pure();
        }
        data.kind == OpKind::If
            && data.regions.iter().all(|&r| {
                self.func.regions[r].ops.iter().all(|&o| {
                    self.func.ops[o].kind.is_pure() || self.func.ops[o].kind == OpKind::Yield
                })
            })
    }
}
