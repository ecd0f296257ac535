//! Makes the integer work explicit: parameter registers, addresses of the
//! remaining loads and stores (computed from the loop counters at each
//! access, as a straightforward lowering does: a `mul` or shift per term,
//! unless [`super::strength_reduce`] is on), loop counters, and the
//! `scfgwi` writes that configure each stream before its region, with the
//! SSR switch around it.

use super::lir::{
    Access, Affine, Count, Func, LoopCtl, Node, ParamKind, StreamCfg, Var, LOCAL, XV,
};
use super::strength_reduce::{self, Walk};
use crate::isa::{ImmOp, RegOp};
use crate::stream::{Dim, Direction, StreamPattern};
use std::collections::{HashMap, HashSet};

/// Runs the step (always on); `strength_reduce` makes loop accesses walk
/// pointers. Fails only on an internal inconsistency (an address naming a
/// loop that has no counter).
pub fn run(f: &mut Func, strength_reduce: bool) -> Result<(), String> {
    run_with(f, strength_reduce, false)
}

/// [`run`], with `remat_bounds` loading each counting loop's constant
/// bound at the end of every iteration instead of once before the loop:
/// an instruction per iteration for a register that is not live across
/// the loop (deep nests with reference addresses run out of registers
/// otherwise).
pub fn run_with(f: &mut Func, strength_reduce: bool, remat_bounds: bool) -> Result<(), String> {
    f.param_regs = (0..f.params.len()).map(|_| f.new_x()).collect();
    f.param_hi = (0..f.params.len())
        .map(|i| (f.params[i] == ParamKind::F64).then(|| f.new_x()))
        .collect();
    let mut used = HashSet::new();
    collect_used(&f.body, None, strength_reduce, &mut used);
    let body = std::mem::take(&mut f.body);
    let mut m = Materializer {
        f,
        ivs: HashMap::new(),
        used,
        strength_reduce,
        remat_bounds,
        error: None,
    };
    let out = m.body(body);
    m.f.body = out;
    match m.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Notes the loops whose iteration number `at` needs in a register (all
/// but `walked`, the loop whose pointer walk covers it).
fn note(at: &Access, walked: Option<u32>, used: &mut HashSet<u32>) {
    for (v, _) in &at.offset.terms {
        if let Var::Loop(l) | Var::LoopParam(l, _) = v {
            if Some(*l) != walked {
                used.insert(*l);
            }
        }
    }
}

/// The loops whose iteration number some address needs; `inside` is the
/// innermost loop around `body` that is not an FREP loop.
fn collect_used(body: &[Node], inside: Option<u32>, sr: bool, used: &mut HashSet<u32>) {
    for n in body {
        match n {
            Node::Load { at, .. } | Node::Store { at, .. } => {
                let walked = inside.filter(|&l| sr && strength_reduce::stride(at, l).is_some());
                note(at, walked, used);
            }
            Node::Streams { cfgs, body } => {
                cfgs.iter().for_each(|c| note(&c.start, None, used));
                collect_used(body, None, sr, used);
            }
            Node::IfPositive { body, .. } => collect_used(body, None, sr, used),
            Node::Loop(l) => collect_used(&l.body, (!l.frep).then_some(l.id), sr, used),
            _ => {}
        }
    }
}

struct Materializer<'a> {
    f: &'a mut Func,
    ivs: HashMap<u32, XV>,
    used: HashSet<u32>,
    strength_reduce: bool,
    remat_bounds: bool,
    error: Option<String>,
}

impl Materializer<'_> {
    fn body(&mut self, body: Vec<Node>) -> Vec<Node> {
        let mut out = Vec::new();
        for n in body {
            self.node(n, &mut out);
        }
        out
    }

    fn node(&mut self, n: Node, out: &mut Vec<Node>) {
        match n {
            Node::Load { dst, fmt, at } => {
                let (base, offset) = self.address(&at, i64::from(fmt.bytes()), out);
                out.push(Node::LoadAt {
                    dst,
                    fmt,
                    base,
                    offset,
                });
            }
            Node::Store { src, fmt, at } => {
                let (base, offset) = self.address(&at, i64::from(fmt.bytes()), out);
                out.push(Node::StoreAt {
                    src,
                    fmt,
                    base,
                    offset,
                });
            }
            Node::Const {
                dst, fmt, value, ..
            } => {
                let tmp = Some(self.f.new_x());
                out.push(Node::Const {
                    dst,
                    fmt,
                    value,
                    tmp,
                });
            }
            Node::Streams { cfgs, body } => {
                let mut region = Vec::new();
                for c in &cfgs {
                    self.configure(c, &mut region);
                }
                region.push(Node::SsrEnable(true));
                let inner = self.body(body);
                region.extend(inner);
                region.push(Node::SsrEnable(false));
                match cfgs.iter().find_map(|c| c.param_count) {
                    Some(p) => out.push(Node::IfPositive {
                        reg: self.f.param_regs[p],
                        body: region,
                    }),
                    None => out.extend(region),
                }
            }
            Node::Loop(mut l) => {
                let walks = if self.strength_reduce && !l.frep {
                    self.walk_pointers(&mut l.body, l.id, out)
                } else {
                    Vec::new()
                };
                let counter = self.f.new_x();
                let mut latch_bound = None;
                let up = self.used.contains(&l.id) && !l.frep;
                let count_reg = |s: &Self| match l.count {
                    Count::Param(p) => Some(s.f.param_regs[p]),
                    Count::Static(_) => None,
                };
                let guard = count_reg(self);
                let ctl = if l.frep {
                    match l.count {
                        Count::Static(c) => out.push(Node::Li {
                            dst: counter,
                            imm: c as i32 - 1,
                        }),
                        Count::Param(p) => out.push(Node::IImm {
                            op: ImmOp::Addi,
                            dst: counter,
                            a: self.f.param_regs[p],
                            imm: -1,
                        }),
                    }
                    LoopCtl {
                        counter,
                        bound: None,
                        up: false,
                        guard,
                    }
                } else if up {
                    out.push(Node::Li {
                        dst: counter,
                        imm: 0,
                    });
                    let bound = match l.count {
                        Count::Static(c) => {
                            let b = self.f.new_x();
                            let li = Node::Li {
                                dst: b,
                                imm: c as i32,
                            };
                            if self.remat_bounds {
                                latch_bound = Some(li);
                            } else {
                                out.push(li);
                            }
                            b
                        }
                        Count::Param(p) => self.f.param_regs[p],
                    };
                    self.ivs.insert(l.id, counter);
                    LoopCtl {
                        counter,
                        bound: Some(bound),
                        up: true,
                        guard,
                    }
                } else {
                    match l.count {
                        Count::Static(c) => out.push(Node::Li {
                            dst: counter,
                            imm: c as i32,
                        }),
                        Count::Param(p) => out.push(Node::IImm {
                            op: ImmOp::Addi,
                            dst: counter,
                            a: self.f.param_regs[p],
                            imm: 0,
                        }),
                    }
                    LoopCtl {
                        counter,
                        bound: None,
                        up: false,
                        guard,
                    }
                };
                l.ctl = Some(ctl);
                let body = std::mem::take(&mut l.body);
                l.body = self.body(body);
                for w in &walks {
                    l.body.push(Node::IImm {
                        op: ImmOp::Addi,
                        dst: w.ptr,
                        a: w.ptr,
                        imm: w.stride,
                    });
                }
                l.body.extend(latch_bound);
                out.push(Node::Loop(l));
            }
            other => out.push(other),
        }
    }

    /// Gives the accesses of loop `l`'s body that qualify pointer walks
    /// (set up in `out`, before the loop) and rewrites them as loads and
    /// stores at those pointers; the caller bumps the pointers.
    fn walk_pointers(&mut self, body: &mut [Node], l: u32, out: &mut Vec<Node>) -> Vec<Walk> {
        let mut walks: Vec<Walk> = Vec::new();
        for n in body.iter_mut() {
            let Some((at, stride, elem)) = strength_reduce::walked(n, l) else {
                continue;
            };
            let (ptr, offset) = match walks.iter().find_map(|w| Some((w.ptr, w.offset_of(&at)?))) {
                Some(found) => found,
                None => {
                    // The address at iteration 0: the loop's term dropped.
                    let start = Access {
                        buf: at.buf,
                        offset: Affine {
                            constant: at.offset.constant,
                            terms: at
                                .offset
                                .terms
                                .iter()
                                .filter(|(v, _)| *v != Var::Loop(l))
                                .copied()
                                .collect(),
                        },
                    };
                    let (base, imm) = self.address(&start, elem, out);
                    // A parameter's register may serve other accesses:
                    // walk a copy. A computed address is walked in place.
                    let ptr = if imm == 0 && !self.f.param_regs.contains(&base) {
                        base
                    } else {
                        let ptr = self.f.new_x();
                        out.push(Node::IImm {
                            op: ImmOp::Addi,
                            dst: ptr,
                            a: base,
                            imm,
                        });
                        ptr
                    };
                    walks.push(Walk {
                        buf: at.buf,
                        terms: at.offset.terms.clone(),
                        base: at.offset.constant,
                        ptr,
                        stride,
                    });
                    (ptr, 0)
                }
            };
            *n = match std::mem::replace(n, Node::SsrEnable(false)) {
                Node::Load { dst, fmt, .. } => Node::LoadAt {
                    dst,
                    fmt,
                    base: ptr,
                    offset,
                },
                Node::Store { src, fmt, .. } => Node::StoreAt {
                    src,
                    fmt,
                    base: ptr,
                    offset,
                },
                other => other,
            };
        }
        walks
    }

    /// Integer code for `param + offset`, in the reference lowering's
    /// shape: the element index is summed from its terms (a `li` and `mul`
    /// for each coefficient other than 1), multiplied by the element size
    /// with another `mul` and added to the base. Returns the base register
    /// and a 12-bit immediate offset.
    fn address(&mut self, at: &Access, elem: i64, out: &mut Vec<Node>) -> (XV, i32) {
        // A local's base is its TCDM address, a constant: the offset's
        // constant joins it in one `li`.
        let local = at
            .buf
            .checked_sub(LOCAL)
            .and_then(|k| self.f.locals.get(k))
            .map(|l| l.addr);
        let (base, constant) = match local {
            Some(l) => {
                let base = self.f.new_x();
                let addr = i64::from(l) + at.offset.constant;
                out.push(Node::Li {
                    dst: base,
                    imm: addr as i32,
                });
                (base, 0)
            }
            None => (self.f.param_regs[at.buf], at.offset.constant),
        };
        let elem = if at.offset.terms.iter().all(|(_, c)| c % elem == 0) {
            elem
        } else {
            1
        };
        let mut sum: Option<XV> = None;
        for &(v, c) in &at.offset.terms {
            let reg = match v {
                Var::Loop(l) => self.ivs.get(&l).copied(),
                Var::Param(p) => Some(self.f.param_regs[p]),
                Var::LoopParam(l, p) => self.ivs.get(&l).copied().map(|iv| {
                    let t = self.f.new_x();
                    out.push(Node::IOp {
                        op: RegOp::Mul,
                        dst: t,
                        a: iv,
                        b: self.f.param_regs[p],
                    });
                    t
                }),
            };
            let Some(reg) = reg else {
                self.error = Some(format!("an address uses loop {v} outside it"));
                continue;
            };
            let term = self.scaled(reg, c / elem, out);
            sum = Some(match sum {
                None => term,
                Some(s) => {
                    let t = self.f.new_x();
                    out.push(Node::IOp {
                        op: RegOp::Add,
                        dst: t,
                        a: s,
                        b: term,
                    });
                    t
                }
            });
        }
        let (offset, rest) = split_imm(constant);
        let addr = match sum {
            None => base,
            Some(s) => {
                let bytes = self.scaled(s, elem, out);
                let t = self.f.new_x();
                out.push(Node::IOp {
                    op: RegOp::Add,
                    dst: t,
                    a: base,
                    b: bytes,
                });
                t
            }
        };
        let addr = if rest != 0 {
            let k = self.f.new_x();
            out.push(Node::Li { dst: k, imm: rest });
            let t = self.f.new_x();
            out.push(Node::IOp {
                op: RegOp::Add,
                dst: t,
                a: addr,
                b: k,
            });
            t
        } else {
            addr
        };
        (addr, offset)
    }

    /// `reg · c` with `li` and `mul` (nothing for 1).
    fn scaled(&mut self, reg: XV, c: i64, out: &mut Vec<Node>) -> XV {
        if c == 1 {
            return reg;
        }
        let t = self.f.new_x();
        let k = self.f.new_x();
        out.push(Node::Li {
            dst: k,
            imm: c as i32,
        });
        out.push(Node::IOp {
            op: RegOp::Mul,
            dst: t,
            a: reg,
            b: k,
        });
        t
    }

    fn configure(&mut self, c: &StreamCfg, out: &mut Vec<Node>) {
        let pattern = StreamPattern {
            base: 0,
            dims: c
                .dims
                .iter()
                .map(|&(count, stride)| Dim {
                    count: count.max(1),
                    stride,
                })
                .collect(),
            repeat: c.repeat,
        };
        let dir = if c.read {
            Direction::Read
        } else {
            Direction::Write
        };
        // The stream pass only builds patterns the movers accept.
        let Ok(writes) = pattern.config_writes(c.mover, dir) else {
            return;
        };
        let last = writes.len().saturating_sub(1);
        // The outermost bound write, when the count is an argument.
        let bound_at = c.param_count.map(|_| writes.len().saturating_sub(3));
        for (k, (addr, value)) in writes.into_iter().enumerate() {
            if let (Some(b), Some(p)) = (bound_at, c.param_count) {
                if k == b {
                    let t = self.f.new_x();
                    out.push(Node::IImm {
                        op: ImmOp::Addi,
                        dst: t,
                        a: self.f.param_regs[p],
                        imm: -1,
                    });
                    out.push(Node::Scfg { src: Some(t), addr });
                    continue;
                }
            }
            if k == last {
                let (base, offset) = self.address(&c.start, 8, out);
                let ptr = if offset != 0 {
                    let t = self.f.new_x();
                    out.push(Node::IImm {
                        op: ImmOp::Addi,
                        dst: t,
                        a: base,
                        imm: offset,
                    });
                    t
                } else {
                    base
                };
                out.push(Node::Scfg {
                    src: Some(ptr),
                    addr,
                });
            } else if value == 0 {
                out.push(Node::Scfg { src: None, addr });
            } else {
                let t = self.f.new_x();
                out.push(Node::Li {
                    dst: t,
                    imm: value as i32,
                });
                out.push(Node::Scfg { src: Some(t), addr });
            }
        }
    }
}

/// Splits a byte constant into a 12-bit immediate and the rest.
fn split_imm(c: i64) -> (i32, i32) {
    if (-2048..=2047).contains(&c) {
        (c as i32, 0)
    } else {
        (0, c as i32)
    }
}
