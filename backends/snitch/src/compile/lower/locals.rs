//! Local memory: `alloca`s (a block's `__shared__` arrays, cpuify's
//! private arrays that carry per-thread values across barriers) and the
//! block's dynamic shared memory become buffers at fixed TCDM addresses
//! just below [`super::super::Options::local_top`]. A core runs its blocks
//! and their threads one after another, so one instance of each serves
//! every block and thread of the core; distinct locals never overlap, so
//! they are disjoint from each other and from the parameter buffers.

use super::super::lir::{walk, Access, Affine, Count, Local, Node, Var, LOCAL};
use super::super::Diagnostic;
use super::Lowerer;
use cucc_ir::{Loc, Op, OpKind, Space, Value};
use std::collections::HashMap;

impl Lowerer<'_> {
    /// The access at the start of the local `op` allocates (an `alloca`
    /// or `shared.dynamic`), making the local on first use.
    pub(super) fn local_access(&mut self, op: Op, loc: Loc) -> Result<Access, Diagnostic> {
        let data = &self.func.ops[op];
        let (key, what, bytes, private) = match &data.kind {
            OpKind::Alloca { space, ty } => {
                let name = data
                    .results
                    .first()
                    .and_then(|&r| self.func.values[r].name.clone())
                    .unwrap_or_else(|| "array".to_string());
                let space = match space {
                    Space::Shared => "shared",
                    _ => "private",
                };
                (
                    Some(op),
                    format!("{space} {name}"),
                    self.module.types.size_of(*ty),
                    space == "private",
                )
            }
            _ => (
                None,
                "dynamic shared".to_string(),
                u64::from(self.dynamic_shared),
                false,
            ),
        };
        let k = match self.local_of.get(&key) {
            Some(&k) => k,
            None => {
                let bytes = u32::try_from(bytes)
                    .ok()
                    .filter(|&b| b <= 1 << 30)
                    .ok_or_else(|| {
                        self.err(loc, &what, format!("{bytes} bytes of local memory"))
                    })?;
                self.out.locals.push(Local {
                    what,
                    bytes,
                    addr: 0,
                });
                self.local_private.push(private);
                let k = self.out.locals.len() - 1;
                self.local_of.insert(key, k);
                k
            }
        };
        Ok(Access {
            buf: LOCAL + k,
            offset: Affine::default(),
        })
    }

    /// An integer store into local memory at a constant offset of a value
    /// that no loop changes (every thread of cpuify's thread loop stores
    /// the same trip count, say): remembered instead of stored, so loads
    /// after it read the value. Storing another value there later is
    /// rejected: the loads could not tell which one they read. Returns
    /// whether the store was taken.
    pub(super) fn uniform_int_store(
        &mut self,
        p: Value,
        v: Value,
        loc: Loc,
    ) -> Result<bool, Diagnostic> {
        let Some(slot) = self.local_slot(p, loc) else {
            return Ok(false);
        };
        let Ok(value) = self.affine(v, loc) else {
            return Ok(false);
        };
        if value
            .terms
            .iter()
            .any(|(v, _)| matches!(v, Var::Loop(_) | Var::LoopParam(..)))
        {
            return Ok(false);
        }
        match self.int_memory.get(&slot) {
            Some(old) if *old != value => Err(self.err(
                loc,
                "integer store",
                "local memory holding an integer is stored with another value; only one value per location is tracked",
            )),
            _ => {
                self.int_memory.insert(slot, value);
                Ok(true)
            }
        }
    }

    /// What an integer load from local memory reads, when a store
    /// [`Lowerer::uniform_int_store`] took wrote it.
    pub(super) fn uniform_int_load(&mut self, p: Value, loc: Loc) -> Option<Affine> {
        let slot = self.local_slot(p, loc)?;
        self.int_memory.get(&slot).cloned()
    }

    /// The local and constant offset `p` points at, if it does.
    fn local_slot(&mut self, p: Value, loc: Loc) -> Option<(usize, i64)> {
        let at = self.pointer(p, loc).ok()?;
        let k = at.buf.checked_sub(LOCAL)?;
        Some((k, at.offset.as_constant()?))
    }

    /// Sizes the locals and gives each its address below the local top.
    /// A private array is cut to the bytes its accesses reach when every
    /// access is bounded by constant loop counts (cpuify sizes the arrays
    /// that carry per-thread values for the largest block, 1024 threads;
    /// the launch's block is usually far smaller); shared memory keeps its
    /// declared size.
    pub(super) fn lay_out_locals(&mut self) -> Result<(), Diagnostic> {
        if self.out.locals.is_empty() {
            return Ok(());
        }
        let reach = reach(&self.out.body);
        for (k, l) in self.out.locals.iter_mut().enumerate() {
            if self.local_private[k] {
                if let Some(&Some(end)) = reach.get(&k) {
                    l.bytes = l.bytes.min(u32::try_from(end).unwrap_or(u32::MAX));
                }
            }
            l.bytes = l.bytes.next_multiple_of(8);
        }
        let total: u64 = self.out.locals.iter().map(|l| u64::from(l.bytes)).sum();
        let top = u64::from(self.local_top.unwrap_or(0)) & !7;
        let Some(mut at) = top.checked_sub(total) else {
            return Err(self.err(
                self.func.loc,
                "local memory",
                format!("{total} bytes of shared and private arrays do not fit below TCDM address {top:#x}"),
            ));
        };
        for l in &mut self.out.locals {
            l.addr = at as u32;
            at += u64::from(l.bytes);
        }
        Ok(())
    }
}

/// For each local, the end of the bytes its accesses reach (`None` when
/// some access is not bounded by constant loop counts, or reaches below
/// the local's start).
fn reach(body: &[Node]) -> HashMap<usize, Option<i64>> {
    let mut counts: HashMap<u32, u32> = HashMap::new();
    walk(body, &mut |n| {
        if let Node::Loop(l) = n {
            if let Count::Static(c) = l.count {
                counts.insert(l.id, c);
            }
        }
    });
    let mut out: HashMap<usize, Option<i64>> = HashMap::new();
    walk(body, &mut |n| {
        let (at, bytes) = match n {
            Node::Load { at, fmt, .. } | Node::Store { at, fmt, .. } => (at, fmt.bytes()),
            _ => return,
        };
        let Some(k) = at.buf.checked_sub(LOCAL) else {
            return;
        };
        let end = bounds(&at.offset, &counts)
            .filter(|&(lo, _)| lo >= 0)
            .map(|(_, hi)| hi + i64::from(bytes));
        let slot = out.entry(k).or_insert(Some(0));
        *slot = match (*slot, end) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
    });
    out
}

/// The least and greatest values of `a` over loops of constant count.
pub(super) fn bounds(a: &Affine, counts: &HashMap<u32, u32>) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (a.constant, a.constant);
    for &(v, c) in &a.terms {
        let Var::Loop(l) = v else { return None };
        let n = i64::from(*counts.get(&l)?);
        let span = c.checked_mul(n.checked_sub(1)?)?;
        if span < 0 {
            lo = lo.checked_add(span)?;
        } else {
            hi = hi.checked_add(span)?;
        }
    }
    Some((lo, hi))
}
