//! Scalar semantics: arithmetic, comparisons, conversions and atomic
//! updates on raw bit patterns.
//!
//! A value is a `u64` holding its bit pattern zero-extended: an integer of
//! width `w` keeps bits above `w` clear (`i1` is 0 or 1), a float holds its
//! IEEE bits (`f16`/`bf16` in the low 16 bits), a pointer its address.
//! Integer arithmetic wraps at the type's width. `f32` and `f64` ops run in
//! their own precision; `f16` and `bf16` ops run in `f32` and round once,
//! which is exact for `+ - * /` and `sqrt` because `f32` has more than twice
//! their precision plus two bits.

use crate::float::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use crate::ops::{AtomicOp, BinOp, CastOp, CmpPred, UnOp};
use crate::types::{FloatKind, Type, TypeId, Types};

/// The scalar kind of an SSA value, as far as evaluation cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// An integer of this many bits (1 to 64).
    Int(u32),
    /// A float.
    Float(FloatKind),
    /// A pointer (64 bits).
    Ptr,
    /// Not a scalar: an aggregate type, which no value may have.
    Aggregate,
}

impl Scalar {
    /// The scalar kind of a type.
    pub fn of(types: &Types, ty: TypeId) -> Scalar {
        if !types.contains(ty) {
            return Scalar::Aggregate;
        }
        match &types[ty] {
            Type::Int(w) if (1..=64).contains(w) => Scalar::Int(u32::from(*w)),
            Type::Float(k) => Scalar::Float(*k),
            Type::Ptr(_) => Scalar::Ptr,
            _ => Scalar::Aggregate,
        }
    }

    /// Size in memory, in bytes (`i1` takes one byte).
    pub fn bytes(self) -> u64 {
        match self {
            Scalar::Int(w) => u64::from(w).div_ceil(8),
            Scalar::Float(k) => k.bytes(),
            Scalar::Ptr => 8,
            Scalar::Aggregate => 0,
        }
    }

    /// Width in bits of integers and pointers.
    pub fn int_width(self) -> Option<u32> {
        match self {
            Scalar::Int(w) => Some(w),
            Scalar::Ptr => Some(64),
            _ => None,
        }
    }

    /// Normalises a loaded or passed-in bit pattern to this kind.
    pub fn normalize(self, bits: u64) -> u64 {
        match self {
            Scalar::Int(1) => u64::from(bits & 0xff != 0),
            Scalar::Int(w) => mask(w, bits),
            Scalar::Float(k) => mask(k.bytes() as u32 * 8, bits),
            Scalar::Ptr | Scalar::Aggregate => bits,
        }
    }
}

/// Why a scalar op failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// Operand types the op does not accept.
    Type(String),
    /// An `nsw` op whose exact result leaves its type.
    Overflow(String),
}

/// True if `op` (`add`, `sub`, `mul` of `w`-bit integers `a`, `b`) overflows
/// read as signed: what an `nsw` op promises never happens, so running
/// into it means a pass flagged an op it could not prove (or the program
/// overflowed a signed value, undefined in CUDA C++ too).
pub fn signed_overflow(op: BinOp, w: u32, a: u64, b: u64) -> bool {
    if !op.takes_nsw() || w == 0 || w > 64 {
        return false;
    }
    let (x, y) = (i128::from(sext(w, a)), i128::from(sext(w, b)));
    let exact = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        _ => x * y,
    };
    let half = 1i128 << (w - 1);
    exact < -half || exact >= half
}

/// Keeps the low `w` bits.
pub fn mask(w: u32, v: u64) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

/// Sign-extends the low `w` bits.
pub fn sext(w: u32, v: u64) -> i64 {
    if w >= 64 {
        v as i64
    } else {
        let s = 64 - w;
        ((v << s) as i64) >> s
    }
}

/// Decodes a float of `kind` to `f64` (exact).
pub fn to_f64(kind: FloatKind, bits: u64) -> f64 {
    match kind {
        FloatKind::F16 => f64::from(f16_to_f32(bits as u16)),
        FloatKind::BF16 => f64::from(bf16_to_f32(bits as u16)),
        FloatKind::F32 => f64::from(f32::from_bits(bits as u32)),
        FloatKind::F64 => f64::from_bits(bits),
    }
}

