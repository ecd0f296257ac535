//! CUDA textures end to end: programs built by `cucc` (device halves from
//! hand-written IR) that read texture objects, CUDA arrays and legacy
//! texture references, each checking itself against a host computation.

#[allow(dead_code)]
mod common;
use common::{build_packages, root, scratch_dir};
use std::path::Path;
use std::process::Command;

/// Builds `tests/programs/NAME.cu` with its device half from `NAME.cuir`,
/// runs it, and returns its output after checking it succeeded.
fn build_and_run(name: &str) -> String {
    let ir = root().join(format!("tests/programs/{name}.cuir"));
    build_and_run_with(name, &[format!("--device-ir={}", ir.display())])
}

/// Builds `tests/programs/NAME.cu` with cucc and `flags`, runs it, and
/// returns its output after checking it succeeded.
fn build_and_run_with(name: &str, flags: &[String]) -> String {
    build_packages(&["cucc-runtime"]);
    let d = scratch_dir("tex", name);
    let src = root().join(format!("tests/programs/{name}.cu"));
    let exe = d.join(name);
    let out = Command::new(env!("CARGO_BIN_EXE_cucc"))
        .args(flags)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .current_dir(&d)
        .output()
        .expect("run cucc");
    assert!(
        out.status.success(),
        "cucc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    run(&exe)
}

fn run(exe: &Path) -> String {
    let out = Command::new(exe).output().expect("run program");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} failed:\n{text}{}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Builds `tests/programs/NAME.cu` with its IR device half: it must print
/// `PASS NAME`.
fn passes(name: &str) {
    let out = build_and_run(name);
    assert!(out.contains(&format!("PASS {name}")), "{out}");
}

#[test]
fn texture_object_on_linear_memory() {
    passes("tex_object");
}

#[test]
fn cuda_array_with_linear_filtering_and_normalized_coordinates() {
    passes("tex_array2d");
}

#[test]
fn legacy_texture_reference_bound_to_linear_memory() {
    passes("tex_legacy");
}

/// `tex1Dfetch` in loops through texture objects passed as parameters (the
/// emitter resolves them once per kernel run) and through a handle read
/// from device memory, with coordinates past both ends and a texture object
/// replaced between launches; built from CUDA source.
#[test]
fn fetches_in_loops_through_parameter_and_loaded_handles() {
    let text = build_and_run_with("tex_fetch_loop", &[]);
    assert!(text.contains("PASS tex_fetch_loop"), "{text}");
}
