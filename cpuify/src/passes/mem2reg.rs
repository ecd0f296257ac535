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

use crate::passes::entry::{parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::edit::{
    add_region_arg, add_result, remove_op, remove_ops, replace_all_uses, replace_uses_map, uses,
};
use cucc_ir::{Base, MemEffect};
use cucc_ir::{FuncId, Function, Module, Op, OpKind, Region, Space, TypeId, Value};
use std::collections::{HashMap, HashSet};

/// Promotes every promotable alloca of function `fid`. Returns how many.
pub fn mem2reg(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let forwards = forward_through_barriers(module, fid);
    let (types, func) = parts(module, fid);
    // A forwarded value may itself be a forwarded load: follow the chains,
    // then replace every use in one walk (one walk per load was quadratic
    // in the size of the kernel).
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    let mut loads = Vec::new();
    for (region, load, value) in forwards {
        replaced.insert(func.ops[load].results[0], value);
        loads.push((region, load));
    }
    remove_ops(func, loads);
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
/// Promoting one alloca can make another promotable (a local holding the
/// address of another, once promoted, leaves only direct loads and stores
/// of that one): rounds repeat until one promotes nothing.
fn promote_scalars(types: &mut cucc_ir::Types, func: &mut Function) -> usize {
    let mut promoted = 0;
    loop {
        let n = promote_round(types, func);
        promoted += n;
        if n == 0 {
            return promoted;
        }
    }
}

/// What the rewrite knows of a promoted alloca.
struct Promoted {
    /// Its place among the promoted allocas in walk order: the order in
    /// which it gets results, carried values and yield operands.
    rank: usize,
    ty: TypeId,
    /// The alloca op.
    alloca: Op,
}

/// Promotes every scalar alloca promotable now, all in one walk: the
/// current value of each is tracked together, each `if`/`for`/`while` gets
/// one result (and carried value) per promoted alloca stored inside it, in
/// walk order of the allocas, and every use is replaced in one more walk.
/// (Promoting the allocas one at a time walked the kernel once per alloca,
/// quadratic in its size.) Returns how many.
fn promote_round(types: &cucc_ir::Types, func: &mut Function) -> usize {
    let walk = func.walk();
    let parents = func.parents();
    let mut users: HashMap<Value, Vec<Op>> = HashMap::new();
    for &(_, op) in &walk {
        for &v in &func.ops[op].operands {
            users.entry(v).or_default().push(op);
        }
    }
    let no_users = Vec::new();
    let mut promoted: HashMap<Value, Promoted> = HashMap::new();
    let mut alloca_region: HashMap<Value, Region> = HashMap::new();
    for &(region, op) in &walk {
        let OpKind::Alloca {
            space: Space::Private,
            ty,
        } = func.ops[op].kind
        else {
            continue;
        };
        if !types[ty].is_scalar() {
            continue;
        }
        let ptr = func.ops[op].results[0];
        if promotable(
            func,
            &parents,
            ptr,
            ty,
            users.get(&ptr).unwrap_or(&no_users),
        ) {
            let rank = promoted.len();
            promoted.insert(
                ptr,
                Promoted {
                    rank,
                    ty,
                    alloca: op,
                },
            );
            alloca_region.insert(ptr, region);
        }
    }
    if promoted.is_empty() {
        return 0;
    }
    // The promoted allocas each structured op stores to (stores nested in
    // it, to allocas outside it), in rank order.
    let mut stored_in: HashMap<Op, Vec<Value>> = HashMap::new();
    for &ptr in promoted.keys() {
        let home = alloca_region[&ptr];
        for &user in users.get(&ptr).unwrap_or(&no_users) {
            if !matches!(func.ops[user].kind, OpKind::Store { .. }) {
                continue;
            }
            let mut op = user;
            while let Some(region) = parents.region_of(op) {
                if region == home {
                    break;
                }
                let Some(parent) = parents.op_of(region) else {
                    break;
                };
                stored_in.entry(parent).or_default().push(ptr);
                op = parent;
            }
        }
    }
    for list in stored_in.values_mut() {
        list.sort_by_key(|p| promoted[p].rank);
        list.dedup();
    }
    let count = promoted.len();
    let created = create_values(func, &parents, &walk, &promoted, &stored_in);
    let mut p = Promoter {
        func,
        promoted: &promoted,
        stored_in: &stored_in,
        created: &created,
        current: HashMap::new(),
        loaded: HashMap::new(),
        removed: HashSet::new(),
        touched: Vec::new(),
    };
    let body = p.func.body;
    p.rewrite(body);
    let Promoter {
        func,
        mut loaded,
        removed,
        touched,
        ..
    } = p;
    let zeros = &created.zeros;
    // Loads and stores leave their regions; each alloca's place goes to
    // its initial zero.
    for region in touched {
        let ops = std::mem::take(&mut func.regions[region].ops);
        func.regions[region].ops = ops
            .into_iter()
            .filter(|o| !removed.contains(o))
            .map(|o| zeros.get(&o).copied().unwrap_or(o))
            .collect();
    }
    // A load's value may be another load's result (`store p, (load q)`):
    // follow the chains, then replace every use in one walk.
    resolve_chains(&mut loaded);
    replace_uses_map(func, &loaded);
    count
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
///
/// One pass over each region: the stores still forwarding ([`Pending`])
/// are kept by pointer, each op's effects and each barrier's window are
/// computed once (a scan from every store was quadratic in the size of the
/// kernel).
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
        let mut pending = Pending::default();
        let mut windows: Vec<cucc_ir::effects::BarrierWindow> = Vec::new();
        for &op in &func.regions[region].ops {
            let data = &func.ops[op];
            if matches!(
                data.kind,
                OpKind::Load {
                    volatile: false,
                    ..
                }
            ) {
                let ptr = data.ptr();
                if let Some(st) = pending.by_ptr.get(&ptr) {
                    if func.value_type(data.results[0]) == func.value_type(st.value) {
                        let read = fx.op_effects(op).into_iter().find(|e| !e.is_write());
                        let clear = read.is_some_and(|r| {
                            windows[st.windows..].iter().all(|w| !w.conflicts_with(&r))
                        });
                        if clear {
                            out.push((region, op, st.value));
                        } else {
                            pending.remove(ptr);
                        }
                        continue;
                    }
                }
            }
            if data.kind.is_synchronizing() && data.regions.is_empty() {
                match fx.barrier_window(op, [None; 3]) {
                    Some(w) => windows.push(w),
                    None => pending.clear(),
                }
                continue;
            }
            if !data.regions.is_empty() && has_barrier(op) {
                pending.clear();
                continue;
            }
            let effects = fx.op_effects(op);
            for e in effects.iter().filter(|e| e.is_write()) {
                pending.kill_aliases(&fx, e);
            }
            if data.kind == (OpKind::Store { volatile: false }) {
                if let Some(written) = effects.into_iter().find(|e| e.is_write()) {
                    pending.insert(
                        data.ptr(),
                        PendingStore {
                            value: data.value(),
                            written,
                            windows: windows.len(),
                        },
                    );
                }
            }
        }
    }
    out
}

/// A store whose value later loads of its pointer may still read.
struct PendingStore {
    value: Value,
    /// What it wrote.
    written: MemEffect,
    /// The barrier windows crossed since are those from this index on.
    windows: usize,
}

/// The stores still forwarding in a region, by pointer, and indexed so that
/// a write looks only at the stores it may overwrite. The index follows the
/// base rules of [`cucc_ir::FunctionEffects::may_alias`]: a write to an
/// alloca can only overwrite stores to that alloca or to memory of another
/// (non-alloca) base; a write of unknown base, stores to allocas in a
/// compatible space; a write to a parameter, global or shared memory, no
/// alloca at all. The exact test is still `may_alias`; the index only
/// leaves out stores it would answer `false` for.
#[derive(Default)]
struct Pending {
    by_ptr: HashMap<Value, PendingStore>,
    by_alloca: HashMap<Op, HashSet<Value>>,
    alloca_by_space: HashMap<Space, HashSet<Value>>,
    other: HashSet<Value>,
}

impl Pending {
    fn insert(&mut self, ptr: Value, st: PendingStore) {
        self.remove(ptr);
        match st.written.base {
            Base::Alloca(a) => {
                self.by_alloca.entry(a).or_default().insert(ptr);
                self.alloca_by_space
                    .entry(st.written.space)
                    .or_default()
                    .insert(ptr);
            }
            _ => {
                self.other.insert(ptr);
            }
        }
        self.by_ptr.insert(ptr, st);
    }

    fn remove(&mut self, ptr: Value) {
        let Some(st) = self.by_ptr.remove(&ptr) else {
            return;
        };
        match st.written.base {
            Base::Alloca(a) => {
                if let Some(set) = self.by_alloca.get_mut(&a) {
                    set.remove(&ptr);
                }
                if let Some(set) = self.alloca_by_space.get_mut(&st.written.space) {
                    set.remove(&ptr);
                }
            }
            _ => {
                self.other.remove(&ptr);
            }
        }
    }

    fn clear(&mut self) {
        *self = Pending::default();
    }

    /// Ends the forwarding of every store `write` may overwrite.
    fn kill_aliases(&mut self, fx: &cucc_ir::FunctionEffects<'_>, write: &MemEffect) {
        let mut candidates: Vec<Value> = self.other.iter().copied().collect();
        match write.base {
            Base::Alloca(a) => {
                candidates.extend(self.by_alloca.get(&a).into_iter().flatten().copied());
            }
            Base::Unknown => {
                for (&space, set) in &self.alloca_by_space {
                    if write.space == Space::Generic
                        || space == Space::Generic
                        || space == write.space
                    {
                        candidates.extend(set.iter().copied());
                    }
                }
            }
            _ => {}
        }
        for ptr in candidates {
            if self
                .by_ptr
                .get(&ptr)
                .is_some_and(|st| fx.may_alias(write, &st.written))
            {
                self.remove(ptr);
            }
        }
    }
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
            let ptr = func.ops[load].ptr();
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
            let cond = vec![data.cond()];
            for &r in &regions {
                let Some(&y) = func.regions[r].ops.last() else {
                    continue;
                };
                let Some(&addr) = func.ops[y].values().first() else {
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
                func.insert_before(r, y, [l]);
                func.ops[y].values_mut()[0] = func.ops[l].results[0];
            }
            let new_if = func.new_op(OpKind::If, cond, &[ty], regions, loc);
            // The old `if` keeps no regions; it is unlinked from its list.
            func.ops[sel].regions.clear();
            if let Some(&(sel_region, _)) = walk.iter().find(|&&(_, o)| o == sel) {
                func.regions[sel_region].ops.retain(|&o| o != sel);
            }
            func.replace_op(region, load, new_if);
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
        let ptr = func.ops[op].ptr();
        let Some(def) = func.defining_op(ptr) else {
            continue;
        };
        if func.ops[def].kind != OpKind::Cast(cucc_ir::CastOp::SpaceCast) {
            continue;
        }
        let src = func.ops[def].input();
        let is_alloca = func
            .defining_op(src)
            .is_some_and(|a| matches!(func.ops[a].kind, OpKind::Alloca { .. }));
        if is_alloca {
            func.ops[op].set_ptr(src);
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

/// True if `ptr` is only loaded from and stored to as a `ty`, outside any
/// `parallel`; `users` are the ops using it.
fn promotable(
    func: &Function,
    parents: &cucc_ir::Parents,
    ptr: Value,
    ty: TypeId,
    users: &[Op],
) -> bool {
    users.iter().all(|&op| {
        let data = &func.ops[op];
        let ok = match data.kind {
            OpKind::Load {
                volatile: false, ..
            } => data.operands.len() == 1 && func.value_type(data.results[0]) == ty,
            OpKind::Store { volatile: false } => {
                data.operands.len() == 2
                    && data.ptr() == ptr
                    && data.value() != ptr
                    && func.value_type(data.value()) == ty
            }
            _ => false,
        };
        ok && !parents
            .ancestors(op)
            .iter()
            .any(|&a| matches!(func.ops[a].kind, OpKind::Parallel { .. }))
    })
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

/// The values a promotion adds: each alloca's zero, and the region
/// arguments and results of the structured ops storing to it.
#[derive(Default)]
struct Created {
    /// Each promoted alloca op and the zero constant taking its place.
    zeros: HashMap<Op, Op>,
    /// `(op, alloca)`: the carried value's region argument of a `for`, or
    /// the `before` and `after` arguments of a `while`.
    args: HashMap<(Op, Value), Vec<Value>>,
    /// `(op, alloca)`: the result carrying the alloca's value out of `op`.
    results: HashMap<(Op, Value), Value>,
}

/// Creates the values of [`Created`] alloca by alloca, in the order
/// promoting the allocas one at a time created them (for each alloca: its
/// zero, then for each structured op storing to it, in walk order, a
/// loop's arguments before its body's and its result after them), so the
/// arena numbering, on which later passes' choices depend, is the same.
fn create_values(
    func: &mut Function,
    parents: &cucc_ir::Parents,
    walk: &[(Region, Op)],
    promoted: &HashMap<Value, Promoted>,
    stored_in: &HashMap<Op, Vec<Value>>,
) -> Created {
    let mut stored_ops: HashMap<Value, Vec<Op>> = HashMap::new();
    for &(_, op) in walk {
        for &ptr in stored_in.get(&op).into_iter().flatten() {
            stored_ops.entry(ptr).or_default().push(op);
        }
    }
    let mut by_rank: Vec<(&Value, &Promoted)> = promoted.iter().collect();
    by_rank.sort_by_key(|(_, p)| p.rank);
    let mut c = Created::default();
    for (&ptr, info) in by_rank {
        let loc = func.ops[info.alloca].loc;
        let zero = func.new_op(OpKind::Const { bits: 0 }, vec![], &[info.ty], vec![], loc);
        c.zeros.insert(info.alloca, zero);
        // The stored ops in walk (pre-)order, with a stack of the ones
        // enclosing the current one: an op's result is made when the walk
        // leaves it, a `while`'s `after` argument when it enters `after`.
        let mut stack: Vec<Op> = Vec::new();
        for &op in stored_ops.get(&ptr).into_iter().flatten() {
            while let Some(&top) = stack.last() {
                match region_within(func, parents, op, top) {
                    Some(r)
                        if func.ops[top].kind == OpKind::While && r == func.ops[top].after() =>
                    {
                        c.while_after_arg(func, top, ptr, info.ty);
                        break;
                    }
                    Some(_) => break,
                    None => {
                        c.leave(func, top, ptr, info.ty);
                        stack.pop();
                    }
                }
            }
            c.enter(func, op, ptr, info.ty);
            stack.push(op);
        }
        while let Some(top) = stack.pop() {
            c.leave(func, top, ptr, info.ty);
        }
    }
    c
}

/// Which region of `outer` holds `op`, if `outer` encloses it.
fn region_within(
    func: &Function,
    parents: &cucc_ir::Parents,
    mut op: Op,
    outer: Op,
) -> Option<Region> {
    loop {
        let region = parents.region_of(op)?;
        let parent = parents.op_of(region)?;
        if parent == outer {
            return func.ops[outer].regions.contains(&region).then_some(region);
        }
        op = parent;
    }
}

impl Created {
    fn enter(&mut self, func: &mut Function, op: Op, ptr: Value, ty: TypeId) {
        if matches!(func.ops[op].kind, OpKind::For { .. } | OpKind::While) {
            let first = match func.ops[op].kind {
                OpKind::While => func.ops[op].before(),
                _ => func.ops[op].body(),
            };
            let arg = add_region_arg(func, first, ty);
            self.args.insert((op, ptr), vec![arg]);
        }
    }

    fn while_after_arg(&mut self, func: &mut Function, op: Op, ptr: Value, ty: TypeId) {
        let args = self.args.entry((op, ptr)).or_default();
        if args.len() == 1 {
            let after = func.ops[op].after();
            args.push(add_region_arg(func, after, ty));
        }
    }

    fn leave(&mut self, func: &mut Function, op: Op, ptr: Value, ty: TypeId) {
        match func.ops[op].kind {
            OpKind::If | OpKind::For { .. } => {}
            OpKind::While => self.while_after_arg(func, op, ptr, ty),
            _ => return,
        }
        self.results.insert((op, ptr), add_result(func, op, ty));
    }
}

/// The walk that promotes a set of allocas at once.
struct Promoter<'f> {
    func: &'f mut Function,
    promoted: &'f HashMap<Value, Promoted>,
    stored_in: &'f HashMap<Op, Vec<Value>>,
    created: &'f Created,
    /// The value each promoted alloca holds at the point of the walk.
    current: HashMap<Value, Value>,
    /// Each removed load's result and the value it read; uses are replaced
    /// once, after the rewrite.
    loaded: HashMap<Value, Value>,
    /// Loads and stores of promoted allocas, taken out after the walk.
    removed: HashSet<Op>,
    /// Regions that lose or replace ops.
    touched: Vec<Region>,
}

impl Promoter<'_> {
    fn promoted_ptr(&self, op: Op) -> Option<Value> {
        self.func.ops[op]
            .operands
            .first()
            .copied()
            .filter(|p| self.promoted.contains_key(p))
    }

    /// The values the allocas of `ptrs` hold now.
    fn values(&self, ptrs: &[Value]) -> Vec<Value> {
        ptrs.iter().map(|p| self.value(*p)).collect()
    }

    fn value(&self, ptr: Value) -> Value {
        // Every promoted alloca is defined (and so given its zero) before
        // any op using it.
        self.current.get(&ptr).copied().unwrap_or(ptr)
    }

    fn set(&mut self, ptrs: &[Value], values: &[Value]) {
        for (&p, &v) in ptrs.iter().zip(values) {
            self.current.insert(p, v);
        }
    }

    /// Rewrites the ops of `region` in order.
    fn rewrite(&mut self, region: Region) {
        let ops = self.func.regions[region].ops.clone();
        let mut touched = false;
        for op in ops {
            let kind = self.func.ops[op].kind.clone();
            match kind {
                OpKind::Alloca { .. } => {
                    let ptr = self.func.ops[op].results[0];
                    // A load before any store reads zero, as the alloca's
                    // storage would: all-zero bits, for every scalar
                    // (integer, float, null pointer).
                    if let Some(&zero) = self.created.zeros.get(&op) {
                        self.current.insert(ptr, self.func.ops[zero].results[0]);
                        touched = true;
                    }
                }
                OpKind::Load { .. } => {
                    if let Some(ptr) = self.promoted_ptr(op) {
                        let r = self.func.ops[op].results[0];
                        self.loaded.insert(r, self.value(ptr));
                        self.removed.insert(op);
                        touched = true;
                    }
                }
                OpKind::Store { .. } => {
                    if let Some(ptr) = self.promoted_ptr(op) {
                        let v = self.func.ops[op].value();
                        self.current.insert(ptr, v);
                        self.removed.insert(op);
                        touched = true;
                    }
                }
                _ => self.structured(op, &kind),
            }
        }
        if touched {
            self.touched.push(region);
        }
    }

    /// Rewrites the regions of `op`, threading the allocas stored in it
    /// through its results (and carried values).
    fn structured(&mut self, op: Op, kind: &OpKind) {
        let regions = self.func.ops[op].regions.clone();
        if regions.is_empty() {
            return;
        }
        let stored = self.stored_in.get(&op).cloned().unwrap_or_default();
        if stored.is_empty() {
            for r in regions {
                self.rewrite(r);
            }
            return;
        }
        // The region arguments and results were made by `create_values`.
        let arg = |this: &Self, i: usize| -> Vec<Value> {
            stored
                .iter()
                .map(|&p| {
                    this.created
                        .args
                        .get(&(op, p))
                        .and_then(|a| a.get(i))
                        .copied()
                        .unwrap_or(p)
                })
                .collect()
        };
        match kind {
            OpKind::If => {
                let before = self.values(&stored);
                for r in regions {
                    self.rewrite_through(&stored, r, &before);
                }
            }
            OpKind::For { .. } => {
                let body = self.func.ops[op].body();
                let init = self.values(&stored);
                self.func.ops[op].push_inits(init);
                self.rewrite_through(&stored, body, &arg(self, 0));
            }
            OpKind::While => {
                let (before, after) = (self.func.ops[op].before(), self.func.ops[op].after());
                let init = self.values(&stored);
                self.func.ops[op].push_inits(init);
                self.rewrite_through(&stored, before, &arg(self, 0));
                self.rewrite_through(&stored, after, &arg(self, 1));
            }
            _ => {
                // A parallel cannot store to a promotable alloca.
                for r in regions {
                    self.rewrite(r);
                }
                return;
            }
        }
        let results: Vec<Value> = stored
            .iter()
            .map(|&p| self.created.results.get(&(op, p)).copied().unwrap_or(p))
            .collect();
        self.set(&stored, &results);
    }

    /// Rewrites `region` with the allocas `ptrs` holding `entry` when it
    /// starts, and passes on what they hold at its end through its
    /// terminator.
    fn rewrite_through(&mut self, ptrs: &[Value], region: Region, entry: &[Value]) {
        self.set(ptrs, entry);
        self.rewrite(region);
        let out = self.values(ptrs);
        self.append_to_terminator(region, &out);
    }

    fn append_to_terminator(&mut self, region: Region, values: &[Value]) {
        if let Some(&t) = self.func.regions[region].ops.last() {
            self.func.ops[t].push_values(values.iter().copied());
        }
    }
}
