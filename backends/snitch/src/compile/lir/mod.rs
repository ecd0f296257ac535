//! The lowering IR: structured loops over virtual registers.
//!
//! A kernel enters as [`Func`] with memory accesses written symbolically
//! ([`Access`]: a parameter buffer and an affine byte offset in loop
//! variables and parameters), so the loop passes can reason about them
//! without integer code. `materialize` then makes the integer work
//! explicit (addresses, loop counters, stream configuration), the
//! register allocator maps every virtual register, and `emit` prints
//! machine instructions. FP virtual registers may be assigned more than
//! once (accumulators are updated in place), which keeps the passes simple;
//! liveness handles it by extending intervals over loops.

mod print;

pub use print::print_body;

use crate::isa::{ImmOp, RegOp};

/// A virtual FP register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FV(pub u32);

/// A virtual integer register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct XV(pub u32);

/// An FP operand or destination: a virtual register or a stream register
/// (`ft0`–`ft2`, where each read pops and each write pushes one element).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum F {
    /// A virtual register.
    V(FV),
    /// Stream register `ft<n>`.
    Ssr(u8),
}

/// Element format of an FP operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fmt {
    /// f64.
    D,
    /// f32 scalar.
    S,
    /// Two f32 lanes in one 64-bit register (packed SIMD).
    VS,
}

impl Fmt {
    /// Bytes per memory element.
    pub fn bytes(self) -> u32 {
        match self {
            Fmt::S => 4,
            Fmt::D | Fmt::VS => 8,
        }
    }
}

/// FP operations (`Madd` is `a * b + c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
    /// maxNum.
    Max,
    /// minNum.
    Min,
    /// `a * b + c`, one rounding.
    Madd,
    /// `-a`.
    Neg,
    /// Copy.
    Mov,
    /// An f32 into both lanes (packed only).
    Splat,
}

impl FOp {
    /// Number of source operands.
    pub fn arity(self) -> usize {
        match self {
            FOp::Neg | FOp::Mov | FOp::Splat => 1,
            FOp::Madd => 3,
            _ => 2,
        }
    }

    fn name(self) -> &'static str {
        match self {
            FOp::Add => "fadd",
            FOp::Sub => "fsub",
            FOp::Mul => "fmul",
            FOp::Div => "fdiv",
            FOp::Max => "fmax",
            FOp::Min => "fmin",
            FOp::Madd => "fmadd",
            FOp::Neg => "fneg",
            FOp::Mov => "fmv",
            FOp::Splat => "splat",
        }
    }
}

/// A variable an affine offset depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    /// The iteration number (0, 1, …) of loop `n`.
    Loop(u32),
    /// Integer parameter `n`.
    Param(usize),
    /// The product of loop `n`'s iteration number and parameter `p`.
    LoopParam(u32, usize),
}

/// `constant + Σ coefficient · variable`, coefficients never zero, terms sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Affine {
    /// The constant term.
    pub constant: i64,
    /// The other terms.
    pub terms: Vec<(Var, i64)>,
}

impl Affine {
    /// A constant.
    pub fn constant(c: i64) -> Affine {
        Affine {
            constant: c,
            terms: Vec::new(),
        }
    }

    /// `1 · v`.
    pub fn var(v: Var) -> Affine {
        Affine {
            constant: 0,
            terms: vec![(v, 1)],
        }
    }

    /// The constant, if there are no other terms.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// The coefficient of `v` (0 if absent).
    pub fn coeff(&self, v: Var) -> i64 {
        self.terms
            .iter()
            .find(|(w, _)| *w == v)
            .map_or(0, |(_, c)| *c)
    }

    /// Whether loop `l` appears, alone or multiplied by a parameter.
    pub fn uses_loop(&self, l: u32) -> bool {
        self.terms.iter().any(|(v, _)| match v {
            Var::Loop(m) | Var::LoopParam(m, _) => *m == l,
            Var::Param(_) => false,
        })
    }

    /// `self + k · other`, or `None` on overflow.
    pub fn add_scaled(&self, other: &Affine, k: i64) -> Option<Affine> {
        let mut out = self.clone();
        out.constant = out.constant.checked_add(other.constant.checked_mul(k)?)?;
        for &(v, c) in &other.terms {
            let c = c.checked_mul(k)?;
            match out.terms.iter_mut().find(|(w, _)| *w == v) {
                Some(t) => t.1 = t.1.checked_add(c)?,
                None => out.terms.push((v, c)),
            }
        }
        out.terms.retain(|t| t.1 != 0);
        out.terms.sort();
        Some(out)
    }

    /// `k · self`.
    pub fn scale(&self, k: i64) -> Option<Affine> {
        Affine::default().add_scaled(self, k)
    }

