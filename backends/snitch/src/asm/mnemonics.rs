//! Mnemonics → instructions: the canonical forms the printer writes and
//! the pseudo-instructions of the RISC-V assembly manual that hand-written
//! Snitch code uses.

use super::operands::{branch, one, Ops, Parsed};
use super::parse::AsmErrorKind;
use super::print::default_rounding_mode;
use crate::isa::*;

/// `li rd, value` as instructions, without branch targets.
fn load_immediate(rd: XReg, value: i64) -> Parsed {
    crate::isa::load_immediate(rd, value as u32)
        .into_iter()
        .map(|i| (i, None))
        .collect()
}

pub(super) fn parse_line(m: &str, ops: &[&str]) -> Result<Parsed, AsmErrorKind> {
    let o = Ops { ops, mnemonic: m };
    let zero = XReg::ZERO;
    // Canonical instructions, by family.
    if let Some(op) = BranchOp::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[3], "3")?;
        return branch(
            Inst::Branch {
                op,
                rs1: o.x(0)?,
                rs2: o.x(1)?,
                offset: 0,
            },
            o.target(2)?,
        );
    }
    if let Some(op) = LoadOp::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[2], "2")?;
        let (offset, rs1) = o.mem(1)?;
        return one(Inst::Load {
            op,
            rd: o.x(0)?,
            rs1,
            offset,
        });
    }
    if let Some(op) = StoreOp::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[2], "2")?;
        let (offset, rs1) = o.mem(1)?;
        return one(Inst::Store {
            op,
            rs2: o.x(0)?,
            rs1,
            offset,
        });
    }
    if let Some(op) = ImmOp::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[3], "3")?;
        return one(Inst::OpImm {
            op,
            rd: o.x(0)?,
            rs1: o.x(1)?,
            imm: o.imm_i32(2)?,
        });
    }
    if let Some(op) = RegOp::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[3], "3")?;
        return one(Inst::Op {
            op,
            rd: o.x(0)?,
            rs1: o.x(1)?,
            rs2: o.x(2)?,
        });
    }
    if let Some((op, aq, rl)) = amo_mnemonic(m) {
        if op == AmoOp::LrW {
            o.count(&[2], "2")?;
            return one(Inst::Amo {
                op,
                rd: o.x(0)?,
                rs1: o.amo_addr(1)?,
                rs2: zero,
                aq,
                rl,
            });
        }
        o.count(&[3], "3")?;
        return one(Inst::Amo {
            op,
            rd: o.x(0)?,
            rs2: o.x(1)?,
            rs1: o.amo_addr(2)?,
            aq,
            rl,
        });
    }
    if let Some(op) = CsrOp::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[3], "3")?;
        return one(Inst::Csr {
            op,
            rd: o.x(0)?,
            csr: o.csr(1)?,
            rs1: o.x(2)?,
        });
    }
    if let Some(op) = CsrOp::ALL
        .iter()
        .copied()
        .find(|b| format!("{}i", b.mnemonic()) == m)
    {
        o.count(&[3], "3")?;
        return one(Inst::CsrImm {
            op,
            rd: o.x(0)?,
            csr: o.csr(1)?,
            uimm: o.imm_in(2, 0, 31)? as u8,
        });
    }
    if let Some(op) = VfOp::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[3], "3")?;
        return one(Inst::Vf {
            op,
            rd: o.f(0)?,
            rs1: o.f(1)?,
            rs2: o.f(2)?,
        });
    }
    if let Some(mode) = FrepMode::ALL.iter().copied().find(|b| b.mnemonic() == m) {
        o.count(&[2, 4], "2 or 4")?;
        let (smax, smask) = if ops.len() == 4 {
            (o.imm_in(2, 0, 7)?, o.imm_in(3, 0, 15)?)
        } else {
            (0, 0)
        };
        return one(Inst::Frep {
            mode,
            rs1: o.x(0)?,
            count: o.imm_in(1, 1, 4096)? as u16,
            stagger_max: smax as u8,
            stagger_mask: smask as u8,
        });
    }
    if let Some((prefix, fmt)) = m.rsplit_once('.').and_then(|(p, s)| Some((p, fp_fmt(s)?))) {
        if let Some(parsed) = parse_fp(&o, prefix, fmt)? {
            return Ok(parsed);
        }
    }
    match m {
        "lui" | "auipc" => {
            o.count(&[2], "2")?;
            let imm = o.imm_in(1, 0, 0xfffff)? as u32;
            let rd = o.x(0)?;
            one(if m == "lui" {
                Inst::Lui { rd, imm }
            } else {
                Inst::Auipc { rd, imm }
            })
        }
        "jal" => match ops.len() {
            1 => branch(
                Inst::Jal {
                    rd: XReg::RA,
                    offset: 0,
                },
                o.target(0)?,
            ),
            _ => {
                o.count(&[2], "1 or 2")?;
                branch(
                    Inst::Jal {
                        rd: o.x(0)?,
                        offset: 0,
                    },
                    o.target(1)?,
                )
            }
        },
        "jalr" => match ops.len() {
            1 => {
                let (offset, rs1) = if ops[0].contains('(') {
                    o.mem(0)?
                } else {
                    (0, o.x(0)?)
                };
                one(Inst::Jalr {
                    rd: XReg::RA,
                    rs1,
                    offset,
                })
            }
            2 => {
                let (offset, rs1) = o.mem(1)?;
                one(Inst::Jalr {
                    rd: o.x(0)?,
                    rs1,
                    offset,
                })
            }
            _ => {
                o.count(&[3], "1, 2 or 3")?;
                one(Inst::Jalr {
                    rd: o.x(0)?,
                    rs1: o.x(1)?,
                    offset: o.imm_i32(2)?,
                })
            }
        },
        "fence" => match ops.len() {
            0 => one(Inst::Fence { pred: 15, succ: 15 }),
            _ => {
                o.count(&[2], "0 or 2")?;
                one(Inst::Fence {
                    pred: o.fence_set(0)?,
                    succ: o.fence_set(1)?,
                })
            }
        },
        "ecall" | "ebreak" => {
            o.count(&[0], "0")?;
            one(if m == "ecall" {
                Inst::Ecall
            } else {
                Inst::Ebreak
            })
        }
        "flw" | "fld" => {
            o.count(&[2], "2")?;
            let (offset, rs1) = o.mem(1)?;
            let fmt = if m == "flw" { FFmt::S } else { FFmt::D };
            one(Inst::FLoad {
                fmt,
                rd: o.f(0)?,
                rs1,
                offset,
            })
        }
        "fsw" | "fsd" => {
            o.count(&[2], "2")?;
            let (offset, rs1) = o.mem(1)?;
            let fmt = if m == "fsw" { FFmt::S } else { FFmt::D };
            one(Inst::FStore {
                fmt,
                rs2: o.f(0)?,
                rs1,
                offset,
            })
        }
        "fmv.x.w" => {
            o.count(&[2], "2")?;
            one(Inst::FMvToInt {
                rd: o.x(0)?,
                rs1: o.f(1)?,
            })
        }
        "fmv.w.x" => {
            o.count(&[2], "2")?;
            one(Inst::FMvFromInt {
                rd: o.f(0)?,
                rs1: o.x(1)?,
            })
        }
        "fcvt.s.d" | "fcvt.d.s" => {
            o.count(&[2, 3], "2 or 3")?;
            let to = if m == "fcvt.s.d" { FFmt::S } else { FFmt::D };
            let proto = Inst::FCvtFmt {
                to,
                rd: o.f(0)?,
                rs1: o.f(1)?,
                rm: RoundingMode::Dyn,
            };
            let rm = o.opt_rm(2, default_rounding_mode(&proto))?;
            one(Inst::FCvtFmt {
                to,
                rd: o.f(0)?,
                rs1: o.f(1)?,
                rm,
            })
        }
        "scfgwi" => {
            o.count(&[2], "2")?;
            one(Inst::Scfgwi {
                rs1: o.x(0)?,
                addr: o.imm_in(1, 0, 0xfff)? as u16,
            })
        }
        "scfgri" => {
            o.count(&[2], "2")?;
            one(Inst::Scfgri {
                rd: o.x(0)?,
                addr: o.imm_in(1, 0, 0xfff)? as u16,
            })
        }
        "scfgw" => {
            o.count(&[2], "2")?;
            one(Inst::Scfgw {
                rs1: o.x(0)?,
                rs2: o.x(1)?,
            })
        }
        "scfgr" => {
            o.count(&[2], "2")?;
            one(Inst::Scfgr {
                rd: o.x(0)?,
                rs2: o.x(1)?,
            })
        }
        _ => parse_pseudo(&o, m),
    }
}

