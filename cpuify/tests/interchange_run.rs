//! `interchange` end to end: kernels whose threads loop on their own (a
//! reduction over a column-major matrix, column marches carrying their
//! index and values from one layer to the next, in 1-D and in hotspot3D's
//! 2-D shape with clamped neighbours) run in the interpreter after every
//! pass and as compiled C, for full and partial blocks and 1-D and 2-D
//! block shapes (the interchanged version runs only for some of them: its
//! guards, distinct buffers and run-time strides are checked per block);
//! every run must leave the buffers exactly as the per-thread oracle did.

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

/// A 1-D column march: thread `i` walks up column `i` of an `nz x n`
/// grid, carrying its index and the cells below and at it, and writes
/// `below + 2*here + above` for every inner layer. The carried index
/// becomes a closed form in the counter, and the stores are separated
/// between threads at run time (`n` at least the block's width).
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
        r.iter()
            .any(|m| m.starts_with("`for` interchanged") && m.contains("stride check")),
        "{r:?}"
    );
    let (n, nz) = (40usize, 6usize);
    for (grid, block) in [
        ([5, 1, 1], [8, 1, 1]),
        ([3, 1, 1], [16, 1, 1]),
        ([1, 1, 1], [64, 1, 1]),
        // Both threads of a column in y march the same cells (writing
        // the same values): the stride check fails, the loop runs as it was.
        ([20, 1, 1], [2, 2, 1]),
    ] {
        let args = [
            HArg::f32s(&floats(n * nz, 11)),
            HArg::f32s(&vec![0.0; n * nz]),
            HArg::i32(n as i32),
            HArg::i32(nz as i32),
        ];
        let m = parse_module(MARCH).expect("parse");
        let tag = format!("interchange_march_{}_{}", block[0], block[1]);
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

/// hotspot3D's march in 2-D: thread `(x, y)` walks up its column of an
/// `nx x ny x nz` grid carrying its index, its west and east neighbours'
/// indices (clamped at the grid's edges) and the cells below and at it,
/// and writes `below + 2*here + above + west + east` for every inner
/// layer. `@col` is the same march without neighbours.
const STENCIL: &str = r#"
file "stencil.cu"

kernel @h3(%src: ptr<global>, %dst: ptr<global>, %nx: i32, %ny: i32, %nz: i32) {
  %tx = thread_id x : i32
  %ty = thread_id y : i32
  %bx = block_id x : i32
  %by = block_id y : i32
  %bdx = block_dim x : i32
  %bdy = block_dim y : i32
  %0 = mul %bdx, %bx : i32
  %x = add %0, %tx : i32
  %1 = mul %bdy, %by : i32
  %y = add %1, %ty : i32
  %r = mul nsw %y, %nx : i32
  %c0 = add nsw %x, %r : i32
  %xy = mul nsw %nx, %ny : i32
  %zero = const 0 : i32
  %one = const 1 : i32
  %lastx = sub nsw %nx, %one : i32
  %atw = cmp eq %x, %zero : i1
  %w0 = if %atw -> (i32) {
    yield %c0
  } else {
    %wm = sub nsw %c0, %one : i32
    yield %wm
  }
  %ate = cmp eq %x, %lastx : i1
  %e0 = if %ate -> (i32) {
    yield %c0
  } else {
    %ep = add nsw %c0, %one : i32
    yield %ep
  }
  %c0e = sext %c0 : i64
  %bp = ptr.index f32 %src, %c0e : ptr<global>
  %below0 = load %bp : f32
  %c1 = add nsw %c0, %xy : i32
  %c1e = sext %c1 : i64
  %hp = ptr.index f32 %src, %c1e : ptr<global>
  %here0 = load %hp : f32
  %w1 = add nsw %w0, %xy : i32
  %e1 = add nsw %e0, %xy : i32
  %two = const 2.0 : f32
  %c, %w, %e, %bl, %hr, %k = while (%cc = %c1, %ww = %w1, %ee = %e1, %b = %below0, %h = %here0, %z = %one) -> (i32, i32, i32, f32, f32, i32) {
    %top = sub nsw %nz, %one : i32
    %more = cmp slt %z, %top : i1
    condition %more, %cc, %ww, %ee, %b, %h, %z
  } do (%c2: i32, %w2: i32, %e2: i32, %b2: f32, %h2: f32, %z2: i32) {
    %up = add nsw %c2, %xy : i32
    %upe = sext %up : i64
    %ap = ptr.index f32 %src, %upe : ptr<global>
    %above = load %ap : f32
    %we = sext %w2 : i64
    %wp = ptr.index f32 %src, %we : ptr<global>
    %west = load %wp : f32
    %ee2 = sext %e2 : i64
    %eq = ptr.index f32 %src, %ee2 : ptr<global>
    %east = load %eq : f32
    %hh = fmul %two, %h2 : f32
    %s1 = fadd %b2, %hh : f32
    %s2 = fadd %s1, %above : f32
    %s3 = fadd %s2, %west : f32
    %s4 = fadd %s3, %east : f32
    %ce = sext %c2 : i64
    %dp = ptr.index f32 %dst, %ce : ptr<global>
    store %dp, %s4
    %w3 = add nsw %w2, %xy : i32
    %e3 = add nsw %e2, %xy : i32
    %z3 = add nsw %z2, %one : i32
    yield %up, %w3, %e3, %h2, %above, %z3
  }
  return
}

kernel @col(%src: ptr<global>, %dst: ptr<global>, %nx: i32, %ny: i32, %nz: i32) {
  %tx = thread_id x : i32
  %ty = thread_id y : i32
  %bx = block_id x : i32
  %by = block_id y : i32
  %bdx = block_dim x : i32
  %bdy = block_dim y : i32
  %0 = mul %bdx, %bx : i32
  %x = add %0, %tx : i32
  %1 = mul %bdy, %by : i32
  %y = add %1, %ty : i32
  %r = mul nsw %y, %nx : i32
  %c0 = add nsw %x, %r : i32
  %xy = mul nsw %nx, %ny : i32
  %one = const 1 : i32
  %c0e = sext %c0 : i64
  %bp = ptr.index f32 %src, %c0e : ptr<global>
  %below0 = load %bp : f32
  %c1 = add nsw %c0, %xy : i32
  %c1e = sext %c1 : i64
  %hp = ptr.index f32 %src, %c1e : ptr<global>
  %here0 = load %hp : f32
  %two = const 2.0 : f32
  %c, %bl, %hr, %k = while (%cc = %c1, %b = %below0, %h = %here0, %z = %one) -> (i32, f32, f32, i32) {
    %top = sub nsw %nz, %one : i32
    %more = cmp slt %z, %top : i1
    condition %more, %cc, %b, %h, %z
  } do (%c2: i32, %b2: f32, %h2: f32, %z2: i32) {
    %up = add nsw %c2, %xy : i32
    %upe = sext %up : i64
    %ap = ptr.index f32 %src, %upe : ptr<global>
    %above = load %ap : f32
    %hh = fmul %two, %h2 : f32
    %s1 = fadd %b2, %hh : f32
    %s2 = fadd %s1, %above : f32
    %ce = sext %c2 : i64
    %dp = ptr.index f32 %dst, %ce : ptr<global>
    store %dp, %s2
    %z3 = add nsw %z2, %one : i32
    yield %up, %h2, %above, %z3
  }
  return
}
"#;

/// The cells of `out` (f32 little-endian bytes).
fn f32s_of(out: &[u8]) -> Vec<f32> {
    out.chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn stencil_march_over_block_shapes() {
    let r = remarks_of(STENCIL);
    assert!(
        r.iter().any(|m| m.starts_with("`for` interchanged")
            && m.contains("distinct allocations")
            && m.contains("stride check")),
        "{r:?}"
    );
    let (nx, ny, nz) = (16usize, 6usize, 5usize);
    let xy = nx * ny;
    let src = floats(xy * nz, 5);
    for (grid, block) in [
        ([2, 3, 1], [8, 2, 1]),
        ([4, 2, 1], [4, 3, 1]),
        ([1, 6, 1], [16, 1, 1]),
        ([2, 1, 1], [8, 6, 1]),
    ] {
        let args = [
            HArg::f32s(&src),
            HArg::f32s(&vec![0.0; xy * nz]),
            HArg::i32(nx as i32),
            HArg::i32(ny as i32),
            HArg::i32(nz as i32),
        ];
        let m = parse_module(STENCIL).expect("parse");
        let tag = format!("interchange_stencil_{}_{}", block[0], block[1]);
        let got = f32s_of(&differential(m, "h3", grid, block, &args, &tag)[1]);
        for z in 1..nz - 1 {
            for y in 0..ny {
                for x in 0..nx {
                    let c = x + y * nx + z * xy;
                    let w = if x == 0 { c } else { c - 1 };
                    let e = if x == nx - 1 { c } else { c + 1 };
                    let want = src[c - xy] + 2.0 * src[c] + src[c + xy] + src[w] + src[e];
                    assert_eq!(got[c], want, "cell ({x}, {y}, {z}) of {block:?}");
                }
            }
        }
    }
}

/// Rows narrower than the block: threads `x >= nx` write the cells of the
/// next row (the same values its own threads write), so the run-time
/// stride check fails and the march runs as it was.
#[test]
fn column_march_with_overlapping_rows() {
    let (nx, ny, nz) = (6usize, 4usize, 5usize);
    let xy = nx * ny;
    // Threads reach x = 7, y = 3: cells up to 7 + 3*6 + 4*24.
    let cells = 7 + 3 * nx + (nz - 1) * xy + 1;
    let src = floats(cells, 9);
    for (grid, block) in [([1, 2, 1], [8, 2, 1]), ([2, 4, 1], [4, 1, 1])] {
        let args = [
            HArg::f32s(&src),
            HArg::f32s(&vec![0.0; cells]),
            HArg::i32(nx as i32),
            HArg::i32(ny as i32),
            HArg::i32(nz as i32),
        ];
        let m = parse_module(STENCIL).expect("parse");
        let tag = format!("interchange_col_{}_{}", block[0], block[1]);
        let got = f32s_of(&differential(m, "col", grid, block, &args, &tag)[1]);
        let reach = (grid[0] * block[0]) as usize - 1 + ((grid[1] * block[1]) as usize - 1) * nx;
        for z in 1..nz - 1 {
            for c0 in 0..=reach {
                let c = c0 + z * xy;
                let want = src[c - xy] + 2.0 * src[c] + src[c + xy];
                assert_eq!(got[c], want, "cell {c} of {block:?}");
            }
        }
    }
}
