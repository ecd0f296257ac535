//! The selective AST reader on the sample programs.

#[allow(dead_code)]
mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use cucc_frontend::ast::{parse_all, Kind, Node, ReadOptions, TranslationUnit};
use cucc_frontend::clang::{include_dir, Clang, ClangOptions};

fn read(clang: &Clang, src: &Path) -> (TranslationUnit, Duration) {
    let out = clang
        .ast_json(src, &ClangOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    read_json(out.stdout, src)
}

fn read_json(json: String, src: &Path) -> (TranslationUnit, Duration) {
    let opts = ReadOptions {
        main_file: src.display().to_string(),
        keep_dirs: vec![include_dir().display().to_string()],
        keep_device_decls: false,
    };
    let start = Instant::now();
    let tu =
        TranslationUnit::read(json, &opts).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    (tu, start.elapsed())
}

/// Kernel names declared with `__global__` in a source file, with the line
/// of each name.
fn global_lines(src: &Path) -> Vec<(String, u32)> {
    let text = std::fs::read_to_string(src).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        if let Some(pos) = line.find("__global__ void ") {
            let rest = &line[pos + "__global__ void ".len()..];
            let rest = rest.strip_prefix("__launch_bounds__(128) ").unwrap_or(rest);
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push((name, k as u32 + 1));
        }
    }
    out
}

#[test]
fn finds_every_kernel_with_its_file_and_line() {
    let Some(clang) = common::clang() else { return };
    for src in common::samples() {
        let (tu, _) = read(&clang, &src);
        let expected = global_lines(&src);
        assert!(!expected.is_empty(), "{}", src.display());
        let kernels = tu.kernels();
        for (name, line) in &expected {
            let found: Vec<&&Node> = kernels
                .iter()
                .filter(|k| k.name.as_deref() == Some(name))
                .collect();
            assert!(
                !found.is_empty(),
                "{}: kernel {name} not found",
                src.display()
            );
            for k in found {
                let loc = k.loc.as_ref().expect("kernel has a location");
                assert_eq!(loc.file(), src.display().to_string(), "{name}");
                assert_eq!(loc.line(), *line, "{}: {name}", src.display());
                assert!(k.mangled_name.is_some(), "{name} has a mangled name");
            }
        }
        for k in &kernels {
            assert!(
                expected.iter().any(|(n, _)| k.name.as_deref() == Some(n)),
                "{}: unexpected kernel {:?}",
                src.display(),
                k.name
            );
        }
    }
}

#[test]
fn kernel_template_instantiations_are_found() {
    let Some(clang) = common::clang() else { return };
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/reduce_shared.cu");
    let (tu, _) = read(&clang, &src);
    let mut names: Vec<&str> = tu
        .kernels()
        .iter()
        .filter_map(|k| k.mangled_name.as_deref())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "_Z14count_positivePKfPii",
            "_Z3redIdLi128EEvPKT_PS0_i",
            "_Z3redIfLi256EEvPKT_PS0_i"
        ]
    );
    let red = tu
        .kernels()
        .into_iter()
        .find(|k| k.mangled_name.as_deref() == Some("_Z3redIfLi256EEvPKT_PS0_i"))
        .unwrap();
    // The instantiation has its body, with the shared array and the barrier.
    let mut shared = false;
    let mut barriers = 0;
    red.walk(&mut |n| {
        if n.is(&Kind::VarDecl)
            && n.has_attr(&Kind::CUDASharedAttr)
            && n.name.as_deref() == Some("buf")
        {
            shared = true;
            assert_eq!(n.ty.as_ref().unwrap().canonical(), "float[256]");
        }
        if n.is(&Kind::DeclRefExpr)
            && n.referenced_decl.as_ref().and_then(|d| d.name.as_deref()) == Some("__syncthreads")
        {
            barriers += 1;
        }
    });
    assert!(shared);
    assert_eq!(barriers, 2);
}

#[test]
fn builtins_and_intrinsics_are_recognisable() {
    let Some(clang) = common::clang() else { return };
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/warp_shuffle.cu");
    let (tu, _) = read(&clang, &src);
    let inc = include_dir().display().to_string();
    // The built-in variables and the intrinsics are kept, declared in cucc's headers.
    let mut declared = std::collections::HashMap::new();
    for d in &tu.decls {
        d.walk(&mut |n| {
            if let (Some(name), Some(loc)) = (&n.name, &n.loc) {
                if loc.file().starts_with(&inc) {
                    declared.insert(n.id, name.clone());
                }
            }
        });
    }
    let mut seen = Vec::new();
    let main = src.display().to_string();
    for k in tu
        .decls
        .iter()
        .filter(|d| d.loc.as_ref().is_some_and(|l| l.file() == main))
    {
        k.walk(&mut |n| {
            if let Some(d) = &n.referenced_decl {
                if declared.contains_key(&d.id) {
                    seen.push(d.name.clone().unwrap_or_default());
                }
            }
        });
    }
    for want in [
        "threadIdx",
        "blockIdx",
        "blockDim",
        "warpSize",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot_sync",
        "__activemask",
        "__syncwarp",
    ] {
        assert!(seen.iter().any(|s| s == want), "{want} not seen: {seen:?}");
    }
}

