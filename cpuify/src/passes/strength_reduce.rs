//! `strength-reduce`: remainders by run-time powers of two become masks.
//!
//! Tree reductions count their stride in a loop (`for (i = 2; i <= T; i *=
//! 2) if ((tx + 1) % i == 0) ...`). The divisor is not a constant, so the C
//! compiler emits an integer division per thread and phase, which dominates
//! such kernels on a CPU. A value is a *power of two or zero* (one bit set
//! at most) when it is such a constant, a product, left or logical right
//! shift or unsigned quotient of such values, a `select` or `if` result
//! choosing between such values, or a loop-carried value whose initial and
//! next values all are (the greatest fixed point, so a counter doubled
//! each trip qualifies). For such a `p` (zero would make the remainder
//! undefined anyway):
//!
//! - `urem x, p` becomes `and x, p - 1`;
//! - `srem x, p` becomes `r = and x, p - 1; (x < 0 && r != 0) ? r - p : r`
//!   (the remainder takes the dividend's sign; correct for every `x`,
//!   including `p = 2^(n-1)`), or just `r` when every use compares it with
//!   zero for (in)equality: `x % p == 0` exactly when `x & (p - 1) == 0`,
//!   whatever the sign of `x`.
//!
//! Constant divisors are left to the C compiler, which reduces them itself.

