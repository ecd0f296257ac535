//! Whether a condition is the same for every lane of a warp, from its values
//! at the first and the last lane.
//!
//! A guard such as `row < n` with `row = (blockIdx.x * blockDim.x +
//! threadIdx.x) / 32` is a monotone function of the lane: as the lane grows
//! the row never decreases, so the comparison flips at most once, and it is
//! the same for every lane exactly when it is the same for the first and
//! the last. Evaluating two lanes instead of all 32 is what this module
//! proves sound, per condition:
//!
//! - every integer value between the lane id and the comparison is shown
//!   nondecreasing, nonincreasing or constant in the lane, in the order
//!   (signed or unsigned) its user reads it;
//! - where wrap-around could break that (an `add` without `nsw`, a `mul`,
//!   a change of order between signed and unsigned readers), the proof
//!   needs a *witness*: the value at the last lane is not below (above) its
//!   value at the first. With the value's total change across the warp
//!   bounded below 2^(width-1), wrapping once would put the last value
//!   below the first, so the witness is exact;
//! - two terms moving in opposite directions (a signed division's sign
//!   fix-up `x + ((x >> 31) >>> 27)` as nvcc writes it) are summed only when
//!   one of them is *pinned*: equal at both ends, hence constant;
//! - an `if` choosing between two computations on a warp-uniform flag
//!   (lane ids in one x row or not) follows the monotone branch under a
//!   *precondition* on the flag.
//!
//! The caller evaluates the condition's ops at both ends and checks the
//! witnesses, pins and preconditions at run time; when they fail it falls
//! back to evaluating every lane, so the result is always exact.

use cucc_ir::{BinOp, Builder, CastOp, CmpPred, Function, OpKind, Types, Value, ValueDef};
use std::collections::{HashMap, HashSet};

/// How a value changes as the lane grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    /// The same for every lane.
    Const,
    /// Never decreases.
    Inc,
    /// Never increases.
    Dec,
}

impl Dir {
    fn flip(self) -> Dir {
        match self {
            Dir::Inc => Dir::Dec,
            Dir::Dec => Dir::Inc,
            Dir::Const => Dir::Const,
        }
    }
}

/// Which integer order a value is read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Order {
    Signed,
    Unsigned,
}

/// What must hold at run time for the two-lane test to be exact.
#[derive(Debug, Default)]
pub(crate) struct EndpointCheck {
    /// `(v, order, dir)`: `v` at the last lane is ordered after (`Inc`) or
    /// before (`Dec`) its value at the first lane, or equal.
    pub witnesses: Vec<(Value, Order, Dir)>,
    /// Values equal at both ends.
    pub pins: Vec<Value>,
    /// `(flag, expected)`: a lane-independent flag with its required value.
    pub preconditions: Vec<(Value, bool)>,
    /// The monotone comparisons the condition is built from: each must be
    /// equal at both ends.
    pub leaves: Vec<Value>,
}

impl EndpointCheck {
    /// Emits the test that the checks hold (the leaves excluded), given
    /// each value's copies at the first and last lane (`ends`).
    pub(crate) fn emit_holds(
        &self,
        b: &mut Builder<'_>,
        ends: impl Fn(Value) -> (Value, Value),
    ) -> Value {
        let mut ok = b.bool(true);
        for &(flag, expected) in &self.preconditions {
            let (f, _) = ends(flag);
            let want = b.bool(expected);
            let is = b.cmp(CmpPred::Eq, f, want);
            ok = b.binary(BinOp::And, ok, is);
        }
        for &(v, order, dir) in &self.witnesses {
            let (first, last) = ends(v);
            let pred = match (order, dir) {
                (Order::Signed, Dir::Dec) => CmpPred::Sle,
                (Order::Signed, _) => CmpPred::Sge,
                (Order::Unsigned, Dir::Dec) => CmpPred::Ule,
                (Order::Unsigned, _) => CmpPred::Uge,
            };
            let w = b.cmp(pred, last, first);
            ok = b.binary(BinOp::And, ok, w);
        }
        for &v in &self.pins {
            let (first, last) = ends(v);
            let eq = b.cmp(CmpPred::Eq, last, first);
            ok = b.binary(BinOp::And, ok, eq);
        }
        ok
    }
}

