//! Float details PTX spells out and C does not: `testp`, sign-bit
//! manipulation (`.abs`, `.xorsign`), `.relu` and `.satfinite` results,
//! conversions rounded toward zero or an infinity, and the float forms of
//! `redux.sync`. Everything works on the bits where C's library would
//! leave a choice (signed zeros, NaN payloads) open.

use super::inst::is_float;
use super::*;
use crate::inst::{Flag, Rounding, TestpOp};
use cucc_ir::intrinsics::{Directed, DirectedOp, Direction};

/// The integer type as wide as float type `ty`, and its sign bit.
fn int_of(b: &mut Builder<'_>, ty: TypeId) -> (TypeId, i64) {
    let bits = (b.types.size_of(ty) * 8) as u8;
    (b.types.int(bits), i64::MIN >> (64 - u32::from(bits)))
}

/// `v` with its sign bit cleared.
pub(super) fn fabs(b: &mut Builder<'_>, v: Value) -> Value {
    let ty = b.func.value_type(v);
    let (ity, sign) = int_of(b, ty);
    let x = b.cast(CastOp::Bitcast, v, ity);
    let m = b.const_int(ity, !sign);
    let x = b.binary(BinOp::And, x, m);
    b.cast(CastOp::Bitcast, x, ty)
}

/// True if the sign bit of float `v` is set.
fn sign_bit(b: &mut Builder<'_>, v: Value) -> Value {
    let ty = b.func.value_type(v);
    let (ity, _) = int_of(b, ty);
    let x = b.cast(CastOp::Bitcast, v, ity);
    let z = b.const_int(ity, 0);
    b.cmp(CmpPred::Slt, x, z)
}

/// `v` with its sign bit set to `neg`.
fn with_sign(b: &mut Builder<'_>, v: Value, neg: Value) -> Value {
    let ty = b.func.value_type(v);
    let (ity, sign) = int_of(b, ty);
    let a = fabs(b, v);
    let x = b.cast(CastOp::Bitcast, a, ity);
    let s = b.const_int(ity, sign);
    let z = b.const_int(ity, 0);
    let s = b.select(neg, s, z);
    let x = b.binary(BinOp::Or, x, s);
    b.cast(CastOp::Bitcast, x, ty)
}

/// The next float after `y` toward +infinity (`up`) or -infinity, by
/// stepping its bits; zeros step to the smallest subnormal of that sign.
fn step(b: &mut Builder<'_>, y: Value, up: bool) -> Value {
    let ty = b.func.value_type(y);
    let (ity, sign) = int_of(b, ty);
    let x = b.cast(CastOp::Bitcast, y, ity);
    let one = b.const_int(ity, 1);
    let zero_f = b.const_float(ty, 0.0);
    let is_zero = b.cmp(CmpPred::FOeq, y, zero_f);
    let pos = b.cmp(CmpPred::FOgt, y, zero_f);
    let inc = b.binary(BinOp::Add, x, one);
    let dec = b.binary(BinOp::Sub, x, one);
    // Away from zero when the step goes the way of the sign.
    let moved = if up {
        b.select(pos, inc, dec)
    } else {
        b.select(pos, dec, inc)
    };
    let tiny = if up { 1 } else { sign | 1 };
    let tiny = b.const_int(ity, tiny);
    let r = b.select(is_zero, tiny, moved);
    b.cast(CastOp::Bitcast, r, ty)
}

