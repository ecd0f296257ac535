//! `distribute`: removes every block barrier from launch-form kernels by
//! parallel-loop fission and interchange (Polygeist, section III-B).
//!
//! For each block-level `parallel`, repeatedly take the first top-level op
//! that is or contains a block barrier:
//! - a `barrier`: split the loop in two around it ([`split`]); values made
//!   before it and used after it are stored per thread or recomputed,
//!   choosing by minimum cut ([`mincut`]);
//! - a `barrier.reduce`: the same, with the predicate counted in between;
//! - an `if`/`for`/`while` containing a barrier: its results and carried
//!   values move to per-thread storage, the loop is split just before and
//!   just after it, and it is interchanged with the thread loop
//!   ([`interchange`]): `if c { parallel {..} }`, `for j { parallel {..} }`,
//!   and for `while` the condition is computed in the thread loop and passed
//!   out through a flag. CUDA requires barriers to be reached by every
//!   thread, so these conditions and trip counts are uniform and thread 0's
//!   values stand for all.
//!
//! A varying carried value that the loop only passes out, computing it
//! afresh each trip from uniform values, is recomputed after the loop from
//! their last values instead ([`carried`]).
//!
//! Per-thread storage is an `alloca<private> [1024 x T]` in the block's grid
//! iteration (1024 is CUDA's limit on threads per block), indexed by the
//! linear thread id. Private allocas inside a loop that has barriers are
//! moved to such arrays first, since one thread's storage must outlive the
//! fission.

mod carried;
mod hoist;
mod interchange;
mod lane_guard;
pub mod mincut;
mod monotone;
mod predicate;
mod split;
mod util;
mod vote_mask;
mod warp;
mod warp_if;
mod warp_uniform;

use crate::error::CpuifyError;
use crate::passes::entry::is_launch;
use crate::passes::uniform::Uniformity;
use crate::remarks::Remarks;
use cucc_ir::{
    BarrierScope, FuncId, Function, Level, Loc, Module, Op, OpKind, Region, Types, Value,
};
use std::collections::HashSet;

/// Which thread loops are being split, and at what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Block-level loops, at block barriers; the linear thread id is
    /// computed from the loop's ivs and bounds.
    Block,
    /// Lane-level loops, at warp barriers, shuffles and votes; the linear
    /// thread id is `base + lane`, `base` being the warp's first thread.
    Lane {
        /// Linear id of the warp's lane 0 (defined in the warp iteration).
        base: Value,
    },
}

/// The pass's state for one function.
pub(crate) struct Distributor<'a> {
    pub mode: Mode,
    pub types: &'a mut Types,
    pub func: &'a mut Function,
    pub module_files: &'a [String],
    /// The grid iteration's region, where per-thread caches are allocated.
    pub grid_region: Region,
    /// Where the next cache alloca goes in `grid_region`.
    pub cache_insert: usize,
    pub remarks: &'a mut Remarks,
    /// Loads of per-thread caches made by fission: they can be repeated in
    /// a later loop instead of being stored again, since a cache is written
    /// only before the loops that read it.
    pub reloads: HashSet<Op>,
    /// Add run-time checks that interchanged conditions are uniform.
    pub check_barriers: bool,
    /// Results of an op being interchanged that stay scalars: fission must
    /// not store them per thread, the interchanged op defines them outside
    /// the thread loops.
    pub pending: HashSet<Value>,
    /// Elements of each per-thread array: the block size when the block
    /// loop's bounds are constants, else 1024 (CUDA's limit).
    pub cache_len: u64,
}

/// Runs `distribute` on function `fid` (launch form; others are left alone):
/// removes block barriers. With `check_barriers`, the kernel traps at run
/// time when the threads of a block disagree on a condition the interchange
/// assumed uniform.
pub fn distribute(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
    check_barriers: bool,
) -> Result<(), CpuifyError> {
    for_each_grid(module, fid, remarks, check_barriers, &mut |d| {
        let grid_region = d.grid_region;
        let blocks: Vec<Op> = d.func.regions[grid_region]
            .ops
            .iter()
            .copied()
            .filter(|&o| {
                matches!(
                    d.func.ops[o].kind,
                    OpKind::Parallel {
                        level: Level::Block
                    }
                )
            })
            .collect();
        for p in blocks {
            if d.contains_sync(p) {
                d.distribute_block(grid_region, p)?;
            }
        }
        Ok(())
    })
}

