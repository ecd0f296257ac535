//! `interchange` end to end: kernels whose threads loop on their own (a
//! reduction over a column-major matrix, a column march carrying values
//! from one layer to the next) run in the interpreter after every pass and
//! as compiled C, for full and partial blocks and 1-D and 2-D block
//! shapes (the interchanged version runs only for some of them, and a
//! march whose stores cannot be separated stays as it was); every run
//! must leave the buffers exactly as the per-thread oracle did.

mod common;

use common::{differential, HArg};
use cucc_cpuify::pipeline::{run as run_pipeline, Options};
use cucc_cpuify::remarks::Remarks;
use cucc_ir::parse_module;

/// The `interchange` remarks the default pipeline makes for `src`.
fn remarks_of(src: &str) -> Vec<String> {
    let mut m = parse_module(src).expect("parse");
    let mut remarks = Remarks::default();
    run_pipeline(&mut m, &Options::default(), &mut remarks, &mut |_, _| {}).expect("pipeline");
    remarks
        .items
        .into_iter()
        .filter(|r| r.pass == "interchange")
        .map(|r| r.message)
        .collect()
}

/// Squared norm of column `p` of an `nf x n` column-major matrix, in the
/// frontends' form (`if (p >= n) return;`, a counted `while`, unsigned
/// index arithmetic), `cols` and `out` not `noalias`.
const NORMS: &str = r#"
file "norms.cu"

kernel @norms(%cols: ptr<global>, %out: ptr<global>, %n: i32, %nf: i32) {
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %bd = block_dim x : i32
  %0 = mul %bd, %bx : i32
  %p = add %0, %tx : i32
  %ge = cmp sge %p, %n : i1
  %t = const true : i1
  %in = xor %ge, %t : i1
  if %in {
    %zero = const 0.0 : f32
    %c0 = const 0 : i32
    %d, %f = while (%acc = %zero, %k = %c0) -> (f32, i32) {
      %more = cmp slt %k, %nf : i1
      condition %more, %acc, %k
    } do (%acc1: f32, %k1: i32) {
      %k64 = sext %k1 : i64
      %n64 = sext %n : i64
      %row = mul %k64, %n64 : i64
      %p64 = sext %p : i64
      %idx = add %row, %p64 : i64
      %a = ptr.index f32 %cols, %idx : ptr<global>
      %v = load %a : f32
      %sq = fmul %v, %v : f32
      %acc2 = fadd %acc1, %sq : f32
      %c1 = const 1 : i32
      %k2 = add nsw %k1, %c1 : i32
      yield %acc2, %k2
    }
    %o = ptr.index f32 %out, %p : ptr<global>
    store %o, %d
    yield
  } else {
    yield
  }
  return
}
"#;

/// hotspot3D's march: thread `i` walks up column `i` of an `nz x n` grid,
/// carrying the cells below and at it, and writes `below + 2*here +
/// above` for every inner layer. Its accesses go through a carried index,
/// which neither the contiguity check nor the cross-thread test can read:
/// the loop stays (a remark says why) and the kernel must still be right.
const MARCH: &str = r#"
file "march.cu"

kernel @march(%src: ptr<global>, %dst: ptr<global>, %n: i32, %nz: i32) {
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %bd = block_dim x : i32
  %0 = mul %bd, %bx : i32
  %i = add nsw %0, %tx : i32
  %inb = cmp slt %i, %n : i1
  if %inb {
    %b0 = ptr.index f32 %src, %i : ptr<global>
    %below0 = load %b0 : f32
    %i1 = add nsw %i, %n : i32
    %h0 = ptr.index f32 %src, %i1 : ptr<global>
    %here0 = load %h0 : f32
    %one = const 1 : i32
    %top = sub nsw %nz, %one : i32
    %two = const 2.0 : f32
    %c, %bl, %hr, %k = while (%c0 = %i1, %b = %below0, %h = %here0, %z = %one) -> (i32, f32, f32, i32) {
      %more = cmp slt %z, %top : i1
      condition %more, %c0, %b, %h, %z
    } do (%cc: i32, %bb: f32, %hh: f32, %zz: i32) {
      %up = add nsw %cc, %n : i32
      %ua = ptr.index f32 %src, %up : ptr<global>
      %above = load %ua : f32
      %h2 = fmul %two, %hh : f32
      %s1 = fadd %bb, %h2 : f32
      %s2 = fadd %s1, %above : f32
      %da = ptr.index f32 %dst, %cc : ptr<global>
      store %da, %s2
      %z2 = add nsw %zz, %one : i32
      yield %up, %hh, %above, %z2
    }
    yield
  } else {
    yield
  }
  return
}
"#;

fn floats(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|k| ((k as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) % 1000) as f32 / 64.0)
        .collect()
}

#[test]
fn norms_over_block_shapes() {
    let r = remarks_of(NORMS);
    assert!(
        r.iter().any(|m| m.starts_with("`for` interchanged")
            && m.contains("distinct allocations")
            && m.contains("guard")),
        "{r:?}"
    );
    let (n, nf) = (45usize, 7usize);
    for (grid, block) in [
        ([6, 1, 1], [8, 1, 1]),
        ([3, 1, 1], [16, 1, 1]),
        ([2, 1, 1], [32, 1, 1]),
        ([12, 1, 1], [4, 3, 1]),
    ] {
        let args = [
            HArg::f32s(&floats(n * nf, 3)),
            HArg::f32s(&vec![0.0; n]),
            HArg::i32(n as i32),
            HArg::i32(nf as i32),
        ];
        let m = parse_module(NORMS).expect("parse");
        let tag = format!("interchange_norms_{}_{}", grid[0], block[1]);
        let out = differential(m, "norms", grid, block, &args, &tag);
        let got: Vec<f32> = out[1]
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let cols = floats(n * nf, 3);
        for (p, &g) in got.iter().enumerate() {
            let want: f32 = (0..nf).fold(0.0, |acc, f| {
                let v = cols[f * n + p];
                acc + v * v
            });
            assert_eq!(g, want, "column {p} of {grid:?} {block:?}");
        }
    }
}

#[test]
fn march_carries_layers() {
    let r = remarks_of(MARCH);
    assert!(
        r.iter().any(|m| m.starts_with("`while` not interchanged")),
        "{r:?}"
    );
    let (n, nz) = (40usize, 6usize);
    for (grid, block) in [([5, 1, 1], [8, 1, 1]), ([3, 1, 1], [16, 1, 1])] {
        let args = [
            HArg::f32s(&floats(n * nz, 11)),
            HArg::f32s(&vec![0.0; n * nz]),
            HArg::i32(n as i32),
            HArg::i32(nz as i32),
        ];
        let m = parse_module(MARCH).expect("parse");
        let tag = format!("interchange_march_{}", block[0]);
        let out = differential(m, "march", grid, block, &args, &tag);
        let src = floats(n * nz, 11);
        let got: Vec<f32> = out[1]
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        for z in 1..nz - 1 {
            for i in 0..n {
                let want = src[(z - 1) * n + i] + 2.0 * src[z * n + i] + src[(z + 1) * n + i];
                assert_eq!(got[z * n + i], want, "cell {i} layer {z}");
            }
        }
    }
}
