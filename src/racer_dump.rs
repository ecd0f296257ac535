//! `cucc --racer-dump[=PATH] FILE.cu`: each kernel of a CUDA file lowered
//! to a RACER stream graph, placed on one block (or the smallest
//! rectangle of blocks it fits), and written as the text
//! and SVG dumps of `cucc-racer` (where each operator sits).
//!
//! A stream graph is built for one launch, since the launch shape and the
//! scalar arguments become constants; the dump uses a nominal one
//! (`--racer-launch=GRID,BLOCK`, default 1 block of 64 threads) and
//! scalar arguments by position (`--racer-arg=POS=VALUE`, repeatable;
//! integers default to the launch's thread count, doubles to 1.0).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cucc_ir::{FloatKind, FunctionKind, Module, Type};
use cucc_racer::lower::{Arg, Options};
use cucc_racer::machine::Machine;

/// The parsed command line.
#[derive(Debug, Default, PartialEq)]
pub struct DumpOptions {
    /// The `.cu` file.
    pub input: PathBuf,
    /// Where to write: a directory (one `.txt` and `.svg` per kernel), or
    /// a file for the text of all kernels (SVGs beside it).
    pub out: Option<PathBuf>,
    /// Blocks and threads per block.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// Scalar arguments by parameter position.
    pub args: BTreeMap<usize, String>,
    /// `-I` directories and `-D` definitions for the frontend.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions.
    pub defines: Vec<String>,
}

/// Parses the arguments (`args` holds a `--racer-dump` option).
pub fn parse(args: &[String]) -> Result<DumpOptions, String> {
    let mut o = DumpOptions {
        grid: 1,
        block: 64,
        ..Default::default()
    };
    let mut input = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--racer-dump" {
            continue;
        } else if let Some(p) = a.strip_prefix("--racer-dump=") {
            if p.is_empty() {
                return Err("`--racer-dump=`: empty path".into());
            }
            o.out = Some(PathBuf::from(p));
        } else if let Some(v) = a.strip_prefix("--racer-launch=") {
            let (g, b) = v
                .split_once(',')
                .ok_or(format!("`{a}`: expected GRID,BLOCK"))?;
            let num = |s: &str| {
                s.trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("`{a}`: `{s}` is not a positive count"))
            };
            o.grid = num(g)?;
            o.block = num(b)?;
        } else if let Some(v) = a.strip_prefix("--racer-arg=") {
            let (p, val) = v
                .split_once('=')
                .ok_or(format!("`{a}`: expected POS=VALUE"))?;
            let p = p
                .trim()
                .parse::<usize>()
                .map_err(|_| format!("`{a}`: `{p}` is not a parameter position"))?;
            o.args.insert(p, val.trim().to_string());
        } else if let Some(d) = a.strip_prefix("-I") {
            let d = if d.is_empty() {
                it.next().ok_or("`-I` needs a directory")?.clone()
            } else {
                d.to_string()
            };
            o.include_dirs.push(d.into());
        } else if let Some(d) = a.strip_prefix("-D") {
            let d = if d.is_empty() {
                it.next().ok_or("`-D` needs a definition")?.clone()
            } else {
                d.to_string()
            };
            o.defines.push(d);
        } else if a.starts_with('-') {
            return Err(format!("`{a}`: not an option of --racer-dump"));
        } else if input.replace(PathBuf::from(a)).is_some() {
            return Err("--racer-dump takes one .cu file".into());
        }
    }
    o.input = input.ok_or("--racer-dump: no .cu file given")?;
    Ok(o)
}

/// The lowering's arguments for `kernel`: buffers for pointers, the given
/// or default values for scalars.
fn launch_args(m: &Module, kernel: &str, o: &DumpOptions) -> Result<Vec<Arg>, String> {
    let f = m
        .function(kernel)
        .map(|id| &m.functions[id])
        .ok_or(format!("no kernel `{kernel}`"))?;
    let threads = i64::from(o.grid) * i64::from(o.block);
    f.regions[f.body]
        .args
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let given = o.args.get(&i);
            let bad = |v: &str| format!("{kernel}: --racer-arg={i}={v}: not a value of its type");
            Ok(match &m.types[f.values[a].ty] {
                Type::Int(_) => Arg::Int(match given {
                    Some(v) => v.parse().map_err(|_| bad(v))?,
                    None => threads,
                }),
                Type::Float(FloatKind::F64) | Type::Float(FloatKind::F32) => {
                    Arg::F64(match given {
                        Some(v) => v.parse().map_err(|_| bad(v))?,
                        None => 1.0,
                    })
                }
                _ => Arg::Buffer,
            })
        })
        .collect()
}

