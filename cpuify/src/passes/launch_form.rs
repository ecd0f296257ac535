//! Reaching the thread loops of a function in launch form.
//!
//! The passes after `lower-launch` work on the explicit `parallel` loops of
//! launch-form functions and leave device functions alone; these helpers
//! give them the function (split from the module's types, which they build
//! with) and its loops of one level.

use cucc_ir::{Function, Level, Op, OpKind, Region};

/// The `parallel` loops of `level` in `func`, in walk order (outer loops
/// first), with the region holding each.
pub(crate) fn parallels(func: &Function, level: Level) -> Vec<(Region, Op)> {
    func.walk()
        .into_iter()
        .filter(|&(_, o)| func.ops[o].kind == OpKind::Parallel { level })
        .collect()
}

/// The grid loops standing directly in `func`'s body, in order: a launch
/// function's kernel invocations, which whole-grid passes visit one by one.
pub(crate) fn top_grids(func: &Function) -> Vec<Op> {
    func.regions[func.body]
        .ops
        .iter()
        .copied()
        .filter(|&o| func.ops[o].kind == OpKind::Parallel { level: Level::Grid })
        .collect()
}

/// Whether `op` is `leaf`, or an `if` whose ops (but the yields) all are,
/// looked through nested `if`s: what may run unguarded once its guard goes.
pub(crate) fn if_tree_all(func: &Function, op: Op, leaf: &dyn Fn(&Function, Op) -> bool) -> bool {
    let data = &func.ops[op];
    match data.kind {
        OpKind::If => data.regions.iter().all(|&r| {
            func.regions[r]
                .ops
                .iter()
                .all(|&o| func.ops[o].kind == OpKind::Yield || if_tree_all(func, o, leaf))
        }),
        _ => leaf(func, op),
    }
}
