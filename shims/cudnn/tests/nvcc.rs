//! A host-only cuDNN program (`tests/nvcc/conv_host.cpp`) built by NVIDIA's
//! nvcc against this project's `cudnn.h` (`-cudart shared -lcudnn`) and run
//! on cucc's runtime and cuDNN with `cucc run`. nvcc comes from the CUDA
//! 13 wheel (`CUCC_NVCC`, else the project's virtualenv); without it the
//! test says so and checks nothing.

use std::path::PathBuf;
use std::process::Command;

fn nvcc() -> Option<PathBuf> {
    let p = std::env::var_os("CUCC_NVCC")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from("/work/main/.venv/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc")
        });
    p.exists().then_some(p)
}

#[test]
fn nvcc_built_program_runs_on_cucc() {
    let Some(nvcc) = nvcc() else {
        eprintln!("nvcc not found: the nvcc-built program was not checked");
        return;
    };
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "-q",
            "-p",
            "cucc",
            "-p",
            "cucc-runtime",
            "-p",
            "cucc-cudnn",
        ])
        .current_dir(&root)
        .status()
        .expect("cargo build");
    assert!(status.success());
    let exe = std::env::current_exe().expect("test path");
    let target = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target dir")
        .to_path_buf();
    let nv_lib = nvcc
        .parent()
        .and_then(|b| b.parent())
        .expect("nvcc root")
        .join("lib");
    // Only cudnn.h and its version header: nvcc keeps its own CUDA headers.
    let tmp = std::env::temp_dir().join(format!("cucc-cudnn-nvcc-{}", std::process::id()));
    let inc = tmp.join("include");
    std::fs::create_dir_all(&inc).expect("tmp");
    for h in ["cudnn.h", "cudnn_version.h"] {
        std::fs::copy(root.join("frontend/include").join(h), inc.join(h)).expect("copy header");
    }
    let prog = tmp.join("conv_host");
    let out = Command::new(&nvcc)
        .arg(manifest.join("tests/nvcc/conv_host.cpp"))
        .arg("-o")
        .arg(&prog)
        .arg("-I")
        .arg(&inc)
        .args(["-cudart", "shared"])
        .arg(format!("-L{}", nv_lib.display()))
        .arg(format!("-L{}", target.display()))
        .arg("-lcudnn")
        .output()
        .expect("run nvcc");
    assert!(
        out.status.success(),
        "nvcc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(target.join("cucc"))
        .arg("run")
        .arg(&prog)
        .output()
        .expect("cucc run");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && stdout.contains("PASS conv_host"),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