/// Rounds an `f64` to `f32` toward zero and sets the lowest bit if the
/// result is inexact ("round to odd"); rounding that once more to a format
/// of at most 22 bits of precision gives the correctly rounded result.
fn f64_to_f32_odd(x: f64) -> f32 {
    let f = x as f32;
    if !x.is_finite() || f64::from(f) == x {
        return f;
    }
    let t = if f64::from(f).abs() > x.abs() {
        f32::from_bits(f.to_bits() - 1)
    } else {
        f
    };
    f32::from_bits(t.to_bits() | 1)
}

/// Encodes an `f64` as a float of `kind`, rounding to nearest even once.
pub fn from_f64(kind: FloatKind, x: f64) -> u64 {
    match kind {
        FloatKind::F16 => u64::from(f32_to_f16(f64_to_f32_odd(x))),
        FloatKind::BF16 => u64::from(f32_to_bf16(f64_to_f32_odd(x))),
        FloatKind::F32 => u64::from((x as f32).to_bits()),
        FloatKind::F64 => x.to_bits(),
    }
}

/// Decodes a float of a 32-bit-or-narrower kind to `f32` (exact).
fn to_f32(kind: FloatKind, bits: u64) -> f32 {
    match kind {
        FloatKind::F16 => f16_to_f32(bits as u16),
        FloatKind::BF16 => bf16_to_f32(bits as u16),
        _ => f32::from_bits(bits as u32),
    }
}

fn from_f32(kind: FloatKind, x: f32) -> u64 {
    match kind {
        FloatKind::F16 => u64::from(f32_to_f16(x)),
        FloatKind::BF16 => u64::from(f32_to_bf16(x)),
        _ => u64::from(x.to_bits()),
    }
}

/// Applies a float function in the precision of `kind`.
pub fn float_op(
    kind: FloatKind,
    args: &[u64],
    f: impl Fn(&[f32]) -> f32,
    d: impl Fn(&[f64]) -> f64,
) -> u64 {
    if kind == FloatKind::F64 {
        let xs: Vec<f64> = args.iter().map(|&a| f64::from_bits(a)).collect();
        d(&xs).to_bits()
    } else {
        let xs: Vec<f32> = args.iter().map(|&a| to_f32(kind, a)).collect();
        from_f32(kind, f(&xs))
    }
}

fn float_bin(
    kind: FloatKind,
    a: u64,
    b: u64,
    f: fn(f32, f32) -> f32,
    d: fn(f64, f64) -> f64,
) -> u64 {
    match kind {
        FloatKind::F64 => d(f64::from_bits(a), f64::from_bits(b)).to_bits(),
        _ => from_f32(kind, f(to_f32(kind, a), to_f32(kind, b))),
    }
}

fn type_error(what: &str, ty: Scalar) -> EvalError {
    EvalError::Type(format!("`{what}` does not apply to {ty:?} operands"))
}

/// Evaluates a binary op on operands of type `ty`.
pub fn binary(op: BinOp, ty: Scalar, a: u64, b: u64) -> Result<u64, EvalError> {
    if op.is_float() {
        let Scalar::Float(k) = ty else {
            return Err(type_error(op.name(), ty));
        };
        return Ok(match op {
            BinOp::FAdd => float_bin(k, a, b, |x, y| x + y, |x, y| x + y),
            BinOp::FSub => float_bin(k, a, b, |x, y| x - y, |x, y| x - y),
            BinOp::FMul => float_bin(k, a, b, |x, y| x * y, |x, y| x * y),
            BinOp::FDiv => float_bin(k, a, b, |x, y| x / y, |x, y| x / y),
            BinOp::FRem => float_bin(k, a, b, |x, y| x % y, |x, y| x % y),
            // minNum/maxNum, as the C emitter writes them: a NaN `b`
            // gives `a`, else the lesser (greater), `b` when they compare
            // equal (so -0.0 and +0.0 give `b`).
            BinOp::FMin => float_bin(
                k,
                a,
                b,
                |x, y| if y.is_nan() || x < y { x } else { y },
                |x, y| if y.is_nan() || x < y { x } else { y },
            ),
            _ => float_bin(
                k,
                a,
                b,
                |x, y| if y.is_nan() || x > y { x } else { y },
                |x, y| if y.is_nan() || x > y { x } else { y },
            ),
        });
    }
    let Scalar::Int(w) = ty else {
        return Err(type_error(op.name(), ty));
    };
    let (sa, sb) = (sext(w, a), sext(w, b));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        // NVIDIA GPUs' values (docs/ir.md): by zero, all ones; `MIN / -1`
        // wraps to `MIN`, `MIN % -1` is 0. Nothing traps.
        BinOp::SDiv | BinOp::SRem | BinOp::UDiv | BinOp::URem if b == 0 => mask(w, u64::MAX),
        BinOp::SDiv => mask(w, sa.wrapping_div(sb) as u64),
        BinOp::SRem => mask(w, sa.wrapping_rem(sb) as u64),
        BinOp::UDiv => a / b,
        BinOp::URem => a % b,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        // PTX's clamping shifts (docs/ir.md): the amount is unsigned, and
        // one of the width or more gives 0, or the sign for `ashr`.
        BinOp::Shl | BinOp::LShr if b >= u64::from(w) => 0,
        BinOp::AShr if b >= u64::from(w) => (sa >> 63) as u64,
        BinOp::Shl => a << b,
        BinOp::LShr => a >> b,
        BinOp::AShr => (sa >> b) as u64,
        BinOp::SMin => sa.min(sb) as u64,
        BinOp::SMax => sa.max(sb) as u64,
        BinOp::UMin => a.min(b),
        BinOp::UMax => a.max(b),
        BinOp::SMulHi => ((i128::from(sa) * i128::from(sb)) >> w) as u64,
        BinOp::UMulHi => ((u128::from(a) * u128::from(b)) >> w) as u64,
        _ => return Err(type_error(op.name(), ty)),
    };
    Ok(mask(w, r))
}

