//! Comparisons: `setp` and `set`, with their combining boolean.

use super::inst::{by_sign, is_float, is_signed, PRED};
use super::*;
use crate::inst::{BoolOp, CmpOp};

impl<'m, 'p> FnCx<'m, 'p> {
    /// The IR predicate of comparison `cmp` at type `t`.
    fn cmp_pred(i: &Inst, cmp: CmpOp, t: PtxType) -> Result<CmpPred> {
        use CmpOp as C;
        use CmpPred::*;
        let s = is_signed(t);
        Ok(match (cmp, is_float(t)) {
            (C::Eq, true) => FOeq,
            (C::Ne, true) => FOne,
            (C::Lt, true) => FOlt,
            (C::Le, true) => FOle,
            (C::Gt, true) => FOgt,
            (C::Ge, true) => FOge,
            (C::Equ, true) => FUeq,
            (C::Neu, true) => FUne,
            (C::Ltu, true) => FUlt,
            (C::Leu, true) => FUle,
            (C::Gtu, true) => FUgt,
            (C::Geu, true) => FUge,
            (C::Num, true) => FOrd,
            (C::Nan, true) => FUno,
            (C::Eq, false) => Eq,
            (C::Ne, false) => Ne,
            (C::Lt, false) => by_sign(s, Slt, Ult),
            (C::Le, false) => by_sign(s, Sle, Ule),
            (C::Gt, false) => by_sign(s, Sgt, Ugt),
            (C::Ge, false) => by_sign(s, Sge, Uge),
            (C::Lo, false) => Ult,
            (C::Ls, false) => Ule,
            (C::Hi, false) => Ugt,
            (C::Hs, false) => Uge,
            _ => {
                return err(
                    i.pos,
                    format!("unknown comparison `{}` in `{}`", cmp.name(), i.name),
                )
            }
        })
    }

    /// The comparison of `setp`/`set`, combined with the optional boolean.
    fn compare(&mut self, i: &'p Inst, t: PtxType, first: usize) -> Result<Value> {
        let pos = i.pos;
        // The decoder requires the comparison.
        let Some(cmp) = i.mods.cmp else {
            return i.unsupported();
        };
        let pred = Self::cmp_pred(i, cmp, t)?;
        let [a, b2] = self.read_args(i, first, [t, t])?;
        let c = self.b().cmp(pred, a, b2);
        let bop = i.mods.bool_op.map(|o| match o {
            BoolOp::And => BinOp::And,
            BoolOp::Or => BinOp::Or,
            BoolOp::Xor => BinOp::Xor,
        });
        Ok(match bop {
            Some(o) => {
                let q = self.read(i.arg(first + 2)?, PRED, pos)?;
                self.b().binary(o, c, q)
            }
            None => c,
        })
    }

    pub(super) fn setp(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let c = self.compare(i, t, 1)?;
        match i.arg(0)? {
            Operand::Vec(ps) if ps.len() == 2 => {
                // `p|q`: q is the complement.
                self.write(&ps[0], c, false, pos)?;
                let mut b = self.b();
                let one = b.bool(true);
                let n = b.binary(BinOp::Xor, c, one);
                self.write(&ps[1], n, false, pos)
            }
            d => self.write(d, c, false, pos),
        }
    }

    pub(super) fn set(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let (dt, st) = i.types2()?;
        let c = self.compare(i, st, 1)?;
        let ty = ir_type(self.types(), dt);
        let mut b = self.b();
        let (t, f) = if is_float(dt) {
            (b.const_float(ty, 1.0), b.const_float(ty, 0.0))
        } else {
            (b.const_int(ty, -1), b.const_int(ty, 0))
        };
        let r = b.select(c, t, f);
        self.write(i.arg(0)?, r, false, pos)
    }
}
