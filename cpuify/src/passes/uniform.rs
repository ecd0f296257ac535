//! Block uniformity: which values of a thread loop's body are the same for
//! every thread of the block.
//!
//! A value is *uniform* when it depends only on values defined outside the
//! thread loop (kernel parameters, block ids and dims, constants, anything
//! the block computes once) through:
//! - pure ops (and known math externs, texture fetches) of uniform operands;
//! - loads from a uniform address of memory that no op of the thread loop
//!   may write (conservatively: the written pointers' base objects are all
//!   known to be different objects, or the load reads constant memory);
//! - `if`/`for`/`while` results whose control (condition, bounds, the
//!   `while`'s predicate) and yielded values are uniform; loop-carried
//!   values are found optimistically and refined to a fixed point;
//! - `barrier.reduce` results (every thread receives the same count).
//!
//! The thread loop's ivs, thread and lane ids, atomics, shuffles, votes,
//! clocks, calls and private allocas (per-thread storage) are varying, and
//! so is anything computed from them. `distribute` uses this to keep
//! uniform loop counters, carried values and conditions of interchanged
//! loops as scalars outside the thread loops instead of per-thread arrays.

use cucc_ir::{Callee, Function, Op, OpKind, Region, Space, Types, Value, ValueDef};
use std::collections::HashSet;

/// The uniform values of one thread loop's body.
#[derive(Clone, Debug, Default)]
pub struct Uniformity {
    /// Values defined inside the loop (results and region arguments).
    inside: HashSet<Value>,
    /// The varying ones among them.
    varying: HashSet<Value>,
}

impl Uniformity {
    /// Analyses the body of thread-level `parallel` op `p` of `func`.
    pub fn of_thread_loop(types: &Types, func: &Function, p: Op) -> Self {
        let body = func.ops[p].body();
        let mut walk = Vec::new();
        func.walk_region(body, &mut walk);
        let mut inside: HashSet<Value> = func.regions[body].args.iter().copied().collect();
        let mut writes = Vec::new();
        for &(_, op) in &walk {
            let data = &func.ops[op];
            inside.extend(data.results.iter().copied());
            for &r in &data.regions {
                inside.extend(func.regions[r].args.iter().copied());
            }
            match &data.kind {
                OpKind::Store { .. } | OpKind::AtomicRmw { .. } | OpKind::AtomicCas { .. } => {
                    writes.push(Some(data.ptr()))
                }
                OpKind::Memcpy | OpKind::Memset => writes.push(Some(data.dst())),
                OpKind::Call(Callee::Func(_)) => writes.push(None),
                OpKind::Call(Callee::Extern(name))
                    if cucc_ir::intrinsics::lookup(name).is_none() =>
                {
                    writes.push(None)
                }
                _ => {}
            }
        }
        let mut u = Uniformity {
            inside,
            varying: func.regions[body].args.iter().copied().collect(),
        };
        let a = Analyzer {
            types,
            func,
            writes,
        };
        loop {
            let before = u.varying.len();
            a.region(&mut u, body);
            if u.varying.len() == before {
                return u;
            }
        }
    }

    /// True if `v` is the same for every thread of the block. Values
    /// defined outside the analysed loop are uniform; values the analysis
    /// never saw (made later inside the loop) are not.
    pub fn is_uniform(&self, v: Value) -> bool {
        !self.varying.contains(&v)
    }

    /// True if `v` was defined inside the analysed loop when it was analysed.
    pub fn is_inside(&self, v: Value) -> bool {
        self.inside.contains(&v)
    }

    /// True if `v` is a value the analysis saw inside the loop and found
    /// uniform.
    pub fn is_uniform_inside(&self, v: Value) -> bool {
        self.inside.contains(&v) && !self.varying.contains(&v)
    }
}

struct Analyzer<'a> {
    types: &'a Types,
    func: &'a Function,
    /// Pointers written in the loop (`None`: anything).
    writes: Vec<Option<Value>>,
}