/// Evaluates a unary op.
pub fn unary(op: UnOp, ty: Scalar, a: u64) -> Result<u64, EvalError> {
    match (op, ty) {
        (UnOp::FNeg, Scalar::Float(k)) => Ok(a ^ (1u64 << (k.bytes() * 8 - 1))),
        (UnOp::Popc, Scalar::Int(_)) => Ok(u64::from(a.count_ones())),
        (UnOp::Clz, Scalar::Int(w)) => Ok(u64::from(a.leading_zeros() - (64 - w))),
        (UnOp::Ctz, Scalar::Int(w)) => Ok(if a == 0 {
            u64::from(w)
        } else {
            u64::from(a.trailing_zeros())
        }),
        (UnOp::Brev, Scalar::Int(w)) => Ok(a.reverse_bits() >> (64 - w)),
        _ => Err(type_error(op.name(), ty)),
    }
}

/// Evaluates a comparison.
pub fn cmp(pred: CmpPred, ty: Scalar, a: u64, b: u64) -> Result<bool, EvalError> {
    if pred.is_float() {
        let Scalar::Float(k) = ty else {
            return Err(type_error(pred.name(), ty));
        };
        let (x, y) = (to_f64(k, a), to_f64(k, b));
        let uno = x.is_nan() || y.is_nan();
        return Ok(match pred {
            CmpPred::FOeq => x == y,
            CmpPred::FOne => !uno && x != y,
            CmpPred::FOlt => x < y,
            CmpPred::FOle => x <= y,
            CmpPred::FOgt => x > y,
            CmpPred::FOge => x >= y,
            CmpPred::FUeq => uno || x == y,
            CmpPred::FUne => x != y,
            CmpPred::FUlt => uno || x < y,
            CmpPred::FUle => uno || x <= y,
            CmpPred::FUgt => uno || x > y,
            CmpPred::FUge => uno || x >= y,
            CmpPred::FOrd => !uno,
            _ => uno,
        });
    }
    let Some(w) = ty.int_width() else {
        return Err(type_error(pred.name(), ty));
    };
    let (sa, sb) = (sext(w, a), sext(w, b));
    Ok(match pred {
        CmpPred::Eq => a == b,
        CmpPred::Ne => a != b,
        CmpPred::Slt => sa < sb,
        CmpPred::Sle => sa <= sb,
        CmpPred::Sgt => sa > sb,
        CmpPred::Sge => sa >= sb,
        CmpPred::Ult => a < b,
        CmpPred::Ule => a <= b,
        CmpPred::Ugt => a > b,
        _ => a >= b,
    })
}

/// Rounds `m` to `p` significant bits (nearest, ties to even); the result
/// is exact in `f64` for `p <= 53`.
fn round_magnitude(m: u64, p: u32) -> f64 {
    let bits = 64 - m.leading_zeros();
    if bits <= p {
        return m as f64;
    }
    let shift = bits - p;
    let rem = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let mut kept = m >> shift;
    if rem > half || (rem == half && kept & 1 == 1) {
        kept += 1;
    }
    kept as f64 * 2f64.powi(shift as i32)
}

