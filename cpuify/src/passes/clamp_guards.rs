//! `clamp-guards`: a thread loop whose only work is guarded by a bound on
//! one thread index iterates only up to that bound, and loses the guard
//! where the bound implies it.
//!
//! Kernels start with `if (blockIdx.x * blockDim.x + threadIdx.x < n)` (or
//! `if (i >= n) return;`); in a grid rounded up to whole blocks, or in
//! gaussian's n² launches where most threads fall outside the shrinking
//! matrix, many iterations of the thread loop only test and leave. For a
//! block-level `parallel` (or a collapsed grid loop) whose body is pure ops
//! and one `if` with an inert branch, each comparison the taken branch
//! needs — `iv + a < b`, `iv + a <= b`, or the same spelt with `>`/`>=` or
//! negated, reached through `&&`, `||`'s negation, `!` and the frontend's
//! short-circuit `if`s — with `a` and `b` computable before the loop gives
//! the bound `min(ub, max(0, b - a))` (one more for `<=`) for that
//! dimension: the iterations below it are those that pass the comparison.
//! The bound is computed in 64 bits, and the loop is left unclamped at run
//! time when `a + ub - 1` would wrap the index's type, where the wrapped
//! comparison could still pass.
//!
//! When the guard is exactly the conjunction of the clamped comparisons
//! (and of comparisons that do not depend on the loop), the clamped bounds
//! imply it and the loop runs its work without the test ([`version`]): in
//! place when no run-time range check is needed, otherwise in a copy of
//! the loop taken when every check (and invariant comparison) holds, the
//! original loop with its guard serving the rest. A test left in the body
//! keeps gcc from vectorising it (a conditional store, a masked load from
//! an address the loop does not vary).

