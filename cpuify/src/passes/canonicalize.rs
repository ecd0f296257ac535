//! `canonicalize`: constant folding, algebraic identities, common
//! subexpression elimination and dead code elimination, to a fixpoint.
//!
//! Folding uses the interpreter's scalar semantics (`cucc_ir::interp::eval`),
//! so a folded constant is exactly what the op would have computed (integer
//! division by zero included); out-of-range shifts are left for run time.
//! `if` with a constant condition is replaced by its taken region and a
//! `for` that runs zero times by its initial values. CSE works on pure ops
//! within the scope of their operands' definitions. An `if` result that is
//! one constant from each branch becomes a `select` of the condition
//! (a flag set under a guard is the guard), and loop-state constants of
//! nvcc's structured loops fold away.
//!
//! Paired 32-bit shuffles of a 64-bit value's halves become one 64-bit
//! shuffle ([`super::wide_shuffle`]). A texture fetch drops the results
//! after its last used one: PTX's `tex` always returns four, and a
//! `tex1Dfetch<float>` uses one, so the fetch of a one-channel texture
//! can be the direct load emit_c makes of a fetch whose results match the
//! texel.
//!
//! Each step is one walk: replaced values go into a [`Subst`] applied to
//! each op as the walk reaches it (definitions come before uses) and once
//! more over the whole function at the end of the step; removed ops leave
//! their regions in one pass per region. (Replacing each value's uses, and
//! searching the region for each removed op, as they happened was
//! quadratic in the size of the kernel.)

use crate::error::CpuifyError;
use cucc_ir::edit::{remove_ops, replace_uses_map, uses};
use cucc_ir::interp::eval::{self, Scalar};
use cucc_ir::{
    ArithFlags, BinOp, CmpPred, FuncId, Function, Module, Op, OpKind, Region, TexKind, Types,
    Value, ValueDef,
};
use std::collections::{HashMap, HashSet};

/// Rounds of folding and elimination before giving up on a fixpoint.
const MAX_ROUNDS: usize = 16;

/// Canonicalizes function `fid`.
pub fn canonicalize(module: &mut Module, fid: FuncId) -> Result<(), CpuifyError> {
    let Module {
        types, functions, ..
    } = module;
    let func = &mut functions[fid];
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        let body = func.body;
        let mut subst = Subst::default();
        changed |= fold_region(types, func, body, &mut subst);
        subst.finish(func);
        let mut subst = Subst::default();
        changed |= cse_region(func, body, &mut HashMap::new(), &mut subst);
        subst.finish(func);
        changed |= super::wide_shuffle::fuse_wide_shuffles(types, func);
        changed |= dce(func);
        changed |= trim_fetch_results(func);
        changed |= flag_selects(types, func);
        changed |= continue_constants(func);
        changed |= dead_carried(func);
        if !changed {
            break;
        }
    }
    Ok(())
}

/// Values replaced during one step, each by the value it became.
#[derive(Default)]
struct Subst {
    map: HashMap<Value, Value>,
}

impl Subst {
    fn insert(&mut self, from: Value, to: Value) {
        if from != to {
            self.map.insert(from, to);
        }
    }

    /// What `v` became, following chains (`a -> b -> c`).
    fn resolve(&self, mut v: Value) -> Value {
        let mut steps = 0;
        while let Some(&n) = self.map.get(&v) {
            v = n;
            steps += 1;
            if steps > self.map.len() {
                break;
            }
        }
        v
    }

    /// Rewrites the operands of `op` (not of its nested ops).
    fn apply(&self, func: &mut Function, op: Op) {
        if self.map.is_empty() {
            return;
        }
        for v in &mut func.ops[op].operands {
            *v = self.resolve(*v);
        }
    }

    /// Replaces every remaining use, in one walk.
    fn finish(self, func: &mut Function) {
        if self.map.is_empty() {
            return;
        }
        let resolved: HashMap<Value, Value> =
            self.map.keys().map(|&k| (k, self.resolve(k))).collect();
        replace_uses_map(func, &resolved);
    }
}

fn scalar(types: &Types, func: &Function, v: Value) -> Scalar {
    Scalar::of(types, func.value_type(v))
}

/// Folds ops of `region` (and nested regions); true if anything changed.
fn fold_region(types: &mut Types, func: &mut Function, region: Region, subst: &mut Subst) -> bool {
    let mut changed = false;
    let ops = std::mem::take(&mut func.regions[region].ops);
    let mut out = Vec::with_capacity(ops.len());
    for op in ops {
        subst.apply(func, op);
        for r in func.ops[op].regions.clone() {
            changed |= fold_region(types, func, r, subst);
        }
        match fold_op(types, func, op, subst) {
            Some(replacement) => {
                out.extend(replacement);
                changed = true;
            }
            None => out.push(op),
        }
    }
    func.regions[region].ops = out;
    changed
}

