//! Lane loops whose only effect is guarded by "this is lane k": the guard is
//! solved for the lane instead of tested in every lane.
//!
//! After a warp reduction, `if (threadIdx.x % 32 == 0) out[row] = sum;`
//! becomes a lane loop that computes the thread id, loads the lane's value
//! and tests the guard 32 times to store once. When the guarded value is
//! `x = x0 + lane` (modulo 2^width: the lane plus values the same for the
//! whole warp) and the guard is `x % m == c` or `(x & (m - 1)) == c` with m
//! a power of two of at least 32 (or `x == c`, m = 2^width), at most one
//! lane of a warp passes it: `(c - x0) mod m`, if it is below the warp's
//! lane count. The loop becomes that one iteration:
//!
//! ```text
//! x0 = x at lane 0; l = (c - x0) & (m - 1)
//! if (l < lanes) { body at lane l }
//! ```
//!
//! Only loops whose other ops have no effect qualify (running them in one
//! lane instead of all changes nothing), and where `x` is affine only under
//! a warp-uniform flag (lane ids in one x row), the solved form runs under
//! that flag and the loop as it was otherwise.

use super::{monotone, Distributor};
use cucc_ir::edit::clone_op;
use cucc_ir::{BinOp, CmpPred, Op, OpKind, Region, Value, ValueDef};
use std::collections::{HashMap, HashSet};

/// A solvable guard: the `if`, the value `x` (slope 1 in the lane), the
/// constant `c`, `log2(m)`, and the flags `x`'s form needs.
struct Guard {
    guard_if: Op,
    x: Value,
    c: Value,
    log2_m: u32,
    /// The guard is a signed remainder: it equals the unsigned one only
    /// while `x` is non-negative in every lane (checked at run time).
    signed_rem: bool,
    preconditions: Vec<(Value, bool)>,
}

