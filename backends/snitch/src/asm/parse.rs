//! A small assembler for the syntax [`print`](super::print) writes, so tests
//! and users can write Snitch programs as text: one instruction per line,
//! `label:` definitions, `#` and `//` comments, branch and `jal` targets as
//! labels or byte offsets, constant expressions in immediates, the common
//! pseudo-instructions (`li`, `mv`, `j`, `ret`, `beqz`, `bnez`, `fmv.d`,
//! `csrsi`, ...) and layout directives that have no effect on a flat code
//! sequence (`.text`, `.globl`, `.p2align`, ...). Every error names the
//! line and what was wrong with it.

use std::collections::BTreeMap;

use super::expr;
use super::print::{csr_name, default_rounding_mode};
use crate::isa::*;

/// An assembled program: instructions from offset 0 and the label table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The instructions, 4 bytes each.
    pub insts: Vec<Inst>,
    /// Label name → index of the instruction it precedes.
    pub labels: BTreeMap<String, usize>,
}

impl Program {
    /// The program's machine words.
    pub fn encode(&self) -> Result<Vec<u32>, EncodeError> {
        self.insts.iter().map(encode).collect()
    }

    /// The byte offset of a label.
    pub fn label_offset(&self, name: &str) -> Option<u32> {
        self.labels.get(name).map(|i| (*i as u32) * 4)
    }
}

/// An assembly error at a source line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}\n  | {text}")]
pub struct AsmError {
    /// 1-based line number.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// What was wrong.
    pub kind: AsmErrorKind,
}

/// What was wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AsmErrorKind {
    /// The mnemonic is not an instruction or pseudo-instruction of the subset.
    #[error("unknown instruction `{0}`")]
    UnknownMnemonic(String),
    /// The directive is not one the assembler understands.
    #[error("unknown directive `{0}`")]
    UnknownDirective(String),
    /// Wrong number of operands.
    #[error("`{mnemonic}` takes {expected} operands, found {found}")]
    OperandCount {
        /// The mnemonic.
        mnemonic: String,
        /// What it takes (e.g. "3" or "2 or 3").
        expected: &'static str,
        /// How many were given.
        found: usize,
    },
    /// An operand could not be read as what the instruction needs there.
    #[error("operand {index} `{operand}`: {problem}")]
    BadOperand {
        /// 1-based operand position.
        index: usize,
        /// The operand text.
        operand: String,
        /// What was expected or wrong.
        problem: String,
    },
    /// A label is defined twice.
    #[error("label `{0}` is already defined")]
    DuplicateLabel(String),
    /// A branch or jump names a label that is not defined.
    #[error("label `{0}` is not defined")]
    UnknownLabel(String),
    /// The instruction is well formed but an operand does not fit its field.
    #[error("{0}")]
    Encode(#[from] EncodeError),
}

/// Directives accepted and ignored: they only matter to a linker or to
/// sections, and a program here is one flat code sequence.
const IGNORED_DIRECTIVES: &[&str] = &[
    ".text",
    ".globl",
    ".global",
    ".p2align",
    ".align",
    ".balign",
    ".type",
    ".size",
    ".section",
    ".option",
    ".file",
    ".ident",
    ".attribute",
];

/// A branch/jump target before label resolution.
#[derive(Clone, Debug)]
enum Target {
    Offset(i32),
    Label(String),
}

/// One instruction with, for branches and `jal`, its unresolved target.
struct Pending {
    inst: Inst,
    target: Option<Target>,
    line: usize,
}

