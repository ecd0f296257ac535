//! The cpuify pipeline: one registry of named passes ([`PASSES`], in
//! pipeline order, each declared once with its function), switchable for
//! ablations (`cucc --cpuify=inline,mem2reg,...`). `--cpuify=`,
//! `--print-ir-after`, the filetests and the test harnesses all read it.
//! Passes marked required run whatever the list says: without them the C
//! emitter has nothing it can translate (device calls, per-thread kernels,
//! barriers). With [`Options::verify_each`] the verifier runs after every
//! pass and an invalid module is reported naming the pass that made it.

use crate::error::CpuifyError;
use crate::passes;
use crate::progress::{PhaseTimes, Progress};
use crate::remarks::Remarks;
use cucc_ir::{FuncId, FunctionKind, Module};
use std::time::Instant;

/// A pass of the pipeline.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// Name used by `--cpuify=` and `--print-ir-after=`.
    pub name: &'static str,
    /// One line for `--help` and the docs.
    pub description: &'static str,
    /// Runs even when not listed: translation is impossible without it.
    pub required: bool,
    /// Runs only when listed (`--cpuify=all,NAME`): correct, but not yet
    /// faster on the measured programs (docs/design.md).
    pub opt_in: bool,
    /// Runs the pass on one function, whatever its form (each pass leaves
    /// alone the functions it does not apply to); the flag asks for the
    /// run-time barrier checks of `--check-barriers`.
    pub run: PassFn,
}

/// The signature every pass is registered with.
pub type PassFn = fn(&mut Module, FuncId, &mut Remarks, bool) -> Result<(), CpuifyError>;

/// The registry entry of pass `name`.
pub fn pass(name: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|p| p.name == name)
}

