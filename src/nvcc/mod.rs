//! cucc as a drop-in nvcc: compile `.cu` files (host code as host code,
//! kernels translated to parallel C), compile `.c`/`.cpp` files with the
//! host compiler, and link everything against cucc's `libcudart.so.13`.
//!
//! A `.cu` file becomes one object made of two halves:
//! - the host half, compiled by clang in CUDA host mode with cucc's headers;
//!   clang embeds a small blob naming the translation unit (its module id)
//!   as the "GPU binary" and writes the standard registration calls;
//! - the device half: the frontend lowers the kernels to IR, cpuify
//!   translates them to C, and the C compiler builds it; a constructor
//!   registers the kernels with the runtime under the same module id.
//!
//! `ld -r` joins the halves, so `-c` produces one `.o` as nvcc does.

mod devlink;
mod host_wrapper;
mod launch_syntax;
mod legacy;
mod openmp;
pub mod options;
mod options_file;

use crate::scratch::ScratchDir;
use cucc_cpuify::progress::{PhaseTimes, Progress};
use cucc_cpuify::{emit_c, pipeline, remarks::Remarks};
use cucc_frontend::clang::{Clang, ClangOptions, CudaSide};
use options::{Input, InputKind, NvccOptions, Stage};
use std::cell::RefCell;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Runs an nvcc-style command line; returns the process exit code.
pub fn main(args: &[String]) -> i32 {
    let args = match options_file::expand(&with_env_flags(args)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("cucc: error: {e}");
            return 2;
        }
    };
    if args.iter().any(|a| a == "-v" || a == "--verbose") {
        for line in crate::toolkit::verbose_lines() {
            eprintln!("{line}");
        }
    }
    let o = match options::parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cucc: error: {e}");
            return 2;
        }
    };
    match Driver::new(o).and_then(|mut d| d.run()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// `NVCC_PREPEND_FLAGS` before and `NVCC_APPEND_FLAGS` after the command
/// line's arguments, as nvcc takes them (split at whitespace).
fn with_env_flags(args: &[String]) -> Vec<String> {
    let split = |var: &str| -> Vec<String> {
        std::env::var(var)
            .map(|v| v.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    };
    let mut all = split("NVCC_PREPEND_FLAGS");
    all.extend_from_slice(args);
    all.extend(split("NVCC_APPEND_FLAGS"));
    all
}

struct Driver {
    o: NvccOptions,
    /// Intermediate files; the directory goes when the driver does, unless
    /// `--keep`.
    scratch: ScratchDir,
    temps: Vec<PathBuf>,
    /// Time of each phase (frontend, every cpuify pass, emit_c, each tool
    /// run), printed by `-v`.
    times: RefCell<PhaseTimes>,
    /// The watch on the `.cu` file being compiled: says what runs when the
    /// compile is slow.
    progress: Option<Progress>,
}

impl Driver {
    fn new(o: NvccOptions) -> Result<Driver, String> {
        if o.verbose {
            for ign in &o.ignored {
                eprintln!("cucc: ignoring GPU-only option `{ign}`");
            }
        }
        let mut o = o;
        if let Some(cc) = o.ccbin.clone().filter(|c| host_wrapper::is_mpi_wrapper(c)) {
            // After the command line's own, as the wrapper puts them.
            let flags = host_wrapper::compile_flags(&cc)?;
            host_wrapper::apply(&flags, &mut o.include_dirs, &mut o.macros);
        }
        let mut scratch = ScratchDir::new()?;
        if o.keep {
            scratch.keep();
            eprintln!(
                "cucc: keeping intermediate files in {}",
                scratch.path().display()
            );
        }
        Ok(Driver {
            o,
            scratch,
            temps: Vec::new(),
            times: RefCell::new(PhaseTimes::default()),
            progress: None,
        })
    }

    fn run(&mut self) -> Result<(), String> {
        let result = self.run_stages();
        self.progress = None;
        let times = self.times.borrow();
        if self.o.verbose && !self.o.dry_run && !times.entries().is_empty() {
            eprintln!(
                "cucc: time per phase ({:.1} ms in all):",
                times.total().as_secs_f64() * 1e3
            );
            eprint!("{}", times.render("cucc:   "));
        }
        drop(times);
        if !self.o.keep {
            for t in &self.temps {
                let _ = std::fs::remove_file(t);
            }
        }
        result
    }

    fn run_stages(&mut self) -> Result<(), String> {
        let inputs = self.o.inputs.clone();
        if self.o.emit_ir {
            for input in inputs.iter().filter(|i| i.kind == InputKind::Cuda) {
                let (src, opts) = self.cuda_source(&input.path)?;
                let module = self.lower(&src, &opts)?;
                let text = cucc_ir::print_module(&module);
                self.write_or_print(&text)?;
            }
            return Ok(());
        }
        match self.o.stage {
            Stage::Preprocess | Stage::Deps => {
                for input in &inputs {
                    self.preprocess(input)?;
                }
                return Ok(());
            }
            Stage::Compile => {
                let compilable: Vec<&Input> = inputs
                    .iter()
                    .filter(|i| i.kind != InputKind::Linkable)
                    .collect();
                if self.o.output.is_some() && compilable.len() > 1 {
                    return Err("cucc: error: `-o` with `-c` and several inputs".into());
                }
                for input in compilable {
                    let out = match &self.o.output {
                        Some(o) => o.clone(),
                        None => object_name(&input.path),
                    };
                    self.compile(input, &out)?;
                }
                return Ok(());
            }
            Stage::Link | Stage::DeviceLink => {}
        }
        let mut objects = Vec::new();
        for input in &inputs {
            if input.kind == InputKind::Linkable {
                objects.push(input.path.clone());
                continue;
            }
            let stem = input
                .path
                .file_stem()
                .map_or("input".into(), |s| s.to_string_lossy().into_owned());
            let out = self
                .scratch
                .path()
                .join(format!("{stem}-{}.o", objects.len()));
            self.compile(input, &out)?;
            self.temps.push(out.clone());
            objects.push(out);
        }
        if self.o.stage == Stage::DeviceLink {
            let out = self
                .o
                .output
                .clone()
                .unwrap_or_else(|| PathBuf::from("a_dlink.o"));
            return match self.device_link(&objects)? {
                Some(o) => std::fs::copy(&o, &out)
                    .map(|_| ())
                    .map_err(|e| format!("cucc: error: cannot write {}: {e}", out.display())),
                // Nothing to link: an empty object keeps Makefiles working.
                None => self.empty_object(&out),
            };
        }
        if let Some(dlink) = self.device_link(&objects)? {
            objects.push(dlink);
        }
        let out = self
            .o
            .output
            .clone()
            .unwrap_or_else(|| PathBuf::from("a.out"));
        self.link(&objects, &out)
    }

    /// Separate compilation: translates the device IR records found in
    /// `objects` (see [`devlink`]) into one object, or `None` when there are
    /// none.
    fn device_link(&mut self, objects: &[PathBuf]) -> Result<Option<PathBuf>, String> {
        if self.o.dry_run {
            return Ok(None);
        }
        let mut records = Vec::new();
        for o in objects {
            for r in devlink::read_records(o)? {
                if !records.iter().any(|x: &devlink::Record| x.id == r.id) {
                    records.push(r);
                }
            }
        }
        if records.is_empty() {
            return Ok(None);
        }
        let mut modules = Vec::new();
        for r in &records {
            let m = cucc_ir::parse_module(&r.text)
                .map_err(|e| format!("cucc: error: {}: damaged device IR: {e}", r.origin))?;
            modules.push(m);
        }
        // Units are named by their source file where the IR records it.
        let names: Vec<String> = records
            .iter()
            .zip(&modules)
            .map(|(r, m)| m.files.first().cloned().unwrap_or_else(|| r.origin.clone()))
            .collect();
        let units: Vec<cucc_ir::link::Unit<'_>> = names
            .iter()
            .zip(&modules)
            .map(|(name, m)| cucc_ir::link::Unit { name, module: m })
            .collect();
        // Every imported variable needs a definition somewhere.
        for (name, m) in names.iter().zip(&modules) {
            for (_, g) in m.globals.iter() {
                if g.linkage != cucc_ir::Linkage::Import {
                    continue;
                }
                let defined = modules.iter().any(|o| {
                    o.globals
                        .iter()
                        .any(|(_, d)| d.name == g.name && d.linkage == cucc_ir::Linkage::External)
                });
                if !defined {
                    return Err(format!(
                        "cucc: error: {name}: undefined device variable `{}` (no translation unit of the device link defines it)",
                        g.name
                    ));
                }
            }
        }
        let mut parts = Vec::new();
        for ((r, m), name) in records.iter().zip(&modules).zip(&names) {
            let mut m = m.clone();
            cucc_ir::link::resolve_imports(&mut m, name, &units)
                .map_err(|e| format!("cucc: error: {e}"))?;
            cucc_ir::verify_module(&m).map_err(|e| {
                format!("cucc: error: {name}: device link produced invalid IR:\n{e}")
            })?;
            let tag = format!("dlink-{}", hex(&r.id[..6]));
            parts.push(self.translate_device(m, &r.id, &tag, Some(&r.link_id))?);
        }
        let out = self.scratch.path().join(format!("dlink-{}.o", parts.len()));
        self.temps.push(out.clone());
        let mut cmd = Command::new("ld");
        cmd.arg("-r").arg("-o").arg(&out).args(&parts);
        self.command(cmd)?;
        Ok(Some(out))
    }

    /// An object with nothing in it.
    fn empty_object(&mut self, out: &Path) -> Result<(), String> {
        let c = self.scratch.path().join("empty.c");
        std::fs::write(&c, "/* no device code */\n").map_err(|e| format!("cucc: error: {e}"))?;
        self.temps.push(c.clone());
        let mut cmd = Command::new(emit_c::c_compiler());
        cmd.args(["-c", "-fPIC", "-o"]).arg(out).arg(&c);
        self.command(cmd)
    }

    /// Runs cpuify on a unit's device module and compiles the C device
    /// object registering its kernels under `id`; returns the object.
    fn translate_device(
        &mut self,
        mut module: cucc_ir::Module,
        id: &[u8; 16],
        tag: &str,
        linked_binary: Option<&str>,
    ) -> Result<PathBuf, String> {
        let mut remarks = Remarks::default();
        let popts = pipeline::Options {
            enabled: match &self.o.cpuify {
                Some(list) => {
                    pipeline::parse_pass_list(list).map_err(|e| format!("cucc: error: {e}"))?
                }
                None => None,
            },
            print_after: self.o.print_ir_after.clone(),
            print_after_all: self.o.print_ir_after_all,
            check_barriers: self.o.check_barriers,
            verify_each: self.o.verify_each,
        };
        pipeline::check_pass_names(&self.o.print_ir_after)
            .map_err(|e| format!("cucc: error: {e}"))?;
        // The object carries the module as cpuify received it, so the
        // runtime can rebuild its kernels with checks under
        // `CUCC_SANITIZE` (docs/sanitize.md); not for separately compiled
        // units, whose rebuilt objects could not share variables by symbol.
        let embedded_ir = linked_binary
            .is_none()
            .then(|| cucc_ir::print_module(&module));
        pipeline::run_reporting(
            &mut module,
            &popts,
            &mut remarks,
            &mut |pass, m| {
                eprintln!("; IR after {pass}\n{}", cucc_ir::print_module(m));
            },
            &mut self.times.borrow_mut(),
            self.progress.as_ref(),
        )
        .map_err(|e| e.to_string())?;
        if self.o.remarks {
            eprint!("{}", remarks.render(&module));
        }
        self.phase("emit_c");
        let t = Instant::now();
        let mut c = emit_c::emit_device_object_checked(
            &module,
            id,
            emit_c::Sanitize::Off,
            embedded_ir.as_deref(),
        )
        .map_err(|e| e.to_string())?
        .c;
        self.times.borrow_mut().add("emit_c", t.elapsed());
        if let Some(link_id) = linked_binary {
            c.push_str(&devlink::linked_binary_c(link_id)?);
        }
        let dev_o = self.compile_device_c(&c, tag)?;
        // Kernel entry points are found through the registration table, not
        // by name: keep them local, so that two objects holding the same
        // internal-linkage kernel (a `static __global__` in a shared file)
        // link together, as nvcc's do.
        let mut cmd = Command::new("objcopy");
        cmd.arg("-w").arg("--localize-symbol=k_*__cucc").arg(&dev_o);
        self.command(cmd)?;
        Ok(dev_o)
    }

    /// Compiles generated device C (`TAG.device.c`) into `TAG.device.o`.
    fn compile_device_c(&mut self, source: &str, tag: &str) -> Result<PathBuf, String> {
        let dev_c = self.scratch.path().join(format!("{tag}.device.c"));
        let dev_o = self.scratch.path().join(format!("{tag}.device.o"));
        std::fs::write(&dev_c, source).map_err(|e| format!("cucc: error: {e}"))?;
        self.temps.push(dev_c.clone());
        self.temps.push(dev_o.clone());
        let target = match &self.o.cpu_arch {
            Some(t) => t.clone(),
            None => cucc_cpuify::emit_c::CpuTarget::from_env()
                .map_err(|e| format!("cucc: error: {e}"))?,
        };
        let options = emit_c::CompileOptions {
            opt: if self.o.opt == "0" { "1" } else { &self.o.opt }.to_string(),
            fast_math: self.o.fast_math,
            debug: self.o.debug,
            ..emit_c::CompileOptions::new(emit_c::OutputKind::Object, target)
        };
        let cmd = options.command(&dev_c, source.len(), &dev_o);
        self.command_as("device cc", cmd)?;
        Ok(dev_o)
    }

    fn write_or_print(&self, text: &str) -> Result<(), String> {
        match &self.o.output {
            Some(p) => std::fs::write(p, text)
                .map_err(|e| format!("cucc: error: cannot write {}: {e}", p.display())),
            None => {
                use std::io::Write;
                std::io::stdout()
                    .write_all(text.as_bytes())
                    .map_err(|e| format!("cucc: error: {e}"))
            }
        }
    }

    fn clang_options(&self) -> ClangOptions {
        let mut extra: Vec<OsString> = Vec::new();
        for (dir, system) in &self.o.include_dirs {
            if *system {
                extra.push("-isystem".into());
                extra.push(dir.into());
            }
        }
        for m in &self.o.macros {
            extra.push(m.into());
        }
        if self.o.fast_math {
            extra.push("-ffast-math".into());
        }
        ClangOptions {
            include_dirs: self
                .o
                .include_dirs
                .iter()
                .filter(|(_, s)| !s)
                .map(|(d, _)| d.clone())
                .collect(),
            defines: Vec::new(),
            gpu_arch: self.o.arch.clone(),
            // nvcc 13's default dialect (clang's CUDA mode would use C++14).
            std: Some(
                self.o
                    .std
                    .clone()
                    .unwrap_or_else(|| DEFAULT_STD.to_string()),
            ),
            extra,
        }
    }

    /// The device half: IR for the kernels of `path`.
    /// The file clang reads for the CUDA source `path`, and the options it
    /// reads it with: `path` itself, or (when it writes launches with spaced
    /// chevrons, see [`launch_syntax`]) a rewritten copy in the work
    /// directory that names `path` in a `#line` directive, with `path`'s
    /// directory searched for quoted includes.
    fn cuda_source(&mut self, path: &Path) -> Result<(PathBuf, ClangOptions), String> {
        let mut opts = self.clang_options();
        let Ok(text) = std::fs::read_to_string(path) else {
            // Unreadable or not UTF-8: clang reports it or reads it as is.
            return Ok((path.to_path_buf(), opts));
        };
        let Some(rewritten) = launch_syntax::rewrite(&text) else {
            return Ok((path.to_path_buf(), opts));
        };
        let stem = path
            .file_stem()
            .map_or("cuda".into(), |s| s.to_string_lossy().into_owned());
        let copy = self
            .scratch
            .path()
            .join(format!("{stem}-{}.launch.cu", hex(&module_id(path)[..4])));
        let name = path
            .display()
            .to_string()
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        std::fs::write(&copy, format!("#line 1 \"{name}\"\n{rewritten}"))
            .map_err(|e| format!("cucc: error: cannot write {}: {e}", copy.display()))?;
        self.temps.push(copy.clone());
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        opts.extra.push("-iquote".into());
        opts.extra.push(dir.into());
        Ok((copy, opts))
    }

    fn lower(&self, path: &Path, opts: &ClangOptions) -> Result<cucc_ir::Module, String> {
        if let Some(ir) = &self.o.device_ir {
            let text = std::fs::read_to_string(ir)
                .map_err(|e| format!("cucc: error: cannot read {}: {e}", ir.display()))?;
            let m = cucc_ir::parse_module(&text).map_err(|e| format!("{}:{e}", ir.display()))?;
            cucc_ir::verify_module(&m)
                .map_err(|e| format!("{}: invalid IR:\n{e}", ir.display()))?;
            return Ok(m);
        }
        crate::device::lower(path, opts, self.o.relocatable_device_code)
    }

    /// Names the phase running now to the progress watch.
    fn phase(&self, phase: &str) {
        if let Some(p) = &self.progress {
            p.phase(phase);
        }
    }

    /// Runs `cmd`, timed under its program's name.
    fn command(&self, cmd: Command) -> Result<(), String> {
        let program = Path::new(cmd.get_program())
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        self.command_as(&program, cmd)
    }

    /// Runs `cmd` (printing it under `-v`), timed as phase `phase`.
    fn command_as(&self, phase: &str, mut cmd: Command) -> Result<(), String> {
        self.phase(phase);
        let start = Instant::now();
        let result = self.run_command(&mut cmd);
        self.times.borrow_mut().add(phase, start.elapsed());
        result
    }

    fn run_command(&self, cmd: &mut Command) -> Result<(), String> {
        if self.o.verbose || self.o.dry_run {
            eprintln!("#$ {cmd:?}");
        }
        if self.o.dry_run {
            return Ok(());
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cucc: error: cannot run {:?}: {e}", cmd.get_program()))?;
        if !out.stderr.is_empty() {
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
        }
        if !out.stdout.is_empty() {
            print!("{}", String::from_utf8_lossy(&out.stdout));
        }
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "cucc: error: {:?} failed ({})",
                cmd.get_program(),
                out.status
            ))
        }
    }

    fn host_cc(&self, cpp: bool) -> String {
        match &self.o.ccbin {
            Some(c) if cpp && c.ends_with("gcc") => format!("{}++", &c[..c.len() - 2]),
            Some(c) => c.clone(),
            None => if cpp { "c++" } else { "cc" }.to_string(),
        }
    }

    fn preprocess(&self, input: &Input) -> Result<(), String> {
        let mut cmd;
        if input.kind == InputKind::Cuda {
            let clang = Clang::discover().map_err(|e| e.to_string())?;
            let args = host_args(&clang, &input.path, &self.clang_options())?;
            cmd = Command::new(&clang.path);
            cmd.args(args);
        } else {
            cmd = Command::new(self.host_cc(input.kind == InputKind::Cpp));
            for (d, _) in &self.o.include_dirs {
                cmd.arg("-I").arg(d);
            }
            cmd.args(&self.o.macros);
        }
        cmd.arg(if self.o.stage == Stage::Deps {
            "-M"
        } else {
            "-E"
        });
        if let Some(out) = &self.o.output {
            cmd.arg("-o").arg(out);
        } else if self.o.cuda_ii {
            // nvcc -cuda: a.cu -> a.cu.cpp.ii in the current directory.
            let name = input
                .path
                .file_name()
                .map_or("a.cu".into(), |n| n.to_string_lossy().into_owned());
            cmd.arg("-o").arg(format!("{name}.cpp.ii"));
        }
        // For CUDA the source is already the last of the clang arguments.
        if input.kind != InputKind::Cuda {
            cmd.arg(&input.path);
        }
        self.command(cmd)
    }

    /// `-MD` (with `-MF`, `-MT`): the host compiler writes the dependency
    /// file of the object `out` while compiling it, by default `out` with
    /// the extension `.d`.
    fn deps_args(&self, out: &Path) -> Vec<OsString> {
        if !self.o.deps_file {
            return Vec::new();
        }
        let file = self
            .o
            .deps_output
            .clone()
            .unwrap_or_else(|| out.with_extension("d"));
        let target = self
            .o
            .deps_target
            .clone()
            .map_or_else(|| out.as_os_str().to_owned(), OsString::from);
        vec![
            "-MD".into(),
            "-MF".into(),
            file.into(),
            "-MT".into(),
            target,
        ]
    }

    fn compile(&mut self, input: &Input, out: &Path) -> Result<(), String> {
        match input.kind {
            InputKind::Cuda => self.compile_cuda(&input.path, out),
            InputKind::C | InputKind::Cpp => {
                let mut cmd = Command::new(self.host_cc(input.kind == InputKind::Cpp));
                cmd.arg("-c").arg(format!("-O{}", self.o.opt)).arg("-fPIC");
                if self.o.debug {
                    cmd.arg("-g");
                }
                if let Some(std) = &self.o.std {
                    if input.kind == InputKind::Cpp {
                        cmd.arg(format!("-std={std}"));
                    }
                }
                for (d, system) in &self.o.include_dirs {
                    cmd.arg(if *system { "-isystem" } else { "-I" }).arg(d);
                }
                // Host code may include <cuda_runtime.h>: cucc's headers.
                cmd.arg("-I").arg(cucc_frontend::clang::include_dir());
                cmd.args(&self.o.macros);
                cmd.args(&self.o.host_flags);
                cmd.args(self.deps_args(out));
                cmd.arg("-o").arg(out).arg(&input.path);
                self.command(cmd)
            }
            InputKind::Linkable => Ok(()),
        }
    }

    /// Compiles `.cu` file `path` into object `out`, watched by a
    /// [`Progress`] that says what runs if the compile is slow.
    fn compile_cuda(&mut self, path: &Path, out: &Path) -> Result<(), String> {
        if !self.o.dry_run {
            self.progress = Some(Progress::stderr(&path.display().to_string(), None));
        }
        let result = self.compile_cuda_watched(path, out);
        self.progress = None;
        result
    }

    fn compile_cuda_watched(&mut self, path: &Path, out: &Path) -> Result<(), String> {
        let stem = path
            .file_stem()
            .map_or("cuda".into(), |s| s.to_string_lossy().into_owned());
        let id = module_id(path);
        let tag = format!("{stem}-{}", hex(&id[..4]));
        if self.o.verbose {
            if let Ok(text) = std::fs::read_to_string(path) {
                for n in legacy::notes(&path.display().to_string(), &text) {
                    eprintln!("{n}");
                }
            }
        }
        let (src, opts) = self.cuda_source(path)?;
        if self.o.verbose || self.o.dry_run {
            // The device half is translated in this process; say so, with
            // the architecture `__CUDA_ARCH__` stands for, in the form
            // nvcc's `-v` names it (CMake reads its default from here).
            let arch = opts
                .gpu_arch
                .as_deref()
                .unwrap_or(cucc_frontend::clang::DEFAULT_GPU_ARCH);
            let digits = arch.trim_start_matches("sm_");
            eprintln!(
                "#$ cucc (in process): kernels of {} translated to C for the CPU, -arch compute_{digits} (__CUDA_ARCH__={digits}0)",
                path.display()
            );
        }
        // Device half: translated now, or (separate compilation) carried
        // as IR to the device link.
        let module = if self.o.dry_run {
            cucc_ir::Module::new()
        } else {
            self.phase("frontend");
            let t = Instant::now();
            let m = self.lower(&src, &opts)?;
            self.times.borrow_mut().add("frontend", t.elapsed());
            m
        };
        let dev_o = if self.o.relocatable_device_code {
            None
        } else {
            Some(self.translate_device(module.clone(), &id, &tag, None)?)
        };

        // Host half, with the blob naming this module as its GPU binary.
        let blob = self.scratch.path().join(format!("{tag}.blob"));
        std::fs::write(&blob, blob_bytes(&id)).map_err(|e| format!("cucc: error: {e}"))?;
        self.temps.push(blob.clone());
        let host_o = self.scratch.path().join(format!("{tag}.host.o"));
        self.temps.push(host_o.clone());
        let clang = Clang::discover().map_err(|e| e.to_string())?;
        let mut cmd = Command::new(&clang.path);
        cmd.args(host_args(&clang, &src, &opts)?);
        cmd.arg("-Xclang")
            .arg("-fcuda-include-gpubinary")
            .arg("-Xclang")
            .arg(&blob);
        if self.o.relocatable_device_code {
            // Host shadows of device variables get external linkage, and
            // registration goes through the device link's
            // `__cudaRegisterLinkedBinary_<id>`.
            cmd.arg("-fgpu-rdc");
        }
        cmd.arg("-c").arg("-fPIC").arg(format!("-O{}", self.o.opt));
        if self.o.debug {
            cmd.arg("-g");
        }
        cmd.args(&self.o.host_flags);
        cmd.args(self.deps_args(out));
        cmd.arg("-o").arg(&host_o);
        self.command_as("host clang", cmd)?;

        let dev_o = match dev_o {
            Some(o) => o,
            None => {
                // Separate compilation: the device IR travels in the object,
                // with the name of the registration entry the host half calls.
                let link_id = if self.o.dry_run {
                    String::new()
                } else {
                    devlink::host_module_id(&host_o)?
                };
                let text = cucc_ir::print_module(&module);
                self.compile_device_c(&devlink::record_c(&id, &link_id, &text), &tag)?
            }
        };

        // One object, as nvcc gives.
        let mut cmd = Command::new("ld");
        cmd.arg("-r").arg("-o").arg(out).arg(&host_o).arg(&dev_o);
        self.command(cmd)
    }

    fn link(&self, objects: &[PathBuf], out: &Path) -> Result<(), String> {
        let rt = runtime_dir()?;
        let mut cmd = Command::new(self.host_cc(true));
        if self.o.shared {
            cmd.arg("-shared");
        }
        cmd.arg("-o").arg(out).args(objects);
        for d in &self.o.lib_dirs {
            cmd.arg("-L").arg(d);
        }
        // One argument, as `-v` prints it in `LIBRARIES=` (CMake finds the
        // link line by that text).
        let mut l_rt = OsString::from("-L");
        l_rt.push(&rt);
        cmd.arg(l_rt);
        for l in &self.o.libs {
            cmd.arg(format!("-l{l}"));
        }
        // By the development name where there is one, as nvcc's
        // shared-runtime link does (CMake reads it from `-v`).
        cmd.arg(if rt.join("libcudart.so").exists() {
            "-lcudart"
        } else {
            "-l:libcudart.so.13"
        });
        let mut rpath = OsString::from("-Wl,-rpath,");
        rpath.push(&rt);
        cmd.arg(rpath);
        for f in &self.o.linker_flags {
            cmd.arg(format!("-Wl,{f}"));
        }
        let omp = self
            .o
            .host_flags
            .iter()
            .any(|f| openmp::is_openmp_flag(f))
            .then(openmp::libomp)
            .flatten();
        cmd.args(self.o.host_flags.iter().filter(|f| {
            (f.starts_with("-f") || f.starts_with("-l"))
                && !(omp.is_some() && openmp::is_openmp_flag(f))
        }));
        if let Some(lib) = &omp {
            cmd.arg(lib).arg("-pthread");
            if let Some(dir) = lib.parent() {
                let mut rpath = OsString::from("-Wl,-rpath,");
                rpath.push(dir);
                cmd.arg(rpath);
            }
        }
        cmd.arg("-lm").arg("-lpthread");
        self.command_as("link", cmd)
    }
}

