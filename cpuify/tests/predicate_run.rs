//! Kernels that exit early before barriers (a partial last block), through
//! the whole pipeline: the interpreter's result on the per-thread kernel
//! (threads that finished no longer count at a barrier, as on the GPU) must
//! be what the interpreter gives after every pass, and what the emitted C
//! computes.

mod common;
use common::{differential, HArg};
use cucc_ir::parse_module;

fn module(src: &str) -> cucc_ir::Module {
    parse_module(src).unwrap_or_else(|e| panic!("parse: {e}"))
}

#[test]
fn early_return_before_barrier() {
    let m = module(include_str!(
        "filetests/predicate-barriers/early_return.cuir"
    ));
    let n = 40;
    let input: Vec<i32> = (0..n).map(|k| k * 5 - 11).collect();
    let out = differential(
        m,
        "early",
        [2, 1, 1],
        [32, 1, 1],
        &[HArg::i32s(&input), HArg::i32s(&[0; 40]), HArg::i32(n)],
        "pred_early",
    );
    let got: Vec<i32> = out[1]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let want: Vec<i32> = (0..n as usize)
        .map(|k| input[k / 32 * 32] + input[k])
        .collect();
    assert_eq!(got, want);
}

#[test]
fn guarded_division_and_result() {
    let m = module(include_str!(
        "filetests/predicate-barriers/guarded_load_store.cuir"
    ));
    let n = 50;
    let input: Vec<i32> = (0..n).map(|k| k * 7 - 100).collect();
    differential(
        m,
        "guarded",
        [2, 1, 1],
        [32, 1, 1],
        &[
            HArg::i32s(&input),
            HArg::i32s(&[0; 50]),
            HArg::i32(n),
            HArg::i32(3),
        ],
        "pred_guarded",
    );
}

#[test]
fn loops_and_nested_if_with_barriers() {
    let m = module(include_str!(
        "filetests/predicate-barriers/nested_loops.cuir"
    ));
    let n = 45;
    let input: Vec<i32> = (0..n).map(|k| (k * 13) % 17 - 8).collect();
    let out = differential(
        m,
        "scan",
        [2, 1, 1],
        [32, 1, 1],
        &[
            HArg::i32s(&input),
            HArg::i32s(&[0; 45]),
            HArg::i32(n),
            HArg::i32(3),
        ],
        "pred_scan",
    );
    // Inclusive scan per block, then reps = 3 rounds adding the doubled
    // value in the first round and the value itself after.
    let got: Vec<i32> = out[1]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let mut acc = 0;
    let want: Vec<i32> = (0..n as usize)
        .map(|k| {
            if k % 32 == 0 {
                acc = 0;
            }
            acc += input[k];
            acc + 2 * acc + acc + acc
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn break_out_of_a_loop_of_barriers() {
    let m = module(include_str!("filetests/predicate-barriers/break_loop.cuir"));
    let n = 40;
    let input: Vec<i32> = (0..n).map(|k| (k * 11) % 23 - 9).collect();
    differential(
        m,
        "brk",
        [2, 1, 1],
        [32, 1, 1],
        &[HArg::i32s(&input), HArg::i32(n)],
        "pred_break",
    );
}

#[test]
fn barrier_reduce_in_a_divergent_if() {
    let m = module(include_str!(
        "filetests/predicate-barriers/reduce_in_branch.cuir"
    ));
    let n = 40;
    let input: Vec<i32> = (0..n).map(|k| (k * 29) % 41).collect();
    let out = differential(
        m,
        "red",
        [2, 1, 1],
        [32, 1, 1],
        &[HArg::i32s(&input), HArg::i32s(&[0; 40]), HArg::i32(n)],
        "pred_reduce",
    );
    // Only the threads still running take part: the count of x > 30 and
    // whether every x < 40 (times 100), per block.
    let got: Vec<i32> = out[1]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let want: Vec<i32> = (0..n as usize)
        .map(|k| {
            let block = &input[k / 32 * 32..(k / 32 * 32 + 32).min(n as usize)];
            let count = block.iter().filter(|&&x| x > 30).count() as i32;
            let all = block.iter().all(|&x| x < 40);
            count + if all { 100 } else { 0 }
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn per_thread_trip_counts_inside_a_divergent_if() {
    let m = module(include_str!(
        "filetests/predicate-barriers/varying_while.cuir"
    ));
    let n = 40;
    let input: Vec<i32> = (0..n).map(|k| (k * 7) % 5).collect();
    let out = differential(
        m,
        "vary",
        [2, 1, 1],
        [32, 1, 1],
        &[HArg::i32s(&input), HArg::i32s(&[0; 40]), HArg::i32(n)],
        "pred_vary",
    );
    let got: Vec<i32> = out[1]
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let want: Vec<i32> = input.iter().map(|&m| (0..m).sum::<i32>() + m).collect();
    assert_eq!(got, want);
}
