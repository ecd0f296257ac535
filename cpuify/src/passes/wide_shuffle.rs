//! Paired 32-bit shuffles of a 64-bit value's halves become one 64-bit
//! shuffle (part of `canonicalize`).
//!
//! PTX shuffles only 32-bit registers, so nvcc writes
//! `__shfl_down_sync(m, double, d)` as two `shfl.sync` of the value's low
//! and high words put back together by `bfi.b64` (or `mov.b64 {lo, hi}`):
//!
//! ```text
//! lo = trunc x              hi = trunc (lshr x, 32)
//! a  = shuffle m, lo, d, w  b  = shuffle m, hi, d, w
//! r  = or (and (zext a), 0xffffffff), (and (shl (zext b), 32), 0xffffffff00000000)
//! ```
//!
//! Both shuffles read the same source lane (same mode, mask, lane
//! operand and width), so `r` is exactly `shuffle m, x, d, w` on the
//! 64-bit value. One shuffle is half the warp traffic, and the warp pass
//! turns one shuffle into one per-lane array instead of two plus the
//! packing (the CUDA-source path already shuffles doubles whole). The
//! rewrite needs the two shuffles and the packing in one region, and every
//! op between a shuffle and the `or` used by nothing else; it then removes
//! them all.

use cucc_ir::edit::{remove_ops, replace_all_uses, uses};
use cucc_ir::{BinOp, CastOp, Function, Op, OpKind, Region, Types, Value};
use std::collections::HashMap;

type Uses = HashMap<Value, Vec<(Op, usize)>>;

/// Fuses every matching pair in `func`; true if any was.
pub fn fuse_wide_shuffles(types: &Types, func: &mut Function) -> bool {
    let ors: Vec<(Region, Op)> = func
        .walk()
        .into_iter()
        .filter(|&(_, op)| matches!(func.ops[op].kind, OpKind::Binary(BinOp::Or, _)))
        .collect();
    if ors.is_empty() {
        return false;
    }
    let mut use_map = uses(func);
    let parents = func.parents();
    let mut changed = false;
    for (region, or) in ors {
        let Some(m) = match_pack(types, func, &use_map, or) else {
            continue;
        };
        let same_region = [m.low_shuffle, m.high_shuffle]
            .iter()
            .all(|&s| parents.region_of(s) == Some(region));
        if !same_region {
            continue;
        }
        let data = &func.ops[m.low_shuffle];
        let operands = data.operands.clone();
        let (kind, loc) = (data.kind.clone(), func.ops[or].loc);
        let result = func.ops[or].results[0];
        let ty = func.value_type(m.whole);
        let fused = func.new_op(kind, operands, &[ty], vec![], loc);
        func.ops[fused].set_shuffled(m.whole);
        let at = func.find_op(region, or);
        let Some(at) = at else {
            continue;
        };
        func.regions[region].ops.insert(at, fused);
        let fused_v = func.ops[fused].results[0];
        replace_all_uses(func, result, fused_v);
        let gone: Vec<(Region, Op)> = m
            .chain
            .iter()
            .chain(std::iter::once(&or))
            .map(|&op| (parents.region_of(op).unwrap_or(region), op))
            .collect();
        remove_ops(func, gone);
        use_map = uses(func);
        changed = true;
    }
    changed
}

/// A recognised packing of two shuffled halves.
struct Pack {
    /// The 64-bit value whose halves were shuffled.
    whole: Value,
    low_shuffle: Op,
    high_shuffle: Op,
    /// The ops between the shuffles and the `or`, shuffles included.
    chain: Vec<Op>,
}

fn int_bits(types: &Types, func: &Function, v: Value) -> Option<u8> {
    types[func.value_type(v)].int_bits()
}

/// The op defining `v` if `v` has exactly one use.
fn single_use_def(func: &Function, use_map: &Uses, v: Value) -> Option<Op> {
    if use_map.get(&v).map_or(0, Vec::len) != 1 {
        return None;
    }
    func.defining_op(v)
}

fn binary(func: &Function, op: Op, want: BinOp) -> Option<(Value, Value)> {
    let d = &func.ops[op];
    match d.kind {
        OpKind::Binary(b, _) if b == want && d.operands.len() == 2 => Some((d.lhs(), d.rhs())),
        _ => None,
    }
}

