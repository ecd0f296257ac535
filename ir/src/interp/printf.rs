//! Device `printf`: C format strings over the op's scalar operands.
//!
//! Supports `%d %i %u %x %X %o %c %s %f %F %e %E %g %G %p %%` with the
//! flags `- + space # 0`, width and precision (digits or `*`), and the
//! length modifiers `hh h l ll z j t` (`L` is accepted and ignored). The
//! output matches glibc: `(nil)` for a null `%p`, `inf`/`nan` spelled in
//! lower case unless the conversion is upper case, a sign on `-nan`.
//! Integer arguments narrower than the conversion are extended the way the
//! conversion reads them (sign-extended for `%d`, zero-extended for `%u`);
//! `f32`/`f16` arguments of a float conversion are widened to `f64`, as C's
//! default argument promotion would have.

use super::eval::{mask, sext, to_f64, Scalar};
use super::memory::MemFault;

/// One `printf` operand: its bits and its scalar kind.
#[derive(Clone, Copy, Debug)]
pub struct PrintfArg {
    /// The value's bit pattern.
    pub bits: u64,
    /// Its kind.
    pub ty: Scalar,
}

/// Why formatting failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrintfError {
    /// The format and the arguments do not fit together.
    Format(String),
    /// A `%s` argument pointed at bad memory.
    Memory(MemFault),
}

#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    length_bits: u32,
}

/// Formats `format` with `args`; `read_str(ptr, max)` reads a `%s` string.
pub fn format(
    format: &str,
    args: &[PrintfArg],
    read_str: &dyn Fn(u64, Option<usize>) -> Result<Vec<u8>, MemFault>,
) -> Result<String, PrintfError> {
    let fmt = format.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    let mut next = 0usize;
    let mut take = |what: &str| -> Result<PrintfArg, PrintfError> {
        let a = args.get(next).copied().ok_or_else(|| {
            PrintfError::Format(format!(
                "format needs more arguments than given (for {what})"
            ))
        })?;
        next += 1;
        Ok(a)
    };
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let mut spec = Spec {
            length_bits: 32,
            ..Spec::default()
        };
        while i < fmt.len() {
            match fmt[i] {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                b'0' => spec.zero = true,
                _ => break,
            }
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w = sext(32, take("`*` width")?.bits);
            if w < 0 {
                spec.left = true;
            }
            spec.width = w.unsigned_abs() as usize;
        } else {
            while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                spec.width = spec
                    .width
                    .saturating_mul(10)
                    .saturating_add(usize::from(d - b'0'));
                i += 1;
            }
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let p = sext(32, take("`*` precision")?.bits);
                spec.precision = (p >= 0).then_some(p as usize);
            } else {
                let mut p = 0usize;
                while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                    p = p.saturating_mul(10).saturating_add(usize::from(d - b'0'));
                    i += 1;
                }
                spec.precision = Some(p);
            }
        }
        loop {
            match fmt.get(i) {
                Some(b'h') => {
                    spec.length_bits = if spec.length_bits == 16 { 8 } else { 16 };
                }
                Some(b'l' | b'z' | b'j' | b't') => spec.length_bits = 64,
                Some(b'L') => {}
                _ => break,
            }
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            return Err(PrintfError::Format(
                "format ends inside a conversion".into(),
            ));
        };
        i += 1;
        let conv_name = format!("%{}", conv as char);
        let body: Vec<u8> = match conv {
            b'%' => {
                out.push(b'%');
                continue;
            }
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => {
                let a = take(&conv_name)?;
                let Some(aw) = a.ty.int_width() else {
                    return Err(bad_arg(&conv_name, a.ty));
                };
                let signed = matches!(conv, b'd' | b'i');
                let ext = if signed {
                    sext(aw, a.bits) as u64
                } else {
                    mask(aw, a.bits)
                };
                format_int(&spec, conv, ext).into_bytes()
            }
            b'c' => {
                let a = take(&conv_name)?;
                if a.ty.int_width().is_none() {
                    return Err(bad_arg(&conv_name, a.ty));
                }
                pad(&spec, "", vec![a.bits as u8], false)
            }
            b's' => {
                let a = take(&conv_name)?;
                if a.ty.int_width().is_none() {
                    return Err(bad_arg(&conv_name, a.ty));
                }
                let s = read_str(a.bits, spec.precision).map_err(PrintfError::Memory)?;
                pad(&spec, "", s, false)
            }
            b'p' => {
                let a = take(&conv_name)?;
                if a.ty.int_width().is_none() {
                    return Err(bad_arg(&conv_name, a.ty));
                }
                let s = if a.bits == 0 {
                    "(nil)".to_string()
                } else {
                    format!("0x{:x}", a.bits)
                };
                pad(&spec, "", s.into_bytes(), false)
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                let a = take(&conv_name)?;
                let Scalar::Float(k) = a.ty else {
                    return Err(bad_arg(&conv_name, a.ty));
                };
                format_float(&spec, conv, to_f64(k, a.bits)).into_bytes()
            }
            other => {
                return Err(PrintfError::Format(format!(
                    "unsupported conversion `%{}`",
                    other as char
                )))
            }
        };
        out.extend_from_slice(&body);
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn bad_arg(conv: &str, ty: Scalar) -> PrintfError {
    PrintfError::Format(format!("`{conv}` given a {ty:?} argument"))
}

