//! The JIT path for programs built by nvcc: their fat binaries carry PTX,
//! which cucc translates (the PTX frontend), makes barrier-free (the cpuify
//! pipeline), emits as a cucc device object in C and compiles with the
//! system C compiler into a shared object, cached on disk ([`cache`]).
//! Loading that object runs its constructor, which registers the kernels and
//! variables under a module id like any cucc device object (`docs/abi.md`);
//! the registry then binds the image's stubs and shadows to them.
//!
//! Everything happens at the first use of anything from an image (a launch,
//! an attribute query, a symbol copy, `__cudaInitModule`), once per image;
//! the outcome, success or error, is kept. `docs/jit.md` has the details.

pub mod cache;
pub mod devlink;
pub mod memread;

use std::ffi::c_int;
use std::path::Path;
use std::sync::{OnceLock, RwLock};
use std::time::Instant;

use crate::errors::Error;
use crate::fatbin::{self, FatbinError};
use crate::log::{log, Level};
use crate::registry::{self, ModuleId};
use cucc_cpuify::emit_c::{compile_c, CompileError, CompileOptions, CpuTarget, OutputKind};
use cucc_cpuify::progress::{PhaseTimes, Progress};

/// Turns PTX text into a cucc IR module (`file` names it in diagnostics).
pub type Translator = fn(ptx: &str, file: &str) -> Result<cucc_ir::Module, String>;

static TRANSLATOR: RwLock<Option<Translator>> = RwLock::new(None);

/// Replaces the PTX translator (the PTX frontend by default). Tests use it
/// to feed the JIT modules from another frontend.
pub fn set_translator(t: Translator) {
    *crate::sync::write(&TRANSLATOR) = Some(t);
}

fn translator() -> Translator {
    crate::sync::read(&TRANSLATOR).unwrap_or(ptx_frontend)
}

/// The PTX frontend (its errors name the PTX file and line).
fn ptx_frontend(ptx: &str, file: &str) -> Result<cucc_ir::Module, String> {
    cucc_ptx::lower_ptx(ptx, file).map_err(|e| e.to_string())
}

/// Why an image could not be made runnable.
#[derive(Debug, thiserror::Error)]
pub enum JitError {
    /// The fat binary is corrupt.
    #[error("fat binary at {addr:#x}: {err}")]
    Image {
        /// Where it is in memory.
        addr: usize,
        /// What is wrong.
        err: FatbinError,
    },
    /// The fat binary has no PTX (only code for GPUs).
    #[error("{0}")]
    NoPtx(String),
    /// The PTX could not be translated (the frontend's file:line message).
    #[error("{0}")]
    Translate(String),
    /// The cache, the C compiler or the loader failed.
    #[error("{0}")]
    Build(String),
    /// The relocatable units' device link failed (a symbol nobody
    /// defines, two definitions of one).
    #[error("{0}")]
    Link(String),
}

impl JitError {
    /// The CUDA error a launch reports.
    pub fn code(&self) -> Error {
        match self {
            JitError::Image { .. } => Error::InvalidKernelImage,
            JitError::NoPtx(_) => Error::NoKernelImageForDevice,
            JitError::Translate(_) | JitError::Build(_) | JitError::Link(_) => Error::InvalidPtx,
        }
    }
}

/// How the JIT compiles emitted C: a loadable object for `target`, `-O3`.
fn compile_options(target: CpuTarget) -> CompileOptions {
    CompileOptions::new(OutputKind::SharedObject, target)
}

/// What the cache key records of the build for `target`: the compiler,
/// every flag that does not depend on the source, and the target's
/// identity (for `native`, the host CPU's model and features).
fn key_options(target: &CpuTarget) -> String {
    let o = compile_options(target.clone());
    format!(
        "{} {} {} -lm",
        o.cc,
        o.flags(0).join(" "),
        target.identity()
    )
}

