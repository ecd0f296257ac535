//! The text of a GNU `asm` statement: clang's JSON AST gives only the
//! operand expressions of a `GCCAsmStmt`, so the template, the constraints,
//! the clobbers and `volatile` are read from the statement's source text.
//! Also the operand constraints of NVPTX inline assembly and the
//! substitution of `%N` / `%[name]` / `%%` in the template.

/// One operand as written: `[name] "constraint" (expression)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmOperand {
    /// The symbolic name of `[name]`.
    pub name: Option<String>,
    /// The constraint string (`=r`, `+l`, `n`, `0`, ...).
    pub constraint: String,
}

/// An `asm` statement's text, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmText {
    /// The template, string literals concatenated and escapes decoded.
    pub template: String,
    /// `volatile` (or `__volatile__`) was written.
    pub volatile: bool,
    /// Basic asm (no `:` section): the template is used verbatim, without
    /// operand substitution.
    pub basic: bool,
    /// Output operands, in order.
    pub outputs: Vec<AsmOperand>,
    /// Input operands, in order.
    pub inputs: Vec<AsmOperand>,
    /// Clobbers (`memory`, `cc`, register names).
    pub clobbers: Vec<String>,
}

impl AsmText {
    /// True if `memory` is clobbered.
    pub fn clobbers_memory(&self) -> bool {
        self.clobbers.iter().any(|c| c == "memory")
    }
}

/// How an operand is held while the PTX runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegClass {
    /// `h` (and LLVM's `c`): a 16-bit register.
    B16,
    /// `r`: a 32-bit register.
    B32,
    /// `l`: a 64-bit register.
    B64,
    /// `f`: a `.f32` register.
    F32,
    /// `d`: a `.f64` register.
    F64,
}

impl RegClass {
    /// The PTX type of the register.
    pub fn ptx_type(self) -> &'static str {
        match self {
            RegClass::B16 => ".b16",
            RegClass::B32 => ".b32",
            RegClass::B64 => ".b64",
            RegClass::F32 => ".f32",
            RegClass::F64 => ".f64",
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u8 {
        match self {
            RegClass::B16 => 16,
            RegClass::B32 | RegClass::F32 => 32,
            RegClass::B64 | RegClass::F64 => 64,
        }
    }

    /// Holds a floating-point value.
    pub fn is_float(self) -> bool {
        matches!(self, RegClass::F32 | RegClass::F64)
    }
}

/// What a constraint asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// A register of this class; `write`: an output, `read`: its value
    /// before the asm is an input (`+`, or any input).
    Reg {
        /// Register class.
        class: RegClass,
        /// Written by the asm.
        write: bool,
        /// Read by the asm.
        read: bool,
    },
    /// `n`: an integer constant written into the template.
    Imm,
    /// A digit: the input shares the register of output `k`.
    Tied(usize),
}

/// Classifies an operand's constraint; `output` for the first section.
pub fn constraint(c: &str, output: bool) -> Result<Constraint, String> {
    let mut write = false;
    let mut read = !output;
    let mut letters = String::new();
    for ch in c.chars() {
        match ch {
            '=' if output => write = true,
            '+' if output => {
                write = true;
                read = true;
            }
            '&' | '%' | '*' | '?' | '!' => {}
            _ => letters.push(ch),
        }
    }
    if output && !write {
        return Err(format!(
            "output constraint \"{c}\" must start with `=` or `+`"
        ));
    }
    if !output {
        if let Ok(k) = letters.parse::<usize>() {
            return Ok(Constraint::Tied(k));
        }
    }
    let class = match letters.as_str() {
        "h" | "c" => RegClass::B16,
        "r" => RegClass::B32,
        "l" | "N" => RegClass::B64,
        "f" => RegClass::F32,
        "d" => RegClass::F64,
        "n" if !output => return Ok(Constraint::Imm),
        "q" => {
            return Err(format!(
                "constraint \"{c}\" (128-bit registers) is not supported"
            ))
        }
        _ => return Err(format!("unsupported inline assembly constraint \"{c}\"")),
    };
    Ok(Constraint::Reg { class, write, read })
}

