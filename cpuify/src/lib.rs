//! cucc's GPU-to-CPU translation: passes that turn a per-thread kernel into
//! launch form with its barriers removed, and the C emitter.
//!
//! The pipeline (see [`pipeline`]) is a list of named passes, each a module
//! of [`passes`], each switchable for ablations. `emit_c` turns the result
//! into C that runs a range of blocks on one CPU thread.

pub mod abi;
pub mod emit_c;
pub mod error;
pub mod passes;
pub mod pipeline;
pub mod progress;
pub mod remarks;

pub use error::CpuifyError;
