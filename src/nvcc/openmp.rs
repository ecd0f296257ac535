//! OpenMP in the host half of `.cu` files.
//!
//! The host half is compiled by clang, whose `-fopenmp` code calls the LLVM
//! OpenMP runtime (`__kmpc_*`), not GCC's libgomp. When `-Xcompiler -fopenmp`
//! reaches the link cucc drives, the program is linked against clang's
//! `libomp` instead of libgomp: it also implements libgomp's `GOMP_*` entry
//! points, so objects compiled by GCC with `-fopenmp` run on it too.

use cucc_frontend::clang::Clang;
use std::path::PathBuf;
use std::process::Command;

/// Whether a host compiler flag turns on OpenMP.
pub fn is_openmp_flag(flag: &str) -> bool {
    flag == "-fopenmp" || flag.starts_with("-fopenmp=")
}

/// clang's `libomp.so`: `lib/` two levels above clang's resource directory
/// (`/usr/lib/llvm-16/lib/clang/16` -> `/usr/lib/llvm-16/lib/libomp.so`).
pub fn libomp() -> Option<PathBuf> {
    let clang = Clang::discover().ok()?;
    let out = Command::new(&clang.path)
        .arg("-print-resource-dir")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let lib = dir.parent()?.parent()?.join("libomp.so");
    lib.is_file().then_some(lib)
}
