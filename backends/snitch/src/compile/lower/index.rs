//! Integer values as affine functions of loop numbers and parameters
//! (indices, bounds), pointers as parameter + offset, and conditions
//! decided over the loops' ranges.

use super::super::lir::{Access, Affine, ParamKind, Var};
use super::super::Diagnostic;
use super::{rejection, Lowerer};
use cucc_ir::{BinOp, CastOp, Dim, Loc, OpKind, Value, ValueDef};

impl Lowerer<'_> {
    /// The value of an `i1` computed from constants, if it is one.
    pub(super) fn condition(&mut self, v: Value) -> Option<bool> {
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            return None;
        };
        let data = &self.func.ops[op];
        let ops = data.operands.clone();
        match (&data.kind, ops.as_slice()) {
            (OpKind::Const { bits }, []) => Some(*bits & 1 == 1),
            (OpKind::Binary(BinOp::And, _), [a, b]) => {
                Some(self.condition(*a)? & self.condition(*b)?)
            }
            (OpKind::Binary(BinOp::Or, _), [a, b]) => {
                Some(self.condition(*a)? | self.condition(*b)?)
            }
            (OpKind::Binary(BinOp::Xor, _), [a, b]) => {
                Some(self.condition(*a)? ^ self.condition(*b)?)
            }
            (OpKind::Cmp(pred), [a, b]) if !pred.is_float() => {
                let loc = data.loc;
                let x = self.affine(*a, loc).ok()?;
                let y = self.affine(*b, loc).ok()?;
                let (xl, xh) = self.range(&x)?;
                let (yl, yh) = self.range(&y)?;
                use cucc_ir::CmpPred as P;
                let unsigned = matches!(pred, P::Ult | P::Ule | P::Ugt | P::Uge);
                if unsigned && (xl < 0 || yl < 0) {
                    return None;
                }
                // Decided when it holds, or fails, over the whole ranges.
                let decide = |always: bool, never: bool| match (always, never) {
                    (true, _) => Some(true),
                    (_, true) => Some(false),
                    _ => None,
                };
                match pred {
                    P::Eq => decide(xl == xh && yl == yh && xl == yl, xh < yl || yh < xl),
                    P::Ne => decide(xh < yl || yh < xl, xl == xh && yl == yh && xl == yl),
                    P::Slt | P::Ult => decide(xh < yl, xl >= yh),
                    P::Sle | P::Ule => decide(xh <= yl, xl > yh),
                    P::Sgt | P::Ugt => decide(xl > yh, xh <= yl),
                    P::Sge | P::Uge => decide(xl >= yh, xh < yl),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// For an integer comparison of values affine in one loop of constant
    /// count, undecided over its range: the iteration from which its value
    /// changes, if it changes once (`tid < s`: at `s`).
    pub(super) fn split_point(&mut self, v: Value) -> Option<(u32, u32)> {
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            return None;
        };
        let data = &self.func.ops[op];
        let OpKind::Cmp(pred) = data.kind else {
            return None;
        };
        let (a, b, loc) = (data.lhs(), data.rhs(), data.loc);
        if pred.is_float() {
            return None;
        }
        let x = self.affine(a, loc).ok()?;
        let y = self.affine(b, loc).ok()?;
        let mut loop_id = None;
        for &(var, _) in x.terms.iter().chain(&y.terms) {
            match (var, loop_id) {
                (Var::Loop(l), None) => loop_id = Some(l),
                (Var::Loop(l), Some(m)) if l == m => {}
                _ => return None,
            }
        }
        let l = loop_id?;
        let n = *self.counts.get(&l)?;
        if n > 1 << 20 {
            return None;
        }
        let at = |a: &Affine, i: i64| a.constant + a.coeff(Var::Loop(l)) * i;
        use cucc_ir::CmpPred as P;
        let holds = |i: i64| {
            let (x, y) = (at(&x, i), at(&y, i));
            let (ux, uy) = (x as u64, y as u64);
            match pred {
                P::Eq => x == y,
                P::Ne => x != y,
                P::Slt => x < y,
                P::Sle => x <= y,
                P::Sgt => x > y,
                P::Sge => x >= y,
                P::Ult => ux < uy,
                P::Ule => ux <= uy,
                P::Ugt => ux > uy,
                P::Uge => ux >= uy,
                _ => false,
            }
        };
        let first = holds(0);
        let k = (1..i64::from(n)).find(|&i| holds(i) != first)?;
        (k..i64::from(n))
            .all(|i| holds(i) != first)
            .then_some((l, k as u32))
    }

    /// The least and greatest values of `a` over the loops' iterations
    /// (loops of constant count only; parameters are unknown).
    pub(super) fn range(&self, a: &Affine) -> Option<(i64, i64)> {
        super::locals::bounds(a, &self.counts)
    }

    pub(super) fn pointer(&mut self, v: Value, loc: Loc) -> Result<Access, Diagnostic> {
        if let Some(a) = self.ptrs.get(&v) {
            return Ok(a.clone());
        }
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            return Err(self.err(loc, "pointer", "not a kernel parameter"));
        };
        let data = &self.func.ops[op];
        let at = data.loc;
        let access = match &data.kind {
            OpKind::PtrIndex { elem } => {
                let size = self.module.types.size_of(*elem) as i64;
                let base = self.pointer(data.ptr(), at)?;
                let index = self.affine(data.index(), at)?;
                let offset = base
                    .offset
                    .add_scaled(&index, size)
                    .ok_or_else(|| self.err(at, "address", "offset overflows"))?;
                Access {
                    buf: base.buf,
                    offset,
                }
            }
            // The same address in another space (the frontends' generic
            // pointers to a `ptr<global>` parameter).
            OpKind::Cast(CastOp::SpaceCast) => self.pointer(data.input(), at)?,
            OpKind::Cast(CastOp::IntToPtr) => self.address(data.input(), at)?,
            OpKind::Alloca { .. } | OpKind::DynamicShared if self.local_top.is_some() => {
                self.local_access(op, at)?
            }
            kind => {
                let (construct, why) = rejection(kind);
                return Err(self.err(
                    at,
                    &construct,
                    format!("a pointer not derived from a kernel parameter ({why})"),
                ));
            }
        };
        self.ptrs.insert(v, access.clone());
        Ok(access)
    }

    /// The access an integer address makes: a buffer's address parameter
    /// plus or minus byte offsets ([`Lowerer::address_param`]).
    pub(super) fn address(&mut self, v: Value, loc: Loc) -> Result<Access, Diagnostic> {
        if let Some(a) = self.carried_addresses.get(&v) {
            return Ok(a.clone());
        }
        let Some(&buf) = self.addresses.get(&v) else {
            return Err(self.err(
                loc,
                "inttoptr",
                "an address not derived from a kernel parameter",
            ));
        };
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            // The parameter itself (a carried address is known once its
            // loop is lowered).
            if self.func.regions[self.func.body].args.contains(&v) {
                return Ok(Access {
                    buf,
                    offset: Affine::default(),
                });
            }
            return Err(self.err(loc, "address", "an address carried in an unsupported way"));
        };
        let data = &self.func.ops[op];
        let at = data.loc;
        let (base, other, sign) = match data.kind {
            OpKind::Binary(BinOp::Add, _) if self.addresses.contains_key(&data.lhs()) => {
                (data.lhs(), data.rhs(), 1)
            }
            OpKind::Binary(BinOp::Add, _) => (data.rhs(), data.lhs(), 1),
            OpKind::Binary(BinOp::Sub, _) => (data.lhs(), data.rhs(), -1),
            _ => return Err(self.err(at, "address", "malformed address")),
        };
        let base = self.address(base, at)?;
        let off = self.affine(other, at)?;
        let offset = base
            .offset
            .add_scaled(&off, sign)
            .ok_or_else(|| self.err(at, "address", "offset overflows"))?;
        Ok(Access { buf, offset })
    }

    /// The integer value `v` as an affine function of loop numbers and
    /// parameters.
    pub(super) fn affine(&mut self, v: Value, loc: Loc) -> Result<Affine, Diagnostic> {
        if let Some(a) = self.ints.get(&v) {
            return Ok(a.clone());
        }
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            return Err(self.err(loc, "index", "a value defined outside the supported loops"));
        };
        let data = &self.func.ops[op];
        let at = data.loc;
        let non_affine = |s: &Self, what: &str| {
            s.err(
                at,
                what,
                "indices and bounds must be affine in loop variables and integer parameters",
            )
        };
        let ops = data.operands.clone();
        let a = match (&data.kind, ops.as_slice()) {
            (OpKind::Binary(BinOp::Add, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                x.add_scaled(&y, 1).ok_or_else(|| non_affine(self, "add"))?
            }
            (OpKind::Binary(BinOp::Sub, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                x.add_scaled(&y, -1)
                    .ok_or_else(|| non_affine(self, "sub"))?
            }
            (OpKind::Binary(BinOp::Mul, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                product(&x, &y).ok_or_else(|| non_affine(self, "mul of two variables"))?
            }
            (OpKind::Binary(BinOp::Shl, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                match y.as_constant() {
                    Some(s @ 0..=30) => x.scale(1 << s).ok_or_else(|| non_affine(self, "shl"))?,
                    _ => return Err(non_affine(self, "shl by a variable")),
                }
            }
            (OpKind::Cast(CastOp::SExt | CastOp::ZExt | CastOp::Trunc), [x]) => {
                self.affine(*x, at)?
            }
            (OpKind::Select, [c, x, y]) => match self.condition(*c) {
                Some(true) => self.affine(*x, at)?,
                Some(false) => self.affine(*y, at)?,
                None => {
                    self.undecided = true;
                    return Err(self.err(
                        at,
                        "select",
                        "a choice made at run time (a bound clamped by a guard that does not hold for every iteration) is not affine",
                    ));
                }
            },
            // A constant not visited yet (a `while` condition evaluated
            // before its region is lowered).
            (OpKind::Const { bits }, []) => match self.ty(v) {
                cucc_ir::Type::Int(w) => Affine::constant(sign_extend(*bits, *w)),
                _ => return Err(non_affine(self, "const")),
            },
            (OpKind::GridDim(d), []) => match self.launch {
                Some(l) => Affine::constant(i64::from(l.grid[d.index()])),
                None => Affine::var(Var::Param(self.implicit(ParamKind::GridDim(dim(*d))))),
            },
            (OpKind::BlockDim(d), []) => match self.launch {
                Some(l) => Affine::constant(i64::from(l.block[d.index()])),
                None => Affine::var(Var::Param(self.implicit(ParamKind::BlockDim(dim(*d))))),
            },
            (OpKind::Load { .. }, _) => {
                return Err(self.err(
                    at,
                    "data-dependent indexing",
                    "an index or bound read from memory is not affine",
                ))
            }
            // Other integer ops of constants (the launch shape and the
            // integer arguments are constants): folded at the op's width.
            (OpKind::Binary(b, _), [x, y]) => {
                let width = match self.ty(v) {
                    cucc_ir::Type::Int(w) => *w,
                    _ => return Err(non_affine(self, b.name())),
                };
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                match (x.as_constant(), y.as_constant()) {
                    (Some(x), Some(y)) => match fold(*b, x, y, width) {
                        Some(c) => Affine::constant(c),
                        None => return Err(non_affine(self, b.name())),
                    },
                    _ => return Err(non_affine(self, b.name())),
                }
            }
            (kind, _) => {
                let (construct, why) = rejection(kind);
                return Err(self.err(at, &construct, why));
            }
        };
        self.ints.insert(v, a.clone());
        Ok(a)
    }
}

/// `x b y` for integers of `width` bits, as a signed value; `None` when it
/// is undefined (division by zero, a shift by the width or more).
fn fold(b: BinOp, x: i64, y: i64, width: u8) -> Option<i64> {
    let w = u32::from(width.clamp(1, 64));
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let (ux, uy) = (x as u64 & mask, y as u64 & mask);
    let (sx, sy) = (sign_extend(ux, width), sign_extend(uy, width));
    let r: u64 = match b {
        BinOp::SDiv => sx.checked_div(sy)? as u64,
        BinOp::SRem => sx.checked_rem(sy)? as u64,
        BinOp::UDiv => ux.checked_div(uy)?,
        BinOp::URem => ux.checked_rem(uy)?,
        BinOp::And => ux & uy,
        BinOp::Or => ux | uy,
        BinOp::Xor => ux ^ uy,
        BinOp::LShr if uy < u64::from(w) => ux >> uy,
        BinOp::AShr if uy < u64::from(w) => (sx >> uy) as u64,
        BinOp::SMin => sx.min(sy) as u64,
        BinOp::SMax => sx.max(sy) as u64,
        BinOp::UMin => ux.min(uy),
        BinOp::UMax => ux.max(uy),
        _ => return None,
    };
    Some(sign_extend(r & mask, width))
}

fn dim(d: Dim) -> u8 {
    d.index() as u8
}

pub(super) fn sign_extend(bits: u64, width: u8) -> i64 {
    if width >= 64 {
        return bits as i64;
    }
    let shift = 64 - u32::from(width);
    ((bits << shift) as i64) >> shift
}

/// `x · y` when one side is a constant or `k · parameter` and the other
/// has no parameter terms.
pub(super) fn product(x: &Affine, y: &Affine) -> Option<Affine> {
    if let Some(c) = x.as_constant() {
        return y.scale(c);
    }
    if let Some(c) = y.as_constant() {
        return x.scale(c);
    }
    let single_param = |a: &Affine| match a.terms.as_slice() {
        [(Var::Param(p), k)] if a.constant == 0 => Some((*p, *k)),
        _ => None,
    };
    let (p, k, other) = match (single_param(x), single_param(y)) {
        (Some((p, k)), _) => (p, k, y),
        (_, Some((p, k))) => (p, k, x),
        _ => return None,
    };
    let mut out = Affine::default();
    let pk = Affine {
        constant: 0,
        terms: vec![(Var::Param(p), k)],
    };
    out = out.add_scaled(&pk, other.constant)?;
    for &(v, c) in &other.terms {
        let Var::Loop(l) = v else { return None };
        let t = Affine {
            constant: 0,
            terms: vec![(Var::LoopParam(l, p), k)],
        };
        out = out.add_scaled(&t, c)?;
    }
    Some(out)
}
