//! Loops as closed routes, and fan-out of multiply-used streams.

use std::collections::{HashMap, HashSet};

use cucc_ir::{Function, Op, OpKind, Region, Value};

use super::{defs_of, uses_of, GidState, LoopInfo, Lowerer, Val, R};
use crate::graph::{EdgeId, NodeId, NodeKind, Operand, Ty};

/// A do-while loop lowered test-first (`Lowerer::test_first`).
struct TestFirst {
    /// Ops computing the condition from the next values.
    cond_ops: HashSet<Op>,
    /// Ops computing the next values sent round from before the split.
    pre_ops: HashSet<Op>,
    /// Ops computing the next values after the split.
    post_ops: HashSet<Op>,
    /// Per carried value: its current value rides through the split and
    /// the next one is computed on the taken side (its exit value is used
    /// after the loop and its next value needs no other carried value).
    post: Vec<bool>,
    /// Per carried value: its exit value is used after the loop.
    live_out: Vec<bool>,
}

/// The lowerer's state, kept to undo a trial lowering.
struct Snapshot {
    g: crate::graph::Graph,
    env: HashMap<Value, Val>,
    loops: Vec<LoopInfo>,
    gid: GidState,
    n_inputs: usize,
    n_outputs: usize,
    built: HashMap<super::OpKey, EdgeId>,
    depth: u32,
    loop_depth: u32,
    guard: Option<Val>,
}

/// Whether every op (and everything nested in it) only computes.
fn only_computes(f: &cucc_ir::Function, ops: &[Op]) -> bool {
    ops.iter().all(|&o| {
        let d = &f.ops[o];
        let ok = super::computes(&d.kind) || d.kind == OpKind::Condition;
        ok && d
            .regions
            .iter()
            .all(|r| only_computes(f, &f.regions[*r].ops))
    })
}

/// An op on carried values whose counterpart on the next values exists:
/// it becomes a carried lane.
struct Rotation {
    /// The op on this iteration's values (skipped in the body).
    op: Op,
    /// The value of its counterpart (the lane's next value).
    next: Value,
}

impl<'a> Lowerer<'a> {
    fn is_int_const(&self, v: Value, bits: u64) -> bool {
        self.f.const_bits(v) == Some(bits)
    }

    /// Finds rotations of a do-while loop whose after-region passes the
    /// condition's values straight back.
    fn rotations(&self, op: Op) -> Vec<Rotation> {
        let f = self.f;
        let Some(cond) = do_while_condition(f, op) else {
            return Vec::new();
        };
        let before = f.ops[op].before();
        let bargs = &f.regions[before].args;
        let bops = &f.regions[before].ops;
        let next = f.ops[cond].values();
        let mut inner = HashSet::new();
        defs_of(f, bops, &mut inner);
        let mut out = Vec::new();
        for (i, &o) in bops.iter().enumerate() {
            let od = &f.ops[o];
            if !matches!(od.kind, OpKind::Binary(..)) || od.operands.len() != 2 {
                continue;
            }
            let carried: Vec<Option<usize>> = od
                .operands
                .iter()
                .map(|v| bargs.iter().position(|a| a == v))
                .collect();
            if carried.iter().all(Option::is_none) {
                continue;
            }
            // Every other operand must be loop-invariant.
            let invariant = od
                .operands
                .iter()
                .zip(&carried)
                .all(|(v, c)| c.is_some() || !inner.contains(v) || f.const_bits(*v).is_some());
            if !invariant {
                continue;
            }
            let matching = bops[i + 1..].iter().find(|&&o2| {
                let d2 = &f.ops[o2];
                d2.kind == od.kind
                    && d2.operands.len() == 2
                    && od
                        .operands
                        .iter()
                        .zip(&d2.operands)
                        .zip(&carried)
                        .all(|((v, w), c)| match c {
                            Some(j) => *w == next[*j],
                            None => {
                                v == w || f.const_bits(*v).is_some_and(|b| self.is_int_const(*w, b))
                            }
                        })
            });
            if let Some(&o2) = matching {
                out.push(Rotation {
                    op: o,
                    next: f.ops[o2].results[0],
                });
            }
        }
        out
    }

