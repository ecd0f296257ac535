//! Call summaries: the memory effects of each module function as seen by
//! its callers.
//!
//! A summary is the function body's effects less everything on its own
//! allocas (that storage dies with the call). Effects on a parameter's
//! object are kept as [`Base::Param`]; at a call site they move to the base
//! of the corresponding argument, and offsets that mention the callee's
//! integer parameters are rewritten with the caller's arguments, so
//! `set(p, i) { p[i] = ...; }` called as `set(a, threadIdx.x)` writes
//! `a + 4·tx`. Thread and block symbols mean the same thread in caller and
//! callee and stay as they are.
//!
//! Summaries are computed once per module, callees first (the strongly
//! connected components of the call graph in reverse topological order).
//! Functions in a recursive component are iterated to a fixpoint with
//! offsets and sizes dropped, which makes the set of possible facts finite.

use super::{unknown, EffectKind, FunctionEffects, MemEffect};
use crate::affine::{Affine, Sym};
use crate::effects::Base;
use crate::func::{Function, Op, Value};
use crate::module::{FuncId, Module};
use crate::ops::{Callee, OpKind};
use crate::types::Space;

/// Rounds allowed for a recursive component before giving up (the lattice is
/// finite, so this only guards against a bug).
const MAX_ROUNDS: usize = 1000;

/// The summarised effects of every function of a module, indexed by [`FuncId`].
#[derive(Clone, Debug, Default)]
pub struct CallSummaries {
    funcs: Vec<Option<Vec<MemEffect>>>,
}

impl CallSummaries {
    /// No summaries: every call of a module function reads and writes
    /// unknown memory.
    pub fn none() -> Self {
        Self::default()
    }

    /// Summaries of every function of `module` (verified IR).
    pub fn compute(module: &Module) -> Self {
        let n = module.functions.len();
        let graph: Vec<Vec<usize>> = module
            .functions
            .iter()
            .map(|(_, f)| callees(module, f))
            .collect();
        let mut sums = CallSummaries {
            funcs: vec![None; n],
        };
        for scc in components(&graph) {
            let recursive = scc.len() > 1 || scc.iter().any(|&i| graph[i].contains(&i));
            if !recursive {
                let f = &module.functions[FuncId::new(scc[0])];
                sums.funcs[scc[0]] = Some(summarise(module, f, &sums, false));
                continue;
            }
            for &i in &scc {
                sums.funcs[i] = Some(Vec::new());
            }
            let mut converged = false;
            for _ in 0..MAX_ROUNDS {
                let mut changed = false;
                for &i in &scc {
                    let f = &module.functions[FuncId::new(i)];
                    let new = summarise(module, f, &sums, true);
                    let cur = sums.funcs[i].get_or_insert_with(Vec::new);
                    for e in new {
                        if !cur.iter().any(|c| c.same_fact(&e)) {
                            cur.push(e);
                            changed = true;
                        }
                    }
                }
                if !changed {
                    converged = true;
                    break;
                }
            }
            if !converged {
                for &i in &scc {
                    sums.funcs[i] = None;
                }
            }
        }
        sums
    }

    /// The summary of `func`; `None` if unknown (calls are then treated as
    /// reading and writing unknown memory).
    pub fn get(&self, func: FuncId) -> Option<&[MemEffect]> {
        self.funcs.get(func.index())?.as_deref()
    }
}

/// Indices of the module functions `f` calls.
fn callees(module: &Module, f: &Function) -> Vec<usize> {
    let mut out: Vec<usize> = f
        .walk()
        .into_iter()
        .filter_map(|(_, op)| match &f.ops[op].kind {
            OpKind::Call(Callee::Func(id)) if module.functions.contains(*id) => Some(id.index()),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `f`'s effects as its callers see them.
fn summarise(module: &Module, f: &Function, sums: &CallSummaries, coarse: bool) -> Vec<MemEffect> {
    let fx = FunctionEffects::new(module, f, sums);
    let params = f.param_values();
    let mut out: Vec<MemEffect> = Vec::new();
    for mut e in fx.region_effects(f.body) {
        if matches!(e.base, Base::Alloca(_)) {
            continue;
        }
        let only_params = e.offset.as_ref().is_some_and(|o| {
            o.terms.keys().all(|s| match s {
                Sym::Value(v) => params.contains(v),
                // The callee's values would need multiplying out.
                Sym::Product(..) => false,
                _ => true,
            })
        });
        if coarse || !only_params {
            e.offset = None;
        }
        if coarse {
            e.size = None;
        }
        if !out.iter().any(|c| c.same_fact(&e)) {
            out.push(e);
        }
    }
    out
}

/// Strongly connected components of `graph`, each after every component it
/// reaches (Tarjan's algorithm, iterative).
fn components(graph: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = graph.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        let mut frames: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut edge)) = frames.last_mut() {
            if let Some(&w) = graph[v].get(*edge) {
                *edge += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(u, _)) = frames.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}

impl FunctionEffects<'_> {
    /// Appends the effects of `call`, a call of `callee` with `args`.
    pub(super) fn instantiate_call(
        &self,
        call: Op,
        callee: FuncId,
        args: &[Value],
        out: &mut Vec<MemEffect>,
    ) {
        let module = self.module();
        let (Some(summary), Some(cf)) =
            (self.summaries.get(callee), module.functions.try_get(callee))
        else {
            out.push(unknown(EffectKind::Read, call));
            out.push(unknown(EffectKind::Write, call));
            return;
        };
        let cparams = cf.param_values();
        for e in summary {
            let offset = e
                .offset
                .as_ref()
                .and_then(|o| self.substitute(o, cparams, args));
            let mut inst = MemEffect {
                op: call,
                offset,
                ..e.clone()
            };
            if let Base::Param(i) = e.base {
                match args.get(i as usize) {
                    Some(&arg) => {
                        let p = self.affine.pointer(arg);
                        inst.offset = (|| p.offset.as_ref()?.checked_add(inst.offset.as_ref()?))();
                        if inst.space == Space::Generic {
                            let declared = self.affine.declared_space(arg);
                            inst.space = super::refine_space(module, declared, p.base);
                        }
                        inst.base = p.base;
                    }
                    None => {
                        inst.base = Base::Unknown;
                        inst.offset = None;
                    }
                }
            }
            out.push(inst);
        }
    }

    /// Rewrites the callee parameters in `o` with the caller's arguments.
    fn substitute(&self, o: &Affine, cparams: &[Value], args: &[Value]) -> Option<Affine> {
        let mut out = Affine::constant(o.constant);
        for (&s, &c) in &o.terms {
            let term = match s {
                Sym::Value(v) => {
                    let i = cparams.iter().position(|&p| p == v)?;
                    self.affine.affine_of(*args.get(i)?)?.checked_scale(c)?
                }
                Sym::Product(..) => return None,
                other => Affine::term(other, c),
            };
            out = out.checked_add(&term)?;
        }
        Some(out)
    }
}
