//! PTX instruction semantics end to end: hand-written kernels exercising
//! the integer, bit-field, carry, conversion and comparison families, and
//! real nvcc kernels, run in the interpreter (checked against Rust models),
//! after every cpuify pass, and as compiled C (cpuify's own harness), which
//! must all agree.

#[path = "../../cpuify/tests/common/mod.rs"]
mod harness;

use harness::{differential, HArg};

#[path = "common/ptx_kernels.rs"]
mod ptx_kernels;

use ptx_kernels::{lower, words};

const HEADER: &str = ".version 8.5\n.target sm_80\n.address_size 64\n";

/// One result per (operation, thread): `out[k * 32 + t]`.
const OPS: &[(&str, &str)] = &[
    ("bfe.u32 %r10, %r1, 4, 9;", "bfe.u32"),
    ("bfe.s32 %r10, %r1, %r3, 7;", "bfe.s32"),
    ("bfi.b32 %r10, %r2, %r1, 8, 12;", "bfi"),
    ("prmt.b32 %r10, %r1, %r2, 0x9170;", "prmt"),
    ("shf.l.wrap.b32 %r10, %r1, %r2, %r3;", "shf.l.wrap"),
    ("shf.r.clamp.b32 %r10, %r1, %r2, %r4;", "shf.r.clamp"),
    ("shl.b32 %r10, %r1, %r4;", "shl"),
    ("shr.s32 %r10, %r1, %r4;", "shr.s32"),
    ("shr.u32 %r10, %r1, %r4;", "shr.u32"),
    (
        "add.cc.u32 %r11, %r1, %r2;\naddc.u32 %r10, %r3, %r4;",
        "addc",
    ),
    (
        "sub.cc.u32 %r11, %r1, %r2;\nsubc.u32 %r10, %r3, %r4;",
        "subc",
    ),
    ("mul.hi.u32 %r10, %r1, %r2;", "mul.hi.u32"),
    ("mul.hi.s32 %r10, %r1, %r2;", "mul.hi.s32"),
    ("sad.u32 %r10, %r1, %r2, %r3;", "sad"),
    ("bfind.u32 %r10, %r1;", "bfind.u32"),
    ("bfind.s32 %r10, %r2;", "bfind.s32"),
    ("popc.b32 %r10, %r1;", "popc"),
    ("clz.b32 %r10, %r2;", "clz"),
    ("brev.b32 %r10, %r1;", "brev"),
    ("min.s32 %r10, %r1, %r2;", "min.s32"),
    ("max.u32 %r10, %r1, %r2;", "max.u32"),
    ("cvt.rni.s32.f32 %r10, %f1;", "cvt.rni"),
    ("cvt.rmi.s32.f32 %r10, %f1;", "cvt.rmi"),
    ("cvt.rpi.s32.f32 %r10, %f1;", "cvt.rpi"),
    ("cvt.rzi.s32.f32 %r10, %f1;", "cvt.rzi"),
    ("cvt.sat.u8.s32 %r10, %r2;", "cvt.sat.u8"),
    (
        "setp.lt.s32.and %p1, %r1, %r2, %p2;\nselp.b32 %r10, 11, 22, %p1;",
        "setp.and",
    ),
    (
        "setp.ltu.f32 %p1, %f1, %f2;\nselp.b32 %r10, 1, 0, %p1;",
        "setp.ltu",
    ),
    ("set.gt.u32.s32 %r10, %r1, %r2;", "set"),
    ("mad.lo.s32 %r10, %r1, %r2, %r3;", "mad.lo"),
    ("rem.s32 %r10, %r1, %r5;", "rem.s32"),
    ("div.u32 %r10, %r1, %r5;", "div.u32"),
    ("max.f32 %f3, %f2, %f1;\nmov.b32 %r10, %f3;", "max.f32"),
    (
        "min.NaN.f32 %f3, %f1, %f2;\nmov.b32 %r10, %f3;",
        "min.NaN.f32",
    ),
];

