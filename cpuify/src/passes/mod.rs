//! The cpuify passes, one module each.

pub mod inline;
pub mod lower_launch;

pub use inline::inline_calls;
pub use lower_launch::lower_launch;
