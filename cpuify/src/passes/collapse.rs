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
//! loads `parallel-licm` hoisted) outside it. A thread loop holding a
//! serial loop `interchange` would move out (tried on a copy) keeps its
//! shape for that pass. It runs before `clamp-guards`
//! and `serialize-inner`, which reshape the thread loop; the collapsed loop
//! carries no `ivdep`, and its guard is tested by every thread.

use crate::error::CpuifyError;
use crate::remarks::Remarks;
use cucc_ir::edit::replace_uses_in_region;
use cucc_ir::{
    BinOp, Builder, CastOp, Dim, FuncId, Function, FunctionKind, Level, Module, Op, OpKind, Space,
    Value,
};
use std::collections::HashMap;

/// Collapses launch function `fid` if it qualifies (see the module docs);
/// returns whether it did. A refusal is a remark saying why.
///
/// `one_d` selects the form: `false` (pass `collapse`) takes launches that
/// index their threads in 2-D or 3-D, `true` (opt-in pass `collapse-1d`)
/// those indexing only x; each leaves the other kind alone.
pub fn collapse(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
    one_d: bool,
) -> Result<bool, CpuifyError> {
    let func = &module.functions[fid];
    if func.kind != FunctionKind::Launch {
        return Ok(false);
    }
    let already = func.regions[func.body]
        .ops
        .iter()
        .any(|&o| collapsed_shape(func, o) || nd_shape(func, o).is_some());
    if already {
        return Ok(false);
    }
    let (grid_op, block_op, nd) = match check(module, func) {
        Ok(ops) => ops,
        Err(why) => {
            let (name, loc) = (func.name.clone(), func.loc);
            remarks.add("collapse", &name, loc, format!("not collapsed: {why}"));
            return Ok(false);
        }
    };
    // A serial loop `interchange` would move out of the thread loop: the
    // thread loop must stay for that.
    if nd != one_d && crate::passes::interchange::would_move(module, fid, block_op) {
        let func = &module.functions[fid];
        let (name, loc) = (func.name.clone(), func.loc);
        let why = "not collapsed: `interchange` moves a serial loop out of the thread loop, \
                   which a collapsed launch would not have";
        remarks.add("collapse", &name, loc, why);
        return Ok(false);
    }
    let func = &module.functions[fid];
    if nd && !one_d {
        return collapse_nd(module, fid, grid_op, block_op, remarks);
    }
    if !one_d || nd {
        if !one_d {
            let (name, loc) = (func.name.clone(), func.loc);
            let why = "not collapsed: the threads are indexed in 1-D (that form is the opt-in `collapse-1d`)";
            remarks.add("collapse", &name, loc, why);
        }
        return Ok(false);
    }
    let name = func.name.clone();
    let loc = func.ops[grid_op].loc;
    let (
        Launch {
            gdims,
            bdims,
            old_bids,
            old_tids,
            moved,
            ..
        },
        mut b,
    ) = Launch::start(module, fid, grid_op, block_op);
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
    let mut map = HashMap::new();
    for (old, new) in old_bids.iter().zip(&bids).chain(old_tids.iter().zip(&tids)) {
        map.insert(*old, *new);
    }
    replace_launch(b.func, grid_op, new_op, region, moved, &map);
    remarks.add(
        "collapse",
        &name,
        loc,
        "grid and block loops collapsed into one loop over global thread ids",
    );
    Ok(true)
}

/// What a collapse takes from the launch it replaces: where the grid loop
/// stands in the body, the grid and block dims, the old block and thread
/// ids, and the ops to move into the new loop (the block's uniform ops,
/// then the thread loop's body), without their yields.
struct Launch {
    at: usize,
    gdims: Vec<Value>,
    bdims: Vec<Value>,
    old_bids: Vec<Value>,
    old_tids: Vec<Value>,
    moved: Vec<Op>,
}