    pub(super) fn lower_while(&mut self, op: Op, later: &HashSet<Value>) -> R<()> {
        if self.opts.rotate {
            if let Some(tf) = self.test_first(op, later) {
                return self.lower_while_test_first(op, later, tf);
            }
        }
        let f = self.f;
        let d = f.ops[op].clone();
        let line = d.loc.line;
        let (before, after) = (d.before(), d.after());
        let bargs = f.regions[before].args.clone();
        let aargs = f.regions[after].args.clone();

        let mut inner_defs = HashSet::new();
        defs_of(f, &[op], &mut inner_defs);
        let mut inner_uses = HashSet::new();
        for &r in &d.regions {
            uses_of(f, &f.regions[r].ops, &mut inner_uses);
        }
        // Outer streams used inside or after the loop ride along as lanes.
        let live = self.riding(&inner_uses, &inner_defs, later);
        let carry_gid = self.loop_carries_gid(&inner_uses, &inner_defs);

        let rotations = if self.opts.rotate {
            self.rotations(op)
        } else {
            Vec::new()
        };

        // Initial values.
        let inits: Vec<Val> = d
            .inits()
            .iter()
            .map(|v| self.val(*v, op))
            .collect::<R<_>>()?;
        let mut entry = self.loop_entry(op, &bargs, &inits, &live, carry_gid)?;
        for rot in &rotations {
            let od = f.ops[rot.op].clone();
            let ty = self.ty_of(od.results[0])?;
            let OpKind::Binary(b, _) = od.kind else {
                continue;
            };
            let vals: Vec<Val> = od
                .operands
                .iter()
                .map(|v| match bargs.iter().position(|a| a == v) {
                    Some(j) => Ok(inits[j]),
                    None => self.val(*v, op),
                })
                .collect::<R<_>>()?;
            let init = match self.fold_lin(b, vals[0], vals[1], ty) {
                Some(v @ Val::Const(..)) => v,
                _ => {
                    let aop = super::binop(b)
                        .ok_or_else(|| self.diag(rot.op, b.name(), "not modelled".into()))?;
                    let ins = vals
                        .iter()
                        .map(|v| self.operand_of(*v, op))
                        .collect::<R<Vec<_>>>()?;
                    Val::Stream(self.add1(NodeKind::Op(aop), ins, ty, od.loc.line))
                }
            };
            let init = self.stream_of(init, ty, entry.trigger, op)?;
            entry.push(ty, init);
        }
        let lanes = self.ride_along(&mut entry, &live)?;
        let lane_tys = entry.lane_tys.clone();
        let nc = bargs.len();
        let nr = rotations.len();

        // The route: merge, body, split.
        let (merge, mo) = self.open_loop(line, &lane_tys, nr, false);
        for (k, &a) in bargs.iter().enumerate() {
            self.env.insert(a, Val::Stream(mo[k]));
        }
        for (k, rot) in rotations.iter().enumerate() {
            self.env
                .insert(f.ops[rot.op].results[0], Val::Stream(mo[nc + k]));
            self.skip.insert(rot.op);
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(mo[nc + nr + k]));
        }
        // Without a lane for it, the thread index outside the route is not
        // in step with the elements inside.
        self.gid = if carry_gid {
            GidState::Stream(mo[lanes - 1])
        } else {
            GidState::Reordered
        };
        // Streams fed back after a region must ride through loops nested
        // in it: the lanes that bypass the body and the rotated values.
        let mut after_later = later.clone();
        after_later.extend(live.iter().copied());
        let mut inner_later = after_later.clone();
        uses_of(f, &f.regions[after].ops, &mut inner_later);
        inner_later.extend(rotations.iter().map(|r| r.next));
        let term = self.lower_region(before, &inner_later)?;
        let cond = self.val(term[0], op)?;
        let c = match self.operand_of(cond, op)? {
            Operand::Stream(e) => e,
            Operand::Lmu(_) => {
                return Err(self.diag(
                    op,
                    "while",
                    "the loop condition is a constant: the route would never (or always) exit"
                        .into(),
                ))
            }
        };
        let mut data = Vec::new();
        for (k, &v) in term[1..].iter().enumerate() {
            let ty = self.ty_of(aargs.get(k).copied().unwrap_or(v))?;
            let val = self.val(v, op)?;
            data.push(self.stream_of(val, ty, Some(mo[0]), op)?);
        }
        for (k, rot) in rotations.iter().enumerate() {
            let val = self.val(rot.next, op)?;
            data.push(self.stream_of(val, lane_tys[nc + k], Some(mo[0]), op)?);
        }
        self.push_riding(&mut data, &live, carry_gid);
        let nv = term.len() - 1;
        let so = self.split(c, &data, line);
        let (t, fl) = so.split_at(data.len());

