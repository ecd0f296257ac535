//! Small rewrites the passes share: counting uses, folding a copy into the
//! instruction that computes its source, and forwarding stream reads.

use super::lir::{walk, Count, Func, Loop, Node, Var, F, FV};
use std::collections::HashMap;

/// How often each FP virtual register is read and written in `body`.
pub fn use_def_counts(body: &[Node]) -> (HashMap<FV, usize>, HashMap<FV, usize>) {
    let mut uses = HashMap::new();
    let mut defs = HashMap::new();
    walk(body, &mut |n| {
        for u in n.f_uses() {
            if let F::V(v) = u {
                *uses.entry(v).or_insert(0) += 1;
            }
        }
        if let Some(F::V(v)) = n.f_def() {
            *defs.entry(v).or_insert(0) += 1;
        }
    });
    (uses, defs)
}

/// Whether `n` (or anything nested in it) reads or writes `r`.
fn contains_reg(n: &Node, r: F) -> bool {
    let mut found = false;
    let one = std::slice::from_ref(n);
    walk(one, &mut |m| {
        found |= m.f_def() == Some(r) || m.f_uses().contains(&r);
    });
    found
}

/// Folds `dst = fmv src` into the instruction that computed `src` when
/// that instruction is earlier in the same body, `src` is written once and
/// read only by the copy, and nothing in between touches `dst`.
pub fn coalesce_moves(f: &mut Func) {
    loop {
        let (uses, defs) = use_def_counts(&f.body);
        if !coalesce_in(&mut f.body, &uses, &defs) {
            break;
        }
    }
}

fn coalesce_in(body: &mut Vec<Node>, uses: &HashMap<FV, usize>, defs: &HashMap<FV, usize>) -> bool {
    for j in 0..body.len() {
        let Node::Arith {
            op: super::lir::FOp::Mov,
            dst,
            srcs,
            ..
        } = &body[j]
        else {
            continue;
        };
        let (dst, F::V(src)) = (*dst, srcs[0]) else {
            continue;
        };
        if uses.get(&src) != Some(&1) || defs.get(&src) != Some(&1) {
            continue;
        }
        let Some(i) = (0..j)
            .rev()
            .find(|&i| matches!(&body[i], Node::Arith { dst: F::V(d), .. } if *d == src))
        else {
            continue;
        };
        if body[i + 1..j].iter().any(|n| contains_reg(n, dst)) {
            continue;
        }
        // Nothing between touches `dst` (for a stream register: no other
        // write of that stream), so writing it earlier keeps every order.
        if let Node::Arith { dst: d, .. } = &mut body[i] {
            *d = dst;
        }
        body.remove(j);
        return true;
    }
    for n in body.iter_mut() {
        let changed = match n {
            Node::Loop(l) => coalesce_in(&mut l.body, uses, defs),
            Node::Streams { body, .. } => coalesce_in(body, uses, defs),
            _ => false,
        };
        if changed {
            return true;
        }
    }
    false
}

/// Replaces `v = fmv ft<k>` by reading `ft<k>` directly in `v`'s only use,
/// when that use follows in the same body and no other read of `ft<k>` (or
/// write of `v`) comes between, so the stream's pops keep their order.
pub fn forward_stream_reads(f: &mut Func) {
    loop {
        let (uses, defs) = use_def_counts(&f.body);
        if !forward_in(&mut f.body, &uses, &defs) {
            break;
        }
    }
}

fn forward_in(body: &mut Vec<Node>, uses: &HashMap<FV, usize>, defs: &HashMap<FV, usize>) -> bool {
    for i in 0..body.len() {
        let Node::Arith {
            op: super::lir::FOp::Mov,
            dst: F::V(v),
            srcs,
            ..
        } = &body[i]
        else {
            continue;
        };
        let (v, F::Ssr(k)) = (*v, srcs[0]) else {
            continue;
        };
        if uses.get(&v) != Some(&1) || defs.get(&v) != Some(&1) {
            continue;
        }
        let Some(j) = (i + 1..body.len()).find(|&j| contains_reg(&body[j], F::V(v))) else {
            continue;
        };
        if !matches!(
            body[j],
            Node::Arith { .. } | Node::Store { .. } | Node::StoreAt { .. }
        ) {
            continue;
        }
        if body[i + 1..j].iter().any(|n| contains_reg(n, F::Ssr(k))) {
            continue;
        }
        // The use must not read ft<k> itself too (two pops in one instruction).
        if body[j].f_uses().contains(&F::Ssr(k)) {
            continue;
        }
        match &mut body[j] {
            Node::Arith { srcs, .. } => {
                for s in srcs.iter_mut() {
                    if *s == F::V(v) {
                        *s = F::Ssr(k);
                    }
                }
            }
            Node::Store { src, .. } | Node::StoreAt { src, .. } => *src = F::Ssr(k),
            _ => {}
        }
        body.remove(i);
        return true;
    }
    for n in body.iter_mut() {
        let changed = match n {
            Node::Loop(l) => forward_in(&mut l.body, uses, defs),
            Node::Streams { body, .. } => forward_in(body, uses, defs),
            _ => false,
        };
        if changed {
            return true;
        }
    }
    false
}

/// Removes loops that run once (their variable is 0), loops that never
/// run and loops with nothing left in them (a thread loop whose only work
/// was an integer store the lowering tracks), so later passes see the
/// real nest.
pub fn simplify_loops(body: &mut Vec<Node>) {
    let mut out = Vec::with_capacity(body.len());
    for mut n in body.drain(..) {
        match &mut n {
            Node::Loop(l) => {
                simplify_loops(&mut l.body);
                match l.count {
                    _ if l.body.is_empty() => {}
                    Count::Static(0) => {}
                    Count::Static(1) => {
                        let id = l.id;
                        let mut inner = std::mem::take(&mut l.body);
                        drop_loop_var(&mut inner, id);
                        out.extend(inner);
                    }
                    _ => out.push(n),
                }
            }
            Node::Streams { body, .. } => {
                simplify_loops(body);
                out.push(n);
            }
            _ => out.push(n),
        }
    }
    *body = out;
}

/// Sets loop `id`'s variable to 0 in every access below.
pub fn drop_loop_var(body: &mut [Node], id: u32) {
    for n in body.iter_mut() {
        match n {
            Node::Load { at, .. } | Node::Store { at, .. } => {
                at.offset.terms.retain(|(v, _)| match v {
                    Var::Loop(m) | Var::LoopParam(m, _) => *m != id,
                    Var::Param(_) => true,
                });
            }
            Node::Loop(Loop { body, .. }) | Node::Streams { body, .. } => drop_loop_var(body, id),
            _ => {}
        }
    }
}

/// Whether every FP register written in `body` is read only there
/// (`uses` counts the reads in the whole function).
pub fn defs_stay_inside(body: &[Node], uses: &HashMap<FV, usize>) -> bool {
    let (inside, defs) = use_def_counts(body);
    defs.keys()
        .all(|v| uses.get(v).copied().unwrap_or(0) == inside.get(v).copied().unwrap_or(0))
}