use crate::passes::entry::{is_thread_loop, launch_parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::{
    ArithFlags, BinOp, Builder, CastOp, CmpPred, Dim, FuncId, Function, Level, Module, Op, OpData,
    OpKind, Region, Types, Value,
};
use std::collections::HashMap;

mod version;

/// Depth limit for following a condition's definition.
const MAX_DEPTH: usize = 12;

/// Clamps the guarded thread loops of function `fid` (launch form); returns
/// how many bounds were clamped.
pub fn clamp_guards(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
    let loops = func
        .walk()
        .into_iter()
        .filter(|&(_, o)| {
            is_thread_loop(&func.ops[o]) || crate::passes::collapse::nd_shape(func, o).is_some()
        })
        .collect::<Vec<_>>();
    let mut clamped = 0;
    for (region, p) in loops {
        let grid = func.ops[p].kind == (OpKind::Parallel { level: Level::Grid });
        let Some(outcome) = clamp_loop(types, func, region, p) else {
            continue;
        };
        let (name, loc) = (func.name.clone(), func.ops[p].loc);
        let what = if grid {
            "global thread loop"
        } else {
            "thread loop"
        };
        let n = outcome.count;
        if n == 0 {
            if let Guard::Kept(why) = outcome.guard {
                remarks.add(
                    "clamp-guards",
                    &name,
                    loc,
                    format!("{what} not clamped: {why}"),
                );
            }
            continue;
        }
        let guard = match outcome.guard {
            Guard::Dropped => "the guard is dropped: the bounds imply it".to_string(),
            Guard::Versioned => "the guard is dropped in a copy of the loop run when \
                                 run-time checks show the bounds imply it"
                .to_string(),
            Guard::Kept(why) => format!("the guard stays: {why}"),
        };
        remarks.add(
            "clamp-guards",
            &name,
            loc,
            format!("{what} bound clamped by its guard in {n} dimension(s); {guard}"),
        );
        clamped += n;
    }
    Ok(clamped)
}

/// One bound `lhs < rhs` (or `<=`) a guard implies.
#[derive(Clone, Copy, Debug)]
struct Atom {
    lhs: Value,
    rhs: Value,
    strict: bool,
    signed: bool,
}

/// What became of a clamped loop's guard.
enum Guard {
    /// Removed from the loop: the bounds imply it.
    Dropped,
    /// Removed from a copy taken when run-time checks hold.
    Versioned,
    /// Still tested, for this reason.
    Kept(&'static str),
}

/// The result of clamping one loop.
struct Outcome {
    count: usize,
    guard: Guard,
}

/// Clamps loop `p` (in `region`); `None` if no bound was clamped.
fn clamp_loop(types: &mut Types, func: &mut Function, region: Region, p: Op) -> Option<Outcome> {
    let body = func.ops[p].body();
    let ivs = func.regions[body].args.clone();
    let ops = func.regions[body].ops.clone();
    let (guard, polarity) = sole_guard(func, &ops)?;
    // The launch dimension of each loop of a collapsed grid loop.
    let dims = crate::passes::collapse::nd_shape(func, p).map(|s| s.map(|(d, _)| Dim::ALL[d]));
    let mut atoms = Vec::new();
    let mut exact = necessary(func, func.ops[guard].cond(), polarity, 0, &mut atoms);
    let mut done = vec![false; ivs.len()];
    let mut count = 0;
    // Conditions under which the clamped bounds imply the guard, and the
    // `iv + a` ops that cannot wrap (as signed) where they hold.
    let mut checks = Vec::new();
    let mut no_wrap = Vec::new();
    // Comparisons of a thread index first; the others only matter (as
    // checks) once a bound is clamped and the guard may go.
    let (indexed, invariant): (Vec<Atom>, Vec<Atom>) = atoms
        .into_iter()
        .partition(|a| split_iv(func, &ivs, a.lhs).is_some());
    let unclamped = func.ops[p].ubs().to_vec();
    for atom in indexed {
        match clamp_atom(types, func, region, p, &ivs, &mut done, atom, dims) {
            Some(Clamp::Bound { check, lhs }) => {
                count += 1;
                checks.extend(check);
                no_wrap.extend(lhs);
            }
            _ => exact = false,
        }
    }
    if count == 0 {
        return Some(Outcome {
            count,
            guard: Guard::Kept(
                "its guard bounds no thread index from above by values known before the loop",
            ),
        });
    }
    for atom in invariant {
        if !exact {
            break;
        }
        match clamp_atom(types, func, region, p, &ivs, &mut done, atom, dims) {
            Some(Clamp::Invariant(c)) => checks.push(c),
            _ => exact = false,
        }
    }
    let guard = if !exact {
        if done.iter().skip(1).any(|&d| d) {
            // A tile (hotspot's 16 x 16) keeps its full extents: the later
            // passes version it on the block's shape and gcc runs whole
            // vectors; clamped rows and columns ran scalar tails instead
            // (1.75x slower), and the guard stays in the body anyway.
            func.ops[p].ubs_mut().copy_from_slice(&unclamped);
            return Some(Outcome {
                count: 0,
                guard: Guard::Kept(
                    "its guard tests more than the clamped bounds, and a tile keeps its shape",
                ),
            });
        }
        if let (Some(&ub), None) = (unclamped.first(), dims) {
            round_to_vector(types, func, region, p, ub);
        }
        Guard::Kept("it tests more than the clamped bounds")
    } else {
        let index = func.op_index(body, guard);
        let cond = version::all(types, func, region, p, &checks);
        version::drop_guard(types, func, region, p, index, polarity, cond, &no_wrap);
        if cond.is_some() {
            Guard::Versioned
        } else {
            Guard::Dropped
        }
    };
    Some(Outcome { count, guard })
}

/// Lanes of the vectors gcc makes of a thread loop over 32-bit values.
const VECTOR_LANES: i64 = 8;

/// Rounds the clamped x bound of block-level loop `p` up to a multiple of
/// [`VECTOR_LANES`], at most its unclamped bound `ub`: the guard stays in
/// the body, so the extra iterations do nothing, and the loop runs whole
/// masked vectors instead of a vector, an epilogue and scalar tails.
fn round_to_vector(types: &mut Types, func: &mut Function, region: Region, p: Op, ub: Value) {
    let Some(&k) = func.ops[p].ubs().first() else {
        return;
    };
    let mut b = Builder::new(types, func);
    b.set_insertion_before(region, p);
    b.set_loc(b.func.ops[p].loc);
    let ty = b.ty(k);
    let up = b.const_int(ty, VECTOR_LANES - 1);
    let mask = b.const_int(ty, -VECTOR_LANES);
    let bumped = b.binary(BinOp::Add, k, up);
    let rounded = b.binary(BinOp::And, bumped, mask);
    let below = b.cmp(CmpPred::Ult, rounded, ub);
    let x = b.select(below, rounded, ub);
    func.ops[p].ubs_mut()[0] = x;
}

/// How a loop's index range is checked (see [`bound`]).
#[derive(Clone, Copy)]
enum Range {
    /// A block-level loop: its bound is at most 1024, so only an offset can
    /// take the index out of its type's range.
    Block,
    /// A loop of a collapsed grid loop, over this launch dimension.
    Grid(Dim),
}

/// What [`clamp_atom`] did with one comparison of a guard.
enum Clamp {
    /// It bounds its loop now; the bound is exact when `check` holds
    /// (`None`: always), and then `lhs` (`iv + a`) does not wrap as a
    /// signed value either.
    Bound {
        check: Option<Value>,
        lhs: Option<Value>,
    },
    /// It does not depend on the loop: this copy of it, computed before the
    /// loop, decides it for every iteration.
    Invariant(Value),
}

/// Clamps the loop dimension `atom` bounds, or computes `atom` before the
/// loop when it does not depend on the loop; `None` when it can do neither.
#[allow(clippy::too_many_arguments)]
fn clamp_atom(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    ivs: &[Value],
    done: &mut [bool],
    atom: Atom,
    dims: Option<[Dim; 3]>,
) -> Option<Clamp> {
    let body = func.ops[p].body();
    let mut memo = HashMap::new();
    let mut inserted = Vec::new();
    let Some((d, offset, widened)) = split_iv(func, ivs, atom.lhs) else {
        let lhs = materialize(types, func, body, atom.lhs, &mut memo, &mut inserted)?;
        let rhs = materialize(types, func, body, atom.rhs, &mut memo, &mut inserted)?;
        func.insert_before(region, p, inserted);
        let mut b = Builder::new(types, func);
        b.set_insertion_before(region, p);
        b.set_loc(b.func.ops[p].loc);
        let pred = match (atom.strict, atom.signed) {
            (true, true) => CmpPred::Slt,
            (false, true) => CmpPred::Sle,
            (true, false) => CmpPred::Ult,
            (false, false) => CmpPred::Ule,
        };
        return Some(Clamp::Invariant(b.cmp(pred, lhs, rhs)));
    };
    let index_ty = if widened {
        func.value_type(atom.lhs)
    } else {
        func.value_type(ivs[d])
    };
    if done[d] || func.value_type(atom.rhs) != index_ty {
        return None;
    }
    let rhs = materialize(types, func, body, atom.rhs, &mut memo, &mut inserted)?;
    let offset = match offset {
        Some(a) => Some(materialize(types, func, body, a, &mut memo, &mut inserted)?),
        None => None,
    };
    // Clones go just before the loop, in definition order.
    func.insert_before(region, p, inserted);
    let ub = func.ops[p].ubs()[d];
    let mut b = Builder::new(types, func);
    b.set_insertion_before(region, p);
    b.set_loc(b.func.ops[p].loc);
    let range = dims.map_or(Range::Block, |dims| Range::Grid(dims[d]));
    let (mut new_ub, check) = if widened {
        bound_wide(&mut b, atom, rhs, offset, ub, range)?
    } else {
        bound(&mut b, atom, rhs, offset, ub, range)?
    };
    if let Range::Grid(_) = range {
        // A collapsed grid loop keeps its extent visible to the emitter
        // (`collapse::nd_shape`): `select(k < extent, k, extent)`.
        let lt = b.cmp(CmpPred::Ult, new_ub, ub);
        new_ub = b.select(lt, new_ub, ub);
    }
    func.ops[p].ubs_mut()[d] = new_ub;
    done[d] = true;
    Some(Clamp::Bound {
        check,
        // A widened sum is `nsw` already.
        lhs: offset.filter(|_| !widened).map(|_| atom.lhs),
    })
}

/// [`bound`] for a comparison of a widened index (`a + ext(iv) < r`, all
/// in 64 bits, the add `nsw`): `min(ub, max(0, r - a [+1]))`. Signed
/// comparisons of a block-level loop only. The subtraction is exact when
/// `a >= -2^62` and `r <= 2^62`; otherwise the loop keeps its bound, and
/// that condition is the check under which the guard may go.
fn bound_wide(
    b: &mut Builder<'_>,
    atom: Atom,
    rhs: Value,
    offset: Option<Value>,
    ub: Value,
    range: Range,
) -> Option<(Value, Option<Value>)> {
    if !atom.signed || !matches!(range, Range::Block) {
        return None;
    }
    let ty = b.ty(ub);
    let i64t = b.types.i64();
    if b.ty(rhs) != i64t || offset.is_some_and(|a| b.ty(a) != i64t) {
        return None;
    }
    let ub64 = b.cast(CastOp::ZExt, ub, i64t);
    let limit = 1i64 << 62;
    let hi = b.const_int(i64t, limit);
    let lo = b.const_int(i64t, -limit);
    let r_ok = b.cmp(CmpPred::Sle, rhs, hi);
    let (k, fits) = match offset {
        Some(a) => {
            let a_ok = b.cmp(CmpPred::Sge, a, lo);
            let both = b.binary(BinOp::And, r_ok, a_ok);
            (b.binary(BinOp::Sub, rhs, a), both)
        }
        None => (rhs, r_ok),
    };
    let k = clamp_count(b, atom, k, ub64);
    let k = b.select(fits, k, ub64);
    Some((b.cast(CastOp::Trunc, k, ty), Some(fits)))
}

/// `min(ub, max(0, rhs - offset [+1]))`, or `ub` where `offset + ub - 1`
/// leaves the index's range; `None` for types it does not handle. Also
/// the run-time check that the range holds (`None` when CUDA's launch
/// limits prove it); with an offset, the check also keeps `a + iv` below
/// 2^31, so that it wraps neither unsigned nor signed. A collapsed grid
/// loop's extent may pass 2^31 (x) and
/// its 32-bit `ub` may have wrapped, so its range is checked on the extent
/// computed in 64 bits, and kept below 2^32 - 1 (the emitter applies a
/// clamped bound only to an extent that fits 32 bits).
fn bound(
    b: &mut Builder<'_>,
    atom: Atom,
    rhs: Value,
    offset: Option<Value>,
    ub: Value,
    range: Range,
) -> Option<(Value, Option<Value>)> {
    let ty = b.ty(ub);
    let bits = b.types[ty].int_bits()?;
    if b.ty(rhs) != ty || bits > 32 {
        return None;
    }
    let i64t = b.types.i64();
    let ext = if atom.signed {
        CastOp::SExt
    } else {
        CastOp::ZExt
    };
    let widen = |b: &mut Builder<'_>, v: Value, op: CastOp| b.cast(op, v, i64t);
    let r = widen(b, rhs, ext);
    let ub64 = widen(b, ub, CastOp::ZExt);
    let mut k = r;
    let mut max = if atom.signed {
        (1i64 << (bits - 1)) - 1
    } else {
        (1i64 << bits) - 1
    };
    let signed_max = (1i64 << (bits - 1)) - 1;
    let mut fits = None;
    let mut check = None;
    match (range, offset) {
        (Range::Block, None) => {}
        (Range::Block, Some(a)) => {
            let a64 = widen(b, a, ext);
            k = b.binary(BinOp::Sub, r, a64);
            fits = Some(last_fits(b, Some(a64), ub64, max));
            if max != signed_max {
                check = Some(last_fits(b, Some(a64), ub64, signed_max));
            }
        }
        (Range::Grid(d), a) => {
            if bits == 32 {
                max = max.min((1i64 << 32) - 2);
            }
            let a64 = a.map(|a| widen(b, a, ext));
            if let Some(a64) = a64 {
                k = b.binary(BinOp::Sub, r, a64);
            }
            // Launch limits: grid y, z at most 65535, blocks at most 1024.
            let limit = if d == Dim::X { i64::MAX } else { 65535 * 1024 };
            if a64.is_some() || limit - 1 > max {
                let gd = b.grid_dim(d);
                let bd = b.block_dim(d);
                let (gd, bd) = (widen(b, gd, CastOp::ZExt), widen(b, bd, CastOp::ZExt));
                let extent = b.binary(BinOp::Mul, gd, bd);
                fits = Some(last_fits(b, a64, extent, max));
                if a64.is_some() && max != signed_max {
                    check = Some(last_fits(b, a64, extent, signed_max));
                }
            }
        }
    }
    let mut k = clamp_count(b, atom, k, ub64);
    if let Some(fits) = fits {
        k = b.select(fits, k, ub64);
    }
    Some((b.cast(CastOp::Trunc, k, ty), check.or(fits)))
}

/// The trip count `k` (`+ 1` for a non-strict `atom`) clamped to
/// `[0, ub]`, all 64-bit values.
fn clamp_count(b: &mut Builder<'_>, atom: Atom, k: Value, ub: Value) -> Value {
    let i64t = b.types.i64();
    let k = if atom.strict {
        k
    } else {
        let one = b.const_int(i64t, 1);
        b.binary(BinOp::Add, k, one)
    };
    let zero = b.const_int(i64t, 0);
    let neg = b.cmp(CmpPred::Slt, k, zero);
    let k = b.select(neg, zero, k);
    let below = b.cmp(CmpPred::Slt, k, ub);
    b.select(below, k, ub)
}

/// `a + n - 1 <= max` (64-bit values): the last index of a loop of `n`
/// iterations offset by `a` stays in range.
fn last_fits(b: &mut Builder<'_>, a: Option<Value>, n: Value, max: i64) -> Value {
    let i64t = b.types.i64();
    let one = b.const_int(i64t, 1);
    let last = match a {
        Some(a) => b.binary(BinOp::Add, a, n),
        None => n,
    };
    let last = b.binary(BinOp::Sub, last, one);
    let max = b.const_int(i64t, max);
    b.cmp(CmpPred::Sle, last, max)
}

/// `v` as `iv_d + a` (or `iv_d`): (d, a, widened). Widened: `v` is
/// `ext(iv_d)` or `a + ext(iv_d)` with an `nsw` add, in 64 bits, where
/// `ext` widens the index to 64 bits (a thread index is never negative, so
/// zero and sign extension agree): CUDA's `(long)blockIdx.x * blockDim.x +
/// threadIdx.x`, exact in 64 bits.
fn split_iv(func: &Function, ivs: &[Value], v: Value) -> Option<(usize, Option<Value>, bool)> {
    if let Some(d) = ivs.iter().position(|&iv| iv == v) {
        return Some((d, None, false));
    }
    let widened_iv = |x: Value| -> Option<usize> {
        let op = func.defining_op(x)?;
        let data = &func.ops[op];
        if !matches!(data.kind, OpKind::Cast(CastOp::ZExt | CastOp::SExt)) {
            return None;
        }
        let d = ivs.iter().position(|&iv| iv == data.input())?;
        let bits = |x: Value| func.value_type(x);
        (bits(data.input()) != bits(x)).then_some(d)
    };
    if let Some(d) = widened_iv(v) {
        return Some((d, None, true));
    }
    let op = func.defining_op(v)?;
    let data = &func.ops[op];
    let OpKind::Binary(BinOp::Add, flags) = data.kind else {
        return None;
    };
    let (x, y) = (data.lhs(), data.rhs());
    if let Some(d) = ivs.iter().position(|&iv| iv == x) {
        return Some((d, Some(y), false));
    }
    if let Some(d) = ivs.iter().position(|&iv| iv == y) {
        return Some((d, Some(x), false));
    }
    if !flags.nsw {
        return None;
    }
    if let Some(d) = widened_iv(x) {
        return Some((d, Some(y), true));
    }
    widened_iv(y).map(|d| (d, Some(x), true))
}

/// Collects comparisons `lhs < rhs` / `lhs <= rhs` that must hold when `v`
/// equals `polarity`; true if they are also sufficient (`v == polarity`
/// exactly when all of them hold).
fn necessary(func: &Function, v: Value, polarity: bool, depth: usize, out: &mut Vec<Atom>) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if let Some(c) = const_bool(func, v) {
        // Always `polarity` (no condition) or never (no atom says so).
        return c == polarity;
    }
    let Some(op) = func.defining_op(v) else {
        return false;
    };
    let data = &func.ops[op];
    match &data.kind {
        OpKind::Cmp(pred) => {
            let (x, y) = (data.lhs(), data.rhs());
            // Normalise to `pred` holding.
            let pred = if polarity { *pred } else { negate(*pred) };
            let atom = |lhs, rhs, strict, signed| Atom {
                lhs,
                rhs,
                strict,
                signed,
            };
            let a = match pred {
                CmpPred::Slt => atom(x, y, true, true),
                CmpPred::Sle => atom(x, y, false, true),
                CmpPred::Sgt => atom(y, x, true, true),
                CmpPred::Sge => atom(y, x, false, true),
                CmpPred::Ult => atom(x, y, true, false),
                CmpPred::Ule => atom(x, y, false, false),
                CmpPred::Ugt => atom(y, x, true, false),
                CmpPred::Uge => atom(y, x, false, false),
                _ => return false,
            };
            out.push(a);
            true
        }
        OpKind::Binary(BinOp::Xor, _) => {
            if let Some(c) = const_bool(func, data.rhs()) {
                necessary(func, data.lhs(), polarity ^ c, depth + 1, out)
            } else if let Some(c) = const_bool(func, data.lhs()) {
                necessary(func, data.rhs(), polarity ^ c, depth + 1, out)
            } else {
                false
            }
        }
        OpKind::Binary(BinOp::And, _) if polarity => {
            let a = necessary(func, data.lhs(), true, depth + 1, out);
            necessary(func, data.rhs(), true, depth + 1, out) && a
        }
        OpKind::Binary(BinOp::Or, _) if !polarity => {
            let a = necessary(func, data.lhs(), false, depth + 1, out);
            necessary(func, data.rhs(), false, depth + 1, out) && a
        }
        OpKind::If if data.results.len() == 1 => {
            // v == pol  <=>  (c && t == pol) || (!c && e == pol)
            let c = data.cond();
            let Some((t, e)) = arm_values(func, data) else {
                return false;
            };
            if const_bool(func, t) == Some(!polarity) {
                let a = necessary(func, c, false, depth + 1, out);
                necessary(func, e, polarity, depth + 1, out) && a
            } else if const_bool(func, e) == Some(!polarity) {
                let a = necessary(func, c, true, depth + 1, out);
                necessary(func, t, polarity, depth + 1, out) && a
            } else {
                false
            }
        }
        _ => false,
    }
}

fn negate(p: CmpPred) -> CmpPred {
    match p {
        CmpPred::Slt => CmpPred::Sge,
        CmpPred::Sle => CmpPred::Sgt,
        CmpPred::Sgt => CmpPred::Sle,
        CmpPred::Sge => CmpPred::Slt,
        CmpPred::Ult => CmpPred::Uge,
        CmpPred::Ule => CmpPred::Ugt,
        CmpPred::Ugt => CmpPred::Ule,
        CmpPred::Uge => CmpPred::Ult,
        CmpPred::Eq => CmpPred::Ne,
        other => other,
    }
}

fn const_bool(func: &Function, v: Value) -> Option<bool> {
    let op = func.defining_op(v)?;
    match func.ops[op].kind {
        OpKind::Const { bits } if func.ops[op].results.len() == 1 => Some(bits & 1 == 1),
        _ => None,
    }
}

/// `v` made available before the loop whose body is `body`: itself when
/// defined outside, else a clone of its pure defining ops (appended to
/// `inserted`, to be placed before the loop).
fn materialize(
    types: &Types,
    func: &mut Function,
    body: Region,
    v: Value,
    memo: &mut HashMap<Value, Value>,
    inserted: &mut Vec<Op>,
) -> Option<Value> {
    if let Some(&m) = memo.get(&v) {
        return Some(m);
    }
    if !defined_under(func, body, v) {
        return Some(v);
    }
    let op = func.defining_op(v)?;
    let data = func.ops[op].clone();
    let thread_dependent = matches!(data.kind, OpKind::ThreadId(_) | OpKind::LaneId);
    if !data.kind.is_pure() || thread_dependent || !hoistable(types, func, op) {
        return None;
    }
    let mut operands = Vec::new();
    for &o in &data.operands {
        operands.push(materialize(types, func, body, o, memo, inserted)?);
    }
    let result_types: Vec<_> = data.results.iter().map(|&r| func.value_type(r)).collect();
    // The clone runs before the loop even when no iteration would have run
    // the original: it may not assume `nsw`.
    let kind = match data.kind {
        OpKind::Binary(b, _) => OpKind::Binary(b, ArithFlags::NONE),
        k => k,
    };
    let clone = func.new_op(kind, operands, &result_types, vec![], data.loc);
    for (&old, &new) in data.results.iter().zip(&func.ops[clone].results.clone()) {
        func.values[new].name = func.values[old].name.clone();
        memo.insert(old, new);
    }
    inserted.push(clone);
    memo.get(&v).copied()
}

/// True if pure op `op` may run before the loop even where the loop would
/// not have run it (no iteration, or a branch of the guard not taken): it
/// cannot trap. Divisions and shifts qualify by a constant that is safe.
fn hoistable(types: &Types, func: &Function, op: Op) -> bool {
    let data = &func.ops[op];
    if crate::passes::predicate_barriers::speculable(func, op) {
        return true;
    }
    let OpKind::Binary(b, _) = &data.kind else {
        return false;
    };
    let y = data.rhs();
    let Some(bits) = func.const_bits(y) else {
        return false;
    };
    let width = u32::from(types[func.value_type(y)].int_bits().unwrap_or(64));
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let k = bits & mask;
    match b {
        BinOp::UDiv | BinOp::URem => k != 0,
        BinOp::SDiv | BinOp::SRem => k != 0 && k != mask,
        BinOp::Shl | BinOp::LShr | BinOp::AShr => k < u64::from(width),
        _ => false,
    }
}

/// The one `if` of a loop body `ops` (ending in its terminator) that has an
/// effect, when everything else is inert and one of its branches is too:
/// (the `if`, true when the work is in its then-branch).
pub(crate) fn sole_guard(func: &Function, ops: &[Op]) -> Option<(Op, bool)> {
    let (_, work) = ops.split_last()?;
    let mut effectful = work.iter().copied().filter(|&o| !inert_op(func, o));
    let guard = effectful.next()?;
    if effectful.next().is_some() || func.ops[guard].kind != OpKind::If {
        return None;
    }
    let data = &func.ops[guard];
    match (
        region_inert(func, data.then_region()),
        region_inert(func, data.else_region()),
    ) {
        (false, true) => Some((guard, true)),
        (true, false) => Some((guard, false)),
        _ => None,
    }
}

/// The first values the then and else regions of `if` `data` yield.
pub(crate) fn arm_values(func: &Function, data: &OpData) -> Option<(Value, Value)> {
    let yielded = |r: Region| {
        func.regions[r]
            .ops
            .last()
            .and_then(|&t| func.ops[t].values().first().copied())
    };
    Some((yielded(data.then_region())?, yielded(data.else_region())?))
}

/// True if `v` is defined in `region` or below it.
pub(crate) fn defined_under(func: &Function, region: Region, v: Value) -> bool {
    let def_region = match func.values[v].def {
        cucc_ir::ValueDef::Arg { region: r, .. } => r,
        cucc_ir::ValueDef::Result { op, .. } => {
            let mut walk = Vec::new();
            func.walk_region(region, &mut walk);
            return walk.iter().any(|&(_, o)| o == op);
        }
    };
    if def_region == region {
        return true;
    }
    let mut walk = Vec::new();
    func.walk_region(region, &mut walk);
    walk.iter()
        .any(|&(_, o)| func.ops[o].regions.contains(&def_region))
}

/// True if `op` has no effect besides its results.
pub(crate) fn inert_op(func: &Function, op: Op) -> bool {
    let d = &func.ops[op];
    d.kind.is_pure()
        || matches!(
            d.kind,
            OpKind::Load {
                volatile: false,
                ..
            }
        )
        || (matches!(d.kind, OpKind::If | OpKind::For { .. })
            && d.regions.iter().all(|&r| region_inert(func, r)))
}

/// True if running `region` has no effect besides its yielded values.
pub(crate) fn region_inert(func: &Function, region: Region) -> bool {
    func.regions[region]
        .ops
        .iter()
        .all(|&o| func.ops[o].kind == OpKind::Yield || inert_op(func, o))
}
