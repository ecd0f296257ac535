//! Clang-style diagnostics: `file:line:col: error: message`, the source line
//! and a caret under the column.

use std::fmt;

use crate::ast::{Node, SourceLocation};

/// Where a diagnostic points.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DiagLoc {
    /// File name as clang reported it.
    pub file: String,
    /// 1-based line (0: unknown).
    pub line: u32,
    /// 1-based column (0: unknown).
    pub col: u32,
}

impl DiagLoc {
    /// The location the user sees for `node` (its expansion location).
    pub fn of(node: &Node) -> DiagLoc {
        node.user_loc()
            .map(DiagLoc::from_source)
            .unwrap_or_default()
    }

    /// From a resolved source location (expansion side).
    pub fn from_source(l: &SourceLocation) -> DiagLoc {
        DiagLoc {
            file: l.expansion.file.to_string(),
            line: l.expansion.line,
            col: l.expansion.col,
        }
    }
}

/// One error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where.
    pub loc: DiagLoc,
    /// What, without the `error:` prefix.
    pub message: String,
    /// Rendered text that replaces the clang-style rendering (clang's own
    /// diagnostics, passed through verbatim).
    pub verbatim: Option<String>,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn new(loc: DiagLoc, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            loc,
            message: message.into(),
            verbatim: None,
        }
    }

    /// An error at `node`.
    pub fn at(node: &Node, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(DiagLoc::of(node), message)
    }

    /// Renders the diagnostic, reading the source line from `source` (the
    /// file's text) if it is given, else from disk.
    pub fn render(&self, source: Option<&str>) -> String {
        if let Some(v) = &self.verbatim {
            return v.clone();
        }
        let l = &self.loc;
        if l.line == 0 {
            let f = if l.file.is_empty() { "cucc" } else { &l.file };
            return format!("{f}: error: {}\n", self.message);
        }
        let mut out = format!("{}:{}:{}: error: {}\n", l.file, l.line, l.col, self.message);
        let text = match source {
            Some(s) => Some(s.to_string()),
            None => std::fs::read_to_string(&l.file).ok(),
        };
        if let Some(line) = text
            .as_deref()
            .and_then(|t| t.lines().nth(l.line as usize - 1))
        {
            out.push_str(line);
            out.push('\n');
            // Keep tabs so the caret lines up in a terminal.
            let pad: String = line
                .chars()
                .take(l.col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&pad);
            out.push_str("^\n");
        }
        out
    }
}

/// The errors of one lowering, with the main file's text for snippets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    /// The errors, in the order found.
    pub errors: Vec<Diagnostic>,
    /// The main file's name and text (for rendering lowerings from memory).
    pub source: Option<(String, String)>,
}

impl Diagnostics {
    /// One verbatim error (clang's output, an I/O problem).
    pub fn verbatim(text: impl Into<String>) -> Diagnostics {
        let mut t: String = text.into();
        if !t.ends_with('\n') {
            t.push('\n');
        }
        Diagnostics {
            errors: vec![Diagnostic {
                loc: DiagLoc::default(),
                message: t.trim_end().to_string(),
                verbatim: Some(t),
            }],
            source: None,
        }
    }

    /// The clang-style text of every error.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for e in &self.errors {
            let src = self
                .source
                .as_ref()
                .filter(|(f, _)| *f == e.loc.file)
                .map(|(_, s)| s.as_str());
            out.push_str(&e.render(src));
        }
        let n = self.errors.iter().filter(|e| e.verbatim.is_none()).count();
        if n > 1 {
            out.push_str(&format!("{n} errors generated.\n"));
        }
        out
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostics {}
