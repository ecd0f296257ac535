//! Splits the text format into tokens with their positions.
//!
//! Bare words cover keywords, mnemonics, type names and numeric literals
//! alike (`add`, `ptr.index`, `i32`, `-1`, `1e-45`, `0x7fc00000`); the
//! parser decides what a word means where it stands. Each token records
//! whether it is the first on its line: an op ends at the end of its line.

use super::ParseError;

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// A bare word: keyword, mnemonic, type or number.
    Word(String),
    /// `%name` or `%"name"`.
    Value {
        /// The name without sigil or quotes.
        text: String,
        /// Written in quotes.
        quoted: bool,
    },
    /// `@name` or `@"name"`.
    Symbol(String),
    /// `$name` or `$"name"`.
    TypeName(String),
    /// A quoted string, unescaped.
    Str(String),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `=`
    Equals,
    /// `->`
    Arrow,
    /// End of input.
    Eof,
}

impl Tok {
    /// How an error message names the token.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Value { text, quoted } => {
                if *quoted {
                    format!("`%{}`", super::literal::quote(text))
                } else {
                    format!("`%{text}`")
                }
            }
            Tok::Symbol(s) => format!("`{}`", super::literal::symbol('@', s)),
            Tok::TypeName(s) => format!("`{}`", super::literal::symbol('$', s)),
            Tok::Str(s) => format!("string {}", super::literal::quote(s)),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::LBrace => "`{`".into(),
            Tok::RBrace => "`}`".into(),
            Tok::LBracket => "`[`".into(),
            Tok::RBracket => "`]`".into(),
            Tok::Lt => "`<`".into(),
            Tok::Gt => "`>`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Colon => "`:`".into(),
            Tok::Equals => "`=`".into(),
            Tok::Arrow => "`->`".into(),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    /// The token.
    pub tok: Tok,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// No other token precedes it on its line.
    pub first_on_line: bool,
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

struct Lexer {
    chars: Vec<char>,
    pos: usize,
    line: u32,
    col: u32,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.get(self.pos).copied()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn error(&self, line: u32, col: u32, message: String) -> ParseError {
        ParseError { line, col, message }
    }

