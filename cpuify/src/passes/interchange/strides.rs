//! Run-time separation of threads whose accesses have strides known only
//! at run time: `t_out[x + y*nx + k*nx*ny]` written by thread `(x, y)` on
//! trip `k` never meets another thread's write when `nx` is at least the
//! block's width and `nx*ny` at least the block's whole footprint.
//!
//! An address is read as a polynomial of the thread loop's indices and of
//! leaves: values defined before the thread loop (*invariant*: one value
//! for the whole block) and anything else the walk cannot open (loop
//! counters, carried values, loads: *varying*, possibly different in the
//! two accesses compared). Integer casts are read as the identity, as in
//! `cucc_ir::affine` (index arithmetic does not wrap). Two accesses `A`,
//! `B` of one base object, in units of the access size `s`, are
//!
//! ```text
//! A = Σ a_d·t_d + N_A      B = Σ a_d·t'_d + N_B
//! ```
//!
//! with the same invariant coefficients `a_d` of the thread indices. Let
//! `S` be an invariant monomial dividing every monomial of `N_A - N_B`
//! (with `B`'s varying leaves renamed, since another thread on another
//! trip has its own). Then for threads `t ≠ t'` the accesses are disjoint
//! when, at run time,
//!
//! 1. the `a_d` form a mixed radix over the block's extents `E_d` (sorted,
//!    each `|a|` of a dimension with `E_d > 1` exceeds the span
//!    `Σ |a_e|·(E_e - 1)` of the smaller ones, and a dimension with
//!    `a_d = 0` has `E_d = 1`), so `Σ a_d·t_d` differs
//!    between threads and spans fewer than `W = Σ |a_d|·(E_d - 1) + 1`
//!    units; and
//! 2. `|S| >= W`: `A - B = Σ a_d·(t_d - t'_d) + m·S` is then nonzero for
//!    any integer `m` (for `m = 0` by 1, otherwise its first part is
//!    shorter than `|S|`).
//!
//! When `N_A - N_B` is 0 only the first is needed. The checks are built
//! in 64 bits from 32-bit leaves, with degrees and constants bounded so
//! they cannot overflow; a 64-bit leaf is checked to fit 32 bits first.

use cucc_ir::affine::signed_const;
use cucc_ir::{
    BinOp, Builder, CastOp, CmpPred, Function, MemEffect, Op, OpKind, Region, Type, Types, Value,
};
use std::collections::BTreeMap;

/// A symbol of an address polynomial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Sym {
    /// The thread loop's index in dimension `d`.
    Thread(usize),
    /// A value defined before the thread loop.
    Invariant(Value),
    /// Any other value, as seen by access `side` (0 or 1) of a pair.
    Varying(Value, u8),
}

/// A product of symbols (sorted, with repetition).
type Monomial = Vec<Sym>;

/// `Σ coefficient · monomial`; zero coefficients are never stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Poly(BTreeMap<Monomial, i128>);

/// Bounds on what is built, so that run-time checks cannot overflow and
/// adversarial IR cannot blow up.
const MAX_TERMS: usize = 32;
const MAX_DEGREE: usize = 4;
const DEPTH: u32 = 64;

impl Poly {
    fn constant(c: i128) -> Poly {
        let mut p = Poly::default();
        p.add_term(Vec::new(), c);
        p
    }

    fn sym(s: Sym) -> Poly {
        let mut p = Poly::default();
        p.add_term(vec![s], 1);
        p
    }

    fn add_term(&mut self, m: Monomial, c: i128) {
        let e = self.0.entry(m).or_insert(0);
        *e += c;
        if *e == 0 {
            self.0.retain(|_, c| *c != 0);
        }
    }

    fn add(&self, o: &Poly, sign: i128) -> Option<Poly> {
        let mut out = self.clone();
        for (m, &c) in &o.0 {
            out.add_term(m.clone(), c.checked_mul(sign)?);
        }
        out.bounded()
    }

    fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut out = Poly::default();
        for (ma, &ca) in &self.0 {
            for (mb, &cb) in &o.0 {
                let mut m = ma.clone();
                m.extend(mb.iter().copied());
                m.sort();
                if m.len() > MAX_DEGREE {
                    return None;
                }
                out.add_term(m, ca.checked_mul(cb)?);
            }
        }
        out.bounded()
    }

    fn bounded(self) -> Option<Poly> {
        let small =
            self.0.len() <= MAX_TERMS && self.0.values().all(|c| c.unsigned_abs() < 1u128 << 100);
        small.then_some(self)
    }

    /// Exact division of every coefficient by `k`.
    fn div_exact(&self, k: i128) -> Option<Poly> {
        let mut out = Poly::default();
        for (m, &c) in &self.0 {
            if c % k != 0 {
                return None;
            }
            out.add_term(m.clone(), c / k);
        }
        Some(out)
    }

    /// The coefficient polynomial of thread index `d` (the monomials
    /// holding it once, without it), or `None` if `d` appears otherwise
    /// than linearly times invariant symbols.
    fn thread_coeff(&self, d: usize) -> Option<Poly> {
        let mut out = Poly::default();
        for (m, &c) in &self.0 {
            let n = m.iter().filter(|&&s| s == Sym::Thread(d)).count();
            if n == 0 {
                continue;
            }
            let rest: Monomial = m.iter().copied().filter(|&s| s != Sym::Thread(d)).collect();
            if n > 1 || rest.iter().any(|s| !matches!(s, Sym::Invariant(_))) {
                return None;
            }
            out.add_term(rest, c);
        }
        Some(out)
    }

    /// The monomials without thread indices.
    fn without_threads(&self) -> Poly {
        let mut out = Poly::default();
        for (m, &c) in &self.0 {
            if !m.iter().any(|s| matches!(s, Sym::Thread(_))) {
                out.add_term(m.clone(), c);
            }
        }
        out
    }

    /// The same polynomial with varying leaves seen by access `side`.
    fn on_side(&self, side: u8) -> Poly {
        let mut out = Poly::default();
        for (m, &c) in &self.0 {
            let mut m: Monomial = m
                .iter()
                .map(|&s| match s {
                    Sym::Varying(v, _) => Sym::Varying(v, side),
                    s => s,
                })
                .collect();
            m.sort();
            out.add_term(m, c);
        }
        out
    }

    /// The largest invariant monomial (with coefficient) dividing every
    /// monomial: the gcd of the coefficients times the invariant symbols
    /// all monomials share. `None` for the zero polynomial.
    fn invariant_divisor(&self) -> Option<(i128, Monomial)> {
        let mut it = self.0.iter();
        let (m0, &c0) = it.next()?;
        let mut g = c0.abs();
        let mut common: Monomial = m0
            .iter()
            .copied()
            .filter(|s| matches!(s, Sym::Invariant(_)))
            .collect();
        for (m, &c) in it {
            g = gcd(g, c.abs());
            let mut rest = m.clone();
            common.retain(|s| match rest.iter().position(|x| x == s) {
                Some(i) => {
                    rest.remove(i);
                    true
                }
                None => false,
            });
        }
        Some((g, common))
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Reads addresses of one thread loop as polynomials.
struct Reader<'a> {
    types: &'a Types,
    func: &'a Function,
    /// The thread loop's indices.
    ivs: &'a [Value],
    /// Values defined inside the thread loop.
    inside: std::collections::HashSet<Value>,
}

impl<'a> Reader<'a> {
    fn new(types: &'a Types, func: &'a Function, p: Op) -> Self {
        let body = func.ops[p].body();
        let mut walk = Vec::new();
        func.walk_region(body, &mut walk);
        let mut inside: std::collections::HashSet<Value> =
            func.regions[body].args.iter().copied().collect();
        for &(_, o) in &walk {
            inside.extend(func.ops[o].results.iter().copied());
            for &r in &func.ops[o].regions {
                inside.extend(func.regions[r].args.iter().copied());
            }
        }
        Reader {
            types,
            func,
            ivs: &func.regions[body].args,
            inside,
        }
    }

    /// True if `v` is a launch dimension read inside the thread loop
    /// (`parallel-licm` has not hoisted it): one value for the block, and
    /// a copy before the loop reads the same.
    fn block_constant(&self, v: Value) -> bool {
        self.func
            .defining_op(v)
            .is_some_and(|d| is_dim_read(&self.func.ops[d].kind))
    }

