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
//! (`conflicts_across_threads`, thread extents from constant bounds);
//! accesses to private allocas inside the loop and to the per-thread
//! arrays `distribute` made (`ptr.index` by the loop's linear thread id)
//! are each thread's own and never conflict.

use crate::error::CpuifyError;
use crate::remarks::Remarks;
use cucc_ir::affine::Coords;
use cucc_ir::edit::clone_op;
use cucc_ir::effects::conflicts_across_threads;
use cucc_ir::{
    Base, BinOp, Builder, CallSummaries, CmpPred, Dim, FuncId, Function, FunctionEffects,
    FunctionKind, Level, MemEffect, Module, Op, OpKind, Region, Space, Value, ValueDef,
};
use std::collections::HashMap;

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
/// access a common byte with one of them writing.
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
    let body = func.ops[p].regions[0];
    let effects: Vec<MemEffect> = fx
        .region_effects(body)
        .into_iter()
        .filter(|e| e.is_access() && !own_storage(func, p, e))
        .collect();
    let mut extents = [None; 3];
    for (d, &ub) in func.ops[p].operands.iter().enumerate().take(3) {
        extents[d] = assume[d].or_else(|| constant(func, ub));
    }
    let coords = Coords::from_extents(extents);
    for (i, a) in effects.iter().enumerate() {
        for b in &effects[i..] {
            if conflicts_across_threads(func, &coords, a, b) {
                return false;
            }
        }
    }
    true
}

fn constant(func: &Function, v: Value) -> Option<u64> {
    let op = func.defining_op(v)?;
    match func.ops[op].kind {
        OpKind::Const { bits } => Some(bits),
        _ => None,
    }
}

