//! Edits of PTX text at token positions: the lexer counts characters by
//! line, the edits need byte offsets.

use crate::lex::{Tok, Token};

/// A replacement of the bytes `start..end`.
pub(super) struct Edit {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) with: String,
}

impl Edit {
    pub(super) fn new(start: usize, end: usize, with: String) -> Edit {
        Edit { start, end, with }
    }
}

/// `text` with `edits` applied; an edit inside an earlier, wider one (a
/// rename inside a dropped definition) is skipped.
pub(super) fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.start, std::cmp::Reverse(e.end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.start < at {
            continue;
        }
        out.push_str(&text[at..e.start]);
        out.push_str(&e.with);
        at = e.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Byte offsets of the lexer's (line, column) positions, which count
/// characters.
pub(super) struct LineOffsets<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineOffsets<'a> {
    pub(super) fn new(text: &'a str) -> LineOffsets<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineOffsets { text, starts }
    }

    pub(super) fn byte(&self, t: &Token) -> usize {
        let line = (t.pos.line as usize).saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(self.text.len());
        let col = (t.pos.col as usize).saturating_sub(1);
        self.text[start..]
            .char_indices()
            .nth(col)
            .map_or(self.text.len(), |(i, _)| start + i)
    }
}

/// The length in bytes of token `t` as spelled in `text`.
pub(super) fn token_len(t: &Token, text: &str, offsets: &LineOffsets<'_>) -> usize {
    match &t.tok {
        Tok::Word(w) | Tok::Num(w) => w.len(),
        Tok::Punct(c) => c.len_utf8(),
        Tok::Str(_) => {
            // The closing quote: the first unescaped `"` after the opening one.
            let a = offsets.byte(t);
            let bytes = text.as_bytes();
            let mut i = a + 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return i + 1 - a,
                    _ => i += 1,
                }
            }
            text.len() - a
        }
    }
}
