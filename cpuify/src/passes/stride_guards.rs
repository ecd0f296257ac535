//! `stride-guards`: a serial loop whose only work is guarded by
//! `(iv + c) % m == 0` steps by `m` from the first index that passes.
//!
//! Tree reductions written for GPUs (`if ((tx + 1) % i == 0)`,
//! `if (tx % (2 * s) == 0)`) keep one thread in `i` busy per phase. Once the
//! thread loop is serial (`serialize-inner`), every phase still walks all
//! threads to test the guard, so the reduction costs `T log T` tests for
//! `T` additions. For a `for` with step 1, no carried values, and a body of
//! inert ops plus one `if` with an inert branch, whose condition requires
//! `(iv + c) % m == 0` (`srem`/`urem`) or `(iv + c) & k == 0`
//! (`strength-reduce`'s form, with `k + 1` a power of two), `c` a constant
//! and `m`/`k` defined before the loop, the loop starts at the first index
//! passing that test and steps by `m`. The skipped iterations would only
//! have tested the guard; the kept ones still test it, in the same order.
//! Whether the stride applies is decided at run time (`m > 0`, `lb + c >= 0`,
//! `k + 1` a power of two, and `ub + m - 1` within the index's range so the
//! counter cannot wrap); otherwise the loop keeps step 1.

