//! `serialize-inner`: thread loops whose iterations may touch each other's
//! memory become plain sequential `for` nests.
//!
//! In launch form every block- or lane-level `parallel` is nested in the
//! grid loop (and lane loops in warp loops); one CPU thread runs all its
//! iterations, so the only parallelism left in it is SIMD. A thread loop
//! is kept `parallel` exactly when its iterations are independent
//! ([`iterations_independent`]): no two different iterations may access a
//! common byte with one of them writing. The C emitter then tells the
//! compiler so (`#pragma GCC ivdep` on the innermost loop), which lets it
//! vectorise without run-time alias checks. Every other thread loop —
//! shared-memory atomics and read-modify-writes (a `barrier.reduce`
//! counter, a `while` flag every thread stores), `printf`, accesses whose
//! addresses the analysis cannot separate — is serialised: `for z { for y
//! { for x { body } } }`, x innermost, the order in which the C has always
//! run them, now spelt out in the IR so no later step may assume more.
//!
//! Accesses are compared with the effects API's cross-thread test
//! (`conflicts_across_threads`, thread extents from constant bounds), then
//! by [`dependence`] with the facts the `if`s around the loop establish,
//! the coordinates `if (threadIdx.d == k)` pins, and offsets with run-time
//! coefficients (`row * cols + col`); accesses to private allocas inside
//! the loop and to the per-thread arrays `distribute` made (`ptr.index` by
//! the loop's linear thread id) are each thread's own and never conflict.
//!
//! A loop that is independent only under facts the IR does not show is
//! versioned ([`version`]): `if (checks) { loop kept parallel } else {
//! ... serialised }`, the checks being a block shape (exact, or bounded per
//! dimension), pointer parameters in distinct allocations, and lower
//! bounds on run-time row lengths — the facts the test then reads back.

mod dependence;
mod version;

