//! cucc's Snitch backend.
//!
//! Snitch is a small in-order RV32IMAFD core whose FP subsystem is fed by a
//! sequencer, so the integer core can run ahead of it; stream semantic
//! registers (SSRs) turn reads and writes of `ft0`–`ft2` into affine memory
//! streams, and FREP repeats a block of FP instructions without integer
//! loop control. This crate has the pieces a compiler targeting it stands on:
//!
//! - [`isa`]: the instruction set as typed data, with an encoder to 32-bit
//!   words and a decoder back (exact inverses of each other);
//! - [`asm`]: assembly text in the PULP/LLVM toolchain's syntax, printed and
//!   parsed;
//! - [`sim`]: a simulator that runs encoded programs from memory words, with
//!   a documented cycle model and the performance counters of the Ficarelli
//!   thesis' Table 3.1;
//! - [`stream`]: affine access patterns and the SSR configuration that
//!   makes a data mover walk them;
//! - [`compile`]: the compiler from cpuify's loop form to Snitch code
//!   (streams, scalar replacement, FREP, fill fusion, unroll-and-jam, f32
//!   packing, a spill-free register allocator).
//!
//! `docs/snitch.md` in the repository describes what is modelled and where
//! each model parameter comes from.

#![warn(clippy::print_stdout, clippy::dbg_macro, clippy::todo)]

pub mod asm;
pub mod compile;
pub mod isa;
pub mod sim;
pub mod stream;

#[cfg(test)]
mod testgen;
