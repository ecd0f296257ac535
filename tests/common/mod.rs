//! Helpers shared by the driver's integration tests.

use std::path::Path;

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
