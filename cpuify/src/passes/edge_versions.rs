//! `edge-versions`: a thread loop that tests whether a thread sits on the
//! edge of the grid runs, in blocks with no thread on that edge, as a copy
//! in which the tests are constants.
//!
//! Stencils clamp their neighbours at the borders of the domain:
//! `w = i == 0 ? c : c - 1` with `i = blockIdx.x * blockDim.x +
//! threadIdx.x`. In the thread loop the select makes the load's address a
//! gather, and gcc does not vectorise the loop. Each such test `g == k`
//! (or `!=`) whose `g` is a thread index plus a value fixed for the loop
//! (`base + t_d`) and whose `k` is fixed too holds for at most one thread
//! coordinate: `t_d = k - base`, computed in `g`'s width (the comparison
//! is exact under wrap-around). When that coordinate lies outside
//! `[0, extent_d)` for every test, which one unsigned comparison per test
//! before the loop decides, no thread of the loop meets any of them and
//! the copy with the tests folded (`==` false, `!=` true) runs; the loop
//! as it was runs otherwise (the blocks on the border). The C compiler
//! folds the selects and branches on the constants, and the neighbours'
//! addresses become affine in the thread index.
//!
//! Only block-level `parallel` loops are versioned (the loops kept
//! independent, which gcc may vectorise); serial nests gain nothing.

use super::prefetch::defined_in;
use crate::passes::entry::{is_thread_loop, launch_parts, ops_where, Changed};
use crate::remarks::Remarks;
use cucc_ir::edit::clone_op;
use cucc_ir::{
    BinOp, Builder, CastOp, CmpPred, FuncId, Function, Module, Op, OpKind, Region, Types, Value,
};
use std::collections::{HashMap, HashSet};

/// Name in remarks and the pipeline.
const PASS: &str = "edge-versions";

/// Edge tests versioned per loop at most (each costs a check per block).
const MAX_TESTS: usize = 16;

/// A test `base + t_d == k` (`!=` when `!equal`) in a thread loop.
struct Edge {
    /// The `cmp` op.
    op: Op,
    /// The thread dimension.
    dim: usize,
    /// `base`, defined before the loop (it varies between blocks).
    base: Value,
    /// `k`.
    k: Operand,
    /// True for `==` (folds to false), false for `!=` (folds to true).
    equal: bool,
}

/// A value fixed for the loop: defined before it, or a constant (which
/// may sit inside the loop and is rebuilt before it).
#[derive(Clone, Copy)]
enum Operand {
    Value(Value),
    Const(u64),
}

/// Versions the thread loops of launch `fid` that test grid edges; returns
/// how many loops were versioned.
pub fn edge_versions(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
    let loops = ops_where(func, is_thread_loop);
    let mut changed = 0;
    for (region, p) in loops {
        let edges = edges_of(types, func, p);
        if edges.is_empty() || edges.len() > MAX_TESTS {
            continue;
        }
        version(types, func, region, p, &edges);
        changed += 1;
        let dims: Vec<&str> = {
            let mut d: Vec<usize> = edges.iter().map(|e| e.dim).collect();
            d.sort_unstable();
            d.dedup();
            d.into_iter().map(|d| ["x", "y", "z"][d]).collect()
        };
        remarks.add(
            PASS,
            &func.name.clone(),
            func.ops[p].loc,
            format!(
                "thread loop run without its {} edge test(s) on thread {} in blocks where no \
                 thread meets them (checked before the loop; the loop as it was runs otherwise)",
                edges.len(),
                dims.join("/")
            ),
        );
    }
    Ok(changed)
}