/// Removes the block barriers of the one block loop `p` (in `parent`,
/// inside the grid iteration whose body is `grid_region`), for
/// `interchange`, which marks the serial loops it moves out of thread loops
/// with barriers. Remarks go to `remarks`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn distribute_thread_loop(
    types: &mut Types,
    func: &mut Function,
    files: &[String],
    grid_region: Region,
    parent: Region,
    p: Op,
    remarks: &mut Remarks,
) -> Result<(), CpuifyError> {
    let mut d = Distributor::new(types, func, files, grid_region, remarks, false);
    d.distribute_block(parent, p)?;
    d.cleanup(grid_region);
    Ok(())
}

/// Runs `warp` on function `fid`: block loops using warp primitives become
/// warp x lane loops and the primitives are removed.
pub fn split_warps(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
    check_barriers: bool,
) -> Result<(), CpuifyError> {
    for_each_grid(module, fid, remarks, check_barriers, &mut |d| {
        let grid_region = d.grid_region;
        d.split_warps(grid_region)
    })
}

/// Runs `f` with a distributor for each grid-level loop of a launch-form
/// function, then cleans up what it left.
fn for_each_grid(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
    check_barriers: bool,
    f: &mut dyn FnMut(&mut Distributor<'_>) -> Result<(), CpuifyError>,
) -> Result<(), CpuifyError> {
    if !is_launch(module, fid) {
        return Ok(());
    }
    let Module {
        types,
        functions,
        files,
        ..
    } = module;
    let func = &mut functions[fid];
    let grids = crate::passes::launch_form::top_grids(func);
    for g in grids {
        let grid_region = func.ops[g].body();
        let mut d = Distributor::new(types, func, files, grid_region, remarks, check_barriers);
        f(&mut d)?;
        d.cleanup(grid_region);
    }
    Ok(())
}

impl<'a> Distributor<'a> {
    /// A distributor in block mode for the grid iteration `grid_region`.
    fn new(
        types: &'a mut Types,
        func: &'a mut Function,
        module_files: &'a [String],
        grid_region: Region,
        remarks: &'a mut Remarks,
        check_barriers: bool,
    ) -> Self {
        Distributor {
            mode: Mode::Block,
            types,
            func,
            module_files,
            grid_region,
            cache_insert: 0,
            remarks,
            reloads: HashSet::new(),
            check_barriers,
            pending: HashSet::new(),
            cache_len: util::MAX_THREADS,
        }
    }

    /// Records a remark of the pass on the function being distributed.
    pub(crate) fn remark(&mut self, loc: Loc, message: impl Into<String>) {
        self.remarks
            .add("distribute", &self.func.name, loc, message);
    }

    /// True if `op` or an op nested in it has a kind satisfying `pred`.
    pub(crate) fn any_nested(&self, op: Op, pred: &dyn Fn(&OpKind) -> bool) -> bool {
        let data = &self.func.ops[op];
        pred(&data.kind)
            || data.regions.iter().any(|&r| {
                self.func.regions[r]
                    .ops
                    .iter()
                    .any(|&o| self.any_nested(o, pred))
            })
    }

    /// Splits thread loop `p` (in `parent`) around its top-level op `c`:
    /// returns the loop `c` now runs alone in and the loop of what followed
    /// it.
    pub(crate) fn isolate(
        &mut self,
        parent: Region,
        p: Op,
        c: Op,
    ) -> Result<(Op, Op), CpuifyError> {
        let body = self.func.ops[p].body();
        let k = self.position(body, c);
        let (p2, _, _) = self.split(parent, p, k, false)?;
        let body2 = self.func.ops[p2].body();
        let k2 = self.position(body2, c);
        let (p3, _, _) = self.split(parent, p2, k2 + 1, false)?;
        Ok((p2, p3))
    }

    /// Removes the block barriers of block loop `p` (in `parent`), its
    /// per-thread caches sized for its block.
    fn distribute_block(&mut self, parent: Region, p: Op) -> Result<(), CpuifyError> {
        let ubs = self.func.ops[p].ubs().to_vec();
        self.cache_len = self.block_size_bound(&ubs);
        self.hoist_private_allocas(p);
        self.process(parent, p)
    }
}

impl Distributor<'_> {
    pub(crate) fn err(&self, op: Op, msg: impl Into<String>) -> CpuifyError {
        let loc = self.func.ops[op].loc;
        let location = if loc.is_unknown() {
            "<unknown>".to_string()
        } else {
            let file = self
                .module_files
                .get(loc.file as usize)
                .map_or("<unknown>", String::as_str);
            format!("{file}:{}:{}", loc.line, loc.col)
        };
        CpuifyError {
            location,
            function: self.func.name.clone(),
            message: msg.into(),
        }
    }

    /// True if `kind` synchronises the loops of the current mode.
    pub(crate) fn is_sync(&self, kind: &OpKind) -> bool {
        match self.mode {
            Mode::Block => kind.is_block_barrier(),
            Mode::Lane { .. } => kind.is_warp_collective(),
        }
    }

    /// True if `op` synchronises (see [`Distributor::is_sync`]) or contains
    /// an op that does.
    pub(crate) fn contains_sync(&self, op: Op) -> bool {
        self.any_nested(op, &|k| self.is_sync(k))
    }

    /// Removes the block barriers of block-level parallel `p` (in `parent`).
    fn process(&mut self, parent: Region, p: Op) -> Result<(), CpuifyError> {
        let mut p = p;
        loop {
            let body = self.func.ops[p].body();
            let ops = self.func.regions[body].ops.clone();
            let Some(k) = ops.iter().position(|&o| self.contains_sync(o)) else {
                return Ok(());
            };
            let op = ops[k];
            let loc = self.func.ops[op].loc;
            match self.func.ops[op].kind.clone() {
                OpKind::Barrier(scope) => {
                    let what = match scope {
                        BarrierScope::Block => "barrier",
                        BarrierScope::Warp => "warp barrier",
                    };
                    let (next, stored, recomputed) = self.split(parent, p, k, true)?;
                    self.remark(
                        loc,
                    format!(
                        "{what} removed by fission; {stored} value(s) stored per thread, {recomputed} recomputed"
                    ),
                    );
                    p = next;
                }
                OpKind::BarrierReduce(kind) => {
                    p = self.split_reduce(parent, p, op, kind)?;
                }
                OpKind::Shuffle(mode) => {
                    p = self.split_shuffle(parent, p, op, mode)?;
                }
                OpKind::Vote(kind) => {
                    p = self.split_vote(parent, p, op, kind)?;
                }
                // Lanes of a warp may disagree on an `if` around a shuffle or
                // vote: interchanged only where they provably agree (`warp_if`).
                OpKind::If if matches!(self.mode, Mode::Lane { .. }) => {
                    p = self.warp_if(parent, p, op)?;
                }
                OpKind::If | OpKind::For { .. } | OpKind::While => {
                    let mut uniform = Uniformity::of_thread_loop(self.types, self.func, p);
                    let recomputed = self.recompute_carried(p, op, &uniform);
                    if recomputed > 0 {
                        self.remark(
                            loc,
                        format!(
                            "{recomputed} carried value(s) of the `{}` recomputed after it from its uniform values, not stored per thread",
                            self.func.ops[op].kind.mnemonic()
                        ),
                        );
                        uniform = Uniformity::of_thread_loop(self.types, self.func, p);
                    }
                    self.demote(p, op, Some(&uniform))?;
                    let (p2, p3) = self.isolate(parent, p, op)?;
                    let inner = self.interchange(parent, p2, op, &uniform)?;
                    self.remark(
                        loc,
                        format!(
                            "`{}` containing a barrier interchanged with the thread loop",
                            self.func.ops[op].kind.mnemonic()
                        ),
                    );
                    for (r, q) in inner {
                        self.process(r, q)?;
                    }
                    p = p3;
                }
                other => {
                    return Err(self.err(
                        op,
                        format!(
                            "a block barrier inside `{}` cannot be removed",
                            other.mnemonic()
                        ),
                    ))
                }
            }
        }
    }

    /// Index of `op` in `region`.
    #[track_caller]
    pub(crate) fn position(&self, region: Region, op: Op) -> usize {
        self.func.op_index(region, op)
    }
}
