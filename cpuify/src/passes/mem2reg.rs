//! `mem2reg`: private scalar allocas become SSA values.
//!
//! An alloca is promoted when its address is only ever the pointer operand
//! of loads and stores of its own type, none of them inside a `parallel`.
//! Structured control flow makes this a single walk: a load reads the
//! current value, a store replaces it, and an `if`, `for` or `while` whose
//! regions store to the alloca gets one more result (and, for loops, one
//! more carried value) that carries the current value out. A load before
//! any store reads zero, as the alloca's storage would. Struct locals whose
//! fields are only loaded and stored are first split into one scalar
//! alloca per field (`split_structs`).

use crate::error::CpuifyError;
use crate::remarks::Remarks;
use cucc_ir::edit::{
    add_region_arg, add_result, remove_op, replace_all_uses, replace_uses_map, uses,
};
use cucc_ir::{Builder, FuncId, Function, Module, Op, OpKind, Region, Space, Type, TypeId, Value};
use std::collections::HashMap;

/// Promotes every promotable alloca of function `fid`. Returns how many.
pub fn mem2reg(
    module: &mut Module,
    fid: FuncId,
    remarks: &mut Remarks,
) -> Result<usize, CpuifyError> {
    let forwards = forward_through_barriers(module, fid);
    let Module {
        types, functions, ..
    } = module;
    let func = &mut functions[fid];
    // A forwarded value may itself be a forwarded load: follow the chains,
    // then replace every use in one walk (one walk per load was quadratic
    // in the size of the kernel).
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    for (region, load, value) in forwards {
        let r = func.ops[load].results[0];
        remove_op(func, region, load);
        replaced.insert(r, value);
    }
    resolve_chains(&mut replaced);
    replace_uses_map(func, &replaced);
    forward_addresses(func);
    let mut promoted = promote_scalars(types, func);
    // Address selections whose branches loaded promoted locals (`c ? &v.x
    // : &v.y` loads `c` in the branches until then) are pure now; struct
    // locals are split and their fields, with any local such a selection
    // kept in memory, promoted in turn.
    forward_addresses(func);
    super::split_structs::split_structs(types, func, remarks);
    forward_addresses(func);
    promoted += promote_scalars(types, func);
    Ok(promoted)
}

/// Promotes every promotable scalar alloca of `func`; returns how many.
fn promote_scalars(types: &mut cucc_ir::Types, func: &mut Function) -> usize {
    let mut promoted = 0;
    let candidates: Vec<(Region, Op)> = func
        .walk()
        .into_iter()
        .filter(|&(_, op)| {
            matches!(func.ops[op].kind, OpKind::Alloca { space: Space::Private, ty }
                if types[ty].is_scalar())
        })
        .collect();
    for (region, alloca) in candidates {
        let OpKind::Alloca { ty, .. } = func.ops[alloca].kind else {
            continue;
        };
        let ptr = func.ops[alloca].results[0];
        if !promotable(func, ptr, ty) {
            continue;
        }
        let at = func.regions[region]
            .ops
            .iter()
            .position(|&o| o == alloca)
            .unwrap_or(0);
        let zero = {
            let mut b = Builder::new(types, func);
            b.set_insertion_at(region, at + 1);
            b.set_loc(b.func.ops[alloca].loc);
            zero_of(&mut b, ty)
        };
        let mut p = Promoter {
            func,
            ptr,
            ty,
            loaded: HashMap::new(),
        };
        p.rewrite(region, at + 1, zero);
        // The loads' uses, replaced in one walk (one per load was quadratic
        // in the size of the kernel). A load's value may be another load's
        // result (`store p, (load p)`): follow the chains first.
        let mut loaded = std::mem::take(&mut p.loaded);
        resolve_chains(&mut loaded);
        replace_uses_map(func, &loaded);
        remove_op(func, region, alloca);
        promoted += 1;
    }
    promoted
}

