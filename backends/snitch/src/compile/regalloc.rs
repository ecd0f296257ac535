//! Register allocation: linear scan over live intervals, without spilling.
//!
//! The body is numbered in program order; a register's interval runs from
//! its first to its last mention, stretched over a whole loop when it is
//! live around the back edge (defined before the loop and mentioned in it,
//! or read in the loop before it is written there). Parameters are fixed to
//! `a0`, `a1`, … from the start. When more values are live than registers
//! exist the allocator fails with [`AllocError`] instead of spilling: the
//! kernels this backend accepts are small, and a spill inside a stream or
//! FREP region would break it anyway.

use super::lir::{FOp, Func, Node, F, FV, XV};
use crate::isa::{FReg, XReg};
use std::collections::HashMap;

/// FP registers the allocator uses (`ft0`–`ft2` belong to the streams).
pub const FP_POOL: [u8; 17] = [
    3, 4, 5, 6, 7, 28, 29, 30, 31, 10, 11, 12, 13, 14, 15, 16, 17,
];
/// Integer registers the allocator uses: `t0`–`t6`, `a0`–`a7`.
pub const INT_POOL: [u8; 15] = [5, 6, 7, 28, 29, 30, 31, 10, 11, 12, 13, 14, 15, 16, 17];

/// The assignment.
#[derive(Clone, Debug, Default)]
pub struct Alloc {
    /// FP registers.
    pub f: HashMap<FV, FReg>,
    /// Integer registers.
    pub x: HashMap<XV, XReg>,
}

/// Too many values live at once.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("out of {class} registers: {live} values live at once, {available} registers (values are never spilled)")]
pub struct AllocError {
    /// "FP" or "integer".
    pub class: &'static str,
    /// Values live where it failed.
    pub live: usize,
    /// Registers in the pool.
    pub available: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum R {
    F(FV),
    X(XV),
}

#[derive(Default)]
struct Numbering<'a> {
    f: Option<&'a Func>,
    pos: usize,
    events: HashMap<R, Vec<(usize, bool)>>,
    loops: Vec<(usize, usize)>,
}

impl Numbering<'_> {
    fn ev(&mut self, r: R, def: bool) {
        self.events.entry(r).or_default().push((self.pos, def));
    }

    fn body(&mut self, body: &[Node]) {
        for n in body {
            self.pos += 1;
            match n {
                Node::Loop(l) => {
                    let start = self.pos;
                    if let Some(c) = l.ctl {
                        if let Some(g) = c.guard {
                            self.ev(R::X(g), false);
                        }
                        self.ev(R::X(c.counter), false);
                    }
                    self.body(&l.body);
                    self.pos += 1;
                    if let Some(c) = l.ctl {
                        self.ev(R::X(c.counter), false);
                        if let Some(b) = c.bound {
                            self.ev(R::X(b), false);
                        }
                    }
                    self.loops.push((start, self.pos));
                }
                Node::Streams { body, .. } => self.body(body),
                Node::IfPositive { reg, body } => {
                    self.ev(R::X(*reg), false);
                    self.body(body);
                }
                Node::Const { dst, tmp, .. } => {
                    if let Some(t) = tmp {
                        self.ev(R::X(*t), true);
                    }
                    self.ev(R::F(*dst), true);
                }
                Node::Li { dst, .. } => self.ev(R::X(*dst), true),
                Node::IOp { dst, a, b, .. } => {
                    self.ev(R::X(*a), false);
                    self.ev(R::X(*b), false);
                    self.ev(R::X(*dst), true);
                }
                Node::IImm { dst, a, .. } => {
                    self.ev(R::X(*a), false);
                    self.ev(R::X(*dst), true);
                }
                Node::LoadAt { dst, base, .. } => {
                    self.ev(R::X(*base), false);
                    self.ev(R::F(*dst), true);
                }
                Node::StoreAt { src, base, .. } => {
                    self.ev(R::X(*base), false);
                    if let F::V(v) = src {
                        self.ev(R::F(*v), false);
                    }
                }
                Node::Arith { op, dst, srcs, .. } => {
                    if let (FOp::Mov, [F::Ssr(_)], Some(Some(z))) =
                        (op, srcs.as_slice(), self.f.map(|f| f.zero))
                    {
                        self.ev(R::F(z), false);
                    }
                    for s in srcs {
                        if let F::V(v) = s {
                            self.ev(R::F(*v), false);
                        }
                    }
                    if let F::V(v) = dst {
                        self.ev(R::F(*v), true);
                    }
                }
                Node::Scfg { src: Some(x), .. } => self.ev(R::X(*x), false),
                Node::FParam { dst, param, .. } => {
                    if let Some(f) = self.f {
                        if let Some(&r) = f.param_regs.get(*param) {
                            self.ev(R::X(r), false);
                        }
                        if let Some(Some(h)) = f.param_hi.get(*param) {
                            self.ev(R::X(*h), false);
                        }
                    }
                    self.ev(R::F(*dst), true);
                }
                Node::Load { .. } | Node::Store { .. } => {}
                Node::Scfg { src: None, .. } | Node::SsrEnable(_) => {}
            }
        }
    }
}