fn cast(func: &Function, op: Op, want: CastOp) -> Option<Value> {
    let d = &func.ops[op];
    match d.kind {
        OpKind::Cast(c) if c == want && d.operands.len() == 1 => Some(d.input()),
        _ => None,
    }
}

/// `v` is `and(x, mask)` (either order) with a single use: `x`, with the
/// `and` added to `chain`; otherwise `v` itself.
fn strip_mask(func: &Function, use_map: &Uses, v: Value, mask: u64, chain: &mut Vec<Op>) -> Value {
    if let Some(op) = single_use_def(func, use_map, v) {
        if let Some((a, b)) = binary(func, op, BinOp::And) {
            let x = match (func.const_bits(a), func.const_bits(b)) {
                (_, Some(m)) if m == mask => Some(a),
                (Some(m), _) if m == mask => Some(b),
                _ => None,
            };
            if let Some(x) = x {
                chain.push(op);
                return x;
            }
        }
    }
    v
}

/// The shuffle of a 32-bit value zero-extended into `v` (single uses).
fn zext_of_shuffle(
    types: &Types,
    func: &Function,
    use_map: &Uses,
    v: Value,
    chain: &mut Vec<Op>,
) -> Option<Op> {
    let z = single_use_def(func, use_map, v)?;
    let s = cast(func, z, CastOp::ZExt)?;
    if int_bits(types, func, s)? != 32 {
        return None;
    }
    let sh = single_use_def(func, use_map, s)?;
    if !matches!(func.ops[sh].kind, OpKind::Shuffle(_)) || func.ops[sh].operands.len() != 4 {
        return None;
    }
    chain.extend([z, sh]);
    Some(sh)
}

/// The low half of `packed` placed by `(zext a) & 0xffffffff` or `zext a`,
/// and the high half by `(zext b << 32) & 0xffffffff00000000` or `zext b << 32`.
fn match_pack(types: &Types, func: &Function, use_map: &Uses, or: Op) -> Option<Pack> {
    let (p, q) = binary(func, or, BinOp::Or)?;
    if int_bits(types, func, func.ops[or].results[0])? != 64 {
        return None;
    }
    for (low, high) in [(p, q), (q, p)] {
        let mut chain = Vec::new();
        let low = strip_mask(func, use_map, low, 0xffff_ffff, &mut chain);
        let high = strip_mask(func, use_map, high, 0xffff_ffff_0000_0000, &mut chain);
        let Some(shl) = single_use_def(func, use_map, high) else {
            continue;
        };
        let Some((shifted, by)) = binary(func, shl, BinOp::Shl) else {
            continue;
        };
        if func.const_bits(by) != Some(32) {
            continue;
        }
        chain.push(shl);
        let Some(ls) = zext_of_shuffle(types, func, use_map, low, &mut chain) else {
            continue;
        };
        let Some(hs) = zext_of_shuffle(types, func, use_map, shifted, &mut chain) else {
            continue;
        };
        let (l, h) = (&func.ops[ls], &func.ops[hs]);
        let same = l.kind == h.kind
            && l.mask() == h.mask()
            && l.lane() == h.lane()
            && l.width() == h.width();
        if !same {
            continue;
        }
        let Some(whole) = halves_of(types, func, l.shuffled(), h.shuffled()) else {
            continue;
        };
        return Some(Pack {
            whole,
            low_shuffle: ls,
            high_shuffle: hs,
            chain,
        });
    }
    None
}

/// The i64 `x` when `lo` is `trunc x` and `hi` is `trunc (lshr x, 32)`.
fn halves_of(types: &Types, func: &Function, lo: Value, hi: Value) -> Option<Value> {
    let x = cast(func, func.defining_op(lo)?, CastOp::Trunc)?;
    let shifted = cast(func, func.defining_op(hi)?, CastOp::Trunc)?;
    let (y, by) = binary(func, func.defining_op(shifted)?, BinOp::LShr)?;
    if x != y || func.const_bits(by) != Some(32) || int_bits(types, func, x)? != 64 {
        return None;
    }
    Some(x)
}
