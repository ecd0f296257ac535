//! What the passes' entry points share: the module taken apart into its
//! types and the function a pass rewrites, the check of the form a pass
//! works on, and the walks that find the ops it rewrites.
//!
//! Every pass has the same signature (the pipeline calls them alike), so
//! these few steps were written again at the top of each.

use crate::error::CpuifyError;
use cucc_ir::{FuncId, Function, FunctionKind, Level, Module, Op, OpData, OpKind, Region, Types};

/// What a pass returns: how many places it changed, or why it failed.
pub type Changed = Result<usize, CpuifyError>;

/// The module's types and its function `fid`, borrowed apart: a pass builds
/// new ops (which may make new types) while it reads and edits the function.
pub fn parts(module: &mut Module, fid: FuncId) -> (&mut Types, &mut Function) {
    let Module {
        types, functions, ..
    } = module;
    (types, &mut functions[fid])
}

/// [`parts`] for a function in launch form, the form the thread-loop passes
/// rewrite; `None` for the others, which they leave alone.
pub fn launch_parts(module: &mut Module, fid: FuncId) -> Option<(&mut Types, &mut Function)> {
    let launch = is_launch(module, fid);
    let (types, func) = parts(module, fid);
    launch.then_some((types, func))
}

/// True if function `fid` is in launch form, the form the thread-loop
/// passes rewrite (they leave the others alone).
pub fn is_launch(module: &Module, fid: FuncId) -> bool {
    module.functions[fid].kind == FunctionKind::Launch
}

/// True if function `fid` is a kernel or a launch: the forms whose block
/// barriers and thread loops the barrier passes read.
pub fn has_threads(module: &Module, fid: FuncId) -> bool {
    matches!(
        module.functions[fid].kind,
        FunctionKind::Kernel | FunctionKind::Launch
    )
}

/// The ops of `func` that `keep` accepts, with the region holding each, in
/// the order of [`Function::walk`] (a parent before what it holds).
pub fn ops_where(func: &Function, keep: impl Fn(&OpData) -> bool) -> Vec<(Region, Op)> {
    func.walk()
        .into_iter()
        .filter(|&(_, o)| keep(&func.ops[o]))
        .collect()
}

/// True for a block-level `parallel`: a thread loop.
pub fn is_thread_loop(data: &OpData) -> bool {
    data.kind
        == OpKind::Parallel {
            level: Level::Block,
        }
}

/// True if `op` or anything inside it synchronises threads.
pub fn synchronizes(func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    data.kind.is_synchronizing()
        || data
            .regions
            .iter()
            .any(|&r| func.regions[r].ops.iter().any(|&o| synchronizes(func, o)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cucc_ir::parse_module;

    fn module(src: &str) -> Module {
        match parse_module(src) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        }
    }

    const KERNEL: &str = "kernel @k(%n: i32) {
  %z = const 0 : i32
  %o = const 1 : i32
  for %i = %z to %n step %o {
    barrier block
    yield
  }
  return
}
";

    #[test]
    fn only_launches_are_taken_apart_for_launch_passes() {
        let mut m = module(KERNEL);
        let Some((fid, _)) = m.functions.iter().next() else {
            panic!("no function")
        };
        assert!(has_threads(&m, fid));
        assert!(launch_parts(&mut m, fid).is_none());
        let (_, func) = parts(&mut m, fid);
        assert_eq!(func.name, "k");
    }

    #[test]
    fn walks_find_loops_and_their_barriers() {
        let m = module(KERNEL);
        let Some((_, func)) = m.functions.iter().next() else {
            panic!("no function")
        };
        let loops = ops_where(func, |d| matches!(d.kind, OpKind::For { .. }));
        assert_eq!(loops.len(), 1);
        let (region, op) = loops[0];
        assert_eq!(region, func.body);
        assert!(synchronizes(func, op));
        assert!(ops_where(func, is_thread_loop).is_empty());
        let consts = ops_where(func, |d| matches!(d.kind, OpKind::Const { .. }));
        assert!(consts.iter().all(|&(_, c)| !synchronizes(func, c)));
    }
}
