//! `interchange`: a serial loop inside a thread loop, with the same trip
//! count in every thread, moves outside it, so the thread loop becomes the
//! innermost loop.
//!
//! A CUDA thread often loops on its own: over the features of its point
//! (`for (f = 0; f < nf; f++) d += col[f*n + p] - c[f]`), over a column it
//! marches up. Emitted as written, the C runs each thread's whole loop
//! before the next thread starts, and the loop over threads — unit stride
//! in `threadIdx.x` over column-major data — is the outer one, which the C
//! compiler does not vectorise. Interchanged, each trip of the serial loop
//! runs every thread: `for f { parallel<block> (tx) { d[tx] += ... } }`.
//!
//! A loop moves when it runs the same trips in every thread (a `for` with
//! block-uniform bounds, or a `while` whose condition is block-uniform,
//! [`Uniformity`]), holds no barrier, collective, nested `parallel`, call
//! or `return`, touches memory other than private cells, and every loop in
//! it qualifies too (they move with it). It may sit in `if`s: uniform ones
//! are interchanged with it; the others are guards (not one comparing a
//! thread-dependent value for equality, which few threads pass). It must
//! also pay: each access in it is the same address for every thread or
//! consecutive elements for consecutive `threadIdx.x`, possibly chosen at
//! the grid's edges ([`contiguous`]; no gathers, texture fetches or
//! atomics); otherwise the per-thread arrays cost more than they gain.
//! Before these tests, counted `while`s become `for`s ([`canonical_for`])
//! and the indices they carry (`c += nx*ny`) closed forms in the counter
//! ([`induction`]): a carried index hides every address built from it.
//!
//! Legality: threads' work is reordered, so no two different threads may
//! make accesses to a common byte with one writing (the effects API's
//! cross-thread test, `serialize_inner::first_conflict`), except pairs
//! whose order the rewrite keeps: two accesses both outside the moved
//! loops and between the same two of them still run thread by thread.
//! When only 1-D blocks make the accesses disjoint (`a[blockIdx.x *
//! blockDim.x + threadIdx.x]`), the rewrite is versioned on `blockDim.y ==
//! 1 && blockDim.z == 1`; when only `noalias` pointer parameters would,
//! on the parameters pointing into distinct allocations (`alloc.distinct`,
//! answered by the runtime). Strides known only at run time
//! (`t_out[x + y*nx + k*nx*ny]`) are separated by run-time checks that
//! they form a mixed radix over the block ([`strides`]), alone or with
//! distinct allocations.
//!
//! Guards (`if (i < n) { ...loop... }`, the frontends' form of an early
//! `return`) are versioned too: a serial loop over the thread loop's
//! iterations first evaluates every guard (their conditions must be
//! computed by pure, non-trapping ops), and when all hold — every block
//! but a partial last one, whose thread loop `clamp-guards` has usually cut
//! already — the interchanged loops run with the guards gone; otherwise
//! the original thread loop runs. That keeps the interchanged loops free
//! of masks (gcc does not vectorise a masked load from an address the
//! loop does not vary, such as a uniform coefficient read under the guard).
//! In that version, `u + tx` thread indices without `nsw` (CUDA's unsigned
//! `blockIdx.x * blockDim.x + threadIdx.x`) get it under a check that they
//! do not wrap, and `base[a + b]` with `a` uniform becomes `(base + a)[b]`,
//! so the C compiler sees addresses affine in the thread index.
//!
//! The rewrite itself is `distribute`'s: the loops are marked with a block barrier at the
//! start of their bodies (legal to add: every thread reaches it equally
//! often) and `distribute` removes the marks by interchange and fission.
//! Values a thread carries through the loop go to per-thread arrays
//! indexed by the linear thread id; uniform ones (the counter) stay
//! scalars. The pass runs after `clamp-guards`, so the new thread loops
//! keep the clamped bounds, and before `serialize-inner`, which then
//! serialises only the pieces whose threads conflict.

mod canonical_for;
mod contiguous;
mod guards;
mod induction;
mod strides;

