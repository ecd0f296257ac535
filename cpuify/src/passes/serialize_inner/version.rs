//! Versioning a thread loop on the run-time checks under which its
//! iterations are independent: `if (checks) { loop kept parallel } else
//! { next version, or the loop serialised }`.
//!
//! A version is a block shape and the [`Needs`] the dependence test
//! recorded for it. Shapes are tried most general first: any shape (the
//! loop needs only distinct buffers or long enough rows); then 1-D blocks
//! and the tiles of the kernel's 2-D shared arrays, exactly (their
//! extents become the copy's constant bounds, as before); then, when no
//! tile fits, the largest square `n x n x 1` (`n <= 32`) for which the
//! loop is independent in every block at most that large — a tile with a
//! halo (`[18 x [18 x f32]]` loaded by 16 x 16 threads) has no exact
//! shape to find, and the test is monotone in the extents. At most one
//! 1-D and one 2-D version are made. In the copies, `u + threadIdx.x`
//! indices without `nsw` get it under a check that they do not wrap
//! (`interchange` does the same), so the C compiler sees the copy's
//! accesses as affine in the thread index.

use super::dependence::{bounded_by_block_dim, Facts, Needs};
use super::{candidate_shapes, serialize, test, Shape};
use crate::passes::no_wrap;
use cucc_ir::affine::{Factor, Sym};
use cucc_ir::edit::clone_op;
use cucc_ir::{
    BinOp, Builder, CastOp, CmpPred, Dim, Function, FunctionEffects, Module, Op, OpKind, Region,
    Space, Types, Value,
};
use std::collections::HashMap;

/// The block shapes a version runs for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Any block.
    Any,
    /// Exactly these extents where given (`None`: any).
    Exact(Shape),
    /// At most these extents.
    AtMost([u64; 3]),
}

/// One version of a thread loop.
#[derive(Clone, Debug)]
pub struct Version {
    kind: Kind,
    needs: Needs,
}

/// Largest square block side tried (32 x 32 = 1024 threads).
const MAX_SIDE: u64 = 32;

/// The wide blocks tried after the squares: at most 64 threads a row and
/// 16 rows (`64 x 4`, `64 x 8`, `48 x 16`), which no square of side 32
/// holds. Their rows need a run-time row length of at least 64.
const WIDE: [u64; 3] = [64, 16, 1];

/// What one thread loop could be versioned on, before the choice shared
/// by the loops of a kernel.
pub struct Options {
    /// Independent in any block, given these checks.
    any: Option<Needs>,
    /// Independent in 1-D blocks.
    one_d: Option<(Shape, Needs)>,
    /// The 2-D shared-array tiles it is independent in.
    tiles: Vec<(Shape, Needs)>,
    /// The largest `n` for which it is independent in every block of at
    /// most `n x n x 1` threads (at least 2), when its bounds allow that.
    side: Option<u64>,
    /// Independent in every block of at most [`WIDE`] threads, given
    /// these checks (tried when a square is).
    wide: Option<Needs>,
}

