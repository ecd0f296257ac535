//! Barriers and warp collectives: `bar`/`barrier`, `shfl.sync`, `vote.sync`.

use super::inst::PRED;
use super::*;
use crate::inst::{BarRed, Flag, ShflMode, VoteMode};

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
        let eight = b.i32(8);
        let seg = b.binary(BinOp::LShr, c, eight);
        let m31 = b.i32(31);
        let seg = b.binary(BinOp::And, seg, m31);
        let k32 = b.i32(32);
        let width = b.binary(BinOp::Sub, k32, seg);
        let r = b.op1(OpKind::Shuffle(mode), vec![mask, v, lane, width], i32t);
        // The "source lane was valid" predicate.
        let valid = {
            let me = b.lane_id();
            let one = b.i32(1);
            let wm1 = b.binary(BinOp::Sub, width, one);
            let inv = b.i32(-1);
            let nm = b.binary(BinOp::Xor, wm1, inv);
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
}
