//! Warp-synchronous code written for lanes that run in lockstep gets the
//! warp barriers it relied on. Both frontends apply this to what they
//! lower, so the IR's own semantics (lanes independent between barriers)
//! stay as they are and the interpreter, the oracle, sees the barriers.
//!
//! Before Volta a warp executed each instruction for all its active lanes
//! at once, and code from that time (the CUDA samples' last-warp reduction
//! `s[tid] += s[tid + 16]; s[tid] += s[tid + 8]; ...` and warp scans through
//! `volatile` shared memory, with no `__syncwarp`) depends on it: every
//! lane's load happens before any lane's store of the same statement, and
//! every store before the next statement's loads. cucc runs a warp's lanes
//! one after another between barriers, which gives such code silently wrong
//! results. Lockstep is restored where the program asked for it by
//! writing `volatile`: between two volatile accesses to shared (or generic)
//! memory at least one of which is a store, with no barrier between them,
//! `__syncwarp(__activemask())` is inserted. The mask is the lanes that
//! execute the access together, as under lockstep, so it is right inside
//! divergent branches too (`if (tid < s)`). Loops are followed around their
//! back edge; branches and loops are joined conservatively.
//!
//! Only `volatile` accesses count: code without `volatile` was already
//! wrong on GPUs (the compiler keeps values in registers). Volatile global
//! memory (inter-block flags) is left alone.

use crate::{Builder, Callee, Function, FunctionKind, Module, Op, OpKind, Region, Space, Types};
use std::collections::{BTreeMap, HashMap};

/// The kind of the last volatile access since the last barrier.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Last {
    Load,
    Store,
}

/// Both paths' states where they meet: a store on either wins.
fn join(a: Option<Last>, b: Option<Last>) -> Option<Last> {
    match (a, b) {
        (Some(Last::Store), _) | (_, Some(Last::Store)) => Some(Last::Store),
        (Some(Last::Load), _) | (_, Some(Last::Load)) => Some(Last::Load),
        _ => None,
    }
}

struct Walk<'a> {
    types: &'a Types,
    func: &'a Function,
    /// Where a barrier goes: before these ops.
    before: Vec<(Region, Op)>,
    /// Private allocas whose address is only stored to and loaded from,
    /// and the values stored.
    locals: HashMap<crate::Value, Vec<crate::Value>>,
}

/// The private allocas of `func` used only as the address of loads and
/// stores, with the values stored to each.
fn locals(func: &Function) -> HashMap<crate::Value, Vec<crate::Value>> {
    let mut out: HashMap<crate::Value, Vec<crate::Value>> = HashMap::new();
    let mut escaped = std::collections::HashSet::new();
    for (_, op) in func.walk() {
        let od = &func.ops[op];
        if let OpKind::Alloca {
            space: Space::Private,
            ..
        } = od.kind
        {
            if let Some(&r) = od.results.first() {
                out.entry(r).or_default();
            }
        }
    }
    for (_, op) in func.walk() {
        let od = &func.ops[op];
        for (k, &a) in od.operands.iter().enumerate() {
            if !out.contains_key(&a) {
                continue;
            }
            match (&od.kind, k) {
                (OpKind::Load { .. }, 0) => {}
                (OpKind::Store { .. }, 0) => {
                    if let Some(&x) = od.operands.get(1) {
                        out.entry(a).or_default().push(x);
                    }
                }
                _ => {
                    escaped.insert(a);
                }
            }
        }
    }
    out.retain(|a, _| !escaped.contains(a));
    out
}

