//! CUDA source through cucc's frontend, lowered to stream graphs and run
//! on the simulator, or rejected with the construct and its line.

use std::collections::BTreeMap;
use std::path::PathBuf;

use cucc_racer::graph::Scalar;
use cucc_racer::lower::{compile, Arg, Diagnostic, Lowered, Options};
use cucc_racer::machine::Machine;
use cucc_racer::sim::Sim;

fn module(name: &str) -> cucc_ir::Module {
    let path = PathBuf::from(format!(
        "{}/tests/kernels/{name}.cu",
        env!("CARGO_MANIFEST_DIR")
    ));
    cucc_frontend::cuda::lower_file(&path, &cucc_frontend::cuda::LowerOptions::default())
        .unwrap_or_else(|d| panic!("{d}"))
}

fn lower(
    name: &str,
    kernel: &str,
    grid: u32,
    block: u32,
    args: Vec<Arg>,
) -> Result<Lowered, Diagnostic> {
    lower_with(name, kernel, grid, block, args, false)
}

fn lower_with(
    name: &str,
    kernel: &str,
    grid: u32,
    block: u32,
    args: Vec<Arg>,
    split_branches: bool,
) -> Result<Lowered, Diagnostic> {
    let opts = Options {
        grid,
        block,
        args,
        rotate: true,
        split_branches,
    };
    compile(&module(name), kernel, &opts)
}

fn rejected(name: &str, kernel: &str, nargs: usize) -> Diagnostic {
    lower(name, kernel, 2, 64, vec![Arg::Buffer; nargs])
        .err()
        .unwrap_or_else(|| panic!("{name} lowered"))
}

fn run(l: &Lowered, buffers: &mut BTreeMap<usize, Vec<Scalar>>) {
    let m = Machine::racer_v1();
    let inputs = cucc_racer::run::bind(l, buffers).unwrap_or_else(|e| panic!("{e}"));
    let out = Sim::new(&l.graph, &m, &inputs)
        .and_then(|s| s.run(10_000_000))
        .unwrap_or_else(|e| panic!("{e}"));
    cucc_racer::run::write_back(l, &out, buffers).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn mandelbrot_source_lowers_to_the_same_graph_as_the_kept_ir() {
    let args = vec![
        Arg::Buffer,
        Arg::F64(-2.0),
        Arg::F64(-1.0),
        Arg::F64(0.1),
        Arg::F64(0.1),
        Arg::Int(32),
    ];
    let from_cu =
        lower("mandelbrot", "mandelbrot", 8, 64, args.clone()).unwrap_or_else(|e| panic!("{e}"));
    let kept = include_str!("kernels/mandelbrot.cuir");
    let m = cucc_ir::parse_module(kept).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 8,
        block: 64,
        args,
        rotate: true,
        split_branches: false,
    };
    let from_ir = compile(&m, "mandelbrot", &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        cucc_racer::graph::print(&from_cu.graph),
        cucc_racer::graph::print(&from_ir.graph)
    );
}

#[test]
fn element_wise_kernel_streams_two_buffers_with_an_offset() {
    let n = 256usize;
    let l = lower("vadd", "vadd", 4, 64, vec![Arg::Buffer; 3]).unwrap_or_else(|e| panic!("{e}"));
    let a: Vec<Scalar> = (0..n).map(|k| Scalar::F64(k as f64 * 0.25)).collect();
    let b: Vec<Scalar> = (0..=n).map(|k| Scalar::F64(100.0 - k as f64)).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> =
        [(0, a), (1, b), (2, vec![Scalar::F64(0.0); n])].into();
    run(&l, &mut bufs);
    let want: Vec<Scalar> = (0..n)
        .map(|k| Scalar::F64(k as f64 * 0.25 * 2.0 + (100.0 - (k + 1) as f64)))
        .collect();
    assert_eq!(bufs[&2], want);
    let offsets: Vec<(Option<usize>, i64)> = l.inputs.iter().map(|s| (s.param, s.offset)).collect();
    assert_eq!(offsets, vec![(Some(0), 0), (Some(1), 1)]);
}