/// Makes `ptx` runnable: finds its object in the cache or translates and
/// compiles it, loads it, and returns the module id its kernels and
/// variables are registered under. Under `CUCC_SANITIZE` the kernels carry
/// the mode's checks (a different cache entry).
pub fn load_ptx(ptx: &str) -> Result<ModuleId, JitError> {
    let id = load(ptx, "ptx", None, translator())?;
    // Simulated devices compile kernels from the PTX themselves.
    if crate::devices::any_simulated() {
        crate::kernel_ir::record(id, crate::kernel_ir::Source::Ptx(ptx.to_string()));
    }
    Ok(id)
}

/// Translates PTX to a cucc IR module with the JIT's translator (the PTX
/// frontend, or a test's replacement), as the JIT does before cpuify.
pub fn translate_ptx(ptx: &str, file: &str) -> Result<cucc_ir::Module, String> {
    translator()(ptx, file)
}

/// Rebuilds the kernels of a cucc device object from the IR text it
/// embeds, with the checks of `CUCC_SANITIZE`, registering them under the
/// object's own module `id` (so they replace the ahead-of-time kernels).
pub fn load_checked_ir(ir: &str, id: ModuleId) -> Result<(), JitError> {
    load(ir, "cuir", Some(id), ir_frontend).map(drop)
}

/// The IR text parser as a translator (its errors name the position).
fn ir_frontend(ir: &str, file: &str) -> Result<cucc_ir::Module, String> {
    cucc_ir::parse_module(ir).map_err(|e| format!("{file}: {e}"))
}

/// Finds in the cache, or translates (with `frontend`) and compiles, the
/// object of `source` (a `.ext` file in the cache), loads it and returns
/// the module id it registers: `id` when given, else one derived from
/// the key.
fn load(
    source: &str,
    ext: &str,
    id: Option<ModuleId>,
    frontend: Translator,
) -> Result<ModuleId, JitError> {
    let target = CpuTarget::from_env().map_err(JitError::Build)?;
    let mut options = key_options(&target);
    let cc_options = compile_options(target);
    let checks = crate::sanitize::mode();
    if checks != crate::sanitize::Sanitize::Off {
        options.push_str(&format!(" sanitize={}", checks.name()));
    }
    if let Some(id) = &id {
        options.push_str(" module=");
        options.extend(id.iter().map(|b| format!("{b:02x}")));
    }
    let key = cache::Key::new(source, &options);
    let fixed = id.is_some();
    let id = id.unwrap_or_else(|| key.module_id());
    if !fixed && registry::module_registered(&id) {
        return Ok(id);
    }
    let dir = cache::jit_dir().map_err(JitError::Build)?;
    let hex = key.hex();
    let so = dir.join(format!("{hex}.so"));
    if so.exists() {
        let t = Instant::now();
        match cache::open_verified(&so).and_then(|f| open(f, &so, &id)) {
            Ok(()) => {
                log(Level::Info, || {
                    format!(
                        "JIT cache hit: {} ({:.1} ms to load)",
                        so.display(),
                        t.elapsed().as_secs_f64() * 1e3
                    )
                });
                return Ok(id);
            }
            Err(e) => {
                log(Level::Warn, || format!("{e}; rebuilding it"));
                let _ = std::fs::remove_file(&so);
            }
        }
    }
    let src_path = dir.join(format!("{hex}.{ext}"));
    if !src_path.exists() {
        cache::write_atomic(&src_path, source.as_bytes()).map_err(JitError::Build)?;
    }
    let file = src_path.display().to_string();
    // A slow compile says what it is doing, once (unless `CUCC_LOG` is
    // `error` or `off`); `info` also lists each phase's time.
    let progress = Progress::start(
        &file,
        cucc_cpuify::progress::notice_after(),
        Box::new(|line| {
            if crate::log::enabled(Level::Warn) {
                eprintln!("cucc runtime: {line}");
            }
        }),
    );
    let mut times = PhaseTimes::default();
    let t0 = Instant::now();
    let c = translate(source, &file, &id, frontend, checks, &mut times, &progress)?;
    let t1 = Instant::now();
    progress.phase(format!("C compiler `{}`", cc_options.cc));
    let object = compile(&cc_options, &c, &so)?;
    let t2 = Instant::now();
    progress.finish();
    times.add("cc", t2 - t1);
    open(object, &so, &id).map_err(JitError::Build)?;
    log(Level::Info, || {
        format!(
            "JIT: {file}: translated in {:.1} ms, compiled in {:.1} ms, cached as {}",
            (t1 - t0).as_secs_f64() * 1e3,
            (t2 - t1).as_secs_f64() * 1e3,
            so.display()
        )
    });
    log(Level::Info, || {
        format!(
            "JIT: time per phase:\n{}",
            times.render("cucc runtime:   ").trim_end()
        )
    });
    Ok(id)
}