/// A new constant replacing `op`'s single result; returns it, to take
/// `op`'s place.
fn replace_with_const(
    func: &mut Function,
    op: Op,
    bits: u64,
    subst: &mut Subst,
) -> Option<Vec<Op>> {
    let result = func.ops[op].results[0];
    let ty = func.value_type(result);
    let loc = func.ops[op].loc;
    let c = func.new_op(OpKind::Const { bits }, vec![], &[ty], vec![], loc);
    subst.insert(result, func.ops[c].results[0]);
    Some(vec![c])
}

/// `op`'s single result becomes `v`; `op` goes.
fn replace_with_value(func: &mut Function, op: Op, v: Value, subst: &mut Subst) -> Option<Vec<Op>> {
    subst.insert(func.ops[op].results[0], v);
    Some(Vec::new())
}

/// Folds `op`: `None` keeps it, `Some(ops)` puts `ops` in its place.
fn fold_op(types: &mut Types, func: &mut Function, op: Op, subst: &mut Subst) -> Option<Vec<Op>> {
    let data = func.ops[op].clone();
    let consts: Vec<Option<u64>> = data.operands.iter().map(|&v| func.const_bits(v)).collect();
    let all_const = !consts.is_empty() && consts.iter().all(Option::is_some);
    if !all_const
        && matches!(
            data.kind,
            OpKind::Binary(..) | OpKind::Cmp(_) | OpKind::Select
        )
    {
        if let Some(bits) = one_flag_constant(types, func, op) {
            return replace_with_const(func, op, bits, subst);
        }
    }
    let c = |i: usize| consts[i].unwrap_or(0);
    match &data.kind {
        OpKind::Binary(b, _) if data.operands.len() == 2 => {
            let ty = scalar(types, func, data.results[0]);
            if all_const {
                if let Ok(bits) = eval::binary(*b, ty, c(0), c(1)) {
                    return replace_with_const(func, op, bits, subst);
                }
                return None;
            }
            if *b == BinOp::Add {
                if let Some(g) = div_mod_sum(func, data.lhs(), data.rhs()) {
                    return replace_with_value(func, op, g, subst);
                }
            }
            if let Some(v) = identity(*b, ty, data.lhs(), data.rhs(), consts[0], consts[1]) {
                return match v {
                    Identity::Value(v) => replace_with_value(func, op, v, subst),
                    Identity::Zero => replace_with_const(func, op, 0, subst),
                };
            }
            None
        }
        OpKind::Unary(u) if all_const && data.operands.len() == 1 => {
            let ty = scalar(types, func, data.results[0]);
            match eval::unary(*u, ty, c(0)) {
                Ok(bits) => replace_with_const(func, op, bits, subst),
                Err(_) => None,
            }
        }
        OpKind::Cmp(p) if data.operands.len() == 2 => {
            let ty = scalar(types, func, data.lhs());
            if all_const {
                if let Ok(r) = eval::cmp(*p, ty, c(0), c(1)) {
                    return replace_with_const(func, op, u64::from(r), subst);
                }
            } else if data.lhs() == data.rhs() && !p.is_float() {
                let r = matches!(
                    p,
                    CmpPred::Eq | CmpPred::Sle | CmpPred::Sge | CmpPred::Ule | CmpPred::Uge
                );
                return replace_with_const(func, op, u64::from(r), subst);
            } else if let Some(v) = cmp_of_select(func, *p, data.lhs(), consts[1]) {
                return match v {
                    SelectCmp::Cond(c) => replace_with_value(func, op, c, subst),
                    SelectCmp::NotCond(c) => replace_with_not(func, op, c, subst),
                    SelectCmp::Const(bit) => replace_with_const(func, op, u64::from(bit), subst),
                };
            }
            None
        }
        OpKind::Cast(k) if all_const && data.operands.len() == 1 => {
            let from = scalar(types, func, data.input());
            let to = scalar(types, func, data.results[0]);
            match eval::cast(*k, from, to, c(0)) {
                Ok(bits) => replace_with_const(func, op, bits, subst),
                Err(_) => None,
            }
        }
        OpKind::Select if data.operands.len() == 3 => {
            if let Some(cond) = consts[0] {
                let v = if cond & 1 == 1 {
                    data.if_true()
                } else {
                    data.if_false()
                };
                return replace_with_value(func, op, v, subst);
            }
            if data.if_true() == data.if_false() {
                return replace_with_value(func, op, data.if_true(), subst);
            }
            // `select c, true, false` is `c`; `select c, false, true` is `!c`.
            let ty = func.value_type(data.results[0]);
            if ty == func.value_type(data.cond()) {
                match (consts[1], consts[2]) {
                    (Some(1), Some(0)) => return replace_with_value(func, op, data.cond(), subst),
                    (Some(0), Some(1)) => return replace_with_not(func, op, data.cond(), subst),
                    _ => {}
                }
            }
            None
        }
        OpKind::If => {
            let cond = consts.first().copied().flatten()?;
            let taken = data.branch(cond & 1 == 1);
            Some(inline_region(func, op, taken, subst))
        }
        OpKind::For { unsigned } => {
            let (Some(lb), Some(ub)) = (consts[0], consts[1]) else {
                return None;
            };
            let ty = scalar(types, func, data.lb());
            let pred = if *unsigned {
                CmpPred::Ult
            } else {
                CmpPred::Slt
            };
            if eval::cmp(pred, ty, lb, ub) == Ok(false) {
                for (&r, &init) in data.results.iter().zip(data.inits()) {
                    subst.insert(r, init);
                }
                return Some(Vec::new());
            }
            None
        }
        _ => None,
    }
}

