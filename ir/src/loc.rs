//! Source locations carried by every op, for diagnostics and remarks.

/// A position in a source file of the module (`.cu` or `.ptx`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    /// Index into [`Module::files`](crate::Module::files).
    pub file: u32,
    /// 1-based line; 0 when unknown.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub col: u32,
}

impl Loc {
    /// No location.
    pub const UNKNOWN: Loc = Loc {
        file: 0,
        line: 0,
        col: 0,
    };

    /// A location in file `file` (an index into the module's file table).
    pub fn new(file: u32, line: u32, col: u32) -> Loc {
        Loc { file, line, col }
    }

    /// True if the location says nothing.
    pub fn is_unknown(self) -> bool {
        self.line == 0
    }
}