fn fp_fmt(s: &str) -> Option<FFmt> {
    match s {
        "s" => Some(FFmt::S),
        "d" => Some(FFmt::D),
        _ => None,
    }
}

fn amo_mnemonic(m: &str) -> Option<(AmoOp, bool, bool)> {
    let (base, aq, rl) = if let Some(b) = m.strip_suffix(".aqrl") {
        (b, true, true)
    } else if let Some(b) = m.strip_suffix(".aq") {
        (b, true, false)
    } else if let Some(b) = m.strip_suffix(".rl") {
        (b, false, true)
    } else {
        (m, false, false)
    };
    AmoOp::ALL
        .iter()
        .copied()
        .find(|o| o.mnemonic() == base)
        .map(|o| (o, aq, rl))
}

/// Scalar FP instructions whose mnemonic ends in the format (`fadd.d`, ...).
fn parse_fp(o: &Ops<'_>, prefix: &str, fmt: FFmt) -> Result<Option<Parsed>, AsmErrorKind> {
    let with_rm = |proto: Inst, i: usize| o.opt_rm(i, default_rounding_mode(&proto));
    let inst = if let Some(op) = FArithOp::ALL
        .iter()
        .copied()
        .find(|b| b.mnemonic() == prefix)
    {
        o.count(&[3, 4], "3 or 4")?;
        let (rd, rs1, rs2) = (o.f(0)?, o.f(1)?, o.f(2)?);
        let rm = with_rm(
            Inst::FArith {
                op,
                fmt,
                rd,
                rs1,
                rs2,
                rm: RoundingMode::Dyn,
            },
            3,
        )?;
        Inst::FArith {
            op,
            fmt,
            rd,
            rs1,
            rs2,
            rm,
        }
    } else if let Some(op) = FSgnjOp::ALL
        .iter()
        .copied()
        .find(|b| b.mnemonic() == prefix)
    {
        o.count(&[3], "3")?;
        Inst::FSgnj {
            op,
            fmt,
            rd: o.f(0)?,
            rs1: o.f(1)?,
            rs2: o.f(2)?,
        }
    } else if let Some(op) = FMinMaxOp::ALL
        .iter()
        .copied()
        .find(|b| b.mnemonic() == prefix)
    {
        o.count(&[3], "3")?;
        Inst::FMinMax {
            op,
            fmt,
            rd: o.f(0)?,
            rs1: o.f(1)?,
            rs2: o.f(2)?,
        }
    } else if let Some(op) = FmaOp::ALL.iter().copied().find(|b| b.mnemonic() == prefix) {
        o.count(&[4, 5], "4 or 5")?;
        let rm = o.opt_rm(4, RoundingMode::Dyn)?;
        Inst::Fma {
            op,
            fmt,
            rd: o.f(0)?,
            rs1: o.f(1)?,
            rs2: o.f(2)?,
            rs3: o.f(3)?,
            rm,
        }
    } else if let Some(op) = FCmpOp::ALL.iter().copied().find(|b| b.mnemonic() == prefix) {
        o.count(&[3], "3")?;
        Inst::FCmp {
            op,
            fmt,
            rd: o.x(0)?,
            rs1: o.f(1)?,
            rs2: o.f(2)?,
        }
    } else {
        match prefix {
            "fsqrt" => {
                o.count(&[2, 3], "2 or 3")?;
                Inst::FSqrt {
                    fmt,
                    rd: o.f(0)?,
                    rs1: o.f(1)?,
                    rm: o.opt_rm(2, RoundingMode::Dyn)?,
                }
            }
            "fclass" => {
                o.count(&[2], "2")?;
                Inst::FClass {
                    fmt,
                    rd: o.x(0)?,
                    rs1: o.f(1)?,
                }
            }
            "fcvt.w" | "fcvt.wu" => {
                o.count(&[2, 3], "2 or 3")?;
                let rm = o.opt_rm(2, RoundingMode::Dyn)?;
                Inst::FCvtToInt {
                    fmt,
                    unsigned: prefix == "fcvt.wu",
                    rd: o.x(0)?,
                    rs1: o.f(1)?,
                    rm,
                }
            }
            "fmv" | "fneg" | "fabs" => {
                o.count(&[2], "2")?;
                let op = match prefix {
                    "fmv" => FSgnjOp::Sgnj,
                    "fneg" => FSgnjOp::Sgnjn,
                    _ => FSgnjOp::Sgnjx,
                };
                let (rd, rs) = (o.f(0)?, o.f(1)?);
                Inst::FSgnj {
                    op,
                    fmt,
                    rd,
                    rs1: rs,
                    rs2: rs,
                }
            }
            // `fcvt.s.d` and `fcvt.d.w` end in a format letter too; they are
            // handled with the other conversions.
            _ => return Ok(None),
        }
    };
    Ok(Some(vec![(inst, None)]))
}

