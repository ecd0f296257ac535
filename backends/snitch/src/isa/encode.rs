//! Instruction → 32-bit word. Every immediate is range-checked: an
//! instruction that cannot be encoded is an [`EncodeError`], never a
//! silently truncated word.

use super::opcodes::*;
use super::*;

/// Why an instruction has no encoding.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot encode `{mnemonic}`: {field} = {value} is {problem}")]
pub struct EncodeError {
    /// The instruction's mnemonic.
    pub mnemonic: String,
    /// The operand that does not fit.
    pub field: &'static str,
    /// Its value.
    pub value: i64,
    /// What is wrong with it, e.g. "outside -2048..=2047".
    pub problem: String,
}

fn check(
    inst: &Inst,
    field: &'static str,
    value: i64,
    min: i64,
    max: i64,
    align: i64,
) -> Result<u32, EncodeError> {
    if value < min || value > max {
        return Err(EncodeError {
            mnemonic: inst.mnemonic(),
            field,
            value,
            problem: format!("outside {min}..={max}"),
        });
    }
    if value % align != 0 {
        return Err(EncodeError {
            mnemonic: inst.mnemonic(),
            field,
            value,
            problem: format!("not a multiple of {align}"),
        });
    }
    Ok(value as u32)
}

fn simm12(inst: &Inst, field: &'static str, v: i32) -> Result<u32, EncodeError> {
    Ok(check(inst, field, v.into(), -2048, 2047, 1)? & 0xfff)
}

