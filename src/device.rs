//! The device half of a `.cu` file: its kernels as IR.

use cucc_frontend::clang::ClangOptions;
use cucc_ir::Module;
use std::path::Path;

/// Lowers the kernels of `path` to IR.
///
/// A translation unit without kernels gives an empty module. Lowering of
/// kernel bodies is the frontend's job and is not available in this version:
/// a file with kernels is reported as such.
pub fn lower(path: &Path, opts: &ClangOptions) -> Result<Module, String> {
    let tu = cucc_frontend::read_cuda(path, opts).map_err(|e| e.to_string())?;
    let kernels = tu.kernels();
    if kernels.is_empty() {
        let mut m = Module::new();
        m.file_id(&path.display().to_string());
        return Ok(m);
    }
    Err(format!(
        "{}: error: translating kernels is not available in this version of cucc ({} kernel(s) found)",
        path.display(),
        kernels.len()
    ))
}
