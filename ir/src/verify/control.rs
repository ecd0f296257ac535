//! Structured control flow: the shapes of `if`, `for`, `while` and
//! `parallel` with their region arguments, and the terminators that end
//! every region.

use super::handles::Owner;
use super::ops::{Class, Shape};
use super::{plural, FuncCx};
use crate::func::{Op, Region};
use crate::ops::OpKind;
use crate::types::TypeId;

/// The name of region `index` of a structured op, for messages.
fn region_name(kind: &OpKind, index: usize) -> &'static str {
    match (kind, index) {
        (OpKind::If, 0) => "then",
        (OpKind::If, _) => "else",
        (OpKind::While, 0) => "before",
        (OpKind::While, _) => "after",
        _ => "body",
    }
}

/// Checks the operands, results and region arguments of a structured op.
pub(super) fn check_op(s: &mut Shape<'_, '_>) {
    let regions_ok = s.data.regions.len() == s.data.kind.region_count();
    match &s.data.kind {
        OpKind::If => {
            if s.counts() {
                s.operand_is(0, "cond", Class::I1);
            }
            if regions_ok {
                region_args(s, 0, &[], "none");
                region_args(s, 1, &[], "none");
            }
        }
        OpKind::For { .. } => {
            if !s.counts() {
                return;
            }
            let inits = s.data.operands.len() - 3;
            if s.data.results.len() != inits {
                s.err(format!(
                    "expected {} (one per init value), found {}",
                    plural(inits, "result"),
                    s.data.results.len()
                ));
            } else {
                for i in 0..inits {
                    let ty = s.operand(3 + i);
                    s.result_eq(i, ty, &format!("the type of init {i}"));
                }
            }
            s.operand_is(0, "lb", Class::Int);
            s.operand_same(1, "ub", 0, "lb");
            s.operand_same(2, "step", 0, "lb");
            if regions_ok {
                let mut want = vec![s.operand(0)];
                want.extend(s.operand_types(3));
                let what = format!("the iv and {}", plural(inits, "carried value"));
                region_args(s, 0, &want, &what);
            }
        }
        OpKind::While if regions_ok => {
            let inits = s.operand_types(0);
            region_args(s, 0, &inits, "the init types");
            let results = s.result_types();
            region_args(s, 1, &results, "the result types");
        }
        OpKind::Parallel { .. } => {
            if !s.counts() {
                return;
            }
            if s.operand_is(0, "ub", Class::Int) {
                for i in 1..s.data.operands.len() {
                    s.operand_same(i, "ub", 0, "operand 0");
                }
            }
            if regions_ok {
                let ivs = vec![s.operand(0); s.data.operands.len()];
                region_args(s, 0, &ivs, "one iv per upper bound");
            }
        }
        _ => {}
    }
}

/// Checks that region `index` of the op takes arguments of types `want`.
fn region_args(s: &mut Shape<'_, '_>, index: usize, want: &[TypeId], what: &str) {
    let region = s.data.regions[index];
    let name = region_name(&s.data.kind, index);
    let args = &s.cx.func.regions[region].args;
    if args.len() != want.len() {
        let expected = if want.is_empty() {
            "none".to_string()
        } else {
            format!("{} ({what})", want.len())
        };
        let m = format!(
            "region {index} ({name}) takes {}, expected {expected}",
            plural(args.len(), "argument")
        );
        s.err(m);
        return;
    }
    for (i, (&v, &ty)) in args.iter().zip(want).enumerate() {
        let found = s.cx.ty(v);
        if found != ty {
            let m = format!(
                "argument {i} of region {index} ({name}) has type {}, expected {} ({what})",
                s.cx.show(found),
                s.cx.show(ty)
            );
            s.err(m);
        }
    }
}

/// The terminator a region must end with, and the types it passes on.
struct Expect {
    /// `yield`, `condition` or `return`.
    kind: &'static str,
    /// Types of the values it passes (after the `i1` for `condition`).
    types: Vec<TypeId>,
    /// Where the types come from.
    what: String,
    /// The region, as messages name it.
    place: String,
}