/// Assembles `text`.
pub fn assemble(text: &str) -> Result<Program, AsmError> {
    let mut pending: Vec<Pending> = Vec::new();
    let mut labels = BTreeMap::new();
    let mut lines = BTreeMap::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let err = |kind| AsmError {
            line,
            text: raw.trim().to_string(),
            kind,
        };
        let mut rest = strip_comment(raw).trim();
        lines.insert(line, raw.trim().to_string());
        // Leading labels.
        while let Some(colon) = rest.find(':') {
            let name = rest[..colon].trim();
            if !is_symbol(name) {
                break;
            }
            if labels.insert(name.to_string(), pending.len()).is_some() {
                return Err(err(AsmErrorKind::DuplicateLabel(name.into())));
            }
            rest = rest[colon + 1..].trim();
        }
        if rest.is_empty() {
            continue;
        }
        if rest.starts_with('.') {
            let name = rest.split_whitespace().next().unwrap_or(rest);
            if IGNORED_DIRECTIVES.contains(&name) {
                continue;
            }
            return Err(err(AsmErrorKind::UnknownDirective(name.into())));
        }
        let (mnemonic, operands) = match rest.find(char::is_whitespace) {
            Some(i) => (&rest[..i], rest[i..].trim()),
            None => (rest, ""),
        };
        let ops: Vec<&str> = if operands.is_empty() {
            Vec::new()
        } else {
            operands.split(',').map(str::trim).collect()
        };
        let mnemonic = mnemonic.to_ascii_lowercase();
        for (inst, target) in parse_line(&mnemonic, &ops).map_err(err)? {
            pending.push(Pending { inst, target, line });
        }
    }
    let mut insts = Vec::with_capacity(pending.len());
    for (i, p) in pending.iter().enumerate() {
        let err = |kind| AsmError {
            line: p.line,
            text: lines.get(&p.line).cloned().unwrap_or_default(),
            kind,
        };
        let inst = match &p.target {
            None => p.inst,
            Some(Target::Offset(o)) => p.inst.with_branch_offset(*o),
            Some(Target::Label(name)) => {
                let t = *labels
                    .get(name)
                    .ok_or_else(|| err(AsmErrorKind::UnknownLabel(name.clone())))?;
                let offset = (t as i64 - i as i64) * 4;
                p.inst.with_branch_offset(offset as i32)
            }
        };
        encode(&inst).map_err(|e| err(AsmErrorKind::Encode(e)))?;
        insts.push(inst);
    }
    Ok(Program { insts, labels })
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min();
    match cut {
        Some(i) => &line[..i],
        None => line,
    }
}

fn is_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
}

type Parsed = Vec<(Inst, Option<Target>)>;

/// Operand readers with the operand's position for error messages.
struct Ops<'a> {
    ops: &'a [&'a str],
    mnemonic: &'a str,
}

fn bad(index: usize, operand: &str, problem: impl Into<String>) -> AsmErrorKind {
    AsmErrorKind::BadOperand {
        index: index + 1,
        operand: operand.into(),
        problem: problem.into(),
    }
}

