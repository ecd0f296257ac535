//! `cucc`: runs CUDA programs on CPUs.
//!
//! The command line follows nvcc's where it compiles code; cucc's own tools
//! are subcommands named by the first argument.

mod device;
mod ir_run;
mod jit;
mod nvcc;
mod racer_dump;
mod run;
mod scratch;
mod toolkit;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cucc [nvcc options] FILES...     compile and link CUDA programs, as nvcc does
       cucc <command> [options]

nvcc-compatible options (the common ones): -c -o FILE -E -M -MD -MF FILE -I DIR -isystem DIR
  -D NAME[=V] -U NAME -L DIR -l LIB -O0..3 -g -G -lineinfo -std=STD -x cu -Xcompiler A,B
  -Xlinker A,B --shared -ccbin CC --use_fast_math -arch/-gencode/-code (set __CUDA_ARCH__)
  -Xptxas and other GPU-only options (accepted, ignored; -v says so) -rdc=true -v --dryrun
  -cuda (host side to FILE.cu.cpp.ii); NVCC_PREPEND_FLAGS / NVCC_APPEND_FLAGS are honoured
cucc options: --emit=ir (print the kernels' IR) --cpuify=all|none|PASS,... --print-ir-after=PASS
  --print-ir-after-all --remarks --check-barriers --verify-each (the IR verifier after every
  pass) --keep --device-ir=FILE (take the device half from an IR file instead of the .cu
  file's kernels) --cpu-arch=native|portable|MARCH (the CPU the device code is compiled for;
  default $CUCC_CPU_ARCH, else native)
  --racer-dump[=DIR|FILE] FILE.cu [--racer-launch=GRID,BLOCK] [--racer-arg=POS=VALUE]...
                      write each kernel's RACER stream graph, placed on one block, as text
                      and SVG (DIR, default `.`: FILE.KERNEL.racer.txt/.svg; FILE: all text
                      there, SVGs beside it); the graph is built for a nominal launch
                      (default 1,64; integer arguments default to the thread count)

commands:
  install --prefix DIR [--link]
                      lay out a CUDA-toolkit-shaped directory (bin/nvcc, include/,
                      lib64/, version.json) for builds that look for CUDA there
                      (--link: links to this cucc's files instead of copies)
  run PROGRAM [ARGS]  run a program built by nvcc -cudart shared on cucc's runtime
  ir-run FILE.cuir [--kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] --arg SPEC...]
                      run a kernel of an IR file on the reference interpreter and,
                      translated to C, on the CPU; print the buffers and compare them
                      (without --kernel, the file's `; run:` lines are used)
  ir-run --examples DIR
                      the same for every .cuir file of DIR
  ir-verify FILE.cuir check an IR file and print it back in canonical form

ir-run options:
  --arg SPEC          TYPE=VALUE for a scalar; TYPE[N], TYPE[N]=iota, TYPE[N]=V or
                      TYPE[N]=a,b,... for a buffer (TYPE: i8..i64, u8..u64, f32, f64)
  --no-compile        only run the interpreter
  --show N            print the first N elements of each buffer (default 8)

  --version, --help
";

fn main() -> ExitCode {
    toolkit::adopt_invoked_root();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    match cmd.as_str() {
        "--help" | "-h" | "help" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        "--version" | "-V" => {
            print!("{}", version_banner());
            ExitCode::SUCCESS
        }
        "ir-run" => match ir_run::parse_options(&args[1..]) {
            Ok(o) => {
                if ir_run::main(&o) {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                eprintln!("cucc ir-run: {e}");
                ExitCode::from(2)
            }
        },
        "ir-verify" => ir_verify(&args[1..]),
        _ if args
            .iter()
            .any(|a| a == "--racer-dump" || a.starts_with("--racer-dump=")) =>
        {
            match racer_dump::parse(&args) {
                Ok(o) if racer_dump::main(&o) => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("cucc: {e}");
                    ExitCode::from(2)
                }
            }
        }
        "install" => ExitCode::from(toolkit::install_main(&args[1..]).clamp(0, 255) as u8),
        "run" => ExitCode::from(run::main(&args[1..]).clamp(0, 255) as u8),
        _ => ExitCode::from(nvcc::main(&args).clamp(0, 255) as u8),
    }
}

/// What `--version` prints. Build systems identify nvcc by the phrase
/// naming NVIDIA's driver and read the toolkit version from `V<x.y.z>`;
/// both are here, in sentences that say what cucc is.
fn version_banner() -> String {
    let v = toolkit::layout::CUDA_VERSION;
    let release = v.rsplit_once('.').map_or(v, |(r, _)| r);
    format!(
        "cucc {}: runs CUDA programs on CPUs; command-line compatible with nvcc: NVIDIA (R) Cuda compiler driver\n\
         Cuda compilation tools, release {release}, V{v} (cucc's CPU toolkit; not NVIDIA's)\n",
        env!("CARGO_PKG_VERSION")
    )
}

fn ir_verify(args: &[String]) -> ExitCode {
    let [file] = args else {
        eprintln!("usage: cucc ir-verify FILE.cuir");
        return ExitCode::from(2);
    };
    let source = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let module = match cucc_ir::parse_module(&source) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{file}:{e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = cucc_ir::verify_module(&module) {
        eprintln!("{file}: invalid IR:\n{e}");
        return ExitCode::FAILURE;
    }
    print!("{}", cucc_ir::print_module(&module));
    ExitCode::SUCCESS
}
