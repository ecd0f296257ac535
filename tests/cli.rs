//! The `cucc` binary end to end: the examples run and agree with their
//! compiled translation; bad input gets a clear message and a failing exit.

use std::process::Command;

fn cucc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cucc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cucc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn examples_run_and_match_their_translation() {
    let (code, out, err) = cucc(&["ir-run", "--examples", "examples/ir"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    let files = std::fs::read_dir("examples/ir").expect("examples").count();
    assert!(files >= 5);
    assert_eq!(
        out.matches("compiled C: same buffers as the interpreter")
            .count(),
        files
    );
    // Spot-check results the host can compute.
    assert!(
        out.contains("arg 1: i32[1] = [32640]"),
        "warp reduce total:\n{out}"
    );
    assert!(
        out.contains("arg 1: f32[4] = [32640, 98176, 163712, 204972]"),
        "block sums:\n{out}"
    );
    assert!(
        out.contains("arg 1: f32[851] = [0, 37, 74, 111,"),
        "transpose:\n{out}"
    );
}

#[test]
fn divergent_barrier_is_reported() {
    let (code, _, err) = cucc(&["ir-run", "--no-compile", "tests/ir/divergent.cuir"]);
    assert_eq!(code, 1);
    assert!(err.contains("divergent block barrier"), "{err}");
    assert!(err.contains("divergent.cu:5:7"), "location missing: {err}");
}

#[test]
fn out_of_bounds_store_is_reported() {
    let (code, _, err) = cucc(&["ir-run", "--no-compile", "tests/ir/oob.cuir"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("out of bounds") || err.contains("out-of-bounds"),
        "{err}"
    );
}

#[test]
fn bad_input_is_reported() {
    let (code, _, err) = cucc(&["ir-run", "no/such/file.cuir"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read no/such/file.cuir"), "{err}");
    let (code, _, err) = cucc(&["ir-run", "x.cuir", "--bogus"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown option `--bogus`"), "{err}");
    let (code, _, err) = cucc(&["ir-run", "x.cuir", "--kernel", "k", "--arg", "f32[2]=1,2,3"]);
    assert_eq!(code, 2);
    assert!(err.contains("3 values given for 2 elements"), "{err}");
    let (code, _, _) = cucc(&[]);
    assert_eq!(code, 2);
}

#[test]
fn parse_errors_name_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("cucc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let f = dir.join("bad.cuir");
    std::fs::write(&f, "kernel @k() {\n  %0 = frobnicate : i32\n  return\n}\n").expect("write");
    let (code, _, err) = cucc(&["ir-verify", f.to_str().expect("utf8")]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.cuir:2:"), "{err}");
    assert!(err.contains("frobnicate"), "{err}");
}
