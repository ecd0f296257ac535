//! Kernels taken through cpuify's pipeline first, as the runtime will:
//! per-thread IR in, launch form out, then compiled for one launch shape.

use cucc_snitch::compile::{compile_with, LaunchDims, Options};
use cucc_snitch::sim::{Machine, ModelParams};

const TCDM: u32 = 0x1000_0000;

fn kernel_text(name: &str) -> String {
    let path = format!("{}/tests/kernels/{name}.cuir", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn cpuify(name: &str, passes: Option<&[&str]>) -> cucc_ir::Module {
    cpuify_text(&kernel_text(name), passes)
}

fn cpuify_text(text: &str, passes: Option<&[&str]>) -> cucc_ir::Module {
    let mut m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let options = cucc_cpuify::pipeline::Options {
        enabled: passes.map(|p| p.iter().map(|s| s.to_string()).collect()),
        ..cucc_cpuify::pipeline::Options::verifying()
    };
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    cucc_cpuify::pipeline::run(&mut m, &options, &mut remarks, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"));
    m
}

fn vadd(m: &cucc_ir::Module, blocks: u32, threads: u32) {
    let opts = Options {
        launch: Some(LaunchDims {
            grid: [blocks, 1, 1],
            block: [threads, 1, 1],
        }),
        ..Options::default()
    };
    let p = compile_with(m, "cuda_vadd", &opts)
        .unwrap_or_else(|e| panic!("{e}\n{}", cucc_ir::print_module(m)))
        .program;
    let n = (blocks * threads) as usize;
    let a: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let b: Vec<f64> = (0..n).map(|i| 3.0 - i as f64).collect();
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let mut mach = Machine::new(ModelParams::default(), &words);
    let (aa, ba, ca) = (TCDM, TCDM + 8 * n as u32, TCDM + 16 * n as u32);
    mach.tcdm.write_f64s(aa, &a).expect("fits");
    mach.tcdm.write_f64s(ba, &b).expect("fits");
    let c = p
        .run(&mut mach, &[aa, ba, ca], 1_000_000)
        .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(mach.tcdm.read_f64s(ca, n).expect("in bounds"), want);
    // Grid and block loops have constant counts: one stream each over
    // all n elements, one FREP.
    assert_eq!(c.by_mnemonic.get("fld"), None, "{}", p.asm);
    assert_eq!(c.by_mnemonic.get("frep.o"), Some(&1), "{}", p.asm);
}

/// cpuify's default pipeline versions the block loop on checks of the
/// launch shape; with the shape known those checks are constants and the
/// taken arm compiles.
#[test]
fn default_cpuify_pipeline_output_compiles_for_a_launch_shape() {
    vadd(&cpuify("cuda_vadd", None), 4, 32);
}

#[test]
fn minimal_cpuify_pipeline_output_compiles_for_a_launch_shape() {
    vadd(
        &cpuify("cuda_vadd", Some(&["inline", "mem2reg", "canonicalize"])),
        2,
        64,
    );
}

/// Without a launch shape the six dimensions become parameters: more than
/// the eight argument registers hold with the three pointers.
#[test]
fn without_a_launch_shape_the_dimensions_are_parameters() {
    let m = cpuify("cuda_vadd", Some(FOR_SNITCH));
    let d = compile_with(&m, "cuda_vadd", &Options::default())
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    assert_eq!(d.construct, "parameters", "{d}");
}

fn guarded(
    n: i32,
    known: bool,
) -> Result<cucc_snitch::compile::Program, cucc_snitch::compile::Diagnostic> {
    let m = cpuify("cuda_vadd_guard", None);
    let mut known_ints = [None; 8];
    if known {
        known_ints[3] = Some(n);
    }
    let opts = Options {
        launch: Some(LaunchDims {
            grid: [4, 1, 1],
            block: [32, 1, 1],
        }),
        known_ints,
        ..Options::default()
    };
    compile_with(&m, "cuda_vadd_guard", &opts).map(|c| c.program)
}

fn run_guarded(n: usize) -> cucc_snitch::sim::Counters {
    let p = guarded(n as i32, true).unwrap_or_else(|e| panic!("{e}"));
    let a: Vec<f64> = (0..128).map(|i| i as f64).collect();
    let b: Vec<f64> = (0..128).map(|i| 1.0 - i as f64 * 0.25).collect();
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let mut mach = Machine::new(ModelParams::default(), &words);
    let (aa, ba, ca) = (TCDM, TCDM + 8 * 128, TCDM + 16 * 128);
    mach.tcdm.write_f64s(aa, &a).expect("fits");
    mach.tcdm.write_f64s(ba, &b).expect("fits");
    mach.tcdm.write_f64s(ca, &[-1.0; 128]).expect("fits");
    let c = p
        .run(&mut mach, &[aa, ba, ca, n as u32], 1_000_000)
        .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<f64> = (0..128)
        .map(|i| if i < n { a[i] + b[i] } else { -1.0 })
        .collect();
    assert_eq!(
        mach.tcdm.read_f64s(ca, 128).expect("in bounds"),
        want,
        "{}",
        p.asm
    );
    assert_eq!(c.by_mnemonic.get("fld"), None, "{}", p.asm);
    c
}

/// `if (i < n)` with n known: the guard and cpuify's clamped block bound
/// are decided when the launch covers exactly n threads, and the kernel
/// streams.
#[test]
fn bounds_guard_is_decided_when_n_is_known() {
    run_guarded(128);
}

/// A partial last block (n = 100 over 4 blocks of 32): the block loop's
/// last iteration is peeled, full blocks and the partial one both stream.
#[test]
fn partial_last_block_is_peeled() {
    run_guarded(100);
}

/// With n unknown the clamped bound is chosen at run time, which the
/// compiler says.
#[test]
fn bounds_guard_on_an_unknown_argument_is_rejected() {
    let d = guarded(100, false)
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    assert_eq!(d.construct, "select", "{d}");
}

/// Table 3.2's matmul as a CUDA kernel launched <<<1, 1>>>, through
/// cpuify's default pipeline: every row's FP load, store and `fmadd.d`
/// counts and static `frep.o` count equal the table's, as from loop IR.
#[test]
fn single_thread_matmul_kernel_reproduces_table_3_2_counts() {
    let m = cpuify("matmul_kernel", None);
    let want: [(u64, u64, u64, usize); 6] = [
        (3000, 1005, 1000, 0),
        (1000, 1000, 1000, 0),
        (5, 5, 1000, 0),
        (5, 5, 1000, 2),
        (0, 0, 1000, 1),
        (0, 0, 1000, 1),
    ];
    let x: Vec<f64> = (0..200).map(|k| 1.0 + (k % 9) as f64 * 0.125).collect();
    let y: Vec<f64> = (0..1000).map(|i| 0.5 - (i % 11) as f64 * 0.0625).collect();
    let z: Vec<f64> = (0..5)
        .map(|j| (0..200).fold(0.0f64, |acc, k| x[k].mul_add(y[k * 5 + j], acc)))
        .collect();
    for ((row, opts), want) in Options::table_3_2().iter().zip(want) {
        let opts = Options {
            launch: Some(LaunchDims {
                grid: [1, 1, 1],
                block: [1, 1, 1],
            }),
            ..*opts
        };
        let p = compile_with(&m, "matmul", &opts)
            .unwrap_or_else(|e| panic!("{row}: {e}"))
            .program;
        let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
        let mut mach = Machine::new(ModelParams::default(), &words);
        let (xa, ya, za) = (TCDM, TCDM + 8 * 200, TCDM + 8 * 1200);
        mach.tcdm.write_f64s(xa, &x).expect("fits");
        mach.tcdm.write_f64s(ya, &y).expect("fits");
        let c = p
            .run(&mut mach, &[xa, ya, za], 10_000_000)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mach.tcdm.read_f64s(za, 5).expect("in bounds"), z, "{row}");
        let n = |m: &str| c.by_mnemonic.get(m).copied().unwrap_or(0);
        let freps = p.insts.iter().filter(|i| i.mnemonic() == "frep.o").count();
        assert_eq!(
            (n("fld"), n("fsd"), n("fmadd.d"), freps),
            want,
            "{row}\n{}",
            p.asm
        );
    }
}

/// The passes the device wants from cpuify: its default pipeline is tuned
/// for CPUs (distribution and interchange put per-thread accumulators in
/// a private array, which this backend does not take).
const FOR_SNITCH: &[&str] = &["inline", "mem2reg", "canonicalize"];

/// One thread per output: cpuify's block loop is the loop around the
/// reduction, so unroll-and-jam gives Table 3.2's last row.
#[test]
fn thread_per_output_matmul_gets_the_last_rows_shape() {
    let m = cpuify("matmul_threads", Some(FOR_SNITCH));
    let opts = Options {
        launch: Some(LaunchDims {
            grid: [1, 1, 1],
            block: [5, 1, 1],
        }),
        ..Options::default()
    };
    let p = compile_with(&m, "matmul_threads", &opts)
        .unwrap_or_else(|e| panic!("{e}\n{}", cucc_ir::print_module(&m)))
        .program;
    let x: Vec<f64> = (0..200).map(|k| 1.0 + (k % 9) as f64 * 0.125).collect();
    let y: Vec<f64> = (0..1000).map(|i| 0.5 - (i % 11) as f64 * 0.0625).collect();
    let z: Vec<f64> = (0..5)
        .map(|j| (0..200).fold(0.0f64, |acc, k| x[k].mul_add(y[k * 5 + j], acc)))
        .collect();
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let mut mach = Machine::new(ModelParams::default(), &words);
    let (xa, ya, za) = (TCDM, TCDM + 8 * 200, TCDM + 8 * 1200);
    mach.tcdm.write_f64s(xa, &x).expect("fits");
    mach.tcdm.write_f64s(ya, &y).expect("fits");
    let c = p
        .run(&mut mach, &[xa, ya, za], 10_000_000)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(mach.tcdm.read_f64s(za, 5).expect("in bounds"), z);
    let n = |m: &str| c.by_mnemonic.get(m).copied().unwrap_or(0);
    let freps = p.insts.iter().filter(|i| i.mnemonic() == "frep.o").count();
    assert_eq!(
        (n("fld"), n("fsd"), n("fmadd.d"), freps),
        (0, 0, 1000, 1),
        "{}",
        p.asm
    );
    eprintln!(
        "{} cycles, FPU occupancy {:.3}\n{}",
        c.cycles,
        c.fpu_occupancy(),
        p.asm
    );
    assert!(c.fpu_occupancy() > 0.9);
}

/// Runs `name` (a, b, c pointers, then n) dealt out to `cores` cores, one
/// program per core on one TCDM (as the runtime's device runs a launch),
/// and returns c and each core's cycles.
fn run_shared(name: &str, grid: u32, block: u32, n: usize, cores: u32) -> (Vec<f64>, Vec<u64>) {
    use cucc_snitch::compile::CoreShare;
    let m = cpuify(name, None);
    let total = (grid * block) as usize;
    let a: Vec<f64> = (0..total).map(|i| i as f64 * 0.75).collect();
    let b: Vec<f64> = (0..total).map(|i| 2.0 - i as f64 * 0.5).collect();
    let (aa, ba, ca) = (TCDM, TCDM + 8 * total as u32, TCDM + 16 * total as u32);
    let mut tcdm = None;
    let mut cycles = Vec::new();
    for core in 0..cores {
        let share = CoreShare { core, cores };
        if share.blocks(grid) == 0 {
            continue;
        }
        let mut known_ints = [None; 8];
        known_ints[3] = Some(n as i32);
        let opts = Options {
            launch: Some(LaunchDims {
                grid: [grid, 1, 1],
                block: [block, 1, 1],
            }),
            known_ints,
            share: (cores > 1).then_some(share),
            ..Options::default()
        };
        let p = compile_with(&m, name, &opts)
            .unwrap_or_else(|e| panic!("{e}"))
            .program;
        let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
        let mut mach = Machine::new(ModelParams::default(), &words);
        match tcdm.take() {
            Some(t) => mach.tcdm = t,
            None => {
                mach.tcdm.write_f64s(aa, &a).expect("fits");
                mach.tcdm.write_f64s(ba, &b).expect("fits");
                mach.tcdm.write_f64s(ca, &vec![-1.0; total]).expect("fits");
            }
        }
        let mut args = vec![aa, ba, ca];
        args.extend((p.arg_slots() > 3).then_some(n as u32));
        let c = p
            .run(&mut mach, &args, 10_000_000)
            .unwrap_or_else(|e| panic!("{e}"));
        cycles.push(c.cycles);
        tcdm = Some(mach.tcdm);
    }
    let t = tcdm.unwrap_or_else(|| panic!("no core ran"));
    (t.read_f64s(ca, total).expect("in bounds"), cycles)
}

/// Eight cores, each with its round-robin share of 20 blocks, compute
/// what one core computes alone; each runs fewer cycles than the one.
#[test]
fn grid_shares_on_eight_cores_equal_one_core() {
    let (one, c1) = run_shared("cuda_vadd", 20, 16, 320, 1);
    let (eight, c8) = run_shared("cuda_vadd", 20, 16, 320, 8);
    assert_eq!(one, eight);
    assert_eq!(c8.len(), 8);
    assert!(c8.iter().all(|&c| c < c1[0]), "{c8:?} vs {c1:?}");
}

/// With a guard and a partial last block (n = 100 over 13 blocks of 8),
/// the core holding the last block peels it; the others are uniform.
#[test]
fn grid_shares_with_a_partial_last_block_equal_one_core() {
    let (one, _) = run_shared("cuda_vadd_guard", 13, 8, 100, 1);
    let (eight, _) = run_shared("cuda_vadd_guard", 13, 8, 100, 8);
    assert_eq!(one, eight);
    assert_eq!(one[99], 99.0 * 0.75 + 2.0 - 99.0 * 0.5);
    assert_eq!(one[100], -1.0);
}

/// Fewer blocks than cores: the cores without one run nothing.
#[test]
fn grid_shares_with_fewer_blocks_than_cores() {
    let (one, _) = run_shared("cuda_vadd", 3, 32, 96, 1);
    let (eight, c8) = run_shared("cuda_vadd", 3, 32, 96, 8);
    assert_eq!(one, eight);
    assert_eq!(c8.len(), 3);
}

/// A call of C's `fma` (what PTX's `fma.rn.f64` becomes) compiles to
/// `fmadd.d`, with C's result.
#[test]
fn fma_calls_compile_to_fmadd() {
    let m = cpuify("cuda_axpy_fma", Some(FOR_SNITCH));
    let mut known_ints = [None; 8];
    known_ints[3] = Some(64);
    let opts = Options {
        launch: Some(LaunchDims {
            grid: [2, 1, 1],
            block: [32, 1, 1],
        }),
        known_ints,
        ..Options::default()
    };
    let p = compile_with(&m, "cuda_axpy_fma", &opts)
        .unwrap_or_else(|e| panic!("{e}\n{}", cucc_ir::print_module(&m)))
        .program;
    let x: Vec<f64> = (0..64).map(|i| 0.1 * i as f64 - 2.0).collect();
    let y: Vec<f64> = (0..64).map(|i| 1.0 / (1.0 + i as f64)).collect();
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let mut mach = Machine::new(ModelParams::default(), &words);
    let (xa, ya) = (TCDM, TCDM + 8 * 64);
    mach.tcdm.write_f64s(xa, &x).expect("fits");
    mach.tcdm.write_f64s(ya, &y).expect("fits");
    let a = 0.3f64.to_bits();
    let c = p
        .run(
            &mut mach,
            &[xa, ya, a as u32, (a >> 32) as u32, 64],
            1_000_000,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| 0.3f64.mul_add(*x, *y).max(*y))
        .collect();
    assert_eq!(mach.tcdm.read_f64s(ya, 64).expect("in bounds"), want);
    assert_eq!(c.count("fmadd.d"), 64, "{}", p.asm);
    assert_eq!(c.count("fmax.d"), 64, "{}", p.asm);
}

/// One block per core, the last one partial.
#[test]
fn grid_shares_of_one_block_each_with_a_partial_last_block() {
    let (one, _) = run_shared("cuda_vadd_guard", 4, 32, 100, 1);
    let (eight, c8) = run_shared("cuda_vadd_guard", 4, 32, 100, 8);
    assert_eq!(one, eight);
    assert_eq!(c8.len(), 4);
}

/// PTX's pointers: `u64` parameters used only as the bases of integer
/// addresses that `inttoptr` turns into pointers are buffers; with the
/// runtime's `noalias` facts they stream.
#[test]
fn integer_address_parameters_are_buffers() {
    let mut m = cpuify("ptx_axpy", None);
    assert_eq!(
        cucc_snitch::compile::buffer_params(&m, "ptx_axpy"),
        Some(vec![true, true, false, false])
    );
    let mut known_ints = [None; 8];
    known_ints[3] = Some(60);
    let opts = Options {
        launch: Some(LaunchDims {
            grid: [2, 1, 1],
            block: [32, 1, 1],
        }),
        known_ints,
        ..Options::default()
    };
    let x: Vec<f64> = (0..64).map(|i| 0.5 * i as f64 - 3.0).collect();
    let y: Vec<f64> = (0..64).map(|i| 2.0 / (1.0 + i as f64)).collect();
    let want: Vec<f64> = (0..64)
        .map(|i| {
            if i < 60 {
                1.25f64.mul_add(x[i], y[i])
            } else {
                y[i]
            }
        })
        .collect();
    for noalias in [false, true] {
        let fid = m.function("ptx_axpy").unwrap_or_else(|| panic!("kernel"));
        for p in m.functions[fid].params.iter_mut().take(2) {
            p.noalias = noalias;
        }
        let p = compile_with(&m, "ptx_axpy", &opts)
            .unwrap_or_else(|e| panic!("{e}\n{}", cucc_ir::print_module(&m)))
            .program;
        assert_eq!(p.asm.contains("scfgwi"), noalias, "{}", p.asm);
        let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
        let mut mach = Machine::new(ModelParams::default(), &words);
        let (xa, ya) = (TCDM, TCDM + 8 * 64);
        mach.tcdm.write_f64s(xa, &x).expect("fits");
        mach.tcdm.write_f64s(ya, &y).expect("fits");
        let a = 1.25f64.to_bits();
        p.run(
            &mut mach,
            &[xa, ya, a as u32, (a >> 32) as u32, 60],
            1_000_000,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mach.tcdm.read_f64s(ya, 64).expect("in bounds"), want);
    }
}

/// nvcc's strength-reduced loops: an address and a counter carried around
/// the loop are induction variables, and the trip count folds from the
/// known argument.
#[test]
fn carried_addresses_are_induction_variables() {
    let m = cpuify("ptx_row_sums", Some(FOR_SNITCH));
    let (rows, k) = (4usize, 12usize);
    let mut known_ints = [None; 8];
    known_ints[2] = Some(k as i32);
    let opts = Options {
        launch: Some(LaunchDims {
            grid: [1, 1, 1],
            block: [rows as u32, 1, 1],
        }),
        known_ints,
        ..Options::default()
    };
    let p = compile_with(&m, "ptx_row_sums", &opts)
        .unwrap_or_else(|e| panic!("{e}\n{}", cucc_ir::print_module(&m)))
        .program;
    let x: Vec<f64> = (0..rows * k).map(|i| 0.25 * i as f64 - 1.0).collect();
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let mut mach = Machine::new(ModelParams::default(), &words);
    let (xa, za) = (TCDM, TCDM + 8 * (rows * k) as u32);
    mach.tcdm.write_f64s(xa, &x).expect("fits");
    p.run(&mut mach, &[xa, za, k as u32], 1_000_000)
        .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<f64> = (0..rows)
        .map(|r| x[r * k..(r + 1) * k].iter().fold(0.0, |s, v| s + v))
        .collect();
    assert_eq!(mach.tcdm.read_f64s(za, rows).expect("in bounds"), want);
}

/// An integer carried around a loop that is not stepped by an invariant
/// amount is rejected, naming the construct and the loop.
#[test]
fn carried_integers_that_are_not_induction_variables_are_rejected() {
    let text = kernel_text("ptx_row_sums").replace("%nn = add %n, %two", "%nn = mul %n, %two");
    let m = cpuify_text(&text, Some(FOR_SNITCH));
    let mut known_ints = [None; 8];
    known_ints[2] = Some(12);
    let opts = Options {
        launch: Some(LaunchDims {
            grid: [1, 1, 1],
            block: [4, 1, 1],
        }),
        known_ints,
        ..Options::default()
    };
    let d = compile_with(&m, "ptx_row_sums", &opts)
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    assert_eq!(d.construct, "integer loop-carried value", "{d}");
    assert!(d.location.starts_with("ptx_row_sums.ptx:5:3"), "{d}");
}
