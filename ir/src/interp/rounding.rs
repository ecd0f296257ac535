//! Float operations rounded toward zero or an infinity
//! ([`crate::intrinsics::Directed`]): the round-to-nearest result, then a
//! step to the neighbouring float when the exact value lies on the other
//! side. The sign of the exact residual (exact value minus the rounded one)
//! comes from an error-free transformation: TwoSum for sums, an `fma` for
//! products, quotients and roots, and for the `f32` `fma` the exact `f64`
//! product TwoSummed with the addend. The C emitter's software fallback
//! (`emit_c`'s directed prelude) computes the same formulas.

use crate::intrinsics::{Directed, DirectedOp, Direction};

/// Evaluates an `f32` directed extern; `None` if `name` is not one.
pub fn call_f32(name: &str, a: &[f32]) -> Option<f32> {
    let d = Directed::parse(name).filter(|d| !d.double)?;
    if a.len() != d.op.arity() {
        return None;
    }
    let w = |x: f32| f64::from(x);
    let (r, e) = match d.op {
        DirectedOp::Add => {
            let r = a[0] + a[1];
            (r, f64::from(two_sum_err_f32(a[0], a[1], r)))
        }
        DirectedOp::Mul => {
            let r = a[0] * a[1];
            (r, w(a[0]).mul_add(w(a[1]), -w(r)))
        }
        DirectedOp::Div => {
            let r = a[0] / a[1];
            let e = (-w(r)).mul_add(w(a[1]), w(a[0]));
            (r, if w(a[1]) < 0.0 { -e } else { e })
        }
        DirectedOp::Sqrt => {
            let r = a[0].sqrt();
            (r, (-w(r)).mul_add(w(r), w(a[0])))
        }
        DirectedOp::Fma => {
            let r = a[0].mul_add(a[1], a[2]);
            let p = w(a[0]) * w(a[1]);
            let c = w(a[2]);
            let s = p + c;
            let bp = s - p;
            let ap = s - bp;
            let t = (p - ap) + (c - bp);
            (r, (s - w(r)) + t)
        }
    };
    if exact_zero_sum(d, f64::from(r), e) {
        // For `fma` the addends are the exact product and the addend.
        let (x, y) = match d.op {
            DirectedOp::Fma => (w(a[0]) * w(a[1]), w(a[2])),
            _ => (w(a[0]), w(a[1])),
        };
        return Some(zero_sum(x, y) as f32);
    }
    Some(by_residual(r, f64::from(r), e, d.dir, step_f32))
}

/// IEEE 754's exact zero sum of `x` and `y` rounded down: -0, unless both
/// are +0.
fn zero_sum(x: f64, y: f64) -> f64 {
    let pos_zero = |x: f64| x == 0.0 && x.is_sign_positive();
    if pos_zero(x) && pos_zero(y) {
        0.0
    } else {
        -0.0
    }
}

/// `r` (rounded to nearest; `wide` is its value as an `f64`) moved by
/// direction `dir` given the residual `e`, the exact value less `r`.
fn by_residual<T: Copy>(r: T, wide: f64, e: f64, dir: Direction, step: fn(T, bool) -> T) -> T {
    let above = e > 0.0;
    let below = e < 0.0;
    let neg = if wide == 0.0 { below } else { wide < 0.0 };
    direct(r, above, below, neg, dir, step)
}

/// True for a sum (`add`, `fma`) rounded down whose exact value is zero:
/// round to nearest gives it the wrong sign.
fn exact_zero_sum(d: Directed, r: f64, e: f64) -> bool {
    d.dir == Direction::Down
        && matches!(d.op, DirectedOp::Add | DirectedOp::Fma)
        && r == 0.0
        && e == 0.0
}