impl Walk<'_> {
    /// The volatile shared-or-generic access `op` is, if it is one.
    fn access(&self, op: Op) -> Option<Last> {
        let od = &self.func.ops[op];
        let (kind, ptr) = match od.kind {
            OpKind::Load { volatile: true, .. } => (Last::Load, *od.operands.first()?),
            OpKind::Store { volatile: true } => (Last::Store, *od.operands.first()?),
            _ => return None,
        };
        let space = self.types[self.func.value_type(ptr)].ptr_space()?;
        let shared = match space {
            Space::Shared => true,
            Space::Generic => !self.global_root(ptr),
            _ => false,
        };
        shared.then_some(kind)
    }

    /// True if generic pointer `v` is derived from a kernel parameter or a
    /// global-space pointer (addresses and casts followed back, and a
    /// private local through the values stored to it, which is how the
    /// CUDA frontend keeps parameters): global memory, which a kernel's
    /// parameters always point to.
    fn global_root(&self, v: crate::Value) -> bool {
        self.rooted(v, 16)
    }

    fn rooted(&self, mut v: crate::Value, depth: u32) -> bool {
        if depth == 0 {
            return false;
        }
        for _ in 0..64 {
            if self.types[self.func.value_type(v)].ptr_space() == Some(Space::Global) {
                return true;
            }
            match self.func.values[v].def {
                crate::ValueDef::Result { op, .. } => {
                    let od = &self.func.ops[op];
                    match od.kind {
                        OpKind::PtrIndex { .. }
                        | OpKind::PtrField { .. }
                        | OpKind::Cast(crate::CastOp::SpaceCast) => match od.operands.first() {
                            Some(&p) => v = p,
                            None => return false,
                        },
                        OpKind::Load { .. } => {
                            let Some(stored) = od.operands.first().and_then(|a| self.locals.get(a))
                            else {
                                return false;
                            };
                            return !stored.is_empty()
                                && stored.iter().all(|&x| self.rooted(x, depth - 1));
                        }
                        _ => return false,
                    }
                }
                crate::ValueDef::Arg { region, .. } => {
                    return self.func.kind == FunctionKind::Kernel && region == self.func.body;
                }
            }
        }
        false
    }

    /// Walks `region` entered in state `state`; returns the state at its
    /// end. Records insertions only when `record`.
    fn region(&mut self, region: Region, mut state: Option<Last>, record: bool) -> Option<Last> {
        for &op in &self.func.regions[region].ops {
            let od = &self.func.ops[op];
            match od.kind {
                OpKind::Barrier(_) | OpKind::BarrierReduce(_) => state = None,
                // A device function orders its own accesses; what it left
                // behind is not known here.
                OpKind::Call(Callee::Func(_)) => state = Some(Last::Store),
                _ if od.regions.is_empty() => {
                    if let Some(k) = self.access(op) {
                        let after_store = state == Some(Last::Store);
                        if record && state.is_some() && (after_store || k == Last::Store) {
                            self.before.push((region, op));
                        }
                        state = Some(k);
                    }
                }
                OpKind::For { .. } | OpKind::While | OpKind::Parallel { .. } => {
                    // Around the back edge: the body may start after its own
                    // end. Zero iterations leave the state as it was.
                    let regions = od.regions.clone();
                    let mut entry = state;
                    for _ in 0..2 {
                        let mut out = entry;
                        for &r in &regions {
                            out = self.region(r, out, false);
                        }
                        let next = join(state, out);
                        if next == entry {
                            break;
                        }
                        entry = next;
                    }
                    let mut out = entry;
                    for &r in &regions {
                        out = self.region(r, out, record);
                    }
                    state = join(state, join(entry, out));
                }
                _ => {
                    // `if` and the like: each region from the same state.
                    let regions = od.regions.clone();
                    let mut out = state;
                    for &r in &regions {
                        out = join(out, self.region(r, state, record));
                    }
                    state = out;
                }
            }
        }
        state
    }
}

/// Inserts the warp barriers of lockstep execution into every kernel and
/// device function of `module`; returns how many. A device function starts
/// as if after a store (its callers' accesses are not known here).
pub fn insert_warp_barriers(module: &mut Module) -> usize {
    let Module {
        types, functions, ..
    } = module;
    let mut total = 0;
    let ids: Vec<_> = functions.iter().map(|(id, _)| id).collect();
    for id in ids {
        let func = &mut functions[id];
        let entry = match func.kind {
            FunctionKind::Kernel => None,
            FunctionKind::Device => Some(Last::Store),
            FunctionKind::Launch => continue,
        };
        let before = {
            let mut w = Walk {
                types,
                func,
                before: Vec::new(),
                locals: locals(func),
            };
            w.region(func.body, entry, true);
            w.before
        };
        // Per region, from the last position back, so earlier ones stay valid.
        let mut by_region: BTreeMap<Region, Vec<usize>> = BTreeMap::new();
        for &(region, op) in &before {
            if let Some(at) = func.regions[region].ops.iter().position(|&o| o == op) {
                by_region.entry(region).or_default().push(at);
            }
        }
        for (region, mut ats) in by_region {
            ats.sort_unstable();
            ats.dedup();
            total += ats.len();
            for &at in ats.iter().rev() {
                let op = func.regions[region].ops[at];
                let loc = func.ops[op].loc;
                let mut b = Builder::new(types, func);
                b.set_loc(loc);
                b.set_insertion_at(region, at);
                let i32t = b.types.i32();
                let mask = b.op1(OpKind::ActiveMask, vec![], i32t);
                b.barrier_warp(mask);
            }
        }
    }
    total
}
