//! A cuBLAS-only program built by NVIDIA's nvcc (`-cudart shared`, against
//! cucc's cuBLAS headers and linked with `-lcublas` against this library)
//! runs under `cucc run` and binds to cucc's runtime and cuBLAS. Skipped
//! when nvcc is not installed: `$CUCC_NVCC`, else the project's `.venv`
//! (`scripts/setup.sh`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn nvcc(root: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CUCC_NVCC").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let p = root.join(".venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc");
    p.exists().then_some(p)
}

#[test]
fn nvcc_built_cublas_program_runs_on_cucc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Some(nvcc) = nvcc(&root) else {
        eprintln!("skipping: no nvcc (set CUCC_NVCC or run scripts/setup.sh)");
        return;
    };
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "-q",
            "-p",
            "cucc",
            "-p",
            "cucc-runtime",
            "-p",
            "cucc-cublas",
        ])
        .current_dir(&root)
        .status()
        .expect("cargo build");
    assert!(status.success());
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(root.join("target"), PathBuf::from);
    let bin = target.join("debug");
    let work = std::env::temp_dir().join(format!("cucc-cublas-nvcc-{}", std::process::id()));
    let inc = work.join("include");
    std::fs::create_dir_all(&inc).expect("temp dir");
    // Only the cuBLAS headers: the CUDA headers are nvcc's own.
    for h in ["cublas_v2.h", "cublas_api.h"] {
        std::fs::copy(root.join("frontend/include").join(h), inc.join(h)).expect("copy header");
    }
    // `cucc` names the libraries' sonames (libcudart.so.13, libcublas.so.13)
    // in its directory; the link below needs them.
    let rt = Command::new(bin.join("cucc"))
        .args(["run", "/bin/true"])
        .output()
        .expect("cucc run");
    assert!(
        rt.status.success(),
        "{}",
        String::from_utf8_lossy(&rt.stderr)
    );
    let exe = work.join("cublas_only");
    let build = Command::new(&nvcc)
        .args(["-cudart", "shared", "-I"])
        .arg(&inc)
        .arg(root.join("shims/cublas/tests/programs/cublas_only.cu"))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&bin)
        .arg("-lcublas")
        .arg(format!("-Xlinker=-rpath-link={}", bin.display()))
        .output()
        .expect("run nvcc");
    assert!(
        build.status.success(),
        "nvcc failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let run = Command::new(bin.join("cucc"))
        .arg("run")
        .arg(&exe)
        .env("OPENBLAS_NUM_THREADS", "1")
        .output()
        .expect("cucc run");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && stdout.contains("PASS cublas_only"),
        "{}{}",
        stdout,
        String::from_utf8_lossy(&run.stderr)
    );
    let _ = std::fs::remove_dir_all(&work);
}