/// Store-to-load forwarding through barriers (Polygeist, IV-B): a load of
/// the pointer a store of the same region wrote, later in that region, reads
/// the stored value when no op in between may write it from this thread and
/// no barrier in between orders a write of another thread to it (each
/// barrier's window, [`cucc_ir::effects::BarrierWindow::conflicts_with`],
/// which leaves out thread-injective accesses such as `w[ty][tx]`). Ops in
/// between that contain barriers stop the search. Returns the loads to
/// replace, with the stored values. The store stays: other threads may read
/// it.
fn forward_through_barriers(module: &Module, fid: FuncId) -> Vec<(Region, Op, Value)> {
    let func = &module.functions[fid];
    let summaries = cucc_ir::CallSummaries::compute(module);
    let fx = cucc_ir::FunctionEffects::new(module, func, &summaries);
    let mut regions = vec![func.body];
    for (_, op) in func.walk() {
        regions.extend(func.ops[op].regions.iter().copied());
    }
    let has_barrier = |op: Op| {
        let mut walk = Vec::new();
        for &r in &func.ops[op].regions {
            func.walk_region(r, &mut walk);
        }
        walk.iter()
            .any(|&(_, o)| func.ops[o].kind.is_synchronizing())
    };
    let mut out = Vec::new();
    for region in regions {
        let ops = &func.regions[region].ops;
        for (i, &st) in ops.iter().enumerate() {
            if func.ops[st].kind != (OpKind::Store { volatile: false }) {
                continue;
            }
            let (ptr, value) = (func.ops[st].operands[0], func.ops[st].operands[1]);
            let Some(written) = fx.op_effects(st).into_iter().find(|e| e.is_write()) else {
                continue;
            };
            let mut windows = Vec::new();
            for &op in &ops[i + 1..] {
                let kind = &func.ops[op].kind;
                if matches!(
                    kind,
                    OpKind::Load {
                        volatile: false,
                        ..
                    }
                ) && func.ops[op].operands[0] == ptr
                    && func.value_type(func.ops[op].results[0]) == func.value_type(value)
                {
                    let read = fx.op_effects(op).into_iter().find(|e| !e.is_write());
                    let clear = read.is_some_and(|r| {
                        windows
                            .iter()
                            .all(|w: &cucc_ir::effects::BarrierWindow| !w.conflicts_with(&r))
                    });
                    if !clear {
                        break;
                    }
                    out.push((region, op, value));
                    continue;
                }
                if kind.is_synchronizing() && func.ops[op].regions.is_empty() {
                    match fx.barrier_window(op, [None; 3]) {
                        Some(w) => windows.push(w),
                        None => break,
                    }
                    continue;
                }
                if has_barrier(op)
                    || fx
                        .op_effects(op)
                        .iter()
                        .any(|e| e.is_write() && fx.may_alias(e, &written))
                {
                    break;
                }
            }
        }
    }
    out
}

