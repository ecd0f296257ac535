//! Finding and driving clang in CUDA device mode.
//!
//! Discovery order: the `CUCC_CLANG` environment variable (must name a clang
//! whose major version is at least 16), then `clang-16` on `PATH`, then
//! `clang` on `PATH` if its major version is at least 16.
//!
//! cucc's own CUDA headers live in `frontend/include`; [`include_dir`] finds
//! them through `CUCC_INCLUDE_DIR` or, by default, relative to this crate's
//! source directory.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{FrontendError, Result};

/// The oldest clang major version whose CUDA mode and JSON AST cucc supports.
pub const MIN_CLANG_MAJOR: u32 = 16;

/// The CUDA SDK version clang is told to assume: it selects the
/// `__cudaPushCallConfiguration` launch protocol for `<<<>>>` (clang 16 knows
/// SDK versions up to 11.8 for this purpose).
pub const ASSUMED_SDK_VERSION: &str = "11.8";

/// The GPU architecture used when the caller gives none.
pub const DEFAULT_GPU_ARCH: &str = "sm_70";

/// A clang binary that cucc can drive.
#[derive(Clone, Debug)]
pub struct Clang {
    /// Path or command name of the binary.
    pub path: PathBuf,
    /// Its major version.
    pub major: u32,
}

/// Which side of a CUDA translation unit clang compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CudaSide {
    /// `--cuda-device-only`.
    Device,
    /// `--cuda-host-only`.
    Host,
}

/// User options that reach clang.
#[derive(Clone, Debug, Default)]
pub struct ClangOptions {
    /// `-I` directories, searched after cucc's include directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions, as `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// `--cuda-gpu-arch`, e.g. `sm_70`; [`DEFAULT_GPU_ARCH`] when `None`.
    pub gpu_arch: Option<String>,
    /// `-std=`, e.g. `c++17`.
    pub std: Option<String>,
    /// Further arguments passed verbatim.
    pub extra: Vec<OsString>,
}

/// What one clang run produced.
#[derive(Debug)]
pub struct ClangOutput {
    /// Standard output (the JSON AST for [`Clang::ast_json`]).
    pub stdout: String,
    /// Standard error: clang's warnings (errors make the run fail instead).
    pub stderr: String,
}

/// The directory holding cucc's CUDA headers: `CUCC_INCLUDE_DIR` if set,
/// else `include/` in this crate's source directory.
pub fn include_dir() -> PathBuf {
    match std::env::var_os("CUCC_INCLUDE_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("include"),
    }
}

