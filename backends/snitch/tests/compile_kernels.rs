//! Kernels compiled from IR text and run on the simulator.

use cucc_snitch::compile::{compile_with, Options, Program};
use cucc_snitch::sim::{Counters, Machine, ModelParams};

const TCDM: u32 = 0x1000_0000;

fn module(name: &str) -> cucc_ir::Module {
    let path = format!("{}/tests/kernels/{name}.cuir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    cucc_ir::parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn machine(p: &Program) -> Machine {
    let words = p.encode().unwrap_or_else(|e| panic!("{e}"));
    Machine::new(ModelParams::default(), &words)
}

fn matmul_data() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (0..200).map(|k| 1.0 + (k % 9) as f64 * 0.125).collect();
    let y: Vec<f64> = (0..1000).map(|i| 0.5 - (i % 11) as f64 * 0.0625).collect();
    let z = (0..5)
        .map(|j| (0..200).fold(0.0f64, |acc, k| x[k].mul_add(y[k * 5 + j], acc)))
        .collect();
    (x, y, z)
}

fn run_matmul(opts: &Options) -> (Program, Counters) {
    let m = module("matmul");
    let c = compile_with(&m, "matmul", opts).unwrap_or_else(|e| panic!("{e}"));
    for (name, text) in &c.stages {
        eprintln!("--- {name}\n{text}");
    }
    eprintln!("{}", c.program.asm);
    let p = c.program;
    let (x, y, z) = matmul_data();
    let mut mach = machine(&p);
    let (xa, ya, za) = (TCDM, TCDM + 8 * 200, TCDM + 8 * 1200);
    mach.tcdm.write_f64s(xa, &x).expect("fits");
    mach.tcdm.write_f64s(ya, &y).expect("fits");
    mach.tcdm.write_f64s(za, &[7.0; 5]).expect("fits");
    let counters = p
        .run(&mut mach, &[xa, ya, za], 10_000_000)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(mach.tcdm.read_f64s(za, 5).expect("in bounds"), z);
    (p, counters)
}

#[test]
fn matmul_table_3_2() {
    for (row, opts) in Options::table_3_2() {
        let (p, c) = run_matmul(&opts);
        let n = |m: &str| c.by_mnemonic.get(m).copied().unwrap_or(0);
        let freps = p.insts.iter().filter(|i| i.mnemonic() == "frep.o").count();
        eprintln!(
            "{row}: fp {} int {} fld {} fsd {} fmadd {} frep {} cycles {} occ {:.3}",
            p.fp_regs,
            p.int_regs,
            n("fld"),
            n("fsd"),
            n("fmadd.d"),
            freps,
            c.cycles,
            c.fpu_occupancy()
        );
    }
}
