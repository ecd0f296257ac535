//! Shared addresses as affine functions of the loop indices, for bounding
//! speculated loads.
//!
//! PTX addresses shared memory in bytes: nvcc writes `t[ty][tx]` as
//! `ty * 64 + tx * 4` (or `(ty << 6) + (tx << 2)`) in one 32-bit sum, often
//! without the no-wrap flags the source path's indices carry. So a term
//! may hold several loop indices with coefficients, products and shifts by
//! constants, and 32-bit arithmetic that may wrap. Wrapping sums are still
//! exact where their mathematical value fits 32 bits (they are equal
//! modulo 2^32), so such a value is recorded as an obligation: the bounds
//! check proves, or tests at run time, that it stays within `i32`.

use super::{inside_loop, iv_bound};
use cucc_ir::{
    ArithFlags, BinOp, Builder, CastOp, Function, Op, OpKind, Space, Type, Types, Value, ValueDef,
};

/// How deep [`lin`] follows a value's definition.
const MAX_DEPTH: u32 = 10;

/// A shared address `alloca + Σ scale·index`: the alloca's size, the terms
/// and the 32-bit values that must not wrap for the terms to be exact.
pub(super) struct Address {
    pub size: i64,
    pub terms: Vec<(Lin, i64)>,
    pub narrow: Vec<Lin>,
}

/// `Σ coef·iv + Σ coef·invariant + c` (invariants defined outside the
/// loop), equal to the value it describes modulo 2^width; `wraps` when
/// it may differ from it (a 32-bit op without `nsw` on the way).
#[derive(Clone, Default)]
pub(super) struct Lin {
    pub ivs: Vec<(Value, i64)>,
    pub parts: Vec<(Value, i64)>,
    pub c: i64,
    pub wraps: bool,
}

impl Lin {
    fn scaled(mut self, k: i64) -> Option<Lin> {
        for (_, s) in self.ivs.iter_mut().chain(self.parts.iter_mut()) {
            *s = s.checked_mul(k)?;
        }
        self.c = self.c.checked_mul(k)?;
        Some(self)
    }

    fn plus(mut self, other: Lin, sign: i64) -> Option<Lin> {
        for (v, s) in other.ivs {
            let s = s.checked_mul(sign)?;
            match self.ivs.iter_mut().find(|(w, _)| *w == v) {
                Some((_, t)) => *t = t.checked_add(s)?,
                None => self.ivs.push((v, s)),
            }
        }
        for (v, s) in other.parts {
            self.parts.push((v, s.checked_mul(sign)?));
        }
        self.c = self.c.checked_add(other.c.checked_mul(sign)?)?;
        self.wraps |= other.wraps;
        Some(self)
    }
}

/// Decomposes `ptr` into a shared alloca outside `p` and affine terms
/// (`None` if it is anything else).
pub(super) fn address(types: &Types, func: &Function, p: Op, mut ptr: Value) -> Option<Address> {
    let mut terms = Vec::new();
    let mut narrow = Vec::new();
    for _ in 0..16 {
        let d = func.defining_op(ptr)?;
        let data = &func.ops[d];
        match data.kind {
            OpKind::PtrIndex { elem } => {
                let scale = i64::try_from(types.size_of(elem)).ok()?;
                let idx = data.index();
                let mut l = lin(types, func, p, idx, 0, &mut narrow)?;
                if l.wraps {
                    // A 32-bit index is read as signed: exact when it fits.
                    narrow.push(l.clone());
                    l.wraps = false;
                }
                terms.push((l, scale));
                ptr = data.ptr();
            }
            OpKind::Alloca {
                space: Space::Shared,
                ty,
            } => {
                if inside_loop(func, p, d) {
                    return None;
                }
                let size = i64::try_from(types.size_of(ty)).ok()?;
                return Some(Address {
                    size,
                    terms,
                    narrow,
                });
            }
            _ => return None,
        }
    }
    None
}