        // After region: next values from the taken side.
        for (k, &a) in aargs.iter().enumerate() {
            self.env.insert(a, Val::Stream(t[k]));
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(t[nv + nr + k]));
        }
        if carry_gid {
            self.gid = GidState::Stream(t[data.len() - 1]);
        }
        let next = self.lower_region(after, &after_later)?;
        let mut feedback = Vec::new();
        for (k, &v) in next.iter().enumerate() {
            let val = self.val(v, op)?;
            feedback.push(self.stream_of(val, lane_tys[k], Some(t[0]), op)?);
        }
        feedback.extend_from_slice(&t[nv..nv + nr]);
        // Lanes that ride along, as loops nested in the after region left
        // them.
        self.push_riding_values(&mut feedback, &live, t[0], op)?;
        self.close_loop(op, "while", merge, feedback, &entry, carry_gid)?;

        // Leaving: results and the lanes that rode along.
        for (k, &r) in d.results.iter().enumerate() {
            self.env.insert(r, Val::Stream(fl[k]));
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(fl[nv + nr + k]));
        }
        self.gid = if carry_gid {
            GidState::Stream(fl[data.len() - 1])
        } else {
            GidState::Reordered
        };
        Ok(())
    }

    /// Gives every stream exactly one consumer: copies for fan-out,
    /// discards for results nobody reads.
    pub(super) fn fan_out(&mut self) {
        let mut member: Vec<Vec<usize>> = vec![Vec::new(); self.g.nodes.len()];
        for (k, l) in self.loops.iter().enumerate() {
            for n in &l.nodes {
                member[n.0 as usize].push(k);
            }
        }
        let consumers = self.g.consumers();
        for (i, c) in consumers.iter().enumerate() {
            let e = EdgeId(i as u32);
            let (producer, _) = self.g.edge(e).from;
            let line = self.g.node(producer).line;
            let new: Option<NodeId> = match c.len() {
                0 => Some(
                    self.g
                        .add(NodeKind::Discard, vec![Operand::Stream(e)], &[], line)
                        .0,
                ),
                1 => None,
                n => {
                    let ty = self.g.edge(e).ty;
                    let (id, outs) =
                        self.g
                            .add(NodeKind::Copy, vec![Operand::Stream(e)], &vec![ty; n], line);
                    for (&(node, port), out) in c.iter().zip(outs) {
                        self.g.nodes[node.0 as usize].inputs[port as usize] = Operand::Stream(out);
                    }
                    Some(id)
                }
            };
            if let Some(id) = new {
                for &k in &member[producer.0 as usize] {
                    self.loops[k].nodes.push(id);
                }
            }
        }
    }
}

