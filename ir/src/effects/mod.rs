//! Memory-effect queries: what an op or region reads, writes, allocates.
//!
//! Every access is a [`MemEffect`]: its kind, the op responsible, the memory
//! space, the base object the pointer was derived from ([`Base`]) and, where
//! the address is affine, the byte offset from that base
//! ([`crate::affine`]). These are the facts barrier elimination, parallel
//! LICM and store-to-load forwarding ask for; the barrier side (what a
//! barrier orders, after the Polygeist paper) is in [`barrier`].
//!
//! # What each op does
//!
//! - `load` reads, `store` writes, `atomic.rmw`/`atomic.cas` read and write
//!   (marked [`MemEffect::atomic`]), `memcpy` writes its destination and
//!   reads its source, `memset` writes; volatile accesses are marked
//!   [`MemEffect::volatile`].
//! - `alloca` allocates ([`EffectKind::Alloc`]). No op frees yet;
//!   [`EffectKind::Free`] is there for device-side heap ops.
//! - A call of a module function has its callee's effects
//!   ([`CallSummaries`]), with the callee's parameters replaced by the
//!   caller's arguments. A call of a known extern ([`crate::intrinsics`]) is
//!   pure; any other extern reads and writes [`Base::Unknown`].
//! - `printf` and `trap` write [`Base::Unknown`]: output and aborting are
//!   observable, so they are never reordered with any memory access or
//!   with each other. `fence` reads and writes [`Base::Unknown`] so no
//!   access moves across it.
//! - `tex.fetch` reads [`Base::Texture`]. Texture memory is read-only while a
//!   kernel runs (CUDA leaves writes to bound memory undefined until the
//!   next launch), so nothing else aliases it and it never conflicts.
//! - Barriers, shuffles and votes have no memory effect of their own: what
//!   they order is a separate property ([`OpKind::is_synchronizing`]) and
//!   [`barrier`] computes it. `clock` and the id reads have none either.
//! - `if`, `for`, `while` and `parallel` have the union of the effects
//!   inside their regions, less the `Alloc` of allocas inside them (that
//!   storage is not visible outside). Leaving a `parallel`, offsets that
//!   mention its ivs (thread, block, warp or lane symbols) become unknown:
//!   outside the loop they stand for every iteration at once.

pub mod barrier;
pub mod summary;

use crate::affine::{Affine, AffineAnalysis};
use crate::func::{Function, Op, ParamAttrs, Region, Value};
use crate::intrinsics;
use crate::module::{GlobalId, Module};
use crate::ops::{Callee, Level, OpKind};
use crate::types::Space;
pub use barrier::{barrier_effects, conflicts_across_threads, BarrierWindow};
pub use summary::CallSummaries;

/// What an access does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// Reads memory.
    Read,
    /// Writes memory.
    Write,
    /// Creates storage.
    Alloc,
    /// Releases storage.
    Free,
}

/// The object a pointer was derived from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// The storage of an `alloca` op of the function.
    Alloca(Op),
    /// A module global (for shared globals, the block's instance).
    Global(GlobalId),
    /// The `index`-th parameter of the function.
    Param(u32),
    /// The block's dynamic shared memory.
    DynamicShared,
    /// Texture memory, read-only during a kernel.
    Texture,
    /// Anything: a pointer loaded from memory, computed from an integer,
    /// carried around a loop, or the outside world (`printf`).
    Unknown,
}

/// One memory access (or allocation) by an op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemEffect {
    /// Read, write, alloc or free.
    pub kind: EffectKind,
    /// The op responsible (for a call's summarised effects, the call).
    pub op: Op,
    /// The memory space accessed (`Generic` when unknown).
    pub space: Space,
    /// The object accessed.
    pub base: Base,
    /// Byte offset from the start of `base`, when affine.
    pub offset: Option<Affine>,
    /// Bytes accessed, when known.
    pub size: Option<u64>,
    /// A C `volatile` access.
    pub volatile: bool,
    /// Part of an atomic read-modify-write.
    pub atomic: bool,
}

impl MemEffect {
    /// True for reads and writes (not allocation).
    pub fn is_access(&self) -> bool {
        matches!(self.kind, EffectKind::Read | EffectKind::Write)
    }

    /// True for writes.
    pub fn is_write(&self) -> bool {
        self.kind == EffectKind::Write
    }

