//! The compiler from cpuify's loop form to Snitch code.
//!
//! `lower` checks that a kernel fits and turns it into the lowering IR
//! ([`lir`]); the optimisation passes follow, each behind a switch of
//! [`Options`], in a fixed order: scalar replacement, fill fusion,
//! unroll-and-jam, f32 packing, streams, FREP. `materialize` then makes
//! addresses (walking pointers under [`strength_reduce`]), loop control and
//! stream configuration explicit integer code, `regalloc` maps virtual
//! registers without spilling, and `emit` writes
//! instructions. The switches reproduce the rows of the Ficarelli thesis'
//! Table 3.2 when turned on in its order ([`Options::table_3_2`]).

pub mod emit;
pub mod fill_fusion;
pub mod frep;
pub mod lir;
pub mod lower;
pub mod materialize;
pub mod pack;
pub mod regalloc;
pub mod scalar_replace;
pub mod streams;
pub mod strength_reduce;
pub mod unroll_jam;
mod util;

#[cfg(test)]
mod tests;

use crate::isa::{Inst, XReg};
use crate::sim::{Counters, Machine, SimError};
use cucc_ir::Module;
pub use lir::ParamKind;

/// Which passes run. `Default` turns everything on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Affine loads and stores of loop nests become SSR streams.
    pub streams: bool,
    /// A reduction's accumulator stays in a register across its loop.
    pub scalar_replacement: bool,
    /// FP-only loop bodies of at most 16 instructions run under `frep.o`.
    pub frep: bool,
    /// A constant fill of an output is folded into the reduction's init.
    pub fuse_fill: bool,
    /// The loop around a reduction is unrolled and jammed into it.
    pub unroll_and_jam: bool,
    /// Unit-stride f32 loops work on two lanes per 64-bit register.
    pub pack_f32: bool,
    /// Loop accesses walk pointer registers bumped by their stride instead
    /// of recomputing `base + i·stride` (off in Table 3.2's rows, which
    /// follow the reference lowering).
    pub strength_reduce: bool,
    /// Largest unroll-and-jam factor.
    pub max_unroll: u32,
    /// Launch dimensions known at compile time: `gridDim`/`blockDim` reads
    /// become constants (the runtime compiles per launch shape, which
    /// gives the loops constant counts, so they stream). Without it they
    /// are implicit parameters.
    pub launch: Option<LaunchDims>,
    /// Integer arguments known at compile time, by parameter position
    /// (the runtime knows them at launch): they become constants, so
    /// bounds guards such as `if (i < n)` can be decided. They are still
    /// passed.
    pub known_ints: [Option<i32>; 8],
    /// Compile only one core's share of the grid (the runtime runs a
    /// launch on the cluster's cores side by side, one program each);
    /// `None`: every block. Needs [`Options::launch`].
    pub share: Option<CoreShare>,
    /// The TCDM address where this core's local memory ends: the
    /// kernel's `__shared__` arrays, dynamic shared memory and cpuify's
    /// private arrays are laid out just below it ([`Program::local_bytes`]
    /// says how far). `None`: kernels with local memory are rejected.
    pub local_top: Option<u32>,
    /// Bytes of dynamic shared memory (`extern __shared__`) the launch
    /// gives each block.
    pub dynamic_shared: u32,
}

/// One core's share of a launch's blocks: along the grid's outermost
/// dimension with more than one block ([`split_dimension`]), the blocks
/// `core`, `core + cores`, `core + 2·cores`, … (round robin, so a partial
/// last block lands on one core and the others stay uniform).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CoreShare {
    /// This core, `0..cores`.
    pub core: u32,
    /// Cores the grid is dealt out to.
    pub cores: u32,
}

impl CoreShare {
    /// Blocks of that dimension this core runs (0 when it has none).
    pub fn blocks(self, n: u32) -> u32 {
        if self.cores == 0 || self.core >= n {
            0
        } else {
            (n - self.core).div_ceil(self.cores)
        }
    }
}

/// Which parameters of `kernel` the device passes as buffers: pointers,
/// and 64-bit integers used only as addresses (PTX's `u64` pointer
/// parameters). `None` if there is no such kernel.
pub fn buffer_params(module: &Module, kernel: &str) -> Option<Vec<bool>> {
    let func = &module.functions[module.function(kernel)?];
    let users = lower::users_of(func);
    let args = &func.regions[func.body].args;
    Some(
        args.iter()
            .map(|&a| match module.types[func.values[a].ty] {
                cucc_ir::Type::Ptr(_) => true,
                cucc_ir::Type::Int(64) => lower::address_values(func, &users, a).is_some(),
                _ => false,
            })
            .collect(),
    )
}

