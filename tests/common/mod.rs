//! Helpers shared by the driver's integration tests.

use std::path::{Path, PathBuf};
use std::process::Output;

/// The flags of a `// cucc-flags: ...` line among a program's first five
/// lines (the shim libraries it links, such as `-lcublas`).
pub fn program_flags(src: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(src).unwrap_or_default();
    text.lines()
        .take(5)
        .find_map(|l| l.trim().strip_prefix("// cucc-flags:"))
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// NVIDIA's nvcc: `$CUCC_NVCC`, else the PyPI wheel `scripts/setup.sh`
/// installs in `<repo>/.venv` (the newest if there are several).
pub fn find_nvcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CUCC_NVCC").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(".venv/lib"))
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path().join("site-packages/nvidia/cu13/bin/nvcc"))
        .filter(|p| p.exists())
        .collect();
    found.sort();
    found.pop()
}

/// A process's stdout and stderr, for assertion messages.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Builds the workspace packages `packages` (libraries the programs load,
/// which cargo does not build for a test of the driver alone).
pub fn build_packages(packages: &[&str]) {
    let mut cmd = std::process::Command::new(env!("CARGO"));
    cmd.args(["build", "-q"]);
    for p in packages {
        cmd.args(["-p", p]);
    }
    let status = cmd
        .current_dir(root())
        .status()
        .expect("cargo build runtime");
    assert!(status.success(), "cargo build {packages:?} failed");
}

/// Builds the runtime and the driver-API library the programs load (for
/// the simulated-device tests, which run programs directly).
pub fn build_runtime() {
    build_packages(&["cucc-runtime", "cucc-libcuda"]);
}

/// Builds every library a program may link: the runtime, the cuBLAS and
/// cuDNN shims and the driver-API library.
pub fn build_all_libraries() {
    build_packages(&["cucc-runtime", "cucc-cublas", "cucc-cudnn", "cucc-libcuda"]);
}

/// The directory holding the driver and the libraries built next to it.
pub fn target_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cucc"))
        .parent()
        .expect("target dir")
        .to_path_buf()
}

/// Notes that the tool `name` is missing and what the test leaves out; on
/// CI, where scripts/setup.sh has installed every tool, it fails instead.
pub fn note_missing(name: &str, hint: &str, left_out: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{name} not found: run scripts/setup.sh{hint}"
    );
    eprintln!("note: {name} not found (scripts/setup.sh installs it); {left_out}");
}

/// NVIDIA's nvcc, or `None` after a note that the test is skipped.
pub fn nvcc_or_skip() -> Option<PathBuf> {
    let nvcc = find_nvcc();
    if nvcc.is_none() {
        note_missing(
            "nvcc",
            " (installs it in .venv) or set CUCC_NVCC",
            "skipping",
        );
    }
    nvcc
}

/// The `lib` directory of nvcc's toolkit (its libcudart), for `-L`.
pub fn nvcc_lib_dir(nvcc: &Path) -> PathBuf {
    nvcc.parent()
        .and_then(Path::parent)
        .map(|p| p.join("lib"))
        .expect("nvcc's lib dir")
}

/// Builds `src` into `exe` with `cucc -O2`; the build must succeed.
pub fn cucc_build(src: &Path, exe: &Path) {
    let build = std::process::Command::new(env!("CARGO_BIN_EXE_cucc"))
        .arg("-O2")
        .arg(src)
        .arg("-o")
        .arg(exe)
        .output()
        .expect("run cucc");
    assert!(build.status.success(), "{}", text(&build));
}

/// Builds `src` into `exe` with nvcc for sm_80 against the shared
/// libcudart, as a program `cucc run` then runs; the build must succeed.
/// `cucc run` is called once first, so that it names the runtime's soname
/// in its directory before the program needs it.
pub fn nvcc_build_shared(nvcc: &Path, src: &Path, exe: &Path) {
    let named = std::process::Command::new(env!("CARGO_BIN_EXE_cucc"))
        .args(["run", "/bin/true"])
        .output()
        .expect("cucc run");
    assert!(named.status.success(), "{}", text(&named));
    let build = std::process::Command::new(nvcc)
        .args(["-arch=sm_80", "-cudart", "shared", "-o"])
        .arg(exe)
        .arg(src)
        .arg(format!("-L{}", nvcc_lib_dir(nvcc).display()))
        .output()
        .expect("run nvcc");
    assert!(build.status.success(), "{}", text(&build));
}

/// A scratch directory `cucc-<what>-<pid>-<name>`, created if missing
/// (kept between the steps of one test that share a name).
pub fn scratch_dir(what: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cucc-{what}-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

/// A fresh scratch directory `cucc-<what>-<tag>-<pid>`.
pub fn fresh_dir(what: &str, tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("cucc-{what}-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp");
    d
}

/// For the simulated-device tests: the runtime built, and the program
/// `tests/<what>/<what>_device.cu` built by cucc into a fresh directory
/// (`tag` names it); the program and a JIT cache directory.
pub fn cucc_device_program(what: &str, tag: &str) -> (PathBuf, PathBuf) {
    build_runtime();
    let dir = fresh_dir(what, tag);
    let exe = dir.join(format!("{what}_device"));
    cucc_build(&device_source(what), &exe);
    (exe, dir.join("cache"))
}

/// [`cucc_device_program`] built by nvcc (to run under `cucc run`), or
/// `None` when there is no nvcc (the test is skipped).
pub fn nvcc_device_program(what: &str) -> Option<(PathBuf, PathBuf)> {
    let nvcc = nvcc_or_skip()?;
    build_runtime();
    let dir = fresh_dir(what, "nvcc");
    let exe = dir.join(format!("{what}_device"));
    nvcc_build_shared(&nvcc, &device_source(what), &exe);
    Some((exe, dir.join("cache")))
}

/// `tests/<what>/<what>_device.cu`, a simulated-device test program.
pub fn device_source(what: &str) -> PathBuf {
    root().join(format!("tests/{what}/{what}_device.cu"))
}

/// Runs `exe` (directly, or under `cucc run`) with `env`, the device
/// variables cleared first and the JIT cache in `cache`.
pub fn run_with_devices(
    exe: &std::path::Path,
    under_cucc: bool,
    cache: &std::path::Path,
    env: &[(&str, &str)],
) -> std::process::Output {
    let mut cmd = if under_cucc {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_cucc"));
        c.arg("run").arg(exe);
        c
    } else {
        std::process::Command::new(exe)
    };
    cmd.env("CUCC_CACHE_DIR", cache)
        .env("CUCC_NUM_THREADS", "2")
        .env_remove("CUCC_DEVICE")
        .env_remove("CUCC_DEVICES");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run program")
}
