//! `while` loops in the frontends' shape of a counted C `for` become `for`
//! ops before they are interchanged: `distribute` then keeps each carried
//! value in one per-thread array (a `while` passes them through its
//! condition into a second one, copied every trip) and the counter is the
//! loop's iv. A bound computed in the condition region from values of the
//! enclosing code (`k < nz - 1`) is computed once before the loop first:
//! the region runs at least once, and such ops are pure and cannot trap.

use cucc_ir::edit::{replace_all_uses, replace_uses_in_region, uses};
use cucc_ir::{BinOp, CmpPred, Function, Loc, Op, OpKind, Region, TypeId, Types, Value};
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
    let (before, after) = (data.before(), data.after());
    hoist_invariant(func, region, w, before);
    let data = &func.ops[w];
    let inits = data.inits().to_vec();
    let results = data.results.clone();
    let loc = data.loc;
    let bargs = func.regions[before].args.clone();
    let aargs = func.regions[after].args.clone();
    let [cmp, cond] = func.regions[before].ops[..] else {
        return None;
    };
    // The condition forwards the before arguments unchanged.
    let cond_data = &func.ops[cond];
    if Some(&cond_data.cond()) != func.ops[cmp].results.first() || cond_data.values() != &bargs[..]
    {
        return None;
    }
    if func.ops[cmp].kind != OpKind::Cmp(CmpPred::Slt) {
        return None;
    }
    let (ctr, ub) = (func.ops[cmp].lhs(), func.ops[cmp].rhs());
    let i = bargs.iter().position(|&a| a == ctr)?;
    if bargs.contains(&ub) || !defined_outside(func, w, ub) || aargs.len() != bargs.len() {
        return None;
    }
    // The after region yields `b_i + step`.
    let y = *func.regions[after].ops.last()?;
    let next = *func.ops[y].values().get(i)?;
    let add = func.defining_op(next)?;
    let OpKind::Binary(BinOp::Add, flags) = func.ops[add].kind else {
        return None;
    };
    let (x, s) = (func.ops[add].lhs(), func.ops[add].rhs());
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
    let at = func.find_op(region, w)?;
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
    func.ops[y].remove_value(i);
    let result_types: Vec<_> = order[1..]
        .iter()
        .map(|&k| func.value_type(results[k]))
        .collect();
    let carried = order[1..].iter().map(|&k| inits[k]);
    let f = new_for(
        func,
        (inits[i], ub, step),
        carried,
        &result_types,
        body,
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
        let ok = (crate::passes::predicate_barriers::speculable(func, op)
            || divides_by_positive_constant(func, op))
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
    if let Some(at) = func.find_op(region, w) {
        func.regions[region].ops.splice(at..at, moved);
    }
}