impl Launch {
    /// The launch of `fid` taken apart ([`Launch::take`]), and a builder
    /// where its grid loop stands, stamping the grid loop's location.
    fn start(module: &mut Module, fid: FuncId, grid_op: Op, block_op: Op) -> (Launch, Builder<'_>) {
        let func = &mut module.functions[fid];
        let launch = Launch::take(func, grid_op, block_op);
        let (loc, body) = (func.ops[grid_op].loc, func.body);
        let mut b = Builder::new(&mut module.types, func);
        b.set_loc(loc);
        b.set_insertion_at(body, launch.at);
        (launch, b)
    }

    fn take(func: &Function, grid_op: Op, block_op: Op) -> Launch {
        let at = func.op_index(func.body, grid_op);
        let grid_region = func.ops[grid_op].body();
        let block_region = func.ops[block_op].body();
        let keep = |o: &Op| *o != block_op && func.ops[*o].kind != OpKind::Yield;
        let mut moved: Vec<Op> = func.regions[grid_region]
            .ops
            .iter()
            .copied()
            .filter(keep)
            .collect();
        moved.extend(func.regions[block_region].ops.iter().copied().filter(keep));
        Launch {
            at,
            gdims: func.ops[grid_op].ubs().to_vec(),
            bdims: func.ops[block_op].ubs().to_vec(),
            old_bids: func.regions[grid_region].args.clone(),
            old_tids: func.regions[block_region].args.clone(),
            moved,
        }
    }
}

/// Fills the new grid loop's `region` with `moved` (ids renamed by `map`)
/// and a yield, and removes the old grid loop.
fn replace_launch(
    func: &mut Function,
    grid_op: Op,
    new_op: Op,
    region: cucc_ir::Region,
    moved: Vec<Op>,
    map: &HashMap<Value, Value>,
) {
    let loc = func.ops[grid_op].loc;
    func.regions[region].ops.extend(moved);
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[region].ops.push(y);
    replace_uses_in_region(func, region, map);
    let body = func.body;
    func.unlink_op(body, grid_op);
    debug_assert!(func.regions[body].ops.contains(&new_op));
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
fn check(module: &Module, func: &Function) -> Result<(Op, Op, bool), String> {
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
    if !is_dims(func, func.ops[grid].ubs(), |k| {
        matches!(k, OpKind::GridDim(_))
    }) {
        return Err("the grid loop does not run over the launch's grid".into());
    }
    let grid_region = func.ops[grid].body();
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
            OpKind::Load {
                volatile: false, ..
            } => {}
            k if k.is_pure() && *k != OpKind::DynamicShared => {}
            k => return Err(format!("`{}` runs once per block", k.mnemonic())),
        }
    }
    let block = block.ok_or("no thread loop")?;
    if !is_dims(func, func.ops[block].ubs(), |k| {
        matches!(k, OpKind::BlockDim(_))
    }) {
        return Err("the thread loop does not run over the launch's block".into());
    }
    // A kernel indexing its block in 2-D or 3-D gets the N-D form
    // (`collapse_nd`): global loops per dimension, which `clamp-guards`
    // bounds like thread loops.
    let block_region = func.ops[block].body();
    let nd = func.regions[block_region].args[1..]
        .iter()
        .any(|&iv| used_in(func, block_region, iv));
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
    Ok((grid, block, nd))
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
        && data.ubs().len() == 2
        && is_product(func, data.ubs()[0], |k| matches!(k, OpKind::BlockDim(_)))
        && is_product(func, data.ubs()[1], |k| matches!(k, OpKind::GridDim(_)))
}

/// True if `v` is `mul (mul X, Y), Z` of the x, y and z dimension ops `want`.
fn is_product(func: &Function, v: Value, want: impl Fn(&OpKind) -> bool + Copy) -> bool {
    let mul = |v: Value| {
        func.defining_op(v).and_then(|o| {
            matches!(func.ops[o].kind, OpKind::Binary(BinOp::Mul, _))
                .then(|| (func.ops[o].lhs(), func.ops[o].rhs()))
        })
    };
    let Some((xy, z)) = mul(v) else { return false };
    let Some((x, y)) = mul(xy) else { return false };
    is_dims(func, &[x, y, z], want)
}

