//! Whether two iterations of a thread loop may touch a common byte, and
//! what a run-time check before the loop could supply to rule it out.
//!
//! The effects API's cross-thread test answers first (affine offsets with
//! constant coefficients, block extents from constant bounds). What it
//! cannot separate is tried again here with more information:
//!
//! - **Facts** ([`Facts`]): the conditions of the `if`s around the loop —
//!   the checks a versioned loop runs under. `block_dim d <= n` bounds a
//!   dimension, `alloc.distinct(p, q, ..)` puts pointer parameters in
//!   distinct allocations, `sext(v) >= k` bounds a fixed value from below.
//! - **Pins**: an access under `if (threadIdx.d == k)` in the loop body
//!   runs only in threads whose `d` coordinate is `k` (a tile's halo row).
//! - **Run-time coefficients**: `row * cols + col` has the term
//!   `threadIdx.y · cols` ([`Sym::Product`]). With `v` the fixed factor,
//!   an offset is `v · P(t) + Q(t)`; when `v >= K`, large enough that any
//!   nonzero change of `P` moves the address past every byte `Q` can
//!   reach, two threads overlap only with equal `P` — the rows of a
//!   row-major array are disjoint when the row is at least as long as the
//!   block is wide.
//!
//! With every coordinate's range known (constant bounds or facts), the
//! threads of one block are enumerated (at most 1024 a side): two accesses
//! conflict exactly when an interval of one and an interval of the other,
//! from different threads with equal `P`, overlap (found by sorting). The
//! caller may let the test record what it assumed ([`Needs`]: parameters
//! to check distinct, lower bounds on fixed values) instead of failing;
//! those become the run-time checks of a versioned loop, which the same
//! test then reads back as facts.

use cucc_ir::affine::{Affine, Coords, Factor, Sym};
use cucc_ir::effects::conflicts_across_threads;
use cucc_ir::{
    Base, BinOp, CastOp, CmpPred, Dim, Function, FunctionEffects, MemEffect, Op, OpKind, Value,
    ValueDef,
};
use std::collections::{BTreeMap, BTreeSet};

/// What holds wherever a thread loop runs: the conditions of the `if`s
/// (then branches) around it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Upper bounds on the block's extents (`block_dim d <= n`).
    pub extent_max: [Option<u64>; 3],
    /// Sets of pointer parameters (indices) in distinct allocations.
    pub distinct: Vec<Vec<u32>>,
    /// Fixed values known to be at least a constant, read as signed.
    pub at_least: Vec<(Value, i64)>,
}

/// What a loop's independence rests on beyond its facts: the run-time
/// checks a version of it needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Pointer parameters (indices) that must point into distinct
    /// allocations.
    pub distinct: BTreeSet<u32>,
    /// Fixed values defined before the loop and the least value each must
    /// have, read as signed.
    pub at_least: BTreeMap<Value, i64>,
}

impl Needs {
    /// True if nothing needs checking.
    pub fn is_empty(&self) -> bool {
        self.distinct.is_empty() && self.at_least.is_empty()
    }
}

/// The facts around thread loop `p`.
pub fn facts_of(fx: &FunctionEffects<'_>, func: &Function, p: Op) -> Facts {
    let parents = fx.affine().parents();
    let mut facts = Facts::default();
    let mut cur = p;
    while let Some(region) = parents.region_of(cur) {
        let Some(owner) = parents.op_of(region) else {
            break;
        };
        let data = &func.ops[owner];
        if data.kind == OpKind::If && data.then_region() == region {
            let mut atoms = Vec::new();
            conjuncts(func, data.cond(), &mut atoms);
            for a in atoms {
                add_fact(fx, func, a, &mut facts);
            }
        }
        cur = owner;
    }
    facts
}

/// The operands of the `and` tree of `i1` value `v` (`v` itself if it is
/// not an `and`).
fn conjuncts(func: &Function, v: Value, out: &mut Vec<Value>) {
    operands_of(func, BinOp::And, v, out);
}

