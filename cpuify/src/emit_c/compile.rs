//! Compiling emitted C: the one place that turns a [`CpuTarget`] and a
//! build's choices into a C compiler command, so the JIT, the driver,
//! `ir-run` and the tests compile device C alike (docs/design.md, "Emitted
//! C").

use std::fmt;
use std::path::Path;
use std::process::{Command, ExitStatus};

use super::target::{device_c_flags, large_source_flags, CpuTarget};

/// The C compiler: `$CC` (unless empty), else `cc`.
pub fn c_compiler() -> String {
    std::env::var("CC")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "cc".to_string())
}

/// What a compile produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    /// A shared object the JIT (or a test) loads (`-shared`, linked with
    /// `-lm`).
    SharedObject,
    /// A relocatable object the driver links into a program (`-c`).
    Object,
}

/// How to compile emitted C: everything the flags depend on.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The compiler ([`c_compiler`] by default).
    pub cc: String,
    /// The instruction set (`--cpu-arch`, `CUCC_CPU_ARCH`).
    pub target: CpuTarget,
    /// Object or shared object.
    pub kind: OutputKind,
    /// The `-O` level: `3` for the JIT, the driver's `-O` option (at least
    /// 1: the thread loops are unusable unoptimised).
    pub opt: String,
    /// `--use_fast_math`: `-ffast-math`.
    pub fast_math: bool,
    /// `-g`.
    pub debug: bool,
    /// Warning flags in place of `-w` (tests build with `-Wall -Werror`, so
    /// the emitter's C stays warning-free); empty silences warnings, as
    /// users should never see them.
    pub warnings: Vec<String>,
    /// Flags after all others (tests that choose ISA extensions).
    pub extra: Vec<String>,
}

