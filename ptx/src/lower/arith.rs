//! Integer and float arithmetic: binary operations with carries and
//! saturation, `mad`/`fma`, unary operations and math functions.

use super::floatops::Exact;
use super::inst::{bits, by_sign, is_float, is_signed, PRED};
use super::*;
use crate::inst::{Flag, MulMode, Opcode as O, Rounding};

fn with_bits(t: PtxType, b: u8) -> PtxType {
    match t {
        PtxType::Int { signed, .. } => PtxType::Int { bits: b, signed },
        other => other,
    }
}

impl<'m, 'p> FnCx<'m, 'p> {
    fn carry_cell(&mut self) -> Value {
        if let Some(c) = self.carry {
            return c;
        }
        let i1 = self.types().i1();
        let c = self.entry_alloca(i1);
        self.func.values[c].name = Some("carry".into());
        self.at_entry(|b| {
            let f = b.bool(false);
            b.store(c, f);
        });
        self.carry = Some(c);
        c
    }

    /// `a + b (+ carry-in)`, setting the carry flag if `set`.
    fn add_carry(&mut self, a: Value, b2: Value, cin: bool, set: bool, sub: bool) -> Value {
        let cell = if cin || set {
            Some(self.carry_cell())
        } else {
            None
        };
        let i1 = self.types().i1();
        let ty = self.func.value_type(a);
        let mut b = self.b();
        let c = match (cin, cell) {
            (true, Some(cell)) => Some(b.load(cell, i1)),
            _ => None,
        };
        let (r, cout) = if sub {
            let d = b.binary(BinOp::Sub, a, b2);
            let borrow = b.cmp(CmpPred::Ult, a, b2);
            match c {
                Some(c) => {
                    let cz = b.cast(CastOp::ZExt, c, ty);
                    let r = b.binary(BinOp::Sub, d, cz);
                    let eq = b.cmp(CmpPred::Eq, a, b2);
                    let both = b.binary(BinOp::And, eq, c);
                    (r, b.binary(BinOp::Or, borrow, both))
                }
                None => (d, borrow),
            }
        } else {
            let s = b.binary(BinOp::Add, a, b2);
            let ov = b.cmp(CmpPred::Ult, s, a);
            match c {
                Some(c) => {
                    let cz = b.cast(CastOp::ZExt, c, ty);
                    let r = b.binary(BinOp::Add, s, cz);
                    let ov2 = b.cmp(CmpPred::Ult, r, s);
                    (r, b.binary(BinOp::Or, ov, ov2))
                }
                None => (s, ov),
            }
        };
        if set {
            if let Some(cell) = cell {
                b.store(cell, cout);
            }
        }
        r
    }

