//! `collapse` end to end: kernels whose blocks are independent become one
//! loop over global thread ids; the interpreter after every pass and the
//! compiled C (run over block ranges and over thread ranges cut inside and
//! across blocks, `common::run`) must agree with the per-thread oracle, for
//! 1-D, 2-D and 3-D grids and blocks of odd sizes (the kernel reads only
//! its x thread id, as `collapse` requires; y and z still run).

mod common;

use common::{differential, HArg};
use cucc_cpuify::emit_c::emit_module;
use cucc_cpuify::pipeline::{run as run_pipeline, Options};
use cucc_cpuify::remarks::Remarks;
use cucc_ir::parse_module;

/// Threads indexed by x and a 3-D block id: slot `blk * block_dim.x + tx`
/// (when below `n`) counts its threads with an atomic add, and gets `k`
/// and the block id added by the same atomics: every slot ends at
/// `block_dim.y * block_dim.z` threads.
const IDS: &str = r#"
file "ids.cu"

kernel @ids(%cnt: ptr<global> noalias, %acc: ptr<global> noalias, %n: i32, %k: i32) {
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %by = block_id y : i32
  %bz = block_id z : i32
  %gx = grid_dim x : i32
  %gy = grid_dim y : i32
  %dx = block_dim x : i32
  %0 = mul %bz, %gy : i32
  %1 = add %0, %by : i32
  %2 = mul %1, %gx : i32
  %blk = add %2, %bx : i32
  %3 = mul %blk, %dx : i32
  %i = add %3, %tx : i32
  %in = cmp slt %i, %n : i1
  if %in {
    %one = const 1 : i32
    %p = ptr.index i32 %cnt, %i : ptr<global>
    %o = atomic.rmw add device %p, %one : i32
    %w = add %k, %blk : i32
    %q = ptr.index i32 %acc, %i : ptr<global>
    %o2 = atomic.rmw add device %q, %w : i32
    yield
  } else {
    yield
  }
  return
}
"#;

fn shapes() -> Vec<([u32; 3], [u32; 3])> {
    vec![
        ([1, 1, 1], [1, 1, 1]),
        ([7, 1, 1], [33, 1, 1]),
        ([2, 1, 1], [1024, 1, 1]),
        ([3, 2, 2], [5, 3, 2]),
        ([4, 4, 1], [3, 3, 1]),
        ([2, 3, 1], [1, 1, 64]),
        ([1, 1, 5], [7, 2, 3]),
    ]
}

#[test]
fn collapsed_kernel_runs_every_thread_once() {
    for (i, (grid, block)) in shapes().into_iter().enumerate() {
        let total = (grid.iter().product::<u32>() * block[0]) as usize;
        let per_slot = (block[1] * block[2]) as i32;
        // One slot more than (x, block) pairs: the last must stay untouched.
        let n = total as i32;
        let zeros = vec![0u8; 4 * (total + 1)];
        let args = [
            HArg::Buf(zeros.clone()),
            HArg::Buf(zeros),
            HArg::Scalar(n as u64, 4),
            HArg::Scalar(1, 4),
        ];
        let m = parse_module(IDS).expect("parse");
        let out = differential(m, "ids", grid, block, &args, &format!("collapse_ids_{i}"));
        // Every thread ran exactly once: each slot counts block y*z threads.
        let cnt: Vec<i32> = out[0]
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert!(
            cnt[..total].iter().all(|&c| c == per_slot),
            "{grid:?} {block:?}"
        );
        assert_eq!(cnt[total], 0);
    }
}

#[test]
fn the_pipeline_collapses_it_and_flags_the_entry() {
    let mut m = parse_module(IDS).expect("parse");
    let mut remarks = Remarks::default();
    // The 1-D form is opt-in: `--cpuify=all,collapse-1d`.
    let opts = Options {
        enabled: cucc_cpuify::pipeline::parse_pass_list("all,collapse-1d").expect("pass list"),
        ..Options::verifying()
    };
    run_pipeline(&mut m, &opts, &mut remarks, &mut |_, _| {}).expect("pipeline");
    assert!(
        remarks
            .items
            .iter()
            .any(|r| r.message.contains("collapsed into one loop")),
        "{:?}",
        remarks.items
    );
    let emitted = emit_module(&m).expect("emit");
    assert!(emitted.kernels[0].thread_ranges);
    assert!(emitted.c.contains("launch->thread_ranges"));
}

