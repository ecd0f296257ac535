//! From a kernel's recorded source to Snitch programs, one per core,
//! cached.
//!
//! The source (`crate::kernel_ir`: cucc's embedded IR, or PTX translated as
//! the JIT translates it) goes through cpuify's pipeline once per module
//! and pipeline: first the short one the Snitch compiler takes best
//! (`inline,mem2reg,canonicalize` plus cpuify's required passes: the
//! default pipeline is tuned for CPUs and puts per-thread accumulators in
//! private arrays, which the compiler rejects), then, if the kernel does
//! not compile from that, the default one (whose clamped block bounds the
//! compiler can peel). A kernel neither compiles from is rejected with the
//! first one's diagnostic. `while` loops in the shape of a counted C `for`
//! then become `for`s (cpuify rewrites only those it interchanges). Programs are cached by (module, kernel, launch
//! shape, integer arguments, `noalias` facts): the compiler makes the
//! launch shape and the integer arguments constants.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cucc_ir::{FloatKind, Module, Type};
use cucc_snitch::compile::{compile_with, CoreShare, LaunchDims, Options, Program};

use crate::kernel_ir::Source;
use crate::registry::ModuleId;
use crate::sync::lock;

/// cpuify's passes for the Snitch compiler (the required ones run too).
pub const FOR_SNITCH: &[&str] = &["inline", "mem2reg", "canonicalize"];

/// What a kernel parameter is, as the device passes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A pointer (placed in the TCDM).
    Ptr,
    /// An integer of this many bits.
    Int(u32),
    /// An f32.
    F32,
    /// An f64.
    F64,
    /// Anything else (the compiler rejects it).
    Other,
}

/// One core's program.
#[derive(Debug)]
pub struct CoreProgram {
    /// The compiled kernel.
    pub program: Program,
    /// Its encoded words.
    pub words: Vec<u32>,
}

/// A kernel compiled for one launch: a program per core that has blocks.
#[derive(Debug)]
pub struct Compiled {
    /// By core; `None` for cores without blocks.
    pub cores: Vec<Option<CoreProgram>>,
    /// Bytes of local memory (shared and private arrays) all cores take
    /// together, just below the stacks at the top of the TCDM.
    pub local_bytes: usize,
}

/// Where core 0's local memory ends: below the cores' stacks at the top of
/// the TCDM (each later core's ends where the previous one's begins).
pub fn local_top() -> u32 {
    let p = super::model();
    let end = (u64::from(p.tcdm_base) + p.tcdm_size as u64) & !15;
    (end - (super::STACK_PER_CORE * super::CORES as usize) as u64) as u32
}

/// A kernel's launch-independent facts.
#[derive(Clone, Debug)]
pub struct Signature {
    /// Each parameter's kind.
    pub params: Vec<ArgKind>,
}

/// What a compiled launch depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// The module.
    pub module: ModuleId,
    /// The kernel (mangled name).
    pub kernel: String,
    /// Grid and block dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
    /// Integer arguments by position.
    pub known_ints: [Option<i32>; 8],
    /// Whether each parameter may be compiled as `noalias`.
    pub noalias: Vec<bool>,
    /// Cores the grid is dealt out to.
    pub cores: u32,
    /// Bytes of dynamic shared memory per block.
    pub dynamic_shared: u32,
}

type Pipelined = Arc<Result<Module, String>>;
/// A compiled launch, or the compiler's diagnostic.
pub type Outcome = Arc<Result<Compiled, String>>;

/// Modules after each pipeline (0: [`FOR_SNITCH`], 1: cpuify's default).
static MODULES: Mutex<Option<HashMap<(ModuleId, u8), Pipelined>>> = Mutex::new(None);
/// Compiled launches, or the diagnostic.
static PROGRAMS: Mutex<Option<HashMap<Key, Outcome>>> = Mutex::new(None);

