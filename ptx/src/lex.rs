//! The PTX lexer: words, numbers, strings and punctuation with positions.
//!
//! A word is an identifier, a directive (`.entry`), a dotted opcode
//! (`ld.global.f32`), a register (`%r1`, `%tid.x`) or a label (`$L__BB0_2`);
//! numbers keep their spelling (`0f3F800000`, `0x10`, `-4`) and are read by
//! the parser, which knows the type they are used at.

use super::{Error, Pos, Result};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Identifier, directive, opcode or register.
    Word(String),
    /// A number as spelled (a leading `-` is a separate token).
    Num(String),
    /// A string literal, unescaped.
    Str(String),
    /// One punctuation character.
    Punct(char),
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Num(n) => format!("`{n}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Punct(c) => format!("`{c}`"),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its position.
    pub pos: Pos,
}

fn word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '%' | '.')
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%' | '.')
}

/// Splits PTX text into tokens, dropping comments.
pub fn lex(src: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let n = chars.len();
    while i < n {
        let c = chars[i];
        let pos = Pos { line, col };
        let advance = |i: &mut usize, k: usize, line: &mut u32, col: &mut u32| {
            for _ in 0..k {
                if chars.get(*i) == Some(&'\n') {
                    *line += 1;
                    *col = 1;
                } else {
                    *col += 1;
                }
                *i += 1;
            }
        };
        if c.is_whitespace() {
            advance(&mut i, 1, &mut line, &mut col);
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < n && chars[i] != '\n' {
                advance(&mut i, 1, &mut line, &mut col);
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            advance(&mut i, 2, &mut line, &mut col);
            loop {
                if i >= n {
                    return Err(Error::new(pos, "unterminated comment"));
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    advance(&mut i, 2, &mut line, &mut col);
                    break;
                }
                advance(&mut i, 1, &mut line, &mut col);
            }
        } else if c == '"' {
            advance(&mut i, 1, &mut line, &mut col);
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None | Some('\n') => return Err(Error::new(pos, "unterminated string")),
                    Some('"') => {
                        advance(&mut i, 1, &mut line, &mut col);
                        break;
                    }
                    Some('\\') => {
                        if let Some(&e) = chars.get(i + 1) {
                            s.push(match e {
                                'n' => '\n',
                                't' => '\t',
                                other => other,
                            });
                        }
                        advance(&mut i, 2, &mut line, &mut col);
                    }
                    Some(&ch) => {
                        s.push(ch);
                        advance(&mut i, 1, &mut line, &mut col);
                    }
                }
            }
            out.push(Token {
                tok: Tok::Str(s),
                pos,
            });
        } else if c.is_ascii_digit() {
            let start = i;
            while i < n && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                // Exponent signs: `1e-3`.
                advance(&mut i, 1, &mut line, &mut col);
                if i < n
                    && matches!(chars[i], '+' | '-')
                    && matches!(chars[i - 1], 'e' | 'E')
                    && !chars[start..i]
                        .iter()
                        .any(|c| matches!(c, 'x' | 'X' | 'f' | 'd'))
                {
                    advance(&mut i, 1, &mut line, &mut col);
                }
            }
            out.push(Token {
                tok: Tok::Num(chars[start..i].iter().collect()),
                pos,
            });
        } else if word_start(c) {
            let start = i;
            while i < n && word_char(chars[i]) {
                advance(&mut i, 1, &mut line, &mut col);
            }
            let word: String = chars[start..i].iter().collect();
            if word.starts_with('.') && word[1..].contains('.') {
                // `.reg.b32`: directives and types written together.
                let mut col = pos.col;
                for part in word[1..].split('.') {
                    out.push(Token {
                        tok: Tok::Word(format!(".{part}")),
                        pos: Pos {
                            line: pos.line,
                            col,
                        },
                    });
                    col += part.chars().count() as u32 + 1;
                }
            } else {
                out.push(Token {
                    tok: Tok::Word(word),
                    pos,
                });
            }
        } else if "{}[](),;:+-!@<>=|".contains(c) {
            advance(&mut i, 1, &mut line, &mut col);
            out.push(Token {
                tok: Tok::Punct(c),
                pos,
            });
        } else {
            return Err(Error::new(pos, format!("unexpected character `{c}`")));
        }
    }
    Ok(out)
}