/// An integer (sign and magnitude) to a float of `kind`, rounded once.
fn int_to_float(kind: FloatKind, negative: bool, m: u64) -> u64 {
    let p = match kind {
        FloatKind::F16 => 11,
        FloatKind::BF16 => 8,
        FloatKind::F32 => 24,
        FloatKind::F64 => 53,
    };
    let v = round_magnitude(m, p);
    from_f64(kind, if negative { -v } else { v })
}

fn float_to_int(x: f64, w: u32, signed: bool) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let t = x.trunc();
    if signed {
        let (lo, hi) = if w >= 64 {
            (i64::MIN as f64, i64::MAX as f64)
        } else {
            (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0)
        };
        mask(w, t.clamp(lo, hi) as i64 as u64)
    } else {
        let hi = if w >= 64 {
            u64::MAX as f64
        } else {
            2f64.powi(w as i32) - 1.0
        };
        t.clamp(0.0, hi) as u64
    }
}

/// Evaluates a conversion from `from` to `to`.
pub fn cast(op: CastOp, from: Scalar, to: Scalar, a: u64) -> Result<u64, EvalError> {
    let bad = || EvalError::Type(format!("`{}` cannot convert {from:?} to {to:?}", op.name()));
    Ok(match (op, from, to) {
        (CastOp::Trunc | CastOp::ZExt, Scalar::Int(_), Scalar::Int(w)) => mask(w, a),
        (CastOp::SExt, Scalar::Int(f), Scalar::Int(w)) => mask(w, sext(f, a) as u64),
        (CastOp::FpTrunc | CastOp::FpExt, Scalar::Float(f), Scalar::Float(t)) => {
            from_f64(t, to_f64(f, a))
        }
        (CastOp::FpToSi, Scalar::Float(f), Scalar::Int(w)) => float_to_int(to_f64(f, a), w, true),
        (CastOp::FpToUi, Scalar::Float(f), Scalar::Int(w)) => float_to_int(to_f64(f, a), w, false),
        (CastOp::SiToFp, Scalar::Int(w), Scalar::Float(t)) => {
            let s = sext(w, a);
            int_to_float(t, s < 0, s.unsigned_abs())
        }
        (CastOp::UiToFp, Scalar::Int(_), Scalar::Float(t)) => int_to_float(t, false, a),
        (CastOp::Bitcast, _, _) => {
            if from.bytes() != to.bytes() || from == Scalar::Aggregate || to == Scalar::Aggregate {
                return Err(bad());
            }
            to.normalize(a)
        }
        (CastOp::PtrToInt, Scalar::Ptr, Scalar::Int(w)) => mask(w, a),
        (CastOp::IntToPtr, Scalar::Int(_), Scalar::Ptr) => a,
        (CastOp::SpaceCast, Scalar::Ptr, Scalar::Ptr) => a,
        _ => return Err(bad()),
    })
}

