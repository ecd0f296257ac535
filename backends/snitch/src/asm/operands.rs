//! Operand readers for the assembler: registers, immediates (constant
//! expressions), `offset(base)` memory operands, CSRs, rounding modes,
//! `fence` sets and branch targets, each reporting its operand position.

use super::expr;
use super::parse::{is_symbol, AsmErrorKind, Target};
use super::print::csr_name;
use crate::isa::*;

pub(super) type Parsed = Vec<(Inst, Option<Target>)>;

/// Operand readers with the operand's position for error messages.
pub(super) struct Ops<'a> {
    pub ops: &'a [&'a str],
    pub mnemonic: &'a str,
}

fn bad(index: usize, operand: &str, problem: impl Into<String>) -> AsmErrorKind {
    AsmErrorKind::BadOperand {
        index: index + 1,
        operand: operand.into(),
        problem: problem.into(),
    }
}

impl Ops<'_> {
    pub fn count(&self, allowed: &[usize], expected: &'static str) -> Result<(), AsmErrorKind> {
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
    pub fn x(&self, i: usize) -> Result<XReg, AsmErrorKind> {
        XReg::parse(self.ops[i]).ok_or_else(|| bad(i, self.ops[i], "expected an integer register"))
    }
    pub fn f(&self, i: usize) -> Result<FReg, AsmErrorKind> {
        FReg::parse(self.ops[i])
            .ok_or_else(|| bad(i, self.ops[i], "expected a floating-point register"))
    }
    pub fn imm(&self, i: usize) -> Result<i64, AsmErrorKind> {
        expr::eval(self.ops[i]).map_err(|e| bad(i, self.ops[i], e))
    }
    pub fn imm_in(&self, i: usize, min: i64, max: i64) -> Result<i64, AsmErrorKind> {
        let v = self.imm(i)?;
        if v < min || v > max {
            return Err(bad(i, self.ops[i], format!("{v} is outside {min}..={max}")));
        }
        Ok(v)
    }
    pub fn imm_i32(&self, i: usize) -> Result<i32, AsmErrorKind> {
        Ok(self.imm_in(i, i32::MIN.into(), i32::MAX.into())? as i32)
    }
    /// `offset(reg)` or `(reg)`.
    pub fn mem(&self, i: usize) -> Result<(i32, XReg), AsmErrorKind> {
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
    pub fn amo_addr(&self, i: usize) -> Result<XReg, AsmErrorKind> {
        match self.mem(i)? {
            (0, r) => Ok(r),
            _ => Err(bad(
                i,
                self.ops[i],
                "atomics take `(register)` with no offset",
            )),
        }
    }
    pub fn csr(&self, i: usize) -> Result<u16, AsmErrorKind> {
        let s = self.ops[i];
        if s == "ssr" {
            return Ok(CSR_SSR);
        }
        if let Some(c) = (0..=0xfffu16).find(|c| csr_name(*c) == Some(s)) {
            return Ok(c);
        }
        Ok(self.imm_in(i, 0, 0xfff)? as u16)
    }
    pub fn rm(&self, i: usize) -> Result<RoundingMode, AsmErrorKind> {
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
    pub fn opt_rm(&self, i: usize, default: RoundingMode) -> Result<RoundingMode, AsmErrorKind> {
        if self.ops.len() > i {
            self.rm(i)
        } else {
            Ok(default)
        }
    }
    pub fn target(&self, i: usize) -> Result<Target, AsmErrorKind> {
        let s = self.ops[i];
        if is_symbol(s) {
            return Ok(Target::Label(s.into()));
        }
        Ok(Target::Offset(self.imm_i32(i)?))
    }
    pub fn fence_set(&self, i: usize) -> Result<u8, AsmErrorKind> {
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

pub(super) fn one(inst: Inst) -> Result<Parsed, AsmErrorKind> {
    Ok(vec![(inst, None)])
}

pub(super) fn branch(inst: Inst, target: Target) -> Result<Parsed, AsmErrorKind> {
    Ok(vec![(inst, Some(target))])
}
