//! `nsw-ranges`: integer arithmetic whose operands' value ranges prove it
//! cannot overflow is flagged `nsw`, and a left shift by a constant so
//! proved becomes an `nsw` multiplication.
//!
//! PTX wraps: nvcc's byte offsets into shared memory are `shl.b32 %r, tx,
//! 2` and `add.s32` of such terms, so the JIT's sign-extended index is not
//! affine to the C compiler (`(int64_t)(int32_t)(ty * 64 + tx * 4)` may
//! have wrapped) and the loop over `tx` neither vectorises nor strength
//! reduces, where the same kernel from source (signed `int` arithmetic,
//! `nsw` from clang) does both. CUDA bounds the values involved: thread
//! ids below 1024 (z: 64), block ids below 2^31 - 1 (y, z: 65535), lanes
//! below 32. An interval per integer value, from those, constants and the
//! ops below, shows `ty * 64 + tx * 4` within 32 bits, so it may be
//! written as 64-bit arithmetic on the widened operands (the emitter's
//! reading of `nsw`). Values the analysis cannot bound (parameters,
//! loads, loop-carried values) take their type's whole range, so nothing
//! that may wrap is flagged.

use crate::passes::entry::{parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::{
    ArithFlags, BinOp, Builder, CastOp, Dim, FuncId, Function, Module, Op, OpKind, Region, Types,
    Value,
};
use std::collections::HashMap;

/// Name in remarks and the pipeline.
const PASS: &str = "nsw-ranges";

/// A closed interval of signed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    lo: i128,
    hi: i128,
}

impl Range {
    fn new(lo: i128, hi: i128) -> Range {
        Range { lo, hi }
    }

    /// Every value of a `bits`-wide integer read as signed.
    fn full(bits: u8) -> Range {
        let half = 1i128 << (bits - 1);
        Range::new(-half, half - 1)
    }

    fn within(self, bits: u8) -> bool {
        let f = Range::full(bits);
        self.lo >= f.lo && self.hi <= f.hi
    }

    fn union(self, o: Range) -> Range {
        Range::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }
}

/// Interval analysis over one function's integer values (memoised).
struct Ranges<'a> {
    types: &'a Types,
    func: &'a Function,
    memo: HashMap<Value, Range>,
}

impl<'a> Ranges<'a> {
    fn bits(&self, v: Value) -> Option<u8> {
        self.types[self.func.value_type(v)]
            .int_bits()
            .filter(|&b| (1..=64).contains(&b))
    }

    /// The exact interval of binary op `b` on operand ranges, `None` when
    /// the op is not one this analysis follows.
    fn exact(b: BinOp, x: Range, y: Range, rhs_const: Option<i128>) -> Option<Range> {
        let corners = |f: fn(i128, i128) -> i128| {
            let c = [f(x.lo, y.lo), f(x.lo, y.hi), f(x.hi, y.lo), f(x.hi, y.hi)];
            let lo = c.iter().copied().min().unwrap_or(0);
            let hi = c.iter().copied().max().unwrap_or(0);
            Range::new(lo, hi)
        };
        Some(match b {
            BinOp::Add => Range::new(x.lo + y.lo, x.hi + y.hi),
            BinOp::Sub => Range::new(x.lo - y.hi, x.hi - y.lo),
            BinOp::Mul => {
                // Operands are at most 64 bits: products fit 128.
                corners(|a, b| a * b)
            }
            BinOp::Shl => {
                let c = rhs_const.filter(|c| (0..63).contains(c))?;
                Range::new(x.lo << c, x.hi << c)
            }
            BinOp::AShr => {
                let c = rhs_const.filter(|c| (0..64).contains(c))?;
                Range::new(x.lo >> c, x.hi >> c)
            }
            BinOp::LShr if x.lo >= 0 => {
                let c = rhs_const.filter(|c| (0..64).contains(c))?;
                Range::new(x.lo >> c, x.hi >> c)
            }
            BinOp::And if x.lo >= 0 || y.lo >= 0 => {
                let hi = match (x.lo >= 0, y.lo >= 0) {
                    (true, true) => x.hi.min(y.hi),
                    (true, false) => x.hi,
                    _ => y.hi,
                };
                Range::new(0, hi)
            }
            BinOp::UDiv | BinOp::SDiv if x.lo >= 0 => {
                let k = rhs_const.filter(|&k| k > 0)?;
                Range::new(x.lo / k, x.hi / k)
            }
            BinOp::URem | BinOp::SRem if x.lo >= 0 => {
                let k = rhs_const.filter(|&k| k > 0)?;
                Range::new(0, x.hi.min(k - 1))
            }
            BinOp::SMin => Range::new(x.lo.min(y.lo), x.hi.min(y.hi)),
            BinOp::SMax => Range::new(x.lo.max(y.lo), x.hi.max(y.hi)),
            _ => return None,
        })
    }

