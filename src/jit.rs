//! Compiling emitted C into a shared object and loading it.

use cucc_cpuify::emit_c::{compile_c, CompileOptions, CpuTarget, OutputKind};
use std::path::Path;

/// Compiles `source` as `NAME.c` in `dir` into `NAME.so`, as the runtime's
/// JIT would (for the target `CUCC_CPU_ARCH` names), and loads it.
pub fn compile_and_load(
    dir: &Path,
    name: &str,
    source: &str,
) -> Result<libloading::Library, String> {
    let c = dir.join(format!("{name}.c"));
    let so = dir.join(format!("{name}.so"));
    std::fs::write(&c, source).map_err(|e| format!("cannot write {}: {e}", c.display()))?;
    let target = CpuTarget::from_env()?;
    compile_c(
        &c,
        &so,
        &CompileOptions::new(OutputKind::SharedObject, target),
    )
    .map_err(|e| format!("{}: {e}", c.display()))?;
    // SAFETY: the library is C that cucc just generated; it has no
    // constructors and only defines kernel entries and their globals.
    unsafe { libloading::Library::new(&so) }
        .map_err(|e| format!("cannot load {}: {e}", so.display()))
}