/// Evaluates an `f64` directed extern; `None` if `name` is not one.
pub fn call_f64(name: &str, a: &[f64]) -> Option<f64> {
    let d = Directed::parse(name).filter(|d| d.double)?;
    if a.len() != d.op.arity() {
        return None;
    }
    let (r, e) = match d.op {
        DirectedOp::Add => {
            let r = a[0] + a[1];
            (r, two_sum_err_f64(a[0], a[1], r))
        }
        // Near the subnormals the residual itself would underflow (and
        // lose its sign), so it is taken on scaled operands.
        DirectedOp::Mul => {
            let r = a[0] * a[1];
            let e = if r == 0.0 {
                // All of it underflowed: the product's sign.
                (a[0] * HUGE) * (a[1] * HUGE)
            } else if r.abs() < TINY {
                let (x, y) = if a[0].abs() <= a[1].abs() {
                    (a[0] * SCALE, a[1])
                } else {
                    (a[0], a[1] * SCALE)
                };
                x.mul_add(y, -r * SCALE)
            } else {
                a[0].mul_add(a[1], -r)
            };
            (r, e)
        }
        DirectedOp::Div => {
            let r = a[0] / a[1];
            // The residual's low bits are those of the numerator.
            let e = if a[0].abs() < TINY {
                (-r * SCALE).mul_add(a[1], a[0] * SCALE)
            } else {
                (-r).mul_add(a[1], a[0])
            };
            (r, if a[1] < 0.0 { -e } else { e })
        }
        DirectedOp::Sqrt => {
            let r = a[0].sqrt();
            let e = if a[0].abs() < TINY {
                (-r * SCALE).mul_add(r * SCALE, a[0] * SCALE * SCALE)
            } else {
                (-r).mul_add(r, a[0])
            };
            (r, e)
        }
        DirectedOp::Fma => return None,
    };
    if exact_zero_sum(d, r, e) {
        return Some(zero_sum(a[0], a[1]));
    }
    Some(by_residual(r, r, e, d.dir, step_f64))
}

/// Below this (about 2^-897) an `f64` residual may underflow.
const TINY: f64 = 1e-270;
/// 2^200: scales operands so that residuals near the subnormals are
/// normal, exactly.
const SCALE: f64 = f64::from_bits(0x4c70_0000_0000_0000);
/// 2^600: makes a product that underflowed entirely normal.
const HUGE: f64 = f64::from_bits(0x6570_0000_0000_0000);

macro_rules! two_sum_err {
    ($name:ident, $t:ty) => {
        /// The rounding error of `r = a + b` (TwoSum); an overflow of
        /// finite operands counts as `-r` (the exact sum is finite).
        fn $name(a: $t, b: $t, r: $t) -> $t {
            let bp = r - a;
            let ap = r - bp;
            let e = (a - ap) + (b - bp);
            if r.abs() == <$t>::INFINITY && a.abs() < <$t>::INFINITY && b.abs() < <$t>::INFINITY {
                -r
            } else {
                e
            }
        }
    };
}
two_sum_err!(two_sum_err_f32, f32);
two_sum_err!(two_sum_err_f64, f64);

/// The next float after `y` up or down, by stepping its bits; zeros step
/// to the smallest subnormal of that sign (`neg_min` is its bit pattern).
macro_rules! step {
    ($name:ident, $t:ty, $neg_min:expr) => {
        fn $name(y: $t, up: bool) -> $t {
            if y == 0.0 {
                return <$t>::from_bits(if up { 1 } else { $neg_min });
            }
            let b = y.to_bits();
            <$t>::from_bits(if (y > 0.0) == up {
                b.wrapping_add(1)
            } else {
                b.wrapping_sub(1)
            })
        }
    };
}
step!(step_f32, f32, 0x8000_0001);
step!(step_f64, f64, 0x8000_0000_0000_0001);

