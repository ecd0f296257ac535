//! Lays out `target/<profile>/cuda`: a CUDA-toolkit-shaped directory of
//! links to this build's driver, libraries and the source tree's headers,
//! the same shape `cucc install --prefix DIR` copies (one description,
//! `src/toolkit/layout.rs`). The links dangle until the workspace's
//! libraries are built; they follow every rebuild.

#[path = "src/toolkit/layout.rs"]
#[allow(dead_code)]
mod layout;

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/toolkit/layout.rs");
    let (Some(out), Some(manifest)) = (
        std::env::var_os("OUT_DIR"),
        std::env::var_os("CARGO_MANIFEST_DIR"),
    ) else {
        return;
    };
    // OUT_DIR is <profile dir>/build/<package>-<hash>/out, and the profile
    // directory is where cargo puts the binaries and cdylibs.
    let out = PathBuf::from(out);
    let Some(profile) = out.ancestors().nth(3) else {
        return;
    };
    let pieces = layout::Pieces {
        driver: profile.join("cucc"),
        runtime: profile.join("libcucc_runtime.so"),
        cublas: profile.join("libcublas.so"),
        cudnn: profile.join("libcudnn.so"),
        libcuda: profile.join("libcuda.so"),
        headers: PathBuf::from(manifest).join("frontend/include"),
    };
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    if let Err(e) = layout::create(&profile.join("cuda"), &pieces, layout::Mode::Link, &version) {
        println!("cargo:warning=the toolkit layout under target/ was not made: {e}");
    }
}