/// Pads `prefix + body` to the spec's width; `zero_ok` allows zero padding
/// between prefix and body.
fn pad(spec: &Spec, prefix: &str, body: Vec<u8>, zero_ok: bool) -> Vec<u8> {
    let len = prefix.len() + body.len();
    let fill = spec.width.saturating_sub(len);
    let mut out = Vec::with_capacity(len + fill);
    if spec.left {
        out.extend_from_slice(prefix.as_bytes());
        out.extend_from_slice(&body);
        out.resize(out.len() + fill, b' ');
    } else if spec.zero && zero_ok {
        out.extend_from_slice(prefix.as_bytes());
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(&body);
    } else {
        out.resize(fill, b' ');
        out.extend_from_slice(prefix.as_bytes());
        out.extend_from_slice(&body);
    }
    out
}

fn format_int(spec: &Spec, conv: u8, v: u64) -> String {
    let w = spec.length_bits;
    let signed = matches!(conv, b'd' | b'i');
    let (neg, mag) = if signed {
        let s = sext(w, v);
        (s < 0, s.unsigned_abs())
    } else {
        (false, mask(w, v))
    };
    let mut digits = match conv {
        b'x' => format!("{mag:x}"),
        b'X' => format!("{mag:X}"),
        b'o' => format!("{mag:o}"),
        _ => mag.to_string(),
    };
    if let Some(p) = spec.precision {
        if p == 0 && mag == 0 {
            digits.clear();
        }
        if digits.len() < p {
            digits = "0".repeat(p - digits.len()) + &digits;
        }
    }
    if conv == b'o' && spec.alt && !digits.starts_with('0') {
        digits.insert(0, '0');
    }
    let prefix = if neg {
        "-"
    } else if signed && spec.plus {
        "+"
    } else if signed && spec.space {
        " "
    } else if spec.alt && mag != 0 && conv == b'x' {
        "0x"
    } else if spec.alt && mag != 0 && conv == b'X' {
        "0X"
    } else {
        ""
    };
    let bytes = pad(spec, prefix, digits.into_bytes(), spec.precision.is_none());
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `d.ddde±XX` for a non-negative finite `x`.
fn exp_form(x: f64, prec: usize, alt: bool) -> (String, i32) {
    let s = format!("{x:.prec$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut m = mant.to_string();
    if alt && prec == 0 {
        m.push('.');
    }
    let sign = if exp < 0 { '-' } else { '+' };
    (format!("{m}e{sign}{:02}", exp.unsigned_abs()), exp)
}

fn strip_zeros(s: &str) -> String {
    if !s.contains('.') {
        return s.to_string();
    }
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn format_float(spec: &Spec, conv: u8, x: f64) -> String {
    let upper = conv.is_ascii_uppercase();
    let neg = x.is_sign_negative();
    let prefix = if neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let a = x.abs();
    if !a.is_finite() {
        let s = if a.is_nan() { "nan" } else { "inf" };
        let s = if upper {
            s.to_uppercase()
        } else {
            s.to_string()
        };
        let bytes = pad(spec, prefix, s.into_bytes(), false);
        return String::from_utf8_lossy(&bytes).into_owned();
    }
    let prec = spec.precision.unwrap_or(6);
    let body = match conv.to_ascii_lowercase() {
        b'f' => {
            let mut s = format!("{a:.prec$}");
            if spec.alt && prec == 0 {
                s.push('.');
            }
            s
        }
        b'e' => exp_form(a, prec, spec.alt).0,
        _ => {
            let p = prec.max(1);
            let x_exp = if a == 0.0 {
                0
            } else {
                exp_form(a, p - 1, false).1
            };
            if (x_exp as i64) < p as i64 && x_exp >= -4 {
                let fp = (p as i64 - 1 - x_exp as i64) as usize;
                let s = format!("{a:.fp$}");
                if spec.alt {
                    if fp == 0 {
                        s + "."
                    } else {
                        s
                    }
                } else {
                    strip_zeros(&s)
                }
            } else {
                let (s, _) = exp_form(a, p - 1, spec.alt);
                if spec.alt {
                    s
                } else {
                    let (m, e) = s.split_once('e').unwrap_or((&s, ""));
                    format!("{}e{e}", strip_zeros(m))
                }
            }
        }
    };
    let body = if upper { body.to_uppercase() } else { body };
    let bytes = pad(spec, prefix, body.into_bytes(), true);
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::FloatKind;

    fn i(v: i64) -> PrintfArg {
        PrintfArg {
            bits: mask(32, v as u64),
            ty: Scalar::Int(32),
        }
    }
    fn l(v: i64) -> PrintfArg {
        PrintfArg {
            bits: v as u64,
            ty: Scalar::Int(64),
        }
    }
    fn d(v: f64) -> PrintfArg {
        PrintfArg {
            bits: v.to_bits(),
            ty: Scalar::Float(FloatKind::F64),
        }
    }
    fn run(f: &str, args: &[PrintfArg]) -> String {
        format(f, args, &|_, max| {
            Ok(b"str"[..max.unwrap_or(3).min(3)].to_vec())
        })
        .unwrap()
    }

    #[test]
    fn integers() {
        assert_eq!(
            run(
                "%d|%5d|%-5d|%05d|%+d|% d",
                &[i(-42), i(42), i(42), i(-42), i(7), i(7)]
            ),
            "-42|   42|42   |-0042|+7| 7"
        );
        assert_eq!(
            run(
                "%u %x %X %#x %o %#o",
                &[i(-1), i(255), i(255), i(255), i(8), i(8)]
            ),
            "4294967295 ff FF 0xff 10 010"
        );
        assert_eq!(
            run("%.3d|%.0d|%8.3d", &[i(5), i(0), i(-5)]),
            "005||    -005"
        );
        assert_eq!(
            run("%ld %lld %lu", &[l(-1), l(1 << 40), l(-1)]),
            "-1 1099511627776 18446744073709551615"
        );
        assert_eq!(run("%hd %hhu", &[i(70000), i(257)]), "4464 1");
        assert_eq!(run("%*d|%-*d|%%", &[i(4), i(1), i(3), i(2)]), "   1|2  |%");
    }

    #[test]
    fn floats() {
        assert_eq!(
            run(
                "%f %.2f %8.3f %-8.1f|",
                &[d(1.5), d(3.14158), d(-2.0), d(0.25)]
            ),
            "1.500000 3.14   -2.000 0.2     |"
        );
        assert_eq!(
            run("%e %.2E %e", &[d(12345.678), d(0.000123), d(0.0)]),
            "1.234568e+04 1.23E-04 0.000000e+00"
        );
        assert_eq!(
            run(
                "%g %g %g %g %G",
                &[d(100000.0), d(1e6), d(0.0001), d(1.5e-5), d(2.5e-7)]
            ),
            "100000 1e+06 0.0001 1.5e-05 2.5E-07"
        );
        assert_eq!(
            run("%g %.3g %#g %g", &[d(0.0), d(3.14158), d(1.0), d(123.456)]),
            "0 3.14 1.00000 123.456"
        );
        assert_eq!(
            run(
                "%f %F %5.1f %e",
                &[
                    d(f64::INFINITY),
                    d(f64::NAN),
                    d(f64::NEG_INFINITY),
                    d(-f64::NAN)
                ]
            ),
            "inf NAN  -inf -nan"
        );
        assert_eq!(
            run("%08.2f|%+.1e", &[d(-3.14158), d(2.0)]),
            "-0003.14|+2.0e+00"
        );
        let f = PrintfArg {
            bits: u64::from(0.5f32.to_bits()),
            ty: Scalar::Float(FloatKind::F32),
        };
        assert_eq!(run("%.1f", &[f]), "0.5");
    }

    #[test]
    fn chars_strings_pointers_and_errors() {
        let p = PrintfArg {
            bits: 0x1_0000_0010,
            ty: Scalar::Ptr,
        };
        let null = PrintfArg {
            bits: 0,
            ty: Scalar::Ptr,
        };
        assert_eq!(
            run(
                "[%c][%3c][%s][%5s][%-5s][%.2s]",
                &[i(65), i(66), p, p, p, p]
            ),
            "[A][  B][str][  str][str  ][st]"
        );
        assert_eq!(run("%p %p", &[p, null]), "0x100000010 (nil)");
        assert!(format("%d", &[], &|_, _| Ok(vec![])).is_err());
        assert!(format("%d", &[d(1.0)], &|_, _| Ok(vec![])).is_err());
        assert!(format("%q", &[i(1)], &|_, _| Ok(vec![])).is_err());
        assert!(format("%", &[], &|_, _| Ok(vec![])).is_err());
    }
}
