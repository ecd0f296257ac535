//! Decoding an instruction's spelling into its typed form ([`crate::inst`]).
//!
//! Each opcode lists the kinds of modifiers it takes (with the values valid
//! for it), how many types and operands. A modifier of no listed kind, two
//! modifiers of one kind, or a missing type, operand or required modifier is
//! an error at the instruction naming it; an unknown opcode is an
//! `unsupported instruction`. The lowering then sees only what it can match
//! on.

use super::ast::{Operand, StateSpace};
use super::inst::*;
use super::{Error, Pos, Result};

#[cfg(test)]
mod tests;

/// A kind of modifier, with the values an opcode accepts where they vary.
#[derive(Clone, Copy)]
enum Kind {
    Type,
    Vector,
    Cmp,
    Bool,
    Mul,
    BarRed,
    Shfl,
    Vote,
    Geom,
    Dir,
    Funnel,
    Prmt,
    Testp,
    Space(&'static [StateSpace]),
    Round(&'static [Rounding]),
    Atom(&'static [AtomOp]),
    Scope(&'static [Scope]),
    Order(&'static [MemOrder]),
    Cache(&'static [CacheOp]),
    Flags(&'static [Flag]),
}

/// What an opcode takes: modifier kinds, and the least and most types and
/// operands.
struct Spec {
    kinds: &'static [Kind],
    types: (usize, usize),
    operands: (usize, usize),
}

/// The specification of each opcode, after the PTX ISA's syntax.
fn spec(op: Opcode) -> Spec {
    use crate::inst::Scope::{Cluster, Cta, Gl, Gpu, Sys};
    use AtomOp as A;
    use CacheOp::*;
    use Flag as F;
    use Kind::*;
    use MemOrder::*;
    use Opcode as O;
    use Rounding::{Rm, Rn, Rp, Rz};
    use StateSpace::{Const, Global, Local, Param, Shared};
    const SCOPES: Kind = Scope(&[Cta, Cluster, Gpu, Sys]);
    const ROUNDING: Kind = Round(&[Rn, Rz, Rm, Rp]);
    const fn atomic(ops: &'static [AtomOp]) -> [Kind; 6] {
        [
            Order(&[Relaxed, Acquire, Release, AcqRel]),
            SCOPES,
            Space(&[Global, Shared]),
            Atom(ops),
            Flags(&[F::Noftz]),
            Type,
        ]
    }
    const ATOM: [Kind; 6] = atomic(AtomOp::ALL);
    // No result, so no `cas` or `exch`.
    const RED: [Kind; 6] = atomic(&[
        A::And,
        A::Or,
        A::Xor,
        A::Add,
        A::Inc,
        A::Dec,
        A::Min,
        A::Max,
    ]);
    const ONE: (usize, usize) = (1, 1);
    const TWO: (usize, usize) = (2, 2);
    const NONE: (usize, usize) = (0, 0);
    const OPTIONAL: (usize, usize) = (0, 1);
    let s = |kinds, types, operands| Spec {
        kinds,
        types,
        operands,
    };
    match op {
        O::Mov => s(&[Type], ONE, (2, 2)),
        O::Cvta => s(
            &[
                Flags(&[F::To]),
                Space(&[Global, Const, Shared, Local, Param]),
                Type,
            ],
            ONE,
            (2, 2),
        ),
        O::Ld => s(
            &[
                Order(&[Weak, Volatile, Relaxed, Acquire]),
                SCOPES,
                Space(&[Global, Const, Shared, Local, Param]),
                Cache(&[Ca, Cg, Cs, Lu, Cv]),
                Vector,
                Flags(&[F::Nc, F::Mmio, F::Unified]),
                Type,
            ],
            ONE,
            (2, 2),
        ),
        O::Ldu => s(&[Space(&[Global]), Vector, Type], ONE, (2, 2)),
        O::St => s(
            &[
                Order(&[Weak, Volatile, Relaxed, Release]),
                SCOPES,
                Space(&[Global, Shared, Local, Param]),
                Cache(&[Wb, Cg, Cs, Wt]),
                Vector,
                Flags(&[F::Mmio]),
                Type,
            ],
            ONE,
            (2, 2),
        ),
        O::Add | O::Sub => s(
            &[ROUNDING, Flags(&[F::Ftz, F::Sat, F::Cc]), Type],
            ONE,
            (3, 3),
        ),
        O::Addc | O::Subc => s(&[Flags(&[F::Cc]), Type], ONE, (3, 3)),
        O::Mul => s(
            &[Mul, ROUNDING, Flags(&[F::Ftz, F::Sat]), Type],
            ONE,
            (3, 3),
        ),
        O::Div => s(
            &[ROUNDING, Flags(&[F::Approx, F::Full, F::Ftz]), Type],
            ONE,
            (3, 3),
        ),
        O::Rem | O::And | O::Or | O::Xor | O::Shl | O::Shr | O::Copysign => s(&[Type], ONE, (3, 3)),
        // Three sources: `min.f32 d, a, b, c` (sm_100).
        O::Min | O::Max => s(
            &[Flags(&[F::Ftz, F::NaN, F::Xorsign, F::Abs, F::Relu]), Type],
            ONE,
            (3, 4),
        ),
        O::Mad => s(
            &[Mul, ROUNDING, Flags(&[F::Ftz, F::Sat, F::Cc]), Type],
            ONE,
            (4, 4),
        ),
        O::Madc => s(&[Mul, Flags(&[F::Cc]), Type], ONE, (4, 4)),
        O::Fma => s(
            &[ROUNDING, Flags(&[F::Ftz, F::Sat, F::Relu]), Type],
            ONE,
            (4, 4),
        ),
        O::Neg | O::Abs => s(&[Flags(&[F::Ftz]), Type], ONE, (2, 2)),
        O::Not | O::Cnot | O::Popc | O::Clz | O::Brev => s(&[Type], ONE, (2, 2)),
        O::Bfind => s(&[Flags(&[F::Shiftamt]), Type], ONE, (2, 2)),
        O::Shf => s(&[Dir, Funnel, Type], OPTIONAL, (4, 4)),
        O::Bfe | O::Sad | O::Selp => s(&[Type], ONE, (4, 4)),
        O::Bfi => s(&[Type], ONE, (5, 5)),
        O::Prmt => s(&[Prmt, Type], OPTIONAL, (4, 4)),
        O::Rcp | O::Sqrt => s(&[ROUNDING, Flags(&[F::Approx, F::Ftz]), Type], ONE, (2, 2)),
        O::Rsqrt | O::Sin | O::Cos | O::Ex2 | O::Lg2 => {
            s(&[Flags(&[F::Approx, F::Ftz]), Type], ONE, (2, 2))
        }
        O::Tanh => s(&[Flags(&[F::Approx]), Type], ONE, (2, 2)),
        O::Setp => s(&[Cmp, Bool, Flags(&[F::Ftz]), Type], ONE, (3, 4)),
        O::Set => s(&[Cmp, Bool, Flags(&[F::Ftz]), Type], TWO, (3, 4)),
        O::Slct => s(&[Flags(&[F::Ftz]), Type], TWO, (4, 4)),
        O::Cvt => s(
            &[
                Round(Rounding::ALL),
                Flags(&[F::Ftz, F::Sat, F::Relu, F::Satfinite]),
                Type,
            ],
            TWO,
            (2, 3),
        ),
        O::Bar | O::Barrier => s(
            &[
                Flags(&[F::Sync, F::Arrive, F::Red, F::Warp, F::Aligned]),
                Scope(&[Cta, Cluster]),
                BarRed,
                Type,
            ],
            OPTIONAL,
            (0, 4),
        ),
        O::Membar => s(&[Scope(&[Cta, Gl, Sys])], NONE, (0, 0)),
        O::Fence => s(
            &[
                Order(&[Sc, AcqRel, Acquire, Release]),
                SCOPES,
                Flags(&[F::Proxy, F::Alias, F::Async]),
                Space(&[Global]),
            ],
            NONE,
            (0, 0),
        ),
        O::Atom => s(&ATOM, ONE, (3, 4)),
        O::Red => s(&RED, ONE, (2, 2)),
        O::Shfl => s(&[Flags(&[F::Sync]), Shfl, Type], OPTIONAL, (5, 5)),
        O::Vote => s(&[Flags(&[F::Sync]), Vote, Type], OPTIONAL, (3, 3)),
        O::Dp4a => s(&[Type], TWO, (4, 4)),
        O::Dp2a => s(&[Mul, Type], TWO, (4, 4)),
        // `match.any` and `match.all` (the vote modes' spelling).
        O::Match => s(&[Vote, Flags(&[F::Sync]), Type], ONE, (3, 3)),
        O::Redux => s(
            &[
                Flags(&[F::Sync, F::Abs, F::NaN]),
                Atom(&[A::Add, A::Min, A::Max, A::And, A::Or, A::Xor]),
                Type,
            ],
            ONE,
            (3, 3),
        ),
        O::Activemask => s(&[Type], OPTIONAL, (1, 1)),
        O::Bmsk => s(&[Funnel, Type], ONE, (3, 3)),
        O::Szext => s(&[Funnel, Type], ONE, (3, 3)),
        O::Fns => s(&[Type], ONE, (4, 4)),
        // `lop3.b32 d, a, b, c, lut` and `lop3.{and,or}.b32 d|p, a, b, c, lut, q`.
        O::Lop3 => s(&[Bool, Type], ONE, (5, 6)),
        O::Testp => s(&[Testp, Type], ONE, (2, 2)),
        O::Mul24 => s(&[Mul, Type], ONE, (3, 3)),
        O::Mad24 => s(&[Mul, Flags(&[F::Sat]), Type], ONE, (4, 4)),
        // `vabsdiff4.dtype.atype.btype{.sat|.add} d, a, b, c`.
        O::Vabsdiff2 | O::Vabsdiff4 => s(&[Flags(&[F::Sat, F::Add]), Type], (3, 3), (4, 4)),
        O::Tex => s(
            &[Geom, Flags(&[F::Level, F::Grad]), Vector, Type],
            TWO,
            (2, 5),
        ),
        O::Call => s(&[Flags(&[F::Uni])], NONE, (1, 4)),
        O::Trap | O::Exit | O::Brkpt => s(&[], NONE, (0, 0)),
        O::Bra => s(&[Flags(&[F::Uni])], NONE, (1, 1)),
        O::Brx => s(&[Flags(&[F::Idx, F::Uni])], NONE, (2, 2)),
        O::Ret => s(&[Flags(&[F::Uni])], NONE, (0, 0)),
        O::Nanosleep => s(&[Type], OPTIONAL, (1, 1)),
        O::Prefetch => s(
            &[Space(&[Global, Local]), Flags(&[F::L1, F::L2])],
            NONE,
            (1, 1),
        ),
        O::Prefetchu => s(&[Flags(&[F::L1])], NONE, (1, 1)),
        O::Pmevent => s(&[Flags(&[F::Mask])], NONE, (1, 1)),
    }
}

/// Sets `slot` to `v`; false if it was set already.
fn set<T>(slot: &mut Option<T>, v: T) -> bool {
    slot.replace(v).is_none()
}

/// Reads `m` as a modifier of kind `k` into `mods`: `None` if it is not of
/// that kind, `Some(false)` if the kind was given already.
fn apply(mods: &mut Mods, k: Kind, m: &str) -> Option<bool> {
    fn pick<T: Copy + PartialEq>(allowed: &[T], v: Option<T>) -> Option<T> {
        v.filter(|v| allowed.contains(v))
    }
    Some(match k {
        Kind::Type => {
            mods.types.push(DataType::from_name(m)?);
            true
        }
        Kind::Space(a) => set(&mut mods.space, pick(a, StateSpace::from_name(m))?),
        Kind::Vector => {
            let n = match m {
                "v2" => 2,
                "v4" => 4,
                "v8" => 8,
                _ => return None,
            };
            set(&mut mods.vector, n)
        }
        Kind::Cmp => set(&mut mods.cmp, CmpOp::from_name(m)?),
        Kind::Bool => set(&mut mods.bool_op, BoolOp::from_name(m)?),
        Kind::Mul => set(&mut mods.mul, MulMode::from_name(m)?),
        Kind::BarRed => set(&mut mods.bar_red, BarRed::from_name(m)?),
        Kind::Shfl => set(&mut mods.shfl, ShflMode::from_name(m)?),
        Kind::Vote => set(&mut mods.vote, VoteMode::from_name(m)?),
        Kind::Geom => set(&mut mods.geom, TexGeom::from_name(m)?),
        Kind::Dir => set(&mut mods.dir, ShiftDir::from_name(m)?),
        Kind::Funnel => set(&mut mods.funnel, FunnelMode::from_name(m)?),
        Kind::Prmt => set(&mut mods.prmt, PrmtMode::from_name(m)?),
        Kind::Testp => set(&mut mods.testp, TestpOp::from_name(m)?),
        Kind::Round(a) => set(&mut mods.round, pick(a, Rounding::from_name(m))?),
        Kind::Atom(a) => set(&mut mods.atom, pick(a, AtomOp::from_name(m))?),
        Kind::Scope(a) => set(&mut mods.scope, pick(a, Scope::from_name(m))?),
        Kind::Order(a) => set(&mut mods.order, pick(a, MemOrder::from_name(m))?),
        Kind::Cache(a) => set(&mut mods.cache, pick(a, CacheOp::from_name(m))?),
        Kind::Flags(a) => mods.flags.insert(pick(a, Flag::from_name(m))?),
    })
}

/// Decodes the instruction spelled `name` (opcode and modifiers) with its
/// guard and operands.
pub fn decode(name: &str, guard: Option<Guard>, args: Vec<Operand>, pos: Pos) -> Result<Inst> {
    let fail = |why: String| Err(Error::new(pos, why));
    let unsupported = |why: &str| fail(format!("unsupported instruction `{name}`{why}"));
    let mut parts = name.split('.');
    let Some(op) = parts.next().and_then(Opcode::from_name) else {
        return unsupported("");
    };
    if matches!(op, Opcode::Setp | Opcode::Set) {
        // PTX writes the comparison first (`setp.lt.s32`).
        match parts.clone().next() {
            None => return fail(format!("`{name}` needs a comparison")),
            Some(m) if CmpOp::from_name(m).is_none() => {
                return fail(format!("unknown comparison `{m}` in `{name}`"))
            }
            Some(_) => {}
        }
    }
    let spec = spec(op);
    let mut mods = Mods::default();
    for m in parts {
        match spec.kinds.iter().find_map(|&k| apply(&mut mods, k, m)) {
            Some(true) => {}
            Some(false) => return unsupported(&format!(" (`.{m}` repeats a kind of modifier)")),
            None => return unsupported(&format!(" (unknown modifier `.{m}`)")),
        }
    }
    let inst = Inst {
        guard,
        op,
        mods,
        args,
        name: name.to_string(),
        pos,
        src: None,
    };
    let required = match op {
        Opcode::Shfl | Opcode::Vote | Opcode::Match | Opcode::Redux => Some(Flag::Sync),
        Opcode::Brx => Some(Flag::Idx),
        _ => None,
    };
    if let Some(f) = required.filter(|&f| !inst.has(f)) {
        return fail(format!("`{name}` without .{} is not supported", f.name()));
    }
    let ntypes = inst.mods.types.len();
    if ntypes < spec.types.0 {
        // The lowering's own messages for a missing type.
        match spec.types.0 {
            1 => inst.ty().map(drop)?,
            _ => inst.types2().map(drop)?,
        }
    }
    if ntypes > spec.types.1 {
        return unsupported(" (too many types)");
    }
    let (least, most) = spec.operands;
    if inst.args.len() < least {
        inst.arg(least - 1)?;
    }
    if inst.args.len() > most {
        return fail(format!("`{name}` takes at most {most} operands"));
    }
    Ok(inst)
}
