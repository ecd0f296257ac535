//! The driver API (`libcuda.so.1`): `tests/driver/driver_api.c` loads the
//! kernels of `tests/driver/kernels.cu` at run time, as PTX text written by
//! `nvcc -ptx` and as fat binaries written by `nvcc -fatbin` (one with PTX,
//! one with GPU code only), launches them every way the API offers and
//! checks results and error codes. It is built twice: by cucc with cucc's
//! `cuda.h`, and by the C compiler with NVIDIA's `cuda.h` (the ABI the
//! library must match), both linked with `-lcuda`. `tests/driver/mixed_api.cu`
//! uses both APIs in one program on the same memory, streams and events;
//! it is built by cucc and by nvcc (run with `cucc run`).
//!
//! nvcc comes from `$CUCC_NVCC` or the PyPI wheels `scripts/setup.sh`
//! installs in `<repo>/.venv`. Without it the test fails under CI and is
//! skipped (with a note) elsewhere.

#[allow(dead_code)]
mod common;
use common::{build_runtime, nvcc_or_skip, root, text};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("run a command");
    assert!(out.status.success(), "{cmd:?} failed:\n{}", text(&out));
    out
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn driver_api_program_loads_ptx_and_fat_binaries() {
    let Some(nvcc) = nvcc_or_skip() else {
        return;
    };
    build_runtime();
    let dir = std::env::temp_dir().join(format!("cucc-driver-api-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kernels = root().join("tests/driver/kernels.cu");
    let (ptx, fatbin, cubin) = (
        dir.join("kernels.ptx"),
        dir.join("kernels.fatbin"),
        dir.join("cubin_only.fatbin"),
    );
    for (flags, out) in [
        (&["-ptx", "-arch=sm_80"][..], &ptx),
        (&["-fatbin", "-arch=sm_80"][..], &fatbin),
        (
            &["-fatbin", "-gencode", "arch=compute_80,code=sm_80"][..],
            &cubin,
        ),
    ] {
        run(Command::new(&nvcc)
            .args(flags)
            .arg(&kernels)
            .arg("-o")
            .arg(out)
            .current_dir(&dir));
    }

    // Built by cucc with cucc's cuda.h: found through cucc's RUNPATH.
    let source = root().join("tests/driver/driver_api.c");
    let with_cucc = dir.join("driver_api_cucc");
    run(Command::new(env!("CARGO_BIN_EXE_cucc"))
        .args([path(&source), "-lcuda", "-o", path(&with_cucc)])
        .current_dir(&dir));
    // Built against NVIDIA's cuda.h, run with `cucc run`.
    let nvidia_include = nvcc
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("include"))
        .expect("nvcc's include dir");
    let lib = PathBuf::from(env!("CARGO_BIN_EXE_cucc"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    // `cucc run` names the sonames (libcuda.so.1, libcudart.so.13) there.
    run(Command::new(env!("CARGO_BIN_EXE_cucc")).args(["run", "/bin/true"]));
    let with_nvidia_header = dir.join("driver_api_nvidia_h");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    run(Command::new(cc)
        .arg("-I")
        .arg(&nvidia_include)
        .arg(&source)
        .arg(format!("-L{}", path(&lib)))
        .arg(format!("-Wl,-rpath-link,{}", path(&lib)))
        .args(["-lcuda", "-o", path(&with_nvidia_header)]));

    let cache = dir.join("cache");
    for (exe, how) in [(&with_cucc, None), (&with_nvidia_header, Some("run"))] {
        let mut cmd = match how {
            Some(sub) => {
                let mut c = Command::new(env!("CARGO_BIN_EXE_cucc"));
                c.arg(sub).arg(exe);
                c
            }
            None => Command::new(exe),
        };
        let out = cmd
            .args([&ptx, &fatbin, &cubin])
            .env("CUCC_CACHE_DIR", &cache)
            .output()
            .expect("run the driver API program");
        let t = text(&out);
        assert!(
            out.status.success() && t.contains("PASS driver_api"),
            "{}:\n{t}",
            exe.display()
        );
        // Bad images are reported, not crashed on.
        assert!(t.contains("no PTX, only GPU code (sm_80)"), "{t}");
    }

    // Both APIs in one program share memory, streams and events.
    let mixed = dir.join("mixed_api");
    let source = root().join("tests/driver/mixed_api.cu");
    run(Command::new(env!("CARGO_BIN_EXE_cucc"))
        .args([path(&source), "-lcuda", "-o", path(&mixed)])
        .current_dir(&dir));
    let out = Command::new(&mixed)
        .arg(&ptx)
        .env("CUCC_CACHE_DIR", &cache)
        .output()
        .expect("run the mixed-API program");
    let t = text(&out);
    assert!(out.status.success() && t.contains("PASS mixed_api"), "{t}");
    // The same program built by nvcc against NVIDIA's headers (host code
    // only), run with `cucc run`.
    let mixed_nvcc = dir.join("mixed_api_nvcc");
    run(Command::new(&nvcc)
        .args(["-cudart", "shared", path(&source), "-o", path(&mixed_nvcc)])
        .arg(format!("-L{}", path(&lib)))
        .arg(format!("-Xlinker=-rpath-link,{}", path(&lib)))
        .arg("-lcuda")
        .current_dir(&dir));
    let out = Command::new(env!("CARGO_BIN_EXE_cucc"))
        .arg("run")
        .arg(&mixed_nvcc)
        .arg(&ptx)
        .env("CUCC_CACHE_DIR", &cache)
        .output()
        .expect("run the nvcc-built mixed-API program");
    let t = text(&out);
    assert!(out.status.success() && t.contains("PASS mixed_api"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}
