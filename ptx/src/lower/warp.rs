//! Barriers and warp collectives: `bar`/`barrier`, `shfl.sync`, `vote.sync`,
//! `match.sync` and `redux.sync`.
//!
//! `match` and `redux` have no IR op: every lane reads every lane's value
//! with an indexed shuffle (so all lanes take part in each, and the warp pass
//! sees only shuffles) and keeps the values of the lanes in the member mask.

use super::inst::{bits, is_float, is_signed, PRED};
use super::*;
use crate::inst::{AtomOp, BarRed, Flag, ShflMode, VoteMode};

impl<'m, 'p> FnCx<'m, 'p> {
    pub(super) fn barrier(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if i.has(Flag::Warp) {
            let m = self.read(i.arg(0)?, PtxType::U32, pos)?;
            self.b().barrier_warp(m);
            return Ok(());
        }
        if i.has(Flag::Red) {
            let kind = match i.mods.bar_red {
                Some(BarRed::Popc) => BarrierReduceKind::Count,
                Some(BarRed::And) => BarrierReduceKind::And,
                Some(BarRed::Or) => BarrierReduceKind::Or,
                None => return i.unsupported(),
            };
            let p = self.read(
                i.args
                    .last()
                    .ok_or_else(|| Error::new(pos, "`bar.red` needs a predicate"))?,
                PRED,
                pos,
            )?;
            let r = self.b().barrier_reduce(kind, p);
            return self.write(i.arg(0)?, r, false, pos);
        }
        if i.has(Flag::Arrive) {
            return i.unsupported();
        }
        if i.args.len() > 1 {
            return err(
                pos,
                format!("`{}` with a thread count is not supported", i.name),
            );
        }
        self.b().barrier();
        Ok(())
    }

    pub(super) fn shfl(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        // `.sync` is required by the decoder.
        let mode = match i.mods.shfl {
            Some(ShflMode::Idx) => ShuffleMode::Idx,
            Some(ShflMode::Up) => ShuffleMode::Up,
            Some(ShflMode::Down) => ShuffleMode::Down,
            Some(ShflMode::Bfly) => ShuffleMode::Xor,
            None => return i.unsupported(),
        };
        let t = PtxType::U32;
        let [v, lane, c, mask] =
            self.read_args(i, 1, [t, PtxType::U32, PtxType::U32, PtxType::U32])?;
        let i32t = self.types().i32();
        let mut b = self.b();
        // c = ((32 - width) << 8) | clamp.
        let seg = b.binary_imm(BinOp::LShr, c, 8);
        let seg = b.binary_imm(BinOp::And, seg, 31);
        let k32 = b.i32(32);
        let width = b.binary(BinOp::Sub, k32, seg);
        let r = b.op1(OpKind::Shuffle(mode), vec![mask, v, lane, width], i32t);
        // The "source lane was valid" predicate.
        let valid = {
            let me = b.lane_id();
            let wm1 = b.binary_imm(BinOp::Sub, width, 1);
            let nm = b.binary_imm(BinOp::Xor, wm1, -1);
            let start = b.binary(BinOp::And, me, nm);
            let end = b.binary(BinOp::Add, start, width);
            match mode {
                ShuffleMode::Idx => b.bool(true),
                ShuffleMode::Up => {
                    let src = b.binary(BinOp::Sub, me, lane);
                    b.cmp(CmpPred::Sge, src, start)
                }
                ShuffleMode::Down => {
                    let src = b.binary(BinOp::Add, me, lane);
                    b.cmp(CmpPred::Slt, src, end)
                }
                ShuffleMode::Xor => {
                    let src = b.binary(BinOp::Xor, me, lane);
                    b.cmp(CmpPred::Slt, src, end)
                }
            }
        };
        match i.arg(0)? {
            Operand::Vec(ps) if ps.len() == 2 => {
                self.write(&ps[0], r, false, pos)?;
                self.write(&ps[1], valid, false, pos)
            }
            d => self.write(d, r, false, pos),
        }
    }

