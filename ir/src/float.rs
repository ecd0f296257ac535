//! Conversions for the 16-bit float formats, which Rust lacks natively.
//!
//! Both directions round to nearest, ties to even, and keep NaN and
//! infinity, matching `__float2half_rn` and `__float2bfloat16_rn`.

/// `f64` to IEEE binary16 bits.
pub fn f64_to_f16(x: f64) -> u16 {
    f32_to_f16(x as f32)
}

/// `f32` to IEEE binary16 bits.
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        let nan = if man != 0 { 0x200 } else { 0 };
        return sign | 0x7c00 | nan;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal: shift the mantissa (with its hidden bit) into place.
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1u32 << shift) - 1);
        let mut out = m >> shift;
        if rest > half || (rest == half && (out & 1) == 1) {
            out += 1;
        }
        return sign | out as u16;
    }
    let mut out = ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && (out & 1) == 1) {
        out += 1; // may carry into the exponent, which is still correct
    }
    sign | out as u16
}

/// IEEE binary16 bits to `f32` (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = if exp == 0x1f {
        sign | 0x7f80_0000 | (man << 13)
    } else if exp == 0 {
        if man == 0 {
            sign
        } else {
            // Normalise the subnormal.
            let mut e = 127 - 15 + 1;
            let mut m = man;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | ((e as u32) << 23) | ((m & 0x3ff) << 13)
        }
    } else {
        sign | ((exp + 127 - 15) << 23) | (man << 13)
    };
    f32::from_bits(bits)
}

/// `f64` to bfloat16 bits.
pub fn f64_to_bf16(x: f64) -> u16 {
    f32_to_bf16(x as f32)
}

/// `f32` to bfloat16 bits.
pub fn f32_to_bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) as u16) | 0x40;
    }
    let round = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(round) >> 16) as u16
}

/// bfloat16 bits to `f32` (exact).
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trips() {
        for &x in &[
            0.0f32,
            -0.0,
            1.0,
            -2.5,
            65504.0,
            6.1035156e-5,
            5.9604645e-8,
            0.333_333_34,
        ] {
            let h = f32_to_f16(x);
            let back = f16_to_f32(h);
            assert!(
                (back - x).abs() <= x.abs() * 1e-3 + 6e-8,
                "{x} -> {h:#x} -> {back}"
            );
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
        assert_eq!(f32_to_f16(1e6), 0x7c00);
        assert!(f16_to_f32(f32_to_f16(f32::NAN)).is_nan());
        // Every finite half converts to f32 and back unchanged.
        for h in 0..=0xffffu16 {
            if (h >> 10) & 0x1f != 0x1f {
                assert_eq!(f32_to_f16(f16_to_f32(h)), h);
            }
        }
    }

    #[test]
    fn bf16_round_trips() {
        assert_eq!(f32_to_bf16(1.0), 0x3f80);
        assert_eq!(bf16_to_f32(0x3f80), 1.0);
        assert!(bf16_to_f32(f32_to_bf16(f32::NAN)).is_nan());
        for h in 0..=0xffffu16 {
            let f = bf16_to_f32(h);
            if !f.is_nan() {
                assert_eq!(f32_to_bf16(f), h);
            }
        }
    }
}
