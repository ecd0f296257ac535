//! 32-bit word → instruction. The decoder is the exact inverse of
//! [`encode()`](super::encode()): a word decodes only if encoding the result
//! gives the same word back, so fields the instruction does not use must be
//! zero, and a word outside the supported subset is a [`DecodeError`] that
//! says which field was not recognised.

use super::opcodes::*;
use super::*;

/// A word that is not an instruction of the supported subset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot decode {word:#010x}: {kind}")]
pub struct DecodeError {
    /// The word.
    pub word: u32,
    /// What was not recognised.
    pub kind: DecodeErrorKind,
}

/// What made a word undecodable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The low two bits are not `11`: a compressed (16-bit) instruction,
    /// which Snitch's RV32IMAFD does not have.
    #[error("not a 32-bit instruction (low bits {0:#04b}; the C extension is not supported)")]
    Compressed(u32),
    /// The major opcode (bits 6..0) is not one of the subset.
    #[error("unknown major opcode {0:#09b}")]
    UnknownOpcode(u32),
    /// A function field does not name an instruction of the subset.
    #[error("unknown {field} {value:#x} for major opcode {opcode:#09b}")]
    UnknownFunction {
        /// The major opcode.
        opcode: u32,
        /// Which field (`funct3`, `funct7`, ...).
        field: &'static str,
        /// Its value.
        value: u32,
    },
    /// The rounding-mode field holds a reserved value (5 or 6).
    #[error("reserved rounding mode {0}")]
    ReservedRoundingMode(u32),
    /// A field that must be zero (or fixed) for this instruction is not.
    #[error("field {field} of `{mnemonic}` must be {expected}, found {found}")]
    FixedField {
        /// The instruction it would have been.
        mnemonic: &'static str,
        /// The field.
        field: &'static str,
        /// The required value.
        expected: u32,
        /// The value found.
        found: u32,
    },
}

struct Fields(u32);

impl Fields {
    fn opcode(&self) -> u32 {
        self.0 & 0x7f
    }
    fn rd(&self) -> u32 {
        (self.0 >> 7) & 31
    }
    fn f3(&self) -> u32 {
        (self.0 >> 12) & 7
    }
    fn rs1(&self) -> u32 {
        (self.0 >> 15) & 31
    }
    fn rs2(&self) -> u32 {
        (self.0 >> 20) & 31
    }
    fn rs3(&self) -> u32 {
        self.0 >> 27
    }
    fn f7(&self) -> u32 {
        self.0 >> 25
    }
    fn imm_i(&self) -> i32 {
        (self.0 as i32) >> 20
    }
    fn imm_s(&self) -> i32 {
        (((self.0 as i32) >> 25) << 5) | ((self.0 >> 7) & 31) as i32
    }
    fn imm_b(&self) -> i32 {
        let w = self.0;
        let v = ((w >> 31) & 1) << 12
            | ((w >> 7) & 1) << 11
            | ((w >> 25) & 0x3f) << 5
            | ((w >> 8) & 0xf) << 1;
        ((v << 19) as i32) >> 19
    }
    fn imm_j(&self) -> i32 {
        let w = self.0;
        let v = ((w >> 31) & 1) << 20
            | ((w >> 12) & 0xff) << 12
            | ((w >> 20) & 1) << 11
            | ((w >> 21) & 0x3ff) << 1;
        ((v << 11) as i32) >> 11
    }
    fn xd(&self) -> XReg {
        XReg::from_field(self.rd())
    }
    fn x1(&self) -> XReg {
        XReg::from_field(self.rs1())
    }
    fn x2(&self) -> XReg {
        XReg::from_field(self.rs2())
    }
    fn fd(&self) -> FReg {
        FReg::from_field(self.rd())
    }
    fn fs1(&self) -> FReg {
        FReg::from_field(self.rs1())
    }
    fn fs2(&self) -> FReg {
        FReg::from_field(self.rs2())
    }
    fn fs3(&self) -> FReg {
        FReg::from_field(self.rs3())
    }
}

/// Decodes one instruction word.
pub fn decode(word: u32) -> Result<Inst, DecodeError> {
    decode_kind(word).map_err(|kind| DecodeError { word, kind })
}