/// The operands of a tree of `joint` ops (`and`, `or`) rooted at `v`
/// (`v` itself if it is no such op).
pub(crate) fn operands_of(func: &Function, joint: BinOp, v: Value, out: &mut Vec<Value>) {
    match func.defining_op(v).map(|o| &func.ops[o]) {
        Some(d)
            if matches!(d.kind, OpKind::Binary(b, _) if b == joint) && d.operands.len() == 2 =>
        {
            let (a, b) = (d.lhs(), d.rhs());
            operands_of(func, joint, a, out);
            operands_of(func, joint, b, out);
        }
        _ => out.push(v),
    }
}

/// Records what condition `atom` says, if it is a form [`Facts`] knows.
fn add_fact(fx: &FunctionEffects<'_>, func: &Function, atom: Value, facts: &mut Facts) {
    let Some(def) = func.defining_op(atom) else {
        return;
    };
    let data = &func.ops[def];
    match data.kind {
        OpKind::AllocDistinct => {
            let params: Option<Vec<u32>> = data
                .operands
                .iter()
                .map(|&v| param_index(func, v))
                .collect();
            if let Some(ps) = params {
                facts.distinct.push(ps);
            }
        }
        OpKind::Cmp(pred) if data.operands.len() == 2 => {
            let (a, b) = (data.lhs(), data.rhs());
            // Constants read as signed numbers of their width.
            let konst = |v: Value| {
                func.const_bits(v)?;
                fx.affine().affine_of(v)?.as_constant()
            };
            if let (Some(d), Some(c)) = (block_dim_of(func, a), konst(b)) {
                let max = match pred {
                    CmpPred::Eq | CmpPred::Ule | CmpPred::Sle => Some(c),
                    CmpPred::Ult | CmpPred::Slt => c.checked_sub(1),
                    _ => None,
                };
                if let Some(m) = max.and_then(|m| u64::try_from(m).ok()) {
                    let slot = &mut facts.extent_max[d.index()];
                    *slot = Some(slot.map_or(m, |s| s.min(m)));
                }
            }
            if let Some(c) = konst(b) {
                let least = match pred {
                    CmpPred::Sge => Some(c),
                    CmpPred::Sgt => c.checked_add(1),
                    _ => None,
                };
                if let Some(k) = least {
                    facts.at_least.push((strip_sext(func, a), k));
                }
            }
        }
        _ => {}
    }
}

/// The operand of a `sext` (the same number), else `v`.
fn strip_sext(func: &Function, v: Value) -> Value {
    match func.defining_op(v).map(|o| &func.ops[o]) {
        Some(d) if d.kind == OpKind::Cast(CastOp::SExt) => d.input(),
        _ => v,
    }
}

/// The dimension `v` reads, if it is a `block_dim` op.
fn block_dim_of(func: &Function, v: Value) -> Option<Dim> {
    match func.ops[func.defining_op(v)?].kind {
        OpKind::BlockDim(d) => Some(d),
        _ => None,
    }
}

/// The index of parameter `v` of the function, if it is one.
fn param_index(func: &Function, v: Value) -> Option<u32> {
    match func.values[v].def {
        ValueDef::Arg { region, index } if region == func.body => Some(index),
        // PTX passes pointers as 64-bit integers: `alloc.distinct` names
        // their `inttoptr` (`alloc_distinct`).
        ValueDef::Result { op, .. } if func.ops[op].kind == OpKind::Cast(CastOp::IntToPtr) => {
            param_index(func, func.ops[op].input())
        }
        _ => None,
    }
}

/// True if `ub` (a thread loop's bound in dimension `d`) is at most the
/// block's extent there: `block_dim d`, or a `select` of two such bounds,
/// or `select(a < b, a, b)` (a minimum) with one of them such a bound —
/// the forms `clamp-guards` leaves.
pub fn bounded_by_block_dim(func: &Function, ub: Value, d: Dim) -> bool {
    bounded_at(func, ub, d, 0)
}

fn bounded_at(func: &Function, ub: Value, d: Dim, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    let Some(def) = func.defining_op(ub) else {
        return false;
    };
    let data = &func.ops[def];
    match data.kind {
        OpKind::BlockDim(k) => k == d,
        OpKind::Cast(CastOp::Trunc | CastOp::ZExt | CastOp::SExt) => {
            // A bound computed in 64 bits and narrowed: the narrowing keeps
            // values below 2^31 exact, and block extents are below 1025.
            bounded_at(func, data.input(), d, depth + 1)
        }
        OpKind::Select => {
            let (c, a, b) = (data.cond(), data.if_true(), data.if_false());
            let both = bounded_at(func, a, d, depth + 1) && bounded_at(func, b, d, depth + 1);
            both || is_min(func, c, a, b) && bounded_at(func, b, d, depth + 1)
        }
        _ => false,
    }
}

