//! FREP: a loop whose body is only FP arithmetic (its operands streams or
//! registers, so no integer work is left in it) and at most 16
//! instructions, the sequencer's capacity, becomes `frep.o`: the FP
//! subsystem repeats the body while the integer core runs on.

use super::lir::{Count, Func, Loop, Node};

/// The sequencer holds this many instructions.
pub const MAX_BODY: usize = 16;

/// Runs the pass; returns whether anything changed.
pub fn run(f: &mut Func) -> bool {
    mark(&mut f.body)
}

fn mark(body: &mut [Node]) -> bool {
    let mut changed = false;
    for n in body.iter_mut() {
        match n {
            Node::Loop(l) => {
                collapse(l);
                let fp_only =
                    !l.body.is_empty() && l.body.iter().all(|m| matches!(m, Node::Arith { .. }));
                if fp_only && emitted_len(&l.body) <= MAX_BODY {
                    l.frep = true;
                    changed = true;
                } else {
                    changed |= mark(&mut l.body);
                }
            }
            Node::Streams { body, .. } => changed |= mark(body),
            _ => {}
        }
    }
    changed
}

/// Instructions the body becomes: at most one per node.
pub fn emitted_len(body: &[Node]) -> usize {
    body.len()
}
/// Folds a loop whose whole body is one loop of FP-only instructions into
/// it (counts multiplied): no instruction depends on either counter, so
/// the pair is one FREP instead of an integer loop around one.
fn collapse(l: &mut Loop) {
    loop {
        let [Node::Loop(inner)] = l.body.as_mut_slice() else {
            return;
        };
        collapse(inner);
        let fp_only =
            !inner.body.is_empty() && inner.body.iter().all(|m| matches!(m, Node::Arith { .. }));
        let (Count::Static(a), Count::Static(b)) = (l.count, inner.count) else {
            return;
        };
        let Some(n) = a.checked_mul(b) else { return };
        if !fp_only {
            return;
        }
        let body = std::mem::take(&mut inner.body);
        l.count = Count::Static(n);
        l.body = body;
    }
}
