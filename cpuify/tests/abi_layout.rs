//! The C a device object declares the ABI structs with (prelude,
//! registration tables, checked-build declarations) against their Rust
//! definition in `cucc_cpuify::abi`: a C compiler evaluates static
//! assertions of every size, alignment, field name, offset and field size.

use cucc_cpuify::abi::{layout_asserts_c, LAYOUTS};
use cucc_cpuify::emit_c::{emit_device_object_checked, Sanitize};

/// A module whose object uses every registration table: a kernel, a
/// variable, a managed variable and a texture reference.
const MODULE: &str = r#"
global @v : i32 global
global @m : i32 global managed
texture @t : f32 global dims 1
kernel @k(%out: ptr<global>) {
  return
}
"#;

/// Compiles `c` with `cc -fsyntax-only`; the compiler's complaint on failure.
fn syntax_check(c: &str, tag: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("cucc-abi-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let src = dir.join("abi.c");
    std::fs::write(&src, c).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("cc")
        .args(["-std=gnu11", "-fsyntax-only", "-w"])
        .arg(&src)
        .output()
        .map_err(|e| format!("cannot run cc: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn emitted_declarations_match_the_rust_definitions() {
    let m = cucc_ir::parse_module(MODULE).expect("parses");
    cucc_ir::verify_module(&m).expect("verifies");
    for mode in [Sanitize::Off, Sanitize::Racecheck] {
        let c = emit_device_object_checked(&m, &[7; 16], mode, None)
            .expect("emits")
            .c;
        for s in LAYOUTS {
            let checked = s.c_name.starts_with("cucc_rc_") || s.c_name == "cucc_san_site";
            if checked == (mode == Sanitize::Off) {
                continue;
            }
            assert!(
                c.contains(&format!("}} {};", s.c_name)),
                "the {} object declares no {}",
                mode.name(),
                s.c_name
            );
        }
        let structs: Vec<_> = LAYOUTS
            .iter()
            .filter(|s| c.contains(&format!("}} {};", s.c_name)))
            .copied()
            .collect();
        let probe = format!("{c}\n{}", layout_asserts_c(&structs));
        if let Err(e) = syntax_check(&probe, mode.name()) {
            panic!("the emitted C disagrees with cucc_cpuify::abi:\n{e}");
        }
    }
}

#[test]
fn a_wrong_declaration_is_caught() {
    let m = cucc_ir::parse_module(MODULE).expect("parses");
    let good = emit_device_object_checked(&m, &[7; 16], Sanitize::Off, None)
        .expect("emits")
        .c;
    let launch = cucc_cpuify::abi::Launch::LAYOUT;
    // `thread_ranges` as a 64-bit field: the offsets still agree, the
    // field size and the struct size do not.
    let c = good.replace("uint32_t thread_ranges;", "uint64_t thread_ranges;");
    assert_ne!(c, good);
    let err = syntax_check(&format!("{c}\n{}", layout_asserts_c(&[launch])), "wrong")
        .expect_err("a mismatch fails to compile");
    assert!(err.contains("thread_ranges"), "{err}");
    // A renamed field fails too.
    let c = good.replace("uint64_t dynamic_shared;", "uint64_t dyn_shared;");
    assert_ne!(c, good);
    assert!(syntax_check(&format!("{c}\n{}", layout_asserts_c(&[launch])), "renamed").is_err());
}