    pub(super) fn binary(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let dst = i.arg(0)?;
        let op = i.op;
        let wide = i.mods.mul == Some(MulMode::Wide);
        if wide && bits(t) > 32 {
            return i.unsupported();
        }
        if op == O::Mul && wide {
            let [a, b2] = self.read_args(i, 1, [t, t])?;
            let (r, _) = self.wide_mul(a, b2, t, pos)?;
            return self.write(dst, r, false, pos);
        }
        let [a, b2] = self.read_args(i, 1, [t, t])?;
        let s = is_signed(t);
        // Only float `min`/`max` take a third source.
        if i.args.len() > 3 && !(is_float(t) && matches!(op, O::Min | O::Max)) {
            return i.unsupported();
        }
        if i.has(Flag::Relu) && !(t == PtxType::S32 && matches!(op, O::Min | O::Max)) {
            return i.unsupported();
        }
        let r = if t == PRED {
            let o = match op {
                O::And => BinOp::And,
                O::Or => BinOp::Or,
                O::Xor => BinOp::Xor,
                _ => return i.unsupported(),
            };
            self.b().binary(o, a, b2)
        } else if is_float(t) {
            let o = match op {
                O::Add => BinOp::FAdd,
                O::Sub => BinOp::FSub,
                O::Mul => BinOp::FMul,
                O::Div => BinOp::FDiv,
                O::Min | O::Max => {
                    let r = self.float_min_max(i, a, b2)?;
                    let r = if i.args.len() > 3 {
                        let c = self.read(i.arg(3)?, t, pos)?;
                        self.float_min_max(i, r, c)?
                    } else {
                        r
                    };
                    return self.write(i.arg(0)?, r, false, pos);
                }
                _ => return i.unsupported(),
            };
            let r = self.b().binary(o, a, b2);
            let r = match op {
                O::Add => self.round_directed(i, Exact::Add, &[a, b2], r)?,
                O::Sub if i.mods.round.is_some_and(|m| m != Rounding::Rn) => {
                    let nb = self.b().unary(UnOp::FNeg, b2);
                    self.round_directed(i, Exact::Add, &[a, nb], r)?
                }
                O::Sub => r,
                O::Mul => self.round_directed(i, Exact::Mul, &[a, b2], r)?,
                _ => self.round_directed(i, Exact::Div, &[a, b2], r)?,
            };
            if i.has(Flag::Sat) {
                self.saturate(r, t)
            } else {
                r
            }
        } else {
            match op {
                O::Add | O::Sub | O::Addc | O::Subc => {
                    let sub = matches!(op, O::Sub | O::Subc);
                    let cin = matches!(op, O::Addc | O::Subc);
                    let set = i.has(Flag::Cc);
                    if i.has(Flag::Sat) {
                        // Signed 32-bit saturation: compute in 64 bits and clamp.
                        let i64t = self.types().i64();
                        let a = self.convert(a, i64t, true, pos)?;
                        let b2 = self.convert(b2, i64t, true, pos)?;
                        let mut b = self.b();
                        let r = b.binary(if sub { BinOp::Sub } else { BinOp::Add }, a, b2);
                        let lo = b.i64(i64::from(i32::MIN));
                        let hi = b.i64(i64::from(i32::MAX));
                        let r = b.binary(BinOp::SMax, r, lo);
                        let r = b.binary(BinOp::SMin, r, hi);
                        let i32t = b.types.i32();
                        b.cast(CastOp::Trunc, r, i32t)
                    } else if cin || set {
                        self.add_carry(a, b2, cin, set, sub)
                    } else {
                        self.b()
                            .binary(if sub { BinOp::Sub } else { BinOp::Add }, a, b2)
                    }
                }
                _ => {
                    let o = match op {
                        O::Mul if i.mods.mul == Some(MulMode::Hi) => {
                            by_sign(s, BinOp::SMulHi, BinOp::UMulHi)
                        }
                        O::Mul => BinOp::Mul,
                        O::Div => by_sign(s, BinOp::SDiv, BinOp::UDiv),
                        O::Rem => by_sign(s, BinOp::SRem, BinOp::URem),
                        O::Min | O::Max if i.has(Flag::Relu) => {
                            let mut b = self.b();
                            let o = if op == O::Min {
                                BinOp::SMin
                            } else {
                                BinOp::SMax
                            };
                            let r = b.binary(o, a, b2);
                            let r = b.binary_imm(BinOp::SMax, r, 0);
                            return self.write(dst, r, s, pos);
                        }
                        O::Min => by_sign(s, BinOp::SMin, BinOp::UMin),
                        O::Max => by_sign(s, BinOp::SMax, BinOp::UMax),
                        O::And => BinOp::And,
                        O::Or => BinOp::Or,
                        O::Xor => BinOp::Xor,
                        _ => return i.unsupported(),
                    };
                    self.b().binary(o, a, b2)
                }
            }
        };
        self.write(dst, r, s, pos)
    }

    /// The double-width product of `a` and `b` (of type `t`) and its type.
    fn wide_mul(&mut self, a: Value, b: Value, t: PtxType, pos: Pos) -> Result<(Value, PtxType)> {
        let wt = with_bits(t, bits(t) * 2);
        let wty = ir_type(self.types(), wt);
        let a = self.convert(a, wty, is_signed(t), pos)?;
        let b = self.convert(b, wty, is_signed(t), pos)?;
        Ok((self.b().binary(BinOp::Mul, a, b), wt))
    }

