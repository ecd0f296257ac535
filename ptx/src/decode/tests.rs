//! The decoder: typed forms of representative instructions, and errors
//! naming the instruction for unknown or malformed ones.

use super::decode;
use crate::ast::{Operand, PtxType, StateSpace};
use crate::inst::*;
use crate::Pos;

fn at() -> Pos {
    Pos { line: 7, col: 3 }
}

/// Decodes `name` with `n` register operands.
fn dec(name: &str, n: usize) -> Inst {
    let args = vec![Operand::Reg("%r1".into(), false); n];
    decode(name, None, args, at()).unwrap_or_else(|e| panic!("{name}: {}", e.message))
}

/// The message decoding `name` with `n` operands fails with.
fn fails(name: &str, n: usize) -> String {
    let args = vec![Operand::Reg("%r1".into(), false); n];
    match decode(name, None, args, at()) {
        Ok(i) => panic!("{name} decoded as {i:?}"),
        Err(e) => {
            assert_eq!(e.pos, at(), "{name}: the error is at the instruction");
            e.message
        }
    }
}

fn scalars(ts: &[PtxType]) -> Vec<DataType> {
    ts.iter().map(|&t| DataType::Scalar(t)).collect()
}

#[test]
fn loads_and_stores() {
    let i = dec("ld.volatile.global.nc.v4.f32", 2);
    assert_eq!(i.op, Opcode::Ld);
    assert_eq!(i.mods.order, Some(MemOrder::Volatile));
    assert_eq!(i.space(), StateSpace::Global);
    assert!(i.has(Flag::Nc));
    assert_eq!(i.lanes(), 4);
    assert_eq!(i.ty().ok(), Some(PtxType::F32));
    assert_eq!(i.name, "ld.volatile.global.nc.v4.f32");

    let i = dec("ld.s32", 2);
    assert_eq!(i.space(), StateSpace::Generic);
    assert_eq!(i.lanes(), 1);

    let i = dec("st.release.gpu.shared.wb.u64", 2);
    assert_eq!(i.op, Opcode::St);
    assert_eq!(i.mods.order, Some(MemOrder::Release));
    assert_eq!(i.mods.scope, Some(Scope::Gpu));
    assert_eq!(i.mods.cache, Some(CacheOp::Wb));
    assert_eq!(i.space(), StateSpace::Shared);

    let i = dec("cvta.to.shared.u64", 2);
    assert!(i.has(Flag::To));
    assert_eq!(i.mods.space, Some(StateSpace::Shared));
}

#[test]
fn arithmetic() {
    let i = dec("mul.wide.s32", 3);
    assert_eq!(i.op, Opcode::Mul);
    assert_eq!(i.mods.mul, Some(MulMode::Wide));
    assert_eq!(i.ty().ok(), Some(PtxType::S32));

    let i = dec("mad.hi.cc.u32", 4);
    assert_eq!(i.mods.mul, Some(MulMode::Hi));
    assert!(i.has(Flag::Cc));

    let i = dec("add.rz.ftz.sat.f32", 3);
    assert_eq!(i.mods.round, Some(Rounding::Rz));
    assert!(i.has(Flag::Ftz) && i.has(Flag::Sat) && !i.has(Flag::Cc));

    let i = dec("fma.rn.f16x2", 4);
    assert_eq!(i.packed(), Some(Half::F16));
    assert!(i.ty().is_err(), "a packed type is no scalar type");

    let i = dec("rcp.approx.ftz.f64", 2);
    assert!(i.has(Flag::Approx) && i.has(Flag::Ftz));
    assert_eq!(i.ty().ok(), Some(PtxType::F64));

    let i = dec("shf.l.wrap.b32", 4);
    assert_eq!(i.mods.dir, Some(ShiftDir::L));
    assert_eq!(i.mods.funnel, Some(FunnelMode::Wrap));

    let i = dec("bfind.shiftamt.u32", 2);
    assert!(i.has(Flag::Shiftamt));

    let i = dec("prmt.b32.f4e", 4);
    assert_eq!(i.mods.prmt, Some(PrmtMode::F4e));
}

#[test]
fn comparisons_and_conversions() {
    let i = dec("setp.ltu.and.f32", 4);
    assert_eq!(i.mods.cmp, Some(CmpOp::Ltu));
    assert_eq!(i.mods.bool_op, Some(BoolOp::And));
    assert_eq!(i.ty().ok(), Some(PtxType::F32));

    // `.lo` is a comparison here, a product half for `mul`.
    let i = dec("setp.lo.u32", 3);
    assert_eq!(i.mods.cmp, Some(CmpOp::Lo));
    assert_eq!(i.mods.mul, None);

    let i = dec("set.gt.u32.f32", 3);
    assert_eq!(i.types2().ok(), Some((PtxType::U32, PtxType::F32)));

    let i = dec("cvt.rzi.sat.s32.f64", 2);
    assert_eq!(i.mods.round, Some(Rounding::Rzi));
    assert!(i.has(Flag::Sat));
    assert_eq!(i.types2().ok(), Some((PtxType::S32, PtxType::F64)));
    assert_eq!(i.mods.types, scalars(&[PtxType::S32, PtxType::F64]));

    let i = dec("cvt.rn.bf16x2.f32", 3);
    assert_eq!(i.packed(), Some(Half::Bf16));
    assert!(i.has_type(PtxType::F32));
}