    /// The same effect without op identity, for comparing summaries.
    fn same_fact(&self, other: &MemEffect) -> bool {
        MemEffect {
            op: other.op,
            ..self.clone()
        } == *other
    }
}

/// Effect queries on one function, sharing one [`AffineAnalysis`] and a
/// module's [`CallSummaries`].
pub struct FunctionEffects<'a> {
    affine: AffineAnalysis<'a>,
    summaries: &'a CallSummaries,
}

impl<'a> FunctionEffects<'a> {
    /// Effect queries on `func` (verified IR), resolving calls with `summaries`.
    pub fn new(module: &'a Module, func: &'a Function, summaries: &'a CallSummaries) -> Self {
        FunctionEffects {
            affine: AffineAnalysis::new(module, func),
            summaries,
        }
    }

    /// Effect queries describing one execution of op `scope` of `func`:
    /// addresses may use values defined outside it as fixed terms
    /// ([`AffineAnalysis::within`]).
    pub fn within(
        module: &'a Module,
        func: &'a Function,
        summaries: &'a CallSummaries,
        scope: Op,
    ) -> Self {
        FunctionEffects {
            affine: AffineAnalysis::within(module, func, scope),
            summaries,
        }
    }

    /// The affine analysis used for addresses.
    pub fn affine(&self) -> &AffineAnalysis<'a> {
        &self.affine
    }

    /// The effects of `op`, including everything inside its regions (see
    /// the module docs).
    pub fn op_effects(&self, op: Op) -> Vec<MemEffect> {
        let mut out = Vec::new();
        self.collect_op(op, &mut out, true);
        out
    }

    /// The effects of every op of `region`, less the `Alloc` of allocas in it.
    pub fn region_effects(&self, region: Region) -> Vec<MemEffect> {
        let mut out = Vec::new();
        self.collect_region(region, &mut out, true);
        let local = self.allocas_in(&[region]);
        out.retain(|e| {
            !(e.kind == EffectKind::Alloc
                && matches!(e.base, Base::Alloca(a) if local.contains(&a)))
        });
        out
    }

    /// True if `a` and `b` may touch a common byte when executed by one
    /// thread (see [`may_alias`]).
    pub fn may_alias(&self, a: &MemEffect, b: &MemEffect) -> bool {
        same_thread_may_alias(&self.affine.func().params, a, b)
    }

    fn func(&self) -> &'a Function {
        self.affine.func()
    }

    fn module(&self) -> &'a Module {
        self.affine.module()
    }

    /// Alloca ops anywhere inside `regions`.
    fn allocas_in(&self, regions: &[Region]) -> Vec<Op> {
        let f = self.func();
        let mut ops = Vec::new();
        for &r in regions {
            f.walk_region(r, &mut ops);
        }
        ops.into_iter()
            .filter(|&(_, op)| matches!(f.ops[op].kind, OpKind::Alloca { .. }))
            .map(|(_, op)| op)
            .collect()
    }

    fn collect_region(&self, region: Region, out: &mut Vec<MemEffect>, quantify: bool) {
        for &op in &self.func().regions[region].ops {
            self.collect_op(op, out, quantify);
        }
    }

    /// Appends the effects of `op`. With `quantify`, offsets leaving a
    /// `parallel` that mention its ivs are dropped (see the module docs);
    /// without, they keep naming the executing thread (barrier windows).
    pub(crate) fn collect_op(&self, op: Op, out: &mut Vec<MemEffect>, quantify: bool) {
        let f = self.func();
        let data = &f.ops[op];
        let operand = |i: usize| data.operands.get(i).copied();
        let result_size = |i: usize| {
            data.results
                .get(i)
                .map(|&v| self.module().types.size_of(f.value_type(v)))
        };
        match &data.kind {
            OpKind::Load { volatile, .. } => {
                if let Some(p) = operand(0) {
                    out.push(self.access(
                        EffectKind::Read,
                        op,
                        p,
                        result_size(0),
                        *volatile,
                        false,
                    ));
                }
            }
            OpKind::Store { volatile } => {
                if let (Some(p), Some(v)) = (operand(0), operand(1)) {
                    let size = Some(self.module().types.size_of(f.value_type(v)));
                    out.push(self.access(EffectKind::Write, op, p, size, *volatile, false));
                }
            }
            OpKind::AtomicRmw { .. } | OpKind::AtomicCas { .. } => {
                if let Some(p) = operand(0) {
                    let size = result_size(0);
                    out.push(self.access(EffectKind::Read, op, p, size, false, true));
                    out.push(self.access(EffectKind::Write, op, p, size, false, true));
                }
            }
            OpKind::Memcpy => {
                if let (Some(dst), Some(src)) = (operand(0), operand(1)) {
                    let len = operand(2).and_then(|l| self.const_len(l));
                    out.push(self.access(EffectKind::Write, op, dst, len, false, false));
                    out.push(self.access(EffectKind::Read, op, src, len, false, false));
                }
            }
            OpKind::Memset => {
                if let Some(dst) = operand(0) {
                    let len = operand(2).and_then(|l| self.const_len(l));
                    out.push(self.access(EffectKind::Write, op, dst, len, false, false));
                }
            }
            OpKind::Alloca { space, ty } => out.push(MemEffect {
                kind: EffectKind::Alloc,
                op,
                space: *space,
                base: Base::Alloca(op),
                offset: Some(Affine::constant(0)),
                size: Some(self.module().types.size_of(*ty)),
                volatile: false,
                atomic: false,
            }),
            OpKind::Call(Callee::Extern(name)) if intrinsics::lookup(name).is_none() => {
                out.push(unknown(EffectKind::Read, op));
                out.push(unknown(EffectKind::Write, op));
            }
            OpKind::Call(Callee::Func(callee)) => {
                self.instantiate_call(op, *callee, &data.operands, out);
            }
            OpKind::Printf { .. } | OpKind::Trap { .. } => {
                out.push(unknown(EffectKind::Write, op));
            }
            OpKind::Fence { .. } => {
                out.push(unknown(EffectKind::Read, op));
                out.push(unknown(EffectKind::Write, op));
            }
            OpKind::TexFetch(_) => out.push(MemEffect {
                kind: EffectKind::Read,
                op,
                space: Space::Global,
                base: Base::Texture,
                offset: None,
                size: None,
                volatile: false,
                atomic: false,
            }),
            OpKind::If | OpKind::For { .. } | OpKind::While | OpKind::Parallel { .. } => {
                let start = out.len();
                for &r in &data.regions {
                    self.collect_region(r, out, quantify);
                }
                let local = self.allocas_in(&data.regions);
                let mut inner: Vec<MemEffect> = out.split_off(start);
                inner.retain(|e| {
                    !(e.kind == EffectKind::Alloc
                        && matches!(e.base, Base::Alloca(a) if local.contains(&a)))
                });
                if let (true, OpKind::Parallel { level }) = (quantify, &data.kind) {
                    for e in &mut inner {
                        if e.offset.as_ref().is_some_and(|o| mentions_level(o, *level)) {
                            e.offset = None;
                        }
                    }
                }
                out.extend(inner);
            }
            _ => {}
        }
    }

    /// A read or write of `size` bytes through pointer `ptr`.
    fn access(
        &self,
        kind: EffectKind,
        op: Op,
        ptr: Value,
        size: Option<u64>,
        volatile: bool,
        atomic: bool,
    ) -> MemEffect {
        let p = self.affine.pointer(ptr);
        let declared = self.affine.declared_space(ptr);
        MemEffect {
            kind,
            op,
            space: refine_space(self.module(), declared, p.base),
            base: p.base,
            offset: p.offset,
            size,
            volatile,
            atomic,
        }
    }

    fn const_len(&self, len: Value) -> Option<u64> {
        let c = self.affine.affine_of(len)?.as_constant()?;
        u64::try_from(c).ok()
    }
}