/// The grid dimension a launch is dealt out along: the outermost one
/// (z, then y, then x) with more than one block; x for a single block.
pub fn split_dimension(grid: [u32; 3]) -> usize {
    (0..3).rev().find(|&d| grid[d] > 1).unwrap_or(0)
}

/// A launch's grid and block dimensions (x, y, z).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchDims {
    /// `gridDim`.
    pub grid: [u32; 3],
    /// `blockDim`.
    pub block: [u32; 3],
}

impl Default for Options {
    fn default() -> Self {
        Options {
            streams: true,
            scalar_replacement: true,
            frep: true,
            fuse_fill: true,
            unroll_and_jam: true,
            pack_f32: true,
            strength_reduce: true,
            max_unroll: 8,
            launch: None,
            known_ints: [None; 8],
            share: None,
            local_top: None,
            dynamic_shared: 0,
        }
    }
}

impl Options {
    /// Every pass off: loads, stores and integer loops only.
    pub fn none() -> Options {
        Options {
            streams: false,
            scalar_replacement: false,
            frep: false,
            fuse_fill: false,
            unroll_and_jam: false,
            pack_f32: false,
            strength_reduce: false,
            max_unroll: 8,
            launch: None,
            known_ints: [None; 8],
            share: None,
            local_top: None,
            dynamic_shared: 0,
        }
    }

    /// The pass names, in pipeline order, as [`Options::with_passes`] takes them.
    pub const PASS_NAMES: [&'static str; 7] = [
        "scalar-replacement",
        "fuse-fill",
        "unroll-and-jam",
        "pack-f32",
        "streams",
        "frep",
        "strength-reduce",
    ];

