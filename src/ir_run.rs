//! `cucc ir-run`: runs a kernel of an IR file on the reference interpreter
//! and, translated by cpuify, as compiled C; prints the buffers and whether
//! the two agree.
//!
//! A file can carry its own runs as `; run:` comment lines holding the same
//! options as the command line (`--kernel`, `--grid`, `--block`, `--shared`,
//! `--arg`), so `cucc ir-run --examples DIR` runs every file of a directory.

use crate::jit;
use cucc_cpuify::abi::{KernelFn as Entry, Launch};
use cucc_cpuify::{emit_c, pipeline, remarks::Remarks};
use cucc_ir::interp::runspec::{interpret, runs_in, ArgSpec, Elem, RunBuilder, RunSpec};
use cucc_ir::Module;
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `cucc ir-run` was asked to do.
#[derive(Debug, Default)]
pub struct Options {
    /// IR files to run.
    pub files: Vec<PathBuf>,
    /// Directories whose `.cuir` files to run.
    pub example_dirs: Vec<PathBuf>,
    /// A run given on the command line (otherwise the files' `; run:` lines).
    pub run: Option<RunSpec>,
    /// Skip the compiled-C comparison.
    pub no_compile: bool,
    /// Elements of each buffer to print.
    pub show: usize,
}

/// Parses the options after `ir-run`.
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        show: 8,
        ..Options::default()
    };
    let mut run = RunBuilder::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = |name: &str| -> Result<String, String> {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("`{name}` needs a value"))
        };
        match a {
            "--examples" => o.example_dirs.push(PathBuf::from(value(a)?)),
            "--no-compile" => o.no_compile = true,
            "--show" => {
                let v = value(a)?;
                o.show = v
                    .parse()
                    .map_err(|_| format!("`--show {v}`: not a count"))?;
            }
            _ if a.starts_with("--") => run.option(a, &mut value)?,
            _ => o.files.push(PathBuf::from(a)),
        }
        i += 1;
    }
    o.run = run.finish()?;
    if o.files.is_empty() && o.example_dirs.is_empty() {
        return Err("no IR file given (cucc ir-run FILE.cuir [options] or --examples DIR)".into());
    }
    Ok(o)
}

/// Runs everything `o` asks for; returns false if anything failed.
pub fn main(o: &Options) -> bool {
    let mut files = o.files.clone();
    for dir in &o.example_dirs {
        match std::fs::read_dir(dir) {
            Ok(entries) => {
                let mut found: Vec<PathBuf> = entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "cuir"))
                    .collect();
                found.sort();
                files.extend(found);
            }
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", dir.display());
                return false;
            }
        }
    }
    let mut ok = true;
    for file in &files {
        if let Err(e) = run_file(file, o) {
            eprintln!("error: {e}");
            ok = false;
        }
    }
    ok
}

fn run_file(path: &Path, o: &Options) -> Result<(), String> {
    let name = path.display().to_string();
    let source = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let module = cucc_ir::parse_module(&source).map_err(|e| format!("{name}:{e}"))?;
    cucc_ir::verify_module(&module).map_err(|e| format!("{name}: invalid IR:\n{e}"))?;
    let runs = match &o.run {
        Some(r) => vec![r.clone()],
        None => runs_in(&source).map_err(|e| format!("{name}: {e}"))?,
    };
    if runs.is_empty() {
        return Err(format!("{name}: no `; run:` line and no --kernel given"));
    }
    println!("{name}");
    for run in &runs {
        run_one(&name, &module, run, o)?;
    }
    Ok(())
}

fn run_one(name: &str, module: &Module, run: &RunSpec, o: &Options) -> Result<(), String> {
    println!(
        "  {}  grid {}x{}x{}  block {}x{}x{}",
        run.kernel, run.grid[0], run.grid[1], run.grid[2], run.block[0], run.block[1], run.block[2]
    );
    let start = Instant::now();
    let (buffers, steps) = interpret(module, run).map_err(|e| format!("{name}: {e}"))?;
    println!(
        "    interpreter: {steps} ops in {:.3} s",
        start.elapsed().as_secs_f64()
    );
    let mut k = 0;
    for (i, a) in run.args.iter().enumerate() {
        if let ArgSpec::Buffer(elem, _) = a {
            println!("      arg {i}: {}", show(*elem, &buffers[k], o.show));
            k += 1;
        }
    }
    if o.no_compile {
        return Ok(());
    }
    let start = Instant::now();
    let compiled = compiled(module, run, name)?;
    let same = compiled == buffers;
    println!(
        "    compiled C: {} ({:.2} s to translate, compile and run)",
        if same {
            "same buffers as the interpreter"
        } else {
            "DIFFERENT buffers from the interpreter"
        },
        start.elapsed().as_secs_f64()
    );
    if !same {
        return Err(format!(
            "{name}: the compiled kernel disagrees with the interpreter"
        ));
    }
    Ok(())
}