/// Every pass, in pipeline order.
pub static PASSES: &[PassInfo] = &[
    PassInfo {
        name: "inline",
        description: "inline every device function call reachable from a kernel",
        required: true,
        opt_in: false,
        run: |m, f, _, _| passes::inline_calls(m, f),
    },
    PassInfo {
        name: "mem2reg",
        description: "promote private scalar allocas (and split struct locals) to SSA values",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::mem2reg(m, f, r).map(drop),
    },
    PassInfo {
        name: "canonicalize",
        description: "fold constants, eliminate common subexpressions and dead code",
        required: false,
        opt_in: false,
        run: |m, f, _, _| passes::canonicalize(m, f),
    },
    PassInfo {
        name: "nsw-ranges",
        description: "integer adds, subs, muls and constant left shifts that the ranges of CUDA's ids and constants prove cannot overflow become `nsw` (PTX's wrapping index arithmetic)",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::nsw_ranges(m, f, r).map(drop),
    },
    PassInfo {
        name: "lane-fetch",
        description: "a channel of a four-channel tex1Dfetch chosen at run time read by one fetch",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::lane_fetch(m, f, r).map(drop),
    },
    PassInfo {
        name: "strength-reduce",
        description:
            "remainders by run-time powers of two (strides doubled each trip) become masks",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::strength_reduce(m, f, r).map(drop),
    },
    PassInfo {
        name: "lower-launch",
        description: "per-thread kernel to launch form: grid and block loops, shared allocas",
        required: true,
        opt_in: false,
        run: |m, f, _, _| passes::lower_launch(m, f),
    },
    PassInfo {
        name: "predicate-barriers",
        description: "guard the work of `if`s holding barriers on thread-dependent conditions",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::predicate_barriers(m, f, r).map(drop),
    },
    PassInfo {
        name: "order-phases",
        description: "a barrier between loops of one barrier interval whose accesses may conflict across threads (the GPU's near-lockstep order)",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::order_phases(m, f, r).map(drop),
    },
    PassInfo {
        name: "barrier-elim",
        description: "delete block barriers that order no conflicting accesses across threads",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::barrier_elim(m, f, r).map(drop),
    },
    PassInfo {
        name: "parallel-licm",
        description: "hoist invariant loads and arithmetic out of thread loops and serial loops",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::parallel_licm(m, f, r).map(drop),
    },
    PassInfo {
        name: "unroll",
        description: "fully unroll small constant-trip loops that contain barriers",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::unroll(m, f, r).map(drop),
    },
    PassInfo {
        name: "distribute",
        description: "remove block barriers by loop fission (min-cut) and interchange",
        required: true,
        opt_in: false,
        run: passes::distribute,
    },
    PassInfo {
        name: "warp",
        description:
            "split block loops into warp x lane loops; remove shuffles, votes, warp barriers",
        required: true,
        opt_in: false,
        run: passes::distribute::split_warps,
    },
    PassInfo {
        name: "collapse",
        description: "barrier-free launches without shared memory indexing threads in 2-D/3-D: loops over global thread coordinates, ordered by access strides",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::collapse(m, f, r, false).map(drop),
    },
    PassInfo {
        name: "collapse-1d",
        description: "barrier-free launches without shared memory indexing threads in 1-D: one loop over global thread ids",
        required: false,
        opt_in: true,
        run: |m, f, r, _| passes::collapse(m, f, r, true).map(drop),
    },
    PassInfo {
        name: "clamp-guards",
        description: "end thread loops where a guard on the thread index fails for the rest",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::clamp_guards(m, f, r).map(drop),
    },
    PassInfo {
        name: "grid-no-wrap",
        description: "global thread loops indexing through 32-bit `u + x` sums run a copy with the sums `nsw` when a run-time check shows they cannot wrap",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::grid_no_wrap(m, f, r).map(drop),
    },
    PassInfo {
        name: "interchange",
        description: "serial loops with the same trip count in every thread move out of thread loops (versioned on guards and 1-D blocks), which become innermost",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::interchange(m, f, r).map(drop),
    },
    PassInfo {
        name: "serialize-inner",
        description: "thread loops whose iterations may share memory become sequential for nests",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::serialize_inner(m, f, r).map(drop),
    },
    PassInfo {
        name: "split-guards",
        description: "work of independent thread loops guarded by `threadIdx.d == k` (a tile's halo) moves to a loop over the other coordinates",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::split_guards(m, f, r).map(drop),
    },
    PassInfo {
        name: "stride-guards",
        description: "serial loops guarded by `(i + c) % m == 0` step by m",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::stride_guards(m, f, r).map(drop),
    },
    PassInfo {
        name: "speculate",
        description: "if-convert thread-loop bodies: guarded shared loads and clamped neighbour loads speculated within guard bytes",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::speculate(m, f, r).map(drop),
    },
    PassInfo {
        name: "edge-versions",
        description: "thread loops testing `base + threadIdx.d == k` (a grid edge) run with the tests folded in blocks no thread of which meets them",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::edge_versions(m, f, r).map(drop),
    },
    PassInfo {
        name: "branch-free",
        description: "small `if`s in serial `while` loops become selects, written without branches",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::branch_free(m, f, r).map(drop),
    },
    PassInfo {
        name: "flatten-threads",
        description: "thread loops that use their indices only as the linear thread id run as one loop",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::flatten_threads(m, f, r).map(drop),
    },
    PassInfo {
        name: "widen-flags",
        description: "per-thread flag arrays a thread loop at most 32 threads wide uses hold 32-bit words (one vector width for the loop)",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::widen_flags(m, f, r).map(drop),
    },
    PassInfo {
        name: "prefetch",
        description: "thread loops prefetch the contiguous ranges of pointer arguments the next block accesses (in a serial loop of the block, or row by row for tiles of several rows); serial loops walking a pointer argument with a wide or run-time stride prefetch ahead",
        required: false,
        opt_in: false,
        run: |m, f, r, _| passes::prefetch(m, f, r).map(drop),
    },
];

/// What to run and what to print.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Optional passes to run; `None` runs them all.
    pub enabled: Option<Vec<String>>,
    /// Passes after which to print the module.
    pub print_after: Vec<String>,
    /// Print the module after every pass.
    pub print_after_all: bool,
    /// Trap at run time when a barrier is reached by only part of a block.
    pub check_barriers: bool,
    /// Verify the module after every pass (`--verify-each`; always on in
    /// the tests).
    pub verify_each: bool,
}

/// Passes a checked build (`CUCC_SANITIZE`, docs/sanitize.md) leaves out:
/// they fuse the grid and thread loops or run thread loops as serial nests
/// (the checks could no longer name the block and thread of an access, and
/// racecheck's phases are runs of thread loops), or read bytes beyond an
/// object on purpose (`speculate`).
pub const UNCHECKABLE_PASSES: &[&str] = &[
    "collapse",
    "collapse-1d",
    "serialize-inner",
    "split-guards",
    "speculate",
    "flatten-threads",
];