    /// Skips blanks and comments; returns true if a newline was crossed.
    fn skip_trivia(&mut self) -> bool {
        let mut newline = false;
        loop {
            match self.peek(0) {
                Some('\n') => {
                    newline = true;
                    self.bump();
                }
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some(';') => self.skip_line(),
                Some('/') if self.peek(1) == Some('/') => self.skip_line(),
                _ => return newline,
            }
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    fn word(&mut self) -> String {
        let mut s = String::new();
        if let Some(c @ ('-' | '+')) = self.peek(0) {
            s.push(c);
            self.bump();
        }
        let numeric = self.peek(0).is_some_and(|c| c.is_ascii_digit());
        while let Some(c) = self.peek(0) {
            let exponent_sign =
                numeric && matches!(c, '+' | '-') && s.ends_with(['e', 'E']) && !s.contains("0x");
            if is_word_char(c) || exponent_sign {
                s.push(c);
                self.bump();
            } else {
                break;
            }
        }
        s
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let (line, col) = (self.line, self.col);
        self.bump(); // opening quote
        let mut s = String::new();
        loop {
            let (el, ec) = (self.line, self.col);
            match self.bump() {
                None | Some('\n') => {
                    return Err(self.error(line, col, "unterminated string".into()))
                }
                Some('"') => return Ok(s),
                Some('\\') => match self.bump() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some('r') => s.push('\r'),
                    Some('"') => s.push('"'),
                    Some('\\') => s.push('\\'),
                    Some('u') => s.push(self.unicode_escape(el, ec)?),
                    Some(c) => {
                        return Err(self.error(el, ec, format!("unknown escape `\\{c}` in string")))
                    }
                    None => return Err(self.error(line, col, "unterminated string".into())),
                },
                Some(c) => s.push(c),
            }
        }
    }

    fn unicode_escape(&mut self, line: u32, col: u32) -> Result<char, ParseError> {
        let bad = |l: &Lexer| l.error(line, col, "invalid `\\u{...}` escape in string".into());
        if self.bump() != Some('{') {
            return Err(bad(self));
        }
        let mut digits = String::new();
        loop {
            match self.bump() {
                Some('}') => break,
                Some(c) if c.is_ascii_hexdigit() && digits.len() < 6 => digits.push(c),
                _ => return Err(bad(self)),
            }
        }
        u32::from_str_radix(&digits, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| bad(self))
    }

    /// The name after a sigil: a bare word or a quoted string.
    fn sigil_name(&mut self, sigil: char) -> Result<(String, bool), ParseError> {
        let (line, col) = (self.line, self.col);
        self.bump(); // sigil
        match self.peek(0) {
            Some('"') => Ok((self.string()?, true)),
            Some(c) if is_word_char(c) => {
                let mut s = String::new();
                while let Some(c) = self.peek(0).filter(|&c| is_word_char(c)) {
                    s.push(c);
                    self.bump();
                }
                Ok((s, false))
            }
            _ => Err(self.error(
                line,
                col,
                format!("expected a name or a quoted string after `{sigil}`"),
            )),
        }
    }
}

/// Tokenises `src`; the last token is [`Tok::Eof`].
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, ParseError> {
    let mut lx = Lexer {
        chars: src.chars().collect(),
        pos: 0,
        line: 1,
        col: 1,
    };
    let mut out = Vec::new();
    let mut first_on_line = true;
    loop {
        if lx.skip_trivia() {
            first_on_line = true;
        }
        let (line, col) = (lx.line, lx.col);
        let Some(c) = lx.peek(0) else {
            out.push(Token {
                tok: Tok::Eof,
                line,
                col,
                first_on_line: true,
            });
            return Ok(out);
        };
        let simple = match c {
            '(' => Some(Tok::LParen),
            ')' => Some(Tok::RParen),
            '{' => Some(Tok::LBrace),
            '}' => Some(Tok::RBrace),
            '[' => Some(Tok::LBracket),
            ']' => Some(Tok::RBracket),
            '<' => Some(Tok::Lt),
            '>' => Some(Tok::Gt),
            ',' => Some(Tok::Comma),
            ':' => Some(Tok::Colon),
            '=' => Some(Tok::Equals),
            _ => None,
        };
        let tok = if let Some(t) = simple {
            lx.bump();
            t
        } else if c == '-' && lx.peek(1) == Some('>') {
            lx.bump();
            lx.bump();
            Tok::Arrow
        } else if c == '"' {
            Tok::Str(lx.string()?)
        } else if c == '%' {
            let (text, quoted) = lx.sigil_name('%')?;
            Tok::Value { text, quoted }
        } else if c == '@' {
            Tok::Symbol(lx.sigil_name('@')?.0)
        } else if c == '$' {
            Tok::TypeName(lx.sigil_name('$')?.0)
        } else if is_word_char(c)
            || (matches!(c, '-' | '+') && lx.peek(1).is_some_and(is_word_char))
        {
            Tok::Word(lx.word())
        } else {
            return Err(lx.error(line, col, format!("unexpected character `{c}`")));
        };
        out.push(Token {
            tok,
            line,
            col,
            first_on_line,
        });
        first_on_line = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        lex(src)
            .map(|v| v.into_iter().map(|t| t.tok).collect())
            .unwrap_or_default()
    }

    #[test]
    fn words_numbers_and_sigils() {
        assert_eq!(
            toks("%x = const -1.5e-3 : f32 ; note\n%\"a b\" -> @f $S"),
            vec![
                Tok::Value {
                    text: "x".into(),
                    quoted: false
                },
                Tok::Equals,
                Tok::Word("const".into()),
                Tok::Word("-1.5e-3".into()),
                Tok::Colon,
                Tok::Word("f32".into()),
                Tok::Value {
                    text: "a b".into(),
                    quoted: true
                },
                Tok::Arrow,
                Tok::Symbol("f".into()),
                Tok::TypeName("S".into()),
                Tok::Eof,
            ]
        );
    }

    #[test]
    fn positions_and_errors() {
        let t = lex("a\n  // c\n  b c").unwrap_or_default();
        assert_eq!((t[1].line, t[1].col, t[1].first_on_line), (3, 3, true));
        assert!(!t[2].first_on_line);
        let e = lex("a \"x\\q\"").err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("1:5: unknown escape `\\q` in string"));
        let e = lex("a # b").err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("1:3: unexpected character `#`"));
    }
}
