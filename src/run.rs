//! `cucc run PROGRAM ARGS...`: runs a program built by nvcc (with
//! `-cudart shared`) on cucc's runtime, by putting cucc's `libcudart.so.13`
//! first on the dynamic loader's search path. The shim libraries live in
//! the same directory under their sonames (`libcublas.so.13`,
//! `libcudnn.so.9`; see `nvcc::runtime_dir`), so a program linked with
//! `-lcublas` or `-lcudnn` loads cucc's instead of NVIDIA's.
//!
//! A program linked with NVIDIA's static runtime (nvcc's default) contains
//! its own copy of the runtime and cannot be redirected; it is recognised
//! (see [`inspect`]) and the user is told to relink.
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
    if elf.static_cudart {
        eprintln!(
            "cucc run: {program} contains NVIDIA's static CUDA runtime (nvcc's default), which cannot be replaced; relink it with `nvcc -cudart shared`"
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
    if elf.rpath {
        // DT_RPATH is searched before LD_LIBRARY_PATH and may name NVIDIA's
        // library directory: preload cucc's runtime, whose soname then
        // satisfies the program's `libcudart.so.13`.
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
}

/// Reads the program's ELF image. It carries NVIDIA's static runtime if it
/// defines `cudaMalloc`, or (stripped) has nvcc's fat binary segment but
/// imports nothing of the CUDA runtime.
fn inspect(path: &Path) -> Result<Inspection, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if data.len() < 64 || &data[..4] != b"\x7fELF" {
        return Err(format!("{} is not an ELF executable", path.display()));
    }
    let Some(elf) = read_elf(&data) else {
        return Ok(Inspection {
            static_cudart: false,
            rpath: false,
        });
    };
    let defines = |name: &[u8]| elf.symbols.iter().any(|(n, def)| n == name && *def);
    let has_fatbins = elf.sections.iter().any(|n| n == b".nvFatBinSegment");
    // A shared-runtime program imports the runtime's entry points (a
    // host-only one may import only `__cudaUnregisterFatBinary` and the API).
    let imports_runtime = elf
        .symbols
        .iter()
        .any(|(n, def)| !*def && (n.starts_with(b"cuda") || n.starts_with(b"__cuda")));
    Ok(Inspection {
        static_cudart: defines(b"cudaMalloc") || (has_fatbins && !imports_runtime),
        rpath: elf.rpath,
    })
}

/// What `cucc run` needs of an ELF image: section names, symbols
/// (name, defined) of `.symtab` and `.dynsym`, and whether `.dynamic` has
/// a DT_RPATH.
struct Elf {
    sections: Vec<Vec<u8>>,
    symbols: Vec<(Vec<u8>, bool)>,
    rpath: bool,
}

/// Reads a 64-bit little-endian ELF image; `None` if it cannot be read.
fn read_elf(d: &[u8]) -> Option<Elf> {
    let u16_at = |o: usize| Some(u16::from_le_bytes(d.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(d.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(d.get(o..o + 8)?.try_into().ok()?));
    let c_str = |o: usize| -> Option<Vec<u8>> {
        let rest = d.get(o..)?;
        Some(rest[..rest.iter().position(|&b| b == 0)?].to_vec())
    };
    if d.get(4) != Some(&2) || d.get(5) != Some(&1) {
        return None; // only ELF64 little-endian
    }
    let shoff = u64_at(0x28)? as usize;
    let shentsize = usize::from(u16_at(0x3a)?);
    let shnum = usize::from(u16_at(0x3c)?);
    let shstrndx = usize::from(u16_at(0x3e)?);
    let section = |i: usize| shoff.checked_add(i.checked_mul(shentsize)?);
    let names_off = u64_at(section(shstrndx)? + 0x18)? as usize;
    let mut elf = Elf {
        sections: Vec::new(),
        symbols: Vec::new(),
        rpath: false,
    };
    for i in 0..shnum {
        let sh = section(i)?;
        elf.sections
            .push(c_str(names_off.checked_add(u32_at(sh)? as usize)?)?);
        let kind = u32_at(sh + 4)?;
        if kind == 6 {
            // SHT_DYNAMIC: (tag, value) pairs; DT_RPATH is 15.
            let off = u64_at(sh + 0x18)? as usize;
            let size = u64_at(sh + 0x20)? as usize;
            for e in (off..off.checked_add(size)?).step_by(16) {
                elf.rpath |= u64_at(e)? == 15;
            }
            continue;
        }
        if kind != 2 && kind != 11 {
            continue; // SHT_SYMTAB, SHT_DYNSYM
        }
        let off = u64_at(sh + 0x18)? as usize;
        let size = u64_at(sh + 0x20)? as usize;
        let link = u32_at(sh + 0x28)? as usize;
        let entsize = (u64_at(sh + 0x38)? as usize).max(24);
        let stroff = u64_at(section(link)? + 0x18)? as usize;
        for s in (off..off.checked_add(size)?).step_by(entsize) {
            let name = c_str(stroff.checked_add(u32_at(s)? as usize)?)?;
            let shndx = u16_at(s + 6)?;
            elf.symbols.push((name, shndx != 0));
        }
    }
    Some(elf)
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
