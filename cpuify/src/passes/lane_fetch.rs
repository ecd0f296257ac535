//! `lane-fetch` (after `canonicalize`): a channel of a four-channel
//! `tex1Dfetch` chosen at run time becomes one fetch of that channel.
//!
//! `int4 k = tex1Dfetch<int4>(t, n); c == 0 ? k.x : (c == 1 ? k.y : (c ==
//! 2 ? k.z : k.w))` — a tree walk choosing the child for the next symbol —
//! arrives (once `mem2reg` has split the `int4`) as a chain of `if`s over
//! the fetch's four results. The chain is a data-dependent branch or two
//! per step, and the fetch four loads where one is used; the walk's steps
//! then fit less far ahead in the processor's window, whose look-ahead is
//! what overlaps their cache misses (mummergpu's walk with one load of the
//! chosen channel ran about 1.3x faster). `tex.fetch fetch1d.lane h, i, l`
//! reads channel `l` (3 and above: the last) of texel `i`: the chain's
//! `c` clamped to 3, which is what its last `else` does.
//!
//! The pattern: `if (c == 0) yield f.0 else { if (c == 1) yield f.1 else
//! { if (c == 2) yield f.2 else yield f.3 } }` (constants and the compares
//! may sit in the `else` regions), `f` a `fetch1d` with four results in the
//! same region as the chain, and nothing between them that may write
//! memory, so the one fetch at the chain reads what the four did. The
//! four-result fetch stays if anything else uses it.

use crate::passes::entry::{parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::edit::{remove_op, replace_all_uses, uses};
use cucc_ir::{
    Builder, CmpPred, FuncId, Function, Module, Op, OpKind, Region, TexKind, Type, Value, ValueDef,
};

/// Rewrites every lane-choosing chain of `fid`; returns how many.
pub fn lane_fetch(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let (types, func) = parts(module, fid);
    let mut done = 0;
    let mut kept = std::collections::HashSet::new();
    loop {
        let found = func.walk().into_iter().find_map(|(region, op)| {
            (!kept.contains(&op))
                .then(|| chain(func, op, 0))
                .flatten()
                .filter(|&(c, _)| types[func.value_type(c)] == Type::Int(32))
                .map(|(c, fetch)| (region, op, c, fetch))
        });
        let Some((region, op, c, fetch)) = found else {
            break;
        };
        if !quiet_between(func, fetch, op) {
            kept.insert(op);
            remarks.add(
                "lane-fetch",
                &func.name,
                func.ops[op].loc,
                "channel choice kept: memory may be written between the fetch and the choice",
            );
            continue;
        }
        let loc = func.ops[op].loc;
        let at = func.op_index(region, op);
        let (h, i) = (func.ops[fetch].handle(), func.ops[fetch].coords()[0]);
        let ty = func.value_type(func.ops[op].results[0]);
        let lane = {
            let mut b = Builder::new(types, func);
            b.set_loc(loc);
            b.set_insertion_at(region, at);
            b.op1(OpKind::TexFetch(TexKind::Fetch1DLane), vec![h, i, c], ty)
        };
        let old = func.ops[op].results[0];
        replace_all_uses(func, old, lane);
        remove_op(func, region, op);
        let used = uses(func);
        if func.ops[fetch]
            .results
            .iter()
            .all(|r| !used.contains_key(r))
        {
            remove_op(func, region, fetch);
        }
        done += 1;
        remarks.add(
            "lane-fetch",
            &func.name,
            loc,
            "channel of a four-channel texture fetch chosen at run time read by one fetch",
        );
    }
    Ok(done)
}

/// If `op` is the chain's `if` comparing against `j` (0 for the whole
/// chain), the compared value and the fetch.
fn chain(func: &Function, op: Op, j: u64) -> Option<(Value, Op)> {
    let data = &func.ops[op];
    if data.kind != OpKind::If || data.results.len() != 1 || data.regions.len() != 2 {
        return None;
    }
    let c = compared(func, data.cond(), j)?;
    let then_v = only_yield(func, data.then_region())?;
    let (fetch, lane) = fetch_result(func, then_v)?;
    if lane != j {
        return None;
    }
    let else_r = data.else_region();
    let else_v = last_yield(func, else_r)?;
    let rest_ok = |inner: Option<Op>| {
        func.regions[else_r].ops.iter().all(|&o| {
            Some(o) == inner
                || matches!(
                    func.ops[o].kind,
                    OpKind::Const { .. } | OpKind::Cmp(_) | OpKind::Yield
                )
        })
    };
    if j == 2 {
        let (f, l) = fetch_result(func, else_v)?;
        return (f == fetch && l == 3 && rest_ok(None)).then_some((c, fetch));
    }
    let inner = match func.values[else_v].def {
        ValueDef::Result { op: o, index: 0 } if func.regions[else_r].ops.contains(&o) => o,
        _ => return None,
    };
    let (c2, f2) = chain(func, inner, j + 1)?;
    (c2 == c && f2 == fetch && rest_ok(Some(inner))).then_some((c, fetch))
}

/// `v` is `cmp eq x, j` (either order); returns `x`.
fn compared(func: &Function, v: Value, j: u64) -> Option<Value> {
    let d = func.defining_op(v)?;
    let data = &func.ops[d];
    if data.kind != OpKind::Cmp(CmpPred::Eq) {
        return None;
    }
    let (a, b) = (data.lhs(), data.rhs());
    match (func.const_bits(a), func.const_bits(b)) {
        (_, Some(k)) if k == j => Some(a),
        (Some(k), _) if k == j => Some(b),
        _ => None,
    }
}

/// The value a region holding nothing but its `yield` yields.
fn only_yield(func: &Function, r: Region) -> Option<Value> {
    match func.regions[r].ops[..] {
        [_] => last_yield(func, r),
        _ => None,
    }
}

/// The one value the `yield` ending region `r` yields.
fn last_yield(func: &Function, r: Region) -> Option<Value> {
    let &y = func.regions[r].ops.last()?;
    match func.ops[y].kind {
        OpKind::Yield => match *func.ops[y].values() {
            [v] => Some(v),
            _ => None,
        },
        _ => None,
    }
}

/// `v` is result `k` of a four-result `fetch1d`: the fetch and `k`.
fn fetch_result(func: &Function, v: Value) -> Option<(Op, u64)> {
    let ValueDef::Result { op, index } = func.values[v].def else {
        return None;
    };
    let data = &func.ops[op];
    (data.kind == OpKind::TexFetch(TexKind::Fetch1D) && data.results.len() == 4)
        .then_some((op, u64::from(index)))
}

/// True if `fetch` and `op` stand in one region with nothing between them
/// that may write memory or leave the kernel.
fn quiet_between(func: &Function, fetch: Op, op: Op) -> bool {
    let parents = func.parents();
    let (Some(rf), Some(ro)) = (parents.region_of(fetch), parents.region_of(op)) else {
        return false;
    };
    if rf != ro {
        return false;
    }
    let ops = &func.regions[rf].ops;
    let (Some(a), Some(b)) = (func.find_op(rf, fetch), func.find_op(rf, op)) else {
        return false;
    };
    a < b
        && ops[a + 1..b].iter().all(|&o| {
            let k = &func.ops[o].kind;
            func.ops[o].regions.is_empty()
                && (k.is_pure()
                    || matches!(
                        k,
                        OpKind::Load {
                            volatile: false,
                            ..
                        } | OpKind::TexFetch(_)
                    ))
        })
}
