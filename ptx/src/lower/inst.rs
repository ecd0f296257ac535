//! Lowering of individual PTX instructions: the dispatch on the typed
//! opcode, guards, and what the instruction modules (`arith`, `bits`,
//! `compare`, `convert`, `half`, `memory`, `warp`, `call`) share.

use super::*;
use crate::inst::{Opcode as O, Scope};

pub(super) const PRED: PtxType = PtxType::Pred;

pub(super) fn is_float(t: PtxType) -> bool {
    matches!(t, PtxType::Float { .. })
}

pub(super) fn is_signed(t: PtxType) -> bool {
    matches!(t, PtxType::Int { signed: true, .. })
}

pub(super) fn bits(t: PtxType) -> u8 {
    match t {
        PtxType::Int { bits, .. } | PtxType::Float { bits, .. } => bits,
        PtxType::Pred => 1,
        PtxType::TexRef => 64,
    }
}

/// The signed or the unsigned form of an integer operation.
pub(super) fn by_sign<T>(signed: bool, s: T, u: T) -> T {
    if signed {
        s
    } else {
        u
    }
}

/// The IR scope of a memory scope (`.gpu`, `.cluster` and none: the device).
pub(super) fn mem_scope(s: Option<Scope>) -> MemScope {
    match s {
        Some(Scope::Cta) => MemScope::Block,
        Some(Scope::Sys) => MemScope::System,
        _ => MemScope::Device,
    }
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// Lowers one instruction (its guard becomes an `if`).
    pub(super) fn inst(&mut self, i: &'p Inst) -> Result<()> {
        self.loc = self.mc.inst_loc(i);
        if let Some(g) = &i.guard {
            let c = self.predicate(&g.reg, g.negated, i.pos)?;
            let (_, t, e) = self.b().create_if(c, &[]);
            let saved = self.cur;
            self.cur = e;
            self.b().yield_(vec![]);
            self.cur = t;
            self.inst_body(i)?;
            self.b().yield_(vec![]);
            self.cur = saved;
            return Ok(());
        }
        self.inst_body(i)
    }

    fn inst_body(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if let Some(signed) = i.packed_int() {
            return self.packed_int(i, signed);
        }
        if i.packed().is_some() {
            return match i.op {
                O::Cvt => self.cvt(i),
                O::Atom | O::Red => self.atom_packed(i),
                O::Add | O::Sub | O::Mul | O::Fma | O::Min | O::Max | O::Neg | O::Abs => {
                    self.packed(i)
                }
                O::Mov => {
                    let v = self.read(i.arg(1)?, PtxType::U32, pos)?;
                    self.write(i.arg(0)?, v, false, pos)
                }
                _ => i.unsupported(),
            };
        }
        if matches!(i.op, O::Atom | O::Red)
            && (i.has_type(PtxType::F16) || i.has_type(PtxType::BF16))
        {
            return self.atom_packed(i);
        }
        match i.op {
            O::Mov => {
                let t = i.ty()?;
                let v = self.read(i.arg(1)?, t, pos)?;
                self.write(i.arg(0)?, v, false, pos)
            }
            O::Cvta => self.cvta(i),
            O::Ld | O::Ldu => self.load(i),
            O::St => self.store(i),
            O::Add
            | O::Sub
            | O::Mul
            | O::Div
            | O::Rem
            | O::Min
            | O::Max
            | O::And
            | O::Or
            | O::Xor
            | O::Addc
            | O::Subc => self.binary(i),
            O::Mad | O::Madc | O::Fma => self.mad(i),
            O::Neg | O::Abs | O::Not | O::Cnot | O::Popc | O::Clz | O::Brev => self.unary(i),
            O::Shl | O::Shr => self.shift(i),
            O::Shf => self.funnel(i),
            O::Bfe => self.bfe(i),
            O::Bfi => self.bfi(i),
            O::Bfind => self.bfind(i),
            O::Prmt => self.prmt(i),
            O::Sad => {
                let t = i.ty()?;
                let [a, b2, c] = self.read_args(i, 1, [t, t, t])?;
                let mut b = self.b();
                let (mx, mn) = if is_signed(t) {
                    (BinOp::SMax, BinOp::SMin)
                } else {
                    (BinOp::UMax, BinOp::UMin)
                };
                let hi = b.binary(mx, a, b2);
                let lo = b.binary(mn, a, b2);
                let d = b.binary(BinOp::Sub, hi, lo);
                let r = b.binary(BinOp::Add, d, c);
                self.write(i.arg(0)?, r, false, pos)
            }
            O::Copysign => {
                let t = i.ty()?;
                let [a, b2] = self.read_args(i, 1, [t, t])?;
                let ty = ir_type(self.types(), t);
                let name = if t == PtxType::F64 {
                    "copysign"
                } else {
                    "copysignf"
                };
                let r = self.b().call_extern(name, vec![b2, a], &[ty])[0];
                self.write(i.arg(0)?, r, false, pos)
            }
            O::Rcp | O::Sqrt | O::Rsqrt | O::Sin | O::Cos | O::Ex2 | O::Lg2 | O::Tanh => {
                self.math(i)
            }
            O::Setp => self.setp(i),
            O::Set => self.set(i),
            O::Selp => {
                let t = i.ty()?;
                let [a, b2, c] = self.read_args(i, 1, [t, t, PRED])?;
                let r = self.b().select(c, a, b2);
                self.write(i.arg(0)?, r, false, pos)
            }
            O::Slct => {
                let (t, ct) = i.types2()?;
                let [a, b2, c] = self.read_args(i, 1, [t, t, ct])?;
                let mut b = self.b();
                let r = if is_float(ct) {
                    let z = b.f32(0.0);
                    let k = b.cmp(CmpPred::FOge, c, z);
                    b.select(k, a, b2)
                } else {
                    let z = b.i32(0);
                    let k = b.cmp(CmpPred::Sge, c, z);
                    b.select(k, a, b2)
                };
                self.write(i.arg(0)?, r, false, pos)
            }
            O::Cvt => self.cvt(i),
            O::Bar | O::Barrier => self.barrier(i),
            O::Membar | O::Fence => {
                self.b().fence(mem_scope(i.mods.scope));
                Ok(())
            }
            O::Atom | O::Red => self.atom(i),
            O::Shfl => self.shfl(i),
            O::Vote => self.vote(i),
            O::Match => self.match_sync(i),
            O::Redux => self.redux(i),
            O::Dp4a | O::Dp2a => self.dot(i),
            O::Bmsk => self.bmsk(i),
            O::Szext => self.szext(i),
            O::Fns => self.fns(i),
            O::Lop3 => self.lop3(i),
            O::Testp => self.testp(i),
            O::Mul24 | O::Mad24 => self.mul24(i),
            O::Vabsdiff2 | O::Vabsdiff4 => self.vabsdiff(i),
            O::Activemask => {
                let t = self.types().i32();
                let v = self.b().op1(OpKind::ActiveMask, vec![], t);
                self.write(i.arg(0)?, v, false, pos)
            }
            O::Tex => self.tex(i),
            O::Call => self.call(i),
            O::Trap => {
                self.b().trap("__trap() called", false);
                Ok(())
            }
            O::Nanosleep | O::Prefetch | O::Prefetchu | O::Pmevent | O::Brkpt => Ok(()),
            // Block terminators, lowered with the control flow.
            O::Bra | O::Brx | O::Ret | O::Exit => i.unsupported(),
        }
    }

    /// Operands `first`, `first + 1`, ... read as values of `tys`.
    pub(super) fn read_args<const N: usize>(
        &mut self,
        i: &'p Inst,
        first: usize,
        tys: [PtxType; N],
    ) -> Result<[Value; N]> {
        let mut vals = Vec::with_capacity(N);
        for (k, t) in tys.into_iter().enumerate() {
            vals.push(self.read(i.arg(first + k)?, t, i.pos)?);
        }
        vals.try_into()
            .map_err(|_| Error::new(i.pos, "operand count mismatch"))
    }
}
