//! C/C++ types as clang spells them (`qualType` strings), parsed into a small
//! model the lowering reasons with.
//!
//! clang's JSON gives every type as text. The lowering reads the desugared
//! spelling (`const float *__restrict`, `int (*)[4]`, `ns::Pair<float, 3>`)
//! with the declarator grammar below; records and enums stay names that
//! [`super::records`] resolves.

use std::rc::Rc;

use cucc_ir::FloatKind;

/// A C/C++ type.
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    /// `void`.
    Void,
    /// `bool`.
    Bool,
    /// An integer type.
    Int {
        /// Width in bits.
        bits: u8,
        /// Signedness.
        signed: bool,
    },
    /// `float`, `double`, and `__half`/`__nv_bfloat16` as values.
    Float(FloatKind),
    /// A pointer.
    Ptr(Rc<CType>),
    /// An lvalue or rvalue reference (a pointer underneath).
    Ref(Rc<CType>),
    /// An array; `None` for `T[]`.
    Array(Rc<CType>, Option<u64>),
    /// A struct, class, union or enum, by its (qualified) name.
    Named(Rc<str>),
    /// A function type: result and parameters.
    Func(Rc<CType>, Vec<CType>),
    /// A `volatile`-qualified type.
    Volatile(Rc<CType>),
    /// clang's placeholder types (`<bound member function type>`, ...).
    Special(Rc<str>),
}

impl CType {
    /// An integer type of `bits` bits.
    pub const fn int(bits: u8, signed: bool) -> CType {
        CType::Int { bits, signed }
    }

    /// `int`.
    pub const INT: CType = CType::int(32, true);

    /// The type without a top-level `volatile`.
    pub fn strip(&self) -> &CType {
        match self {
            CType::Volatile(t) => t.strip(),
            t => t,
        }
    }

    /// True if the top level is `volatile`.
    pub fn is_volatile(&self) -> bool {
        matches!(self, CType::Volatile(_))
    }

    /// The pointee of a pointer or reference.
    pub fn pointee(&self) -> Option<&CType> {
        match self.strip() {
            CType::Ptr(t) | CType::Ref(t) => Some(t),
            _ => None,
        }
    }

    /// True for signed integers (plain `char` is signed, as on x86 and NVPTX).
    pub fn is_signed(&self) -> bool {
        matches!(self.strip(), CType::Int { signed: true, .. })
    }

    /// True for integers and `bool`.
    pub fn is_integral(&self) -> bool {
        matches!(self.strip(), CType::Int { .. } | CType::Bool)
    }

    /// True for float types.
    pub fn is_float(&self) -> bool {
        matches!(self.strip(), CType::Float(_))
    }

    /// True for pointers.
    pub fn is_ptr(&self) -> bool {
        matches!(self.strip(), CType::Ptr(_))
    }

    /// True for references.
    pub fn is_ref(&self) -> bool {
        matches!(self.strip(), CType::Ref(_))
    }

    /// The element type of an array.
    pub fn elem(&self) -> Option<&CType> {
        match self.strip() {
            CType::Array(t, _) => Some(t),
            _ => None,
        }
    }
}

/// The message for a type spelling [`parse`] does not understand.
pub fn unreadable(spelled: &str) -> String {
    if spelled.contains("__int128") {
        // The IR's integers are at most 64 bits wide.
        return format!("128-bit integers ('{spelled}') are not supported in device code");
    }
    format!("cannot read the type '{spelled}'")
}

/// Parses a clang type spelling. `None` when it is not understood.
pub fn parse(s: &str) -> Option<CType> {
    let s = s.trim();
    if s.starts_with('<') {
        return Some(CType::Special(s.into()));
    }
    let toks = tokenize(s)?;
    let mut p = Parser { toks, pos: 0 };
    let t = p.full_type()?;
    (p.pos == p.toks.len()).then_some(t)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Punct(char),
    AndAnd,
    Num(u64),
}