/// Weight of an access whose stride along a dimension is not a known
/// constant (`n * row`): larger than any plausible constant stride.
const FAR: u64 = 1 << 20;

/// The N-D form: one loop per dimension over global thread coordinates
/// (`ix = bx*bdx + tx`), nested in the order `loop_order` picks from the
/// body's access strides.
///
/// ```text
/// %ex = mul %gx, %bdx ; %ey = mul %gy, %bdy ; %ez = mul %gz, %bdz
/// parallel<grid> (%g0, %g1, %g2) in (%e_p0, %e_p1, %e_p2) {
///   %tx = urem %gx_, %bdx ; %bx = udiv %gx_, %bdx ; ... (per dimension)
///   uniform pure ops; body; yield
/// }
/// ```
/// Operand `k` is the extent of dimension `p_k`; `g0` is the innermost loop
/// and `g2` the outermost (the emitter's nest, [`nd_shape`]). Any order of
/// the threads of a launch without barriers, shared memory or warp
/// collectives is a schedule CUDA allows, so the order is free to choose.
/// The recombination `udiv(g,B)*B + urem(g,B)` the body computes for its
/// global index folds back to `g` (`canonicalize`), which `clamp-guards`
/// then bounds.
fn collapse_nd(
    module: &mut Module,
    fid: FuncId,
    grid_op: Op,
    block_op: Op,
    remarks: &mut Remarks,
) -> Result<bool, CpuifyError> {
    let func = &module.functions[fid];
    let order = loop_order(module, func, grid_op, block_op);
    let name = func.name.clone();
    let loc = func.ops[grid_op].loc;
    let (
        Launch {
            gdims,
            bdims,
            old_bids,
            old_tids,
            moved,
            ..
        },
        mut b,
    ) = Launch::start(module, fid, grid_op, block_op);
    let mut extents = [gdims[0]; 3];
    for (d, n) in ["ex", "ey", "ez"].into_iter().enumerate() {
        extents[d] = b.binary(BinOp::Mul, gdims[d], bdims[d]);
        b.name(extents[d], n);
    }
    let ubs: Vec<Value> = order.iter().map(|&d| extents[d]).collect();
    let (new_op, region) = b.create_parallel(Level::Grid, &ubs);
    b.set_insertion_end(region);
    let ivs = b.func.regions[region].args.clone();
    let mut map = HashMap::new();
    for (k, &d) in order.iter().enumerate() {
        let g = ivs[k];
        b.name(g, ["gx", "gy", "gz"][d]);
        let t = b.binary(BinOp::URem, g, bdims[d]);
        b.name(t, ["tx", "ty", "tz"][d]);
        let q = b.binary(BinOp::UDiv, g, bdims[d]);
        b.name(q, ["bx", "by", "bz"][d]);
        map.insert(old_tids[d], t);
        map.insert(old_bids[d], q);
    }
    replace_launch(b.func, grid_op, new_op, region, moved, &map);
    crate::passes::canonicalize(module, fid)?;
    let names: Vec<&str> = order.iter().rev().map(|&d| Dim::ALL[d].name()).collect();
    remarks.add(
        "collapse",
        &name,
        loc,
        format!(
            "collapsed into loops over global thread coordinates, order {} (outermost first)",
            names.join(",")
        ),
    );
    Ok(true)
}

/// A dimension's stride in an address: how much it moves when the global
/// thread coordinate moves by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stride {
    /// Does not depend on the coordinate.
    Zero,
    /// A known constant (bytes for pointers, units for integers).
    Const(i64),
    /// Scaled by a value known only at run time (`n * row`), or not affine.
    Far,
}

impl Stride {
    fn add(self, o: Stride) -> Stride {
        match (self, o) {
            (Stride::Zero, x) | (x, Stride::Zero) => x,
            (Stride::Const(a), Stride::Const(b)) => {
                a.checked_add(b).map_or(Stride::Far, Stride::Const)
            }
            _ => Stride::Far,
        }
    }

