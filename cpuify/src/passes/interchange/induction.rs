//! Closed forms of the additive induction variables of a `for` that
//! `interchange` moves: a carried integer the body advances by a
//! loop-invariant step (`c += xy` in a column march) becomes `init +
//! j * step`, `j` the trip number, and stops being carried.
//!
//! Carried, such an index reaches the interchanged thread loops through a
//! per-thread array, so every address built from it is a load of that
//! array to the analyses and to the C compiler: neither can tell that the
//! threads' accesses are consecutive or disjoint. In closed form it is an
//! expression in the loop's counter and values defined before the loop.
//!
//! The closed form is computed in 64 bits, `sext(init) + j * sext(step)`,
//! and truncated: modulo 2^w that is the carried value whatever wraps. When
//! the step is an `add nsw` (`sub nsw`), no trip overflowed, so the 64-bit
//! value is the carried value's sign extension exactly: `sext` uses read it
//! directly, and so do the `sext`s of `add nsw` uses (`sext(c + xy)` is
//! `V + sext(xy)`), which keeps the addresses affine to the C compiler.

use cucc_ir::edit::{replace_all_uses, uses};
use cucc_ir::{
    ArithFlags, BinOp, Builder, CastOp, CmpPred, Function, Op, OpKind, Region, Types, Value,
};

/// Rewrites the additive carried integers of `for` op `f` (in `region`)
/// into closed forms, drops them from the loop, and computes their final
/// values after it. Returns how many were rewritten.
pub(crate) fn rewrite(types: &mut Types, func: &mut Function, region: Region, f: Op) -> usize {
    let mut done = 0;
    while let Some(k) = next_candidate(types, func, f) {
        rewrite_one(types, func, region, f, k);
        done += 1;
    }
    done
}

/// An additive carried value of `for` `f`: its slot, the step (negated
/// for `sub`), and whether the update is `nsw`.
struct Candidate {
    slot: usize,
    /// The loop-invariant amounts added each trip (one, or several in a
    /// chain of `add`s: nvcc's unrolled loops advance a pointer once per
    /// unrolled copy).
    steps: Vec<Value>,
    negate: bool,
    nsw: bool,
}

/// The first carried slot of `f` whose update is `add %arg, %d` (either
/// order) or `sub %arg, %d`, `%d` defined outside the loop, on an integer
/// type; `None` if there is none or the loop has another shape.
fn next_candidate(types: &Types, func: &Function, f: Op) -> Option<usize> {
    (0..func.ops[f].results.len()).find(|&k| candidate(types, func, f, k).is_some())
}

fn candidate(types: &Types, func: &Function, f: Op, k: usize) -> Option<Candidate> {
    let data = &func.ops[f];
    if !matches!(data.kind, OpKind::For { .. }) {
        return None;
    }
    // A positive constant step, so the trip number is `(iv - lb) / step`.
    let step_bits = func.const_bits(data.step())?;
    let ivty = func.value_type(data.lb());
    let ivbits = u32::from(types[ivty].int_bits()?);
    if ivbits > 64 || signed(step_bits, ivbits) <= 0 {
        return None;
    }
    let body = data.body();
    let arg = *func.regions[body].args.get(k + 1)?;
    types[func.value_type(arg)].int_bits()?;
    let y = *func.regions[body].ops.last()?;
    if func.ops[y].kind != OpKind::Yield {
        return None;
    }
    let next = *func.ops[y].values().get(k)?;
    let upd = func.defining_op(next)?;
    let OpKind::Binary(op, flags) = func.ops[upd].kind else {
        return None;
    };
    let (a, b) = (func.ops[upd].lhs(), func.ops[upd].rhs());
    if op == BinOp::Sub && a == arg && b != arg {
        return defined_outside(func, f, b).then_some(Candidate {
            slot: k,
            steps: vec![b],
            negate: true,
            nsw: flags.nsw,
        });
    }
    // `arg + d1 + d2 + ...`, each `d` defined outside the loop.
    let mut steps = Vec::new();
    let mut nsw = true;
    let mut at = next;
    while at != arg {
        let upd = func.defining_op(at)?;
        let OpKind::Binary(BinOp::Add, flags) = func.ops[upd].kind else {
            return None;
        };
        let (a, b) = (func.ops[upd].lhs(), func.ops[upd].rhs());
        let (rest, d) = if defined_outside(func, f, b) && a != arg || b != arg && a == arg {
            (a, b)
        } else if defined_outside(func, f, a) {
            (b, a)
        } else {
            return None;
        };
        if !defined_outside(func, f, d) || steps.len() >= 16 {
            return None;
        }
        steps.push(d);
        nsw &= flags.nsw;
        at = rest;
    }
    (!steps.is_empty()).then_some(Candidate {
        slot: k,
        steps,
        negate: false,
        nsw,
    })
}