fn tokenize(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let st = i;
            while i < b.len() && (b[i] as char).is_ascii_alphanumeric() {
                i += 1;
            }
            let t = s[st..i].trim_end_matches(['u', 'U', 'l', 'L']);
            out.push(Tok::Num(t.parse().ok()?));
        } else if c.is_ascii_alphabetic() || c == '_' || c == ':' {
            // A (qualified) name, with template arguments kept verbatim.
            let st = i;
            loop {
                while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if i < b.len() && b[i] == b'<' {
                    let mut depth = 0;
                    while i < b.len() {
                        match b[i] {
                            b'<' => depth += 1,
                            b'>' => {
                                depth -= 1;
                                if depth == 0 {
                                    i += 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                }
                if s[i..].starts_with("::") {
                    i += 2;
                    // `Outer<1>::(unnamed enum at f:1:2)`: an unnamed member
                    // of a class (template specialisation) ends the name.
                    if s[i..].starts_with("(unnamed")
                        || s[i..].starts_with("(anonymous")
                        || s[i..].starts_with("(lambda at ")
                    {
                        let close = s[i..].find(')')? + i + 1;
                        i = close;
                        if s[i..].starts_with("::") {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    continue;
                }
                break;
            }
            if i == st {
                return None;
            }
            out.push(Tok::Word(s[st..i].to_string()));
        } else if c == '('
            && (s[i..].starts_with("(anonymous")
                || s[i..].starts_with("(unnamed")
                || s[i..].starts_with("(lambda at "))
        {
            // `(anonymous namespace)::X`, `(unnamed struct at f:1:2)` or a
            // lambda's class, `(lambda at f:1:2)`.
            let close = s[i..].find(')')? + i + 1;
            let mut end = close;
            if s[end..].starts_with("::") {
                end += 2;
                while end < b.len()
                    && ((b[end] as char).is_ascii_alphanumeric()
                        || b[end] == b'_'
                        || b[end] == b':')
                {
                    end += 1;
                }
            }
            out.push(Tok::Word(s[i..end].to_string()));
            i = end;
        } else if s[i..].starts_with("&&") {
            out.push(Tok::AndAnd);
            i += 2;
        } else if "*&()[],.".contains(c) {
            out.push(Tok::Punct(c));
            i += 1;
        } else {
            return None;
        }
    }
    Some(out)
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

const QUALS: &[&str] = &[
    "const",
    "volatile",
    "__restrict",
    "restrict",
    "__restrict__",
];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn full_type(&mut self) -> Option<CType> {
        let base = self.specifiers()?;
        self.declarator(base)
    }

    /// Declaration specifiers: qualifiers and the type name.
    fn specifiers(&mut self) -> Option<CType> {
        let mut volatile = false;
        let mut words: Vec<String> = Vec::new();
        let mut name: Option<String> = None;
        while let Some(Tok::Word(w)) = self.peek() {
            let w = w.clone();
            match w.as_str() {
                "const" | "__restrict" | "restrict" | "__restrict__" => {}
                "volatile" => volatile = true,
                "struct" | "class" | "union" | "enum" | "typename" => {}
                "unsigned" | "signed" | "int" | "long" | "short" | "char" | "float" | "double"
                | "void" | "bool" | "_Bool" | "__int128" | "wchar_t" | "char16_t" | "char32_t"
                | "char8_t" => {
                    if name.is_some() {
                        break;
                    }
                    words.push(w);
                }
                _ => {
                    if name.is_some() || !words.is_empty() {
                        break;
                    }
                    name = Some(w);
                }
            }
            self.pos += 1;
        }
        let t = match name {
            Some(n) => named(&n),
            None => builtin(&words)?,
        };
        Some(if volatile {
            CType::Volatile(Rc::new(t))
        } else {
            t
        })
    }

    /// An abstract declarator applied to `base`.
    fn declarator(&mut self, base: CType) -> Option<CType> {
        // Pointer operators, each with its trailing qualifiers.
        let mut t = base;
        loop {
            match self.peek() {
                Some(Tok::Punct('*')) => {
                    self.pos += 1;
                    t = CType::Ptr(Rc::new(t));
                }
                Some(Tok::Punct('&')) | Some(Tok::AndAnd) => {
                    self.pos += 1;
                    t = CType::Ref(Rc::new(t));
                }
                Some(Tok::Word(w)) if QUALS.contains(&w.as_str()) => {
                    if w == "volatile" {
                        t = CType::Volatile(Rc::new(t));
                    }
                    self.pos += 1;
                }
                _ => break,
            }
        }
        // A parenthesised inner declarator: `(*)[4]`, `(&)[4]`, `(*)(int)`.
        if self.peek() == Some(&Tok::Punct('('))
            && matches!(
                self.toks.get(self.pos + 1),
                Some(Tok::Punct('*')) | Some(Tok::Punct('&')) | Some(Tok::AndAnd)
            )
        {
            let start = self.pos + 1;
            let mut depth = 0;
            let mut end = self.pos;
            while end < self.toks.len() {
                match self.toks[end] {
                    Tok::Punct('(') => depth += 1,
                    Tok::Punct(')') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                end += 1;
            }
            if end >= self.toks.len() {
                return None;
            }
            let inner: Vec<Tok> = self.toks[start..end].to_vec();
            self.pos = end + 1;
            let outer = self.suffixes(t)?;
            let mut p = Parser {
                toks: inner,
                pos: 0,
            };
            let r = p.declarator(outer)?;
            return (p.pos == p.toks.len()).then_some(r);
        }
        self.suffixes(t)
    }

    /// Array and function suffixes.
    fn suffixes(&mut self, base: CType) -> Option<CType> {
        match self.peek() {
            Some(Tok::Punct('[')) => {
                let mut dims = Vec::new();
                while self.peek() == Some(&Tok::Punct('[')) {
                    self.pos += 1;
                    match self.peek() {
                        Some(Tok::Num(n)) => {
                            dims.push(Some(*n));
                            self.pos += 1;
                        }
                        _ => dims.push(None),
                    }
                    if self.peek() != Some(&Tok::Punct(']')) {
                        return None;
                    }
                    self.pos += 1;
                }
                let mut t = base;
                for d in dims.into_iter().rev() {
                    t = CType::Array(Rc::new(t), d);
                }
                Some(t)
            }
            Some(Tok::Punct('(')) => {
                self.pos += 1;
                let mut params = Vec::new();
                loop {
                    match self.peek() {
                        Some(Tok::Punct(')')) => {
                            self.pos += 1;
                            break;
                        }
                        Some(Tok::Punct(',')) => self.pos += 1,
                        Some(Tok::Punct('.')) => self.pos += 1,
                        Some(_) => {
                            let t = self.full_type()?;
                            if t != CType::Void {
                                params.push(t);
                            }
                        }
                        None => return None,
                    }
                }
                // Trailing qualifiers of member functions, `noexcept`.
                while let Some(Tok::Word(w)) = self.peek() {
                    if QUALS.contains(&w.as_str()) || w == "noexcept" {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                while matches!(self.peek(), Some(Tok::Punct('&')) | Some(Tok::AndAnd)) {
                    self.pos += 1;
                }
                Some(CType::Func(Rc::new(base), params))
            }
            _ => Some(base),
        }
    }
}

fn named(n: &str) -> CType {
    match n {
        "__half" | "half" => CType::Float(FloatKind::F16),
        "__nv_bfloat16" | "nv_bfloat16" => CType::Float(FloatKind::BF16),
        "size_t" | "uint64_t" => CType::int(64, false),
        "ptrdiff_t" | "int64_t" => CType::int(64, true),
        _ => CType::Named(n.trim_start_matches("::").into()),
    }
}

fn builtin(words: &[String]) -> Option<CType> {
    let has = |w: &str| words.iter().any(|x| x == w);
    let longs = words.iter().filter(|w| *w == "long").count();
    if has("void") {
        return Some(CType::Void);
    }
    if has("bool") || has("_Bool") {
        return Some(CType::Bool);
    }
    if has("float") {
        return Some(CType::Float(FloatKind::F32));
    }
    if has("double") {
        // `long double` is treated as `double`, as on the device.
        return Some(CType::Float(FloatKind::F64));
    }
    let signed = !has("unsigned");
    let bits = if has("char") || has("char8_t") {
        8
    } else if has("short") || has("char16_t") {
        16
    } else if longs >= 1 {
        64
    } else if has("__int128") {
        return None;
    } else if has("int") || has("signed") || has("unsigned") || has("wchar_t") || has("char32_t") {
        32
    } else {
        return None;
    };
    Some(CType::Int { bits, signed })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> CType {
        parse(s).unwrap_or_else(|| panic!("cannot parse {s}"))
    }

    #[test]
    fn parses_declarators() {
        assert_eq!(p("int"), CType::INT);
        assert_eq!(p("unsigned long long"), CType::int(64, false));
        assert_eq!(
            p("const float *__restrict"),
            CType::Ptr(Rc::new(CType::Float(FloatKind::F32)))
        );
        assert_eq!(
            p("int[2][3]"),
            CType::Array(Rc::new(CType::Array(Rc::new(CType::INT), Some(3))), Some(2))
        );
        assert_eq!(
            p("int (*)[4]"),
            CType::Ptr(Rc::new(CType::Array(Rc::new(CType::INT), Some(4))))
        );
        assert_eq!(
            p("ns::Pair<float, 3> &"),
            CType::Ref(Rc::new(CType::Named("ns::Pair<float, 3>".into())))
        );
        assert_eq!(
            p("volatile float *"),
            CType::Ptr(Rc::new(CType::Volatile(Rc::new(CType::Float(
                FloatKind::F32
            )))))
        );
        match p("void (int, float *) const") {
            CType::Func(r, ps) => {
                assert_eq!(*r, CType::Void);
                assert_eq!(ps.len(), 2);
            }
            t => panic!("{t:?}"),
        }
        assert_eq!(p("struct float4"), CType::Named("float4".into()));
        assert_eq!(p("__half"), CType::Float(FloatKind::F16));
        assert!(matches!(
            p("<bound member function type>"),
            CType::Special(_)
        ));
    }
}
