//! Fill fusion: a loop nest that only writes a constant into a buffer,
//! followed by a reduction that first loads each of those elements into
//! its accumulator, becomes the reduction alone with the accumulator
//! starting from the constant. Needs scalar replacement first (the load
//! must sit outside the reduction loop) and `noalias` parameters.

use super::lir::{walk, Access, Count, FOp, Func, Node, Var, F, FV};
use std::collections::HashSet;

/// Runs the pass; returns whether anything changed.
pub fn run(f: &mut Func) -> bool {
    if !f.noalias {
        return false;
    }
    let mut consts = HashSet::new();
    walk(&f.body, &mut |n| {
        if let Node::Const { dst, .. } = n {
            consts.insert(*dst);
        }
    });
    let mut changed = false;
    while fuse_one(&mut f.body, &consts) {
        changed = true;
    }
    changed
}

/// A fill: its loops (id, count) outermost first, the constant register
/// and the address.
type Fill = (Vec<(u32, u32)>, FV, Access);

/// The fill a perfect nest is, if its innermost body is a single store of
/// a constant register.
fn fill_nest(n: &Node, consts: &HashSet<FV>) -> Option<Fill> {
    let mut loops = Vec::new();
    let mut cur = n;
    loop {
        match cur {
            Node::Loop(l) => {
                let Count::Static(c) = l.count else {
                    return None;
                };
                loops.push((l.id, c));
                let [inner] = l.body.as_slice() else {
                    return None;
                };
                cur = inner;
            }
            Node::Store {
                src: F::V(v), at, ..
            } if consts.contains(v) => return Some((loops, *v, at.clone())),
            _ => return None,
        }
    }
}

fn buffer_touched(n: &Node, buf: usize) -> bool {
    let mut t = false;
    walk(std::slice::from_ref(n), &mut |m| {
        t |= m.access().is_some_and(|a| a.buf == buf);
    });
    t
}

fn fuse_one(body: &mut Vec<Node>, consts: &HashSet<FV>) -> bool {
    for i in 0..body.len() {
        let Some((floops, value, fat)) = fill_nest(&body[i], consts) else {
            continue;
        };
        let Some(j) = (i + 1..body.len()).find(|&j| buffer_touched(&body[j], fat.buf)) else {
            continue;
        };
        if !injective(&floops, &fat) {
            continue;
        }
        let mut target = body[j].clone();
        if rewrite_init(&mut target, &mut Vec::new(), &floops, &fat, value) {
            body[j] = target;
            body.remove(i);
            return true;
        }
    }
    for n in body.iter_mut() {
        if let Node::Loop(l) = n {
            if fuse_one(&mut l.body, consts) {
                return true;
            }
        }
    }
    false
}

/// Finds in `n` the only load of the fill's buffer, checks that it runs
/// over the same iterations and addresses as the fill and that the buffer
/// is otherwise only stored (after the load) and replaces the load by a
/// copy of the constant.
fn rewrite_init(
    n: &mut Node,
    chain: &mut Vec<(u32, u32)>,
    floops: &[(u32, u32)],
    fat: &Access,
    value: FV,
) -> bool {
    let Node::Loop(l) = n else { return false };
    let Count::Static(c) = l.count else {
        return false;
    };
    chain.push((l.id, c));
    let loads: Vec<usize> = (0..l.body.len())
        .filter(|&k| matches!(&l.body[k], Node::Load { at, .. } if at.buf == fat.buf))
        .collect();
    let result = match loads.as_slice() {
        [k] => {
            let k = *k;
            let Node::Load { dst, fmt, at } = &l.body[k] else {
                return false;
            };
            let counts_match =
                chain.len() == floops.len() && chain.iter().zip(floops).all(|(a, b)| a.1 == b.1);
            let mapped = counts_match && {
                let mut ok = at.offset.constant == fat.offset.constant
                    && at.offset.terms.len() == fat.offset.terms.len();
                for ((rid, _), (fid, _)) in chain.iter().zip(floops) {
                    ok &= at.offset.coeff(Var::Loop(*rid)) == fat.offset.coeff(Var::Loop(*fid));
                }
                ok && at
                    .offset
                    .terms
                    .iter()
                    .all(|(v, _)| matches!(v, Var::Loop(_)))
            };
            // Nothing else in the nest may read the buffer, and nothing may
            // write it before the load.
            let others_ok = l.body.iter().enumerate().all(|(m, node)| {
                if m == k {
                    return true;
                }
                let mut bad = false;
                walk(std::slice::from_ref(node), &mut |x| match x {
                    Node::Load { at, .. } if at.buf == fat.buf => bad = true,
                    Node::Store { at, .. } if at.buf == fat.buf && m < k => bad = true,
                    _ => {}
                });
                !bad
            });
            if mapped && others_ok && at.buf == fat.buf {
                let (dst, fmt) = (*dst, *fmt);
                l.body[k] = Node::Arith {
                    op: FOp::Mov,
                    fmt,
                    dst: F::V(dst),
                    srcs: vec![F::V(value)],
                };
                true
            } else {
                false
            }
        }
        [] => {
            // The load is deeper: the nest above it must only hold that one
            // inner loop touching the buffer.
            let inner: Vec<usize> = (0..l.body.len())
                .filter(|&k| buffer_touched(&l.body[k], fat.buf))
                .collect();
            match inner.as_slice() {
                [k] => rewrite_init(&mut l.body[*k], chain, floops, fat, value),
                _ => false,
            }
        }
        _ => false,
    };
    chain.pop();
    result
}

/// Whether the fill writes each element once (checked by enumeration for
/// nests of up to 2^16 iterations; larger fills are left alone).
fn injective(loops: &[(u32, u32)], at: &Access) -> bool {
    let total: u64 = loops.iter().map(|&(_, c)| u64::from(c)).product();
    if total > 1 << 16
        || at
            .offset
            .terms
            .iter()
            .any(|(v, _)| !matches!(v, Var::Loop(_)))
    {
        return false;
    }
    let mut seen = std::collections::HashSet::new();
    let mut idx = vec![0u32; loops.len()];
    for _ in 0..total {
        let off: i64 = loops
            .iter()
            .zip(&idx)
            .map(|((id, _), &i)| at.offset.coeff(Var::Loop(*id)) * i64::from(i))
            .sum();
        if !seen.insert(off) {
            return false;
        }
        for (d, slot) in idx.iter_mut().enumerate().rev() {
            *slot += 1;
            if *slot < loops[d].1 {
                break;
            }
            *slot = 0;
        }
    }
    true
}