/// Fixes `y`, the round-to-nearest image of a value whose exact form
/// compares to `y` as `above` (exact > y) and `below` (exact < y), for a
/// directed rounding `mode`; `neg` says the exact value is negative.
fn direct(
    b: &mut Builder<'_>,
    y: Value,
    above: Value,
    below: Value,
    neg: Value,
    mode: Rounding,
) -> Value {
    let up = step(b, y, true);
    let down = step(b, y, false);
    match mode {
        Rounding::Rm => b.select(below, down, y),
        Rounding::Rp => b.select(above, up, y),
        Rounding::Rz => {
            // Toward zero: down for positive values that rounded up, up for
            // negative values that rounded down.
            let t = b.bool(true);
            let pos = b.binary(BinOp::Xor, neg, t);
            let dn = b.binary(BinOp::And, pos, below);
            let un = b.binary(BinOp::And, neg, above);
            let r = b.select(dn, down, y);
            b.select(un, up, r)
        }
        _ => y,
    }
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// `testp.op.{f32,f64} p, a`.
    pub(super) fn testp(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        if !matches!(t, PtxType::F32 | PtxType::F64) {
            return i.unsupported();
        }
        let Some(op) = i.mods.testp else {
            return i.unsupported();
        };
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let min_normal = if t == PtxType::F32 {
            f64::from(f32::MIN_POSITIVE)
        } else {
            f64::MIN_POSITIVE
        };
        let mut b = self.b();
        let m = fabs(&mut b, a);
        let inf = b.const_float(ty, f64::INFINITY);
        let small = b.const_float(ty, min_normal);
        let zero = b.const_float(ty, 0.0);
        let r = match op {
            TestpOp::Finite => b.cmp(CmpPred::FOlt, m, inf),
            TestpOp::Infinite => b.cmp(CmpPred::FOeq, m, inf),
            TestpOp::Number => b.cmp(CmpPred::FOrd, a, a),
            TestpOp::NotANumber => b.cmp(CmpPred::FUno, a, a),
            TestpOp::Normal => {
                let lo = b.cmp(CmpPred::FOge, m, small);
                let hi = b.cmp(CmpPred::FOlt, m, inf);
                b.binary(BinOp::And, lo, hi)
            }
            TestpOp::Subnormal => {
                let lo = b.cmp(CmpPred::FOgt, m, zero);
                let hi = b.cmp(CmpPred::FOlt, m, small);
                b.binary(BinOp::And, lo, hi)
            }
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// The operands of a float `min`/`max` as it compares them (`.abs`:
    /// magnitudes), and the sign its result gets (`.xorsign`: the XOR of
    /// the operands' signs).
    pub(super) fn min_max_operands(
        &mut self,
        i: &Inst,
        a: Value,
        b2: Value,
    ) -> (Value, Value, Option<Value>) {
        if !i.has(Flag::Abs) {
            return (a, b2, None);
        }
        let mut b = self.b();
        let sign = if i.has(Flag::Xorsign) {
            let sa = sign_bit(&mut b, a);
            let sb = sign_bit(&mut b, b2);
            Some(b.binary(BinOp::Xor, sa, sb))
        } else {
            None
        };
        (fabs(&mut b, a), fabs(&mut b, b2), sign)
    }

    /// `r` with the sign `neg` unless it is NaN (`.xorsign`).
    pub(super) fn apply_xorsign(&mut self, r: Value, neg: Value) -> Value {
        let mut b = self.b();
        let signed = with_sign(&mut b, r, neg);
        let nan = b.cmp(CmpPred::FUno, r, r);
        b.select(nan, r, signed)
    }

    /// `.relu`: negative results become +0; NaN stays NaN.
    pub(super) fn relu(&mut self, v: Value) -> Value {
        let mut b = self.b();
        let ty = b.func.value_type(v);
        let z = b.const_float(ty, 0.0);
        let neg = b.cmp(CmpPred::FOlt, v, z);
        b.select(neg, z, v)
    }

    /// `.satfinite` into float type `dty`: values beyond its largest finite
    /// magnitude (infinities included) become that magnitude with their
    /// sign; NaN stays NaN. `v` is the value before narrowing.
    pub(super) fn satfinite(&mut self, v: Value, dty: TypeId) -> Value {
        let max = match self.types().size_of(dty) {
            2 if dty == self.types().bf16() => f64::from(f32::from_bits(0x7f7f_0000)),
            2 => 65504.0,
            4 => f64::from(f32::MAX),
            _ => f64::MAX,
        };
        let mut b = self.b();
        let ty = b.func.value_type(v);
        let hi = b.const_float(ty, max);
        let lo = b.const_float(ty, -max);
        let over = b.cmp(CmpPred::FOgt, v, hi);
        let under = b.cmp(CmpPred::FOlt, v, lo);
        let r = b.select(over, hi, v);
        b.select(under, lo, r)
    }

    /// Narrows float `v` to `dty` with rounding `mode` (to nearest unless
    /// `.rz`, `.rm`, `.rp`).
    pub(super) fn narrow_float(&mut self, v: Value, dty: TypeId, mode: Option<Rounding>) -> Value {
        let mut b = self.b();
        let sty = b.func.value_type(v);
        let y = b.cast(CastOp::FpTrunc, v, dty);
        let Some(mode @ (Rounding::Rz | Rounding::Rm | Rounding::Rp)) = mode else {
            return y;
        };
        let back = b.cast(CastOp::FpExt, y, sty);
        let above = b.cmp(CmpPred::FOgt, v, back);
        let below = b.cmp(CmpPred::FOlt, v, back);
        let z = b.const_float(sty, 0.0);
        let neg = b.cmp(CmpPred::FOlt, v, z);
        direct(&mut b, y, above, below, neg, mode)
    }

    /// Converts integer `v` (`signed` or not) to float `dty` with rounding
    /// `mode` (to nearest unless `.rz`, `.rm`, `.rp`).
    pub(super) fn int_to_float(
        &mut self,
        v: Value,
        signed: bool,
        dty: TypeId,
        mode: Option<Rounding>,
    ) -> Value {
        let mut b = self.b();
        let o = if signed {
            CastOp::SiToFp
        } else {
            CastOp::UiToFp
        };
        let y = b.cast(o, v, dty);
        let Some(mode @ (Rounding::Rz | Rounding::Rm | Rounding::Rp)) = mode else {
            return y;
        };
        // Compare in the integers: the float is integral, and 2^(width-1)
        // (2^width unsigned), the one value that does not convert back,
        // is above every source value.
        let ity = b.func.value_type(v);
        let width = b.types.size_of(ity) * 8;
        let limit = if signed {
            2f64.powi(width as i32 - 1)
        } else {
            2f64.powi(width as i32)
        };
        let lim = b.const_float(dty, limit);
        let big = b.cmp(CmpPred::FOge, y, lim);
        let back = b.cast(
            if signed {
                CastOp::FpToSi
            } else {
                CastOp::FpToUi
            },
            y,
            ity,
        );
        let (gt, lt) = if signed {
            (CmpPred::Sgt, CmpPred::Slt)
        } else {
            (CmpPred::Ugt, CmpPred::Ult)
        };
        let above = b.cmp(gt, v, back);
        let t = b.bool(true);
        let small = b.binary(BinOp::Xor, big, t);
        let above = b.binary(BinOp::And, above, small);
        let below = b.cmp(lt, v, back);
        let below = b.binary(BinOp::Or, below, big);
        let neg = if signed {
            let z = b.const_int(ity, 0);
            b.cmp(CmpPred::Slt, v, z)
        } else {
            b.bool(false)
        };
        direct(&mut b, y, above, below, neg, mode)
    }

    /// `redux.sync.{min,max}{.abs}{.NaN}.f32 d, a, mask`: `+0 > -0`;
    /// without `.NaN` NaN inputs are skipped (all NaN: NaN), with it any
    /// NaN input gives NaN.
    pub(super) fn redux_f32(&mut self, i: &'p Inst, min: bool) -> Result<()> {
        let pos = i.pos;
        if i.ty()? != PtxType::F32 || !is_float(i.ty()?) {
            return i.unsupported();
        }
        let a = self.read(i.arg(1)?, PtxType::F32, pos)?;
        let a = if i.has(Flag::Abs) {
            fabs(&mut self.b(), a)
        } else {
            a
        };
        let mask = self.read(i.arg(2)?, PtxType::U32, pos)?;
        let f32t = self.types().f32();
        let nan = self.b().const_float(f32t, f64::NAN);
        let mut acc = nan;
        let mut any_nan = self.b().bool(false);
        for l in 0..32 {
            let (x, member) = self.read_lane(mask, a, l);
            let mut b = self.b();
            let x_nan = b.cmp(CmpPred::FUno, x, x);
            let acc_nan = b.cmp(CmpPred::FUno, acc, acc);
            // Strictly better, with -0 below +0.
            let better = b.cmp(if min { CmpPred::FOlt } else { CmpPred::FOgt }, x, acc);
            let eq = b.cmp(CmpPred::FOeq, x, acc);
            let xs = sign_bit(&mut b, x);
            let tie = if min {
                xs
            } else {
                let t = b.bool(true);
                b.binary(BinOp::Xor, xs, t)
            };
            let tie = b.binary(BinOp::And, eq, tie);
            let better = b.binary(BinOp::Or, better, tie);
            let take = b.binary(BinOp::Or, better, acc_nan);
            let t = b.bool(true);
            let x_ok = b.binary(BinOp::Xor, x_nan, t);
            let take = b.binary(BinOp::And, take, x_ok);
            let take = b.binary(BinOp::And, take, member);
            acc = b.select(take, x, acc);
            let hit = b.binary(BinOp::And, x_nan, member);
            any_nan = b.binary(BinOp::Or, any_nan, hit);
        }
        let r = if i.has(Flag::NaN) {
            self.b().select(any_nan, nan, acc)
        } else {
            acc
        };
        self.write(i.arg(0)?, r, false, pos)
    }
}

/// A float operation whose directed rounding [`FnCx::round_directed`]
/// provides.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Exact {
    Add,
    Mul,
    Div,
    Sqrt,
    Rcp,
    Fma,
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// `r`, the round-to-nearest result of `op` on `args`, computed with
    /// `i`'s `.rz`/`.rm`/`.rp` instead: a call of the directed-rounding
    /// extern (`cucc_ir::intrinsics::Directed`), which the interpreter
    /// evaluates exactly and the C emitter maps to the machine's directed
    /// rounding or to an exact residual. `f64` `fma` has none: an error.
    pub(super) fn round_directed(
        &mut self,
        i: &Inst,
        op: Exact,
        args: &[Value],
        r: Value,
    ) -> Result<Value> {
        let Some(mode @ (Rounding::Rz | Rounding::Rm | Rounding::Rp)) = i.mods.round else {
            return Ok(r);
        };
        let ty = self.func.value_type(r);
        let f64t = self.types().f64();
        let f32t = self.types().f32();
        if ty != f32t && ty != f64t {
            return i.unsupported();
        }
        let dir = match mode {
            Rounding::Rz => Direction::Zero,
            Rounding::Rm => Direction::Down,
            _ => Direction::Up,
        };
        let dop = match op {
            Exact::Add => DirectedOp::Add,
            Exact::Mul => DirectedOp::Mul,
            Exact::Div | Exact::Rcp => DirectedOp::Div,
            Exact::Sqrt => DirectedOp::Sqrt,
            Exact::Fma => DirectedOp::Fma,
        };
        let d = Directed {
            op: dop,
            dir,
            double: ty == f64t,
        };
        if Directed::parse(&d.name()).is_none() {
            return i.unsupported();
        }
        let mut operands = Vec::with_capacity(3);
        if op == Exact::Rcp {
            operands.push(self.b().const_float(ty, 1.0));
        }
        for k in 0..args.len() {
            operands.push(
                args.get(k)
                    .copied()
                    .ok_or_else(|| Error::new(i.pos, "operand count mismatch"))?,
            );
        }
        if operands.len() != dop.arity() {
            return Err(Error::new(i.pos, "operand count mismatch"));
        }
        Ok(self.b().call_extern(&d.name(), operands, &[ty])[0])
    }
}
