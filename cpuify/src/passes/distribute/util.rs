//! Per-thread storage, result demotion and clean-up for `distribute`.

use super::Distributor;
use crate::error::CpuifyError;
use crate::passes::uniform::Uniformity;
use cucc_ir::edit::{remove_op, replace_all_uses, replace_uses_in_region, uses};
use cucc_ir::{
    ArithFlags, BarrierReduceKind, BinOp, Builder, CastOp, CmpPred, Level, Op, OpKind, Region,
    Space, TypeId, Value,
};
use std::collections::HashMap;

/// The elements of `values` whose `keep` flag is set.
fn retain(values: &[Value], keep: &[bool]) -> Vec<Value> {
    values
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(&v, _)| v)
        .collect()
}

/// CUDA's maximum number of threads in a block: the size of per-thread arrays.
pub const MAX_THREADS: u64 = 1024;

impl Distributor<'_> {
    /// A builder inserting at `index` of `region`.
    /// The lane loops under `region`, in walk order, with the region
    /// holding each.
    pub(crate) fn lane_loops(&self, region: Region) -> Vec<(Region, Op)> {
        let mut walk = Vec::new();
        self.func.walk_region(region, &mut walk);
        walk.into_iter()
            .filter(|&(_, o)| self.func.ops[o].kind == OpKind::Parallel { level: Level::Lane })
            .collect()
    }

    pub(crate) fn at(&mut self, region: Region, index: usize) -> Builder<'_> {
        let mut b = Builder::new(self.types, self.func);
        b.set_insertion_at(region, index);
        b
    }

    /// Inserts `lin = iv0 + ub0 * (iv1 + ub1 * iv2)` for parallel `p` at
    /// `index` of `region`; returns the value and how many ops were inserted.
    pub(crate) fn lin_at(&mut self, region: Region, index: usize, p: Op) -> (Value, usize) {
        let ivs = self.func.regions[self.func.ops[p].body()].args.clone();
        let ubs = self.func.ops[p].ubs().to_vec();
        self.lin_of(region, index, &ivs, &ubs)
    }

    /// Like [`Distributor::lin_at`] with explicit ivs and bounds.
    pub(crate) fn lin_of(
        &mut self,
        region: Region,
        index: usize,
        ivs: &[Value],
        ubs: &[Value],
    ) -> (Value, usize) {
        let before = self.func.regions[region].ops.len();
        let mode = self.mode;
        let mut b = self.at(region, index);
        // Every partial sum and product is below the block's thread count
        // (at most 1024): `nsw`, so the C emitter's indices stay affine.
        let nsw = ArithFlags::NSW;
        if let super::Mode::Lane { base } = mode {
            let lin = b.binary_flags(BinOp::Add, nsw, base, ivs[0]);
            let _ = ubs;
            return (lin, 1);
        }
        let mut acc = ivs[ivs.len() - 1];
        for k in (0..ivs.len() - 1).rev() {
            let m = b.binary_flags(BinOp::Mul, nsw, ubs[k], acc);
            acc = b.binary_flags(BinOp::Add, nsw, ivs[k], m);
        }
        let inserted = self.func.regions[region].ops.len() - before;
        (acc, inserted)
    }

    /// A fresh per-thread array of `ty` (`cache_len` elements), allocated in
    /// the block's grid iteration.
    pub(crate) fn new_cache(&mut self, ty: TypeId) -> Value {
        let arr = self.types.array(ty, self.cache_len);
        self.new_cell(arr)
    }

    /// A fresh private cell of `ty` in the block's grid iteration.
    pub(crate) fn new_cell(&mut self, ty: TypeId) -> Value {
        let (grid, at) = (self.grid_region, self.cache_insert);
        self.cache_insert += 1;
        self.at(grid, at).alloca(Space::Private, ty)
    }

    /// The number of threads a block loop with bounds `ubs` can have: their
    /// product when all are constants, else CUDA's limit.
    pub(crate) fn block_size_bound(&self, ubs: &[Value]) -> u64 {
        let mut n: u64 = 1;
        for &u in ubs {
            let Some(op) = self.func.defining_op(u) else {
                return MAX_THREADS;
            };
            let OpKind::Const { bits } = self.func.ops[op].kind else {
                return MAX_THREADS;
            };
            n = n.saturating_mul(bits.max(1));
        }
        n.clamp(1, MAX_THREADS)
    }

    /// Moves every private alloca inside block-parallel `p` to a per-thread
    /// array, so a thread's storage survives the loop being split.
    pub(crate) fn hoist_private_allocas(&mut self, p: Op) {
        let mut walk = Vec::new();
        self.func.walk_region(self.func.ops[p].body(), &mut walk);
        for (region, op) in walk {
            let OpKind::Alloca {
                space: Space::Private,
                ty,
            } = self.func.ops[op].kind
            else {
                continue;
            };
            let cache = self.new_cache(ty);
            let i = self.position(region, op);
            let (lin, _) = self.lin_at(region, i, p);
            let data = &mut self.func.ops[op];
            data.kind = OpKind::PtrIndex { elem: ty };
            data.operands = vec![cache, lin];
        }
    }

    /// The address of this thread's slot of `cache`, inserted at `index` of
    /// `region` (inside parallel `p`); returns (address, ops inserted).
    fn slot_at(
        &mut self,
        region: Region,
        index: usize,
        p: Op,
        cache: Value,
        ty: TypeId,
    ) -> (Value, usize) {
        let (lin, n) = self.lin_at(region, index, p);
        let addr = self.at(region, index + n).ptr_index(cache, lin, ty);
        (addr, n + 1)
    }

    /// Stores `v` into this thread's slot of `cache` at `index` of `region`;
    /// returns the number of ops inserted.
    pub(crate) fn store_slot(
        &mut self,
        region: Region,
        index: usize,
        p: Op,
        cache: Value,
        v: Value,
    ) -> usize {
        let ty = self.func.value_type(v);
        let (addr, n) = self.slot_at(region, index, p, cache, ty);
        self.at(region, index + n).store(addr, v);
        n + 1
    }

    /// Loads this thread's slot of `cache` at `index` of `region`; returns
    /// (value, ops inserted).
    pub(crate) fn load_slot(
        &mut self,
        region: Region,
        index: usize,
        p: Op,
        cache: Value,
        ty: TypeId,
    ) -> (Value, usize) {
        let (addr, n) = self.slot_at(region, index, p, cache, ty);
        let v = self.at(region, index + n).load(addr, ty);
        (v, n + 1)
    }

    /// Moves the results and carried values of control-flow op `c` (at the
    /// top level of block-parallel `p`) to per-thread storage, so that it has
    /// no results and no region arguments besides a `for`'s iv. With
    /// `uniform`, values the analysis finds uniform across the block stay:
    /// the interchange keeps them as scalars outside the thread loops.
    pub(crate) fn demote(
        &mut self,
        p: Op,
        c: Op,
        uniform: Option<&Uniformity>,
    ) -> Result<(), CpuifyError> {
        let body = self.func.ops[p].body();
        let kind = self.func.ops[c].kind.clone();
        let results = self.func.ops[c].results.clone();
        let keep = |v: &Value| uniform.is_some_and(|u| u.is_uniform(*v));
        let kept_results: Vec<bool> = match kind {
            OpKind::For { .. } => self.func.regions[self.func.ops[c].body()].args[1..]
                .iter()
                .map(keep)
                .collect(),
            OpKind::While => self.func.regions[self.func.ops[c].after()]
                .args
                .iter()
                .map(keep)
                .collect(),
            _ => results.iter().map(keep).collect(),
        };
        match kind {
            OpKind::If => {
                let caches = self.caches_for(&results, &kept_results);
                for r in self.func.ops[c].regions.clone() {
                    self.yield_to_caches(r, p, &caches);
                }
                self.reload_after(body, p, c, &results, &caches);
            }
            OpKind::For { .. } => {
                let inits = self.func.ops[c].inits().to_vec();
                let caches = self.caches_for(&inits, &kept_results);
                let r = self.func.ops[c].body();
                let args = self.func.regions[r].args[1..].to_vec();
                let mut at = self.position(body, c);
                for (cache, &init) in caches.iter().zip(&inits) {
                    if let Some(cache) = *cache {
                        at += self.store_slot(body, at, p, cache, init);
                    }
                }
                self.load_args(r, p, &args, &caches);
                self.yield_to_caches(r, p, &caches);
                self.reload_after(body, p, c, &results, &caches);
                self.func.ops[c].set_inits(retain(&inits, &kept_results));
                let mut new_args = vec![self.func.regions[r].args[0]];
                new_args.extend(retain(&args, &kept_results));
                self.func.regions[r].args = new_args;
            }
            OpKind::While => {
                let (before, after) = (self.func.ops[c].before(), self.func.ops[c].after());
                let operands = self.func.ops[c].inits().to_vec();
                let bargs = self.func.regions[before].args.clone();
                let aargs = self.func.regions[after].args.clone();
                let kept_before: Vec<bool> = bargs.iter().map(keep).collect();
                let bcaches = self.caches_for(&operands, &kept_before);
                let Some(&cond) = self.func.regions[before].ops.last() else {
                    return Err(self.err(c, "`while` without a condition"));
                };
                let vals = self.func.ops[cond].values().to_vec();
                // condition(c, vals...): vals go to the after caches. A val
                // that is a before-argument already sits in that
                // argument's array, which nothing writes again before the
                // after-region and the results have read it (the yield's
                // stores end the after-region; each thread touches only its
                // own slot): share the array instead of copying it.
                let mut acaches = Vec::with_capacity(results.len());
                let mut shared = Vec::with_capacity(results.len());
                for (i, &r) in results.iter().enumerate() {
                    let from_arg = vals
                        .get(i)
                        .and_then(|v| bargs.iter().position(|b| b == v))
                        .and_then(|j| bcaches.get(j).copied().flatten());
                    let cache = match (kept_results.get(i).copied().unwrap_or(false), from_arg) {
                        (true, _) => None,
                        (false, Some(bc)) => Some(bc),
                        (false, None) => {
                            let ty = self.func.value_type(r);
                            Some(self.new_cache(ty))
                        }
                    };
                    shared.push(from_arg.is_some());
                    acaches.push(cache);
                }
                let mut at = self.position(body, c);
                for (cache, &init) in bcaches.iter().zip(&operands) {
                    if let Some(cache) = *cache {
                        at += self.store_slot(body, at, p, cache, init);
                    }
                }
                self.load_args(before, p, &bargs, &bcaches);
                let mut at = self.position(before, cond);
                for ((cache, &v), &is_shared) in acaches.iter().zip(&vals).zip(&shared) {
                    if let (Some(cache), false) = (*cache, is_shared) {
                        at += self.store_slot(before, at, p, cache, v);
                    }
                }
                self.func.ops[cond].set_values(retain(&vals, &kept_results));
                self.load_args(after, p, &aargs, &acaches);
                self.yield_to_caches(after, p, &bcaches);
                self.reload_after(body, p, c, &results, &acaches);
                self.func.ops[c].set_inits(retain(&operands, &kept_before));
                self.func.regions[before].args = retain(&bargs, &kept_before);
                self.func.regions[after].args = retain(&aargs, &kept_results);
            }
            _ => return Err(self.err(c, "only `if`, `for` and `while` can be interchanged")),
        }
        let kept = retain(&results, &kept_results);
        self.pending.extend(kept.iter().copied());
        self.func.ops[c].results = kept;
        Ok(())
    }

    /// A per-thread cache for each of `values` not marked `kept`.
    fn caches_for(&mut self, values: &[Value], kept: &[bool]) -> Vec<Option<Value>> {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                if kept.get(i).copied().unwrap_or(false) {
                    return None;
                }
                let ty = self.func.value_type(v);
                Some(self.new_cache(ty))
            })
            .collect()
    }

    /// Lets fission repeat the load defining `v` (a carried value or result
    /// read from its per-thread array) in a later thread loop instead of
    /// storing it again: the array is written only at the end of the
    /// iteration (or before the op), after every loop that reads it there.
    fn mark_reload(&mut self, v: Value) {
        if let Some(op) = self.func.defining_op(v) {
            self.reloads.insert(op);
        }
    }

    /// Stores the operands of `region`'s final `yield` that have a cache
    /// and leaves the others in the yield.
    fn yield_to_caches(&mut self, region: Region, p: Op, caches: &[Option<Value>]) {
        let Some(&y) = self.func.regions[region].ops.last() else {
            return;
        };
        let vals = self.func.ops[y].operands.clone();
        let mut at = self.position(region, y);
        let mut rest = Vec::new();
        for (cache, &v) in caches.iter().zip(&vals) {
            match *cache {
                Some(cache) => at += self.store_slot(region, at, p, cache, v),
                None => rest.push(v),
            }
        }
        self.func.ops[y].operands = rest;
    }

    /// At the start of `region`, loads the `args` that have a cache and
    /// renames their uses in the region.
    fn load_args(&mut self, region: Region, p: Op, args: &[Value], caches: &[Option<Value>]) {
        let mut map = HashMap::new();
        let mut at = 0;
        for (&a, cache) in args.iter().zip(caches) {
            let Some(cache) = *cache else { continue };
            let ty = self.func.value_type(a);
            let (v, n) = self.load_slot(region, at, p, cache, ty);
            self.mark_reload(v);
            self.func.values[v].name = self.func.values[a].name.clone();
            at += n;
            map.insert(a, v);
        }
        replace_uses_in_region(self.func, region, &map);
    }

    /// After `c` in `body`, loads the `results` that have a cache and
    /// renames their uses.
    fn reload_after(
        &mut self,
        body: Region,
        p: Op,
        c: Op,
        results: &[Value],
        caches: &[Option<Value>],
    ) {
        let mut at = self.position(body, c) + 1;
        for (&r, cache) in results.iter().zip(caches) {
            let Some(cache) = *cache else { continue };
            let ty = self.func.value_type(r);
            let (v, n) = self.load_slot(body, at, p, cache, ty);
            self.mark_reload(v);
            at += n;
            self.func.values[v].name = self.func.values[r].name.clone();
            replace_all_uses(self.func, r, v);
        }
    }

    /// Removes a `barrier.reduce` at the top level of `p`: each thread adds
    /// its predicate to a counter before the split, and the result is read
    /// from the counter after it. Returns the parallel after the split.
    pub(crate) fn split_reduce(
        &mut self,
        parent: Region,
        p: Op,
        op: Op,
        kind: BarrierReduceKind,
    ) -> Result<Op, CpuifyError> {
        let body = self.func.ops[p].body();
        let pred = self.func.ops[op].pred();
        let result = self.func.ops[op].result();
        let ubs = self.func.ops[p].ubs().to_vec();
        let i32t = self.types.i32();
        let counter = self.new_cell(i32t);
        let pi = self.position(parent, p);
        {
            let mut b = self.at(parent, pi);
            let zero = b.i32(0);
            b.store(counter, zero);
        }
        let k = self.position(body, op);
        {
            let mut b = self.at(body, k);
            let old = b.load(counter, i32t);
            let inc = b.cast(CastOp::ZExt, pred, i32t);
            let new = b.binary(BinOp::Add, old, inc);
            b.store(counter, new);
        }
        let k = self.position(body, op);
        let value = {
            let mut b = self.at(body, k + 1);
            let count = b.load(counter, i32t);
            match kind {
                BarrierReduceKind::Count => count,
                BarrierReduceKind::Or => {
                    let zero = b.i32(0);
                    b.cmp(CmpPred::Ne, count, zero)
                }
                BarrierReduceKind::And => {
                    let mut total = ubs[0];
                    for &u in &ubs[1..] {
                        total = b.binary(BinOp::Mul, total, u);
                    }
                    b.cmp(CmpPred::Eq, count, total)
                }
            }
        };
        replace_all_uses(self.func, result, value);
        let loc = self.func.ops[op].loc;
        let (next, _, _) = self.split(parent, p, k, true)?;
        self.remark(
            loc,
            format!(
                "barrier.reduce {} removed by fission with a counter",
                kind.name()
            ),
        );
        Ok(next)
    }

    /// Deletes unused pure ops and block-level parallels left with nothing
    /// to do, under `region`.
    pub(crate) fn cleanup(&mut self, region: Region) {
        loop {
            let used = uses(self.func);
            let mut walk = Vec::new();
            self.func.walk_region(region, &mut walk);
            let mut changed = false;
            for (r, op) in walk {
                let data = &self.func.ops[op];
                // Loads of private memory (the per-thread caches) cannot
                // fault, so unused ones go too.
                let private_load = matches!(
                    data.kind,
                    OpKind::Load {
                        volatile: false,
                        ..
                    }
                ) && {
                    let ty = self.func.value_type(data.ptr());
                    self.types[ty].ptr_space() == Some(Space::Private)
                };
                let dead_value = (data.kind.is_pure() || private_load)
                    && data.results.iter().all(|v| !used.contains_key(v));
                let empty_loop = matches!(
                    data.kind,
                    OpKind::Parallel {
                        level: Level::Block
                    }
                ) && self.func.regions[data.body()]
                    .ops
                    .iter()
                    .all(|&o| self.func.ops[o].kind == OpKind::Yield);
                if (dead_value || empty_loop) && remove_op(self.func, r, op) {
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }
}
