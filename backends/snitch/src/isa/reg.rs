//! Register names: integer `x0`–`x31` and floating-point `f0`–`f31`, as
//! typed newtypes so an FP register can never be passed where an integer
//! one is meant. Printed with their ABI names, parsed from either form.

use std::fmt;

/// An integer register `x0`–`x31`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct XReg(u8);

/// A floating-point register `f0`–`f31` (64 bits wide on Snitch: an f64, a
/// NaN-boxed f32, or two packed f32 lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FReg(u8);

const X_ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

const F_ABI: [&str; 32] = [
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
];

impl XReg {
    /// `x0`, hard-wired to zero.
    pub const ZERO: XReg = XReg(0);
    /// `x1`, the return address.
    pub const RA: XReg = XReg(1);
    /// `x2`, the stack pointer.
    pub const SP: XReg = XReg(2);
    /// `x10`, the first argument and return value.
    pub const A0: XReg = XReg(10);

    /// The register with this number, if it is below 32.
    pub fn new(n: u8) -> Option<XReg> {
        (n < 32).then_some(XReg(n))
    }

    /// The low five bits of `n` as a register (for decoding a 5-bit field).
    pub fn from_field(n: u32) -> XReg {
        XReg((n & 31) as u8)
    }

    /// The register number.
    pub fn num(self) -> u8 {
        self.0
    }

    /// The ABI name (`a0`, `t1`, ...).
    pub fn abi_name(self) -> &'static str {
        X_ABI[self.0 as usize]
    }

    /// Parses `x7`, `t2` or `fp` (an alias of `s0`).
    pub fn parse(s: &str) -> Option<XReg> {
        if s == "fp" {
            return Some(XReg(8));
        }
        if let Some(i) = X_ABI.iter().position(|n| *n == s) {
            return Some(XReg(i as u8));
        }
        parse_numbered(s, 'x').map(XReg)
    }

    /// All 32 registers in order.
    pub fn all() -> impl Iterator<Item = XReg> {
        (0..32).map(XReg)
    }
}

impl FReg {
    /// `ft0`, the register of stream data mover 0 while SSRs are enabled.
    pub const FT0: FReg = FReg(0);
    /// `ft1`, the register of stream data mover 1.
    pub const FT1: FReg = FReg(1);
    /// `ft2`, the register of stream data mover 2.
    pub const FT2: FReg = FReg(2);

    /// The register with this number, if it is below 32.
    pub fn new(n: u8) -> Option<FReg> {
        (n < 32).then_some(FReg(n))
    }

    /// The low five bits of `n` as a register (for decoding a 5-bit field).
    pub fn from_field(n: u32) -> FReg {
        FReg((n & 31) as u8)
    }

    /// The register number.
    pub fn num(self) -> u8 {
        self.0
    }

    /// The ABI name (`ft0`, `fa1`, ...).
    pub fn abi_name(self) -> &'static str {
        F_ABI[self.0 as usize]
    }

    /// The stream data mover this register is mapped to while SSRs are
    /// enabled: `ft0`, `ft1`, `ft2` are movers 0, 1, 2.
    pub fn ssr_index(self) -> Option<usize> {
        (self.0 < 3).then_some(self.0 as usize)
    }

    /// Parses `f7` or `ft7`.
    pub fn parse(s: &str) -> Option<FReg> {
        if let Some(i) = F_ABI.iter().position(|n| *n == s) {
            return Some(FReg(i as u8));
        }
        parse_numbered(s, 'f').map(FReg)
    }

    /// All 32 registers in order.
    pub fn all() -> impl Iterator<Item = FReg> {
        (0..32).map(FReg)
    }
}

fn parse_numbered(s: &str, prefix: char) -> Option<u8> {
    let digits = s.strip_prefix(prefix)?;
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() == 2 && digits.starts_with('0') {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    (n < 32).then_some(n)
}

impl fmt::Display for XReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abi_name())
    }
}

impl fmt::Display for FReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abi_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in XReg::all() {
            assert_eq!(XReg::parse(r.abi_name()), Some(r));
            assert_eq!(XReg::parse(&format!("x{}", r.num())), Some(r));
        }
        for r in FReg::all() {
            assert_eq!(FReg::parse(r.abi_name()), Some(r));
            assert_eq!(FReg::parse(&format!("f{}", r.num())), Some(r));
        }
        assert_eq!(XReg::parse("fp"), XReg::new(8));
        assert_eq!(XReg::parse("x32"), None);
        assert_eq!(XReg::parse("x01"), None);
        assert_eq!(FReg::parse("f"), None);
    }

    #[test]
    fn stream_registers() {
        assert_eq!(FReg::FT2.ssr_index(), Some(2));
        assert_eq!(FReg::parse("ft3").and_then(FReg::ssr_index), None);
    }
}
