//! The FPU's arithmetic on register bit patterns: f64, NaN-boxed f32 and
//! two packed f32 lanes in a 64-bit register.
//!
//! Results follow the RISC-V F and D extensions: NaN results are the
//! canonical NaN, `fmin`/`fmax` return the non-NaN operand and order −0
//! below +0, conversions to integers saturate. Host arithmetic rounds to
//! nearest-even, so an operation whose rounding mode resolves to anything
//! else is [`FpError::Rounding`] unless its result is exact (conversions),
//! rather than a silently different result. Exception flags are not
//! accumulated. An f32 operand is the low 32 bits of the register; the
//! NaN-boxing of the upper half is written but not checked, so packed data
//! from a stream can be used as a scalar f32 (assumed Snitch behaviour).

use crate::isa::*;

/// The canonical f64 NaN.
pub const CANON_NAN_D: u64 = 0x7ff8_0000_0000_0000;
/// The canonical f32 NaN.
pub const CANON_NAN_S: u32 = 0x7fc0_0000;

/// An operation the model cannot perform exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FpError {
    /// The rounding mode is not round-to-nearest-even and the result is not exact.
    #[error("rounding mode {} is not modelled for this operation (only rne, or an exact result)", .0.mnemonic())]
    Rounding(RoundingMode),
}

/// An f32 into a register, NaN-boxed.
pub fn box_s(v: f32) -> u64 {
    0xffff_ffff_0000_0000 | u64::from(v.to_bits())
}

fn s(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

fn canon_d(v: f64) -> u64 {
    if v.is_nan() {
        CANON_NAN_D
    } else {
        v.to_bits()
    }
}

fn canon_s(v: f32) -> u32 {
    if v.is_nan() {
        CANON_NAN_S
    } else {
        v.to_bits()
    }
}

fn need_rne(rm: RoundingMode) -> Result<(), FpError> {
    if rm == RoundingMode::Rne {
        Ok(())
    } else {
        Err(FpError::Rounding(rm))
    }
}

/// `fadd`/`fsub`/`fmul`/`fdiv`; `rm` is already resolved (not `Dyn`).
pub fn arith(op: FArithOp, fmt: FFmt, a: u64, b: u64, rm: RoundingMode) -> Result<u64, FpError> {
    need_rne(rm)?;
    Ok(match fmt {
        FFmt::D => {
            let (x, y) = (d(a), d(b));
            canon_d(match op {
                FArithOp::Add => x + y,
                FArithOp::Sub => x - y,
                FArithOp::Mul => x * y,
                FArithOp::Div => x / y,
            })
        }
        FFmt::S => {
            let (x, y) = (s(a), s(b));
            box_s(f32::from_bits(canon_s(match op {
                FArithOp::Add => x + y,
                FArithOp::Sub => x - y,
                FArithOp::Mul => x * y,
                FArithOp::Div => x / y,
            })))
        }
    })
}

/// `fsqrt`.
pub fn sqrt(fmt: FFmt, a: u64, rm: RoundingMode) -> Result<u64, FpError> {
    need_rne(rm)?;
    Ok(match fmt {
        FFmt::D => canon_d(d(a).sqrt()),
        FFmt::S => box_s(f32::from_bits(canon_s(s(a).sqrt()))),
    })
}

/// The fused multiply-add family, with a single rounding.
pub fn fma(op: FmaOp, fmt: FFmt, a: u64, b: u64, c: u64, rm: RoundingMode) -> Result<u64, FpError> {
    need_rne(rm)?;
    let (neg_prod, neg_add) = match op {
        FmaOp::Madd => (false, false),
        FmaOp::Msub => (false, true),
        FmaOp::Nmsub => (true, false),
        FmaOp::Nmadd => (true, true),
    };
    Ok(match fmt {
        FFmt::D => {
            let x = if neg_prod { -d(a) } else { d(a) };
            let z = if neg_add { -d(c) } else { d(c) };
            canon_d(x.mul_add(d(b), z))
        }
        FFmt::S => {
            let x = if neg_prod { -s(a) } else { s(a) };
            let z = if neg_add { -s(c) } else { s(c) };
            box_s(f32::from_bits(canon_s(x.mul_add(s(b), z))))
        }
    })
}

/// Sign injection (no canonicalisation: it is a bit operation).
pub fn sgnj(op: FSgnjOp, fmt: FFmt, a: u64, b: u64) -> u64 {
    let sign_bit = match fmt {
        FFmt::D => 1u64 << 63,
        FFmt::S => 1u64 << 31,
    };
    let sign = match op {
        FSgnjOp::Sgnj => b & sign_bit,
        FSgnjOp::Sgnjn => !b & sign_bit,
        FSgnjOp::Sgnjx => (a ^ b) & sign_bit,
    };
    let r = (a & !sign_bit) | sign;
    match fmt {
        FFmt::D => r,
        FFmt::S => box_s(f32::from_bits(r as u32)),
    }
}

fn min_max_f64(max: bool, x: f64, y: f64) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => f64::from_bits(CANON_NAN_D),
        (true, false) => y,
        (false, true) => x,
        _ if x == y => {
            // Equal values: only ±0 differ, and −0 < +0.
            if (x.is_sign_negative() && !max) || (x.is_sign_positive() && max) {
                x
            } else {
                y
            }
        }
        _ => {
            if (x > y) == max {
                x
            } else {
                y
            }
        }
    }
}

