//! `while` loops in the frontends' shape of a counted C `for` become `for`
//! ops before they are interchanged: `distribute` then keeps each carried
//! value in one per-thread array (a `while` passes them through its
//! condition into a second one, copied every trip) and the counter is the
//! loop's iv. A bound computed in the condition region from values of the
//! enclosing code (`k < nz - 1`) is computed once before the loop first:
//! the region runs at least once, and such ops are pure and cannot trap.

use cucc_ir::edit::{replace_all_uses, replace_uses_in_region, uses};
use cucc_ir::{BinOp, CmpPred, Function, Op, OpKind, Region, Types, Value};
use std::collections::HashMap;

/// Rewrites `while` op `w` (in `region`) of the shape
///
/// ```text
/// %r.. = while (%a.. = %init..) { %c = cmp slt %a_i, %ub; condition %c, %a.. }
///        do (%b..) { ...; %n = add nsw %b_i, %step; yield .., %n, .. }
/// ```
///
/// with `%ub` defined outside the loop, `%step` a positive constant and the
/// counter's result unused, into `for %b_i = %init_i to %ub step %step`
/// carrying the other values. The two run the same trips: the counter's
/// `nsw` add cannot wrap past `%ub`. Returns the new op, or `None` when `w`
/// has another shape (the invariant ops of its condition may have moved
/// before it).
pub(crate) fn while_to_for(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    w: Op,
) -> Option<Op> {
    let data = &func.ops[w];
    if data.kind != OpKind::While || data.regions.len() != 2 {
        return None;
    }
    let (before, after) = (data.regions[0], data.regions[1]);
    hoist_invariant(func, region, w, before);
    let data = &func.ops[w];
    let inits = data.operands.clone();
    let results = data.results.clone();
    let loc = data.loc;
    let bargs = func.regions[before].args.clone();
    let aargs = func.regions[after].args.clone();
    let [cmp, cond] = func.regions[before].ops[..] else {
        return None;
    };
    // The condition forwards the before arguments unchanged.
    let cond_ops = &func.ops[cond].operands;
    if cond_ops.first() != func.ops[cmp].results.first() || cond_ops[1..] != bargs[..] {
        return None;
    }
    if func.ops[cmp].kind != OpKind::Cmp(CmpPred::Slt) {
        return None;
    }
    let (ctr, ub) = (func.ops[cmp].operands[0], func.ops[cmp].operands[1]);
    let i = bargs.iter().position(|&a| a == ctr)?;
    if bargs.contains(&ub) || !defined_outside(func, w, ub) || aargs.len() != bargs.len() {
        return None;
    }
    // The after region yields `b_i + step`.
    let y = *func.regions[after].ops.last()?;
    let next = *func.ops[y].operands.get(i)?;
    let add = func.defining_op(next)?;
    let OpKind::Binary(BinOp::Add, flags) = func.ops[add].kind else {
        return None;
    };
    let (x, s) = (func.ops[add].operands[0], func.ops[add].operands[1]);
    let s = match (x == aargs[i], s == aargs[i]) {
        (true, false) => s,
        (false, true) => x,
        _ => return None,
    };
    let step_bits = func.const_bits(s)?;
    let ty = func.value_type(ctr);
    let width = u32::from(types[ty].int_bits()?);
    let step_signed = if width >= 64 {
        step_bits as i64
    } else {
        ((step_bits << (64 - width)) as i64) >> (64 - width)
    };
    if !flags.nsw || step_signed <= 0 {
        return None;
    }
    let all_uses = uses(func);
    if all_uses.get(&results[i]).is_some_and(|u| !u.is_empty()) {
        return None;
    }
    // The step as a constant before the loop.
    let at = func.regions[region].ops.iter().position(|&o| o == w)?;
    let step = {
        let mut b = cucc_ir::Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_at(region, at);
        b.const_int(ty, step_signed)
    };
    let at = at + 1;
    // The new body: the after region's ops over fresh arguments, iv first.
    let mut order = vec![i];
    order.extend((0..aargs.len()).filter(|&k| k != i));
    let arg_types: Vec<_> = order.iter().map(|&k| func.value_type(aargs[k])).collect();
    let body = func.new_region(&arg_types);
    let fresh = func.regions[body].args.clone();
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (&k, &v) in order.iter().zip(&fresh) {
        func.values[v].name = func.values[aargs[k]].name.clone();
        map.insert(aargs[k], v);
    }
    let ops = std::mem::take(&mut func.regions[after].ops);
    func.regions[body].ops = ops;
    replace_uses_in_region(func, body, &map);
    let yielded: Vec<Value> = func.ops[y]
        .operands
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != i)
        .map(|(_, &v)| v)
        .collect();
    func.ops[y].operands = yielded;
    let mut operands = vec![inits[i], ub, step];
    operands.extend(order[1..].iter().map(|&k| inits[k]));
    let result_types: Vec<_> = order[1..]
        .iter()
        .map(|&k| func.value_type(results[k]))
        .collect();
    let f = func.new_op(
        OpKind::For { unsigned: false },
        operands,
        &result_types,
        vec![body],
        loc,
    );
    let new_results = func.ops[f].results.clone();
    for (&k, &r) in order[1..].iter().zip(&new_results) {
        func.values[r].name = func.values[results[k]].name.clone();
        replace_all_uses(func, results[k], r);
    }
    func.regions[region].ops[at] = f;
    Some(f)
}

/// Moves the leading ops of `while` `w`'s condition region `before` that
/// are pure, cannot trap and read only values defined outside `w` to just
/// before `w` in `region`.
fn hoist_invariant(func: &mut Function, region: Region, w: Op, before: Region) {
    let mut moved = Vec::new();
    for &op in &func.regions[before].ops {
        let ok = crate::passes::predicate_barriers::speculable(func, op)
            && !matches!(func.ops[op].kind, OpKind::Alloca { .. })
            && func.ops[op]
                .operands
                .iter()
                .all(|&v| defined_outside(func, w, v) || moved_result(func, &moved, v));
        if ok {
            moved.push(op);
        }
    }
    if moved.is_empty() {
        return;
    }
    func.regions[before].ops.retain(|o| !moved.contains(o));
    if let Some(at) = func.regions[region].ops.iter().position(|&o| o == w) {
        func.regions[region].ops.splice(at..at, moved);
    }
}

/// True if `v` is a result of one of `ops`.
fn moved_result(func: &Function, ops: &[Op], v: Value) -> bool {
    func.defining_op(v).is_some_and(|d| ops.contains(&d))
}

/// True if `v` is defined outside op `w` (not by it, nor in its regions).
fn defined_outside(func: &Function, w: Op, v: Value) -> bool {
    let mut walk = Vec::new();
    for &r in &func.ops[w].regions {
        func.walk_region(r, &mut walk);
        if func.regions[r].args.contains(&v) {
            return false;
        }
    }
    match func.defining_op(v) {
        Some(d) => d != w && !walk.iter().any(|&(_, o)| o == d),
        None => true,
    }
}
