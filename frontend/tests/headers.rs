//! Every sample program compiles against cucc's headers, on the device side
//! and on the host side.

#[allow(dead_code)]
mod common;

use cucc_frontend::clang::{ClangOptions, CudaSide};

fn check_all(side: CudaSide) {
    let Some(clang) = common::clang() else { return };
    let samples = common::samples();
    assert!(
        samples.len() >= 8,
        "expected the sample programs, found {samples:?}"
    );
    let mut failures = Vec::new();
    for src in &samples {
        match clang.check(src, side, &ClangOptions::default()) {
            Ok(out) if out.stderr.trim().is_empty() => {}
            Ok(out) => failures.push(format!("{}: warnings:\n{}", src.display(), out.stderr)),
            Err(e) => failures.push(format!("{}:\n{e}", src.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn samples_compile_for_the_device() {
    check_all(CudaSide::Device);
}

#[test]
fn samples_compile_for_the_host() {
    check_all(CudaSide::Host);
}

#[test]
fn clang_errors_come_back_verbatim() {
    let Some(clang) = common::clang() else { return };
    let dir = std::env::temp_dir().join(format!("cucc-frontend-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("bad.cu");
    std::fs::write(
        &src,
        "__global__ void k(int *p) { p[0] = undefined_name; }\n",
    )
    .unwrap();
    let err = clang
        .check(&src, CudaSide::Device, &ClangOptions::default())
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("use of undeclared identifier 'undefined_name'"),
        "{text}"
    );
    assert!(text.contains("bad.cu:1:"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