/// `v` as a [`Lin`]: constants, ivs of `p` (or of `for`s in it that count
/// from 0 by 1), values defined outside `p`, and `sext`s, sums,
/// differences, products and left shifts by constants of those. 64-bit
/// ops must be `nsw`; a 32-bit op without it makes the result `wraps`,
/// and a `sext` of such a value records it in `narrow`.
pub(super) fn lin(
    types: &Types,
    func: &Function,
    p: Op,
    v: Value,
    depth: u32,
    narrow: &mut Vec<Lin>,
) -> Option<Lin> {
    if depth > MAX_DEPTH {
        return None;
    }
    let width = match types[func.value_type(v)] {
        Type::Int(w) => w,
        _ => return None,
    };
    if iv_bound(func, p, v).is_some() {
        return Some(Lin {
            ivs: vec![(v, 1)],
            ..Lin::default()
        });
    }
    if let Some(bits) = func.const_bits(v) {
        let sh = 64 - u32::from(width).min(64);
        let c = ((bits << sh) as i64) >> sh;
        return Some(Lin {
            c,
            ..Lin::default()
        });
    }
    let body = func.ops[p].body();
    let outside = match func.values[v].def {
        ValueDef::Arg { region, .. } => {
            let mut walk = Vec::new();
            func.walk_region(body, &mut walk);
            region != body
                && !walk
                    .iter()
                    .any(|&(_, o)| func.ops[o].regions.contains(&region))
        }
        ValueDef::Result { op, .. } => !inside_loop(func, p, op),
    };
    if outside {
        return matches!(width, 32 | 64).then(|| Lin {
            parts: vec![(v, 1)],
            ..Lin::default()
        });
    }
    let def = func.defining_op(v)?;
    let data = &func.ops[def];
    let constant = |x: Value| {
        func.const_bits(x).map(|b| {
            let sh = 64 - u32::from(width).min(64);
            ((b << sh) as i64) >> sh
        })
    };
    let mut sub = |x: Value| lin(types, func, p, x, depth + 1, narrow);
    let (mut out, nsw) = match data.kind {
        OpKind::Cast(CastOp::SExt) => {
            let from = func.value_type(data.input());
            if !matches!(types[from], Type::Int(32)) {
                return None;
            }
            let mut inner = sub(data.input())?;
            if inner.wraps {
                narrow.push(inner.clone());
                inner.wraps = false;
            }
            return Some(inner);
        }
        OpKind::Binary(op @ (BinOp::Add | BinOp::Sub), flags) => {
            let a = sub(data.lhs())?;
            let b = sub(data.rhs())?;
            let sign = if op == BinOp::Sub { -1 } else { 1 };
            (a.plus(b, sign)?, flags.nsw)
        }
        OpKind::Binary(BinOp::Mul, flags) => {
            let [x, y] = [data.lhs(), data.rhs()];
            let (l, k) = match (constant(x), constant(y)) {
                (_, Some(k)) => (sub(x)?, k),
                (Some(k), None) => (sub(y)?, k),
                (None, None) => return None,
            };
            (l.scaled(k)?, flags.nsw)
        }
        OpKind::Binary(BinOp::Shl, flags) => {
            let k = constant(data.rhs())?;
            if !(0..i64::from(width).min(62)).contains(&k) {
                return None;
            }
            (sub(data.lhs())?.scaled(1i64 << k)?, flags.nsw)
        }
        _ => return None,
    };
    if !nsw {
        // Only 32-bit wrapping is accounted for (by the `i32` range).
        if width != 32 {
            return None;
        }
        out.wraps = true;
    }
    Some(out)
}

/// Largest coefficient [`materialize`] multiplies by, so that no product
/// of a 32-bit value (and no sum of [`MAX_TERMS`] of them) overflows `i64`.
const MAX_COEF: i64 = 1 << 26;

/// Most terms [`materialize`] adds.
const MAX_TERMS: usize = 16;

/// `l` computed in `i64` with `nsw` ops at the builder's position (its
/// values sign-extended), or `None` if it has too many terms or too large
/// coefficients to be exact.
pub(super) fn materialize(b: &mut Builder<'_>, l: &Lin) -> Option<Value> {
    let terms: Vec<(Value, i64)> = l.ivs.iter().chain(&l.parts).copied().collect();
    if terms.len() > MAX_TERMS || terms.iter().any(|&(_, k)| k.abs() > MAX_COEF) {
        return None;
    }
    if l.c.abs() > i64::MAX / 4 {
        return None;
    }
    let i64t = b.types.i64();
    let nsw = ArithFlags::NSW;
    let mut acc: Option<Value> = None;
    for (v, k) in terms {
        if k == 0 {
            continue;
        }
        let w = match b.types[b.func.value_type(v)] {
            Type::Int(64) => v,
            Type::Int(32) => b.cast(CastOp::SExt, v, i64t),
            _ => return None,
        };
        let term = if k == 1 {
            w
        } else {
            let kv = b.i64(k);
            b.binary_flags(BinOp::Mul, nsw, w, kv)
        };
        acc = Some(match acc {
            None => term,
            Some(a) => b.binary_flags(BinOp::Add, nsw, a, term),
        });
    }
    let c = b.i64(l.c);
    Some(match acc {
        None => c,
        Some(a) if l.c == 0 => a,
        Some(a) => b.binary_flags(BinOp::Add, nsw, a, c),
    })
}
