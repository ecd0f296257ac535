//! Lowering of individual PTX instructions.

use super::*;

const F32: PtxType = PtxType::Float {
    bits: 32,
    brain: false,
};
const F64: PtxType = PtxType::Float {
    bits: 64,
    brain: false,
};
const U32: PtxType = PtxType::Int {
    bits: 32,
    signed: false,
};
const U64: PtxType = PtxType::Int {
    bits: 64,
    signed: false,
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

fn with_bits(t: PtxType, b: u8) -> PtxType {
    match t {
        PtxType::Int { signed, .. } => PtxType::Int { bits: b, signed },
        other => other,
    }
}

impl<'m, 'p> FnCx<'m, 'p> {
    fn arg(&self, i: &'p Inst, k: usize) -> Result<&'p Operand> {
        i.args.get(k).ok_or_else(|| {
            Error::new(
                i.pos,
                format!("`{}` needs at least {} operands", i.full_name(), k + 1),
            )
        })
    }

    fn ty(&self, i: &Inst) -> Result<PtxType> {
        inst_type(i).ok_or_else(|| Error::new(i.pos, format!("`{}` needs a type", i.full_name())))
    }

    fn unsupported<T>(&self, i: &Inst) -> Result<T> {
        err(
            i.pos,
            format!("unsupported instruction `{}`", i.full_name()),
        )
    }

    /// Lowers one instruction (its guard becomes an `if`).
    pub(super) fn inst(&mut self, i: &'p Inst) -> Result<()> {
        self.loc = self.mc.loc(i.pos);
        if let Some((neg, p)) = &i.guard {
            let mut c = self.read_reg(p, PRED, i.pos)?;
            if *neg {
                let mut b = self.b();
                let t = b.bool(true);
                c = b.binary(BinOp::Xor, c, t);
            }
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
        if i.has("f16x2") || i.has("bf16x2") {
            return match i.op.as_str() {
                "cvt" => self.cvt(i),
                "atom" | "red" => self.atom_packed(i),
                "add" | "sub" | "mul" | "fma" | "min" | "max" | "neg" | "abs" => self.packed(i),
                "mov" => {
                    let v = self.read(self.arg(i, 1)?, U32, pos)?;
                    self.write(self.arg(i, 0)?, v, false, pos)
                }
                _ => self.unsupported(i),
            };
        }
        if matches!(i.op.as_str(), "atom" | "red") && (i.has("f16") || i.has("bf16")) {
            return self.atom_packed(i);
        }
        match i.op.as_str() {
            "mov" => {
                let t = self.ty(i)?;
                let v = self.read(self.arg(i, 1)?, t, pos)?;
                self.write(self.arg(i, 0)?, v, false, pos)
            }
            "cvta" => self.cvta(i),
            "ld" | "ldu" => self.load(i),
            "st" => self.store(i),
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor"
            | "addc" | "subc" => self.binary(i),
            "mad" | "madc" | "fma" => self.mad(i),
            "mul24" | "mad24" => self.unsupported(i),
            "neg" | "abs" | "not" | "cnot" | "popc" | "clz" | "brev" => self.unary(i),
            "shl" | "shr" => self.shift(i),
            "shf" => self.funnel(i),
            "bfe" => self.bfe(i),
            "bfi" => self.bfi(i),
            "bfind" => self.bfind(i),
            "prmt" => self.prmt(i),
            "sad" => {
                let t = self.ty(i)?;
                let a = self.read(self.arg(i, 1)?, t, pos)?;
                let b2 = self.read(self.arg(i, 2)?, t, pos)?;
                let c = self.read(self.arg(i, 3)?, t, pos)?;
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
                self.write(self.arg(i, 0)?, r, false, pos)
            }
            "copysign" => {
                let t = self.ty(i)?;
                let a = self.read(self.arg(i, 1)?, t, pos)?;
                let b2 = self.read(self.arg(i, 2)?, t, pos)?;
                let ty = ir_type(self.types(), t);
                let name = if t == F64 { "copysign" } else { "copysignf" };
                let r = self.b().call_extern(name, vec![b2, a], &[ty])[0];
                self.write(self.arg(i, 0)?, r, false, pos)
            }
            "rcp" | "sqrt" | "rsqrt" | "sin" | "cos" | "ex2" | "lg2" | "tanh" => self.math(i),
            "testp" => self.unsupported(i),
            "setp" => self.setp(i),
            "set" => self.set(i),
            "selp" => {
                let t = self.ty(i)?;
                let a = self.read(self.arg(i, 1)?, t, pos)?;
                let b2 = self.read(self.arg(i, 2)?, t, pos)?;
                let c = self.read(self.arg(i, 3)?, PRED, pos)?;
                let r = self.b().select(c, a, b2);
                self.write(self.arg(i, 0)?, r, false, pos)
            }
            "slct" => {
                let (t, ct) =
                    inst_types2(i).ok_or_else(|| Error::new(pos, "`slct` needs two types"))?;
                let a = self.read(self.arg(i, 1)?, t, pos)?;
                let b2 = self.read(self.arg(i, 2)?, t, pos)?;
                let c = self.read(self.arg(i, 3)?, ct, pos)?;
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
                self.write(self.arg(i, 0)?, r, false, pos)
            }
            "cvt" => self.cvt(i),
            "bar" | "barrier" => self.barrier(i),
            "membar" | "fence" => {
                let scope = if i.has("cta") {
                    MemScope::Block
                } else if i.has("sys") {
                    MemScope::System
                } else {
                    MemScope::Device
                };
                self.b().fence(scope);
                Ok(())
            }
            "atom" | "red" => self.atom(i),
            "shfl" => self.shfl(i),
            "vote" => self.vote(i),
            "activemask" => {
                let t = self.types().i32();
                let v = self.b().op1(OpKind::ActiveMask, vec![], t);
                self.write(self.arg(i, 0)?, v, false, pos)
            }
            "tex" => self.tex(i),
            "call" => self.call(i),
            "trap" => {
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
            "nanosleep" | "prefetch" | "prefetchu" | "pmevent" | "brkpt" => Ok(()),
            _ => self.unsupported(i),
        }
    }

    /// The half type of a packed (`f16x2`/`bf16x2`) instruction.
    fn half_type(&mut self, i: &Inst) -> TypeId {
        if i.has("bf16x2") || i.has("bf16") {
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
        let nops = match i.op.as_str() {
            "neg" | "abs" => 1,
            "fma" => 3,
            _ => 2,
        };
        let mut ins = Vec::new();
        for k in 0..nops {
            ins.push(self.read(self.arg(i, k + 1)?, U32, pos)?);
        }
        let f32t = self.types().f32();
        let mut lanes = Vec::new();
        for lane in 0..2 {
            let xs: Vec<Value> = ins
                .iter()
                .map(|&v| self.unpack_half(v, lane, hty))
                .collect();
            let r = match i.op.as_str() {
                "add" => self.b().binary(BinOp::FAdd, xs[0], xs[1]),
                "sub" => self.b().binary(BinOp::FSub, xs[0], xs[1]),
                "mul" => self.b().binary(BinOp::FMul, xs[0], xs[1]),
                "min" => self.b().binary(BinOp::FMin, xs[0], xs[1]),
                "max" => self.b().binary(BinOp::FMax, xs[0], xs[1]),
                "neg" => self.b().unary(UnOp::FNeg, xs[0]),
                "abs" => self.b().call_extern("fabsf", vec![xs[0]], &[f32t])[0],
                _ => self.b().call_extern("fmaf", xs.clone(), &[f32t])[0],
            };
            lanes.push(r);
        }
        let r = self.pack_halves(lanes[0], lanes[1], hty);
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    /// `atom.add.noftz.f16x2`: a compare-and-swap loop on the 32-bit word.
    fn atom_packed(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if !i.has("add") {
            return self.unsupported(i);
        }
        let red = i.op == "red";
        let (addr, first) = if red {
            (self.arg(i, 0)?, 1)
        } else {
            (self.arg(i, 1)?, 2)
        };
        let space = Self::space_of(i);
        let ptr = self.address(addr, space, pos)?;
        let packed = i.has("f16x2") || i.has("bf16x2");
        let wt = if packed {
            U32
        } else {
            PtxType::Int {
                bits: 16,
                signed: false,
            }
        };
        let v = self.read(self.arg(i, first)?, wt, pos)?;
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
            self.write(self.arg(i, 0)?, prev, false, pos)?;
        }
        let again = self.b().cmp(CmpPred::Ne, prev, old);
        self.b().condition(again, vec![]);
        self.cur = saved;
        Ok(())
    }

    fn cvta(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let to = i.has("to");
        let shared = i.has("shared");
        let v = self.read(self.arg(i, 1)?, t, pos)?;
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
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn vec_width(i: &Inst) -> usize {
        if i.has("v4") {
            4
        } else if i.has("v2") {
            2
        } else if i.has("v8") {
            8
        } else {
            1
        }
    }

    fn load(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let space = Self::space_of(i);
        let dst = self.arg(i, 0)?;
        let addr = self.arg(i, 1)?;
        // Scalar kernel parameters are read directly.
        if space == StateSpace::Param {
            if let Operand::Addr(b, 0) = addr {
                if let Operand::Sym(s) = &**b {
                    if let Some((v, pt)) = self.kparams.get(s.as_str()).copied() {
                        if pt.bytes() == t.bytes() && Self::vec_width(i) == 1 {
                            let ty = ir_type(self.types(), t);
                            let v = self.convert(v, ty, false, pos)?;
                            return self.write(dst, v, is_signed(t), pos);
                        }
                    }
                }
            }
        }
        let volatile = i.has("volatile");
        let base = self.address(addr, space, pos)?;
        let ty = ir_type(self.types(), t);
        let i8t = self.types().i8();
        let n = Self::vec_width(i);
        let dsts: Vec<&Operand> = match (n, dst) {
            (1, d) => vec![d],
            (_, Operand::Vec(v)) if v.len() == n => v.iter().collect(),
            _ => {
                return err(
                    pos,
                    format!("`{}` needs a vector of {n} destinations", i.full_name()),
                )
            }
        };
        for (k, d) in dsts.into_iter().enumerate() {
            if *d == Operand::Sink {
                continue;
            }
            let mut b = self.b();
            let p = if k == 0 {
                base
            } else {
                let off = b.i64((k as u64 * t.bytes()) as i64);
                b.ptr_index(base, off, i8t)
            };
            let v = b.op1(
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
        let t = self.ty(i)?;
        let space = Self::space_of(i);
        let addr = self.arg(i, 0)?;
        let src = self.arg(i, 1)?;
        if space == StateSpace::Param {
            if let Operand::Addr(b, 0) = addr {
                if let Operand::Sym(s) = &**b {
                    self.param_src.insert(s.clone(), src.clone());
                }
            }
        }
        let volatile = i.has("volatile");
        let base = self.address(addr, space, pos)?;
        let i8t = self.types().i8();
        let n = Self::vec_width(i);
        let srcs: Vec<&Operand> = match (n, src) {
            (1, s) => vec![s],
            (_, Operand::Vec(v)) if v.len() == n => v.iter().collect(),
            _ => {
                return err(
                    pos,
                    format!("`{}` needs a vector of {n} values", i.full_name()),
                )
            }
        };
        for (k, s) in srcs.into_iter().enumerate() {
            let v = self.read(s, t, pos)?;
            let mut b = self.b();
            let p = if k == 0 {
                base
            } else {
                let off = b.i64((k as u64 * t.bytes()) as i64);
                b.ptr_index(base, off, i8t)
            };
            b.op(OpKind::Store { volatile }, vec![p, v], &[], vec![]);
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
        let t = self.ty(i)?;
        let dst = self.arg(i, 0)?;
        let op = i.op.as_str();
        if i.has("wide") && bits(t) > 32 {
            return self.unsupported(i);
        }
        if op == "mul" && i.has("wide") {
            let a = self.read(self.arg(i, 1)?, t, pos)?;
            let b2 = self.read(self.arg(i, 2)?, t, pos)?;
            let wt = with_bits(t, bits(t) * 2);
            let wty = ir_type(self.types(), wt);
            let a = self.convert(a, wty, is_signed(t), pos)?;
            let b2 = self.convert(b2, wty, is_signed(t), pos)?;
            let r = self.b().binary(BinOp::Mul, a, b2);
            return self.write(dst, r, false, pos);
        }
        let a = self.read(self.arg(i, 1)?, t, pos)?;
        let b2 = self.read(self.arg(i, 2)?, t, pos)?;
        let s = is_signed(t);
        let r = if t == PRED {
            let o = match op {
                "and" => BinOp::And,
                "or" => BinOp::Or,
                "xor" => BinOp::Xor,
                _ => return self.unsupported(i),
            };
            self.b().binary(o, a, b2)
        } else if is_float(t) {
            let o = match op {
                "add" => BinOp::FAdd,
                "sub" => BinOp::FSub,
                "mul" => BinOp::FMul,
                "div" => BinOp::FDiv,
                "min" => BinOp::FMin,
                "max" => BinOp::FMax,
                _ => return self.unsupported(i),
            };
            let r = self.b().binary(o, a, b2);
            if i.has("sat") {
                self.saturate(r, t)
            } else {
                r
            }
        } else {
            match op {
                "add" | "sub" | "addc" | "subc" => {
                    let sub = op.starts_with("sub");
                    let cin = op.ends_with('c');
                    let set = i.has("cc");
                    if i.has("sat") {
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
                "mul" => {
                    let o = if i.has("hi") {
                        if s {
                            BinOp::SMulHi
                        } else {
                            BinOp::UMulHi
                        }
                    } else {
                        BinOp::Mul
                    };
                    self.b().binary(o, a, b2)
                }
                "div" => self
                    .b()
                    .binary(if s { BinOp::SDiv } else { BinOp::UDiv }, a, b2),
                "rem" => self
                    .b()
                    .binary(if s { BinOp::SRem } else { BinOp::URem }, a, b2),
                "min" => self
                    .b()
                    .binary(if s { BinOp::SMin } else { BinOp::UMin }, a, b2),
                "max" => self
                    .b()
                    .binary(if s { BinOp::SMax } else { BinOp::UMax }, a, b2),
                "and" => self.b().binary(BinOp::And, a, b2),
                "or" => self.b().binary(BinOp::Or, a, b2),
                "xor" => self.b().binary(BinOp::Xor, a, b2),
                _ => return self.unsupported(i),
            }
        };
        self.write(dst, r, s, pos)
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
        let t = self.ty(i)?;
        let dst = self.arg(i, 0)?;
        if is_float(t) {
            let a = self.read(self.arg(i, 1)?, t, pos)?;
            let b2 = self.read(self.arg(i, 2)?, t, pos)?;
            let c = self.read(self.arg(i, 3)?, t, pos)?;
            let ty = ir_type(self.types(), t);
            let r = match t {
                F32 => self.b().call_extern("fmaf", vec![a, b2, c], &[ty])[0],
                F64 => self.b().call_extern("fma", vec![a, b2, c], &[ty])[0],
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
            let r = if i.has("sat") { self.saturate(r, t) } else { r };
            return self.write(dst, r, false, pos);
        }
        let s = is_signed(t);
        let a = self.read(self.arg(i, 1)?, t, pos)?;
        let b2 = self.read(self.arg(i, 2)?, t, pos)?;
        if i.has("wide") && bits(t) > 32 {
            return self.unsupported(i);
        }
        let (prod, ct) = if i.has("wide") {
            let wt = with_bits(t, bits(t) * 2);
            let wty = ir_type(self.types(), wt);
            let a = self.convert(a, wty, s, pos)?;
            let b2 = self.convert(b2, wty, s, pos)?;
            (self.b().binary(BinOp::Mul, a, b2), wt)
        } else if i.has("hi") {
            (
                self.b()
                    .binary(if s { BinOp::SMulHi } else { BinOp::UMulHi }, a, b2),
                t,
            )
        } else {
            (self.b().binary(BinOp::Mul, a, b2), t)
        };
        let c = self.read(self.arg(i, 3)?, ct, pos)?;
        let cin = i.op == "madc";
        let set = i.has("cc");
        let r = if cin || set {
            self.add_carry(prod, c, cin, set, false)
        } else if i.has("sat") {
            return self.unsupported(i);
        } else {
            self.b().binary(BinOp::Add, prod, c)
        };
        self.write(dst, r, false, pos)
    }

    fn unary(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let dst = self.arg(i, 0)?;
        let a = self.read(self.arg(i, 1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let r = match (i.op.as_str(), is_float(t)) {
            ("neg", true) => self.b().unary(UnOp::FNeg, a),
            ("neg", false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                b.binary(BinOp::Sub, z, a)
            }
            ("abs", true) => {
                let name = if t == F64 { "fabs" } else { "fabsf" };
                if t == F32 || t == F64 {
                    self.b().call_extern(name, vec![a], &[ty])[0]
                } else {
                    let mut b = self.b();
                    let n = b.unary(UnOp::FNeg, a);
                    let z = b.const_float(ty, 0.0);
                    let c = b.cmp(CmpPred::FOlt, a, z);
                    b.select(c, n, a)
                }
            }
            ("abs", false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                let n = b.binary(BinOp::Sub, z, a);
                let c = b.cmp(CmpPred::Slt, a, z);
                b.select(c, n, a)
            }
            ("not", false) => {
                let mut b = self.b();
                let m = if t == PRED {
                    b.bool(true)
                } else {
                    b.const_int(ty, -1)
                };
                b.binary(BinOp::Xor, a, m)
            }
            ("cnot", false) => {
                let mut b = self.b();
                let z = b.const_int(ty, 0);
                let c = b.cmp(CmpPred::Eq, a, z);
                b.cast(CastOp::ZExt, c, ty)
            }
            ("popc", false) | ("clz", false) => {
                let o = if i.op == "popc" {
                    UnOp::Popc
                } else {
                    UnOp::Clz
                };
                let r = self.b().unary(o, a);
                let i32t = self.types().i32();
                self.convert(r, i32t, false, pos)?
            }
            ("brev", false) => self.b().unary(UnOp::Brev, a),
            _ => return self.unsupported(i),
        };
        self.write(dst, r, is_signed(t), pos)
    }

    /// PTX shifts: the amount is unsigned and clamps at the width.
    fn shift(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let w = bits(t);
        let a = self.read(self.arg(i, 1)?, t, pos)?;
        let amt_op = self.arg(i, 2)?;
        let ty = ir_type(self.types(), t);
        let op = if i.op == "shl" {
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
            let amt = self.read(amt_op, U32, pos)?;
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
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    /// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: funnel shift of `b:a`.
    fn funnel(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let a = self.read(self.arg(i, 1)?, U32, pos)?;
        let b2 = self.read(self.arg(i, 2)?, U32, pos)?;
        let c = self.read(self.arg(i, 3)?, U32, pos)?;
        let i64t = self.types().i64();
        let i32t = self.types().i32();
        let wrap = i.has("wrap");
        let left = i.has("l");
        let mut b = self.b();
        let n = if wrap {
            let m = b.i32(31);
            b.binary(BinOp::And, c, m)
        } else {
            let m = b.i32(32);
            b.binary(BinOp::UMin, c, m)
        };
        let n = b.cast(CastOp::ZExt, n, i64t);
        let hi = b.cast(CastOp::ZExt, b2, i64t);
        let k32 = b.i64(32);
        let hi = b.binary(BinOp::Shl, hi, k32);
        let lo = b.cast(CastOp::ZExt, a, i64t);
        let v = b.binary(BinOp::Or, hi, lo);
        let r = if left {
            let s = b.binary(BinOp::Shl, v, n);
            let s = b.binary(BinOp::LShr, s, k32);
            b.cast(CastOp::Trunc, s, i32t)
        } else {
            let s = b.binary(BinOp::LShr, v, n);
            b.cast(CastOp::Trunc, s, i32t)
        };
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn bfe(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let w = i64::from(bits(t));
        let a = self.read(self.arg(i, 1)?, t, pos)?;
        let p = self.read(self.arg(i, 2)?, U32, pos)?;
        let l = self.read(self.arg(i, 3)?, U32, pos)?;
        let ty = ir_type(self.types(), t);
        let p = self.convert(p, ty, false, pos)?;
        let l = self.convert(l, ty, false, pos)?;
        let s = is_signed(t);
        let mut b = self.b();
        let ff = b.const_int(ty, 0xff);
        let p = b.binary(BinOp::And, p, ff);
        let l = b.binary(BinOp::And, l, ff);
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
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn bfi(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let w = i64::from(bits(t));
        let a = self.read(self.arg(i, 1)?, t, pos)?;
        let bb = self.read(self.arg(i, 2)?, t, pos)?;
        let p = self.read(self.arg(i, 3)?, U32, pos)?;
        let l = self.read(self.arg(i, 4)?, U32, pos)?;
        let ty = ir_type(self.types(), t);
        let p = self.convert(p, ty, false, pos)?;
        let l = self.convert(l, ty, false, pos)?;
        let mut b = self.b();
        let ff = b.const_int(ty, 0xff);
        let p = b.binary(BinOp::And, p, ff);
        let l = b.binary(BinOp::And, l, ff);
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
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn bfind(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let w = i64::from(bits(t));
        let a = self.read(self.arg(i, 1)?, t, pos)?;
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
        let r = if i.has("shiftamt") {
            clz
        } else {
            let top = b.i32((w - 1) as i32);
            b.binary(BinOp::Sub, top, clz)
        };
        let r = b.select(none, all, r);
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn prmt(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if i.mods
            .iter()
            .any(|m| matches!(m.as_str(), "f4e" | "b4e" | "rc8" | "ecl" | "ecr" | "rc16"))
        {
            return self.unsupported(i);
        }
        let a = self.read(self.arg(i, 1)?, U32, pos)?;
        let bb = self.read(self.arg(i, 2)?, U32, pos)?;
        let c = self.read(self.arg(i, 3)?, U32, pos)?;
        let i64t = self.types().i64();
        let i32t = self.types().i32();
        let mut b = self.b();
        let hi = b.cast(CastOp::ZExt, bb, i64t);
        let k32 = b.i64(32);
        let hi = b.binary(BinOp::Shl, hi, k32);
        let lo = b.cast(CastOp::ZExt, a, i64t);
        let v = b.binary(BinOp::Or, hi, lo);
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
        self.write(self.arg(i, 0)?, acc, false, pos)
    }

    fn math(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let a = self.read(self.arg(i, 1)?, t, pos)?;
        let ty = ir_type(self.types(), t);
        let d = t == F64;
        if t != F32 && t != F64 {
            return self.unsupported(i);
        }
        let name = match i.op.as_str() {
            "rcp" => {
                let mut b = self.b();
                let one = b.const_float(ty, 1.0);
                let r = b.binary(BinOp::FDiv, one, a);
                return self.write(self.arg(i, 0)?, r, false, pos);
            }
            "sqrt" => {
                if d {
                    "sqrt"
                } else {
                    "sqrtf"
                }
            }
            "rsqrt" => {
                if d {
                    "rsqrt"
                } else {
                    "rsqrtf"
                }
            }
            "sin" if !d => "__sinf",
            "cos" if !d => "__cosf",
            "ex2" => {
                if d {
                    "exp2"
                } else {
                    "exp2f"
                }
            }
            "lg2" if !d => "log2f",
            "tanh" => {
                if d {
                    "tanh"
                } else {
                    "tanhf"
                }
            }
            _ => return self.unsupported(i),
        };
        let r = self.b().call_extern(name, vec![a], &[ty])[0];
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn cmp_pred(&self, i: &Inst, cmp: &str, t: PtxType) -> Result<CmpPred> {
        use CmpPred::*;
        Ok(if is_float(t) {
            match cmp {
                "eq" => FOeq,
                "ne" => FOne,
                "lt" => FOlt,
                "le" => FOle,
                "gt" => FOgt,
                "ge" => FOge,
                "equ" => FUeq,
                "neu" => FUne,
                "ltu" => FUlt,
                "leu" => FUle,
                "gtu" => FUgt,
                "geu" => FUge,
                "num" => FOrd,
                "nan" => FUno,
                _ => {
                    return err(
                        i.pos,
                        format!("unknown comparison `{cmp}` in `{}`", i.full_name()),
                    )
                }
            }
        } else {
            let s = is_signed(t);
            match cmp {
                "eq" => Eq,
                "ne" => Ne,
                "lt" => {
                    if s {
                        Slt
                    } else {
                        Ult
                    }
                }
                "le" => {
                    if s {
                        Sle
                    } else {
                        Ule
                    }
                }
                "gt" => {
                    if s {
                        Sgt
                    } else {
                        Ugt
                    }
                }
                "ge" => {
                    if s {
                        Sge
                    } else {
                        Uge
                    }
                }
                "lo" => Ult,
                "ls" => Ule,
                "hi" => Ugt,
                "hs" => Uge,
                _ => {
                    return err(
                        i.pos,
                        format!("unknown comparison `{cmp}` in `{}`", i.full_name()),
                    )
                }
            }
        })
    }

    /// The comparison of `setp`/`set`, combined with the optional boolean.
    fn compare(&mut self, i: &'p Inst, t: PtxType, first: usize) -> Result<Value> {
        let pos = i.pos;
        let cmp = i.mods.first().cloned().unwrap_or_default();
        let pred = self.cmp_pred(i, &cmp, t)?;
        let a = self.read(self.arg(i, first)?, t, pos)?;
        let b2 = self.read(self.arg(i, first + 1)?, t, pos)?;
        let c = self.b().cmp(pred, a, b2);
        let bop = i.mods.iter().find_map(|m| match m.as_str() {
            "and" => Some(BinOp::And),
            "or" => Some(BinOp::Or),
            "xor" => Some(BinOp::Xor),
            _ => None,
        });
        Ok(match bop {
            Some(o) => {
                let q = self.read(self.arg(i, first + 2)?, PRED, pos)?;
                self.b().binary(o, c, q)
            }
            None => c,
        })
    }

    fn setp(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let c = self.compare(i, t, 1)?;
        match self.arg(i, 0)? {
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
        let (dt, st) = inst_types2(i).ok_or_else(|| Error::new(pos, "`set` needs two types"))?;
        let c = self.compare(i, st, 1)?;
        let ty = ir_type(self.types(), dt);
        let mut b = self.b();
        let (t, f) = if is_float(dt) {
            (b.const_float(ty, 1.0), b.const_float(ty, 0.0))
        } else {
            (b.const_int(ty, -1), b.const_int(ty, 0))
        };
        let r = b.select(c, t, f);
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn cvt(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if i.has("f16x2") || i.has("bf16x2") {
            // `cvt.rn.f16x2.f32 d, a, b`: a in the upper half, b in the lower.
            if !i.has("f32")
                || i.mods
                    .iter()
                    .any(|m| matches!(m.as_str(), "rz" | "rm" | "rp" | "relu" | "satfinite"))
            {
                return self.unsupported(i);
            }
            let hty = if i.has("f16x2") {
                self.types().f16()
            } else {
                self.types().bf16()
            };
            let i16t = self.types().i16();
            let i32t = self.types().i32();
            let a = self.read(self.arg(i, 1)?, F32, pos)?;
            let b2 = self.read(self.arg(i, 2)?, F32, pos)?;
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
            return self.write(self.arg(i, 0)?, r, false, pos);
        }
        let (dt, st) = inst_types2(i).ok_or_else(|| Error::new(pos, "`cvt` needs two types"))?;
        let a = self.read(self.arg(i, 1)?, st, pos)?;
        let dty = ir_type(self.types(), dt);
        let rnd = i
            .mods
            .iter()
            .find(|m| matches!(m.as_str(), "rni" | "rzi" | "rmi" | "rpi"))
            .cloned();
        let sat = i.has("sat");
        let round = |cx: &mut Self, v: Value, t: PtxType, mode: &str| -> Result<Value> {
            let ty = ir_type(cx.types(), t);
            let d = t == F64;
            let name = match (mode, d) {
                ("rni", false) => "rintf",
                ("rni", true) => "rint",
                ("rzi", false) => "truncf",
                ("rzi", true) => "trunc",
                ("rmi", false) => "floorf",
                ("rmi", true) => "floor",
                ("rpi", false) => "ceilf",
                ("rpi", true) => "ceil",
                _ => return Ok(v),
            };
            if t != F32 && t != F64 {
                return err(
                    pos,
                    format!("unsupported rounding of {t:?} in `{}`", i.full_name()),
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
                    return self.unsupported(i);
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
                let v = match &rnd {
                    Some(m) if m != "rzi" => round(self, a, st, m)?,
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
                let v = match &rnd {
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
        self.write(self.arg(i, 0)?, r, is_signed(dt), pos)
    }

    fn barrier(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if i.has("warp") {
            let m = self.read(self.arg(i, 0)?, U32, pos)?;
            self.b().barrier_warp(m);
            return Ok(());
        }
        if i.has("red") {
            let kind = if i.has("popc") {
                BarrierReduceKind::Count
            } else if i.has("and") {
                BarrierReduceKind::And
            } else if i.has("or") {
                BarrierReduceKind::Or
            } else {
                return self.unsupported(i);
            };
            let p = self.read(
                i.args
                    .last()
                    .ok_or_else(|| Error::new(pos, "`bar.red` needs a predicate"))?,
                PRED,
                pos,
            )?;
            let r = self.b().barrier_reduce(kind, p);
            return self.write(self.arg(i, 0)?, r, false, pos);
        }
        if i.has("arrive") {
            return self.unsupported(i);
        }
        if i.args.len() > 1 {
            return err(
                pos,
                format!("`{}` with a thread count is not supported", i.full_name()),
            );
        }
        self.b().barrier();
        Ok(())
    }

    fn atom(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = self.ty(i)?;
        let space = Self::space_of(i);
        let red = i.op == "red";
        let (addr, first) = if red {
            (self.arg(i, 0)?, 1)
        } else {
            (self.arg(i, 1)?, 2)
        };
        let scope = if i.has("cta") {
            MemScope::Block
        } else if i.has("sys") {
            MemScope::System
        } else {
            MemScope::Device
        };
        let ptr = self.address(addr, space, pos)?;
        let ty = ir_type(self.types(), t);
        let r = if i.has("cas") {
            let e = self.read(self.arg(i, first)?, t, pos)?;
            let n = self.read(self.arg(i, first + 1)?, t, pos)?;
            self.b()
                .op1(OpKind::AtomicCas { scope }, vec![ptr, e, n], ty)
        } else {
            let s = is_signed(t);
            let f = is_float(t);
            let op = if i.has("add") {
                if f {
                    AtomicOp::FAdd
                } else {
                    AtomicOp::Add
                }
            } else if i.has("min") {
                if f {
                    AtomicOp::FMin
                } else if s {
                    AtomicOp::SMin
                } else {
                    AtomicOp::UMin
                }
            } else if i.has("max") {
                if f {
                    AtomicOp::FMax
                } else if s {
                    AtomicOp::SMax
                } else {
                    AtomicOp::UMax
                }
            } else if i.has("inc") {
                AtomicOp::Inc
            } else if i.has("dec") {
                AtomicOp::Dec
            } else if i.has("exch") {
                AtomicOp::Xchg
            } else if i.has("and") {
                AtomicOp::And
            } else if i.has("or") {
                AtomicOp::Or
            } else if i.has("xor") {
                AtomicOp::Xor
            } else {
                return self.unsupported(i);
            };
            let v = self.read(self.arg(i, first)?, t, pos)?;
            self.b()
                .op1(OpKind::AtomicRmw { op, scope }, vec![ptr, v], ty)
        };
        if red {
            return Ok(());
        }
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn shfl(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if !i.has("sync") {
            return err(
                pos,
                format!("`{}` without .sync is not supported", i.full_name()),
            );
        }
        let mode = if i.has("idx") {
            ShuffleMode::Idx
        } else if i.has("up") {
            ShuffleMode::Up
        } else if i.has("down") {
            ShuffleMode::Down
        } else if i.has("bfly") {
            ShuffleMode::Xor
        } else {
            return self.unsupported(i);
        };
        let t = PtxType::Int {
            bits: 32,
            signed: false,
        };
        let v = self.read(self.arg(i, 1)?, t, pos)?;
        let lane = self.read(self.arg(i, 2)?, U32, pos)?;
        let c = self.read(self.arg(i, 3)?, U32, pos)?;
        let mask = self.read(self.arg(i, 4)?, U32, pos)?;
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
        match self.arg(i, 0)? {
            Operand::Vec(ps) if ps.len() == 2 => {
                self.write(&ps[0], r, false, pos)?;
                self.write(&ps[1], valid, false, pos)
            }
            d => self.write(d, r, false, pos),
        }
    }

    fn vote(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        if !i.has("sync") {
            return err(
                pos,
                format!("`{}` without .sync is not supported", i.full_name()),
            );
        }
        let p = self.read(self.arg(i, 1)?, PRED, pos)?;
        let mask = self.read(self.arg(i, 2)?, U32, pos)?;
        let i32t = self.types().i32();
        let i1 = self.types().i1();
        let mut b = self.b();
        let r = if i.has("ballot") {
            b.op1(OpKind::Vote(VoteKind::Ballot), vec![mask, p], i32t)
        } else if i.has("all") {
            b.op1(OpKind::Vote(VoteKind::All), vec![mask, p], i1)
        } else if i.has("any") {
            b.op1(OpKind::Vote(VoteKind::Any), vec![mask, p], i1)
        } else if i.has("uni") {
            let all = b.op1(OpKind::Vote(VoteKind::All), vec![mask, p], i1);
            let any = b.op1(OpKind::Vote(VoteKind::Any), vec![mask, p], i1);
            let t = b.bool(true);
            let none = b.binary(BinOp::Xor, any, t);
            b.binary(BinOp::Or, all, none)
        } else {
            return self.unsupported(i);
        };
        self.write(self.arg(i, 0)?, r, false, pos)
    }

    fn tex(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let (dt, ct) = inst_types2(i).ok_or_else(|| Error::new(pos, "`tex` needs two types"))?;
        let (handle, coords) = match self.arg(i, 1)? {
            Operand::Tex(h, c) => (&**h, c),
            _ => return err(pos, "`tex` needs a `[texture, {coordinates}]` operand"),
        };
        let kind = if i.has("1d") {
            if is_float(ct) {
                TexKind::Tex1D
            } else {
                TexKind::Fetch1D
            }
        } else if i.has("2d") && is_float(ct) {
            TexKind::Tex2D
        } else if i.has("3d") && is_float(ct) {
            TexKind::Tex3D
        } else {
            return self.unsupported(i);
        };
        let h = match handle {
            Operand::Sym(s) => match self.mc.syms.get(s.as_str()).copied() {
                Some(ModSym::Global(g, _))
                    if matches!(self.mc.module.globals[g].kind, GlobalKind::Texture { .. }) =>
                {
                    let i64t = self.types().i64();
                    self.b().op1(OpKind::TexRef(g), vec![], i64t)
                }
                _ => self.read(handle, U64, pos)?,
            },
            _ => self.read(handle, U64, pos)?,
        };
        let mut ops = vec![h];
        let ctype = if is_float(ct) {
            F32
        } else {
            PtxType::Int {
                bits: 32,
                signed: true,
            }
        };
        for k in 0..kind.coords() {
            let c = coords
                .get(k)
                .ok_or_else(|| Error::new(pos, "too few texture coordinates"))?;
            ops.push(self.read(c, ctype, pos)?);
        }
        let dsts: Vec<&Operand> = match self.arg(i, 0)? {
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