/// Analyses `cond`, computed by ops of a lane loop's body whose results are
/// `inside` (nested regions included) from the lane id `lane`. Returns the
/// run-time checks under which comparing the condition's leaves at the
/// first and last lane decides whether all lanes agree, or `None` if the
/// condition is not built from monotone comparisons.
pub(crate) fn endpoint_check(
    func: &Function,
    types: &Types,
    lane: Value,
    inside: &HashSet<Value>,
    cond: Value,
) -> Option<EndpointCheck> {
    let mut a = Analysis::new(func, types, lane, inside);
    a.leaves(cond)?;
    Some(a.check)
}

/// For an integer value `v` of a lane loop's body that takes at most two
/// values across a warp (monotone, changing by at most 1 from the first to
/// the last lane: a lane-id quotient by 32 such as a warp's row), the
/// checks under which it is the same in every lane: `v` itself pinned
/// (equal at both ends), plus the witnesses and preconditions its
/// monotonicity needs. `None` for values that are constant anyway, not
/// monotone, or change more.
pub(crate) fn two_valued(
    func: &Function,
    types: &Types,
    lane: Value,
    inside: &HashSet<Value>,
    v: Value,
) -> Option<EndpointCheck> {
    types[func.value_type(v)].int_bits()?;
    for order in [Order::Signed, Order::Unsigned] {
        let mut a = Analysis::new(func, types, lane, inside);
        if let Some(m) = a.mono(v, order, true) {
            if m.dir == Dir::Const || m.span > 1 {
                return None;
            }
            a.check.pins.push(v);
            return Some(a.check);
        }
    }
    None
}

/// A monotone value: its direction and a bound on how much it changes
/// between the first and last lane (in the order it was analysed in).
#[derive(Clone, Copy, Debug)]
struct Mono {
    dir: Dir,
    span: u128,
}

const CONST: Mono = Mono {
    dir: Dir::Const,
    span: 0,
};

struct Analysis<'a> {
    func: &'a Function,
    types: &'a Types,
    lane: Value,
    inside: &'a HashSet<Value>,
    memo: HashMap<(Value, Order, bool), Option<Mono>>,
    check: EndpointCheck,
}

impl<'a> Analysis<'a> {
    /// A fresh analysis of the lane loop whose body defines `inside`.
    fn new(func: &'a Function, types: &'a Types, lane: Value, inside: &'a HashSet<Value>) -> Self {
        Analysis {
            func,
            types,
            lane,
            inside,
            memo: HashMap::new(),
            check: EndpointCheck::default(),
        }
    }

    /// Collects the monotone comparisons `c` (an `i1`) is built from.
    fn leaves(&mut self, c: Value) -> Option<()> {
        if self.is_uniform(c) {
            return Some(());
        }
        let op = self.func.defining_op(c)?;
        let data = &self.func.ops[op];
        let (x, y) = match data.kind {
            OpKind::Binary(..) | OpKind::Cmp(..) => (data.lhs(), data.rhs()),
            _ => return None,
        };
        match &data.kind {
            OpKind::Binary(BinOp::And | BinOp::Or | BinOp::Xor, _) => {
                self.leaves(x)?;
                self.leaves(y)
            }
            OpKind::Cmp(pred) if !pred.is_float() => {
                let order = match pred {
                    CmpPred::Slt | CmpPred::Sle | CmpPred::Sgt | CmpPred::Sge => Order::Signed,
                    _ => Order::Unsigned,
                };
                let mx = self.mono(x, order, true)?;
                let my = self.mono(y, order, true)?;
                match pred {
                    // Equality of a monotone value flips twice; only a
                    // constant one is safe.
                    CmpPred::Eq | CmpPred::Ne => {
                        for (v, m) in [(x, mx), (y, my)] {
                            if m.dir != Dir::Const {
                                self.check.pins.push(v);
                            }
                        }
                    }
                    _ => {
                        if mx.dir == my.dir && mx.dir != Dir::Const {
                            // x - y of two same-direction terms: pin one.
                            self.check.pins.push(y);
                        }
                    }
                }
                self.check.leaves.push(c);
                Some(())
            }
            _ => None,
        }
    }

    /// True if `v` does not depend on the lane: defined outside the lane
    /// loop, or computed there from such values by pure ops.
    fn is_uniform(&mut self, v: Value) -> bool {
        self.mono(v, Order::Signed, false)
            .is_some_and(|m| m.dir == Dir::Const)
    }

