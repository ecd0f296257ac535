//! Scalar replacement of reduction accumulators.
//!
//! In an innermost loop that loads and stores the same element (one that
//! does not move with the loop), the load moves before the loop, the store
//! after it, and the value lives in a register in between: `C[i][j] +=
//! A[i][k] * B[k][j]` over k then costs one load and one store per (i, j)
//! instead of per (i, j, k). Pointer parameters must be `noalias`, so no
//! other access in the loop can reach the element.

use super::lir::{FOp, Func, Loop, Node, F};
use super::util;

/// Runs the pass; returns whether anything changed.
pub fn run(f: &mut Func) -> bool {
    if !f.noalias {
        return false;
    }
    let changed = replace_in(&mut f.body);
    if changed {
        util::coalesce_moves(f);
    }
    changed
}

fn replace_in(body: &mut Vec<Node>) -> bool {
    let mut changed = false;
    let mut i = 0;
    while i < body.len() {
        let mut before = Vec::new();
        let mut after = Vec::new();
        match &mut body[i] {
            Node::Loop(l) if l.body.iter().any(|n| matches!(n, Node::Loop(_))) => {
                changed |= replace_in(&mut l.body);
            }
            Node::Loop(l) => {
                while let Some((load, store)) = hoist_one(l) {
                    before.push(load);
                    after.push(store);
                }
            }
            _ => {}
        }
        let n = before.len();
        if n > 0 {
            changed = true;
            let after_at = i + 1;
            for (k, s) in after.into_iter().enumerate() {
                body.insert(after_at + k, s);
            }
            for (k, l) in before.into_iter().enumerate() {
                body.insert(i + k, l);
            }
            i += n;
        }
        i += 1;
    }
    changed
}

/// Finds one load/store pair to hoist out of innermost loop `l`, rewrites
/// the loop and returns the load to put before it and the store after it.
fn hoist_one(l: &mut Loop) -> Option<(Node, Node)> {
    for (li, n) in l.body.iter().enumerate() {
        let Node::Load { dst, fmt, at } = n else {
            continue;
        };
        if at.offset.uses_loop(l.id) {
            continue;
        }
        let same_buf: Vec<usize> = (0..l.body.len())
            .filter(|&k| l.body[k].access().is_some_and(|a| a.buf == at.buf))
            .collect();
        let [a, s] = same_buf.as_slice() else {
            continue;
        };
        if *a != li {
            continue;
        }
        let Node::Store {
            src,
            fmt: sfmt,
            at: sat,
        } = &l.body[*s]
        else {
            continue;
        };
        if sat != at || sfmt != fmt {
            continue;
        }
        // The loaded value must not be read after the store in an iteration.
        if l.body[*s + 1..]
            .iter()
            .any(|m| m.f_uses().contains(&F::V(*dst)))
        {
            continue;
        }
        let (acc, fmt, at, src, s) = (*dst, *fmt, at.clone(), *src, *s);
        l.body[s] = Node::Arith {
            op: FOp::Mov,
            fmt,
            dst: F::V(acc),
            srcs: vec![src],
        };
        let load = l.body.remove(li);
        let store = Node::Store {
            src: F::V(acc),
            fmt,
            at,
        };
        return Some((load, store));
    }
    None
}
