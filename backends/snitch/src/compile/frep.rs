//! FREP: a loop whose body is only FP arithmetic (its operands streams or
//! registers, so no integer work is left in it) and at most 16
//! instructions, the sequencer's capacity, becomes `frep.o`: the FP
//! subsystem repeats the body while the integer core runs on.

use super::lir::{FOp, Fmt, Func, Node};

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

/// Instructions the body becomes: one per node, two for a packed
/// multiply-add whose accumulator must be copied first.
pub fn emitted_len(body: &[Node]) -> usize {
    body.iter()
        .map(|m| match m {
            Node::Arith {
                op: FOp::Madd,
                fmt: Fmt::VS,
                dst,
                srcs,
            } if srcs.get(2) != Some(dst) => 2,
            _ => 1,
        })
        .sum()
}