/// The constant `op`'s single result has whatever the one `i1` it depends
/// on is: its operands, through pure arithmetic, compares, selects and
/// casts (at most a few levels), read nothing but constants and that one
/// flag, and both of the flag's values give the same result (nvcc's branch
/// structuring leaves `state == 6 ? 0 : state` on a state that is 0 or 6
/// depending on a flag).
fn one_flag_constant(types: &Types, func: &Function, op: Op) -> Option<u64> {
    let mut leaf = None;
    let operands = &func.ops[op].operands;
    if !operands.iter().all(|&o| leaves(func, o, &mut leaf, 0)) {
        return None;
    }
    let flag = leaf?;
    if types[func.value_type(flag)].int_bits() != Some(1) {
        return None;
    }
    let r = func.ops[op].results[0];
    let at0 = eval_with(types, func, r, flag, 0, 0)?;
    let at1 = eval_with(types, func, r, flag, 1, 0)?;
    (at0 == at1).then_some(at0)
}

/// Walks `v`'s pure definition: true if it reads at most one non-constant
/// leaf (stored in `leaf`) within the depth limit. A comparison is a leaf
/// (the flag), not walked into.
fn leaves(func: &Function, v: Value, leaf: &mut Option<Value>, depth: usize) -> bool {
    if func.const_bits(v).is_some() {
        return true;
    }
    let pure_def = func.defining_op(v).filter(|&d| {
        matches!(
            func.ops[d].kind,
            OpKind::Binary(..) | OpKind::Select | OpKind::Cast(_)
        )
    });
    match pure_def {
        Some(d) if depth < 6 => func.ops[d]
            .operands
            .iter()
            .all(|&o| leaves(func, o, leaf, depth + 1)),
        _ => match leaf {
            Some(l) => *l == v,
            None => {
                *leaf = Some(v);
                true
            }
        },
    }
}

/// `v` evaluated with `flag` set to `bit` (the walk [`leaves`] accepted).
fn eval_with(
    types: &Types,
    func: &Function,
    v: Value,
    flag: Value,
    bit: u64,
    depth: usize,
) -> Option<u64> {
    if v == flag {
        return Some(bit);
    }
    if let Some(c) = func.const_bits(v) {
        return Some(c);
    }
    if depth > 6 {
        return None;
    }
    let d = func.defining_op(v)?;
    let data = &func.ops[d];
    let arg = |w: Value| eval_with(types, func, w, flag, bit, depth + 1);
    let sc = |w: Value| Scalar::of(types, func.value_type(w));
    match data.kind {
        OpKind::Binary(b, _) => eval::binary(b, sc(v), arg(data.lhs())?, arg(data.rhs())?).ok(),
        OpKind::Cmp(p) => eval::cmp(p, sc(data.lhs()), arg(data.lhs())?, arg(data.rhs())?)
            .ok()
            .map(u64::from),
        OpKind::Select => {
            if arg(data.cond())? & 1 == 1 {
                arg(data.if_true())
            } else {
                arg(data.if_false())
            }
        }
        OpKind::Cast(k) => eval::cast(k, sc(data.input()), sc(v), arg(data.input())?).ok(),
        _ => None,
    }
}

/// What a compare of a two-constant select is.
enum SelectCmp {
    /// The select's condition.
    Cond(Value),
    /// Its negation.
    NotCond(Value),
    /// A constant.
    Const(bool),
}

