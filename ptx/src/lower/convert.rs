//! Conversions (`cvt`): integer and float widths, integral rounding,
//! directed rounding of narrowing conversions, saturation, `.relu` and
//! `.satfinite`, and packing two floats as halves.

use super::inst::{bits, is_float, is_signed};
use super::*;
use crate::inst::{Flag, Half, Rounding};

impl<'m, 'p> FnCx<'m, 'p> {
    pub(super) fn cvt(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if let Some(half) = i.packed() {
            // `cvt.rn.f16x2.f32 d, a, b`: a in the upper half, b in the lower.
            if !i.has_type(PtxType::F32)
                || matches!(i.mods.round, Some(Rounding::Rna | Rounding::Rs))
                || i.args.len() != 3
            {
                return i.unsupported();
            }
            let hty = match half {
                Half::F16 => self.types().f16(),
                Half::Bf16 => self.types().bf16(),
            };
            let i16t = self.types().i16();
            let i32t = self.types().i32();
            let [a, b2] = self.read_args(i, 1, [PtxType::F32; 2])?;
            let mut halves = Vec::new();
            for v in [a, b2] {
                let v = self.float_modifiers(i, v, hty);
                halves.push(self.narrow_float(v, hty, i.mods.round));
            }
            let (ha, hb) = (halves[0], halves[1]);
            let mut b = self.b();
            let ia = b.cast(CastOp::Bitcast, ha, i16t);
            let ib = b.cast(CastOp::Bitcast, hb, i16t);
            let wa = b.cast(CastOp::ZExt, ia, i32t);
            let wb = b.cast(CastOp::ZExt, ib, i32t);
            let hi = b.binary_imm(BinOp::Shl, wa, 16);
            let r = b.binary(BinOp::Or, hi, wb);
            return self.write(i.arg(0)?, r, false, pos);
        }
        let (dt, st) = i.types2()?;
        if matches!(i.mods.round, Some(Rounding::Rna | Rounding::Rs)) || i.args.len() != 2 {
            return i.unsupported();
        }
        if (i.has(Flag::Relu) || i.has(Flag::Satfinite)) && !(is_float(st) && is_float(dt)) {
            return i.unsupported();
        }
        let a = self.read(i.arg(1)?, st, pos)?;
        let dty = ir_type(self.types(), dt);
        // Rounding to an integral value; float roundings are to nearest.
        let rnd = i.mods.round.filter(|r| {
            matches!(
                r,
                Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi
            )
        });
        let sat = i.has(Flag::Sat);
        let round = |cx: &mut Self, v: Value, t: PtxType, mode: Rounding| -> Result<Value> {
            let ty = ir_type(cx.types(), t);
            let d = t == PtxType::F64;
            let name = match (mode, d) {
                (Rounding::Rni, false) => "rintf",
                (Rounding::Rni, true) => "rint",
                (Rounding::Rzi, false) => "truncf",
                (Rounding::Rzi, true) => "trunc",
                (Rounding::Rmi, false) => "floorf",
                (Rounding::Rmi, true) => "floor",
                (Rounding::Rpi, false) => "ceilf",
                (Rounding::Rpi, true) => "ceil",
                _ => return Ok(v),
            };
            if t != PtxType::F32 && t != PtxType::F64 {
                return err(
                    pos,
                    format!("unsupported rounding of {t:?} in `{}`", i.name),
                );
            }
            Ok(cx.b().call_extern(name, vec![v], &[ty])[0])
        };
        let r = match (is_float(st), is_float(dt)) {
            (false, false) => {
                if sat && bits(dt) < bits(st) {
                    // Clamp to the destination range.
                    let sty = ir_type(self.types(), st);
                    let (lo, hi) = if is_signed(dt) {
                        let h = (1i64 << (bits(dt) - 1)) - 1;
                        (-h - 1, h)
                    } else {
                        (0, ((1u64 << bits(dt)) - 1) as i64)
                    };
                    let mut b = self.b();
                    let l = b.const_int(sty, lo);
                    let h = b.const_int(sty, hi);
                    let v = if is_signed(st) {
                        let v = b.binary(BinOp::SMax, a, l);
                        b.binary(BinOp::SMin, v, h)
                    } else {
                        b.binary(BinOp::UMin, a, h)
                    };
                    b.cast(CastOp::Trunc, v, dty)
                } else if sat {
                    return i.unsupported();
                } else {
                    self.convert(a, dty, is_signed(st), pos)?
                }
            }
            (false, true) => {
                let r = self.int_to_float(a, is_signed(st), dty, i.mods.round);
                if sat {
                    self.saturate(r, dt)
                } else {
                    r
                }
            }
            (true, false) => {
                let v = match rnd {
                    Some(m) if m != Rounding::Rzi => round(self, a, st, m)?,
                    _ => a,
                };
                let o = if is_signed(dt) {
                    CastOp::FpToSi
                } else {
                    CastOp::FpToUi
                };
                self.b().cast(o, v, dty)
            }
            (true, true) => {
                let a = self.float_modifiers(i, a, dty);
                let v = if bits(dt) > bits(st) {
                    self.b().cast(CastOp::FpExt, a, dty)
                } else if bits(dt) < bits(st) {
                    self.narrow_float(a, dty, i.mods.round)
                } else if dt != st {
                    let f32t = self.types().f32();
                    let w = self.b().cast(CastOp::FpExt, a, f32t);
                    self.narrow_float(w, dty, i.mods.round)
                } else {
                    a
                };
                let v = match rnd {
                    Some(m) => round(self, v, dt, m)?,
                    None => v,
                };
                if sat {
                    self.saturate(v, dt)
                } else {
                    v
                }
            }
        };
        self.write(i.arg(0)?, r, is_signed(dt), pos)
    }

    /// `.relu` and `.satfinite` of a float conversion into `dty`, applied
    /// to the source value (rounding keeps its sign and the clamp bound is
    /// representable).
    fn float_modifiers(&mut self, i: &Inst, v: Value, dty: TypeId) -> Value {
        let v = if i.has(Flag::Relu) { self.relu(v) } else { v };
        if i.has(Flag::Satfinite) {
            self.satfinite(v, dty)
        } else {
            v
        }
    }
}
