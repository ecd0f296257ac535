//! The frontend's error type.

use std::path::PathBuf;

/// Everything that can go wrong before lowering starts: finding and running
/// clang, and reading its JSON AST.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// No usable clang was found.
    #[error(
        "no usable clang (version 16 or newer) found; tried: {tried}. \
         Install it with `apt-get install clang-16` (Debian/Ubuntu) or point \
         CUCC_CLANG at a clang binary"
    )]
    ClangNotFound {
        /// The candidates tried, with why each was rejected.
        tried: String,
    },
    /// `CUCC_CLANG` names something that is not a clang of a usable version.
    #[error("CUCC_CLANG={path}: {reason}")]
    BadClangOverride {
        /// The value of `CUCC_CLANG`.
        path: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// clang could not be started.
    #[error("cannot run {clang}: {source}")]
    Spawn {
        /// The clang binary.
        clang: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// clang ran and reported errors; `stderr` holds its diagnostics verbatim.
    #[error("{stderr}")]
    ClangFailed {
        /// The clang binary.
        clang: PathBuf,
        /// clang's exit status, if it exited normally.
        status: Option<i32>,
        /// clang's diagnostics, verbatim.
        stderr: String,
    },
    /// The include directory with cucc's CUDA headers does not exist.
    #[error(
        "cucc's CUDA include directory {0} does not exist (set CUCC_INCLUDE_DIR to the \
         directory holding cuda_runtime.h)"
    )]
    IncludeDirMissing(PathBuf),
    /// The JSON AST is malformed (or not what clang 16 writes).
    #[error("reading clang's JSON AST at byte {offset}: {message}")]
    Json {
        /// Byte offset into the JSON text.
        offset: usize,
        /// What was wrong.
        message: String,
    },
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, FrontendError>;