impl<'a> Lowerer<'a> {
    /// `for iv = lb; iv < ub; iv += step` with carried values: a closed
    /// route whose merge holds the induction variable and the carried
    /// values; the test comes first (zero trips possible), then the body.
    pub(super) fn lower_for(&mut self, op: Op, unsigned: bool, later: &HashSet<Value>) -> R<()> {
        let f = self.f;
        let d = f.ops[op].clone();
        let line = d.loc.line;
        if unsigned {
            return Err(self.diag(
                op,
                "for loop",
                "unsigned loop bounds are not modelled (RACER compares signed)".into(),
            ));
        }
        let body = d.body();
        let bargs = f.regions[body].args.clone();
        let (lb, ub, step) = d.bounds();
        let inits_v = d.inits();

        let mut inner_defs = HashSet::new();
        defs_of(f, &[op], &mut inner_defs);
        let mut inner_uses = HashSet::new();
        uses_of(f, &f.regions[body].ops, &mut inner_uses);
        inner_uses.insert(ub);
        inner_uses.insert(step);
        let live = self.riding(&inner_uses, &inner_defs, later);
        let carry_gid = self.loop_carries_gid(&inner_uses, &inner_defs);

        let mut init_vals = vec![self.val(lb, op)?];
        for v in inits_v {
            init_vals.push(self.val(*v, op)?);
        }
        let mut entry = self.loop_entry(op, &bargs, &init_vals, &live, carry_gid)?;
        let lanes = self.ride_along(&mut entry, &live)?;
        let lane_tys = entry.lane_tys.clone();
        let nc = bargs.len();

        let (merge, mo) = self.open_loop(line, &lane_tys, 0, false);
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(mo[nc + k]));
        }
        // Without a lane for it, the thread index outside the route is not
        // in step with the elements inside.
        self.gid = if carry_gid {
            GidState::Stream(mo[lanes - 1])
        } else {
            GidState::Reordered
        };
        // The test: iv < ub.
        let ubv = self.val(ub, op)?;
        let ubo = self.operand_of(ubv, op)?;
        let iv_ty = lane_tys[0];
        let c = self.add1(
            NodeKind::Op(crate::graph::ArithOp::ICmp(crate::graph::Pred::Lt)),
            vec![Operand::Stream(mo[0]), ubo],
            Ty::I1,
            line,
        );
        let so = self.split(c, &mo, line);
        let (t, fl) = so.split_at(lanes);

        // Body on the taken side.
        for (k, &a) in bargs.iter().enumerate() {
            self.env.insert(a, Val::Stream(t[k]));
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(t[nc + k]));
        }
        if carry_gid {
            self.gid = GidState::Stream(t[lanes - 1]);
        }
        // The induction variable, the step and the bypassing lanes are
        // used after the body: loops nested in it must carry them.
        let mut body_later = later.clone();
        body_later.extend(live.iter().copied());
        body_later.insert(bargs[0]);
        body_later.insert(step);
        let next = self.lower_region(body, &body_later)?;
        let stepv = self.val(step, op)?;
        let stepo = self.operand_of(stepv, op)?;
        let ivo = self.operand(bargs[0], op)?;
        let iv_next = self.add1(
            NodeKind::Op(crate::graph::ArithOp::IAdd),
            vec![ivo, stepo],
            iv_ty,
            line,
        );
        let mut feedback = vec![iv_next];
        for (k, &v) in next.iter().enumerate() {
            let val = self.val(v, op)?;
            feedback.push(self.stream_of(val, lane_tys[k + 1], Some(t[0]), op)?);
        }
        self.push_riding_values(&mut feedback, &live, t[0], op)?;
        self.close_loop(op, "for loop", merge, feedback, &entry, carry_gid)?;

        for (k, &r) in d.results.iter().enumerate() {
            self.env.insert(r, Val::Stream(fl[k + 1]));
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(fl[nc + k]));
        }
        self.gid = if carry_gid {
            GidState::Stream(fl[lanes - 1])
        } else {
            GidState::Reordered
        };
        Ok(())
    }
}

