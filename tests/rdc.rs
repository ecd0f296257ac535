//! Separate compilation (`-rdc=true`, `-dc`, `-dlink`): device functions and
//! variables used across translation units, in one step, through objects
//! and an archive, and through an explicit device link and a plain host
//! link (tests/rdc/README.md); and the same programs built by NVIDIA's nvcc
//! and run with `cucc run` (the JIT's device link).

#[allow(dead_code)]
mod common;
use common::{
    build_packages, nvcc_lib_dir, nvcc_or_skip, root, run_with_devices, target_dir, text,
};
use std::path::{Path, PathBuf};
use std::process::Command;

fn src(name: &str) -> String {
    root().join("tests/rdc").join(name).display().to_string()
}

fn tmp(name: &str) -> PathBuf {
    common::scratch_dir("rdc", name)
}

fn runtime_dir() -> PathBuf {
    build_packages(&["cucc-runtime"]);
    target_dir()
}

fn ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("spawn");
    let text = text(&out);
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// Runs `cmd`, which must fail, and returns its stderr.
fn fails(cmd: &mut Command) -> String {
    let out = cmd.output().expect("spawn");
    assert!(!out.status.success(), "{cmd:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
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

/// The two programs: `main.cu` with `physics.cu` and `table.cu`, and
/// `linked_main.cu` with `linked_lib.cu`.
const PROGRAMS: [(&str, &[&str], &str); 2] = [
    ("rdc", &["main.cu", "physics.cu", "table.cu"], "PASS rdc\n"),
    (
        "linked",
        &["linked_main.cu", "linked_lib.cu"],
        "PASS rdc linked\n",
    ),
];

#[test]
fn one_step_build() {
    runtime_dir();
    let d = tmp("one");
    ok(cucc(&d)
        .args(["-rdc=true", "-O2"])
        .args([src("main.cu"), src("physics.cu"), src("table.cu")])
        .args(["-o", "app"]));
    passes(&d.join("app"));
    ok(cucc(&d)
        .args(["-rdc=true", "-O2"])
        .args([src("linked_main.cu"), src("linked_lib.cu")])
        .args(["-o", "linked"]));
    let out = ok(&mut Command::new(d.join("linked")));
    assert!(out.contains("PASS rdc linked"), "{out}");
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
    let err = fails(
        cucc(&d)
            .args(["-rdc=true", "-o", "m"])
            .arg(src("missing.cu")),
    );
    assert!(
        err.contains("missing.cu: undefined device function `_Z7nowheref`"),
        "{err}"
    );
    // Without -rdc the same call is an error at compile time.
    let err = fails(cucc(&d).args(["-c"]).arg(src("missing.cu")));
    assert!(
        err.contains("which has no definition in device code"),
        "{err}"
    );
}

/// Runs `exe` under `cucc run` with the JIT cache in `cache`.
fn cucc_run(exe: &Path, cache: &Path) -> std::process::Output {
    run_with_devices(exe, true, cache, &[])
}

#[test]
fn nvcc_rdc_programs_run_under_cucc_run() {
    let Some(nvcc) = nvcc_or_skip() else {
        return;
    };
    runtime_dir();
    let nvcc_lib = nvcc_lib_dir(&nvcc);
    let d = tmp("nvcc");
    let cache = d.join("cache");
    let _ = std::fs::remove_dir_all(&cache);
    let nvcc_in = |args: &[&str]| {
        let mut c = Command::new(&nvcc);
        // PTX and code for sm_80, unless the step chooses.
        if !args.contains(&"-gencode") {
            c.arg("-arch=sm_80");
        }
        c.current_dir(&d)
            .arg(format!("-I{}", root().join("tests/rdc").display()))
            .args(args)
            .arg(format!("-L{}", nvcc_lib.display()));
        ok(&mut c);
    };
    let object = |unit: &str| unit.replace(".cu", ".o");
    let mut exes = Vec::new();
    for (name, units, pass) in PROGRAMS {
        // `-dc` objects, device-linked and linked by nvcc with each runtime.
        for u in units {
            nvcc_in(&["-dc", &src(u), "-o", &object(u)]);
        }
        let objects: Vec<String> = units.iter().map(|u| object(u)).collect();
        let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
        let shared = format!("{name}-dc-shared");
        nvcc_in(&[&["-cudart", "shared", "-o", shared.as_str()], &objects[..]].concat());
        let static_ = format!("{name}-dc-static");
        nvcc_in(&[&["-o", static_.as_str()], &objects[..]].concat());
        exes.push((shared, pass));
        exes.push((static_, pass));
    }
    // One command (`-rdc=true` compiles and device-links): the first
    // program with the static runtime, the second with the shared one.
    for ((name, units, pass), runtime) in PROGRAMS.iter().zip(["static", "shared"]) {
        let exe = format!("{name}-one-{runtime}");
        let sources: Vec<String> = units.iter().map(|u| src(u)).collect();
        let mut args = vec!["-rdc=true", "-o", exe.as_str(), "-cudart", runtime];
        args.extend(sources.iter().map(String::as_str));
        nvcc_in(&args);
        exes.push((exe, pass));
    }
    // With line information (the PTX carries `.file`/`.loc`, renumbered by
    // the link).
    let sources: Vec<String> = PROGRAMS[1].1.iter().map(|u| src(u)).collect();
    let mut args = vec!["-rdc=true", "-lineinfo", "-o", "linked-lineinfo"];
    args.extend(sources.iter().map(String::as_str));
    nvcc_in(&args);
    exes.push(("linked-lineinfo".into(), PROGRAMS[1].2));
    // nvcc's Makefile style: `-dlink`, then the host compiler links
    // (against libcudart.so.13, which `cucc run` serves).
    nvcc_in(&["-dlink", "main.o", "physics.o", "table.o", "-o", "dlink.o"]);
    ok(Command::new("c++")
        .current_dir(&d)
        .args([
            "main.o",
            "physics.o",
            "table.o",
            "dlink.o",
            "-o",
            "rdc-dlink",
        ])
        .arg(format!("-L{}", nvcc_lib.display()))
        .arg("-l:libcudart.so.13"));
    exes.push(("rdc-dlink".into(), "PASS rdc\n"));
    for (exe, pass) in &exes {
        let r = cucc_run(&d.join(exe), &cache);
        assert!(
            r.status.success() && String::from_utf8_lossy(&r.stdout).ends_with(pass),
            "{exe}: {}",
            text(&r)
        );
    }
    // The linked image comes from the cache the second time.
    let again = run_with_devices(
        &d.join("linked-dc-shared"),
        true,
        &cache,
        &[("CUCC_LOG", "info")],
    );
    let log = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{}", text(&again));
    assert!(log.contains("JIT cache hit"), "{log}");
    assert!(!log.contains("translated in"), "{log}");
    // Under the sanitizer the linked image is rebuilt with the checks.
    let checked = run_with_devices(
        &d.join("linked-dc-static"),
        true,
        &cache,
        &[("CUCC_SANITIZE", "memcheck")],
    );
    let out = text(&checked);
    assert!(checked.status.success(), "{out}");
    assert!(out.contains("PASS rdc linked"), "{out}");
    assert!(out.contains("ERROR SUMMARY: 0 errors"), "{out}");
    assert!(!out.contains("run unchecked"), "{out}");
    // The cache key covers every unit of a linked image: the same main
    // object with a library unit built differently runs the new code, not
    // the image cached for the first build.
    nvcc_in(&[
        "-dc",
        "-DLIB_OFFSET=5",
        &src("linked_lib.cu"),
        "-o",
        "lib5.o",
    ]);
    nvcc_in(&[
        "-cudart",
        "shared",
        "-o",
        "linked5",
        "linked_main.o",
        "lib5.o",
    ]);
    let r = cucc_run(&d.join("linked5"), &cache);
    assert!(
        r.status.success() && String::from_utf8_lossy(&r.stdout).contains("PASS rdc linked"),
        "{}",
        text(&r)
    );
    // A unit built without PTX (GPU code only) leaves the others' references
    // unresolved: a device-link error naming the symbols, not a crash.
    nvcc_in(&[
        "-dc",
        "-gencode",
        "arch=compute_80,code=sm_80",
        &src("physics.cu"),
        "-o",
        "physics_sass.o",
    ]);
    // (main.cu with line information, which names the file.)
    nvcc_in(&["-dc", "-lineinfo", &src("main.cu"), "-o", "main_lineinfo.o"]);
    nvcc_in(&[
        "-cudart",
        "shared",
        "-o",
        "no-ptx",
        "main_lineinfo.o",
        "physics_sass.o",
        "table.o",
    ]);
    let r = cucc_run(&d.join("no-ptx"), &cache);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r));
    assert!(
        String::from_utf8_lossy(&r.stdout).contains("FAIL symbol"),
        "{}",
        text(&r)
    );
    assert!(
        err.contains("device link failed: undefined device function `_Z4stepff`"),
        "{err}"
    );
    assert!(err.contains("undefined variable `steps_taken`"), "{err}");
    assert!(err.contains("main.cu (kernels _Z7advancePfif)"), "{err}");
    assert!(err.contains("carries no PTX"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
