//! cucc's RACER backend.
//!
//! RACER (Rák's thesis, chapter 3) is a data-stream array processor with
//! no instruction fetch: a program is a stream graph placed on a 2-D array
//! of processing elements, fed by memory units that sort streams by tag.
//! No simulator of it was published, so every parameter of this model is
//! in a versioned description file with its source (`docs/racer.md`):
//!
//! - [`machine`]: the machine description and its parser;
//! - [`graph`]: the stream-graph IR, its verifier, printer and parser;
//! - [`sim`]: a cycle-level simulator of the half-speed handshake;
//! - [`lower`]: per-thread kernels (after cpuify's scalar passes) to
//!   stream graphs, with diagnostics for what a stream graph cannot do;
//! - [`muladd`]: multiplies feeding one add as the PE's multiply-add;
//! - [`offload`]: tag-only functions moved into the memory units;
//! - [`reassoc`]: integer addition chains as balanced trees;
//! - [`balance`] and [`place`]: route registers, placement on a block,
//!   replication over the array;
//! - [`run`]: buffers bound to memory-unit streams and results written
//!   back;
//! - [`life`]: the thesis' Game of Life graph;
//! - [`dump`]: text and SVG pictures of a placed graph;
//! - [`launch`]: one launch as a device runs it (prepare, replicate, run).

#![warn(clippy::print_stdout, clippy::dbg_macro, clippy::todo)]

pub mod balance;
pub mod dump;
#[cfg(test)]
mod figures;
pub mod graph;
pub mod launch;
pub mod life;
pub mod lower;
pub mod machine;
pub mod muladd;
pub mod offload;
pub mod place;
pub mod reassoc;
pub mod run;
pub mod sim;
