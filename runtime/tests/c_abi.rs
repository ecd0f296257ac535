//! Links a C program against the built `libcudart.so.13` (through the soname,
//! as programs built against NVIDIA's library do) and runs it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cdylib cargo built next to this test binary.
fn runtime_library() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    [
        deps.parent()?.join("libcucc_runtime.so"),
        deps.join("libcucc_runtime.so"),
    ]
    .into_iter()
    .find(|p| p.exists())
}

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

#[test]
fn c_program_links_against_the_soname_and_runs() {
    let lib = runtime_library().expect("libcucc_runtime.so next to the test binary");
    let dir = std::env::temp_dir().join(format!("cucc-runtime-c-abi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let link = dir.join("libcudart.so.13");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&lib, &link).expect("symlink");

    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let prog = dir.join("basic");
    run(
        Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
            .arg(manifest.join("tests/c/basic.c"))
            .arg("-I")
            .arg(manifest.join("include"))
            .arg("-std=c11")
            .arg("-Wall")
            .arg("-o")
            .arg(&prog)
            .arg(format!("-L{}", dir.display()))
            .arg("-l:libcudart.so.13")
            .arg(format!("-Wl,-rpath,{}", dir.display())),
    );

    // The program's references carry the library's symbol version.
    if let Ok(out) = Command::new("readelf")
        .args(["--dyn-syms", "-W"])
        .arg(&prog)
        .output()
    {
        let syms = String::from_utf8_lossy(&out.stdout);
        assert!(syms.contains("cudaMalloc@libcudart.so.13"), "{syms}");
        assert!(
            syms.contains("__cudaRegisterFatBinary@libcudart.so.13"),
            "{syms}"
        );
    }
    let out = run(&mut Command::new(&prog));
    assert!(out.contains("ok"), "{out}");
    assert!(
        out.contains("basic.cu:7: void trap_kernel(): Assertion `i < n` failed."),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
