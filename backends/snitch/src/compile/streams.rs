//! Streams: the loads or stores of one buffer in a loop nest become an SSR
//! data mover's job, and the accesses become reads or writes of its
//! register (`ft0`–`ft2`).
//!
//! A buffer is streamed when, in the nest, it is only read or only
//! written, all its accesses sit in one loop body (in order, at offsets in
//! arithmetic progression: the copies unroll-and-jam makes) under loops of
//! constant count, and its offsets move by constant strides with those
//! loops. The pattern's dimensions are the copies (if several) and the
//! enclosing loops, innermost first; dimensions of one iteration are
//! dropped, perfectly nested contiguous ones merged (stride_outer =
//! stride_inner · count_inner), and an innermost stride of 0 on a read
//! becomes the mover's repeat count. f32 scalars are not streamed (movers
//! transfer 64 bits; packing makes f32 loops streamable). Pointer
//! parameters must be `noalias`, because read streams run ahead of the
//! writes around them.
//!
//! The region goes around the outermost loop that has streamable buffers,
//! unless streaming its inner nests apart (each a region of its own) moves
//! more elements: a buffer written by one inner nest and read by the next
//! (a tile staged in shared memory between barriers) streams only there.

use super::lir::{walk, Access, Count, FOp, Fmt, Func, Loop, Node, StreamCfg, Var, F};
use super::util;

/// Data movers.
pub const MOVERS: usize = 3;

/// Runs the pass; returns whether anything changed.
pub fn run(f: &mut Func) -> bool {
    if !f.noalias {
        return false;
    }
    let changed = streamify(&mut f.body);
    if changed {
        util::forward_stream_reads(f);
        util::coalesce_moves(f);
        let mut copies = false;
        walk(&f.body, &mut |n| {
            copies |= matches!(n, Node::Arith { op: FOp::Mov, srcs, .. } if matches!(srcs[..], [F::Ssr(_)]));
        });
        if copies && f.zero.is_none() {
            let z = f.new_f();
            f.body.insert(
                0,
                Node::Const {
                    dst: z,
                    fmt: Fmt::D,
                    value: 0.0,
                    tmp: None,
                },
            );
            f.zero = Some(z);
        }
    }
    changed
}

fn streamify(body: &mut Vec<Node>) -> bool {
    let mut changed = false;
    for n in body.iter_mut() {
        let Node::Loop(l) = n else { continue };
        let plan = plan(l);
        if plan.is_empty() {
            changed |= streamify(&mut l.body);
            continue;
        }
        // A buffer read in one inner nest and written in another (a tile
        // staged in shared memory, then used) cannot stream at this
        // level; streaming the inner nests apart, each in a region of its
        // own, may move more elements than this level's region.
        let mut apart = l.body.clone();
        if streamify(&mut apart) {
            let here: u64 = plan.iter().map(|(_, c)| elements(c)).sum();
            let count = match l.count {
                Count::Static(c) => u64::from(c),
                Count::Param(_) => 1,
            };
            if streamed(&apart).saturating_mul(count) > here {
                l.body = apart;
                changed = true;
                continue;
            }
        }
        let mut cfgs = Vec::new();
        for (k, (buf, cfg)) in plan.into_iter().enumerate() {
            let mover = k as u8;
            rewrite(&mut l.body, buf, mover);
            cfgs.push(StreamCfg { mover, ..cfg });
        }
        let inner = std::mem::replace(
            l,
            Loop {
                id: l.id,
                count: l.count,
                body: Vec::new(),
                frep: false,
                ctl: None,
            },
        );
        *n = Node::Streams {
            cfgs,
            body: vec![Node::Loop(inner)],
        };
        changed = true;
    }
    changed | extend(body)
}

/// Elements a data mover's job delivers (a count that is an argument
/// counts once).
fn elements(c: &StreamCfg) -> u64 {
    c.dims
        .iter()
        .map(|&(n, _)| u64::from(n.max(1)))
        .product::<u64>()
        .saturating_mul(u64::from(c.repeat.max(1)))
}