    /// The integer value `v` as a polynomial.
    fn int(&self, v: Value, depth: u32) -> Option<Poly> {
        if let Some(d) = self.ivs.iter().position(|&iv| iv == v) {
            return Some(Poly::sym(Sym::Thread(d)));
        }
        let bits = self.types[self.func.value_type(v)].int_bits()?;
        if let Some(raw) = self.func.const_bits(v) {
            return Some(Poly::constant(i128::from(signed_const(raw, bits))));
        }
        if !self.inside.contains(&v) || self.block_constant(v) {
            return Some(Poly::sym(Sym::Invariant(v)));
        }
        let leaf = || Some(Poly::sym(Sym::Varying(v, 0)));
        if depth == 0 {
            return leaf();
        }
        let Some(d) = self.func.defining_op(v) else {
            return leaf();
        };
        let data = &self.func.ops[d];
        let int = |v: Value| self.int(v, depth - 1);
        let both = || int(data.lhs()).zip(int(data.rhs()));
        let opened = match data.kind {
            OpKind::Binary(BinOp::Add, _) => both().and_then(|(a, b)| a.add(&b, 1)),
            OpKind::Binary(BinOp::Sub, _) => both().and_then(|(a, b)| a.add(&b, -1)),
            OpKind::Binary(BinOp::Mul, _) => both().and_then(|(a, b)| a.mul(&b)),
            OpKind::Binary(BinOp::Shl, _) => {
                // Amounts of the width or more give 0: not a scaling.
                let k = self.func.const_bits(data.rhs())?;
                if k >= 62.min(u64::from(bits)) {
                    return leaf();
                }
                int(data.lhs()).and_then(|a| a.mul(&Poly::constant(1i128 << k)))
            }
            OpKind::Cast(CastOp::SExt | CastOp::ZExt | CastOp::Trunc) => int(data.input()),
            _ => return leaf(),
        };
        // An expression too large to open stays one (varying) leaf.
        opened.or_else(leaf)
    }

    /// The byte offset of pointer `ptr` from its root, or `None` when it is
    /// not a chain of `ptr.index`, `ptr.field` and `spacecast` ops.
    fn offset(&self, ptr: Value, depth: u32) -> Option<(Value, Poly)> {
        let Some(d) = self.func.defining_op(ptr) else {
            return Some((ptr, Poly::default()));
        };
        if depth == 0 {
            return None;
        }
        let data = &self.func.ops[d];
        match &data.kind {
            OpKind::PtrIndex { elem } => {
                let (root, base) = self.offset(data.ptr(), depth - 1)?;
                let size = i128::from(self.types.size_of(*elem));
                let idx = self.int(data.index(), DEPTH)?;
                let step = idx.mul(&Poly::constant(size))?;
                Some((root, base.add(&step, 1)?))
            }
            OpKind::PtrField { ty, field } => {
                let (root, base) = self.offset(data.ptr(), depth - 1)?;
                let Type::Struct(s) = &self.types[*ty] else {
                    return None;
                };
                let off = i128::from(s.fields.get(*field as usize)?.offset);
                Some((root, base.add(&Poly::constant(off), 1)?))
            }
            OpKind::Cast(CastOp::SpaceCast) => self.offset(data.input(), depth - 1),
            OpKind::Alloca { .. } | OpKind::GlobalAddr(_) | OpKind::DynamicShared => {
                Some((ptr, Poly::default()))
            }
            _ => None,
        }
    }

    /// The address of the load or store `op`: root pointer, offset in
    /// units of the access size, and that size.
    fn access(&self, op: Op) -> Option<(Value, Poly, u64)> {
        let data = &self.func.ops[op];
        let (ptr, ty) = match data.kind {
            OpKind::Load { .. } => (data.ptr(), self.func.value_type(data.results[0])),
            OpKind::Store { .. } => (data.ptr(), self.func.value_type(data.value())),
            _ => return None,
        };
        let size = self.types.size_of(ty);
        if size == 0 {
            return None;
        }
        let (root, off) = self.offset(ptr, DEPTH)?;
        Some((root, off.div_exact(i128::from(size))?, size))
    }
}

/// True for the ops reading a launch dimension.
fn is_dim_read(kind: &OpKind) -> bool {
    matches!(kind, OpKind::BlockDim(_) | OpKind::GridDim(_))
}

/// A run-time condition separating the threads of a pair of accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Check {
    /// Coefficients of the thread indices, in units of the access.
    coeffs: Vec<Poly>,
    /// The stride separating the accesses' other terms (`None`: they are
    /// equal).
    stride: Option<(i128, Monomial)>,
}

