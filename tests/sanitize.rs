//! `CUCC_SANITIZE=memcheck|racecheck` (docs/sanitize.md) on both ways in:
//! programs built by cucc (kernels rebuilt from the IR their device object
//! embeds) and programs built by nvcc run with `cucc run` (kernels
//! translated from PTX with checks).
//!
//! The programs of `tests/sanitize/` each hold one bug: the mode that
//! catches it must report it (kind, kernel, source line, the nearest
//! allocation) and count it in the summary, and the program must see the
//! error code the docs name. Corpus programs (`tests/cuda/`) must print
//! the same output as without checks and an `ERROR SUMMARY` of 0 errors
//! under both modes. nvcc comes from `$CUCC_NVCC` or `<repo>/.venv`;
//! without it only the cucc-built half runs (with a note).

#[allow(dead_code)]
mod common;
use common::{build_packages, find_nvcc, fresh_dir, nvcc_lib_dir, root, text};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// How a program is built and run.
#[derive(Clone, Copy, Debug)]
enum BuildPath {
    Cucc,
    Nvcc,
}

struct Setup {
    out: PathBuf,
    nvcc: Option<PathBuf>,
}

impl Setup {
    fn new(tag: &str) -> Setup {
        build_packages(&["cucc-runtime"]);
        let out = fresh_dir("sanitize", tag);
        let nvcc = find_nvcc();
        if nvcc.is_none() {
            common::note_missing(
                "nvcc",
                " or set CUCC_NVCC",
                "only cucc-built programs are checked",
            );
        }
        Setup { out, nvcc }
    }

    fn paths(&self) -> Vec<BuildPath> {
        let mut p = vec![BuildPath::Cucc];
        if self.nvcc.is_some() {
            p.push(BuildPath::Nvcc);
        }
        p
    }

    /// Builds `src` the way `how` says; returns the executable.
    fn build(&self, src: &Path, how: BuildPath) -> PathBuf {
        let stem = src.file_stem().expect("stem").to_string_lossy();
        let exe = self.out.join(format!("{stem}-{how:?}"));
        let out = match (how, &self.nvcc) {
            (BuildPath::Cucc, _) => Command::new(env!("CARGO_BIN_EXE_cucc"))
                .args(["-O2", "-o"])
                .arg(&exe)
                .arg(src)
                .output(),
            (BuildPath::Nvcc, Some(nvcc)) => {
                let lib = nvcc_lib_dir(nvcc);
                Command::new(nvcc)
                    .args(["-cudart", "shared", "-arch=sm_80", "-lineinfo", "-o"])
                    .arg(&exe)
                    .arg(src)
                    .arg(format!("-L{}", lib.display()))
                    .output()
            }
            (BuildPath::Nvcc, None) => panic!("no nvcc"),
        }
        .expect("compiler runs");
        assert!(
            out.status.success(),
            "{how:?} build of {stem}:\n{}",
            text(&out)
        );
        exe
    }

    /// Runs `exe` (through `cucc run` when nvcc built it) under `mode`.
    fn run(&self, exe: &Path, how: BuildPath, mode: Option<&str>) -> Output {
        let mut cmd = match how {
            BuildPath::Cucc => Command::new(exe),
            BuildPath::Nvcc => {
                let mut c = Command::new(env!("CARGO_BIN_EXE_cucc"));
                c.arg("run").arg(exe);
                c
            }
        };
        cmd.env("CUCC_CACHE_DIR", self.out.join("cache"))
            .env("CUCC_NUM_THREADS", "2")
            .env_remove("CUCC_SANITIZE");
        if let Some(m) = mode {
            cmd.env("CUCC_SANITIZE", m);
        }
        cmd.output().expect("program runs")
    }
}