impl Distributor<'_> {
    /// Solves the lane guards of every lane loop under `region`.
    pub(crate) fn solve_lane_guards(&mut self, region: Region) -> usize {
        let loops = self.lane_loops(region);
        let mut solved = 0;
        for (parent, p) in loops {
            if let Some(g) = self.lane_guard(p) {
                self.solve(parent, p, g);
                solved += 1;
            }
        }
        solved
    }

    /// The solvable guard of lane loop `p`, if its body is pure ops, one
    /// result-less `if` holding the effects, and the terminator.
    fn lane_guard(&self, p: Op) -> Option<Guard> {
        let body = self.func.ops[p].body();
        let lane = *self.func.regions[body].args.first()?;
        let ops = &self.func.regions[body].ops;
        let (_, before_term) = ops.split_last()?;
        let mut guard_if = None;
        for &o in before_term {
            if self.is_pure_op(o) {
                continue;
            }
            let data = &self.func.ops[o];
            if data.kind != OpKind::If || !data.results.is_empty() || guard_if.is_some() {
                return None;
            }
            // Nothing but the yield in the else branch.
            if self.func.regions[data.else_region()].ops.len() != 1 {
                return None;
            }
            guard_if = Some(o);
        }
        let guard_if = guard_if?;
        let inside = self.defined_in(body);
        let cond = self.func.ops[guard_if].cond();
        let cmp = self.func.defining_op(cond)?;
        let cmp = &self.func.ops[cmp];
        if cmp.kind != OpKind::Cmp(CmpPred::Eq) {
            return None;
        }
        let (a, b) = (cmp.lhs(), cmp.rhs());
        let invariant = |v: Value| !inside.contains(&v) && v != lane;
        let (m_side, c) = if invariant(b) {
            (a, b)
        } else if invariant(a) {
            (b, a)
        } else {
            return None;
        };
        let width = u32::from(self.types[self.func.value_type(m_side)].int_bits()?);
        // `x % m`, `x & (m - 1)` or `x` itself.
        let mut signed_rem = false;
        let (x, log2_m) = match self.func.defining_op(m_side).map(|o| &self.func.ops[o]) {
            Some(d) if matches!(d.kind, OpKind::Binary(BinOp::URem | BinOp::SRem, _)) => {
                let m = self.func.const_bits(d.rhs())?;
                if !m.is_power_of_two() || m < 32 {
                    return None;
                }
                signed_rem = matches!(d.kind, OpKind::Binary(BinOp::SRem, _));
                (d.lhs(), m.trailing_zeros())
            }
            Some(d) if matches!(d.kind, OpKind::Binary(BinOp::And, _)) => {
                let mask = self.func.const_bits(d.rhs())?;
                let m = mask.checked_add(1)?;
                if !m.is_power_of_two() || m < 32 {
                    return None;
                }
                (d.lhs(), m.trailing_zeros())
            }
            _ => (m_side, width),
        };
        if log2_m > width {
            return None;
        }
        if log2_m < width && self.func.const_bits(c).is_some_and(|c| c >> log2_m != 0) {
            return None;
        }
        let mut preconditions = Vec::new();
        if self.slope(x, lane, &inside, &mut preconditions)? != 1 {
            return None;
        }
        Some(Guard {
            guard_if,
            x,
            c,
            log2_m,
            signed_rem,
            preconditions,
        })
    }

    /// The slope of `v` in `lane` modulo 2^width (`v = v(0) + slope *
    /// lane`), following `if`s on lane-independent flags (recorded in
    /// `pre`) into the branch where it is affine.
    fn slope(
        &self,
        v: Value,
        lane: Value,
        inside: &HashSet<Value>,
        pre: &mut Vec<(Value, bool)>,
    ) -> Option<i64> {
        if v == lane {
            return Some(1);
        }
        if !inside.contains(&v) {
            return Some(0);
        }
        let ValueDef::Result { op, index } = self.func.values[v].def else {
            return None;
        };
        let data = &self.func.ops[op];
        match data.kind {
            OpKind::Const { .. } => Some(0),
            OpKind::Binary(BinOp::Add, _) => Some(
                self.slope(data.lhs(), lane, inside, pre)?
                    .checked_add(self.slope(data.rhs(), lane, inside, pre)?)?,
            ),
            OpKind::Binary(BinOp::Sub, _) => Some(
                self.slope(data.lhs(), lane, inside, pre)?
                    .checked_sub(self.slope(data.rhs(), lane, inside, pre)?)?,
            ),
            OpKind::If if self.slope(data.cond(), lane, inside, pre)? == 0 => {
                let c = data.cond();
                let arm = |r: Region, pre: &mut Vec<(Value, bool)>| -> Option<i64> {
                    let term = *self.func.regions[r].ops.last()?;
                    let y = *self.func.ops[term].values().get(index as usize)?;
                    self.slope(y, lane, inside, pre)
                };
                let mut then_pre = Vec::new();
                let mut else_pre = Vec::new();
                let then_s = arm(data.then_region(), &mut then_pre);
                let else_s = arm(data.else_region(), &mut else_pre);
                match (then_s, else_s) {
                    (Some(t), Some(e)) if t == e => {
                        pre.extend(then_pre);
                        pre.extend(else_pre);
                        Some(t)
                    }
                    (Some(t), _) => {
                        pre.extend(then_pre);
                        pre.push((c, true));
                        Some(t)
                    }
                    (None, Some(e)) => {
                        pre.extend(else_pre);
                        pre.push((c, false));
                        Some(e)
                    }
                    (None, None) => None,
                }
            }
            ref kind if kind.is_pure() && !matches!(kind, OpKind::ThreadId(_)) => {
                // Lane-independent if every operand is.
                for &o in &data.operands {
                    if self.slope(o, lane, inside, pre)? != 0 {
                        return None;
                    }
                }
                Some(0)
            }
            _ => None,
        }
    }

    /// True if `op` only computes values: pure, a non-volatile load, or an
    /// `if` of such ops.
    fn is_pure_op(&self, op: Op) -> bool {
        let data = &self.func.ops[op];
        match &data.kind {
            OpKind::Load { volatile, .. } => !volatile,
            OpKind::If => data.regions.iter().all(|&r| {
                self.func.regions[r]
                    .ops
                    .iter()
                    .all(|&o| self.func.ops[o].kind == OpKind::Yield || self.is_pure_op(o))
            }),
            kind => kind.is_pure(),
        }
    }

    /// Replaces lane loop `p` (in `parent`) by its one passing lane.
    fn solve(&mut self, parent: Region, p: Op, g: Guard) {
        let body = self.func.ops[p].body();
        let lane = self.func.regions[body].args[0];
        let lanes = self.func.ops[p].ubs()[0];
        let loc = self.func.ops[g.guard_if].loc;
        let prelude: Vec<Op> = {
            let ops = &self.func.regions[body].ops;
            ops[..ops.len() - 1].to_vec()
        };
        let k = self.position(parent, p);
        let i32t = self.types.i32();
        let zero = self.at(parent, k).const_int(i32t, 0);
        // x and the flags at lane 0.
        let mut map0: HashMap<Value, Value> = HashMap::from([(lane, zero)]);
        let mut at = k + 1;
        for &op in prelude.iter().filter(|&&o| o != g.guard_if) {
            let cl = clone_op(self.func, op, &mut map0);
            self.func.regions[parent].ops.insert(at, cl);
            at += 1;
        }
        let x0 = *map0.get(&g.x).unwrap_or(&g.x);
        let xty = self.func.value_type(g.x);
        let mut b = self.at(parent, at);
        b.set_loc(loc);
        let mut ok = b.bool(true);
        if g.log2_m < u32::from(b.types[xty].int_bits().unwrap_or(32))
            && b.func.const_bits(g.c).is_none()
        {
            // A guard `x % m == c` with c >= m passes no lane.
            let m = b.const_int(xty, 1i64 << g.log2_m);
            let below = b.cmp(CmpPred::Ult, g.c, m);
            ok = b.binary(BinOp::And, ok, below);
        }
        let flags = monotone::EndpointCheck {
            preconditions: g.preconditions.clone(),
            ..Default::default()
        };
        let at0 = |v: Value| {
            let v0 = *map0.get(&v).unwrap_or(&v);
            (v0, v0)
        };
        let flags_hold = flags.emit_holds(&mut b, at0);
        ok = b.binary(BinOp::And, ok, flags_hold);
        if g.signed_rem {
            // 0 <= x0 and x0 + 31 does not overflow: x >= 0 in every lane.
            let w = u32::from(b.types[xty].int_bits().unwrap_or(32));
            let zero = b.const_int(xty, 0);
            let top = b.const_int(xty, ((1i64 << (w - 1)) - 1) - 31);
            let lo = b.cmp(CmpPred::Sge, x0, zero);
            let hi = b.cmp(CmpPred::Sle, x0, top);
            ok = b.binary(BinOp::And, ok, lo);
            ok = b.binary(BinOp::And, ok, hi);
        }
        let d = b.binary(BinOp::Sub, g.c, x0);
        let width = u32::from(b.types[xty].int_bits().unwrap_or(32));
        let d = if g.log2_m < width {
            let mask = b.const_int(xty, (1i64 << g.log2_m) - 1);
            b.binary(BinOp::And, d, mask)
        } else {
            d
        };
        // The lane as the loop's (32-bit) counter type; `d < lanes <= 32`
        // when it is taken.
        let lane_ty = b.func.value_type(lane);
        let lanes_x = if lane_ty == xty {
            lanes
        } else {
            b.cast(cucc_ir::CastOp::ZExt, lanes, xty)
        };
        let hit = b.cmp(CmpPred::Ult, d, lanes_x);
        let l = if lane_ty == xty {
            d
        } else {
            b.cast(cucc_ir::CastOp::Trunc, d, lane_ty)
        };
        b.if_else(
            ok,
            &[],
            |b| {
                b.if_then(hit, |b| {
                    let mut map: HashMap<Value, Value> = HashMap::from([(lane, l)]);
                    for &op in &prelude {
                        let cl = clone_op(b.func, op, &mut map);
                        let r = b.insertion_region();
                        b.func.regions[r].ops.push(cl);
                    }
                });
                vec![]
            },
            |_| vec![],
        );
        // The original loop moves into the else branch.
        let pos = self.position(parent, p);
        self.func.regions[parent].ops.remove(pos);
        let version_op = self.func.regions[parent].ops[pos - 1];
        let else_r = self.func.ops[version_op].else_region();
        self.func.regions[else_r].ops.insert(0, p);
    }
}
