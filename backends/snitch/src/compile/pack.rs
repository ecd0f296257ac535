//! f32 packing: an innermost loop over unit-stride f32 data with an even
//! constant count works on pairs, two lanes in each 64-bit register, with
//! the packed-SIMD instructions (`vfadd.s`, `vfmul.s`, `vfmax.s`,
//! `vfmac.s`, which accumulates into its destination, so a multiply-add
//! gets a copy of its addend first): half the iterations, 64-bit loads and
//! stores (which also makes the loop streamable). It applies when every operation has a
//! packed form, every offset other than the loop's own step is a multiple
//! of 8 bytes (buffers are 8-byte aligned) and no value crosses the loop
//! boundary except constants and f32 parameters, which are packed into
//! both lanes once, at the start (a reduction would need its lanes
//! combined).

use super::lir::{walk, Count, FOp, Fmt, Func, Loop, Node, Var, F, FV};
use super::util;
use std::collections::{HashMap, HashSet};

/// Runs the pass; returns whether anything changed.
pub fn run(f: &mut Func) -> bool {
    // Loop-invariant f32 scalars: constants (value known) and parameters.
    let mut consts: HashMap<FV, Option<f64>> = HashMap::new();
    walk(&f.body, &mut |n| match n {
        Node::Const {
            dst,
            fmt: Fmt::S,
            value,
            ..
        } => {
            consts.insert(*dst, Some(*value));
        }
        Node::FParam {
            dst, fmt: Fmt::S, ..
        } => {
            consts.insert(*dst, None);
        }
        _ => {}
    });
    let (uses, _) = util::use_def_counts(&f.body);
    let mut new_consts = Vec::new();
    let mut body = std::mem::take(&mut f.body);
    let changed = pack_in(&mut body, &consts, &uses, f, &mut new_consts);
    // After the constants and parameters they pack.
    let at = body
        .iter()
        .position(|n| !matches!(n, Node::Const { .. } | Node::FParam { .. }))
        .unwrap_or(body.len());
    body.splice(at..at, new_consts);
    f.body = body;
    changed
}

fn pack_in(
    body: &mut [Node],
    consts: &HashMap<FV, Option<f64>>,
    uses: &HashMap<FV, usize>,
    f: &mut Func,
    new_consts: &mut Vec<Node>,
) -> bool {
    let mut changed = false;
    for n in body.iter_mut() {
        let Node::Loop(l) = n else { continue };
        if l.body.iter().any(|m| matches!(m, Node::Loop(_))) {
            changed |= pack_in(&mut l.body, consts, uses, f, new_consts);
        } else if packable(l, consts) && util::defs_stay_inside(&l.body, uses) {
            pack(l, consts, f, new_consts);
            changed = true;
        }
    }
    changed
}

fn packable(l: &Loop, consts: &HashMap<FV, Option<f64>>) -> bool {
    let Count::Static(n) = l.count else {
        return false;
    };
    if n % 2 != 0 || n == 0 {
        return false;
    }
    let mut defined = HashSet::new();
    for m in &l.body {
        let ok = match m {
            Node::Load { fmt, at, .. } | Node::Store { fmt, at, .. } => {
                *fmt == Fmt::S
                    && at.offset.coeff(Var::Loop(l.id)) == 4
                    && at.offset.constant % 8 == 0
                    && at.offset.terms.iter().all(|&(v, c)| {
                        v == Var::Loop(l.id) || (matches!(v, Var::Loop(_)) && c % 8 == 0)
                    })
            }
            Node::Arith { op, fmt, .. } => {
                *fmt == Fmt::S
                    && matches!(op, FOp::Add | FOp::Mul | FOp::Max | FOp::Mov | FOp::Madd)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        for u in m.f_uses() {
            if let F::V(v) = u {
                if !defined.contains(&v) && !consts.contains_key(&v) {
                    return false;
                }
            }
        }
        if let Some(F::V(v)) = m.f_def() {
            defined.insert(v);
        }
    }
    true
}

fn pack(l: &mut Loop, consts: &HashMap<FV, Option<f64>>, f: &mut Func, new_consts: &mut Vec<Node>) {
    let Count::Static(n) = l.count else { return };
    l.count = Count::Static(n / 2);
    let mut packed: HashMap<FV, FV> = HashMap::new();
    for m in &l.body {
        for u in m.f_uses() {
            if let F::V(v) = u {
                if let (Some(&value), false) = (consts.get(&v), packed.contains_key(&v)) {
                    let dst = f.new_f();
                    new_consts.push(match value {
                        Some(value) => Node::Const {
                            dst,
                            fmt: Fmt::VS,
                            value,
                            tmp: None,
                        },
                        None => Node::Arith {
                            op: FOp::Splat,
                            fmt: Fmt::VS,
                            dst: F::V(dst),
                            srcs: vec![F::V(v)],
                        },
                    });
                    packed.insert(v, dst);
                }
            }
        }
    }
    let id = l.id;
    for m in l.body.iter_mut() {
        m.rename_f(&|v| packed.get(&v).copied().unwrap_or(v));
        match m {
            Node::Load { fmt, at, .. } | Node::Store { fmt, at, .. } => {
                *fmt = Fmt::VS;
                for t in at.offset.terms.iter_mut() {
                    if t.0 == Var::Loop(id) {
                        t.1 = 8;
                    }
                }
            }
            Node::Arith { fmt, .. } => *fmt = Fmt::VS,
            _ => {}
        }
    }
    // `vfmac.s` accumulates into its destination: `d = a * b + c` becomes
    // `t = c; t += a * b; d = t` with a fresh `t`.
    let mut out = Vec::with_capacity(l.body.len());
    for m in std::mem::take(&mut l.body) {
        match m {
            Node::Arith {
                op: FOp::Madd,
                fmt,
                dst,
                srcs,
            } if srcs.get(2) != Some(&dst) && srcs.len() == 3 => {
                let t = F::V(f.new_f());
                out.push(Node::Arith {
                    op: FOp::Mov,
                    fmt,
                    dst: t,
                    srcs: vec![srcs[2]],
                });
                out.push(Node::Arith {
                    op: FOp::Madd,
                    fmt,
                    dst: t,
                    srcs: vec![srcs[0], srcs[1], t],
                });
                out.push(Node::Arith {
                    op: FOp::Mov,
                    fmt,
                    dst,
                    srcs: vec![t],
                });
            }
            other => out.push(other),
        }
    }
    l.body = out;
}