/// `x == K` or `x != K` where `x` is `select c, A, B` of constants
/// `A != B`, in terms of `c`.
fn cmp_of_select(func: &Function, p: CmpPred, x: Value, k: Option<u64>) -> Option<SelectCmp> {
    let k = k?;
    if !matches!(p, CmpPred::Eq | CmpPred::Ne) {
        return None;
    }
    let sel = func.defining_op(x)?;
    let d = &func.ops[sel];
    if d.kind != OpKind::Select || d.operands.len() != 3 {
        return None;
    }
    let (a, b) = (
        func.const_bits(d.if_true())?,
        func.const_bits(d.if_false())?,
    );
    if a == b {
        return None;
    }
    let (c, eq) = (d.cond(), p == CmpPred::Eq);
    Some(if k == a {
        if eq {
            SelectCmp::Cond(c)
        } else {
            SelectCmp::NotCond(c)
        }
    } else if k == b {
        if eq {
            SelectCmp::NotCond(c)
        } else {
            SelectCmp::Cond(c)
        }
    } else {
        SelectCmp::Const(!eq)
    })
}

/// `!c` in place of `op`'s single result: `c xor true`.
fn replace_with_not(func: &mut Function, op: Op, c: Value, subst: &mut Subst) -> Option<Vec<Op>> {
    let result = func.ops[op].results[0];
    let ty = func.value_type(c);
    let loc = func.ops[op].loc;
    let t = func.new_op(OpKind::Const { bits: 1 }, vec![], &[ty], vec![], loc);
    let tv = func.ops[t].results[0];
    let x = func.new_op(
        OpKind::Binary(BinOp::Xor, ArithFlags::default()),
        vec![c, tv],
        &[ty],
        vec![],
        loc,
    );
    subst.insert(result, func.ops[x].results[0]);
    Some(vec![t, x])
}

/// An integer `if` result that the `then` region yields as one constant
/// and the `else` region as another is `select cond, A, B`: a pure value
/// the compares on it fold into the condition (PTX's `computed` flags
/// arrive as `i16` 0/1 set on both sides of a branch). The select goes
/// before the `if`, which stays for its other effects; true if any.
fn flag_selects(types: &Types, func: &mut Function) -> bool {
    let used = uses(func);
    let mut found: Vec<(Region, Op, usize, u64, u64)> = Vec::new();
    for (region, op) in func.walk() {
        let data = &func.ops[op];
        if data.kind != OpKind::If || data.regions.len() != 2 || data.operands.len() != 1 {
            continue;
        }
        let yielded = |r: Region| {
            let last = *func.regions[r].ops.last()?;
            matches!(func.ops[last].kind, OpKind::Yield).then(|| func.ops[last].operands.clone())
        };
        let (Some(t), Some(e)) = (yielded(data.then_region()), yielded(data.else_region())) else {
            continue;
        };
        for (k, &r) in data.results.iter().enumerate() {
            if !used.contains_key(&r) || !types[func.value_type(r)].is_int() {
                continue;
            }
            let (Some(a), Some(b)) = (
                t.get(k).and_then(|&v| func.const_bits(v)),
                e.get(k).and_then(|&v| func.const_bits(v)),
            ) else {
                continue;
            };
            if a != b {
                found.push((region, op, k, a, b));
            }
        }
    }
    if found.is_empty() {
        return false;
    }
    let mut before: HashMap<Op, Vec<Op>> = HashMap::new();
    let mut map = HashMap::new();
    for &(_, op, k, a, b) in &found {
        let r = func.ops[op].results[k];
        let cond = func.ops[op].cond();
        let ty = func.value_type(r);
        let loc = func.ops[op].loc;
        let ca = func.new_op(OpKind::Const { bits: a }, vec![], &[ty], vec![], loc);
        let cb = func.new_op(OpKind::Const { bits: b }, vec![], &[ty], vec![], loc);
        let (va, vb) = (func.ops[ca].results[0], func.ops[cb].results[0]);
        let sel = func.new_op(OpKind::Select, vec![cond, va, vb], &[ty], vec![], loc);
        map.insert(r, func.ops[sel].results[0]);
        before.entry(op).or_default().extend([ca, cb, sel]);
    }
    replace_uses_map(func, &map);
    let regions: HashSet<Region> = found.iter().map(|f| f.0).collect();
    for region in regions {
        let ops = std::mem::take(&mut func.regions[region].ops);
        let mut out = Vec::with_capacity(ops.len());
        for op in ops {
            if let Some(pre) = before.remove(&op) {
                out.extend(pre);
            }
            out.push(op);
        }
        func.regions[region].ops = out;
    }
    true
}

