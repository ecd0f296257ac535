//! Test support: build a C program from `tests/c/` against the built
//! `libcudart.so.13` (through the soname, as programs built against NVIDIA's
//! library link) in a temporary directory, and run it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The cdylib cargo built next to this test binary.
pub fn runtime_library() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    [
        deps.parent()?.join("libcucc_runtime.so"),
        deps.join("libcucc_runtime.so"),
    ]
    .into_iter()
    .find(|p| p.exists())
}

/// Runs a command that must succeed; returns its stdout and stderr together.
pub fn run(cmd: &mut Command) -> String {
    let out = output(cmd);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// Runs a command; panics only if it cannot start.
pub fn output(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// A program built from `tests/c/<name>.c` in its own temporary directory.
pub struct Program {
    /// The temporary directory (removed on drop).
    pub dir: PathBuf,
    /// The executable.
    pub exe: PathBuf,
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Builds `tests/c/<name>.c` linked with `-l:libcudart.so.13` and `extra`
/// linker arguments.
pub fn build(name: &str, extra: &[&str]) -> Program {
    let lib = runtime_library().expect("libcucc_runtime.so next to the test binary");
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "cucc-runtime-{name}-{}-{}",
        std::process::id(),
        BUILDS.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let link = dir.join("libcudart.so.13");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&lib, &link).expect("symlink");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join(name);
    run(
        Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
            .arg(manifest.join(format!("tests/c/{name}.c")))
            .arg("-I")
            .arg(manifest.join("include"))
            .arg("-std=c11")
            .arg("-Wall")
            .arg("-o")
            .arg(&exe)
            .arg(format!("-L{}", dir.display()))
            .arg("-l:libcudart.so.13")
            .arg(format!("-Wl,-rpath,{}", dir.display()))
            .args(extra),
    );
    Program { dir, exe }
}
