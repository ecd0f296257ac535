//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

use cucc_frontend::clang::Clang;

/// The files of `dir` ending in `.ext`, sorted.
pub fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

/// The CUDA programs (`*.cu`) of `dir`, sorted.
pub fn cuda_programs(dir: &Path) -> Vec<PathBuf> {
    files_with(dir, "cu")
}

/// cpuify's whole pipeline on `m`, verifying the module after every pass.
pub fn cpuify(m: &mut cucc_ir::Module) -> Result<(), String> {
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    cucc_cpuify::pipeline::run(
        m,
        &cucc_cpuify::pipeline::Options::verifying(),
        &mut remarks,
        &mut |_, _| {},
    )
    .map_err(|e| e.to_string())
}

/// The sample CUDA programs of `frontend/tests/cuda`.
pub fn samples() -> Vec<PathBuf> {
    cuda_programs(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cuda"))
}

/// The clang to test with, or `None` (with a note on stderr) if there is none.
pub fn clang() -> Option<Clang> {
    match Clang::discover() {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}