#[test]
fn barriers_and_atomics_resolve_to_header_declarations() {
    if common::clang().is_none() {
        return;
    }
    let inc = include_dir().display().to_string();
    for (file, wants) in [
        (
            "reduce_shared.cu",
            &[
                "__syncthreads",
                "__syncthreads_count",
                "__syncthreads_and",
                "__syncthreads_or",
            ][..],
        ),
        (
            "atomics.cu",
            &[
                "atomicAdd",
                "atomicCAS",
                "atomicInc",
                "atomicXor_block",
                "__threadfence_system",
            ][..],
        ),
        (
            "printf_assert.cu",
            &["printf", "__assert_fail", "clock64", "clock", "sqrtf"][..],
        ),
        (
            "textures.cu",
            &["tex1Dfetch", "tex2D", "tex3D", "tex_lin"][..],
        ),
    ] {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cuda")
            .join(file);
        let tu = cucc_frontend::read_cuda(&src, &ClangOptions::default()).unwrap();
        let map = tu.node_map();
        let mut seen = std::collections::BTreeSet::new();
        for k in tu.kernels() {
            k.walk(&mut |n| {
                let Some(d) = &n.referenced_decl else { return };
                let Some(decl) = map.get(&d.id) else { return };
                let name = d.name.clone().unwrap_or_default();
                let in_headers = decl.user_loc().is_some_and(|l| l.file().starts_with(&inc));
                let in_main = decl
                    .user_loc()
                    .is_some_and(|l| l.file() == src.display().to_string());
                if in_headers || in_main {
                    seen.insert(name);
                }
            });
        }
        for w in wants {
            assert!(seen.contains(*w), "{file}: {w} not resolved; saw {seen:?}");
        }
    }
}

#[test]
fn selective_reading_agrees_with_a_full_parse() {
    let Some(clang) = common::clang() else { return };
    // A unit small enough to parse fully: no standard C++ headers.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/atomics.cu");
    let out = clang.ast_json(&src, &ClangOptions::default()).unwrap();
    let full = parse_all(&out.stdout).unwrap();
    let (tu, _) = read_json(out.stdout, &src);
    let main = src.display().to_string();
    let full_main: Vec<&Node> = full
        .inner
        .iter()
        .filter(|n| n.loc.as_ref().is_some_and(|l| l.file() == main))
        .collect();
    let kept_main: Vec<&Node> = tu
        .decls
        .iter()
        .filter(|n| n.loc.as_ref().is_some_and(|l| l.file() == main))
        .collect();
    assert!(!kept_main.is_empty());
    assert_eq!(full_main.len(), kept_main.len());
    for (a, b) in full_main.iter().zip(&kept_main) {
        let mut la = Vec::new();
        let mut lb = Vec::new();
        a.walk(&mut |n| la.push((n.id, n.loc.clone(), n.range.clone())));
        b.walk(&mut |n| lb.push((n.id, n.loc.clone(), n.range.clone())));
        assert_eq!(la.len(), lb.len());
        for (x, y) in la.iter().zip(&lb) {
            assert_eq!(x, y);
        }
    }
    // Skipped declarations materialise with the locations a full parse gives.
    let mut by_id = std::collections::HashMap::new();
    for n in &full.inner {
        by_id.insert(n.id, n);
    }
    let mut checked = 0;
    for d in tu.skipped().iter().step_by(7) {
        if let Some(want) = by_id.get(&d.id) {
            let got = tu.materialise(d.id).unwrap().unwrap();
            assert_eq!(got.loc, want.loc);
            assert_eq!(got.range, want.range);
            checked += 1;
        }
    }
    assert!(checked > 10);
}

/// The figure in docs/frontend.md: reading the JSON of a unit that includes
/// <iostream>, <vector> and <cmath>. Measured, not asserted.
#[test]
fn reads_a_unit_with_standard_headers() {
    let Some(clang) = common::clang() else { return };
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/printf_assert.cu");
    let (tu, elapsed) = read(&clang, &src);
    assert!(tu.stats.bytes > 50_000_000, "{:?}", tu.stats);
    assert!(tu.stats.skipped > tu.stats.kept);
    assert_eq!(tu.kernels().len(), 1);
    let _ = elapsed;
}

#[test]
fn host_device_library_functions_are_found_on_demand() {
    if common::clang().is_none() {
        return;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/idioms.cu");
    let tu = cucc_frontend::read_cuda(&src, &ClangOptions::default()).unwrap();
    let kernel = tu
        .kernels()
        .into_iter()
        .find(|k| k.name.as_deref() == Some("tile2d"))
        .unwrap();
    // `std::isnan(v)` in the kernel calls libstdc++'s constexpr (so host-device)
    // std::isnan(float), which the reader skipped.
    let mut isnan = None;
    kernel.walk(&mut |n| {
        if let Some(d) = &n.referenced_decl {
            if d.name.as_deref() == Some("isnan") {
                isnan = Some(d.id);
            }
        }
    });
    let id = isnan.expect("the kernel calls isnan");
    assert!(!tu.node_map().contains_key(&id));
    let f = tu
        .find_node(id)
        .unwrap()
        .expect("found in the skipped text");
    assert!(f.is(&Kind::FunctionDecl));
    assert!(f.has_attr(&Kind::CUDADeviceAttr));
    let mut builtin = false;
    f.walk(&mut |n| {
        if n.referenced_decl.as_ref().and_then(|d| d.name.as_deref()) == Some("__builtin_isnan") {
            builtin = true;
        }
    });
    assert!(builtin);
    assert!(f.loc.as_ref().unwrap().file().contains("cmath"));
}