/// A 2-D kernel shaped like gaussian's `ga_eliminate`: `i` (x) is the row,
/// `j` (y) the column of a row-major `rows x cols` matrix, guarded by both
/// bounds; each thread in bounds counts itself at `cnt[i*cols + j]` and
/// writes its linear block id to `blk[j*rows + i]` (column-major); threads
/// of column 0 add 1 and threads of row 0 add 1000 to `cnt[rows*cols]`.
const GRID2D: &str = r#"
file "g2d.cu"

kernel @g2d(%cnt: ptr<global> noalias, %blk: ptr<global> noalias, %rows: i32, %cols: i32) {
  %tx = thread_id x : i32
  %ty = thread_id y : i32
  %bx = block_id x : i32
  %by = block_id y : i32
  %dx = block_dim x : i32
  %dy = block_dim y : i32
  %gx = grid_dim x : i32
  %0 = mul %bx, %dx : i32
  %i = add %0, %tx : i32
  %1 = mul %by, %dy : i32
  %j = add %1, %ty : i32
  %a = cmp slt %i, %rows : i1
  %b = cmp slt %j, %cols : i1
  %in = and %a, %b : i1
  if %in {
    %one = const 1 : i32
    %r = mul %i, %cols : i32
    %rm = add %r, %j : i32
    %p = ptr.index i32 %cnt, %rm : ptr<global>
    %o = atomic.rmw add device %p, %one : i32
    %c = mul %j, %rows : i32
    %cm = add %c, %i : i32
    %q = ptr.index i32 %blk, %cm : ptr<global>
    %2 = mul %by, %gx : i32
    %lb = add %2, %bx : i32
    store %q, %lb
    %zero = const 0 : i32
    %rc = mul %rows, %cols : i32
    %tail = ptr.index i32 %cnt, %rc : ptr<global>
    %j0 = cmp eq %j, %zero : i1
    if %j0 {
      %o1 = atomic.rmw add device %tail, %one : i32
      yield
    } else {
      yield
    }
    %i0 = cmp eq %zero, %i : i1
    if %i0 {
      %k = const 1000 : i32
      %o2 = atomic.rmw add device %tail, %k : i32
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
fn nd_collapsed_kernel_runs_every_thread_once() {
    let shapes = [
        ([3, 5, 1], [4, 4, 1], 10, 17),
        ([1, 1, 1], [2, 3, 1], 2, 3),
        ([5, 2, 1], [3, 7, 1], 15, 14),
        ([4, 3, 2], [4, 4, 2], 9, 11),
        ([2, 9, 1], [1, 2, 1], 1, 18),
    ];
    for (i, (grid, block, rows, cols)) in shapes.into_iter().enumerate() {
        for run in 0..2 {
            let cells = (rows * cols) as usize;
            let zeros = vec![0u8; 4 * (cells + 1)];
            let args = [
                HArg::Buf(zeros.clone()),
                HArg::Buf(zeros),
                HArg::Scalar(rows as u64, 4),
                HArg::Scalar(cols as u64, 4),
            ];
            let m = parse_module(GRID2D).expect("parse");
            let out = differential(
                m,
                "g2d",
                grid,
                block,
                &args,
                &format!("collapse_g2d_{i}_{run}"),
            );
            let cnt: Vec<i32> = out[0]
                .chunks(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let z = (grid[2] * block[2]) as i32;
            assert!(cnt[..cells].iter().all(|&c| c == z), "{grid:?} {block:?}");
            // The threads of column 0 and of row 0 (the innermost loop's
            // first iteration is peeled, whichever coordinate it runs over).
            assert_eq!(cnt[cells], z * (rows + 1000 * cols), "{grid:?} {block:?}");
        }
    }
}

#[test]
fn the_pipeline_orders_the_nd_loops_by_stride() {
    let mut m = parse_module(GRID2D).expect("parse");
    let mut remarks = Remarks::default();
    run_pipeline(&mut m, &Options::verifying(), &mut remarks, &mut |_, _| {}).expect("pipeline");
    let msgs: Vec<&str> = remarks.items.iter().map(|r| r.message.as_str()).collect();
    // Two accesses: unit stride along y (row-major `cnt`) and along x
    // (column-major `blk`); x wins the tie, y is the middle loop.
    assert!(msgs.iter().any(|m| m.contains("order z,y,x")), "{msgs:?}");
    assert!(
        msgs.iter()
            .any(|m| m.contains("global thread loop bound clamped")),
        "{msgs:?}"
    );
    let emitted = emit_module(&m).expect("emit");
    assert_eq!(emitted.kernels[0].outer_ranges, Some((2, 1)));
    assert!(!emitted.kernels[0].thread_ranges);
    assert!(emitted.c.contains("launch->thread_ranges == 2"));
}