use crate::passes::entry::{ops_where, parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::edit::replace_all_uses;
use cucc_ir::{
    BinOp, Builder, CmpPred, FuncId, Function, Module, Op, OpKind, Region, Types, Value, ValueDef,
};
use std::collections::{HashMap, HashSet};

/// Rewrites the remainders of function `fid` whose divisor is a run-time
/// power of two; returns how many.
pub fn strength_reduce(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let (types, func) = parts(module, fid);
    let pow2 = powers_of_two(types, func);
    let targets = ops_where(func, |data| {
        matches!(data.kind, OpKind::Binary(BinOp::URem | BinOp::SRem, _))
            && pow2.contains(&data.rhs())
            && func.const_bits(data.rhs()).is_none()
    });
    for &(region, op) in &targets {
        let loc = func.ops[op].loc;
        let zero_tested = only_tested_against_zero(func, op);
        rewrite(types, func, region, op, zero_tested);
        let name = func.name.clone();
        remarks.add(
            "strength-reduce",
            &name,
            loc,
            "remainder by a run-time power of two computed with a mask",
        );
    }
    Ok(targets.len())
}

/// True if every use of `op`'s result is `cmp eq`/`cmp ne` with zero.
fn only_tested_against_zero(func: &Function, op: Op) -> bool {
    let Some(&r) = func.ops[op].results.first() else {
        return false;
    };
    let uses = cucc_ir::edit::uses(func);
    uses.get(&r).is_some_and(|users| {
        users.iter().all(|&(user, _)| {
            let d = &func.ops[user];
            matches!(d.kind, OpKind::Cmp(CmpPred::Eq | CmpPred::Ne))
                && d.operands
                    .iter()
                    .any(|&o| o != r && func.const_bits(o) == Some(0))
        })
    })
}

/// Replaces remainder `op` (in `region`) by its mask form; `zero_tested`:
/// its value only meets comparisons with zero, so the sign fix-up is moot.
fn rewrite(types: &mut Types, func: &mut Function, region: Region, op: Op, zero_tested: bool) {
    let data = func.ops[op].clone();
    let (x, p) = (data.lhs(), data.rhs());
    let Some(&old) = data.results.first() else {
        return;
    };
    let ty = func.value_type(old);
    let new = {
        let mut b = Builder::new(types, func);
        b.set_loc(data.loc);
        b.set_insertion_before(region, op);
        let one = b.const_int(ty, 1);
        let mask = b.binary(BinOp::Sub, p, one);
        let r = b.binary(BinOp::And, x, mask);
        if zero_tested || matches!(data.kind, OpKind::Binary(BinOp::URem, _)) {
            r
        } else {
            let zero = b.const_int(ty, 0);
            let neg = b.cmp(CmpPred::Slt, x, zero);
            let nonzero = b.cmp(CmpPred::Ne, r, zero);
            let fix = b.binary(BinOp::And, neg, nonzero);
            let adjusted = b.binary(BinOp::Sub, r, p);
            b.select(fix, adjusted, r)
        }
    };
    if let Some(name) = func.values[old].name.clone() {
        func.values[new].name = Some(name);
    }
    replace_all_uses(func, old, new);
    func.unlink_op(region, op);
}

/// Every integer value of `func` that is a power of two or zero: the
/// greatest set closed under the rules in the module docs.
fn powers_of_two(types: &Types, func: &Function) -> HashSet<Value> {
    let walk = func.walk();
    // The op owning each region, to find where a block argument comes from.
    let mut owner: HashMap<Region, Op> = HashMap::new();
    for &(_, op) in &walk {
        for &r in &func.ops[op].regions {
            owner.insert(r, op);
        }
    }
    let mut set: HashSet<Value> = HashSet::new();
    for &(_, op) in &walk {
        for &r in &func.ops[op].regions {
            set.extend(func.regions[r].args.iter().copied());
        }
        set.extend(func.ops[op].results.iter().copied());
    }
    set.retain(|&v| types[func.value_type(v)].is_int());
    loop {
        let failing: Vec<Value> = set
            .iter()
            .copied()
            .filter(|&v| !holds(types, func, &owner, &set, v))
            .collect();
        if failing.is_empty() {
            return set;
        }
        for v in failing {
            set.remove(&v);
        }
    }
}

/// True if `v` is a power of two or zero assuming every value of `set` is.
fn holds(
    types: &Types,
    func: &Function,
    owner: &HashMap<Region, Op>,
    set: &HashSet<Value>,
    v: Value,
) -> bool {
    let all = |vals: &[Value]| !vals.is_empty() && vals.iter().all(|x| set.contains(x));
    match func.values[v].def {
        ValueDef::Result { op, index } => {
            let index = index as usize;
            let data = &func.ops[op];
            match &data.kind {
                OpKind::Const { bits } => {
                    let width = types[func.value_type(v)].int_bits().unwrap_or(64);
                    let masked = if width >= 64 {
                        *bits
                    } else {
                        bits & ((1u64 << width) - 1)
                    };
                    masked.count_ones() <= 1
                }
                OpKind::Binary(BinOp::Mul | BinOp::UDiv, _) => all(&data.operands),
                OpKind::Binary(BinOp::Shl | BinOp::LShr, _) => set.contains(&data.lhs()),
                OpKind::Select => all(&[data.if_true(), data.if_false()]),
                OpKind::If => yields(func, &data.regions, index, set),
                // Loop results: the values the loop ends with, which are
                // its carried values (`for`) or the condition's (`while`).
                OpKind::For { .. } => {
                    let body = data.body();
                    func.regions[body]
                        .args
                        .get(index + 1)
                        .is_some_and(|a| set.contains(a))
                }
                OpKind::While => condition_values(func, data.before(), index, set),
                _ => false,
            }
        }
        ValueDef::Arg { region, index } => {
            let index = index as usize;
            let Some(&op) = owner.get(&region) else {
                return false;
            };
            let data = &func.ops[op];
            match data.kind {
                // `for`: argument 0 is the induction variable; the others
                // start as the inits (operands 3..) and continue as the
                // body's yields.
                OpKind::For { .. } if index > 0 => {
                    data.inits().get(index - 1).is_some_and(|x| set.contains(x))
                        && yields(func, &[data.body()], index - 1, set)
                }
                OpKind::While if region == data.before() => {
                    data.inits().get(index).is_some_and(|x| set.contains(x))
                        && yields(func, &[data.after()], index, set)
                }
                OpKind::While => condition_values(func, data.before(), index, set),
                _ => false,
            }
        }
    }
}

/// True if the `index`th value yielded by each of `regions` is in `set`.
fn yields(func: &Function, regions: &[Region], index: usize, set: &HashSet<Value>) -> bool {
    !regions.is_empty()
        && regions.iter().all(|&r| {
            func.regions[r].ops.last().is_some_and(|&t| {
                func.ops[t].kind == OpKind::Yield
                    && func.ops[t]
                        .operands
                        .get(index)
                        .is_some_and(|x| set.contains(x))
            })
        })
}

/// True if the `index`th value a `while`'s `condition` forwards is in `set`.
fn condition_values(func: &Function, before: Region, index: usize, set: &HashSet<Value>) -> bool {
    func.regions[before].ops.last().is_some_and(|&t| {
        func.ops[t].kind == OpKind::Condition
            && func.ops[t]
                .values()
                .get(index)
                .is_some_and(|x| set.contains(x))
    })
}
