//! `inline`: every call to a module function is replaced by the callee's body.
//!
//! Device functions end in a single `return` (the frontends make early
//! returns structured), so inlining is a copy of the body's ops before the
//! call with parameters renamed to arguments and the call's results renamed
//! to the returned values. Recursion is reported: CUDA allows it, CPU
//! translation of barriers does not.

use crate::error::CpuifyError;
use cucc_ir::edit::{clone_op_between, remove_op, replace_uses_map};
use cucc_ir::{Callee, FuncId, Module, OpKind};
use std::collections::HashMap;

/// Inlining depth beyond which a call chain is taken to be recursive.
const MAX_DEPTH: usize = 64;

/// Inlines every call reachable from function `fid`, transitively.
pub fn inline_calls(module: &mut Module, fid: FuncId) -> Result<(), CpuifyError> {
    for _round in 0..MAX_DEPTH {
        let func = &module.functions[fid];
        let calls: Vec<_> = func
            .walk()
            .into_iter()
            .filter_map(|(region, op)| match &func.ops[op].kind {
                OpKind::Call(Callee::Func(callee)) => Some((region, op, *callee)),
                _ => None,
            })
            .collect();
        if calls.is_empty() {
            return Ok(());
        }
        for (region, call, callee_id) in calls {
            let Some(callee) = module.functions.try_get(callee_id).cloned() else {
                let f = &module.functions[fid];
                return Err(CpuifyError::new(
                    module,
                    f.ops[call].loc,
                    &f.name,
                    "call to a function that does not exist",
                ));
            };
            if callee.linkage == cucc_ir::Linkage::Import {
                let f = &module.functions[fid];
                return Err(CpuifyError::new(
                    module,
                    f.ops[call].loc,
                    &f.name,
                    format!(
                        "`{}` is defined in another translation unit; it must be linked in first (compile with -rdc=true and link with cucc)",
                        callee.name
                    ),
                ));
            }
            if callee_id == fid {
                let f = &module.functions[fid];
                return Err(CpuifyError::new(
                    module,
                    f.ops[call].loc,
                    &f.name,
                    format!("recursive call to `{}` cannot be translated", callee.name),
                ));
            }
            let body_ops = callee.regions[callee.body].ops.clone();
            let Some((&ret, rest)) = body_ops.split_last() else {
                let f = &module.functions[fid];
                return Err(CpuifyError::new(
                    module,
                    f.ops[call].loc,
                    &f.name,
                    format!("callee `{}` has an empty body", callee.name),
                ));
            };
            if callee.ops[ret].kind != OpKind::Return {
                let f = &module.functions[fid];
                return Err(CpuifyError::new(
                    module,
                    callee.ops[ret].loc,
                    &f.name,
                    format!("callee `{}` does not end in `return`", callee.name),
                ));
            }
            let func = &mut module.functions[fid];
            let mut map = HashMap::new();
            for (&p, &a) in callee.param_values().iter().zip(&func.ops[call].operands) {
                map.insert(p, a);
            }
            let mut copies = Vec::with_capacity(rest.len());
            for &op in rest {
                copies.push(clone_op_between(func, &callee, op, &mut map));
            }
            let returned: Vec<_> = callee.ops[ret]
                .operands
                .iter()
                .map(|v| *map.get(v).unwrap_or(v))
                .collect();
            func.insert_before(region, call, copies);
            let results = func.ops[call].results.clone();
            let renames: HashMap<_, _> = results.into_iter().zip(returned).collect();
            replace_uses_map(func, &renames);
            remove_op(func, region, call);
        }
    }
    let f = &module.functions[fid];
    Err(CpuifyError::new(
        module,
        f.loc,
        &f.name,
        format!("call chains deeper than {MAX_DEPTH} (recursion) cannot be translated"),
    ))
}
