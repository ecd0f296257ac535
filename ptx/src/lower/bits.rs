//! Shifts and bit manipulation: `shl`/`shr`, funnel shifts, `bfe`, `bfi`,
//! `bfind` and `prmt`, spelled out with PTX's clamping rules.

use super::inst::{bits, is_signed};
use super::*;
use crate::inst::{Flag, FunnelMode, Opcode as O, ShiftDir};

/// `hi:lo` (two `i32`s) as one `i64`, and the constant 32 it shifts by.
fn concat64(b: &mut Builder<'_>, hi: Value, lo: Value) -> (Value, Value) {
    let i64t = b.types.i64();
    let hi = b.cast(CastOp::ZExt, hi, i64t);
    let k32 = b.i64(32);
    let hi = b.binary(BinOp::Shl, hi, k32);
    let lo = b.cast(CastOp::ZExt, lo, i64t);
    (b.binary(BinOp::Or, hi, lo), k32)
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// PTX shifts: the amount is unsigned (`u32`) and clamps at the width,
    /// as the IR's shifts do (docs/ir.md), so an amount of the value's type
    /// carries over; below 32 bits it is clamped first, as truncating it
    /// would wrap.
    pub(super) fn shift(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = bits(t);
        let a = self.read(i.arg(1)?, t, pos)?;
        let amt_op = i.arg(2)?;
        let ty = ir_type(self.types(), t);
        let op = if i.op == O::Shl {
            BinOp::Shl
        } else if is_signed(t) {
            BinOp::AShr
        } else {
            BinOp::LShr
        };
        let r = if let Operand::Imm(Num::Int(k)) = amt_op {
            let k = *k as u64;
            let mut b = self.b();
            if k < u64::from(w) {
                let kk = b.const_int(ty, k as i64);
                b.binary(op, a, kk)
            } else if op == BinOp::AShr {
                let kk = b.const_int(ty, i64::from(w) - 1);
                b.binary(op, a, kk)
            } else {
                b.const_int(ty, 0)
            }
        } else {
            let amt = self.read(amt_op, PtxType::U32, pos)?;
            let amt = if w < 32 {
                let mut b = self.b();
                let wk = b.i32(i64::from(w) as i32);
                b.binary(BinOp::UMin, amt, wk)
            } else {
                amt
            };
            let amt = self.convert(amt, ty, false, pos)?;
            self.b().binary(op, a, amt)
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: funnel shift of `b:a`.
    pub(super) fn funnel(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let [a, b2, c] = self.read_args(i, 1, [PtxType::U32; 3])?;
        let i64t = self.types().i64();
        let i32t = self.types().i32();
        let wrap = i.mods.funnel == Some(FunnelMode::Wrap);
        let left = i.mods.dir == Some(ShiftDir::L);
        let mut b = self.b();
        let n = if wrap {
            let m = b.i32(31);
            b.binary(BinOp::And, c, m)
        } else {
            let m = b.i32(32);
            b.binary(BinOp::UMin, c, m)
        };
        let n = b.cast(CastOp::ZExt, n, i64t);
        let (v, k32) = concat64(&mut b, b2, a);
        let r = if left {
            let s = b.binary(BinOp::Shl, v, n);
            let s = b.binary(BinOp::LShr, s, k32);
            b.cast(CastOp::Trunc, s, i32t)
        } else {
            let s = b.binary(BinOp::LShr, v, n);
            b.cast(CastOp::Trunc, s, i32t)
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// The position and length of a bit field (operands `k`, `k + 1`) as
    /// `ty`s, each taken modulo 256 as `bfe`/`bfi` do.
    fn bit_field(&mut self, i: &'p Inst, k: usize, ty: TypeId) -> Result<(Value, Value)> {
        let pos = i.pos;
        let [p, l] = self.read_args(i, k, [PtxType::U32; 2])?;
        let p = self.convert(p, ty, false, pos)?;
        let l = self.convert(l, ty, false, pos)?;
        let mut b = self.b();
        let ff = b.const_int(ty, 0xff);
        let p = b.binary(BinOp::And, p, ff);
        Ok((p, b.binary(BinOp::And, l, ff)))
    }

    pub(super) fn bfe(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = i64::from(bits(t));
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let (p, l) = self.bit_field(i, 2, ty)?;
        let s = is_signed(t);
        let mut b = self.b();
        let wk = b.const_int(ty, w);
        let wm1 = b.const_int(ty, w - 1);
        let z = b.const_int(ty, 0);
        let one = b.const_int(ty, 1);
        let pc = b.binary(BinOp::UMin, p, wm1);
        let shifted = b.binary(if s { BinOp::AShr } else { BinOp::LShr }, a, pc);
        let p_in = b.cmp(CmpPred::Ult, p, wk);
        let over = if s { b.binary(BinOp::AShr, a, wm1) } else { z };
        let shifted = b.select(p_in, shifted, over);
        // Keep `l` bits, sign- or zero-extending the field.
        let l_full = b.cmp(CmpPred::Uge, l, wk);
        let lc = b.binary(BinOp::UMin, l, wm1);
        let m = b.binary(BinOp::Shl, one, lc);
        let m = b.binary(BinOp::Sub, m, one);
        let low = b.binary(BinOp::And, shifted, m);
        let r = if s {
            // Sign bit of the field: bit min(p + l - 1, w - 1) of `a`.
            let top = b.binary(BinOp::Add, p, l);
            let top = b.binary(BinOp::Sub, top, one);
            let top = b.binary(BinOp::UMin, top, wm1);
            let sb = b.binary(BinOp::LShr, a, top);
            let sb = b.binary(BinOp::And, sb, one);
            let neg = b.cmp(CmpPred::Ne, sb, z);
            let inv = b.const_int(ty, -1);
            let hi = b.binary(BinOp::Xor, m, inv);
            let ext = b.binary(BinOp::Or, low, hi);
            let v = b.select(neg, ext, low);
            b.select(l_full, shifted, v)
        } else {
            b.select(l_full, shifted, low)
        };
        let lz = b.cmp(CmpPred::Eq, l, z);
        let r = b.select(lz, z, r);
        self.write(i.arg(0)?, r, false, pos)
    }

    pub(super) fn bfi(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = i64::from(bits(t));
        let [a, bb] = self.read_args(i, 1, [t, t])?;
        let ty = ir_type(self.types(), t);
        let (p, l) = self.bit_field(i, 3, ty)?;
        let mut b = self.b();
        let wk = b.const_int(ty, w);
        let wm1 = b.const_int(ty, w - 1);
        let one = b.const_int(ty, 1);
        let z = b.const_int(ty, 0);
        let inv = b.const_int(ty, -1);
        let lc = b.binary(BinOp::UMin, l, wm1);
        let m = b.binary(BinOp::Shl, one, lc);
        let m = b.binary(BinOp::Sub, m, one);
        let l_full = b.cmp(CmpPred::Uge, l, wk);
        let m = b.select(l_full, inv, m);
        let pc = b.binary(BinOp::UMin, p, wm1);
        let m = b.binary(BinOp::Shl, m, pc);
        let av = b.binary(BinOp::Shl, a, pc);
        let av = b.binary(BinOp::And, av, m);
        let nm = b.binary(BinOp::Xor, m, inv);
        let keep = b.binary(BinOp::And, bb, nm);
        let r = b.binary(BinOp::Or, keep, av);
        let p_out = b.cmp(CmpPred::Uge, p, wk);
        let lz = b.cmp(CmpPred::Eq, l, z);
        let none = b.binary(BinOp::Or, p_out, lz);
        let r = b.select(none, bb, r);
        self.write(i.arg(0)?, r, false, pos)
    }

    pub(super) fn bfind(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = i64::from(bits(t));
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let i32t = self.types().i32();
        let mut b = self.b();
        let z = b.const_int(ty, 0);
        let v = if is_signed(t) {
            let inv = b.const_int(ty, -1);
            let n = b.cmp(CmpPred::Slt, a, z);
            let na = b.binary(BinOp::Xor, a, inv);
            b.select(n, na, a)
        } else {
            a
        };
        let clz = b.unary(UnOp::Clz, v);
        let clz = if w == 64 {
            b.cast(CastOp::Trunc, clz, i32t)
        } else {
            clz
        };
        let none = b.cmp(CmpPred::Eq, v, z);
        let all = b.i32(-1);
        let r = if i.has(Flag::Shiftamt) {
            clz
        } else {
            let top = b.i32((w - 1) as i32);
            b.binary(BinOp::Sub, top, clz)
        };
        let r = b.select(none, all, r);
        self.write(i.arg(0)?, r, false, pos)
    }

    pub(super) fn prmt(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let [a, bb, c] = self.read_args(i, 1, [PtxType::U32; 3])?;
        // A mode picks one of four generic selectors by `c`'s low bits.
        let c = match i.mods.prmt {
            Some(mode) => self.prmt_mode_selector(mode, c),
            None => c,
        };
        let i64t = self.types().i64();
        let i32t = self.types().i32();
        let mut b = self.b();
        let (v, _) = concat64(&mut b, bb, a);
        let mut acc = b.i32(0);
        for k in 0..4 {
            let sel = b.binary_imm(BinOp::LShr, c, 4 * k);
            let sel = b.binary_imm(BinOp::And, sel, 0xf);
            let idx = b.binary_imm(BinOp::And, sel, 7);
            let bitpos = b.binary_imm(BinOp::Shl, idx, 3);
            let bp64 = b.cast(CastOp::ZExt, bitpos, i64t);
            let byte = b.binary(BinOp::LShr, v, bp64);
            let byte = b.cast(CastOp::Trunc, byte, i32t);
            let ff = b.i32(0xff);
            let byte = b.binary(BinOp::And, byte, ff);
            let msb_mode = b.binary_imm(BinOp::And, sel, 8);
            let z = b.i32(0);
            let use_msb = b.cmp(CmpPred::Ne, msb_mode, z);
            let sign = b.binary_imm(BinOp::And, byte, 0x80);
            let neg = b.cmp(CmpPred::Ne, sign, z);
            let rep = b.select(neg, ff, z);
            let byte = b.select(use_msb, rep, byte);
            let byte = b.binary_imm(BinOp::Shl, byte, 8 * k);
            acc = b.binary(BinOp::Or, acc, byte);
        }
        self.write(i.arg(0)?, acc, false, pos)
    }
}
