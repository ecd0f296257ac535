//! Every application at the small size: the OpenMP twin builds, runs, and
//! writes the same result twice (with different thread counts); the CUDA
//! source passes clang's host and device syntax checks with cucc's headers.

use cucc_rodinia::apps::{apps_dir, Size, APPS};
use cucc_rodinia::runner::{build_openmp, run_program, Program, Toolchain};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn work_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rodinia-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn openmp_twins_run_and_are_deterministic() {
    let tc = Toolchain::locate();
    let apps = apps_dir();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = APPS
            .iter()
            .map(|app| {
                let (tc, apps) = (&tc, &apps);
                s.spawn(move || -> Result<(), String> {
                    let dir = work_dir(app.name);
                    let exe = Program::native(build_openmp(tc, app, apps, &dir)?);
                    let args = app.args(Size::Small);
                    let timeout = Duration::from_secs(60);
                    let mut results = Vec::new();
                    for threads in [1, 3] {
                        let out = dir.join(format!("out{threads}"));
                        run_program(
                            &exe,
                            args,
                            &out,
                            ("OMP_NUM_THREADS", threads.to_string()),
                            timeout,
                        )?;
                        let text = std::fs::read_to_string(&out).map_err(|e| e.to_string())?;
                        if text.split_whitespace().next().is_none() {
                            return Err("empty result".into());
                        }
                        results.push(text);
                    }
                    let _ = std::fs::remove_dir_all(&dir);
                    if results[0] != results[1] {
                        return Err("results differ between 1 and 3 threads".into());
                    }
                    Ok(())
                })
            })
            .collect();
        APPS.iter()
            .zip(handles)
            .filter_map(|(app, h)| match h.join() {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some(format!("{}: {e}", app.name)),
                Err(_) => Some(format!("{}: test thread panicked", app.name)),
            })
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn clang_syntax(src: &Path, mode: &str) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("clang-16")
        .args([
            "-x",
            "cuda",
            mode,
            "-fsyntax-only",
            "-nocudainc",
            "-nocudalib",
        ])
        .args(["-Xclang", "-target-sdk-version=11.8"])
        .arg("-I")
        .arg(root.join("../frontend/include"))
        .args(["-include", "cuda_runtime.h"])
        .arg("-I")
        .arg(root.join("apps/common"))
        .arg(src)
        .output()
        .map_err(|e| format!("cannot run clang-16: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn cuda_sources_pass_clang_host_and_device_checks() {
    let apps = apps_dir();
    let mut failures = Vec::new();
    for app in APPS {
        let src = app.dir(&apps).join(app.cuda);
        for mode in ["--cuda-host-only", "--cuda-device-only"] {
            if let Err(e) = clang_syntax(&src, mode) {
                failures.push(format!("{} ({mode}):\n{e}", app.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