impl<'a> Lowerer<'a> {
    /// An `if` whose arms only compute, as a route: a split on the
    /// condition, each arm on its side, and a priority merge of the two
    /// sides' results. Threads may overtake each other between split and
    /// merge (the arms differ in length), so every stream used inside or
    /// after the branch rides through it as a lane, as through a loop.
    pub(super) fn lower_if_split(&mut self, op: Op, later: &HashSet<Value>) -> R<()> {
        let f = self.f;
        let d = f.ops[op].clone();
        let line = d.loc.line;
        let cond = self.val(d.cond(), op)?;
        let c = match self.operand_of(cond, op)? {
            Operand::Stream(e) => e,
            Operand::Lmu(_) => {
                return Err(self.diag(
                    op,
                    "if",
                    "internal: constant condition reached the split form".into(),
                ))
            }
        };
        let mut inner_defs = HashSet::new();
        defs_of(f, &[op], &mut inner_defs);
        let mut inner_uses = HashSet::new();
        for &r in &d.regions {
            uses_of(f, &f.regions[r].ops, &mut inner_uses);
        }
        let live = self.riding(&inner_uses, &inner_defs, later);
        let uses_gid = inner_uses
            .iter()
            .chain(later.iter())
            .any(|v| !inner_defs.contains(v) && self.env.get(v).is_some_and(Val::needs_gid));
        let gid_before = self.gid;
        let carry_gid =
            matches!(self.gid, GidState::Stream(_)) && (uses_gid || !self.open_loops.is_empty());
        // Lane 0 is the condition itself: every thread has it, so each
        // side has a stream to trigger its constants.
        let (_, cc) = self.add(
            NodeKind::Copy,
            vec![Operand::Stream(c)],
            &[Ty::I1, Ty::I1],
            line,
        );
        let mut data = vec![cc[1]];
        self.push_riding(&mut data, &live, carry_gid);
        let so = self.split(cc[0], &data, line);
        let lanes = data.len();
        let sides = [so[..lanes].to_vec(), so[lanes..].to_vec()];
        let mut outs: Vec<Vec<EdgeId>> = Vec::new();
        let mut arm_later = later.clone();
        arm_later.extend(live.iter().copied());
        self.depth += 1;
        self.loop_depth += 1;
        for (arm, side) in d.regions.iter().zip(&sides) {
            for (k, v) in live.iter().enumerate() {
                self.env.insert(*v, Val::Stream(side[1 + k]));
            }
            self.gid = if carry_gid {
                GidState::Stream(side[lanes - 1])
            } else {
                GidState::Reordered
            };
            let vals = self.lower_region(*arm, &arm_later)?;
            let mut out = Vec::new();
            for (k, &v) in vals.iter().enumerate() {
                let ty = self.ty_of(d.results[k])?;
                let val = self.val(v, op)?;
                out.push(self.stream_of(val, ty, Some(side[0]), op)?);
            }
            self.push_riding_values(&mut out, &live, side[0], op)?;
            if let (true, GidState::Stream(e)) = (carry_gid, self.gid) {
                out.push(e);
            }
            // The condition lane ends here.
            self.add(NodeKind::Discard, vec![Operand::Stream(side[0])], &[], line);
            outs.push(out);
        }
        self.depth -= 1;
        self.loop_depth -= 1;
        let out_tys: Vec<Ty> = outs[0].iter().map(|e| self.g.edge(*e).ty).collect();
        let ins: Vec<Operand> = outs[0]
            .iter()
            .chain(&outs[1])
            .copied()
            .map(Operand::Stream)
            .collect();
        let (_, mo) = self.add(NodeKind::Merge, ins, &out_tys, line);
        let mo = self.synced(mo, line);
        let nr = d.results.len();
        for (k, &r) in d.results.iter().enumerate() {
            self.env.insert(r, Val::Stream(mo[k]));
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(mo[nr + k]));
        }
        self.gid = if carry_gid {
            GidState::Stream(mo[mo.len() - 1])
        } else if matches!(gid_before, GidState::Unused) {
            GidState::Unused
        } else {
            GidState::Reordered
        };
        Ok(())
    }
}

