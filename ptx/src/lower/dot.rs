//! Integer dot products: `dp4a` (four byte products) and `dp2a` (two
//! 16-bit × 8-bit products from the low or high bytes of `b`), accumulated
//! into `c` modulo 2^32. Each operand's type says whether its pieces are
//! sign- or zero-extended.

use super::inst::is_signed;
use super::*;
use crate::inst::{MulMode, Opcode as O};

/// Piece `k` of `width` bits of the i32 `v`, extended to i32.
fn piece(b: &mut Builder<'_>, v: Value, k: i64, width: i64, signed: bool) -> Value {
    let hi = b.binary_imm(BinOp::Shl, v, (32 - width * (k + 1)) as i32);
    let down = b.i32((32 - width) as i32);
    if signed {
        b.binary(BinOp::AShr, hi, down)
    } else {
        b.binary(BinOp::LShr, hi, down)
    }
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// `dp4a.atype.btype d, a, b, c` and `dp2a.{lo,hi}.atype.btype d, a, b, c`.
    pub(super) fn dot(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let (at, bt) = i.types2()?;
        let (sa, sb) = (is_signed(at), is_signed(bt));
        let dt = if sa || sb { PtxType::S32 } else { PtxType::U32 };
        let [a, bv, c] = self.read_args(i, 1, [PtxType::U32, PtxType::U32, dt])?;
        let mut b = self.b();
        let mut acc = c;
        if i.op == O::Dp4a {
            for k in 0..4 {
                let x = piece(&mut b, a, k, 8, sa);
                let y = piece(&mut b, bv, k, 8, sb);
                let p = b.binary(BinOp::Mul, x, y);
                acc = b.binary(BinOp::Add, acc, p);
            }
        } else {
            let first = match i.mods.mul {
                Some(MulMode::Lo) => 0,
                Some(MulMode::Hi) => 2,
                _ => return i.unsupported(),
            };
            for k in 0..2 {
                let x = piece(&mut b, a, k, 16, sa);
                let y = piece(&mut b, bv, first + k, 8, sb);
                let p = b.binary(BinOp::Mul, x, y);
                acc = b.binary(BinOp::Add, acc, p);
            }
        }
        self.write(i.arg(0)?, acc, false, pos)
    }
}
