//! Instructions as assembly text in the syntax of the PULP/LLVM RISC-V
//! toolchain (the form `llvm-mc -riscv-no-aliases` prints): canonical
//! mnemonics, ABI register names, `offset(base)` memory operands, rounding
//! modes only when they are not the instruction's default, and branch
//! targets as byte offsets (or labels, in [`print_program`]).

use std::collections::BTreeSet;
use std::fmt::{self, Write};

use crate::isa::*;

/// The rounding mode the toolchain assumes when none is written: `rne` for
/// the exact conversions into f64 (which LLVM encodes with `rm = 0` and
/// prints without a mode), `dyn` for everything else.
pub fn default_rounding_mode(inst: &Inst) -> RoundingMode {
    match inst {
        Inst::FCvtFromInt { fmt: FFmt::D, .. } | Inst::FCvtFmt { to: FFmt::D, .. } => {
            RoundingMode::Rne
        }
        _ => RoundingMode::Dyn,
    }
}

/// The assembler name of a CSR number, where the toolchain has one.
pub fn csr_name(csr: u16) -> Option<&'static str> {
    Some(match csr {
        CSR_FFLAGS => "fflags",
        CSR_FRM => "frm",
        CSR_FCSR => "fcsr",
        CSR_MCYCLE => "mcycle",
        CSR_MINSTRET => "minstret",
        CSR_MCYCLEH => "mcycleh",
        CSR_CYCLE => "cycle",
        CSR_MHARTID => "mhartid",
        _ => return None,
    })
}

struct Csr(u16);

impl fmt::Display for Csr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match csr_name(self.0) {
            Some(n) => f.write_str(n),
            None => write!(f, "{:#x}", self.0),
        }
    }
}

/// Prints a `fence` predecessor or successor set (`iorw` letters, `0` when empty).
fn fence_set(bits: u8) -> String {
    let s: String = [(8, 'i'), (4, 'o'), (2, 'r'), (1, 'w')]
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, c)| *c)
        .collect();
    if s.is_empty() {
        "0".into()
    } else {
        s
    }
}

