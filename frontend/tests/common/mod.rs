//! Helpers shared by the integration tests.

use std::path::PathBuf;

use cucc_frontend::clang::Clang;

/// The sample CUDA programs, as paths relative to the crate directory.
pub fn samples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cuda");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/cuda exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    out.sort();
    out
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
