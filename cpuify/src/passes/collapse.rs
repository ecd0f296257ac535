//! `collapse`: a launch whose blocks are independent, barrier-free thread
//! loops becomes one flat loop over the launch's global linear thread ids.
//!
//! ```text
//! parallel<grid> (%bx, %by, %bz) in (%gx, %gy, %gz) {
//!   uniform pure ops
//!   parallel<block> (%tx, %ty, %tz) in (%bdx, %bdy, %bdz) { body; yield }
//!   yield
//! }
//! ```
//! becomes
//! ```text
//! %nt = mul (mul %bdx, %bdy), %bdz        ; threads per block
//! %nb = mul (mul %gx, %gy), %gz           ; blocks
//! parallel<grid> (%t, %b) in (%nt, %nb) {  ; t + nt*b = global linear id
//!   %tx = urem %t, %bdx ; %q = udiv %t, %bdx ; %ty = urem %q, %bdy ; %tz = udiv %q, %bdy
//!   %bx = urem %b, %gx  ; %r = udiv %b, %gx  ; %by = urem %r, %gy  ; %bz = udiv %r, %gy
//!   uniform pure ops; body; yield
//! }
//! ```
//! A two-dimensional grid parallel numbers its iterations x fastest, so
//! iteration `(t, b)` is global thread `t + nt*b`: the order of a grid of
//! blocks of threads, with no bound wider than 32 bits. The C emitter
//! recognises this shape (`emit_c`, [`collapsed_shape`]) and gives the entry
//! ranges of global thread ids, which the runtime cuts at thread
//! granularity (`docs/abi.md`, "Thread ranges").
//!
//! It applies only where nothing binds threads of one block together: no
//! shared allocas or dynamic shared memory, no barriers, shuffles, votes or
//! `activemask`, a single thread loop (a block loop; warp x lane loops exist
//! only for warp collectives) that reads only its x thread id (2-D and 3-D
//! blocks keep their shape for `clamp-guards`), and nothing but pure ops (and the non-volatile
//! loads `parallel-licm` hoisted) outside it. It runs before `clamp-guards`
//! and `serialize-inner`, which reshape the thread loop; the collapsed loop
//! carries no `ivdep`, and its guard is tested by every thread.

use crate::error::CpuifyError;
use crate::remarks::Remarks;
use cucc_ir::edit::replace_uses_in_region;
use cucc_ir::{
    BinOp, Builder, Dim, FuncId, Function, FunctionKind, Level, Module, Op, OpKind, Space, Value,
};
use std::collections::HashMap;

/// Collapses launch function `fid` if it qualifies (see the module docs);
/// returns whether it did. A refusal is a remark saying why.
pub fn collapse(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
) -> Result<bool, CpuifyError> {
    let func = &module.functions[fid];
    if func.kind != FunctionKind::Launch {
        return Ok(false);
    }
    let (grid_op, block_op) = match check(module, func) {
        Ok(ops) => ops,
        Err(why) => {
            let (name, loc) = (func.name.clone(), func.loc);
            remarks.add("collapse", &name, loc, format!("not collapsed: {why}"));
            return Ok(false);
        }
    };
    let name = func.name.clone();
    let loc = func.ops[grid_op].loc;
    let func = &mut module.functions[fid];
    let body = func.body;
    let at = func.regions[body]
        .ops
        .iter()
        .position(|&o| o == grid_op)
        .unwrap_or(0);
    let gdims = func.ops[grid_op].operands.clone();
    let bdims = func.ops[block_op].operands.clone();
    let grid_region = func.ops[grid_op].regions[0];
    let block_region = func.ops[block_op].regions[0];
    let old_bids = func.regions[grid_region].args.clone();
    let old_tids = func.regions[block_region].args.clone();
    let uniform: Vec<Op> = func.regions[grid_region]
        .ops
        .iter()
        .copied()
        .filter(|&o| o != block_op && func.ops[o].kind != OpKind::Yield)
        .collect();
    let thread_ops: Vec<Op> = func.regions[block_region]
        .ops
        .iter()
        .copied()
        .filter(|&o| func.ops[o].kind != OpKind::Yield)
        .collect();

    let mut b = Builder::new(&mut module.types, func);
    b.set_loc(loc);
    b.set_insertion_at(body, at);
    let nt = product(&mut b, &bdims);
    b.name(nt, "nthreads");
    let nb = product(&mut b, &gdims);
    b.name(nb, "nblocks");
    let (new_op, region) = b.create_parallel(Level::Grid, &[nt, nb]);
    b.set_insertion_end(region);
    let ivs = b.func.regions[region].args.clone();
    b.name(ivs[0], "t");
    b.name(ivs[1], "b");
    let tids = decompose(&mut b, ivs[0], &bdims, ["tx", "ty", "tz"]);
    let bids = decompose(&mut b, ivs[1], &gdims, ["bx", "by", "bz"]);
    let func = b.func;
    func.regions[region].ops.extend(uniform);
    func.regions[region].ops.extend(thread_ops);
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[region].ops.push(y);
    let mut map = HashMap::new();
    for (old, new) in old_bids.iter().zip(&bids).chain(old_tids.iter().zip(&tids)) {
        map.insert(*old, *new);
    }
    replace_uses_in_region(func, region, &map);
    func.regions[body].ops.retain(|&o| o != grid_op);
    debug_assert!(func.regions[body].ops.contains(&new_op));
    remarks.add(
        "collapse",
        &name,
        loc,
        "grid and block loops collapsed into one loop over global thread ids",
    );
    Ok(true)
}

