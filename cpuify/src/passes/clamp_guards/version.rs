//! Dropping a guard the clamped bounds imply: in place, or in a copy of
//! the loop chosen by run-time checks (loop versioning).

use cucc_ir::edit::{clone_op, replace_uses_in_region, uses};
use cucc_ir::{BinOp, Builder, Function, Op, OpKind, Region, Types, Value};
use std::collections::HashMap;

/// The conjunction of `checks`, computed just before loop `p` in `region`;
/// `None` when there are none.
pub(super) fn all(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    checks: &[Value],
) -> Option<Value> {
    let (&first, rest) = checks.split_first()?;
    let mut b = Builder::new(types, func);
    b.set_insertion_before(region, p);
    b.set_loc(b.func.ops[p].loc);
    Some(
        rest.iter()
            .fold(first, |acc, &c| b.binary(BinOp::And, acc, c)),
    )
}

/// Makes loop `p` (in `region`) run the working branch of its guard, the
/// `if` at `index` of its body, without the test: in `p` itself when
/// `cond` is `None`, else in a copy of `p` that runs instead of it when
/// `cond` holds (`if cond { p' } else { p }`). The adds `no_wrap` (of
/// `p`'s body) become `nsw` there: the checks keep them below 2^31, and
/// gcc reads a sign-extended index as affine only from a signed add.
#[allow(clippy::too_many_arguments)]
pub(super) fn drop_guard(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    index: usize,
    polarity: bool,
    cond: Option<Value>,
    no_wrap: &[Value],
) {
    let mut map = HashMap::new();
    let target = match cond {
        None => p,
        Some(c) => {
            let loc = func.ops[p].loc;
            let (then_r, else_r) = {
                let mut b = Builder::new(types, func);
                b.set_insertion_before(region, p);
                b.set_loc(loc);
                let (_, t, e) = b.create_if(c, &[]);
                (t, e)
            };
            let copy = clone_op(func, p, &mut map);
            func.unlink_op(region, p);
            for (r, op) in [(then_r, copy), (else_r, p)] {
                let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
                func.regions[r].ops.extend([op, y]);
            }
            copy
        }
    };
    for v in no_wrap.iter().filter(|_| cond.is_some()) {
        let v = *map.get(v).unwrap_or(v);
        if let Some(op) = func.defining_op(v) {
            if let OpKind::Binary(BinOp::Add, flags) = &mut func.ops[op].kind {
                flags.nsw = true;
            }
        }
    }
    let body = func.ops[target].body();
    inline_branch(func, body, index, polarity);
    remove_dead(func, body);
}

/// Replaces the `if` at `index` of `body` by the ops of its then (`taken`)
/// or else branch, its results by the values that branch yields.
fn inline_branch(func: &mut Function, body: Region, index: usize, taken: bool) {
    let guard = func.regions[body].ops[index];
    let branch = func.ops[guard].branch(taken);
    let mut ops = func.regions[branch].ops.clone();
    let yielded = match ops.last() {
        Some(&y) if func.ops[y].kind == OpKind::Yield => {
            ops.pop();
            func.ops[y].values().to_vec()
        }
        _ => Vec::new(),
    };
    let map: HashMap<Value, Value> = func.ops[guard]
        .results
        .iter()
        .copied()
        .zip(yielded)
        .collect();
    func.regions[branch].ops.clear();
    func.regions[body].ops.splice(index..=index, ops);
    replace_uses_in_region(func, body, &map);
}

/// Removes the ops of `body` (top level) that have no effect and whose
/// results nothing uses: what computed the dropped guard.
fn remove_dead(func: &mut Function, body: Region) {
    loop {
        let used = uses(func);
        let before = func.regions[body].ops.len();
        let ops = func.regions[body].ops.clone();
        let live: Vec<Op> = ops
            .into_iter()
            .filter(|&o| {
                let d = &func.ops[o];
                d.kind == OpKind::Yield
                    || !super::inert_op(func, o)
                    || d.results.is_empty()
                    || d.results.iter().any(|r| used.contains_key(r))
            })
            .collect();
        func.regions[body].ops = live;
        if func.regions[body].ops.len() == before {
            return;
        }
    }
}