impl<'a> Lowerer<'a> {
    /// A split of `data` on `c`: outputs `[taken.., not taken..]`. With two
    /// or more lanes the condition and the lanes are synchronised first.
    fn split(&mut self, c: EdgeId, data: &[EdgeId], line: u32) -> Vec<EdgeId> {
        let mut ins = vec![c];
        ins.extend_from_slice(data);
        if data.len() >= 2 {
            ins = self.synced(ins, line);
        }
        let tys: Vec<Ty> = data.iter().map(|e| self.g.edge(*e).ty).collect();
        let both: Vec<Ty> = tys.iter().chain(&tys).copied().collect();
        let ins = ins.into_iter().map(Operand::Stream).collect();
        self.add(NodeKind::Split, ins, &both, line).1
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            g: self.g.clone(),
            env: self.env.clone(),
            loops: self.loops.clone(),
            gid: self.gid,
            n_inputs: self.inputs.len(),
            n_outputs: self.outputs.len(),
            built: self.built.clone(),
            depth: self.depth,
            loop_depth: self.loop_depth,
            guard: self.guard,
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.g = s.g;
        self.env = s.env;
        self.loops = s.loops;
        self.gid = s.gid;
        self.inputs.truncate(s.n_inputs);
        self.outputs.truncate(s.n_outputs);
        self.built = s.built;
        self.depth = s.depth;
        self.loop_depth = s.loop_depth;
        self.guard = s.guard;
    }

    /// Lowers the ops of region `r` that are in `subset`, in order.
    fn lower_subset(&mut self, r: Region, subset: &HashSet<Op>, later: &HashSet<Value>) -> R<()> {
        let ops: Vec<Op> = self.f.regions[r]
            .ops
            .iter()
            .copied()
            .filter(|o| subset.contains(o))
            .collect();
        for (i, &op) in ops.iter().enumerate() {
            let mut after = later.clone();
            if !self.f.ops[op].regions.is_empty() {
                uses_of(self.f, &ops[i + 1..], &mut after);
            }
            self.lower_op(op, &after)?;
        }
        Ok(())
    }

