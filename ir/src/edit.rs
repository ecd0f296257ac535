//! Editing helpers for passes: use replacement, op removal, region cloning.
//! Inserting and replacing ops next to an op handle are methods of
//! [`Function`] (`insert_before`, `replace_op`, ...).
//!
//! Ops and values are never deleted from their arenas; removing an op takes
//! it out of its region's list, which is what makes it dead.

use crate::func::{Function, Op, Region, Value};
use std::collections::{HashMap, HashSet};

/// Replaces every use of `from` by `to` in the ops reachable from the body.
pub fn replace_all_uses(func: &mut Function, from: Value, to: Value) {
    let mut map = HashMap::new();
    map.insert(from, to);
    replace_uses_map(func, &map);
}

/// Replaces every use of a key of `map` by its value, in the ops reachable
/// from the body.
pub fn replace_uses_map(func: &mut Function, map: &HashMap<Value, Value>) {
    if map.is_empty() {
        return;
    }
    for (_, op) in func.walk() {
        for v in func.ops[op].operands.iter_mut() {
            if let Some(&n) = map.get(v) {
                *v = n;
            }
        }
    }
}

/// Replaces uses of the keys of `map` by their values in the ops of
/// `region` and everything nested in it.
pub fn replace_uses_in_region(func: &mut Function, region: Region, map: &HashMap<Value, Value>) {
    if map.is_empty() {
        return;
    }
    let mut ops = Vec::new();
    func.walk_region(region, &mut ops);
    for (_, op) in ops {
        for v in func.ops[op].operands.iter_mut() {
            if let Some(&n) = map.get(v) {
                *v = n;
            }
        }
    }
}

/// Replaces uses of the keys of `map` in `op` and everything nested in it.
pub fn replace_uses_in_op(func: &mut Function, op: Op, map: &HashMap<Value, Value>) {
    for v in func.ops[op].operands.iter_mut() {
        if let Some(&n) = map.get(v) {
            *v = n;
        }
    }
    for r in func.ops[op].regions.clone() {
        replace_uses_in_region(func, r, map);
    }
}

/// Appends a result of type `ty` to `op` and returns it.
pub fn add_result(func: &mut Function, op: Op, ty: crate::TypeId) -> Value {
    let index = func.ops[op].results.len() as u32;
    let v = func.values.append(crate::ValueData {
        ty,
        def: crate::ValueDef::Result { op, index },
        name: None,
    });
    func.ops[op].results.push(v);
    v
}

/// Appends an argument of type `ty` to `region` and returns it.
pub fn add_region_arg(func: &mut Function, region: Region, ty: crate::TypeId) -> Value {
    let index = func.regions[region].args.len() as u32;
    let v = func.values.append(crate::ValueData {
        ty,
        def: crate::ValueDef::Arg { region, index },
        name: None,
    });
    func.regions[region].args.push(v);
    v
}

/// Takes `op` out of `region`'s op list. Returns false if it was not there
/// ([`Function::unlink_op`] instead treats that as a bug).
pub fn remove_op(func: &mut Function, region: Region, op: Op) -> bool {
    let ops = &mut func.regions[region].ops;
    match ops.iter().position(|&o| o == op) {
        Some(i) => {
            ops.remove(i);
            true
        }
        None => false,
    }
}

/// Takes every `(region, op)` of `ops` out of its region's op list, with
/// one pass over each region involved (removing them one at a time searched
/// the region once per op).
pub fn remove_ops(func: &mut Function, ops: impl IntoIterator<Item = (Region, Op)>) {
    let mut by_region: HashMap<Region, HashSet<Op>> = HashMap::new();
    for (region, op) in ops {
        by_region.entry(region).or_default().insert(op);
    }
    for (region, gone) in by_region {
        func.regions[region].ops.retain(|o| !gone.contains(o));
    }
}

/// Deep-copies `op` (with its regions) into `func` as a detached op,
/// renaming operands through `map` (values not in `map` are kept) and
/// recording the copies of its results and region arguments in `map`.
pub fn clone_op(func: &mut Function, op: Op, map: &mut HashMap<Value, Value>) -> Op {
    clone_op_from(func, None, op, map)
}

/// Like [`clone_op`], but copies `op` out of `src` (another function) into `func`.
pub fn clone_op_between(
    func: &mut Function,
    src: &Function,
    op: Op,
    map: &mut HashMap<Value, Value>,
) -> Op {
    clone_op_from(func, Some(src), op, map)
}

fn clone_op_from(
    func: &mut Function,
    src: Option<&Function>,
    op: Op,
    map: &mut HashMap<Value, Value>,
) -> Op {
    let data = match src {
        Some(s) => s.ops[op].clone(),
        None => func.ops[op].clone(),
    };
    let value_data = |func: &Function, v: Value| match src {
        Some(s) => s.values[v].clone(),
        None => func.values[v].clone(),
    };
    let mut new_regions = Vec::with_capacity(data.regions.len());
    for &r in &data.regions {
        new_regions.push(clone_region_from(func, src, r, map));
    }
    let operands = data
        .operands
        .iter()
        .map(|v| *map.get(v).unwrap_or(v))
        .collect();
    let result_types: Vec<_> = data
        .results
        .iter()
        .map(|&v| value_data(func, v).ty)
        .collect();
    let new = func.new_op(data.kind, operands, &result_types, new_regions, data.loc);
    let new_results = func.ops[new].results.clone();
    for (&old, &n) in data.results.iter().zip(&new_results) {
        func.values[n].name = value_data(func, old).name;
        map.insert(old, n);
    }
    new
}