/// Makes the accesses of C's lvalue conditional (`*(c ? &a : &b)`, what
/// `a > b ? a : b` on lvalues becomes) and of generic views of locals
/// direct, so the locals can be promoted: a load of an `if`'s pointer
/// result whose branches only compute addresses becomes an `if` whose
/// branches load, and a load or store through `spacecast` of an alloca
/// accesses the alloca.
fn forward_addresses(func: &mut Function) {
    // Loads of address-selecting ifs.
    loop {
        let used = uses(func);
        let mut changed = false;
        let walk = func.walk();
        for &(region, load) in &walk {
            if !matches!(
                func.ops[load].kind,
                OpKind::Load {
                    volatile: false,
                    ..
                }
            ) {
                continue;
            }
            let ptr = func.ops[load].operands[0];
            let Some(sel) = func.defining_op(ptr) else {
                continue;
            };
            let data = &func.ops[sel];
            let pure_branches = data.regions.iter().all(|&r| selects_only(func, r));
            if data.kind != OpKind::If
                || data.results.len() != 1
                || used.get(&ptr).map_or(0, Vec::len) != 1
                || !pure_branches
            {
                continue;
            }
            let ty = func.value_type(func.ops[load].results[0]);
            let loc = func.ops[load].loc;
            let regions = data.regions.clone();
            let cond = data.operands.clone();
            for &r in &regions {
                let Some(&y) = func.regions[r].ops.last() else {
                    continue;
                };
                let Some(&addr) = func.ops[y].operands.first() else {
                    continue;
                };
                let l = func.new_op(
                    OpKind::Load {
                        volatile: false,
                        speculative: false,
                    },
                    vec![addr],
                    &[ty],
                    vec![],
                    loc,
                );
                let at = func.regions[r].ops.len() - 1;
                func.regions[r].ops.insert(at, l);
                func.ops[y].operands[0] = func.ops[l].results[0];
            }
            let new_if = func.new_op(OpKind::If, cond, &[ty], regions, loc);
            // The old `if` keeps no regions; it is unlinked from its list.
            func.ops[sel].regions.clear();
            if let Some(&(sel_region, _)) = walk.iter().find(|&&(_, o)| o == sel) {
                func.regions[sel_region].ops.retain(|&o| o != sel);
            }
            let at = func.regions[region]
                .ops
                .iter()
                .position(|&o| o == load)
                .unwrap_or(0);
            func.regions[region].ops[at] = new_if;
            let old = func.ops[load].results[0];
            let new = func.ops[new_if].results[0];
            replace_all_uses(func, old, new);
            changed = true;
            break;
        }
        if !changed {
            break;
        }
    }
    // Through spacecasts of allocas.
    for (_, op) in func.walk() {
        if !matches!(
            func.ops[op].kind,
            OpKind::Load {
                volatile: false,
                ..
            } | OpKind::Store { volatile: false }
        ) {
            continue;
        }
        let ptr = func.ops[op].operands[0];
        let Some(def) = func.defining_op(ptr) else {
            continue;
        };
        if func.ops[def].kind != OpKind::Cast(cucc_ir::CastOp::SpaceCast) {
            continue;
        }
        let src = func.ops[def].operands[0];
        let is_alloca = func
            .defining_op(src)
            .is_some_and(|a| matches!(func.ops[a].kind, OpKind::Alloca { .. }));
        if is_alloca {
            func.ops[op].operands[0] = src;
        }
    }
    // Spacecasts left unused would keep their allocas from promotion.
    let used = uses(func);
    for (region, op) in func.walk() {
        if func.ops[op].kind == OpKind::Cast(cucc_ir::CastOp::SpaceCast)
            && !used.contains_key(&func.ops[op].results[0])
        {
            remove_op(func, region, op);
        }
    }
}

/// True if `region` only computes values: pure ops, yields, and `if`s
/// (`c ? &a : (d ? &b : &c)`) whose regions do the same. The load moved
/// into such a region reads the address the load before read.
fn selects_only(func: &Function, region: Region) -> bool {
    func.regions[region].ops.iter().all(|&o| {
        let data = &func.ops[o];
        data.kind.is_pure()
            || data.kind == OpKind::Yield
            || (data.kind == OpKind::If && data.regions.iter().all(|&r| selects_only(func, r)))
    })
}

fn zero_of(b: &mut Builder<'_>, ty: TypeId) -> Value {
    match b.types[ty] {
        Type::Ptr(space) => b.null(space),
        Type::Float(_) => b.const_float(ty, 0.0),
        _ => b.const_int(ty, 0),
    }
}