/// True if `select(c, a, b)` is `min(a, b)`: `c` is `a < b` (or `a <= b`)
/// signed, with `b` non-negative (a block extent), or unsigned.
fn is_min(func: &Function, c: Value, a: Value, b: Value) -> bool {
    let Some(def) = func.defining_op(c) else {
        return false;
    };
    let data = &func.ops[def];
    matches!(
        data.kind,
        OpKind::Cmp(CmpPred::Slt | CmpPred::Sle | CmpPred::Ult | CmpPred::Ule)
    ) && data.operands.len() == 2
        && data.lhs() == a
        && data.rhs() == b
}

/// The extents (upper bounds) of thread loop `p`'s dimensions: `assume`
/// where given, else its constant bound, else a fact bounding the block.
pub fn extents_of(
    func: &Function,
    p: Op,
    assume: [Option<u64>; 3],
    facts: &Facts,
) -> [Option<u64>; 3] {
    let mut out = [None; 3];
    for (d, &ub) in func.ops[p].ubs().iter().enumerate().take(3) {
        out[d] = assume[d].or_else(|| func.const_bits(ub)).or_else(|| {
            bounded_by_block_dim(func, ub, Dim::ALL[d])
                .then(|| facts.extent_max[d].unwrap_or(BLOCK_LIMIT[d]))
        });
    }
    out
}

/// CUDA's largest block extents: no launch has more threads a side (the
/// runtime refuses it), so a loop bounded by the block's extent has at
/// most these many iterations.
const BLOCK_LIMIT: [u64; 3] = [1024, 1024, 64];

/// The dependence test of one thread loop.
pub struct Test<'a, 'm> {
    fx: &'a FunctionEffects<'m>,
    func: &'a Function,
    p: Op,
    extents: [Option<u64>; 3],
    facts: &'a Facts,
    /// Whether assumptions may be recorded in `needs` instead of failing.
    allow: bool,
    /// The assumptions recorded.
    pub needs: Needs,
}

/// At most this many threads a side are enumerated.
const MAX_THREADS: usize = 1024;

impl<'a, 'm> Test<'a, 'm> {
    /// The test of loop `p` with extents `extents` (upper bounds) under
    /// `facts`; with `allow`, what else it needs is recorded, not refused.
    pub fn new(
        fx: &'a FunctionEffects<'m>,
        func: &'a Function,
        p: Op,
        extents: [Option<u64>; 3],
        facts: &'a Facts,
        allow: bool,
    ) -> Self {
        Test {
            fx,
            func,
            p,
            extents,
            facts,
            allow,
            needs: Needs::default(),
        }
    }

    /// True if `a`, run by one iteration, and `b`, run by another, may
    /// touch a common byte with one of them writing.
    pub fn conflict(&mut self, a: &MemEffect, b: &MemEffect) -> bool {
        if !(a.is_access() && b.is_access() && (a.is_write() || b.is_write())) {
            return false;
        }
        let coords = Coords::from_extents(self.extents);
        if !conflicts_across_threads(self.func, &coords, a, b) {
            return false;
        }
        match (a.base, b.base) {
            (Base::Param(i), Base::Param(j)) if i != j => !self.distinct(i, j),
            (x, y) if x == y && x != Base::Unknown => !self.disjoint(a, b),
            _ => true,
        }
    }

    /// True if parameters `i` and `j` are in distinct allocations (a fact,
    /// or a need recorded).
    fn distinct(&mut self, i: u32, j: u32) -> bool {
        if self
            .facts
            .distinct
            .iter()
            .any(|g| g.contains(&i) && g.contains(&j))
        {
            return true;
        }
        if self.allow {
            self.needs.distinct.insert(i);
            self.needs.distinct.insert(j);
        }
        self.allow
    }