#[test]
fn data_dependent_loop_with_a_branch_and_a_value_used_after_it() {
    collatz(false);
}

/// The same with the branch as a split and a merge inside the loop.
#[test]
fn data_dependent_loop_with_the_branch_as_split_and_merge() {
    collatz(true);
}

fn collatz(split_branches: bool) {
    let n = 128usize;
    let l = lower_with(
        "collatz",
        "collatz",
        2,
        64,
        vec![Arg::Buffer; 3],
        split_branches,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let merges = l.graph.resource_counts().get("merge").copied().unwrap_or(0);
    assert_eq!(merges > l.loops[0].lanes, split_branches);
    let start: Vec<i64> = (0..n as i64).map(|k| k + 1).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [
        (0, start.iter().map(|&v| Scalar::Int(v)).collect()),
        (1, vec![Scalar::Int(0); n]),
        (2, vec![Scalar::Int(0); n]),
    ]
    .into();
    run(&l, &mut bufs);
    let steps = |mut x: i64| {
        let mut s = 0;
        while x != 1 {
            x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
            s += 1;
        }
        s
    };
    let want: Vec<Scalar> = start.iter().map(|&v| Scalar::Int(steps(v))).collect();
    assert_eq!(bufs[&1], want);
    let back: Vec<Scalar> = start.iter().map(|&v| Scalar::Int(v + steps(v))).collect();
    assert_eq!(bufs[&2], back);
}

#[test]
fn gather_through_a_computed_address_is_rejected_at_its_line() {
    let d = rejected("gather", "gather", 3);
    assert_eq!(d.construct, "gather", "{d}");
    assert!(d.location.ends_with(":4:14"), "{d}");
}

#[test]
fn atomics_are_rejected() {
    let d = rejected("atomic", "count", 2);
    assert_eq!(d.construct, "atomic", "{d}");
    assert!(d.location.contains(":4:"), "{d}");
}

#[test]
fn shared_memory_with_a_barrier_is_rejected() {
    let d = rejected("shared", "reverse", 2);
    assert_eq!(d.construct, "shared memory", "{d}");
    assert!(d.location.contains(":4:"), "{d}");
}

#[test]
fn warp_shuffles_are_rejected() {
    let d = rejected("shuffle", "warpsum", 2);
    assert_eq!(d.construct, "warp function", "{d}");
    assert!(d.location.contains(":4:"), "{d}");
}

#[test]
fn argument_mismatch_is_a_diagnostic() {
    let d = lower(
        "vadd",
        "vadd",
        1,
        64,
        vec![Arg::Buffer, Arg::F64(1.0), Arg::Buffer],
    )
    .expect_err("rejected");
    assert_eq!(d.construct, "arguments", "{d}");
    let d = lower("vadd", "nosuch", 1, 64, vec![]).expect_err("rejected");
    assert_eq!(d.construct, "kernel", "{d}");
}

#[test]
fn bounds_guard_shortens_the_launch_to_the_threads_that_take_it() {
    let n = 200usize;
    let args = vec![Arg::Buffer, Arg::Buffer, Arg::Buffer, Arg::Int(n as i64)];
    let l = lower("vadd_guard", "vadd_guard", 4, 64, args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.threads, n as u64);
    // No comparison is left in the graph: the memory units generate the
    // first n indices only.
    let c = l.graph.resource_counts();
    assert_eq!(c.get("compare"), None, "{c:?}");
    let a: Vec<Scalar> = (0..n).map(|k| Scalar::F64(k as f64)).collect();
    let b: Vec<Scalar> = (0..n).map(|k| Scalar::F64(0.5 * k as f64)).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> =
        [(0, a), (1, b), (2, vec![Scalar::F64(-1.0); 256])].into();
    run(&l, &mut bufs);
    let want: Vec<Scalar> = (0..256)
        .map(|k| Scalar::F64(if k < n { 1.5 * k as f64 } else { -1.0 }))
        .collect();
    assert_eq!(bufs[&2], want);
}

/// Game of Life from CUDA: the nine neighbourhood loads become the memory
/// unit's three line streams (rows above, at and below) with delay lines,
/// as in the thesis (L1060-1066), and 100 generations match the direct
/// computation bit for bit.
#[test]
fn game_of_life_from_cuda_streams_three_lines_and_matches_100_generations() {
    use cucc_racer::life::Grid;
    let (w, h) = (24usize, 16usize);
    let wp = w + 2;
    let n = h * wp - 2;
    let block = 32u32;
    let grid_blocks = n.div_ceil(block as usize) as u32;
    let args = vec![
        Arg::Buffer,
        Arg::Buffer,
        Arg::Int(wp as i64),
        Arg::Int(n as i64),
    ];
    let l = lower("life", "life", grid_blocks, block, args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.threads, n as u64);
    let runs: Vec<(i64, u64)> = l
        .inputs
        .iter()
        .filter(|s| s.param == Some(0))
        .map(|s| (s.offset, s.lead))
        .collect();
    assert_eq!(runs, vec![(0, 2), (wp as i64, 2), (2 * wp as i64, 2)]);
    let c = l.graph.resource_counts();
    assert_eq!((c["iadd"] >= 7, c["delay"]), (true, 9), "{c:?}");

    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let cells: Vec<i32> = (0..w * h)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            i32::from(s % 3 == 0)
        })
        .collect();
    let mut reference = Grid { w, h, cells };
    let padded = |g: &Grid| -> Vec<Scalar> {
        let mut v = vec![Scalar::Int(0); (h + 2) * wp];
        for r in 0..h {
            for c in 0..w {
                v[(r + 1) * wp + c + 1] = Scalar::Int(g.cells[r * w + c] as i64);
            }
        }
        v
    };
    let mut state = padded(&reference);
    for gen in 0..100 {
        let mut bufs: BTreeMap<usize, Vec<Scalar>> =
            [(0, state.clone()), (1, vec![Scalar::Int(0); (h + 2) * wp])].into();
        run(&l, &mut bufs);
        reference = reference.step_reference();
        assert_eq!(bufs[&1], padded(&reference), "generation {gen}");
        state = bufs[&1].clone();
    }
    assert!(
        reference.cells.contains(&1),
        "still alive after 100 generations"
    );
}