/// Source text to the C of a cucc device object registering under `id`,
/// with the run-time checks of `checks`. Each phase's time goes to
/// `times`, and its name to `progress`.
fn translate(
    source: &str,
    file: &str,
    id: &ModuleId,
    t: Translator,
    checks: crate::sanitize::Sanitize,
    times: &mut PhaseTimes,
    progress: &Progress,
) -> Result<String, JitError> {
    let run = || -> Result<String, String> {
        progress.phase("frontend");
        let mut module = times.time("frontend", || t(source, file))?;
        times
            .time("verify", || cucc_ir::verify_module(&module))
            .map_err(|e| format!("{file}: the translated module is invalid: {e}"))?;
        let mut remarks = cucc_cpuify::remarks::Remarks::default();
        let mut options = cucc_cpuify::pipeline::Options::default();
        if checks != crate::sanitize::Sanitize::Off {
            options = options.for_checks();
        }
        // `CUCC_JIT_PRINT_IR=all` or `=PASS,PASS` prints the module after
        // those passes, as `cucc --print-ir-after-all` / `--print-ir-after`.
        if let Ok(list) = std::env::var("CUCC_JIT_PRINT_IR") {
            if list == "all" {
                options.print_after_all = true;
            } else if !list.is_empty() {
                options.print_after = list.split(',').map(|p| p.trim().to_string()).collect();
                cucc_cpuify::pipeline::check_pass_names(&options.print_after)
                    .map_err(|e| format!("CUCC_JIT_PRINT_IR: {e}"))?;
            }
        }
        cucc_cpuify::pipeline::run_reporting(
            &mut module,
            &options,
            &mut remarks,
            &mut |pass, m| eprintln!("; IR after {pass}\n{}", cucc_ir::print_module(m)),
            times,
            Some(progress),
        )
        .map_err(|e| format!("{file}: {e}"))?;
        // `CUCC_JIT_REMARKS` prints what each pass did or why not, as
        // `cucc --remarks` does for a source build.
        if std::env::var_os("CUCC_JIT_REMARKS").is_some_and(|v| !v.is_empty() && v != "0") {
            eprint!("{}", remarks.render(&module));
        }
        progress.phase("emit_c");
        let emitted = times
            .time("emit_c", || emit(&module, id, checks))
            .map_err(|e| format!("{file}: {e}"))?;
        Ok(emitted)
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(r) => r.map_err(JitError::Translate),
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".into());
            Err(JitError::Translate(format!(
                "{file}: internal error while translating: {what}"
            )))
        }
    }
}

/// The C of a cucc device object registering `module` under `id`, with the
/// run-time checks of `checks`.
fn emit(
    module: &cucc_ir::Module,
    id: &ModuleId,
    checks: crate::sanitize::Sanitize,
) -> Result<String, String> {
    cucc_cpuify::emit_c::emit_device_object_checked(module, id, checks, None)
        .map(|e| e.c)
        .map_err(|e| e.to_string())
}

