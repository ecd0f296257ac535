//! PTX instructions nvcc does not emit from CUDA C++ for sm_80 (or emits
//! only for newer targets): `bmsk`, `szext`, `fns`, `lop3`, the `prmt`
//! modes, `mul24`/`mad24`, packed 16-bit integers, `vabsdiff2`/`4`, `min`/`max` with `.relu`, `.xorsign.abs` and
//! three sources, `testp`, arithmetic and conversions with directed
//! rounding, `.relu` and `.satfinite`, `fma.relu` and `redux.sync` on `.f32`. Each runs in
//! the interpreter, after every cpuify pass and as compiled C (which must
//! agree), and is checked against a model written from the PTX ISA's
//! definitions, on inputs that include the edge cases (amounts of 32 and
//! more, NaN, infinities, signed zeros, subnormals, the ends of each
//! range).

#[path = "../../cpuify/tests/common/mod.rs"]
mod harness;

use harness::{differential, HArg};

#[path = "common/ptx_kernels.rs"]
mod ptx_kernels;

use ptx_kernels::{lower, words};

const HEADER: &str = ".version 8.8\n.target sm_100a\n.address_size 64\n";

/// One result per (operation, thread): `out[k * 32 + t]`. Registers:
/// `%r1..%r4` the thread's four integers, `%f1`, `%f2` its two floats,
/// `%p2` "thread id is odd"; the result goes to `%r10`.
const OPS: &[(&str, &str)] = &[
    ("bmsk.clamp.b32 %r10, %r3, %r4;", "bmsk.clamp"),
    ("bmsk.wrap.b32 %r10, %r3, %r4;", "bmsk.wrap"),
    ("szext.clamp.s32 %r10, %r1, %r4;", "szext.clamp.s32"),
    ("szext.wrap.s32 %r10, %r1, %r4;", "szext.wrap.s32"),
    ("szext.clamp.u32 %r10, %r1, %r3;", "szext.clamp.u32"),
    (
        "and.b32 %r11, %r3, 31;\nsub.s32 %r12, %r4, 18;\nfns.b32 %r10, %r1, %r11, %r12;",
        "fns",
    ),
    ("lop3.b32 %r10, %r1, %r2, %r3, 0x96;", "lop3.96"),
    ("lop3.b32 %r10, %r1, %r2, %r3, 0xe8;", "lop3.e8"),
    ("lop3.b32 %r10, %r1, %r3, %r4, %r2;", "lop3.reg"),
    (
        "lop3.or.b32 %r11|%p1, %r1, %r2, %r3, 0x80, %p2;\nselp.b32 %r12, 1, 0, %p1;\nxor.b32 %r10, %r11, %r12;",
        "lop3.or",
    ),
    ("prmt.b32.f4e %r10, %r1, %r2, %r3;", "prmt.f4e"),
    ("prmt.b32.b4e %r10, %r1, %r2, %r3;", "prmt.b4e"),
    ("prmt.b32.rc8 %r10, %r1, %r2, %r3;", "prmt.rc8"),
    ("prmt.b32.ecl %r10, %r1, %r2, %r3;", "prmt.ecl"),
    ("prmt.b32.ecr %r10, %r1, %r2, %r3;", "prmt.ecr"),
    ("prmt.b32.rc16 %r10, %r1, %r2, %r3;", "prmt.rc16"),
    ("mul24.lo.s32 %r10, %r1, %r2;", "mul24.lo.s32"),
    ("mul24.hi.s32 %r10, %r1, %r2;", "mul24.hi.s32"),
    ("mul24.hi.u32 %r10, %r1, %r2;", "mul24.hi.u32"),
    ("mad24.lo.u32 %r10, %r1, %r2, %r3;", "mad24.lo.u32"),
    ("mad24.hi.sat.s32 %r10, %r1, %r2, %r2;", "mad24.hi.sat.s32"),
    ("add.s16x2 %r10, %r1, %r2;", "add.s16x2"),
    ("sub.u16x2 %r10, %r1, %r2;", "sub.u16x2"),
    ("min.s16x2 %r10, %r1, %r2;", "min.s16x2"),
    ("max.u16x2 %r10, %r1, %r2;", "max.u16x2"),
    ("max.relu.s16x2 %r10, %r1, %r2;", "max.relu.s16x2"),
    ("min.relu.s16x2 %r10, %r1, %r2;", "min.relu.s16x2"),
    ("vabsdiff4.u32.u32.u32 %r10, %r1, %r2, %r3;", "vabsdiff4"),
    (
        "vabsdiff4.u32.u32.u32.add %r10, %r1, %r2, %r3;",
        "vabsdiff4.add",
    ),
    (
        "vabsdiff2.s32.s32.s32.sat %r10, %r1, %r2, %r3;",
        "vabsdiff2.s.sat",
    ),
    (
        "vabsdiff2.u32.u32.u32.add %r10, %r1, %r2, %r3;",
        "vabsdiff2.add",
    ),
    ("mad.hi.sat.s32 %r10, %r1, %r2, %r2;", "mad.hi.sat.s32"),
    (
        "cvt.rzi.s8.f32 %rs1, %f2;\ncvt.s32.s8 %r10, %rs1;",
        "cvt.rzi.s8.f32",
    ),
    ("add.rz.f32 %f3, %f1, %f2;\nmov.b32 %r10, %f3;", "add.rz.f32"),
    ("sub.rm.f32 %f3, %f1, %f2;\nmov.b32 %r10, %f3;", "sub.rm.f32"),
    ("mul.rp.f32 %f3, %f1, %f2;\nmov.b32 %r10, %f3;", "mul.rp.f32"),
    ("div.rz.f32 %f3, %f1, %f2;\nmov.b32 %r10, %f3;", "div.rz.f32"),
    ("sqrt.rp.f32 %f3, %f2;\nmov.b32 %r10, %f3;", "sqrt.rp.f32"),
    ("rcp.rm.f32 %f3, %f1;\nmov.b32 %r10, %f3;", "rcp.rm.f32"),
    (
        "fma.rz.f32 %f3, %f1, %f2, %f2;\nmov.b32 %r10, %f3;",
        "fma.rz.f32",
    ),
    (
        "fma.rm.f32 %f3, %f1, %f1, %f2;\nmov.b32 %r10, %f3;",
        "fma.rm.f32",
    ),
    ("max.relu.s32 %r10, %r1, %r2;", "max.relu"),
    ("min.relu.s32 %r10, %r1, %r2;", "min.relu"),
    (
        "testp.finite.f32 %p1, %f1;\nselp.b32 %r10, 1, 0, %p1;",
        "testp.finite",
    ),
    (
        "testp.infinite.f32 %p1, %f1;\nselp.b32 %r10, 1, 0, %p1;",
        "testp.infinite",
    ),
    (
        "testp.number.f32 %p1, %f1;\nselp.b32 %r10, 1, 0, %p1;",
        "testp.number",
    ),
    (
        "testp.notanumber.f32 %p1, %f1;\nselp.b32 %r10, 1, 0, %p1;",
        "testp.notanumber",
    ),
    (
        "testp.normal.f32 %p1, %f1;\nselp.b32 %r10, 1, 0, %p1;",
        "testp.normal",
    ),
    (
        "testp.subnormal.f32 %p1, %f1;\nselp.b32 %r10, 1, 0, %p1;",
        "testp.subnormal",
    ),
    (
        "min.xorsign.abs.f32 %f3, %f1, %f2;\nmov.b32 %r10, %f3;",
        "min.xorsign.abs",
    ),
    (
        "max.NaN.xorsign.abs.f32 %f3, %f1, %f2;\nmov.b32 %r10, %f3;",
        "max.NaN.xorsign.abs",
    ),
    (
        "neg.f32 %f4, %f2;\nmax.f32 %f3, %f1, %f2, %f4;\nmov.b32 %r10, %f3;",
        "max3",
    ),
    (
        "add.f32 %f4, %f2, 0f3F800000;\nmin.NaN.abs.f32 %f3, %f1, %f2, %f4;\nmov.b32 %r10, %f3;",
        "min3.NaN.abs",
    ),
    (
        "cvt.rn.f16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rn.f16",
    ),
    (
        "cvt.rz.f16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rz.f16",
    ),
    (
        "cvt.rm.f16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rm.f16",
    ),
    (
        "cvt.rp.f16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rp.f16",
    ),
    (
        "cvt.rn.relu.f16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rn.relu.f16",
    ),
    (
        "cvt.rn.satfinite.f16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rn.satfinite.f16",
    ),
    (
        "cvt.rz.bf16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rz.bf16",
    ),
    (
        "cvt.rn.bf16.f32 %rs1, %f1;\ncvt.u32.u16 %r10, %rs1;",
        "cvt.rn.bf16",
    ),
    (
        "cvt.rn.relu.f16x2.f32 %r10, %f1, %f2;",
        "cvt.rn.relu.f16x2",
    ),
    (
        "cvt.rz.satfinite.f16x2.f32 %r10, %f1, %f2;",
        "cvt.rz.satfinite.f16x2",
    ),
    (
        "cvt.rz.f32.s32 %f3, %r1;\nmov.b32 %r10, %f3;",
        "cvt.rz.f32.s32",
    ),
    (
        "cvt.rm.f32.s32 %f3, %r2;\nmov.b32 %r10, %f3;",
        "cvt.rm.f32.s32",
    ),
    (
        "cvt.rp.f32.u32 %f3, %r2;\nmov.b32 %r10, %f3;",
        "cvt.rp.f32.u32",
    ),
    (
        "cvt.f64.f32 %fd1, %f1;\nmul.f64 %fd2, %fd1, 0d3FF199999999999A;\ncvt.rz.f32.f64 %f3, %fd2;\nmov.b32 %r10, %f3;",
        "cvt.rz.f32.f64",
    ),
    (
        "cvt.f64.f32 %fd1, %f1;\nmul.f64 %fd2, %fd1, 0d3FF199999999999A;\ncvt.rm.f32.f64 %f3, %fd2;\nmov.b32 %r10, %f3;",
        "cvt.rm.f32.f64",
    ),
    (
        "cvt.f64.f32 %fd1, %f1;\nmul.f64 %fd2, %fd1, 0d3FF199999999999A;\ncvt.rp.f32.f64 %f3, %fd2;\nmov.b32 %r10, %f3;",
        "cvt.rp.f32.f64",
    ),
    (
        "cvt.rn.f16x2.f32 %r11, %f1, %f1;\nfma.rn.relu.f16x2 %r10, %r11, 0x3c003c00, %r11;",
        "fma.relu.f16x2",
    ),
];