use crate::passes::distribute::distribute_thread_loop;
use crate::passes::entry::{is_launch, Changed};
use crate::passes::no_wrap;
use crate::passes::serialize_inner::{all_conflicts, first_conflict};
use crate::passes::uniform::Uniformity;
use crate::remarks::Remarks;
use cucc_ir::{
    CallSummaries, Dim, FuncId, Function, FunctionEffects, Level, MemEffect, Module, Op, OpKind,
    Region, Space, Types,
};
use std::collections::HashMap;

/// Name in remarks and the pipeline.
const PASS: &str = "interchange";

/// A serial loop found in a thread loop's body.
struct Found {
    /// The loop.
    op: Op,
    /// The loops to mark (it and the loops nested in it), or why it
    /// cannot move.
    marks: Result<Vec<Op>, String>,
}

/// Interchanges the uniform serial loops of the thread loops of function
/// `fid` (launch form) with them; returns how many moved.
pub fn interchange(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    if !is_launch(module, fid) {
        return Ok(0);
    }
    let targets: Vec<(Region, Op, Region)> = {
        let func = &module.functions[fid];
        let parents = func.parents();
        func.walk()
            .into_iter()
            .filter(|&(_, o)| is_block_loop(func, o))
            .filter_map(|(r, p)| {
                let grid = parents
                    .ancestors(p)
                    .into_iter()
                    .find(|&a| func.ops[a].kind == OpKind::Parallel { level: Level::Grid })?;
                Some((r, p, func.ops[grid].body()))
            })
            .collect()
    };
    let summaries = CallSummaries::compute(module);
    let name = module.functions[fid].name.clone();
    let mut moved = 0;
    for (region, p, grid) in targets {
        let mut trial = module.functions[fid].clone();
        match try_loop(module, &summaries, &mut trial, region, p, grid) {
            Ok((done, refused)) => {
                module.functions[fid] = trial;
                refuse(remarks, &module.functions[fid], &name, &refused);
                for (op, nested, cells, how) in done {
                    let data = &module.functions[fid].ops[op];
                    let with = if nested > 0 {
                        format!(" with {nested} loop(s) nested in it")
                    } else {
                        String::new()
                    };
                    remarks.add(
                        PASS,
                        &name,
                        data.loc,
                        format!(
                            "`{}` interchanged with the thread loop{with}: the thread loop is \
                             innermost, {cells} per-thread cell(s) for the values threads \
                             carry{how}",
                            data.kind.mnemonic()
                        ),
                    );
                    moved += 1;
                }
            }
            Err(refused) => refuse(remarks, &module.functions[fid], &name, &refused),
        }
    }
    Ok(moved)
}

/// True if `interchange` would move a serial loop out of thread loop `p`
/// of function `fid` (tried on a copy, which is dropped): `collapse`
/// leaves such launches to it, since a collapsed launch has no thread
/// loop to interchange with.
pub(crate) fn would_move(module: &mut Module, fid: FuncId, p: Op) -> bool {
    let func = &module.functions[fid];
    let parents = func.parents();
    let (Some(region), Some(grid)) = (
        parents.region_of(p),
        parents
            .ancestors(p)
            .into_iter()
            .find(|&a| func.ops[a].kind == OpKind::Parallel { level: Level::Grid }),
    ) else {
        return false;
    };
    let grid = func.ops[grid].body();
    let u = Uniformity::of_thread_loop(&module.types, func, p);
    let mut found = Vec::new();
    find_loops(&module.types, func, &u, func.ops[p].body(), &mut found);
    if !found.iter().any(|f| f.marks.is_ok()) {
        return false;
    }
    let summaries = CallSummaries::compute(module);
    let mut trial = module.functions[fid].clone();
    try_loop(module, &summaries, &mut trial, region, p, grid)
        .is_ok_and(|(done, _)| !done.is_empty())
}