/// The space of an access: the pointer's declared space, or the base's own
/// space when the pointer is generic.
fn refine_space(module: &Module, declared: Space, base: Base) -> Space {
    if declared != Space::Generic {
        return declared;
    }
    match base {
        Base::Global(g) => module
            .globals
            .try_get(g)
            .map_or(Space::Generic, |g| g.space),
        Base::DynamicShared => Space::Shared,
        Base::Texture => Space::Global,
        _ => Space::Generic,
    }
}

/// True if `a` names a symbol bound by a `parallel` of `level`.
fn mentions_level(a: &Affine, level: Level) -> bool {
    use crate::affine::Sym;
    a.terms.keys().any(|&s| {
        let s = match s {
            Sym::Product(f, _) => f.sym(),
            s => s,
        };
        matches!(
            (level, s),
            (Level::Grid, Sym::Block(_))
                | (Level::Block, Sym::Thread(_))
                | (Level::Warp, Sym::Warp)
                | (Level::Lane, Sym::Lane)
        )
    })
}

/// An access of unknown memory.
fn unknown(kind: EffectKind, op: Op) -> MemEffect {
    MemEffect {
        kind,
        op,
        space: Space::Generic,
        base: Base::Unknown,
        offset: None,
        size: None,
        volatile: false,
        atomic: false,
    }
}