    fn range(&mut self, v: Value, depth: u32) -> Option<Range> {
        let bits = self.bits(v)?;
        if let Some(&r) = self.memo.get(&v) {
            return Some(r);
        }
        let r = self.compute(v, bits, depth).unwrap_or(Range::full(bits));
        // A result outside its type means the op may wrap: any value.
        let r = if r.within(bits) { r } else { Range::full(bits) };
        self.memo.insert(v, r);
        Some(r)
    }

    fn compute(&mut self, v: Value, bits: u8, depth: u32) -> Option<Range> {
        if depth == 0 {
            return None;
        }
        let op = self.func.defining_op(v)?;
        let data = &self.func.ops[op];
        let dim_limit = |d: Dim, xy: i128, z: i128| if d == Dim::Z { z } else { xy };
        match &data.kind {
            OpKind::Const { bits: raw } => {
                let shift = 64 - u32::from(bits);
                let k = ((raw << shift) as i64) >> shift;
                Some(Range::new(i128::from(k), i128::from(k)))
            }
            OpKind::ThreadId(d) => Some(Range::new(0, dim_limit(*d, 1023, 63))),
            OpKind::BlockDim(d) => Some(Range::new(1, dim_limit(*d, 1024, 64))),
            OpKind::BlockId(d) => Some(Range::new(
                0,
                if *d == Dim::X { (1 << 31) - 2 } else { 65534 },
            )),
            OpKind::GridDim(d) => Some(Range::new(
                1,
                if *d == Dim::X { (1 << 31) - 1 } else { 65535 },
            )),
            OpKind::LaneId => Some(Range::new(0, 31)),
            OpKind::WarpSize => Some(Range::new(32, 32)),
            OpKind::Select => {
                let (a, b) = (data.if_true(), data.if_false());
                let x = self.range(a, depth - 1)?;
                let y = self.range(b, depth - 1)?;
                Some(x.union(y))
            }
            OpKind::Cast(c) => {
                let src = data.input();
                let sbits = self.bits(src)?;
                let x = self.range(src, depth - 1)?;
                match c {
                    CastOp::SExt => Some(x),
                    CastOp::ZExt if sbits == 1 => Some(Range::new(0, 1)),
                    CastOp::ZExt if x.lo >= 0 => Some(x),
                    CastOp::ZExt => Some(Range::new(0, (1i128 << sbits) - 1)),
                    CastOp::Trunc if x.within(bits) => Some(x),
                    _ => None,
                }
            }
            OpKind::Binary(b, flags) => {
                let (a, c) = (data.lhs(), data.rhs());
                let (b, nsw) = (*b, flags.nsw);
                let x = self.range(a, depth - 1)?;
                let y = self.range(c, depth - 1)?;
                let k = self.func.const_bits(c).map(|raw| {
                    let shift = 64 - u32::from(bits);
                    i128::from(((raw << shift) as i64) >> shift)
                });
                let r = Self::exact(b, x, y, k)?;
                if nsw && b.takes_nsw() {
                    // Overflow is undefined: the result lies in the type.
                    let f = Range::full(bits);
                    return Some(Range::new(r.lo.max(f.lo), r.hi.min(f.hi)));
                }
                Some(r)
            }
            _ => None,
        }
    }
}