/// A remark for each loop left in its thread loop.
fn refuse(remarks: &mut Remarks, func: &Function, name: &str, refused: &Refused) {
    for (op, why) in refused {
        let data = &func.ops[*op];
        remarks.add(
            PASS,
            name,
            data.loc,
            format!(
                "`{}` not interchanged with the thread loop: {why}",
                data.kind.mnemonic()
            ),
        );
    }
}

/// True for a block-level `parallel`.
fn is_block_loop(func: &Function, op: Op) -> bool {
    func.ops[op].kind
        == OpKind::Parallel {
            level: Level::Block,
        }
}

/// What moved: (loop, loops nested in it, per-thread cells, versioning).
type Done = Vec<(Op, usize, usize, String)>;
/// What did not, and why.
type Refused = Vec<(Op, String)>;

/// Interchanges the loops of thread loop `p` (in `region`, grid iteration
/// body `grid`) in `func`, a copy the caller keeps only on success.
fn try_loop(
    module: &mut Module,
    summaries: &CallSummaries,
    func: &mut Function,
    region: Region,
    p: Op,
    grid: Region,
) -> Result<(Done, Refused), Refused> {
    let u = Uniformity::of_thread_loop(&module.types, func, p);
    let mut found = Vec::new();
    find_loops(&module.types, func, &u, func.ops[p].body(), &mut found);
    let mut refused: Refused = Vec::new();
    let mut chosen: Vec<(Op, usize)> = Vec::new();
    let mut marks = Vec::new();
    for f in found {
        match f.marks {
            Ok(m) => {
                chosen.push((f.op, m.len() - 1));
                marks.extend(m);
            }
            Err(why) => refused.push((f.op, why)),
        }
    }
    if chosen.is_empty() {
        return Err(refused);
    }
    let refuse_all = |chosen: &[(Op, usize)], mut refused: Refused, why: &str| {
        refused.extend(chosen.iter().map(|&(op, _)| (op, why.to_string())));
        refused
    };

    // Counted `while`s become `for`s (innermost first), and the additive
    // indices they carry closed forms in the counter: the checks below
    // read addresses, which a carried index hides.
    let parents = func.parents();
    let owners: Vec<(Op, Region)> = marks
        .iter()
        .rev()
        .filter_map(|&l| parents.region_of(l).map(|r| (l, r)))
        .collect();
    // The loops as rewritten (`chosen` keeps the originals, which the
    // remarks of a refusal name: the caller then keeps the function as it
    // was).
    let mut current: Vec<(Op, usize)> = chosen.clone();
    let mut marked = Vec::new();
    for (l, r) in owners {
        let l2 = canonical_for::while_to_for(&mut module.types, func, r, l)
            .or_else(|| canonical_for::do_while_to_for(&mut module.types, func, r, l))
            .unwrap_or(l);
        for c in current.iter_mut() {
            if c.0 == l {
                c.0 = l2;
            }
        }
        induction::rewrite(&mut module.types, func, r, l2);
        marked.push(l2);
    }

    // Guards: the `if`s on the way to the loops whose condition varies.
    let u = Uniformity::of_thread_loop(&module.types, func, p);
    let loops: Vec<Op> = current.iter().map(|&(op, _)| op).collect();
    let (guard_list, check) = match guards::find(func, &u, p, &loops) {
        Ok(g) => g,
        Err(why) => return Err(refuse_all(&chosen, refused, &why)),
    };
    let original = cucc_ir::edit::clone_op(func, p, &mut HashMap::new());
    guards::fold(func, &guard_list);

    // Profitability: the threads' accesses in the loops must be the same
    // address for all (uniform) or consecutive elements (unit stride in
    // the x thread index), which the C compiler vectorises; a gather, a
    // texture fetch or an atomic gains nothing from running threads
    // innermost and pays for the per-thread arrays.
    let u = Uniformity::of_thread_loop(&module.types, func, p);
    for &l in &marked {
        split_uniform_offsets(&mut module.types, func, &u, l);
    }
    let u = Uniformity::of_thread_loop(&module.types, func, p);
    if let Some(why) = marked
        .iter()
        .find_map(|&l| contiguous::not_contiguous(module, func, &u, p, l))
    {
        return Err(refuse_all(&chosen, refused, &why));
    }

    // Legality, on the thread loop with its guards folded.
    let legal = match legality(module, summaries, func, p, &loops) {
        Ok(l) => l,
        Err(why) => return Err(refuse_all(&chosen, refused, &why)),
    };

    // Versioning: `if (distinct buffers && 1-D block && every guard holds)
    // { p } else { original }`.
    let mut parent = region;
    let mut how = Vec::new();
    // Thread indices the guards' version may compute without wrapping.
    let nowrap = no_wrap::index_ops(&module.types, func, p);
    if !legal.distinct.is_empty() || legal.one_d || !check.is_empty() || !legal.strides.is_empty() {
        let distinct = (!legal.distinct.is_empty()).then(|| {
            crate::passes::serialize_inner::alloc_distinct(&mut module.types, func, &legal.distinct)
        });
        let fits = no_wrap::condition(&mut module.types, func, region, p, &nowrap);
        let apart = strides::materialise(&mut module.types, func, region, p, &legal.strides);
        let mut extra = None;
        for c in [distinct, fits, apart].into_iter().flatten() {
            extra = Some(match extra {
                Some(e) => {
                    let at = position(func, region, p);
                    let mut bld = cucc_ir::Builder::new(&mut module.types, func);
                    bld.set_insertion_at(region, at);
                    bld.binary(cucc_ir::BinOp::And, e, c)
                }
                None => c,
            });
        }
        parent = guards::version(
            &mut module.types,
            func,
            region,
            grid,
            p,
            original,
            &check,
            legal.one_d,
            extra,
        );
        if fits.is_some() {
            for &add in &nowrap {
                if let OpKind::Binary(_, ref mut flags) = func.ops[add].kind {
                    flags.nsw = true;
                }
            }
        }
        if !legal.distinct.is_empty() {
            how.push(format!(
                "its {} pointer parameter(s) point into distinct allocations",
                legal.distinct.len()
            ));
        }
        if legal.one_d {
            how.push("the block is X x 1 x 1".to_string());
        }
        if !legal.strides.is_empty() {
            how.push(format!(
                "{} run-time stride check(s) separate the threads' accesses",
                legal.strides.len()
            ));
        }
        if !check.is_empty() {
            how.push("every thread passes its guard".to_string());
        }
    }
    let how = if how.is_empty() {
        String::new()
    } else {
        format!(
            "; runs when {} (the loop runs as it was otherwise)",
            how.join(", ")
        )
    };

    // The marks.
    for &l in &marked {
        mark(&mut module.types, func, l);
    }
    let cells_before = private_allocas(func, grid);
    let mut scratch = Remarks::default();
    if let Err(e) = distribute_thread_loop(
        &mut module.types,
        func,
        &module.files,
        grid,
        parent,
        p,
        &mut scratch,
    ) {
        return Err(refuse_all(&chosen, refused, &e.message));
    }
    let cells = private_allocas(func, grid).saturating_sub(cells_before);
    let done = current
        .into_iter()
        .map(|(op, nested)| (op, nested, cells, how.clone()))
        .collect();
    Ok((done, refused))
}