/// True if the objects of `a` and `b` may overlap, looking only at bases,
/// spaces and parameter attributes.
///
/// Different allocas, different globals, an alloca and any parameter or
/// global never alias; dynamic shared memory is distinct from allocas and
/// globals; a `noalias` parameter aliases no other known base (it may alias
/// [`Base::Unknown`], since a pointer derived from it and carried through a
/// loop traces to Unknown); texture memory aliases only itself; different
/// spaces other than generic never alias.
pub(crate) fn bases_may_alias(params: &[ParamAttrs], a: &MemEffect, b: &MemEffect) -> bool {
    use Base::*;
    if a.space != b.space && a.space != Space::Generic && b.space != Space::Generic {
        return false;
    }
    let noalias = |i: u32| params.get(i as usize).is_some_and(|p| p.noalias);
    match (a.base, b.base) {
        (Texture, Texture) => true,
        (Texture, _) | (_, Texture) => false,
        (Unknown, _) | (_, Unknown) => true,
        (x, y) if x == y => true,
        (Param(i), _) | (_, Param(i)) if noalias(i) => false,
        (Alloca(_), _) | (_, Alloca(_)) => false,
        (Global(_), Global(_)) => false,
        (DynamicShared, Global(_)) | (Global(_), DynamicShared) => false,
        _ => true,
    }
}

/// Same-thread overlap: bases may alias, and unless both are on one base
/// with offsets differing by a known constant, assume overlap.
fn same_thread_may_alias(params: &[ParamAttrs], a: &MemEffect, b: &MemEffect) -> bool {
    if !bases_may_alias(params, a, b) {
        return false;
    }
    if a.base != b.base || a.base == Base::Unknown {
        return true;
    }
    let (Some(oa), Some(ob), Some(sa), Some(sb)) = (&a.offset, &b.offset, a.size, b.size) else {
        return true;
    };
    let Some(d) = ob.checked_sub(oa).and_then(|d| d.as_constant()) else {
        return true;
    };
    // Ranges [0, sa) and [d, d + sb) overlap iff d < sa && -d < sb.
    let d = i128::from(d);
    d < i128::from(sa) && -d < i128::from(sb)
}

/// True if `a` and `b`, executed by one thread of `func`, may touch a common
/// byte. Beyond the base rules of [`FunctionEffects`] (different allocas or
/// globals, alloca vs parameter or global, `noalias` parameters, distinct
/// spaces), accesses of one base whose offsets differ by a known constant
/// and whose byte ranges are disjoint do not alias; the offsets may share
/// symbols, which are the same within one thread. Otherwise: true.
///
/// `module` is unused for now; it is taken so that alias facts about
/// globals can be added without changing callers.
pub fn may_alias(module: &Module, func: &Function, a: &MemEffect, b: &MemEffect) -> bool {
    let _ = module;
    same_thread_may_alias(&func.params, a, b)
}

/// True if `a` and `b` may alias and at least one writes (read/read never
/// conflicts; allocations do not conflict).
pub fn conflicts(module: &Module, func: &Function, a: &MemEffect, b: &MemEffect) -> bool {
    a.is_access()
        && b.is_access()
        && (a.is_write() || b.is_write())
        && may_alias(module, func, a, b)
}

/// The effects of `op` of `func` (see [`FunctionEffects::op_effects`]).
/// Computes the module's [`CallSummaries`]: for many queries build a
/// [`FunctionEffects`] once instead.
pub fn op_effects(module: &Module, func: &Function, op: Op) -> Vec<MemEffect> {
    let summaries = CallSummaries::compute(module);
    FunctionEffects::new(module, func, &summaries).op_effects(op)
}

/// The effects of `region` of `func` (see [`FunctionEffects::region_effects`]).
pub fn region_effects(module: &Module, func: &Function, region: Region) -> Vec<MemEffect> {
    let summaries = CallSummaries::compute(module);
    FunctionEffects::new(module, func, &summaries).region_effects(region)
}

#[cfg(test)]
mod tests;
