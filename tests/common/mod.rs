//! Helpers shared by the driver's integration tests.

use std::path::{Path, PathBuf};
use std::process::Output;

/// The flags of a `// cucc-flags: ...` line among a program's first five
/// lines (the shim libraries it links, such as `-lcublas`).
pub fn program_flags(src: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(src).unwrap_or_default();
    text.lines()
        .take(5)
        .find_map(|l| l.trim().strip_prefix("// cucc-flags:"))
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// NVIDIA's nvcc: `$CUCC_NVCC`, else the PyPI wheel `scripts/setup.sh`
/// installs in `<repo>/.venv` (the newest if there are several).
pub fn find_nvcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CUCC_NVCC").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(".venv/lib"))
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path().join("site-packages/nvidia/cu13/bin/nvcc"))
        .filter(|p| p.exists())
        .collect();
    found.sort();
    found.pop()
}

/// A process's stdout and stderr, for assertion messages.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Builds the runtime and the driver-API library the programs load (for
/// the simulated-device tests, which run programs directly).
pub fn build_runtime() {
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "cucc-runtime", "-p", "cucc-libcuda"])
        .current_dir(root())
        .status()
        .expect("cargo build runtime");
    assert!(status.success());
}

/// A fresh scratch directory `cucc-<what>-<tag>-<pid>`.
pub fn fresh_dir(what: &str, tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("cucc-{what}-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp");
    d
}

/// Runs `exe` (directly, or under `cucc run`) with `env`, the device
/// variables cleared first and the JIT cache in `cache`.
pub fn run_with_devices(
    exe: &std::path::Path,
    under_cucc: bool,
    cache: &std::path::Path,
    env: &[(&str, &str)],
) -> std::process::Output {
    let mut cmd = if under_cucc {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_cucc"));
        c.arg("run").arg(exe);
        c
    } else {
        std::process::Command::new(exe)
    };
    cmd.env("CUCC_CACHE_DIR", cache)
        .env("CUCC_NUM_THREADS", "2")
        .env_remove("CUCC_DEVICE")
        .env_remove("CUCC_DEVICES");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run program")
}
