//! Source locations in clang's JSON AST, and the elision tracker.
//!
//! clang writes a location's `file` only when it differs from the previous
//! location written, and its `line` only when the file or line differs. The
//! previous location is the one before it in document order, wherever it
//! is: in a sibling, a child, or a node the reader skipped. The reader keeps
//! that state in a per-thread [`LocState`]: every location deserialised here
//! reads and updates it, and skipped JSON text is scanned for the `file` and
//! `line` keys it contains (see [`super::scan`]).

use std::cell::RefCell;
use std::sync::Arc;

use serde::{Deserialize, Deserializer};

/// The elision state: the file and line of the last location written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocState {
    /// File of the last location ("" before the first).
    pub file: Arc<str>,
    /// Line of the last location (0 before the first).
    pub line: u32,
}

impl LocState {
    /// Records a location's explicit `file` and/or `line`.
    pub fn update(&mut self, file: Option<&str>, line: Option<u32>) {
        if let Some(f) = file {
            if &*self.file != f {
                self.file = Arc::from(f);
            }
        }
        if let Some(l) = line {
            self.line = l;
        }
    }
}

thread_local! {
    static STATE: RefCell<LocState> = RefCell::new(LocState::default());
}

/// Runs `f` with this thread's elision state.
pub fn with_state<R>(f: impl FnOnce(&mut LocState) -> R) -> R {
    STATE.with(|s| f(&mut s.borrow_mut()))
}

/// Replaces this thread's elision state, returning the old one.
pub fn set_state(state: LocState) -> LocState {
    with_state(|s| std::mem::replace(s, state))
}

/// A resolved position (clang's "bare" location).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BareLoc {
    /// File name as clang reports it (as given on its command line or found
    /// through an include path).
    pub file: Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// Byte offset in the file.
    pub offset: u64,
    /// Length of the token at this position.
    pub tok_len: u32,
}

/// A location: plain, or inside a macro expansion (then both the spelling
/// and the expansion position are known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLocation {
    /// Where the user sees the code: the macro's expansion site for code
    /// from a macro, else the position itself.
    pub expansion: BareLoc,
    /// Where the text was spelled, for code that comes from a macro.
    pub spelling: Option<BareLoc>,
}

impl SourceLocation {
    /// The file the user sees.
    pub fn file(&self) -> &str {
        &self.expansion.file
    }

    /// The line the user sees.
    pub fn line(&self) -> u32 {
        self.expansion.line
    }
}

/// A source range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceRange {
    /// First token.
    pub begin: Option<SourceLocation>,
    /// Last token.
    pub end: Option<SourceLocation>,
}

#[derive(Deserialize)]
struct RawBare<'a> {
    offset: Option<u64>,
    #[serde(borrow)]
    file: Option<std::borrow::Cow<'a, str>>,
    line: Option<u32>,
    col: Option<u32>,
    #[serde(rename = "tokLen")]
    tok_len: Option<u32>,
}

#[derive(Deserialize)]
struct RawLoc<'a> {
    offset: Option<u64>,
    #[serde(borrow)]
    file: Option<std::borrow::Cow<'a, str>>,
    line: Option<u32>,
    col: Option<u32>,
    #[serde(rename = "tokLen")]
    tok_len: Option<u32>,
    #[serde(rename = "spellingLoc", borrow)]
    spelling: Option<RawBare<'a>>,
    #[serde(rename = "expansionLoc", borrow)]
    expansion: Option<RawBare<'a>>,
}

fn resolve(raw: &RawBare<'_>) -> Option<BareLoc> {
    let offset = raw.offset?;
    with_state(|s| {
        s.update(raw.file.as_deref(), raw.line);
        Some(BareLoc {
            file: s.file.clone(),
            line: s.line,
            col: raw.col.unwrap_or(0),
            offset,
            tok_len: raw.tok_len.unwrap_or(0),
        })
    })
}

/// Deserialises an optional location (`{}` is "no location"), applying the
/// elision state in document order: spelling, then expansion.
pub(crate) fn deserialize_loc<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<SourceLocation>, D::Error> {
    let raw = RawLoc::deserialize(d)?;
    if let Some(spelling) = &raw.spelling {
        let spelling = resolve(spelling);
        let expansion = raw.expansion.as_ref().and_then(resolve);
        return Ok(match (expansion, spelling) {
            (Some(expansion), spelling) => Some(SourceLocation {
                expansion,
                spelling,
            }),
            (None, Some(spelling)) => Some(SourceLocation {
                expansion: spelling,
                spelling: None,
            }),
            (None, None) => None,
        });
    }
    let bare = RawBare {
        offset: raw.offset,
        file: raw.file,
        line: raw.line,
        col: raw.col,
        tok_len: raw.tok_len,
    };
    Ok(resolve(&bare).map(|expansion| SourceLocation {
        expansion,
        spelling: None,
    }))
}

impl<'de> Deserialize<'de> for SourceRange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            #[serde(default, deserialize_with = "deserialize_loc")]
            begin: Option<SourceLocation>,
            #[serde(default, deserialize_with = "deserialize_loc")]
            end: Option<SourceLocation>,
        }
        let r = Raw::deserialize(d)?;
        Ok(SourceRange {
            begin: r.begin,
            end: r.end,
        })
    }
}
