//! Unroll-and-jam: the loop around a reduction is unrolled by a factor u
//! and the u copies of the reduction loop are fused into one, so u
//! independent accumulator chains interleave and cover the FPU's latency
//! (a dependent `fmadd.d` waits four cycles; the thesis asks for at least
//! four chains). The factor is the largest divisor of the outer count that
//! is at most `max` and keeps the jammed body within an FREP block.

use super::lir::{walk, Count, Func, Loop, Node, F, FV};
use super::util;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Runs the pass with factors up to `max`; returns whether anything changed.
pub fn run(f: &mut Func, max: u32) -> bool {
    let (uses, _) = util::use_def_counts(&f.body);
    let mut body = std::mem::take(&mut f.body);
    let changed = jam_in(&mut body, f, max, &uses);
    f.body = body;
    if changed {
        util::simplify_loops(&mut f.body);
    }
    changed
}

fn jam_in(body: &mut [Node], f: &mut Func, max: u32, uses: &HashMap<FV, usize>) -> bool {
    let mut changed = false;
    for n in body.iter_mut() {
        let Node::Loop(p) = n else { continue };
        // The copies rename what the body defines: nothing after the loop
        // may read it.
        let jammed = if util::defs_stay_inside(&p.body, uses) {
            try_jam(p, f, max)
        } else {
            None
        };
        if let Some(new) = jammed {
            *p = new;
            changed = true;
        } else {
            changed |= jam_in(&mut p.body, f, max, uses);
        }
    }
    changed
}

fn fp_defs(nodes: &[Node]) -> BTreeSet<FV> {
    let mut s = BTreeSet::new();
    walk(nodes, &mut |n| {
        if let Some(F::V(v)) = n.f_def() {
            s.insert(v);
        }
    });
    s
}

fn try_jam(p: &Loop, f: &mut Func, max: u32) -> Option<Loop> {
    let Count::Static(n) = p.count else {
        return None;
    };
    let loops: Vec<usize> = (0..p.body.len())
        .filter(|&k| matches!(p.body[k], Node::Loop(_)))
        .collect();
    let [li] = loops.as_slice() else { return None };
    let Node::Loop(inner) = &p.body[*li] else {
        return None;
    };
    if inner
        .body
        .iter()
        .any(|m| matches!(m, Node::Loop(_) | Node::Streams { .. }))
    {
        return None;
    }
    // A reduction: something defined before the inner loop is updated in it.
    let pre_defs = fp_defs(&p.body[..*li]);
    let inner_defs = fp_defs(&inner.body);
    if pre_defs.is_disjoint(&inner_defs) {
        return None;
    }
    // Jamming reorders the copies' inner iterations: no copy may store
    // what another loads in the inner loop.
    let mut loaded = HashSet::new();
    let mut stored = HashSet::new();
    walk(&inner.body, &mut |m| match m {
        Node::Load { at, .. } => {
            loaded.insert(at.buf);
        }
        Node::Store { at, .. } => {
            stored.insert(at.buf);
        }
        _ => {}
    });
    if !loaded.is_disjoint(&stored) {
        return None;
    }
    let arith = inner
        .body
        .iter()
        .filter(|m| matches!(m, Node::Arith { .. }))
        .count()
        .max(1) as u32;
    let u = (2..=max.min(n))
        .rev()
        .find(|&u| n % u == 0 && u * arith <= 16)?;
    let defs = fp_defs(&p.body);
    let new_id = f.new_loop();
    let mut copies: Vec<Vec<Node>> = Vec::new();
    for r in 0..u {
        let map: HashMap<FV, FV> = defs.iter().map(|&v| (v, f.new_f())).collect();
        let mut copy = p.body.clone();
        for m in copy.iter_mut() {
            m.rename_f(&|v| map.get(&v).copied().unwrap_or(v));
            substitute(m, p.id, new_id, i64::from(u), i64::from(r))?;
        }
        copies.push(copy);
    }
    let mut body = Vec::new();
    for c in &copies {
        body.extend(c[..*li].iter().cloned());
    }
    let mut jammed = Vec::new();
    for c in &copies {
        if let Node::Loop(l) = &c[*li] {
            jammed.extend(l.body.iter().cloned());
        }
    }
    body.push(Node::Loop(Loop {
        id: inner.id,
        count: inner.count,
        body: jammed,
        frep: false,
        ctl: None,
    }));
    for c in &copies {
        body.extend(c[*li + 1..].iter().cloned());
    }
    Some(Loop {
        id: new_id,
        count: Count::Static(n / u),
        body,
        frep: false,
        ctl: None,
    })
}

fn substitute(n: &mut Node, old: u32, new: u32, factor: i64, offset: i64) -> Option<()> {
    match n {
        Node::Load { at, .. } | Node::Store { at, .. } => {
            at.offset = at.offset.substitute_loop(old, new, factor, offset)?;
        }
        Node::Loop(l) => {
            for m in l.body.iter_mut() {
                substitute(m, old, new, factor, offset)?;
            }
        }
        _ => {}
    }
    Some(())
}