/// The edge tests anywhere in thread loop `p`.
fn edges_of(types: &Types, func: &Function, p: Op) -> Vec<Edge> {
    let body = func.ops[p].body();
    let ivs = func.regions[body].args.clone();
    if ivs.len() != 3 || func.ops[p].ubs().len() != 3 {
        return Vec::new();
    }
    let inside = defined_in(func, body);
    let fixed = |v: Value| -> Option<Operand> {
        if !inside.contains(&v) {
            Some(Operand::Value(v))
        } else {
            func.const_bits(v).map(Operand::Const)
        }
    };
    let mut walk = Vec::new();
    func.walk_region(body, &mut walk);
    let used: HashSet<Value> = walk
        .iter()
        .flat_map(|&(_, o)| func.ops[o].operands.iter().copied())
        .collect();
    let mut out = Vec::new();
    for (_, o) in walk {
        let data = &func.ops[o];
        let equal = match data.kind {
            OpKind::Cmp(CmpPred::Eq) => true,
            OpKind::Cmp(CmpPred::Ne) => false,
            _ => continue,
        };
        if data.operands.len() != 2 {
            continue;
        }
        let (a, b) = (data.lhs(), data.rhs());
        // At least 32 bits: the extents are compared in `g`'s width.
        let wide = types[func.values[a].ty].int_bits().is_some_and(|w| w >= 32);
        if !wide {
            continue;
        }
        // Only a test something reads (not one left behind by another
        // pass): it moves an address or guards work.
        let result = data.results[0];
        if !used.contains(&result) {
            continue;
        }
        for (g, k) in [(a, b), (b, a)] {
            let Some(k) = fixed(k) else { continue };
            // `base + t_d` with `base` varying between blocks: a test of
            // the thread index alone (`tx == 0`) holds in every block.
            if let Some((dim, base)) = thread_plus(func, &ivs, g, &inside) {
                out.push(Edge {
                    op: o,
                    dim,
                    base,
                    k,
                    equal,
                });
                break;
            }
        }
    }
    out
}

/// `g` as `base + t_d` (either order, any flags), with `t_d` a thread
/// index of the loop (or its extension) and `base` defined before it.
fn thread_plus(
    func: &Function,
    ivs: &[Value],
    g: Value,
    inside: &HashSet<Value>,
) -> Option<(usize, Value)> {
    let op = func.defining_op(g)?;
    let data = &func.ops[op];
    if !matches!(data.kind, OpKind::Binary(BinOp::Add, _)) || data.operands.len() != 2 {
        return None;
    }
    let (x, y) = (data.lhs(), data.rhs());
    [(x, y), (y, x)].into_iter().find_map(|(t, base)| {
        let d = thread_index(func, ivs, t)?;
        (!inside.contains(&base)).then_some((d, base))
    })
}

/// The dimension of thread index `v`, possibly extended to a wider type
/// (an extent is below 2^31, so either extension keeps its value).
fn thread_index(func: &Function, ivs: &[Value], v: Value) -> Option<usize> {
    let v = match func.defining_op(v).map(|o| &func.ops[o]) {
        Some(d) if matches!(d.kind, OpKind::Cast(CastOp::SExt | CastOp::ZExt)) => d.input(),
        _ => v,
    };
    ivs.iter().position(|&t| t == v)
}

/// Replaces loop `p` in `region` by `if (no thread meets an edge test) {
/// copy, tests folded } else { p }`.
fn version(types: &mut Types, func: &mut Function, region: Region, p: Op, edges: &[Edge]) {
    let loc = func.ops[p].loc;
    let ubs = func.ops[p].ubs().to_vec();
    let (then_r, else_r) = {
        let mut b = Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_before(region, p);
        let mut cond: Option<Value> = None;
        for e in edges {
            let ty = b.ty(b.func.ops[e.op].lhs());
            let k = match e.k {
                Operand::Value(v) => v,
                Operand::Const(bits) => b.const_int(ty, bits as i64),
            };
            // The one coordinate meeting the test: `k - base`.
            let at = b.binary(BinOp::Sub, k, e.base);
            let ub = ubs[e.dim];
            let ub = if b.ty(ub) == ty {
                ub
            } else {
                b.cast(CastOp::ZExt, ub, ty)
            };
            let outside = b.cmp(CmpPred::Uge, at, ub);
            cond = Some(match cond {
                Some(c) => b.binary(BinOp::And, c, outside),
                None => outside,
            });
        }
        let cond = cond.unwrap_or_else(|| b.bool(false));
        let (_, t, e) = b.create_if(cond, &[]);
        (t, e)
    };
    let mut map = HashMap::new();
    let copy = clone_op(func, p, &mut map);
    for e in edges {
        let result = func.ops[e.op].results[0];
        // The copy's test becomes the constant it is there.
        if let Some(cmp) = map.get(&result).and_then(|&v| func.defining_op(v)) {
            let data = &mut func.ops[cmp];
            data.kind = OpKind::Const {
                bits: u64::from(!e.equal),
            };
            data.operands.clear();
        }
    }
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[then_r].ops.extend([copy, y]);
    func.unlink_op(region, p);
    let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[else_r].ops.extend([p, y]);
}
