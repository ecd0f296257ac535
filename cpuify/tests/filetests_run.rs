//! The whole pipeline on every filetest input that has `; run:` lines:
//! `common::differential` checks the interpreter after every pass and the
//! compiled C against the interpreter on the input.

mod common;

use common::{differential, HArg};
use cucc_ir::interp::runspec::{runs_in, ArgSpec};
use cucc_ir::parse_module;
use std::path::{Path, PathBuf};

fn inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            inputs(&p, out);
        } else if p.extension().is_some_and(|x| x == "cuir") {
            out.push(p);
        }
    }
}

#[test]
fn filetest_inputs_through_the_pipeline() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut files = Vec::new();
    inputs(&root, &mut files);
    files.sort();
    let mut ran = 0;
    for file in files {
        let src = std::fs::read_to_string(&file).expect("read");
        let runs = runs_in(&src).expect("run lines");
        for (k, run) in runs.iter().enumerate() {
            println!("{} run {k}", file.display());
            let m = parse_module(&src).expect("parse");
            let args: Vec<HArg> = run
                .args
                .iter()
                .map(|a| match a {
                    ArgSpec::Buffer(_, bytes) => HArg::Buf(bytes.clone()),
                    ArgSpec::Scalar(_, bytes) => {
                        let mut w = [0u8; 8];
                        w[..bytes.len()].copy_from_slice(bytes);
                        HArg::Scalar(u64::from_le_bytes(w), bytes.len())
                    }
                })
                .collect();
            let stem = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .with_extension("")
                .display()
                .to_string()
                .replace(['/', '-'], "_");
            differential(
                m,
                &run.kernel,
                run.grid,
                run.block,
                &args,
                &format!("ft_{stem}_{k}"),
            );
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} filetest runs found");
}