#[test]
fn stores_under_data_dependent_conditions_reach_memory_only_where_taken() {
    let n = 128usize;
    let args = vec![Arg::Buffer, Arg::Buffer, Arg::Buffer, Arg::F64(10.0)];
    let l = lower("clip", "clip", 2, 64, args).unwrap_or_else(|e| panic!("{e}"));
    let a: Vec<f64> = (0..n).map(|k| (k as f64 - 40.0) * 0.25).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [
        (0, a.iter().map(|&v| Scalar::F64(v)).collect()),
        (1, vec![Scalar::F64(f64::NAN); n]),
        (2, vec![Scalar::F64(99.0); n]),
    ]
    .into();
    run(&l, &mut bufs);
    let out: Vec<Scalar> = a
        .iter()
        .map(|&v| Scalar::F64(if v > 10.0 { 10.0 } else { v * 0.5 }))
        .collect();
    assert_eq!(bufs[&1], out);
    let neg: Vec<Scalar> = a
        .iter()
        .map(|&v| Scalar::F64(if v < 0.0 { v } else { 99.0 }))
        .collect();
    assert_eq!(bufs[&2], neg);
}

#[test]
fn a_store_inside_a_loop_is_rejected() {
    let d = rejected("loopstore", "loopstore", 1);
    assert_eq!(d.construct, "store in a loop", "{d}");
    assert!(d.location.contains(":5:"), "{d}");
}

