//! Every name NVIDIA's `libcudart.so.13` exports is exported by the built
//! runtime, with the same symbol version: a program built by nvcc that
//! calls any of them must not die with a "symbol lookup error".
//! `tests/data/nvidia_cudart13_exports.txt` lists NVIDIA's names, taken once
//! from `nm -D --defined-only` of the 13.0 library (`libcudart.so.13` among
//! them is the version definition itself).

mod cprog;

use std::collections::BTreeSet;
use std::process::Command;

fn nvidia_names() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/nvidia_cudart13_exports.txt"
    );
    let text = std::fs::read_to_string(path).expect("the checked-in export list");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn the_list_is_nvidias_whole_export_table() {
    let names = nvidia_names();
    assert_eq!(names.len(), 459, "458 functions and the version node");
    assert!(names.iter().any(|n| n == "cudaMallocAsync"));
    assert!(names.iter().any(|n| n == "cudaGraphLaunch"));
}

#[test]
fn every_nvidia_export_is_exported_with_its_version() {
    let lib = cprog::runtime_library().expect("libcucc_runtime.so next to the test binary");
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&lib)
        .output()
        .expect("nm (binutils) runs");
    assert!(out.status.success(), "nm failed on {}", lib.display());
    let text = String::from_utf8_lossy(&out.stdout);
    // "0000000000012345 T cudaMalloc@@libcudart.so.13"
    let versioned: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter_map(|s| s.strip_suffix("@@libcudart.so.13"))
        .collect();
    let missing: Vec<String> = nvidia_names()
        .into_iter()
        .filter(|n| n != "libcudart.so.13" && !versioned.contains(n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of NVIDIA's entry points are not exported as NAME@@libcudart.so.13: {missing:?}",
        missing.len()
    );
    assert!(
        text.contains(" libcudart.so.13"),
        "the version node is defined"
    );
}