/// Loop-state constants of `while`s. A result the condition passes as
/// `select %c, A, B` of the condition itself is `B` after the loop. And a
/// `while` argument that is constant on every trip: the loop continues
/// only when `condition` finds `x == K`, `x` goes unchanged through the
/// `do` region back to that argument, and the argument starts as `K`; so
/// every trip sees `K` (PTX's branch structuring carries a "where to go"
/// state this way: 0 while looping, a label's number on the way out).
/// Its uses in the `before` region read a new constant; true if any.
fn continue_constants(func: &mut Function) -> bool {
    let mut found: Vec<(Region, Value, u64)> = Vec::new();
    let mut exits: Vec<(Region, Op, Value, u64)> = Vec::new();
    for (region, op) in func.walk() {
        let data = &func.ops[op];
        if data.kind != OpKind::While || data.regions.len() != 2 {
            continue;
        }
        let (before, after) = (data.before(), data.after());
        let (Some(&cond), Some(&y)) = (
            func.regions[before].ops.last(),
            func.regions[after].ops.last(),
        ) else {
            continue;
        };
        if func.ops[cond].kind != OpKind::Condition || func.ops[y].kind != OpKind::Yield {
            continue;
        }
        let c = func.ops[cond].cond();
        // A result the condition passes as `select %c, A, B`: the loop ends
        // when `%c` is false, so the result is `B`.
        for (i, &x) in func.ops[cond].values().iter().enumerate() {
            let Some(sel) = func.defining_op(x) else {
                continue;
            };
            let sd = &func.ops[sel];
            if sd.kind == OpKind::Select && sd.cond() == c {
                if let (Some(b), Some(&r)) = (func.const_bits(sd.if_false()), data.results.get(i)) {
                    exits.push((region, op, r, b));
                }
            }
        }
        let Some(cmp) = func.defining_op(c) else {
            continue;
        };
        if func.ops[cmp].kind != OpKind::Cmp(CmpPred::Eq) {
            continue;
        }
        let (a, b) = (func.ops[cmp].lhs(), func.ops[cmp].rhs());
        let (x, k) = match (func.const_bits(a), func.const_bits(b)) {
            (None, Some(k)) => (a, k),
            (Some(k), None) => (b, k),
            _ => continue,
        };
        let aargs = &func.regions[after].args;
        let bargs = &func.regions[before].args;
        // `x` is forwarded as condition operand i, i.e. after argument i.
        for (i, &v) in func.ops[cond].values().iter().enumerate() {
            if v != x {
                continue;
            }
            let Some(&a) = aargs.get(i) else { continue };
            // ...which the do region yields unchanged to before argument p.
            for (p, &yv) in func.ops[y].values().iter().enumerate() {
                let (Some(&b), Some(&init)) = (bargs.get(p), data.inits().get(p)) else {
                    continue;
                };
                if yv == a
                    && func.const_bits(init) == Some(k)
                    && func.value_type(b) == func.value_type(x)
                {
                    found.push((before, b, k));
                }
            }
        }
    }
    let mut changed = false;
    let used = uses(func);
    for (region, w, r, bits) in exits {
        if !used.contains_key(&r) {
            continue;
        }
        let ty = func.value_type(r);
        let loc = func.ops[w].loc;
        let kop = func.new_op(OpKind::Const { bits }, vec![], &[ty], vec![], loc);
        let kv = func.ops[kop].results[0];
        func.insert_after(region, w, [kop]);
        replace_uses_map(func, &HashMap::from([(r, kv)]));
        changed = true;
    }
    for (before, b, k) in found {
        let used = uses(func);
        if !used.contains_key(&b) {
            continue;
        }
        let ty = func.value_type(b);
        let loc = func.regions[before]
            .ops
            .first()
            .map_or(cucc_ir::Loc::UNKNOWN, |&o| func.ops[o].loc);
        let kop = func.new_op(OpKind::Const { bits: k }, vec![], &[ty], vec![], loc);
        let kv = func.ops[kop].results[0];
        func.regions[before].ops.insert(0, kop);
        replace_uses_map(func, &HashMap::from([(b, kv)]));
        changed = true;
    }
    changed
}

/// `g` if `x + y` is `udiv(g, B) * B + urem(g, B)` in some operand order:
/// the global index a collapsed launch's body rebuilds from the thread and
/// block ids it divided out (`passes::collapse`). Exact in wrapping
/// arithmetic (the quotient times `B` plus the remainder is `g`).
fn div_mod_sum(func: &Function, x: Value, y: Value) -> Option<Value> {
    let bin = |v: Value, want: BinOp| {
        let o = func.defining_op(v)?;
        let d = &func.ops[o];
        (matches!(d.kind, OpKind::Binary(b, _) if b == want) && d.operands.len() == 2)
            .then(|| (d.lhs(), d.rhs()))
    };
    for (m, r) in [(x, y), (y, x)] {
        let Some((g, b)) = bin(r, BinOp::URem) else {
            continue;
        };
        let Some((p, q)) = bin(m, BinOp::Mul) else {
            continue;
        };
        for (quot, factor) in [(p, q), (q, p)] {
            if factor == b && bin(quot, BinOp::UDiv) == Some((g, b)) {
                return Some(g);
            }
        }
    }
    None
}

enum Identity {
    Value(Value),
    Zero,
}