/// Writes the dumps; returns false if a kernel could not be dumped (its
/// diagnostic is on stderr).
pub fn main(o: &DumpOptions) -> bool {
    let lower_opts = cucc_frontend::cuda::LowerOptions {
        include_dirs: o.include_dirs.clone(),
        defines: o.defines.clone(),
        ..Default::default()
    };
    let m = match cucc_frontend::cuda::lower_file(&o.input, &lower_opts) {
        Ok(m) => m,
        Err(d) => {
            eprintln!("{d}");
            return false;
        }
    };
    let machine = Machine::racer_v1();
    let stem = o
        .input
        .file_stem()
        .map_or("kernels".into(), |s| s.to_string_lossy().into_owned());
    let out = o.out.clone().unwrap_or_else(|| PathBuf::from("."));
    let to_dir = out.is_dir() || out.extension().is_none();
    let mut text = String::new();
    let mut ok = true;
    let kernels: Vec<String> = m
        .functions
        .iter()
        .filter(|(_, f)| f.kind == FunctionKind::Kernel)
        .map(|(_, f)| f.name.clone())
        .collect();
    if kernels.is_empty() {
        eprintln!("{}: no kernels", o.input.display());
        return false;
    }
    for k in &kernels {
        let args = match launch_args(&m, k, o) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {e}");
                ok = false;
                continue;
            }
        };
        let opts = Options {
            grid: o.grid,
            block: o.block,
            args,
            rotate: true,
            split_branches: false,
        };
        let p = match cucc_racer::launch::prepare(&m, k, &opts, &machine) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                ok = false;
                continue;
            }
        };
        let g = &p.lowered.graph;
        let body = format!(
            "# kernel {k}: launch {} x {}, {} replicas on the array\n{}",
            o.grid,
            o.block,
            p.replicas.len(),
            cucc_racer::dump::dump_text(g, &p.placement, &machine)
        );
        let svg = cucc_racer::dump::dump_svg(g, &p.placement, &machine);
        let short = demangled(k);
        let (txt_path, svg_path) = if to_dir {
            (
                Some(out.join(format!("{stem}.{short}.racer.txt"))),
                out.join(format!("{stem}.{short}.racer.svg")),
            )
        } else {
            text.push_str(&body);
            text.push('\n');
            let base = out.with_extension("");
            (
                None,
                PathBuf::from(format!("{}.{short}.svg", base.display())),
            )
        };
        if let Some(t) = txt_path {
            ok &= write(&t, &body);
        }
        ok &= write(&svg_path, &svg);
    }
    if !to_dir {
        ok &= write(&out, &text);
    }
    ok
}

/// `_Z4lifePKiPiii` → `life`: the file names use the source name.
fn demangled(name: &str) -> String {
    let Some(rest) = name.strip_prefix("_Z") else {
        return name.to_string();
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    match digits.parse::<usize>() {
        Ok(n) if rest.len() >= digits.len() + n => rest[digits.len()..digits.len() + n].into(),
        _ => name.to_string(),
    }
}

fn write(path: &Path, text: &str) -> bool {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return false;
        }
    }
    match std::fs::write(path, text) {
        Ok(()) => {
            eprintln!("wrote {}", path.display());
            true
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_parse() {
        let o = parse(&strings(&[
            "--racer-dump=out",
            "--racer-launch=4,32",
            "--racer-arg=2=26",
            "-Iinc",
            "k.cu",
        ]))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(o.out, Some(PathBuf::from("out")));
        assert_eq!((o.grid, o.block), (4, 32));
        assert_eq!(o.args.get(&2).map(String::as_str), Some("26"));
        assert_eq!(o.include_dirs, vec![PathBuf::from("inc")]);
        assert_eq!(o.input, PathBuf::from("k.cu"));
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in [
            &["--racer-dump", "--racer-launch=4", "k.cu"][..],
            &["--racer-dump", "--racer-launch=0,32", "k.cu"],
            &["--racer-dump", "--racer-arg=x=1", "k.cu"],
            &["--racer-dump", "--bogus", "k.cu"],
            &["--racer-dump", "a.cu", "b.cu"],
            &["--racer-dump"],
        ] {
            assert!(parse(&strings(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn kernel_names_are_demangled_for_file_names() {
        assert_eq!(demangled("_Z4lifePKiPiii"), "life");
        assert_eq!(demangled("plain"), "plain");
        assert_eq!(demangled("_Z99x"), "_Z99x");
    }
}
