//! SSA dominance in structured regions.
//!
//! Regions are single blocks, so dominance is positional: an op result is
//! visible to the ops after it in its region and to everything nested in
//! those ops; a region argument is visible throughout its region. A use is
//! checked by climbing from the using op to the ancestor that sits in the
//! defining region, then comparing positions.

use super::handles::Owner;
use super::FuncCx;
use crate::func::{Op, Value, ValueDef};

/// Checks every operand of every reachable op.
pub(super) fn check(cx: &mut FuncCx<'_>) {
    for i in 0..cx.layout.order.len() {
        let op = cx.layout.order[i];
        let operands = &cx.func.ops[op].operands;
        for (index, &v) in operands.iter().enumerate() {
            if let Some(problem) = check_use(cx, op, v) {
                let m = format!("operand {index} ({}) {problem}", value_name(cx, v));
                cx.op_error(op, m);
            }
        }
    }
}

/// `value N`, with the source name when there is one.
fn value_name(cx: &FuncCx<'_>, v: Value) -> String {
    match &cx.func.values[v].name {
        Some(name) => format!("value {} %{name}", v.index()),
        None => format!("value {}", v.index()),
    }
}

/// What is wrong with `user` using `v`, if anything.
fn check_use(cx: &FuncCx<'_>, user: Op, v: Value) -> Option<String> {
    let func = cx.func;
    match func.values[v].def {
        ValueDef::Arg { region, index } => {
            let placed = cx.layout.owner(region).is_some()
                && func.regions[region].args.get(index as usize) == Some(&v);
            if !placed {
                return Some("is an argument of a region that is not in the function".into());
            }
            let (mut cur, _) = cx.layout.place(user)?;
            while cur != region {
                match cx.layout.owner(cur)? {
                    Owner::Body => {
                        return Some(
                            "is an argument of a region that does not enclose this use".into(),
                        )
                    }
                    Owner::Op { op, .. } => cur = cx.layout.place(op)?.0,
                }
            }
            None
        }
        ValueDef::Result { op: def, index } => {
            let placed = func.ops.try_get(def).is_some_and(|d| {
                d.results.get(index as usize) == Some(&v) && cx.layout.place(def).is_some()
            });
            if !placed {
                return Some("is the result of an op that is not in the function".into());
            }
            let (def_region, def_pos) = cx.layout.place(def)?;
            let mut cur = user;
            loop {
                let (region, pos) = cx.layout.place(cur)?;
                if region == def_region {
                    return if cur == user && cur == def {
                        Some("is a result of this same op".into())
                    } else if cur == def {
                        let kind = func.ops[def].kind.mnemonic();
                        Some(format!("is a result of the enclosing {kind} op"))
                    } else if pos < def_pos {
                        Some("is used before its definition".into())
                    } else {
                        None
                    };
                }
                match cx.layout.owner(region)? {
                    Owner::Body => {
                        return Some("is defined in a region that does not enclose this use".into())
                    }
                    Owner::Op { op, .. } => cur = op,
                }
            }
        }
    }
}