fn show(elem: Elem, bytes: &[u8], n: usize) -> String {
    let size = elem.size();
    let count = bytes.len() / size;
    let items: Vec<String> = bytes.chunks(size).take(n).map(|c| elem.decode(c)).collect();
    let more = if count > n { ", ..." } else { "" };
    format!("{elem}[{count}] = [{}{more}]", items.join(", "))
}

/// Translates the module with cpuify, compiles it and runs `run`; returns
/// the final buffers.
fn compiled(module: &Module, run: &RunSpec, name: &str) -> Result<Vec<Vec<u8>>, String> {
    let mut m = module.clone();
    let mut remarks = Remarks::default();
    pipeline::run(
        &mut m,
        &pipeline::Options::verifying(),
        &mut remarks,
        &mut |_, _| {},
    )
    .map_err(|e| e.to_string())?;
    let emitted = emit_c::emit_module(&m).map_err(|e| e.to_string())?;
    let Some(info) = emitted.kernels.iter().find(|k| k.name == run.kernel) else {
        return Err(format!(
            "{name}: kernel `{}` was not translated",
            run.kernel
        ));
    };
    if info.param_sizes.len() != run.args.len() {
        return Err(format!(
            "{name}: kernel `{}` takes {} arguments, {} given",
            run.kernel,
            info.param_sizes.len(),
            run.args.len()
        ));
    }
    let source = format!(
        "{}\nvoid __cucc_trap(const char *m) {{ fprintf(stderr, \"kernel trap: %s\\n\", m); }}\nvoid __cucc_assert_trap(const char *m) {{ fprintf(stderr, \"%s\\n\", m); }}\n/* every buffer argument is its own allocation */\nuint8_t __cucc_alloc_distinct(uint32_t n, const void *const *p) {{ for (uint32_t i = 0; i < n; i++) {{ if (!p[i]) return 0; for (uint32_t j = 0; j < i; j++) if (p[i] == p[j]) return 0; }} return 1; }}\n",
        emitted.c
    );
    let dir = crate::scratch::ScratchDir::new()?;
    let stem = Path::new(name)
        .file_stem()
        .map_or("kernel".to_string(), |s| s.to_string_lossy().into_owned());
    let lib = jit::compile_and_load(
        dir.path(),
        &format!("{stem}_{}", emit_c::sanitize(&run.kernel)),
        &source,
    )?;
    // Buffers as 8-byte-aligned storage; scalars in cells.
    let mut storage: Vec<Vec<u64>> = Vec::new();
    let mut cells: Vec<u64> = Vec::new();
    for a in &run.args {
        match a {
            ArgSpec::Buffer(_, bytes) => {
                let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)];
                for (i, b) in bytes.iter().enumerate() {
                    words[i / 8] |= u64::from(*b) << (8 * (i % 8));
                }
                storage.push(words);
                cells.push(0);
            }
            ArgSpec::Scalar(_, bytes) => {
                let mut w = [0u8; 8];
                w[..bytes.len()].copy_from_slice(bytes);
                storage.push(Vec::new());
                cells.push(u64::from_le_bytes(w));
            }
        }
    }
    for (cell, s) in cells.iter_mut().zip(&mut storage) {
        if !s.is_empty() {
            *cell = s.as_mut_ptr() as u64;
        }
    }
    let mut ptrs: Vec<*mut c_void> = cells.iter_mut().map(|c| (c as *mut u64).cast()).collect();
    let sym = format!("{}\0", info.entry);
    // SAFETY: the symbol is an entry emitted with the `Entry` ABI.
    let entry: libloading::Symbol<Entry> =
        unsafe { lib.get(sym.as_bytes()) }.map_err(|e| format!("{name}: {e}"))?;
    let launch = Launch {
        grid: run.grid,
        block: run.block,
        dynamic_shared: u64::from(run.shared),
        tex: std::ptr::null(),
        thread_ranges: 0,
    };
    // 256 guard bytes (32 words) before and after, as the runtime keeps
    // (docs/abi.md).
    let mut buf =
        vec![0u64; ((info.static_shared + u64::from(run.shared)) as usize).div_ceil(8) + 2 + 64];
    let scratch = &mut buf[32..];
    let blocks = run.grid[0] * run.grid[1] * run.grid[2];
    // SAFETY: every pointer argument points at live storage of its size and
    // the scratch holds the kernel's static and dynamic shared memory.
    unsafe {
        entry(
            ptrs.as_mut_ptr(),
            &launch,
            0,
            blocks,
            scratch.as_mut_ptr().cast(),
        );
    }
    let mut out = Vec::new();
    for (a, s) in run.args.iter().zip(&storage) {
        if let ArgSpec::Buffer(_, bytes) = a {
            let mut v = Vec::with_capacity(bytes.len());
            for i in 0..bytes.len() {
                v.push((s[i / 8] >> (8 * (i % 8))) as u8);
            }
            out.push(v);
        }
    }
    Ok(out)
}
