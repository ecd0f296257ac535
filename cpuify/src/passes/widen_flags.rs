//! `widen-flags`: per-thread arrays of flags (`i1`, a byte each in C) hold
//! 32-bit words instead when a narrow thread loop uses one of them.
//!
//! `distribute` keeps a value a thread carries across a barrier in an
//! array indexed by the linear thread id; hotspot's `computed` flag is one.
//! The C compiler picks one vector size per loop from its narrowest
//! element: a loop over a 16-wide tile row that stores a byte flag beside
//! its floats runs with 16-byte vectors (16 flags, four floats at a time)
//! instead of 64-byte ones, since 64 bytes would need 64 iterations. When
//! some block-level thread loop touching a flag array runs at most 32
//! threads in x (a constant bound, or one the `if`s around it bound), the
//! kernel's flag arrays become `[N x i32]` (all of them: they are copies
//! of one another, a carried flag before and after its loop): stores
//! write `zext(flag)`, loads test the word against 0. Every use of the array must be such an element access
//! (no other pointer arithmetic, no volatile access); loops over many
//! threads (flattened flag copies) read four times the bytes, which costs
//! little next to a loop running at a quarter of its width.

use crate::passes::entry::{is_launch, parts, Changed};
use crate::passes::serialize_inner::extent_bounds;
use crate::remarks::Remarks;
use cucc_ir::{
    CallSummaries, CastOp, CmpPred, FuncId, Function, FunctionEffects, Level, Module, Op, OpKind,
    Space, Type, TypeId, Types, Value, ValueDef,
};
use std::collections::HashMap;

/// Name in remarks and the pipeline.
const PASS: &str = "widen-flags";

/// A thread loop at most this many threads wide in x fills no 64-byte
/// vector of bytes.
const NARROW: u64 = 32;

/// An array to widen: the alloca and its element accesses.
struct Flags {
    alloca: Op,
    len: u64,
    /// `ptr.index` ops into it.
    index: Vec<Op>,
    /// Loads through them.
    loads: Vec<Op>,
    /// Stores through them.
    stores: Vec<Op>,
    /// Where a narrow loop uses it.
    loc: cucc_ir::Loc,
}

/// Widens the flag arrays of function `fid` (launch form) that narrow
/// thread loops use; returns how many.
pub fn widen_flags(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    if !is_launch(module, fid) {
        return Ok(0);
    }
    let found: Vec<Flags> = {
        let func = &module.functions[fid];
        let summaries = CallSummaries::compute(module);
        let fx = FunctionEffects::new(module, func, &summaries);
        let parents = func.parents();
        let i1 = flag_type(&module.types);
        let mut users: HashMap<Value, Vec<Op>> = HashMap::new();
        for (_, o) in func.walk() {
            for &v in &func.ops[o].operands {
                users.entry(v).or_default().push(o);
            }
        }
        let mut all: Vec<Flags> = func
            .walk()
            .into_iter()
            .filter_map(|(_, o)| flags_of(&module.types, func, &users, i1, o))
            .collect();
        // The first access in a narrow loop, for the remark.
        let narrow = all
            .iter()
            .flat_map(|f| f.loads.iter().chain(&f.stores))
            .copied()
            .find(|&a| {
                parents.ancestors(a).into_iter().any(|p| {
                    func.ops[p].kind
                        == OpKind::Parallel {
                            level: Level::Block,
                        }
                        && extent_bounds(&fx, func, p)[0].is_some_and(|x| x <= NARROW)
                })
            });
        // A kernel's flag arrays are copies of one another (a carried
        // flag before and after its loop): all change width, or copies
        // become conversions.
        match narrow {
            Some(a) => {
                for f in &mut all {
                    f.loc = func.ops[a].loc;
                }
                all
            }
            None => Vec::new(),
        }
    };
    let (types, func) = parts(module, fid);
    for f in &found {
        widen(types, func, f);
        let (name, loc) = (func.name.clone(), f.loc);
        remarks.add(
            PASS,
            &name,
            loc,
            format!(
                "per-thread flags ({} entries) stored as 32-bit words: a thread loop at most \
                 {NARROW} wide uses them",
                f.len
            ),
        );
    }
    Ok(found.len())
}