    /// Float `min`/`max`: minNum/maxNum (one NaN operand gives the other);
    /// with `.NaN` either NaN operand gives NaN; `.abs` compares
    /// magnitudes and `.xorsign` gives the result the XOR of the operands'
    /// signs (`floatops`).
    pub(super) fn float_min_max(&mut self, i: &'p Inst, a: Value, b: Value) -> Result<Value> {
        let op = if i.op == O::Min {
            BinOp::FMin
        } else {
            BinOp::FMax
        };
        let (a, b, sign) = self.min_max_operands(i, a, b);
        let mut bb = self.b();
        let r = bb.binary(op, a, b);
        let r = if i.has(Flag::NaN) {
            let ty = bb.func.value_type(a);
            let nan = bb.const_float(ty, f64::NAN);
            let any = bb.cmp(CmpPred::FUno, a, b);
            bb.select(any, nan, r)
        } else {
            r
        };
        Ok(match sign {
            Some(neg) => self.apply_xorsign(r, neg),
            None => r,
        })
    }

    /// Clamps a float to [0, 1] (NaN gives 0), PTX's `.sat`.
    pub(super) fn saturate(&mut self, v: Value, t: PtxType) -> Value {
        let ty = ir_type(self.types(), t);
        let mut b = self.b();
        let z = b.const_float(ty, 0.0);
        let one = b.const_float(ty, 1.0);
        let lo = b.binary(BinOp::FMax, v, z);
        let r = b.binary(BinOp::FMin, lo, one);
        let nan = b.cmp(CmpPred::FUno, v, v);
        b.select(nan, z, r)
    }

    pub(super) fn mad(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let dst = i.arg(0)?;
        if is_float(t) {
            let [a, b2, c] = self.read_args(i, 1, [t, t, t])?;
            let ty = ir_type(self.types(), t);
            let r = match t {
                PtxType::F32 => {
                    let r = self.b().call_extern("fmaf", vec![a, b2, c], &[ty])[0];
                    self.round_directed(i, Exact::Fma, &[a, b2, c], r)?
                }
                PtxType::F64 => {
                    let r = self.b().call_extern("fma", vec![a, b2, c], &[ty])[0];
                    self.round_directed(i, Exact::Fma, &[a, b2, c], r)?
                }
                _ => {
                    // Halves: fused in f32, then rounded back.
                    let f32t = self.types().f32();
                    let mut b = self.b();
                    let (a, b2, c) = (
                        b.cast(CastOp::FpExt, a, f32t),
                        b.cast(CastOp::FpExt, b2, f32t),
                        b.cast(CastOp::FpExt, c, f32t),
                    );
                    let r = b.call_extern("fmaf", vec![a, b2, c], &[f32t])[0];
                    b.cast(CastOp::FpTrunc, r, ty)
                }
            };
            let r = if i.has(Flag::Sat) {
                self.saturate(r, t)
            } else {
                r
            };
            let r = if i.has(Flag::Relu) {
                if !matches!(t, PtxType::F16 | PtxType::BF16) {
                    return i.unsupported();
                }
                self.relu(r)
            } else {
                r
            };
            return self.write(dst, r, false, pos);
        }
        let s = is_signed(t);
        let [a, b2] = self.read_args(i, 1, [t, t])?;
        let (prod, ct) = match i.mods.mul {
            Some(MulMode::Wide) if bits(t) > 32 => return i.unsupported(),
            Some(MulMode::Wide) => self.wide_mul(a, b2, t, pos)?,
            Some(MulMode::Hi) => {
                let o = by_sign(s, BinOp::SMulHi, BinOp::UMulHi);
                (self.b().binary(o, a, b2), t)
            }
            _ => (self.b().binary(BinOp::Mul, a, b2), t),
        };
        let c = self.read(i.arg(3)?, ct, pos)?;
        let cin = i.op == O::Madc;
        let set = i.has(Flag::Cc);
        let r = if cin || set {
            self.add_carry(prod, c, cin, set, false)
        } else if i.has(Flag::Sat) {
            // `mad.hi.sat.s32`: the high word plus c, clamped to `s32`.
            if !(t == PtxType::S32 && i.mods.mul == Some(MulMode::Hi)) {
                return i.unsupported();
            }
            let i64t = self.types().i64();
            let i32t = self.types().i32();
            let mut b = self.b();
            let p = b.cast(CastOp::SExt, prod, i64t);
            add_clamped_i32(&mut b, p, c, i64t, i32t)
        } else {
            self.b().binary(BinOp::Add, prod, c)
        };
        self.write(dst, r, false, pos)
    }