/// `source` as IR, through pipeline `which`.
fn pipelined(id: ModuleId, source: &Source, which: u8) -> Pipelined {
    if let Some(m) = lock(&MODULES)
        .get_or_insert_with(HashMap::new)
        .get(&(id, which))
    {
        return Arc::clone(m);
    }
    // Built with no lock held (translation can take a while); a racing
    // thread's equal result may win the insert.
    let built = (|| -> Result<Module, String> {
        let mut module = crate::kernel_ir::parse(source)?;
        let options = cucc_cpuify::pipeline::Options {
            enabled: (which == 0).then(|| FOR_SNITCH.iter().map(|s| s.to_string()).collect()),
            ..Default::default()
        };
        let mut remarks = cucc_cpuify::remarks::Remarks::default();
        cucc_cpuify::pipeline::run(&mut module, &options, &mut remarks, &mut |_, _| {})
            .map_err(|e| e.to_string())?;
        // The frontends write C `for` loops as `while`s; the compiler
        // needs counted loops.
        let ids: Vec<_> = module.functions.iter().map(|(id, _)| id).collect();
        for id in ids {
            let Module {
                types, functions, ..
            } = &mut module;
            cucc_cpuify::passes::interchange::counted_whiles_to_for(types, &mut functions[id]);
        }
        Ok(module)
    })();
    let built = Arc::new(built);
    Arc::clone(
        lock(&MODULES)
            .get_or_insert_with(HashMap::new)
            .entry((id, which))
            .or_insert(built),
    )
}

/// The parameters of `kernel` in `module`, if it has that kernel.
fn signature_in(module: &Module, kernel: &str) -> Option<Signature> {
    let f = &module.functions[module.function(kernel)?];
    // Pointers, and PTX's `u64` parameters used only as addresses.
    let buffers = cucc_snitch::compile::buffer_params(module, kernel)?;
    let params = f.regions[f.body]
        .args
        .iter()
        .zip(buffers)
        .map(|(&a, buffer)| match &module.types[f.values[a].ty] {
            _ if buffer => ArgKind::Ptr,
            Type::Int(bits) => ArgKind::Int(u32::from(*bits)),
            Type::Float(FloatKind::F32) => ArgKind::F32,
            Type::Float(FloatKind::F64) => ArgKind::F64,
            _ => ArgKind::Other,
        })
        .collect();
    Some(Signature { params })
}

/// The kernel's parameters, from its source.
pub fn signature(id: ModuleId, source: &Source, kernel: &str) -> Result<Signature, String> {
    let m = pipelined(id, source, 0);
    let m = m.as_ref().as_ref().map_err(Clone::clone)?;
    signature_in(m, kernel).ok_or_else(|| format!("the module has no kernel `{kernel}`"))
}

/// Compiles `key`'s kernel for every core that has blocks (or returns the
/// cached result).
pub fn compile(key: &Key, source: &Source) -> Outcome {
    if let Some(c) = lock(&PROGRAMS).get_or_insert_with(HashMap::new).get(key) {
        return Arc::clone(c);
    }
    let result = Arc::new(compile_uncached(key, source));
    Arc::clone(
        lock(&PROGRAMS)
            .get_or_insert_with(HashMap::new)
            .entry(key.clone())
            .or_insert(result),
    )
}

