//! Separate compilation (`-rdc=true`, `-dc`, `-dlink`): device functions and
//! variables used across translation units, in one step, through objects
//! and an archive, and through an explicit device link and a plain host
//! link (tests/rdc/README.md).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn src(name: &str) -> String {
    root().join("tests/rdc").join(name).display().to_string()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cucc-rdc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

fn runtime_dir() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "cucc-runtime"])
        .current_dir(root())
        .status()
        .expect("cargo build runtime");
    assert!(status.success());
    PathBuf::from(env!("CARGO_BIN_EXE_cucc"))
        .parent()
        .expect("target dir")
        .to_path_buf()
}

fn ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("spawn");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

fn cucc(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cucc"));
    c.current_dir(dir)
        .arg(format!("-I{}", root().join("tests/rdc").display()));
    c
}

fn passes(exe: &Path) {
    let out = ok(&mut Command::new(exe));
    assert!(out.contains("PASS rdc"), "{out}");
}

#[test]
fn one_step_build() {
    runtime_dir();
    let d = tmp("one");
    ok(cucc(&d)
        .args(["-rdc=true", "-O2"])
        .args([src("main.cu"), src("physics.cu"), src("table.cu")])
        .args(["-o", "app"]));
    passes(&d.join("app"));
    // Separately compiled units carry no IR to rebuild with checks
    // (docs/sanitize.md): under CUCC_SANITIZE they run unchecked, say so,
    // and still pass.
    let checked = ok(Command::new(d.join("app"))
        .env("CUCC_SANITIZE", "memcheck")
        .env("CUCC_CACHE_DIR", d.join("cache")));
    assert!(checked.contains("PASS rdc"), "{checked}");
    assert!(checked.contains("run unchecked"), "{checked}");
    assert!(checked.contains("ERROR SUMMARY: 0 errors"), "{checked}");
}

#[test]
fn objects_archive_and_explicit_device_link() {
    let rt = runtime_dir();
    let d = tmp("split");
    ok(cucc(&d)
        .arg("-dc")
        .args([src("physics.cu"), src("table.cu")]));
    ok(cucc(&d).args(["-dc", "-o", "main.o"]).arg(src("main.cu")));
    ok(Command::new("ar")
        .current_dir(&d)
        .args(["rcs", "libdev.a", "physics.o", "table.o"]));
    // cucc links and device-links objects and archives.
    ok(cucc(&d).args(["main.o", "libdev.a", "-o", "app"]));
    passes(&d.join("app"));
    // nvcc's Makefile style: `-dlink`, then the host compiler links.
    ok(cucc(&d).args(["-dlink", "main.o", "libdev.a", "-o", "dlink.o"]));
    ok(Command::new("c++")
        .current_dir(&d)
        .args(["main.o", "physics.o", "table.o", "dlink.o", "-o", "app2"])
        .arg(format!("-L{}", rt.display()))
        .arg("-l:libcudart.so.13")
        .arg(format!("-Wl,-rpath,{}", rt.display())));
    passes(&d.join("app2"));
}

#[test]
fn unresolved_device_function_is_reported() {
    runtime_dir();
    let d = tmp("missing");
    let out = cucc(&d)
        .args(["-rdc=true", "-o", "m"])
        .arg(src("missing.cu"))
        .output()
        .expect("spawn");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("missing.cu: undefined device function `_Z7nowheref`"),
        "{err}"
    );
    // Without -rdc the same call is an error at compile time.
    let out = cucc(&d)
        .args(["-c"])
        .arg(src("missing.cu"))
        .output()
        .expect("spawn");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("which has no definition in device code"),
        "{err}"
    );
}