/// Compiles `c` into `so` (through temporary files renamed into place),
/// records the object's hash beside it and returns the object open.
fn compile(options: &CompileOptions, c: &str, so: &Path) -> Result<std::fs::File, JitError> {
    let c_path = cache::temp_path(&so.with_extension("c"));
    std::fs::write(&c_path, c)
        .map_err(|e| JitError::Build(format!("cannot write {}: {e}", c_path.display())))?;
    let tmp = cache::temp_path(so);
    match compile_c(&c_path, &tmp, options) {
        Ok(()) => {}
        Err(e @ CompileError::Spawn { .. }) => {
            let _ = std::fs::remove_file(&c_path);
            return Err(JitError::Build(e.to_string()));
        }
        Err(CompileError::Failed { cc, stderr, .. }) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(JitError::Build(format!(
                "the C compiler `{cc}` failed on {} (kept for inspection):\n{stderr}",
                c_path.display(),
            )));
        }
    }
    // `CUCC_JIT_KEEP` keeps the emitted C next to the object, to read what
    // the kernels became.
    if std::env::var_os("CUCC_JIT_KEEP").is_some_and(|v| !v.is_empty() && v != "0") {
        let _ = std::fs::rename(&c_path, so.with_extension("c"));
    } else {
        let _ = std::fs::remove_file(&c_path);
    }
    let object = cache::record_hash(&tmp, so).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        JitError::Build(e)
    })?;
    std::fs::rename(&tmp, so).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        JitError::Build(format!("cannot move the object to {}: {e}", so.display()))
    })?;
    Ok(object)
}

/// Loads the open, checked object `file` (named `so`; kept loaded, and the
/// descriptor open, for the life of the process) and checks that its
/// constructor registered module `id`.
fn open(file: std::fs::File, so: &Path, id: &ModuleId) -> Result<(), String> {
    let path = cache::fd_path(&file, so);
    // SAFETY: the object is C that cucc emitted, byte for byte what was
    // hashed when it was built; its only constructor registers kernels and
    // variables with this runtime.
    let lib = unsafe {
        libloading::os::unix::Library::open(Some(&path), libc::RTLD_NOW | libc::RTLD_LOCAL)
    }
    .map_err(|e| format!("cannot load {}: {e}", so.display()))?;
    std::mem::forget(lib);
    std::mem::forget(file);
    if registry::module_registered(id) {
        Ok(())
    } else {
        Err(format!(
            "{} loaded but registered no module (not a cucc JIT object?)",
            so.display()
        ))
    }
}

/// A fat binary registered by a program not built by cucc: the addresses of
/// the fat binaries holding its code, and, after first use, its modules.
#[derive(Debug)]
pub struct ForeignImage {
    blobs: Vec<usize>,
    outcome: OnceLock<Result<Vec<ModuleId>, Error>>,
}

/// Most prelinked fat binaries a version-2 wrapper may list.
const MAX_PRELINKED: usize = 1 << 16;

impl ForeignImage {
    /// The image a wrapper describes. Version 2 wrappers (nvcc's device
    /// link, used by every nvcc 13 program) point `data` at the linked cubin
    /// and `filename_or_fatbins` at a NULL-terminated list of the
    /// translation units' fat binaries, which hold the PTX.
    ///
    /// # Safety
    /// `data` and, for version 2, the NULL-terminated list at `list` must be
    /// the readable fat binaries a registration names: where the kernel
    /// does not let [`memread`] check addresses, they are read directly
    /// (here and when the image is first used).
    pub unsafe fn from_wrapper(version: c_int, data: usize, list: usize) -> ForeignImage {
        let mut blobs = Vec::new();
        if version == 2 && list != 0 {
            for i in 0..MAX_PRELINKED {
                // SAFETY: the caller's contract; memread refuses unmapped
                // addresses where it can.
                match unsafe { memread::read_usize(list + i * std::mem::size_of::<usize>()) } {
                    Some(0) | None => break,
                    Some(p) => blobs.push(p),
                }
            }
        }
        blobs.push(data);
        ForeignImage {
            blobs,
            outcome: OnceLock::new(),
        }
    }

    /// The modules holding the image's kernels and variables, JIT-compiled
    /// at the first call.
    pub fn modules(&self) -> Result<&[ModuleId], Error> {
        match self.outcome.get_or_init(|| self.build()) {
            Ok(ids) => Ok(ids),
            Err(e) => Err(*e),
        }
    }

    /// The modules, if the JIT has already run successfully.
    pub fn modules_if_built(&self) -> Option<&[ModuleId]> {
        self.outcome.get()?.as_ref().ok().map(Vec::as_slice)
    }