/// `x + 0`, `x * 1`, `x * 0` and friends, for integers.
fn identity(
    b: BinOp,
    ty: Scalar,
    x: Value,
    y: Value,
    cx: Option<u64>,
    cy: Option<u64>,
) -> Option<Identity> {
    let Scalar::Int(w) = ty else {
        return None;
    };
    let ones = eval::mask(w, u64::MAX);
    use BinOp::*;
    match (b, cx, cy) {
        (Add | Sub | Or | Xor | Shl | LShr | AShr, _, Some(0)) => Some(Identity::Value(x)),
        (Add | Or | Xor, Some(0), _) => Some(Identity::Value(y)),
        (Mul | SDiv | UDiv, _, Some(1)) => Some(Identity::Value(x)),
        (Mul, Some(1), _) => Some(Identity::Value(y)),
        (Mul | And, _, Some(0)) | (Mul | And, Some(0), _) => Some(Identity::Zero),
        (And, _, Some(m)) if m == ones => Some(Identity::Value(x)),
        (And, Some(m), _) if m == ones => Some(Identity::Value(y)),
        (Sub | Xor, _, _) if x == y => Some(Identity::Zero),
        (And | Or | SMin | SMax | UMin | UMax, _, _) if x == y => Some(Identity::Value(x)),
        _ => None,
    }
}

/// The ops of `taken` (a region of `if` op `op`) less its yield, to take
/// the `if`'s place; the `if`'s results become the values `taken` yields.
fn inline_region(func: &mut Function, op: Op, taken: Region, subst: &mut Subst) -> Vec<Op> {
    let mut ops = func.regions[taken].ops.clone();
    let yielded = match ops.pop() {
        Some(y) => func.ops[y].operands.clone(),
        None => Vec::new(),
    };
    let results = func.ops[op].results.clone();
    for (r, v) in results.into_iter().zip(yielded) {
        subst.insert(r, v);
    }
    ops
}

/// Removes pure ops equal to an earlier one in scope; true if any. Ops
/// differing only in their overflow flags are equal; the op kept for both
/// keeps only the flags both had, so an `nsw` op never stands for a
/// wrapping one (and the kept op stays valid wherever a later pass moves it).
/// `scope` holds the ops of the enclosing regions; what a nested region
/// adds is taken out again when it ends (an undo list, not a copy of the
/// scope per region).
fn cse_region(
    func: &mut Function,
    region: Region,
    scope: &mut HashMap<String, Value>,
    subst: &mut Subst,
) -> bool {
    let mut changed = false;
    let ops = std::mem::take(&mut func.regions[region].ops);
    let mut kept = Vec::with_capacity(ops.len());
    let mut added = Vec::new();
    for op in ops {
        subst.apply(func, op);
        let data = &func.ops[op];
        if !data.regions.is_empty() {
            for r in data.regions.clone() {
                changed |= cse_region(func, r, scope, subst);
            }
            kept.push(op);
            continue;
        }
        if !data.kind.is_pure() || data.results.len() != 1 {
            kept.push(op);
            continue;
        }
        let (kind, flags) = match data.kind {
            OpKind::Binary(b, flags) => (OpKind::Binary(b, ArithFlags::NONE), flags),
            ref k => (k.clone(), ArithFlags::NONE),
        };
        let key = format!(
            "{:?}|{:?}|{:?}",
            kind,
            data.operands,
            func.value_type(data.results[0])
        );
        match scope.get(&key) {
            Some(&v) => {
                if let Some(first) = func.defining_op(v) {
                    if let OpKind::Binary(_, f) = &mut func.ops[first].kind {
                        *f = f.intersect(flags);
                    }
                }
                subst.insert(func.ops[op].results[0], v);
                changed = true;
            }
            None => {
                scope.insert(key.clone(), data.results[0]);
                added.push(key);
                kept.push(op);
            }
        }
    }
    func.regions[region].ops = kept;
    for key in added {
        scope.remove(&key);
    }
    changed
}

/// Removes pure ops whose results are unused, and loops and ifs without
/// results that do nothing; true if any.
fn dce(func: &mut Function) -> bool {
    let used = uses(func);
    let mut removed: HashSet<Op> = HashSet::new();
    let mut gone = Vec::new();
    for (region, op) in func.walk().into_iter().rev() {
        let data = &func.ops[op];
        let unused = data.results.iter().all(|v| !used.contains_key(v));
        if !unused {
            continue;
        }
        let removable = data.kind.is_pure()
            || (matches!(
                data.kind,
                OpKind::If | OpKind::For { .. } | OpKind::Parallel { .. }
            ) && data
                .regions
                .iter()
                .all(|&r| region_is_inert(func, r, &removed)));
        if removable {
            removed.insert(op);
            gone.push((region, op));
        }
    }
    let changed = !gone.is_empty();
    remove_ops(func, gone);
    changed
}