/// A program with a bug, the mode that must catch it and what the report
/// and the program's output must contain.
struct Case {
    name: &'static str,
    mode: &'static str,
    report: &'static [&'static str],
    stdout: &'static str,
    /// The source line the report names (`file.cu:N`), on both paths
    /// (nvcc builds with `-lineinfo`, whose `.loc` lines the PTX frontend
    /// reads).
    line: &'static str,
    /// What the report also says for a cucc-built program: the shared
    /// variable (the PTX frontend keeps the shared variables in one block).
    cucc_only: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "oob_global_write",
        mode: "memcheck",
        report: &[
            "Invalid __global__ write of size 4 bytes",
            "write_past(int*, int)",
            "by thread (4,0,0) in block (3,0,0)",
            "is 0 bytes after the nearest allocation at",
            "of size 400 bytes",
            "ERROR SUMMARY: 1 error",
        ],
        stdout: "sync: cudaErrorLaunchFailure",
        line: "oob_global_write.cu:6",
        cucc_only: &[],
    },
    Case {
        name: "oob_negative_read",
        mode: "memcheck",
        report: &[
            "Invalid __global__ read of size 4 bytes",
            "by thread (0,0,0) in block (0,0,0)",
            "is 4 bytes before the nearest allocation at",
            "of size 256 bytes",
            "ERROR SUMMARY: 1 error",
        ],
        stdout: "sync: cudaErrorLaunchFailure",
        line: "oob_negative_read.cu:5",
        cucc_only: &[],
    },
    Case {
        name: "shared_overrun",
        mode: "memcheck",
        report: &[
            "Invalid __shared__ write of size 4 bytes",
            "by thread (63,0,0) in block (",
            "0 bytes after the block's 256 bytes of shared memory",
            "ERROR SUMMARY: 1 error",
        ],
        stdout: "sync: cudaErrorLaunchFailure",
        line: "shared_overrun.cu:7",
        cucc_only: &["write of size 4 bytes through `tile`"],
    },
    Case {
        name: "use_after_free",
        mode: "memcheck",
        report: &[
            "Invalid __global__ read of size 4 bytes",
            "of size 1024 bytes, which was freed (use after cudaFree)",
            "ERROR SUMMARY: 1 error",
        ],
        stdout: "sync: cudaErrorLaunchFailure",
        line: "use_after_free.cu:5",
        cucc_only: &[],
    },
    Case {
        name: "missing_syncthreads",
        mode: "racecheck",
        report: &[
            "Race reported between Write access at rotate(int const*, int*)",
            "and Read access at rotate(int const*, int*)",
            "by thread (1,0,0) in block (0,0,0)",
            "to byte 0 of shared memory",
            "ERROR SUMMARY: 2 errors",
        ],
        stdout: "sync: cudaSuccess, 1 wrong",
        line: "missing_syncthreads.cu:9",
        cucc_only: &["shared memory (`buf`)"],
    },
    Case {
        name: "warp_race",
        mode: "racecheck",
        report: &[
            "Race reported between Read access at pair_sums(int const*, int*)",
            "and Write access at pair_sums(int const*, int*)",
            "by thread (32,0,0) in block (0,0,0)",
            "to byte 128 of shared memory",
            "ERROR SUMMARY: 2 errors",
        ],
        stdout: "sync: cudaSuccess, 32 wrong",
        line: "warp_race.cu:14",
        cucc_only: &["shared memory (`part`)"],
    },
    Case {
        name: "same_value_flag",
        mode: "racecheck",
        report: &[
            "Warning: Race reported between Write access at any_odd(int const*, int*)",
            "with no barrier between them (both wrote the same value)",
            "1 warning",
            "ERROR SUMMARY: 0 errors",
        ],
        stdout: "flag 1",
        line: "same_value_flag.cu:9",
        cucc_only: &["shared memory (`flag`)"],
    },
];

#[test]
fn bugs_are_reported_on_both_paths() {
    let s = Setup::new("bugs");
    let mut problems = Vec::new();
    for case in CASES {
        let src = root()
            .join("tests/sanitize")
            .join(format!("{}.cu", case.name));
        for how in s.paths() {
            let exe = s.build(&src, how);
            let out = s.run(&exe, how, Some(case.mode));
            let stderr = String::from_utf8_lossy(&out.stderr);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let mut want: Vec<&str> = case.report.to_vec();
            want.push(case.line);
            if matches!(how, BuildPath::Cucc) {
                want.extend(case.cucc_only);
            }
            for w in want {
                if !stderr.contains(w) {
                    problems.push(format!(
                        "{} ({how:?}, {}): report lacks `{w}`:\n{stderr}",
                        case.name, case.mode
                    ));
                }
            }
            if !stdout.contains(case.stdout) {
                problems.push(format!(
                    "{} ({how:?}, {}): output lacks `{}`:\n{stdout}",
                    case.name, case.mode, case.stdout
                ));
            }
            // The other mode does not see this bug: no report of its kind.
            let other = if case.mode == "memcheck" {
                "racecheck"
            } else {
                "memcheck"
            };
            if case.name != "use_after_free" {
                let quiet = s.run(&exe, how, Some(other));
                let e = String::from_utf8_lossy(&quiet.stderr);
                if !e.contains("ERROR SUMMARY: 0 errors") {
                    problems.push(format!("{} ({how:?}, {other}): reported:\n{e}", case.name));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Corpus programs that cover shared memory (static, dynamic, tiles,
/// scans, tree reductions), atomics, warp primitives and device globals.
const CLEAN: &[&str] = &[
    "reduction",
    "matmul_tiled",
    "shared_dynamic",
    "prefix_scan",
    "histogram",
    "warp_shuffle",
    "warp_block_shapes",
    "device_globals",
    "bitonic_sort",
];

#[test]
fn correct_programs_stay_silent_with_the_same_output() {
    let s = Setup::new("clean");
    let mut problems = Vec::new();
    for name in CLEAN {
        let src = root().join("tests/cuda").join(format!("{name}.cu"));
        for how in s.paths() {
            let exe = s.build(&src, how);
            let plain = s.run(&exe, how, None);
            assert!(
                plain.status.success(),
                "{name} ({how:?}):\n{}",
                text(&plain)
            );
            for mode in ["memcheck", "racecheck"] {
                let out = s.run(&exe, how, Some(mode));
                let stderr = String::from_utf8_lossy(&out.stderr);
                if !out.status.success()
                    || out.stdout != plain.stdout
                    || !stderr.contains("ERROR SUMMARY: 0 errors")
                    || stderr.contains("Invalid")
                    || stderr.contains("Race reported")
                {
                    problems.push(format!("{name} ({how:?}, {mode}):\n{}", text(&out)));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn an_unknown_mode_is_named_and_the_program_runs_unchecked() {
    let s = Setup::new("mode");
    let src = root().join("tests/sanitize/oob_global_write.cu");
    let exe = s.build(&src, BuildPath::Cucc);
    let out = s.run(&exe, BuildPath::Cucc, Some("initcheck"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("CUCC_SANITIZE: unknown sanitizer `initcheck`"),
        "{stderr}"
    );
    assert!(!stderr.contains("ERROR SUMMARY"), "{stderr}");
    assert!(out.status.success(), "{}", text(&out));
}