fn r_type(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32, opcode: u32) -> u32 {
    (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opcode
}

fn i_type(imm12: u32, rs1: u32, f3: u32, rd: u32, opcode: u32) -> u32 {
    (imm12 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opcode
}

fn s_type(imm12: u32, rs2: u32, rs1: u32, f3: u32, opcode: u32) -> u32 {
    ((imm12 >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm12 & 31) << 7) | opcode
}

fn x(r: XReg) -> u32 {
    r.num().into()
}

fn f(r: FReg) -> u32 {
    r.num().into()
}

fn fp_f7(f5: u32, fmt: FFmt) -> u32 {
    (f5 << 2) | fmt.bits()
}

/// The 32-bit encoding of `inst`.
pub fn encode(inst: &Inst) -> Result<u32, EncodeError> {
    let i = inst;
    Ok(match *inst {
        Inst::Lui { rd, imm } | Inst::Auipc { rd, imm } => {
            let imm = check(i, "imm", imm.into(), 0, 0xfffff, 1)?;
            let op = if matches!(inst, Inst::Lui { .. }) {
                LUI
            } else {
                AUIPC
            };
            (imm << 12) | (x(rd) << 7) | op
        }
        Inst::Jal { rd, offset } => {
            let o = check(i, "offset", offset.into(), -(1 << 20), (1 << 20) - 2, 2)?;
            let bits = ((o >> 20) & 1) << 31
                | ((o >> 1) & 0x3ff) << 21
                | ((o >> 11) & 1) << 20
                | ((o >> 12) & 0xff) << 12;
            bits | (x(rd) << 7) | JAL
        }
        Inst::Jalr { rd, rs1, offset } => {
            i_type(simm12(i, "offset", offset)?, x(rs1), 0, x(rd), JALR)
        }
        Inst::Branch {
            op,
            rs1,
            rs2,
            offset,
        } => {
            let o = check(i, "offset", offset.into(), -4096, 4094, 2)?;
            let f3 = match op {
                BranchOp::Beq => 0,
                BranchOp::Bne => 1,
                BranchOp::Blt => 4,
                BranchOp::Bge => 5,
                BranchOp::Bltu => 6,
                BranchOp::Bgeu => 7,
            };
            ((o >> 12) & 1) << 31
                | ((o >> 5) & 0x3f) << 25
                | (x(rs2) << 20)
                | (x(rs1) << 15)
                | (f3 << 12)
                | ((o >> 1) & 0xf) << 8
                | ((o >> 11) & 1) << 7
                | BRANCH
        }
        Inst::Load {
            op,
            rd,
            rs1,
            offset,
        } => {
            let f3 = match op {
                LoadOp::Lb => 0,
                LoadOp::Lh => 1,
                LoadOp::Lw => 2,
                LoadOp::Lbu => 4,
                LoadOp::Lhu => 5,
            };
            i_type(simm12(i, "offset", offset)?, x(rs1), f3, x(rd), LOAD)
        }
        Inst::Store {
            op,
            rs2,
            rs1,
            offset,
        } => {
            let f3 = match op {
                StoreOp::Sb => 0,
                StoreOp::Sh => 1,
                StoreOp::Sw => 2,
            };
            s_type(simm12(i, "offset", offset)?, x(rs2), x(rs1), f3, STORE)
        }
        Inst::OpImm { op, rd, rs1, imm } => {
            let (f3, field) = match op {
                ImmOp::Addi => (0, simm12(i, "imm", imm)?),
                ImmOp::Slti => (2, simm12(i, "imm", imm)?),
                ImmOp::Sltiu => (3, simm12(i, "imm", imm)?),
                ImmOp::Xori => (4, simm12(i, "imm", imm)?),
                ImmOp::Ori => (6, simm12(i, "imm", imm)?),
                ImmOp::Andi => (7, simm12(i, "imm", imm)?),
                ImmOp::Slli => (1, check(i, "shamt", imm.into(), 0, 31, 1)?),
                ImmOp::Srli => (5, check(i, "shamt", imm.into(), 0, 31, 1)?),
                ImmOp::Srai => (5, check(i, "shamt", imm.into(), 0, 31, 1)? | 0x400),
            };
            i_type(field, x(rs1), f3, x(rd), OP_IMM)
        }
        Inst::Op { op, rd, rs1, rs2 } => {
            let (f7, f3) = match op {
                RegOp::Add => (0, 0),
                RegOp::Sub => (0x20, 0),
                RegOp::Sll => (0, 1),
                RegOp::Slt => (0, 2),
                RegOp::Sltu => (0, 3),
                RegOp::Xor => (0, 4),
                RegOp::Srl => (0, 5),
                RegOp::Sra => (0x20, 5),
                RegOp::Or => (0, 6),
                RegOp::And => (0, 7),
                RegOp::Mul => (1, 0),
                RegOp::Mulh => (1, 1),
                RegOp::Mulhsu => (1, 2),
                RegOp::Mulhu => (1, 3),
                RegOp::Div => (1, 4),
                RegOp::Divu => (1, 5),
                RegOp::Rem => (1, 6),
                RegOp::Remu => (1, 7),
            };
            r_type(f7, x(rs2), x(rs1), f3, x(rd), OP)
        }
        Inst::Fence { pred, succ } => {
            let p = check(i, "pred", pred.into(), 0, 15, 1)?;
            let s = check(i, "succ", succ.into(), 0, 15, 1)?;
            (p << 24) | (s << 20) | MISC_MEM
        }
        Inst::Ecall => SYSTEM,
        Inst::Ebreak => (1 << 20) | SYSTEM,
        Inst::Amo {
            op,
            rd,
            rs1,
            rs2,
            aq,
            rl,
        } => {
            let f5 = AMO_F5
                .iter()
                .find(|(o, _)| *o == op)
                .map(|(_, v)| *v)
                .unwrap_or(0);
            let rs2 = if op == AmoOp::LrW { 0 } else { x(rs2) };
            let f7 = (f5 << 2) | (u32::from(aq) << 1) | u32::from(rl);
            r_type(f7, rs2, x(rs1), 2, x(rd), AMO)
        }
        Inst::Csr { op, rd, csr, rs1 } => {
            let c = check(i, "csr", csr.into(), 0, 0xfff, 1)?;
            i_type(c, x(rs1), csr_f3(op), x(rd), SYSTEM)
        }
        Inst::CsrImm { op, rd, csr, uimm } => {
            let c = check(i, "csr", csr.into(), 0, 0xfff, 1)?;
            let u = check(i, "uimm", uimm.into(), 0, 31, 1)?;
            i_type(c, u, csr_f3(op) | 4, x(rd), SYSTEM)
        }
        Inst::FLoad {
            fmt,
            rd,
            rs1,
            offset,
        } => i_type(
            simm12(i, "offset", offset)?,
            x(rs1),
            fmt.bits() + 2,
            f(rd),
            LOAD_FP,
        ),
        Inst::FStore {
            fmt,
            rs2,
            rs1,
            offset,
        } => s_type(
            simm12(i, "offset", offset)?,
            f(rs2),
            x(rs1),
            fmt.bits() + 2,
            STORE_FP,
        ),
        Inst::FArith {
            op,
            fmt,
            rd,
            rs1,
            rs2,
            rm,
        } => {
            let f5 = match op {
                FArithOp::Add => FADD_F5,
                FArithOp::Sub => FSUB_F5,
                FArithOp::Mul => FMUL_F5,
                FArithOp::Div => FDIV_F5,
            };
            r_type(fp_f7(f5, fmt), f(rs2), f(rs1), rm.bits(), f(rd), OP_FP)
        }
        Inst::FSqrt { fmt, rd, rs1, rm } => {
            r_type(fp_f7(FSQRT_F5, fmt), 0, f(rs1), rm.bits(), f(rd), OP_FP)
        }
        Inst::FSgnj {
            op,
            fmt,
            rd,
            rs1,
            rs2,
        } => {
            let f3 = match op {
                FSgnjOp::Sgnj => 0,
                FSgnjOp::Sgnjn => 1,
                FSgnjOp::Sgnjx => 2,
            };
            r_type(fp_f7(FSGNJ_F5, fmt), f(rs2), f(rs1), f3, f(rd), OP_FP)
        }
        Inst::FMinMax {
            op,
            fmt,
            rd,
            rs1,
            rs2,
        } => {
            let f3 = match op {
                FMinMaxOp::Min => 0,
                FMinMaxOp::Max => 1,
            };
            r_type(fp_f7(FMINMAX_F5, fmt), f(rs2), f(rs1), f3, f(rd), OP_FP)
        }
        Inst::Fma {
            op,
            fmt,
            rd,
            rs1,
            rs2,
            rs3,
            rm,
        } => {
            let opcode = match op {
                FmaOp::Madd => MADD,
                FmaOp::Msub => MSUB,
                FmaOp::Nmsub => NMSUB,
                FmaOp::Nmadd => NMADD,
            };
            r_type(
                (f(rs3) << 2) | fmt.bits(),
                f(rs2),
                f(rs1),
                rm.bits(),
                f(rd),
                opcode,
            )
        }
        Inst::FCmp {
            op,
            fmt,
            rd,
            rs1,
            rs2,
        } => {
            let f3 = match op {
                FCmpOp::Le => 0,
                FCmpOp::Lt => 1,
                FCmpOp::Eq => 2,
            };
            r_type(fp_f7(FCMP_F5, fmt), f(rs2), f(rs1), f3, x(rd), OP_FP)
        }
        Inst::FClass { fmt, rd, rs1 } => {
            r_type(fp_f7(FMV_TO_INT_F5, fmt), 0, f(rs1), 1, x(rd), OP_FP)
        }
        Inst::FCvtToInt {
            fmt,
            unsigned,
            rd,
            rs1,
            rm,
        } => r_type(
            fp_f7(FCVT_TO_INT_F5, fmt),
            u32::from(unsigned),
            f(rs1),
            rm.bits(),
            x(rd),
            OP_FP,
        ),
        Inst::FCvtFromInt {
            fmt,
            unsigned,
            rd,
            rs1,
            rm,
        } => r_type(
            fp_f7(FCVT_FROM_INT_F5, fmt),
            u32::from(unsigned),
            x(rs1),
            rm.bits(),
            f(rd),
            OP_FP,
        ),
        Inst::FCvtFmt { to, rd, rs1, rm } => {
            let from = match to {
                FFmt::S => FFmt::D,
                FFmt::D => FFmt::S,
            };
            r_type(
                fp_f7(FCVT_FMT_F5, to),
                from.bits(),
                f(rs1),
                rm.bits(),
                f(rd),
                OP_FP,
            )
        }
        Inst::FMvToInt { rd, rs1 } => {
            r_type(fp_f7(FMV_TO_INT_F5, FFmt::S), 0, f(rs1), 0, x(rd), OP_FP)
        }
        Inst::FMvFromInt { rd, rs1 } => {
            r_type(fp_f7(FMV_FROM_INT_F5, FFmt::S), 0, x(rs1), 0, f(rd), OP_FP)
        }
        Inst::Scfgwi { rs1, addr } => {
            let a = check(i, "addr", addr.into(), 0, 0xfff, 1)?;
            i_type(a, x(rs1), SCFG_WRITE_F3, 0, CUSTOM_1)
        }
        Inst::Scfgri { rd, addr } => {
            let a = check(i, "addr", addr.into(), 0, 0xfff, 1)?;
            i_type(a, 0, SCFG_READ_F3, x(rd), CUSTOM_1)
        }
        Inst::Scfgw { rs1, rs2 } => r_type(0, x(rs2), x(rs1), SCFG_WRITE_F3, 1, CUSTOM_1),
        Inst::Scfgr { rd, rs2 } => r_type(0, x(rs2), 1, SCFG_READ_F3, x(rd), CUSTOM_1),
        Inst::Frep {
            mode,
            rs1,
            count,
            stagger_max,
            stagger_mask,
        } => {
            let n = check(i, "count", count.into(), 1, 4096, 1)? - 1;
            let smax = check(i, "stagger_max", stagger_max.into(), 0, 7, 1)?;
            let smask = check(i, "stagger_mask", stagger_mask.into(), 0, 15, 1)?;
            let outer = u32::from(mode == FrepMode::Outer);
            (n << 20) | (x(rs1) << 15) | (smax << 12) | (smask << 8) | (outer << 7) | CUSTOM_0
        }
        Inst::Vf { op, rd, rs1, rs2 } => {
            let f7 = match op {
                VfOp::Add => VFADD_S_F7,
                VfOp::Mul => VFMUL_S_F7,
                VfOp::Mac => VFMAC_S_F7,
                VfOp::Max => VFMAX_S_F7,
                VfOp::Cpka => VFCPKA_S_S_F7,
            };
            r_type(f7, f(rs2), f(rs1), 0, f(rd), OP)
        }
    })
}

fn csr_f3(op: CsrOp) -> u32 {
    match op {
        CsrOp::Rw => 1,
        CsrOp::Rs => 2,
        CsrOp::Rc => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::decode;

    fn xr(n: u8) -> XReg {
        XReg::new(n).expect("register number below 32")
    }
    fn fr(n: u8) -> FReg {
        FReg::new(n).expect("register number below 32")
    }

    /// Words published for Snitch's custom instructions, each with where it
    /// was published. `decode(word)` must give the instruction and
    /// `encode(instruction)` the word.
    ///
    /// - `frep`: the PULP LLVM fork's MC test for Xfrep (run as
    ///   `llvm-mc -triple=riscv32 --mattr=xfrep -show-encoding`), which assembles
    ///   `frep.o t3, 4, 0, 0`, `frep.o t0, 1, 4, 15`, `frep.i t3, 4, 0, 0`.
    /// - `vfadd.s`, `vfmul.s`: the PULP LLVM fork's generated MC test for
    ///   Xfvecsingle (`vfadd.s f21, f12, f23`, `vfmul.s f21, f26, f6`).
    /// - `vfmac.s`, `vfcpka.s.s` (printed `vfcpk.s.s.0` there), `scfgwi`,
    ///   `scfgw` and `csrrsi` on 0x7c0: objdump listings of snitch_cluster
    ///   test binaries built with that toolchain.
    /// - `vfmax.s`, `scfgri`, `scfgr`: no listing was found; the word is the
    ///   `riscv_instr.sv` match pattern (`VFMAX_S`, `SCFGRI`, `SCFGR`) with
    ///   the operand fields filled in by hand.
    #[test]
    fn custom_encodings_match_published_words() {
        let table: &[(u32, Inst)] = &[
            (
                0x003e_008b,
                Inst::Frep {
                    mode: FrepMode::Outer,
                    rs1: xr(28),
                    count: 4,
                    stagger_max: 0,
                    stagger_mask: 0,
                },
            ),
            (
                0x0002_cf8b,
                Inst::Frep {
                    mode: FrepMode::Outer,
                    rs1: xr(5),
                    count: 1,
                    stagger_max: 4,
                    stagger_mask: 15,
                },
            ),
            (
                0x003e_000b,
                Inst::Frep {
                    mode: FrepMode::Inner,
                    rs1: xr(28),
                    count: 4,
                    stagger_max: 0,
                    stagger_mask: 0,
                },
            ),
            (
                0x8376_0ab3,
                Inst::Vf {
                    op: VfOp::Add,
                    rd: fr(21),
                    rs1: fr(12),
                    rs2: fr(23),
                },
            ),
            (
                0x866d_0ab3,
                Inst::Vf {
                    op: VfOp::Mul,
                    rd: fr(21),
                    rs1: fr(26),
                    rs2: fr(6),
                },
            ),
            (
                0x9052_0033,
                Inst::Vf {
                    op: VfOp::Mac,
                    rd: fr(0),
                    rs1: fr(4),
                    rs2: fr(5),
                },
            ),
            (
                0xb010_03b3,
                Inst::Vf {
                    op: VfOp::Cpka,
                    rd: fr(7),
                    rs1: fr(0),
                    rs2: fr(1),
                },
            ),
            // VFMAX_S = 1000110 rs2 rs1 000 rd 0110011 with rd=ft3, rs1=ft4, rs2=ft5.
            (
                0x8c52_01b3,
                Inst::Vf {
                    op: VfOp::Max,
                    rd: fr(3),
                    rs1: fr(4),
                    rs2: fr(5),
                },
            ),
            (
                0x3a04_202b,
                Inst::Scfgwi {
                    rs1: xr(8),
                    addr: 928,
                },
            ),
            // SCFGRI = imm12 00000 001 rd 0101011 with rd=a0, imm12=0x40.
            (
                0x0400_152b,
                Inst::Scfgri {
                    rd: xr(10),
                    addr: 0x40,
                },
            ),
            (
                0x00d6_20ab,
                Inst::Scfgw {
                    rs1: xr(12),
                    rs2: xr(13),
                },
            ),
            // SCFGR = 0000000 rs2 00001 001 rd 0101011 with rd=a0, rs2=a3.
            (
                0x00d0_952b,
                Inst::Scfgr {
                    rd: xr(10),
                    rs2: xr(13),
                },
            ),
            (
                0x7c00_e5f3,
                Inst::CsrImm {
                    op: CsrOp::Rs,
                    rd: xr(11),
                    csr: CSR_SSR,
                    uimm: 1,
                },
            ),
        ];
        for (word, inst) in table {
            assert_eq!(encode(inst), Ok(*word), "encoding {inst:?}");
            assert_eq!(decode(*word), Ok(*inst), "decoding {word:#010x}");
        }
    }

    /// Every random instance of a custom form matches the mask/match pair
    /// of its published pattern (snitch_cluster's `riscv_instr.sv`; `frep.i`
    /// from `opcodes-frep_CUSTOM`, which the RTL file leaves out).
    #[test]
    fn custom_forms_match_published_patterns() {
        use crate::testgen::{every_form, Forms, Rng};
        let patterns: &[(&str, u32, u32)] = &[
            ("frep.o", 0x0000_00ff, 0x0000_008b),
            ("frep.i", 0x0000_00ff, 0x0000_000b),
            ("scfgri", 0x000f_f07f, 0x0000_102b),
            ("scfgwi", 0x0000_7fff, 0x0000_202b),
            ("scfgr", 0xfe0f_f07f, 0x0000_902b),
            ("scfgw", 0xfe00_7fff, 0x0000_20ab),
            ("vfadd.s", 0xfe00_707f, 0x8200_0033),
            ("vfmul.s", 0xfe00_707f, 0x8600_0033),
            ("vfmax.s", 0xfe00_707f, 0x8c00_0033),
            ("vfmac.s", 0xfe00_707f, 0x9000_0033),
            ("vfcpka.s.s", 0xfe00_707f, 0xb000_0033),
        ];
        let mut rng = Rng(21);
        let mut seen = 0;
        for _ in 0..500 {
            for inst in every_form(&mut rng, Forms::All) {
                let word = encode(&inst).unwrap_or_else(|e| panic!("{e}"));
                let matching: Vec<&str> = patterns
                    .iter()
                    .filter(|(_, mask, m)| word & mask == *m)
                    .map(|(n, _, _)| *n)
                    .collect();
                let name = inst.mnemonic();
                if patterns.iter().any(|(n, _, _)| *n == name) {
                    seen += 1;
                    assert_eq!(matching, vec![name.as_str()], "{inst} = {word:#010x}");
                } else {
                    assert!(
                        matching.is_empty(),
                        "{inst} = {word:#010x} matches {matching:?}"
                    );
                }
            }
        }
        assert_eq!(seen, 500 * patterns.len());
    }

    #[test]
    fn out_of_range_immediates_are_errors() {
        let bad = Inst::OpImm {
            op: ImmOp::Addi,
            rd: xr(1),
            rs1: xr(1),
            imm: 2048,
        };
        let e = encode(&bad).expect_err("2048 does not fit 12 bits");
        assert_eq!(e.field, "imm");
        assert!(e.to_string().contains("addi"), "{e}");
        let odd = Inst::Branch {
            op: BranchOp::Beq,
            rs1: xr(1),
            rs2: xr(2),
            offset: 3,
        };
        assert!(encode(&odd)
            .expect_err("odd offset")
            .problem
            .contains("multiple of 2"));
        let frep = Inst::Frep {
            mode: FrepMode::Outer,
            rs1: xr(5),
            count: 0,
            stagger_max: 0,
            stagger_mask: 0,
        };
        assert!(encode(&frep).is_err());
    }
}