/// The value an atomic read-modify-write stores, given the old value.
pub fn atomic(op: AtomicOp, ty: Scalar, old: u64, v: u64) -> Result<u64, EvalError> {
    let int = |b: BinOp| binary(b, ty, old, v);
    match op {
        AtomicOp::Add => int(BinOp::Add),
        AtomicOp::Sub => int(BinOp::Sub),
        AtomicOp::And => int(BinOp::And),
        AtomicOp::Or => int(BinOp::Or),
        AtomicOp::Xor => int(BinOp::Xor),
        AtomicOp::SMin => int(BinOp::SMin),
        AtomicOp::SMax => int(BinOp::SMax),
        AtomicOp::UMin => int(BinOp::UMin),
        AtomicOp::UMax => int(BinOp::UMax),
        AtomicOp::Xchg => Ok(v),
        AtomicOp::Inc | AtomicOp::Dec => {
            let Scalar::Int(w) = ty else {
                return Err(type_error(op.name(), ty));
            };
            Ok(if op == AtomicOp::Inc {
                if old >= v {
                    0
                } else {
                    mask(w, old + 1)
                }
            } else if old == 0 || old > v {
                v
            } else {
                old - 1
            })
        }
        AtomicOp::FAdd => binary(BinOp::FAdd, ty, old, v),
        AtomicOp::FMin => binary(BinOp::FMin, ty, old, v),
        AtomicOp::FMax => binary(BinOp::FMax, ty, old, v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const I8: Scalar = Scalar::Int(8);
    const I64: Scalar = Scalar::Int(64);
    const I32: Scalar = Scalar::Int(32);
    const F32: Scalar = Scalar::Float(FloatKind::F32);
    const F16: Scalar = Scalar::Float(FloatKind::F16);

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn integer_arithmetic_wraps_and_checks() {
        assert_eq!(binary(BinOp::Add, I8, 200, 100), Ok(44));
        // 200 + 100 as i8: -56 + 100 = 44, no signed overflow; 100 + 100
        // is 200, beyond 127.
        assert!(!signed_overflow(BinOp::Add, 8, 200, 100));
        assert!(signed_overflow(BinOp::Add, 8, 100, 100));
        assert!(signed_overflow(BinOp::Mul, 32, 1 << 16, 1 << 15));
        assert!(!signed_overflow(BinOp::Mul, 32, 1 << 15, 1 << 15));
        assert!(signed_overflow(BinOp::Sub, 32, 0x8000_0000, 1));
        assert!(!signed_overflow(BinOp::Shl, 32, 1 << 31, 1));
        assert_eq!(
            binary(BinOp::SDiv, I32, mask(32, -7i64 as u64), 2),
            Ok(mask(32, -3i64 as u64))
        );
        assert_eq!(
            binary(BinOp::SRem, I32, mask(32, -7i64 as u64), 2),
            Ok(mask(32, -1i64 as u64))
        );
        // Division never traps: NVIDIA GPUs' values.
        assert_eq!(binary(BinOp::UDiv, I32, 7, 0), Ok(0xffff_ffff));
        assert_eq!(binary(BinOp::URem, I32, 7, 0), Ok(0xffff_ffff));
        assert_eq!(
            binary(BinOp::SDiv, I32, mask(32, -7i64 as u64), 0),
            Ok(0xffff_ffff)
        );
        assert_eq!(binary(BinOp::SRem, I8, 5, 0), Ok(0xff));
        assert_eq!(binary(BinOp::UDiv, I64, 7, 0), Ok(u64::MAX));
        assert_eq!(
            binary(BinOp::SDiv, I32, 0x8000_0000, 0xffff_ffff),
            Ok(0x8000_0000)
        );
        assert_eq!(binary(BinOp::SRem, I32, 0x8000_0000, 0xffff_ffff), Ok(0));
        assert_eq!(binary(BinOp::SDiv, I64, 1 << 63, u64::MAX), Ok(1 << 63));
        assert_eq!(binary(BinOp::SDiv, I8, 0x80, 0xff), Ok(0x80));
        assert_eq!(binary(BinOp::Shl, I32, 1, 32), Ok(0));
        assert_eq!(binary(BinOp::LShr, I32, 0xffff_ffff, 0xffff_ffff), Ok(0));
        assert_eq!(binary(BinOp::AShr, I32, 0x8000_0000, 32), Ok(0xffff_ffff));
        assert_eq!(binary(BinOp::AShr, I32, 0x7fff_ffff, 1000), Ok(0));
        assert_eq!(binary(BinOp::Shl, I64, 1, 64), Ok(0));
        assert_eq!(binary(BinOp::AShr, I64, 1 << 63, 64), Ok(u64::MAX));
        assert_eq!(binary(BinOp::LShr, I8, 0x80, 8), Ok(0));
        assert_eq!(binary(BinOp::AShr, I8, 0x80, 7), Ok(0xff));
        assert_eq!(
            binary(BinOp::SMulHi, I32, mask(32, -2i64 as u64), 0x4000_0000),
            Ok(0xffff_ffff)
        );
        assert_eq!(
            binary(BinOp::UMulHi, I32, 0xffff_ffff, 0xffff_ffff),
            Ok(0xffff_fffe)
        );
        assert_eq!(binary(BinOp::SMin, I8, 0xff, 1), Ok(0xff));
        assert_eq!(binary(BinOp::UMin, I8, 0xff, 1), Ok(1));
    }

    #[test]
    fn bit_ops_at_width() {
        assert_eq!(unary(UnOp::Clz, I32, 1), Ok(31));
        assert_eq!(unary(UnOp::Clz, I32, 0), Ok(32));
        assert_eq!(unary(UnOp::Ctz, I8, 0), Ok(8));
        assert_eq!(unary(UnOp::Brev, I32, 1), Ok(0x8000_0000));
        assert_eq!(unary(UnOp::Popc, I32, 0xf0f0), Ok(8));
        assert_eq!(unary(UnOp::FNeg, F32, f(1.5)), Ok(f(-1.5)));
    }

    #[test]
    fn floats_and_predicates() {
        assert_eq!(binary(BinOp::FMin, F32, f(f32::NAN), f(2.0)), Ok(f(2.0)));
        assert_eq!(binary(BinOp::FMax, F32, f(1.0), f(f32::NAN)), Ok(f(1.0)));
        assert_eq!(binary(BinOp::FRem, F32, f(7.5), f(2.0)), Ok(f(1.5)));
        // f32 precision, not f64: 1e8 + 1 is 1e8 in f32.
        assert_eq!(binary(BinOp::FAdd, F32, f(1e8), f(1.0)), Ok(f(1e8)));
        let h = |x: f32| u64::from(f32_to_f16(x));
        assert_eq!(binary(BinOp::FAdd, F16, h(1.0), h(0.5)), Ok(h(1.5)));
        let nan = f(f32::NAN);
        assert_eq!(cmp(CmpPred::FOlt, F32, nan, f(1.0)), Ok(false));
        assert_eq!(cmp(CmpPred::FUlt, F32, nan, f(1.0)), Ok(true));
        assert_eq!(cmp(CmpPred::FUne, F32, nan, nan), Ok(true));
        assert_eq!(cmp(CmpPred::FOne, F32, nan, f(1.0)), Ok(false));
        assert_eq!(cmp(CmpPred::Slt, I8, 0xff, 0), Ok(true));
        assert_eq!(cmp(CmpPred::Ult, I8, 0xff, 0), Ok(false));
    }

    #[test]
    fn conversions() {
        let to = |op, from, to_, a| cast(op, from, to_, a).unwrap();
        assert_eq!(to(CastOp::SExt, I8, I32, 0x80), 0xffff_ff80);
        assert_eq!(to(CastOp::Trunc, I32, I8, 0x1234), 0x34);
        assert_eq!(
            to(CastOp::FpToSi, F32, I32, f(-3.9)),
            mask(32, -3i64 as u64)
        );
        assert_eq!(to(CastOp::FpToSi, F32, I32, f(1e20)), 0x7fff_ffff);
        assert_eq!(to(CastOp::FpToSi, F32, I32, f(f32::NAN)), 0);
        assert_eq!(to(CastOp::FpToUi, F32, I32, f(-5.0)), 0);
        assert_eq!(to(CastOp::FpToUi, F32, Scalar::Int(64), f(1e30)), u64::MAX);
        assert_eq!(
            to(CastOp::SiToFp, I32, F32, mask(32, -2i64 as u64)),
            f(-2.0)
        );
        // 2^24 + 1 rounds to even in f32.
        assert_eq!(to(CastOp::UiToFp, I32, F32, (1 << 24) + 1), f(16_777_216.0));
        assert_eq!(to(CastOp::UiToFp, I32, F32, (1 << 24) + 3), f(16_777_220.0));
        assert_eq!(
            to(CastOp::UiToFp, Scalar::Int(64), F32, u64::MAX),
            f(18_446_744_073_709_551_616.0)
        );
        assert_eq!(to(CastOp::Bitcast, F32, I32, f(1.0)), 0x3f80_0000);
        // f64 -> f16 without double rounding: 1 + 2^-11 + 2^-40 rounds up.
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        let r = to(
            CastOp::FpTrunc,
            Scalar::Float(FloatKind::F64),
            F16,
            x.to_bits(),
        );
        assert_eq!(r, 0x3c01);
        assert!(cast(CastOp::Bitcast, I8, F32, 0).is_err());
    }

    #[test]
    fn atomics() {
        assert_eq!(atomic(AtomicOp::Inc, I32, 5, 5), Ok(0));
        assert_eq!(atomic(AtomicOp::Inc, I32, 4, 5), Ok(5));
        assert_eq!(atomic(AtomicOp::Dec, I32, 0, 5), Ok(5));
        assert_eq!(atomic(AtomicOp::Dec, I32, 7, 5), Ok(5));
        assert_eq!(atomic(AtomicOp::Dec, I32, 3, 5), Ok(2));
        assert_eq!(atomic(AtomicOp::FAdd, F32, f(1.0), f(0.5)), Ok(f(1.5)));
        assert_eq!(atomic(AtomicOp::SMax, I32, 0xffff_ffff, 1), Ok(1));
    }
}
