//! Every PTX file under `frontend/tests/ptx/` (nvcc's output for the
//! project's CUDA test programs) lowers to IR that verifies and goes
//! through the whole cpuify pipeline and the C emitter.

use std::path::{Path, PathBuf};

/// `tests/ptx/*.ptx` (the root corpus) and `tests/ptx/frontend/*.ptx`
/// (the CUDA frontend's own test programs).
fn ptx_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx");
    let mut out = Vec::new();
    for dir in [root.clone(), root.join("frontend")] {
        let found = std::fs::read_dir(&dir)
            .expect("PTX test data exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"));
        out.extend(found);
    }
    out.sort();
    out
}

#[test]
fn every_file_lowers_verifies_and_cpuifies() {
    let mut failures = Vec::new();
    let files = ptx_files();
    assert!(files.len() >= 48, "expected the generated PTX files");
    for p in &files {
        let text = std::fs::read_to_string(p).expect("readable");
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut m = match cucc_frontend::ptx::lower_ptx(&text, &name) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("lower: {e}"));
                continue;
            }
        };
        if let Err(e) = cucc_ir::verify_module(&m) {
            failures.push(format!("{name}: verify: {e}"));
            continue;
        }
        let mut remarks = cucc_cpuify::remarks::Remarks::default();
        if let Err(e) = cucc_cpuify::pipeline::run(
            &mut m,
            &cucc_cpuify::pipeline::Options::default(),
            &mut remarks,
            &mut |_, _| {},
        ) {
            failures.push(format!("{name}: cpuify: {e}"));
            continue;
        }
        if let Err(e) = cucc_cpuify::emit_c::emit_module(&m) {
            failures.push(format!("{name}: emit_c: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