/// Replaces `%N` and `%[name]` in `template` by `operands[N]` (the text of
/// operand N: a register name or an immediate), `%%` by `%` and `%=` by
/// `unique`. `names` are the operands' symbolic names, by number.
pub fn substitute(
    template: &str,
    operands: &[String],
    names: &[Option<String>],
    unique: u32,
) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() + 16);
    let mut it = template.char_indices().peekable();
    while let Some((_, c)) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match it.peek().map(|&(_, c)| c) {
            Some('%') => {
                it.next();
                out.push('%');
            }
            Some('=') => {
                it.next();
                out.push_str(&unique.to_string());
            }
            Some(d) if d.is_ascii_digit() => {
                let mut n = 0usize;
                while let Some(&(_, d)) = it.peek() {
                    let Some(v) = d.to_digit(10) else { break };
                    n = n.saturating_mul(10).saturating_add(v as usize);
                    it.next();
                }
                match operands.get(n) {
                    Some(s) => out.push_str(s),
                    None => {
                        return Err(format!(
                            "`%{n}` names no operand (the statement has {})",
                            operands.len()
                        ))
                    }
                }
            }
            Some('[') => {
                it.next();
                let mut name = String::new();
                loop {
                    match it.next() {
                        Some((_, ']')) => break,
                        Some((_, ch)) => name.push(ch),
                        None => return Err("unterminated `%[` in the asm template".into()),
                    }
                }
                match names.iter().position(|n| n.as_deref() == Some(name.as_str())) {
                    Some(k) => out.push_str(&operands[k]),
                    None => return Err(format!("`%[{name}]` names no operand")),
                }
            }
            Some(m) if m.is_ascii_alphabetic() => {
                return Err(format!(
                    "operand modifier `%{m}` is not supported in inline PTX (write `%%` for a `%` of PTX)"
                ))
            }
            _ => return Err("a lone `%` in the asm template (write `%%` for a `%` of PTX)".into()),
        }
    }
    Ok(out)
}

/// A register declared in a `{ }` block of `body` under the same name as
/// one declared in an enclosing block. The PTX frontend's registers are
/// function-wide (a later declaration replaces an earlier one), so an
/// outer register used after such a block would read the inner one.
pub fn shadowed_register(body: &str) -> Option<String> {
    let mut scopes: Vec<Vec<String>> = vec![Vec::new()];
    let mut stmt = String::new();
    let end_stmt = |stmt: &mut String, scopes: &mut Vec<Vec<String>>| -> Option<String> {
        let t = std::mem::take(stmt);
        let t = t.trim();
        let rest = t.strip_prefix(".reg")?;
        let mut names = rest.trim_start();
        // Skip `.type` (and `.v2`-style) words.
        while let Some(r) = names.strip_prefix('.') {
            let k = r.find(char::is_whitespace).unwrap_or(r.len());
            names = r[k..].trim_start();
        }
        for n in names.split(',') {
            let n = n.split('<').next().unwrap_or("").trim().to_string();
            if n.is_empty() {
                continue;
            }
            let outer = scopes.len().saturating_sub(1);
            if scopes[..outer].iter().any(|s| s.contains(&n)) {
                return Some(n);
            }
            if let Some(s) = scopes.last_mut() {
                s.push(n);
            }
        }
        None
    };
    for line in body.lines() {
        let line = line.split("//").next().unwrap_or("");
        for c in line.chars() {
            match c {
                '{' => {
                    if let Some(n) = end_stmt(&mut stmt, &mut scopes) {
                        return Some(n);
                    }
                    scopes.push(Vec::new());
                }
                '}' => {
                    if let Some(n) = end_stmt(&mut stmt, &mut scopes) {
                        return Some(n);
                    }
                    if scopes.len() > 1 {
                        scopes.pop();
                    }
                }
                ';' => {
                    if let Some(n) = end_stmt(&mut stmt, &mut scopes) {
                        return Some(n);
                    }
                }
                c => stmt.push(c),
            }
        }
        stmt.push(' ');
    }
    None
}

/// A cursor over the statement's text.
struct Cur<'t> {
    s: &'t [u8],
    i: usize,
}

