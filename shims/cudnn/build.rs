//! Link settings that make the cdylib a drop-in `libcudnn.so.9` and bring in
//! OpenBLAS for the GEMMs.
//!
//! The soname is NVIDIA's, so a program linked with `-lcudnn` records
//! `libcudnn.so.9` as NVIDIA's would. The library does not link against the
//! CUDA runtime: the few runtime entry points it needs (stream ordering) are
//! looked up in the running process, which always has cucc's runtime loaded
//! when a CUDA program calls into cuDNN.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-lib=dylib=openblas");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudnn.so.9");
    }
}
