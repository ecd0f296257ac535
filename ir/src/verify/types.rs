//! Type checks: the module's type table, and that SSA values are scalars.

use super::handles::Owner;
use super::{plain, FuncCx, VerifyError};
use crate::module::Module;
use crate::types::{Type, TypeId, INT_WIDTHS};
use std::collections::HashMap;

/// Checks the type table. Returns false if a type refers to a type that is
/// out of range or not interned before it: layouts and printing would not
/// terminate, so nothing that depends on types may run.
pub(super) fn check_table(module: &Module, errors: &mut Vec<VerifyError>) -> bool {
    let types = &module.types;
    let before = errors.len();
    for (id, ty) in types.iter() {
        let refs: Vec<(String, TypeId)> = match ty {
            Type::Array { elem, .. } => vec![("element type".to_string(), *elem)],
            Type::Struct(s) => s
                .fields
                .iter()
                .enumerate()
                .map(|(i, f)| (format!("field {i}"), f.ty))
                .collect(),
            _ => Vec::new(),
        };
        for (what, r) in refs {
            if !types.contains(r) {
                errors.push(plain(format!(
                    "type {}: {what}: type handle {} is out of range ({} types)",
                    id.index(),
                    r.index(),
                    types.len()
                )));
            } else if r >= id {
                errors.push(plain(format!(
                    "type {}: {what} refers to type {}, which is not interned before it",
                    id.index(),
                    r.index()
                )));
            }
        }
    }
    if errors.len() != before {
        return false;
    }
    check_layouts(module, errors);
    true
}

/// Integer widths, struct layouts, array sizes and struct names, on a table
/// whose references all point backwards.
fn check_layouts(module: &Module, errors: &mut Vec<VerifyError>) {
    let types = &module.types;
    // Sizes computed in interning order (`None`: overflows), so no recursion.
    let mut sizes: Vec<Option<u64>> = Vec::with_capacity(types.len());
    let mut names: HashMap<&str, TypeId> = HashMap::new();
    for (id, ty) in types.iter() {
        let show = types.display(id);
        let size = match ty {
            Type::Int(bits) => {
                if !INT_WIDTHS.contains(bits) {
                    errors.push(plain(format!(
                        "type {show}: integer width {bits} is not one of 1, 8, 16, 32, 64"
                    )));
                }
                Some(u64::from(*bits).div_ceil(8))
            }
            Type::Float(k) => Some(k.bytes()),
            Type::Ptr(_) => Some(8),
            Type::Array { elem, len } => {
                let size = sizes[elem.index()].and_then(|s| s.checked_mul(*len));
                if size.is_none() {
                    errors.push(plain(format!("type {show}: size overflows 64 bits")));
                }
                size
            }
            Type::Struct(s) => {
                if let Some(first) = names.insert(&s.name, id) {
                    errors.push(plain(format!(
                        "type {show}: struct name `{}` is already used by type {}",
                        s.name,
                        first.index()
                    )));
                }
                if !s.align.is_power_of_two() {
                    errors.push(plain(format!(
                        "type {show}: alignment {} is not a power of two",
                        s.align
                    )));
                } else if s.size % s.align != 0 {
                    errors.push(plain(format!(
                        "type {show}: size {} is not a multiple of its alignment {}",
                        s.size, s.align
                    )));
                }
                for (i, f) in s.fields.iter().enumerate() {
                    let fshow = types.display(f.ty);
                    let align = types.align_of(f.ty);
                    if f.offset % align != 0 {
                        errors.push(plain(format!(
                            "type {show}: field {i} ({fshow}) at offset {} is not aligned to {align}",
                            f.offset
                        )));
                    }
                    let end = sizes[f.ty.index()].and_then(|fs| f.offset.checked_add(fs));
                    if end.is_none_or(|e| e > s.size) {
                        errors.push(plain(format!(
                            "type {show}: field {i} ({fshow}) at offset {} does not fit in size {}",
                            f.offset, s.size
                        )));
                    }
                }
                Some(s.size)
            }
        };
        sizes.push(size);
    }
}

/// Every parameter, region argument and op result has a scalar type.
pub(super) fn check_values(cx: &mut FuncCx<'_>) {
    let func = cx.func;
    for ri in 0..cx.layout.regions.len() {
        let region = cx.layout.regions[ri];
        for (i, &v) in func.regions[region].args.iter().enumerate() {
            let ty = cx.ty(v);
            if cx.module.types[ty].is_scalar() {
                continue;
            }
            let what = format!(
                "has non-scalar type {}; SSA values are scalars",
                cx.show(ty)
            );
            match cx.layout.owner(region) {
                Some(Owner::Op { op, index }) => {
                    cx.op_error(op, format!("argument {i} of region {index} {what}"))
                }
                _ => cx.func_error(format!("parameter {i} {what}")),
            }
        }
    }
    for oi in 0..cx.layout.order.len() {
        let op = cx.layout.order[oi];
        for (i, &v) in func.ops[op].results.iter().enumerate() {
            let ty = cx.ty(v);
            if !cx.module.types[ty].is_scalar() {
                let m = format!(
                    "result {i} has non-scalar type {}; SSA values are scalars",
                    cx.show(ty)
                );
                cx.op_error(op, m);
            }
        }
    }
}