fn parse_pseudo(o: &Ops<'_>, m: &str) -> Result<Parsed, AsmErrorKind> {
    let zero = XReg::ZERO;
    // `fcvt.{s,d}.w[u]` (format first, integer type last).
    if let Some(rest) = m.strip_prefix("fcvt.") {
        if let Some((f, int)) = rest.split_once('.') {
            if let (Some(fmt), Some(unsigned)) = (
                fp_fmt(f),
                match int {
                    "w" => Some(false),
                    "wu" => Some(true),
                    _ => None,
                },
            ) {
                o.count(&[2, 3], "2 or 3")?;
                let (rd, rs1) = (o.f(0)?, o.x(1)?);
                let proto = Inst::FCvtFromInt {
                    fmt,
                    unsigned,
                    rd,
                    rs1,
                    rm: RoundingMode::Dyn,
                };
                let rm = o.opt_rm(2, default_rounding_mode(&proto))?;
                return one(Inst::FCvtFromInt {
                    fmt,
                    unsigned,
                    rd,
                    rs1,
                    rm,
                });
            }
        }
    }
    let two = |f: &dyn Fn(XReg, XReg) -> Inst| -> Result<Parsed, AsmErrorKind> {
        o.count(&[2], "2")?;
        one(f(o.x(0)?, o.x(1)?))
    };
    let branch_zero = |op: BranchOp, swap: bool| -> Result<Parsed, AsmErrorKind> {
        o.count(&[2], "2")?;
        let r = o.x(0)?;
        let (rs1, rs2) = if swap { (zero, r) } else { (r, zero) };
        branch(
            Inst::Branch {
                op,
                rs1,
                rs2,
                offset: 0,
            },
            o.target(1)?,
        )
    };
    let branch_swap = |op: BranchOp| -> Result<Parsed, AsmErrorKind> {
        o.count(&[3], "3")?;
        branch(
            Inst::Branch {
                op,
                rs1: o.x(1)?,
                rs2: o.x(0)?,
                offset: 0,
            },
            o.target(2)?,
        )
    };
    let csr_pseudo = |op: CsrOp, imm: bool| -> Result<Parsed, AsmErrorKind> {
        o.count(&[2], "2")?;
        let csr = o.csr(0)?;
        if imm {
            one(Inst::CsrImm {
                op,
                rd: zero,
                csr,
                uimm: o.imm_in(1, 0, 31)? as u8,
            })
        } else {
            one(Inst::Csr {
                op,
                rd: zero,
                csr,
                rs1: o.x(1)?,
            })
        }
    };
    match m {
        "nop" => {
            o.count(&[0], "0")?;
            one(Inst::OpImm {
                op: ImmOp::Addi,
                rd: zero,
                rs1: zero,
                imm: 0,
            })
        }
        "li" => {
            o.count(&[2], "2")?;
            Ok(load_immediate(
                o.x(0)?,
                o.imm_in(1, i32::MIN.into(), u32::MAX.into())?,
            ))
        }
        "mv" => two(&|rd, rs| Inst::OpImm {
            op: ImmOp::Addi,
            rd,
            rs1: rs,
            imm: 0,
        }),
        "not" => two(&|rd, rs| Inst::OpImm {
            op: ImmOp::Xori,
            rd,
            rs1: rs,
            imm: -1,
        }),
        "neg" => two(&|rd, rs| Inst::Op {
            op: RegOp::Sub,
            rd,
            rs1: zero,
            rs2: rs,
        }),
        "seqz" => two(&|rd, rs| Inst::OpImm {
            op: ImmOp::Sltiu,
            rd,
            rs1: rs,
            imm: 1,
        }),
        "snez" => two(&|rd, rs| Inst::Op {
            op: RegOp::Sltu,
            rd,
            rs1: zero,
            rs2: rs,
        }),
        "sltz" => two(&|rd, rs| Inst::Op {
            op: RegOp::Slt,
            rd,
            rs1: rs,
            rs2: zero,
        }),
        "sgtz" => two(&|rd, rs| Inst::Op {
            op: RegOp::Slt,
            rd,
            rs1: zero,
            rs2: rs,
        }),
        "beqz" => branch_zero(BranchOp::Beq, false),
        "bnez" => branch_zero(BranchOp::Bne, false),
        "blez" => branch_zero(BranchOp::Bge, true),
        "bgez" => branch_zero(BranchOp::Bge, false),
        "bltz" => branch_zero(BranchOp::Blt, false),
        "bgtz" => branch_zero(BranchOp::Blt, true),
        "bgt" => branch_swap(BranchOp::Blt),
        "ble" => branch_swap(BranchOp::Bge),
        "bgtu" => branch_swap(BranchOp::Bltu),
        "bleu" => branch_swap(BranchOp::Bgeu),
        "j" => {
            o.count(&[1], "1")?;
            branch(
                Inst::Jal {
                    rd: zero,
                    offset: 0,
                },
                o.target(0)?,
            )
        }
        "jr" => {
            o.count(&[1], "1")?;
            one(Inst::Jalr {
                rd: zero,
                rs1: o.x(0)?,
                offset: 0,
            })
        }
        "ret" => {
            o.count(&[0], "0")?;
            one(Inst::Jalr {
                rd: zero,
                rs1: XReg::RA,
                offset: 0,
            })
        }
        "csrr" => {
            o.count(&[2], "2")?;
            one(Inst::Csr {
                op: CsrOp::Rs,
                rd: o.x(0)?,
                csr: o.csr(1)?,
                rs1: zero,
            })
        }
        "csrw" => csr_pseudo(CsrOp::Rw, false),
        "csrs" => csr_pseudo(CsrOp::Rs, false),
        "csrc" => csr_pseudo(CsrOp::Rc, false),
        "csrwi" => csr_pseudo(CsrOp::Rw, true),
        "csrsi" => csr_pseudo(CsrOp::Rs, true),
        "csrci" => csr_pseudo(CsrOp::Rc, true),
        _ => Err(AsmErrorKind::UnknownMnemonic(m.into())),
    }
}
