//! Generates one trampoline per entry point of NVIDIA's `libcuda.so.1`
//! (the list the runtime keeps, `runtime/src/driver/exports.txt`), and
//! links the library as `libcuda.so.1` depending on `libcudart.so.13`.
//!
//! The runtime is a sibling cdylib that cargo may build after this one, so
//! the dependency is made against a stub: a library with the runtime's
//! soname and symbol version that defines the two functions the
//! trampolines' table is filled from. At run time the loader binds them to
//! cucc's real `libcudart.so.13`.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let exports = "../runtime/src/driver/exports.txt";
    println!("cargo:rerun-if-changed={exports}");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = std::fs::read_to_string(exports).expect("the runtime's list of driver exports");
    let names: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();

    let mut rs = String::new();
    let n = names.len();
    writeln!(
        rs,
        "/// How many entry points there are.\npub const N: usize = {n};"
    )
    .ok();
    writeln!(
        rs,
        "/// Their names, by index.\npub static NAMES: [&CStr; N] = ["
    )
    .ok();
    for name in &names {
        writeln!(rs, "    c\"{name}\",").ok();
    }
    writeln!(rs, "];").ok();
    for (i, name) in names.iter().enumerate() {
        writeln!(
            rs,
            "/// `{name}`: jumps to slot {i}.\n#[unsafe(naked)]\n#[no_mangle]\npub unsafe extern \"C\" fn {name}() {{\n    core::arch::naked_asm!(\"mov eax, {i}\", \"jmp qword ptr [rip + {{slots}} + {off}]\", slots = sym SLOTS);\n}}",
            off = i * 8
        )
        .ok();
    }
    writeln!(
        rs,
        "/// The trampolines, by index.\npub static TRAMPOLINES: [unsafe extern \"C\" fn(); N] = ["
    )
    .ok();
    for name in &names {
        writeln!(rs, "    {name},").ok();
    }
    writeln!(rs, "];").ok();
    std::fs::write(out.join("trampolines.rs"), rs).expect("write trampolines.rs");

    // The stub runtime to link against (soname and version of the real one).
    let stub_c = out.join("stub.c");
    std::fs::write(
        &stub_c,
        "void *__cucc_driver_entry(const char *n) { (void)n; return 0; }\n\
         void __cucc_driver_attach(void *f) { (void)f; }\n\
         unsigned __cucc_driver_unsupported(const char *n) { (void)n; return 801; }\n",
    )
    .expect("write stub.c");
    let stub = out.join("libcudart.so.13");
    let cc = cc::Build::new().get_compiler();
    let status = cc
        .to_command()
        .args(["-shared", "-fPIC", "-fuse-ld=bfd", "-o"])
        .arg(&stub)
        .arg(&stub_c)
        .args(["-Wl,-soname,libcudart.so.13", "-Wl,--default-symver"])
        .status()
        .expect("run the C compiler for the stub runtime");
    assert!(status.success(), "the stub runtime did not link");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcuda.so.1");
    // The runtime is found next to this library (a program's own RUNPATH
    // does not extend to its libraries' dependencies).
    println!("cargo:rustc-cdylib-link-arg=-Wl,-rpath,$ORIGIN");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--no-as-needed");
    println!("cargo:rustc-cdylib-link-arg={}", stub.display());
}