/// Why the pair `(a, b)` of conflicting accesses of thread loop `p` cannot
/// be separated at run time, or the check that separates them.
pub(super) fn separate(
    types: &Types,
    func: &Function,
    p: Op,
    a: &MemEffect,
    b: &MemEffect,
) -> Option<Check> {
    if a.base != b.base || a.base == cucc_ir::Base::Unknown {
        return None;
    }
    let r = Reader::new(types, func, p);
    let (root_a, pa, sa) = r.access(a.op)?;
    let (root_b, pb, sb) = r.access(b.op)?;
    if root_a != root_b || sa != sb {
        return None;
    }
    let (pa, pb) = (pa.on_side(0), pb.on_side(1));
    let dims = r.ivs.len();
    let mut coeffs = Vec::with_capacity(dims);
    for d in 0..dims {
        let ca = pa.thread_coeff(d)?;
        if ca != pb.thread_coeff(d)? || !materialisable(&ca, 1) {
            return None;
        }
        coeffs.push(ca);
    }
    let diff = pa.without_threads().add(&pb.without_threads(), -1)?;
    let stride = match diff.invariant_divisor() {
        None => None,
        Some((g, m)) => {
            // A constant stride (`sub[i][tx]` of a `[16][16]` tile) is
            // checked against the block's footprint at run time too: the
            // affine test cannot, the block's extents being unknown. Not
            // when only one-thread blocks could pass: no thread index in
            // the addresses, or a stride no longer than a thread's step.
            if m.is_empty() {
                let steps: Vec<u128> = coeffs
                    .iter()
                    .filter_map(|c| match c.0.iter().next() {
                        Some((k, v)) if k.is_empty() => Some(v.unsigned_abs()),
                        _ => None,
                    })
                    .collect();
                let threadless = coeffs.iter().all(|c| c.0.is_empty());
                if threadless || steps.iter().any(|&a| g.unsigned_abs() <= a) {
                    return None;
                }
            }
            let s = Poly(BTreeMap::from([(m.clone(), g)]));
            if !materialisable(&s, 2) {
                return None;
            }
            Some((g, m))
        }
    };
    Some(Check { coeffs, stride })
}

/// True if `p` is at most one monomial of at most `degree` invariant
/// symbols with a coefficient small enough for the checks to fit 64 bits:
/// a product of two 32-bit values (62 bits) only with coefficient ±1, one
/// value times at most 2^16 (47 bits, times an extent of at most 1024 and
/// summed over three dimensions: under 2^60).
fn materialisable(p: &Poly, degree: usize) -> bool {
    p.0.len() <= 1
        && p.0.iter().all(|(m, c)| {
            let limit: u128 = if m.len() >= 2 { 1 } else { 1 << 16 };
            m.len() <= degree
                && m.iter().all(|s| matches!(s, Sym::Invariant(_)))
                && c.unsigned_abs() <= limit
        })
}

