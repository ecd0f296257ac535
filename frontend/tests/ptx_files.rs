//! Every PTX file under `frontend/tests/ptx/` (nvcc's output for the
//! project's CUDA test programs) lowers to IR that verifies and goes
//! through the whole cpuify pipeline and the C emitter, and the C compiles.

#[allow(dead_code)]
mod common;
use std::path::{Path, PathBuf};

/// `tests/ptx/*.ptx` (the root corpus), `tests/ptx/frontend/*.ptx` (the
/// CUDA frontend's own test programs) and `tests/ptx/rodinia/*.ptx` (the
/// Rodinia-derived applications).
fn ptx_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx");
    let mut out = Vec::new();
    for dir in [root.clone(), root.join("frontend"), root.join("rodinia")] {
        out.extend(common::files_with(&dir, "ptx"));
    }
    out.sort();
    out
}

#[test]
fn every_file_lowers_verifies_and_cpuifies() {
    let mut failures = Vec::new();
    let files = ptx_files();
    assert!(files.len() >= 59, "expected the generated PTX files");
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
        if let Err(e) = common::cpuify(&mut m) {
            failures.push(format!("{name}: cpuify: {e}"));
            continue;
        }
        let c = match cucc_cpuify::emit_c::emit_module(&m) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: emit_c: {e}"));
                continue;
            }
        };
        // The emitted C compiles (the runtime hooks come at link time).
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ptx_files");
        std::fs::create_dir_all(&dir).expect("tmpdir");
        let src = dir.join(format!("{name}.c"));
        std::fs::write(&src, &c.c).expect("write C");
        let out = std::process::Command::new("cc")
            .args(["-std=c11", "-O0", "-c", "-o"])
            .arg(dir.join(format!("{name}.o")))
            .arg(&src)
            .output()
            .expect("run cc");
        if !out.status.success() {
            failures.push(format!(
                "{name}: cc: {}",
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .take(5)
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
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