fn unknown(opcode: u32, field: &'static str, value: u32) -> DecodeErrorKind {
    DecodeErrorKind::UnknownFunction {
        opcode,
        field,
        value,
    }
}

fn fixed(
    mnemonic: &'static str,
    field: &'static str,
    expected: u32,
    found: u32,
) -> Result<(), DecodeErrorKind> {
    if expected == found {
        Ok(())
    } else {
        Err(DecodeErrorKind::FixedField {
            mnemonic,
            field,
            expected,
            found,
        })
    }
}

fn rm(w: &Fields) -> Result<RoundingMode, DecodeErrorKind> {
    RoundingMode::from_bits(w.f3()).ok_or(DecodeErrorKind::ReservedRoundingMode(w.f3()))
}

fn fmt(w: &Fields) -> Result<FFmt, DecodeErrorKind> {
    match w.f7() & 3 {
        0 => Ok(FFmt::S),
        1 => Ok(FFmt::D),
        v => Err(unknown(w.opcode(), "fmt", v)),
    }
}

fn decode_kind(word: u32) -> Result<Inst, DecodeErrorKind> {
    if word & 3 != 3 {
        return Err(DecodeErrorKind::Compressed(word & 3));
    }
    let w = Fields(word);
    let op = w.opcode();
    Ok(match op {
        LUI => Inst::Lui {
            rd: w.xd(),
            imm: word >> 12,
        },
        AUIPC => Inst::Auipc {
            rd: w.xd(),
            imm: word >> 12,
        },
        JAL => Inst::Jal {
            rd: w.xd(),
            offset: w.imm_j(),
        },
        JALR => {
            fixed("jalr", "funct3", 0, w.f3())?;
            Inst::Jalr {
                rd: w.xd(),
                rs1: w.x1(),
                offset: w.imm_i(),
            }
        }
        BRANCH => {
            let op = match w.f3() {
                0 => BranchOp::Beq,
                1 => BranchOp::Bne,
                4 => BranchOp::Blt,
                5 => BranchOp::Bge,
                6 => BranchOp::Bltu,
                7 => BranchOp::Bgeu,
                v => return Err(unknown(op, "funct3", v)),
            };
            Inst::Branch {
                op,
                rs1: w.x1(),
                rs2: w.x2(),
                offset: w.imm_b(),
            }
        }
        LOAD => {
            let op = match w.f3() {
                0 => LoadOp::Lb,
                1 => LoadOp::Lh,
                2 => LoadOp::Lw,
                4 => LoadOp::Lbu,
                5 => LoadOp::Lhu,
                v => return Err(unknown(op, "funct3", v)),
            };
            Inst::Load {
                op,
                rd: w.xd(),
                rs1: w.x1(),
                offset: w.imm_i(),
            }
        }
        STORE => {
            let op = match w.f3() {
                0 => StoreOp::Sb,
                1 => StoreOp::Sh,
                2 => StoreOp::Sw,
                v => return Err(unknown(op, "funct3", v)),
            };
            Inst::Store {
                op,
                rs2: w.x2(),
                rs1: w.x1(),
                offset: w.imm_s(),
            }
        }
        OP_IMM => {
            let (op, imm) = match w.f3() {
                0 => (ImmOp::Addi, w.imm_i()),
                2 => (ImmOp::Slti, w.imm_i()),
                3 => (ImmOp::Sltiu, w.imm_i()),
                4 => (ImmOp::Xori, w.imm_i()),
                6 => (ImmOp::Ori, w.imm_i()),
                7 => (ImmOp::Andi, w.imm_i()),
                1 => {
                    fixed("slli", "funct7", 0, w.f7())?;
                    (ImmOp::Slli, w.rs2() as i32)
                }
                _ => match w.f7() {
                    0 => (ImmOp::Srli, w.rs2() as i32),
                    0x20 => (ImmOp::Srai, w.rs2() as i32),
                    v => return Err(unknown(op, "funct7", v)),
                },
            };
            Inst::OpImm {
                op,
                rd: w.xd(),
                rs1: w.x1(),
                imm,
            }
        }
        OP => return decode_op(&w),
        MISC_MEM => {
            fixed("fence", "funct3", 0, w.f3())?;
            fixed("fence", "rd", 0, w.rd())?;
            fixed("fence", "rs1", 0, w.rs1())?;
            fixed("fence", "fm", 0, word >> 28)?;
            Inst::Fence {
                pred: ((word >> 24) & 15) as u8,
                succ: ((word >> 20) & 15) as u8,
            }
        }
        SYSTEM => match w.f3() {
            0 => match word {
                0x0000_0073 => Inst::Ecall,
                0x0010_0073 => Inst::Ebreak,
                _ => return Err(unknown(op, "funct12", word >> 20)),
            },
            4 => return Err(unknown(op, "funct3", 4)),
            f3 => {
                let csr_op = match f3 & 3 {
                    1 => CsrOp::Rw,
                    2 => CsrOp::Rs,
                    _ => CsrOp::Rc,
                };
                let csr = (word >> 20) as u16;
                if f3 & 4 == 0 {
                    Inst::Csr {
                        op: csr_op,
                        rd: w.xd(),
                        csr,
                        rs1: w.x1(),
                    }
                } else {
                    Inst::CsrImm {
                        op: csr_op,
                        rd: w.xd(),
                        csr,
                        uimm: w.rs1() as u8,
                    }
                }
            }
        },
        AMO => {
            fixed("amo", "funct3", 2, w.f3())?;
            let f5 = word >> 27;
            let amo = AMO_F5
                .iter()
                .find(|(_, v)| *v == f5)
                .map(|(o, _)| *o)
                .ok_or_else(|| unknown(op, "funct5", f5))?;
            if amo == AmoOp::LrW {
                fixed("lr.w", "rs2", 0, w.rs2())?;
            }
            Inst::Amo {
                op: amo,
                rd: w.xd(),
                rs1: w.x1(),
                rs2: w.x2(),
                aq: word & (1 << 26) != 0,
                rl: word & (1 << 25) != 0,
            }
        }
        LOAD_FP | STORE_FP => {
            let fmt = match w.f3() {
                2 => FFmt::S,
                3 => FFmt::D,
                v => return Err(unknown(op, "width", v)),
            };
            if op == LOAD_FP {
                Inst::FLoad {
                    fmt,
                    rd: w.fd(),
                    rs1: w.x1(),
                    offset: w.imm_i(),
                }
            } else {
                Inst::FStore {
                    fmt,
                    rs2: w.fs2(),
                    rs1: w.x1(),
                    offset: w.imm_s(),
                }
            }
        }
        MADD | MSUB | NMSUB | NMADD => {
            let fma = match op {
                MADD => FmaOp::Madd,
                MSUB => FmaOp::Msub,
                NMSUB => FmaOp::Nmsub,
                _ => FmaOp::Nmadd,
            };
            Inst::Fma {
                op: fma,
                fmt: fmt(&w)?,
                rd: w.fd(),
                rs1: w.fs1(),
                rs2: w.fs2(),
                rs3: w.fs3(),
                rm: rm(&w)?,
            }
        }
        OP_FP => return decode_op_fp(&w),
        CUSTOM_0 => {
            let mode = if word & (1 << 7) != 0 {
                FrepMode::Outer
            } else {
                FrepMode::Inner
            };
            Inst::Frep {
                mode,
                rs1: w.x1(),
                count: ((word >> 20) + 1) as u16,
                stagger_max: w.f3() as u8,
                stagger_mask: ((word >> 8) & 15) as u8,
            }
        }
        CUSTOM_1 => match w.f3() {
            SCFG_READ_F3 => match w.rs1() {
                0 => Inst::Scfgri {
                    rd: w.xd(),
                    addr: (word >> 20) as u16,
                },
                1 => {
                    fixed("scfgr", "funct7", 0, w.f7())?;
                    Inst::Scfgr {
                        rd: w.xd(),
                        rs2: w.x2(),
                    }
                }
                v => return Err(unknown(op, "rs1 selector of scfgri/scfgr", v)),
            },
            SCFG_WRITE_F3 => match w.rd() {
                0 => Inst::Scfgwi {
                    rs1: w.x1(),
                    addr: (word >> 20) as u16,
                },
                1 => {
                    fixed("scfgw", "funct7", 0, w.f7())?;
                    Inst::Scfgw {
                        rs1: w.x1(),
                        rs2: w.x2(),
                    }
                }
                v => return Err(unknown(op, "rd selector of scfgwi/scfgw", v)),
            },
            v => return Err(unknown(op, "funct3", v)),
        },
        _ => return Err(DecodeErrorKind::UnknownOpcode(op)),
    })
}