/// Deep-copies a region (arguments and ops) as a detached region.
pub fn clone_region(
    func: &mut Function,
    region: Region,
    map: &mut HashMap<Value, Value>,
) -> Region {
    clone_region_from(func, None, region, map)
}

fn clone_region_from(
    func: &mut Function,
    src: Option<&Function>,
    region: Region,
    map: &mut HashMap<Value, Value>,
) -> Region {
    let data = match src {
        Some(s) => s.regions[region].clone(),
        None => func.regions[region].clone(),
    };
    let arg_info: Vec<_> = data
        .args
        .iter()
        .map(|&v| match src {
            Some(s) => (s.values[v].ty, s.values[v].name.clone()),
            None => (func.values[v].ty, func.values[v].name.clone()),
        })
        .collect();
    let types: Vec<_> = arg_info.iter().map(|(t, _)| *t).collect();
    let new = func.new_region(&types);
    let new_args = func.regions[new].args.clone();
    for ((&old, &n), (_, name)) in data.args.iter().zip(&new_args).zip(arg_info) {
        func.values[n].name = name;
        map.insert(old, n);
    }
    for &op in &data.ops {
        let c = clone_op_from(func, src, op, map);
        func.regions[new].ops.push(c);
    }
    new
}

/// Every use of each value: (user op, operand position), over the ops
/// reachable from the body.
pub fn uses(func: &Function) -> HashMap<Value, Vec<(Op, usize)>> {
    let mut out: HashMap<Value, Vec<(Op, usize)>> = HashMap::new();
    for (_, op) in func.walk() {
        for (i, &v) in func.ops[op].operands.iter().enumerate() {
            out.entry(v).or_default().push((op, i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Builder, FunctionKind, Module, OpKind};

    #[test]
    fn remove_ops_takes_each_op_out_of_its_region() {
        let mut m = Module::new();
        let i32t = m.types.i32();
        let mut f = Function::new("f", FunctionKind::Device, &[i32t], &[i32t]);
        {
            let mut b = Builder::new(&mut m.types, &mut f);
            let p = b.params()[0];
            let zero = b.i32(0);
            let one = b.i32(1);
            let r = b.for_(zero, p, one, &[zero], |b, iv, c| {
                b.i32(2);
                vec![b.binary(crate::BinOp::Add, c[0], iv)]
            });
            b.ret(vec![r[0]]);
        }
        let body = f.body;
        let top = f.regions[body].ops.clone();
        let inner_region = f.ops[top[2]].regions[0];
        let inner = f.regions[inner_region].ops.clone();
        remove_ops(
            &mut f,
            [(body, top[0]), (inner_region, inner[0]), (body, top[1])],
        );
        assert_eq!(f.regions[body].ops, top[2..].to_vec());
        assert_eq!(f.regions[inner_region].ops, inner[1..].to_vec());
        // Removing what is not there changes nothing.
        remove_ops(&mut f, [(body, top[0])]);
        assert_eq!(f.regions[body].ops, top[2..].to_vec());
    }

    #[test]
    fn clone_and_replace() {
        let mut m = Module::new();
        let i32t = m.types.i32();
        let mut f = Function::new("f", FunctionKind::Device, &[i32t], &[i32t]);
        let (op_for, sum) = {
            let mut b = Builder::new(&mut m.types, &mut f);
            let p = b.params()[0];
            let zero = b.i32(0);
            let one = b.i32(1);
            let r = b.for_(zero, p, one, &[zero], |b, iv, c| {
                vec![b.binary(crate::BinOp::Add, c[0], iv)]
            });
            b.ret(vec![r[0]]);
            let body = b.func.body;
            (b.func.regions[body].ops[2], r[0])
        };
        let mut map = HashMap::new();
        let copy = clone_op(&mut f, op_for, &mut map);
        assert!(matches!(f.ops[copy].kind, OpKind::For { .. }));
        assert_ne!(f.ops[copy].regions[0], f.ops[op_for].regions[0]);
        let new_sum = map[&sum];
        let body = f.body;
        let pos = f.regions[body].ops.len() - 1;
        f.regions[body].ops.insert(pos, copy);
        replace_all_uses(&mut f, sum, new_sum);
        let ret = *f.regions[body].ops.last().expect("return");
        assert_eq!(f.ops[ret].operands[0], new_sum);
        assert!(remove_op(&mut f, body, op_for));
        assert!(!remove_op(&mut f, body, op_for));
        assert_eq!(uses(&f)[&new_sum].len(), 1);
    }
}