impl Ops<'_> {
    fn count(&self, allowed: &[usize], expected: &'static str) -> Result<(), AsmErrorKind> {
        if allowed.contains(&self.ops.len()) {
            Ok(())
        } else {
            Err(AsmErrorKind::OperandCount {
                mnemonic: self.mnemonic.into(),
                expected,
                found: self.ops.len(),
            })
        }
    }
    fn x(&self, i: usize) -> Result<XReg, AsmErrorKind> {
        XReg::parse(self.ops[i]).ok_or_else(|| bad(i, self.ops[i], "expected an integer register"))
    }
    fn f(&self, i: usize) -> Result<FReg, AsmErrorKind> {
        FReg::parse(self.ops[i])
            .ok_or_else(|| bad(i, self.ops[i], "expected a floating-point register"))
    }
    fn imm(&self, i: usize) -> Result<i64, AsmErrorKind> {
        expr::eval(self.ops[i]).map_err(|e| bad(i, self.ops[i], e))
    }
    fn imm_in(&self, i: usize, min: i64, max: i64) -> Result<i64, AsmErrorKind> {
        let v = self.imm(i)?;
        if v < min || v > max {
            return Err(bad(i, self.ops[i], format!("{v} is outside {min}..={max}")));
        }
        Ok(v)
    }
    fn imm_i32(&self, i: usize) -> Result<i32, AsmErrorKind> {
        Ok(self.imm_in(i, i32::MIN.into(), i32::MAX.into())? as i32)
    }
    /// `offset(reg)` or `(reg)`.
    fn mem(&self, i: usize) -> Result<(i32, XReg), AsmErrorKind> {
        let s = self.ops[i];
        let open = s.rfind('(').filter(|_| s.ends_with(')'));
        let Some(open) = open else {
            return Err(bad(i, s, "expected `offset(register)`"));
        };
        let reg = XReg::parse(s[open + 1..s.len() - 1].trim())
            .ok_or_else(|| bad(i, s, "expected an integer base register"))?;
        let off = s[..open].trim();
        let off = if off.is_empty() {
            0
        } else {
            let v = expr::eval(off).map_err(|e| bad(i, s, e))?;
            i32::try_from(v).map_err(|_| bad(i, s, "offset out of range"))?
        };
        Ok((off, reg))
    }
    /// `(reg)` only, for atomics.
    fn amo_addr(&self, i: usize) -> Result<XReg, AsmErrorKind> {
        match self.mem(i)? {
            (0, r) => Ok(r),
            _ => Err(bad(
                i,
                self.ops[i],
                "atomics take `(register)` with no offset",
            )),
        }
    }
    fn csr(&self, i: usize) -> Result<u16, AsmErrorKind> {
        let s = self.ops[i];
        if s == "ssr" {
            return Ok(CSR_SSR);
        }
        if let Some(c) = (0..=0xfffu16).find(|c| csr_name(*c) == Some(s)) {
            return Ok(c);
        }
        Ok(self.imm_in(i, 0, 0xfff)? as u16)
    }
    fn rm(&self, i: usize) -> Result<RoundingMode, AsmErrorKind> {
        RoundingMode::ALL
            .iter()
            .copied()
            .find(|m| m.mnemonic() == self.ops[i])
            .ok_or_else(|| {
                bad(
                    i,
                    self.ops[i],
                    "expected a rounding mode (rne, rtz, rdn, rup, rmm, dyn)",
                )
            })
    }
    /// The optional trailing rounding mode at position `i`.
    fn opt_rm(&self, i: usize, default: RoundingMode) -> Result<RoundingMode, AsmErrorKind> {
        if self.ops.len() > i {
            self.rm(i)
        } else {
            Ok(default)
        }
    }
    fn target(&self, i: usize) -> Result<Target, AsmErrorKind> {
        let s = self.ops[i];
        if is_symbol(s) {
            return Ok(Target::Label(s.into()));
        }
        Ok(Target::Offset(self.imm_i32(i)?))
    }
    fn fence_set(&self, i: usize) -> Result<u8, AsmErrorKind> {
        let s = self.ops[i];
        if s == "0" {
            return Ok(0);
        }
        let mut bits = 0u8;
        for c in s.chars() {
            let b = match c {
                'i' => 8,
                'o' => 4,
                'r' => 2,
                'w' => 1,
                _ => return Err(bad(i, s, "expected a set of `iorw`")),
            };
            if bits & b != 0 {
                return Err(bad(i, s, "repeated letter"));
            }
            bits |= b;
        }
        Ok(bits)
    }
}

fn one(inst: Inst) -> Result<Parsed, AsmErrorKind> {
    Ok(vec![(inst, None)])
}

fn branch(inst: Inst, target: Target) -> Result<Parsed, AsmErrorKind> {
    Ok(vec![(inst, Some(target))])
}

/// `li rd, value`: `addi` when it fits 12 bits, else `lui` (+ `addi`).
fn load_immediate(rd: XReg, value: i64) -> Parsed {
    if (-2048..=2047).contains(&value) {
        return vec![(
            Inst::OpImm {
                op: ImmOp::Addi,
                rd,
                rs1: XReg::ZERO,
                imm: value as i32,
            },
            None,
        )];
    }
    let v = value as i32;
    let hi = (v.wrapping_add(0x800) as u32) >> 12;
    let lo = v.wrapping_sub((hi << 12) as i32);
    let mut out = vec![(
        Inst::Lui {
            rd,
            imm: hi & 0xfffff,
        },
        None,
    )];
    if lo != 0 {
        out.push((
            Inst::OpImm {
                op: ImmOp::Addi,
                rd,
                rs1: rd,
                imm: lo,
            },
            None,
        ));
    }
    out
}

fn parse_line(m: &str, ops: &[&str]) -> Result<Parsed, AsmErrorKind> {
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
