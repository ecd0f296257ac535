//! Compiling emitted C into a shared object and loading it.

use std::path::Path;
use std::process::Command;

/// The C compiler: `$CC`, else `cc`.
pub fn c_compiler() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".to_string())
}

/// Compiles `source` as `NAME.c` in `dir` into `NAME.so` and loads it.
pub fn compile_and_load(
    dir: &Path,
    name: &str,
    source: &str,
) -> Result<libloading::Library, String> {
    let c = dir.join(format!("{name}.c"));
    let so = dir.join(format!("{name}.so"));
    std::fs::write(&c, source).map_err(|e| format!("cannot write {}: {e}", c.display()))?;
    let cc = c_compiler();
    let out = Command::new(&cc)
        .args(["-std=c11", "-O2", "-shared", "-fPIC", "-o"])
        .arg(&so)
        .arg(&c)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run the C compiler `{cc}`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the C compiler failed on {}:\n{}",
            c.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    // SAFETY: the library is C that cucc just generated; it has no
    // constructors and only defines kernel entries and their globals.
    unsafe { libloading::Library::new(&so) }
        .map_err(|e| format!("cannot load {}: {e}", so.display()))
}