/// Index of `op` in `region`.
fn position(func: &Function, region: Region, op: Op) -> usize {
    func.op_index(region, op)
}

/// What the interchange of a thread loop's loops must be versioned on.
struct Legal {
    /// Pointer parameters (indices) that must point into distinct
    /// allocations (`alloc.distinct`).
    distinct: Vec<usize>,
    /// Blocks must be `X x 1 x 1`.
    one_d: bool,
    /// Run-time conditions that separate the threads' accesses whose
    /// strides are known only at run time.
    strides: Vec<strides::Check>,
}

/// Whether moving `loops` out of thread loop `p` (guards folded) keeps
/// every cross-thread pair of conflicting accesses in order: as it is,
/// for 1-D blocks, with its pointer parameters in distinct allocations, or
/// both (tried in that order). The conflict that stays otherwise.
fn legality(
    module: &Module,
    summaries: &CallSummaries,
    func: &Function,
    p: Op,
    loops: &[Op],
) -> Result<Legal, String> {
    let tops = top_level_of(func, p, loops);
    let order_kept = |a: Op, b: Op| match (tops.get(&a), tops.get(&b)) {
        (Some(&(ga, la)), Some(&(gb, lb))) => !la && !lb && ga == gb,
        _ => false,
    };
    let one_d = over_block_dims(func, p);
    let shapes: &[(bool, [Option<u64>; 3])] = if one_d {
        &[(false, [None; 3]), (true, [None, Some(1), Some(1)])]
    } else {
        &[(false, [None; 3])]
    };
    let first = {
        let fx = FunctionEffects::new(module, func, summaries);
        let mut first = None;
        for &(one_d, shape) in shapes {
            match first_conflict(&fx, func, p, shape, &order_kept) {
                None => {
                    return Ok(Legal {
                        distinct: Vec::new(),
                        one_d,
                        strides: Vec::new(),
                    })
                }
                Some(pair) => {
                    first.get_or_insert(pair);
                }
            }
        }
        first
    };
    // The pointer parameters the loop accesses, as if `noalias`.
    let params: Vec<usize> = {
        let fx = FunctionEffects::new(module, func, summaries);
        let mut v: Vec<usize> = fx
            .region_effects(func.ops[p].body())
            .iter()
            .filter_map(|e| match e.base {
                cucc_ir::Base::Param(i) => Some(i as usize),
                _ => None,
            })
            .filter(|&i| func.params.get(i).is_some_and(|a| !a.noalias))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    if !params.is_empty() {
        let mut assumed = func.clone();
        for &i in &params {
            assumed.params[i].noalias = true;
        }
        let fx = FunctionEffects::new(module, &assumed, summaries);
        for &(one_d, shape) in shapes {
            if first_conflict(&fx, &assumed, p, shape, &order_kept).is_none() {
                return Ok(Legal {
                    distinct: params,
                    one_d,
                    strides: Vec::new(),
                });
            }
        }
    }
    // Run-time strides, as it is and then with distinct allocations, for
    // any block shape and then (where the loop spans the block) for 1-D
    // blocks, whose other pairs may already be apart.
    let separated = |f: &Function, shape: [Option<u64>; 3]| -> Option<Vec<strides::Check>> {
        let fx = FunctionEffects::new(module, f, summaries);
        let mut checks: Vec<strides::Check> = Vec::new();
        for (a, b) in all_conflicts(&fx, f, p, shape, &order_kept) {
            let c = strides::separate(&module.types, f, p, &a, &b)?;
            if !checks.contains(&c) {
                checks.push(c);
            }
        }
        Some(checks)
    };
    for &(one_d, shape) in shapes {
        if let Some(checks) = separated(func, shape) {
            return Ok(Legal {
                distinct: Vec::new(),
                one_d,
                strides: checks,
            });
        }
        if !params.is_empty() {
            let mut assumed = func.clone();
            for &i in &params {
                assumed.params[i].noalias = true;
            }
            if let Some(checks) = separated(&assumed, shape) {
                return Ok(Legal {
                    distinct: params.clone(),
                    one_d,
                    strides: checks,
                });
            }
        }
    }
    Err(first.map_or_else(
        || "its accesses may conflict across threads".to_string(),
        |pair| describe_conflict(module, func, &pair),
    ))
}

/// For each op of thread loop `p` (at any depth), the index of the gap
/// between moved loops its top-level ancestor lies in, and whether that
/// ancestor holds one of `loops`.
fn top_level_of(func: &Function, p: Op, loops: &[Op]) -> HashMap<Op, (usize, bool)> {
    let body = func.ops[p].body();
    let mut out = HashMap::new();
    let mut gap = 0;
    for &top in &func.regions[body].ops {
        let mut walk = vec![(body, top)];
        for &r in &func.ops[top].regions {
            func.walk_region(r, &mut walk);
        }
        let holds = walk.iter().any(|&(_, o)| loops.contains(&o));
        if holds {
            gap += 1;
        }
        for (_, o) in walk {
            out.insert(o, (gap, holds));
        }
        if holds {
            gap += 1;
        }
    }
    out
}

/// True if thread loop `p` runs over the launch's `block_dim y` and `z`.
fn over_block_dims(func: &Function, p: Op) -> bool {
    let ubs = func.ops[p].ubs();
    ubs.len() == 3
        && [1, 2].iter().all(|&k| {
            func.defining_op(ubs[k])
                .is_some_and(|o| func.ops[o].kind == OpKind::BlockDim(Dim::ALL[k]))
        })
}

/// "`store` (file:line) and `load` (file:line) may ...".
fn describe_conflict(module: &Module, func: &Function, pair: &(MemEffect, MemEffect)) -> String {
    let what = |e: &MemEffect| {
        let data = &func.ops[e.op];
        format!(
            "`{}` ({})",
            data.kind.mnemonic(),
            module.describe_loc(data.loc)
        )
    };
    format!(
        "{} and {} may touch the same memory from different threads",
        what(&pair.0),
        what(&pair.1)
    )
}

/// The outermost serial loops of thread-loop region `r`, reached through
/// `if`s, each with its marks or the reason it cannot move.
fn find_loops(types: &Types, func: &Function, u: &Uniformity, r: Region, out: &mut Vec<Found>) {
    for &op in &func.regions[r].ops {
        let data = &func.ops[op];
        match data.kind {
            OpKind::If => {
                for &inner in &data.regions {
                    find_loops(types, func, u, inner, out);
                }
            }
            OpKind::For { .. } | OpKind::While => {
                let marks = movable(types, func, u, op).and_then(|m| {
                    if touches_memory(types, func, op) {
                        Ok(m)
                    } else {
                        Err("it accesses no memory (nothing to vectorise across threads)".into())
                    }
                });
                out.push(Found { op, marks });
            }
            _ => {}
        }
    }
}

/// The loops to mark for moving loop `l` (it first, then the loops nested
/// in it, all of which move with it), or why it cannot move.
fn movable(types: &Types, func: &Function, u: &Uniformity, l: Op) -> Result<Vec<Op>, String> {
    let data = &func.ops[l];
    let uniform_trips = match data.kind {
        OpKind::For { .. } => data.controls().iter().all(|&v| u.is_uniform(v)),
        OpKind::While => {
            let before = data.before();
            func.regions[before]
                .ops
                .last()
                .map(|&t| func.ops[t].cond())
                .is_some_and(|c| u.is_uniform(c))
                // nvcc's count-down do-while: a uniform start is a uniform
                // trip count.
                || canonical_for::countdown_shape(types, func, l)
                    .is_some_and(|c| u.is_uniform(data.inits()[c.k]))
        }
        _ => false,
    };
    if !uniform_trips {
        return Err("its trip count may differ between threads".into());
    }
    let mut marks = vec![l];
    let mut walk = Vec::new();
    for &r in &data.regions {
        func.walk_region(r, &mut walk);
    }
    for &(_, op) in &walk {
        let kind = &func.ops[op].kind;
        match kind {
            OpKind::Parallel { .. } => return Err("it holds a nested `parallel`".into()),
            OpKind::Return => return Err("it holds a `return`".into()),
            OpKind::Call(cucc_ir::Callee::Func(_)) => return Err("it holds a call".into()),
            OpKind::ActiveMask => return Err("it reads `activemask`".into()),
            k if k.is_block_barrier() || k.is_warp_collective() => {
                return Err(format!("it holds `{}`", k.mnemonic()))
            }
            _ => {}
        }
    }
    for &(_, op) in &walk {
        if matches!(func.ops[op].kind, OpKind::For { .. } | OpKind::While) {
            let inner = movable(types, func, u, op)
                .map_err(|why| format!("a loop nested in it cannot move with it ({why})"))?;
            marks.push(inner[0]);
        }
    }
    Ok(marks)
}

/// True if loop `l` loads or stores memory other than private cells.
fn touches_memory(types: &Types, func: &Function, l: Op) -> bool {
    let mut walk = Vec::new();
    for &r in &func.ops[l].regions {
        func.walk_region(r, &mut walk);
    }
    walk.iter().any(|&(_, op)| {
        let data = &func.ops[op];
        match data.kind {
            OpKind::Load { .. } | OpKind::Store { .. } => {
                types[func.value_type(data.ptr())].ptr_space() != Some(Space::Private)
            }
            OpKind::AtomicRmw { .. } | OpKind::AtomicCas { .. } | OpKind::TexFetch { .. } => true,
            _ => false,
        }
    })
}

/// In loop `l` (at any depth), splits each
/// `ptr.index T %base, (add %a, %b)` with `%a` block-uniform and `%b` not
/// into `ptr.index T (ptr.index T %base, %a), %b`: the first moves out of
/// the thread loop with `%a`, and the C compiler sees the address move
/// with `%b` alone (`col[(size_t)f * n + p]`: a 64-bit unsigned sum it
/// cannot read as affine in the thread index). Only for 64-bit indices or
/// `nsw` sums, where both forms give the same address.
fn split_uniform_offsets(types: &mut Types, func: &mut Function, u: &Uniformity, l: Op) {
    let mut walk = Vec::new();
    for &r in &func.ops[l].regions {
        func.walk_region(r, &mut walk);
    }
    for (region, op) in walk {
        let OpKind::PtrIndex { elem } = func.ops[op].kind else {
            continue;
        };
        let (base, index) = (func.ops[op].ptr(), func.ops[op].index());
        let Some(add) = func.defining_op(index) else {
            continue;
        };
        let OpKind::Binary(cucc_ir::BinOp::Add, flags) = func.ops[add].kind else {
            continue;
        };
        let wide = types[func.value_type(index)].int_bits() == Some(64);
        if !(wide || flags.nsw) {
            continue;
        }
        let (x, y) = (func.ops[add].lhs(), func.ops[add].rhs());
        let (a, b) = match (u.is_uniform(x), u.is_uniform(y)) {
            (true, false) => (x, y),
            (false, true) => (y, x),
            _ => continue,
        };
        let at = position(func, region, op);
        let loc = func.ops[op].loc;
        let mut bld = cucc_ir::Builder::new(types, func);
        bld.set_loc(loc);
        bld.set_insertion_at(region, at);
        let row = bld.ptr_index(base, a, elem);
        func.ops[op].set_ptr(row);
        func.ops[op].set_index(b);
    }
}

/// Puts a block barrier at the start of the body of loop `l` (a `while`'s
/// after region): fission there leaves one thread loop per trip, which
/// reads the carried values and stores the next ones.
fn mark(types: &mut Types, func: &mut Function, l: Op) {
    let data = &func.ops[l];
    let body = match data.kind {
        OpKind::While => data.after(),
        _ => data.body(),
    };
    let loc = data.loc;
    let mut b = cucc_ir::Builder::new(types, func);
    b.set_loc(loc);
    b.set_insertion_at(body, 0);
    b.barrier();
}

/// The number of private allocas at the top of `region`.
fn private_allocas(func: &Function, region: Region) -> usize {
    func.regions[region]
        .ops
        .iter()
        .filter(|&&o| {
            matches!(
                func.ops[o].kind,
                OpKind::Alloca {
                    space: Space::Private,
                    ..
                }
            )
        })
        .count()
}

/// Rewrites every `while` of `func` in the frontends' shape of a counted C
/// `for` (or do-while) into a `for` op, innermost first; returns how many.
/// For code generators that need counted loops (the Snitch compiler);
/// cpuify's own passes rewrite only the loops they interchange.
pub fn counted_whiles_to_for(types: &mut cucc_ir::Types, func: &mut cucc_ir::Function) -> usize {
    let mut tried = std::collections::HashSet::new();
    let mut done = 0;
    loop {
        // Innermost first: the walk lists a loop before the ops inside it.
        let next = func
            .walk()
            .into_iter()
            .rev()
            .find(|&(_, op)| func.ops[op].kind == OpKind::While && !tried.contains(&op));
        let Some((region, op)) = next else {
            return done;
        };
        tried.insert(op);
        if canonical_for::while_to_for(types, func, region, op)
            .or_else(|| canonical_for::do_while_to_for(types, func, region, op))
            .is_some()
        {
            done += 1;
        }
    }
}

#[cfg(test)]
mod counted_while_tests {
    use super::counted_whiles_to_for;

    /// The frontends' `for (int i = 0; i < n; i++)` (a `while` after
    /// mem2reg) becomes a `for` carrying the sum; a loop of another shape
    /// stays a `while`.
    #[test]
    fn counted_whiles_become_fors() {
        let text = r#"file "k.cu"

kernel @k(%p: ptr<global>, %n: i32) loc(0:1:1) {
  %c0 = const 0 : i32
  %c1 = const 1 : i32
  %two = const 2 : i32
  %z = const 0.0 : f64
  %i, %s = while (%a = %c0, %acc = %z) -> (i32, f64) {
    %more = cmp slt %a, %n : i1
    condition %more, %a, %acc
  } do (%b: i32, %acc1: f64) {
    %q = ptr.index f64 %p, %b : ptr<global>
    %v = load %q : f64
    %acc2 = fadd %acc1, %v : f64
    %b2 = add nsw %b, %c1 : i32
    yield %b2, %acc2
  }
  store %p, %s
  %h = while (%x = %n) -> (i32) {
    %pos = cmp sgt %x, %c0 : i1
    condition %pos, %x
  } do (%y: i32) {
    %y2 = sdiv %y, %two : i32
    yield %y2
  }
  return
}
"#;
        let mut m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
        let id = m.function("k").unwrap_or_else(|| panic!("kernel"));
        let cucc_ir::Module {
            types, functions, ..
        } = &mut m;
        assert_eq!(counted_whiles_to_for(types, &mut functions[id]), 1);
        cucc_ir::verify_module(&m).unwrap_or_else(|e| panic!("{e}"));
        let out = cucc_ir::print_module(&m);
        assert!(out.contains(" = for %"), "{out}");
        assert_eq!(out.matches("while (").count(), 1, "{out}");
    }

    /// `for (t = 0; t < n / 8; t++)`: the bound's division by a positive
    /// constant cannot trap, so it moves before the loop, which becomes a
    /// `for`; a division by a variable stays in the condition.
    #[test]
    fn a_bound_divided_by_a_constant_is_hoisted() {
        let text = |d: &str| {
            format!(
                r#"file "k.cu"

kernel @k(%p: ptr<global>, %n: i32, %m: i32) loc(0:1:1) {{
  %c0 = const 0 : i32
  %c1 = const 1 : i32
  %c8 = const 8 : i32
  %i = while (%a = %c0) -> (i32) {{
    %ub = sdiv %n, {d} : i32
    %more = cmp slt %a, %ub : i1
    condition %more, %a
  }} do (%b: i32) {{
    %q = ptr.index f64 %p, %b : ptr<global>
    %v = load %q : f64
    store %q, %v
    %b2 = add nsw %b, %c1 : i32
    yield %b2
  }}
  return
}}
"#
            )
        };
        for (d, fors) in [("%c8", 1), ("%m", 0)] {
            let mut m = cucc_ir::parse_module(&text(d)).unwrap_or_else(|e| panic!("{e}"));
            let id = m.function("k").unwrap_or_else(|| panic!("kernel"));
            let cucc_ir::Module {
                types, functions, ..
            } = &mut m;
            assert_eq!(
                counted_whiles_to_for(types, &mut functions[id]),
                fors,
                "{d}"
            );
            cucc_ir::verify_module(&m).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