/// Allocates every virtual register of a materialized function.
pub fn allocate(f: &Func) -> Result<Alloc, AllocError> {
    let mut num = Numbering {
        f: Some(f),
        ..Numbering::default()
    };
    num.body(&f.body);
    // Parameters are defined on entry (position 0; nodes start at 1), so
    // they come first and keep their argument registers while live.
    for &p in f.param_regs.iter().chain(f.param_hi.iter().flatten()) {
        num.events.entry(R::X(p)).or_default().push((0, true));
    }
    let mut intervals: HashMap<R, (usize, usize)> = HashMap::new();
    for (r, evs) in &num.events {
        let lo = evs.iter().map(|e| e.0).min().unwrap_or(0);
        let hi = evs.iter().map(|e| e.0).max().unwrap_or(0);
        intervals.insert(*r, (lo, hi));
    }
    let mut loops = num.loops.clone();
    loops.sort_by_key(|(s, e)| e - s);
    for _ in 0..2 {
        for &(s, e) in &loops {
            for (r, evs) in &num.events {
                let Some(iv) = intervals.get_mut(r) else {
                    continue;
                };
                let inside: Vec<&(usize, bool)> =
                    evs.iter().filter(|(p, _)| *p >= s && *p <= e).collect();
                let Some(first) = inside.iter().min_by_key(|x| x.0) else {
                    continue;
                };
                if iv.0 < s || !first.1 {
                    iv.0 = iv.0.min(s);
                    iv.1 = iv.1.max(e);
                }
            }
        }
    }
    // Argument registers by slot: an f64 takes two.
    let mut params: HashMap<XV, XReg> = HashMap::new();
    let mut slot = 0u8;
    for (i, kind) in f.params.iter().enumerate() {
        let regs = [
            f.param_regs.get(i).copied(),
            f.param_hi.get(i).copied().flatten(),
        ];
        for v in regs.into_iter().flatten() {
            if let Some(r) = XReg::new(10 + slot) {
                params.insert(v, r);
            }
            slot += 1;
        }
        if f.param_regs.get(i).is_none() {
            slot += kind.slots() as u8;
        }
    }
    let mut order: Vec<(R, (usize, usize))> = intervals.into_iter().collect();
    order.sort_by_key(|(r, (s, e))| {
        let fixed = matches!(r, R::X(x) if params.contains_key(x));
        (*s, !fixed, *e, format!("{r:?}"))
    });
    let mut alloc = Alloc::default();
    let mut free_f: Vec<u8> = FP_POOL.to_vec();
    let mut free_x: Vec<u8> = INT_POOL.to_vec();
    // Parameter registers are taken until their interval ends.
    for r in params.values() {
        free_x.retain(|&n| n != r.num());
    }
    let mut active: Vec<(usize, R, u8)> = Vec::new();
    let mut param_release: Vec<(usize, u8)> = Vec::new();
    for (r, (s, e)) in order {
        // Expire intervals that ended before this one starts (a register
        // read for the last time by an instruction may be written by it).
        active.retain(|&(end, ar, reg)| {
            if end <= s {
                match ar {
                    R::F(_) => free_f.push(reg),
                    R::X(_) => free_x.push(reg),
                }
                false
            } else {
                true
            }
        });
        param_release.retain(|&(end, reg)| {
            if end <= s {
                free_x.push(reg);
                false
            } else {
                true
            }
        });
        match r {
            R::X(x) if params.contains_key(&x) => {
                let reg = params[&x];
                alloc.x.insert(x, reg);
                param_release.push((e, reg.num()));
            }
            R::F(v) => {
                let Some(pos) = best(&free_f) else {
                    return Err(AllocError {
                        class: "FP",
                        live: active.iter().filter(|a| matches!(a.1, R::F(_))).count() + 1,
                        available: FP_POOL.len(),
                    });
                };
                let reg = free_f.remove(pos);
                alloc.f.insert(v, FReg::new(reg).unwrap_or(FReg::FT0));
                active.push((e, r, reg));
            }
            R::X(x) => {
                let Some(pos) = best_x(&free_x) else {
                    return Err(AllocError {
                        class: "integer",
                        live: active.iter().filter(|a| matches!(a.1, R::X(_))).count()
                            + param_release.len()
                            + 1,
                        available: INT_POOL.len(),
                    });
                };
                let reg = free_x.remove(pos);
                alloc.x.insert(x, XReg::new(reg).unwrap_or(XReg::ZERO));
                active.push((e, r, reg));
            }
        }
    }
    Ok(alloc)
}

/// The free register earliest in the pool's order.
fn best(free: &[u8]) -> Option<usize> {
    (0..free.len()).min_by_key(|&i| FP_POOL.iter().position(|&r| r == free[i]))
}

fn best_x(free: &[u8]) -> Option<usize> {
    (0..free.len()).min_by_key(|&i| INT_POOL.iter().position(|&r| r == free[i]))
}
