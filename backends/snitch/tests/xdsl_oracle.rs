//! xDSL 0.21.1 as the oracle: the same kernels compiled by its Snitch
//! pipeline (inputs in `tests/xdsl/`), assembled by this crate, run on the
//! simulator next to cucc's code. Dynamic FP loads, stores and `fmadd.d`
//! and static `frep.o` counts must be equal, both results exact, and
//! cycles (both on this crate's model) within 15% of each other.
//!
//! Skipped, saying why, when `xdsl-opt` 0.21.1 is not installed: it is
//! looked for in `$XDSL_OPT`, the repository's `.venv` (`scripts/setup.sh`),
//! `/tmp/xdsl-venv` and `PATH`.

use cucc_snitch::asm::assemble;
use cucc_snitch::compile::{compile_with, Options, Program};
use cucc_snitch::sim::{Counters, Machine, ModelParams};
use std::path::PathBuf;
use std::process::Command;

const TCDM: u32 = 0x1000_0000;

/// The notes' full pass list (the CGO'25 artifact's recipe).
const FULL: &str = "canonicalize,convert-linalg-to-memref-stream,canonicalize,memref-stream-infer-fill,memref-stream-unnest-out-parameters,memref-stream-fold-fill,memref-stream-generalize-fill,memref-stream-interleave,memref-stream-tile-outer-loops{target_rank=4},memref-streamify,convert-memref-stream-to-loops,canonicalize,scf-for-loop-flatten,canonicalize,convert-memref-to-riscv,lower-affine,convert-scf-to-riscv-scf,convert-arith-to-riscv-snitch,convert-arith-to-riscv,convert-func-to-riscv-func,convert-memref-stream-to-snitch-stream,reconcile-unrealized-casts,canonicalize,convert-riscv-scf-for-to-frep,snitch-allocate-registers,convert-snitch-stream-to-snitch,lower-snitch,canonicalize,riscv-scf-loop-range-folding,canonicalize,riscv-allocate-registers,canonicalize,convert-riscv-scf-to-riscv-cf,canonicalize";

/// Passes removed, one more per row going up Table 3.2.
const DROPPED: [&str; 5] = [
    "memref-stream-interleave",
    "memref-stream-fold-fill",
    "convert-riscv-scf-for-to-frep",
    "memref-stream-unnest-out-parameters",
    "memref-streamify",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn xdsl_opt() -> Result<PathBuf, String> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("XDSL_OPT") {
        candidates.push(p.into());
    }
    candidates.push(root().join("../../.venv/bin/xdsl-opt"));
    candidates.push("/tmp/xdsl-venv/bin/xdsl-opt".into());
    candidates.push("xdsl-opt".into());
    for c in candidates {
        if let Ok(out) = Command::new(&c).arg("--version").output() {
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            if text.contains("0.21.1") {
                return Ok(c);
            }
        }
    }
    Err(
        "xdsl-opt 0.21.1 not found (scripts/setup.sh installs it into .venv; or set XDSL_OPT)"
            .into(),
    )
}