    fn scale(self, k: i64) -> Stride {
        match self {
            Stride::Const(a) => a.checked_mul(k).map_or(Stride::Far, Stride::Const),
            s => s,
        }
    }
}

/// The loop order for the N-D form, innermost first: dimensions whose
/// accesses are unit-stride innermost (then by smaller total stride, x
/// before y before z), dimensions the body never reads outermost. This is
/// a cost model only; every order is correct.
fn loop_order(module: &Module, func: &Function, grid: Op, block: Op) -> [usize; 3] {
    let grid_region = func.ops[grid].body();
    let block_region = func.ops[block].body();
    let tids = func.regions[block_region].args.clone();
    let bids = func.regions[grid_region].args.clone();
    let mut accesses = Vec::new();
    let mut walk = Vec::new();
    func.walk_region(block_region, &mut walk);
    for (_, op) in walk {
        let data = &func.ops[op];
        let size_of = |v: Value| module.types.size_of(func.value_type(v));
        let acc = match data.kind {
            OpKind::Load { .. } | OpKind::AtomicRmw { .. } | OpKind::AtomicCas { .. } => {
                data.results.first().map(|&r| (data.ptr(), size_of(r)))
            }
            OpKind::Store { .. } if data.operands.len() == 2 => {
                Some((data.ptr(), size_of(data.value())))
            }
            _ => None,
        };
        accesses.extend(acc);
    }
    let mut keyed = Vec::new();
    let mut unused = Vec::new();
    for d in 0..3 {
        let read = used_in(func, block_region, tids[d]) || used_in(func, grid_region, bids[d]);
        if !read {
            unused.push(d);
            continue;
        }
        let mut units = 0u64;
        let mut cost = 0u64;
        let mut memo = HashMap::new();
        for &(p, size) in &accesses {
            match stride(module, func, p, tids[d], bids[d], 0, &mut memo) {
                Stride::Zero => {}
                Stride::Const(k) => {
                    units += u64::from(k.unsigned_abs() == size);
                    cost += k.unsigned_abs().min(FAR);
                }
                Stride::Far => cost += FAR,
            }
        }
        keyed.push((std::cmp::Reverse(units), cost, d));
    }
    keyed.sort();
    let mut order = [0; 3];
    for (k, d) in keyed.iter().map(|e| e.2).chain(unused).enumerate() {
        order[k] = d;
    }
    order
}