/// The value of IEEE half-precision bits `h`.
fn f16_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    }
}

/// `x` rounded to half precision by `mode` (`n`earest even, toward
/// `z`ero, `m`inus or `p`lus infinity), found among all halves.
fn to_f16(x: f64, mode: char) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let (mut below, mut above): (Option<u16>, Option<u16>) = (None, None);
    for h in (0..=0x7c00u16).chain(0x8000..=0xfc00) {
        let v = f16_value(h);
        if v <= x && below.is_none_or(|b| v > f16_value(b)) {
            below = Some(h);
        }
        if v >= x && above.is_none_or(|a| v < f16_value(a)) {
            above = Some(h);
        }
    }
    let zero_sign = |h: u16| {
        if f16_value(h) == 0.0 {
            if x.is_sign_negative() {
                0x8000
            } else {
                0
            }
        } else {
            h
        }
    };
    let (Some(lo), Some(hi)) = (below, above) else {
        return zero_sign(below.or(above).unwrap_or(0));
    };
    if f16_value(lo) == x {
        return zero_sign(lo);
    }
    let r = match mode {
        'm' => lo,
        'p' => hi,
        'z' if x > 0.0 => lo,
        'z' => hi,
        _ => {
            // Overflow: the infinity stands at 65536 for the distance.
            let mag = |h: u16| {
                let v = f16_value(h);
                if v.is_infinite() {
                    65536f64.copysign(v)
                } else {
                    v
                }
            };
            let (dl, dh) = (x - mag(lo), mag(hi) - x);
            if dl < dh || (dl == dh && lo & 1 == 0) {
                lo
            } else {
                hi
            }
        }
    };
    zero_sign(r)
}

