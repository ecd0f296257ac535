//! Where parallel loops, shared allocas, barriers and warp collectives may
//! appear, which depends on the function kind and the enclosing parallels.
//!
//! In kernel and device functions the grid, block and warp are implicit, so
//! every barrier is fine and explicit `parallel` ops are not. In launch
//! functions each synchronising op needs the parallel it binds to.

use super::FuncCx;
use crate::func::{FunctionKind, Op};
use crate::ops::{Level, OpKind};
use crate::types::Space;

/// Checks the placement of every reachable op.
pub(super) fn check(cx: &mut FuncCx<'_>) {
    let launch = cx.func.kind == FunctionKind::Launch;
    for i in 0..cx.layout.order.len() {
        let op = cx.layout.order[i];
        if launch {
            in_launch(cx, op);
        } else {
            in_kernel(cx, op);
        }
    }
}

/// Kernel and device functions: no explicit parallels, no shared allocas.
fn in_kernel(cx: &mut FuncCx<'_>, op: Op) {
    let kind = cx.func.kind.name();
    match &cx.func.ops[op].kind {
        OpKind::Parallel { .. } => cx.op_error(
            op,
            format!("parallel ops are only allowed in launch functions, not in a {kind} function"),
        ),
        OpKind::Alloca {
            space: Space::Shared,
            ..
        } => cx.op_error(
            op,
            format!(
                "shared allocas are only allowed in launch functions, not in a {kind} function"
            ),
        ),
        _ => {}
    }
}

/// The levels of the parallels enclosing `op`, innermost first.
fn enclosing_levels(cx: &FuncCx<'_>, op: Op) -> Vec<Level> {
    cx.layout
        .ancestors(op)
        .filter_map(|a| match cx.func.ops[a].kind {
            OpKind::Parallel { level } => Some(level),
            _ => None,
        })
        .collect()
}

/// Launch functions: parallels nest grid > block | warp > lane, and each
/// synchronising op sits inside the parallel it binds to.
fn in_launch(cx: &mut FuncCx<'_>, op: Op) {
    let func = cx.func;
    let kind = &func.ops[op].kind;
    let needs_placement = matches!(
        kind,
        OpKind::Parallel { .. }
            | OpKind::Alloca {
                space: Space::Shared,
                ..
            }
            | OpKind::Barrier(_)
            | OpKind::BarrierReduce(_)
            | OpKind::Shuffle(_)
            | OpKind::Vote(_)
            | OpKind::ActiveMask
    );
    let levels = if needs_placement {
        enclosing_levels(cx, op)
    } else {
        Vec::new()
    };
    let has = |l: Level| levels.contains(&l);
    let thread_level = levels
        .iter()
        .copied()
        .find(|l| matches!(l, Level::Block | Level::Warp | Level::Lane));
    let message = match kind {
        OpKind::Parallel { level: Level::Grid } => levels.first().map(|l| {
            format!(
                "a grid parallel cannot be nested in another parallel (found inside a {} parallel)",
                l.name()
            )
        }),
        OpKind::Parallel {
            level: level @ (Level::Block | Level::Warp),
        } => {
            if let Some(inner) = thread_level {
                Some(format!(
                    "a {} parallel cannot be nested in a {} parallel",
                    level.name(),
                    inner.name()
                ))
            } else if !has(Level::Grid) {
                Some(format!(
                    "a {} parallel must be inside a grid parallel",
                    level.name()
                ))
            } else {
                None
            }
        }
        OpKind::Parallel { level: Level::Lane } => match levels.first() {
            Some(Level::Warp) => None,
            Some(l) => Some(format!(
                "a lane parallel must be directly inside a warp parallel, found inside a {} parallel",
                l.name()
            )),
            None => Some("a lane parallel must be directly inside a warp parallel".into()),
        },
        OpKind::Alloca {
            space: Space::Shared,
            ..
        } => {
            if let Some(inner) = thread_level {
                Some(format!(
                    "a shared alloca must be outside any block, warp or lane parallel, found \
                     inside a {} parallel",
                    inner.name()
                ))
            } else if !has(Level::Grid) {
                Some("a shared alloca must be inside a grid parallel (one instance per block)".into())
            } else {
                None
            }
        }
        k if k.is_block_barrier() => (!has(Level::Block) && !has(Level::Warp))
            .then(|| "a block barrier must be inside a block or warp parallel".to_string()),
        k if k.is_warp_collective() || *k == OpKind::ActiveMask => (!has(Level::Lane)
            && !has(Level::Block))
        .then(|| {
            "a warp-level op must be inside a lane parallel (or a block parallel, binding to \
             its implicit warps)"
                .to_string()
        }),
        OpKind::ThreadId(_) | OpKind::BlockId(_) | OpKind::LaneId => Some(format!(
            "{} is not allowed in launch functions; read the ivs of the enclosing parallels",
            kind.mnemonic()
        )),
        _ => None,
    };
    if let Some(m) = message {
        cx.op_error(op, m);
    }
}