    /// True if `v >= k` (a fact, or a need recorded when `v` is defined
    /// before the loop).
    fn at_least(&mut self, v: Value, k: i64) -> bool {
        if self
            .facts
            .at_least
            .iter()
            .any(|&(w, least)| w == v && least >= k)
        {
            return true;
        }
        if !self.allow || !self.defined_before(v) {
            return false;
        }
        let slot = self.needs.at_least.entry(v).or_insert(k);
        *slot = (*slot).max(k);
        true
    }

    /// True if `v` is defined outside the loop (so it can be tested ahead
    /// of it: it dominates the loop, whose accesses use it).
    fn defined_before(&self, v: Value) -> bool {
        let parents = self.fx.affine().parents();
        let mut cur = match self.func.values[v].def {
            ValueDef::Result { op, .. } => Some(op),
            ValueDef::Arg { region, .. } => parents.op_of(region),
        };
        while let Some(o) = cur {
            if o == self.p {
                return false;
            }
            cur = parents.parent_op(o);
        }
        true
    }

    /// True if `a` and `b` (same base, accessed by different iterations)
    /// never overlap, by pins, run-time coefficients and enumeration.
    fn disjoint(&mut self, a: &MemEffect, b: &MemEffect) -> bool {
        let (Some(oa), Some(ob), Some(sa), Some(sb)) = (&a.offset, &b.offset, a.size, b.size)
        else {
            return false;
        };
        let (Some(pa), Some(pb)) = (self.pins(a.op), self.pins(b.op)) else {
            // One of them never runs.
            return true;
        };
        let (Some(xa), Some(xb)) = (Split::of(oa, &pa), Split::of(ob, &pb)) else {
            return false;
        };
        if xa.fixed != xb.fixed {
            return false;
        }
        let v = match (xa.factor, xb.factor) {
            (Some(va), Some(vb)) if va != vb => return false,
            (Some(v), _) | (_, Some(v)) => Some(v),
            _ => None,
        };
        let (Some(mut da), Some(mut db)) = (self.domain(&pa), self.domain(&pb)) else {
            return false;
        };
        // The `if`s around each access bound its coordinates
        // (`if (tid < 64) s[tid] += s[tid + 64]`: reads above 64, writes
        // below).
        for (dom, op) in [(&mut da, a.op), (&mut db, b.op)] {
            for (d, (lo, hi)) in self.bounds(op).into_iter().enumerate() {
                dom[d].0 = dom[d].0.max(lo);
                dom[d].1 = dom[d].1.min(hi);
            }
        }
        if da.iter().chain(&db).any(|&(lo, hi)| lo > hi) {
            return true;
        }
        let (sa, sb) = (i128::from(sa), i128::from(sb));
        if let Some(v) = v {
            // Q(t) - Q(t') over the domains; any nonzero change of P must
            // move the address past it.
            let (qa_lo, qa_hi) = xa.q_range(&da);
            let (qb_lo, qb_hi) = xb.q_range(&db);
            let (qmin, qmax) = (qa_lo - qb_hi, qa_hi - qb_lo);
            let k = (sb - qmin).max(qmax + sa);
            let g = xa.p_gcd(&xb);
            if g != 0 {
                let need = if k <= 0 { 1 } else { (k + g - 1) / g }.max(1);
                let Ok(need) = i64::try_from(need) else {
                    return false;
                };
                if !self.at_least(v, need) {
                    return false;
                }
            }
        }
        let (Some(ta), Some(tb)) = (threads(&da), threads(&db)) else {
            return false;
        };
        let mut items: Vec<(i128, i128, [i64; 3])> =
            tb.iter().map(|t| (xb.p_at(t), xb.q_at(t), *t)).collect();
        items.sort_unstable();
        for t in &ta {
            let (key, start) = (xa.p_at(t), xa.q_at(t));
            // B's intervals [s, s + sb) meeting [start, start + sa): s in
            // (start - sb, start + sa).
            let from = items.partition_point(|&(k2, s2, _)| (k2, s2) <= (key, start - sb));
            for &(k2, s2, t2) in &items[from..] {
                if k2 != key || s2 >= start + sa {
                    break;
                }
                if t2 != *t {
                    return false;
                }
            }
        }
        true
    }