/// `x` rounded to bfloat16 by `mode` (`n` or `z`), on its bits.
fn to_bf16(x: f32, mode: char) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let b = x.to_bits();
    let (hi, lost) = (b >> 16, b & 0xffff);
    let up = match mode {
        'z' => false,
        _ => lost > 0x8000 || (lost == 0x8000 && hi & 1 == 1),
    };
    (hi + u32::from(up)) as u16
}

/// `v` rounded to `f32` by `mode` (`z`, `m`, `p`).
fn to_f32(v: f64, mode: char) -> u32 {
    let y = v as f32;
    let back = f64::from(y);
    let next = |y: f32, up: bool| -> f32 {
        let b = y.to_bits();
        if y == 0.0 {
            return f32::from_bits(if up { 1 } else { 0x8000_0001 });
        }
        f32::from_bits(if (y > 0.0) == up { b + 1 } else { b - 1 })
    };
    let r = match mode {
        'm' if back > v => next(y, false),
        'p' if back < v => next(y, true),
        'z' if v > 0.0 && back > v => next(y, false),
        'z' if v < 0.0 && back < v => next(y, true),
        _ => y,
    };
    r.to_bits()
}

/// `s + e` (an exact double-double) rounded to `f32` by `mode`.
fn to_f32_dd(s: f64, e: f64, mode: char) -> u32 {
    if s.is_nan() {
        return f32::NAN.to_bits();
    }
    let y = s as f32;
    let d = s - f64::from(y);
    let tot = if d.is_nan() { 0.0 } else { d + e };
    let next = |y: f32, up: bool| -> f32 {
        let b = y.to_bits();
        if y == 0.0 {
            return f32::from_bits(if up { 1 } else { 0x8000_0001 });
        }
        f32::from_bits(if (y > 0.0) == up { b + 1 } else { b - 1 })
    };
    let neg = if y == 0.0 { tot < 0.0 } else { y < 0.0 };
    let r = match mode {
        'm' if tot < 0.0 => next(y, false),
        'p' if tot > 0.0 => next(y, true),
        'z' if !neg && tot < 0.0 => next(y, false),
        'z' if neg && tot > 0.0 => next(y, true),
        _ => y,
    };
    r.to_bits()
}

/// TwoSum: `a + b` as an exact double-double.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bp = s - a;
    let ap = s - bp;
    (s, (a - ap) + (b - bp))
}

/// PTX `min`/`max` of floats: a NaN operand gives the other.
fn fminmax(a: f32, b: f32, max: bool) -> f32 {
    if max {
        a.max(b)
    } else {
        a.min(b)
    }
}