/// What thread loop `p` (not independent as it is) could be versioned on.
pub fn options(
    module: &Module,
    fx: &FunctionEffects<'_>,
    func: &Function,
    p: Op,
    facts: &Facts,
) -> Options {
    let none = |_: Op, _: Op| false;
    let try_shape = |assume: [Option<u64>; 3]| test(fx, func, p, assume, facts, true, &none).ok();
    let mut out = Options {
        any: try_shape([None; 3]),
        one_d: None,
        tiles: Vec::new(),
        side: None,
        wide: None,
    };
    if out.any.is_some() {
        return out;
    }
    // 1-D blocks only for loops whose addresses do not use their y index:
    // a kernel that indexes memory by `threadIdx.y` runs with 2-D blocks,
    // and a version no launch takes is code for nothing (hotspot's 16 x 16
    // tiles ran 1.6% slower with one).
    let one_d_kernel = !indexes_by_y(fx, func, p);
    for shape in candidate_shapes(module, func, p) {
        if shape[0].is_none() {
            if out.one_d.is_none() && one_d_kernel {
                out.one_d = try_shape(shape).map(|n| (shape, n));
            }
        } else if let Some(needs) = try_shape(shape) {
            out.tiles.push((shape, needs));
        }
    }
    // Square blocks only for loops that read their y index: a 1-D
    // kernel's blocks are `X x 1 x 1`.
    let data = &func.ops[p];
    let bounded = data.kind
        == OpKind::Parallel {
            level: cucc_ir::Level::Block,
        }
        && data.ubs().len() == 3
        && (data.ubs().iter())
            .zip(Dim::ALL)
            .all(|(&ub, d)| bounded_by_block_dim(func, ub, d))
        && reads_y(func, p);
    if bounded && try_shape(square(2)).is_some() {
        // The largest side that passes: the test is monotone in it.
        let (mut lo, mut hi) = (2, MAX_SIDE);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if try_shape(square(mid)).is_some() {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        out.side = Some(lo);
        out.wide = try_shape(WIDE.map(Some));
    }
    out
}

/// True if an access of thread loop `p` (other than to its iterations'
/// own storage) has an address that varies with the y thread index.
fn indexes_by_y(fx: &FunctionEffects<'_>, func: &Function, p: Op) -> bool {
    let by_y = |s: &Sym| match s {
        Sym::Thread(d) | Sym::Product(Factor::Thread(d), _) => *d == Dim::Y,
        _ => false,
    };
    fx.region_effects(func.ops[p].body())
        .iter()
        .filter(|e| e.is_access() && !super::own_storage(func, p, e))
        .any(|e| e.offset.as_ref().is_some_and(|o| o.terms.keys().any(by_y)))
}

/// True if the body of thread loop `p` uses its y index.
fn reads_y(func: &Function, p: Op) -> bool {
    let body = func.ops[p].body();
    let Some(&ty) = func.regions[body].args.get(1) else {
        return false;
    };
    let mut walk = Vec::new();
    func.walk_region(body, &mut walk);
    walk.iter()
        .any(|&(_, o)| func.ops[o].operands.contains(&ty))
}

/// `n x n x 1` as extents.
fn square(n: u64) -> [Option<u64>; 3] {
    [Some(n), Some(n), Some(1)]
}

/// The side every block-shaped version of a kernel's loops shares: the
/// least of their largest sides. All loops of a launch run with one
/// block, and a halo tile's loads are independent only up to the tile
/// (`[18 x [18 x f32]]` loaded by at most 16 x 16 threads), while its
/// compute loop would accept any size: a version none of the launches
/// takes is code for nothing.
pub fn kernel_side(all: &[&Options]) -> Option<u64> {
    all.iter().filter_map(|o| o.side).min()
}

/// The versions of a loop with options `o`, most general first: any
/// block; 1-D blocks; the shared-array tiles at most `side` wide and
/// high (all of them when there is no side), exactly; and when no tile
/// fits, every block of at most `side x side x 1` threads.
pub fn plan(
    fx: &FunctionEffects<'_>,
    func: &Function,
    p: Op,
    facts: &Facts,
    o: Options,
    side: Option<u64>,
) -> Vec<Version> {
    // Without a 2-D shape, distinct buffers alone are left to the C
    // compiler's own alias checks (measured: no gain for twice the code,
    // docs/design.md); a run-time row length is not something it tests.
    let worth = |n: &Needs| n.distinct.is_empty() || !n.at_least.is_empty();
    if let Some(needs) = o.any {
        if !worth(&needs) {
            return Vec::new();
        }
        return vec![Version {
            kind: Kind::Any,
            needs,
        }];
    }
    let mut out = Vec::new();
    if let Some((shape, needs)) = o.one_d.filter(|(_, n)| worth(n)) {
        out.push(Version {
            kind: Kind::Exact(shape),
            needs,
        });
    }
    let fits = |shape: &Shape| {
        side.is_none_or(|n| shape[0].is_some_and(|x| x <= n) && shape[1].is_some_and(|y| y <= n))
    };
    if let Some((shape, needs)) = o.tiles.into_iter().find(|(s, _)| fits(s)) {
        out.push(Version {
            kind: Kind::Exact(shape),
            needs,
        });
    } else if let (Some(n), Some(own)) = (side, o.side) {
        let none = |_: Op, _: Op| false;
        if own >= n {
            if let Ok(needs) = test(fx, func, p, square(n), facts, true, &none) {
                out.push(Version {
                    kind: Kind::AtMost([n, n, 1]),
                    needs,
                });
            }
        }
        // Rows wider than the square's (`64 x 4` blocks): the same loop
        // once more for them, when it is independent there too.
        if let Some(needs) = o.wide.filter(|w| n == MAX_SIDE && worth(w)) {
            out.push(Version {
                kind: Kind::AtMost(WIDE),
                needs,
            });
        }
    }
    out
}

/// Builds the versions of loop `p` (in `region`) and serialises the last
/// fallback; returns how the remark describes them, `None` (nothing
/// changed) if `p` is not in `region`.
pub fn apply(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    versions: &[Version],
) -> Option<String> {
    func.find_op(region, p)?;
    let loc = func.ops[p].loc;
    let adds = no_wrap::index_ops(types, func, p);
    let mut parent = region;
    let mut how = Vec::new();
    // Whether any version checks more than the block's shape.
    let mut checked = false;
    for v in versions {
        let (mut checks, fixed) = shape_checks(types, func, parent, p, &v.kind);
        let mut said = Vec::new();
        if !v.needs.distinct.is_empty() {
            checks.push(distinct(types, func, &v.needs));
            said.push(format!(
                "its {} pointer parameters point into distinct allocations",
                v.needs.distinct.len()
            ));
        }
        for (&value, &least) in &v.needs.at_least {
            checks.push(at_least(types, func, parent, p, value, least));
            said.push(format!("a run-time row length is at least {least}"));
        }
        let no_wrap = no_wrap::condition(types, func, parent, p, &adds);
        checks.extend(no_wrap);
        let (then_r, else_r) = {
            let mut b = Builder::new(types, func);
            b.set_loc(loc);
            b.set_insertion_before(parent, p);
            let cond = match checks.split_first() {
                Some((&first, rest)) => rest
                    .iter()
                    .fold(first, |acc, &c| b.binary(BinOp::And, acc, c)),
                None => b.bool(true),
            };
            let (_, t, e) = b.create_if(cond, &[]);
            (t, e)
        };
        let mut map = HashMap::new();
        let copy = clone_op(func, p, &mut map);
        for (k, c) in fixed.iter().enumerate() {
            if let Some(c) = *c {
                func.ops[copy].ubs_mut()[k] = c;
            }
        }
        if no_wrap.is_some() {
            no_wrap::flag_copies(func, &map, &adds);
            said.push("its 32-bit index arithmetic cannot wrap".to_string());
        }
        let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        func.regions[then_r].ops.extend([copy, y]);
        func.unlink_op(parent, p);
        let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
        func.regions[else_r].ops.extend([p, y]);
        parent = else_r;
        checked |= !said.is_empty();
        let mut text = describe(&v.kind);
        if !said.is_empty() {
            text.push_str(&format!(" when {}", said.join(" and ")));
        }
        how.push(text);
    }
    serialize(types, func, parent, p);
    let why = if !checked {
        "in other block shapes"
    } else {
        "where the checks fail"
    };
    let sep = if how.len() > 1 { ", and" } else { " and" };
    Some(format!(
        "{}{sep} serialised otherwise: its iterations may access the same memory only {why}",
        how.join(", then ")
    ))
}

/// The checks that the block has shape `kind`, computed before `p`, and
/// the constants an exact shape fixes the loop's bounds to.
fn shape_checks(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    kind: &Kind,
) -> (Vec<Value>, [Option<Value>; 3]) {
    let mut fixed = [None; 3];
    let ubs = func.ops[p].ubs().to_vec();
    let mut b = Builder::new(types, func);
    b.set_loc(b.func.ops[p].loc);
    b.set_insertion_before(region, p);
    // One conjunction, folded as it is built.
    let mut cond: Option<Value> = None;
    let mut and = |b: &mut Builder<'_>, c: Value| {
        cond = Some(match cond {
            Some(prev) => b.binary(BinOp::And, prev, c),
            None => c,
        });
    };
    match kind {
        Kind::Any => {}
        Kind::Exact(shape) => {
            for (k, n) in shape.iter().enumerate() {
                if let (Some(n), Some(&ub)) = (n, ubs.get(k)) {
                    let ty = b.ty(ub);
                    let c = b.const_int(ty, *n as i64);
                    let eq = b.cmp(CmpPred::Eq, ub, c);
                    and(&mut b, eq);
                    fixed[k] = Some(c);
                }
            }
        }
        Kind::AtMost(max) => {
            for (k, &n) in max.iter().enumerate() {
                let bd = b.block_dim(Dim::ALL[k]);
                let ty = b.ty(bd);
                let c = b.const_int(ty, n as i64);
                let le = b.cmp(CmpPred::Ule, bd, c);
                and(&mut b, le);
            }
        }
    }
    (cond.into_iter().collect(), fixed)
}

