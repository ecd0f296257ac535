//! Snapshot tests: the IR the CUDA frontend produces for every corpus
//! program (`tests/cuda/`), the IR the PTX frontend produces for nvcc's PTX
//! of the corpus (`frontend/tests/ptx/`), and the C that `emit_c` writes
//! for a representative set of kernels after the default pipeline, each
//! checked in under `frontend/tests/snapshots/` so that a change to a
//! lowering or to the emitter shows up as a diff.
//!
//! `UPDATE_SNAPSHOTS=1 cargo test -p cucc-frontend --test snapshots`
//! rewrites the files that differ (and writes missing ones).

#[allow(dead_code)]
mod common;
use common::files_with as files;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Corpus programs whose emitted C is checked in: the shapes cpuify treats
/// differently (1-D and 2-D grids, shared tiles with barriers, tree
/// reductions, warp collectives, atomics, textures).
const C_SNAPSHOTS: &[&str] = &[
    "grid2d_collapse",
    "histogram",
    "matmul_tiled",
    "prefix_scan",
    "reduction",
    "stencil",
    "texture_objects",
    "warp_shuffle",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn snapshot_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(kind)
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Machine-independent text: the repository root and the path given to the
/// frontend are replaced by file names.
fn normalize(text: &str) -> String {
    let abs = root()
        .canonicalize()
        .map(|p| format!("{}/", p.display()))
        .unwrap_or_default();
    let mut t = text.to_string();
    if !abs.is_empty() {
        t = t.replace(&abs, "");
    }
    t.replace("../tests/cuda/", "tests/cuda/")
}

/// Compares `got` with snapshot `dir/name`; returns a failure message, or
/// rewrites the file under `UPDATE_SNAPSHOTS`.
fn check(dir: &Path, name: &str, got: &str) -> Option<String> {
    let path = dir.join(name);
    let want = std::fs::read_to_string(&path).ok();
    if want.as_deref() == Some(got) {
        return None;
    }
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(dir).expect("snapshot dir");
        std::fs::write(&path, got).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return None;
    }
    let Some(want) = want else {
        return Some(format!("{name}: no snapshot (run with UPDATE_SNAPSHOTS=1)"));
    };
    let first = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| want.lines().count().min(got.lines().count()));
    Some(format!(
        "{name}: differs from its snapshot at line {}:\n  snapshot: {}\n  now:      {}",
        first + 1,
        want.lines().nth(first).unwrap_or("<end>"),
        got.lines().nth(first).unwrap_or("<end>"),
    ))
}

/// Runs `f` on every item with two threads (clang dominates the time).
fn each<T: Sync>(items: &[T], f: impl Fn(&T) -> Option<String> + Sync) -> Vec<String> {
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let Ok(mut n) = next.lock() else { return };
                    *n += 1;
                    *n - 1
                };
                let Some(item) = items.get(i) else { return };
                if let Some(msg) = f(item) {
                    if let Ok(mut v) = failures.lock() {
                        v.push(msg);
                    }
                }
            });
        }
    });
    let mut v = failures.into_inner().unwrap_or_default();
    v.sort();
    v
}

fn lower_cuda(path: &Path) -> Result<cucc_ir::Module, String> {
    cucc_frontend::cuda::lower_file(path, &cucc_frontend::cuda::LowerOptions::default())
        .map_err(|e| e.to_string())
}

#[test]
fn cuda_frontend_ir() {
    let dir = snapshot_dir("cuda");
    let programs = files(&root().join("tests/cuda"), "cu");
    assert!(!programs.is_empty());
    let failures = each(&programs, |p| {
        let rel = Path::new("../tests/cuda").join(p.file_name()?);
        let m = match lower_cuda(&rel) {
            Ok(m) => m,
            Err(e) => return Some(format!("{}: {e}", stem(p))),
        };
        let text = normalize(&cucc_ir::print_module(&m));
        check(&dir, &format!("{}.cuir", stem(p)), &text)
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn ptx_frontend_ir() {
    let dir = snapshot_dir("ptx");
    let inputs = files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx"),
        "ptx",
    );
    assert!(!inputs.is_empty());
    let failures = each(&inputs, |p| {
        let text = std::fs::read_to_string(p).ok()?;
        let name = format!("{}.ptx", stem(p));
        let m = match cucc_frontend::ptx::lower_ptx(&text, &name) {
            Ok(m) => m,
            Err(e) => return Some(format!("{name}: {e}")),
        };
        check(
            &dir,
            &format!("{}.cuir", stem(p)),
            &cucc_ir::print_module(&m),
        )
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn emitted_c() {
    let dir = snapshot_dir("c");
    let failures = each(C_SNAPSHOTS, |name| {
        let rel = Path::new("../tests/cuda").join(format!("{name}.cu"));
        let mut m = match lower_cuda(&rel) {
            Ok(m) => m,
            Err(e) => return Some(format!("{name}: {e}")),
        };
        if let Err(e) = common::cpuify(&mut m) {
            return Some(format!("{name}: {e}"));
        }
        let c = match cucc_cpuify::emit_c::emit_module(&m) {
            Ok(e) => e.c,
            Err(e) => return Some(format!("{name}: {e}")),
        };
        // The prelude is the same for every module: from the first kernel on.
        let body = c.find("/* kernel ").map_or(c.as_str(), |i| &c[i..]);
        check(&dir, &format!("{name}.c.snap"), &normalize(body))
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
