//! Packed 16-bit floats (`.f16x2`, `.bf16x2`): lane-wise arithmetic in `f32`,
//! and 16-bit float atomics as compare-and-swap loops.

use super::*;
use crate::inst::{AtomOp, Flag, Half, Opcode as O};

impl<'m, 'p> FnCx<'m, 'p> {
    /// The half type of a packed (`f16x2`/`bf16x2`) instruction.
    fn half_type(&mut self, i: &Inst) -> TypeId {
        if i.packed() == Some(Half::Bf16) || i.has_type(PtxType::BF16) {
            self.types().bf16()
        } else {
            self.types().f16()
        }
    }

    /// Lane `k` (0 = low half) of a packed value, widened to `f32`.
    fn unpack_half(&mut self, v: Value, k: u32, hty: TypeId) -> Value {
        let i16t = self.types().i16();
        let f32t = self.types().f32();
        let mut b = self.b();
        let s = b.binary_imm(BinOp::LShr, v, (16 * k) as i32);
        let h = b.cast(CastOp::Trunc, s, i16t);
        let h = b.cast(CastOp::Bitcast, h, hty);
        b.cast(CastOp::FpExt, h, f32t)
    }

    /// Packs two `f32`s (low, high) as halves of type `hty`.
    fn pack_halves(&mut self, lo: Value, hi: Value, hty: TypeId) -> Value {
        let i16t = self.types().i16();
        let i32t = self.types().i32();
        let mut b = self.b();
        let mut out = b.i32(0);
        for (k, v) in [lo, hi].into_iter().enumerate() {
            let h = b.cast(CastOp::FpTrunc, v, hty);
            let h = b.cast(CastOp::Bitcast, h, i16t);
            let w = b.cast(CastOp::ZExt, h, i32t);
            let w = b.binary_imm(BinOp::Shl, w, 16 * k as i32);
            out = b.binary(BinOp::Or, out, w);
        }
        out
    }

    /// Lane-wise arithmetic on two packed halves, computed in `f32`.
    pub(super) fn packed(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let hty = self.half_type(i);
        let nops = match i.op {
            O::Neg | O::Abs => 1,
            O::Fma => 3,
            _ => 2,
        };
        let mut ins = Vec::new();
        for k in 0..nops {
            ins.push(self.read(i.arg(k + 1)?, PtxType::U32, pos)?);
        }
        let f32t = self.types().f32();
        let mut lanes = Vec::new();
        for lane in 0..2 {
            let xs: Vec<Value> = ins
                .iter()
                .map(|&v| self.unpack_half(v, lane, hty))
                .collect();
            let r = match i.op {
                O::Add => self.b().binary(BinOp::FAdd, xs[0], xs[1]),
                O::Sub => self.b().binary(BinOp::FSub, xs[0], xs[1]),
                O::Mul => self.b().binary(BinOp::FMul, xs[0], xs[1]),
                O::Min | O::Max => self.float_min_max(i, xs[0], xs[1])?,
                O::Neg => self.b().unary(UnOp::FNeg, xs[0]),
                O::Abs => self.b().call_extern("fabsf", vec![xs[0]], &[f32t])[0],
                O::Fma => self.b().call_extern("fmaf", xs.clone(), &[f32t])[0],
                _ => return i.unsupported(),
            };
            let r = match (i.has(Flag::Relu), i.has(Flag::Sat)) {
                (true, _) if i.op != O::Fma => return i.unsupported(),
                (true, _) => self.relu(r),
                (false, true) if matches!(i.op, O::Add | O::Sub | O::Mul | O::Fma) => {
                    self.saturate(r, PtxType::F32)
                }
                (false, true) => return i.unsupported(),
                (false, false) => r,
            };
            lanes.push(r);
        }
        let r = self.pack_halves(lanes[0], lanes[1], hty);
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `atom.add.noftz.f16x2`: a compare-and-swap loop on the 32-bit word.
    pub(super) fn atom_packed(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if i.mods.atom != Some(AtomOp::Add) {
            return i.unsupported();
        }
        let red = i.op == O::Red;
        let (addr, first) = if red { (i.arg(0)?, 1) } else { (i.arg(1)?, 2) };
        let space = i.space();
        let ptr = self.address(addr, space, pos)?;
        let packed = i.packed().is_some();
        let wt = if packed { PtxType::U32 } else { PtxType::U16 };
        let v = self.read(i.arg(first)?, wt, pos)?;
        let hty = self.half_type(i);
        let wty = ir_type(self.types(), wt);
        let (_, before, after) = self.b().create_while(&[], &[]);
        let saved = self.cur;
        self.cur = after;
        self.b().yield_(vec![]);
        self.cur = before;
        let old = self.b().load(ptr, wty);
        let new = if packed {
            let mut lanes = Vec::new();
            for lane in 0..2 {
                let a = self.unpack_half(old, lane, hty);
                let b2 = self.unpack_half(v, lane, hty);
                lanes.push(self.b().binary(BinOp::FAdd, a, b2));
            }
            self.pack_halves(lanes[0], lanes[1], hty)
        } else {
            let f32t = self.types().f32();
            let mut b = self.b();
            let a = b.cast(CastOp::Bitcast, old, hty);
            let a = b.cast(CastOp::FpExt, a, f32t);
            let c = b.cast(CastOp::Bitcast, v, hty);
            let c = b.cast(CastOp::FpExt, c, f32t);
            let r = b.binary(BinOp::FAdd, a, c);
            let r = b.cast(CastOp::FpTrunc, r, hty);
            b.cast(CastOp::Bitcast, r, wty)
        };
        let prev = self.b().op1(
            OpKind::AtomicCas {
                scope: MemScope::Device,
            },
            vec![ptr, old, new],
            wty,
        );
        if !red {
            self.write(i.arg(0)?, prev, false, pos)?;
        }
        let again = self.b().cmp(CmpPred::Ne, prev, old);
        self.b().condition(again, vec![]);
        self.cur = saved;
        Ok(())
    }
}