/// `a * b * c` of three dimension values.
fn product(b: &mut Builder<'_>, dims: &[Value]) -> Value {
    let xy = b.binary(BinOp::Mul, dims[0], dims[1]);
    b.binary(BinOp::Mul, xy, dims[2])
}

/// The (x, y, z) of linear id `l` in extents `dims` (x fastest).
fn decompose(b: &mut Builder<'_>, l: Value, dims: &[Value], names: [&str; 3]) -> [Value; 3] {
    let x = b.binary(BinOp::URem, l, dims[0]);
    let q = b.binary(BinOp::UDiv, l, dims[0]);
    let y = b.binary(BinOp::URem, q, dims[1]);
    let z = b.binary(BinOp::UDiv, q, dims[1]);
    for (v, n) in [x, y, z].into_iter().zip(names) {
        b.name(v, n);
    }
    [x, y, z]
}

/// The grid op and its single block op if `func` qualifies, else why not.
fn check(module: &Module, func: &Function) -> Result<(Op, Op), String> {
    let mut grid = None;
    for &op in &func.regions[func.body].ops {
        let kind = &func.ops[op].kind;
        match kind {
            OpKind::Parallel { level: Level::Grid } if grid.is_none() => grid = Some(op),
            OpKind::Parallel { .. } => return Err("more than one grid loop".into()),
            OpKind::Return => {}
            k if k.is_pure() && *k != OpKind::DynamicShared => {}
            k => return Err(format!("`{}` outside the grid loop", k.mnemonic())),
        }
    }
    let grid = grid.ok_or("no grid loop")?;
    if !is_dims(func, &func.ops[grid].operands, |k| {
        matches!(k, OpKind::GridDim(_))
    }) {
        return Err("the grid loop does not run over the launch's grid".into());
    }
    let grid_region = func.ops[grid].regions[0];
    let mut block = None;
    for &op in &func.regions[grid_region].ops {
        match &func.ops[op].kind {
            OpKind::Parallel {
                level: Level::Block,
            } if block.is_none() => block = Some(op),
            OpKind::Parallel {
                level: Level::Block,
            } => return Err("more than one thread loop per block (barrier phases)".into()),
            OpKind::Parallel { level } => {
                return Err(format!(
                    "a {} loop keeps the block's warp structure",
                    level.name()
                ))
            }
            OpKind::Alloca {
                space: Space::Shared,
                ..
            } => return Err("the block has shared memory".into()),
            OpKind::Yield => {}
            // Loads `parallel-licm` hoisted: no thread of the block writes
            // what they read, so each thread may read it again.
            OpKind::Load { volatile: false } => {}
            k if k.is_pure() && *k != OpKind::DynamicShared => {}
            k => return Err(format!("`{}` runs once per block", k.mnemonic())),
        }
    }
    let block = block.ok_or("no thread loop")?;
    if !is_dims(func, &func.ops[block].operands, |k| {
        matches!(k, OpKind::BlockDim(_))
    }) {
        return Err("the thread loop does not run over the launch's block".into());
    }
    // A kernel indexing its block in 2-D or 3-D keeps the block structure:
    // `clamp-guards` bounds each dimension of its guard (gaussian's `Fan2`,
    // whose active threads shrink to a corner), where a collapsed loop would
    // test the guard in every thread.
    let block_region = func.ops[block].regions[0];
    if func.regions[block_region].args[1..]
        .iter()
        .any(|&iv| used_in(func, block_region, iv))
    {
        return Err("the block is indexed in more than one dimension".into());
    }
    let mut inner = Vec::new();
    func.walk_region(block_region, &mut inner);
    for (_, op) in inner {
        let kind = &func.ops[op].kind;
        let why = match kind {
            OpKind::Barrier(_) | OpKind::BarrierReduce(_) => "a barrier",
            OpKind::Shuffle(_) | OpKind::Vote(_) | OpKind::ActiveMask => "a warp collective",
            OpKind::DynamicShared => "dynamic shared memory",
            OpKind::Alloca {
                space: Space::Shared,
                ..
            } => "shared memory",
            OpKind::GlobalAddr(g)
                if module
                    .globals
                    .try_get(*g)
                    .is_some_and(|gd| gd.space == Space::Shared) =>
            {
                "shared memory"
            }
            OpKind::Parallel { .. } => "a nested parallel loop",
            _ => continue,
        };
        return Err(format!("the thread loop has {why} (`{}`)", kind.mnemonic()));
    }
    Ok((grid, block))
}