/// Writes `inst` with its branch target printed by `target` (given the
/// relative offset).
fn write_inst(out: &mut dyn Write, inst: &Inst, target: &dyn Fn(i32) -> String) -> fmt::Result {
    let m = inst.mnemonic();
    let rm_suffix = |rm: RoundingMode| {
        if rm == default_rounding_mode(inst) {
            String::new()
        } else {
            format!(", {}", rm.mnemonic())
        }
    };
    match *inst {
        Inst::Lui { rd, imm } | Inst::Auipc { rd, imm } => write!(out, "{m} {rd}, {imm}"),
        Inst::Jal { rd, offset } => write!(out, "{m} {rd}, {}", target(offset)),
        Inst::Jalr { rd, rs1, offset } => write!(out, "{m} {rd}, {offset}({rs1})"),
        Inst::Branch {
            rs1, rs2, offset, ..
        } => write!(out, "{m} {rs1}, {rs2}, {}", target(offset)),
        Inst::Load {
            rd, rs1, offset, ..
        } => write!(out, "{m} {rd}, {offset}({rs1})"),
        Inst::Store {
            rs2, rs1, offset, ..
        } => write!(out, "{m} {rs2}, {offset}({rs1})"),
        Inst::OpImm { rd, rs1, imm, .. } => write!(out, "{m} {rd}, {rs1}, {imm}"),
        Inst::Op { rd, rs1, rs2, .. } => write!(out, "{m} {rd}, {rs1}, {rs2}"),
        Inst::Fence { pred, succ } => write!(out, "{m} {}, {}", fence_set(pred), fence_set(succ)),
        Inst::Ecall | Inst::Ebreak => write!(out, "{m}"),
        Inst::Amo {
            op: AmoOp::LrW,
            rd,
            rs1,
            ..
        } => write!(out, "{m} {rd}, ({rs1})"),
        Inst::Amo { rd, rs1, rs2, .. } => write!(out, "{m} {rd}, {rs2}, ({rs1})"),
        Inst::Csr { rd, csr, rs1, .. } => write!(out, "{m} {rd}, {}, {rs1}", Csr(csr)),
        Inst::CsrImm { rd, csr, uimm, .. } => write!(out, "{m} {rd}, {}, {uimm}", Csr(csr)),
        Inst::FLoad {
            rd, rs1, offset, ..
        } => write!(out, "{m} {rd}, {offset}({rs1})"),
        Inst::FStore {
            rs2, rs1, offset, ..
        } => write!(out, "{m} {rs2}, {offset}({rs1})"),
        Inst::FArith {
            rd, rs1, rs2, rm, ..
        } => write!(out, "{m} {rd}, {rs1}, {rs2}{}", rm_suffix(rm)),
        Inst::FSqrt { rd, rs1, rm, .. } => write!(out, "{m} {rd}, {rs1}{}", rm_suffix(rm)),
        Inst::FSgnj { rd, rs1, rs2, .. } | Inst::FMinMax { rd, rs1, rs2, .. } => {
            write!(out, "{m} {rd}, {rs1}, {rs2}")
        }
        Inst::Fma {
            rd,
            rs1,
            rs2,
            rs3,
            rm,
            ..
        } => {
            write!(out, "{m} {rd}, {rs1}, {rs2}, {rs3}{}", rm_suffix(rm))
        }
        Inst::FCmp { rd, rs1, rs2, .. } => write!(out, "{m} {rd}, {rs1}, {rs2}"),
        Inst::FClass { rd, rs1, .. } => write!(out, "{m} {rd}, {rs1}"),
        Inst::FCvtToInt { rd, rs1, rm, .. } => write!(out, "{m} {rd}, {rs1}{}", rm_suffix(rm)),
        Inst::FCvtFromInt { rd, rs1, rm, .. } => write!(out, "{m} {rd}, {rs1}{}", rm_suffix(rm)),
        Inst::FCvtFmt { rd, rs1, rm, .. } => write!(out, "{m} {rd}, {rs1}{}", rm_suffix(rm)),
        Inst::FMvToInt { rd, rs1 } => write!(out, "{m} {rd}, {rs1}"),
        Inst::FMvFromInt { rd, rs1 } => write!(out, "{m} {rd}, {rs1}"),
        Inst::Scfgwi { rs1, addr } => write!(out, "{m} {rs1}, {addr}"),
        Inst::Scfgri { rd, addr } => write!(out, "{m} {rd}, {addr}"),
        Inst::Scfgw { rs1, rs2 } => write!(out, "{m} {rs1}, {rs2}"),
        Inst::Scfgr { rd, rs2 } => write!(out, "{m} {rd}, {rs2}"),
        Inst::Frep {
            rs1,
            count,
            stagger_max,
            stagger_mask,
            ..
        } => {
            write!(out, "{m} {rs1}, {count}, {stagger_max}, {stagger_mask}")
        }
        Inst::Vf { rd, rs1, rs2, .. } => write!(out, "{m} {rd}, {rs1}, {rs2}"),
    }
}

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_inst(&mut s, self, &|o| o.to_string())?;
        f.write_str(&s)
    }
}

/// Prints a straight sequence of instructions (the first at offset 0), one
/// per line with a tab indent. Branch and `jal` targets inside the sequence
/// become labels `.L<index>`; targets outside it stay byte offsets.
pub fn print_program(insts: &[Inst]) -> String {
    let target_index = |i: usize, offset: i32| -> Option<usize> {
        if offset % 4 != 0 {
            return None;
        }
        let t = i as i64 + i64::from(offset / 4);
        (0..=insts.len() as i64).contains(&t).then_some(t as usize)
    };
    let labels: BTreeSet<usize> = insts
        .iter()
        .enumerate()
        .filter_map(|(i, inst)| inst.branch_offset().and_then(|o| target_index(i, o)))
        .collect();
    let mut out = String::new();
    for (i, inst) in insts.iter().enumerate() {
        if labels.contains(&i) {
            let _ = writeln!(out, ".L{i}:");
        }
        out.push('\t');
        let _ = write_inst(&mut out, inst, &|o| match target_index(i, o) {
            Some(t) => format!(".L{t}"),
            None => o.to_string(),
        });
        out.push('\n');
    }
    if labels.contains(&insts.len()) {
        let _ = writeln!(out, ".L{}:", insts.len());
    }
    out
}
