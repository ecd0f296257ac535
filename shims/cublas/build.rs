//! Link settings that make the cdylib a drop-in `libcublas.so.13`.
//!
//! - soname `libcublas.so.13` and every exported symbol versioned
//!   `libcublas.so.13` (`--default-symver`, as NVIDIA's library versions its
//!   symbols), so programs linked against either library bind to this one;
//!   GNU ld is used because rust-lld lacks `--default-symver`.
//! - the CUDA runtime is reached through its C API. The library records a
//!   dependency on `libcudart.so.13` (cucc's runtime, found next to it at run
//!   time) by linking against a stub of that name built here, which defines
//!   the few functions used under the runtime's symbol version. The stub only
//!   names symbols; it is never loaded.
//! - BLAS is OpenBLAS (`-lopenblas`).

use std::path::PathBuf;

/// Runtime functions the library calls (must match `src/cudart.rs`).
const CUDART_FUNCTIONS: &[&str] = &[
    "cudaLaunchHostFunc",
    "cudaStreamSynchronize",
    "cudaStreamQuery",
    "cudaMemcpy2D",
    "cudaMemcpy2DAsync",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-lib=dylib=openblas");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os != "linux" {
        return;
    }
    println!("cargo:rustc-cdylib-link-arg=-fuse-ld=bfd");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcublas.so.13");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--default-symver");
    match build_cudart_stub() {
        Ok(dir) => {
            println!("cargo:rustc-cdylib-link-arg=-L{}", dir.display());
            println!("cargo:rustc-cdylib-link-arg=-l:libcudart.so.13");
        }
        Err(e) => {
            println!("cargo:warning=cannot build the libcudart.so.13 link stub: {e}");
            std::process::exit(1);
        }
    }
}

/// Builds `OUT_DIR/cudart-stub/libcudart.so.13` and returns its directory.
fn build_cudart_stub() -> Result<PathBuf, String> {
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let dir = out.join("cudart-stub");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut c = String::from("/* Link stub: names the runtime's symbols; never loaded. */\n");
    for f in CUDART_FUNCTIONS {
        c.push_str(&format!("int {f}(void) {{ return 1; }}\n"));
    }
    let src = dir.join("stub.c");
    std::fs::write(&src, c).map_err(|e| format!("{}: {e}", src.display()))?;
    let script = dir.join("stub.map");
    let globals: String = CUDART_FUNCTIONS.iter().map(|f| format!("{f}; ")).collect();
    std::fs::write(
        &script,
        format!("libcudart.so.13 {{ global: {globals}local: *; }};\n"),
    )
    .map_err(|e| format!("{}: {e}", script.display()))?;
    let lib = dir.join("libcudart.so.13");
    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .try_get_compiler()
        .map_err(|e| e.to_string())?;
    let status = compiler
        .to_command()
        .arg("-shared")
        .arg("-fPIC")
        .arg("-fuse-ld=bfd")
        .arg("-Wl,-soname,libcudart.so.13")
        .arg(format!("-Wl,--version-script={}", script.display()))
        .arg("-o")
        .arg(&lib)
        .arg(&src)
        .status()
        .map_err(|e| format!("running the C compiler: {e}"))?;
    if !status.success() {
        return Err(format!("the C compiler failed building {}", lib.display()));
    }
    Ok(dir)
}
