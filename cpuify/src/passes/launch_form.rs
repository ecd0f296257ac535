//! Reaching the thread loops of a function in launch form.
//!
//! The passes after `lower-launch` work on the explicit `parallel` loops of
//! launch-form functions and leave device functions alone; these helpers
//! give them the function (split from the module's types, which they build
//! with) and its loops of one level.

use cucc_ir::{FuncId, Function, FunctionKind, Level, Module, Op, OpKind, Region, Types};

/// The module's types and function `fid`, if it is in launch form.
pub(crate) fn launch_function(
    module: &mut Module,
    fid: FuncId,
) -> Option<(&mut Types, &mut Function)> {
    let Module {
        types, functions, ..
    } = module;
    let func = &mut functions[fid];
    (func.kind == FunctionKind::Launch).then_some((types, func))
}

/// The `parallel` loops of `level` in `func`, in walk order (outer loops
/// first), with the region holding each.
pub(crate) fn parallels(func: &Function, level: Level) -> Vec<(Region, Op)> {
    func.walk()
        .into_iter()
        .filter(|&(_, o)| func.ops[o].kind == OpKind::Parallel { level })
        .collect()
}