/// The stride of `v` along the global coordinate `b*B + t` of thread iv
/// `t` and block iv `b` (read as moving `t`; `b` moves only once a block).
fn stride(
    module: &Module,
    func: &Function,
    v: Value,
    t: Value,
    b: Value,
    depth: usize,
    memo: &mut HashMap<Value, Stride>,
) -> Stride {
    if v == t {
        return Stride::Const(1);
    }
    if v == b {
        return Stride::Zero;
    }
    if let Some(&s) = memo.get(&v) {
        return s;
    }
    if depth > 24 {
        return Stride::Far;
    }
    let s = match func.values[v].def {
        // Other ivs and parameters do not move with `t`; values carried by
        // `for`/`while`/`if` regions might.
        cucc_ir::ValueDef::Arg { region, .. } => {
            let parallel = func.regions[region].args.contains(&t)
                || func.regions[region].args.contains(&b)
                || region == func.body;
            if parallel {
                Stride::Zero
            } else {
                Stride::Far
            }
        }
        cucc_ir::ValueDef::Result { op, .. } => {
            let data = &func.ops[op];
            let arg = |o: Value, memo: &mut HashMap<Value, Stride>| {
                stride(module, func, o, t, b, depth + 1, memo)
            };
            let konst = |o: Value| {
                func.defining_op(o).and_then(|c| match func.ops[c].kind {
                    OpKind::Const { bits } => Some(bits as i64),
                    _ => None,
                })
            };
            match &data.kind {
                OpKind::Binary(BinOp::Add, _) => arg(data.lhs(), memo).add(arg(data.rhs(), memo)),
                OpKind::Binary(BinOp::Sub, _) => {
                    arg(data.lhs(), memo).add(arg(data.rhs(), memo).scale(-1))
                }
                OpKind::Binary(BinOp::Mul, _) => {
                    match (arg(data.lhs(), memo), arg(data.rhs(), memo)) {
                        (Stride::Zero, Stride::Zero) => Stride::Zero,
                        (Stride::Zero, s) => konst(data.lhs())
                            .map_or(if s == Stride::Zero { s } else { Stride::Far }, |k| {
                                s.scale(k)
                            }),
                        (s, Stride::Zero) => konst(data.rhs()).map_or(Stride::Far, |k| s.scale(k)),
                        _ => Stride::Far,
                    }
                }
                OpKind::Binary(BinOp::Shl, _) => match (arg(data.lhs(), memo), konst(data.rhs())) {
                    (Stride::Zero, _) if arg(data.rhs(), memo) == Stride::Zero => Stride::Zero,
                    (s, Some(k)) if (0..32).contains(&k) && k < shift_width(module, func, v) => {
                        s.scale(1 << k)
                    }
                    _ => Stride::Far,
                },
                OpKind::Cast(CastOp::SExt | CastOp::ZExt | CastOp::Trunc)
                | OpKind::Cast(CastOp::SpaceCast) => arg(data.input(), memo),
                OpKind::PtrField { .. } => arg(data.ptr(), memo),
                OpKind::PtrIndex { elem } => {
                    let size = module.types.size_of(*elem) as i64;
                    let base = arg(data.ptr(), memo);
                    base.add(arg(data.index(), memo).scale(size))
                }
                _ => {
                    let all_zero = data.regions.is_empty()
                        && data.operands.iter().all(|&o| arg(o, memo) == Stride::Zero);
                    if all_zero {
                        Stride::Zero
                    } else {
                        Stride::Far
                    }
                }
            }
        }
    };
    memo.insert(v, s);
    s
}

/// The N-D collapsed shape ([`collapse_nd`]) of grid op `op`: for each
/// loop, innermost first, the launch dimension it runs over and whether its
/// bound is the plain extent (`mul grid_dim d, block_dim d`) or that extent
/// clamped by `clamp-guards` (`select(_, k, extent)`).
pub fn nd_shape(func: &Function, op: Op) -> Option<[(usize, bool); 3]> {
    let data = &func.ops[op];
    if data.kind != (OpKind::Parallel { level: Level::Grid }) || data.ubs().len() != 3 {
        return None;
    }
    let extent_dim = |v: Value| {
        let o = func.defining_op(v)?;
        let d = &func.ops[o];
        if !matches!(d.kind, OpKind::Binary(BinOp::Mul, _)) {
            return None;
        }
        let kind = |v: Value| func.defining_op(v).map(|o| &func.ops[o].kind);
        match (kind(d.lhs())?, kind(d.rhs())?) {
            (OpKind::GridDim(a), OpKind::BlockDim(b)) if a == b => Some(a.index()),
            _ => None,
        }
    };
    let mut out = [(0, false); 3];
    let mut seen = [false; 3];
    for (k, &v) in data.ubs().iter().enumerate() {
        let (d, clamped) = match extent_dim(v) {
            Some(d) => (d, false),
            None => {
                let o = func.defining_op(v)?;
                let s = &func.ops[o];
                if s.kind != OpKind::Select || s.operands.len() != 3 {
                    return None;
                }
                (extent_dim(s.if_false())?, true)
            }
        };
        if std::mem::replace(&mut seen[d], true) {
            return None;
        }
        out[k] = (d, clamped);
    }
    Some(out)
}

/// The width of integer `v` (64 if not an integer): shifts by this much or
/// more give 0, so they are no scaling.
fn shift_width(module: &Module, func: &Function, v: Value) -> i64 {
    i64::from(module.types[func.value_type(v)].int_bits().unwrap_or(64))
}