use crate::passes::clamp_guards::{arm_values, defined_under, sole_guard};
use crate::passes::entry::{ops_where, parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::{
    BinOp, Builder, CastOp, CmpPred, FuncId, Function, Module, Op, OpKind, Region, Types, Value,
};

/// Depth limit for following a condition's definition.
const MAX_DEPTH: usize = 12;

/// How the guard tests divisibility of `iv + c`.
#[derive(Clone, Copy, Debug)]
enum Divisor {
    /// `srem`/`urem` by `m`.
    Rem(Value, bool),
    /// `and` with mask `k` (divisible by `k + 1` when that is a power of two).
    Mask(Value),
}

/// A divisibility test `(iv + offset) % divisor == 0` the guard requires.
#[derive(Clone, Copy, Debug)]
struct Atom {
    offset: i64,
    divisor: Divisor,
}

/// Gives the guarded serial loops of function `fid` the stride of their
/// guard; returns how many loops were changed.
pub fn stride_guards(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let (types, func) = parts(module, fid);
    let loops = ops_where(func, |d| d.kind == OpKind::For { unsigned: false });
    let mut changed = 0;
    for (region, op) in loops {
        let Some(atom) = stride_atom(types, func, op) else {
            continue;
        };
        stride(types, func, region, op, atom);
        changed += 1;
        let (name, loc) = (func.name.clone(), func.ops[op].loc);
        remarks.add(
            "stride-guards",
            &name,
            loc,
            "loop steps by m, the divisor its guard `(i + c) % m == 0` tests (when m > 0, checked at run time)",
        );
    }
    Ok(changed)
}

/// The divisibility test that guards all the work of `for` loop `op`.
fn stride_atom(types: &Types, func: &Function, op: Op) -> Option<Atom> {
    let data = &func.ops[op];
    let body = data.body();
    let [iv] = func.regions[body].args[..] else {
        return None; // carried values
    };
    if func.const_bits(data.step()) != Some(1) {
        return None;
    }
    let bits = types[func.value_type(iv)].int_bits()?;
    if bits > 32 {
        return None;
    }
    let (guard, polarity) = sole_guard(func, &func.regions[body].ops)?;
    find(func, body, iv, func.ops[guard].cond(), polarity, 0)
}

/// A divisibility atom that must hold when `v` equals `polarity`.
fn find(
    func: &Function,
    body: Region,
    iv: Value,
    v: Value,
    polarity: bool,
    depth: usize,
) -> Option<Atom> {
    if depth > MAX_DEPTH {
        return None;
    }
    let data = &func.ops[func.defining_op(v)?];
    match &data.kind {
        OpKind::Cmp(pred) => {
            let (x, y) = (data.lhs(), data.rhs());
            let eq = matches!((pred, polarity), (CmpPred::Eq, true) | (CmpPred::Ne, false));
            if !eq {
                return None;
            }
            let tested = match (func.const_bits(x), func.const_bits(y)) {
                (_, Some(0)) => x,
                (Some(0), _) => y,
                _ => return None,
            };
            divisibility(func, body, iv, tested)
        }
        OpKind::Binary(BinOp::Xor, _) => {
            let (x, y) = (data.lhs(), data.rhs());
            match (func.const_bits(x), func.const_bits(y)) {
                (_, Some(c)) => find(func, body, iv, x, polarity ^ (c & 1 == 1), depth + 1),
                (Some(c), _) => find(func, body, iv, y, polarity ^ (c & 1 == 1), depth + 1),
                _ => None,
            }
        }
        OpKind::Binary(BinOp::And, _) if polarity => {
            find(func, body, iv, data.lhs(), true, depth + 1)
                .or_else(|| find(func, body, iv, data.rhs(), true, depth + 1))
        }
        OpKind::Binary(BinOp::Or, _) if !polarity => {
            find(func, body, iv, data.lhs(), false, depth + 1)
                .or_else(|| find(func, body, iv, data.rhs(), false, depth + 1))
        }
        OpKind::If if data.results.len() == 1 => {
            // v == pol  <=>  (c && t == pol) || (!c && e == pol)
            let c = data.cond();
            let (t, e) = arm_values(func, data)?;
            let is = |v: Value, b: bool| func.const_bits(v).map(|c| c & 1 == 1) == Some(b);
            if is(t, !polarity) {
                find(func, body, iv, c, false, depth + 1)
                    .or_else(|| find(func, body, iv, e, polarity, depth + 1))
            } else if is(e, !polarity) {
                find(func, body, iv, c, true, depth + 1)
                    .or_else(|| find(func, body, iv, t, polarity, depth + 1))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `tested` as `(iv + c) % m` or `(iv + c) & k` with `m`/`k` defined
/// outside the loop body.
fn divisibility(func: &Function, body: Region, iv: Value, tested: Value) -> Option<Atom> {
    let data = &func.ops[func.defining_op(tested)?];
    let OpKind::Binary(op, _) = data.kind else {
        return None;
    };
    let (x, d) = (data.lhs(), data.rhs());
    let divisor = match op {
        BinOp::SRem => Divisor::Rem(d, true),
        BinOp::URem => Divisor::Rem(d, false),
        BinOp::And => Divisor::Mask(d),
        _ => return None,
    };
    if defined_under(func, body, d) {
        return None;
    }
    let offset = if x == iv {
        0
    } else {
        let add = &func.ops[func.defining_op(x)?];
        if !matches!(add.kind, OpKind::Binary(BinOp::Add, _)) {
            return None;
        }
        let (a, b) = (add.lhs(), add.rhs());
        let c = match (a == iv, b == iv) {
            (true, _) => func.const_bits(b)?,
            (_, true) => func.const_bits(a)?,
            _ => return None,
        };
        // A small non-negative constant (the index type has at most 32 bits).
        i64::try_from(c).ok().filter(|&c| c < 1 << 31)?
    };
    Some(Atom { offset, divisor })
}

/// Rewrites the bounds of `for` loop `op` (in `region`) for `atom`.
fn stride(types: &mut Types, func: &mut Function, region: Region, op: Op, atom: Atom) {
    let (lb, ub, step) = func.ops[op].bounds();
    let loc = func.ops[op].loc;
    let (new_lb, new_step) = {
        let mut b = Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_before(region, op);
        let ty = b.ty(lb);
        let bits = b.types[ty].int_bits().unwrap_or(32);
        let i64t = b.types.i64();
        let lb64 = b.cast(CastOp::SExt, lb, i64t);
        let ub64 = b.cast(CastOp::SExt, ub, i64t);
        let c = b.const_int(i64t, atom.offset);
        let zero = b.const_int(i64t, 0);
        let one = b.const_int(i64t, 1);
        let first = b.binary(BinOp::Add, lb64, c);
        let (ok, step64, start) = match atom.divisor {
            Divisor::Mask(k) => {
                // k >= 0 and k & (k + 1) == 0: k + 1 is a power of two.
                let k64 = b.cast(CastOp::SExt, k, i64t);
                let m = b.binary(BinOp::Add, k64, one);
                let both = b.binary(BinOp::And, k64, m);
                let pow2 = b.cmp(CmpPred::Eq, both, zero);
                let nonneg = b.cmp(CmpPred::Sge, k64, zero);
                let ok = b.binary(BinOp::And, pow2, nonneg);
                // First multiple of m at or after lb + c: (lb + c + k) & ~k.
                let minus_one = b.const_int(i64t, -1);
                let not_k = b.binary(BinOp::Xor, k64, minus_one);
                let up = b.binary(BinOp::Add, first, k64);
                let start = b.binary(BinOp::And, up, not_k);
                (ok, m, start)
            }
            Divisor::Rem(m, signed) => {
                let ext = if signed { CastOp::SExt } else { CastOp::ZExt };
                let m64 = b.cast(ext, m, i64t);
                let positive = b.cmp(CmpPred::Sgt, m64, zero);
                // A zero divisor must not reach the division below.
                let safe_m = b.select(positive, m64, one);
                let up = b.binary(BinOp::Add, first, safe_m);
                let up = b.binary(BinOp::Sub, up, one);
                let q = b.binary(BinOp::SDiv, up, safe_m);
                let start = b.binary(BinOp::Mul, q, safe_m);
                (positive, safe_m, start)
            }
        };
        // lb + c >= 0 (so the remainder's sign never matters) and the
        // counter cannot pass the type's maximum: ub - 1 + step <= max.
        let nonneg = b.cmp(CmpPred::Sge, first, zero);
        let max = b.const_int(i64t, (1i64 << (bits - 1)) - 1);
        let last = b.binary(BinOp::Add, ub64, step64);
        let last = b.binary(BinOp::Sub, last, one);
        let fits = b.cmp(CmpPred::Sle, last, max);
        let ok = b.binary(BinOp::And, ok, nonneg);
        let ok = b.binary(BinOp::And, ok, fits);
        let start = b.binary(BinOp::Sub, start, c);
        let below = b.cmp(CmpPred::Slt, start, ub64);
        let start = b.select(below, start, ub64);
        let start = b.cast(CastOp::Trunc, start, ty);
        let step_t = b.cast(CastOp::Trunc, step64, ty);
        (b.select(ok, start, lb), b.select(ok, step_t, step))
    };
    func.ops[op].set_lb(new_lb);
    func.ops[op].set_step(new_step);
}