#[test]
fn a_read_in_a_branch_arm_is_done_for_every_thread() {
    let n = 64usize;
    let l =
        lower("select_load", "pick", 1, 64, vec![Arg::Buffer; 3]).unwrap_or_else(|e| panic!("{e}"));
    let a: Vec<f64> = (0..n).map(|k| k as f64 - 30.0).collect();
    let b: Vec<f64> = (0..n).map(|k| k as f64 * 0.5).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [
        (0, a.iter().map(|&v| Scalar::F64(v)).collect()),
        (1, b.iter().map(|&v| Scalar::F64(v)).collect()),
        (2, vec![Scalar::F64(0.0); n]),
    ]
    .into();
    run(&l, &mut bufs);
    let want: Vec<Scalar> = (0..n)
        .map(|k| Scalar::F64(if a[k] > 0.0 { b[k] * 2.0 } else { a[k] }))
        .collect();
    assert_eq!(bufs[&2], want);
    // A buffer too short for the speculative read is an error, not a panic.
    let short: BTreeMap<usize, Vec<Scalar>> = [
        (0, a.iter().map(|&v| Scalar::F64(v)).collect()),
        (1, vec![Scalar::F64(0.0); 10]),
        (2, vec![Scalar::F64(0.0); n]),
    ]
    .into();
    let e = cucc_racer::run::bind(&l, &short).expect_err("short buffer");
    assert!(e.contains("parameter 1"), "{e}");
}

/// The CUDA Game of Life as a device launches it: placed on one block,
/// replicated, each replica on a slice of the cells; the generations
/// match the reference bit for bit. `life.cu` needs two blocks (the next
/// test); `life_tree.cu` is the same rule in a form that fits one.
#[test]
fn game_of_life_from_cuda_placed_and_replicated_matches_the_reference() {
    use cucc_racer::life::Grid;
    let (w, h) = (24usize, 16usize);
    let wp = w + 2;
    let n = h * wp - 2;
    let opts = Options {
        grid: n.div_ceil(32) as u32,
        block: 32,
        args: vec![
            Arg::Buffer,
            Arg::Buffer,
            Arg::Int(wp as i64),
            Arg::Int(n as i64),
        ],
        rotate: true,
        split_branches: false,
    };
    let m = Machine::racer_v1();
    let p = cucc_racer::launch::prepare(&module("life_tree"), "life_tree", &opts, &m)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(p.replicas.len() > 1, "{}", p.replicas.len());
    let cells: Vec<i32> = (0..w * h).map(|k| i32::from(k % 7 < 3)).collect();
    let mut reference = Grid { w, h, cells };
    let padded = |g: &Grid| -> Vec<Scalar> {
        let mut v = vec![Scalar::Int(0); (h + 2) * wp];
        for r in 0..h {
            for c in 0..w {
                v[(r + 1) * wp + c + 1] = Scalar::Int(g.cells[r * w + c] as i64);
            }
        }
        v
    };
    let mut state = padded(&reference);
    for gen in 0..20 {
        let mut bufs: BTreeMap<usize, Vec<Scalar>> =
            [(0, state.clone()), (1, vec![Scalar::Int(0); (h + 2) * wp])].into();
        p.run(&m, &mut bufs, 1_000_000)
            .unwrap_or_else(|e| panic!("{e}"));
        reference = reference.step_reference();
        assert_eq!(bufs[&1], padded(&reference), "generation {gen}");
        state = bufs[&1].clone();
    }
}

