//! Lowering of individual PTX instructions, matched on their typed form.

use super::*;
use crate::inst::{
    AtomOp, BarRed, BoolOp, CmpOp, Flag, FunnelMode, Half, MemOrder, MulMode, Opcode as O,
    Rounding, Scope, ShflMode, ShiftDir, TexGeom, VoteMode,
};

const PRED: PtxType = PtxType::Pred;

fn is_float(t: PtxType) -> bool {
    matches!(t, PtxType::Float { .. })
}

fn is_signed(t: PtxType) -> bool {
    matches!(t, PtxType::Int { signed: true, .. })
}

fn bits(t: PtxType) -> u8 {
    match t {
        PtxType::Int { bits, .. } | PtxType::Float { bits, .. } => bits,
        PtxType::Pred => 1,
        PtxType::TexRef => 64,
    }
}

/// The signed or the unsigned form of an integer operation.
fn by_sign<T>(signed: bool, s: T, u: T) -> T {
    if signed {
        s
    } else {
        u
    }
}

fn with_bits(t: PtxType, b: u8) -> PtxType {
    match t {
        PtxType::Int { signed, .. } => PtxType::Int { bits: b, signed },
        other => other,
    }
}

/// The `.param` variable an address `[name]` or `[name+0]` names.
fn param_slot_name(addr: &Operand) -> Option<&str> {
    match addr {
        Operand::Addr(b, 0) => match &**b {
            Operand::Sym(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// `hi:lo` (two `i32`s) as one `i64`, and the constant 32 it shifts by.
fn concat64(b: &mut Builder<'_>, hi: Value, lo: Value) -> (Value, Value) {
    let i64t = b.types.i64();
    let hi = b.cast(CastOp::ZExt, hi, i64t);
    let k32 = b.i64(32);
    let hi = b.binary(BinOp::Shl, hi, k32);
    let lo = b.cast(CastOp::ZExt, lo, i64t);
    (b.binary(BinOp::Or, hi, lo), k32)
}

/// The IR scope of a memory scope (`.gpu`, `.cluster` and none: the device).
fn mem_scope(s: Option<Scope>) -> MemScope {
    match s {
        Some(Scope::Cta) => MemScope::Block,
        Some(Scope::Sys) => MemScope::System,
        _ => MemScope::Device,
    }
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// Lowers one instruction (its guard becomes an `if`).
    pub(super) fn inst(&mut self, i: &'p Inst) -> Result<()> {
        self.loc = self.mc.loc(i.pos);
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
            O::Activemask => {
                let t = self.types().i32();
                let v = self.b().op1(OpKind::ActiveMask, vec![], t);
                self.write(i.arg(0)?, v, false, pos)
            }
            O::Tex => self.tex(i),
            O::Call => self.call(i),
            O::Trap => {
                self.b().op(
                    OpKind::Trap {
                        message: "__trap() called".into(),
                        assert: false,
                    },
                    vec![],
                    &[],
                    vec![],
                );
                Ok(())
            }
            O::Nanosleep | O::Prefetch | O::Prefetchu | O::Pmevent | O::Brkpt => Ok(()),
            // Block terminators, lowered with the control flow.
            O::Bra | O::Brx | O::Ret | O::Exit => i.unsupported(),
        }
    }

    /// The half type of a packed (`f16x2`/`bf16x2`) instruction.
    fn half_type(&mut self, i: &Inst) -> TypeId {
        if i.packed() == Some(Half::Bf16) || i.has_type(PtxType::BF16) {
            self.types().bf16()
        } else {
            self.types().f16()
        }
    }

    /// Lane `k` (0 = low half) of a packed value, widened to `f32`.
    fn unpack_half(&mut self, v: Value, k: u32, hty: TypeId) -> Value {
        let i16t = self.types().i16();
        let f32t = self.types().f32();
        let mut b = self.b();
        let sh = b.i32((16 * k) as i32);
        let s = b.binary(BinOp::LShr, v, sh);
        let h = b.cast(CastOp::Trunc, s, i16t);
        let h = b.cast(CastOp::Bitcast, h, hty);
        b.cast(CastOp::FpExt, h, f32t)
    }

    /// Packs two `f32`s (low, high) as halves of type `hty`.
    fn pack_halves(&mut self, lo: Value, hi: Value, hty: TypeId) -> Value {
        let i16t = self.types().i16();
        let i32t = self.types().i32();
        let mut b = self.b();
        let mut out = b.i32(0);
        for (k, v) in [lo, hi].into_iter().enumerate() {
            let h = b.cast(CastOp::FpTrunc, v, hty);
            let h = b.cast(CastOp::Bitcast, h, i16t);
            let w = b.cast(CastOp::ZExt, h, i32t);
            let sh = b.i32(16 * k as i32);
            let w = b.binary(BinOp::Shl, w, sh);
            out = b.binary(BinOp::Or, out, w);
        }
        out
    }

    /// Lane-wise arithmetic on two packed halves, computed in `f32`.
    fn packed(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let hty = self.half_type(i);
        let nops = match i.op {
            O::Neg | O::Abs => 1,
            O::Fma => 3,
            _ => 2,
        };
        let mut ins = Vec::new();
        for k in 0..nops {
            ins.push(self.read(i.arg(k + 1)?, PtxType::U32, pos)?);
        }
        let f32t = self.types().f32();
        let mut lanes = Vec::new();
        for lane in 0..2 {
            let xs: Vec<Value> = ins
                .iter()
                .map(|&v| self.unpack_half(v, lane, hty))
                .collect();
            let r = match i.op {
                O::Add => self.b().binary(BinOp::FAdd, xs[0], xs[1]),
                O::Sub => self.b().binary(BinOp::FSub, xs[0], xs[1]),
                O::Mul => self.b().binary(BinOp::FMul, xs[0], xs[1]),
                O::Min => self.b().binary(BinOp::FMin, xs[0], xs[1]),
                O::Max => self.b().binary(BinOp::FMax, xs[0], xs[1]),
                O::Neg => self.b().unary(UnOp::FNeg, xs[0]),
                O::Abs => self.b().call_extern("fabsf", vec![xs[0]], &[f32t])[0],
                O::Fma => self.b().call_extern("fmaf", xs.clone(), &[f32t])[0],
                _ => return i.unsupported(),
            };
            lanes.push(r);
        }
        let r = self.pack_halves(lanes[0], lanes[1], hty);
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `atom.add.noftz.f16x2`: a compare-and-swap loop on the 32-bit word.
    fn atom_packed(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if i.mods.atom != Some(AtomOp::Add) {
            return i.unsupported();
        }
        let red = i.op == O::Red;
        let (addr, first) = if red { (i.arg(0)?, 1) } else { (i.arg(1)?, 2) };
        let space = i.space();
        let ptr = self.address(addr, space, pos)?;
        let packed = i.packed().is_some();
        let wt = if packed { PtxType::U32 } else { PtxType::U16 };
        let v = self.read(i.arg(first)?, wt, pos)?;
        let hty = self.half_type(i);
        let wty = ir_type(self.types(), wt);
        let (_, before, after) = self.b().create_while(&[], &[]);
        let saved = self.cur;
        self.cur = after;
        self.b().yield_(vec![]);
        self.cur = before;
        let old = self.b().load(ptr, wty);
        let new = if packed {
            let mut lanes = Vec::new();
            for lane in 0..2 {
                let a = self.unpack_half(old, lane, hty);
                let b2 = self.unpack_half(v, lane, hty);
                lanes.push(self.b().binary(BinOp::FAdd, a, b2));
            }
            self.pack_halves(lanes[0], lanes[1], hty)
        } else {
            let f32t = self.types().f32();
            let mut b = self.b();
            let a = b.cast(CastOp::Bitcast, old, hty);
            let a = b.cast(CastOp::FpExt, a, f32t);
            let c = b.cast(CastOp::Bitcast, v, hty);
            let c = b.cast(CastOp::FpExt, c, f32t);
            let r = b.binary(BinOp::FAdd, a, c);
            let r = b.cast(CastOp::FpTrunc, r, hty);
            b.cast(CastOp::Bitcast, r, wty)
        };
        let prev = self.b().op1(
            OpKind::AtomicCas {
                scope: MemScope::Device,
            },
            vec![ptr, old, new],
            wty,
        );
        if !red {
            self.write(i.arg(0)?, prev, false, pos)?;
        }
        let again = self.b().cmp(CmpPred::Ne, prev, old);
        self.b().condition(again, vec![]);
        self.cur = saved;
        Ok(())
    }

    fn cvta(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let to = i.has(Flag::To);
        let shared = i.mods.space == Some(StateSpace::Shared);
        let v = self.read(i.arg(1)?, t, pos)?;
        let r = if shared && !to {
            // Window offset to a generic address.
            let p = self.shared_ptr(v)?;
            let i64t = self.types().i64();
            self.b().cast(CastOp::PtrToInt, p, i64t)
        } else if shared {
            // Generic address to a window offset.
            let i64t = self.types().i64();
            let v = self.convert(v, i64t, false, pos)?;
            let size = self.mc.shared_size;
            let window = self.mc.window;
            let dynamic = self.mc.has_dynamic;
            let mut b = self.b();
            let mut r = None;
            if let Some(g) = window {
                let base = b.global_addr(g, Space::Shared);
                let bi = b.cast(CastOp::PtrToInt, base, i64t);
                r = Some(b.binary(BinOp::Sub, v, bi));
            }
            if dynamic {
                let base = b.dynamic_shared();
                let bi = b.cast(CastOp::PtrToInt, base, i64t);
                let d = b.binary(BinOp::Sub, v, bi);
                let s = b.i64(size as i64);
                let d = b.binary(BinOp::Add, d, s);
                r = Some(match r {
                    Some(st) => {
                        let lim = b.i64(size as i64);
                        let c = b.cmp(CmpPred::Ult, st, lim);
                        b.select(c, st, d)
                    }
                    None => d,
                });
            }
            match r {
                Some(r) => r,
                None => b.i64(0),
            }
        } else {
            v
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// The operands of a `.vN` access (the operand itself without `.vN`);
    /// `what` names them in the error.
    fn lanes_of<'o>(i: &Inst, o: &'o Operand, what: &str) -> Result<Vec<&'o Operand>> {
        let n = i.lanes();
        match (n, o) {
            (1, d) => Ok(vec![d]),
            (_, Operand::Vec(v)) if v.len() == n => Ok(v.iter().collect()),
            _ => err(i.pos, format!("`{}` needs a vector of {n} {what}", i.name)),
        }
    }

    /// The address of element `k` of a vector access of `t`s at `base`.
    fn element(&mut self, base: Value, k: usize, t: PtxType) -> Value {
        if k == 0 {
            return base;
        }
        let i8t = self.types().i8();
        let mut b = self.b();
        let off = b.i64((k as u64 * t.bytes()) as i64);
        b.ptr_index(base, off, i8t)
    }

    fn load(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let space = i.space();
        let dst = i.arg(0)?;
        let addr = i.arg(1)?;
        // Scalar kernel parameters are read directly.
        if space == StateSpace::Param {
            if let Some(s) = param_slot_name(addr) {
                if let Some((v, pt)) = self.kparams.get(s).copied() {
                    if pt.bytes() == t.bytes() && i.lanes() == 1 {
                        let ty = ir_type(self.types(), t);
                        let v = self.convert(v, ty, false, pos)?;
                        return self.write(dst, v, is_signed(t), pos);
                    }
                }
            }
        }
        let volatile = i.mods.order == Some(MemOrder::Volatile);
        let base = self.address(addr, space, pos)?;
        let ty = ir_type(self.types(), t);
        let dsts = Self::lanes_of(i, dst, "destinations")?;
        for (k, d) in dsts.into_iter().enumerate() {
            if *d == Operand::Sink {
                continue;
            }
            let p = self.element(base, k, t);
            let v = self.b().op1(
                OpKind::Load {
                    volatile,
                    speculative: false,
                },
                vec![p],
                ty,
            );
            self.write(d, v, is_signed(t), pos)?;
        }
        Ok(())
    }

    fn store(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let space = i.space();
        let addr = i.arg(0)?;
        let src = i.arg(1)?;
        if space == StateSpace::Param {
            if let Some(s) = param_slot_name(addr) {
                self.param_src.insert(s.to_string(), src.clone());
            }
        }
        let volatile = i.mods.order == Some(MemOrder::Volatile);
        let base = self.address(addr, space, pos)?;
        let srcs = Self::lanes_of(i, src, "values")?;
        for (k, s) in srcs.into_iter().enumerate() {
            let v = self.read(s, t, pos)?;
            let p = self.element(base, k, t);
            self.b()
                .op(OpKind::Store { volatile }, vec![p, v], &[], vec![]);
        }
        Ok(())
    }

    fn carry_cell(&mut self) -> Value {
        if let Some(c) = self.carry {
            return c;
        }
        let i1 = self.types().i1();
        let c = self.entry_alloca(i1);
        self.func.values[c].name = Some("carry".into());
        self.at_entry(|b| {
            let f = b.bool(false);
            b.store(c, f);
        });
        self.carry = Some(c);
        c
    }

    /// `a + b (+ carry-in)`, setting the carry flag if `set`.
    fn add_carry(&mut self, a: Value, b2: Value, cin: bool, set: bool, sub: bool) -> Value {
        let cell = if cin || set {
            Some(self.carry_cell())
        } else {
            None
        };
        let i1 = self.types().i1();
        let ty = self.func.value_type(a);
        let mut b = self.b();
        let c = match (cin, cell) {
            (true, Some(cell)) => Some(b.load(cell, i1)),
            _ => None,
        };
        let (r, cout) = if sub {
            let d = b.binary(BinOp::Sub, a, b2);
            let borrow = b.cmp(CmpPred::Ult, a, b2);
            match c {
                Some(c) => {
                    let cz = b.cast(CastOp::ZExt, c, ty);
                    let r = b.binary(BinOp::Sub, d, cz);
                    let eq = b.cmp(CmpPred::Eq, a, b2);
                    let both = b.binary(BinOp::And, eq, c);
                    (r, b.binary(BinOp::Or, borrow, both))
                }
                None => (d, borrow),
            }
        } else {
            let s = b.binary(BinOp::Add, a, b2);
            let ov = b.cmp(CmpPred::Ult, s, a);
            match c {
                Some(c) => {
                    let cz = b.cast(CastOp::ZExt, c, ty);
                    let r = b.binary(BinOp::Add, s, cz);
                    let ov2 = b.cmp(CmpPred::Ult, r, s);
                    (r, b.binary(BinOp::Or, ov, ov2))
                }
                None => (s, ov),
            }
        };
        if set {
            if let Some(cell) = cell {
                b.store(cell, cout);
            }
        }
        r
    }

    fn binary(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let dst = i.arg(0)?;
        let op = i.op;
        let wide = i.mods.mul == Some(MulMode::Wide);
        if wide && bits(t) > 32 {
            return i.unsupported();
        }
        if op == O::Mul && wide {
            let [a, b2] = self.read_args(i, 1, [t, t])?;
            let (r, _) = self.wide_mul(a, b2, t, pos)?;
            return self.write(dst, r, false, pos);
        }
        let [a, b2] = self.read_args(i, 1, [t, t])?;
        let s = is_signed(t);
        let r = if t == PRED {
            let o = match op {
                O::And => BinOp::And,
                O::Or => BinOp::Or,
                O::Xor => BinOp::Xor,
                _ => return i.unsupported(),
            };
            self.b().binary(o, a, b2)
        } else if is_float(t) {
            let o = match op {
                O::Add => BinOp::FAdd,
                O::Sub => BinOp::FSub,
                O::Mul => BinOp::FMul,
                O::Div => BinOp::FDiv,
                O::Min => BinOp::FMin,
                O::Max => BinOp::FMax,
                _ => return i.unsupported(),
            };
            let r = self.b().binary(o, a, b2);
            if i.has(Flag::Sat) {
                self.saturate(r, t)
            } else {
                r
            }
        } else {
            match op {
                O::Add | O::Sub | O::Addc | O::Subc => {
                    let sub = matches!(op, O::Sub | O::Subc);
                    let cin = matches!(op, O::Addc | O::Subc);
                    let set = i.has(Flag::Cc);
                    if i.has(Flag::Sat) {
                        // Signed 32-bit saturation: compute in 64 bits and clamp.
                        let i64t = self.types().i64();
                        let a = self.convert(a, i64t, true, pos)?;
                        let b2 = self.convert(b2, i64t, true, pos)?;
                        let mut b = self.b();
                        let r = b.binary(if sub { BinOp::Sub } else { BinOp::Add }, a, b2);
                        let lo = b.i64(i64::from(i32::MIN));
                        let hi = b.i64(i64::from(i32::MAX));
                        let r = b.binary(BinOp::SMax, r, lo);
                        let r = b.binary(BinOp::SMin, r, hi);
                        let i32t = b.types.i32();
                        b.cast(CastOp::Trunc, r, i32t)
                    } else if cin || set {
                        self.add_carry(a, b2, cin, set, sub)
                    } else {
                        self.b()
                            .binary(if sub { BinOp::Sub } else { BinOp::Add }, a, b2)
                    }
                }
                _ => {
                    let o = match op {
                        O::Mul if i.mods.mul == Some(MulMode::Hi) => {
                            by_sign(s, BinOp::SMulHi, BinOp::UMulHi)
                        }
                        O::Mul => BinOp::Mul,
                        O::Div => by_sign(s, BinOp::SDiv, BinOp::UDiv),
                        O::Rem => by_sign(s, BinOp::SRem, BinOp::URem),
                        O::Min => by_sign(s, BinOp::SMin, BinOp::UMin),
                        O::Max => by_sign(s, BinOp::SMax, BinOp::UMax),
                        O::And => BinOp::And,
                        O::Or => BinOp::Or,
                        O::Xor => BinOp::Xor,
                        _ => return i.unsupported(),
                    };
                    self.b().binary(o, a, b2)
                }
            }
        };
        self.write(dst, r, s, pos)
    }

    /// The double-width product of `a` and `b` (of type `t`) and its type.
    fn wide_mul(&mut self, a: Value, b: Value, t: PtxType, pos: Pos) -> Result<(Value, PtxType)> {
        let wt = with_bits(t, bits(t) * 2);
        let wty = ir_type(self.types(), wt);
        let a = self.convert(a, wty, is_signed(t), pos)?;
        let b = self.convert(b, wty, is_signed(t), pos)?;
        Ok((self.b().binary(BinOp::Mul, a, b), wt))
    }

    /// Clamps a float to [0, 1] (NaN gives 0), PTX's `.sat`.
    fn saturate(&mut self, v: Value, t: PtxType) -> Value {
        let ty = ir_type(self.types(), t);
        let mut b = self.b();
        let z = b.const_float(ty, 0.0);
        let one = b.const_float(ty, 1.0);
        let lo = b.binary(BinOp::FMax, v, z);
        let r = b.binary(BinOp::FMin, lo, one);
        let nan = b.cmp(CmpPred::FUno, v, v);
        b.select(nan, z, r)
    }

    fn mad(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let dst = i.arg(0)?;
        if is_float(t) {
            let [a, b2, c] = self.read_args(i, 1, [t, t, t])?;
            let ty = ir_type(self.types(), t);
            let r = match t {
                PtxType::F32 => self.b().call_extern("fmaf", vec![a, b2, c], &[ty])[0],
                PtxType::F64 => self.b().call_extern("fma", vec![a, b2, c], &[ty])[0],
                _ => {
                    // Halves: fused in f32, then rounded back.
                    let f32t = self.types().f32();
                    let mut b = self.b();
                    let (a, b2, c) = (
                        b.cast(CastOp::FpExt, a, f32t),
                        b.cast(CastOp::FpExt, b2, f32t),
                        b.cast(CastOp::FpExt, c, f32t),
                    );
                    let r = b.call_extern("fmaf", vec![a, b2, c], &[f32t])[0];
                    b.cast(CastOp::FpTrunc, r, ty)
                }
            };
            let r = if i.has(Flag::Sat) {
                self.saturate(r, t)
            } else {
                r
            };
            return self.write(dst, r, false, pos);
        }
        let s = is_signed(t);
        let [a, b2] = self.read_args(i, 1, [t, t])?;
        let (prod, ct) = match i.mods.mul {
            Some(MulMode::Wide) if bits(t) > 32 => return i.unsupported(),
            Some(MulMode::Wide) => self.wide_mul(a, b2, t, pos)?,
            Some(MulMode::Hi) => {
                let o = by_sign(s, BinOp::SMulHi, BinOp::UMulHi);
                (self.b().binary(o, a, b2), t)
            }
            _ => (self.b().binary(BinOp::Mul, a, b2), t),
        };
        let c = self.read(i.arg(3)?, ct, pos)?;
        let cin = i.op == O::Madc;
        let set = i.has(Flag::Cc);
        let r = if cin || set {
            self.add_carry(prod, c, cin, set, false)
        } else if i.has(Flag::Sat) {
            return i.unsupported();
        } else {
            self.b().binary(BinOp::Add, prod, c)
        };
        self.write(dst, r, false, pos)
    }

    fn unary(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let dst = i.arg(0)?;
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let r = match (i.op, is_float(t)) {
            (O::Neg, true) => self.b().unary(UnOp::FNeg, a),
            (O::Neg, false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                b.binary(BinOp::Sub, z, a)
            }
            (O::Abs, true) => {
                let name = if t == PtxType::F64 { "fabs" } else { "fabsf" };
                if t == PtxType::F32 || t == PtxType::F64 {
                    self.b().call_extern(name, vec![a], &[ty])[0]
                } else {
                    let mut b = self.b();
                    let n = b.unary(UnOp::FNeg, a);
                    let z = b.const_float(ty, 0.0);
                    let c = b.cmp(CmpPred::FOlt, a, z);
                    b.select(c, n, a)
                }
            }
            (O::Abs, false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                let n = b.binary(BinOp::Sub, z, a);
                let c = b.cmp(CmpPred::Slt, a, z);
                b.select(c, n, a)
            }
            (O::Not, false) => {
                let mut b = self.b();
                let m = if t == PRED {
                    b.bool(true)
                } else {
                    b.const_int(ty, -1)
                };
                b.binary(BinOp::Xor, a, m)
            }
            (O::Cnot, false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                let c = b.cmp(CmpPred::Eq, a, z);
                b.cast(CastOp::ZExt, c, ty)
            }
            (O::Popc, false) | (O::Clz, false) => {
                let o = if i.op == O::Popc {
                    UnOp::Popc
                } else {
                    UnOp::Clz
                };
                let r = self.b().unary(o, a);
                let i32t = self.types().i32();
                self.convert(r, i32t, false, pos)?
            }
            (O::Brev, false) => self.b().unary(UnOp::Brev, a),
            _ => return i.unsupported(),
        };
        self.write(dst, r, is_signed(t), pos)
    }

    /// PTX shifts: the amount is unsigned and clamps at the width.
    fn shift(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = bits(t);
        let a = self.read(i.arg(1)?, t, pos)?;
        let amt_op = i.arg(2)?;
        let ty = ir_type(self.types(), t);
        let op = if i.op == O::Shl {
            BinOp::Shl
        } else if is_signed(t) {
            BinOp::AShr
        } else {
            BinOp::LShr
        };
        let r = if let Operand::Imm(Num::Int(k)) = amt_op {
            let k = *k as u64;
            let mut b = self.b();
            if k < u64::from(w) {
                let kk = b.const_int(ty, k as i64);
                b.binary(op, a, kk)
            } else if op == BinOp::AShr {
                let kk = b.const_int(ty, i64::from(w) - 1);
                b.binary(op, a, kk)
            } else {
                b.const_int(ty, 0)
            }
        } else {
            let amt = self.read(amt_op, PtxType::U32, pos)?;
            let amt = self.convert(amt, ty, false, pos)?;
            let mut b = self.b();
            let lim = b.const_int(ty, i64::from(w) - 1);
            let s = b.binary(BinOp::UMin, amt, lim);
            let v = b.binary(op, a, s);
            if op == BinOp::AShr {
                v
            } else {
                let wk = b.const_int(ty, i64::from(w));
                let inr = b.cmp(CmpPred::Ult, amt, wk);
                let z = b.const_int(ty, 0);
                b.select(inr, v, z)
            }
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: funnel shift of `b:a`.
    fn funnel(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let [a, b2, c] = self.read_args(i, 1, [PtxType::U32; 3])?;
        let i64t = self.types().i64();
        let i32t = self.types().i32();
        let wrap = i.mods.funnel == Some(FunnelMode::Wrap);
        let left = i.mods.dir == Some(ShiftDir::L);
        let mut b = self.b();
        let n = if wrap {
            let m = b.i32(31);
            b.binary(BinOp::And, c, m)
        } else {
            let m = b.i32(32);
            b.binary(BinOp::UMin, c, m)
        };
        let n = b.cast(CastOp::ZExt, n, i64t);
        let (v, k32) = concat64(&mut b, b2, a);
        let r = if left {
            let s = b.binary(BinOp::Shl, v, n);
            let s = b.binary(BinOp::LShr, s, k32);
            b.cast(CastOp::Trunc, s, i32t)
        } else {
            let s = b.binary(BinOp::LShr, v, n);
            b.cast(CastOp::Trunc, s, i32t)
        };
        self.write(i.arg(0)?, r, false, pos)
    }

    /// Operands `first`, `first + 1`, ... read as values of `tys`.
    fn read_args<const N: usize>(
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

    /// The position and length of a bit field (operands `k`, `k + 1`) as
    /// `ty`s, each taken modulo 256 as `bfe`/`bfi` do.
    fn bit_field(&mut self, i: &'p Inst, k: usize, ty: TypeId) -> Result<(Value, Value)> {
        let pos = i.pos;
        let [p, l] = self.read_args(i, k, [PtxType::U32; 2])?;
        let p = self.convert(p, ty, false, pos)?;
        let l = self.convert(l, ty, false, pos)?;
        let mut b = self.b();
        let ff = b.const_int(ty, 0xff);
        let p = b.binary(BinOp::And, p, ff);
        Ok((p, b.binary(BinOp::And, l, ff)))
    }

    fn bfe(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = i64::from(bits(t));
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let (p, l) = self.bit_field(i, 2, ty)?;
        let s = is_signed(t);
        let mut b = self.b();
        let wk = b.const_int(ty, w);
        let wm1 = b.const_int(ty, w - 1);
        let z = b.const_int(ty, 0);
        let one = b.const_int(ty, 1);
        let pc = b.binary(BinOp::UMin, p, wm1);
        let shifted = b.binary(if s { BinOp::AShr } else { BinOp::LShr }, a, pc);
        let p_in = b.cmp(CmpPred::Ult, p, wk);
        let over = if s { b.binary(BinOp::AShr, a, wm1) } else { z };
        let shifted = b.select(p_in, shifted, over);
        // Keep `l` bits, sign- or zero-extending the field.
        let l_full = b.cmp(CmpPred::Uge, l, wk);
        let lc = b.binary(BinOp::UMin, l, wm1);
        let m = b.binary(BinOp::Shl, one, lc);
        let m = b.binary(BinOp::Sub, m, one);
        let low = b.binary(BinOp::And, shifted, m);
        let r = if s {
            // Sign bit of the field: bit min(p + l - 1, w - 1) of `a`.
            let top = b.binary(BinOp::Add, p, l);
            let top = b.binary(BinOp::Sub, top, one);
            let top = b.binary(BinOp::UMin, top, wm1);
            let sb = b.binary(BinOp::LShr, a, top);
            let sb = b.binary(BinOp::And, sb, one);
            let neg = b.cmp(CmpPred::Ne, sb, z);
            let inv = b.const_int(ty, -1);
            let hi = b.binary(BinOp::Xor, m, inv);
            let ext = b.binary(BinOp::Or, low, hi);
            let v = b.select(neg, ext, low);
            b.select(l_full, shifted, v)
        } else {
            b.select(l_full, shifted, low)
        };
        let lz = b.cmp(CmpPred::Eq, l, z);
        let r = b.select(lz, z, r);
        self.write(i.arg(0)?, r, false, pos)
    }

    fn bfi(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = i64::from(bits(t));
        let [a, bb] = self.read_args(i, 1, [t, t])?;
        let ty = ir_type(self.types(), t);
        let (p, l) = self.bit_field(i, 3, ty)?;
        let mut b = self.b();
        let wk = b.const_int(ty, w);
        let wm1 = b.const_int(ty, w - 1);
        let one = b.const_int(ty, 1);
        let z = b.const_int(ty, 0);
        let inv = b.const_int(ty, -1);
        let lc = b.binary(BinOp::UMin, l, wm1);
        let m = b.binary(BinOp::Shl, one, lc);
        let m = b.binary(BinOp::Sub, m, one);
        let l_full = b.cmp(CmpPred::Uge, l, wk);
        let m = b.select(l_full, inv, m);
        let pc = b.binary(BinOp::UMin, p, wm1);
        let m = b.binary(BinOp::Shl, m, pc);
        let av = b.binary(BinOp::Shl, a, pc);
        let av = b.binary(BinOp::And, av, m);
        let nm = b.binary(BinOp::Xor, m, inv);
        let keep = b.binary(BinOp::And, bb, nm);
        let r = b.binary(BinOp::Or, keep, av);
        let p_out = b.cmp(CmpPred::Uge, p, wk);
        let lz = b.cmp(CmpPred::Eq, l, z);
        let none = b.binary(BinOp::Or, p_out, lz);
        let r = b.select(none, bb, r);
        self.write(i.arg(0)?, r, false, pos)
    }

    fn bfind(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let w = i64::from(bits(t));
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let i32t = self.types().i32();
        let mut b = self.b();
        let z = b.const_int(ty, 0);
        let v = if is_signed(t) {
            let inv = b.const_int(ty, -1);
            let n = b.cmp(CmpPred::Slt, a, z);
            let na = b.binary(BinOp::Xor, a, inv);
            b.select(n, na, a)
        } else {
            a
        };
        let clz = b.unary(UnOp::Clz, v);
        let clz = if w == 64 {
            b.cast(CastOp::Trunc, clz, i32t)
        } else {
            clz
        };
        let none = b.cmp(CmpPred::Eq, v, z);
        let all = b.i32(-1);
        let r = if i.has(Flag::Shiftamt) {
            clz
        } else {
            let top = b.i32((w - 1) as i32);
            b.binary(BinOp::Sub, top, clz)
        };
        let r = b.select(none, all, r);
        self.write(i.arg(0)?, r, false, pos)
    }

    fn prmt(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if i.mods.prmt.is_some() {
            return i.unsupported();
        }
        let [a, bb, c] = self.read_args(i, 1, [PtxType::U32; 3])?;
        let i64t = self.types().i64();
        let i32t = self.types().i32();
        let mut b = self.b();
        let (v, _) = concat64(&mut b, bb, a);
        let mut acc = b.i32(0);
        for k in 0..4 {
            let sh = b.i32(4 * k);
            let sel = b.binary(BinOp::LShr, c, sh);
            let f = b.i32(0xf);
            let sel = b.binary(BinOp::And, sel, f);
            let seven = b.i32(7);
            let idx = b.binary(BinOp::And, sel, seven);
            let three = b.i32(3);
            let bitpos = b.binary(BinOp::Shl, idx, three);
            let bp64 = b.cast(CastOp::ZExt, bitpos, i64t);
            let byte = b.binary(BinOp::LShr, v, bp64);
            let byte = b.cast(CastOp::Trunc, byte, i32t);
            let ff = b.i32(0xff);
            let byte = b.binary(BinOp::And, byte, ff);
            let eight = b.i32(8);
            let msb_mode = b.binary(BinOp::And, sel, eight);
            let z = b.i32(0);
            let use_msb = b.cmp(CmpPred::Ne, msb_mode, z);
            let x80 = b.i32(0x80);
            let sign = b.binary(BinOp::And, byte, x80);
            let neg = b.cmp(CmpPred::Ne, sign, z);
            let rep = b.select(neg, ff, z);
            let byte = b.select(use_msb, rep, byte);
            let out = b.i32(8 * k);
            let byte = b.binary(BinOp::Shl, byte, out);
            acc = b.binary(BinOp::Or, acc, byte);
        }
        self.write(i.arg(0)?, acc, false, pos)
    }

    fn math(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let a = self.read(i.arg(1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let d = t == PtxType::F64;
        if t != PtxType::F32 && t != PtxType::F64 {
            return i.unsupported();
        }
        let name = match (i.op, d) {
            (O::Rcp, _) => {
                let mut b = self.b();
                let one = b.const_float(ty, 1.0);
                let r = b.binary(BinOp::FDiv, one, a);
                return self.write(i.arg(0)?, r, false, pos);
            }
            (O::Sqrt, false) => "sqrtf",
            (O::Sqrt, true) => "sqrt",
            (O::Rsqrt, false) => "rsqrtf",
            (O::Rsqrt, true) => "rsqrt",
            (O::Sin, false) => "__sinf",
            (O::Cos, false) => "__cosf",
            (O::Ex2, false) => "exp2f",
            (O::Ex2, true) => "exp2",
            (O::Lg2, false) => "log2f",
            (O::Tanh, false) => "tanhf",
            (O::Tanh, true) => "tanh",
            _ => return i.unsupported(),
        };
        let r = self.b().call_extern(name, vec![a], &[ty])[0];
        self.write(i.arg(0)?, r, false, pos)
    }

    /// The IR predicate of comparison `cmp` at type `t`.
    fn cmp_pred(i: &Inst, cmp: CmpOp, t: PtxType) -> Result<CmpPred> {
        use CmpOp as C;
        use CmpPred::*;
        let s = is_signed(t);
        Ok(match (cmp, is_float(t)) {
            (C::Eq, true) => FOeq,
            (C::Ne, true) => FOne,
            (C::Lt, true) => FOlt,
            (C::Le, true) => FOle,
            (C::Gt, true) => FOgt,
            (C::Ge, true) => FOge,
            (C::Equ, true) => FUeq,
            (C::Neu, true) => FUne,
            (C::Ltu, true) => FUlt,
            (C::Leu, true) => FUle,
            (C::Gtu, true) => FUgt,
            (C::Geu, true) => FUge,
            (C::Num, true) => FOrd,
            (C::Nan, true) => FUno,
            (C::Eq, false) => Eq,
            (C::Ne, false) => Ne,
            (C::Lt, false) => by_sign(s, Slt, Ult),
            (C::Le, false) => by_sign(s, Sle, Ule),
            (C::Gt, false) => by_sign(s, Sgt, Ugt),
            (C::Ge, false) => by_sign(s, Sge, Uge),
            (C::Lo, false) => Ult,
            (C::Ls, false) => Ule,
            (C::Hi, false) => Ugt,
            (C::Hs, false) => Uge,
            _ => {
                return err(
                    i.pos,
                    format!("unknown comparison `{}` in `{}`", cmp.name(), i.name),
                )
            }
        })
    }

    /// The comparison of `setp`/`set`, combined with the optional boolean.
    fn compare(&mut self, i: &'p Inst, t: PtxType, first: usize) -> Result<Value> {
        let pos = i.pos;
        // The decoder requires the comparison.
        let Some(cmp) = i.mods.cmp else {
            return i.unsupported();
        };
        let pred = Self::cmp_pred(i, cmp, t)?;
        let [a, b2] = self.read_args(i, first, [t, t])?;
        let c = self.b().cmp(pred, a, b2);
        let bop = i.mods.bool_op.map(|o| match o {
            BoolOp::And => BinOp::And,
            BoolOp::Or => BinOp::Or,
            BoolOp::Xor => BinOp::Xor,
        });
        Ok(match bop {
            Some(o) => {
                let q = self.read(i.arg(first + 2)?, PRED, pos)?;
                self.b().binary(o, c, q)
            }
            None => c,
        })
    }

    fn setp(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let c = self.compare(i, t, 1)?;
        match i.arg(0)? {
            Operand::Vec(ps) if ps.len() == 2 => {
                // `p|q`: q is the complement.
                self.write(&ps[0], c, false, pos)?;
                let mut b = self.b();
                let one = b.bool(true);
                let n = b.binary(BinOp::Xor, c, one);
                self.write(&ps[1], n, false, pos)
            }
            d => self.write(d, c, false, pos),
        }
    }

    fn set(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let (dt, st) = i.types2()?;
        let c = self.compare(i, st, 1)?;
        let ty = ir_type(self.types(), dt);
        let mut b = self.b();
        let (t, f) = if is_float(dt) {
            (b.const_float(ty, 1.0), b.const_float(ty, 0.0))
        } else {
            (b.const_int(ty, -1), b.const_int(ty, 0))
        };
        let r = b.select(c, t, f);
        self.write(i.arg(0)?, r, false, pos)
    }

    fn cvt(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if let Some(half) = i.packed() {
            // `cvt.rn.f16x2.f32 d, a, b`: a in the upper half, b in the lower.
            if !i.has_type(PtxType::F32)
                || matches!(
                    i.mods.round,
                    Some(Rounding::Rz | Rounding::Rm | Rounding::Rp)
                )
                || i.has(Flag::Relu)
                || i.has(Flag::Satfinite)
            {
                return i.unsupported();
            }
            let hty = match half {
                Half::F16 => self.types().f16(),
                Half::Bf16 => self.types().bf16(),
            };
            let i16t = self.types().i16();
            let i32t = self.types().i32();
            let [a, b2] = self.read_args(i, 1, [PtxType::F32; 2])?;
            let mut b = self.b();
            let ha = b.cast(CastOp::FpTrunc, a, hty);
            let hb = b.cast(CastOp::FpTrunc, b2, hty);
            let ia = b.cast(CastOp::Bitcast, ha, i16t);
            let ib = b.cast(CastOp::Bitcast, hb, i16t);
            let wa = b.cast(CastOp::ZExt, ia, i32t);
            let wb = b.cast(CastOp::ZExt, ib, i32t);
            let k = b.i32(16);
            let hi = b.binary(BinOp::Shl, wa, k);
            let r = b.binary(BinOp::Or, hi, wb);
            return self.write(i.arg(0)?, r, false, pos);
        }
        let (dt, st) = i.types2()?;
        let a = self.read(i.arg(1)?, st, pos)?;
        let dty = ir_type(self.types(), dt);
        // Rounding to an integral value; float roundings are to nearest.
        let rnd = i.mods.round.filter(|r| {
            matches!(
                r,
                Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi
            )
        });
        let sat = i.has(Flag::Sat);
        let round = |cx: &mut Self, v: Value, t: PtxType, mode: Rounding| -> Result<Value> {
            let ty = ir_type(cx.types(), t);
            let d = t == PtxType::F64;
            let name = match (mode, d) {
                (Rounding::Rni, false) => "rintf",
                (Rounding::Rni, true) => "rint",
                (Rounding::Rzi, false) => "truncf",
                (Rounding::Rzi, true) => "trunc",
                (Rounding::Rmi, false) => "floorf",
                (Rounding::Rmi, true) => "floor",
                (Rounding::Rpi, false) => "ceilf",
                (Rounding::Rpi, true) => "ceil",
                _ => return Ok(v),
            };
            if t != PtxType::F32 && t != PtxType::F64 {
                return err(
                    pos,
                    format!("unsupported rounding of {t:?} in `{}`", i.name),
                );
            }
            Ok(cx.b().call_extern(name, vec![v], &[ty])[0])
        };
        let r = match (is_float(st), is_float(dt)) {
            (false, false) => {
                if sat && bits(dt) < bits(st) {
                    // Clamp to the destination range.
                    let sty = ir_type(self.types(), st);
                    let (lo, hi) = if is_signed(dt) {
                        let h = (1i64 << (bits(dt) - 1)) - 1;
                        (-h - 1, h)
                    } else {
                        (0, ((1u64 << bits(dt)) - 1) as i64)
                    };
                    let mut b = self.b();
                    let l = b.const_int(sty, lo);
                    let h = b.const_int(sty, hi);
                    let v = if is_signed(st) {
                        let v = b.binary(BinOp::SMax, a, l);
                        b.binary(BinOp::SMin, v, h)
                    } else {
                        b.binary(BinOp::UMin, a, h)
                    };
                    b.cast(CastOp::Trunc, v, dty)
                } else if sat {
                    return i.unsupported();
                } else {
                    self.convert(a, dty, is_signed(st), pos)?
                }
            }
            (false, true) => {
                let o = if is_signed(st) {
                    CastOp::SiToFp
                } else {
                    CastOp::UiToFp
                };
                let r = self.b().cast(o, a, dty);
                if sat {
                    self.saturate(r, dt)
                } else {
                    r
                }
            }
            (true, false) => {
                let v = match rnd {
                    Some(m) if m != Rounding::Rzi => round(self, a, st, m)?,
                    _ => a,
                };
                let o = if is_signed(dt) {
                    CastOp::FpToSi
                } else {
                    CastOp::FpToUi
                };
                self.b().cast(o, v, dty)
            }
            (true, true) => {
                let v = if bits(dt) > bits(st) {
                    self.b().cast(CastOp::FpExt, a, dty)
                } else if bits(dt) < bits(st) {
                    self.b().cast(CastOp::FpTrunc, a, dty)
                } else if dt != st {
                    let f32t = self.types().f32();
                    let w = self.b().cast(CastOp::FpExt, a, f32t);
                    self.b().cast(CastOp::FpTrunc, w, dty)
                } else {
                    a
                };
                let v = match rnd {
                    Some(m) => round(self, v, dt, m)?,
                    None => v,
                };
                if sat {
                    self.saturate(v, dt)
                } else {
                    v
                }
            }
        };
        self.write(i.arg(0)?, r, is_signed(dt), pos)
    }

    fn barrier(&mut self, i: &'p Inst) -> Result<()> {
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

    fn atom(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let space = i.space();
        let red = i.op == O::Red;
        let (addr, first) = if red { (i.arg(0)?, 1) } else { (i.arg(1)?, 2) };
        let scope = mem_scope(i.mods.scope);
        let ptr = self.address(addr, space, pos)?;
        let ty = ir_type(self.types(), t);
        let r = if i.mods.atom == Some(AtomOp::Cas) {
            let [e, n] = self.read_args(i, first, [t, t])?;
            self.b()
                .op1(OpKind::AtomicCas { scope }, vec![ptr, e, n], ty)
        } else {
            let s = is_signed(t);
            let f = is_float(t);
            let op = match i.mods.atom {
                Some(AtomOp::Add) if f => AtomicOp::FAdd,
                Some(AtomOp::Add) => AtomicOp::Add,
                Some(AtomOp::Min) if f => AtomicOp::FMin,
                Some(AtomOp::Min) => by_sign(s, AtomicOp::SMin, AtomicOp::UMin),
                Some(AtomOp::Max) if f => AtomicOp::FMax,
                Some(AtomOp::Max) => by_sign(s, AtomicOp::SMax, AtomicOp::UMax),
                Some(AtomOp::Inc) => AtomicOp::Inc,
                Some(AtomOp::Dec) => AtomicOp::Dec,
                Some(AtomOp::Exch) => AtomicOp::Xchg,
                Some(AtomOp::And) => AtomicOp::And,
                Some(AtomOp::Or) => AtomicOp::Or,
                Some(AtomOp::Xor) => AtomicOp::Xor,
                Some(AtomOp::Cas) | None => return i.unsupported(),
            };
            let v = self.read(i.arg(first)?, t, pos)?;
            self.b()
                .op1(OpKind::AtomicRmw { op, scope }, vec![ptr, v], ty)
        };
        if red {
            return Ok(());
        }
        self.write(i.arg(0)?, r, false, pos)
    }

    fn shfl(&mut self, i: &'p Inst) -> Result<()> {
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

    fn vote(&mut self, i: &'p Inst) -> Result<()> {
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

    fn tex(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let (dt, ct) = i.types2()?;
        let (handle, coords) = match i.arg(1)? {
            Operand::Tex(h, c) => (&**h, c),
            _ => return err(pos, "`tex` needs a `[texture, {coordinates}]` operand"),
        };
        let kind = match (i.mods.geom, is_float(ct)) {
            (Some(TexGeom::D1), true) => TexKind::Tex1D,
            (Some(TexGeom::D1), false) => TexKind::Fetch1D,
            (Some(TexGeom::D2), true) => TexKind::Tex2D,
            (Some(TexGeom::D3), true) => TexKind::Tex3D,
            _ => return i.unsupported(),
        };
        let h = match handle {
            Operand::Sym(s) => match self.mc.syms.get(s.as_str()).copied() {
                Some(ModSym::Global(g, _))
                    if matches!(self.mc.module.globals[g].kind, GlobalKind::Texture { .. }) =>
                {
                    let i64t = self.types().i64();
                    self.b().op1(OpKind::TexRef(g), vec![], i64t)
                }
                _ => self.read(handle, PtxType::U64, pos)?,
            },
            _ => self.read(handle, PtxType::U64, pos)?,
        };
        let mut ops = vec![h];
        let ctype = if is_float(ct) {
            PtxType::F32
        } else {
            PtxType::S32
        };
        for k in 0..kind.coords() {
            let c = coords
                .get(k)
                .ok_or_else(|| Error::new(pos, "too few texture coordinates"))?;
            ops.push(self.read(c, ctype, pos)?);
        }
        let dsts: Vec<&Operand> = match i.arg(0)? {
            Operand::Vec(v) => v.iter().collect(),
            d => vec![d],
        };
        let ty = ir_type(self.types(), dt);
        let tys = vec![ty; dsts.len().clamp(1, 4)];
        let op = self.b().op(OpKind::TexFetch(kind), ops, &tys, vec![]);
        let res = self.func.ops[op].results.clone();
        for (d, r) in dsts.into_iter().zip(res) {
            self.write(d, r, false, pos)?;
        }
        Ok(())
    }
}