    fn width(&self, v: Value) -> Option<u32> {
        self.types[self.func.value_type(v)]
            .int_bits()
            .map(u32::from)
    }

    /// The monotonicity of `v` read in `order`. `top` says whether `v` is
    /// computed at the top level of the lane body, where the caller can
    /// evaluate it at both ends (witnesses and pins may name it).
    fn mono(&mut self, v: Value, order: Order, top: bool) -> Option<Mono> {
        let key = (v, order, top);
        if let Some(m) = self.memo.get(&key) {
            return *m;
        }
        let m = self.mono_uncached(v, order, top);
        self.memo.insert(key, m);
        m
    }

    fn mono_uncached(&mut self, v: Value, order: Order, top: bool) -> Option<Mono> {
        if v == self.lane {
            // 0 <= lane < 32: increasing in either order.
            return Some(Mono {
                dir: Dir::Inc,
                span: 31,
            });
        }
        if !self.inside.contains(&v) {
            return Some(CONST);
        }
        let (op, index) = match self.func.values[v].def {
            ValueDef::Result { op, index } => (op, index as usize),
            // A nested region's argument (a loop's carried value).
            ValueDef::Arg { .. } => return None,
        };
        let data = &self.func.ops[op];
        let width = self.width(v);
        let m = match &data.kind {
            OpKind::Const { .. } => CONST,
            OpKind::Binary(bop, flags) if !bop.is_float() => {
                self.binary(v, *bop, flags.nsw, data.lhs(), data.rhs(), order, top)?
            }
            OpKind::Cast(cast) => match cast {
                // A signed-monotone value stays so when widened by sign;
                // read unsigned, it may cross zero: witness.
                CastOp::SExt => {
                    let m = self.mono(data.input(), Order::Signed, top)?;
                    self.reorder(v, m, Order::Signed, order, top)?
                }
                // Zero-extended values are non-negative in both orders.
                CastOp::ZExt => self.mono(data.input(), Order::Unsigned, top)?,
                _ => self.uniform_operands(&data.operands, top)?,
            },
            OpKind::Select => {
                if !self.is_uniform(data.cond()) {
                    return None;
                }
                let ma = self.mono(data.if_true(), order, top)?;
                let mb = self.mono(data.if_false(), order, top)?;
                join(ma, mb)?
            }
            OpKind::If if self.is_uniform(data.cond()) => {
                let c = data.cond();
                let k = index;
                let (then_r, else_r) = (data.then_region(), data.else_region());
                let arm = |a: &mut Self, r| -> Option<Mono> {
                    let term = *a.func.regions[r].ops.last()?;
                    let y = *a.func.ops[term].values().get(k)?;
                    a.mono(y, order, false)
                };
                let then_m = arm(self, then_r);
                let else_m = arm(self, else_r);
                match (then_m, else_m) {
                    (Some(t), Some(e)) => match join(t, e) {
                        Some(m) => m,
                        None if top => {
                            self.check.preconditions.push((c, true));
                            t
                        }
                        None => return None,
                    },
                    (Some(t), None) if top => {
                        self.check.preconditions.push((c, true));
                        t
                    }
                    (None, Some(e)) if top => {
                        self.check.preconditions.push((c, false));
                        e
                    }
                    _ => return None,
                }
            }
            kind if is_plain_pure(kind) => self.uniform_operands(&data.operands, top)?,
            OpKind::Load {
                volatile: false, ..
            } if self.mono(data.ptr(), Order::Unsigned, top)?.dir == Dir::Const => {
                // Every lane reads the same address at the same time.
                CONST
            }
            _ => return None,
        };
        if let Some(w) = width {
            if m.span >= 1u128 << (w.max(2) - 1) {
                return None;
            }
        }
        Some(m)
    }

    /// Constant if every operand is.
    fn uniform_operands(&mut self, operands: &[Value], top: bool) -> Option<Mono> {
        for &x in operands {
            if self.mono(x, Order::Signed, top)?.dir != Dir::Const {
                return None;
            }
        }
        Some(CONST)
    }

    /// `m`, known monotone in `have`, read in `want`: a witness if they
    /// differ (crossing the other order's wrap point breaks it).
    fn reorder(&mut self, v: Value, m: Mono, have: Order, want: Order, top: bool) -> Option<Mono> {
        if have != want && m.dir != Dir::Const {
            self.witness(v, want, m.dir, top)?;
        }
        Some(m)
    }