    /// True if `a` and `b`, run by one iteration, may touch a common byte
    /// with one writing. Beyond the effects API's same-thread test, the
    /// coordinates both accesses' guards pin are substituted (contradicting
    /// pins: they never both run), and what is left is compared over every
    /// coordinate the iteration may have.
    pub fn same_thread_conflict(
        &self,
        module: &cucc_ir::Module,
        a: &MemEffect,
        b: &MemEffect,
    ) -> bool {
        if !cucc_ir::effects::conflicts(module, self.func, a, b) {
            return false;
        }
        if a.base != b.base || a.base == Base::Unknown {
            return true;
        }
        let (Some(oa), Some(ob), Some(sa), Some(sb)) = (&a.offset, &b.offset, a.size, b.size)
        else {
            return true;
        };
        let (Some(pa), Some(pb)) = (self.pins(a.op), self.pins(b.op)) else {
            return false;
        };
        let mut pins = pa;
        for d in 0..3 {
            match (pa[d], pb[d]) {
                (Some(x), Some(y)) if x != y => return false,
                (None, Some(y)) => pins[d] = Some(y),
                _ => {}
            }
        }
        let (Some(xa), Some(xb)) = (Split::of(oa, &pins), Split::of(ob, &pins)) else {
            return true;
        };
        if xa.fixed != xb.fixed || xa.factor != xb.factor || xa.p != xb.p || xa.p0 != xb.p0 {
            return true;
        }
        let Some(dom) = self.domain(&pins) else {
            return true;
        };
        if dom.iter().any(|&(lo, hi)| lo > hi) {
            return false;
        }
        let Some(ts) = threads(&dom) else {
            return true;
        };
        let (sa, sb) = (i128::from(sa), i128::from(sb));
        ts.iter().any(|t| {
            let d = xa.q_at(t) - xb.q_at(t);
            -sa < d && d < sb
        })
    }

    /// The conditions the `if`s between `op` and the loop body establish
    /// for it: each atom of a then branch's `and` tree (holding), of an
    /// else branch's `or` tree (failing), with whether it holds.
    fn guards(&self, op: Op) -> Vec<(Value, bool)> {
        let func = self.func;
        let parents = self.fx.affine().parents();
        let body = func.ops[self.p].body();
        let mut out = Vec::new();
        let mut cur = op;
        while let Some(region) = parents.region_of(cur) {
            if region == body {
                break;
            }
            let Some(owner) = parents.op_of(region) else {
                break;
            };
            let data = &func.ops[owner];
            if data.kind == OpKind::If {
                let then = data.then_region() == region;
                let c = data.cond();
                let mut atoms = Vec::new();
                if then {
                    conjuncts(func, c, &mut atoms);
                } else {
                    disjuncts(func, c, &mut atoms);
                }
                out.extend(atoms.into_iter().map(|a| (a, then)));
            }
            cur = owner;
        }
        out
    }

    /// The coordinates fixed for `op` by the `if`s between it and the
    /// loop body (`threadIdx.d == k` in a then branch, `!=` in an else);
    /// `None` if they contradict each other (the op never runs).
    fn pins(&self, op: Op) -> Option<[Option<i64>; 3]> {
        let ivs = &self.func.regions[self.func.ops[self.p].body()].args;
        let mut pins = [None; 3];
        for (atom, holds) in self.guards(op) {
            if let Some((d, k)) = pin_of(self.func, ivs, atom, holds) {
                match pins[d] {
                    Some(old) if old != k => return None,
                    _ => pins[d] = Some(k),
                }
            }
        }
        Some(pins)
    }

    /// Bounds `[lo, hi]` on each coordinate that the `if`s between `op`
    /// and the loop's body impose (comparisons of a coordinate with a
    /// small constant; unbounded where there are none).
    fn bounds(&self, op: Op) -> [(i64, i64); 3] {
        let ivs = &self.func.regions[self.func.ops[self.p].body()].args;
        let mut out = [(i64::MIN, i64::MAX); 3];
        for (atom, holds) in self.guards(op) {
            if let Some((d, lo, hi)) = range_of(self.func, ivs, atom, holds) {
                out[d].0 = out[d].0.max(lo);
                out[d].1 = out[d].1.min(hi);
            }
        }
        out
    }

