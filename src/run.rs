//! `cucc run PROGRAM ARGS...`: runs a program built by nvcc (with
//! `-cudart shared`) on cucc's runtime, by putting cucc's `libcudart.so.13`
//! first on the dynamic loader's search path. The shim libraries live in
//! the same directory under their sonames (`libcublas.so.13`,
//! `libcudnn.so.9`; see `nvcc::runtime_dir`), so a program linked with
//! `-lcublas` or `-lcudnn` loads cucc's instead of NVIDIA's.
//!
//! A program linked with NVIDIA's static runtime (nvcc's default) contains
//! its own copy of the runtime, which works only on NVIDIA's driver. It is
//! recognised (see [`inspect`]) and cucc's runtime is preloaded: its
//! load-time constructor redirects the copy's entry points to its own
//! (`runtime/src/static_cudart.rs`). That needs the program's symbol table;
//! a stripped one is refused with advice (`CUCC_RUN_STATIC=1` runs it
//! anyway, on NVIDIA's runtime and cucc's `libcuda.so.1`).
//!
//! The program's kernels come from the PTX in its fat binaries, compiled by
//! the runtime at first use and cached (`docs/jit.md`).

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// Runs `args[0]` with `args[1..]`; returns an exit code only on failure to
/// start it (on success the process image is replaced).
pub fn main(args: &[String]) -> i32 {
    let Some(program) = args.first() else {
        eprintln!("usage: cucc run PROGRAM [ARGS...]");
        return 2;
    };
    let rt = match crate::nvcc::runtime_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let elf = match inspect(Path::new(program)) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cucc run: {e}");
            return 1;
        }
    };
    // `CUCC_RUN_STATIC=1` runs it anyway on cucc's libcuda.so.1, for
    // investigating what the static runtime needs (docs/driver-api.md).
    let try_static = std::env::var_os("CUCC_RUN_STATIC").is_some_and(|v| !v.is_empty() && v != "0");
    if elf.static_cudart && !elf.symbols && !try_static {
        eprintln!(
            "cucc run: {program} contains NVIDIA's static CUDA runtime (nvcc's default) but is stripped: without its symbol table cucc cannot find that runtime's entry points to put its own in their place (see docs/driver-api.md); rebuild it without stripping, or with `nvcc -cudart shared`"
        );
        return 1;
    }
    let mut path = OsString::from(rt.as_os_str());
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|v| !v.is_empty()) {
        path.push(":");
        path.push(old);
    }
    let mut cmd = Command::new(program);
    cmd.args(&args[1..]).env("LD_LIBRARY_PATH", path);
    if elf.rpath || elf.static_cudart {
        // DT_RPATH is searched before LD_LIBRARY_PATH and may name NVIDIA's
        // library directory: preload cucc's runtime, whose soname then
        // satisfies the program's `libcudart.so.13`. A program with the
        // static runtime does not load a runtime library at all: preloaded,
        // cucc's redirects the program's copy to itself.
        let mut preload = OsString::from(rt.join("libcudart.so.13").as_os_str());
        if let Some(old) = std::env::var_os("LD_PRELOAD").filter(|v| !v.is_empty()) {
            preload.push(":");
            preload.push(old);
        }
        cmd.env("LD_PRELOAD", preload);
    }
    exec(cmd, program)
}

#[cfg(unix)]
fn exec(mut cmd: Command, program: &str) -> i32 {
    use std::os::unix::process::CommandExt;
    let err = cmd.exec();
    eprintln!("cucc run: cannot run {program}: {err}");
    1
}

#[cfg(not(unix))]
fn exec(mut cmd: Command, program: &str) -> i32 {
    match cmd.status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("cucc run: cannot run {program}: {e}");
            1
        }
    }
}

/// What `cucc run` decides from a program's ELF image.
struct Inspection {
    /// It carries NVIDIA's static runtime.
    static_cudart: bool,
    /// It has a DT_RPATH (searched before `LD_LIBRARY_PATH`).
    rpath: bool,
    /// It has a static symbol table (`.symtab`): it is not stripped.
    symbols: bool,
}

/// Reads the program's ELF image. It carries NVIDIA's static runtime if it
/// defines `cudaMalloc`, or (stripped) has nvcc's fat binary segment but
/// imports nothing of the CUDA runtime.
fn inspect(path: &Path) -> Result<Inspection, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !cucc_elf::is_elf(&data) {
        return Err(format!("{} is not an ELF executable", path.display()));
    }
    let unknown = Inspection {
        static_cudart: false,
        rpath: false,
        symbols: false,
    };
    // An image cucc cannot read is run as it is; the loader will judge it.
    let Ok(Some(elf)) = cucc_elf::Elf::parse(&data) else {
        return Ok(unknown);
    };
    let (Ok(symbols), Ok(rpath)) = (elf.symbols(), elf.has_rpath()) else {
        return Ok(unknown);
    };
    let defines = |name: &[u8]| symbols.iter().any(|&(n, def)| n == name && def);
    let has_fatbins = elf.section_names().any(|n| n == b".nvFatBinSegment");
    // A shared-runtime program imports the runtime's entry points (a
    // host-only one may import only `__cudaUnregisterFatBinary` and the API).
    let imports_runtime = symbols
        .iter()
        .any(|&(n, def)| !def && (n.starts_with(b"cuda") || n.starts_with(b"__cuda")));
    let has_symtab = elf.section_names().any(|n| n == b".symtab");
    Ok(Inspection {
        static_cudart: defines(b"cudaMalloc") || (has_fatbins && !imports_runtime),
        rpath,
        symbols: has_symtab,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_elf_is_an_error() {
        let dir = std::env::temp_dir().join(format!("cucc-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp");
        let f = dir.join("notelf");
        std::fs::write(&f, b"#!/bin/sh\n").expect("write");
        assert!(inspect(&f).err().is_some_and(|e| e.contains("not an ELF")));
        // This test binary neither defines nor imports cudaMalloc.
        let me = std::env::current_exe().expect("exe");
        let me = inspect(&me).expect("an ELF");
        assert!(!me.static_cudart);
    }
}
