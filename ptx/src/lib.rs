//! The PTX frontend: nvcc's PTX (the kernels of a fatbinary) to cucc IR.
//! Its own crate, so the runtime's JIT links it without the CUDA-source
//! frontend (clang and its AST reader).
//!
//! [`lower_ptx`] parses PTX text ([`parse`]), decoding each instruction
//! into the typed instruction set ([`inst`], [`decode`]), then lowers every
//! `.entry` and the `.func`s it calls ([`lower`]) to the same per-thread
//! kernel form the CUDA frontend produces, so the cpuify passes and the C
//! emitter apply unchanged. PTX's unstructured control flow (labels and
//! predicated branches) is made structured by [`structure`]; registers live
//! in private allocas that cpuify's `mem2reg` promotes. `docs/ptx.md`
//! describes the conventions and the structuring algorithm.

#![deny(missing_docs)]
#![warn(clippy::print_stdout, clippy::dbg_macro, clippy::todo)]

pub mod ast;
pub mod decode;
pub mod inst;
pub mod lex;
pub mod link;
pub mod lower;
pub mod parse;
pub mod structure;

use std::fmt;

/// A PTX frontend error: where (`file:line:col`) and what. Unsupported
/// instructions and directives name the construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxError {
    /// The file name given to [`lower_ptx`].
    pub file: String,
    /// 1-based line (0 when the error concerns the whole file).
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for PtxError {}

/// A position in the PTX text (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Line.
    pub line: u32,
    /// Column.
    pub col: u32,
}

/// An error without the file name; [`lower_ptx`] adds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where.
    pub pos: Pos,
    /// What.
    pub message: String,
}

impl Error {
    /// An error at `pos`.
    pub fn new(pos: Pos, message: impl Into<String>) -> Error {
        Error {
            pos,
            message: message.into(),
        }
    }

    fn with_file(self, file: &str) -> PtxError {
        PtxError {
            file: file.to_string(),
            line: self.pos.line,
            col: self.pos.col,
            message: self.message,
        }
    }
}

/// Result of the frontend's internal steps.
pub type Result<T> = std::result::Result<T, Error>;

/// Parses PTX text and lowers every `.entry` (and the `.func`s it calls) to IR.
///
/// Each entry becomes a `kernel` function named as in the PTX (the mangled
/// name nvcc registers), with its parameters in PTX order; module variables
/// keep their PTX names. `file` names the text in errors and locations.
pub fn lower_ptx(source: &str, file: &str) -> std::result::Result<cucc_ir::Module, PtxError> {
    let module = parse::parse(source).map_err(|e| e.with_file(file))?;
    lower::lower_module(&module, file).map_err(|e| e.with_file(file))
}