    pub(super) fn unary(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let dst = i.arg(0)?;
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let r = match (i.op, is_float(t)) {
            (O::Neg, true) => self.b().unary(UnOp::FNeg, a),
            (O::Neg, false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                b.binary(BinOp::Sub, z, a)
            }
            (O::Abs, true) => {
                let name = if t == PtxType::F64 { "fabs" } else { "fabsf" };
                if t == PtxType::F32 || t == PtxType::F64 {
                    self.b().call_extern(name, vec![a], &[ty])[0]
                } else {
                    let mut b = self.b();
                    let n = b.unary(UnOp::FNeg, a);
                    let z = b.const_float(ty, 0.0);
                    let c = b.cmp(CmpPred::FOlt, a, z);
                    b.select(c, n, a)
                }
            }
            (O::Abs, false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                let n = b.binary(BinOp::Sub, z, a);
                let c = b.cmp(CmpPred::Slt, a, z);
                b.select(c, n, a)
            }
            (O::Not, false) => {
                let mut b = self.b();
                let m = if t == PRED {
                    b.bool(true)
                } else {
                    b.const_int(ty, -1)
                };
                b.binary(BinOp::Xor, a, m)
            }
            (O::Cnot, false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                let c = b.cmp(CmpPred::Eq, a, z);
                b.cast(CastOp::ZExt, c, ty)
            }
            (O::Popc, false) | (O::Clz, false) => {
                let o = if i.op == O::Popc {
                    UnOp::Popc
                } else {
                    UnOp::Clz
                };
                let r = self.b().unary(o, a);
                let i32t = self.types().i32();
                self.convert(r, i32t, false, pos)?
            }
            (O::Brev, false) => self.b().unary(UnOp::Brev, a),
            _ => return i.unsupported(),
        };
        self.write(dst, r, is_signed(t), pos)
    }

    pub(super) fn math(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let d = t == PtxType::F64;
        if t != PtxType::F32 && t != PtxType::F64 {
            return i.unsupported();
        }
        let name = match (i.op, d) {
            (O::Rcp, _) => {
                let mut b = self.b();
                let one = b.const_float(ty, 1.0);
                let r = b.binary(BinOp::FDiv, one, a);
                let r = self.round_directed(i, Exact::Rcp, &[a], r)?;
                return self.write(i.arg(0)?, r, false, pos);
            }
            (O::Sqrt, false) => "sqrtf",
            (O::Sqrt, true) => "sqrt",
            (O::Rsqrt, false) => "rsqrtf",
            (O::Rsqrt, true) => "rsqrt",
            (O::Sin, false) => "__sinf",
            (O::Cos, false) => "__cosf",
            (O::Ex2, false) => "exp2f",
            (O::Ex2, true) => "exp2",
            (O::Lg2, false) => "log2f",
            (O::Tanh, false) => "tanhf",
            (O::Tanh, true) => "tanh",
            _ => return i.unsupported(),
        };
        let r = self.b().call_extern(name, vec![a], &[ty])[0];
        let r = if i.op == O::Sqrt {
            self.round_directed(i, Exact::Sqrt, &[a], r)?
        } else {
            r
        };
        self.write(i.arg(0)?, r, false, pos)
    }
}

/// `p + c` clamped to the `s32` range and narrowed: `p` is already an `i64`,
/// `c` an `i32` that is sign-extended here (the saturating `mad` forms).
pub(super) fn add_clamped_i32(
    b: &mut Builder<'_>,
    p: Value,
    c: Value,
    i64t: TypeId,
    i32t: TypeId,
) -> Value {
    let c = b.cast(CastOp::SExt, c, i64t);
    let r = b.binary(BinOp::Add, p, c);
    let lo = b.i64(i64::from(i32::MIN));
    let hi = b.i64(i64::from(i32::MAX));
    let r = b.binary(BinOp::SMax, r, lo);
    let r = b.binary(BinOp::SMin, r, hi);
    b.cast(CastOp::Trunc, r, i32t)
}
