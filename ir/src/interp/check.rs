//! Per-function facts the interpreter computes once: the scalar kind of
//! every value, and whether every handle the function mentions is in range.
//!
//! Checking handles up front (as naga's validator does first) lets the
//! execution loop index arenas directly: a malformed function is refused
//! with an error when it is launched or called, never a panic.

use super::eval::Scalar;
use crate::func::Function;
use crate::module::Module;
use crate::ops::{Callee, OpKind};

/// What the interpreter knows about one function.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    /// Scalar kind of each value, indexed by value index.
    pub vty: Vec<Scalar>,
    /// `Err` with a description if some handle is out of range.
    pub handles: Result<(), String>,
}

impl FuncInfo {
    /// Computes the facts for `f`.
    pub fn new(module: &Module, f: &Function) -> FuncInfo {
        let vty = f
            .values
            .iter()
            .map(|(_, v)| Scalar::of(&module.types, v.ty))
            .collect();
        FuncInfo {
            vty,
            handles: check_handles(module, f),
        }
    }
}

fn check_handles(m: &Module, f: &Function) -> Result<(), String> {
    let mut seen = vec![false; f.regions.len()];
    let mut stack = vec![f.body];
    while let Some(r) = stack.pop() {
        if !f.regions.contains(r) {
            return Err(format!("region {r:?} is out of range"));
        }
        if std::mem::replace(&mut seen[r.index()], true) {
            return Err(format!("region {r:?} is owned twice"));
        }
        let region = &f.regions[r];
        if let Some(a) = region.args.iter().find(|&&a| !f.values.contains(a)) {
            return Err(format!("argument {a:?} of region {r:?} is out of range"));
        }
        for &op in &region.ops {
            let Some(od) = f.ops.try_get(op) else {
                return Err(format!("op {op:?} is out of range"));
            };
            if let Some(v) = od
                .operands
                .iter()
                .chain(&od.results)
                .find(|&&v| !f.values.contains(v))
            {
                return Err(format!("value {v:?} of op {op:?} is out of range"));
            }
            stack.extend(od.regions.iter().copied());
            let ok = match &od.kind {
                OpKind::Call(Callee::Func(c)) => m.functions.contains(*c),
                OpKind::GlobalAddr(g) | OpKind::TexRef(g) => m.globals.contains(*g),
                OpKind::Alloca { ty, .. }
                | OpKind::PtrIndex { elem: ty }
                | OpKind::PtrField { ty, .. } => m.types.contains(*ty),
                _ => true,
            };
            if !ok {
                return Err(format!("op {op:?} names an entity that does not exist"));
            }
            if let OpKind::Call(Callee::Func(c)) = &od.kind {
                let callee = &m.functions[*c];
                if callee.linkage == crate::module::Linkage::Import {
                    return Err(format!(
                        "call to @{}, which another translation unit defines (link the device code first)",
                        callee.name
                    ));
                }
            }
        }
    }
    Ok(())
}