    fn witness(&mut self, v: Value, order: Order, dir: Dir, top: bool) -> Option<()> {
        if !top {
            return None;
        }
        if !self.check.witnesses.contains(&(v, order, dir)) {
            self.check.witnesses.push((v, order, dir));
        }
        Some(())
    }

    fn pin(&mut self, v: Value, top: bool) -> Option<()> {
        if !top {
            return None;
        }
        if !self.check.pins.contains(&v) {
            self.check.pins.push(v);
        }
        Some(())
    }

    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        v: Value,
        bop: BinOp,
        nsw: bool,
        x: Value,
        y: Value,
        order: Order,
        top: bool,
    ) -> Option<Mono> {
        let const_of = |a: &Self, x: Value| -> Option<i64> {
            let bits = a.func.const_bits(x)?;
            let w = a.width(x)?;
            Some(if w >= 64 {
                bits as i64
            } else {
                ((bits << (64 - w)) as i64) >> (64 - w)
            })
        };
        match bop {
            BinOp::Add | BinOp::Sub => {
                let mx = self.mono(x, order, top)?;
                let my = self.mono(y, order, top)?;
                let my = if bop == BinOp::Sub {
                    Mono {
                        dir: my.dir.flip(),
                        ..my
                    }
                } else {
                    my
                };
                let m = match (mx.dir, my.dir) {
                    (Dir::Const, _) => my,
                    (_, Dir::Const) => mx,
                    (a, b) if a == b => Mono {
                        dir: a,
                        span: mx.span + my.span,
                    },
                    // Opposite directions: the term that falls (the sign
                    // fix-up of a division) must be constant here.
                    (Dir::Inc, _) => {
                        self.pin(y, top)?;
                        mx
                    }
                    _ => {
                        self.pin(x, top)?;
                        my
                    }
                };
                if m.dir != Dir::Const && !(nsw && order == Order::Signed) {
                    self.witness(v, order, m.dir, top)?;
                }
                Some(m)
            }
            BinOp::Mul | BinOp::Shl => {
                let (var, factor) = match (const_of(self, x), const_of(self, y)) {
                    (_, Some(c)) if bop == BinOp::Shl => {
                        if !(0..31).contains(&c) {
                            return None;
                        }
                        (x, 1i64 << c)
                    }
                    (_, Some(c)) => (x, c),
                    (Some(c), None) if bop == BinOp::Mul => (y, c),
                    _ => return self.uniform_operands(&[x, y], top),
                };
                let m = self.mono(var, order, top)?;
                if m.dir == Dir::Const || factor == 0 {
                    return Some(CONST);
                }
                let dir = if factor > 0 { m.dir } else { m.dir.flip() };
                let out = Mono {
                    dir,
                    span: m.span.checked_mul(u128::from(factor.unsigned_abs()))?,
                };
                if !(nsw && order == Order::Signed && bop == BinOp::Mul) {
                    self.witness(v, order, dir, top)?;
                }
                Some(out)
            }
            BinOp::SDiv | BinOp::UDiv | BinOp::AShr | BinOp::LShr => {
                let have = match bop {
                    BinOp::SDiv | BinOp::AShr => Order::Signed,
                    _ => Order::Unsigned,
                };
                let Some(c) = const_of(self, y) else {
                    return self.uniform_operands(&[x, y], top);
                };
                let divisor = match bop {
                    BinOp::SDiv | BinOp::UDiv if c > 0 => c as u128,
                    BinOp::AShr | BinOp::LShr if (0..63).contains(&c) => 1u128 << c,
                    _ => return None,
                };
                let m = self.mono(x, have, top)?;
                let out = Mono {
                    dir: m.dir,
                    span: m.span / divisor + u128::from(m.dir != Dir::Const),
                };
                self.reorder(v, out, have, order, top)
            }
            BinOp::SMin | BinOp::SMax | BinOp::UMin | BinOp::UMax => {
                let have = match bop {
                    BinOp::SMin | BinOp::SMax => Order::Signed,
                    _ => Order::Unsigned,
                };
                let mx = self.mono(x, have, top)?;
                let my = self.mono(y, have, top)?;
                let m = join(mx, my)?;
                self.reorder(v, m, have, order, top)
            }
            _ => self.uniform_operands(&[x, y], top),
        }
    }
}

