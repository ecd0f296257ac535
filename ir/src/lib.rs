//! cucc's IR: a structured, SSA-based parallel IR for CUDA kernels.
//!
//! A [`Module`] holds interned [`types`], globals and functions. A function
//! body is a tree of single-block regions; control flow is structured (`if`,
//! `for`, `while`, `parallel`), values are SSA, and memory is explicit
//! (`alloca` in a memory space, `load`, `store`, address arithmetic). GPU
//! concepts are ops: thread and block ids, barriers, warp shuffles and
//! votes, texture fetches. A kernel is first written per thread
//! ([`FunctionKind::Kernel`]); `cpuify` rewrites it into launch form, where
//! the grid and block loops are explicit `parallel` ops.
//!
//! `docs/ir.md` in the repository documents the text format and the
//! semantics of every op.

#![deny(missing_docs)]
#![warn(clippy::print_stdout, clippy::dbg_macro, clippy::todo)]

pub mod affine;
pub mod arena;
pub mod builder;
pub mod edit;
pub mod effects;
pub mod float;
pub mod func;
pub mod interp;
pub mod intrinsics;
pub mod link;
pub mod loc;
pub mod lockstep;
pub mod module;
#[macro_use]
mod op_table;
pub mod ops;
pub mod roles;
mod splice;
pub mod text;
pub mod types;
pub mod verify;

pub use affine::{Affine, AffineAnalysis, Sym};
pub use arena::{Arena, Handle, SecondaryMap};
pub use builder::Builder;
pub use effects::{Base, CallSummaries, EffectKind, FunctionEffects, MemEffect};
pub use func::{
    Function, FunctionKind, Op, OpData, ParamAttrs, Parents, Region, RegionData, Value, ValueData,
    ValueDef,
};
pub use loc::Loc;
pub use module::{FuncId, Global, GlobalId, GlobalKind, Linkage, Module};
pub use ops::*;
pub use text::{parse_module, print_function, print_module, ParseError};
pub use types::{Field, FloatKind, Space, StructType, Type, TypeId, Types};
pub use verify::{verify_function, verify_module, VerifyError, VerifyErrors};
