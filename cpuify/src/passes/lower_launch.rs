//! `lower-launch`: a per-thread kernel becomes a launch-form function.
//!
//! ```text
//! kernel @k(params) { body; return }
//! ```
//! becomes
//! ```text
//! launch @k(params) {
//!   parallel<grid> (%bx, %by, %bz) in (grid_dim x, y, z) {
//!     %s = alloca<shared> T            ; one per static __shared__ global used
//!     parallel<block> (%tx, %ty, %tz) in (block_dim x, y, z) { body; yield }
//!     yield
//!   }
//!   return
//! }
//! ```
//! `thread_id`/`block_id` reads become the loop ivs, `lane_id` becomes the
//! linear thread id mod 32, and `global.addr` of a shared global becomes the
//! block's alloca. Device calls must have been inlined first: a callee could
//! read thread ids, which launch form does not allow outside the loops.

use crate::error::CpuifyError;
use cucc_ir::edit::{remove_op, replace_uses_map};
use cucc_ir::{
    ArithFlags, BinOp, Builder, Callee, Dim, FuncId, FunctionKind, GlobalId, Level, Module, OpKind,
    Space, Value,
};
use std::collections::HashMap;

/// Rewrites kernel `fid` into launch form. Other kinds are left alone.
pub fn lower_launch(module: &mut Module, fid: FuncId) -> Result<(), CpuifyError> {
    let func = &module.functions[fid];
    if func.kind != FunctionKind::Kernel {
        return Ok(());
    }
    let name = func.name.clone();

    // Check first, so an error leaves the function untouched.
    let mut shared: Vec<GlobalId> = Vec::new();
    for (_, op) in func.walk() {
        let data = &func.ops[op];
        match &data.kind {
            OpKind::Call(Callee::Func(callee)) => {
                let callee = module
                    .functions
                    .try_get(*callee)
                    .map_or("<invalid>", |f| f.name.as_str());
                return Err(CpuifyError::new(
                    module,
                    data.loc,
                    &name,
                    format!(
                        "call to device function `{callee}` must be inlined before lower-launch"
                    ),
                ));
            }
            OpKind::Parallel { .. } => {
                return Err(CpuifyError::new(
                    module,
                    data.loc,
                    &name,
                    "a per-thread kernel cannot contain `parallel`",
                ));
            }
            OpKind::GlobalAddr(g)
                if module
                    .globals
                    .try_get(*g)
                    .is_some_and(|gd| gd.space == Space::Shared)
                    && !shared.contains(g) =>
            {
                shared.push(*g);
            }
            _ => {}
        }
    }
    let body = func.body;
    let last = func.regions[body].ops.last().copied();
    let ret_ok = last
        .is_some_and(|op| func.ops[op].kind == OpKind::Return && func.ops[op].operands.is_empty());
    if !ret_ok {
        return Err(CpuifyError::new(
            module,
            func.loc,
            &name,
            "kernel body must end in `return` with no values",
        ));
    }

    let shared_types: Vec<_> = shared.iter().map(|&g| module.globals[g].ty).collect();
    let shared_names: Vec<String> = shared
        .iter()
        .map(|&g| module.globals[g].name.clone())
        .collect();
    let func = &mut module.functions[fid];
    let loc = func.loc;
    let mut old_ops = std::mem::take(&mut func.regions[body].ops);
    old_ops.pop(); // the return

    let mut b = Builder::new(&mut module.types, func);
    b.set_loc(loc);
    let grid: Vec<Value> = Dim::ALL.iter().map(|&d| b.grid_dim(d)).collect();
    let block: Vec<Value> = Dim::ALL.iter().map(|&d| b.block_dim(d)).collect();
    let (_, grid_region) = b.create_parallel(Level::Grid, &grid);
    b.ret(vec![]);

    b.set_insertion_end(grid_region);
    let bids = b.func.regions[grid_region].args.clone();
    for (v, n) in bids.iter().zip(["bx", "by", "bz"]) {
        b.name(*v, n);
    }
    let mut shared_addr: HashMap<GlobalId, Value> = HashMap::new();
    for (&g, &ty) in shared.iter().zip(&shared_types) {
        let a = b.alloca(Space::Shared, ty);
        // The variable's source name, which checked builds report (not the
        // PTX frontend's one block of all shared variables).
        let name = &shared_names[shared_addr.len()];
        if !name.starts_with("__cucc") {
            b.name(a, &shared_var_name(name));
        }
        shared_addr.insert(g, a);
    }
    let (_, block_region) = b.create_parallel(Level::Block, &block);
    b.yield_(vec![]);

    b.set_insertion_end(block_region);
    let tids = b.func.regions[block_region].args.clone();
    for (v, n) in tids.iter().zip(["tx", "ty", "tz"]) {
        b.name(*v, n);
    }
    let uses_lane = old_ops
        .iter()
        .any(|&op| uses_op(b.func, op, &|k| matches!(k, OpKind::LaneId)));
    let lane = if uses_lane {
        // linear = tx + bdx * (ty + bdy * tz); lane = linear & 31. Each
        // step is below the block's thread count (at most 1024): `nsw`.
        let nsw = ArithFlags::NSW;
        let inner = b.binary_flags(BinOp::Mul, nsw, block[1], tids[2]);
        let inner = b.binary_flags(BinOp::Add, nsw, tids[1], inner);
        let outer = b.binary_flags(BinOp::Mul, nsw, block[0], inner);
        let linear = b.binary_flags(BinOp::Add, nsw, tids[0], outer);
        let mask = b.i32(31);
        let lane = b.binary(BinOp::And, linear, mask);
        b.name(lane, "lane");
        Some(lane)
    } else {
        None
    };
    let func = b.func;
    func.regions[block_region].ops.extend(old_ops);
    let yield_op = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[block_region].ops.push(yield_op);

    // Replace id reads and shared addresses inside the block loop.
    let mut map = HashMap::new();
    let mut dead = Vec::new();
    let mut walk = Vec::new();
    func.walk_region(block_region, &mut walk);
    for (region, op) in walk {
        let data = &func.ops[op];
        let replacement = match &data.kind {
            OpKind::ThreadId(d) => Some(tids[d.index()]),
            OpKind::BlockId(d) => Some(bids[d.index()]),
            OpKind::LaneId => lane,
            OpKind::GlobalAddr(g) => shared_addr.get(g).copied(),
            _ => None,
        };
        if let Some(r) = replacement {
            map.insert(data.results[0], r);
            dead.push((region, op));
        }
    }
    replace_uses_map(func, &map);
    for (region, op) in dead {
        remove_op(func, region, op);
    }
    func.kind = FunctionKind::Launch;
    Ok(())
}

