//! The guards around the loops `interchange` moves: found, checked for
//! every thread before the block runs, and folded away in the version that
//! runs when all hold.

use crate::passes::predicate_barriers::speculable;
use crate::passes::uniform::Uniformity;
use cucc_ir::edit::{clone_op, replace_all_uses};
use cucc_ir::{BinOp, Builder, CmpPred, Function, Op, OpKind, Region, Space, Types, Value};
use std::collections::{HashMap, HashSet};

/// A guard: an `if` on a thread-dependent condition and the branch (0:
/// then, 1: else) that holds the loops.
pub(super) type Guard = (Op, usize);

/// How to evaluate the guards in a loop of their own: the ops computing
/// their conditions (program order) and each condition with the value it
/// must have.
#[derive(Default)]
pub(super) struct Check {
    slice: Vec<Op>,
    conds: Vec<(Value, bool)>,
}

impl Check {
    /// True when there is nothing to check.
    pub(super) fn is_empty(&self) -> bool {
        self.conds.is_empty()
    }
}

/// The guards of `loops` in thread loop `p`, outermost first, or why they
/// cannot be checked ahead (a condition that reads memory, divides, or
/// depends on a value a loop carries).
pub(super) fn find(
    func: &Function,
    u: &Uniformity,
    p: Op,
    loops: &[Op],
) -> Result<(Vec<Guard>, Check), String> {
    let parents = func.parents();
    let mut guards: Vec<Guard> = Vec::new();
    for &l in loops {
        let mut child = l;
        for a in parents.ancestors(l) {
            if a == p {
                break;
            }
            let data = &func.ops[a];
            if data.kind == OpKind::If && !u.is_uniform(data.cond()) {
                let branch = usize::from(parents.region_of(child) != Some(data.then_region()));
                if let Some(g) = guards.iter().find(|g| g.0 == a) {
                    if g.1 != branch {
                        return Err("loops sit in both branches of one guard".into());
                    }
                } else {
                    guards.push((a, branch));
                }
            }
            child = a;
        }
    }
    if guards.iter().any(|&(g, b)| singles_out(func, u, g, b)) {
        return Err(
            "its guard compares a thread-dependent value for equality: few threads pass it, \
             and the version without guards would seldom run"
                .into(),
        );
    }
    let mut set = HashSet::new();
    let ivs = &func.regions[func.ops[p].body()].args;
    for &(g, _) in &guards {
        slice(func, u, ivs, func.ops[g].cond(), &mut set)?;
    }
    let order: Vec<Op> = {
        let mut walk = Vec::new();
        func.walk_region(func.ops[p].body(), &mut walk);
        walk.into_iter().map(|(_, o)| o).collect()
    };
    guards.sort_by_key(|g| order.iter().position(|&o| o == g.0));
    let check = Check {
        slice: order.iter().copied().filter(|o| set.contains(o)).collect(),
        conds: guards
            .iter()
            .map(|&(g, b)| (func.ops[g].cond(), b == 0))
            .collect(),
    };
    Ok((guards, check))
}

/// True if taking branch `branch` of guard `g` means a thread-dependent
/// value equals a uniform one (`if (tx == df - 1)`): usually one thread.
fn singles_out(func: &Function, u: &Uniformity, g: Op, branch: usize) -> bool {
    let Some(d) = func.defining_op(func.ops[g].cond()) else {
        return false;
    };
    let data = &func.ops[d];
    let pred = matches!(
        (&data.kind, branch),
        (OpKind::Cmp(CmpPred::Eq), 0) | (OpKind::Cmp(CmpPred::Ne), 1)
    );
    pred && (u.is_uniform(data.lhs()) != u.is_uniform(data.rhs()))
}

/// Adds to `out` the ops of the thread loop computing `v`; they must be
/// pure and unable to trap (a pure `if` counts with its regions).
fn slice(
    func: &Function,
    u: &Uniformity,
    ivs: &[Value],
    v: Value,
    out: &mut HashSet<Op>,
) -> Result<(), String> {
    if !u.is_inside(v) || ivs.contains(&v) {
        return Ok(());
    }
    let Some(op) = func.defining_op(v) else {
        return Err("a guard's condition depends on a value a loop carries".into());
    };
    if out.contains(&op) {
        return Ok(());
    }
    if !pure_op(func, op) {
        return Err(format!(
            "a guard's condition is computed by `{}`, which cannot run ahead of the guard",
            func.ops[op].kind.mnemonic()
        ));
    }
    out.insert(op);
    // Operands of the op and of the ops nested in it, less the values
    // defined inside it.
    let mut walk = vec![(func.body, op)];
    for &r in &func.ops[op].regions {
        func.walk_region(r, &mut walk);
    }
    let mut defined: HashSet<Value> = HashSet::new();
    for &(_, o) in &walk {
        defined.extend(func.ops[o].results.iter().copied());
        for &r in &func.ops[o].regions {
            defined.extend(func.regions[r].args.iter().copied());
        }
    }
    for &(_, o) in &walk {
        for &x in &func.ops[o].operands {
            if !defined.contains(&x) {
                slice(func, u, ivs, x, out)?;
            }
        }
    }
    Ok(())
}