/// Drops the unused trailing results of texture fetches (a fetch keeps at
/// least one); true if any.
fn trim_fetch_results(func: &mut Function) -> bool {
    let used = uses(func);
    let mut changed = false;
    for (_, op) in func.walk() {
        let data = &mut func.ops[op];
        if !matches!(data.kind, OpKind::TexFetch(k) if k != TexKind::Fetch1DLane) {
            continue;
        }
        while data.results.len() > 1 && data.results.last().is_some_and(|v| !used.contains_key(v)) {
            data.results.pop();
            changed = true;
        }
    }
    changed
}

/// True if running `region` has no effect besides its yielded values
/// (ops in `removed` are already gone).
fn region_is_inert(func: &Function, region: Region, removed: &HashSet<Op>) -> bool {
    func.regions[region].ops.iter().all(|&o| {
        let d = &func.ops[o];
        removed.contains(&o)
            || (d.kind.is_pure() || d.kind == OpKind::Yield)
            || (matches!(d.kind, OpKind::If | OpKind::For { .. })
                && d.regions.iter().all(|&r| region_is_inert(func, r, removed)))
    })
}

/// Removes `if` results and `for`/`while` carried values that nothing
/// needs: a value is live if an op with effects, a control operand or a
/// live pure op uses it, or if it flows (through yields, inits and
/// `condition`) into a live result or carried value. mem2reg carries every
/// local stored in a loop, even one each iteration overwrites before
/// reading (a variable declared inside the loop body); without this, such
/// values would cross every barrier of the loop in per-thread storage.
fn dead_carried(func: &mut Function) -> bool {
    let walk = func.walk();
    let term = |func: &Function, r: Region| func.regions[r].ops.last().copied();
    let mut live: HashSet<Value> = HashSet::new();
    let mut stack: Vec<Value> = Vec::new();
    // Transfer uses: yields and conditions of if/for/while regions, and loop inits.
    let mut transfer: HashSet<(Op, usize)> = HashSet::new();
    for &(_, op) in &walk {
        let data = &func.ops[op];
        match data.kind {
            OpKind::If | OpKind::For { .. } | OpKind::While => {
                for &r in &data.regions {
                    if let Some(t) = term(func, r) {
                        // A `condition`'s own condition is not passed on.
                        let t_data = &func.ops[t];
                        let skip = t_data.operands.len() - t_data.values().len();
                        for i in skip..t_data.operands.len() {
                            transfer.insert((t, i));
                        }
                    }
                }
                // An `if`'s condition and a `for`'s bounds are uses, not
                // transfers; what follows them (the inits) is.
                for i in data.controls().len()..data.operands.len() {
                    transfer.insert((op, i));
                }
            }
            _ => {}
        }
    }
    for &(_, op) in &walk {
        let data = &func.ops[op];
        if data.kind.is_pure() {
            continue;
        }
        for (i, &v) in data.operands.iter().enumerate() {
            if !transfer.contains(&(op, i)) {
                stack.push(v);
            }
        }
    }
    loop {
        while let Some(v) = stack.pop() {
            if !live.insert(v) {
                continue;
            }
            if let Some(op) = func.defining_op(v) {
                if func.ops[op].kind.is_pure() {
                    stack.extend(func.ops[op].operands.iter().copied());
                }
            }
        }
        let before = live.len();
        for &(_, op) in &walk {
            for (src, dst) in slot_flows(func, op) {
                if live.contains(&dst) && !live.contains(&src) {
                    stack.push(src);
                }
            }
        }
        if stack.is_empty() && live.len() == before {
            break;
        }
    }
    let mut changed = false;
    for &(_, op) in &walk {
        changed |= drop_dead_slots(func, op, &live);
    }
    if changed {
        // Pure ops that only fed the removed values go with them (their
        // users are all such ops, by the definition of live).
        let dead = walk.iter().copied().filter(|&(_, o)| {
            let d = &func.ops[o];
            d.kind.is_pure() && d.results.iter().all(|v| !live.contains(v))
        });
        let dead: Vec<(Region, Op)> = dead.collect();
        remove_ops(func, dead);
    }
    changed
}

