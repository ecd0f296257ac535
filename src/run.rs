//! `cucc run PROGRAM ARGS...`: runs a program built by nvcc (with
//! `-cudart shared`) on cucc's runtime, by putting cucc's `libcudart.so.13`
//! first on the dynamic loader's search path. The shim libraries live in
//! the same directory under their sonames (`libcublas.so.13`,
//! `libcudnn.so.9`; see `nvcc::runtime_dir`), so a program linked with
//! `-lcublas` or `-lcudnn` loads cucc's instead of NVIDIA's.
//!
//! A program linked with NVIDIA's static runtime (nvcc's default) contains
//! its own copy of the runtime and cannot be redirected; it is recognised
//! by its defined `cudaMalloc` symbol and the user is told to relink.

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
    match links_static_cudart(Path::new(program)) {
        Ok(true) => {
            eprintln!(
                "cucc run: {program} contains NVIDIA's static CUDA runtime (nvcc's default), which cannot be replaced; relink it with `nvcc -cudart shared`"
            );
            return 1;
        }
        Ok(false) => {}
        Err(e) => {
            eprintln!("cucc run: {e}");
            return 1;
        }
    }
    let mut path = OsString::from(rt.as_os_str());
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|v| !v.is_empty()) {
        path.push(":");
        path.push(old);
    }
    let mut cmd = Command::new(program);
    cmd.args(&args[1..]).env("LD_LIBRARY_PATH", path);
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

/// True if the ELF file defines `cudaMalloc` itself (a statically linked
/// CUDA runtime) instead of importing it.
pub fn links_static_cudart(path: &Path) -> Result<bool, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if data.len() < 64 || &data[..4] != b"\x7fELF" {
        return Err(format!("{} is not an ELF executable", path.display()));
    }
    Ok(elf_defines(&data, b"cudaMalloc").unwrap_or(false))
}

/// Whether a 64-bit little-endian ELF image defines `name` in its symbol
/// tables (`.symtab` or `.dynsym`); `None` if the image cannot be read.
fn elf_defines(d: &[u8], name: &[u8]) -> Option<bool> {
    let u16_at = |o: usize| Some(u16::from_le_bytes(d.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(d.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |o: usize| Some(u64::from_le_bytes(d.get(o..o + 8)?.try_into().ok()?));
    if d.get(4) != Some(&2) || d.get(5) != Some(&1) {
        return None; // only ELF64 little-endian
    }
    let shoff = u64_at(0x28)? as usize;
    let shentsize = usize::from(u16_at(0x3a)?);
    let shnum = usize::from(u16_at(0x3c)?);
    for i in 0..shnum {
        let sh = shoff.checked_add(i.checked_mul(shentsize)?)?;
        let kind = u32_at(sh + 4)?;
        if kind != 2 && kind != 11 {
            continue; // SHT_SYMTAB, SHT_DYNSYM
        }
        let off = u64_at(sh + 0x18)? as usize;
        let size = u64_at(sh + 0x20)? as usize;
        let link = u32_at(sh + 0x28)? as usize;
        let entsize = (u64_at(sh + 0x38)? as usize).max(24);
        let strsh = shoff.checked_add(link.checked_mul(shentsize)?)?;
        let stroff = u64_at(strsh + 0x18)? as usize;
        for s in (off..off.checked_add(size)?).step_by(entsize) {
            let name_off = u32_at(s)? as usize;
            let shndx = u16_at(s + 6)?;
            let start = stroff.checked_add(name_off)?;
            let end = start + d.get(start..)?.iter().position(|&b| b == 0)?;
            if &d[start..end] == name && shndx != 0 {
                return Some(true);
            }
        }
    }
    Some(false)
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
        assert!(links_static_cudart(&f).unwrap_err().contains("not an ELF"));
        // This test binary neither defines nor imports cudaMalloc.
        let me = std::env::current_exe().expect("exe");
        assert_eq!(links_static_cudart(&me), Ok(false));
    }
}