/// Flags the add, sub and mul ops of function `fid` that cannot overflow
/// `nsw`, and turns `shl x, c` that cannot into `mul nsw x, 2^c`; returns
/// how many ops changed.
pub fn nsw_ranges(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let (types, func) = parts(module, fid);
    let mut flag: Vec<Op> = Vec::new();
    let mut shifts: Vec<(Region, Op, i128)> = Vec::new();
    {
        let mut r = Ranges {
            types,
            func,
            memo: HashMap::new(),
        };
        for (region, op) in func.walk() {
            let OpKind::Binary(b, flags) = func.ops[op].kind else {
                continue;
            };
            let Some(&res) = func.ops[op].results.first() else {
                continue;
            };
            let Some(bits) = r.bits(res).filter(|&b| b >= 8) else {
                continue;
            };
            let wants = (b.takes_nsw() && !flags.nsw) || b == BinOp::Shl;
            if !wants {
                continue;
            }
            let (a, c) = (func.ops[op].lhs(), func.ops[op].rhs());
            let (Some(x), Some(y)) = (r.range(a, 64), r.range(c, 64)) else {
                continue;
            };
            let k = func.const_bits(c).map(|raw| {
                let shift = 64 - u32::from(bits);
                i128::from(((raw << shift) as i64) >> shift)
            });
            let Some(exact) = Ranges::exact(b, x, y, k) else {
                continue;
            };
            if !exact.within(bits) {
                continue;
            }
            match (b, k) {
                (BinOp::Shl, Some(c)) if c < i128::from(bits) - 1 => shifts.push((region, op, c)),
                (BinOp::Shl, _) => {}
                _ => flag.push(op),
            }
        }
    }
    for &op in &flag {
        if let OpKind::Binary(_, flags) = &mut func.ops[op].kind {
            flags.nsw = true;
        }
    }
    for &(region, op, c) in &shifts {
        let ty = func.value_type(func.ops[op].rhs());
        let factor = {
            let mut b = Builder::new(types, func);
            b.set_loc(b.func.ops[op].loc);
            b.set_insertion_before(region, op);
            b.const_int(ty, 1i64 << c)
        };
        func.ops[op].kind = OpKind::Binary(BinOp::Mul, ArithFlags::NSW);
        func.ops[op].set_rhs(factor);
    }
    let n = flag.len() + shifts.len();
    if n > 0 {
        let loc = func.loc;
        remarks.add_on(
            PASS,
            func,
            loc,
            format!(
                "{} op(s) proved not to overflow by the ranges of their operands flagged `nsw` ({} left shift(s) made multiplications)",
                n,
                shifts.len()
            ),
        );
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_of_the_followed_ops() {
        let tx = Range::new(0, 1023);
        let four = Range::new(4, 4);
        assert_eq!(
            Ranges::exact(BinOp::Mul, tx, four, Some(4)),
            Some(Range::new(0, 4092))
        );
        assert_eq!(
            Ranges::exact(BinOp::Shl, tx, Range::new(2, 2), Some(2)),
            Some(Range::new(0, 4092))
        );
        assert_eq!(
            Ranges::exact(BinOp::Sub, tx, Range::new(1, 1), Some(1)),
            Some(Range::new(-1, 1022))
        );
        // A mask bounds any value, a remainder a non-negative one.
        assert_eq!(
            Ranges::exact(BinOp::And, Range::full(32), Range::new(15, 15), Some(15)),
            Some(Range::new(0, 15))
        );
        assert_eq!(
            Ranges::exact(BinOp::URem, tx, Range::new(32, 32), Some(32)),
            Some(Range::new(0, 31))
        );
        assert_eq!(
            Ranges::exact(BinOp::URem, Range::full(32), Range::new(32, 32), Some(32)),
            None
        );
        // Shifts by a run-time amount are not followed.
        assert_eq!(Ranges::exact(BinOp::Shl, tx, tx, None), None);
        // Products of block-wide values leave 32 bits.
        let bx = Range::new(0, (1 << 31) - 2);
        let bd = Range::new(1, 1024);
        let p = Ranges::exact(BinOp::Mul, bx, bd, None).expect("followed");
        assert!(!p.within(32) && p.within(64));
        assert!(Range::new(i128::from(i32::MIN), i128::from(i32::MAX)).within(32));
        assert!(!Range::new(0, 1 << 31).within(32));
    }
}
