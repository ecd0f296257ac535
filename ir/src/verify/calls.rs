//! Calls: the callee exists, may be called, and the argument and result
//! types match its signature.

use super::ops::{show_scalar, Shape};
use super::plural;
use crate::func::{FunctionKind, ValueData};
use crate::intrinsics::{self, ScalarKind};
use crate::ops::Callee;
use crate::types::{FloatKind, Type, TypeId};

/// Checks a `call`.
pub(super) fn check(s: &mut Shape<'_, '_>, callee: &Callee) {
    match callee {
        Callee::Func(id) => {
            let callee = &s.cx.module.functions[*id];
            if callee.kind != FunctionKind::Device {
                let m = format!(
                    "callee @{} is a {} function; only device functions can be called",
                    callee.name,
                    callee.kind.name()
                );
                s.err(m);
            }
            // The callee is not verified yet: read its parameters defensively.
            let params: Option<Vec<TypeId>> = callee.regions.try_get(callee.body).and_then(|r| {
                r.args
                    .iter()
                    .map(|&v| callee.values.try_get(v).map(|d: &ValueData| d.ty))
                    .collect()
            });
            let Some(params) = params else {
                let m = format!(
                    "callee @{} has a malformed body; its parameters are unknown",
                    callee.name
                );
                s.err(m);
                return;
            };
            let name = format!("@{}", callee.name);
            let results = callee.results.clone();
            signature(s, &name, &params, &results);
        }
        Callee::Extern(name) => {
            let Some(sig) = intrinsics::lookup(name) else {
                s.err(format!("unknown extern function `{name}`"));
                return;
            };
            let want = |k: &ScalarKind| match k {
                ScalarKind::F32 => Type::Float(FloatKind::F32),
                ScalarKind::F64 => Type::Float(FloatKind::F64),
                ScalarKind::I32 => Type::Int(32),
                ScalarKind::I64 => Type::Int(64),
            };
            let params: Vec<Type> = sig.params.iter().map(want).collect();
            let result = want(&sig.result);
            extern_signature(s, name, &params, &result);
        }
    }
}

/// Matches the call's operands and results against a module function's
/// parameter and result types.
fn signature(s: &mut Shape<'_, '_>, callee: &str, params: &[TypeId], results: &[TypeId]) {
    let (nargs, nres) = (s.data.operands.len(), s.data.results.len());
    if nargs != params.len() {
        s.err(format!(
            "{callee} takes {}, found {nargs}",
            plural(params.len(), "argument")
        ));
    } else {
        for (i, &ty) in params.iter().enumerate() {
            s.operand_eq(i, "", ty, &format!("parameter {i} of {callee}"));
        }
    }
    if nres != results.len() {
        s.err(format!(
            "{callee} returns {}, found {nres}",
            plural(results.len(), "result")
        ));
    } else {
        for (i, &ty) in results.iter().enumerate() {
            // The callee's result types are unverified: avoid printing a bad handle.
            if s.cx.module.types.contains(ty) {
                s.result_eq(i, ty, &format!("result {i} of {callee}"));
            }
        }
    }
}

/// Matches the call against a known extern's signature.
fn extern_signature(s: &mut Shape<'_, '_>, name: &str, params: &[Type], result: &Type) {
    let nargs = s.data.operands.len();
    if nargs != params.len() {
        s.err(format!(
            "`{name}` takes {}, found {nargs}",
            plural(params.len(), "argument")
        ));
    } else {
        for (i, want) in params.iter().enumerate() {
            let ty = s.operand(i);
            if s.cx.module.types[ty] != *want {
                let m = format!(
                    "operand {i} has type {}, expected {} (parameter {i} of `{name}`)",
                    s.cx.show(ty),
                    show_scalar(want)
                );
                s.err(m);
            }
        }
    }
    let nres = s.data.results.len();
    if nres != 1 {
        s.err(format!("`{name}` returns 1 result, found {nres}"));
    } else {
        let ty = s.result(0);
        if s.cx.module.types[ty] != *result {
            let m = format!(
                "result 0 has type {}, expected {} (the result of `{name}`)",
                s.cx.show(ty),
                show_scalar(result)
            );
            s.err(m);
        }
    }
}