impl Options {
    /// These options for a checked build: the same passes less
    /// [`UNCHECKABLE_PASSES`].
    pub fn for_checks(mut self) -> Options {
        let list: Vec<String> = PASSES
            .iter()
            .filter(|p| self.runs(p) && !UNCHECKABLE_PASSES.contains(&p.name))
            .map(|p| p.name.to_string())
            .collect();
        self.enabled = Some(list);
        self
    }

    /// The default passes with the verifier after each (what tests use).
    pub fn verifying() -> Options {
        Options {
            verify_each: true,
            ..Options::default()
        }
    }

    /// True if pass `name` runs under these options.
    pub fn runs(&self, info: &PassInfo) -> bool {
        info.required
            || match &self.enabled {
                None => !info.opt_in,
                Some(list) => list.iter().any(|n| n == info.name),
            }
    }
}

/// Parses a `--cpuify=` value: `all` (the default passes), `none` (only the
/// required passes), or a comma-separated list of pass names in which `all`
/// stands for the default passes (`all,collapse-1d` adds an opt-in pass).
pub fn parse_pass_list(s: &str) -> Result<Option<Vec<String>>, String> {
    match s.trim() {
        "all" => return Ok(None),
        "none" | "" => return Ok(Some(Vec::new())),
        _ => {}
    }
    let mut out = Vec::new();
    for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if name == "all" {
            out.extend(
                PASSES
                    .iter()
                    .filter(|p| !p.opt_in)
                    .map(|p| p.name.to_string()),
            );
            continue;
        }
        if !PASSES.iter().any(|p| p.name == name) {
            let known: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
            return Err(format!(
                "unknown cpuify pass `{name}` (known: {}, or all/none)",
                known.join(", ")
            ));
        }
        out.push(name.to_string());
    }
    Ok(Some(out))
}

/// Checks that every name given to `--print-ir-after` is a pass.
pub fn check_pass_names(names: &[String]) -> Result<(), String> {
    for name in names {
        if !PASSES.iter().any(|p| p.name == name) {
            return Err(format!("unknown pass `{name}` in --print-ir-after"));
        }
    }
    Ok(())
}

/// Runs the pipeline on every kernel of `module`. `print(pass, module)` is
/// called after each pass the options ask to print.
pub fn run(
    module: &mut Module,
    options: &Options,
    remarks: &mut Remarks,
    print: &mut dyn FnMut(&str, &Module),
) -> Result<(), CpuifyError> {
    run_reporting(
        module,
        options,
        remarks,
        print,
        &mut PhaseTimes::default(),
        None,
    )
}

/// [`run`], adding each pass's time (summed over the kernels) to `times`
/// and naming the pass and kernel running now to `progress`.
pub fn run_reporting(
    module: &mut Module,
    options: &Options,
    remarks: &mut Remarks,
    print: &mut dyn FnMut(&str, &Module),
    times: &mut PhaseTimes,
    progress: Option<&Progress>,
) -> Result<(), CpuifyError> {
    let kernels: Vec<FuncId> = module
        .functions
        .iter()
        .filter(|(_, f)| f.kind == FunctionKind::Kernel)
        .map(|(h, _)| h)
        .collect();
    for info in PASSES {
        if !options.runs(info) {
            continue;
        }
        let start = Instant::now();
        for &fid in &kernels {
            if let Some(p) = progress {
                p.phase(format!(
                    "pass {} on kernel {}",
                    info.name, module.functions[fid].name
                ));
            }
            (info.run)(module, fid, remarks, options.check_barriers)?;
        }
        times.add(info.name, start.elapsed());
        if options.verify_each {
            verify_after(module, info.name)?;
        }
        if options.print_after_all || options.print_after.iter().any(|n| n == info.name) {
            print(info.name, module);
        }
    }
    Ok(())
}

