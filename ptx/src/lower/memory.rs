//! Memory instructions: `cvta`, `ld`/`st` (vectors, kernel parameters),
//! atomics and texture fetches.

use super::inst::{by_sign, is_float, is_signed, mem_scope};
use super::*;
use crate::inst::{AtomOp, Flag, MemOrder, Opcode as O, TexGeom};

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

impl<'m, 'p> FnCx<'m, 'p> {
    pub(super) fn cvta(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let t = i.ty()?;
        let to = i.has(Flag::To);
        let shared = i.mods.space == Some(StateSpace::Shared);
        let v = self.read(i.arg(1)?, t, pos)?;
        let r = if shared && !to {
            // Window offset to a generic address.
            let var = match i.arg(1)? {
                Operand::Reg(r, _) => self.derived_var(r),
                Operand::Sym(s) if self.mc.split.is_some() => Some(s.clone()),
                _ => None,
            };
            let p = match var {
                Some(var) => {
                    let i64t = self.types().i64();
                    let off = self.convert(v, i64t, false, pos)?;
                    self.var_ptr(&var, off)?
                }
                None => self.shared_ptr(v)?,
            };
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

    pub(super) fn load(&mut self, i: &'p Inst) -> Result<()> {
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

    pub(super) fn store(&mut self, i: &'p Inst) -> Result<()> {
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

    pub(super) fn atom(&mut self, i: &'p Inst) -> Result<()> {
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

    pub(super) fn tex(&mut self, i: &'p Inst) -> Result<()> {
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
