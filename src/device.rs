//! The device half of a `.cu` file: its kernels as IR.

use cucc_frontend::clang::ClangOptions;
use cucc_frontend::cuda::{lower_file, LowerOptions};
use cucc_ir::Module;
use std::path::Path;

/// Lowers the kernels (and the device functions and variables they use) of
/// `path` to IR; errors come back rendered in clang's style.
pub fn lower(path: &Path, opts: &ClangOptions, relocatable: bool) -> Result<Module, String> {
    let lopts = LowerOptions {
        include_dirs: opts.include_dirs.clone(),
        defines: opts
            .extra
            .iter()
            .filter_map(|a| a.to_str())
            .filter_map(|a| a.strip_prefix("-D"))
            .map(String::from)
            .collect(),
        std: opts.std.clone(),
        gpu_arch: opts.gpu_arch.clone(),
        relocatable,
        extra: search_dirs(&opts.extra),
    };
    lower_file(path, &lopts).map_err(|d| d.to_string().trim_end().to_string())
}

/// The `-isystem DIR` and `-iquote DIR` pairs of `extra`.
fn search_dirs(extra: &[std::ffi::OsString]) -> Vec<std::ffi::OsString> {
    let mut out = Vec::new();
    let mut it = extra.iter();
    while let Some(a) = it.next() {
        if a == "-isystem" || a == "-iquote" {
            if let Some(dir) = it.next() {
                out.push(a.clone());
                out.push(dir.clone());
            }
        }
    }
    out
}
