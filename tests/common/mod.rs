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
