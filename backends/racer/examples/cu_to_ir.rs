//! Prints cucc-frontend's IR for a CUDA file: how
//! `tests/kernels/mandelbrot.cuir` was made
//! (`cargo run -p cucc-racer --example cu_to_ir -- mandelbrot.cu`, run in
//! `tests/kernels` so the file table names the file alone).

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: cu_to_ir FILE.cu");
        return ExitCode::FAILURE;
    };
    let opts = cucc_frontend::cuda::LowerOptions::default();
    match cucc_frontend::cuda::lower_file(std::path::Path::new(&path), &opts) {
        Ok(m) => {
            print!("{}", cucc_ir::print_module(&m));
            ExitCode::SUCCESS
        }
        Err(d) => {
            eprintln!("{d}");
            ExitCode::FAILURE
        }
    }
}