/// `r` (rounded to nearest) moved by direction `dir` given where the exact
/// value lies (`above`/`below` r) and its sign (`neg`).
fn direct<T: Copy>(
    r: T,
    above: bool,
    below: bool,
    neg: bool,
    dir: Direction,
    step: fn(T, bool) -> T,
) -> T {
    match dir {
        Direction::Down if below => step(r, false),
        Direction::Up if above => step(r, true),
        Direction::Zero if neg && above => step(r, true),
        Direction::Zero if !neg && below => step(r, false),
        _ => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, a: &[f32]) -> f32 {
        call_f32(name, a).unwrap_or(f32::NAN)
    }

    #[test]
    fn f32_directions() {
        // 1 + 2^-30 lies between 1 and the next float up.
        let tiny = 2f32.powi(-30);
        let next = f32::from_bits(1f32.to_bits() + 1);
        assert_eq!(f("__cucc_add_rm_f32", &[1.0, tiny]), 1.0);
        assert_eq!(f("__cucc_add_rp_f32", &[1.0, tiny]), next);
        assert_eq!(f("__cucc_add_rz_f32", &[1.0, tiny]), 1.0);
        assert_eq!(f("__cucc_add_rz_f32", &[-1.0, -tiny]), -1.0);
        assert_eq!(f("__cucc_add_rm_f32", &[-1.0, -tiny]), -next);
        // Exact results are not moved.
        assert_eq!(f("__cucc_mul_rm_f32", &[3.0, 0.5]), 1.5);
        assert_eq!(f("__cucc_sqrt_rp_f32", &[4.0]), 2.0);
        // 1/3 below and above.
        let third = 1f32 / 3.0;
        let (lo, hi) = if f64::from(third) < 1.0 / 3.0 {
            (third, f32::from_bits(third.to_bits() + 1))
        } else {
            (f32::from_bits(third.to_bits() - 1), third)
        };
        assert_eq!(f("__cucc_div_rm_f32", &[1.0, 3.0]), lo);
        assert_eq!(f("__cucc_div_rp_f32", &[1.0, 3.0]), hi);
        assert_eq!(f("__cucc_div_rp_f32", &[-1.0, -3.0]), hi);
        assert_eq!(f("__cucc_div_rz_f32", &[-1.0, 3.0]), -lo);
        // Overflow toward zero stays finite; toward the infinity it does not.
        assert_eq!(f("__cucc_add_rz_f32", &[f32::MAX, f32::MAX]), f32::MAX);
        assert_eq!(f("__cucc_mul_rm_f32", &[f32::MAX, 2.0]), f32::MAX);
        assert_eq!(f("__cucc_mul_rp_f32", &[f32::MAX, 2.0]), f32::INFINITY);
        // A negative product below the smallest subnormal: -0 to nearest
        // and toward zero, the negative subnormal rounded down.
        let t = 2f32.powi(-80);
        let z = f("__cucc_fma_rm_f32", &[t, -t, 0.0]);
        assert_eq!(z.to_bits(), 0x8000_0001);
        let z = f("__cucc_fma_rz_f32", &[t, -t, 0.0]);
        assert_eq!(z.to_bits(), 0x8000_0000);
        assert!(f("__cucc_sqrt_rm_f32", &[-1.0]).is_nan());
        // Exact zero sums: -0 rounded down unless both addends are +0.
        let bits = |x: f32| x.to_bits();
        assert_eq!(bits(f("__cucc_add_rm_f32", &[1.0, -1.0])), 0x8000_0000);
        assert_eq!(bits(f("__cucc_add_rm_f32", &[0.0, -0.0])), 0x8000_0000);
        assert_eq!(bits(f("__cucc_add_rm_f32", &[0.0, 0.0])), 0);
        assert_eq!(bits(f("__cucc_add_rz_f32", &[1.0, -1.0])), 0);
        assert_eq!(bits(f("__cucc_fma_rm_f32", &[2.0, 3.0, -6.0])), 0x8000_0000);
        assert_eq!(bits(f("__cucc_fma_rm_f32", &[0.0, 3.0, 0.0])), 0);
        assert_eq!(bits(f("__cucc_fma_rm_f32", &[-0.0, 3.0, 0.0])), 0x8000_0000);
    }

    #[test]
    fn fma_f32_uses_the_exact_sum() {
        // x * 252 + 12582913 (nvcc's expf): the result's ulp is 1, so
        // rounding down is the floor of the exact value.
        for x in [0.1f32, 0.25, 0.5, 0.999_999_94, 1.0 / 3.0] {
            let exact = f64::from(x) * 252.0 + 12_582_913.0;
            let r = f("__cucc_fma_rm_f32", &[x, 252.0, 12_582_913.0]);
            assert_eq!(f64::from(r), exact.floor(), "{x}");
            let r = f("__cucc_fma_rp_f32", &[x, 252.0, 12_582_913.0]);
            assert_eq!(f64::from(r), exact.ceil(), "{x}");
        }
    }

    #[test]
    fn f64_directions() {
        let g = |n: &str, a: &[f64]| call_f64(n, a).unwrap_or(f64::NAN);
        let next = f64::from_bits(1f64.to_bits() + 1);
        assert_eq!(g("__cucc_add_rp_f64", &[1.0, 1e-30]), next);
        assert_eq!(g("__cucc_add_rm_f64", &[1.0, 1e-30]), 1.0);
        assert_eq!(
            g("__cucc_sqrt_rz_f64", &[2.0]),
            g("__cucc_sqrt_rm_f64", &[2.0])
        );
        assert!(g("__cucc_sqrt_rm_f64", &[2.0]) < g("__cucc_sqrt_rp_f64", &[2.0]));
        assert_eq!(call_f64("__cucc_fma_rm_f64", &[1.0, 2.0, 3.0]), None);
        assert_eq!(call_f32("__cucc_add_rm_f64", &[1.0, 2.0]), None);
        assert_eq!(call_f32("__cucc_add_rm_f32", &[1.0]), None);
    }
}