fn model(op: &str, a: u32, b: u32, c: u32, d: u32, fa: f32, fb: f32) -> u32 {
    let sa = a as i32;
    let sb = b as i32;
    match op {
        "bfe.u32" => (a >> 4) & 0x1ff,
        "bfe.s32" => {
            let p = c & 0xff;
            if p >= 32 {
                return if sa < 0 { u32::MAX } else { 0 };
            }
            let len = 7u32.min(32 - p);
            let f = (a >> p) & ((1u32 << len) - 1);
            let sign = (a >> (p + len - 1).min(31)) & 1;
            if sign == 1 && len < 32 {
                f | !((1u32 << len) - 1)
            } else {
                f
            }
        }
        "bfi" => {
            let m = ((1u32 << 12) - 1) << 8;
            (a & !m) | ((b << 8) & m)
        }
        "prmt" => {
            let v = (u64::from(b) << 32) | u64::from(a);
            let sel = 0x9170u32;
            (0..4).fold(0u32, |acc, k| {
                let s = (sel >> (4 * k)) & 0xf;
                let byte = ((v >> (8 * (s & 7))) & 0xff) as u32;
                let byte = if s & 8 != 0 {
                    if byte & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    byte
                };
                acc | (byte << (8 * k))
            })
        }
        "shf.l.wrap" => {
            let n = c & 31;
            let v = (u64::from(b) << 32) | u64::from(a);
            ((v << n) >> 32) as u32
        }
        "shf.r.clamp" => {
            let n = d.min(32);
            let v = (u64::from(b) << 32) | u64::from(a);
            (v >> n) as u32
        }
        "shl" => {
            if d < 32 {
                a << d
            } else {
                0
            }
        }
        "shr.s32" => (sa >> d.min(31)) as u32,
        "shr.u32" => {
            if d < 32 {
                a >> d
            } else {
                0
            }
        }
        "addc" => {
            let carry = u32::from(a.checked_add(b).is_none());
            c.wrapping_add(d).wrapping_add(carry)
        }
        "subc" => {
            let borrow = u32::from(a < b);
            c.wrapping_sub(d).wrapping_sub(borrow)
        }
        "mul.hi.u32" => ((u64::from(a) * u64::from(b)) >> 32) as u32,
        "mul.hi.s32" => ((i64::from(sa) * i64::from(sb)) >> 32) as u32,
        "sad" => a.abs_diff(b).wrapping_add(c),
        "bfind.u32" => {
            if a == 0 {
                u32::MAX
            } else {
                31 - a.leading_zeros()
            }
        }
        "bfind.s32" => {
            let v = if sb < 0 { !b } else { b };
            if v == 0 {
                u32::MAX
            } else {
                31 - v.leading_zeros()
            }
        }
        "popc" => a.count_ones(),
        "clz" => b.leading_zeros(),
        "brev" => a.reverse_bits(),
        "min.s32" => sa.min(sb) as u32,
        "max.u32" => a.max(b),
        "cvt.rni" => fa.round_ties_even() as i32 as u32,
        "cvt.rmi" => fa.floor() as i32 as u32,
        "cvt.rpi" => fa.ceil() as i32 as u32,
        "cvt.rzi" => fa.trunc() as i32 as u32,
        "cvt.sat.u8" => sb.clamp(0, 255) as u32,
        "setp.and" => {
            // %p2 is (t odd), computed by the kernel from %r6.
            if sa < sb && d & 1 == 1 {
                11
            } else {
                22
            }
        }
        "setp.ltu" => u32::from(fa < fb || fa.is_nan() || fb.is_nan()),
        "set" => {
            if sa > sb {
                u32::MAX
            } else {
                0
            }
        }
        "mad.lo" => a.wrapping_mul(b).wrapping_add(c),
        "rem.s32" => (sa % 7) as u32,
        "div.u32" => a / 7,
        // maxNum: a NaN operand gives the other.
        "max.f32" => fb.max(fa).to_bits(),
        // `.NaN`: a NaN operand gives NaN.
        "min.NaN.f32" => {
            if fa.is_nan() || fb.is_nan() {
                f32::NAN.to_bits()
            } else {
                fa.min(fb).to_bits()
            }
        }
        other => panic!("no model for {other}"),
    }
}

