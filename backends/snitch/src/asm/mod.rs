//! Assembly text: the printer writes instructions in the PULP/LLVM
//! toolchain's syntax and the assembler reads that syntax back (plus the
//! usual pseudo-instructions), so programs can be written, read and diffed
//! as text.

mod expr;
mod mnemonics;
mod operands;
pub mod parse;
pub mod print;

pub use parse::{assemble, AsmError, AsmErrorKind, Program};
pub use print::print_program;

use crate::isa::{decode, DecodeError};

/// Decodes machine words and prints them as a program (branch targets as
/// labels); an undecodable word is reported with its index.
pub fn disassemble(words: &[u32]) -> Result<String, (usize, DecodeError)> {
    let insts = words
        .iter()
        .enumerate()
        .map(|(i, w)| decode(*w).map_err(|e| (i, e)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(print_program(&insts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::*;
    use crate::testgen::{every_form, Forms, Rng};

    /// Every form of every instruction survives print → assemble.
    #[test]
    fn print_then_assemble_is_identity_on_every_form() {
        let mut rng = Rng(11);
        for _ in 0..300 {
            let insts = every_form(&mut rng, Forms::All);
            for inst in &insts {
                let text = inst.to_string();
                let p = assemble(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(p.insts, vec![*inst], "{text}");
            }
            let text = print_program(&insts);
            let p = assemble(&text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.insts, insts);
        }
    }

    #[test]
    fn disassembly_reassembles_to_the_same_words() {
        let src = "li t0, 99\nloop: frep.o t0, 2, 0, 0\nfmadd.d ft3, ft0, ft1, ft3\nvfmac.s ft4, ft0, ft1\naddi t0, t0, -1\nbnez t0, loop\necall";
        let program = assemble(src).unwrap_or_else(|e| panic!("{e}"));
        let words = program.encode().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(words.len(), 7);
        let text = disassemble(&words).unwrap_or_else(|(i, e)| panic!("word {i}: {e}"));
        assert!(
            text.contains(".L1:") && text.contains("bne t0, zero, .L1"),
            "{text}"
        );
        let again = assemble(&text)
            .unwrap_or_else(|e| panic!("{e}"))
            .encode()
            .unwrap_or_default();
        assert_eq!(again, words);
        assert_eq!(disassemble(&[0x13, 0x7f]).map_err(|(i, _)| i), Err(1));
    }

    #[test]
    fn labels_pseudos_and_expressions() {
        let src = "
            .text
            .globl ddot
        ddot:                       # a0 = n
            li t0, 0x12345          // two instructions
            li t1, -3
            beqz a0, .end
        .loop:
            addi a0, a0, -1
            scfgwi t1, 2<<5 | 1
            bnez a0, .loop
        .end:
            csrci ssr, 1
            fmv.d fa0, ft3
            ret
        ";
        let p = assemble(src).unwrap_or_else(|e| panic!("{e}"));
        let x = |n| XReg::new(n).expect("register");
        assert_eq!(p.insts.len(), 10);
        assert_eq!(
            p.insts[0],
            Inst::Lui {
                rd: x(5),
                imm: 0x12
            }
        );
        assert_eq!(
            p.insts[1],
            Inst::OpImm {
                op: ImmOp::Addi,
                rd: x(5),
                rs1: x(5),
                imm: 0x345
            }
        );
        assert_eq!(
            p.insts[3],
            Inst::Branch {
                op: BranchOp::Beq,
                rs1: x(10),
                rs2: XReg::ZERO,
                offset: 16
            }
        );
        assert_eq!(
            p.insts[5],
            Inst::Scfgwi {
                rs1: x(6),
                addr: 65
            }
        );
        assert_eq!(
            p.insts[6],
            Inst::Branch {
                op: BranchOp::Bne,
                rs1: x(10),
                rs2: XReg::ZERO,
                offset: -8
            }
        );
        assert_eq!(
            p.insts[7],
            Inst::CsrImm {
                op: CsrOp::Rc,
                rd: XReg::ZERO,
                csr: CSR_SSR,
                uimm: 1
            }
        );
        assert_eq!(p.label_offset("ddot"), Some(0));
        assert_eq!(p.label_offset(".end"), Some(28));
    }

    #[test]
    fn li_covers_the_32_bit_range() {
        for v in [
            0i64,
            2047,
            2048,
            -2048,
            -2049,
            0x7fff_ffff,
            -0x8000_0000,
            0xffff_ffff,
            0x800,
            0xfffff800,
        ] {
            let p = assemble(&format!("li a0, {v}")).unwrap_or_else(|e| panic!("{v}: {e}"));
            // Evaluate the expansion.
            let mut a0: u32 = 0;
            for inst in &p.insts {
                match *inst {
                    Inst::Lui { imm, .. } => a0 = imm << 12,
                    Inst::OpImm {
                        op: ImmOp::Addi,
                        rs1,
                        imm,
                        ..
                    } => {
                        a0 = if rs1 == XReg::ZERO {
                            imm as u32
                        } else {
                            a0.wrapping_add(imm as u32)
                        }
                    }
                    other => panic!("unexpected {other:?}"),
                }
            }
            assert_eq!(a0, v as u32, "li {v}");
        }
    }

    /// Random lines made of assembly-ish tokens never make the assembler
    /// panic: each is a program or an error.
    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let tokens = [
            "addi",
            "lw",
            "fld",
            "frep.o",
            "scfgwi",
            "li",
            "a0",
            "ft0",
            "x33",
            "(",
            ")",
            ",",
            "0x",
            "-",
            "<<",
            "|",
            "4096",
            "-1",
            ":",
            "#",
            "//",
            ".L1",
            "label:",
            "(a0)",
            "8(",
            "rtz",
            "é",
            "0b",
            "~",
            "*",
            "/",
            "%",
            "fcvt.d.w",
            "amoadd.w.aqrl",
            "fence",
            "iorw",
            " ",
            "\t",
        ];
        let mut rng = Rng(3);
        for _ in 0..20_000 {
            let n = rng.range(0, 8) as usize;
            let line: String = (0..n)
                .map(|_| rng.pick(&tokens))
                .collect::<Vec<_>>()
                .join(" ");
            let _ = assemble(&line);
        }
    }

    #[test]
    fn errors_name_line_and_problem() {
        let e = assemble("nop\nfoo a0").expect_err("unknown mnemonic");
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, AsmErrorKind::UnknownMnemonic("foo".into()));
        let e = assemble("add a0, a1").expect_err("operand count");
        assert!(
            matches!(e.kind, AsmErrorKind::OperandCount { found: 2, .. }),
            "{e}"
        );
        let e = assemble("add a0, a1, f3").expect_err("bad register");
        assert!(e.to_string().contains("operand 3 `f3`"), "{e}");
        let e = assemble("addi a0, a0, 4096").expect_err("range");
        assert!(matches!(e.kind, AsmErrorKind::Encode(_)), "{e}");
        let e = assemble("j nowhere").expect_err("label");
        assert_eq!(e.kind, AsmErrorKind::UnknownLabel("nowhere".into()));
        let e = assemble("x:\nx:").expect_err("duplicate");
        assert_eq!(e.line, 2);
        let e = assemble(".data").expect_err("directive");
        assert_eq!(e.kind, AsmErrorKind::UnknownDirective(".data".into()));
        let e = assemble("lw a0, 4").expect_err("memory operand");
        assert!(e.to_string().contains("offset(register)"), "{e}");
        let e = assemble("fadd.d fa0, fa1, fa2, up").expect_err("rounding mode");
        assert!(e.to_string().contains("rounding mode"), "{e}");
    }
}