/// `(source, target)` pairs of values that flow into `op`'s results and
/// region arguments: a target is live only if some use needs it.
fn slot_flows(func: &Function, op: Op) -> Vec<(Value, Value)> {
    let data = &func.ops[op];
    let term_ops = |r: Region| {
        func.regions[r]
            .ops
            .last()
            .map(|&t| func.ops[t].values().to_vec())
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    match data.kind {
        OpKind::If => {
            for &r in &data.regions {
                for (k, v) in term_ops(r).into_iter().enumerate() {
                    if let Some(&res) = data.results.get(k) {
                        out.push((v, res));
                    }
                }
            }
        }
        OpKind::For { .. } => {
            let r = data.body();
            let args = &func.regions[r].args;
            let ys = term_ops(r);
            for k in 0..data.results.len() {
                let (res, arg) = (data.results[k], args[k + 1]);
                for src in [data.inits()[k], ys[k]] {
                    out.push((src, res));
                    out.push((src, arg));
                }
            }
        }
        OpKind::While => {
            let (b, a) = (data.before(), data.after());
            let bargs = &func.regions[b].args;
            let aargs = &func.regions[a].args;
            let ys = term_ops(a);
            for k in 0..bargs.len() {
                out.push((data.inits()[k], bargs[k]));
                out.push((ys[k], bargs[k]));
            }
            let passed = term_ops(b);
            for k in 0..aargs.len() {
                out.push((passed[k], aargs[k]));
                out.push((passed[k], data.results[k]));
            }
        }
        _ => {}
    }
    out
}

/// Removes the results / carried values of `op` that are not `live`.
fn drop_dead_slots(func: &mut Function, op: Op, live: &HashSet<Value>) -> bool {
    let data = func.ops[op].clone();
    let keep = |v: &Value| live.contains(v);
    let mut changed = false;
    match data.kind {
        OpKind::If => {
            let dead: Vec<usize> = (0..data.results.len())
                .filter(|&k| !keep(&data.results[k]))
                .collect();
            if dead.is_empty() {
                return false;
            }
            for &r in &data.regions {
                remove_yielded(func, r, &dead);
            }
            remove_indices(&mut func.ops[op].results, &dead, 0);
            changed = true;
        }
        OpKind::For { .. } => {
            let r = data.body();
            let args = func.regions[r].args.clone();
            let dead: Vec<usize> = (0..data.results.len())
                .filter(|&k| !keep(&data.results[k]) && !keep(&args[k + 1]))
                .collect();
            if dead.is_empty() {
                return false;
            }
            remove_yielded(func, r, &dead);
            remove_inits(func, op, &dead);
            remove_indices(&mut func.regions[r].args, &dead, 1);
            remove_indices(&mut func.ops[op].results, &dead, 0);
            changed = true;
        }
        OpKind::While => {
            let (b, a) = (data.before(), data.after());
            let bargs = func.regions[b].args.clone();
            let aargs = func.regions[a].args.clone();
            let dead_b: Vec<usize> = (0..bargs.len()).filter(|&k| !keep(&bargs[k])).collect();
            let dead_a: Vec<usize> = (0..aargs.len())
                .filter(|&k| !keep(&aargs[k]) && !keep(&data.results[k]))
                .collect();
            if !dead_b.is_empty() {
                remove_yielded(func, a, &dead_b);
                remove_inits(func, op, &dead_b);
                remove_indices(&mut func.regions[b].args, &dead_b, 0);
                changed = true;
            }
            if !dead_a.is_empty() {
                remove_yielded(func, b, &dead_a);
                remove_indices(&mut func.regions[a].args, &dead_a, 0);
                remove_indices(&mut func.ops[op].results, &dead_a, 0);
                changed = true;
            }
        }
        _ => return false,
    }
    if changed {
        reindex(func, op);
    }
    changed
}

/// Removes the `k`-th passed-on value of `region`'s terminator for each
/// `k` of `dead` (ascending).
fn remove_yielded(func: &mut Function, region: Region, dead: &[usize]) {
    let Some(&t) = func.regions[region].ops.last() else {
        return;
    };
    for &k in dead.iter().rev() {
        if k < func.ops[t].values().len() {
            func.ops[t].remove_value(k);
        }
    }
}

/// Removes the `k`-th carried initial value of loop `op` for each `k` of
/// `dead` (ascending).
fn remove_inits(func: &mut Function, op: Op, dead: &[usize]) {
    for &k in dead.iter().rev() {
        if k < func.ops[op].inits().len() {
            func.ops[op].remove_init(k);
        }
    }
}

/// Removes the elements at `offset + k` for each `k` of `dead` (ascending).
fn remove_indices(v: &mut Vec<Value>, dead: &[usize], offset: usize) {
    for &k in dead.iter().rev() {
        if offset + k < v.len() {
            v.remove(offset + k);
        }
    }
}

/// Renumbers the definitions of `op`'s results and region arguments after
/// some were removed.
fn reindex(func: &mut Function, op: Op) {
    let results = func.ops[op].results.clone();
    for (i, r) in results.into_iter().enumerate() {
        func.values[r].def = ValueDef::Result {
            op,
            index: i as u32,
        };
    }
    for region in func.ops[op].regions.clone() {
        let args = func.regions[region].args.clone();
        for (i, a) in args.into_iter().enumerate() {
            func.values[a].def = ValueDef::Arg {
                region,
                index: i as u32,
            };
        }
    }
}