fn min_max_f32(max: bool, x: f32, y: f32) -> u32 {
    if x.is_nan() && y.is_nan() {
        return CANON_NAN_S;
    }
    // Exact in f64, and the f64 result is one of the operands.
    (min_max_f64(max, f64::from(x), f64::from(y)) as f32).to_bits()
}

/// `fmin`/`fmax`.
pub fn min_max(op: FMinMaxOp, fmt: FFmt, a: u64, b: u64) -> u64 {
    let max = op == FMinMaxOp::Max;
    match fmt {
        FFmt::D => min_max_f64(max, d(a), d(b)).to_bits(),
        FFmt::S => box_s(f32::from_bits(min_max_f32(max, s(a), s(b)))),
    }
}

/// `feq`/`flt`/`fle`: 1 or 0, 0 when either operand is NaN.
pub fn compare(op: FCmpOp, fmt: FFmt, a: u64, b: u64) -> u32 {
    let (x, y) = match fmt {
        FFmt::D => (d(a), d(b)),
        FFmt::S => (f64::from(s(a)), f64::from(s(b))),
    };
    u32::from(match op {
        FCmpOp::Eq => x == y,
        FCmpOp::Lt => x < y,
        FCmpOp::Le => x <= y,
    })
}

/// `fclass`: one of ten bits.
pub fn classify(fmt: FFmt, a: u64) -> u32 {
    let (v, quiet) = match fmt {
        FFmt::D => (d(a), a & (1 << 51) != 0),
        FFmt::S => (f64::from(s(a)), a & (1 << 22) != 0),
    };
    let subnormal = match fmt {
        FFmt::D => d(a).is_subnormal(),
        FFmt::S => s(a).is_subnormal(),
    };
    let neg = v.is_sign_negative();
    let bit = if v.is_nan() {
        if quiet {
            9
        } else {
            8
        }
    } else if v.is_infinite() {
        if neg {
            0
        } else {
            7
        }
    } else if v == 0.0 {
        if neg {
            3
        } else {
            4
        }
    } else if subnormal {
        if neg {
            2
        } else {
            5
        }
    } else if neg {
        1
    } else {
        6
    };
    1 << bit
}

/// `fcvt.w[u].{s,d}`: rounded by `rm`, saturating, NaN to the maximum.
pub fn to_int(fmt: FFmt, unsigned: bool, a: u64, rm: RoundingMode) -> u32 {
    let v = match fmt {
        FFmt::D => d(a),
        FFmt::S => f64::from(s(a)),
    };
    let r = match rm {
        RoundingMode::Rtz => v.trunc(),
        RoundingMode::Rdn => v.floor(),
        RoundingMode::Rup => v.ceil(),
        RoundingMode::Rmm => v.round(),
        _ => v.round_ties_even(),
    };
    if unsigned {
        if v.is_nan() || r >= 4_294_967_296.0 {
            u32::MAX
        } else if r <= 0.0 {
            0
        } else {
            r as u32
        }
    } else if v.is_nan() || r >= 2_147_483_648.0 {
        i32::MAX as u32
    } else if r <= -2_147_483_648.0 {
        i32::MIN as u32
    } else {
        r as i32 as u32
    }
}

/// `fcvt.{s,d}.w[u]`.
pub fn from_int(fmt: FFmt, unsigned: bool, v: u32, rm: RoundingMode) -> Result<u64, FpError> {
    let exact = if unsigned {
        f64::from(v)
    } else {
        f64::from(v as i32)
    };
    Ok(match fmt {
        FFmt::D => exact.to_bits(),
        FFmt::S => {
            let r = exact as f32;
            if f64::from(r) != exact {
                need_rne(rm)?;
            }
            box_s(r)
        }
    })
}

/// `fcvt.s.d` (`to` = S) or `fcvt.d.s` (`to` = D).
pub fn convert(to: FFmt, a: u64, rm: RoundingMode) -> Result<u64, FpError> {
    Ok(match to {
        FFmt::D => canon_d(f64::from(s(a))),
        FFmt::S => {
            let x = d(a);
            let r = x as f32;
            if !x.is_nan() && f64::from(r) != x {
                need_rne(rm)?;
            }
            box_s(f32::from_bits(canon_s(r)))
        }
    })
}