impl Cur<'_> {
    /// Skips whitespace, comments and line continuations.
    fn ws(&mut self) {
        loop {
            while self.i < self.s.len() && (self.s[self.i].is_ascii_whitespace()) {
                self.i += 1;
            }
            if self.s[self.i..].starts_with(b"\\\n") {
                self.i += 2;
            } else if self.s[self.i..].starts_with(b"//") {
                while self.i < self.s.len() && self.s[self.i] != b'\n' {
                    self.i += 1;
                }
            } else if self.s[self.i..].starts_with(b"/*") {
                match find(&self.s[self.i + 2..], b"*/") {
                    Some(k) => self.i += k + 4,
                    None => self.i = self.s.len(),
                }
            } else {
                return;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{}` {what}", c as char))
        }
    }

    fn word(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// One or more adjacent string literals, concatenated and decoded.
    fn strings(&mut self, what: &str) -> Result<String, String> {
        let mut out = Vec::new();
        let mut any = false;
        while self.peek() == Some(b'"') {
            any = true;
            self.i += 1;
            let start = self.i;
            loop {
                match self.s.get(self.i) {
                    None | Some(b'\n') => return Err("unterminated string literal".into()),
                    Some(b'\\') => self.i += 2,
                    Some(b'"') => break,
                    Some(_) => self.i += 1,
                }
            }
            let lit = &self.s[start..self.i.min(self.s.len())];
            self.i += 1;
            out.extend(super::expr::unescape_c(&String::from_utf8_lossy(lit)));
        }
        if !any {
            return Err(format!(
                "expected a string literal {what} (cucc reads inline assembly from the source text: a template or constraint built by a macro cannot be read)"
            ));
        }
        String::from_utf8(out).map_err(|_| "the asm template is not valid UTF-8".into())
    }

    /// Skips a parenthesised expression (the cursor is at its `(`).
    fn skip_parens(&mut self) -> Result<(), String> {
        self.expect(b'(', "before the operand's expression")?;
        let mut depth = 1;
        while depth > 0 {
            let Some(&c) = self.s.get(self.i) else {
                return Err("unbalanced parentheses in an operand".into());
            };
            match c {
                b'(' => depth += 1,
                b')' => depth -= 1,
                b'"' | b'\'' => {
                    self.i += 1;
                    while let Some(&d) = self.s.get(self.i) {
                        if d == b'\\' {
                            self.i += 1;
                        } else if d == c {
                            break;
                        }
                        self.i += 1;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    fn operands(&mut self) -> Result<Vec<AsmOperand>, String> {
        let mut out = Vec::new();
        if matches!(self.peek(), Some(b':') | Some(b')')) {
            return Ok(out);
        }
        loop {
            let name = if self.eat(b'[') {
                let n = self.word().ok_or("expected an operand name after `[`")?;
                self.expect(b']', "after the operand name")?;
                Some(n)
            } else {
                None
            };
            let constraint = self.strings("for an operand's constraint")?;
            self.skip_parens()?;
            out.push(AsmOperand { name, constraint });
            if !self.eat(b',') {
                return Ok(out);
            }
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Parses the text of an `asm` statement, from its keyword to its `)`.
pub fn parse(text: &str) -> Result<AsmText, String> {
    let mut c = Cur {
        s: text.as_bytes(),
        i: 0,
    };
    match c.word().as_deref() {
        Some("asm" | "__asm__" | "__asm") => {}
        _ => return Err("expected `asm`".into()),
    }
    let mut volatile = false;
    while let Some(w) = {
        let save = c.i;
        let w = c.word();
        if w.is_none() {
            c.i = save;
        }
        w
    } {
        match w.as_str() {
            "volatile" | "__volatile__" | "__volatile" => volatile = true,
            "inline" | "__inline__" => {}
            "goto" => return Err("`asm goto` is not supported".into()),
            other => return Err(format!("unexpected `{other}` in an asm statement")),
        }
    }
    c.expect(b'(', "after `asm`")?;
    let template = c.strings("as the asm template")?;
    let mut t = AsmText {
        template,
        volatile,
        basic: true,
        outputs: Vec::new(),
        inputs: Vec::new(),
        clobbers: Vec::new(),
    };
    if c.eat(b':') {
        t.basic = false;
        t.outputs = c.operands()?;
        if c.eat(b':') {
            t.inputs = c.operands()?;
            if c.eat(b':') {
                if c.peek() == Some(b'"') {
                    loop {
                        t.clobbers.push(c.strings("as a clobber")?);
                        if !c.eat(b',') {
                            break;
                        }
                    }
                }
                if c.peek() == Some(b':') {
                    return Err("`asm goto` labels are not supported".into());
                }
            }
        }
    }
    c.expect(b')', "at the end of the asm statement")?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_operands_clobbers_and_volatile() {
        let t = parse(
            "asm volatile(\"bfe.u32 %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(f(x, (y))), \"r\"(pos), \"n\"(8) : \"memory\")",
        )
        .unwrap();
        assert!(t.volatile && !t.basic && t.clobbers_memory());
        assert_eq!(t.template, "bfe.u32 %0, %1, %2, %3;");
        assert_eq!(t.outputs.len(), 1);
        assert_eq!(t.outputs[0].constraint, "=r");
        let cs: Vec<_> = t.inputs.iter().map(|o| o.constraint.as_str()).collect();
        assert_eq!(cs, ["r", "r", "n"]);
    }

    #[test]
    fn concatenates_literals_and_decodes_escapes() {
        let t = parse(
            "__asm__ __volatile__ ( \"{\\n\\t.reg .u32 t;\\n\\t\"\n  // comment\n  \"add.u32 %0, %1, 1;\\n\\t}\" : [out] \"+r\"(v) : [in] \"r\"(w))",
        )
        .unwrap();
        assert_eq!(t.template, "{\n\t.reg .u32 t;\n\tadd.u32 %0, %1, 1;\n\t}");
        assert_eq!(t.outputs[0].name.as_deref(), Some("out"));
        assert_eq!(t.inputs[0].name.as_deref(), Some("in"));
        assert!(t.clobbers.is_empty());
    }

    #[test]
    fn basic_asm_and_empty_sections() {
        let t = parse("asm(\"membar.gl;\")").unwrap();
        assert!(t.basic && !t.volatile);
        let t = parse("asm volatile(\"\" ::: \"memory\")").unwrap();
        assert!(!t.basic && t.outputs.is_empty() && t.inputs.is_empty());
        assert!(t.clobbers_memory());
    }

    #[test]
    fn rejects_macro_built_templates_and_goto() {
        assert!(parse("asm(TEMPLATE : \"=r\"(x))")
            .unwrap_err()
            .contains("string literal"));
        assert!(parse("asm goto(\"bra %l0;\" :::: done)").is_err());
    }

    #[test]
    fn substitutes_numbers_names_and_percent() {
        let ops = vec!["%a0".to_string(), "%a1".to_string(), "7".to_string()];
        let names = vec![None, Some("x".to_string()), None];
        let s = substitute(
            "mov.u32 %0, %%laneid; add.u32 %0, %[x], %2; L%=:",
            &ops,
            &names,
            5,
        )
        .unwrap();
        assert_eq!(s, "mov.u32 %a0, %laneid; add.u32 %a0, %a1, 7; L5:");
        assert!(substitute("mov.u32 %3, 0;", &ops, &names, 0)
            .unwrap_err()
            .contains("names no operand"));
        assert!(substitute("mov.u32 %laneid, 0;", &ops, &names, 0).is_err());
        assert!(substitute("%[y]", &ops, &names, 0).is_err());
    }

    #[test]
    fn substitutes_two_digit_operands() {
        let ops: Vec<String> = (0..12).map(|k| format!("%a{k}")).collect();
        let names = vec![None; 12];
        assert_eq!(substitute("%11 %1", &ops, &names, 0).unwrap(), "%a11 %a1");
    }

    #[test]
    fn finds_shadowed_registers_only() {
        let siblings = "{ .reg .u32 t; add.u32 t, %a, 1; }\n{ .reg .u32 t, u; mov.u32 u, t; }";
        assert_eq!(shadowed_register(siblings), None);
        let nested =
            "{ .reg .pred p; // outer\n { .reg .b32 x, p; setp.eq.u32 p, x, 0; } @p bra L; }";
        assert_eq!(shadowed_register(nested).as_deref(), Some("p"));
        let ranges = ".reg .b64 %rd<4>;\n{ .reg .b64 %rd<2>; }";
        assert_eq!(shadowed_register(ranges).as_deref(), Some("%rd"));
        assert_eq!(shadowed_register("mov.u32 %0, %%laneid;"), None);
    }

    #[test]
    fn classifies_constraints() {
        assert_eq!(
            constraint("=r", true),
            Ok(Constraint::Reg {
                class: RegClass::B32,
                write: true,
                read: false
            })
        );
        assert_eq!(
            constraint("+l", true),
            Ok(Constraint::Reg {
                class: RegClass::B64,
                write: true,
                read: true
            })
        );
        assert_eq!(
            constraint("=&d", true),
            Ok(Constraint::Reg {
                class: RegClass::F64,
                write: true,
                read: false
            })
        );
        assert_eq!(
            constraint("h", false),
            Ok(Constraint::Reg {
                class: RegClass::B16,
                write: false,
                read: true
            })
        );
        assert_eq!(
            constraint("f", false).map(|c| matches!(
                c,
                Constraint::Reg {
                    class: RegClass::F32,
                    ..
                }
            )),
            Ok(true)
        );
        assert_eq!(constraint("n", false), Ok(Constraint::Imm));
        assert_eq!(constraint("0", false), Ok(Constraint::Tied(0)));
        assert!(constraint("r", true).unwrap_err().contains("must start"));
        assert!(constraint("=n", true).is_err());
        assert!(constraint("q", false).unwrap_err().contains("128-bit"));
        assert!(constraint("m", false).unwrap_err().contains("unsupported"));
    }
}