/// Elements the stream regions in `body` deliver per execution of it.
fn streamed(body: &[Node]) -> u64 {
    let mut total = 0u64;
    for n in body {
        match n {
            Node::Streams { cfgs, .. } => total += cfgs.iter().map(elements).sum::<u64>(),
            Node::Loop(l) => {
                let count = match l.count {
                    Count::Static(c) => u64::from(c),
                    Count::Param(_) => 1,
                };
                total = total.saturating_add(streamed(&l.body).saturating_mul(count));
            }
            Node::IfPositive { body, .. } => total += streamed(body),
            _ => {}
        }
    }
    total
}

/// Widens a region over accesses that sit directly in the same body (the
/// stores after a reduction whose enclosing loop unroll-and-jam removed)
/// when a mover is free and nothing else in between streams.
fn extend(body: &mut Vec<Node>) -> bool {
    let regions: Vec<usize> = (0..body.len())
        .filter(|&i| matches!(body[i], Node::Streams { .. }))
        .collect();
    let [r] = regions.as_slice() else {
        return false;
    };
    let r = *r;
    let mut sites = Vec::new();
    let mut bufs = Vec::new();
    for n in body.iter() {
        if let Some(at) = n.access() {
            if !bufs.contains(&at.buf) {
                bufs.push(at.buf);
            }
        }
    }
    collect(body, &mut Vec::new(), &mut sites);
    let Node::Streams { cfgs, .. } = &body[r] else {
        return false;
    };
    // A region whose length is an argument is skipped when it is zero;
    // the accesses around it must still run.
    if cfgs.iter().any(|c| c.param_count.is_some()) {
        return false;
    }
    let mut used = cfgs.len();
    let mut add = Vec::new();
    for buf in bufs {
        if used == MOVERS {
            break;
        }
        // Every access of the buffer in this body must be a direct one.
        let mine: Vec<&Site> = sites.iter().filter(|s| s.at.buf == buf).collect();
        if mine.iter().any(|s| !s.chain.is_empty()) {
            continue;
        }
        if let Some(cfg) = pattern(&mine) {
            add.push((
                buf,
                StreamCfg {
                    mover: used as u8,
                    ..cfg
                },
            ));
            used += 1;
        }
    }
    if add.is_empty() {
        return false;
    }
    let touched: Vec<usize> = (0..body.len())
        .filter(|&i| {
            i == r
                || body[i]
                    .access()
                    .is_some_and(|a| add.iter().any(|(b, _)| *b == a.buf))
        })
        .collect();
    let (lo, hi) = (touched[0], touched[touched.len() - 1]);
    let mut span: Vec<Node> = body.drain(lo..=hi).collect();
    for (buf, cfg) in &add {
        rewrite(&mut span, *buf, cfg.mover);
    }
    let mut inner = Vec::new();
    let mut all_cfgs = Vec::new();
    for n in span {
        match n {
            Node::Streams { cfgs, body } => {
                all_cfgs.extend(cfgs);
                inner.extend(body);
            }
            other => inner.push(other),
        }
    }
    all_cfgs.extend(add.into_iter().map(|(_, c)| c));
    body.insert(
        lo,
        Node::Streams {
            cfgs: all_cfgs,
            body: inner,
        },
    );
    true
}

/// One access: its loop chain from the region's root, its position in
/// its body, direction, format and address.
struct Site {
    chain: Vec<(u32, Count)>,
    read: bool,
    fmt: Fmt,
    at: Access,
}

fn collect(body: &[Node], chain: &mut Vec<(u32, Count)>, out: &mut Vec<Site>) {
    for n in body {
        match n {
            Node::Loop(l) => {
                chain.push((l.id, l.count));
                collect(&l.body, chain, out);
                chain.pop();
            }
            Node::Load { fmt, at, .. } | Node::Store { fmt, at, .. } => out.push(Site {
                chain: chain.clone(),
                read: matches!(n, Node::Load { .. }),
                fmt: *fmt,
                at: at.clone(),
            }),
            _ => {}
        }
    }
}

/// The buffers of the nest rooted at `root` that can be streamed, with
/// their patterns (mover not yet assigned), in order of first access.
fn plan(root: &Loop) -> Vec<(usize, StreamCfg)> {
    let mut sites = Vec::new();
    collect(
        std::slice::from_ref(&Node::Loop(root.clone())),
        &mut Vec::new(),
        &mut sites,
    );
    let mut bufs: Vec<usize> = Vec::new();
    for s in &sites {
        if !bufs.contains(&s.at.buf) {
            bufs.push(s.at.buf);
        }
    }
    let mut out = Vec::new();
    for buf in bufs {
        if out.len() == MOVERS {
            break;
        }
        let mine: Vec<&Site> = sites.iter().filter(|s| s.at.buf == buf).collect();
        if let Some(cfg) = pattern(&mine) {
            out.push((buf, cfg));
        }
    }
    out
}