    /// Each coordinate's range `[lo, hi]` under `pins` (empty when
    /// `lo > hi`); `None` if one is unknown.
    fn domain(&self, pins: &[Option<i64>; 3]) -> Option<[(i64, i64); 3]> {
        let mut out = [(0, 0); 3];
        for d in 0..3 {
            let hi = self.extents[d].map(|e| i64::try_from(e).unwrap_or(i64::MAX) - 1);
            out[d] = match (pins[d], hi) {
                (Some(k), Some(h)) if k > h => (1, 0),
                (Some(k), _) => (k, k),
                (None, Some(h)) => (0, h),
                (None, None) => return None,
            };
        }
        Some(out)
    }
}

/// The operands of the `or` tree of `i1` value `v`.
fn disjuncts(func: &Function, v: Value, out: &mut Vec<Value>) {
    operands_of(func, BinOp::Or, v, out);
}

/// `(d, k)` if `atom` being `holds` means `ivs[d] == k`: `cmp eq` (or
/// `ne` when it fails) of the coordinate, or its zero or sign extension,
/// and a constant.
pub(crate) fn pin_of(
    func: &Function,
    ivs: &[Value],
    atom: Value,
    holds: bool,
) -> Option<(usize, i64)> {
    let data = &func.ops[func.defining_op(atom)?];
    let want = if holds { CmpPred::Eq } else { CmpPred::Ne };
    if data.kind != OpKind::Cmp(want) || data.operands.len() != 2 {
        return None;
    }
    let coord = |v: Value| coord_of(func, ivs, v);
    let (a, b) = (data.lhs(), data.rhs());
    let (d, k) = match (coord(a), coord(b)) {
        (Some(d), None) => (d, b),
        (None, Some(d)) => (d, a),
        _ => return None,
    };
    let raw = func.const_bits(k)?;
    // Thread coordinates are below 1024: a constant that reads as
    // negative or huge pins to no thread, which `domain` sees as empty.
    Some((d, i64::try_from(raw).unwrap_or(-1)))
}

/// The dimension `d` of `v` when it is `ivs[d]` or its zero or sign
/// extension: a thread coordinate as a comparison reads it.
fn coord_of(func: &Function, ivs: &[Value], v: Value) -> Option<usize> {
    let v = match func.defining_op(v).map(|o| &func.ops[o]) {
        Some(d) if matches!(d.kind, OpKind::Cast(CastOp::ZExt | CastOp::SExt)) => d.input(),
        _ => v,
    };
    ivs.iter().position(|&iv| iv == v)
}

/// `(d, lo, hi)` if `atom` being `holds` means `lo <= ivs[d] <= hi`: an
/// ordered comparison (signed, or unsigned: coordinates are not negative)
/// of the coordinate, or its zero or sign extension, with a constant in
/// `[0, 2^31)`.
fn range_of(func: &Function, ivs: &[Value], atom: Value, holds: bool) -> Option<(usize, i64, i64)> {
    use CmpPred::*;
    let data = &func.ops[func.defining_op(atom)?];
    let OpKind::Cmp(pred) = data.kind else {
        return None;
    };
    if data.operands.len() != 2 {
        return None;
    }
    let coord = |v: Value| coord_of(func, ivs, v);
    let (a, b) = (data.lhs(), data.rhs());
    // `coord pred k`, the comparison turned around when the coordinate is
    // on the right.
    let (d, k, pred) = match (coord(a), coord(b)) {
        (Some(d), None) => (d, b, pred),
        (None, Some(d)) => {
            let swapped = match pred {
                Slt => Sgt,
                Sle => Sge,
                Sgt => Slt,
                Sge => Sle,
                Ult => Ugt,
                Ule => Uge,
                Ugt => Ult,
                Uge => Ule,
                _ => return None,
            };
            (d, a, swapped)
        }
        _ => return None,
    };
    let k = i64::try_from(func.const_bits(k)?)
        .ok()
        .filter(|k| (0..1 << 31).contains(k))?;
    let pred = if holds {
        pred
    } else {
        match pred {
            Slt => Sge,
            Sle => Sgt,
            Sgt => Sle,
            Sge => Slt,
            Ult => Uge,
            Ule => Ugt,
            Ugt => Ule,
            Uge => Ult,
            _ => return None,
        }
    };
    Some(match pred {
        Slt | Ult => (d, i64::MIN, k - 1),
        Sle | Ule => (d, i64::MIN, k),
        Sgt | Ugt => (d, k + 1, i64::MAX),
        Sge | Uge => (d, k, i64::MAX),
        _ => return None,
    })
}

