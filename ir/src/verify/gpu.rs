//! Shapes of the GPU ops: ids and dimensions, barriers, warp collectives,
//! textures, clocks, `printf` and `trap`.
//!
//! Where these ops may appear is checked by `placement`.

use super::ops::{Class, Shape};
use crate::module::GlobalKind;
use crate::ops::{BarrierReduceKind, BarrierScope, OpKind, TexKind, VoteKind};
use crate::types::{FloatKind, Type};

/// Checks a GPU op (or `printf`/`trap`).
pub(super) fn check(s: &mut Shape<'_, '_>) {
    let kind = &s.data.kind;
    if let OpKind::TexRef(g) = kind {
        let global = &s.cx.module.globals[*g];
        if !matches!(global.kind, GlobalKind::Texture { .. }) {
            let m = format!("@{} is not a texture reference", global.name);
            s.err(m);
        }
    }
    if !s.counts() {
        return;
    }
    match kind {
        OpKind::ThreadId(_)
        | OpKind::BlockId(_)
        | OpKind::BlockDim(_)
        | OpKind::GridDim(_)
        | OpKind::LaneId
        | OpKind::WarpSize
        | OpKind::ActiveMask
        | OpKind::Clock { wide: false } => {
            s.result_is(0, Class::I32);
        }
        OpKind::Clock { wide: true } | OpKind::TexRef(_) => {
            s.result_is(0, Class::I64);
        }
        OpKind::Barrier(BarrierScope::Warp) => {
            s.operand_is(0, "mask", Class::I32);
        }
        OpKind::AllocDistinct => {
            for i in 0..s.operand_types(0).len() {
                s.operand_is(i, "pointer", Class::Ptr);
            }
            s.result_is(0, Class::I1);
        }
        OpKind::BarrierReduce(kind) => {
            s.operand_is(0, "pred", Class::I1);
            let want = match kind {
                BarrierReduceKind::Count => Class::I32,
                BarrierReduceKind::And | BarrierReduceKind::Or => Class::I1,
            };
            s.result_is(0, want);
        }
        OpKind::Shuffle(_) => {
            s.operand_is(0, "mask", Class::I32);
            s.operand_is(1, "value", Class::Word);
            s.operand_is(2, "lane", Class::I32);
            s.operand_is(3, "width", Class::I32);
            let ty = s.operand(1);
            s.result_eq(0, ty, "the type of operand 1");
        }
        OpKind::Vote(kind) => {
            s.operand_is(0, "mask", Class::I32);
            s.operand_is(1, "pred", Class::I1);
            let want = match kind {
                VoteKind::Ballot => Class::I32,
                VoteKind::Any | VoteKind::All => Class::I1,
            };
            s.result_is(0, want);
        }
        OpKind::TexFetch(kind) => {
            s.operand_is(0, "handle", Class::I64);
            let class = match kind {
                TexKind::Fetch1D | TexKind::Fetch1DLane => Class::I32,
                _ => Class::Is(Type::Float(FloatKind::F32)),
            };
            for i in 1..=kind.coords() {
                s.operand_is(i, "coordinate", class.clone());
            }
            if s.result_is(0, Class::IntOrFloat) {
                let ty = s.result(0);
                for i in 1..s.data.results.len() {
                    s.result_eq(i, ty, "the type of result 0");
                }
            }
        }
        // Block barriers, printf and trap have no typed operands or results.
        _ => {}
    }
}