/// The sum of `steps`, each sign-extended to 64 bits.
fn step_sum64(b: &mut Builder<'_>, steps: &[Value], i64t: cucc_ir::TypeId) -> Value {
    let mut sum = None;
    for &d in steps {
        let d64 = if b.types[b.func.value_type(d)].int_bits() == Some(64) {
            d
        } else {
            b.cast(CastOp::SExt, d, i64t)
        };
        sum = Some(match sum {
            Some(acc) => b.binary(BinOp::Add, acc, d64),
            None => d64,
        });
    }
    sum.unwrap_or_else(|| b.i64(0))
}

/// Reads the low `bits` of `raw` as a signed number.
fn signed(raw: u64, bits: u32) -> i64 {
    if bits >= 64 {
        raw as i64
    } else {
        ((raw << (64 - bits)) as i64) >> (64 - bits)
    }
}

fn rewrite_one(types: &mut Types, func: &mut Function, region: Region, f: Op, k: usize) {
    let Some(c) = candidate(types, func, f, k) else {
        return;
    };
    let data = func.ops[f].clone();
    let unsigned = matches!(data.kind, OpKind::For { unsigned: true });
    let (lb, ub, step_v) = data.bounds();
    let init = data.inits()[c.slot];
    let body = data.body();
    let iv = func.regions[body].args[0];
    let arg = func.regions[body].args[c.slot + 1];
    let result = data.results[c.slot];
    let y = func.regions[body].ops.last().copied();
    let next = y.and_then(|y| func.ops[y].values().get(c.slot).copied());
    let vty = func.value_type(arg);
    let loc = data.loc;
    let widen = if unsigned { CastOp::ZExt } else { CastOp::SExt };

    // In the body: j = (iv - lb) / step; V = sext(init) + j * sext(d).
    let mut b = Builder::new(types, func);
    b.set_loc(loc);
    b.set_insertion_at(body, 0);
    let i64t = b.types.i64();
    let to64 = |b: &mut Builder<'_>, v: Value, op: CastOp| {
        if b.types[b.func.value_type(v)].int_bits() == Some(64) {
            v
        } else {
            b.cast(op, v, i64t)
        }
    };
    let iv64 = to64(&mut b, iv, widen);
    let lb64 = to64(&mut b, lb, widen);
    let mut j = b.binary(BinOp::Sub, iv64, lb64);
    let step_is_one = b.func.const_bits(step_v).is_some_and(|s| s == 1);
    let step64 = to64(&mut b, step_v, widen);
    if !step_is_one {
        j = b.binary(BinOp::UDiv, j, step64);
    }
    let init64 = to64(&mut b, init, CastOp::SExt);
    let d64 = step_sum64(&mut b, &c.steps, i64t);
    let scaled = b.binary(BinOp::Mul, j, d64);
    let wide = if c.negate {
        b.binary(BinOp::Sub, init64, scaled)
    } else {
        b.binary(BinOp::Add, init64, scaled)
    };
    let narrow = if b.types[vty].int_bits() == Some(64) {
        wide
    } else {
        b.cast(CastOp::Trunc, wide, vty)
    };

    // Uses of the carried argument: sign extensions read the 64-bit form
    // when no trip wrapped; everything else the truncated one.
    if c.nsw && narrow != wide {
        fold_extensions(types, func, arg, wide);
    }
    replace_all_uses(func, arg, narrow);

    // After the loop: the value of the last trip's update.
    let mut b = Builder::new(types, func);
    b.set_loc(loc);
    b.set_insertion_after(region, f);
    let ub64 = to64(&mut b, ub, widen);
    let lb64 = to64(&mut b, lb, widen);
    let step64 = to64(&mut b, step_v, widen);
    let span = b.binary(BinOp::Sub, ub64, lb64);
    let trips = if step_is_one {
        span
    } else {
        let one = b.i64(1);
        let s1 = b.binary(BinOp::Sub, step64, one);
        let up = b.binary(BinOp::Add, span, s1);
        b.binary(BinOp::UDiv, up, step64)
    };
    let pred = if unsigned { CmpPred::Ult } else { CmpPred::Slt };
    let runs = b.cmp(pred, lb, ub);
    let zero = b.i64(0);
    let trips = b.select(runs, trips, zero);
    let init64 = to64(&mut b, init, CastOp::SExt);
    let i64t = b.types.i64();
    let d64 = step_sum64(&mut b, &c.steps, i64t);
    let scaled = b.binary(BinOp::Mul, trips, d64);
    let last = if c.negate {
        b.binary(BinOp::Sub, init64, scaled)
    } else {
        b.binary(BinOp::Add, init64, scaled)
    };
    let last_narrow = if b.types[vty].int_bits() == Some(64) {
        last
    } else {
        b.cast(CastOp::Trunc, last, vty)
    };
    if c.nsw && last_narrow != last {
        fold_extensions(types, func, result, last);
    }
    replace_all_uses(func, result, last_narrow);

    // Drop the slot: init, argument, yielded value and result.
    drop_slot(func, f, c.slot);
    if let Some(next) = next {
        remove_if_unused(func, body, next);
    }
}

