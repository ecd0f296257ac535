//! Scalar replacement of private struct locals, the first step of
//! `mem2reg`: a `float4` or `int4` local (what `tex1Dfetch<float4>` and
//! `make_float4` results live in) whose address is only ever the base of
//! `ptr.field`s, each of them loaded and stored as its own type, becomes one
//! scalar alloca per field, which promotion then turns into SSA values. A
//! field chosen by an lvalue conditional (`k == 0 ? v.x : v.y`) becomes an
//! `if` of values instead of a load through a selected stack address.
//!
//! Legality: the alloca's pointer has no other use (no `memcpy`, call,
//! `ptr.index`, store of the pointer itself), every field pointer (or a
//! `spacecast` of one) is used only as the address of non-volatile loads
//! and stores whose type is the field's scalar type, and the fields used
//! do not overlap (a union's members share bytes, so a store to one and a
//! load of the other must stay in memory).

use crate::remarks::Remarks;
use cucc_ir::edit::{remove_op, replace_all_uses, uses};
use cucc_ir::{CastOp, Function, Op, OpKind, Space, Type, TypeId, Types, Value};
use std::collections::HashMap;

/// Splits every splittable private struct alloca of `func`; returns how
/// many. Each struct alloca gets a remark saying what was done or why not.
pub fn split_structs(types: &Types, func: &mut Function, remarks: &mut Remarks) -> usize {
    let used = uses(func);
    let candidates: Vec<(cucc_ir::Region, Op, TypeId)> = func
        .walk()
        .into_iter()
        .filter_map(|(region, op)| match func.ops[op].kind {
            OpKind::Alloca {
                space: Space::Private,
                ty,
            } if matches!(types[ty], Type::Struct(_)) => Some((region, op, ty)),
            _ => None,
        })
        .collect();
    let mut split = 0;
    for (region, alloca, ty) in candidates {
        let name = local_name(func, alloca);
        let loc = func.ops[alloca].loc;
        match plan(types, func, &used, alloca, ty) {
            Ok(fields) => {
                let n = fields.len();
                rewrite(func, region, alloca, fields);
                split += 1;
                remarks.add(
                    "mem2reg",
                    &func.name,
                    loc,
                    format!("struct local {name} split into {n} scalar local(s)"),
                );
            }
            Err(why) => remarks.add(
                "mem2reg",
                &func.name,
                loc,
                format!("struct local {name} kept in memory: {why}"),
            ),
        }
    }
    split
}

fn local_name(func: &Function, alloca: Op) -> String {
    let r = func.ops[alloca].results[0];
    match &func.values[r].name {
        Some(n) => format!("`{n}`"),
        None => "(unnamed)".to_string(),
    }
}

/// The field pointers of `alloca` grouped by field (field index, its type,
/// the `ptr.field` ops), or why the local cannot be split.
#[allow(clippy::type_complexity)]
fn plan(
    types: &Types,
    func: &Function,
    used: &HashMap<Value, Vec<(Op, usize)>>,
    alloca: Op,
    ty: TypeId,
) -> Result<Vec<(u32, TypeId, Vec<Op>)>, String> {
    let Type::Struct(st) = &types[ty] else {
        return Err("not a struct".into());
    };
    let ptr = func.ops[alloca].results[0];
    let mut fields: Vec<(u32, TypeId, Vec<Op>)> = Vec::new();
    for &(user, pos) in used.get(&ptr).map_or(&[][..], Vec::as_slice) {
        let field = match func.ops[user].kind {
            OpKind::PtrField { ty: t, field } if t == ty && pos == 0 => field,
            _ => {
                return Err(format!(
                    "its address is used by `{}`",
                    func.ops[user].kind.mnemonic()
                ))
            }
        };
        let Some(f) = st.fields.get(field as usize) else {
            return Err("a field index is out of range".into());
        };
        if !types[f.ty].is_scalar() {
            return Err("a field used is not a scalar".into());
        }
        let fptr = func.ops[user].results[0];
        if let Some(bad) = non_access_use(func, used, fptr, f.ty) {
            return Err(format!(
                "the address of field {field} is used by `{}`",
                func.ops[bad].kind.mnemonic()
            ));
        }
        match fields.iter_mut().find(|(k, _, _)| *k == field) {
            Some((_, _, ops)) => ops.push(user),
            None => fields.push((field, f.ty, vec![user])),
        }
    }
    if fields.is_empty() {
        return Err("no field is accessed".into());
    }
    for (i, &(a, ta, _)) in fields.iter().enumerate() {
        for &(b, tb, _) in &fields[i + 1..] {
            let (oa, ob) = (st.fields[a as usize].offset, st.fields[b as usize].offset);
            let (ea, eb) = (oa + types.size_of(ta), ob + types.size_of(tb));
            if oa < eb && ob < ea {
                return Err(format!("fields {a} and {b} overlap"));
            }
        }
    }
    Ok(fields)
}

/// A use of field pointer `fptr` that is not the address of a non-volatile
/// load or store of `ty` (looking through `spacecast`s), if any.
fn non_access_use(
    func: &Function,
    used: &HashMap<Value, Vec<(Op, usize)>>,
    fptr: Value,
    ty: TypeId,
) -> Option<Op> {
    for &(user, pos) in used.get(&fptr).map_or(&[][..], Vec::as_slice) {
        let data = &func.ops[user];
        let ok = match data.kind {
            OpKind::Load {
                volatile: false, ..
            } => pos == 0 && func.value_type(data.results[0]) == ty,
            OpKind::Store { volatile: false } => {
                pos == 0 && data.value() != fptr && func.value_type(data.value()) == ty
            }
            OpKind::Cast(CastOp::SpaceCast) => {
                if let Some(bad) = non_access_use(func, used, data.results[0], ty) {
                    return Some(bad);
                }
                true
            }
            _ => false,
        };
        if !ok {
            return Some(user);
        }
    }
    None
}

/// One scalar alloca per field, in place of the struct alloca; each field
/// pointer becomes the new alloca's pointer.
fn rewrite(
    func: &mut Function,
    region: cucc_ir::Region,
    alloca: Op,
    fields: Vec<(u32, TypeId, Vec<Op>)>,
) {
    let loc = func.ops[alloca].loc;
    let pty = func.value_type(func.ops[alloca].results[0]);
    if func.find_op(region, alloca).is_none() {
        return;
    }
    let parents = func.parents();
    for (_, fty, ops) in fields {
        let new = func.new_op(
            OpKind::Alloca {
                space: Space::Private,
                ty: fty,
            },
            vec![],
            &[pty],
            vec![],
            loc,
        );
        func.insert_before(region, alloca, [new]);
        let p = func.ops[new].results[0];
        for op in ops {
            let old = func.ops[op].results[0];
            replace_all_uses(func, old, p);
            if let Some(r) = parents.region_of(op) {
                remove_op(func, r, op);
            }
        }
    }
    remove_op(func, region, alloca);
}