#[test]
fn integer_bitfield_carry_conversion_and_compare_families() {
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
        "{HEADER}.visible .entry fam(.param .u64 a, .param .u64 f, .param .u64 out)\n{{\n\
.reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<12>;\n\
ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [f];\nld.param.u64 %rd3, [out];\n\
mov.u32 %r6, %tid.x;\nmul.wide.u32 %rd4, %r6, 16;\nadd.s64 %rd5, %rd1, %rd4;\n\
ld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%rd5];\nmov.u32 %r5, 7;\n\
mul.wide.u32 %rd6, %r6, 8;\nadd.s64 %rd7, %rd2, %rd6;\nld.global.v2.f32 {{%f1, %f2}}, [%rd7];\n\
and.b32 %r7, %r6, 1;\nsetp.eq.s32 %p2, %r7, 1;\n\
mul.wide.u32 %rd10, %r6, 4;\nadd.s64 %rd8, %rd3, %rd10;\n{body}ret;\n}}\n"
    );
    let m = lower(&src);
    // Inputs: a mix of small, large, negative and boundary values.
    let mut seed = 0x1234_5678u32;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let mut a = Vec::new();
    let mut f = Vec::new();
    for t in 0..n as u32 {
        let special = [0u32, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 255, 256, 33];
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
        let fx = [-2.5f32, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, -3.7][t as usize % 8]
            * (1.0 + t as f32 / 7.0);
        f.extend([
            fx,
            if t % 4 == 0 {
                f32::NAN
            } else {
                0.25 * t as f32 - 2.0
            },
        ]);
    }
    let out = vec![0u8; OPS.len() * n * 4];
    let bufs = differential(
        m,
        "fam",
        [1, 1, 1],
        [n as u32, 1, 1],
        &[
            HArg::Buf(a.iter().flat_map(|x| x.to_le_bytes()).collect()),
            HArg::f32s(&f),
            HArg::Buf(out),
        ],
        "ptx_families",
    );
    let got = words(&bufs[2]);
    let mut bad = Vec::new();
    for (k, (_, name)) in OPS.iter().enumerate() {
        for t in 0..n {
            let (x, y, z, w) = (a[4 * t], a[4 * t + 1], a[4 * t + 2], a[4 * t + 3]);
            let w = if *name == "setp.and" { t as u32 } else { w };
            let want = model(name, x, y, z, w, f[2 * t], f[2 * t + 1]);
            if got[k * n + t] != want {
                bad.push(format!(
                    "{name} t={t} a={x:#x} b={y:#x} c={z} d={w}: got {:#x}, want {want:#x}",
                    got[k * n + t]
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn nvcc_reduction_kernel_compiled_c_agrees() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx/reduction.ptx");
    let text = std::fs::read_to_string(path).expect("PTX test data");
    let m = lower(&text);
    let n = 1000i32;
    let input: Vec<i32> = (0..n).map(|k| (k * 7) % 19 - 9).collect();
    let blocks = (n as usize).div_ceil(256);
    let bufs = differential(
        m,
        "_Z6reduceIiLj128EEvPKT_PS0_i",
        [blocks as u32, 1, 1],
        [128, 1, 1],
        &[
            HArg::i32s(&input),
            HArg::Buf(vec![0; 4 * blocks]),
            HArg::i32(n),
        ],
        "ptx_reduce",
    );
    let sums: Vec<i32> = words(&bufs[1]).into_iter().map(|x| x as i32).collect();
    let want: Vec<i32> = input.chunks(256).map(|c| c.iter().sum()).collect();
    assert_eq!(sums, want);
}

/// A 32-bit shared address plus an immediate offset wraps at 2^32 as on
/// the GPU: nvcc writes `[%r+68]` with `%r` below the array's address
/// (Rodinia's nw: `%r = temp - 68 * tid + 4 * tid`), which for an array
/// at shared offset 0 is "negative".
#[test]
fn shared_address_offsets_wrap_at_32_bits() {
    let src = format!(
        "{HEADER}.visible .entry sh(.param .u64 out)\n{{\n\
.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.shared .align 4 .b8 buf[256];\n\
ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, buf;\n\
shl.b32 %r3, %r1, 2;\nadd.s32 %r4, %r2, %r3;\nmad.lo.s32 %r7, %r1, 3, 1;\n\
st.shared.u32 [%r4], %r7;\nbar.sync 0;\n\
sub.s32 %r5, %r2, 64;\nadd.s32 %r5, %r5, %r3;\nld.shared.u32 %r6, [%r5+64];\n\
mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r6;\n\
ret;\n}}\n"
    );
    let m = lower(&src);
    let bufs = differential(
        m,
        "sh",
        [1, 1, 1],
        [32, 1, 1],
        &[HArg::Buf(vec![0; 4 * 32])],
        "ptx_shared_wrap",
    );
    let want: Vec<u32> = (0..32).map(|t| 3 * t + 1).collect();
    assert_eq!(words(&bufs[0]), want);
}