/// Builds, before thread loop `p` in `region`, the conjunction of
/// `checks`; `None` for none.
pub(super) fn materialise(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    checks: &[Check],
) -> Option<Value> {
    if checks.is_empty() {
        return None;
    }
    let at = func.op_index(region, p);
    let loc = func.ops[p].loc;
    let extents = func.ops[p].ubs().to_vec();
    let mut b = Builder::new(types, func);
    b.set_loc(loc);
    b.set_insertion_at(region, at);
    let i64t = b.types.i64();
    let mut conds: Vec<Value> = Vec::new();
    let mut leaves: BTreeMap<Value, Value> = BTreeMap::new();
    let mut leaf = |b: &mut Builder<'_>, conds: &mut Vec<Value>, v: Value| -> Value {
        if let Some(&w) = leaves.get(&v) {
            return w;
        }
        // A dimension read inside the thread loop: read it again here.
        let r = match b.func.defining_op(v).map(|d| b.func.ops[d].kind.clone()) {
            Some(k) if is_dim_read(&k) => {
                let ty = b.func.value_type(v);
                b.op1(k, vec![], ty)
            }
            _ => v,
        };
        let bits = b.types[b.func.value_type(r)].int_bits().unwrap_or(64);
        let w = if bits < 64 {
            b.cast(CastOp::SExt, r, i64t)
        } else {
            // Must fit 32 bits for the products below.
            let i32t = b.types.i32();
            let t = b.cast(CastOp::Trunc, r, i32t);
            let back = b.cast(CastOp::SExt, t, i64t);
            conds.push(b.cmp(CmpPred::Eq, back, r));
            r
        };
        leaves.insert(v, w);
        w
    };
    // |c · Π leaves| in 64 bits.
    let mut magnitude = |b: &mut Builder<'_>, conds: &mut Vec<Value>, c: i128, m: &Monomial| {
        let k = c.unsigned_abs() as i64;
        if m.is_empty() {
            return b.i64(k);
        }
        let mut acc = (k != 1).then(|| b.i64(k));
        for s in m {
            if let Sym::Invariant(v) = *s {
                let w = leaf(b, conds, v);
                acc = Some(match acc {
                    Some(a) => b.binary(BinOp::Mul, a, w),
                    None => w,
                });
            }
        }
        let acc = match acc {
            Some(a) => a,
            None => b.i64(k),
        };
        let zero = b.i64(0);
        let neg = b.cmp(CmpPred::Slt, acc, zero);
        let minus = b.binary(BinOp::Sub, zero, acc);
        b.select(neg, minus, acc)
    };
    let mut done: Vec<&Check> = Vec::new();
    for c in checks {
        if done.contains(&c) {
            continue;
        }
        done.push(c);
        // Dimensions by coefficient: constants by size, then the others in
        // dimension order (`x + y*nx`: 1 before nx).
        let mut order: Vec<usize> = (0..c.coeffs.len()).collect();
        let key = |d: &usize| {
            let p = &c.coeffs[*d];
            match p.0.iter().next() {
                None => (0u8, 0u128),
                Some((m, k)) if m.is_empty() => (1, k.unsigned_abs()),
                Some(_) => (2, *d as u128),
            }
        };
        order.sort_by_key(key);
        let one = b.i64(1);
        let mut span = b.i64(0);
        let mut first = true;
        for d in order {
            let ext = b.cast(CastOp::ZExt, extents[d], i64t);
            let p = &c.coeffs[d];
            let Some((m, &k)) = p.0.iter().next() else {
                // Not separated by this index: one thread along it.
                conds.push(b.cmp(CmpPred::Ule, ext, one));
                continue;
            };
            let a = magnitude(&mut b, &mut conds, k, m);
            if first && m.is_empty() {
                // The smallest stride, a nonzero constant: at least 1.
                first = false;
                let reach = b.binary(BinOp::Sub, ext, one);
                span = b.binary(BinOp::Mul, a, reach);
                continue;
            }
            first = false;
            let need = b.binary(BinOp::Add, span, one);
            let apart = b.cmp(CmpPred::Sge, a, need);
            let single = b.cmp(CmpPred::Ule, ext, one);
            conds.push(b.binary(BinOp::Or, apart, single));
            let reach = b.binary(BinOp::Sub, ext, one);
            let part = b.binary(BinOp::Mul, a, reach);
            span = b.binary(BinOp::Add, span, part);
        }
        if let Some((g, m)) = &c.stride {
            let s = magnitude(&mut b, &mut conds, *g, m);
            let w = b.binary(BinOp::Add, span, one);
            conds.push(b.cmp(CmpPred::Sge, s, w));
        }
    }
    let mut all = conds.pop()?;
    for c in conds {
        all = b.binary(BinOp::And, all, c);
    }
    Some(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(i: usize) -> Value {
        Value::new(i)
    }

    #[test]
    fn thread_coefficients_and_strides() {
        // x + y*nx + k*nx*ny against itself on another trip k'.
        let (nx, ny) = (Sym::Invariant(v(1)), Sym::Invariant(v(2)));
        let k = Sym::Varying(v(3), 0);
        let mut a = Poly::sym(Sym::Thread(0));
        a.add_term(vec![Sym::Thread(1), nx], 1);
        let mut km = vec![k, nx, ny];
        km.sort();
        a.add_term(km, 1);
        assert_eq!(a.thread_coeff(0), Some(Poly::constant(1)));
        assert_eq!(a.thread_coeff(1), Some(Poly::sym(nx)));
        assert_eq!(a.thread_coeff(2), Some(Poly::default()));
        let diff = a
            .without_threads()
            .on_side(0)
            .add(&a.without_threads().on_side(1), -1)
            .expect("small");
        let mut want = vec![nx, ny];
        want.sort();
        assert_eq!(diff.invariant_divisor(), Some((1, want)));
        // The same access outside any loop: no stride needed.
        let b = Poly::sym(Sym::Thread(0));
        let same = b.on_side(0).add(&b.on_side(1), -1).expect("small");
        assert_eq!(same.invariant_divisor(), None);
    }

    #[test]
    fn nonlinear_thread_terms_are_refused() {
        let mut a = Poly::default();
        a.add_term(vec![Sym::Thread(0), Sym::Thread(0)], 1);
        assert_eq!(a.thread_coeff(0), None);
        let mut b = Poly::default();
        b.add_term(vec![Sym::Thread(0), Sym::Varying(Value::new(4), 0)], 1);
        assert_eq!(b.thread_coeff(0), None);
        // A product of two run-time values needs coefficient 1 to be built.
        let m = Poly(BTreeMap::from([(
            vec![Sym::Invariant(v(1)), Sym::Invariant(v(2))],
            2,
        )]));
        assert!(!materialisable(&m, 2));
    }
}
