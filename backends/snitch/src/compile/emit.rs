//! Machine instructions from the allocated lowering IR: loop control
//! (counting loops with a back branch, `frep.o` for FREP loops), FP
//! constants through the integer core, the SSR switch, and `ret` at the end.

use super::frep::MAX_BODY;
use super::lir::{FOp, Fmt, Func, Loop, Node, F, FV, XV};
use super::regalloc::Alloc;
use crate::isa::*;

/// Emits `f` with the registers of `alloc`.
pub fn emit(f: &Func, alloc: &Alloc) -> Result<Vec<Inst>, String> {
    let mut e = Emitter {
        f,
        alloc,
        out: Vec::new(),
    };
    e.body(&f.body)?;
    e.out.push(Inst::Jalr {
        rd: XReg::ZERO,
        rs1: XReg::RA,
        offset: 0,
    });
    Ok(e.out)
}

struct Emitter<'a> {
    f: &'a Func,
    alloc: &'a Alloc,
    out: Vec<Inst>,
}

impl Emitter<'_> {
    fn x(&self, v: XV) -> Result<XReg, String> {
        self.alloc
            .x
            .get(&v)
            .copied()
            .ok_or_else(|| format!("integer register %x{} was not allocated", v.0))
    }

    fn fv(&self, v: FV) -> Result<FReg, String> {
        self.alloc
            .f
            .get(&v)
            .copied()
            .ok_or_else(|| format!("FP register %f{} was not allocated", v.0))
    }

    fn f(&self, r: F) -> Result<FReg, String> {
        match r {
            F::V(v) => self.fv(v),
            F::Ssr(k) => FReg::new(k).ok_or_else(|| format!("no stream register ft{k}")),
        }
    }

    fn body(&mut self, body: &[Node]) -> Result<(), String> {
        for n in body {
            self.node(n)?;
        }
        Ok(())
    }

    fn node(&mut self, n: &Node) -> Result<(), String> {
        match n {
            Node::Loop(l) => self.lp(l)?,
            Node::Arith { op, fmt, dst, srcs } => self.arith(*op, *fmt, *dst, srcs)?,
            Node::Const {
                dst,
                fmt,
                value,
                tmp,
            } => {
                let rd = self.fv(*dst)?;
                let t = match tmp {
                    Some(t) => self.x(*t)?,
                    None => return Err("constant without a scratch register".into()),
                };
                self.constant(rd, *fmt, *value, t)?;
            }
            Node::Li { dst, imm } => {
                let rd = self.x(*dst)?;
                self.out.extend(load_immediate(rd, *imm as u32));
            }
            Node::IOp { op, dst, a, b } => {
                let i = Inst::Op {
                    op: *op,
                    rd: self.x(*dst)?,
                    rs1: self.x(*a)?,
                    rs2: self.x(*b)?,
                };
                self.out.push(i);
            }
            Node::IImm { op, dst, a, imm } => {
                let i = Inst::OpImm {
                    op: *op,
                    rd: self.x(*dst)?,
                    rs1: self.x(*a)?,
                    imm: *imm,
                };
                self.out.push(i);
            }
            Node::LoadAt {
                dst,
                fmt,
                base,
                offset,
            } => {
                let i = Inst::FLoad {
                    fmt: mem_fmt(*fmt),
                    rd: self.fv(*dst)?,
                    rs1: self.x(*base)?,
                    offset: *offset,
                };
                self.out.push(i);
            }
            Node::StoreAt {
                src,
                fmt,
                base,
                offset,
            } => {
                let i = Inst::FStore {
                    fmt: mem_fmt(*fmt),
                    rs2: self.f(*src)?,
                    rs1: self.x(*base)?,
                    offset: *offset,
                };
                self.out.push(i);
            }
            Node::Scfg { src, addr } => {
                let rs1 = match src {
                    Some(x) => self.x(*x)?,
                    None => XReg::ZERO,
                };
                self.out.push(Inst::Scfgwi { rs1, addr: *addr });
            }
            Node::SsrEnable(on) => self.out.push(Inst::CsrImm {
                op: if *on { CsrOp::Rs } else { CsrOp::Rc },
                rd: XReg::ZERO,
                csr: CSR_SSR,
                uimm: 1,
            }),
            Node::FParam { dst, fmt, param } => {
                let rd = self.fv(*dst)?;
                let reg = |v: Option<XV>| match v {
                    Some(v) => self.x(v),
                    None => Err(format!("parameter {param} has no register")),
                };
                let lo = reg(self.f.param_regs.get(*param).copied())?;
                match fmt {
                    Fmt::D => {
                        let hi = reg(self.f.param_hi.get(*param).copied().flatten())?;
                        for (r, off) in [(lo, -8), (hi, -4)] {
                            self.out.push(Inst::Store {
                                op: StoreOp::Sw,
                                rs2: r,
                                rs1: XReg::SP,
                                offset: off,
                            });
                        }
                        self.out.push(Inst::FLoad {
                            fmt: FFmt::D,
                            rd,
                            rs1: XReg::SP,
                            offset: -8,
                        });
                    }
                    _ => self.out.push(Inst::FMvFromInt { rd, rs1: lo }),
                }
            }
            Node::IfPositive { reg, body } => {
                let g = self.x(*reg)?;
                let at = self.skip_unless_positive(g);
                self.body(body)?;
                self.patch_skip(at);
            }
            Node::Streams { .. } | Node::Load { .. } | Node::Store { .. } => {
                return Err("symbolic node left after materialization".into())
            }
        }
        Ok(())
    }

    fn lp(&mut self, l: &Loop) -> Result<(), String> {
        let Some(ctl) = l.ctl else {
            return Err(format!("loop i{} has no control registers", l.id));
        };
        let counter = self.x(ctl.counter)?;
        // A count from a parameter may be zero or negative: skip the loop.
        let guard_at = match ctl.guard {
            Some(g) => {
                let g = self.x(g)?;
                Some(self.skip_unless_positive(g))
            }
            None => None,
        };
        if l.frep {
            let at = self.out.len();
            self.out.push(Inst::Ebreak);
            self.body(&l.body)?;
            let count = self.out.len() - at - 1;
            if count == 0 || count > MAX_BODY {
                return Err(format!("FREP body of {count} instructions"));
            }
            self.out[at] = Inst::Frep {
                mode: FrepMode::Outer,
                rs1: counter,
                count: count as u16,
                stagger_max: 0,
                stagger_mask: 0,
            };
        } else {
            let top = self.out.len();
            self.body(&l.body)?;
            if ctl.up {
                let bound = match ctl.bound {
                    Some(b) => self.x(b)?,
                    None => return Err("counting loop without a bound".into()),
                };
                self.out.push(Inst::OpImm {
                    op: ImmOp::Addi,
                    rd: counter,
                    rs1: counter,
                    imm: 1,
                });
                self.back_branch(counter, bound, top);
            } else {
                self.out.push(Inst::OpImm {
                    op: ImmOp::Addi,
                    rd: counter,
                    rs1: counter,
                    imm: -1,
                });
                self.back_branch(counter, XReg::ZERO, top);
            }
        }
        if let Some(g) = guard_at {
            self.patch_skip(g);
        }
        Ok(())
    }

    /// `blt zero, g, +8; jal zero, <end>`: skips to the end (patched by
    /// [`Self::patch_skip`]) unless `g > 0`, at any distance.
    fn skip_unless_positive(&mut self, g: XReg) -> usize {
        self.out.push(Inst::Branch {
            op: BranchOp::Blt,
            rs1: XReg::ZERO,
            rs2: g,
            offset: 8,
        });
        self.out.push(Inst::Jal {
            rd: XReg::ZERO,
            offset: 0,
        });
        self.out.len() - 1
    }

    fn patch_skip(&mut self, jal: usize) {
        let end = self.out.len();
        self.out[jal] = self.out[jal].with_branch_offset(branch(jal, end));
    }

    /// `bne a, b, top`, or, when `top` is beyond a branch's reach,
    /// `beq a, b, +8; jal zero, top`.
    fn back_branch(&mut self, a: XReg, b: XReg, top: usize) {
        let here = self.out.len();
        let offset = branch(here, top);
        if offset >= -4096 {
            self.out.push(Inst::Branch {
                op: BranchOp::Bne,
                rs1: a,
                rs2: b,
                offset,
            });
        } else {
            self.out.push(Inst::Branch {
                op: BranchOp::Beq,
                rs1: a,
                rs2: b,
                offset: 8,
            });
            self.out.push(Inst::Jal {
                rd: XReg::ZERO,
                offset: branch(here + 1, top),
            });
        }
    }

    fn arith(&mut self, op: FOp, fmt: Fmt, dst: F, srcs: &[F]) -> Result<(), String> {
        let rd = self.f(dst)?;
        let s: Vec<FReg> = srcs.iter().map(|&r| self.f(r)).collect::<Result<_, _>>()?;
        let get = |i: usize| {
            s.get(i)
                .copied()
                .ok_or_else(|| format!("{op:?} is missing operand {i}"))
        };
        let sfmt = match fmt {
            Fmt::S => FFmt::S,
            Fmt::D | Fmt::VS => FFmt::D,
        };
        let rm = RoundingMode::Dyn;
        let inst = match (op, fmt) {
            // A copy onto itself (the allocator gave both the same register).
            (FOp::Mov, _) if get(0)? == rd => return Ok(()),
            (FOp::Mov, _) if matches!(srcs, [F::Ssr(_)]) => {
                let zero = match self.f.zero {
                    Some(z) => self.fv(z)?,
                    None => return Err("a stream copy without a +0.0 register".into()),
                };
                Inst::FSgnj {
                    op: FSgnjOp::Sgnjx,
                    fmt: sfmt,
                    rd,
                    rs1: get(0)?,
                    rs2: zero,
                }
            }
            (FOp::Mov, _) => Inst::FSgnj {
                op: FSgnjOp::Sgnj,
                fmt: sfmt,
                rd,
                rs1: get(0)?,
                rs2: get(0)?,
            },
            (FOp::Splat, _) => vf(VfOp::Cpka, rd, get(0)?, get(0)?),
            (FOp::Neg, Fmt::VS) => return Err("packed negation".into()),
            (FOp::Neg, _) => Inst::FSgnj {
                op: FSgnjOp::Sgnjn,
                fmt: sfmt,
                rd,
                rs1: get(0)?,
                rs2: get(0)?,
            },
            (FOp::Add, Fmt::VS) => vf(VfOp::Add, rd, get(0)?, get(1)?),
            (FOp::Mul, Fmt::VS) => vf(VfOp::Mul, rd, get(0)?, get(1)?),
            (FOp::Max, Fmt::VS) => vf(VfOp::Max, rd, get(0)?, get(1)?),
            (FOp::Madd, Fmt::VS) => {
                if get(2)? != rd {
                    return Err(
                        "a packed multiply-add needs its accumulator in its destination".into(),
                    );
                }
                vf(VfOp::Mac, rd, get(0)?, get(1)?)
            }
            (FOp::Sub | FOp::Div | FOp::Min, Fmt::VS) => {
                return Err(format!("no packed form of {op:?}"))
            }
            (FOp::Add | FOp::Sub | FOp::Mul | FOp::Div, _) => Inst::FArith {
                op: match op {
                    FOp::Add => FArithOp::Add,
                    FOp::Sub => FArithOp::Sub,
                    FOp::Mul => FArithOp::Mul,
                    _ => FArithOp::Div,
                },
                fmt: sfmt,
                rd,
                rs1: get(0)?,
                rs2: get(1)?,
                rm,
            },
            (FOp::Max | FOp::Min, _) => Inst::FMinMax {
                op: if op == FOp::Max {
                    FMinMaxOp::Max
                } else {
                    FMinMaxOp::Min
                },
                fmt: sfmt,
                rd,
                rs1: get(0)?,
                rs2: get(1)?,
            },
            (FOp::Madd, _) => Inst::Fma {
                op: FmaOp::Madd,
                fmt: sfmt,
                rd,
                rs1: get(0)?,
                rs2: get(1)?,
                rs3: get(2)?,
                rm,
            },
        };
        self.out.push(inst);
        Ok(())
    }

    /// An FP constant: zero and small integers by conversion, other f32
    /// bit patterns by `fmv.w.x`, other f64 values through the stack.
    fn constant(&mut self, rd: FReg, fmt: Fmt, value: f64, t: XReg) -> Result<(), String> {
        let int = value.fract() == 0.0
            && value.abs() < 2f64.powi(31)
            && !(value == 0.0 && value.is_sign_negative());
        match fmt {
            Fmt::D if int => {
                let src = if value == 0.0 {
                    XReg::ZERO
                } else {
                    self.out.extend(load_immediate(t, value as i32 as u32));
                    t
                };
                self.out.push(Inst::FCvtFromInt {
                    fmt: FFmt::D,
                    unsigned: false,
                    rd,
                    rs1: src,
                    rm: RoundingMode::Rne,
                });
            }
            Fmt::D => {
                let bits = value.to_bits();
                for (half, off) in [(bits as u32, -8), ((bits >> 32) as u32, -4)] {
                    self.out.extend(load_immediate(t, half));
                    self.out.push(Inst::Store {
                        op: StoreOp::Sw,
                        rs2: t,
                        rs1: XReg::SP,
                        offset: off,
                    });
                }
                self.out.push(Inst::FLoad {
                    fmt: FFmt::D,
                    rd,
                    rs1: XReg::SP,
                    offset: -8,
                });
            }
            Fmt::S | Fmt::VS => {
                let bits = (value as f32).to_bits();
                let src = if bits == 0 {
                    XReg::ZERO
                } else {
                    self.out.extend(load_immediate(t, bits));
                    t
                };
                self.out.push(Inst::FMvFromInt { rd, rs1: src });
                if fmt == Fmt::VS {
                    self.out.push(vf(VfOp::Cpka, rd, rd, rd));
                }
            }
        }
        Ok(())
    }
}

fn vf(op: VfOp, rd: FReg, rs1: FReg, rs2: FReg) -> Inst {
    Inst::Vf { op, rd, rs1, rs2 }
}

fn mem_fmt(fmt: Fmt) -> FFmt {
    match fmt {
        Fmt::S => FFmt::S,
        Fmt::D | Fmt::VS => FFmt::D,
    }
}

fn branch(from: usize, to: usize) -> i32 {
    (to as i32 - from as i32) * 4
}