/// clang arguments for compiling the host half of `path` (without
/// `-fsyntax-only` and without the source, which the caller appends).
fn host_args(clang: &Clang, path: &Path, opts: &ClangOptions) -> Result<Vec<OsString>, String> {
    // nvcc's --use_fast_math changes device code only (flush to zero,
    // approximate division, square root and intrinsics); host code keeps
    // IEEE arithmetic, NaN and infinity tests included.
    let mut host = opts.clone();
    host.extra.retain(|a| a != "-ffast-math");
    let mut args = clang
        .cuda_args(path, CudaSide::Host, &host)
        .map_err(|e| e.to_string())?;
    args.retain(|a| a != "-fsyntax-only");
    // cuda_args ends with the source; keep it last.
    Ok(args)
}

/// `a.cu` -> `a.o`, in the current directory as nvcc does.
fn object_name(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("a".into(), |s| s.to_string_lossy().into_owned());
    PathBuf::from(format!("{stem}.o"))
}

/// A 16-byte id for a translation unit: a hash of its canonical path and
/// of the process, so two builds of one file in one link stay distinct.
fn module_id(path: &Path) -> [u8; 16] {
    use std::hash::{Hash, Hasher};
    let canon = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut out = [0u8; 16];
    for (i, salt) in [0x9e37_79b9u64, 0x85eb_ca6bu64].iter().enumerate() {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        canon.hash(&mut h);
        std::process::id().hash(&mut h);
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
            .hash(&mut h);
        out[i * 8..i * 8 + 8].copy_from_slice(&h.finish().to_le_bytes());
    }
    out
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The blob the host object embeds (docs/abi.md).
fn blob_bytes(id: &[u8; 16]) -> Vec<u8> {
    let mut b = Vec::with_capacity(40);
    b.extend_from_slice(b"CUCCMOD1");
    b.extend_from_slice(id);
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&40u32.to_le_bytes());
    b.extend_from_slice(&40u64.to_le_bytes());
    b
}