    /// Replaces loop `l` by `outer · factor + offset` where `outer` is loop
    /// `new` (the unroll-and-jam substitution).
    pub fn substitute_loop(&self, l: u32, new: u32, factor: i64, offset: i64) -> Option<Affine> {
        let mut out = Affine::constant(self.constant);
        for &(v, c) in &self.terms {
            let part = match v {
                Var::Loop(m) if m == l => Affine {
                    constant: offset,
                    terms: vec![(Var::Loop(new), factor)],
                },
                Var::LoopParam(m, p) if m == l => Affine {
                    constant: 0,
                    terms: vec![(Var::Param(p), offset), (Var::LoopParam(new, p), factor)],
                },
                other => Affine::var(other),
            };
            out = out.add_scaled(&part, c)?;
        }
        Some(out)
    }
}

/// Buffer numbers from this one on name the kernel's local memory
/// ([`Func::locals`]: `LOCAL + k` is local `k`), below it the pointer
/// parameters. Both are opaque to the passes: a local is disjoint from
/// every other buffer.
pub const LOCAL: usize = 1 << 16;

/// A memory access: `param[buf] + offset` bytes, `bytes` wide.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// The pointer parameter, or local `buf - LOCAL`.
    pub buf: usize,
    /// Byte offset from it.
    pub offset: Affine,
}

/// A loop's iteration count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Count {
    /// Known at compile time.
    Static(u32),
    /// Integer parameter `n` (zero or negative runs no iteration).
    Param(usize),
}

/// Registers a materialized loop uses for its control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopCtl {
    /// Counts 0, 1, … when the iteration number is used, else n, n−1, …, 1;
    /// for FREP it holds the repetitions − 1.
    pub counter: XV,
    /// The count, when the counter counts up.
    pub bound: Option<XV>,
    /// True when the counter is the iteration number.
    pub up: bool,
    /// A register holding the count, checked before entry (counts from
    /// parameters may be zero or negative).
    pub guard: Option<XV>,
}

/// A counted loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// Its number, used by [`Var::Loop`].
    pub id: u32,
    /// Iterations.
    pub count: Count,
    /// The body.
    pub body: Vec<Node>,
    /// Run as an FREP hardware loop (the body is FP-only).
    pub frep: bool,
    /// Control registers, once materialized.
    pub ctl: Option<LoopCtl>,
}

/// One data mover's job in a streaming region.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamCfg {
    /// Data mover (register `ft<mover>`).
    pub mover: u8,
    /// Reads (true) or writes.
    pub read: bool,
    /// Where the first element is.
    pub start: Access,
    /// (count, byte stride), innermost first.
    pub dims: Vec<(u32, i32)>,
    /// Deliveries of each element.
    pub repeat: u32,
    /// The outermost dimension's count is this integer parameter (its
    /// count in `dims` is then unused).
    pub param_count: Option<usize>,
}

/// A node of a body.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A counted loop.
    Loop(Loop),
    /// Streams configured and enabled around `body`.
    Streams {
        /// The data movers' jobs.
        cfgs: Vec<StreamCfg>,
        /// Runs with the streams enabled.
        body: Vec<Node>,
    },
    /// Symbolic FP load.
    Load {
        /// Destination.
        dst: FV,
        /// Format.
        fmt: Fmt,
        /// Address.
        at: Access,
    },
    /// Symbolic FP store.
    Store {
        /// Value.
        src: F,
        /// Format.
        fmt: Fmt,
        /// Address.
        at: Access,
    },
    /// FP arithmetic.
    Arith {
        /// Operation.
        op: FOp,
        /// Format.
        fmt: Fmt,
        /// Destination.
        dst: F,
        /// Sources ([`FOp::arity`] of them).
        srcs: Vec<F>,
    },
    /// An FP constant (materialized through the integer core).
    Const {
        /// Destination.
        dst: FV,
        /// Format.
        fmt: Fmt,
        /// Value.
        value: f64,
        /// Integer scratch register, once materialized.
        tmp: Option<XV>,
    },
    /// `li dst, imm`.
    Li {
        /// Destination.
        dst: XV,
        /// Value.
        imm: i32,
    },
    /// Integer register-register operation.
    IOp {
        /// Operation.
        op: RegOp,
        /// Destination.
        dst: XV,
        /// First source.
        a: XV,
        /// Second source.
        b: XV,
    },
    /// Integer register-immediate operation.
    IImm {
        /// Operation.
        op: ImmOp,
        /// Destination.
        dst: XV,
        /// Source.
        a: XV,
        /// Immediate.
        imm: i32,
    },
    /// FP load from `base + offset`.
    LoadAt {
        /// Destination.
        dst: FV,
        /// Format.
        fmt: Fmt,
        /// Base address.
        base: XV,
        /// Byte offset.
        offset: i32,
    },
    /// FP store to `base + offset`.
    StoreAt {
        /// Value.
        src: F,
        /// Format.
        fmt: Fmt,
        /// Base address.
        base: XV,
        /// Byte offset.
        offset: i32,
    },
    /// `scfgwi src, addr` (`None` writes zero).
    Scfg {
        /// Value.
        src: Option<XV>,
        /// Configuration word.
        addr: u16,
    },
    /// Streams on (true) or off.
    SsrEnable(bool),
    /// An FP parameter's value, from its argument register(s).
    FParam {
        /// Destination.
        dst: FV,
        /// f32 or f64.
        fmt: Fmt,
        /// The parameter.
        param: usize,
    },
    /// Runs `body` only when `reg` is positive (a region whose stream
    /// length is an argument).
    IfPositive {
        /// The count.
        reg: XV,
        /// What it guards.
        body: Vec<Node>,
    },
}

