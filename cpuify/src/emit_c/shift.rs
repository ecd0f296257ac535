//! Shifts with PTX's clamping semantics (docs/ir.md): an amount of the
//! width or more gives 0 (`shl`, `lshr`) or the sign fill (`ashr`), where
//! C's shift is undefined. The guard (a compare and a `cmov`) is left out
//! when the amount is known to be below the width: a constant, a value
//! masked or reduced below it, a loop index under a small bound (the lane
//! loops' `min(n, 32)`).

use cucc_ir::{BinOp, CastOp, Function, Module, OpKind, Value, ValueDef};
use std::collections::HashMap;

/// The loop indices of `func` that stay below their loop's upper bound
/// read as unsigned: `for` ivs (compared unsigned, or from a constant lower
/// bound that is not negative) and `parallel` ivs, each with that bound.
pub fn bounded_ivs(func: &Function) -> HashMap<Value, Value> {
    let mut out = HashMap::new();
    for (_, op) in func.walk() {
        let data = &func.ops[op];
        match data.kind {
            OpKind::For { unsigned } => {
                let (ub, body) = (data.ub(), data.body());
                let Some(&iv) = func.regions[body].args.first() else {
                    continue;
                };
                // Signed: from 0 up, the iv stays below a bound that is
                // not negative, and one that is makes the loop run 0 times.
                let lb_ok = unsigned
                    || (func.const_bits(data.lb())).is_some_and(|lb| lb >> 63 == 0 && lb < 1 << 31);
                if lb_ok {
                    out.insert(iv, ub);
                }
            }
            OpKind::Parallel { .. } => {
                let body = data.body();
                for (&iv, &ub) in func.regions[body].args.iter().zip(data.ubs()) {
                    out.insert(iv, ub);
                }
            }
            _ => {}
        }
    }
    out
}

/// True if the shift amount `v` is known to be below `width` (read as
/// unsigned), so a plain C shift gives the op's value.
pub fn amount_in_range(
    module: &Module,
    func: &Function,
    ivs: &HashMap<Value, Value>,
    v: Value,
    width: u64,
) -> bool {
    bound(module, func, ivs, v, 4).is_some_and(|b| b <= width)
}

/// An exclusive upper bound of integer `v` read as unsigned, if one is
/// evident within `depth` definitions.
fn bound(
    module: &Module,
    func: &Function,
    ivs: &HashMap<Value, Value>,
    v: Value,
    depth: u32,
) -> Option<u64> {
    let bits = u32::from(module.types[func.value_type(v)].int_bits().unwrap_or(64));
    if let Some(c) = func.const_bits(v) {
        return cucc_ir::interp::eval::mask(bits, c).checked_add(1);
    }
    if depth == 0 {
        return None;
    }
    // `iv < ub`: one less than the bound's own.
    if let Some(&ub) = ivs.get(&v) {
        return bound(module, func, ivs, ub, depth - 1).map(|b| b.saturating_sub(1));
    }
    let ValueDef::Result { op, .. } = func.values[v].def else {
        return None;
    };
    let data = &func.ops[op];
    let rec = |w: Value| bound(module, func, ivs, w, depth - 1);
    match data.kind {
        // `n & 31`, `min(n, 31)`: no more than either known operand.
        OpKind::Binary(BinOp::And | BinOp::UMin, _) => match (rec(data.lhs()), rec(data.rhs())) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
        // `n % 32`.
        OpKind::Binary(BinOp::URem, _) => {
            let c = cucc_ir::interp::eval::mask(bits, func.const_bits(data.rhs())?);
            (c != 0).then_some(c)
        }
        OpKind::Binary(BinOp::LShr, _) => rec(data.lhs()),
        // `(n & 7) << 3`: the largest value shifted, plus one.
        OpKind::Binary(BinOp::Shl, _) => {
            let k = u32::try_from(func.const_bits(data.rhs())?).ok()?;
            let max = rec(data.lhs())?.checked_sub(1)?;
            let top = max.checked_shl(k)?;
            (k < bits && top >> k == max && top < (1u64 << bits.min(63))).then_some(top + 1)
        }
        OpKind::Select => Some(rec(data.if_true())?.max(rec(data.if_false())?)),
        OpKind::Cast(CastOp::ZExt) => rec(data.input()),
        OpKind::LaneId => Some(32),
        _ => None,
    }
}
