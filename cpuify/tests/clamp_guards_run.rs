//! `clamp-guards` end to end: guards the clamped bounds imply are dropped
//! (in place, or in a copy of the loop chosen by run-time range checks);
//! the interpreter after every pass and the compiled C must agree with the
//! per-thread oracle, on launches that take the copy without the guard and
//! on ones whose offsets push the index past 2^31, which must take the
//! original loop (its wrapped comparisons still pass for some threads).

mod common;

use common::{differential, differential_with, HArg};
use cucc_cpuify::emit_c::emit_module;
use cucc_cpuify::pipeline::{run as run_pipeline, Options};
use cucc_cpuify::remarks::Remarks;
use cucc_ir::parse_module;

/// `i = tx + k` (signed), then `if (i < n)`, and `u = tx + k`
/// (unsigned) with `if (u < m)`: each guarded thread writes its id to its
/// slot. With `k` near 2^31 the signed `i` wraps for the last threads of a
/// block, and its comparison passes there; `u` stays below 2^32 but passes
/// 2^31, which the copy without the guard (whose add is `nsw`) must not see.
const OFFSETS: &str = r#"
file "offsets.cu"

kernel @signed_off(%out: ptr<global> noalias, %n: i32, %k: i32) {
  %tx = thread_id x : i32
  %i = add %tx, %k : i32
  %a = cmp slt %i, %n : i1
  if %a {
    %p = ptr.index i32 %out, %tx : ptr<global>
    store %p, %i
    yield
  } else {
    yield
  }
  return
}

kernel @unsigned_off(%out: ptr<global> noalias, %m: i32, %k: i32) {
  %tx = thread_id x : i32
  %u = add %k, %tx : i32
  %a = cmp ult %u, %m : i1
  if %a {
    %p = ptr.index i32 %out, %tx : ptr<global>
    store %p, %u
    yield
  } else {
    yield
  }
  return
}

kernel @with_invariant(%out: ptr<global> noalias, %n: i32, %k: i32) {
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %dx = block_dim x : i32
  %0 = mul %bx, %dx : i32
  %i = add %0, %tx : i32
  %zero = const 0 : i32
  %a = cmp slt %i, %n : i1
  %b = cmp sgt %k, %zero : i1
  %in = and %a, %b : i1
  if %in {
    %p = ptr.index i32 %out, %i : ptr<global>
    %v = mul %i, %k : i32
    store %p, %v
    yield
  } else {
    yield
  }
  return
}
"#;