/// Pure and unable to trap: a speculable op, or an `if` made of such ops.
fn pure_op(func: &Function, op: Op) -> bool {
    crate::passes::launch_form::if_tree_all(func, op, &|f, o| {
        !matches!(f.ops[o].kind, OpKind::Alloca { .. }) && speculable(f, o)
    })
}

/// Replaces each guard (outermost first) by the ops of its branch that
/// holds the loops: valid where every thread takes that branch.
pub(super) fn fold(func: &mut Function, guards: &[Guard]) {
    for &(g, branch) in guards {
        let parents = func.parents();
        let Some(region) = parents.region_of(g) else {
            continue;
        };
        let Some(at) = func.find_op(region, g) else {
            continue;
        };
        let r = if branch == 0 {
            func.ops[g].then_region()
        } else {
            func.ops[g].else_region()
        };
        let mut ops = std::mem::take(&mut func.regions[r].ops);
        let Some(term) = ops.pop() else {
            continue;
        };
        let yields = func.ops[term].values().to_vec();
        let results = func.ops[g].results.clone();
        func.regions[region].ops.splice(at..=at, ops);
        for (&res, &y) in results.iter().zip(&yields) {
            replace_all_uses(func, res, y);
        }
    }
}

/// Puts thread loop `p` (in `region`, grid iteration body `grid`) under
/// `if (cond) { p } else { original }`, `cond` being `extra` (when given),
/// the block's shape is `X x 1 x 1` (with `one_d`; `p` then runs over
/// extents 1 in y and z) and every thread's guards hold (a serial loop over
/// `p`'s iterations ahead of it). Returns the region now holding `p`.
#[allow(clippy::too_many_arguments)]
pub(super) fn version(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    grid: Region,
    p: Op,
    original: Op,
    check: &Check,
    one_d: bool,
    extra: Option<Value>,
) -> Region {
    let loc = func.ops[p].loc;
    let ubs = func.ops[p].ubs().to_vec();
    let ivs = func.regions[func.ops[p].body()].args.clone();
    let ty = func.value_type(ubs[0]);
    let i1 = types.i1();
    let cell = (!check.is_empty()).then(|| {
        let mut b = Builder::new(types, func);
        b.set_loc(loc);
        b.set_insertion_at(grid, 0);
        b.alloca(Space::Private, i1)
    });
    let at = func.op_index(region, p);
    let mut b = Builder::new(types, func);
    b.set_loc(loc);
    b.set_insertion_at(region, at);
    let mut cond: Option<Value> = extra;
    let mut one = None;
    if one_d {
        let c1 = b.const_int(ty, 1);
        let ey = b.cmp(CmpPred::Eq, ubs[1], c1);
        let ez = b.cmp(CmpPred::Eq, ubs[2], c1);
        let shape = b.binary(BinOp::And, ey, ez);
        cond = Some(match cond {
            Some(c) => b.binary(BinOp::And, c, shape),
            None => shape,
        });
        one = Some(c1);
    }
    if let Some(cell) = cell {
        let t = b.bool(true);
        b.store(cell, t);
        let zero = b.const_int(ty, 0);
        let step = b.const_int(ty, 1);
        // for z { for y { for x { ... } } }, x innermost.
        let mut map: HashMap<Value, Value> = HashMap::new();
        let mut bodies = Vec::new();
        for k in (0..ivs.len()).rev() {
            let (_, body) = b.create_for(zero, ubs[k], step, &[], false);
            let iv = b.func.regions[body].args[0];
            map.insert(ivs[k], iv);
            bodies.push(body);
            b.set_insertion_at(body, 0);
        }
        let inner = *bodies.last().unwrap_or(&region);
        let mut n = 0;
        for &op in &check.slice {
            let cl = clone_op(b.func, op, &mut map);
            b.func.regions[inner].ops.insert(n, cl);
            n += 1;
        }
        b.set_insertion_at(inner, n);
        let mut acc = b.load(cell, i1);
        for &(c, want) in &check.conds {
            let c = *map.get(&c).unwrap_or(&c);
            let c = if want {
                c
            } else {
                let t = b.bool(true);
                b.binary(BinOp::Xor, c, t)
            };
            acc = b.binary(BinOp::And, acc, c);
        }
        b.store(cell, acc);
        for &body in &bodies {
            let end = b.func.regions[body].ops.len();
            b.set_insertion_at(body, end);
            b.yield_(vec![]);
        }
        let after = at_end_of(b.func, region, p);
        b.set_insertion_at(region, after);
        let all = b.load(cell, i1);
        cond = Some(match cond {
            Some(c) => b.binary(BinOp::And, c, all),
            None => all,
        });
    }
    let cond = match cond {
        Some(c) => c,
        None => b.bool(true),
    };
    let (_, then_r, else_r) = b.create_if(cond, &[]);
    let y1 = b.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    let y2 = b.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
    func.regions[region].ops.retain(|&o| o != p);
    func.regions[then_r].ops = vec![p, y1];
    func.regions[else_r].ops = vec![original, y2];
    if let Some(c1) = one {
        let ubs = func.ops[p].ubs_mut();
        ubs[1] = c1;
        ubs[2] = c1;
    }
    then_r
}

/// The index just before `p` in `region` (where the ops built before it
/// end).
fn at_end_of(func: &Function, region: Region, p: Op) -> usize {
    func.op_index(region, p)
}
