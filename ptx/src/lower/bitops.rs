//! The bit-manipulation instructions added since sm_70 and the 24-bit
//! multiplies: `bmsk`, `szext`, `fns`, `lop3`, the `prmt` modes, `mul24`
//! and `mad24`. Each is spelled out with the PTX ISA's rules for amounts
//! of 32 and more, so no C shift is ever by the width or more.

use super::inst::is_signed;
use super::*;
use crate::inst::{BoolOp, Flag, FunnelMode, MulMode, Opcode as O, PrmtMode};

/// The source bytes (`b:a` numbered 0..7) of each destination byte
/// (byte 0 first) for each value of `c & 3`, per `prmt` mode.
fn prmt_table(mode: PrmtMode) -> [[u32; 4]; 4] {
    match mode {
        PrmtMode::F4e => [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
        PrmtMode::B4e => [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
        PrmtMode::Rc8 => [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        PrmtMode::Ecl => [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
        PrmtMode::Ecr => [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
        PrmtMode::Rc16 => [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
    }
}

/// `(!0 << s)` for `s` in 0..=32 (0 for 32), without a shift by 32.
fn high_mask(b: &mut Builder<'_>, s: Value) -> Value {
    let k32 = b.i32(32);
    let z = b.i32(0);
    let all = b.i32(-1);
    let full = b.cmp(CmpPred::Uge, s, k32);
    let s = b.binary_imm(BinOp::And, s, 31);
    let m = b.binary(BinOp::Shl, all, s);
    b.select(full, z, m)
}

/// Position of the `n`-th (1-based, `n: i32` >= 1) set bit of `m` counted
/// from bit 0, or -1: a binary search on population counts.
fn nth_set_bit(b: &mut Builder<'_>, m: Value, n: Value) -> Value {
    let mut pos = b.i32(0);
    let mut rest = n;
    for step in [16, 8, 4, 2, 1] {
        let sh = b.binary(BinOp::LShr, m, pos);
        let part = b.binary_imm(BinOp::And, sh, (1i64 << step) as i32 - 1);
        let cnt = b.unary(UnOp::Popc, part);
        let beyond = b.cmp(CmpPred::Sgt, rest, cnt);
        let r2 = b.binary(BinOp::Sub, rest, cnt);
        rest = b.select(beyond, r2, rest);
        let p2 = b.binary_imm(BinOp::Add, pos, step);
        pos = b.select(beyond, p2, pos);
    }
    let total = b.unary(UnOp::Popc, m);
    let within = b.cmp(CmpPred::Sle, n, total);
    let z = b.i32(0);
    let positive = b.cmp(CmpPred::Sgt, n, z);
    let found = b.binary(BinOp::And, within, positive);
    let none = b.i32(-1);
    b.select(found, pos, none)
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// The generic selector `prmt` mode `mode` uses for control `c`.
    pub(super) fn prmt_mode_selector(&mut self, mode: PrmtMode, c: Value) -> Value {
        let table = prmt_table(mode);
        let mut b = self.b();
        let k = b.binary_imm(BinOp::And, c, 3);
        let code = |row: [u32; 4]| (0..4).fold(0u32, |acc, j| acc | (row[j] << (4 * j)));
        let mut sel = b.i32(code(table[3]) as i32);
        for (idx, row) in table.iter().enumerate().take(3).rev() {
            let here = b.i32(idx as i32);
            let is = b.cmp(CmpPred::Eq, k, here);
            let v = b.i32(code(*row) as i32);
            sel = b.select(is, v, sel);
        }
        sel
    }

    /// `bmsk.{clamp,wrap}.b32 d, a, b`: `b` bits set from bit `a` on.
    pub(super) fn bmsk(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let [a, w] = self.read_args(i, 1, [PtxType::U32; 2])?;
        let clamp = i.mods.funnel == Some(FunnelMode::Clamp);
        let mut b = self.b();
        let m31 = b.i32(31);
        let k32 = b.i32(32);
        let z = b.i32(0);
        let a1 = b.binary(BinOp::And, a, m31);
        let w1 = b.binary(BinOp::And, w, m31);
        let mut mask0 = high_mask(&mut b, a1);
        let sum = b.binary(BinOp::Add, a1, w1);
        let mut overflow = b.cmp(CmpPred::Uge, sum, k32);
        if clamp {
            let a_big = b.cmp(CmpPred::Uge, a, k32);
            let w_big = b.cmp(CmpPred::Uge, w, k32);
            mask0 = b.select(a_big, z, mask0);
            let big = b.binary(BinOp::Or, a_big, w_big);
            overflow = b.binary(BinOp::Or, overflow, big);
        }
        let mask1 = high_mask(&mut b, sum);
        let all = b.i32(-1);
        let w_zero = b.cmp(CmpPred::Eq, w1, z);
        let mask1 = b.select(w_zero, all, mask1);
        let mask1 = b.select(overflow, z, mask1);
        let inv = b.binary(BinOp::Xor, mask1, all);
        let r = b.binary(BinOp::And, mask0, inv);
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `szext.{clamp,wrap}.{s32,u32} d, a, b`: the low `b` bits of `a`,
    /// sign- or zero-extended.
    pub(super) fn szext(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let signed = is_signed(i.ty()?);
        let [a, n] = self.read_args(i, 1, [PtxType::U32; 2])?;
        let clamp = i.mods.funnel == Some(FunnelMode::Clamp);
        let mut b = self.b();
        let m31 = b.i32(31);
        let z = b.i32(0);
        let all = b.i32(-1);
        let one = b.i32(1);
        let n1 = b.binary(BinOp::And, n, m31);
        let mut mask = b.binary(BinOp::Shl, all, n1);
        let mut large = b.bool(false);
        if clamp {
            let k32 = b.i32(32);
            large = b.cmp(CmpPred::Uge, n, k32);
            mask = b.select(large, z, mask);
        }
        let keep = b.binary(BinOp::Xor, mask, all);
        let low = b.binary(BinOp::And, a, keep);
        let r = if signed {
            let sp = b.binary(BinOp::Sub, n1, one);
            let sp = b.binary(BinOp::And, sp, m31);
            let s = b.binary(BinOp::LShr, a, sp);
            let s = b.binary(BinOp::And, s, one);
            let neg = b.cmp(CmpPred::Ne, s, z);
            let n_zero = b.cmp(CmpPred::Eq, n1, z);
            let t = b.bool(true);
            let not_large = b.binary(BinOp::Xor, large, t);
            let not_zero = b.binary(BinOp::Xor, n_zero, t);
            let neg = b.binary(BinOp::And, neg, not_large);
            let neg = b.binary(BinOp::And, neg, not_zero);
            let ext = b.binary(BinOp::Or, low, mask);
            b.select(neg, ext, low)
        } else {
            low
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `fns.b32 d, mask, base, offset`: the position of the `offset`-th set
    /// bit of `mask` from `base` (upwards for positive offsets, downwards
    /// for negative ones, `base` itself for 0), or `0xffffffff`.
    pub(super) fn fns(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let [m, base, off] = self.read_args(i, 1, [PtxType::U32, PtxType::U32, PtxType::S32])?;
        let mut b = self.b();
        // `base` above 31 is undefined; keep the shifts defined.
        let m31 = b.i32(31);
        let base = b.binary(BinOp::And, base, m31);
        let z = b.i32(0);
        let one = b.i32(1);
        let none = b.i32(-1);
        // Upwards: the bits from base on.
        let all = b.i32(-1);
        let up_m = b.binary(BinOp::Shl, all, base);
        let up_m = b.binary(BinOp::And, m, up_m);
        let up = nth_set_bit(&mut b, up_m, off);
        // Downwards: bits 0..=base, reversed so the search goes up.
        let top = b.binary(BinOp::Sub, m31, base);
        let down_m = b.binary(BinOp::LShr, all, top);
        let down_m = b.binary(BinOp::And, m, down_m);
        let rev = b.unary(UnOp::Brev, down_m);
        let neg_off = b.binary(BinOp::Sub, z, off);
        let d = nth_set_bit(&mut b, rev, neg_off);
        let d_found = b.cmp(CmpPred::Ne, d, none);
        let d_pos = b.binary(BinOp::Sub, m31, d);
        let down = b.select(d_found, d_pos, none);
        // Zero: base itself if set.
        let at = b.binary(BinOp::LShr, m, base);
        let at = b.binary(BinOp::And, at, one);
        let set = b.cmp(CmpPred::Ne, at, z);
        let zero = b.select(set, base, none);
        let positive = b.cmp(CmpPred::Sgt, off, z);
        let is_zero = b.cmp(CmpPred::Eq, off, z);
        let r = b.select(positive, up, down);
        let r = b.select(is_zero, zero, r);
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `lop3.b32 d, a, b, c, lut`: bit `k` of `d` is bit
    /// `a_k * 4 + b_k * 2 + c_k` of `lut` (PTX writes the function of
    /// `0xF0`, `0xCC`, `0xAA`). With `.and`/`.or`, `d|p, ..., q` also sets
    /// `p = (d != 0) op q`.
    pub(super) fn lop3(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let [a, bv, c] = self.read_args(i, 1, [PtxType::U32; 3])?;
        let lut = i.arg(4)?;
        let r = if let Operand::Imm(Num::Int(k)) = lut {
            let k = *k as u32 & 0xff;
            let mut b = self.b();
            let all = b.i32(-1);
            let na = b.binary(BinOp::Xor, a, all);
            let nb = b.binary(BinOp::Xor, bv, all);
            let nc = b.binary(BinOp::Xor, c, all);
            let mut acc = b.i32(0);
            for m in 0..8u32 {
                if k & (1 << m) == 0 {
                    continue;
                }
                let x = if m & 4 != 0 { a } else { na };
                let y = if m & 2 != 0 { bv } else { nb };
                let z = if m & 1 != 0 { c } else { nc };
                let t = b.binary(BinOp::And, x, y);
                let t = b.binary(BinOp::And, t, z);
                acc = b.binary(BinOp::Or, acc, t);
            }
            acc
        } else {
            let l = self.read(lut, PtxType::U32, pos)?;
            let mut b = self.b();
            let all = b.i32(-1);
            let one = b.i32(1);
            let z = b.i32(0);
            let na = b.binary(BinOp::Xor, a, all);
            let nb = b.binary(BinOp::Xor, bv, all);
            let nc = b.binary(BinOp::Xor, c, all);
            let mut acc = b.i32(0);
            for m in 0..8u32 {
                let x = if m & 4 != 0 { a } else { na };
                let y = if m & 2 != 0 { bv } else { nb };
                let zz = if m & 1 != 0 { c } else { nc };
                let t = b.binary(BinOp::And, x, y);
                let t = b.binary(BinOp::And, t, zz);
                let bit = b.binary_imm(BinOp::LShr, l, m as i32);
                let bit = b.binary(BinOp::And, bit, one);
                let sel = b.binary(BinOp::Sub, z, bit);
                let t = b.binary(BinOp::And, t, sel);
                acc = b.binary(BinOp::Or, acc, t);
            }
            acc
        };
        match (i.mods.bool_op, i.arg(0)?) {
            (None, d) if i.args.len() == 5 => self.write(d, r, false, pos),
            (Some(op @ (BoolOp::And | BoolOp::Or)), Operand::Vec(ps))
                if ps.len() == 2 && i.args.len() == 6 =>
            {
                let q = self.read(i.arg(5)?, PtxType::Pred, pos)?;
                let mut b = self.b();
                let z = b.i32(0);
                let nz = b.cmp(CmpPred::Ne, r, z);
                let o = if op == BoolOp::And {
                    BinOp::And
                } else {
                    BinOp::Or
                };
                let p = b.binary(o, nz, q);
                self.write(&ps[0], r, false, pos)?;
                self.write(&ps[1], p, false, pos)
            }
            _ => i.unsupported(),
        }
    }

    /// `mul24.{lo,hi}` and `mad24.{lo,hi}{.sat}` on `.u32`/`.s32`: the
    /// 48-bit product of the low 24 bits of each operand (sign-extended
    /// from bit 23 for `.s32`); `.lo` keeps bits 0..31, `.hi` bits 16..47.
    /// `.sat` (`mad24.hi.s32` only) clamps the sum to the `s32` range.
    pub(super) fn mul24(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        if !matches!(t, PtxType::U32 | PtxType::S32) {
            return i.unsupported();
        }
        let signed = is_signed(t);
        let hi = match i.mods.mul {
            Some(MulMode::Lo) => false,
            Some(MulMode::Hi) => true,
            _ => return i.unsupported(),
        };
        let sat = i.has(Flag::Sat);
        if sat && !(hi && signed && i.op == O::Mad24) {
            return i.unsupported();
        }
        let [a, bv] = self.read_args(i, 1, [t, t])?;
        let c = if i.op == O::Mad24 {
            Some(self.read(i.arg(3)?, t, pos)?)
        } else {
            None
        };
        let i64t = self.types().i64();
        let i32t = self.types().i32();
        let mut b = self.b();
        let k8 = b.i32(8);
        let low24 = |b: &mut Builder<'_>, v: Value| {
            let s = b.binary(BinOp::Shl, v, k8);
            let s = b.binary(if signed { BinOp::AShr } else { BinOp::LShr }, s, k8);
            b.cast(if signed { CastOp::SExt } else { CastOp::ZExt }, s, i64t)
        };
        let x = low24(&mut b, a);
        let y = low24(&mut b, bv);
        let p = b.binary(BinOp::Mul, x, y);
        let p = if hi {
            let k16 = b.i64(16);
            b.binary(BinOp::LShr, p, k16)
        } else {
            p
        };
        let r = match c {
            Some(c) if sat => {
                // The high part as a signed 32-bit value, plus c, clamped.
                let p32 = b.cast(CastOp::Trunc, p, i32t);
                let p64 = b.cast(CastOp::SExt, p32, i64t);
                super::arith::add_clamped_i32(&mut b, p64, c, i64t, i32t)
            }
            Some(c) => {
                let p32 = b.cast(CastOp::Trunc, p, i32t);
                b.binary(BinOp::Add, p32, c)
            }
            None => b.cast(CastOp::Trunc, p, i32t),
        };
        self.write(i.arg(0)?, r, false, pos)
    }
}