/// Every reachable region ends with exactly one terminator of the right
/// kind, passing values of the right types, and has none elsewhere.
pub(super) fn check_terminators(cx: &mut FuncCx<'_>) {
    for ri in 0..cx.layout.regions.len() {
        let region = cx.layout.regions[ri];
        let Some(owner) = cx.layout.owner(region) else {
            continue;
        };
        let Some(expect) = expectation(cx, owner) else {
            continue;
        };
        region_terminators(cx, region, owner, &expect);
    }
}

fn expectation(cx: &FuncCx<'_>, owner: Owner) -> Option<Expect> {
    let Owner::Op { op, index } = owner else {
        return Some(Expect {
            kind: "return",
            types: cx.func.results.clone(),
            what: "the function's result types".into(),
            place: "the function body".into(),
        });
    };
    let data = &cx.func.ops[op];
    let tys = |vs: &[crate::func::Value]| vs.iter().map(|&v| cx.ty(v)).collect::<Vec<_>>();
    let name = region_name(&data.kind, index);
    let place = format!("the {name} region of {}", data.kind.mnemonic());
    let (kind, types, what) = match (&data.kind, index) {
        (OpKind::If, _) => ("yield", tys(&data.results), "the if's result types"),
        (OpKind::For { .. }, _) => (
            "yield",
            tys(data.operands.get(3..).unwrap_or(&[])),
            "the for's carried types",
        ),
        (OpKind::Parallel { .. }, _) => ("yield", Vec::new(), "parallel yields nothing"),
        (OpKind::While, 0) => ("condition", tys(&data.results), "the while's result types"),
        (OpKind::While, _) => ("yield", tys(&data.operands), "the while's init types"),
        _ => return None,
    };
    Some(Expect {
        kind,
        types,
        what: what.into(),
        place,
    })
}

fn region_terminators(cx: &mut FuncCx<'_>, region: Region, owner: Owner, expect: &Expect) {
    let ops = &cx.func.regions[region].ops;
    for (pos, &op) in ops.iter().enumerate() {
        if pos + 1 < ops.len() && cx.func.ops[op].kind.is_terminator() {
            cx.op_error(op, "a terminator must be the last op of its region".into());
        }
    }
    let last = ops
        .last()
        .copied()
        .filter(|&op| cx.func.ops[op].kind.is_terminator());
    let Some(term) = last else {
        let m = format!(
            "{} does not end with a terminator (expected {})",
            expect.place, expect.kind
        );
        match owner {
            Owner::Body => cx.func_error(m),
            Owner::Op { op, .. } => cx.op_error(op, m),
        }
        return;
    };
    let kind = cx.func.ops[term].kind.mnemonic();
    if kind != expect.kind {
        let m = format!("cannot end {}; expected {}", expect.place, expect.kind);
        cx.op_error(term, m);
        return;
    }
    terminator_values(cx, term, expect);
}

/// Checks the values a terminator of the expected kind passes on.
fn terminator_values(cx: &mut FuncCx<'_>, term: Op, expect: &Expect) {
    let operands = cx.func.ops[term].operands.clone();
    let mut vals = &operands[..];
    if expect.kind == "condition" {
        let Some((&c, rest)) = operands.split_first() else {
            cx.op_error(term, "expected an i1 condition operand, found none".into());
            return;
        };
        let ty = cx.ty(c);
        if !matches!(cx.module.types[ty], crate::types::Type::Int(1)) {
            let m = format!(
                "operand 0 (condition) has type {}, expected i1",
                cx.show(ty)
            );
            cx.op_error(term, m);
        }
        vals = rest;
    }
    let first = operands.len() - vals.len();
    if vals.len() != expect.types.len() {
        let m = format!(
            "passes {}, expected {} ({})",
            plural(vals.len(), "value"),
            expect.types.len(),
            expect.what
        );
        cx.op_error(term, m);
        return;
    }
    for (i, (&v, &want)) in vals.iter().zip(&expect.types).enumerate() {
        let found = cx.ty(v);
        if found != want && cx.module.types.contains(want) {
            let m = format!(
                "operand {} has type {}, expected {} ({})",
                first + i,
                cx.show(found),
                cx.show(want),
                expect.what
            );
            cx.op_error(term, m);
        }
    }
}
