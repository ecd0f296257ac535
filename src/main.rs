//! `cucc`: runs CUDA programs on CPUs.
//!
//! The command line follows nvcc's where it compiles code; cucc's own tools
//! are subcommands named by the first argument.

mod ir_run;
mod jit;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cucc <command> [options]

commands:
  ir-run FILE.cuir [--kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES] --arg SPEC...]
                      run a kernel of an IR file on the reference interpreter and,
                      translated to C, on the CPU; print the buffers and compare them
                      (without --kernel, the file's `; run:` lines are used)
  ir-run --examples DIR
                      the same for every .cuir file of DIR
  ir-verify FILE.cuir check an IR file and print it back in canonical form
  --emit=ir [-I DIR] [-D NAME[=V]] [-std=STD] [--cuda-gpu-arch=ARCH] FILE.cu
                      lower the device side of a CUDA file and print its IR

ir-run options:
  --arg SPEC          TYPE=VALUE for a scalar; TYPE[N], TYPE[N]=iota, TYPE[N]=V or
                      TYPE[N]=a,b,... for a buffer (TYPE: i8..i64, u8..u64, f32, f64)
  --no-compile        only run the interpreter
  --show N            print the first N elements of each buffer (default 8)

  --version, --help
";

fn main() -> ExitCode {
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
            println!("cucc {}", env!("CARGO_PKG_VERSION"));
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
        "--emit=ir" => emit_ir(&args[1..]),
        other => {
            eprintln!(
                "cucc: `{other}` is not a command; compiling CUDA sources is not available in this version\n\n{USAGE}"
            );
            ExitCode::from(2)
        }
    }
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

fn emit_ir(args: &[String]) -> ExitCode {
    let mut opts = cucc_frontend::cuda::LowerOptions::default();
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let take = |it: &mut std::slice::Iter<'_, String>, a: &str, flag: &str| -> Option<String> {
            if a == flag {
                it.next().cloned()
            } else {
                a.strip_prefix(flag).map(str::to_string)
            }
        };
        if a.starts_with("-I") {
            match take(&mut it, a, "-I") {
                Some(d) => opts.include_dirs.push(d.into()),
                None => return usage_error("-I needs a directory"),
            }
        } else if a.starts_with("-D") {
            match take(&mut it, a, "-D") {
                Some(d) => opts.defines.push(d),
                None => return usage_error("-D needs a name"),
            }
        } else if let Some(s) = a.strip_prefix("-std=") {
            opts.std = Some(s.to_string());
        } else if let Some(s) = a.strip_prefix("--cuda-gpu-arch=") {
            opts.gpu_arch = Some(s.to_string());
        } else if a.starts_with('-') {
            return usage_error(&format!("unknown option {a}"));
        } else if file.replace(a.clone()).is_some() {
            return usage_error("only one input file is supported");
        }
    }
    let Some(file) = file else {
        return usage_error("no input file");
    };
    match cucc_frontend::cuda::lower_file(std::path::Path::new(&file), &opts) {
        Ok(m) => {
            print!("{}", cucc_ir::print_module(&m));
            ExitCode::SUCCESS
        }
        Err(d) => {
            eprint!("{}", d.render());
            ExitCode::FAILURE
        }
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("cucc --emit=ir: {msg}");
    ExitCode::from(2)
}
