//! Strength reduction of addresses (switch `strength-reduce`): an access
//! whose byte offset grows by a constant stride each iteration of its loop
//! walks a pointer register, set up before the loop and bumped by an
//! `addi` at the end of each iteration, instead of recomputing
//! `base + i·stride` with `mul`s at the access. A loop whose iteration
//! number then serves no address counts down to zero, so its control is one
//! `addi` and a `bnez` (Fig. 3.1's baseline DDOT loop). `materialize`
//! applies it; this module decides which accesses qualify and groups them.
//!
//! Only accesses directly in the loop body are walked (those of nested
//! loops and stream regions keep the reference shape), and only when the
//! stride fits an `addi` immediate; a stride that is a parameter
//! (`i·p`) is left alone.

use super::lir::{Access, Node, Var, XV};

/// The stride in bytes of `at` per iteration of loop `l`, when the access
/// can walk a pointer through it.
pub fn stride(at: &Access, l: u32) -> Option<i32> {
    let mut stride = None;
    for &(v, c) in &at.offset.terms {
        match v {
            Var::Loop(m) if m == l => stride = Some(c),
            Var::LoopParam(m, _) if m == l => return None,
            _ => {}
        }
    }
    stride
        .filter(|c| (-2048..=2047).contains(c))
        .map(|c| c as i32)
}

/// The nodes of a loop body that walk pointers: its own loads and stores
/// with a [`stride`] in that loop. Gives the access, the stride and the
/// element size.
pub fn walked(n: &Node, l: u32) -> Option<(Access, i32, i64)> {
    let (at, fmt) = match n {
        Node::Load { at, fmt, .. } | Node::Store { at, fmt, .. } => (at, fmt),
        _ => return None,
    };
    stride(at, l).map(|s| (at.clone(), s, i64::from(fmt.bytes())))
}

/// A pointer register shared by the accesses of one buffer whose offsets
/// differ by a constant that fits a load's immediate.
#[derive(Clone, Debug)]
pub struct Walk {
    /// The buffer.
    pub buf: usize,
    /// The offset's terms (the loop's included).
    pub terms: Vec<(Var, i64)>,
    /// The byte constant the pointer includes.
    pub base: i64,
    /// The pointer.
    pub ptr: XV,
    /// Bytes added per iteration.
    pub stride: i32,
}

impl Walk {
    /// The immediate offset of `at` from this walk's pointer, if `at`
    /// can use it.
    pub fn offset_of(&self, at: &Access) -> Option<i32> {
        if at.buf != self.buf || at.offset.terms != self.terms {
            return None;
        }
        let d = at.offset.constant.checked_sub(self.base)?;
        (-2048..=2047).contains(&d).then_some(d as i32)
    }
}