/// True if `op` or anything nested in it has a kind matching `pred`.
fn uses_op(func: &cucc_ir::Function, op: cucc_ir::Op, pred: &dyn Fn(&OpKind) -> bool) -> bool {
    if pred(&func.ops[op].kind) {
        return true;
    }
    func.ops[op]
        .regions
        .iter()
        .any(|&r| func.regions[r].ops.iter().any(|&o| uses_op(func, o, pred)))
}

/// The source name of a shared variable: a function-local `__shared__`
/// array is a global named `_ZZ<function>E<len><name>` (Itanium's local
/// entity), of which only `<name>` is kept.
fn shared_var_name(global: &str) -> String {
    if let Some(rest) = global.strip_prefix("_ZZ") {
        if let Some(e) = rest.rfind('E') {
            let tail = &rest[e + 1..];
            let digits = tail.chars().take_while(char::is_ascii_digit).count();
            if let Ok(len) = tail[..digits].parse::<usize>() {
                if let Some(name) = tail.get(digits..digits + len) {
                    if !name.is_empty() {
                        return name.to_string();
                    }
                }
            }
        }
    }
    global.to_string()
}

#[cfg(test)]
mod shared_name_tests {
    use super::shared_var_name;

    #[test]
    fn local_shared_arrays_keep_their_source_name() {
        assert_eq!(shared_var_name("_ZZ12shifted_tilePKfPfE4tile"), "tile");
        assert_eq!(shared_var_name("tile"), "tile");
        assert_eq!(shared_var_name("_ZZbadE99x"), "_ZZbadE99x");
    }
}