    /// These options with exactly the passes of a comma-separated list
    /// on (`all`: every pass, `none` or empty: none), for ablations from a
    /// command line or the environment.
    pub fn with_passes(self, list: &str) -> Result<Options, String> {
        let mut o = Options {
            streams: false,
            scalar_replacement: false,
            frep: false,
            fuse_fill: false,
            unroll_and_jam: false,
            pack_f32: false,
            strength_reduce: false,
            ..self
        };
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "all" => {
                    let all = Options::default();
                    o.streams = all.streams;
                    o.scalar_replacement = all.scalar_replacement;
                    o.frep = all.frep;
                    o.fuse_fill = all.fuse_fill;
                    o.unroll_and_jam = all.unroll_and_jam;
                    o.pack_f32 = all.pack_f32;
                    o.strength_reduce = all.strength_reduce;
                }
                "none" => {}
                "scalar-replacement" => o.scalar_replacement = true,
                "fuse-fill" => o.fuse_fill = true,
                "unroll-and-jam" => o.unroll_and_jam = true,
                "pack-f32" => o.pack_f32 = true,
                "streams" => o.streams = true,
                "frep" => o.frep = true,
                "strength-reduce" => o.strength_reduce = true,
                other => {
                    return Err(format!(
                        "unknown Snitch pass `{other}` (known: {}, or all/none)",
                        Options::PASS_NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(o)
    }

    /// Table 3.2's six rows: baseline, then streams, scalar replacement,
    /// FREP, fill fusion and unroll-and-jam switched on one after another.
    pub fn table_3_2() -> [(&'static str, Options); 6] {
        let base = Options::none();
        let s = Options {
            streams: true,
            ..base
        };
        let sr = Options {
            scalar_replacement: true,
            ..s
        };
        let fr = Options { frep: true, ..sr };
        let ff = Options {
            fuse_fill: true,
            ..fr
        };
        let uj = Options {
            unroll_and_jam: true,
            ..ff
        };
        [
            ("baseline", base),
            ("+streams", s),
            ("+scalar replacement", sr),
            ("+FRep", fr),
            ("+fuse fill", ff),
            ("+unroll-and-jam", uj),
        ]
    }
}

/// Why a kernel cannot be compiled: the construct, where it is, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: error: {kernel}: {construct}: {message}")]
pub struct Diagnostic {
    /// `file:line:col` as `Module::describe_loc` prints it.
    pub location: String,
    /// The kernel.
    pub kernel: String,
    /// The construct that does not fit.
    pub construct: String,
    /// Why.
    pub message: String,
}

/// A compiled kernel: machine code plus how to call it.
///
/// The caller places the buffers in the TCDM at 8-byte-aligned addresses
/// and keeps the 8 bytes below `sp` free (f64 constants that are not
/// small integers are built there).
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Kernel name.
    pub name: String,
    /// Parameters, passed in `a0`, `a1`, … (pointers as TCDM addresses).
    pub params: Vec<ParamKind>,
    /// The instructions; execution starts at the first and ends at `ret`.
    pub insts: Vec<Inst>,
    /// The same as assembly text.
    pub asm: String,
    /// FP registers the code mentions (Table 3.2 counts them against 20:
    /// the 17 the allocator has and `ft0`–`ft2`).
    pub fp_regs: usize,
    /// Integer registers the code mentions besides `zero`, `ra` and `sp`
    /// (Table 3.2 counts them against 15).
    pub int_regs: usize,
    /// Bytes of local memory below [`Options::local_top`] the code uses
    /// (0 without local memory).
    pub local_bytes: u32,
    /// The local memory: what each piece is, its size and TCDM address.
    pub locals: Vec<lir::Local>,
}

/// A failure running a compiled kernel.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The argument list does not match the parameters.
    #[error("kernel {kernel} takes {expected} argument words, got {got}")]
    Arguments {
        /// Kernel name.
        kernel: String,
        /// Parameters.
        expected: usize,
        /// Arguments given.
        got: usize,
    },
    /// The program does not encode (an internal limit such as a branch range).
    #[error("encoding: {0}")]
    Encode(#[from] crate::isa::EncodeError),
    /// The simulator stopped.
    #[error(transparent)]
    Sim(#[from] SimError),
}

impl Program {
    /// Argument registers the parameters take (an f64 takes two: its low
    /// and high words; an f32 its bits).
    pub fn arg_slots(&self) -> usize {
        self.params.iter().map(|p| p.slots()).sum()
    }

    /// The program's words.
    pub fn encode(&self) -> Result<Vec<u32>, crate::isa::EncodeError> {
        self.insts.iter().map(crate::isa::encode).collect()
    }

    /// Runs on `machine` (already holding this program and the data) with
    /// `args` in `a0`, `a1`, … (one word per argument register, see
    /// [`Program::arg_slots`]), executing at most `limit` instructions.
    pub fn run(
        &self,
        machine: &mut Machine,
        args: &[u32],
        limit: u64,
    ) -> Result<Counters, RunError> {
        if args.len() != self.arg_slots() {
            return Err(RunError::Arguments {
                kernel: self.name.clone(),
                expected: self.arg_slots(),
                got: args.len(),
            });
        }
        for (i, &a) in args.iter().enumerate() {
            if let Some(r) = XReg::new(10 + i as u8) {
                machine.set_x(r, a);
            }
        }
        let entry = machine.code_address(0);
        Ok(machine.run(entry, limit)?)
    }
}

/// A compilation with the lowering IR after each stage, for tests and
/// `--dump`-style inspection.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The result.
    pub program: Program,
    /// (stage name, lowering IR text) after lowering and each pass that ran.
    pub stages: Vec<(String, String)>,
}

/// Compiles `kernel` of `module` with every pass on.
pub fn compile(module: &Module, kernel: &str) -> Result<Program, Diagnostic> {
    compile_with(module, kernel, &Options::default()).map(|c| c.program)
}

/// Compiles `kernel` of `module` with the passes `options` selects.
pub fn compile_with(
    module: &Module,
    kernel: &str,
    options: &Options,
) -> Result<Compiled, Diagnostic> {
    let Some(id) = module.function(kernel) else {
        return Err(Diagnostic {
            location: "<unknown>".into(),
            kernel: kernel.into(),
            construct: "kernel".into(),
            message: "no function of that name in the module".into(),
        });
    };
    let func = &module.functions[id];
    // Lowering trusts the IR's shape (operand and region counts): check it.
    cucc_ir::verify_function(module, id).map_err(|e| Diagnostic {
        location: module.describe_loc(func.loc),
        kernel: kernel.into(),
        construct: "malformed IR".into(),
        message: e.to_string(),
    })?;
    let mut f = lower::lower(module, func, options)?;
    let slots: usize = f.params.iter().map(|p| p.slots()).sum();
    if slots > 8 {
        return Err(Diagnostic {
            location: module.describe_loc(func.loc),
            kernel: kernel.into(),
            construct: "parameters".into(),
            message: format!(
                "{} parameters take {slots} argument registers; a0–a7 hold 8",
                f.params.len()
            ),
        });
    }
    util::simplify_loops(&mut f.body);
    util::coalesce_moves(&mut f);
    let mut stages = vec![("lower".to_string(), f.to_string())];
    let mut stage = |name: &str, f: &Func, on: bool| {
        if on {
            stages.push((name.to_string(), f.to_string()));
        }
    };
    use lir::Func;
    let max_unroll = options.max_unroll;
    /// A pass over the LIR, given the unroll limit.
    type Pass = fn(&mut Func, u32) -> bool;
    let passes: [(&str, bool, Pass); 6] = [
        ("scalar-replacement", options.scalar_replacement, |f, _| {
            scalar_replace::run(f)
        }),
        ("fuse-fill", options.fuse_fill, |f, _| fill_fusion::run(f)),
        ("unroll-and-jam", options.unroll_and_jam, unroll_jam::run),
        ("pack-f32", options.pack_f32, |f, _| pack::run(f)),
        ("streams", options.streams, |f, _| streams::run(f)),
        ("frep", options.frep, |f, _| frep::run(f)),
    ];
    // Each pass that is on runs once, in this order, and shows its stage.
    for (name, on, run) in passes {
        if on {
            run(&mut f, max_unroll);
        }
        stage(name, &f, on);
    }
    let codegen = |message: String| Diagnostic {
        location: module.describe_loc(func.loc),
        kernel: kernel.into(),
        construct: "code generation".into(),
        message,
    };
    // Pointer walks keep a register per access stream live across their
    // loop: when that leaves too few registers, the reference addresses
    // (which need none across the loop) are the fallback, not a spill;
    // then the same two with loop bounds loaded at each latch instead of
    // held across the loop (deep nests: a tiled matmul's five loops).
    let symbolic = f.clone();
    let mut tries = vec![(options.strength_reduce, false)];
    if options.strength_reduce {
        tries.push((false, false));
    }
    tries.push((options.strength_reduce, true));
    if options.strength_reduce {
        tries.push((false, true));
    }
    let mut first = None;
    for (sr, remat) in tries {
        let mut g = symbolic.clone();
        materialize::run_with(&mut g, sr, remat).map_err(codegen)?;
        let result = regalloc::allocate(&g);
        let done = result.is_ok();
        if done || first.is_none() {
            f = g;
            first = Some(result);
        }
        if done {
            break;
        }
    }
    let Some(alloc) = first else {
        return Err(codegen("no materialization was tried".into()));
    };
    stages.push(("materialize".to_string(), f.to_string()));
    let alloc = alloc.map_err(|e| Diagnostic {
        location: module.describe_loc(func.loc),
        kernel: kernel.into(),
        construct: "register allocation".into(),
        message: e.to_string(),
    })?;
    let insts = emit::emit(&f, &alloc).map_err(codegen)?;
    // Every instruction must encode (a branch over a body too large for
    // its 13-bit offset, say): say so now rather than at run time.
    for inst in &insts {
        crate::isa::encode(inst).map_err(|e| codegen(format!("`{inst}`: {e}")))?;
    }
    let asm = crate::asm::print_program(&insts);
    let (fp_regs, int_regs) = registers_used(&insts);
    Ok(Compiled {
        program: Program {
            name: kernel.into(),
            params: f.params.clone(),
            insts,
            asm,
            fp_regs,
            int_regs,
            local_bytes: f.locals.iter().map(|l| l.bytes).sum(),
            locals: f.locals.clone(),
        },
        stages,
    })
}

/// Distinct FP and integer registers named by `insts` (not `zero`, `ra`, `sp`).
fn registers_used(insts: &[Inst]) -> (usize, usize) {
    use crate::isa::FReg;
    let mut f = std::collections::BTreeSet::new();
    let mut x = std::collections::BTreeSet::new();
    for inst in insts {
        let text = inst.to_string();
        for tok in text.split(|c: char| !c.is_ascii_alphanumeric()).skip(1) {
            if let Some(r) = FReg::parse(tok) {
                f.insert(r.num());
            } else if let Some(r) = XReg::parse(tok) {
                if ![XReg::ZERO, XReg::RA, XReg::SP].contains(&r) {
                    x.insert(r.num());
                }
            }
        }
    }
    (f.len(), x.len())
}