fn compile_uncached(key: &Key, source: &Source) -> Result<Compiled, String> {
    let mut first_error = None;
    for which in [0u8, 1] {
        let m = pipelined(key.module, source, which);
        let module = match m.as_ref() {
            Ok(m) => m,
            Err(e) => {
                first_error.get_or_insert_with(|| e.clone());
                continue;
            }
        };
        match compile_module(key, module) {
            Ok(c) => return Ok(c),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_default())
}

/// Compiles every core's share from one pipelined module.
fn compile_module(key: &Key, module: &Module) -> Result<Compiled, String> {
    let Some(fid) = module.function(&key.kernel) else {
        return Err(format!("the module has no kernel `{}`", key.kernel));
    };
    // The runtime's aliasing facts: a buffer placed alone is `noalias`.
    let mut module = module.clone();
    for (p, &alone) in module.functions[fid].params.iter_mut().zip(&key.noalias) {
        p.noalias |= alone;
    }
    let dim = cucc_snitch::compile::split_dimension(key.grid);
    let mut cores = Vec::new();
    // Each core's local memory below the previous core's.
    let mut top = local_top();
    let mut local_bytes = 0usize;
    for core in 0..key.cores {
        let share = CoreShare {
            core,
            cores: key.cores,
        };
        if share.blocks(key.grid[dim]) == 0 {
            cores.push(None);
            continue;
        }
        let options = Options {
            launch: Some(LaunchDims {
                grid: key.grid,
                block: key.block,
            }),
            known_ints: key.known_ints,
            share: (key.cores > 1).then_some(share),
            local_top: Some(top),
            dynamic_shared: key.dynamic_shared,
            ..Options::default()
        };
        let program = compile_with(&module, &key.kernel, &options)
            .map_err(|d| d.to_string())?
            .program;
        top = top.saturating_sub(program.local_bytes);
        local_bytes += program.local_bytes as usize;
        let words = program
            .encode()
            .map_err(|e| format!("{}: encoding: {e}", key.kernel))?;
        cores.push(Some(CoreProgram { program, words }));
    }
    Ok(Compiled { cores, local_bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tests share the process's caches: each source has its own module id.
    fn key(noalias: bool, cores: u32, n: i32) -> Key {
        let mut known_ints = [None; 8];
        known_ints[3] = Some(n);
        Key {
            module: [7; 16],
            kernel: "vadd".into(),
            grid: [4, 1, 1],
            block: [32, 1, 1],
            known_ints,
            noalias: vec![noalias, noalias, noalias, false],
            cores,
            dynamic_shared: 0,
        }
    }

    #[test]
    fn signature_lists_the_parameters() {
        let s = signature([7; 16], &Source::Ir(crate::test_kernels::vadd()), "vadd")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            s.params,
            vec![ArgKind::Ptr, ArgKind::Ptr, ArgKind::Ptr, ArgKind::Int(32)]
        );
        assert!(signature([7; 16], &Source::Ir(crate::test_kernels::vadd()), "nope").is_err());
    }

    /// The runtime's `noalias` facts decide whether the kernel streams.
    #[test]
    fn noalias_facts_let_the_compiler_stream() {
        let src = Source::Ir(crate::test_kernels::vadd());
        let with = compile(&key(true, 1, 128), &src);
        let without = compile(&key(false, 1, 128), &src);
        let asm = |c: &Outcome| match c.as_ref() {
            Ok(c) => c.cores[0]
                .as_ref()
                .map(|p| p.program.asm.clone())
                .unwrap_or_default(),
            Err(e) => panic!("{e}"),
        };
        assert!(asm(&with).contains("scfgwi"), "{}", asm(&with));
        assert!(!asm(&without).contains("scfgwi"), "{}", asm(&without));
    }

    /// Four blocks on eight cores: four programs, four cores idle.
    #[test]
    fn cores_without_blocks_get_no_program() {
        let c = compile(&key(true, 8, 100), &Source::Ir(crate::test_kernels::vadd()));
        let c = c.as_ref().as_ref().unwrap_or_else(|e| panic!("{e}"));
        let have: Vec<bool> = c.cores.iter().map(Option::is_some).collect();
        assert_eq!(
            have,
            vec![true, true, true, true, false, false, false, false]
        );
    }

    #[test]
    fn a_rejected_kernel_keeps_the_diagnostic() {
        let text = crate::test_kernels::vadd().replace(
            "%s = fadd %av, %bv : f64",
            "%s = atomic.rmw fadd device %bp, %av : f64 loc(0:9:5)",
        );
        let k = Key {
            module: [8; 16],
            ..key(true, 1, 128)
        };
        let c = compile(&k, &Source::Ir(text));
        match c.as_ref() {
            Err(e) => assert!(e.contains("vadd.cu:9:5: error: vadd: atomic.rmw"), "{e}"),
            Ok(_) => panic!("compiled"),
        }
    }
}
