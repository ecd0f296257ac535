//! cucc's CUDA frontend.
//!
//! The frontend runs clang in CUDA device mode ([`clang`]) with cucc's own
//! CUDA headers (`frontend/include`, see [`clang::include_dir`]), reads the
//! JSON AST clang writes ([`ast`]), and (later) lowers kernels and device
//! functions to `cucc-ir`. `docs/frontend.md` documents the headers'
//! conventions: how built-in variables and intrinsics appear in the AST so
//! the lowering can recognise them by name.

#![deny(missing_docs)]
#![warn(clippy::print_stdout, clippy::dbg_macro, clippy::todo)]

pub mod ast;
pub mod clang;
pub mod cuda;
pub mod error;
pub use cucc_ptx as ptx;

pub use error::{FrontendError, Result};

use std::path::Path;

/// Runs clang (found by [`clang::Clang::discover`]) on the CUDA file
/// `source` in device mode and reads its AST, keeping the main file's
/// declarations and those of cucc's headers.
pub fn read_cuda(source: &Path, opts: &clang::ClangOptions) -> Result<ast::TranslationUnit> {
    let clang = clang::Clang::discover()?;
    let out = clang.ast_json(source, opts)?;
    let read_opts = ast::ReadOptions {
        main_file: source.display().to_string(),
        keep_dirs: vec![clang::include_dir().display().to_string()],
        keep_device_decls: false,
    };
    ast::TranslationUnit::read(out.stdout, &read_opts)
}