fn ints(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn offset_guards_agree_in_both_versions() {
    let near = i32::MAX - 2;
    // (kernel, block, bound, offset): in range, and wrapping (signed) or
    // passing 2^31 (unsigned) inside the block.
    let cases = [
        ("signed_off", 8, 5, 1),
        ("signed_off", 8, 100, -3),
        ("signed_off", 8, i32::MAX, near),
        ("signed_off", 33, -5, near),
        ("unsigned_off", 8, 6, 2),
        ("unsigned_off", 8, -1, near),
        ("unsigned_off", 16, (near as u32 + 5) as i32, near),
    ];
    for (i, (kernel, block, bound, k)) in cases.into_iter().enumerate() {
        let slots = block as usize;
        let args = [HArg::i32s(&vec![-7; slots]), HArg::i32(bound), HArg::i32(k)];
        let m = parse_module(OFFSETS).expect("parse");
        let out = differential_with(
            m,
            kernel,
            [1, 1, 1],
            [block, 1, 1],
            &args,
            &format!("clamp_off_{i}"),
            false,
        );
        let got = ints(&out[0]);
        for (tx, &v) in got.iter().enumerate() {
            let id = (tx as i32).wrapping_add(k);
            let pass = if kernel == "signed_off" {
                id < bound
            } else {
                (id as u32) < (bound as u32)
            };
            assert_eq!(v, if pass { id } else { -7 }, "{kernel} case {i} slot {tx}");
        }
    }
}

#[test]
fn invariant_comparisons_choose_the_version() {
    for (i, k) in [3, 0, -2].into_iter().enumerate() {
        let n = 45;
        let args = [HArg::i32s(&[-1; 64]), HArg::i32(n), HArg::i32(k)];
        let m = parse_module(OFFSETS).expect("parse");
        let out = differential_with(
            m,
            "with_invariant",
            [4, 1, 1],
            [16, 1, 1],
            &args,
            &format!("clamp_inv_{i}"),
            false,
        );
        let got = ints(&out[0]);
        for (s, &v) in got.iter().enumerate() {
            let want = if (s as i32) < n && k > 0 {
                s as i32 * k
            } else {
                -1
            };
            assert_eq!(v, want, "k={k} slot {s}");
        }
    }
}

/// gaussian's `ga_eliminate`: `if (i >= n-1-t || j >= n-t) return;`, the
/// row update, and `if (j == 0) b[row] -= ...` (the emitter peels the
/// innermost loop's first iteration).
const ELIMINATE: &str = r#"
file "elim.cu"

kernel @elim(%m: ptr<global>, %a: ptr<global>, %b: ptr<global>, %n: i32, %t: i32) {
  %tx = thread_id x : i32
  %ty = thread_id y : i32
  %bx = block_id x : i32
  %by = block_id y : i32
  %dx = block_dim x : i32
  %dy = block_dim y : i32
  %0 = mul %bx, %dx : i32
  %i = add %0, %tx : i32
  %1 = mul %by, %dy : i32
  %j = add %1, %ty : i32
  %one = const 1 : i32
  %2 = sub %n, %one : i32
  %lim = sub %2, %t : i32
  %cols = sub %n, %t : i32
  %oi = cmp sge %i, %lim : i1
  %oj = cmp sge %j, %cols : i1
  %out = or %oi, %oj : i1
  %true = const true : i1
  %in = xor %out, %true : i1
  if %in {
    %3 = add nsw %i, %one : i32
    %row = add nsw %3, %t : i32
    %col = add nsw %j, %t : i32
    %n64 = sext %n : i64
    %r64 = sext %row : i64
    %t64 = sext %t : i64
    %c64 = sext %col : i64
    %rb = mul %n64, %r64 : i64
    %mi = add %rb, %t64 : i64
    %mp = ptr.index f32 %m, %mi : ptr<global>
    %mult = load %mp : f32
    %tb = mul %n64, %t64 : i64
    %pi = add %tb, %c64 : i64
    %pp = ptr.index f32 %a, %pi : ptr<global>
    %piv = load %pp : f32
    %ai = add %rb, %c64 : i64
    %ap = ptr.index f32 %a, %ai : ptr<global>
    %av = load %ap : f32
    %prod = fmul %mult, %piv : f32
    %nv = fsub %av, %prod : f32
    store %ap, %nv
    %zero = const 0 : i32
    %j0 = cmp eq %j, %zero : i1
    if %j0 {
      %bt = ptr.index f32 %b, %t64 : ptr<global>
      %bv = load %bt : f32
      %bp = fmul %mult, %bv : f32
      %br = ptr.index f32 %b, %r64 : ptr<global>
      %old = load %br : f32
      %nb = fsub %old, %bp : f32
      store %br, %nb
      yield
    } else {
      yield
    }
    yield
  } else {
    yield
  }
  return
}
"#;

#[test]
fn eliminate_runs_without_its_guard() {
    // (grid, block, n, t): a grid larger than the matrix, and one just
    // covering it.
    let shapes = [
        ([4, 4, 1], [4, 4, 1], 13, 0),
        ([4, 4, 1], [4, 4, 1], 13, 5),
        ([3, 2, 1], [5, 7, 1], 14, 1),
        ([2, 2, 2], [3, 3, 2], 6, 4),
    ];
    for (i, (grid, block, n, t)) in shapes.into_iter().enumerate() {
        for run in 0..2 {
            let cells = (n * n) as usize;
            let mat: Vec<f32> = (0..cells).map(|x| (x % 7) as f32 + 0.5).collect();
            let mul: Vec<f32> = (0..cells).map(|x| (x % 5) as f32 * 0.25).collect();
            let rhs: Vec<f32> = (0..n).map(|x| x as f32 + 1.0).collect();
            let args = [
                HArg::f32s(&mul),
                HArg::f32s(&mat),
                HArg::f32s(&rhs),
                HArg::i32(n),
                HArg::i32(t),
            ];
            let m = parse_module(ELIMINATE).expect("parse");
            differential(
                m,
                "elim",
                grid,
                block,
                &args,
                &format!("clamp_elim_{i}_{run}"),
            );
        }
    }
}

#[test]
fn the_pipeline_drops_the_guards_and_the_emitter_versions_the_grid_loop() {
    let mut m = parse_module(ELIMINATE).expect("parse");
    let mut remarks = Remarks::default();
    run_pipeline(&mut m, &Options::default(), &mut remarks, &mut |_, _| {}).expect("pipeline");
    let msgs: Vec<&str> = remarks.items.iter().map(|r| r.message.as_str()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains("global thread loop") && m.contains("guard is dropped in a copy")),
        "{msgs:?}"
    );
    let emitted = emit_module(&m).expect("emit");
    let elim = emitted
        .kernels
        .iter()
        .find(|k| k.name == "elim")
        .expect("elim");
    // Both versions take ranges of the outer z and middle x loops.
    assert_eq!(elim.outer_ranges, Some((2, 0)));
    assert!(emitted.c.matches("launch->thread_ranges == 2").count() == 2);
}

#[test]
fn the_offset_kernels_are_versioned() {
    let mut m = parse_module(OFFSETS).expect("parse");
    let mut remarks = Remarks::default();
    run_pipeline(&mut m, &Options::default(), &mut remarks, &mut |_, _| {}).expect("pipeline");
    for k in ["signed_off", "unsigned_off", "with_invariant"] {
        assert!(
            remarks
                .items
                .iter()
                .any(|r| r.function == k && r.message.contains("guard is dropped in a copy")),
            "{k}: {:?}",
            remarks.items
        );
    }
    emit_module(&m).expect("emit");
}