/// The `i1` type, if the module has made it.
fn flag_type(types: &Types) -> Option<TypeId> {
    types.find(&Type::Int(1))
}

/// `o` as a flag array whose every use is an element load or store.
fn flags_of(
    types: &Types,
    func: &Function,
    users: &HashMap<Value, Vec<Op>>,
    i1: Option<TypeId>,
    o: Op,
) -> Option<Flags> {
    let i1 = i1?;
    let OpKind::Alloca {
        space: Space::Private,
        ty,
    } = func.ops[o].kind
    else {
        return None;
    };
    let Type::Array { elem, len } = types[ty] else {
        return None;
    };
    if elem != i1 {
        return None;
    }
    let base = func.ops[o].results[0];
    let mut f = Flags {
        alloca: o,
        len,
        index: Vec::new(),
        loads: Vec::new(),
        stores: Vec::new(),
        loc: func.ops[o].loc,
    };
    for &u in users.get(&base).map(Vec::as_slice).unwrap_or(&[]) {
        let data = &func.ops[u];
        if data.kind != (OpKind::PtrIndex { elem: i1 }) || data.ptr() != base {
            return None;
        }
        let slot = data.results[0];
        for &a in users.get(&slot).map(Vec::as_slice).unwrap_or(&[]) {
            let access = &func.ops[a];
            match access.kind {
                OpKind::Load {
                    volatile: false, ..
                } if access.operands == [slot] => f.loads.push(a),
                OpKind::Store { volatile: false }
                    if access.operands.len() == 2
                        && access.ptr() == slot
                        && access.value() != slot =>
                {
                    f.stores.push(a)
                }
                _ => return None,
            }
        }
        f.index.push(u);
    }
    Some(f)
}

/// Rewrites flag array `f` to hold `i32` words.
fn widen(types: &mut Types, func: &mut Function, f: &Flags) {
    let i32t = types.i32();
    let arr = types.array(i32t, f.len);
    if let OpKind::Alloca { ty, .. } = &mut func.ops[f.alloca].kind {
        *ty = arr;
    }
    for &i in &f.index {
        func.ops[i].kind = OpKind::PtrIndex { elem: i32t };
    }
    let parents = func.parents();
    for &s in &f.stores {
        let Some(region) = parents.region_of(s) else {
            continue;
        };
        let flag = func.ops[s].value();
        let loc = func.ops[s].loc;
        let word = func.new_op(OpKind::Cast(CastOp::ZExt), vec![flag], &[i32t], vec![], loc);
        func.insert_before(region, s, [word]);
        let widened = func.ops[word].results[0];
        func.ops[s].set_value(widened);
    }
    for &l in &f.loads {
        let Some(region) = parents.region_of(l) else {
            continue;
        };
        let loc = func.ops[l].loc;
        let flag = func.ops[l].results[0];
        let i1 = func.values[flag].ty;
        // The load now yields the word; a new value, tested against 0,
        // takes the flag's place in every use.
        let word = func.new_op(OpKind::Const { bits: 0 }, vec![], &[i32t], vec![], loc);
        let zero = func.ops[word].results[0];
        let test = func.new_op(
            OpKind::Cmp(CmpPred::Ne),
            vec![flag, zero],
            &[i1],
            vec![],
            loc,
        );
        let tested = func.ops[test].results[0];
        func.values[flag].ty = i32t;
        cucc_ir::edit::replace_all_uses(func, flag, tested);
        func.ops[test].set_lhs(flag);
        func.insert_after(region, l, [word, test]);
        debug_assert!(matches!(func.values[flag].def, ValueDef::Result { .. }));
    }
}
