//! The text format of the IR: a printer and a parser.
//!
//! Every pass's test is "this IR in, that IR out", and a bug report is an IR
//! file, so the text holds everything a [`Module`] holds: the file table,
//! struct layouts, globals with their initial bytes, functions with
//! parameter attributes, every op with all its attributes, value names and
//! source locations. `docs/ir.md` gives the grammar.
//!
//! ```text
//! file "vadd.cu"
//!
//! kernel @vadd(%a: ptr<global> noalias, %n: i32) {
//!   %tid = thread_id x : i32 loc(0:3:13)
//!   %c = cmp slt %tid, %n : i1
//!   if %c {
//!     yield
//!   } else {
//!     yield
//!   }
//!   return
//! }
//! ```
//!
//! For any module `m` whose ops have their documented shape,
//! `print_module(&parse_module(&print_module(m))?) == print_module(m)`, and
//! the parsed module has the same ops, attributes, types, names (up to
//! uniquing) and locations; only arena order may differ. The parser does
//! not type-check (the verifier does) but rejects what it cannot represent.

mod lexer;
mod literal;
mod parse;
mod parse_op;
mod print;

#[cfg(test)]
pub(crate) mod tests;

use crate::module::{FuncId, Module};
use std::fmt;

/// Why a text could not be parsed, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// 1-based line of the offending token.
    pub line: u32,
    /// 1-based column (in characters) of the offending token.
    pub col: u32,
    /// What was expected and what was found.
    pub message: String,
}

/// The text of a whole module.
pub fn print_module(module: &Module) -> String {
    let mut p = print::Printer::new(module);
    p.module();
    p.finish()
}

/// The text of one function of `module` (struct types and globals it uses
/// are not included).
pub fn print_function(module: &Module, func: FuncId) -> String {
    let mut p = print::Printer::new(module);
    p.function(func);
    p.finish()
}

/// Spells a type reference as the text format does (`$"a b"` for struct
/// names that need quotes, unlike [`crate::types::TypeDisplay`]).
pub fn print_type(module: &Module, ty: crate::types::TypeId) -> String {
    print::type_ref(&module.types, ty)
}

/// Parses a module. Never panics; every error names the position, what was
/// expected and what was found.
pub fn parse_module(src: &str) -> Result<Module, ParseError> {
    parse::parse(src)
}

/// Parses `src`, a module a test wrote: panics with the error and the text
/// if it does not parse.
#[cfg(test)]
pub(crate) fn parse_test_module(src: &str) -> Module {
    match parse_module(src) {
        Ok(m) => m,
        Err(e) => panic!("{e}\n{src}"),
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print_module(self))
    }
}