/// An offset split for the test: `v · P(t) + Q(t) + fixed`, with the
/// pinned coordinates substituted.
#[derive(Debug)]
struct Split {
    /// Constant part of `Q`.
    q0: i128,
    /// Coefficients of `Q` per coordinate.
    q: [i128; 3],
    /// The run-time factor `v`, if any term has one.
    factor: Option<Value>,
    /// Constant part of `P`.
    p0: i128,
    /// Coefficients of `P` per coordinate.
    p: [i128; 3],
    /// Terms that are the same for every thread of a block.
    fixed: Affine,
}

impl Split {
    /// `None` for lane or warp terms, or two different run-time factors.
    fn of(o: &Affine, pins: &[Option<i64>; 3]) -> Option<Split> {
        // A fixed value that is the factor of a product counts toward P
        // (`(ty + 1) * cols` has the term `cols`).
        let factor = o.terms.keys().find_map(|t| match t {
            Sym::Product(_, v) => Some(*v),
            _ => None,
        });
        let mut s = Split {
            q0: i128::from(o.constant),
            q: [0; 3],
            factor,
            p0: 0,
            p: [0; 3],
            fixed: Affine::constant(0),
        };
        for (&t, &c) in &o.terms {
            let c = i128::from(c);
            match t {
                Sym::Thread(d) => match pins[d.index()] {
                    Some(k) => s.q0 += c * i128::from(k),
                    None => s.q[d.index()] += c,
                },
                Sym::Product(Factor::Thread(d), v) if Some(v) == factor => match pins[d.index()] {
                    Some(k) => s.p0 += c * i128::from(k),
                    None => s.p[d.index()] += c,
                },
                Sym::Value(v) if Some(v) == factor => s.p0 += c,
                Sym::Product(_, v) if Some(v) != factor => return None,
                Sym::Lane | Sym::Warp => return None,
                Sym::Product(f, _) if f.sym().varies_by_thread() => return None,
                other => {
                    let term = Affine::term(other, i64::try_from(c).ok()?);
                    s.fixed = s.fixed.checked_add(&term)?;
                }
            }
        }
        Some(s)
    }

    fn q_at(&self, t: &[i64; 3]) -> i128 {
        self.q0 + (0..3).map(|d| self.q[d] * i128::from(t[d])).sum::<i128>()
    }

    fn p_at(&self, t: &[i64; 3]) -> i128 {
        self.p0 + (0..3).map(|d| self.p[d] * i128::from(t[d])).sum::<i128>()
    }

    /// The least and greatest `Q` over `dom`.
    fn q_range(&self, dom: &[(i64, i64); 3]) -> (i128, i128) {
        let (mut lo, mut hi) = (self.q0, self.q0);
        for (&c, &(from, to)) in self.q.iter().zip(dom) {
            let (a, b) = (c * i128::from(from), c * i128::from(to));
            lo += a.min(b);
            hi += a.max(b);
        }
        (lo, hi)
    }

    /// The gcd of every change `P(t) - P'(t')` can make (0: none).
    fn p_gcd(&self, other: &Split) -> i128 {
        let mut g = (self.p0 - other.p0).abs();
        for &c in self.p.iter().chain(&other.p) {
            g = gcd(g, c.abs());
        }
        g
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Every coordinate triple of `dom`, x fastest; `None` for more than
/// [`MAX_THREADS`].
fn threads(dom: &[(i64, i64); 3]) -> Option<Vec<[i64; 3]>> {
    let mut n: usize = 1;
    for &(lo, hi) in dom {
        let len = usize::try_from(hi - lo + 1).ok()?;
        n = n.checked_mul(len)?;
    }
    if n > MAX_THREADS {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for z in dom[2].0..=dom[2].1 {
        for y in dom[1].0..=dom[1].1 {
            for x in dom[0].0..=dom[0].1 {
                out.push([x, y, z]);
            }
        }
    }
    Some(out)
}
