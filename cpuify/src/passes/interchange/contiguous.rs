//! The profitability test of `interchange`: every access of a moved loop
//! must touch, across consecutive threads of the innermost thread loop,
//! the same address (uniform) or consecutive elements, possibly chosen at
//! the block's edges (`x == 0 ? c : c - 1`): the C compiler vectorises
//! the first two, and the third keeps the locality of consecutive
//! elements where a carried march walked memory with a large stride. A
//! gather through loaded indices, a texture fetch or an atomic gains
//! nothing from running threads innermost and pays for the per-thread
//! arrays (cfd's flux loop ran about 3x slower interchanged).

use crate::passes::uniform::Uniformity;
use cucc_ir::{BinOp, CastOp, Function, Module, Op, OpData, OpKind, Space, Value};

/// Operand chains deeper than this are not followed.
const DEPTH: u32 = 16;

/// Why the accesses of loop `l` in thread loop `p` do not run across
/// threads at consecutive elements (the first that is neither uniform nor
/// consecutive in the x thread index, an atomic or a texture fetch), or
/// `None`.
pub(super) fn not_contiguous(
    module: &Module,
    func: &Function,
    u: &Uniformity,
    p: Op,
    l: Op,
) -> Option<String> {
    let body = func.ops[p].body();
    let ivs = &func.regions[body].args;
    let tx = ivs[0];
    let mut walk = Vec::new();
    for &r in &func.ops[l].regions {
        func.walk_region(r, &mut walk);
    }
    let t = Threads {
        func,
        u,
        tx,
        others: &ivs[1..],
    };
    for (_, op) in walk {
        let data = &func.ops[op];
        let (ptr, elem) = match data.kind {
            OpKind::Load { .. } => (
                data.ptr(),
                module.types.size_of(func.value_type(data.results[0])),
            ),
            OpKind::Store { .. } => (
                data.ptr(),
                module.types.size_of(func.value_type(data.value())),
            ),
            OpKind::AtomicRmw { .. }
            | OpKind::AtomicCas { .. }
            | OpKind::TexFetch(_)
            | OpKind::Memcpy
            | OpKind::Memset => {
                return Some(format!(
                    "its `{}` ({}) does not vectorise across threads",
                    data.kind.mnemonic(),
                    module.describe_loc(data.loc)
                ))
            }
            _ => continue,
        };
        if module.types[func.value_type(ptr)].ptr_space() == Some(Space::Private)
            || u.is_uniform(ptr)
            || t.consecutive(ptr, elem)
        {
            continue;
        }
        return Some(format!(
            "its `{}` ({}) reads or writes elements that are not consecutive across \
             threads (a gather or a stride)",
            data.kind.mnemonic(),
            module.describe_loc(data.loc)
        ));
    }
    None
}

/// A thread loop's x index `tx` and its other indices.
struct Threads<'a> {
    func: &'a Function,
    u: &'a Uniformity,
    tx: Value,
    others: &'a [Value],
}

impl<'a> Threads<'a> {
    /// True if pointer `ptr` is `ptr.index T %base, %i` with `%base`
    /// uniform and `%i` consecutive in `tx` ([`Self::plus_tx`]), or (PTX's
    /// integer addresses) `inttoptr` of a byte address that moves by the
    /// access size `elem` per thread ([`Self::bytes_plus_tx`]).
    fn consecutive(&self, ptr: Value, elem: u64) -> bool {
        let Some(d) = self.func.defining_op(ptr) else {
            return false;
        };
        let data = &self.func.ops[d];
        match data.kind {
            OpKind::PtrIndex { .. } => {
                self.u.is_uniform(data.ptr()) && self.plus_tx(data.index(), DEPTH)
            }
            OpKind::Cast(CastOp::IntToPtr) => {
                elem > 0 && self.bytes_plus_tx(data.input(), elem, DEPTH)
            }
            _ => false,
        }
    }

    /// The op defining `v` and its data, while `depth` allows looking
    /// through one more definition.
    fn defined_within(&self, v: Value, depth: u32) -> Option<(Op, &'a OpData)> {
        if depth == 0 {
            return None;
        }
        let d = self.func.defining_op(v)?;
        Some((d, &self.func.ops[d]))
    }