impl Analyzer<'_> {
    fn vary(u: &mut Uniformity, vals: &[Value]) {
        u.varying.extend(vals.iter().copied());
    }

    fn any(u: &Uniformity, vals: &[Value]) -> bool {
        vals.iter().any(|v| u.varying.contains(v))
    }

    /// The values the terminator of `r` yields.
    fn term(&self, r: Region) -> &[Value] {
        self.func.regions[r]
            .ops
            .last()
            .map_or(&[][..], |&t| self.func.ops[t].values())
    }

    fn region(&self, u: &mut Uniformity, r: Region) {
        for &op in &self.func.regions[r].ops {
            self.op(u, op);
        }
    }

    fn op(&self, u: &mut Uniformity, op: Op) {
        let data = &self.func.ops[op];
        for &r in &data.regions {
            self.region(u, r);
        }
        let ops = &data.operands;
        let res = &data.results;
        match &data.kind {
            OpKind::ThreadId(_) | OpKind::LaneId | OpKind::ActiveMask => Self::vary(u, res),
            OpKind::Parallel { .. } => {
                let args = &self.func.regions[data.body()].args;
                Self::vary(u, args);
            }
            k if k.is_pure() || matches!(k, OpKind::TexFetch(_)) => {
                if Self::any(u, ops) {
                    Self::vary(u, res);
                }
            }
            OpKind::Call(Callee::Extern(name)) if cucc_ir::intrinsics::lookup(name).is_some() => {
                if Self::any(u, ops) {
                    Self::vary(u, res);
                }
            }
            OpKind::BarrierReduce(_) => {}
            OpKind::Load { volatile, .. } => {
                let clobbered = *volatile || !self.unwritten(data.ptr());
                if clobbered || Self::any(u, ops) {
                    Self::vary(u, res);
                }
            }
            OpKind::If => {
                // Per result: a uniform condition and that result's
                // uniform yields.
                if Self::any(u, &[data.cond()]) {
                    Self::vary(u, res);
                } else {
                    for (k, &r) in res.iter().enumerate() {
                        let varying = data.regions.iter().any(|&reg| {
                            self.term(reg).get(k).is_none_or(|y| u.varying.contains(y))
                        });
                        if varying {
                            Self::vary(u, &[r]);
                        }
                    }
                }
            }
            OpKind::For { .. } => {
                let r = data.body();
                let args = &self.func.regions[r].args;
                let (lb, ub, step) = data.bounds();
                let bounds = Self::any(u, &[lb, ub, step]);
                if Self::any(u, &[lb, step]) {
                    Self::vary(u, &args[..1]);
                }
                let ys = self.term(r).to_vec();
                for (k, (&init, &y)) in data.inits().iter().zip(&ys).enumerate() {
                    if Self::any(u, &[init, y]) {
                        Self::vary(u, &[args[k + 1]]);
                        if let Some(&res) = res.get(k) {
                            Self::vary(u, &[res]);
                        }
                    }
                }
                if bounds {
                    Self::vary(u, res);
                }
            }
            OpKind::While => {
                let (before, after) = (data.before(), data.after());
                let bargs = &self.func.regions[before].args;
                let aargs = &self.func.regions[after].args;
                let condition = self.func.regions[before]
                    .ops
                    .last()
                    .map(|&t| &self.func.ops[t]);
                let passed = condition.map_or(&[][..], |c| c.values());
                let ys = self.term(after).to_vec();
                for (k, (&init, &y)) in data.inits().iter().zip(&ys).enumerate() {
                    if Self::any(u, &[init, y]) {
                        Self::vary(u, &[bargs[k]]);
                    }
                }
                for (k, &v) in passed.iter().enumerate() {
                    if Self::any(u, &[v]) {
                        Self::vary(u, &[aargs[k]]);
                        if let Some(&res) = res.get(k) {
                            Self::vary(u, &[res]);
                        }
                    }
                }
                if condition.is_some_and(|c| u.varying.contains(&c.cond())) {
                    Self::vary(u, res);
                }
            }
            _ => Self::vary(u, res),
        }
    }

    /// True if no write of the loop may touch what `ptr` points to.
    fn unwritten(&self, ptr: Value) -> bool {
        let space = self.types[self.func.value_type(ptr)].ptr_space();
        if space == Some(Space::Constant) {
            return true;
        }
        let root = self.root(ptr);
        self.writes.iter().all(|w| match w {
            None => false,
            Some(w) => {
                let wspace = self.types[self.func.value_type(*w)].ptr_space();
                let disjoint_spaces = match (space, wspace) {
                    (Some(a), Some(b)) => a != b && a != Space::Generic && b != Space::Generic,
                    _ => false,
                };
                disjoint_spaces || distinct(&root, &self.root(*w))
            }
        })
    }

    /// The object `ptr` was derived from.
    fn root(&self, ptr: Value) -> Root {
        let mut v = ptr;
        loop {
            match self.func.values[v].def {
                ValueDef::Arg { region, index } => {
                    return if region == self.func.body {
                        Root::Param(index)
                    } else {
                        Root::Unknown
                    };
                }
                ValueDef::Result { op, .. } => {
                    let data = &self.func.ops[op];
                    match &data.kind {
                        OpKind::PtrIndex { .. } | OpKind::PtrField { .. } => v = data.ptr(),
                        OpKind::Cast(cucc_ir::CastOp::SpaceCast) => v = data.input(),
                        OpKind::Alloca { .. } => return Root::Alloca(op),
                        OpKind::GlobalAddr(g) => return Root::Global(g.index()),
                        _ => return Root::Unknown,
                    }
                }
            }
        }
    }
}

/// A pointer's base object, as far as a syntactic walk can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Root {
    Alloca(Op),
    Global(usize),
    Param(u32),
    Unknown,
}

/// True if pointers into `a` and `b` can never overlap.
fn distinct(a: &Root, b: &Root) -> bool {
    match (a, b) {
        (Root::Alloca(x), Root::Alloca(y)) => x != y,
        (Root::Global(x), Root::Global(y)) => x != y,
        (Root::Alloca(_), Root::Global(_) | Root::Param(_))
        | (Root::Global(_) | Root::Param(_), Root::Alloca(_)) => true,
        _ => false,
    }
}