impl CompileOptions {
    /// Options for `kind` and `target` with `$CC`, `-O3` and nothing else.
    pub fn new(kind: OutputKind, target: CpuTarget) -> CompileOptions {
        CompileOptions {
            cc: c_compiler(),
            target,
            kind,
            opt: "3".into(),
            fast_math: false,
            debug: false,
            warnings: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// The compiler flags for a source of `source_len` bytes, without the
    /// output and input names. `flags(0)` has every flag that does not
    /// depend on the source (what a cache key records).
    pub fn flags(&self, source_len: usize) -> Vec<String> {
        let mut f = vec!["-std=gnu11".to_string(), format!("-O{}", self.opt)];
        f.push(
            match self.kind {
                OutputKind::SharedObject => "-shared",
                OutputKind::Object => "-c",
            }
            .into(),
        );
        f.push("-fPIC".into());
        if self.warnings.is_empty() {
            f.push("-w".into());
        } else {
            f.extend(self.warnings.iter().cloned());
        }
        f.extend(self.target.cflags_for(&self.cc));
        f.extend(device_c_flags(&self.cc));
        f.extend(large_source_flags(&self.cc, source_len));
        if self.fast_math {
            f.push("-ffast-math".into());
        }
        if self.debug {
            f.push("-g".into());
        }
        f.extend(self.extra.iter().cloned());
        f
    }

    /// The command compiling the C file `source` (of `source_len` bytes)
    /// into `output`, for callers that run commands their own way (the
    /// driver prints them under `-v` and `-dryrun`).
    pub fn command(&self, source: &Path, source_len: usize, output: &Path) -> Command {
        let mut cmd = Command::new(&self.cc);
        cmd.args(self.flags(source_len))
            .arg("-o")
            .arg(output)
            .args(["-x", "c"])
            .arg(source);
        if self.kind == OutputKind::SharedObject {
            cmd.arg("-lm");
        }
        cmd
    }
}

/// Why a compile failed.
#[derive(Debug)]
pub enum CompileError {
    /// The compiler could not be started.
    Spawn {
        /// The compiler.
        cc: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The compiler rejected the source.
    Failed {
        /// The compiler.
        cc: String,
        /// Its exit status.
        status: ExitStatus,
        /// What it printed.
        stderr: String,
    },
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Spawn { cc, error } => {
                write!(f, "cannot run the C compiler `{cc}` (set $CC): {error}")
            }
            CompileError::Failed { cc, status, stderr } => {
                write!(f, "the C compiler `{cc}` failed ({status}):\n{stderr}")
            }
        }
    }
}

impl std::error::Error for CompileError {}

/// Compiles the emitted C file `source` into `output` as `options` say
/// (the C's length chooses [`large_source_flags`]).
pub fn compile_c(
    source: &Path,
    output: &Path,
    options: &CompileOptions,
) -> Result<(), CompileError> {
    let len = std::fs::metadata(source).map_or(0, |m| m.len() as usize);
    let out = options
        .command(source, len, output)
        .output()
        .map_err(|error| CompileError::Spawn {
            cc: options.cc.clone(),
            error,
        })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(CompileError::Failed {
            cc: options.cc.clone(),
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(kind: OutputKind, target: CpuTarget) -> CompileOptions {
        CompileOptions {
            cc: "/nonexistent/cucc-test-cc".into(),
            ..CompileOptions::new(kind, target)
        }
    }

    #[test]
    fn one_flag_set_from_the_target() {
        // A compiler that cannot be run accepts no probed flag.
        let o = options(OutputKind::SharedObject, CpuTarget::Native);
        assert_eq!(
            o.flags(0),
            [
                "-std=gnu11",
                "-O3",
                "-shared",
                "-fPIC",
                "-w",
                "-march=native",
                "-ffp-contract=off",
                "-fno-math-errno",
                "-fno-strict-aliasing"
            ]
        );
        let o = CompileOptions {
            opt: "2".into(),
            fast_math: true,
            debug: true,
            ..options(OutputKind::Object, CpuTarget::Portable)
        };
        assert_eq!(
            o.flags(0),
            [
                "-std=gnu11",
                "-O2",
                "-c",
                "-fPIC",
                "-w",
                "-ffp-contract=off",
                "-fno-math-errno",
                "-fno-strict-aliasing",
                "-ffast-math",
                "-g"
            ]
        );
        let o = CompileOptions {
            warnings: vec!["-Wall".into(), "-Werror".into()],
            extra: vec!["-mfma".into()],
            ..options(OutputKind::Object, CpuTarget::Arch("x86-64-v3".into()))
        };
        let f = o.flags(0);
        assert!(!f.contains(&"-w".to_string()));
        assert_eq!(f[4..6], ["-Wall", "-Werror"]);
        assert_eq!(f.last().map(String::as_str), Some("-mfma"));
        assert!(f.contains(&"-march=x86-64-v3".to_string()));
    }

    #[test]
    fn commands_name_the_output_and_the_language() {
        let o = options(OutputKind::SharedObject, CpuTarget::Portable);
        let cmd = o.command(Path::new("k.c"), 10, Path::new("k.so"));
        let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
        let n = args.len();
        assert_eq!(args[n - 6..], ["-o", "k.so", "-x", "c", "k.c", "-lm"]);
        let o = options(OutputKind::Object, CpuTarget::Portable);
        let cmd = o.command(Path::new("k.c"), 10, Path::new("k.o"));
        assert_eq!(
            cmd.get_args().last().map(|a| a.to_string_lossy()),
            Some("k.c".into())
        );
    }

    #[test]
    fn compiles_and_reports_failures() {
        let dir = std::env::temp_dir().join(format!("cucc-compile-c-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp");
        let c = dir.join("k.c");
        let o = dir.join("k.o");
        std::fs::write(&c, "int cucc_k(int x) { return x + 1; }\n").expect("write");
        let opts = CompileOptions {
            cc: "cc".into(),
            ..CompileOptions::new(OutputKind::Object, CpuTarget::Portable)
        };
        compile_c(&c, &o, &opts).expect("compiles");
        assert!(o.exists());
        std::fs::write(&c, "int cucc_k(int x) { return y; }\n").expect("write");
        let err = compile_c(&c, &o, &opts).expect_err("rejected");
        assert!(matches!(err, CompileError::Failed { .. }), "{err}");
        let missing = CompileOptions {
            cc: "/nonexistent/cucc-test-cc".into(),
            ..opts
        };
        let err = compile_c(&c, &o, &missing).expect_err("no compiler");
        assert!(err.to_string().contains("cannot run"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