/// A pointer or integer parameter of the kernel, in argument order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// A pointer to f32/f64 data.
    Ptr,
    /// A 32-bit integer.
    Int,
    /// An f32, passed as its bits in one integer argument register.
    F32,
    /// An f64, passed in two integer argument registers (low word first).
    F64,
    /// `gridDim.d` (0 = x), an implicit parameter of launch-form kernels.
    GridDim(u8),
    /// `blockDim.d`.
    BlockDim(u8),
}

impl ParamKind {
    /// Integer argument registers the parameter takes.
    pub fn slots(self) -> usize {
        match self {
            ParamKind::F64 => 2,
            _ => 1,
        }
    }
}

/// Local memory of the kernel (a `__shared__` array, the block's dynamic
/// shared memory, or a private array cpuify made to carry per-thread values
/// across a barrier), at a fixed TCDM address of the core's own region: the
/// core runs its blocks, and their threads, one after another, so one
/// instance serves them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// What it is, for listings: `shared NAME`, `private NAME`, `dynamic shared`.
    pub what: String,
    /// Bytes reserved.
    pub bytes: u32,
    /// Its TCDM address.
    pub addr: u32,
}

/// A kernel in the lowering IR.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    /// Kernel name.
    pub name: String,
    /// Parameters, passed in `a0`, `a1`, … in this order.
    pub params: Vec<ParamKind>,
    /// Whether pointer parameters are known not to alias (`noalias` on all).
    pub noalias: bool,
    /// Local memory, accessed as buffers `LOCAL + k`.
    pub locals: Vec<Local>,
    /// The body.
    pub body: Vec<Node>,
    /// Next free FP virtual register.
    pub next_f: u32,
    /// Next free integer virtual register.
    pub next_x: u32,
    /// Next free loop number.
    pub next_loop: u32,
    /// The virtual register of each parameter, once materialized.
    pub param_regs: Vec<XV>,
    /// The second register of each f64 parameter, once materialized.
    pub param_hi: Vec<Option<XV>>,
    /// A register holding +0.0, when a stream element is copied: a copy is
    /// `fsgnjx rd, ft<k>, +0.0`, reading the stream once (`fsgnj rd, ft<k>,
    /// ft<k>` would pop two elements).
    pub zero: Option<FV>,
}

impl Func {
    /// A fresh FP virtual register.
    pub fn new_f(&mut self) -> FV {
        self.next_f += 1;
        FV(self.next_f - 1)
    }

    /// A fresh integer virtual register.
    pub fn new_x(&mut self) -> XV {
        self.next_x += 1;
        XV(self.next_x - 1)
    }

    /// A fresh loop number.
    pub fn new_loop(&mut self) -> u32 {
        self.next_loop += 1;
        self.next_loop - 1
    }
}

/// Calls `f` on every node of `body`, outer before inner.
pub fn walk<'a>(body: &'a [Node], f: &mut dyn FnMut(&'a Node)) {
    for n in body {
        f(n);
        match n {
            Node::Loop(l) => walk(&l.body, f),
            Node::Streams { body, .. } | Node::IfPositive { body, .. } => walk(body, f),
            _ => {}
        }
    }
}

impl Node {
    /// FP operands read.
    pub fn f_uses(&self) -> Vec<F> {
        match self {
            Node::Store { src, .. } | Node::StoreAt { src, .. } => vec![*src],
            Node::Arith { srcs, .. } => srcs.clone(),
            _ => Vec::new(),
        }
    }

    /// FP destination written.
    pub fn f_def(&self) -> Option<F> {
        match self {
            Node::Load { dst, .. }
            | Node::LoadAt { dst, .. }
            | Node::Const { dst, .. }
            | Node::FParam { dst, .. } => Some(F::V(*dst)),
            Node::Arith { dst, .. } => Some(*dst),
            _ => None,
        }
    }

    /// Renames FP virtual registers (reads and writes).
    pub fn rename_f(&mut self, map: &dyn Fn(FV) -> FV) {
        let r = |x: &mut F| {
            if let F::V(v) = x {
                *v = map(*v);
            }
        };
        match self {
            Node::Load { dst, .. }
            | Node::LoadAt { dst, .. }
            | Node::Const { dst, .. }
            | Node::FParam { dst, .. } => *dst = map(*dst),
            Node::Store { src, .. } | Node::StoreAt { src, .. } => r(src),
            Node::Arith { dst, srcs, .. } => {
                r(dst);
                srcs.iter_mut().for_each(r);
            }
            Node::Loop(l) => l.body.iter_mut().for_each(|n| n.rename_f(map)),
            Node::Streams { body, .. } => body.iter_mut().for_each(|n| n.rename_f(map)),
            _ => {}
        }
    }

    /// The symbolic access, if any.
    pub fn access(&self) -> Option<&Access> {
        match self {
            Node::Load { at, .. } | Node::Store { at, .. } => Some(at),
            _ => None,
        }
    }
}
