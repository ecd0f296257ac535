//! The directed-rounding externs (`__cucc_<op>_<rz|rm|rp>_<f32|f64>`) in
//! compiled C agree bit for bit with the interpreter, for the software
//! formulas (baseline ISA, and with FMA instructions) and, on a CPU with
//! AVX-512, for the hardware's embedded rounding, which is an independent
//! check of the formulas.

mod common;

use common::{differential, with_cflags, HArg};
use cucc_ir::intrinsics::Directed;

/// Inputs: the edge cases (signed zeros, infinities, NaN, the largest
/// finite, subnormals, exact and inexact pairs), then pseudo-random values
/// over the whole exponent range.
fn inputs_f64(n: usize, double: bool) -> [Vec<f64>; 3] {
    let special: Vec<f64> = if double {
        vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            3.0,
            1e-300,
            -1e-310,
            f64::MAX,
            -f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1.0 + f64::EPSILON,
            2.0,
            1e-30,
            -0.1,
        ]
    } else {
        [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            3.0,
            1e-40,
            -1e-45,
            f32::MAX,
            -f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1.0 + f32::EPSILON,
            2.0,
            1e-30,
            -0.1,
        ]
        .iter()
        .map(|&x| f64::from(x))
        .collect()
    };
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut cols: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let s = special.len();
    for t in 0..n {
        for (k, col) in cols.iter_mut().enumerate() {
            let v = if t < s * s && k < 2 {
                // Every pair of specials for the two-operand forms.
                special[if k == 0 { t / s } else { t % s }]
            } else if t % 7 == 3 {
                special[(t + k) % s]
            } else if double {
                // Exponents within ±64 of 1 mostly, so sums round.
                let r = rnd();
                let e = if t % 5 == 0 {
                    r >> 52 & 0x7ff
                } else {
                    1023 - 32 + (r >> 52 & 63)
                };
                f64::from_bits((r & 0x800f_ffff_ffff_ffff) | (e.clamp(0, 0x7fe) << 52))
            } else {
                let r = rnd() as u32;
                let e = if t % 5 == 0 {
                    r >> 23 & 0xff
                } else {
                    127 - 16 + (r >> 23 & 31)
                };
                f64::from(f32::from_bits((r & 0x807f_ffff) | (e.clamp(0, 0xfe) << 23)))
            };
            col.push(v);
        }
    }
    cols
}

/// One kernel applying every directed extern of one float type to thread
/// `t`'s operands `a[t]`, `b[t]`, `c[t]`; results at `out[k * n + t]`.
fn kernel(double: bool, n: usize) -> (String, usize) {
    let ty = if double { "f64" } else { "f32" };
    let size = if double { 8 } else { 4 };
    let ds: Vec<Directed> = Directed::all().filter(|d| d.double == double).collect();
    let mut body = String::new();
    for (k, d) in ds.iter().enumerate() {
        let args = ["%a", "%b", "%c"][..d.op.arity()].join(", ");
        body.push_str(&format!(
            "  %r{k} = call extern @{}({args}) : {ty}\n  %o{k} = const {} : i32\n  %j{k} = add %tid, %o{k} : i32\n  %q{k} = ptr.index {ty} %out, %j{k} : ptr<global>\n  store %q{k}, %r{k}\n",
            d.name(),
            k * n
        ));
    }
    let _ = size;
    let src = format!(
        "file \"directed.cu\"\n\nkernel @k(%pa: ptr<global>, %pb: ptr<global>, %pc: ptr<global>, %out: ptr<global>) {{\n  %tid = thread_id x : i32\n  %xa = ptr.index {ty} %pa, %tid : ptr<global>\n  %a = load %xa : {ty}\n  %xb = ptr.index {ty} %pb, %tid : ptr<global>\n  %b = load %xb : {ty}\n  %xc = ptr.index {ty} %pc, %tid : ptr<global>\n  %c = load %xc : {ty}\n{body}  return\n}}\n"
    );
    (src, ds.len())
}

fn run_all(tag: &str) {
    for double in [false, true] {
        let n = 512usize;
        let (src, count) = kernel(double, n);
        let m = cucc_ir::parse_module(&src).expect("parse");
        let cols = inputs_f64(n, double);
        let buf = |v: &Vec<f64>| -> HArg {
            HArg::Buf(if double {
                v.iter().flat_map(|x| x.to_le_bytes()).collect()
            } else {
                v.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect()
            })
        };
        let size = if double { 8 } else { 4 };
        differential(
            m,
            "k",
            [1, 1, 1],
            [n as u32, 1, 1],
            &[
                buf(&cols[0]),
                buf(&cols[1]),
                buf(&cols[2]),
                HArg::Buf(vec![0u8; count * n * size]),
            ],
            &format!("directed_{tag}_{}", if double { "f64" } else { "f32" }),
        );
    }
}

#[test]
fn software_formulas_on_the_baseline_isa() {
    run_all("baseline");
}

#[test]
fn software_formulas_with_fma_instructions() {
    if !std::arch::is_x86_feature_detected!("fma") {
        eprintln!("no FMA on this CPU: the baseline test covers the formulas");
        return;
    }
    with_cflags(
        &[
            "-mfma",
            "-mavx2",
            "-ffp-contract=off",
            "-DCUCC_DIRECTED_SOFTWARE",
        ],
        || run_all("fma"),
    );
}

#[test]
fn embedded_rounding_agrees_with_the_formulas() {
    if !std::arch::is_x86_feature_detected!("avx512f") {
        eprintln!("no AVX-512 on this CPU: the hardware path is not built here");
        return;
    }
    with_cflags(&["-mavx512f", "-mfma", "-ffp-contract=off"], || {
        run_all("avx512")
    });
}