fn model(op: &str, ints: [u32; 4], fa: f32, fb: f32, t: u32) -> u32 {
    let [a, b, c, d] = ints;
    let (sa, sb) = (a as i32, b as i32);
    match op {
        "bmsk.clamp" | "bmsk.wrap" => {
            let clamp = op == "bmsk.clamp";
            // The bits [c, c + d) of a word, per the ISA's definition.
            let (p, w) = if clamp { (c, d) } else { (c & 31, d & 31) };
            if clamp && p >= 32 {
                return 0;
            }
            let w = if clamp && w >= 32 { 32 } else { w };
            if w == 0 {
                return 0;
            }
            (p..(p + w).min(32)).fold(0, |m, k| m | 1 << k)
        }
        "szext.clamp.s32" | "szext.wrap.s32" | "szext.clamp.u32" => {
            let n = if op.contains("u32") { c } else { d };
            let n = if op.contains("clamp") {
                n.min(32)
            } else {
                n & 31
            };
            match n {
                0 => 0,
                32 => a,
                _ if op.contains("s32") => ((sa << (32 - n)) >> (32 - n)) as u32,
                _ => a & ((1 << n) - 1),
            }
        }
        "fns" => {
            let (base, off) = (c & 31, d as i32 - 18);
            if off == 0 {
                return if a >> base & 1 == 1 { base } else { u32::MAX };
            }
            let mut count = off.unsigned_abs();
            let mut pos = base as i32;
            while (0..32).contains(&pos) {
                if a >> pos & 1 == 1 {
                    count -= 1;
                    if count == 0 {
                        return pos as u32;
                    }
                }
                pos += off.signum();
            }
            u32::MAX
        }
        "lop3.96" => a ^ b ^ c,
        "lop3.e8" => (a & b) | (a & c) | (b & c),
        "lop3.reg" => (0..32).fold(0, |r, k| {
            let i = ((a >> k) & 1) << 2 | ((c >> k) & 1) << 1 | ((d >> k) & 1);
            r | ((b & 0xff) >> i & 1) << k
        }),
        "lop3.or" => {
            let r = a & b & c;
            r ^ u32::from(r != 0 || t & 1 == 1)
        }
        _ if op.starts_with("prmt.") => {
            let bytes = (u64::from(b) << 32) | u64::from(a);
            let k = (c & 3) as usize;
            let src: [u32; 4] = match op {
                "prmt.f4e" => [0, 1, 2, 3].map(|j| (j + k as u32) % 8),
                "prmt.b4e" => [0, 7, 6, 5].map(|j| (j + k as u32) % 8),
                "prmt.rc8" => [k as u32; 4],
                "prmt.ecl" => [0, 1, 2, 3].map(|j| j.max(k as u32)),
                "prmt.ecr" => [0, 1, 2, 3].map(|j| j.min(k as u32)),
                _ => {
                    let h = 2 * (k as u32 & 1);
                    [h, h + 1, h, h + 1]
                }
            };
            (0..4).fold(0, |r, j| {
                r | (((bytes >> (8 * src[j])) & 0xff) as u32) << (8 * j)
            })
        }
        "mul24.lo.s32" | "mul24.hi.s32" | "mad24.hi.sat.s32" => {
            let x = i64::from((sa << 8) >> 8);
            let y = i64::from((sb << 8) >> 8);
            let p = x * y;
            match op {
                "mul24.lo.s32" => p as u32,
                "mul24.hi.s32" => (p >> 16) as u32,
                _ => (i64::from((p >> 16) as i32) + i64::from(sb))
                    .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32,
            }
        }
        "mul24.hi.u32" => ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 16) as u32,
        "mad24.lo.u32" => ((a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)).wrapping_add(c),
        _ if op.ends_with("s16x2") || op.ends_with("u16x2") => {
            let half = |v: u32, k: u32| (v >> (16 * k)) & 0xffff;
            let s16 = |v: u32| v as u16 as i16 as i32;
            (0..2).fold(0, |r, k| {
                let (x, y) = (half(a, k), half(b, k));
                let v = match op {
                    "add.s16x2" => x.wrapping_add(y),
                    "sub.u16x2" => x.wrapping_sub(y),
                    "min.s16x2" => s16(x).min(s16(y)) as u32,
                    "max.u16x2" => x.max(y),
                    "max.relu.s16x2" => s16(x).max(s16(y)).max(0) as u32,
                    _ => s16(x).min(s16(y)).max(0) as u32,
                };
                r | (v & 0xffff) << (16 * k)
            })
        }
        _ if op.starts_with("vabsdiff") => {
            let (n, w) = if op.starts_with("vabsdiff4") {
                (4, 8)
            } else {
                (2, 16)
            };
            let signed = op.contains(".s.");
            let get = |v: u32, k: u32| {
                let x = (v >> (w * k)) & ((1 << w) - 1);
                if signed && x >> (w - 1) == 1 {
                    x as i64 - (1 << w)
                } else {
                    i64::from(x)
                }
            };
            let diffs: Vec<i64> = (0..n).map(|k| (get(a, k) - get(b, k)).abs()).collect();
            if op.ends_with(".add") {
                diffs.iter().fold(c, |s, &d| s.wrapping_add(d as u32))
            } else {
                diffs.iter().enumerate().fold(0, |r, (k, &d)| {
                    let d = if op.ends_with(".sat") {
                        d.min((1 << (w - 1)) - 1)
                    } else {
                        d
                    };
                    r | ((d as u32) & ((1 << w) - 1)) << (w * k as u32)
                })
            }
        }
        "mad.hi.sat.s32" => {
            let hi = (i64::from(sa) * i64::from(sb)) >> 32;
            (hi + i64::from(sb)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32
        }
        // Float to integer conversions clamp to the destination's range;
        // NaN gives 0.
        "cvt.rzi.s8.f32" => {
            if fb.is_nan() {
                0
            } else {
                fb.trunc().clamp(-128.0, 127.0) as i32 as u32
            }
        }
        // Directed rounding of the exact result (sums as double-doubles;
        // f32 products are exact in f64, and an f64 quotient or root of
        // f32 operands never lies across an f32 from the exact one).
        "add.rz.f32" | "sub.rm.f32" | "fma.rz.f32" | "fma.rm.f32" => {
            let (x, y) = (f64::from(fa), f64::from(fb));
            let mode = op.chars().nth(5).unwrap_or('n');
            let (s, e) = match op {
                "add.rz.f32" => two_sum(x, y),
                "sub.rm.f32" => two_sum(x, -y),
                "fma.rm.f32" => two_sum(x * x, y),
                _ => two_sum(x * y, y),
            };
            if !(x.is_finite() && y.is_finite() && s.is_finite()) {
                // Infinities and NaN: the nearest result is exact, or
                // overflow of finite values (handled through s).
                if x.is_finite() && y.is_finite() {
                    return to_f32_dd(s, 0.0, mode);
                }
                let r = match op {
                    "add.rz.f32" => fa + fb,
                    "sub.rm.f32" => fa - fb,
                    "fma.rm.f32" => fa.mul_add(fa, fb),
                    _ => fa.mul_add(fb, fb),
                };
                return r.to_bits();
            }
            if mode == 'm' && s == 0.0 && e == 0.0 {
                // IEEE 754: an exact zero sum rounded down is -0, unless
                // both addends are +0.
                let (p, q) = match op {
                    "sub.rm.f32" => (x, -y),
                    "fma.rm.f32" => (x * x, y),
                    _ => (x, y),
                };
                let pos = |v: f64| v == 0.0 && v.is_sign_positive();
                return if pos(p) && pos(q) { 0 } else { 0x8000_0000 };
            }
            to_f32_dd(s, e, mode)
        }
        "mul.rp.f32" => to_f32_dd(f64::from(fa) * f64::from(fb), 0.0, 'p'),
        "div.rz.f32" => to_f32_dd(f64::from(fa) / f64::from(fb), 0.0, 'z'),
        "sqrt.rp.f32" => to_f32_dd(f64::from(fb).sqrt(), 0.0, 'p'),
        "rcp.rm.f32" => to_f32_dd(1.0 / f64::from(fa), 0.0, 'm'),
        "max.relu" => sa.max(sb).max(0) as u32,
        "min.relu" => sa.min(sb).max(0) as u32,
        "testp.finite" => u32::from(fa.is_finite()),
        "testp.infinite" => u32::from(fa.is_infinite()),
        "testp.number" => u32::from(!fa.is_nan()),
        "testp.notanumber" => u32::from(fa.is_nan()),
        "testp.normal" => u32::from(fa.is_normal()),
        "testp.subnormal" => u32::from(fa.is_subnormal()),
        "min.xorsign.abs" | "max.NaN.xorsign.abs" => {
            let max = op.starts_with("max");
            if max && (fa.is_nan() || fb.is_nan()) {
                return f32::NAN.to_bits();
            }
            let m = fminmax(fa.abs(), fb.abs(), max);
            if m.is_nan() {
                return m.to_bits();
            }
            let neg = fa.is_sign_negative() != fb.is_sign_negative();
            (if neg { -m } else { m }).to_bits()
        }
        "max3" => fminmax(fminmax(fa, fb, true), -fb, true).to_bits(),
        "min3.NaN.abs" => {
            let fc = fb + 1.0;
            if fa.is_nan() || fb.is_nan() || fc.is_nan() {
                return f32::NAN.to_bits();
            }
            fa.abs().min(fb.abs()).min(fc.abs()).to_bits()
        }
        "cvt.rn.f16" => u32::from(to_f16(f64::from(fa), 'n')),
        "cvt.rz.f16" => u32::from(to_f16(f64::from(fa), 'z')),
        "cvt.rm.f16" => u32::from(to_f16(f64::from(fa), 'm')),
        "cvt.rp.f16" => u32::from(to_f16(f64::from(fa), 'p')),
        "cvt.rn.relu.f16" => {
            if fa < 0.0 {
                0
            } else {
                u32::from(to_f16(f64::from(fa), 'n'))
            }
        }
        "cvt.rn.satfinite.f16" => {
            let h = to_f16(f64::from(fa), 'n');
            u32::from(match h {
                0x7c00 => 0x7bff,
                0xfc00 => 0xfbff,
                h => h,
            })
        }
        "cvt.rz.bf16" => u32::from(to_bf16(fa, 'z')),
        "cvt.rn.bf16" => u32::from(to_bf16(fa, 'n')),
        "cvt.rn.relu.f16x2" => {
            let h = |x: f32| {
                if x < 0.0 {
                    0
                } else {
                    u32::from(to_f16(f64::from(x), 'n'))
                }
            };
            (h(fa) << 16) | h(fb)
        }
        "cvt.rz.satfinite.f16x2" => {
            let h = |x: f32| {
                let x = if x.is_nan() {
                    x
                } else {
                    x.clamp(-65504.0, 65504.0)
                };
                u32::from(to_f16(f64::from(x), 'z'))
            };
            (h(fa) << 16) | h(fb)
        }
        "cvt.rz.f32.s32" => to_f32(f64::from(sa), 'z'),
        "cvt.rm.f32.s32" => to_f32(f64::from(sb), 'm'),
        "cvt.rp.f32.u32" => to_f32(f64::from(b), 'p'),
        "cvt.rz.f32.f64" | "cvt.rm.f32.f64" | "cvt.rp.f32.f64" => {
            let v = f64::from(fa) * f64::from_bits(0x3FF1_9999_9999_999A);
            if v.is_nan() {
                return f32::NAN.to_bits();
            }
            to_f32(v, op.chars().nth(5).unwrap_or('n'))
        }
        "fma.relu.f16x2" => {
            let h = to_f16(f64::from(fa), 'n');
            let twice = 2.0 * f16_value(h);
            let r = if twice < 0.0 { 0 } else { to_f16(twice, 'n') };
            let r = u32::from(r);
            (r << 16) | r
        }
        other => panic!("no model for {other}"),
    }
}

