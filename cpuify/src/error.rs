//! Errors of the cpuify passes and the C emitter.

use cucc_ir::{Loc, Module};

/// A construct a pass or the emitter cannot handle, located in the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: in kernel `{function}`: {message}")]
pub struct CpuifyError {
    /// `file:line:col` of the construct, or `<unknown>`.
    pub location: String,
    /// The function being translated.
    pub function: String,
    /// What went wrong.
    pub message: String,
}

impl CpuifyError {
    /// An error at `loc` in `function`.
    pub fn new(module: &Module, loc: Loc, function: &str, message: impl Into<String>) -> Self {
        CpuifyError {
            location: module.describe_loc(loc),
            function: function.to_string(),
            message: message.into(),
        }
    }
}