/// Replaces `sext(v)` by `wide`, and `sext(add nsw v, x)` by
/// `add nsw wide, sext(x)`, for the uses of `v` (a carried value or a
/// loop result whose 64-bit form `wide` is exact).
fn fold_extensions(types: &mut Types, func: &mut Function, arg: Value, wide: Value) {
    let all = uses(func);
    let parents = func.parents();
    let i64t = types.i64();
    for &(user, _) in all.get(&arg).map(Vec::as_slice).unwrap_or(&[]) {
        let data = func.ops[user].clone();
        match data.kind {
            OpKind::Cast(CastOp::SExt) if func.value_type(data.results[0]) == i64t => {
                replace_all_uses(func, data.results[0], wide);
            }
            OpKind::Binary(BinOp::Add, flags) if flags.nsw => {
                let x = if data.lhs() == arg {
                    data.rhs()
                } else {
                    data.lhs()
                };
                let sum = data.results[0];
                for &(ext, _) in all.get(&sum).map(Vec::as_slice).unwrap_or(&[]) {
                    let e = &func.ops[ext];
                    if e.kind != OpKind::Cast(CastOp::SExt) || func.value_type(e.results[0]) != i64t
                    {
                        continue;
                    }
                    let res = e.results[0];
                    let loc = e.loc;
                    let Some(r) = parents.region_of(ext) else {
                        continue;
                    };
                    let Some(at) = func.find_op(r, ext) else {
                        continue;
                    };
                    let mut b = Builder::new(types, func);
                    b.set_loc(loc);
                    b.set_insertion_at(r, at);
                    let x64 = b.cast(CastOp::SExt, x, i64t);
                    let s = b.binary_flags(BinOp::Add, ArithFlags::NSW, wide, x64);
                    replace_all_uses(func, res, s);
                }
            }
            _ => {}
        }
    }
}

/// Removes carried slot `k` of `for` `f`.
fn drop_slot(func: &mut Function, f: Op, k: usize) {
    let body = func.ops[f].body();
    if let Some(&y) = func.regions[body].ops.last() {
        if k < func.ops[y].values().len() {
            func.ops[y].remove_value(k);
        }
    }
    func.ops[f].remove_init(k);
    func.regions[body].args.remove(1 + k);
    func.ops[f].results.remove(k);
    let results = func.ops[f].results.clone();
    for (i, r) in results.into_iter().enumerate() {
        func.values[r].def = cucc_ir::ValueDef::Result {
            op: f,
            index: i as u32,
        };
    }
    let args = func.regions[body].args.clone();
    for (i, a) in args.into_iter().enumerate() {
        func.values[a].def = cucc_ir::ValueDef::Arg {
            region: body,
            index: i as u32,
        };
    }
}

/// Removes the pure op defining `v` from `region` if nothing uses `v`.
fn remove_if_unused(func: &mut Function, region: Region, v: Value) {
    let Some(d) = func.defining_op(v) else {
        return;
    };
    if !func.ops[d].kind.is_pure() {
        return;
    }
    let used = uses(func).get(&v).is_some_and(|u| !u.is_empty());
    if !used {
        func.regions[region].ops.retain(|&o| o != d);
    }
}

/// True if `v` is defined outside op `w` (not by it, nor in its regions).
fn defined_outside(func: &Function, w: Op, v: Value) -> bool {
    let mut walk = Vec::new();
    for &r in &func.ops[w].regions {
        if func.regions[r].args.contains(&v) {
            return false;
        }
        func.walk_region(r, &mut walk);
    }
    match func.defining_op(v) {
        Some(d) => d != w && !walk.iter().any(|&(_, o)| o == d),
        None => true,
    }
}