fn lanes(bits: u64) -> [f32; 2] {
    [
        f32::from_bits(bits as u32),
        f32::from_bits((bits >> 32) as u32),
    ]
}

fn pack(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | (u64::from(hi) << 32)
}

/// Packed-SIMD operations on two f32 lanes (lane 0 in bits 31..0), rounded
/// to nearest-even. `rd` is the destination's old value (`vfmac.s`
/// accumulates into it).
pub fn packed(op: VfOp, rd: u64, a: u64, b: u64) -> u64 {
    let (x, y, z) = (lanes(a), lanes(b), lanes(rd));
    let lane = |i: usize| -> u32 {
        match op {
            VfOp::Add => canon_s(x[i] + y[i]),
            VfOp::Mul => canon_s(x[i] * y[i]),
            VfOp::Mac => canon_s(x[i].mul_add(y[i], z[i])),
            VfOp::Max => min_max_f32(true, x[i], y[i]),
            VfOp::Cpka => [a as u32, b as u32][i],
        }
    };
    pack(lane(0), lane(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RNE: RoundingMode = RoundingMode::Rne;

    #[test]
    fn riscv_special_cases() {
        let nan = f64::NAN.to_bits() | 1;
        assert_eq!(
            arith(FArithOp::Add, FFmt::D, nan, 1f64.to_bits(), RNE),
            Ok(CANON_NAN_D)
        );
        assert_eq!(
            min_max(FMinMaxOp::Min, FFmt::D, nan, 2f64.to_bits()),
            2f64.to_bits()
        );
        assert_eq!(
            min_max(FMinMaxOp::Min, FFmt::D, 0f64.to_bits(), (-0f64).to_bits()),
            (-0f64).to_bits()
        );
        assert_eq!(
            min_max(FMinMaxOp::Max, FFmt::D, (-0f64).to_bits(), 0f64.to_bits()),
            0f64.to_bits()
        );
        assert_eq!(
            to_int(FFmt::D, false, f64::NAN.to_bits(), RNE),
            i32::MAX as u32
        );
        assert_eq!(
            to_int(FFmt::D, false, (-1e20f64).to_bits(), RNE),
            i32::MIN as u32
        );
        assert_eq!(to_int(FFmt::D, true, (-3.5f64).to_bits(), RNE), 0);
        assert_eq!(to_int(FFmt::D, false, 2.5f64.to_bits(), RNE), 2);
        assert_eq!(
            to_int(FFmt::D, false, 2.5f64.to_bits(), RoundingMode::Rmm),
            3
        );
        assert_eq!(
            to_int(FFmt::D, false, (-2.5f64).to_bits(), RoundingMode::Rdn),
            (-3i32) as u32
        );
        assert_eq!(compare(FCmpOp::Le, FFmt::D, nan, nan), 0);
        assert_eq!(classify(FFmt::D, (-0f64).to_bits()), 1 << 3);
        assert_eq!(classify(FFmt::S, box_s(f32::INFINITY)), 1 << 7);
        assert_eq!(
            sgnj(FSgnjOp::Sgnjn, FFmt::D, 1f64.to_bits(), 1f64.to_bits()),
            (-1f64).to_bits()
        );
    }

    #[test]
    fn rounding_modes_other_than_rne_are_refused_unless_exact() {
        let one = 1f64.to_bits();
        assert_eq!(
            arith(FArithOp::Add, FFmt::D, one, one, RoundingMode::Rtz),
            Err(FpError::Rounding(RoundingMode::Rtz))
        );
        assert!(from_int(FFmt::S, false, 3, RoundingMode::Rtz).is_ok());
        assert!(from_int(FFmt::S, false, 0x0100_0001, RoundingMode::Rtz).is_err());
        assert!(convert(FFmt::S, 0.1f64.to_bits(), RoundingMode::Rup).is_err());
    }

    #[test]
    fn packed_lanes() {
        let a = pack(1.5f32.to_bits(), 2.0f32.to_bits());
        let b = pack(4.0f32.to_bits(), (-1.0f32).to_bits());
        assert_eq!(lanes(packed(VfOp::Add, 0, a, b)), [5.5, 1.0]);
        assert_eq!(lanes(packed(VfOp::Mul, 0, a, b)), [6.0, -2.0]);
        assert_eq!(lanes(packed(VfOp::Mac, a, a, b)), [7.5, 0.0]);
        assert_eq!(lanes(packed(VfOp::Max, 0, a, b)), [4.0, 2.0]);
        assert_eq!(
            lanes(packed(VfOp::Cpka, 0, box_s(3.0), box_s(-7.0))),
            [3.0, -7.0]
        );
    }
}