/// True for results compared as floats (NaN equals NaN, whatever its
/// payload; halves in either half of the word).
fn float_result(op: &str) -> Option<u8> {
    if op.starts_with("cvt") && (op.contains("f16") || op.contains("bf16")) {
        return Some(16);
    }
    if op.starts_with("fma") {
        return Some(16);
    }
    if op.contains("xorsign")
        || op == "max3"
        || op == "min3.NaN.abs"
        || op.starts_with("cvt")
        || op.ends_with(".f32")
    {
        return Some(32);
    }
    None
}

fn same(op: &str, got: u32, want: u32) -> bool {
    match float_result(op) {
        Some(16) => {
            let bf = op.contains("bf16");
            let nan = |h: u32| {
                let h = h & 0xffff;
                if bf {
                    f32::from_bits(h << 16).is_nan()
                } else {
                    f16_value(h as u16).is_nan()
                }
            };
            [0, 16].iter().all(|&s| {
                let (g, w) = (got >> s & 0xffff, want >> s & 0xffff);
                g == w || (nan(g) && nan(w))
            })
        }
        Some(_) => {
            let (g, w) = (f32::from_bits(got), f32::from_bits(want));
            // max3's zeros may come out with either sign.
            got == want || (g.is_nan() && w.is_nan()) || (op == "max3" && g == 0.0 && w == 0.0)
        }
        None => got == want,
    }
}

