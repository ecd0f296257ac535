//! Link settings that make the cdylib a drop-in `libcudart.so.13`.
//!
//! rustc hands the linker an anonymous version script (it lists the exported
//! symbols), and GNU ld refuses to combine an anonymous version tag with a named
//! one, so a second `--version-script` naming `libcudart.so.13` cannot be used.
//! `--default-symver` gives every exported symbol the version named after the
//! soname, which is exactly `libcudart.so.13`, the version NVIDIA's library
//! defines. rust-lld does not implement `--default-symver`, so the cdylib is
//! linked with GNU ld (binutils), which every Linux C toolchain ships.
//! It also compiles `csrc/fault.c` (kernel fault containment).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Fault containment needs sigsetjmp, which only C may call.
    println!("cargo:rerun-if-changed=csrc/fault.c");
    cc::Build::new()
        .file("csrc/fault.c")
        .warnings(true)
        .compile("cucc_fault");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-fuse-ld=bfd");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
        println!("cargo:rustc-cdylib-link-arg=-Wl,--default-symver");
        // The JIT test loads compiled kernels that call back into the
        // runtime linked into the test binary: export its symbols.
        println!("cargo:rustc-link-arg-tests=-rdynamic");
    }
}
