//! IR-in/IR-out tests of the cpuify passes.
//!
//! Each `tests/filetests/<pass>/NAME.cuir` starts with
//! `; test: PASS[,PASS...]` (pipeline steps by registry name, run in order
//! on every kernel- or launch-form function of the module; each pass leaves
//! alone the functions it does not apply to), optionally
//! `; options: check-barriers`, then the input module. The expected result
//! is `NAME.expected`: the remarks the passes made, as `; remark:` lines,
//! then the printed module. The IR is verified after every pass, and each
//! `; run:` line of the file is run in the interpreter on the input and
//! after every pass, which must leave identical buffers.
//!
//! `CUCC_BLESS=1 cargo test -p cucc-cpuify --test filetests` rewrites the
//! expected files; `CUCC_FILETEST=substring` runs only matching files.

use cucc_cpuify::pipeline::{run_pass, PASSES};
use cucc_cpuify::remarks::Remarks;
use cucc_ir::interp::runspec::{interpret, runs_in, RunSpec};
use cucc_ir::{parse_module, print_module, verify_module, FunctionKind, Module};
use std::path::{Path, PathBuf};

#[test]
fn filetests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no filetests under {}", root.display());
    let filter = std::env::var("CUCC_FILETEST").ok();
    let bless = std::env::var_os("CUCC_BLESS").is_some();
    let mut failures = Vec::new();
    let mut ran = 0;
    for file in &files {
        let rel = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        if filter.as_ref().is_some_and(|f| !rel.contains(f.as_str())) {
            continue;
        }
        ran += 1;
        if let Err(e) = run_file(file, bless) {
            failures.push(format!("--- {rel}\n{e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} filetests failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "cuir") {
            out.push(p);
        }
    }
}

/// The header of a filetest.
struct Header {
    passes: Vec<String>,
    check_barriers: bool,
}

fn header(src: &str) -> Result<Header, String> {
    let mut passes = None;
    let mut check_barriers = false;
    for line in src.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("; test:") {
            let list: Vec<String> = rest
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            for p in &list {
                if !PASSES.iter().any(|i| i.name == p) {
                    return Err(format!("unknown pass `{p}` in `; test:`"));
                }
            }
            passes = Some(list);
        } else if let Some(rest) = line.strip_prefix("; options:") {
            for o in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match o {
                    "check-barriers" => check_barriers = true,
                    _ => return Err(format!("unknown option `{o}` in `; options:`")),
                }
            }
        }
    }
    Ok(Header {
        passes: passes.ok_or("the file has no `; test: PASS,...` line")?,
        check_barriers,
    })
}

fn run_file(file: &Path, bless: bool) -> Result<(), String> {
    let src = std::fs::read_to_string(file).map_err(|e| format!("cannot read: {e}"))?;
    let h = header(&src)?;
    let mut m = parse_module(&src).map_err(|e| format!("parse error: {e}"))?;
    verify_module(&m).map_err(|e| format!("input does not verify:\n{e}"))?;
    let runs = runs_in(&src)?;
    let oracle = runs
        .iter()
        .map(|r| interpret(&m, r).map(|(bufs, _)| bufs))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("interpreter failed on the input: {e}"))?;
    let mut remarks = Remarks::default();
    for pass in &h.passes {
        let fids: Vec<_> = m
            .functions
            .iter()
            .filter(|(_, f)| matches!(f.kind, FunctionKind::Kernel | FunctionKind::Launch))
            .map(|(id, _)| id)
            .collect();
        for fid in fids {
            run_pass(pass, &mut m, fid, &mut remarks, h.check_barriers)
                .map_err(|e| format!("{pass} failed: {e}"))?;
        }
        verify_module(&m)
            .map_err(|e| format!("IR invalid after {pass}:\n{e}\n{}", print_module(&m)))?;
        check_runs(&m, &runs, &oracle, pass)?;
    }
    let mut actual = String::new();
    for line in remarks.render(&m).lines() {
        actual.push_str("; ");
        actual.push_str(line);
        actual.push('\n');
    }
    actual.push_str(&print_module(&m));
    let expected_path = file.with_extension("expected");
    if bless {
        std::fs::write(&expected_path, &actual).map_err(|e| format!("cannot bless: {e}"))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&expected_path).map_err(|e| {
        format!(
            "no expected output {} ({e}); run with CUCC_BLESS=1 to create it",
            expected_path.display()
        )
    })?;
    if expected != actual {
        return Err(format!(
            "output differs from {} (- expected, + actual):\n{}",
            expected_path.display(),
            diff(&expected, &actual)
        ));
    }
    Ok(())
}

fn check_runs(
    m: &Module,
    runs: &[RunSpec],
    oracle: &[Vec<Vec<u8>>],
    pass: &str,
) -> Result<(), String> {
    for (r, want) in runs.iter().zip(oracle) {
        let (got, _) =
            interpret(m, r).map_err(|e| format!("interpreter failed after {pass}: {e}"))?;
        if &got != want {
            let which = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0);
            return Err(format!(
                "after {pass}, run of `{}` leaves buffer {which} different from the input's run",
                r.kernel
            ));
        }
    }
    Ok(())
}

/// A line diff (longest common subsequence), with two lines of context.
fn diff(a: &str, b: &str) -> String {
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut lines: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            lines.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            lines.push(('+', b[j]));
            j += 1;
        } else {
            lines.push(('-', a[i]));
            i += 1;
        }
    }
    let near = |k: usize| {
        let lo = k.saturating_sub(2);
        let hi = (k + 3).min(lines.len());
        lines[lo..hi].iter().any(|(c, _)| *c != ' ')
    };
    let mut out = String::new();
    let mut skipped = false;
    for (k, (c, l)) in lines.iter().enumerate() {
        if near(k) {
            if skipped {
                out.push_str("   ...\n");
                skipped = false;
            }
            out.push_str(&format!(" {c} {l}\n"));
        } else {
            skipped = true;
        }
    }
    out
}