/// True if `ptr` is only loaded from and stored to as a `ty`, outside any
/// `parallel`.
fn promotable(func: &Function, ptr: Value, ty: TypeId) -> bool {
    let parents = func.parents();
    for (_, op) in func.walk() {
        let data = &func.ops[op];
        if !data.operands.contains(&ptr) {
            continue;
        }
        let ok = match data.kind {
            OpKind::Load {
                volatile: false, ..
            } => data.operands.len() == 1 && func.value_type(data.results[0]) == ty,
            OpKind::Store { volatile: false } => {
                data.operands.len() == 2
                    && data.operands[0] == ptr
                    && data.operands[1] != ptr
                    && func.value_type(data.operands[1]) == ty
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        let in_parallel = parents
            .ancestors(op)
            .iter()
            .any(|&a| matches!(func.ops[a].kind, OpKind::Parallel { .. }));
        if in_parallel {
            return false;
        }
    }
    true
}

/// Points every key of `map` at the end of its chain (`a -> b -> c` makes
/// `a -> c`), so one [`replace_uses_map`] walk replaces what a walk per
/// entry, in order, would have. Chains end: each value is defined before
/// the load it replaces.
fn resolve_chains(map: &mut HashMap<Value, Value>) {
    let keys: Vec<Value> = map.keys().copied().collect();
    for k in keys {
        let mut v = map[&k];
        let mut steps = 0;
        while let Some(&next) = map.get(&v) {
            v = next;
            steps += 1;
            if steps > map.len() {
                break;
            }
        }
        map.insert(k, v);
    }
}

struct Promoter<'f> {
    func: &'f mut Function,
    ptr: Value,
    ty: TypeId,
    /// Each removed load's result and the value it read; uses are replaced
    /// once, after the rewrite.
    loaded: HashMap<Value, Value>,
}

impl Promoter<'_> {
    /// True if `op` or anything nested in it stores to the alloca.
    fn stores(&self, op: Op) -> bool {
        let data = &self.func.ops[op];
        if matches!(data.kind, OpKind::Store { .. }) && data.operands.first() == Some(&self.ptr) {
            return true;
        }
        data.regions
            .iter()
            .any(|&r| self.func.regions[r].ops.iter().any(|&o| self.stores(o)))
    }

    /// Rewrites the ops of `region` from `start` on, given the value the
    /// alloca holds there; returns the value it holds at the end.
    fn rewrite(&mut self, region: Region, start: usize, mut current: Value) -> Value {
        let ops: Vec<Op> = self.func.regions[region].ops
            [start.min(self.func.regions[region].ops.len())..]
            .to_vec();
        for op in ops {
            let kind = self.func.ops[op].kind.clone();
            let touches_ptr = self.func.ops[op].operands.first() == Some(&self.ptr);
            match kind {
                OpKind::Load { .. } if touches_ptr => {
                    let r = self.func.ops[op].results[0];
                    self.loaded.insert(r, current);
                    remove_op(self.func, region, op);
                }
                OpKind::Store { .. } if touches_ptr => {
                    current = self.func.ops[op].operands[1];
                    remove_op(self.func, region, op);
                }
                _ if self.func.ops[op].regions.is_empty() => {}
                _ if !self.stores(op) => {
                    for r in self.func.ops[op].regions.clone() {
                        self.rewrite(r, 0, current);
                    }
                }
                OpKind::If => {
                    let regions = self.func.ops[op].regions.clone();
                    for r in regions {
                        let out = self.rewrite(r, 0, current);
                        self.append_to_terminator(r, out);
                    }
                    current = add_result(self.func, op, self.ty);
                }
                OpKind::For { .. } => {
                    let body = self.func.ops[op].regions[0];
                    self.func.ops[op].operands.push(current);
                    let arg = add_region_arg(self.func, body, self.ty);
                    let out = self.rewrite(body, 0, arg);
                    self.append_to_terminator(body, out);
                    current = add_result(self.func, op, self.ty);
                }
                OpKind::While => {
                    let (before, after) =
                        (self.func.ops[op].regions[0], self.func.ops[op].regions[1]);
                    self.func.ops[op].operands.push(current);
                    let barg = add_region_arg(self.func, before, self.ty);
                    let bout = self.rewrite(before, 0, barg);
                    self.append_to_terminator(before, bout);
                    let aarg = add_region_arg(self.func, after, self.ty);
                    let aout = self.rewrite(after, 0, aarg);
                    self.append_to_terminator(after, aout);
                    current = add_result(self.func, op, self.ty);
                }
                _ => {
                    // A parallel cannot store to a promotable alloca.
                }
            }
        }
        current
    }

    fn append_to_terminator(&mut self, region: Region, v: Value) {
        if let Some(&t) = self.func.regions[region].ops.last() {
            self.func.ops[t].operands.push(v);
        }
    }
}
