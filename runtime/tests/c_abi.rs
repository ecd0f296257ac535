//! Links a C program against the built `libcudart.so.13` (through the soname,
//! as programs built against NVIDIA's library do) and runs it.

mod cprog;

use std::process::Command;

#[test]
fn c_program_links_against_the_soname_and_runs() {
    let prog = cprog::build("basic", &[]);

    // The program's references carry the library's symbol version.
    if let Ok(out) = Command::new("readelf")
        .args(["--dyn-syms", "-W"])
        .arg(&prog.exe)
        .output()
    {
        let syms = String::from_utf8_lossy(&out.stdout);
        assert!(syms.contains("cudaMalloc@libcudart.so.13"), "{syms}");
        assert!(
            syms.contains("__cudaRegisterFatBinary@libcudart.so.13"),
            "{syms}"
        );
    }
    let out = cprog::run(&mut Command::new(&prog.exe));
    assert!(out.contains("ok"), "{out}");
    assert!(
        out.contains("basic.cu:7: void trap_kernel(): Assertion `i < n` failed."),
        "{out}"
    );
}
