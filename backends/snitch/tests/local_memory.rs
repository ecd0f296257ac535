//! Kernels with shared memory (and the private arrays cpuify's barrier
//! fission makes) taken through cpuify's short pipeline as the runtime
//! does, compiled with local memory below a TCDM address, run on the
//! simulator and compared with Rust references doing the same operations
//! in the same order.

use cucc_snitch::compile::{compile_with, CoreShare, LaunchDims, Options, Program};
use cucc_snitch::sim::{Machine, ModelParams};

const TCDM: u32 = 0x1000_0000;
/// The local top the tests give: the TCDM's end less one 64-byte stack.
fn local_top() -> u32 {
    let p = ModelParams::default();
    p.tcdm_base + p.tcdm_size as u32 - 64
}

/// The kernels as cucc's frontend writes them (`shared.cuir`) or, with
/// `ptx`, as the PTX frontend translates nvcc's code (`shared.ptx`: the
/// runtime's path for nvcc-built programs), through cpuify's short
/// pipeline.
fn source(ptx: bool) -> cucc_ir::Module {
    let dir = format!("{}/tests/kernels", env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| {
        std::fs::read_to_string(format!("{dir}/{name}")).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut m = if ptx {
        cucc_ptx::lower_ptx(&read("shared.ptx"), "shared.ptx").unwrap_or_else(|e| panic!("{e}"))
    } else {
        cucc_ir::parse_module(&read("shared.cuir")).unwrap_or_else(|e| panic!("{e}"))
    };
    let options = cucc_cpuify::pipeline::Options {
        enabled: Some(
            ["inline", "mem2reg", "canonicalize"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        ),
        ..cucc_cpuify::pipeline::Options::verifying()
    };
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    cucc_cpuify::pipeline::run(&mut m, &options, &mut remarks, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<_> = m.functions.iter().map(|(id, _)| id).collect();
    for id in ids {
        let cucc_ir::Module {
            types, functions, ..
        } = &mut m;
        cucc_cpuify::passes::interchange::counted_whiles_to_for(types, &mut functions[id]);
        // The runtime's placement makes every buffer `noalias`.
        for p in functions[id].params.iter_mut() {
            p.noalias = true;
        }
    }
    m
}

fn module() -> cucc_ir::Module {
    source(false)
}

fn options(grid: [u32; 3], block: [u32; 3], ints: &[(usize, i32)], dynamic: u32) -> Options {
    let mut known_ints = [None; 8];
    for &(i, v) in ints {
        known_ints[i] = Some(v);
    }
    Options {
        launch: Some(LaunchDims { grid, block }),
        known_ints,
        local_top: Some(local_top()),
        dynamic_shared: dynamic,
        ..Options::default()
    }
}

fn compile(m: &cucc_ir::Module, kernel: &str, o: &Options) -> Program {
    compile_with(m, kernel, o)
        .unwrap_or_else(|e| panic!("{e}"))
        .program
}

/// Runs `p` with `bufs` placed one after another from the TCDM base and
/// `scalars` after the pointers; returns the buffers afterwards.
fn run(p: &Program, bufs: &[Vec<f64>], scalars: &[u32]) -> Vec<Vec<f64>> {
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let mut mach = Machine::new(ModelParams::default(), &words);
    let mut args = Vec::new();
    let mut at = TCDM;
    for b in bufs {
        mach.tcdm.write_f64s(at, b).expect("fits");
        args.push(at);
        at += 8 * b.len() as u32;
    }
    assert!(at <= local_top() - p.local_bytes, "buffers overlap locals");
    args.extend_from_slice(scalars);
    p.run(&mut mach, &args, 10_000_000)
        .unwrap_or_else(|e| panic!("{e}\n{}", p.asm));
    bufs.iter()
        .zip(&args)
        .map(|(b, &a)| mach.tcdm.read_f64s(a, b.len()).expect("in bounds"))
        .collect()
}

fn data(n: usize, seed: u64) -> Vec<f64> {
    (0..n)
        .map(|i| ((i as u64 * 37 + seed * 11) % 101) as f64 / 8.0 - 6.0)
        .collect()
}

#[test]
fn tiled_matmul_through_shared_tiles() {
    tiled_matmul(&module());
}

/// nvcc's code: its `t` loop rotated (the test at the bottom, a counter
/// stepped down to zero) and unrolled by two, the trip count carried
/// across the barriers in a per-thread integer.
#[test]
fn nvcc_tiled_matmul_through_shared_tiles() {
    tiled_matmul(&source(true));
}

fn tiled_matmul(m: &cucc_ir::Module) {
    let n = 16usize;
    let o = options([2, 2, 1], [8, 8, 1], &[(3, n as i32)], 0);
    let p = compile(m, "_Z12matmul_tiledPKdS0_Pdi", &o);
    // Two 512-byte tiles and private arrays of the 64 threads' sums
    // (cpuify sizes them for 1024 threads; the accesses reach 64).
    assert!(p.locals.iter().all(|l| l.bytes <= 512), "{:?}", p.locals);
    let (a, b) = (data(n * n, 1), data(n * n, 2));
    let out = run(&p, &[a.clone(), b.clone(), vec![0.0; n * n]], &[n as u32]);
    let mut want = vec![0.0; n * n];
    for r in 0..n {
        for c in 0..n {
            let mut s = 0.0f64;
            for k in 0..n {
                s = a[r * n + k].mul_add(b[k * n + c], s);
            }
            want[r * n + c] = s;
        }
    }
    assert_eq!(out[2], want);
}

/// Eight cores' shares, each with its local memory below the previous
/// one's, on one TCDM: together they compute what one core does.
#[test]
fn core_shares_have_disjoint_local_memory() {
    for ptx in [false, true] {
        reverse_on_eight_cores(&source(ptx));
    }
}

fn reverse_on_eight_cores(m: &cucc_ir::Module) {
    let (blocks, threads) = (12u32, 64u32);
    let n = (blocks * threads) as usize;
    let input = data(n, 3);
    let params = ModelParams::default();
    let mut tcdm = cucc_snitch::sim::Tcdm::new(params.tcdm_base, params.tcdm_size);
    tcdm.write_f64s(TCDM, &input).expect("fits");
    let out_at = TCDM + 8 * n as u32;
    let mut top = local_top();
    for core in 0..8 {
        let o = Options {
            share: Some(CoreShare { core, cores: 8 }),
            local_top: Some(top),
            ..options([blocks, 1, 1], [threads, 1, 1], &[], 0)
        };
        let p = compile(m, "_Z7reversePKdPd", &o);
        assert_eq!(p.local_bytes, 512);
        assert_eq!(p.locals[0].addr, top - 512);
        top -= p.local_bytes;
        let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
        let mut mach = Machine::new(params.clone(), &words);
        std::mem::swap(&mut mach.tcdm, &mut tcdm);
        p.run(&mut mach, &[TCDM, out_at], 10_000_000)
            .unwrap_or_else(|e| panic!("{e}"));
        std::mem::swap(&mut mach.tcdm, &mut tcdm);
    }
    let got = tcdm.read_f64s(out_at, n).expect("in bounds");
    let want: Vec<f64> = (0..n).map(|i| input[i / 64 * 64 + 63 - i % 64]).collect();
    assert_eq!(got, want);
}

#[test]
fn stencil_through_dynamic_shared_memory() {
    for ptx in [false, true] {
        stencil(&source(ptx));
    }
}

fn stencil(m: &cucc_ir::Module) {
    let (blocks, threads) = (4usize, 32usize);
    let n = blocks * threads;
    let o = options(
        [blocks as u32, 1, 1],
        [threads as u32, 1, 1],
        &[],
        16 * threads as u32,
    );
    let p = compile(m, "_Z7stencilPKdPdddd", &o);
    assert_eq!(p.local_bytes, 16 * threads as u32);
    let input = data(n + threads, 4);
    let (w0, w1, w2) = (0.25f64, -1.5f64, 0.75f64);
    let words = |x: f64| [x.to_bits() as u32, (x.to_bits() >> 32) as u32];
    let mut scalars = Vec::new();
    for w in [w0, w1, w2] {
        scalars.extend(words(w));
    }
    let out = run(&p, &[input.clone(), vec![0.0; n]], &scalars);
    let want: Vec<f64> = (0..n)
        .map(|i| w2.mul_add(input[i + 2], w1.mul_add(input[i + 1], w0 * input[i])))
        .collect();
    assert_eq!(out[1], want);
}

/// The tree reduction: its `s >>= 1` loop (no constant step) is unrolled
/// at compile time, and each level's `if (t < s)` splits the thread loop
/// at `s` (the second part does nothing).
#[test]
fn tree_reduction_through_shared_memory() {
    for ptx in [false, true] {
        let m = source(ptx);
        let blocks = 4usize;
        let o = options([blocks as u32, 1, 1], [64, 1, 1], &[], 0);
        let p = compile(&m, "_Z9block_sumPKdPd", &o);
        let input = data(64 * blocks, 5);
        let out = run(&p, &[input.clone(), vec![0.0; blocks]], &[]);
        let want: Vec<f64> = input
            .chunks(64)
            .map(|c| {
                let mut part = c.to_vec();
                let mut s = 32;
                while s > 0 {
                    for t in 0..s {
                        part[t] += part[t + s];
                    }
                    s >>= 1;
                }
                part[0]
            })
            .collect();
        assert_eq!(out[1], want, "ptx: {ptx}");
    }
}

/// What the streams cannot express keeps its diagnostic: a guard that
/// changes from one thread to the next (`t % 2 == 0`), the gather's
/// data-dependent index.
#[test]
fn run_time_choices_and_data_indices_are_rejected_with_their_line() {
    let m = module();
    let o = options([2, 1, 1], [64, 1, 1], &[], 0);
    let e = compile_with(&m, "_Z5evensPKdPd", &o)
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    let text = e.to_string();
    assert!(text.starts_with("shared.cu:69:"), "{text}");
    assert!(text.contains(": if: "), "{text}");
    let e = compile_with(&m, "_Z6gatherPKiPKdPd", &o)
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    let text = e.to_string();
    assert!(text.starts_with("shared.cu:60:"), "{text}");
    assert!(text.contains("integer load"), "{text}");
}

/// Without a place for local memory the compiler says so at the array.
#[test]
fn local_memory_needs_a_top() {
    let m = module();
    let o = Options {
        local_top: None,
        ..options([2, 1, 1], [64, 1, 1], &[], 0)
    };
    let e = compile_with(&m, "_Z7reversePKdPd", &o)
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    assert!(e.to_string().contains("alloca"), "{e}");
}

/// Every subset of the passes computes the same tiled matmul and tree
/// reduction (the passes treat local memory as buffers of their own).
/// Without streams the tiled matmul's five nested loops and its reference
/// addresses need more integer registers than the allocator has unless
/// the loop bounds are loaded at each latch (the compiler's last
/// fallback): every subset compiles.
#[test]
fn every_pass_subset_agrees() {
    let m = module();
    let n = 16usize;
    let (a, b) = (data(n * n, 6), data(n * n, 7));
    let input = data(128, 8);
    let names = Options::PASS_NAMES;
    let mut first: Option<(Vec<f64>, Vec<f64>)> = None;
    for mask in 0u32..1 << names.len() {
        let list: Vec<&str> = (0..names.len())
            .filter(|&k| mask & (1 << k) != 0)
            .map(|k| names[k])
            .collect();
        let o = options([2, 2, 1], [8, 8, 1], &[(3, n as i32)], 0)
            .with_passes(&list.join(","))
            .unwrap_or_else(|e| panic!("{e}"));
        let p = compile(&m, "_Z12matmul_tiledPKdS0_Pdi", &o);
        let mm = run(&p, &[a.clone(), b.clone(), vec![0.0; n * n]], &[n as u32]);
        let o = options([2, 1, 1], [64, 1, 1], &[], 0)
            .with_passes(&list.join(","))
            .unwrap_or_else(|e| panic!("{e}"));
        let p = compile(&m, "_Z9block_sumPKdPd", &o);
        let sums = run(&p, &[input.clone(), vec![0.0; 2]], &[]);
        let got = (mm[2].clone(), sums[1].clone());
        match &first {
            None => first = Some(got),
            Some(want) => assert_eq!(&got, want, "passes {list:?}"),
        }
    }
}