/// `alloc.distinct` of the parameters `needs` names, at the top of the
/// function (reused when one there names the same parameters).
fn distinct(types: &mut Types, func: &mut Function, needs: &Needs) -> Value {
    let params: Vec<usize> = needs.distinct.iter().map(|&i| i as usize).collect();
    alloc_distinct(types, func, &params)
}

/// `alloc.distinct` of parameters `params` (indices), at the top of the
/// function, reused when one there names the same values. A 64-bit integer
/// parameter (PTX passes pointers as integers) is its `inttoptr`.
pub(crate) fn alloc_distinct(types: &mut Types, func: &mut Function, params: &[usize]) -> Value {
    let body = func.body;
    let loc = func.ops[func.regions[body].ops[0]].loc;
    let mut pre = Vec::new();
    let mut values = Vec::new();
    for &i in params {
        let v = func.regions[body].args[i];
        if types[func.value_type(v)].is_ptr() {
            values.push(v);
            continue;
        }
        // Reuse an `inttoptr` of it at the top, or make one.
        let existing = func.regions[body].ops.iter().copied().find(|&o| {
            func.ops[o].kind == OpKind::Cast(CastOp::IntToPtr) && func.ops[o].input() == v
        });
        let p = match existing {
            Some(o) => func.ops[o].results[0],
            None => {
                let pt = types.ptr(Space::Global);
                let o = func.new_op(OpKind::Cast(CastOp::IntToPtr), vec![v], &[pt], vec![], loc);
                pre.push(o);
                func.ops[o].results[0]
            }
        };
        values.push(p);
    }
    for &o in &func.regions[body].ops {
        let data = &func.ops[o];
        if data.kind == OpKind::AllocDistinct && data.operands == values {
            return data.results[0];
        }
    }
    let i1 = types.i1();
    let op = func.new_op(OpKind::AllocDistinct, values, &[i1], vec![], loc);
    pre.push(op);
    func.regions[body].ops.splice(0..0, pre);
    func.ops[op].results[0]
}