/// True if an op in `region` (at any depth) reads `v`.
fn used_in(func: &Function, region: cucc_ir::Region, v: Value) -> bool {
    let mut ops = Vec::new();
    func.walk_region(region, &mut ops);
    ops.iter().any(|&(_, o)| func.ops[o].operands.contains(&v))
}

/// True if `vals` are three values defined by ops matching `want` in
/// dimension order x, y, z.
fn is_dims(func: &Function, vals: &[Value], want: impl Fn(&OpKind) -> bool) -> bool {
    vals.len() == 3
        && vals.iter().zip(Dim::ALL).all(|(&v, d)| {
            func.defining_op(v).is_some_and(|o| {
                let k = &func.ops[o].kind;
                want(k) && matches!(k, OpKind::GridDim(x) | OpKind::BlockDim(x) if *x == d)
            })
        })
}

/// The extents of a collapsed grid loop (`parallel<grid> (%t, %b) in (%nt,
/// %nb)` as [`collapse`] makes it): true if `op` is a grid parallel over
/// `block_dim x*y*z` threads per block and `grid_dim x*y*z` blocks.
pub fn collapsed_shape(func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    data.kind == (OpKind::Parallel { level: Level::Grid })
        && data.operands.len() == 2
        && is_product(func, data.operands[0], |k| matches!(k, OpKind::BlockDim(_)))
        && is_product(func, data.operands[1], |k| matches!(k, OpKind::GridDim(_)))
}

/// True if `v` is `mul (mul X, Y), Z` of the x, y and z dimension ops `want`.
fn is_product(func: &Function, v: Value, want: impl Fn(&OpKind) -> bool + Copy) -> bool {
    let mul = |v: Value| {
        func.defining_op(v).and_then(|o| {
            matches!(func.ops[o].kind, OpKind::Binary(BinOp::Mul, _))
                .then(|| (func.ops[o].operands[0], func.ops[o].operands[1]))
        })
    };
    let Some((xy, z)) = mul(v) else { return false };
    let Some((x, y)) = mul(xy) else { return false };
    is_dims(func, &[x, y, z], want)
}
