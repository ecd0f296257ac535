//! The Rodinia-derived suite: each application exists as a CUDA program
//! (built with `cucc`) and an OpenMP twin (built with the system compiler);
//! the harness builds both, runs them with the same thread count, checks
//! that their result files agree and reports both timings. `external`
//! does the same for a real Rodinia checkout, through its own Makefiles.
#![deny(missing_docs)]

pub mod apps;
pub mod cli;
pub mod compare;
pub mod external;
pub mod report;
pub mod runner;
pub mod stats;