fn decode_op(w: &Fields) -> Result<Inst, DecodeErrorKind> {
    let op = match (w.f7(), w.f3()) {
        (0, 0) => RegOp::Add,
        (0x20, 0) => RegOp::Sub,
        (0, 1) => RegOp::Sll,
        (0, 2) => RegOp::Slt,
        (0, 3) => RegOp::Sltu,
        (0, 4) => RegOp::Xor,
        (0, 5) => RegOp::Srl,
        (0x20, 5) => RegOp::Sra,
        (0, 6) => RegOp::Or,
        (0, 7) => RegOp::And,
        (1, 0) => RegOp::Mul,
        (1, 1) => RegOp::Mulh,
        (1, 2) => RegOp::Mulhsu,
        (1, 3) => RegOp::Mulhu,
        (1, 4) => RegOp::Div,
        (1, 5) => RegOp::Divu,
        (1, 6) => RegOp::Rem,
        (1, 7) => RegOp::Remu,
        (f7, 0) => {
            let vf = match f7 {
                VFADD_S_F7 => VfOp::Add,
                VFMUL_S_F7 => VfOp::Mul,
                VFMAC_S_F7 => VfOp::Mac,
                VFMAX_S_F7 => VfOp::Max,
                VFCPKA_S_S_F7 => VfOp::Cpka,
                v => return Err(unknown(OP, "funct7", v)),
            };
            return Ok(Inst::Vf {
                op: vf,
                rd: w.fd(),
                rs1: w.fs1(),
                rs2: w.fs2(),
            });
        }
        (f7, _) => return Err(unknown(OP, "funct7", f7)),
    };
    Ok(Inst::Op {
        op,
        rd: w.xd(),
        rs1: w.x1(),
        rs2: w.x2(),
    })
}