/// The C++ dialect of `.cu` files without `-std`, as nvcc 13's.
const DEFAULT_STD: &str = "c++17";

/// cucc's libraries as cargo names them, with the sonames programs ask for:
/// the runtime (and its development name, which cucc's link uses), the
/// shim libraries that `-lcublas` and `-lcudnn` link, and the driver API
/// (`-lcuda`; NVIDIA's static runtime loads `libcuda.so.1`).
const LIBRARY_SONAMES: &[(&str, &str)] = &[
    ("libcucc_runtime.so", "libcudart.so.13"),
    ("libcucc_runtime.so", "libcudart.so"),
    ("libcublas.so", "libcublas.so.13"),
    ("libcudnn.so", "libcudnn.so.9"),
    ("libcuda.so", "libcuda.so.1"),
];

/// The directory holding `libcudart.so.13`: `CUCC_RUNTIME_DIR`, else the
/// directory of the `cucc` executable or its `../lib`. In a build tree the
/// libraries have cargo's names (`libcucc_runtime.so`, `libcublas.so`,
/// `libcudnn.so`); their sonames (`libcudart.so.13`, `libcublas.so.13`,
/// `libcudnn.so.9`) are linked next to them when missing, so programs built
/// with `-lcublas`/`-lcudnn` (by cucc or by nvcc) find cucc's shims there.
pub fn runtime_dir() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("CUCC_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cucc: error: {e}"))?;
    let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    if let Some(root) = crate::toolkit::invoked_root() {
        // A build tree's cucc also names the sonames next to cargo's files,
        // where programs linked with `-L target/<profile>` look for them.
        if dir.join("libcucc_runtime.so").exists() {
            link_sonames(&dir)?;
        }
        return Ok(root.join("lib64"));
    }
    let mut candidates = vec![dir.clone()];
    if let Some(p) = dir.parent() {
        candidates.push(p.join("lib"));
        candidates.push(p.to_path_buf());
    }
    for c in &candidates {
        if c.join("libcudart.so.13").exists() || c.join("libcucc_runtime.so").exists() {
            link_sonames(c)?;
            return Ok(c.clone());
        }
    }
    Err(format!(
        "cucc: error: cucc's runtime (libcudart.so.13) was not found next to {}; build it with `cargo build -p cucc-runtime` or set CUCC_RUNTIME_DIR",
        exe.display()
    ))
}

/// Links each library's soname to its file in `dir` where the file exists
/// and the soname does not.
fn link_sonames(dir: &Path) -> Result<(), String> {
    for (file, soname) in LIBRARY_SONAMES {
        let link = dir.join(soname);
        if !dir.join(file).exists() || link.exists() {
            continue;
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(file, &link)
            .or_else(|e| if link.exists() { Ok(()) } else { Err(e) })
            .map_err(|e| {
                format!(
                    "cucc: error: cannot name the library {}: {e}",
                    link.display()
                )
            })?;
    }
    Ok(())
}
