//! Constant expressions in immediate operands, as hand-written Snitch code
//! uses them (`scfgwi t0, 2<<5 | 1`): integers in decimal, `0x` hex or `0b`
//! binary, unary `-` `~` `+`, and the binary operators of C with C's
//! precedence (`* / %`, `+ -`, `<< >>`, `&`, `^`, `|`) and parentheses,
//! evaluated in 64-bit two's complement.

/// Evaluates `text`; the error says what was not understood.
pub fn eval(text: &str) -> Result<i64, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.level(0)?;
    p.skip_ws();
    if p.i != p.s.len() {
        return Err(format!("unexpected `{}`", &text[p.i..]));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

const LEVELS: &[&[&str]] = &[
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.skip_ws();
        if self.s[self.i..].starts_with(tok.as_bytes()) {
            self.i += tok.len();
            true
        } else {
            false
        }
    }

    fn level(&mut self, n: usize) -> Result<i64, String> {
        if n == LEVELS.len() {
            return self.unary();
        }
        let mut v = self.level(n + 1)?;
        'outer: loop {
            for op in LEVELS[n] {
                if self.eat(op) {
                    let r = self.level(n + 1)?;
                    v = apply(op, v, r)?;
                    continue 'outer;
                }
            }
            return Ok(v);
        }
    }

    fn unary(&mut self) -> Result<i64, String> {
        if self.eat("-") {
            return Ok(self.unary()?.wrapping_neg());
        }
        if self.eat("~") {
            return Ok(!self.unary()?);
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("(") {
            let v = self.level(0)?;
            if !self.eat(")") {
                return Err("missing `)`".into());
            }
            return Ok(v);
        }
        self.number()
    }

    fn number(&mut self) -> Result<i64, String> {
        self.skip_ws();
        let start = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_alphanumeric() {
            self.i += 1;
        }
        let tok = std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?;
        if tok.is_empty() {
            return Err("expected a number".into());
        }
        let lower = tok.to_ascii_lowercase();
        let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
            (h, 16)
        } else if let Some(b) = lower.strip_prefix("0b") {
            (b, 2)
        } else {
            (lower.as_str(), 10)
        };
        u64::from_str_radix(digits, radix)
            .map(|v| v as i64)
            .map_err(|_| format!("`{tok}` is not a number"))
    }
}

fn apply(op: &str, a: i64, b: i64) -> Result<i64, String> {
    Ok(match op {
        "|" => a | b,
        "^" => a ^ b,
        "&" => a & b,
        "<<" => a.wrapping_shl(u32::try_from(b).map_err(|_| "negative shift")?),
        ">>" => a.wrapping_shr(u32::try_from(b).map_err(|_| "negative shift")?),
        "+" => a.wrapping_add(b),
        "-" => a.wrapping_sub(b),
        "*" => a.wrapping_mul(b),
        "/" | "%" if b == 0 => return Err("division by zero".into()),
        "/" => a.wrapping_div(b),
        _ => a.wrapping_rem(b),
    })
}

#[cfg(test)]
mod tests {
    use super::eval;

    #[test]
    fn precedence_and_forms() {
        assert_eq!(eval("2<<5 | 1"), Ok(65));
        assert_eq!(eval("0 | 24<<5"), Ok(768));
        assert_eq!(eval("-8"), Ok(-8));
        assert_eq!(eval("0x7C0"), Ok(0x7c0));
        assert_eq!(eval("0b1111"), Ok(15));
        assert_eq!(eval("(1 + 2) * 3"), Ok(9));
        assert_eq!(eval("1 + 2 * 3"), Ok(7));
        assert_eq!(eval("~0"), Ok(-1));
        assert!(eval("1 +").is_err());
        assert!(eval("12abc").is_err());
        assert!(eval("1 / 0").is_err());
        assert!(eval("(1").is_err());
    }
}