use crate::passes::entry::{is_launch, parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::affine::Coords;
use cucc_ir::effects::conflicts_across_threads;
use cucc_ir::{
    Base, Builder, CallSummaries, Dim, FuncId, Function, FunctionEffects, Level, MemEffect, Module,
    Op, OpKind, Region, Space, Type, TypeId, Value, ValueDef,
};
pub use dependence::{bounded_by_block_dim, Facts, Needs};
pub(crate) use dependence::{operands_of, pin_of};
pub(crate) use version::alloc_distinct;

/// True for the levels whose loops stand for a block's threads.
fn thread_level(kind: &OpKind) -> bool {
    matches!(
        kind,
        OpKind::Parallel {
            level: Level::Block | Level::Lane
        }
    )
}

/// True if no two different iterations of thread-level parallel `p` may
/// access a common byte with one of them writing, under the facts around
/// it.
pub fn iterations_independent(fx: &FunctionEffects<'_>, func: &Function, p: Op) -> bool {
    iterations_independent_assuming(fx, func, p, [None; 3])
}

/// [`iterations_independent`] when the loop's extent in dimension `d` is
/// `assume[d]` where that is given (its constant bound otherwise).
pub fn iterations_independent_assuming(
    fx: &FunctionEffects<'_>,
    func: &Function,
    p: Op,
    assume: [Option<u64>; 3],
) -> bool {
    first_conflict(fx, func, p, assume, &|_, _| false).is_none()
}

/// The first pair of accesses of thread-level parallel `p` that two
/// different iterations may make to a common byte with one writing,
/// leaving out the pairs (by their ops) for which `order_kept` holds: a
/// caller that reorders only some of the iterations' work keeps the
/// order of the others. Extents as in [`iterations_independent_assuming`]
/// (at most: `assume` bounds them from above).
pub fn first_conflict(
    fx: &FunctionEffects<'_>,
    func: &Function,
    p: Op,
    assume: [Option<u64>; 3],
    order_kept: &dyn Fn(Op, Op) -> bool,
) -> Option<(MemEffect, MemEffect)> {
    let facts = dependence::facts_of(fx, func, p);
    test(fx, func, p, assume, &facts, false, order_kept)
        .err()
        .map(|pair| *pair)
}

/// True if accesses `a` and `b` of thread loop `p`, run by one of its
/// iterations, may touch a common byte with one writing (see
/// [`dependence::Test::same_thread_conflict`]).
pub fn same_thread_conflict(
    module: &Module,
    fx: &FunctionEffects<'_>,
    func: &Function,
    p: Op,
    a: &MemEffect,
    b: &MemEffect,
) -> bool {
    let facts = dependence::facts_of(fx, func, p);
    let extents = dependence::extents_of(func, p, [None; 3], &facts);
    dependence::Test::new(fx, func, p, extents, &facts, false).same_thread_conflict(module, a, b)
}

/// Upper bounds on the extents of thread loop `p`: its constant bounds, or
/// the block's where the `if`s around it bound them.
pub fn extent_bounds(fx: &FunctionEffects<'_>, func: &Function, p: Op) -> [Option<u64>; 3] {
    let facts = dependence::facts_of(fx, func, p);
    dependence::extents_of(func, p, [None; 3], &facts)
}

/// The dependence test of loop `p` under `facts`: `Ok` with what it had to
/// assume (nothing unless `allow`), or the first conflicting pair.
fn test(
    fx: &FunctionEffects<'_>,
    func: &Function,
    p: Op,
    assume: [Option<u64>; 3],
    facts: &Facts,
    allow: bool,
    order_kept: &dyn Fn(Op, Op) -> bool,
) -> Result<Needs, Box<(MemEffect, MemEffect)>> {
    let effects = shared_accesses(fx, func, p);
    let extents = dependence::extents_of(func, p, assume, facts);
    let mut t = dependence::Test::new(fx, func, p, extents, facts, allow);
    for (i, a) in effects.iter().enumerate() {
        for b in &effects[i..] {
            if !order_kept(a.op, b.op) && t.conflict(a, b) {
                return Err(Box::new((a.clone(), b.clone())));
            }
        }
    }
    Ok(t.needs)
}

/// Every pair of accesses of thread-level parallel `p` that two different
/// iterations may make to a common byte with one writing, less the pairs
/// `order_kept` holds for (as [`first_conflict`], which stops at the
/// first).
pub fn all_conflicts(
    fx: &FunctionEffects<'_>,
    func: &Function,
    p: Op,
    assume: [Option<u64>; 3],
    order_kept: &dyn Fn(Op, Op) -> bool,
) -> Vec<(MemEffect, MemEffect)> {
    let effects = shared_accesses(fx, func, p);
    let mut extents = [None; 3];
    for (d, &ub) in func.ops[p].ubs().iter().enumerate().take(3) {
        extents[d] = assume[d].or_else(|| func.const_bits(ub));
    }
    let coords = Coords::from_extents(extents);
    let mut out = Vec::new();
    for (i, a) in effects.iter().enumerate() {
        for b in &effects[i..] {
            if !order_kept(a.op, b.op) && conflicts_across_threads(func, &coords, a, b) {
                out.push((a.clone(), b.clone()));
            }
        }
    }
    out
}

/// The accesses of thread loop `p`'s body that other iterations may see:
/// all but those to storage of the iteration's own ([`own_storage`]).
fn shared_accesses(fx: &FunctionEffects<'_>, func: &Function, p: Op) -> Vec<MemEffect> {
    fx.region_effects(func.ops[p].body())
        .into_iter()
        .filter(|e| e.is_access() && !own_storage(func, p, e))
        .collect()
}

/// True if `e` accesses storage only its own iteration of `p` uses: a
/// private alloca inside `p`, or a private array outside indexed by `p`'s
/// linear thread id.
pub(super) fn own_storage(func: &Function, p: Op, e: &MemEffect) -> bool {
    let Base::Alloca(a) = e.base else {
        return false;
    };
    let body = func.ops[p].body();
    let mut inner = Vec::new();
    func.walk_region(body, &mut inner);
    if inner.iter().any(|&(_, o)| o == a) {
        return true;
    }
    // The pointer of the access, followed back to its alloca: a `memcpy`
    // or `memset` is followed from its destination, a call from its first
    // argument.
    let access = &func.ops[e.op];
    let ptr = match access.kind {
        OpKind::Load { .. }
        | OpKind::Store { .. }
        | OpKind::AtomicRmw { .. }
        | OpKind::AtomicCas { .. } => access.ptr(),
        OpKind::Memcpy | OpKind::Memset => access.dst(),
        OpKind::Call(_) => match access.args().first() {
            Some(&p) => p,
            None => return false,
        },
        _ => return false,
    };
    let ivs = &func.regions[body].args;
    let mut v = ptr;
    loop {
        let Some(def) = func.defining_op(v) else {
            return false;
        };
        let data = &func.ops[def];
        match data.kind {
            OpKind::PtrIndex { .. } => {
                let base = data.ptr();
                if func.defining_op(base) == Some(a) {
                    let private = matches!(
                        func.ops[a].kind,
                        OpKind::Alloca {
                            space: Space::Private,
                            ..
                        }
                    );
                    return private && is_linear_id(func, body, ivs, data.index());
                }
                // Lane loops: `ptr.index (ptr.index %cache, %warp_base), %lane`
                // (the warp's slots, then the lane's: an affine address).
                if ivs.len() == 1 && data.index() == ivs[0] {
                    if let Some(inner) = func.defining_op(base) {
                        let d = &func.ops[inner];
                        if matches!(d.kind, OpKind::PtrIndex { .. })
                            && func.defining_op(d.ptr()) == Some(a)
                            && matches!(
                                func.ops[a].kind,
                                OpKind::Alloca {
                                    space: Space::Private,
                                    ..
                                }
                            )
                            && defined_outside(func, body, ivs, d.index())
                        {
                            return true;
                        }
                    }
                }
                v = base;
            }
            OpKind::PtrField { .. } => v = data.ptr(),
            _ => return false,
        }
    }
}

/// True if `x` is defined outside loop body `body` (whose ivs are `ivs`).
fn defined_outside(func: &Function, body: Region, ivs: &[Value], x: Value) -> bool {
    match func.values[x].def {
        ValueDef::Arg { region, .. } => region != body && !ivs.contains(&x),
        ValueDef::Result { op, .. } => {
            let mut walk = Vec::new();
            func.walk_region(body, &mut walk);
            !walk.iter().any(|&(_, o)| o == op)
        }
    }
}

/// True if `v` is `iv0 + X * (iv1 + Y * iv2)` (or `base + lane` for a lane
/// loop) with `X`, `Y`, `base` defined outside the loop: the linear thread
/// id `distribute` indexes its per-thread arrays with (X and Y are the
/// block's extents, at least the loop's bounds).
fn is_linear_id(func: &Function, body: Region, ivs: &[Value], v: Value) -> bool {
    let outside = |x: Value| defined_outside(func, body, ivs, x);
    let binary = |x: Value, op: cucc_ir::BinOp| {
        let d = func.defining_op(x)?;
        matches!(func.ops[d].kind, OpKind::Binary(b, _) if b == op)
            .then(|| (func.ops[d].lhs(), func.ops[d].rhs()))
    };
    fn nest(
        func: &Function,
        ivs: &[Value],
        k: usize,
        v: Value,
        outside: &dyn Fn(Value) -> bool,
        binary: &dyn Fn(Value, cucc_ir::BinOp) -> Option<(Value, Value)>,
    ) -> bool {
        if k + 1 == ivs.len() {
            return v == ivs[k];
        }
        let Some((a, m)) = binary(v, cucc_ir::BinOp::Add) else {
            return false;
        };
        let Some((x, rest)) = binary(m, cucc_ir::BinOp::Mul) else {
            return false;
        };
        let _ = func;
        a == ivs[k] && outside(x) && nest(func, ivs, k + 1, rest, outside, binary)
    }
    if ivs.len() == 1 {
        // Lane loops: `base + lane`.
        return v == ivs[0]
            || binary(v, cucc_ir::BinOp::Add)
                .is_some_and(|(b, l)| (l == ivs[0] && outside(b)) || (b == ivs[0] && outside(l)));
    }
    nest(func, ivs, 0, v, &outside, &binary)
}

/// Serialises the thread loops of function `fid` (launch form) whose
/// iterations are not independent, or versions them on the run-time
/// checks that make them so; returns how many.
pub fn serialize_inner(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    if !is_launch(module, fid) {
        return Ok(0);
    }
    let targets: Vec<(Region, Op, Vec<version::Version>)> = {
        let func = &module.functions[fid];
        let summaries = CallSummaries::compute(module);
        // Each loop is tested on its own execution: values computed before
        // it (a serial loop's counter around it) are fixed terms there.
        let scoped = |o: Op| FunctionEffects::within(module, func, &summaries, o);
        let found: Vec<(Region, Op, Facts, version::Options)> = func
            .walk()
            .into_iter()
            .filter(|&(_, o)| thread_level(&func.ops[o].kind))
            .filter_map(|(r, o)| {
                let fx = scoped(o);
                let facts = dependence::facts_of(&fx, func, o);
                if test(&fx, func, o, [None; 3], &facts, false, &|_, _| false).is_ok() {
                    return None;
                }
                let opts = version::options(module, &fx, func, o, &facts);
                Some((r, o, facts, opts))
            })
            .collect();
        let side = version::kernel_side(&found.iter().map(|f| &f.3).collect::<Vec<_>>());
        found
            .into_iter()
            .map(|(r, o, facts, opts)| {
                let fx = scoped(o);
                (r, o, version::plan(&fx, func, o, &facts, opts, side))
            })
            .collect()
    };
    let (types, func) = parts(module, fid);
    for (region, p, versions) in &targets {
        let loc = func.ops[*p].loc;
        let name = func.name.clone();
        if !versions.is_empty() {
            if let Some(how) = version::apply(types, func, *region, *p, versions) {
                remarks.add(
                    "serialize-inner",
                    &name,
                    loc,
                    format!("thread loop kept parallel {how}"),
                );
                continue;
            }
        }
        serialize(types, func, *region, *p);
        remarks.add(
            "serialize-inner",
            &name,
            loc,
            "thread loop serialised: its iterations may access the same memory",
        );
    }
    Ok(targets.len())
}

/// Block extents a thread loop may be specialised for: `Some(n)` fixes a
/// dimension to exactly `n` threads (tested at run time), `None` leaves it.
type Shape = [Option<u64>; 3];

/// The shapes worth trying for block loop `p`, most common first: 1-D
/// blocks (y and z extents 1, x free), then for each two-dimensional shared
/// array `[Y x [X x T]]` the block `X x Y x 1` that tiles it, the shape
/// tiled kernels launch (`t[threadIdx.y][threadIdx.x]`). A dimension is
/// fixed only where the loop runs over the launch's block extent itself
/// (`block_dim`), so the specialised loop runs exactly those threads.
fn candidate_shapes(module: &Module, func: &Function, p: Op) -> Vec<Shape> {
    let data = &func.ops[p];
    if data.kind
        != (OpKind::Parallel {
            level: Level::Block,
        })
        || data.ubs().len() != 3
    {
        return Vec::new();
    }
    let over = |k: usize| {
        func.defining_op(data.ubs()[k])
            .is_some_and(|o| func.ops[o].kind == OpKind::BlockDim(Dim::ALL[k]))
    };
    let mut shapes = Vec::new();
    if over(1) && over(2) {
        shapes.push([None, Some(1), Some(1)]);
    }
    if over(0) && over(1) && over(2) {
        let mut tiles: Vec<TypeId> = func
            .walk()
            .into_iter()
            .filter_map(|(_, o)| match func.ops[o].kind {
                OpKind::Alloca {
                    space: Space::Shared,
                    ty,
                } => Some(ty),
                _ => None,
            })
            .collect();
        tiles.extend(
            module
                .globals
                .iter()
                .filter(|(_, g)| g.space == Space::Shared)
                .map(|(_, g)| g.ty),
        );
        for ty in tiles {
            let Type::Array { elem, len: y } = module.types[ty] else {
                continue;
            };
            let Type::Array { len: x, .. } = module.types[elem] else {
                continue;
            };
            let shape = [Some(x), Some(y), Some(1)];
            if (1..=1024).contains(&(x * y)) && !shapes.contains(&shape) {
                shapes.push(shape);
            }
        }
    }
    shapes
}

/// Replaces parallel `p` (in `region`) by a `for` nest, x innermost. The
/// loops compare signed: their bounds are a block's extents (at most 1024),
/// where signed and unsigned agree, and a signed loop lets the C emitter
/// count with a signed variable (`put_for`), which gcc needs to see the
/// indices built from the counter as affine.
fn serialize(types: &mut cucc_ir::Types, func: &mut Function, region: Region, p: Op) {
    let body = func.ops[p].body();
    let ivs = func.regions[body].args.clone();
    let ubs = func.ops[p].ubs().to_vec();
    let loc = func.ops[p].loc;
    let at = func.op_index(region, p);
    let (zero, one) = {
        let ty = func.value_type(ivs[0]);
        let mut b = Builder::new(types, func);
        b.set_insertion_at(region, at);
        b.set_loc(loc);
        (b.const_int(ty, 0), b.const_int(ty, 1))
    };
    let mut inner_region = body;
    func.regions[body].args = vec![ivs[0]];
    let mut inner = func.new_op(
        OpKind::For { unsigned: false },
        vec![zero, one, one],
        &[],
        vec![inner_region],
        loc,
    );
    func.ops[inner].set_ub(ubs[0]);
    for d in 1..ivs.len() {
        let r = func.new_region(&[]);
        func.regions[r].args = vec![ivs[d]];
        func.values[ivs[d]].def = ValueDef::Arg {
            region: r,
            index: 0,
        };
        let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        func.regions[r].ops = vec![inner, y];
        inner_region = r;
        inner = func.new_op(
            OpKind::For { unsigned: false },
            vec![zero, ubs[d], one],
            &[],
            vec![inner_region],
            loc,
        );
    }
    func.replace_op(region, p, inner);
}