fn pattern(sites: &[&Site]) -> Option<StreamCfg> {
    let first = sites.first()?;
    if first.fmt == Fmt::S
        || sites
            .iter()
            .any(|s| s.read != first.read || s.fmt != first.fmt || s.chain != first.chain)
    {
        return None;
    }
    let elem = i64::from(first.fmt.bytes());
    let mut dims: Vec<(i64, i64)> = Vec::new();
    if sites.len() > 1 {
        let delta = sites[1]
            .at
            .offset
            .add_scaled(&first.at.offset, -1)?
            .as_constant()?;
        for (k, s) in sites.iter().enumerate() {
            let d =
                s.at.offset
                    .add_scaled(&first.at.offset, -1)?
                    .as_constant()?;
            if d != delta * k as i64 {
                return None;
            }
        }
        dims.push((sites.len() as i64, delta));
    }
    let mut start = first.at.clone();
    let mut param_count = None;
    for (depth, &(id, count)) in first.chain.iter().enumerate().rev() {
        // Only the outermost dimension's count may be an argument: the
        // pointer increments of the others depend on the inner counts.
        let c = match count {
            Count::Static(c) => c,
            Count::Param(p) if depth == 0 => {
                param_count = Some(p);
                0
            }
            Count::Param(_) => return None,
        };
        if start
            .offset
            .terms
            .iter()
            .any(|(v, _)| matches!(v, Var::LoopParam(m, _) if *m == id))
        {
            return None;
        }
        let stride = start.offset.coeff(Var::Loop(id));
        start.offset.terms.retain(|(v, _)| *v != Var::Loop(id));
        dims.push((i64::from(c), stride));
    }
    // Every stride must keep 64-bit transfers aligned.
    if dims.iter().any(|&(_, s)| s % elem != 0 && s % 8 != 0) {
        return None;
    }
    let outer = match param_count {
        Some(_) => dims.pop(),
        None => None,
    };
    let (mut dims, repeat) = shape(dims, first.read, outer.is_none());
    if let Some(o) = outer {
        dims.push(o);
    }
    if dims.len() > 4 {
        return None;
    }
    let dims = dims
        .into_iter()
        .map(|(c, s)| Some((u32::try_from(c).ok()?, i32::try_from(s).ok()?)))
        .collect::<Option<Vec<_>>>()?;
    Some(StreamCfg {
        mover: 0,
        read: first.read,
        start,
        dims,
        repeat,
        param_count,
    })
}

/// Drops one-iteration dimensions, merges contiguous ones and turns an
/// innermost read stride of 0 into a repeat.
pub fn shape(dims: Vec<(i64, i64)>, read: bool, nonempty: bool) -> (Vec<(i64, i64)>, u32) {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (c, s) in dims.into_iter().filter(|d| d.0 != 1) {
        match out.last_mut() {
            Some(last) if s == last.1 * last.0 => last.0 *= c,
            _ => out.push((c, s)),
        }
    }
    let mut repeat = 1;
    if read {
        if let Some(&(c, 0)) = out.first() {
            if let Ok(r) = u32::try_from(c) {
                repeat = r;
                out.remove(0);
            }
        }
    }
    if out.is_empty() && nonempty {
        out.push((1, 8));
    }
    (out, repeat)
}

fn rewrite(body: &mut [Node], buf: usize, mover: u8) {
    for n in body.iter_mut() {
        match n {
            Node::Load { dst, fmt, at } if at.buf == buf => {
                *n = Node::Arith {
                    op: FOp::Mov,
                    fmt: *fmt,
                    dst: F::V(*dst),
                    srcs: vec![F::Ssr(mover)],
                };
            }
            Node::Store { src, fmt, at } if at.buf == buf => {
                *n = Node::Arith {
                    op: FOp::Mov,
                    fmt: *fmt,
                    dst: F::Ssr(mover),
                    srcs: vec![*src],
                };
            }
            Node::Loop(l) => rewrite(&mut l.body, buf, mover),
            _ => {}
        }
    }
}