    /// Whether a do-while loop can run test-first, and how.
    ///
    /// `do { s = B(s) } while (C(s))` from `s0` is `while (C(s)) s = B(s)`
    /// when `C(s0)` holds. If the condition reads only the next values
    /// (and loop invariants), the route can then evaluate it on the values
    /// its merge delivers, next to the body: the operations the two share
    /// (Mandelbrot's squares, needed by `len` and by the next `z`) are
    /// built once, and only the source's carried values circulate. A
    /// carried value whose exit value is used after the loop rides through
    /// the split as it is and is advanced on the taken side when that
    /// needs no other carried value (Mandelbrot's `iter`); otherwise its
    /// next value is computed before the split (and its current one takes
    /// a lane of its own if it is used after the loop).
    fn test_first(&mut self, op: cucc_ir::Op, later: &HashSet<Value>) -> Option<TestFirst> {
        let f = self.f;
        let d = &f.ops[op];
        let term = do_while_condition(f, op)?;
        let before = d.before();
        let bargs = &f.regions[before].args;
        let bops = &f.regions[before].ops;
        if !only_computes(f, bops) {
            return None;
        }
        let cond = f.ops[term].cond();
        let next = f.ops[term].values();
        // Definitions by the region's top-level ops.
        let mut def: HashMap<Value, Op> = HashMap::new();
        for &o in bops {
            for &r in &f.ops[o].results {
                def.insert(r, o);
            }
        }
        // Every next value is computed in the body, and no two coincide.
        let distinct: HashSet<&Value> = next.iter().collect();
        if distinct.len() != next.len() || next.iter().any(|v| !def.contains_key(v)) {
            return None;
        }
        // Ops a value needs, stopping at `stop`; and the carried values read.
        let slice = |from: Value, stop: &HashSet<Value>| -> (HashSet<Op>, HashSet<usize>) {
            let mut ops = HashSet::new();
            let mut reads = HashSet::new();
            let mut work = vec![from];
            let mut seen = HashSet::new();
            while let Some(v) = work.pop() {
                if stop.contains(&v) || !seen.insert(v) {
                    continue;
                }
                if let Some(j) = bargs.iter().position(|a| *a == v) {
                    reads.insert(j);
                } else if let Some(&o) = def.get(&v) {
                    if ops.insert(o) {
                        let mut u = HashSet::new();
                        uses_of(f, &[o], &mut u);
                        work.extend(u);
                    }
                }
            }
            (ops, reads)
        };
        let next_set: HashSet<Value> = next.iter().copied().collect();
        let (cond_ops, cond_reads) = slice(cond, &next_set);
        if !cond_reads.is_empty() {
            return None;
        }
        let nc = bargs.len();
        let slices: Vec<(HashSet<Op>, HashSet<usize>)> =
            next.iter().map(|&v| slice(v, &HashSet::new())).collect();
        let live_out: Vec<bool> = d.results.iter().map(|r| later.contains(r)).collect();
        let mut post = live_out.clone();
        loop {
            let mut changed = false;
            for j in 0..nc {
                if post[j] && slices[j].1.iter().any(|&i| !post[i]) {
                    post[j] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut pre_ops = HashSet::new();
        let mut post_ops = HashSet::new();
        for j in 0..nc {
            if post[j] {
                post_ops.extend(slices[j].0.iter().copied());
            } else {
                pre_ops.extend(slices[j].0.iter().copied());
            }
        }
        // The first test must hold for the initial values: evaluate the
        // condition on them and undo whatever that built.
        let inits: Vec<Val> = d
            .inits()
            .iter()
            .filter_map(|v| self.env.get(v).copied())
            .collect();
        if inits.len() != nc {
            return None;
        }
        let snap = self.snapshot();
        for (j, v) in next.iter().enumerate() {
            self.env.insert(*v, inits[j]);
        }
        let holds = self
            .lower_subset(before, &cond_ops, &HashSet::new())
            .ok()
            .and_then(|_| self.env.get(&cond).copied());
        let holds = matches!(holds, Some(Val::Const(s, _)) if crate::sim::truth(s))
            && self.g.nodes.len() == snap.g.nodes.len();
        self.restore(snap);
        if !holds {
            return None;
        }
        Some(TestFirst {
            cond_ops,
            pre_ops,
            post_ops,
            post,
            live_out,
        })
    }

    /// A do-while loop as a test-first route (see [`Self::test_first`]):
    /// merge of the carried values, the condition on them and the body's
    /// next values, a split sending the next values round or the current
    /// ones out.
    fn lower_while_test_first(&mut self, op: Op, later: &HashSet<Value>, tf: TestFirst) -> R<()> {
        let f = self.f;
        let d = f.ops[op].clone();
        let line = d.loc.line;
        let before = d.before();
        let bargs = f.regions[before].args.clone();
        let term = *f.regions[before]
            .ops
            .last()
            .ok_or_else(|| self.diag(op, "while", "internal: empty loop region".into()))?;
        let cond = f.ops[term].cond();
        let next: Vec<Value> = f.ops[term].values().to_vec();
        let nc = bargs.len();

        let mut inner_defs = HashSet::new();
        defs_of(f, &[op], &mut inner_defs);
        let mut inner_uses = HashSet::new();
        uses_of(f, &f.regions[before].ops, &mut inner_uses);
        let live = self.riding(&inner_uses, &inner_defs, later);
        let carry_gid = self.loop_carries_gid(&inner_uses, &inner_defs);

        let inits: Vec<Val> = d
            .inits()
            .iter()
            .map(|v| self.val(*v, op))
            .collect::<R<_>>()?;
        let mut entry = self.loop_entry(op, &bargs, &inits, &live, carry_gid)?;
        let lanes = self.ride_along(&mut entry, &live)?;
        let lane_tys = entry.lane_tys.clone();

        let (merge, mo) = self.open_loop(line, &lane_tys, 0, true);
        for (k, &a) in bargs.iter().enumerate() {
            self.env.insert(a, Val::Stream(mo[k]));
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(mo[nc + k]));
        }
        self.gid = if carry_gid {
            GidState::Stream(mo[lanes - 1])
        } else {
            GidState::Reordered
        };

        // Values used after the condition: the carried ones, the
        // invariants, and what the body and the code after the loop read.
        let mut after_cond: HashSet<Value> = later.clone();
        after_cond.extend(bargs.iter().copied());
        after_cond.extend(live.iter().copied());
        let body_ops: Vec<Op> = tf.pre_ops.union(&tf.post_ops).copied().collect();
        uses_of(f, &body_ops, &mut after_cond);
        for v in &next {
            after_cond.remove(v);
        }
        // The condition on the merged values.
        for (j, v) in next.iter().enumerate() {
            let cur = self.val(bargs[j], op)?;
            self.env.insert(*v, cur);
        }
        self.lower_subset(before, &tf.cond_ops, &after_cond)?;
        let c = match self.operand(cond, op)? {
            Operand::Stream(e) => e,
            Operand::Lmu(_) => {
                return Err(self.diag(
                    op,
                    "while",
                    "the loop condition is a constant: the route would never (or always) exit"
                        .into(),
                ))
            }
        };
        // Next values computed before the split.
        let mut after_pre = later.clone();
        after_pre.extend(bargs.iter().copied());
        after_pre.extend(live.iter().copied());
        let post_list: Vec<Op> = tf.post_ops.iter().copied().collect();
        uses_of(f, &post_list, &mut after_pre);
        self.lower_subset(before, &tf.pre_ops, &after_pre)?;
        let trig = Some(c);
        let mut data = Vec::new();
        let mut lane_of = vec![0usize; nc];
        for j in 0..nc {
            lane_of[j] = data.len();
            let v = if tf.post[j] { bargs[j] } else { next[j] };
            let val = self.val(v, op)?;
            data.push(self.stream_of(val, lane_tys[j], trig, op)?);
        }
        let mut exit_lane = vec![None; nc];
        for j in 0..nc {
            if tf.live_out[j] && !tf.post[j] {
                exit_lane[j] = Some(data.len());
                let val = self.val(bargs[j], op)?;
                data.push(self.stream_of(val, lane_tys[j], trig, op)?);
            }
        }
        let first_live = data.len();
        self.push_riding(&mut data, &live, carry_gid);
        let so = self.split(c, &data, line);
        let (t, fl) = so.split_at(data.len());

        // Taken side: the carried values advanced after the split.
        for j in 0..nc {
            if tf.post[j] {
                self.env.insert(bargs[j], Val::Stream(t[lane_of[j]]));
            }
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(t[first_live + k]));
        }
        if carry_gid {
            self.gid = GidState::Stream(t[data.len() - 1]);
        }
        let mut after_post = later.clone();
        after_post.extend(live.iter().copied());
        self.lower_subset(before, &tf.post_ops, &after_post)?;
        let mut feedback = Vec::new();
        for j in 0..nc {
            if tf.post[j] {
                let val = self.val(next[j], op)?;
                feedback.push(self.stream_of(val, lane_tys[j], Some(t[0]), op)?);
            } else {
                feedback.push(t[lane_of[j]]);
            }
        }
        self.push_riding_values(&mut feedback, &live, t[0], op)?;
        self.close_loop(op, "while", merge, feedback, &entry, carry_gid)?;

        // Leaving: the exit values and the lanes that rode along.
        for (j, &r) in d.results.iter().enumerate() {
            let k = exit_lane[j].unwrap_or(lane_of[j]);
            self.env.insert(r, Val::Stream(fl[k]));
        }
        for (k, v) in live.iter().enumerate() {
            self.env.insert(*v, Val::Stream(fl[first_live + k]));
        }
        self.gid = if carry_gid {
            GidState::Stream(fl[data.len() - 1])
        } else {
            GidState::Reordered
        };
        Ok(())
    }
}

/// The `condition` ending the before region of `while` op `w` when its
/// after region only passes its arguments straight back (a do-while) and
/// the condition passes one value per carried value.
fn do_while_condition(f: &Function, w: Op) -> Option<Op> {
    let d = &f.ops[w];
    let bargs = &f.regions[d.before()].args;
    let aregion = &f.regions[d.after()];
    let trivial = aregion.ops.len() == 1
        && f.ops[aregion.ops[0]].values() == aregion.args.as_slice()
        && aregion.args.len() == bargs.len();
    let &term = f.regions[d.before()].ops.last()?;
    (trivial && f.ops[term].kind == OpKind::Condition && f.ops[term].values().len() == bargs.len())
        .then_some(term)
}