/// Runs pass `name` (a registry name, see [`PASSES`]) on function `fid`,
/// whatever its form: each pass leaves alone the functions it does not
/// apply to. `check` adds the run-time barrier checks of `--check-barriers`.
pub fn run_pass(
    name: &str,
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
    check: bool,
) -> Result<(), CpuifyError> {
    match pass(name) {
        Some(info) => (info.run)(module, fid, remarks, check),
        None => {
            let f = &module.functions[fid];
            Err(CpuifyError::new(
                module,
                f.loc,
                &f.name,
                format!("unknown cpuify pass `{name}`"),
            ))
        }
    }
}

/// Verifies `module` after pass `name`: an error names the pass and lists
/// what the verifier found.
pub fn verify_after(module: &Module, name: &str) -> Result<(), CpuifyError> {
    let Err(errors) = cucc_ir::verify_module(module) else {
        return Ok(());
    };
    let (loc, func) = module
        .functions
        .iter()
        .next()
        .map(|(_, f)| (f.loc, f.name.clone()))
        .unwrap_or_default();
    Err(CpuifyError::new(
        module,
        loc,
        &func,
        format!("invalid IR after pass `{name}` (a bug in cucc): {errors}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_lists() {
        assert_eq!(parse_pass_list("all"), Ok(None));
        assert_eq!(parse_pass_list("none"), Ok(Some(vec![])));
        assert_eq!(
            parse_pass_list("inline, mem2reg"),
            Ok(Some(vec!["inline".to_string(), "mem2reg".to_string()]))
        );
        let err = parse_pass_list("inline,bogus").unwrap_err();
        assert!(err.starts_with("unknown cpuify pass `bogus`"), "{err}");
        let opts = Options {
            enabled: Some(vec![]),
            ..Options::default()
        };
        let mem2reg = PASSES.iter().find(|p| p.name == "mem2reg").expect("pass");
        let lower = PASSES
            .iter()
            .find(|p| p.name == "lower-launch")
            .expect("pass");
        assert!(!opts.runs(mem2reg));
        assert!(opts.runs(lower));
    }

    #[test]
    fn interchange_runs_between_clamp_guards_and_serialize_inner() {
        let at = |n: &str| PASSES.iter().position(|p| p.name == n).expect("pass");
        let info = &PASSES[at("interchange")];
        assert!(!info.opt_in && !info.required);
        assert!(Options::default().runs(info));
        assert!(at("clamp-guards") < at("interchange"));
        assert!(at("interchange") < at("serialize-inner"));
    }

    #[test]
    fn checked_builds_leave_out_fusing_passes() {
        let opts = Options::default().for_checks();
        let find = |n: &str| PASSES.iter().find(|p| p.name == n).expect("pass");
        assert!(!opts.runs(find("collapse")) && !opts.runs(find("speculate")));
        assert!(opts.runs(find("distribute")) && opts.runs(find("mem2reg")));
        assert!(UNCHECKABLE_PASSES.iter().all(|n| pass(n).is_some()));
    }

    #[test]
    fn collapse_1d_is_opt_in() {
        let find = |n: &str| PASSES.iter().find(|p| p.name == n).expect("pass");
        let (nd, one_d) = (find("collapse"), find("collapse-1d"));
        assert!(Options::default().runs(nd));
        assert!(!Options::default().runs(one_d));
        let list = parse_pass_list("all,collapse-1d")
            .expect("parses")
            .expect("a list");
        assert!(list.iter().any(|n| n == "collapse-1d"));
        assert!(list.iter().any(|n| n == "distribute"));
        let opts = Options {
            enabled: Some(list),
            ..Options::default()
        };
        assert!(opts.runs(one_d) && opts.runs(nd));
    }

    #[test]
    fn registry_names_are_unique_and_resolve() {
        for (i, p) in PASSES.iter().enumerate() {
            assert!(
                PASSES[i + 1..].iter().all(|q| q.name != p.name),
                "{} registered twice",
                p.name
            );
            assert!(pass(p.name).is_some_and(|q| std::ptr::eq(q, p)));
        }
        assert!(pass("no-such-pass").is_none());
    }

    #[test]
    fn verify_after_names_the_pass() {
        // A kernel whose body does not end in `return` is invalid.
        let mut m = Module::new();
        m.add_function(cucc_ir::Function::new("k", FunctionKind::Kernel, &[], &[]));
        let err = verify_after(&m, "some-pass").expect_err("invalid");
        assert!(err.to_string().contains("after pass `some-pass`"), "{err}");
    }
}
