//! Lanes of a 32-bit register: packed 16-bit integer arithmetic
//! (`add`/`sub`/`min`/`max` on `.u16x2`/`.s16x2`, sm_90) and the SIMD
//! video instruction `vabsdiff2`/`vabsdiff4`, which CUDA's `__v*`
//! intrinsics are written with. Each lane is taken out, extended, computed
//! in 32 bits and put back.

use super::inst::is_signed;
use super::*;
use crate::inst::{Flag, Opcode as O};

/// Lane `k` of `width` bits of `v`, sign- or zero-extended to 32 bits.
fn lane(b: &mut Builder<'_>, v: Value, k: u32, width: u32, signed: bool) -> Value {
    let hi = b.binary_imm(BinOp::Shl, v, (32 - width * (k + 1)) as i32);
    let down = b.i32((32 - width) as i32);
    b.binary(if signed { BinOp::AShr } else { BinOp::LShr }, hi, down)
}

/// The lanes (low first) packed back into 32 bits, each truncated.
fn pack(b: &mut Builder<'_>, lanes: &[Value], width: u32) -> Value {
    let mask = b.i32(((1u64 << width) - 1) as i32);
    let mut acc = b.i32(0);
    for (k, &l) in lanes.iter().enumerate() {
        let v = b.binary(BinOp::And, l, mask);
        let v = b.binary_imm(BinOp::Shl, v, (width * k as u32) as i32);
        acc = b.binary(BinOp::Or, acc, v);
    }
    acc
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// `add`, `sub`, `min`, `max` (`.relu` on `.s16x2` `min`/`max`) on two
    /// packed 16-bit integers, wrapping.
    pub(super) fn packed_int(&mut self, i: &'p Inst, signed: bool) -> Result<()> {
        let pos = i.pos;
        let relu = i.has(Flag::Relu);
        let ok = match i.op {
            O::Add | O::Sub => !relu && !i.has(Flag::Sat) && !i.has(Flag::Cc),
            O::Min | O::Max => !relu || signed,
            _ => false,
        };
        if !ok || i.args.len() != 3 {
            return i.unsupported();
        }
        let [a, bv] = self.read_args(i, 1, [PtxType::U32; 2])?;
        let mut b = self.b();
        let mut out = Vec::new();
        for k in 0..2 {
            let x = lane(&mut b, a, k, 16, signed);
            let y = lane(&mut b, bv, k, 16, signed);
            let r = match i.op {
                O::Add => b.binary(BinOp::Add, x, y),
                O::Sub => b.binary(BinOp::Sub, x, y),
                O::Min if signed => b.binary(BinOp::SMin, x, y),
                O::Min => b.binary(BinOp::UMin, x, y),
                O::Max if signed => b.binary(BinOp::SMax, x, y),
                _ => b.binary(BinOp::UMax, x, y),
            };
            let r = if relu {
                let z = b.i32(0);
                b.binary(BinOp::SMax, r, z)
            } else {
                r
            };
            out.push(r);
        }
        let r = pack(&mut b, &out, 16);
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `vabsdiff{2,4}.dtype.atype.btype{.sat} d, a, b, c`: each lane's
    /// `|a - b|` (lanes extended by their own type), saturated to the
    /// destination lane's range with `.sat`; with `.add`, `d` is `c` plus
    /// the lanes' sum instead. The lane selectors and merge masks of the
    /// video instructions (`a.b3210`, `d.h1`) are not supported: the
    /// parser has no operand suffixes, so they are errors there.
    pub(super) fn vabsdiff(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let (n, width) = if i.op == O::Vabsdiff4 {
            (4, 8)
        } else {
            (2, 16)
        };
        let ts: Vec<PtxType> = i
            .mods
            .types
            .iter()
            .filter_map(|t| match t {
                crate::inst::DataType::Scalar(s) => Some(*s),
                _ => None,
            })
            .collect();
        let &[dt, at, bt] = ts.as_slice() else {
            return i.unsupported();
        };
        if [dt, at, bt]
            .iter()
            .any(|&t| t != PtxType::U32 && t != PtxType::S32)
            || (i.has(Flag::Sat) && i.has(Flag::Add))
        {
            return i.unsupported();
        }
        let (sd, sa, sb) = (is_signed(dt), is_signed(at), is_signed(bt));
        let [a, bv, c] = self.read_args(i, 1, [PtxType::U32; 3])?;
        let mut b = self.b();
        let mut lanes = Vec::new();
        for k in 0..n {
            let x = lane(&mut b, a, k, width, sa);
            let y = lane(&mut b, bv, k, width, sb);
            let d = b.binary(BinOp::Sub, x, y);
            let nd = b.binary(BinOp::Sub, y, x);
            let r = b.binary(BinOp::SMax, d, nd);
            let r = if i.has(Flag::Sat) {
                let (lo, hi) = if sd {
                    (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
                } else {
                    (0, (1i64 << width) - 1)
                };
                let lo = b.i32(lo as i32);
                let hi = b.i32(hi as i32);
                let r = b.binary(BinOp::SMax, r, lo);
                b.binary(BinOp::SMin, r, hi)
            } else {
                r
            };
            lanes.push(r);
        }
        let r = if i.has(Flag::Add) {
            lanes.iter().fold(c, |acc, &l| b.binary(BinOp::Add, acc, l))
        } else {
            pack(&mut b, &lanes, width)
        };
        self.write(i.arg(0)?, r, false, pos)
    }
}
