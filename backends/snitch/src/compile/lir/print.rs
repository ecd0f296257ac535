//! The lowering IR's text form: one node per line, loops and stream
//! regions as indented blocks, what the pass tests compare.

use super::*;
use std::fmt::{self, Write};

impl fmt::Display for F {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            F::V(v) => write!(f, "%f{}", v.0),
            F::Ssr(n) => write!(f, "ft{n}"),
        }
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Var::Loop(l) => write!(f, "i{l}"),
            Var::Param(p) => write!(f, "p{p}"),
            Var::LoopParam(l, p) => write!(f, "i{l}*p{p}"),
        }
    }
}

impl fmt::Display for Affine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (v, c) in &self.terms {
            let sep = if first { "" } else { " + " };
            match c {
                1 => write!(f, "{sep}{v}")?,
                _ => write!(f, "{sep}{c}*{v}")?,
            }
            first = false;
        }
        if first {
            write!(f, "{}", self.constant)
        } else if self.constant != 0 {
            write!(f, " + {}", self.constant)
        } else {
            Ok(())
        }
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.buf.checked_sub(LOCAL) {
            Some(k) => write!(f, "l{k}[{}]", self.offset),
            None => write!(f, "p{}[{}]", self.buf, self.offset),
        }
    }
}

fn fmt_suffix(fmt: Fmt) -> &'static str {
    match fmt {
        Fmt::D => "d",
        Fmt::S => "s",
        Fmt::VS => "vs",
    }
}

/// Prints a body, one node per line, indented by `depth`.
pub fn print_body(out: &mut String, body: &[Node], depth: usize) {
    for n in body {
        let pad = "  ".repeat(depth);
        // Writing to a String cannot fail.
        let _ = match n {
            Node::Loop(l) => {
                let count = match l.count {
                    Count::Static(c) => c.to_string(),
                    Count::Param(p) => format!("p{p}"),
                };
                let kind = if l.frep { "frep" } else { "loop" };
                let ctl = match l.ctl {
                    Some(c) => format!(
                        " ctl(%x{}{}{})",
                        c.counter.0,
                        c.bound.map(|b| format!(", %x{}", b.0)).unwrap_or_default(),
                        if c.up { ", up" } else { "" }
                    ),
                    None => String::new(),
                };
                let _ = writeln!(out, "{pad}{kind} i{} < {count}{ctl} {{", l.id);
                print_body(out, &l.body, depth + 1);
                writeln!(out, "{pad}}}")
            }
            Node::Streams { cfgs, body } => {
                let _ = writeln!(out, "{pad}streams {{");
                for c in cfgs {
                    let mut dims: Vec<String> =
                        c.dims.iter().map(|(n, s)| format!("{n}x{s}")).collect();
                    if let (Some(p), Some(last)) = (c.param_count, c.dims.last()) {
                        dims.pop();
                        dims.push(format!("p{p}x{}", last.1));
                    }
                    let rep = if c.repeat > 1 {
                        format!(" repeat {}", c.repeat)
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        out,
                        "{pad}  ft{} {} {} [{}]{rep}",
                        c.mover,
                        if c.read { "read" } else { "write" },
                        c.start,
                        dims.join(", ")
                    );
                }
                let _ = writeln!(out, "{pad}}} do {{");
                print_body(out, body, depth + 1);
                writeln!(out, "{pad}}}")
            }
            Node::Load { dst, fmt, at } => {
                writeln!(out, "{pad}%f{} = load.{} {at}", dst.0, fmt_suffix(*fmt))
            }
            Node::Store { src, fmt, at } => {
                writeln!(out, "{pad}store.{} {at}, {src}", fmt_suffix(*fmt))
            }
            Node::Arith { op, fmt, dst, srcs } => {
                let s: Vec<String> = srcs.iter().map(|x| x.to_string()).collect();
                writeln!(
                    out,
                    "{pad}{dst} = {}.{} {}",
                    op.name(),
                    fmt_suffix(*fmt),
                    s.join(", ")
                )
            }
            Node::Const {
                dst, fmt, value, ..
            } => {
                writeln!(
                    out,
                    "{pad}%f{} = const.{} {value:?}",
                    dst.0,
                    fmt_suffix(*fmt)
                )
            }
            Node::Li { dst, imm } => writeln!(out, "{pad}%x{} = li {imm}", dst.0),
            Node::IOp { op, dst, a, b } => {
                writeln!(
                    out,
                    "{pad}%x{} = {} %x{}, %x{}",
                    dst.0,
                    op.mnemonic(),
                    a.0,
                    b.0
                )
            }
            Node::IImm { op, dst, a, imm } => {
                writeln!(out, "{pad}%x{} = {} %x{}, {imm}", dst.0, op.mnemonic(), a.0)
            }
            Node::LoadAt {
                dst,
                fmt,
                base,
                offset,
            } => writeln!(
                out,
                "{pad}%f{} = load.{} {offset}(%x{})",
                dst.0,
                fmt_suffix(*fmt),
                base.0
            ),
            Node::StoreAt {
                src,
                fmt,
                base,
                offset,
            } => writeln!(
                out,
                "{pad}store.{} {offset}(%x{}), {src}",
                fmt_suffix(*fmt),
                base.0
            ),
            Node::Scfg { src, addr } => match src {
                Some(x) => writeln!(out, "{pad}scfgwi %x{}, {addr}", x.0),
                None => writeln!(out, "{pad}scfgwi zero, {addr}"),
            },
            Node::SsrEnable(on) => writeln!(out, "{pad}ssr {}", if *on { "on" } else { "off" }),
            Node::FParam { dst, fmt, param } => {
                writeln!(
                    out,
                    "{pad}%f{} = param.{} p{param}",
                    dst.0,
                    fmt_suffix(*fmt)
                )
            }
            Node::IfPositive { reg, body } => {
                let _ = writeln!(out, "{pad}if %x{} > 0 {{", reg.0);
                print_body(out, body, depth + 1);
                writeln!(out, "{pad}}}")
            }
        };
    }
}

impl fmt::Display for Func {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for (k, l) in self.locals.iter().enumerate() {
            let _ = writeln!(
                out,
                "local l{k} = {} bytes at {:#x} ({})",
                l.bytes, l.addr, l.what
            );
        }
        print_body(&mut out, &self.body, 0);
        f.write_str(&out)
    }
}
