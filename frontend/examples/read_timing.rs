//! Measures how long the selective reader takes on a CUDA file's JSON AST.
//!
//! `cargo run -p cucc-frontend --example read_timing -- FILE.cu [--device-decls]`

use std::path::PathBuf;
use std::time::Instant;

use cucc_frontend::ast::{ReadOptions, TranslationUnit};
use cucc_frontend::clang::{include_dir, Clang, ClangOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let src = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: read_timing FILE.cu")?,
    );
    let clang = Clang::discover()?;
    let t0 = Instant::now();
    let out = clang.ast_json(&src, &ClangOptions::default())?;
    let clang_time = t0.elapsed();
    let opts = ReadOptions {
        main_file: src.display().to_string(),
        keep_dirs: vec![include_dir().display().to_string()],
        keep_device_decls: std::env::args().any(|a| a == "--device-decls"),
    };
    let t1 = Instant::now();
    let tu = TranslationUnit::read(out.stdout, &opts)?;
    let read_time = t1.elapsed();
    eprintln!(
        "{}: JSON {:.1} MB, clang {:.2} s, read {:.3} s, kept {} decls, skipped {}, kernels {}",
        src.display(),
        tu.stats.bytes as f64 / 1e6,
        clang_time.as_secs_f64(),
        read_time.as_secs_f64(),
        tu.stats.kept,
        tu.stats.skipped,
        tu.kernels().len()
    );
    Ok(())
}
