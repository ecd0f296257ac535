//! `cucc` as nvcc: CUDA programs compiled, linked against cucc's runtime and
//! run; nvcc's options accepted; errors reported.

#[allow(dead_code)]
mod common;
use common::{build_packages, root};

use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    common::scratch_dir("nvcc", name)
}

/// `p` as the UTF-8 argument the driver takes.
fn arg(p: &Path) -> &str {
    p.to_str().expect("utf8")
}

fn cucc(args: &[&str], dir: &Path) -> (i32, String, String) {
    cucc_env(args, dir, &[])
}

/// [`cucc`] with extra environment variables.
fn cucc_env(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> (i32, String, String) {
    // The runtime library must exist next to the binary (cargo builds the
    // workspace's cdylib for tests of the whole workspace; build it here to
    // be independent of test order).
    build_packages(&["cucc-runtime"]);
    let out = Command::new(env!("CARGO_BIN_EXE_cucc"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .expect("run cucc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`cucc`], which must succeed.
fn cucc_ok(args: &[&str], dir: &Path) {
    let (code, _, err) = cucc(args, dir);
    assert_eq!(code, 0, "{err}");
}

fn run(exe: &Path) -> (i32, String) {
    let out = Command::new(exe).output().expect("run program");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Runs `exe`: it must exit 0 and print `PASS`; returns its stdout.
fn passes(exe: &Path) -> String {
    let (code, out) = run(exe);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("PASS"), "{out}");
    out
}

#[test]
fn host_code_links_against_the_runtime() {
    let d = tmp("host");
    let src = root().join("tests/programs/host_only.cu");
    let exe = d.join("host_only");
    cucc_ok(&["-O2", arg(&src), "-o", arg(&exe)], &d);
    let out = passes(&exe);
    assert!(out.contains("bad copy: cudaErrorInvalidValue"), "{out}");
}

#[test]
fn kernel_from_ir_runs_through_the_runtime() {
    let d = tmp("vadd");
    let src = root().join("tests/programs/vadd.cu");
    let ir = root().join("tests/programs/vadd.cuir");
    let obj = d.join("vadd.o");
    let exe = d.join("vadd");
    // Separate compile and link, as Makefiles do.
    cucc_ok(
        &[
            "-c",
            "-arch=sm_80",
            "-Xptxas",
            "-v",
            &format!("--device-ir={}", ir.display()),
            arg(&src),
            "-o",
            arg(&obj),
        ],
        &d,
    );
    cucc_ok(&[arg(&obj), "-o", arg(&exe)], &d);
    let out = passes(&exe);
    assert!(out.contains("PASS vadd"), "{out}");
}

#[test]
fn options_and_errors() {
    let d = tmp("errors");
    let (code, _, err) = cucc(&["--frobnicate", "x.cu"], &d);
    assert_eq!(code, 2);
    assert!(err.contains("unknown option `--frobnicate`"), "{err}");
    let (code, out, _) = cucc(&["--version"], &d);
    assert_eq!(code, 0);
    assert!(out.contains("release 13.0"), "{out}");
    let bad = d.join("bad.cu");
    std::fs::write(&bad, "int main() { return undefined_thing; }\n").expect("write");
    let (code, _, err) = cucc(&["-c", arg(&bad)], &d);
    assert_eq!(code, 1);
    assert!(
        err.contains("undefined_thing"),
        "clang's error must pass through: {err}"
    );
    let (code, _, err) = cucc(
        &[
            "-v",
            "--dryrun",
            "-Xptxas",
            "-O3",
            "-lineinfo",
            "-c",
            arg(&bad),
        ],
        &d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("ignoring GPU-only option `-lineinfo`"),
        "{err}"
    );
    assert!(err.contains("#$ "), "{err}");
}

#[test]
fn legacy_device_properties_and_thread_calls() {
    let d = tmp("props");
    let src = root().join("tests/programs/legacy_props.cu");
    let exe = d.join("props");
    cucc_ok(&[arg(&src), "-o", arg(&exe)], &d);
    passes(&exe);
    // -v says which removed APIs the program uses.
    let (code, _, err) = cucc(&["-v", "-c", arg(&src), "-o", arg(&d.join("p.o"))], &d);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: `cudaThreadSynchronize`: removed in CUDA 12"),
        "{err}"
    );
    assert!(
        err.contains("note: `clockRate`: cudaDeviceProp field removed in CUDA 13"),
        "{err}"
    );
}

/// Builds `tests/programs/NAME.cu` with `extra` options and runs it: it
/// must print `PASS`.
fn build_and_pass(name: &str, extra: &[&str]) {
    build_and_pass_at(
        &root().join(format!("tests/programs/{name}.cu")),
        name,
        extra,
    );
}

/// [`build_and_pass`] for the program at `src`.
fn build_and_pass_at(src: &Path, name: &str, extra: &[&str]) {
    let d = tmp(name);
    let exe = d.join(name);
    let mut args: Vec<&str> = extra.to_vec();
    args.extend([arg(src), "-o", arg(&exe)]);
    cucc_ok(&args, &d);
    passes(&exe);
}

#[test]
fn extended_lambdas_passed_to_kernel_templates() {
    // Also built by nvcc in tests/nvcc_built.rs.
    let src = root().join("tests/nvcc_built/extended_lambda.cu");
    build_and_pass_at(&src, "extended_lambda", &["--extended-lambda"]);
}

/// One test per program of `tests/programs/` that must build with the
/// given options and pass.
macro_rules! build_and_pass_tests {
    ($($(#[$doc:meta])* $test:ident: $name:literal $([$($flag:literal),*])*;)*) => {$(
        $(#[$doc])*
        #[test]
        fn $test() {
            $(build_and_pass($name, &[$($flag),*]);)*
        }
    )*};
}

build_and_pass_tests! {
    pointers_to_device_functions: "device_function_pointers" [];
    classification_and_abs_overloads_in_device_code: "math_classify" [];
    typedef_names_of_tagged_structs_in_device_code: "typedef_struct_tag" [];
    /// The default dialect (C++17) and C++14 spell these types differently.
    member_templates_of_specialisations_in_device_code: "member_template_of_spec"
        [] ["-std=c++14"];
    macros_pasted_onto_string_literals: "macro_after_literal" [];
    openmp_in_host_code_links_clangs_runtime: "host_openmp" ["-Xcompiler", "-fopenmp"];
    /// The first build gives no -std: nvcc 13's default, C++17.
    nvcc13_build_lines_and_build_line_options: "nvcc13_build_lines"
        ["-cudart", "shared", "-arch=sm_100"]
        ["-cudart", "shared", "-arch=sm_120", "-std=c++17"]
        ["--cudart=static", "-arch=compute_100", "--std=c++17"];
    nvidia_include_guards_are_defined: "nvidia_header_guards" [];
    launches_with_spaced_chevrons: "spaced_launch" [];
}

#[test]
fn objects_sharing_a_static_kernel_link_together() {
    let d = tmp("static-kernels");
    let dir = root().join("tests/programs/static_kernels");
    for f in ["main", "other"] {
        let src = dir.join(format!("{f}.cu"));
        let obj = d.join(format!("{f}.o"));
        cucc_ok(&["-c", arg(&src), "-o", arg(&obj)], &d);
    }
    let exe = d.join("static_kernels");
    cucc_ok(&["main.o", "other.o", "-o", arg(&exe)], &d);
    passes(&exe);
}

#[test]
fn rodinia_era_options() {
    let d = tmp("legacy");
    let src = root().join("tests/programs/legacy_driver.cu");
    let src = src.to_str().expect("utf8");
    let exe = d.join("legacy");
    // Builds the runtime (see `cucc`); the flag then arrives through the
    // environment, as nvcc takes it.
    let _ = cucc(&["--version"], &d);
    let with_flag = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cucc"))
            .args(args)
            .env("NVCC_APPEND_FLAGS", "-DLEGACY_FLAG=13")
            .current_dir(&d)
            .output()
            .expect("run cucc")
    };
    let out = with_flag(&["-arch", "sm_13", src, "-o", arg(&exe)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    passes(&exe);
    let out = with_flag(&["-cuda", src]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ii = std::fs::read_to_string(d.join("legacy_driver.cu.cpp.ii")).expect("-cuda output");
    assert!(ii.contains("twice"), "{}", &ii[..ii.len().min(200)]);
    // Without the flag the program does not compile: the variable was used.
    let (code, _, err) = cucc(&["-c", src], &d);
    assert_ne!(code, 0);
    assert!(err.contains("LEGACY_FLAG"), "{err}");
}

#[test]
fn cucc_run_uses_cuccs_runtime() {
    // A program linked against libcudart.so.13 without an rpath finds
    // cucc's runtime through `cucc run`.
    let d = tmp("run");
    let src = root().join("tests/programs/host_only.cu");
    let obj = d.join("host_only.o");
    cucc_ok(&["-c", arg(&src), "-o", arg(&obj)], &d);
    let exe = d.join("plain");
    let rt = root().join("target/debug");
    let status = Command::new("c++")
        .arg("-o")
        .arg(&exe)
        .arg(&obj)
        .arg(format!("-L{}", rt.display()))
        .arg("-l:libcudart.so.13")
        .status()
        .expect("link");
    assert!(status.success());
    let (code, out, err) = cucc(&["run", arg(&exe)], &d);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("PASS"), "{out}");
}

#[test]
fn make_with_nvcc_set_to_cucc() {
    let d = tmp("make");
    // Build the runtime and the driver first (`cucc` helper does).
    let (code, _, _) = cucc(&["--version"], &d);
    assert_eq!(code, 0);
    let out = Command::new("make")
        .arg("-C")
        .arg(root().join("tests/make"))
        .arg(format!("NVCC={}", env!("CARGO_BIN_EXE_cucc")))
        .arg(format!("OUT={}", d.display()))
        .output()
        .expect("run make");
    assert!(
        out.status.success(),
        "make failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = passes(&d.join("scale_add"));
    assert!(out.contains("PASS scale_add"), "{out}");
}

/// Intermediate files go to a fresh private directory (mode 0700, a name
/// nobody can predict, never one that already exists) that is removed
/// after every compile, failed or not; `--keep` keeps it and says where.
#[test]
fn scratch_directories_are_private_and_removed() {
    // Build the runtime first (see `cucc`).
    let d = tmp("scratch");
    let _ = cucc(&["--version"], &d);
    let tmpdir = d.join("tmp");
    let _ = std::fs::remove_dir_all(&tmpdir);
    std::fs::create_dir_all(&tmpdir).expect("tmpdir");
    // A world-writable directory with the name the driver used to use.
    use std::os::unix::fs::PermissionsExt;
    let planted = tmpdir.join("cucc-1");
    std::fs::create_dir(&planted).expect("plant");
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let entries = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").path())
            .collect();
        v.sort();
        v
    };
    let before = entries(&tmpdir);
    let good = root().join("tests/cuda/int_division.cu");
    let bad = d.join("bad.cu");
    std::fs::write(&bad, "__global__ void k() { undeclared(); }\n").expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cucc"))
            .args(args)
            .env("TMPDIR", &tmpdir)
            .current_dir(&d)
            .output()
            .expect("run cucc")
    };
    let exe = d.join("int_division");
    let ok = run(&["-O2", arg(&good), "-o", arg(&exe)]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let fail = run(&["-c", arg(&bad), "-o", "bad.o"]);
    assert!(!fail.status.success());
    assert_eq!(
        entries(&tmpdir),
        before,
        "files left in the temporary directory"
    );
    assert!(std::fs::read_dir(&planted)
        .expect("planted")
        .next()
        .is_none());

    let kept = run(&["-c", arg(&good), "-o", "k.o", "--keep"]);
    assert!(kept.status.success());
    let msg = String::from_utf8_lossy(&kept.stderr);
    let dir = msg
        .lines()
        .find_map(|l| l.strip_prefix("cucc: keeping intermediate files in "))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("no kept directory named: {msg}"));
    assert!(
        dir.starts_with(&tmpdir) && dir != planted,
        "{}",
        dir.display()
    );
    let mode = std::fs::metadata(&dir)
        .expect("kept dir")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);
    assert!(std::fs::read_dir(&dir).expect("kept").next().is_some());
    let _ = std::fs::remove_dir_all(&d);
}

/// A kernel's memory fault is contained: the program (which checks the
/// sticky `cudaErrorIllegalAddress` itself) passes, and stderr names the
/// kernel and the blocks that faulted.
#[test]
fn kernel_memory_faults_name_the_kernel() {
    let d = tmp("fault");
    let src = root().join("tests/cuda/api_illegal_address.cu");
    let exe = d.join("api_illegal_address");
    cucc_ok(&["-O2", arg(&src), "-o", arg(&exe)], &d);
    let out = Command::new(&exe).output().expect("run program");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("PASS api_illegal_address"), "{stdout}");
    assert!(
        stderr.contains("kernel `overrun(float*, int, int)` accessed an illegal address")
            && stderr.contains("(cudaErrorIllegalAddress)"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn verbose_lists_phase_times_and_slow_compiles_say_what_runs() {
    let d = tmp("phases");
    let src = root().join("tests/programs/vadd.cu");
    let exe = d.join("vadd");
    let args = ["-v", arg(&src), "-o", arg(&exe)];
    // A zero deadline: every compile counts as slow and says so, once.
    let (code, _, err) = cucc_env(&args, &d, &[("CUCC_PROGRESS_AFTER", "0")]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("cucc: time per phase"), "{err}");
    for phase in [
        "frontend",
        "inline",
        "mem2reg",
        "canonicalize",
        "distribute",
        "emit_c",
        "device cc",
        "host clang",
        "link",
    ] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("cucc:   {phase} "))),
            "no time for `{phase}`: {err}"
        );
    }
    let notices = err
        .lines()
        .filter(|l| l.starts_with("cucc: still compiling"))
        .count();
    assert_eq!(notices, 1, "{err}");
    // Without -v, and with the default deadline, a small compile is quiet.
    let (code, _, err) = cucc(&args[1..], &d);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("time per phase"), "{err}");
    assert!(!err.contains("still compiling"), "{err}");
}
