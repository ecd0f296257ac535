//! Checked builds (`CUCC_SANITIZE`, docs/sanitize.md): which accesses the
//! emitted C checks, and that the checked C compiles.

use cucc_cpuify::emit_c::{emit_module_checked, Sanitize};
use cucc_cpuify::pipeline::{self, Options};
use cucc_cpuify::remarks::Remarks;

/// A block writes a shared tile, synchronises, reads it reversed into a
/// private cell and stores to global memory.
const KERNEL: &str = r#"file "checked.cu"

global @tile : [8 x i32] shared

kernel @k(%out: ptr<global>) loc(0:1:1) {
  %bx = block_id x : i32
  %tx = thread_id x : i32
  %tile = global.addr @tile : ptr<shared>
  %cell = alloca private [2 x i32] : ptr<private>
  %s = ptr.index i32 %tile, %tx : ptr<shared>
  store %s, %bx loc(0:5:3)
  barrier block
  %c7 = const 7 : i32
  %r = sub %c7, %tx : i32
  %s2 = ptr.index i32 %tile, %r : ptr<shared>
  %v = load %s2 : i32 loc(0:8:3)
  %c1 = const 1 : i32
  %odd = and %tx, %c1 : i32
  %pc = ptr.index i32 %cell, %odd : ptr<private>
  store %pc, %v
  %w = load %pc : i32
  %q = ptr.index i32 %out, %tx : ptr<global>
  store %q, %w loc(0:12:3)
  return
}
"#;

fn emitted(mode: Sanitize) -> String {
    let mut m = cucc_ir::parse_module(KERNEL).expect("parses");
    let opts = Options::verifying().for_checks();
    pipeline::run(&mut m, &opts, &mut Remarks::default(), &mut |_, _| {}).expect("pipeline");
    emit_module_checked(&m, mode).expect("emits").c
}

fn compiles(c: &str, tag: &str) {
    let dir = std::env::temp_dir().join(format!("cucc-checked-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let src = dir.join("k.c");
    std::fs::write(&src, c).expect("write");
    let out = std::process::Command::new("cc")
        .args([
            "-std=gnu11",
            "-O2",
            "-fsyntax-only",
            "-Wall",
            "-Wno-unused",
            "-Werror",
        ])
        .arg(&src)
        .output()
        .expect("cc runs");
    assert!(
        out.status.success(),
        "{}\n{c}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn memcheck_checks_shared_and_global_accesses_not_private_ones() {
    let c = emitted(Sanitize::Memcheck);
    // The shared store and load and the global store; not the private cell.
    assert_eq!(c.matches("cucc_mc_ok(&cucc_mc,").count(), 3, "{c}");
    assert_eq!(c.matches("__cucc_mc_fail(&cucc_site_").count(), 3, "{c}");
    assert!(
        c.contains("\"checked.cu:"),
        "sites name the source file: {c}"
    );
    compiles(&c, "mc");
}

#[test]
fn racecheck_records_shared_accesses_per_thread_loop_run() {
    let c = emitted(Sanitize::Racecheck);
    assert_eq!(c.matches("cucc_rc_access(cucc_rc,").count(), 2, "{c}");
    // The barrier split the block loop in two: each run is a phase.
    assert_eq!(c.matches("++cucc_rc->epoch;").count(), 2, "{c}");
    assert!(!c.contains("cucc_mc_ok(&"), "{c}");
    compiles(&c, "rc");
}

#[test]
fn unchecked_builds_have_no_checks() {
    let c = emitted(Sanitize::Off);
    assert!(!c.contains("cucc_mc_ok(&") && !c.contains("cucc_rc_access(cucc_rc"));
    assert!(!c.contains("cucc_san_site"));
}
