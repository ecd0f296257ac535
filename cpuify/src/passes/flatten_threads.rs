//! `flatten-threads` (after `speculate`): a block-level thread loop that
//! reads its thread indices only through the linear thread id becomes one
//! loop over `X·Y·Z` threads.
//!
//! `distribute` carries per-thread values across barriers in `[1024 x T]`
//! arrays indexed by `tx + X·(ty + Y·tz)`; the loops that copy or test them
//! (a `while`'s carried flag, `if (computed) ...`) run as z, y, x nests
//! whose innermost loop is only `blockDim.x` long. gcc vectorises a byte
//! loop 64 iterations at a time, so for a 16 x 16 tile every such loop ran
//! scalar. Iterating `l` over `[0, X·Y·Z)` visits the same linear ids in
//! the same order (the nest is x-fastest), so when the body's only use of
//! the indices is that linear id — after dropping its dead pure ops — the
//! loop becomes `parallel (l, 0, 0) in (X·Y·Z, 1, 1)` with the id replaced
//! by `l`. X and Y must be the loop's own bounds; the product is at most
//! 1024 (bounds are block extents).

use crate::passes::entry::{is_thread_loop, launch_parts, ops_where, Changed};
use crate::remarks::Remarks;
use cucc_ir::edit::replace_all_uses;
use cucc_ir::{BinOp, Builder, FuncId, Function, Module, Op, OpKind, Region, Value, ValueDef};

/// Flattens the eligible thread loops of `fid` (launch form); returns how
/// many.
pub fn flatten_threads(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
    let loops = ops_where(func, |d| is_thread_loop(d) && d.ubs().len() == 3);
    let mut n = 0;
    for (region, p) in loops {
        let body = func.ops[p].body();
        drop_dead(func, body);
        let Some(ids) = linear_ids(func, p) else {
            continue;
        };
        if ids.is_empty() {
            continue;
        }
        let ubs = func.ops[p].ubs().to_vec();
        let loc = func.ops[p].loc;
        let (total, one) = {
            let mut b = Builder::new(types, func);
            b.set_loc(loc);
            b.set_insertion_before(region, p);
            let xy = b.binary_flags(BinOp::Mul, cucc_ir::ArithFlags::NSW, ubs[0], ubs[1]);
            let xyz = b.binary_flags(BinOp::Mul, cucc_ir::ArithFlags::NSW, xy, ubs[2]);
            let ty = b.func.value_type(ubs[0]);
            (xyz, b.const_int(ty, 1))
        };
        let tx = func.regions[body].args[0];
        for id in ids {
            replace_all_uses(func, id, tx);
        }
        func.ops[p].ubs_mut().copy_from_slice(&[total, one, one]);
        drop_dead(func, body);
        n += 1;
        remarks.add(
            "flatten-threads",
            &func.name.clone(),
            loc,
            "thread loop flattened: its indices are used only as the linear thread id",
        );
    }
    Ok(n)
}

/// Removes the pure ops of `r` (top level) whose results are unused.
fn drop_dead(func: &mut Function, r: Region) {
    loop {
        let uses = cucc_ir::edit::uses(func);
        let dead: Vec<Op> = func.regions[r]
            .ops
            .iter()
            .copied()
            .filter(|&o| {
                let d = &func.ops[o];
                d.kind.is_pure()
                    && d.regions.is_empty()
                    && !d.results.is_empty()
                    && d.results
                        .iter()
                        .all(|v| uses.get(v).is_none_or(Vec::is_empty))
            })
            .collect();
        if dead.is_empty() {
            return;
        }
        func.regions[r].ops.retain(|o| !dead.contains(o));
    }
}

/// The values of `p`'s body equal to `tx + X·(ty + Y·tz)` (X, Y the
/// loop's bounds), if the indices have no other use; `None` otherwise.
fn linear_ids(func: &Function, p: Op) -> Option<Vec<Value>> {
    let body = func.ops[p].body();
    let ivs = func.regions[body].args.clone();
    let ubs = func.ops[p].ubs();
    let uses = cucc_ir::edit::uses(func);
    let binary = |v: Value, op: BinOp| {
        let d = func.defining_op(v)?;
        matches!(func.ops[d].kind, OpKind::Binary(b, _) if b == op)
            .then(|| (d, func.ops[d].lhs(), func.ops[d].rhs()))
    };
    // Ops allowed to use the indices: the chains' adds and multiplies.
    let mut chain_ops: Vec<Op> = Vec::new();
    let mut ids = Vec::new();
    for &(r, o) in &{
        let mut w = Vec::new();
        func.walk_region(body, &mut w);
        w
    } {
        let _ = r;
        let Some(&v) = func.ops[o].results.first() else {
            continue;
        };
        // v = tx + m, m = X * s, s = ty + k, k = Y * tz.
        let Some((a, x0, m)) = binary(v, BinOp::Add) else {
            continue;
        };
        if x0 != ivs[0] {
            continue;
        }
        let Some((b, xb, s)) = binary(m, BinOp::Mul) else {
            continue;
        };
        let Some((c, y0, k)) = binary(s, BinOp::Add) else {
            continue;
        };
        let Some((d, yb, z0)) = binary(k, BinOp::Mul) else {
            continue;
        };
        if xb != ubs[0] || yb != ubs[1] || y0 != ivs[1] || z0 != ivs[2] {
            continue;
        }
        ids.push(v);
        chain_ops.extend([a, b, c, d]);
    }
    // Every use of an index, and of a chain's inner values, is in a chain.
    for &iv in &ivs {
        for &(user, _) in uses.get(&iv).map_or(&[][..], Vec::as_slice) {
            if !chain_ops.contains(&user) {
                return None;
            }
        }
    }
    for &o in &chain_ops {
        let r = func.ops[o].results[0];
        if ids.contains(&r) {
            continue;
        }
        for &(user, _) in uses.get(&r).map_or(&[][..], Vec::as_slice) {
            if !chain_ops.contains(&user) {
                return None;
            }
        }
    }
    let _ = ValueDef::Arg {
        region: body,
        index: 0,
    };
    Some(ids)
}
