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
    // `collapse` is opt-in: `--cpuify=all,collapse`.
    let opts = Options {
        enabled: cucc_cpuify::pipeline::parse_pass_list("all,collapse").expect("pass list"),
        ..Options::default()
    };
    run_pipeline(&mut m, &opts, &mut remarks, &mut |_, _| {}).expect("pipeline");
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