/// `sext(value) >= least` (64-bit, signed), computed before `p`.
fn at_least(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    value: Value,
    least: i64,
) -> Value {
    let at = func.op_index(region, p);
    let mut b = Builder::new(types, func);
    b.set_loc(b.func.ops[p].loc);
    b.set_insertion_at(region, at);
    let i64t = b.types.i64();
    let ty = b.ty(value);
    let wide = if b.types[ty].int_bits().is_some_and(|w| w < 64) {
        b.cast(CastOp::SExt, value, i64t)
    } else {
        value
    };
    let k = b.const_int(i64t, least);
    b.cmp(CmpPred::Sge, wide, k)
}

/// "for blocks of 16 x 16 x 1 threads" and the like.
fn describe(kind: &Kind) -> String {
    match kind {
        Kind::Any => "for blocks of any shape".to_string(),
        Kind::Exact(shape) => {
            let d: Vec<String> = shape
                .iter()
                .map(|e| e.map_or_else(|| "any".to_string(), |n| n.to_string()))
                .collect();
            format!("for blocks of {} threads", d.join(" x "))
        }
        Kind::AtMost(max) => {
            let d: Vec<String> = max.iter().map(|n| n.to_string()).collect();
            format!("for blocks of at most {} threads", d.join(" x "))
        }
    }
}