fn xdsl(opt: &PathBuf, passes: &str, file: &str) -> String {
    let input = root().join("tests/xdsl").join(file);
    let out = Command::new(opt)
        .args(["-p", passes, "-t", "riscv-asm"])
        .arg(&input)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", opt.display()));
    assert!(
        out.status.success(),
        "xdsl-opt: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs words with f64 buffers at consecutive TCDM addresses in a0, a1, …;
/// returns the counters and the buffers after the run.
fn run_words(words: &[u32], bufs: &[Vec<f64>]) -> (Counters, Vec<Vec<f64>>) {
    let mut m = Machine::new(ModelParams::default(), words);
    let mut at = TCDM;
    let mut addrs = Vec::new();
    for b in bufs {
        m.tcdm.write_f64s(at, b).expect("fits");
        addrs.push(at);
        at += 8 * b.len() as u32;
    }
    for (i, a) in addrs.iter().enumerate() {
        m.set_x(
            cucc_snitch::isa::XReg::parse(&format!("a{i}")).expect("register"),
            *a,
        );
    }
    let entry = m.code_address(0);
    let c = m.run(entry, 10_000_000).unwrap_or_else(|e| panic!("{e}"));
    let out = bufs
        .iter()
        .zip(&addrs)
        .map(|(b, a)| m.tcdm.read_f64s(*a, b.len()).expect("in bounds"))
        .collect();
    (c, out)
}

fn xdsl_run(asm: &str, bufs: &[Vec<f64>]) -> (usize, Counters, Vec<Vec<f64>>) {
    let p = assemble(asm).unwrap_or_else(|e| panic!("{e}\n{asm}"));
    let freps = p.insts.iter().filter(|i| i.mnemonic() == "frep.o").count();
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let (c, out) = run_words(&words, bufs);
    (freps, c, out)
}

fn cucc_run(kernel: &str, opts: &Options, bufs: &[Vec<f64>]) -> (Program, Counters, Vec<Vec<f64>>) {
    let path = root().join(format!("tests/kernels/{kernel}.cuir"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m = cucc_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    let p = compile_with(&m, kernel, opts)
        .unwrap_or_else(|e| panic!("{e}"))
        .program;
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    let (c, out) = run_words(&words, bufs);
    (p, c, out)
}

fn n(c: &Counters, m: &str) -> u64 {
    c.by_mnemonic.get(m).copied().unwrap_or(0)
}

const THESIS_CYCLES: [u64; 6] = [40161, 19165, 4147, 4124, 4130, 1115];

#[test]
fn matmul_rows_match_xdsl() {
    let opt = match xdsl_opt() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let x: Vec<f64> = (0..200).map(|k| 1.0 + (k % 9) as f64 * 0.125).collect();
    let y: Vec<f64> = (0..1000).map(|i| 0.5 - (i % 11) as f64 * 0.0625).collect();
    let z: Vec<f64> = (0..5)
        .map(|j| (0..200).fold(0.0f64, |acc, k| x[k].mul_add(y[k * 5 + j], acc)))
        .collect();
    let bufs = vec![x, y, vec![7.0; 5]];
    let rows = Options::table_3_2();
    let mut table = String::from(
        "row                    thesis  xDSL(model)  cucc(model)   fld/fsd/fmadd/frep (both)\n",
    );
    for (r, (name, opts)) in rows.iter().enumerate() {
        let dropped = &DROPPED[..5 - r];
        let passes: Vec<&str> = FULL.split(',').filter(|p| !dropped.contains(p)).collect();
        let asm = xdsl(&opt, &passes.join(","), "matmul.mlir");
        let (xf, xc, xout) = xdsl_run(&asm, &bufs);
        let (p, cc, cout) = cucc_run("matmul", opts, &bufs);
        assert_eq!(xout[2], z, "{name}: xDSL's result");
        assert_eq!(cout[2], z, "{name}: cucc's result");
        let xs = (n(&xc, "fld"), n(&xc, "fsd"), n(&xc, "fmadd.d"), xf);
        let cs = (
            n(&cc, "fld"),
            n(&cc, "fsd"),
            n(&cc, "fmadd.d"),
            p.insts.iter().filter(|i| i.mnemonic() == "frep.o").count(),
        );
        assert_eq!(cs, xs, "{name}:\nxDSL:\n{asm}\ncucc:\n{}", p.asm);
        let dev = cc.cycles as f64 / xc.cycles as f64 - 1.0;
        assert!(
            dev.abs() < 0.15,
            "{name}: cucc {} vs xDSL {} cycles",
            cc.cycles,
            xc.cycles
        );
        table.push_str(&format!(
            "{name:22} {:6} {:12} {:12}   {}/{}/{}/{}\n",
            THESIS_CYCLES[r], xc.cycles, cc.cycles, cs.0, cs.1, cs.2, cs.3
        ));
    }
    eprint!("{table}");
}

#[test]
fn sum_and_relu_match_xdsl() {
    let opt = match xdsl_opt() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let a: Vec<f64> = (0..128).map(|i| (i % 13) as f64 * 0.25 - 1.5).collect();
    let b: Vec<f64> = (0..128).map(|i| (i % 7) as f64 * 0.5 - 1.0).collect();
    for (kernel, bufs, op) in [
        ("sum", vec![a.clone(), b.clone(), vec![0.0; 128]], "fadd.d"),
        ("relu", vec![a.clone(), vec![0.0; 128]], "fmax.d"),
    ] {
        let asm = xdsl(&opt, FULL, &format!("{kernel}.mlir"));
        let (xf, xc, xout) = xdsl_run(&asm, &bufs);
        let (p, cc, cout) = cucc_run(kernel, &Options::default(), &bufs);
        assert_eq!(cout, xout, "{kernel}");
        let freps = p.insts.iter().filter(|i| i.mnemonic() == "frep.o").count();
        assert_eq!(
            (n(&cc, "fld"), n(&cc, "fsd"), n(&cc, op), freps),
            (n(&xc, "fld"), n(&xc, "fsd"), n(&xc, op), xf),
            "{kernel}:\nxDSL:\n{asm}\ncucc:\n{}",
            p.asm
        );
        let dev = cc.cycles as f64 / xc.cycles as f64 - 1.0;
        assert!(
            dev.abs() < 0.15,
            "{kernel}: cucc {} vs xDSL {} cycles",
            cc.cycles,
            xc.cycles
        );
        eprintln!(
            "{kernel}: xDSL {} cycles, cucc {} cycles",
            xc.cycles, cc.cycles
        );
    }
}