/// True if `op` divides (or takes the remainder) by a constant in
/// 1..2^31: it cannot trap, wherever it runs (`t < n / 8`).
fn divides_by_positive_constant(func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    matches!(
        data.kind,
        OpKind::Binary(BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem, _)
    ) && func
        .const_bits(data.rhs())
        .is_some_and(|b| (1..1 << 31).contains(&b))
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

/// The shape [`do_while_to_for`] rewrites, or `None`.
pub(crate) struct Countdown {
    /// The counter's argument index.
    pub k: usize,
    /// What it counts down by.
    pub s: i64,
    /// The condition operands (after the predicate).
    xs: Vec<Value>,
    /// Before argument p receives condition operand `sigma[p]`.
    sigma: Vec<usize>,
}

/// Recognises the shape [`do_while_to_for`] rewrites.
pub(crate) fn countdown_shape(types: &Types, func: &Function, w: Op) -> Option<Countdown> {
    let data = &func.ops[w];
    if data.kind != OpKind::While || data.regions.len() != 2 {
        return None;
    }
    let (before, after) = (data.before(), data.after());
    let inits = data.inits().to_vec();
    let results = &data.results;
    let bargs = func.regions[before].args.clone();
    let aargs = func.regions[after].args.clone();
    let &cond = func.regions[before].ops.last()?;
    if func.ops[cond].kind != OpKind::Condition {
        return None;
    }
    let xs: Vec<Value> = func.ops[cond].values().to_vec();
    // The do region only forwards: yield operand p is after argument σ(p).
    let [y] = func.regions[after].ops[..] else {
        return None;
    };
    if func.ops[y].kind != OpKind::Yield || func.ops[y].values().len() != bargs.len() {
        return None;
    }
    let sigma: Vec<usize> = func.ops[y]
        .values()
        .iter()
        .map(|v| aargs.iter().position(|a| a == v))
        .collect::<Option<_>>()?;
    if aargs.len() != xs.len() || results.len() != xs.len() {
        return None;
    }
    // `%c = cmp ne %n, 0`, `%n = add %b_k, -s`.
    let c = func.ops[cond].cond();
    let cmp = func.defining_op(c)?;
    if func.ops[cmp].kind != OpKind::Cmp(CmpPred::Ne) {
        return None;
    }
    let n = match (func.ops[cmp].lhs(), func.ops[cmp].rhs()) {
        (a, z) if func.const_bits(z) == Some(0) => a,
        (z, a) if func.const_bits(z) == Some(0) => a,
        _ => return None,
    };
    let add = func.defining_op(n)?;
    if !matches!(func.ops[add].kind, OpKind::Binary(BinOp::Add, _)) {
        return None;
    }
    // A 32-bit counter: its trip count, up to 2^32, fits the 64-bit `for`.
    let ty = func.value_type(n);
    let width = u32::from(types[ty].int_bits()?);
    if width != 32 {
        return None;
    }
    let signed = |bits: u64| -> i64 { i64::from(bits as u32 as i32) };
    let (k, s) = {
        let (p, q) = (func.ops[add].lhs(), func.ops[add].rhs());
        let (arg, step) = match (bargs.iter().position(|&b| b == p), func.const_bits(q)) {
            (Some(k), Some(st)) => (k, st),
            _ => match (bargs.iter().position(|&b| b == q), func.const_bits(p)) {
                (Some(k), Some(st)) => (k, st),
                _ => return None,
            },
        };
        let s = signed(step).checked_neg()?;
        (arg, s)
    };
    if s <= 0 || !(s as u64).is_power_of_two() {
        return None;
    }
    // The counter's next value goes back to it.
    if xs.get(sigma[k]) != Some(&n) || !multiple_of(func, inits[k], s as u64, width) {
        return None;
    }
    Some(Countdown { k, s, xs, sigma })
}

/// Rewrites `while` op `w` (in `region`) of nvcc's rotated shape, a
/// do-while that counts down to zero,
///
/// ```text
/// %r.. = while (%b.. = %init..) {
///   ...; %n = add %b_k, -s; %c = cmp ne %n, 0; condition %c, %x..
/// } do (%a..) { yield %a_σ(0), %a_σ(1), .. }
/// ```
///
/// with a 32-bit counter, `s` a positive power of two, the counter's next
/// value `%n` among the `%x`s and forwarded back to `%b_k`, the do region
/// only forwarding condition values, and `%init_k` a known multiple of
/// `s`, into `for %j = 0 to ((zext(%init_k - s)) udiv s) + 1` (64-bit)
/// carrying the before arguments (and, for a result no argument receives,
/// its last value).
/// The body runs at least once, as a do-while's; the trip count is exact
/// in wrapping arithmetic (a counter starting at 0 runs 2^32 / s trips, as
/// the loop would). Returns the new op, or `None` for another shape.
pub(crate) fn do_while_to_for(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    w: Op,
) -> Option<Op> {
    let Countdown { k, s, xs, sigma } = countdown_shape(types, func, w)?;
    let data = &func.ops[w];
    let before = data.before();
    let inits = data.inits().to_vec();
    let results = data.results.clone();
    let loc = data.loc;
    let bargs = func.regions[before].args.clone();
    let ty = func.value_type(xs[sigma[k]]);
    hoist_invariant(func, region, w, before);
    let at = func.find_op(region, w)?;
    // The trip count, in 64 bits: ((init - s) mod 2^32) / s + 1.
    let (lb, trip, step) = {
        let mut b = cucc_ir::Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_at(region, at);
        let i64t = b.types.i64();
        let sv = b.const_int(ty, s);
        let first = b.binary(BinOp::Sub, inits[k], sv);
        let wide = b.cast(cucc_ir::CastOp::ZExt, first, i64t);
        let s64 = b.const_int(i64t, s);
        let q = b.binary(BinOp::UDiv, wide, s64);
        let one = b.const_int(i64t, 1);
        let trip = b.binary(BinOp::Add, q, one);
        let zero = b.const_int(i64t, 0);
        (zero, trip, one)
    };
    let at = func.find_op(region, w)?;
    // Results no argument receives are carried too, so the last trip's
    // value comes out; their initial value is never read.
    let extra: Vec<usize> = (0..xs.len()).filter(|i| !sigma.contains(i)).collect();
    let mut extra_inits = Vec::new();
    for &i in &extra {
        let t = func.value_type(results[i]);
        let z = func.new_op(OpKind::Undef, vec![], &[t], vec![], loc);
        func.regions[region].ops.insert(at, z);
        extra_inits.push(func.ops[z].results[0]);
    }
    let at = func.find_op(region, w)?;
    // The body: the before region over fresh arguments (iv first), ending
    // in a yield of each argument's next value.
    let i64t = types.i64();
    let mut arg_types = vec![i64t];
    arg_types.extend(bargs.iter().map(|&b| func.value_type(b)));
    arg_types.extend(extra.iter().map(|&i| func.value_type(results[i])));
    let body = func.new_region(&arg_types);
    let fresh = func.regions[body].args.clone();
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (b, &v) in bargs.iter().zip(&fresh[1..]) {
        func.values[v].name = func.values[*b].name.clone();
        map.insert(*b, v);
    }
    let mut ops = std::mem::take(&mut func.regions[before].ops);
    ops.pop(); // the condition
    let mut yielded: Vec<Value> = sigma.iter().map(|&i| xs[i]).collect();
    yielded.extend(extra.iter().map(|&i| xs[i]));
    let yop = func.new_op(OpKind::Yield, yielded, &[], vec![], loc);
    ops.push(yop);
    func.regions[body].ops = ops;
    replace_uses_in_region(func, body, &map);
    let mut result_types: Vec<_> = bargs.iter().map(|&b| func.value_type(b)).collect();
    result_types.extend(extra.iter().map(|&i| func.value_type(results[i])));
    let carried = inits.iter().copied().chain(extra_inits);
    let f = new_for(func, (lb, trip, step), carried, &result_types, body, loc);
    let new_results = func.ops[f].results.clone();
    // While result i is the value yielded to argument p with σ(p) = i, or
    // the extra slot carrying it.
    for (i, &r) in results.iter().enumerate() {
        let slot = match sigma.iter().position(|&q| q == i) {
            Some(p) => p,
            None => bargs.len() + extra.iter().position(|&e| e == i)?,
        };
        func.values[new_results[slot]].name = func.values[r].name.clone();
        replace_all_uses(func, r, new_results[slot]);
    }
    func.regions[region].ops[at] = f;
    Some(f)
}

/// True if `v`, an integer of `width` bits, is a multiple of `s` (a power
/// of two): its low bits are known zero.
fn multiple_of(func: &Function, v: Value, s: u64, width: u32) -> bool {
    if s == 1 {
        return true;
    }
    let low = s - 1;
    if let Some(c) = func.const_bits(v) {
        return c & low == 0;
    }
    let Some(d) = func.defining_op(v) else {
        return false;
    };
    let data = &func.ops[d];
    let OpKind::Binary(..) = data.kind else {
        return false;
    };
    let (x, y) = (data.lhs(), data.rhs());
    let is_mask = |m: Value, want: u64| func.const_bits(m).is_some_and(|c| c & low == want);
    match data.kind {
        // x - (x & (s-1)): x rounded down to a multiple.
        OpKind::Binary(BinOp::Sub, _) => {
            let rounded = func.defining_op(y).is_some_and(|a| {
                let ad = &func.ops[a];
                matches!(ad.kind, OpKind::Binary(BinOp::And, _))
                    && ((ad.lhs() == x && is_mask(ad.rhs(), low))
                        || (ad.rhs() == x && is_mask(ad.lhs(), low)))
            });
            rounded || (multiple_of(func, x, s, width) && multiple_of(func, y, s, width))
        }
        OpKind::Binary(BinOp::Add, _) => {
            multiple_of(func, x, s, width) && multiple_of(func, y, s, width)
        }
        // x & m with the mask's low bits clear.
        OpKind::Binary(BinOp::And, _) => is_mask(y, 0) || is_mask(x, 0),
        OpKind::Binary(BinOp::Mul, _) => {
            multiple_of(func, x, s, width) || multiple_of(func, y, s, width)
        }
        OpKind::Binary(BinOp::Shl, _) => func
            .const_bits(y)
            .is_some_and(|k| k < u64::from(width) && (1u64 << k) % s == 0),
        _ => false,
    }
}

/// A new signed `for` from `lb` to `ub` by `step` carrying `inits`, with
/// the detached region `body`; the caller places it.
fn new_for(
    func: &mut Function,
    (lb, ub, step): (Value, Value, Value),
    inits: impl IntoIterator<Item = Value>,
    result_types: &[TypeId],
    body: Region,
    loc: Loc,
) -> Op {
    let mut operands = vec![lb, ub, step];
    operands.extend(inits);
    func.new_op(
        OpKind::For { unsigned: false },
        operands,
        result_types,
        vec![body],
        loc,
    )
}