/// Parses the major version out of `clang --version` output.
pub fn parse_major_version(version_text: &str) -> Option<u32> {
    let rest = &version_text[version_text.find("clang version ")? + "clang version ".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

fn probe(candidate: &Path) -> std::result::Result<u32, String> {
    let out = Command::new(candidate)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run it ({e})"))?;
    if !out.status.success() {
        return Err(format!("`--version` failed ({})", out.status));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let major = parse_major_version(&text).ok_or_else(|| "not a clang".to_string())?;
    if major < MIN_CLANG_MAJOR {
        return Err(format!("version {major} is older than {MIN_CLANG_MAJOR}"));
    }
    Ok(major)
}

impl Clang {
    /// Finds clang: `CUCC_CLANG`, then `clang-16`, then `clang` (>= 16).
    pub fn discover() -> Result<Clang> {
        if let Some(path) = std::env::var_os("CUCC_CLANG").filter(|p| !p.is_empty()) {
            let path = PathBuf::from(path);
            return match probe(&path) {
                Ok(major) => Ok(Clang { path, major }),
                Err(reason) => Err(FrontendError::BadClangOverride {
                    path: path.display().to_string(),
                    reason,
                }),
            };
        }
        let mut tried = Vec::new();
        for name in ["clang-16", "clang"] {
            let path = PathBuf::from(name);
            match probe(&path) {
                Ok(major) => return Ok(Clang { path, major }),
                Err(reason) => tried.push(format!("`{name}` ({reason})")),
            }
        }
        Err(FrontendError::ClangNotFound {
            tried: tried.join(", "),
        })
    }

    /// The arguments for compiling `source` as CUDA on `side`, with cucc's
    /// include directory, `-nocudainc -nocudalib`, and the user's options.
    pub fn cuda_args(
        &self,
        source: &Path,
        side: CudaSide,
        opts: &ClangOptions,
    ) -> Result<Vec<OsString>> {
        let include = include_dir();
        if !include.join("cuda_runtime.h").is_file() {
            return Err(FrontendError::IncludeDirMissing(include));
        }
        let mut args: Vec<OsString> = vec![
            "-x".into(),
            "cuda".into(),
            match side {
                CudaSide::Device => "--cuda-device-only".into(),
                CudaSide::Host => "--cuda-host-only".into(),
            },
            "-nocudainc".into(),
            "-nocudalib".into(),
            format!(
                "--cuda-gpu-arch={}",
                opts.gpu_arch.as_deref().unwrap_or(DEFAULT_GPU_ARCH)
            )
            .into(),
            "-Xclang".into(),
            format!("-target-sdk-version={ASSUMED_SDK_VERSION}").into(),
            "-fsyntax-only".into(),
            // nvcc (with GCC as host compiler) accepts a macro pasted onto a
            // string literal, `"("NAME")"`; clang makes it an error unless
            // this diagnostic is off, and then lexes it as nvcc does.
            "-Wno-reserved-user-defined-literal".into(),
            // `register` is gone from C++17 (cucc's default dialect, as
            // nvcc 13's); GCC, nvcc's host compiler, only warns, clang
            // refuses. Old CUDA code still says it.
            "-Wno-register".into(),
        ];
        if let Some(std) = &opts.std {
            args.push(format!("-std={std}").into());
        }
        let mut inc = OsString::from("-I");
        inc.push(&include);
        args.push(inc);
        // nvcc includes cuda_runtime.h into every .cu file; so does cucc.
        args.push("-include".into());
        args.push("cuda_runtime.h".into());
        for dir in &opts.include_dirs {
            let mut a = OsString::from("-I");
            a.push(dir);
            args.push(a);
        }
        for d in &opts.defines {
            args.push(format!("-D{d}").into());
        }
        args.extend(opts.extra.iter().cloned());
        args.push(source.into());
        Ok(args)
    }

    /// Runs clang with `args`; fails with clang's stderr if it fails.
    pub fn run(&self, args: &[OsString]) -> Result<ClangOutput> {
        let out = Command::new(&self.path)
            .args(args)
            .output()
            .map_err(|source| FrontendError::Spawn {
                clang: self.path.clone(),
                source,
            })?;
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            return Err(FrontendError::ClangFailed {
                clang: self.path.clone(),
                status: out.status.code(),
                stderr,
            });
        }
        // clang writes JSON with file names as given; names are almost
        // always UTF-8, and a lossy conversion only affects such names.
        let stdout = match String::from_utf8(out.stdout) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        Ok(ClangOutput { stdout, stderr })
    }

    /// Checks that `source` compiles on `side` (syntax and semantics only).
    pub fn check(&self, source: &Path, side: CudaSide, opts: &ClangOptions) -> Result<ClangOutput> {
        let args = self.cuda_args(source, side, opts)?;
        self.run(&args)
    }

    /// Runs clang in CUDA device mode on `source` and returns its JSON AST.
    pub fn ast_json(&self, source: &Path, opts: &ClangOptions) -> Result<ClangOutput> {
        let mut args = self.cuda_args(source, CudaSide::Device, opts)?;
        let src = args.pop();
        args.push("-Xclang".into());
        args.push("-ast-dump=json".into());
        args.extend(src);
        self.run(&args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_versions() {
        assert_eq!(
            parse_major_version("Debian clang version 16.0.6 (15~deb12u1)\nTarget: x86_64"),
            Some(16)
        );
        assert_eq!(parse_major_version("clang version 18.1.3"), Some(18));
        assert_eq!(parse_major_version("gcc (Debian 12.2.0-14) 12.2.0"), None);
    }

    #[test]
    fn default_include_dir_has_headers() {
        if std::env::var_os("CUCC_INCLUDE_DIR").is_none() {
            assert!(include_dir().join("cuda_runtime.h").is_file());
        }
    }
}
