//! How literals are spelled: names, strings, byte strings and constants.
//!
//! The printer and the parser share these so that every spelling the
//! printer produces is one the parser reads back to the same bits.

use crate::float::{bf16_to_f32, f16_to_f32, f64_to_bf16, f64_to_f16};
use crate::types::{FloatKind, Type, TypeId, Types};

/// True if `s` can be written without quotes after a sigil or as a field
/// name: ASCII letters, digits, `_` and `.`.
pub(crate) fn is_bare(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// True if `s` is a non-empty run of ASCII digits (the spelling of an
/// unnamed value).
pub(crate) fn is_numeric(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}

/// `s` as a quoted string with escapes.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A name after its sigil (`@`, `$`): bare when possible, quoted otherwise.
pub(crate) fn symbol(sigil: char, name: &str) -> String {
    if is_bare(name) {
        format!("{sigil}{name}")
    } else {
        format!("{sigil}{}", quote(name))
    }
}

/// A field name: bare when possible, quoted otherwise.
pub(crate) fn field_name(name: &str) -> String {
    if is_bare(name) {
        name.to_string()
    } else {
        quote(name)
    }
}

/// Bytes as lowercase hex pairs.
pub(crate) fn hex_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads hex pairs back into bytes.
pub(crate) fn parse_hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    if s.len() % 2 != 0 {
        return Err(format!(
            "byte string has an odd number of hex digits ({})",
            s.len()
        ));
    }
    let digits: Vec<char> = s.chars().collect();
    let mut out = Vec::with_capacity(digits.len() / 2);
    for pair in digits.chunks(2) {
        let hi = pair[0].to_digit(16);
        let lo = pair[1].to_digit(16);
        match (hi, lo) {
            (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
            _ => {
                return Err(format!(
                    "invalid hex digits `{}{}` in byte string",
                    pair[0], pair[1]
                ))
            }
        }
    }
    Ok(out)
}

fn hex(bits: u64) -> String {
    format!("0x{bits:x}")
}

/// The spelling of a constant's bits, read as a `ty`: `true`/`false` for
/// `i1`, signed decimal for other integers, the shortest exact decimal for
/// finite floats, `inf`/`-inf`, `null` for the null pointer, and raw hex
/// bits for everything else (NaNs, bits that do not fit the type).
pub(crate) fn format_const(types: &Types, ty: Option<TypeId>, bits: u64) -> String {
    let Some(ty) = ty.filter(|&t| types.contains(t)) else {
        return hex(bits);
    };
    match &types[ty] {
        Type::Int(1) if bits <= 1 => (if bits == 1 { "true" } else { "false" }).to_string(),
        Type::Int(64) => (bits as i64).to_string(),
        &Type::Int(w) if (1..64).contains(&w) && bits >> w == 0 => {
            let shift = 64 - u32::from(w);
            (((bits << shift) as i64) >> shift).to_string()
        }
        Type::Float(kind) => format_float(*kind, bits).unwrap_or_else(|| hex(bits)),
        Type::Ptr(_) if bits == 0 => "null".to_string(),
        _ => hex(bits),
    }
}

/// A decimal spelling that reads back to exactly `bits`, if there is one.
fn format_float(kind: FloatKind, bits: u64) -> Option<String> {
    let (value, fits) = match kind {
        FloatKind::F64 => (f64::from_bits(bits), true),
        FloatKind::F32 => (f64::from(f32::from_bits(bits as u32)), bits >> 32 == 0),
        FloatKind::F16 => (f64::from(f16_to_f32(bits as u16)), bits >> 16 == 0),
        FloatKind::BF16 => (f64::from(bf16_to_f32(bits as u16)), bits >> 16 == 0),
    };
    if !fits || value.is_nan() {
        return None;
    }
    let text = if value.is_infinite() {
        if value < 0.0 { "-inf" } else { "inf" }.to_string()
    } else if kind == FloatKind::F64 {
        format!("{value:?}")
    } else {
        // Every f32, f16 and bf16 value is an f32; its shortest f32 spelling
        // is exact.
        format!("{:?}", value as f32)
    };
    (parse_float(kind, &text) == Some(bits)).then_some(text)
}

/// The bits of a decimal float literal (or `inf`, `-inf`, `nan`) of `kind`.
fn parse_float(kind: FloatKind, text: &str) -> Option<u64> {
    let ok = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        || matches!(text, "inf" | "-inf" | "+inf" | "nan");
    if !ok {
        return None;
    }
    let nan = text == "nan";
    Some(match kind {
        FloatKind::F64 if nan => f64::NAN.to_bits(),
        FloatKind::F64 => text.parse::<f64>().ok()?.to_bits(),
        FloatKind::F32 if nan => u64::from(f32::NAN.to_bits()),
        FloatKind::F32 => u64::from(text.parse::<f32>().ok()?.to_bits()),
        FloatKind::F16 | FloatKind::BF16 => {
            let value = if nan {
                f64::NAN
            } else {
                text.parse::<f64>().ok()?
            };
            if kind == FloatKind::F16 {
                u64::from(f64_to_f16(value))
            } else {
                u64::from(f64_to_bf16(value))
            }
        }
    })
}

/// Reads a constant literal back into bits, given the result type (when
/// the op has one).
pub(crate) fn parse_const(types: &Types, ty: Option<TypeId>, text: &str) -> Result<u64, String> {
    if let Some(digits) = text.strip_prefix("0x") {
        return u64::from_str_radix(digits, 16)
            .map_err(|_| format!("invalid hex literal `{text}` (expected at most 16 hex digits)"));
    }
    let Some(ty) = ty.filter(|&t| types.contains(t)) else {
        return text
            .parse::<u64>()
            .map_err(|_| format!("a constant without a result type must be hex bits or an unsigned integer, found `{text}`"));
    };
    match &types[ty] {
        &Type::Int(w) => {
            match text {
                "true" => return Ok(1),
                "false" => return Ok(0),
                _ => {}
            }
            let digits = text.strip_prefix('-').unwrap_or(text);
            if !is_numeric(digits) {
                return Err(format!("invalid integer literal `{text}`"));
            }
            if !(1..=64).contains(&w) {
                return Err(format!(
                    "decimal literals need an integer width of 1 to 64, not i{w}; use hex bits"
                ));
            }
            let out_of_range = || format!("integer literal `{text}` does not fit in i{w}");
            let v: i128 = text.parse().map_err(|_| out_of_range())?;
            let min = -(1i128 << (w - 1));
            let max = (1i128 << w) - 1;
            if v < min || v > max {
                return Err(out_of_range());
            }
            let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            Ok((v as u64) & mask)
        }
        Type::Float(kind) => parse_float(*kind, text)
            .ok_or_else(|| format!("invalid {} literal `{text}`", kind.name())),
        Type::Ptr(_) => {
            if text == "null" {
                return Ok(0);
            }
            text.parse::<u64>()
                .map_err(|_| format!("invalid pointer literal `{text}` (expected `null`, an unsigned integer or hex bits)"))
        }
        _ => Err(format!(
            "constants of type {} are written as hex bits, found `{text}`",
            types.display(ty)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consts_round_trip_bits() {
        let mut t = Types::new();
        let cases: Vec<(TypeId, Vec<u64>)> = vec![
            (t.i1(), vec![0, 1, 2]),
            (t.i8(), vec![0, 0x7f, 0x80, 0xff, 0x1ff]),
            (t.i32(), vec![0, 1, 0xffff_ffff, 0x8000_0000, 1 << 40]),
            (t.i64(), vec![0, u64::MAX, 1 << 63]),
            (
                t.f32(),
                vec![
                    0,
                    0x8000_0000,
                    0x3f80_0000,
                    0x7f80_0000,
                    0xff80_0000,
                    0x7fc0_0001,
                    1,
                    0x3dcc_cccd,
                    1 << 33,
                ],
            ),
            (
                t.f64(),
                vec![0, 1, 0x3fb9_9999_9999_999a, 0x7ff8_0000_0000_0001],
            ),
            (t.f16(), vec![0, 1, 0x3c00, 0x7c00, 0x7e01, 0xfbff, 1 << 16]),
            (t.bf16(), vec![0, 1, 0x3f80, 0x7fc1, 0xff80]),
            (t.ptr(crate::Space::Global), vec![0, 0x1000]),
        ];
        for (ty, bits) in cases {
            for b in bits {
                let s = format_const(&t, Some(ty), b);
                assert_eq!(parse_const(&t, Some(ty), &s), Ok(b), "{s}");
            }
        }
        let f32_ty = t.f32();
        assert_eq!(format_const(&t, Some(f32_ty), 0x3f80_0000), "1.0");
        assert_eq!(format_const(&t, Some(f32_ty), 0x7fc0_0001), "0x7fc00001");
        let i32_ty = t.i32();
        assert_eq!(format_const(&t, Some(i32_ty), 0xffff_ffff), "-1");
        assert_eq!(
            parse_const(&t, Some(i32_ty), "4294967296"),
            Err("integer literal `4294967296` does not fit in i32".to_string())
        );
    }

    #[test]
    fn strings_and_bytes() {
        assert_eq!(quote("a\"b\\\n\u{1}"), "\"a\\\"b\\\\\\n\\u{1}\"");
        assert_eq!(parse_hex_bytes("00ff10"), Ok(vec![0, 255, 16]));
        assert!(parse_hex_bytes("0g").is_err());
        assert!(parse_hex_bytes("0").is_err());
        assert_eq!(hex_bytes(&[0, 255, 16]), "00ff10");
    }
}