    /// Whether the JIT has run and failed.
    pub fn failed(&self) -> bool {
        matches!(self.outcome.get(), Some(Err(_)))
    }

    fn build(&self) -> Result<Vec<ModuleId>, Error> {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.jit()));
        match r {
            Ok(Ok(ids)) => Ok(ids),
            Ok(Err(e)) => {
                log(Level::Error, || e.to_string());
                Err(e.code())
            }
            Err(_) => {
                log(Level::Error, || "internal error in the JIT".into());
                Err(Error::Unknown)
            }
        }
    }

    fn jit(&self) -> Result<Vec<ModuleId>, JitError> {
        let mut units = Vec::new();
        let mut archs = Vec::new();
        let mut without_ptx = 0;
        for (i, &addr) in self.blobs.iter().enumerate() {
            let bytes = read_fatbin(addr)?;
            let fb = fatbin::parse(&bytes).map_err(|err| JitError::Image { addr, err })?;
            archs.extend(fb.entries.iter().map(|e| e.arch));
            if let Some(entry) = fatbin::best_ptx(&fb) {
                let text = entry
                    .ptx_text()
                    .map_err(|err| JitError::Image { addr, err })?;
                log(Level::Debug, || {
                    format!(
                        "fat binary at {addr:#x}: PTX {}.{} for compute_{} ({} bytes)",
                        entry.version.0,
                        entry.version.1,
                        entry.arch,
                        text.len()
                    )
                });
                units.push(devlink::UnitPtx {
                    text,
                    relocatable: entry.relocatable(),
                    source: String::from_utf8_lossy(entry.source).into_owned(),
                });
            } else if i + 1 < self.blobs.len() {
                // The last is the device-linked cubin, never with PTX.
                without_ptx += 1;
            }
        }
        if units.is_empty() {
            archs.sort_unstable();
            archs.dedup();
            let list: Vec<String> = archs.iter().map(|a| format!("sm_{a}")).collect();
            return Err(JitError::NoPtx(format!(
                "the program's fat binary has no PTX, only GPU code ({}); cucc runs kernels from PTX: rebuild with nvcc -arch=sm_XX (which embeds PTX) or add -gencode arch=compute_XX,code=compute_XX",
                list.join(", ")
            )));
        }
        // Relocatable units (`-rdc=true`) are linked into one module.
        devlink::modules(units, without_ptx)?
            .iter()
            .map(|p| load_ptx(p))
            .collect()
    }
}

/// Copies the fat binary at `addr` out of memory, bounds from its header.
fn read_fatbin(addr: usize) -> Result<Vec<u8>, JitError> {
    let unreadable = |what: &str| JitError::Image {
        addr,
        err: FatbinError::Corrupt {
            what: format!("{what} is not readable memory"),
            offset: 0,
        },
    };
    // SAFETY: registration handed us this address; memread checks it.
    let header = unsafe { memread::read(addr, fatbin::HEADER_LEN) }
        .ok_or_else(|| unreadable("the header"))?;
    let total = fatbin::total_len(&header).map_err(|err| JitError::Image { addr, err })?;
    // SAFETY: as above; the length comes from the header, capped by total_len.
    unsafe { memread::read(addr, total) }.ok_or_else(|| unreadable("the announced size"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_key_records_the_target_and_the_flags() {
        let native = key_options(&CpuTarget::Native);
        let portable = key_options(&CpuTarget::Portable);
        let v3 = key_options(&CpuTarget::Arch("x86-64-v3".into()));
        assert!(native.contains("-march=native") && native.contains(" native["));
        assert!(!portable.contains("-march") && portable.contains(" portable -lm"));
        assert!(v3.contains("-march=x86-64-v3"));
        for k in [&native, &portable, &v3] {
            assert!(k.contains("-std=gnu11 -O3 -shared -fPIC -w"), "{k}");
            assert!(k.contains("-ffp-contract=off"), "{k}");
        }
        assert_ne!(native, portable);
    }
}
