//! `include/cucc_abi.h`, the header C device objects and tests compile
//! against, declares the ABI structs as their one Rust definition
//! (`cucc_cpuify::abi`) lays them out: a C compiler evaluates static
//! assertions of every size, alignment, field name, offset and field size.

use cucc_cpuify::abi::{layout_asserts_c, layouts_named};

#[test]
fn header_matches_the_rust_definitions() {
    let structs = layouts_named(&[
        "cucc_launch",
        "cucc_kernel_info",
        "cucc_var_info",
        "cucc_managed_info",
        "cucc_texref_info",
        "cucc_tex_desc",
        "cucc_tex_api",
    ])
    .expect("the ABI defines every struct of the header");
    let include = concat!(env!("CARGO_MANIFEST_DIR"), "/include");
    let dir = std::env::temp_dir().join(format!("cucc-abi-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let src = dir.join("probe.c");
    let probe = format!("#include \"cucc_abi.h\"\n{}", layout_asserts_c(&structs));
    std::fs::write(&src, probe).expect("write the probe");
    for std in ["-std=c11", "-std=gnu11"] {
        let out = std::process::Command::new("cc")
            .args([std, "-fsyntax-only", "-Wall", "-I", include])
            .arg(&src)
            .output()
            .expect("cc runs");
        assert!(
            out.status.success(),
            "cucc_abi.h disagrees with cucc_cpuify::abi:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