#[test]
fn bit_float_and_conversion_instructions_match_the_isa() {
    let n = 32usize;
    let mut body = String::new();
    for (k, (code, _)) in OPS.iter().enumerate() {
        body.push_str(code);
        body.push_str(&format!(
            "\nadd.s64 %rd9, %rd8, {};\nst.global.u32 [%rd9], %r10;\n",
            k * n * 4
        ));
    }
    let src = format!(
        "{HEADER}.visible .entry isa(.param .u64 a, .param .u64 f, .param .u64 out)\n{{\n\
.reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<16>;\n.reg .f32 %f<6>;\n.reg .f64 %fd<4>;\n.reg .b64 %rd<12>;\n\
ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [f];\nld.param.u64 %rd3, [out];\n\
mov.u32 %r6, %tid.x;\nmul.wide.u32 %rd4, %r6, 16;\nadd.s64 %rd5, %rd1, %rd4;\n\
ld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd5];\n\
mul.wide.u32 %rd6, %r6, 8;\nadd.s64 %rd7, %rd2, %rd6;\nld.global.v2.f32 {{%f1, %f2}}, [%rd7];\n\
and.b32 %r7, %r6, 1;\nsetp.eq.s32 %p2, %r7, 1;\n\
mul.wide.u32 %rd10, %r6, 4;\nadd.s64 %rd8, %rd3, %rd10;\n{body}ret;\n}}\n"
    );
    let m = lower(&src);
    let mut seed = 0x9e37_79b9u32;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let special = [
        0u32,
        1,
        u32::MAX,
        0x8000_0000,
        0x7fff_ffff,
        0x00ff_ffff,
        0x0080_0000,
        0xaaaa_aaaa,
    ];
    let fspecial = [
        0.0f32,
        -0.0,
        1.0,
        -1.5,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        65504.0,
        65519.0,
        65520.0,
        -70000.0,
        1e-7,
        -1e-7,
        1e-40,
        f32::MAX,
        1.000_000_1,
    ];
    let (mut a, mut f) = (Vec::new(), Vec::new());
    for t in 0..n as u32 {
        let pick = |x: u32| {
            if t < 8 {
                special[(t as usize + x as usize) % 8]
            } else {
                x
            }
        };
        a.extend([
            pick(rnd()),
            pick(rnd()),
            rnd() % 40,
            if t % 3 == 0 { 31 + t % 5 } else { rnd() % 36 },
        ]);
        let random_float =
            |r: u32, s: u32| f32::from_bits((r & 0x807f_ffff) | ((100 + s % 56) << 23));
        let (r1, r2, r3) = (rnd(), rnd(), rnd());
        f.extend([
            if t < 16 {
                fspecial[t as usize]
            } else {
                random_float(r1, r2)
            },
            if t == 2 {
                // 1 + (-1e-30): the nearest is 1, below it is not.
                -1e-30
            } else if t % 5 == 0 {
                fspecial[(t as usize * 7) % 16]
            } else {
                random_float(r3, r1)
            },
        ]);
    }
    let out = vec![0u8; OPS.len() * n * 4];
    let bufs = differential(
        m,
        "isa",
        [1, 1, 1],
        [n as u32, 1, 1],
        &[
            HArg::Buf(a.iter().flat_map(|x| x.to_le_bytes()).collect()),
            HArg::f32s(&f),
            HArg::Buf(out),
        ],
        "ptx_isa",
    );
    let got = words(&bufs[2]);
    let mut bad = Vec::new();
    for (k, (_, name)) in OPS.iter().enumerate() {
        for t in 0..n {
            let (x, y, z, w) = (a[4 * t], a[4 * t + 1], a[4 * t + 2], a[4 * t + 3]);
            let (fa, fb) = (f[2 * t], f[2 * t + 1]);
            let want = model(name, [x, y, z, w], fa, fb, t as u32);
            if !same(name, got[k * n + t], want) {
                bad.push(format!(
                    "{name} t={t} a={x:#x} b={y:#x} c={z} d={w} fa={fa:e} fb={fb:e}: got {:#x}, want {want:#x}",
                    got[k * n + t]
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// `redux.sync.{min,max}{.abs}{.NaN}.f32` over a full warp and over the
/// even lanes (the odd lanes reduce their own half): `+0 > -0`, NaN
/// skipped without `.NaN`, contagious with it.
#[test]
fn redux_sync_f32_forms() {
    let forms = [
        "redux.sync.min.f32",
        "redux.sync.max.f32",
        "redux.sync.min.abs.f32",
        "redux.sync.max.NaN.f32",
    ];
    let mut body = String::new();
    for (k, form) in forms.iter().enumerate() {
        body.push_str(&format!(
            "{form} %f3, %f1, %r5;\nmov.b32 %r10, %f3;\nadd.s64 %rd9, %rd8, {};\nst.global.u32 [%rd9], %r10;\n",
            k * 32 * 4
        ));
    }
    let src = format!(
        "{HEADER}.visible .entry rx(.param .u64 f, .param .u64 out)\n{{\n\
.reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .f32 %f<6>;\n.reg .b64 %rd<12>;\n\
ld.param.u64 %rd1, [f];\nld.param.u64 %rd3, [out];\n\
mov.u32 %r6, %tid.x;\nmul.wide.u32 %rd4, %r6, 4;\nadd.s64 %rd5, %rd1, %rd4;\nld.global.f32 %f1, [%rd5];\n\
and.b32 %r7, %r6, 1;\nsetp.eq.s32 %p1, %r7, 1;\nselp.b32 %r5, 0xaaaaaaaa, 0x55555555, %p1;\n\
add.s64 %rd8, %rd3, %rd4;\n{body}ret;\n}}\n"
    );
    let m = lower(&src);
    let mut vals: Vec<f32> = (0..32).map(|l| (l as f32 - 13.5) * 0.75).collect();
    vals[4] = -0.0;
    vals[6] = 0.0;
    vals[9] = f32::NAN;
    vals[20] = -40.0;
    vals[22] = 39.0;
    let bufs = differential(
        m,
        "rx",
        [1, 1, 1],
        [32, 1, 1],
        &[HArg::f32s(&vals), HArg::Buf(vec![0; 4 * 4 * 32])],
        "ptx_redux_f32",
    );
    let got = words(&bufs[1]);
    for (k, form) in forms.iter().enumerate() {
        for l in 0..32 {
            let lanes: Vec<f32> = (0..32)
                .filter(|j| j % 2 == l % 2)
                .map(|j| vals[j])
                .collect();
            let abs = form.contains("abs");
            let xs: Vec<f32> = lanes
                .iter()
                .map(|x| if abs { x.abs() } else { *x })
                .collect();
            let max = form.contains("max");
            let nan = form.contains("NaN") && xs.iter().any(|x| x.is_nan());
            let pick = |acc: f32, x: f32| {
                if x.is_nan() {
                    acc
                } else if acc.is_nan() {
                    x
                } else if max {
                    if x > acc || (x == acc && x.is_sign_positive()) {
                        x
                    } else {
                        acc
                    }
                } else if x < acc || (x == acc && x.is_sign_negative()) {
                    x
                } else {
                    acc
                }
            };
            let want = if nan {
                f32::NAN
            } else {
                xs.iter().fold(f32::NAN, |acc, &x| pick(acc, x))
            };
            let g = f32::from_bits(got[k * 32 + l]);
            assert!(
                g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                "{form} lane {l}: got {g:e} ({:#x}), want {want:e}",
                g.to_bits()
            );
        }
    }
}

/// What the lowering does not implement is an error naming the file, the
/// line and the instruction.
#[test]
fn unsupported_forms_are_named() {
    for (inst, ops) in [
        ("cvt.rs.f16x2.f32", "%r1, %f1, %f2, %r2"),
        ("cvt.rna.f16.f32", "%rs1, %f1"),
        ("fma.rn.relu.f32", "%f1, %f1, %f1, %f1"),
        ("mad24.lo.sat.s32", "%r1, %r1, %r1, %r1"),
        ("min.relu.u32", "%r1, %r1, %r1"),
        ("redux.sync.add.f32", "%f1, %f1, %r1"),
        ("redux.sync.min.abs.u32", "%r1, %r1, %r1"),
        ("fma.rz.f64", "%fd1, %fd1, %fd1, %fd1"),
    ] {
        let src = format!(
            "{HEADER}.visible .entry e()\n{{\n.reg .b16 %rs<2>;\n.reg .b32 %r<3>;\n.reg .f32 %f<3>;\n.reg .f64 %fd<2>;\n{inst} {ops};\nret;\n}}\n"
        );
        let e = cucc_frontend::ptx::lower_ptx(&src, "bad.ptx")
            .err()
            .unwrap_or_else(|| panic!("`{inst}` lowered"))
            .to_string();
        assert!(
            e.starts_with("bad.ptx:10:") && e.contains(&format!("`{inst}`")),
            "`{inst}`: {e}"
        );
    }
}

/// `vote.sync` with partial masks: the two halves of the warp vote at once
/// with masks of their own (`ballot`, `any`, `all`, `uni`), and the low
/// half votes alone under a guard with a constant mask; `activemask`
/// under a guard is the lanes that run it.
#[test]
fn votes_count_only_their_mask() {
    let src = format!(
        "{HEADER}.visible .entry votes(.param .u64 out)\n{{\n\
.reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\n\
ld.param.u64 %rd3, [out];\nmov.u32 %r6, %tid.x;\n\
setp.lt.u32 %p1, %r6, 16;\nselp.b32 %r5, 0xffff, 0xffff0000, %p1;\n\
rem.u32 %r7, %r6, 5;\nsetp.eq.u32 %p2, %r7, 0;\n\
setp.lt.u32 %p3, %r6, 20;\nsetp.eq.u32 %p5, %r6, 20;\n\
vote.sync.ballot.b32 %r1, %p2, %r5;\n\
vote.sync.any.pred %p4, %p5, %r5;\nselp.b32 %r2, 1, 0, %p4;\n\
vote.sync.all.pred %p4, %p3, %r5;\nselp.b32 %r3, 1, 0, %p4;\n\
vote.sync.uni.pred %p4, %p3, %r5;\nselp.b32 %r4, 1, 0, %p4;\n\
mov.u32 %r8, 0;\n@%p1 vote.sync.ballot.b32 %r8, %p2, 0x0000ffff;\n\
mov.u32 %r9, 0;\n@%p2 activemask.b32 %r9;\n\
mul.wide.u32 %rd4, %r6, 24;\nadd.s64 %rd5, %rd3, %rd4;\n\
st.global.v4.u32 [%rd5], {{%r1, %r2, %r3, %r4}};\nst.global.v2.u32 [%rd5+16], {{%r8, %r9}};\n\
ret;\n}}\n"
    );
    let m = lower(&src);
    let bufs = differential(
        m,
        "votes",
        [1, 1, 1],
        [32, 1, 1],
        &[HArg::Buf(vec![0; 24 * 32])],
        "ptx_votes",
    );
    let got = words(&bufs[0]);
    let fives = (0..32).filter(|l| l % 5 == 0).fold(0u32, |m, l| m | 1 << l);
    for l in 0..32 {
        let low = l < 16;
        let half: u32 = if low { 0xffff } else { 0xffff_0000 };
        let want = [
            fives & half,
            u32::from(!low),
            u32::from(low),
            u32::from(low),
            if low { fives & 0xffff } else { 0 },
            if l % 5 == 0 { fives } else { 0 },
        ];
        assert_eq!(&got[6 * l..6 * l + 6], &want, "lane {l}");
    }
}