#[test]
fn atomics_and_collectives() {
    let i = dec("atom.relaxed.cta.shared.max.s64", 3);
    assert_eq!(i.op, Opcode::Atom);
    assert_eq!(i.mods.atom, Some(AtomOp::Max));
    assert_eq!(i.mods.scope, Some(Scope::Cta));
    assert_eq!(i.mods.order, Some(MemOrder::Relaxed));
    assert_eq!(i.space(), StateSpace::Shared);

    let i = dec("atom.global.cas.b32", 4);
    assert_eq!(i.mods.atom, Some(AtomOp::Cas));

    let i = dec("red.global.add.noftz.f16x2", 2);
    assert_eq!(i.op, Opcode::Red);
    assert!(i.has(Flag::Noftz));
    assert_eq!(i.packed(), Some(Half::F16));

    let i = dec("shfl.sync.bfly.b32", 5);
    assert_eq!(i.mods.shfl, Some(ShflMode::Bfly));
    assert!(i.has(Flag::Sync));

    let i = dec("vote.sync.ballot.b32", 3);
    assert_eq!(i.mods.vote, Some(VoteMode::Ballot));

    let i = dec("bar.red.popc.u32", 3);
    assert!(i.has(Flag::Red));
    assert_eq!(i.mods.bar_red, Some(BarRed::Popc));

    let i = dec("bar.warp.sync", 1);
    assert!(i.has(Flag::Warp) && i.has(Flag::Sync));

    assert_eq!(dec("membar.gl", 0).mods.scope, Some(Scope::Gl));
    let i = dec("fence.sc.cta", 0);
    assert_eq!(i.mods.order, Some(MemOrder::Sc));
    assert_eq!(i.mods.scope, Some(Scope::Cta));

    let i = dec("tex.2d.v4.f32.f32", 2);
    assert_eq!(i.mods.geom, Some(TexGeom::D2));
    assert_eq!(i.mods.vector, Some(4));
    assert_eq!(i.types2().ok(), Some((PtxType::F32, PtxType::F32)));
}

#[test]
fn control_flow() {
    assert!(dec("bra.uni", 1).is_branch());
    assert!(dec("ret", 0).is_branch());
    assert!(dec("brx.idx", 2).has(Flag::Idx));
    assert!(!dec("call.uni", 3).is_branch());
    let g = Guard {
        reg: "%p1".into(),
        negated: true,
    };
    let args = vec![Operand::Sym("$L".into())];
    let i = decode("bra", Some(g.clone()), args, at()).expect("decodes");
    assert_eq!(i.guard, Some(g));
    assert_eq!(dec("ld.param.u64", 2).ty().ok(), Some(PtxType::U64));
}

#[test]
fn unknown_and_malformed_instructions() {
    let cases: &[(&str, usize, &str)] = &[
        ("frob.s32", 2, "unsupported instruction `frob.s32`"),
        (
            "vadd.u32.u32.u32",
            3,
            "unsupported instruction `vadd.u32.u32.u32`",
        ),
        (
            "add.foo.s32",
            3,
            "unsupported instruction `add.foo.s32` (unknown modifier `.foo`)",
        ),
        // A modifier of another instruction.
        (
            "add.wide.f32",
            3,
            "unsupported instruction `add.wide.f32` (unknown modifier `.wide`)",
        ),
        (
            "st.global.nc.u32",
            2,
            "unsupported instruction `st.global.nc.u32` (unknown modifier `.nc`)",
        ),
        (
            "atom.const.add.u32",
            3,
            "unsupported instruction `atom.const.add.u32` (unknown modifier `.const`)",
        ),
        (
            "add..s32",
            3,
            "unsupported instruction `add..s32` (unknown modifier `.`)",
        ),
        (
            "atom.global.add.min.u32",
            3,
            "unsupported instruction `atom.global.add.min.u32` (`.min` repeats a kind of modifier)",
        ),
        (
            "ld.global.shared.u32",
            2,
            "unsupported instruction `ld.global.shared.u32` (`.shared` repeats a kind of modifier)",
        ),
        (
            "mov.u32.u64",
            2,
            "unsupported instruction `mov.u32.u64` (too many types)",
        ),
        ("add", 3, "`add` needs a type"),
        ("cvt.rn.f32", 2, "`cvt` needs two types"),
        ("add.s32", 2, "`add.s32` needs at least 3 operands"),
        ("add.s32", 4, "`add.s32` takes at most 3 operands"),
        ("ret", 1, "`ret` takes at most 0 operands"),
        (
            "shfl.down.b32",
            4,
            "`shfl.down.b32` without .sync is not supported",
        ),
        ("brx", 2, "`brx` without .idx is not supported"),
        ("setp", 3, "`setp` needs a comparison"),
        (
            "setp.s32.lt",
            3,
            "unknown comparison `s32` in `setp.s32.lt`",
        ),
        (
            "setp.lt.ge.s32",
            3,
            "unsupported instruction `setp.lt.ge.s32` (`.ge` repeats a kind of modifier)",
        ),
    ];
    for &(name, n, want) in cases {
        assert_eq!(fails(name, n), want, "decoding `{name}`");
    }
}

#[test]
fn every_spelling_round_trips() {
    for op in ["ld", "st", "setp", "atom", "shfl", "tex", "prefetchu"] {
        let o = Opcode::from_name(op).expect("known");
        assert_eq!(o.name(), op);
    }
    for c in ["eq", "lo", "geu", "nan"] {
        assert_eq!(CmpOp::from_name(c).map(CmpOp::name), Some(c));
    }
    assert_eq!(Flag::from_name("NaN"), Some(Flag::NaN));
    assert_eq!(DataType::from_name("texref"), None);
    assert_eq!(
        DataType::from_name("bf16x2"),
        Some(DataType::Packed(Half::Bf16))
    );
}