/// True if `e` accesses storage only its own iteration of `p` uses: a
/// private alloca inside `p`, or a private array outside indexed by `p`'s
/// linear thread id.
fn own_storage(func: &Function, p: Op, e: &MemEffect) -> bool {
    let Base::Alloca(a) = e.base else {
        return false;
    };
    let body = func.ops[p].regions[0];
    let mut inner = Vec::new();
    func.walk_region(body, &mut inner);
    if inner.iter().any(|&(_, o)| o == a) {
        return true;
    }
    // The pointer of the access, followed back to its alloca.
    let Some(&ptr) = func.ops[e.op].operands.first() else {
        return false;
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
                let base = data.operands[0];
                if func.defining_op(base) == Some(a) {
                    let private = matches!(
                        func.ops[a].kind,
                        OpKind::Alloca {
                            space: Space::Private,
                            ..
                        }
                    );
                    return private && is_linear_id(func, body, ivs, data.operands[1]);
                }
                // Lane loops: `ptr.index (ptr.index %cache, %warp_base), %lane`
                // (the warp's slots, then the lane's: an affine address).
                if ivs.len() == 1 && data.operands[1] == ivs[0] {
                    if let Some(inner) = func.defining_op(base) {
                        let d = &func.ops[inner];
                        if matches!(d.kind, OpKind::PtrIndex { .. })
                            && func.defining_op(d.operands[0]) == Some(a)
                            && matches!(
                                func.ops[a].kind,
                                OpKind::Alloca {
                                    space: Space::Private,
                                    ..
                                }
                            )
                            && defined_outside(func, body, ivs, d.operands[1])
                        {
                            return true;
                        }
                    }
                }
                v = base;
            }
            OpKind::PtrField { .. } => v = data.operands[0],
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
            .then(|| (func.ops[d].operands[0], func.ops[d].operands[1]))
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
/// iterations are not independent; returns how many.
pub fn serialize_inner(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
) -> Result<usize, CpuifyError> {
    if module.functions[fid].kind != FunctionKind::Launch {
        return Ok(0);
    }
    let targets: Vec<(Region, Op, bool)> = {
        let func = &module.functions[fid];
        let summaries = CallSummaries::compute(module);
        let fx = FunctionEffects::new(module, func, &summaries);
        func.walk()
            .into_iter()
            .filter(|&(_, o)| thread_level(&func.ops[o].kind))
            .filter(|&(_, o)| !iterations_independent(&fx, func, o))
            .map(|(r, o)| {
                let one_d = over_block_yz(func, o)
                    && iterations_independent_assuming(&fx, func, o, [None, Some(1), Some(1)]);
                (r, o, one_d)
            })
            .collect()
    };
    let Module {
        types, functions, ..
    } = module;
    let func = &mut functions[fid];
    for &(region, p, one_d) in &targets {
        let loc = func.ops[p].loc;
        let name = func.name.clone();
        if one_d && specialize_1d(types, func, region, p) {
            remarks.add(
                "serialize-inner",
                &name,
                loc,
                "thread loop kept parallel for 1-D blocks (blockDim.y = blockDim.z = 1) \
                 and serialised otherwise: its iterations may access the same memory \
                 only in 2-D or 3-D blocks",
            );
            continue;
        }
        serialize(types, func, region, p);
        remarks.add(
            "serialize-inner",
            &name,
            loc,
            "thread loop serialised: its iterations may access the same memory",
        );
    }
    Ok(targets.len())
}

/// True if block-level loop `p` runs over the launch's y and z block
/// extents (`block_dim y`, `block_dim z`), whatever its x bound: with a 1-D
/// block it then runs exactly the threads `(x, 0, 0)`.
fn over_block_yz(func: &Function, p: Op) -> bool {
    let data = &func.ops[p];
    data.kind
        == (OpKind::Parallel {
            level: Level::Block,
        })
        && data.operands.len() == 3
        && [(1, Dim::Y), (2, Dim::Z)].iter().all(|&(k, d)| {
            func.defining_op(data.operands[k])
                .is_some_and(|o| func.ops[o].kind == OpKind::BlockDim(d))
        })
}

/// Replaces block loop `p` (in `region`), which is independent when the
/// block is 1-D, by `if (block_dim y == 1 && block_dim z == 1) { p over
/// (x, 1, 1), kept parallel } else { p serialised }`. Most launches have
/// 1-D blocks; the dims are only known at run time. False (nothing
/// changed) if `p` is not in `region`.
fn specialize_1d(types: &mut cucc_ir::Types, func: &mut Function, region: Region, p: Op) -> bool {
    let loc = func.ops[p].loc;
    let ubs = func.ops[p].operands.clone();
    let Some(at) = func.regions[region].ops.iter().position(|&o| o == p) else {
        return false;
    };
    let ty = func.value_type(ubs[1]);
    let (if_op, then_r, else_r, one) = {
        let mut b = Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_at(region, at);
        let one = b.const_int(ty, 1);
        let ey = b.cmp(CmpPred::Eq, ubs[1], one);
        let ez = b.cmp(CmpPred::Eq, ubs[2], one);
        let both = b.binary(BinOp::And, ey, ez);
        let (if_op, then_r, else_r) = b.create_if(both, &[]);
        (if_op, then_r, else_r, one)
    };
    let copy = clone_op(func, p, &mut HashMap::new());
    func.ops[copy].operands[1] = one;
    func.ops[copy].operands[2] = one;
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[then_r].ops.extend([copy, y]);
    func.regions[region].ops.retain(|&o| o != p);
    debug_assert!(func.regions[region].ops.contains(&if_op));
    func.regions[else_r].ops.push(p);
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[else_r].ops.push(y);
    serialize(types, func, else_r, p);
    true
}

/// Replaces parallel `p` (in `region`) by a `for` nest, x innermost. The
/// loops compare signed: their bounds are a block's extents (at most 1024),
/// where signed and unsigned agree, and a signed loop lets the C emitter
/// count with a signed variable (`put_for`), which gcc needs to see the
/// indices built from the counter as affine.
fn serialize(types: &mut cucc_ir::Types, func: &mut Function, region: Region, p: Op) {
    let body = func.ops[p].regions[0];
    let ivs = func.regions[body].args.clone();
    let ubs = func.ops[p].operands.clone();
    let loc = func.ops[p].loc;
    let at = func.regions[region]
        .ops
        .iter()
        .position(|&o| o == p)
        .unwrap_or(0);
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
    func.ops[inner].operands[1] = ubs[0];
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
    let at = func.regions[region]
        .ops
        .iter()
        .position(|&o| o == p)
        .unwrap_or(0);
    func.regions[region].ops[at] = inner;
}