fn decode_op_fp(w: &Fields) -> Result<Inst, DecodeErrorKind> {
    let fmt = fmt(w)?;
    let f5 = w.f7() >> 2;
    Ok(match f5 {
        FADD_F5 | FSUB_F5 | FMUL_F5 | FDIV_F5 => {
            let op = match f5 {
                FADD_F5 => FArithOp::Add,
                FSUB_F5 => FArithOp::Sub,
                FMUL_F5 => FArithOp::Mul,
                _ => FArithOp::Div,
            };
            Inst::FArith {
                op,
                fmt,
                rd: w.fd(),
                rs1: w.fs1(),
                rs2: w.fs2(),
                rm: rm(w)?,
            }
        }
        FSQRT_F5 => {
            fixed("fsqrt", "rs2", 0, w.rs2())?;
            Inst::FSqrt {
                fmt,
                rd: w.fd(),
                rs1: w.fs1(),
                rm: rm(w)?,
            }
        }
        FSGNJ_F5 => {
            let op = match w.f3() {
                0 => FSgnjOp::Sgnj,
                1 => FSgnjOp::Sgnjn,
                2 => FSgnjOp::Sgnjx,
                v => return Err(unknown(OP_FP, "funct3", v)),
            };
            Inst::FSgnj {
                op,
                fmt,
                rd: w.fd(),
                rs1: w.fs1(),
                rs2: w.fs2(),
            }
        }
        FMINMAX_F5 => {
            let op = match w.f3() {
                0 => FMinMaxOp::Min,
                1 => FMinMaxOp::Max,
                v => return Err(unknown(OP_FP, "funct3", v)),
            };
            Inst::FMinMax {
                op,
                fmt,
                rd: w.fd(),
                rs1: w.fs1(),
                rs2: w.fs2(),
            }
        }
        FCVT_FMT_F5 => {
            let from = match fmt {
                FFmt::S => 1,
                FFmt::D => 0,
            };
            fixed(
                if fmt == FFmt::S {
                    "fcvt.s.d"
                } else {
                    "fcvt.d.s"
                },
                "rs2",
                from,
                w.rs2(),
            )?;
            Inst::FCvtFmt {
                to: fmt,
                rd: w.fd(),
                rs1: w.fs1(),
                rm: rm(w)?,
            }
        }
        FCMP_F5 => {
            let op = match w.f3() {
                0 => FCmpOp::Le,
                1 => FCmpOp::Lt,
                2 => FCmpOp::Eq,
                v => return Err(unknown(OP_FP, "funct3", v)),
            };
            Inst::FCmp {
                op,
                fmt,
                rd: w.xd(),
                rs1: w.fs1(),
                rs2: w.fs2(),
            }
        }
        FCVT_TO_INT_F5 | FCVT_FROM_INT_F5 => {
            let unsigned = match w.rs2() {
                0 => false,
                1 => true,
                v => return Err(unknown(OP_FP, "rs2 (conversion type)", v)),
            };
            if f5 == FCVT_TO_INT_F5 {
                Inst::FCvtToInt {
                    fmt,
                    unsigned,
                    rd: w.xd(),
                    rs1: w.fs1(),
                    rm: rm(w)?,
                }
            } else {
                Inst::FCvtFromInt {
                    fmt,
                    unsigned,
                    rd: w.fd(),
                    rs1: w.x1(),
                    rm: rm(w)?,
                }
            }
        }
        FMV_TO_INT_F5 => {
            fixed("fmv.x.w/fclass", "rs2", 0, w.rs2())?;
            match (w.f3(), fmt) {
                (0, FFmt::S) => Inst::FMvToInt {
                    rd: w.xd(),
                    rs1: w.fs1(),
                },
                (1, _) => Inst::FClass {
                    fmt,
                    rd: w.xd(),
                    rs1: w.fs1(),
                },
                (v, _) => return Err(unknown(OP_FP, "funct3", v)),
            }
        }
        FMV_FROM_INT_F5 => {
            fixed("fmv.w.x", "rs2", 0, w.rs2())?;
            fixed("fmv.w.x", "funct3", 0, w.f3())?;
            if fmt != FFmt::S {
                return Err(unknown(OP_FP, "fmt", fmt.bits()));
            }
            Inst::FMvFromInt {
                rd: w.fd(),
                rs1: w.x1(),
            }
        }
        v => return Err(unknown(OP_FP, "funct5", v)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::encode;
    use crate::testgen::{every_form, Forms, Rng};

    /// Any word that decodes re-encodes to itself (the decoder accepts no
    /// "don't care" bits), and a word that does not decode says why.
    #[test]
    fn decode_then_encode_is_identity_on_random_words() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut decoded = 0;
        for _ in 0..400_000 {
            let word = (rng.next() as u32) | 3;
            if let Ok(inst) = decode(word) {
                decoded += 1;
                assert_eq!(encode(&inst), Ok(word), "{inst:?}");
            }
        }
        assert!(decoded > 10_000, "only {decoded} random words decoded");
    }

    /// Every form of every instruction survives encode → decode.
    #[test]
    fn encode_then_decode_is_identity_on_every_form() {
        let mut rng = Rng(7);
        for _ in 0..2000 {
            for inst in every_form(&mut rng, Forms::All) {
                let word = encode(&inst).unwrap_or_else(|e| panic!("{inst:?}: {e}"));
                assert_eq!(decode(word), Ok(inst), "{word:#010x}");
            }
        }
    }

    #[test]
    fn errors_name_the_field() {
        let e = decode(0x0000_0000).expect_err("compressed");
        assert_eq!(e.kind, DecodeErrorKind::Compressed(0));
        let e = decode(0x0000_007f).expect_err("opcode 0x7f");
        assert!(e.to_string().contains("unknown major opcode"), "{e}");
        // fadd.d with rm = 5.
        let e = decode(0x02c5_d553).expect_err("reserved rm");
        assert_eq!(e.kind, DecodeErrorKind::ReservedRoundingMode(5));
    }
}
