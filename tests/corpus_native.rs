//! Every self-checking program of `tests/cuda/` compiled by `cucc` as nvcc
//! would compile it, linked against cucc's runtime, and run natively: each
//! must print `PASS NAME` and exit 0. A `// cucc-flags: ...` line among a
//! program's first lines adds its own flags (e.g. `-lcublas`).

#[allow(dead_code)]
mod common;
use common::{build_all_libraries, program_flags};
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

#[test]
fn corpus_programs_build_and_pass() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    build_all_libraries();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(root.join("tests/cuda"))
        .expect("tests/cuda")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    programs.sort();
    assert!(
        programs.len() >= 30,
        "the corpus has {} programs",
        programs.len()
    );
    let out_dir = std::env::temp_dir().join(format!("cucc-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("tmp");
    let queue = Arc::new(Mutex::new(programs));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let queue = Arc::clone(&queue);
            let failures = Arc::clone(&failures);
            let out_dir = out_dir.clone();
            std::thread::spawn(move || loop {
                let Some(src) = queue.lock().map(|mut q| q.pop()).ok().flatten() else {
                    return;
                };
                let name = src
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let exe = out_dir.join(&name);
                let build = Command::new(env!("CARGO_BIN_EXE_cucc"))
                    .arg("-O2")
                    .arg("--verify-each")
                    .arg(&src)
                    .arg("-o")
                    .arg(&exe)
                    .args(program_flags(&src))
                    .output()
                    .expect("run cucc");
                if !build.status.success() {
                    let msg = format!(
                        "{name}: build failed:\n{}",
                        String::from_utf8_lossy(&build.stderr)
                    );
                    failures.lock().expect("lock").push(msg);
                    continue;
                }
                let run = Command::new(&exe).output().expect("run program");
                let stdout = String::from_utf8_lossy(&run.stdout);
                if !run.status.success() || !stdout.contains(&format!("PASS {name}")) {
                    let msg = format!(
                        "{name}: run failed ({}):\n{}{}",
                        run.status,
                        stdout,
                        String::from_utf8_lossy(&run.stderr)
                    );
                    failures.lock().expect("lock").push(msg);
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker");
    }
    let failures = failures.lock().expect("lock");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