    pub(super) fn vote(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        // `.sync` is required by the decoder.
        let [p, mask] = self.read_args(i, 1, [PRED, PtxType::U32])?;
        let i32t = self.types().i32();
        let i1 = self.types().i1();
        let mut b = self.b();
        let r = match i.mods.vote {
            Some(VoteMode::Ballot) => b.op1(OpKind::Vote(VoteKind::Ballot), vec![mask, p], i32t),
            Some(VoteMode::All) => b.op1(OpKind::Vote(VoteKind::All), vec![mask, p], i1),
            Some(VoteMode::Any) => b.op1(OpKind::Vote(VoteKind::Any), vec![mask, p], i1),
            Some(VoteMode::Uni) => {
                let all = b.op1(OpKind::Vote(VoteKind::All), vec![mask, p], i1);
                let any = b.op1(OpKind::Vote(VoteKind::Any), vec![mask, p], i1);
                let t = b.bool(true);
                let none = b.binary(BinOp::Xor, any, t);
                b.binary(BinOp::Or, all, none)
            }
            None => return i.unsupported(),
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// Lane `l`'s `v` (an indexed shuffle over the whole warp) and whether
    /// `l` is in `mask`.
    pub(super) fn read_lane(&mut self, mask: Value, v: Value, l: i32) -> (Value, Value) {
        let mut b = self.b();
        let t = b.ty(v);
        let lane = b.i32(l);
        let w = b.i32(32);
        let o = b.op1(OpKind::Shuffle(ShuffleMode::Idx), vec![mask, v, lane, w], t);
        let m = b.binary_imm(BinOp::And, mask, 1 << l);
        let z = b.i32(0);
        let member = b.cmp(CmpPred::Ne, m, z);
        (o, member)
    }

    /// `match.any.sync.b32|b64 d, a, mask` and `match.all.sync.b32|b64 d[|p], a, mask`.
    pub(super) fn match_sync(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let a = self.read(i.arg(1)?, t, pos)?;
        let mask = self.read(i.arg(2)?, PtxType::U32, pos)?;
        let mut same = self.b().i32(0);
        for l in 0..32 {
            let (o, member) = self.read_lane(mask, a, l);
            let mut b = self.b();
            let eq = b.cmp(CmpPred::Eq, o, a);
            let hit = b.binary(BinOp::And, eq, member);
            let bit = b.i32(1 << l);
            let z = b.i32(0);
            let add = b.select(hit, bit, z);
            same = b.binary(BinOp::Or, same, add);
        }
        let (d, p) = match i.arg(0)? {
            Operand::Vec(ps) if ps.len() == 2 => (&ps[0], Some(&ps[1])),
            d => (d, None),
        };
        match i.mods.vote {
            Some(VoteMode::Any) if p.is_none() => self.write(d, same, false, pos),
            Some(VoteMode::All) => {
                let mut b = self.b();
                let all = b.cmp(CmpPred::Eq, same, mask);
                let z = b.i32(0);
                let r = b.select(all, mask, z);
                self.write(d, r, false, pos)?;
                match p {
                    Some(p) => self.write(p, all, false, pos),
                    None => Ok(()),
                }
            }
            _ => i.unsupported(),
        }
    }

    /// `redux.sync.{add,min,max}.{u32,s32}` and `redux.sync.{and,or,xor}.b32`
    /// (the `.f32` forms: `floatops`).
    pub(super) fn redux(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        if is_float(t) {
            return match i.mods.atom {
                Some(AtomOp::Min) => self.redux_f32(i, true),
                Some(AtomOp::Max) => self.redux_f32(i, false),
                _ => i.unsupported(),
            };
        }
        if bits(t) != 32 || i.has(Flag::Abs) || i.has(Flag::NaN) {
            return i.unsupported();
        }
        let signed = is_signed(t);
        let a = self.read(i.arg(1)?, t, pos)?;
        let mask = self.read(i.arg(2)?, PtxType::U32, pos)?;
        let (op, init) = match i.mods.atom {
            Some(AtomOp::Add) => (BinOp::Add, 0),
            Some(AtomOp::Min) if signed => (BinOp::SMin, i32::MAX),
            Some(AtomOp::Min) => (BinOp::UMin, -1),
            Some(AtomOp::Max) if signed => (BinOp::SMax, i32::MIN),
            Some(AtomOp::Max) => (BinOp::UMax, 0),
            Some(AtomOp::And) => (BinOp::And, -1),
            Some(AtomOp::Or) => (BinOp::Or, 0),
            Some(AtomOp::Xor) => (BinOp::Xor, 0),
            _ => return i.unsupported(),
        };
        let mut acc = self.b().i32(init);
        for l in 0..32 {
            let (o, member) = self.read_lane(mask, a, l);
            let mut b = self.b();
            let next = b.binary(op, acc, o);
            acc = b.select(member, next, acc);
        }
        self.write(i.arg(0)?, acc, false, pos)
    }
}