/// `life.cu` as written, its sum re-associated into a tree, puts more
/// operators on integer-ALU slots (the rule's `and`/`or`, the select for
/// the border columns) than one block holds: it is placed on two blocks,
/// streams crossing from one to the other through a routing element, and
/// the replicas tile the array with that region. 100 generations match
/// the reference bit for bit.
#[test]
fn plain_life_spans_two_blocks_and_matches_100_generations() {
    use cucc_racer::life::Grid;
    let (w, h) = (24usize, 16usize);
    let wp = w + 2;
    let n = h * wp - 2;
    let opts = Options {
        grid: n.div_ceil(32) as u32,
        block: 32,
        args: vec![
            Arg::Buffer,
            Arg::Buffer,
            Arg::Int(wp as i64),
            Arg::Int(n as i64),
        ],
        rotate: true,
        split_branches: false,
    };
    let m = Machine::racer_v1();
    let p = cucc_racer::launch::prepare(&module("life"), "life", &opts, &m)
        .unwrap_or_else(|e| panic!("{e}"));
    let blocks = p.placement.blocks;
    assert_eq!(blocks.0 * blocks.1, 2, "{blocks:?}");
    // One block is too small: the same graph fails there.
    let mut g = p.lowered.graph.clone();
    assert!(cucc_racer::place::place_on(&mut g, &m, None, (1, 1)).is_err());
    // Two of the 64 blocks per replica: 32 replicas; 11 PEs used.
    assert_eq!(p.replicas.len(), 32);
    assert_eq!(p.placement.pes_used(), 11);
    let crossing = p.lowered.graph.edges.iter().any(|e| {
        let from = p.placement.at[e.from.0 .0 as usize];
        from.is_some_and(|a| a.row >= m.block_rows || a.col >= m.block_cols)
    });
    assert!(crossing, "the second block is used");
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let cells: Vec<i32> = (0..w * h)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            i32::from(s % 3 == 0)
        })
        .collect();
    let mut reference = Grid { w, h, cells };
    let padded = |g: &Grid| -> Vec<Scalar> {
        let mut v = vec![Scalar::Int(0); (h + 2) * wp];
        for r in 0..h {
            for c in 0..w {
                v[(r + 1) * wp + c + 1] = Scalar::Int(g.cells[r * w + c] as i64);
            }
        }
        v
    };
    let mut state = padded(&reference);
    for gen in 0..100 {
        let mut bufs: BTreeMap<usize, Vec<Scalar>> =
            [(0, state.clone()), (1, vec![Scalar::Int(0); (h + 2) * wp])].into();
        p.run(&m, &mut bufs, 1_000_000)
            .unwrap_or_else(|e| panic!("{e}"));
        reference = reference.step_reference();
        assert_eq!(bufs[&1], padded(&reference), "generation {gen}");
        state = bufs[&1].clone();
    }
    assert!(
        reference.cells.contains(&1),
        "still alive after 100 generations"
    );
}

#[test]
fn a_do_while_whose_first_test_is_unknown_runs_the_body_first() {
    let n = 128usize;
    let l = lower("do_while", "countdown", 2, 64, vec![Arg::Buffer; 2])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!l.loops[0].test_first);
    let xs: Vec<i64> = (0..n as i64).map(|k| k - 40).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [
        (0, xs.iter().map(|&v| Scalar::Int(v)).collect()),
        (1, vec![Scalar::Int(0); n]),
    ]
    .into();
    run(&l, &mut bufs);
    let want: Vec<Scalar> = xs
        .iter()
        .map(|&x0| {
            let (mut x, mut k) = (x0, 0);
            loop {
                x -= 3;
                k += 1;
                if x <= 0 {
                    break Scalar::Int(k);
                }
            }
        })
        .collect();
    assert_eq!(bufs[&1], want);
}

#[test]
fn a_do_while_whose_first_test_holds_runs_test_first() {
    let n = 128usize;
    let l =
        lower("do_while", "series", 2, 64, vec![Arg::Buffer; 3]).unwrap_or_else(|e| panic!("{e}"));
    assert!(l.loops[0].test_first);
    // z, w, k and y; w also rides out on a lane of its own.
    assert_eq!(l.loops[0].lanes, 4);
    let c = l.loop_counts(0);
    assert_eq!(c["branch"], 5, "{c:?}");
    let ys: Vec<f64> = (0..n).map(|k| k as f64 * 0.75 - 20.0).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [
        (0, ys.iter().map(|&v| Scalar::F64(v)).collect()),
        (1, vec![Scalar::F64(0.0); n]),
        (2, vec![Scalar::Int(0); n]),
    ]
    .into();
    run(&l, &mut bufs);
    let (mut ws, mut ks) = (Vec::new(), Vec::new());
    for &y in &ys {
        let (mut z, mut w, mut k) = (1.0f64, 0.0f64, 0i64);
        loop {
            w += z;
            z = z * 0.5 + y;
            k += 1;
            if !(z < 100.0 && k < 50) {
                break;
            }
        }
        ws.push(Scalar::F64(w));
        ks.push(Scalar::Int(k));
    }
    assert_eq!(bufs[&1], ws);
    assert_eq!(bufs[&2], ks);
}
