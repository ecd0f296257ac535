//! Values the same for every lane of a warp, computed once per warp.
//!
//! In a warp-per-row kernel each lane computes its row, `tid / 32`, and
//! loads the row's bounds from it; the lane loop then repeats that division
//! and those loads 32 times and the C compiler, not knowing they agree,
//! keeps them per lane. Such a value takes at most two values across a warp
//! (monotone in the lane, changing by at most one: `monotone.rs`), and it is
//! the same in every lane exactly when it is at the first and the last. A
//! lane loop whose loads or loops depend on such values is versioned: when
//! the two ends agree (and the monotonicity checks hold), a copy runs with
//! the values computed once before it; otherwise the loop as it was.

use super::{monotone, Distributor};
use cucc_ir::edit::{clone_op, replace_uses_in_region};
use cucc_ir::{BinOp, Op, OpKind, Region, Value, ValueDef};
use std::collections::{HashMap, HashSet};

impl Distributor<'_> {
    /// Versions the lane loops under `region` on their warp-uniform values.
    /// Returns how many values are computed once per warp.
    pub(crate) fn hoist_warp_uniform(&mut self, region: Region) -> usize {
        let loops = self.lane_loops(region);
        let mut hoisted = 0;
        for (parent, p) in loops {
            hoisted += self.hoist_in_lane_loop(parent, p);
        }
        hoisted
    }

    fn hoist_in_lane_loop(&mut self, parent: Region, p: Op) -> usize {
        let body = self.func.ops[p].body();
        let Some(&lane) = self.func.regions[body].args.first() else {
            return 0;
        };
        let lanes = self.func.ops[p].ubs()[0];
        let top: Vec<Op> = self.func.regions[body].ops.clone();
        let mut cands = self.two_valued_rounds(body, lane, &top);
        if cands.is_empty() {
            return 0;
        }
        let cand_set: HashSet<Value> = cands.iter().map(|c| c.0).collect();
        let worth = self.feeds_loads_or_loops(body, &cand_set);
        let beyond = self.read_beyond_candidates(body, &cand_set);
        let mut keep: HashSet<Value> = cand_set
            .iter()
            .copied()
            .filter(|v| worth.contains(v) && beyond.contains(v))
            .collect();
        // A kept candidate proved two-valued with earlier ones taken as
        // constant needs their checks too.
        let mut work: Vec<Value> = keep.iter().copied().collect();
        while let Some(v) = work.pop() {
            for d in self.candidates_read_by(body, v, &cand_set) {
                if keep.insert(d) {
                    work.push(d);
                }
            }
        }
        cands.retain(|(v, _)| keep.contains(v));
        if cands.is_empty() {
            return 0;
        }
        // The union of the checks.
        let mut check = monotone::EndpointCheck::default();
        for (_, c) in &cands {
            for w in &c.witnesses {
                if !check.witnesses.contains(w) {
                    check.witnesses.push(*w);
                }
            }
            for pin in &c.pins {
                if !check.pins.contains(pin) {
                    check.pins.push(*pin);
                }
            }
            for pre in &c.preconditions {
                if !check.preconditions.contains(pre) {
                    check.preconditions.push(*pre);
                }
            }
        }
        // The body ops computing them, in body order.
        let mut roots: Vec<Value> = check.pins.clone();
        roots.extend(check.witnesses.iter().map(|w| w.0));
        roots.extend(check.preconditions.iter().map(|p| p.0));
        let slice = self.top_level_slice(body, &roots);
        let loc = self.func.ops[p].loc;
        let at = self.position(parent, p);
        let (zero, last) = {
            let mut b = self.at(parent, at);
            b.set_loc(loc);
            let i32t = b.types.i32();
            let zero = b.const_int(i32t, 0);
            let one = b.i32(1);
            (zero, b.binary(BinOp::Sub, lanes, one))
        };
        let mut at = self.position(parent, p);
        let mut map0: HashMap<Value, Value> = HashMap::from([(lane, zero)]);
        let mut map_last: HashMap<Value, Value> = HashMap::from([(lane, last)]);
        for map in [&mut map0, &mut map_last] {
            for &op in &slice {
                let cl = clone_op(self.func, op, map);
                self.func.regions[parent].ops.insert(at, cl);
                at += 1;
            }
        }
        let ends = |v: Value| (*map0.get(&v).unwrap_or(&v), *map_last.get(&v).unwrap_or(&v));
        let mut b = self.at(parent, at);
        b.set_loc(loc);
        let ok = check.emit_holds(&mut b, ends);
        // The fast copy reads the lane-0 values.
        let mut map = HashMap::new();
        let fast = clone_op(self.func, p, &mut map);
        let fast_body = self.func.ops[fast].body();
        let renames: HashMap<Value, Value> = cands
            .iter()
            .map(|&(v, _)| (*map.get(&v).unwrap_or(&v), ends(v).0))
            .collect();
        replace_uses_in_region(self.func, fast_body, &renames);
        let then_r = self.func.new_region(&[]);
        let else_r = self.func.new_region(&[]);
        let y1 = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        let y2 = self.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        self.func.regions[then_r].ops.extend([fast, y1]);
        let pos = self.position(parent, p);
        self.func.regions[else_r].ops.extend([p, y2]);
        let version = self
            .func
            .new_op(OpKind::If, vec![ok], &[], vec![then_r, else_r], loc);
        self.func.regions[parent].ops[pos] = version;
        cands.len()
    }

    /// The top-level values of a lane loop's `body` (ops `top`) that take at
    /// most two values across a warp, with their checks, found in rounds:
    /// each round's analysis takes the values found before as constant
    /// (the fast copy runs only when their checks hold, and then they are),
    /// so a row `(tid + fix) >> 5` whose sign fix-up `fix` was found first
    /// (nvcc's `tid / 32`) is found next. A later value's checks hold only
    /// with the earlier values' checks, which the caller keeps with it.
    fn two_valued_rounds(
        &self,
        body: Region,
        lane: Value,
        top: &[Op],
    ) -> Vec<(Value, monotone::EndpointCheck)> {
        let mut inside = self.defined_in(body);
        let mut cands: Vec<(Value, monotone::EndpointCheck)> = Vec::new();
        // Each round moves at least one value out of `inside`; the bound
        // keeps long dependency chains cheap.
        for _ in 0..4 {
            let mut found = Vec::new();
            for &op in top {
                for &v in &self.func.ops[op].results {
                    if !inside.contains(&v) {
                        continue;
                    }
                    if let Some(check) =
                        monotone::two_valued(self.func, self.types, lane, &inside, v)
                    {
                        found.push((v, check));
                    }
                }
            }
            if found.is_empty() {
                break;
            }
            for (v, _) in &found {
                inside.remove(v);
            }
            cands.extend(found);
        }
        cands
    }

    /// The members of `cands` other than `v` that `v`'s computation in
    /// `body` reads, through the body's ops (nested regions included).
    fn candidates_read_by(&self, body: Region, v: Value, cands: &HashSet<Value>) -> Vec<Value> {
        let inside = self.defined_in(body);
        let mut out = Vec::new();
        let mut seen: HashSet<Value> = HashSet::from([v]);
        let mut work = vec![v];
        while let Some(x) = work.pop() {
            let ValueDef::Result { op, .. } = self.func.values[x].def else {
                continue;
            };
            let mut ops = vec![(body, op)];
            for &r in &self.func.ops[op].regions {
                self.func.walk_region(r, &mut ops);
            }
            for &(_, o) in &ops {
                for &y in &self.func.ops[o].operands {
                    if !inside.contains(&y) || !seen.insert(y) {
                        continue;
                    }
                    if cands.contains(&y) {
                        out.push(y);
                    } else {
                        work.push(y);
                    }
                }
            }
        }
        out
    }

    /// The candidates among `cands` on which a load's address or a loop
    /// of `body` depends (through the body's top-level ops).
    fn feeds_loads_or_loops(&self, body: Region, cands: &HashSet<Value>) -> HashSet<Value> {
        let mut out = HashSet::new();
        // depends[v] = candidates v is computed from.
        let mut depends: HashMap<Value, HashSet<Value>> = HashMap::new();
        let mut walk = Vec::new();
        self.func.walk_region(body, &mut walk);
        for &(_, op) in &walk {
            let data = &self.func.ops[op];
            let mut from: HashSet<Value> = HashSet::new();
            for o in &data.operands {
                if cands.contains(o) {
                    from.insert(*o);
                }
                if let Some(d) = depends.get(o) {
                    from.extend(d.iter().copied());
                }
            }
            match data.kind {
                OpKind::Load { .. } | OpKind::For { .. } | OpKind::While => {
                    out.extend(from.iter().copied());
                }
                _ => {}
            }
            for &r in &data.results {
                depends.insert(r, from.clone());
            }
        }
        out
    }

    /// The candidates read by some top-level op of `body` (or an op nested
    /// in it) that is not itself a candidate's definition: the values the
    /// rest of the body uses, not only other candidates.
    fn read_beyond_candidates(&self, body: Region, cands: &HashSet<Value>) -> HashSet<Value> {
        let mut out = HashSet::new();
        for &op in &self.func.regions[body].ops {
            let results = &self.func.ops[op].results;
            if !results.is_empty() && results.iter().all(|r| cands.contains(r)) {
                continue;
            }
            let mut w = vec![(body, op)];
            for &r in &self.func.ops[op].regions {
                self.func.walk_region(r, &mut w);
            }
            for &(_, o) in &w {
                for v in &self.func.ops[o].operands {
                    if cands.contains(v) {
                        out.insert(*v);
                    }
                }
            }
        }
        out
    }

    /// The top-level ops of `body` that compute `roots`, in body order.
    fn top_level_slice(&self, body: Region, roots: &[Value]) -> Vec<Op> {
        let top: HashSet<Op> = self.func.regions[body].ops.iter().copied().collect();
        let mut need: HashSet<Op> = HashSet::new();
        let mut work: Vec<Value> = roots.to_vec();
        while let Some(v) = work.pop() {
            let ValueDef::Result { op, .. } = self.func.values[v].def else {
                continue;
            };
            if !top.contains(&op) || !need.insert(op) {
                continue;
            }
            let mut w = vec![(body, op)];
            for &r in &self.func.ops[op].regions {
                self.func.walk_region(r, &mut w);
            }
            for &(_, o) in &w {
                work.extend(self.func.ops[o].operands.iter().copied());
            }
        }
        self.func.regions[body]
            .ops
            .iter()
            .copied()
            .filter(|o| need.contains(o))
            .collect()
    }
}