    /// True if `v` is terms free of `tx` plus `elem * i` (a `mul` by the
    /// constant or a `shl` by its log) with `i` consecutive in `tx`.
    fn bytes_plus_tx(&self, v: Value, elem: u64, depth: u32) -> bool {
        let func = self.func;
        let Some((d, data)) = self.defined_within(v, depth) else {
            return false;
        };
        let scaled =
            |i: Value, c: Value| func.const_bits(c) == Some(elem) && self.plus_tx(i, depth - 1);
        match data.kind {
            OpKind::Binary(BinOp::Add | BinOp::Sub, _) => {
                self.sum_with(d, depth, &|x, dd| self.bytes_plus_tx(x, elem, dd))
            }
            OpKind::Binary(BinOp::Mul, _) => {
                let (a, b) = (data.lhs(), data.rhs());
                scaled(a, b) || scaled(b, a)
            }
            OpKind::Binary(BinOp::Shl, _) => func.const_bits(data.rhs()).is_some_and(|k| {
                k < 63 && 1u64 << k == elem && self.plus_tx(data.lhs(), depth - 1)
            }),
            _ => false,
        }
    }

    /// True if `v` is `tx` plus terms that do not depend on `tx` (through
    /// `add`, `sub` of such a term, and integer casts), or an `if` or
    /// `select` each of whose choices is.
    fn plus_tx(&self, v: Value, depth: u32) -> bool {
        if v == self.tx {
            return true;
        }
        let func = self.func;
        let Some((d, data)) = self.defined_within(v, depth) else {
            return false;
        };
        match data.kind {
            OpKind::Cast(CastOp::SExt | CastOp::ZExt | CastOp::Trunc) => {
                self.plus_tx(data.input(), depth - 1)
            }
            OpKind::Binary(BinOp::Add | BinOp::Sub, _) => {
                self.sum_with(d, depth, &|x, dd| self.plus_tx(x, dd))
            }
            OpKind::Select => {
                self.plus_tx(data.if_true(), depth - 1) && self.plus_tx(data.if_false(), depth - 1)
            }
            OpKind::If => {
                let Some(k) = data.results.iter().position(|&r| r == v) else {
                    return false;
                };
                data.regions.iter().all(|&r| {
                    func.regions[r]
                        .ops
                        .last()
                        .and_then(|&y| func.ops[y].values().get(k))
                        .is_some_and(|&x| self.plus_tx(x, depth - 1))
                })
            }
            _ => false,
        }
    }

    /// For `add`/`sub` op `d`: true if one term (the first of a `sub`)
    /// satisfies `term` and the other does not depend on `tx`.
    fn sum_with(&self, d: Op, depth: u32, term: &dyn Fn(Value, u32) -> bool) -> bool {
        let data = &self.func.ops[d];
        let (a, b) = (data.lhs(), data.rhs());
        let free = |x| self.free_of_tx(x, depth - 1);
        match data.kind {
            OpKind::Binary(BinOp::Sub, _) => free(b) && term(a, depth - 1),
            _ => (free(a) && term(b, depth - 1)) || (free(b) && term(a, depth - 1)),
        }
    }

    /// True if `v` does not depend on `tx`: uniform, another index of the
    /// thread loop, or a pure op (no region, no memory) of such values.
    fn free_of_tx(&self, v: Value, depth: u32) -> bool {
        if self.u.is_uniform(v) || self.others.contains(&v) {
            return true;
        }
        if depth == 0 || v == self.tx {
            return false;
        }
        let Some(d) = self.func.defining_op(v) else {
            return false;
        };
        let data = &self.func.ops[d];
        data.regions.is_empty()
            && matches!(
                data.kind,
                OpKind::Binary(..) | OpKind::Unary(_) | OpKind::Cast(_) | OpKind::Const { .. }
            )
            && data.operands.iter().all(|&o| self.free_of_tx(o, depth - 1))
    }
}
