//! `collapse` end to end: kernels whose blocks are independent become one
//! loop over global thread ids; the interpreter after every pass and the
//! compiled C (run over block ranges and over thread ranges cut inside and
//! across blocks, `common::run`) must agree with the per-thread oracle, for
//! 1-D, 2-D and 3-D grids and blocks of odd sizes.

mod common;

use common::{differential, HArg};
use cucc_cpuify::emit_c::emit_module;
use cucc_cpuify::pipeline::{run as run_pipeline, Options};
use cucc_cpuify::remarks::Remarks;
use cucc_ir::parse_module;

/// Every thread writes `1 + its ids` into its global linear slot and adds
/// the scalar to `acc[slot]`; threads past `n` do nothing.
const IDS: &str = r#"
file "ids.cu"

kernel @ids(%out: ptr<global> noalias, %acc: ptr<global> noalias, %n: i32, %k: i32) {
  %tx = thread_id x : i32
  %ty = thread_id y : i32
  %tz = thread_id z : i32
  %bx = block_id x : i32
  %by = block_id y : i32
  %bz = block_id z : i32
  %gx = grid_dim x : i32
  %gy = grid_dim y : i32
  %dx = block_dim x : i32
  %dy = block_dim y : i32
  %dz = block_dim z : i32
  %0 = mul %bz, %gy : i32
  %1 = add %0, %by : i32
  %2 = mul %1, %gx : i32
  %blk = add %2, %bx : i32
  %3 = mul %dx, %dy : i32
  %nt = mul %3, %dz : i32
  %4 = mul %tz, %dy : i32
  %5 = add %4, %ty : i32
  %6 = mul %5, %dx : i32
  %lin = add %6, %tx : i32
  %7 = mul %blk, %nt : i32
  %gid = add %7, %lin : i32
  %in = cmp slt %gid, %n : i1
  if %in {
    %c7 = const 7 : i32
    %c11 = const 11 : i32
    %c13 = const 13 : i32
    %c17 = const 17 : i32
    %c19 = const 19 : i32
    %a = mul %ty, %c7 : i32
    %b = mul %tz, %c11 : i32
    %c = mul %bx, %c13 : i32
    %d = mul %by, %c17 : i32
    %e = mul %bz, %c19 : i32
    %s0 = add %tx, %a : i32
    %s1 = add %s0, %b : i32
    %s2 = add %s1, %c : i32
    %s3 = add %s2, %d : i32
    %v = add %s3, %e : i32
    %one = const 1 : i32
    %w = add %v, %one : i32
    %p = ptr.index i32 %out, %gid : ptr<global>
    %old = load %p : i32
    %x = add %old, %w : i32
    store %p, %x
    %q = ptr.index i32 %acc, %gid : ptr<global>
    %y = load %q : i32
    %z = add %y, %k : i32
    store %q, %z
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
        let total = (grid.iter().product::<u32>() * block.iter().product::<u32>()) as usize;
        // One slot more than threads: the last must stay untouched.
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
        // Every thread ran exactly once: its counter is 1, the spare slot 0.
        let acc: Vec<i32> = out[1]
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert!(acc[..total].iter().all(|&c| c == 1), "{grid:?} {block:?}");
        assert_eq!(acc[total], 0);
    }
}

#[test]
fn the_pipeline_collapses_it_and_flags_the_entry() {
    let mut m = parse_module(IDS).expect("parse");
    let mut remarks = Remarks::default();
    run_pipeline(&mut m, &Options::default(), &mut remarks, &mut |_, _| {}).expect("pipeline");
    assert!(
        remarks
            .items
            .iter()
            .any(|r| r.pass == "collapse" && r.message.contains("collapsed into one loop")),
        "{:?}",
        remarks.items
    );
    let emitted = emit_module(&m).expect("emit");
    assert!(emitted.kernels[0].thread_ranges);
    assert!(emitted.c.contains("launch->thread_ranges"));
}