/// Two monotone values chosen or combined by min/max: monotone if they
/// move the same way.
fn join(a: Mono, b: Mono) -> Option<Mono> {
    let dir = match (a.dir, b.dir) {
        (d, Dir::Const) | (Dir::Const, d) => d,
        (x, y) if x == y => x,
        _ => return None,
    };
    Some(Mono {
        dir,
        span: a.span.max(b.span),
    })
}

/// Pure ops computing the same value in every lane from the same operands.
fn is_plain_pure(kind: &OpKind) -> bool {
    kind.is_pure() && !matches!(kind, OpKind::ThreadId(_) | OpKind::Undef)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cucc_ir::{parse_module, Level, Module};

    /// The lane id of `f`'s lane loop and the values its body defines.
    fn lane_loop(f: &Function) -> (Value, HashSet<Value>) {
        let mut walk = Vec::new();
        f.walk_region(f.body, &mut walk);
        let body = walk
            .iter()
            .find(|&&(_, o)| f.ops[o].kind == OpKind::Parallel { level: Level::Lane })
            .map(|&(_, o)| f.ops[o].body())
            .expect("a lane loop");
        let mut inner = Vec::new();
        f.walk_region(body, &mut inner);
        let inside = inner
            .iter()
            .flat_map(|&(_, o)| f.ops[o].results.clone())
            .collect();
        (f.regions[body].args[0], inside)
    }

    /// Parses a launch whose body is `parallel<warp> { parallel<lane> {..}
    /// }` and analyses the value named `cond` of the lane loop.
    fn analyse(lane_body: &str) -> (Module, Option<EndpointCheck>) {
        let src = format!(
            "file \"t.cu\"\n\
             launch @k(%a: i32, %n: i32, %flag: i1, %out: ptr<global>) {{\n\
             %g = grid_dim x : i32\n\
             %g1 = grid_dim y : i32\n\
             %g2 = grid_dim z : i32\n\
             parallel<grid> (%bx, %by, %bz) in (%g, %g1, %g2) {{\n\
             %c32 = const 32 : i32\n\
             %nw = const 2 : i32\n\
             parallel<warp> (%w) in (%nw) {{\n\
             parallel<lane> (%lane) in (%c32) {{\n\
             {lane_body}\n\
             if %cond {{\n  store %out, %a\n  yield\n}} else {{\n  yield\n}}\n\
             yield\n}}\nyield\n}}\nyield\n}}\nreturn\n}}\n"
        );
        let m = parse_module(&src).expect("test IR parses");
        let check = {
            let (_, f) = m.functions.iter().next().expect("one function");
            let (lane, inside) = lane_loop(f);
            let cond = f
                .values
                .iter()
                .find(|(_, d)| d.name.as_deref() == Some("cond"))
                .map(|(v, _)| v)
                .expect("a value named cond");
            endpoint_check(f, &m.types, lane, &inside, cond)
        };
        (m, check)
    }

    fn name(m: &Module, v: Value) -> String {
        let (_, f) = m.functions.iter().next().expect("one function");
        f.values[v].name.clone().unwrap_or_default()
    }

    #[test]
    fn wrapping_sum_needs_a_witness() {
        let (m, c) = analyse(
            "%t = add %a, %lane : i32\n%c = const 32 : i32\n%row = sdiv %t, %c : i32\n\
             %cond = cmp slt %row, %n : i1",
        );
        let c = c.expect("monotone");
        assert_eq!(c.leaves.len(), 1);
        let w: Vec<(String, Order, Dir)> = c
            .witnesses
            .iter()
            .map(|&(v, o, d)| (name(&m, v), o, d))
            .collect();
        assert_eq!(w, vec![("t".to_string(), Order::Signed, Dir::Inc)]);
        assert!(c.pins.is_empty() && c.preconditions.is_empty());
    }

    #[test]
    fn nsw_sum_read_signed_needs_none() {
        let (_, c) = analyse(
            "%t = add nsw %a, %lane : i32\n%c = const 32 : i32\n%row = sdiv %t, %c : i32\n\
             %cond = cmp slt %row, %n : i1",
        );
        let c = c.expect("monotone");
        assert!(c.witnesses.is_empty(), "{:?}", c.witnesses);
    }

    #[test]
    fn unsigned_read_of_signed_value_needs_a_witness() {
        // sdiv is monotone signed; `ult` reads it unsigned.
        let (m, c) = analyse(
            "%t = add nsw %a, %lane : i32\n%c = const 32 : i32\n%row = sdiv %t, %c : i32\n\
             %cond = cmp ult %row, %n : i1",
        );
        let c = c.expect("monotone");
        let w: Vec<String> = c.witnesses.iter().map(|&(v, _, _)| name(&m, v)).collect();
        assert_eq!(w, vec!["row".to_string()]);
        assert_eq!(c.witnesses[0].1, Order::Unsigned);
    }

    #[test]
    fn remainder_is_not_monotone() {
        let (_, c) =
            analyse("%c = const 8 : i32\n%r = urem %lane, %c : i32\n%cond = cmp slt %r, %n : i1");
        assert!(c.is_none());
    }

    #[test]
    fn equality_pins_the_varying_side() {
        let (m, c) = analyse("%t = add nsw %a, %lane : i32\n%cond = cmp eq %t, %n : i1");
        let c = c.expect("monotone");
        let pins: Vec<String> = c.pins.iter().map(|&v| name(&m, v)).collect();
        assert_eq!(pins, vec!["t".to_string()]);
    }

    #[test]
    fn ids_follow_the_affine_branch_under_a_precondition() {
        let (m, c) = analyse(
            "%x = if %flag -> (i32) {\n  %s = add nsw %a, %lane : i32\n  yield %s\n} else {\n  \
             %d = const 7 : i32\n  %u = urem %lane, %d : i32\n  yield %u\n}\n\
             %cond = cmp slt %x, %n : i1",
        );
        let c = c.expect("monotone under the flag");
        let pre: Vec<(String, bool)> = c
            .preconditions
            .iter()
            .map(|&(v, e)| (name(&m, v), e))
            .collect();
        assert_eq!(pre, vec![("flag".to_string(), true)]);
    }

    #[test]
    fn sign_fixup_of_a_shifted_division_is_checked() {
        // nvcc's `(t + ((t >> 31) >>> 27)) >> 5`, i.e. t / 32.
        let (_, c) = analyse(
            "%t = add %a, %lane : i32\n%c31 = const 31 : i32\n%s = ashr %t, %c31 : i32\n\
             %c27 = const 27 : i32\n%f = lshr %s, %c27 : i32\n%u = add %t, %f : i32\n\
             %c5 = const 5 : i32\n%row = ashr %u, %c5 : i32\n%cond = cmp sge %row, %n : i1",
        );
        let c = c.expect("monotone under witnesses");
        assert!(!c.witnesses.is_empty());
        assert_eq!(c.leaves.len(), 1);
    }

    #[test]
    fn a_lane_quotient_by_32_is_two_valued() {
        let (m, _) = analyse(
            "%t = add %a, %lane : i32\n%c = const 32 : i32\n%row = sdiv %t, %c : i32\n\
             %c16 = const 16 : i32\n%half = sdiv %t, %c16 : i32\n%cond = cmp slt %row, %n : i1",
        );
        let (_, f) = m.functions.iter().next().expect("one function");
        let by_name = |n: &str| {
            f.values
                .iter()
                .find(|(_, d)| d.name.as_deref() == Some(n))
                .map(|(v, _)| v)
                .expect("named value")
        };
        let (lane, inside) = lane_loop(f);
        let row = two_valued(f, &m.types, lane, &inside, by_name("row")).expect("row");
        assert_eq!(row.pins, vec![by_name("row")]);
        assert_eq!(row.witnesses.len(), 1, "the wrapping add");
        // t / 16 may take three values across 32 lanes; t itself 32.
        assert!(two_valued(f, &m.types, lane, &inside, by_name("half")).is_none());
        assert!(two_valued(f, &m.types, lane, &inside, by_name("t")).is_none());
        assert!(two_valued(f, &m.types, lane, &inside, by_name("c")).is_none());
    }

    #[test]
    fn opposite_directions_pin_the_falling_term() {
        let (m, c) = analyse(
            "%z = const 0 : i32\n%neg = sub %z, %lane : i32\n%t = add nsw %lane, %neg : i32\n\
             %cond = cmp slt %t, %n : i1",
        );
        let c = c.expect("monotone with a pin");
        let pins: Vec<String> = c.pins.iter().map(|&v| name(&m, v)).collect();
        assert_eq!(pins, vec!["neg".to_string()]);
    }
}
