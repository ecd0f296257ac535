//! Per-thread kernels to stream graphs.
//!
//! The input is a kernel in cucc's per-thread form after cpuify's inline,
//! mem2reg and canonicalize passes, not the launch form: a stream graph is
//! the program one thread runs, with threads as the elements flowing
//! through it, so the grid and block loops of the launch form would only
//! have to be taken apart again. The launch shape (1-D) and the scalar
//! arguments are known at lowering time, as they are when RACER's program
//! head configures the array: scalars become LMU constants.
//!
//! - The global thread id is the element tag. A `tid` source (the memory
//!   unit's index generation) emits it in order; `blockIdx.x * blockDim.x
//!   + threadIdx.x` and affine functions of it are tracked symbolically.
//! - `a[i]` with `i` = global id + constant: a memory-unit stream in tag
//!   order (load) or a sink the memory unit re-sorts by tag (store).
//! - `while`, do-while and signed `for` loops become closed routes: a
//!   priority merge whose feedback lanes are the carried values, the
//!   condition's split sending each thread's group back or out. Stream
//!   values used inside or after the loop ride along as extra lanes,
//!   because elements leave the loop out of order and must not be joined
//!   with values that did not go round with them.
//! - An `if` whose arms only compute is if-converted into selects (the
//!   select form of the thesis' conditional branch), or with
//!   [`Options::split_branches`] becomes a split and a merge; stores in
//!   if-converted arms are conditional writes, and a thread-index bounds
//!   guard shortens the launch instead.
//! - Loads of one buffer at neighbouring offsets share one stream and
//!   delay lines (the thesis' line streams for stencils).
//! - Loop rotation: an operation on carried values whose counterpart on
//!   the next values is computed anyway (Mandelbrot's `z1*z1`, recomputed
//!   as `len`'s `a*a`) becomes a carried lane instead.
//!
//! Everything else is rejected with a [`Diagnostic`] naming the construct:
//! gathers and scatters, atomics, shared memory, barriers, warp functions,
//! loads and stores in loops, calls left after inlining.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use cucc_ir::{
    BinOp, CastOp, CmpPred, Dim, FloatKind, FuncId, Function, Module, Op, OpKind, Region, Type,
    UnOp, Value,
};

use crate::graph::{ArithOp, EdgeId, Graph, NodeId, NodeKind, Operand, Pred, Scalar, Ty};
use crate::sim::eval;

#[cfg(test)]
pub(crate) mod tests;

/// Why a kernel cannot be lowered: the construct, where it is, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// `file:line:col`.
    pub location: String,
    /// The kernel.
    pub kernel: String,
    /// The construct that does not fit.
    pub construct: String,
    /// Why.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: error: {}: {}: {}",
            self.location, self.kernel, self.construct, self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// A kernel argument known when the program is configured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// An integer scalar.
    Int(i64),
    /// A double scalar.
    F64(f64),
    /// A pointer: a buffer in a memory unit.
    Buffer,
}

/// The launch: a 1-D grid of 1-D blocks, and the arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Blocks.
    pub grid: u32,
    /// Threads per block.
    pub block: u32,
    /// One per kernel parameter.
    pub args: Vec<Arg>,
    /// Apply loop rotation.
    pub rotate: bool,
    /// Lower `if`s whose arms only compute to split + merge routes
    /// instead of selects.
    pub split_branches: bool,
}

/// A memory-unit stream of the lowered graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemStream {
    /// Source or sink name in the graph.
    pub name: String,
    /// Kernel parameter (buffer) it reads or writes; `None` for `tid`.
    pub param: Option<usize>,
    /// Element offset from the tag: element `tag + offset` of the buffer.
    pub offset: i64,
    /// Element type.
    pub ty: Ty,
    /// Extra elements sent ahead of tag 0 (tagged -lead .. -1) to prime
    /// delay lines; element `j` of the stream is `buffer[j + offset]`.
    pub lead: u64,
}

/// One closed route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInfo {
    /// Source line of the loop.
    pub line: u32,
    /// Nodes on the route (merge, body, split, copies inside).
    pub nodes: Vec<NodeId>,
    /// Lanes of its merge and split.
    pub lanes: usize,
    /// Of which carried values that loop rotation added.
    pub rotated: usize,
    /// Lowered test-first: the condition is evaluated on the merged
    /// values at the top of the route (see `lower_while`).
    pub test_first: bool,
}

/// A lowered kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Lowered {
    /// The stream graph (verified).
    pub graph: Graph,
    /// Streams from memory units, in creation order (`tid` included).
    pub inputs: Vec<MemStream>,
    /// Streams to memory units.
    pub outputs: Vec<MemStream>,
    /// Closed routes, in source order.
    pub loops: Vec<LoopInfo>,
    /// Number of threads (elements) of the launch.
    pub threads: u64,
    /// Streams the memory units compute from the tag, by source name
    /// (filled by [`crate::offload::offload_index_functions`]).
    pub index_functions: Vec<(String, crate::offload::IndexFunction)>,
}

impl Lowered {
    /// Resource use of the nodes of loop `k`, by class.
    pub fn loop_counts(&self, k: usize) -> std::collections::BTreeMap<&'static str, usize> {
        let sub = Graph {
            name: String::new(),
            nodes: self.loops[k]
                .nodes
                .iter()
                .map(|n| self.graph.node(*n).clone())
                .collect(),
            edges: self.graph.edges.clone(),
        };
        sub.resource_counts()
    }
}

/// Runs cpuify's scalar passes (inline, mem2reg, canonicalize) on the
/// kernel and lowers it.
pub fn compile(module: &Module, kernel: &str, opts: &Options) -> Result<Lowered, Diagnostic> {
    let mut m = module.clone();
    let fid = find_kernel(&m, kernel).ok_or_else(|| Diagnostic {
        location: "<module>".into(),
        kernel: kernel.into(),
        construct: "kernel".into(),
        message: "no kernel of this name in the module".into(),
    })?;
    let location = m.describe_loc(m.functions[fid].loc);
    // Malformed IR (the text parser does not type-check) is reported, not
    // indexed into.
    cucc_ir::verify_module(&m).map_err(|e| Diagnostic {
        location: location.clone(),
        kernel: kernel.into(),
        construct: "ir".into(),
        message: format!("the module does not verify: {e}"),
    })?;
    let diag = |construct: &str, e: String| Diagnostic {
        location: location.clone(),
        kernel: kernel.into(),
        construct: construct.into(),
        message: e,
    };
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    cucc_cpuify::passes::inline_calls(&mut m, fid).map_err(|e| diag("inline", e.to_string()))?;
    cucc_cpuify::passes::mem2reg(&mut m, fid, &mut remarks)
        .map_err(|e| diag("mem2reg", e.to_string()))?;
    cucc_cpuify::passes::canonicalize(&mut m, fid)
        .map_err(|e| diag("canonicalize", e.to_string()))?;
    cucc_ir::verify_module(&m).map_err(|e| {
        diag(
            "ir",
            format!("the module does not verify after cpuify's passes: {e}"),
        )
    })?;
    // First pass; if loads of one buffer at neighbouring offsets turn up,
    // a second pass streams each run of them once, through delay lines.
    let first = lower_function(&m, fid, opts, &BTreeMap::new())?;
    let mut by_param: BTreeMap<usize, Vec<i64>> = BTreeMap::new();
    for s in &first.inputs {
        if let (Some(p), 0) = (s.param, s.lead) {
            by_param.entry(p).or_default().push(s.offset);
        }
    }
    let mut plan: BTreeMap<usize, Vec<(i64, i64)>> = BTreeMap::new();
    for (p, mut offs) in by_param {
        offs.sort_unstable();
        offs.dedup();
        let mut start = 0;
        for k in 1..=offs.len() {
            if k == offs.len() || offs[k] != offs[k - 1] + 1 {
                if k - start >= 2 {
                    plan.entry(p).or_default().push((offs[start], offs[k - 1]));
                }
                start = k;
            }
        }
    }
    if plan.is_empty() {
        return Ok(first);
    }
    lower_function(&m, fid, opts, &plan)
}

/// The kernel named `name`, or whose mangled name is `_Z<len><name>...`.
pub fn find_kernel(m: &Module, name: &str) -> Option<FuncId> {
    let mangled = format!("_Z{}{}", name.len(), name);
    m.functions
        .iter()
        .find(|(_, f)| f.name == name)
        .or_else(|| {
            m.functions
                .iter()
                .find(|(_, f)| f.name.starts_with(&mangled))
        })
        .map(|(h, _)| h)
}

/// `bid * blockIdx.x + tid * threadIdx.x + k`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lin {
    bid: i64,
    tid: i64,
    k: i64,
    ty: Ty,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Const(Scalar, Ty),
    Stream(EdgeId),
    Lin(Lin),
    Buffer(usize),
    /// `buffer + index` not yet loaded or stored through.
    Addr(usize, Lin),
    /// `buffer + byte offset` as an integer address (PTX's `u64` pointer
    /// parameters): an [`Val::Addr`] once the access size is known.
    Bytes(usize, Lin),
    /// A signed comparison of two thread-index expressions, kept symbolic
    /// so a bounds guard can shorten the launch instead of being computed.
    LinCmp(Pred, Lin, Lin),
}

impl Val {
    /// A thread-index expression: a [`Lin`], or an integer constant as one.
    fn as_lin(self) -> Option<Lin> {
        match self {
            Val::Lin(l) => Some(l),
            Val::Const(Scalar::Int(k), ty) => Some(Lin {
                bid: 0,
                tid: 0,
                k,
                ty,
            }),
            _ => None,
        }
    }

    /// Whether materialising it needs the thread-index stream.
    fn needs_gid(&self) -> bool {
        match self {
            Val::Lin(l) => l.bid != 0 || l.tid != 0,
            Val::LinCmp(..) => true,
            _ => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum GidState {
    Unused,
    Stream(EdgeId),
    /// Elements left a loop out of order; no fresh tag-ordered stream may
    /// join them.
    Reordered,
}

struct Lowerer<'a> {
    m: &'a Module,
    f: &'a Function,
    kernel: String,
    opts: &'a Options,
    g: Graph,
    env: HashMap<Value, Val>,
    gid: GidState,
    inputs: Vec<MemStream>,
    outputs: Vec<MemStream>,
    loops: Vec<LoopInfo>,
    /// Node lists of the loops being lowered (innermost last).
    open_loops: Vec<usize>,
    /// Ops replaced by rotated lanes.
    skip: HashSet<Op>,
    /// Depth of if/loop nesting (loads and stores only at depth 0).
    depth: u32,
    /// Threads that run: all of the launch, or a prefix a bounds guard
    /// selected.
    active: u64,
    /// Runs of neighbouring offsets to stream once.
    plan: &'a Plan,
    /// Depth of routes (loops, split branches): no stores inside.
    loop_depth: u32,
    /// Inside if-converted arms: the condition under which a store
    /// happens (`None`: always).
    guard: Option<Val>,
    /// The stream of each run already created.
    runs: BTreeMap<(usize, i64), EdgeId>,
    /// Operators already built, by operator, operands and result type:
    /// the same operator on the same streams is the same stream.
    built: HashMap<OpKey, EdgeId>,
}

/// An operator node's identity for sharing: mnemonic, result type and
/// operands (streams by handle, constants by bits).
type OpKey = (String, Ty, Vec<(u8, u64)>);

fn op_key(op: ArithOp, ins: &[Operand], ty: Ty) -> OpKey {
    let ins = ins
        .iter()
        .map(|o| match o {
            Operand::Stream(e) => (0, u64::from(e.0)),
            Operand::Lmu(Scalar::Int(v)) => (1, *v as u64),
            Operand::Lmu(Scalar::F64(v)) => (2, v.to_bits()),
        })
        .collect();
    (op.mnemonic(), ty, ins)
}

type R<T> = Result<T, Diagnostic>;

/// Runs of neighbouring load offsets per buffer parameter.
type Plan = BTreeMap<usize, Vec<(i64, i64)>>;

fn lower_function(m: &Module, fid: FuncId, opts: &Options, plan: &Plan) -> R<Lowered> {
    let f = &m.functions[fid];
    let mut l = Lowerer {
        m,
        f,
        plan,
        runs: BTreeMap::new(),
        loop_depth: 0,
        guard: None,
        kernel: f.name.clone(),
        opts,
        g: Graph::new(&f.name),
        env: HashMap::new(),
        gid: GidState::Unused,
        inputs: Vec::new(),
        outputs: Vec::new(),
        loops: Vec::new(),
        open_loops: Vec::new(),
        skip: HashSet::new(),
        built: HashMap::new(),
        depth: 0,
        active: opts.grid as u64 * opts.block as u64,
    };
    let params = f.regions[f.body].args.clone();
    if opts.args.len() != params.len() {
        return Err(l.diag_at(
            f.loc,
            "arguments",
            format!(
                "the kernel has {} parameters but {} arguments were given",
                params.len(),
                opts.args.len()
            ),
        ));
    }
    if opts.grid == 0 || opts.block == 0 {
        return Err(l.diag_at(f.loc, "launch", "empty launch".into()));
    }
    for (k, (&v, a)) in params.iter().zip(&opts.args).enumerate() {
        let ty = &m.types[f.values[v].ty];
        let val = match (ty, a) {
            (Type::Ptr(_), Arg::Buffer) => Val::Buffer(k),
            // PTX passes pointers as `u64` and computes byte addresses.
            (Type::Int(64), Arg::Buffer) => Val::Buffer(k),
            (Type::Int(_), Arg::Int(x)) => Val::Const(Scalar::Int(*x), l.ty_of(v)?),
            (Type::Float(FloatKind::F64), Arg::F64(x)) => Val::Const(Scalar::F64(*x), Ty::F64),
            _ => {
                return Err(l.diag_at(
                    f.loc,
                    "arguments",
                    format!("argument {k} ({a:?}) does not match the parameter's type"),
                ))
            }
        };
        l.env.insert(v, val);
    }
    let body = f.body;
    l.lower_region(body, &HashSet::new())?;
    l.fan_out();
    let mut out = Lowered {
        graph: l.g,
        inputs: l.inputs,
        outputs: l.outputs,
        loops: l.loops,
        threads: l.active,
        index_functions: Vec::new(),
    };
    crate::muladd::fuse_multiply_adds(&mut out);
    crate::graph::verify(&out.graph).map_err(|e| Diagnostic {
        location: m.describe_loc(f.loc),
        kernel: f.name.clone(),
        construct: "graph".into(),
        message: format!("internal: lowered graph does not verify: {e}"),
    })?;
    Ok(out)
}

/// Values used by `ops` and everything nested in them.
fn uses_of(f: &Function, ops: &[Op], out: &mut HashSet<Value>) {
    for &op in ops {
        let d = &f.ops[op];
        out.extend(d.operands.iter().copied());
        for &r in &d.regions {
            uses_of(f, &f.regions[r].ops, out);
        }
    }
}

/// Values defined by `ops` (results and nested region arguments).
fn defs_of(f: &Function, ops: &[Op], out: &mut HashSet<Value>) {
    for &op in ops {
        let d = &f.ops[op];
        out.extend(d.results.iter().copied());
        for &r in &d.regions {
            out.extend(f.regions[r].args.iter().copied());
            defs_of(f, &f.regions[r].ops, out);
        }
    }
}

/// The LPU operator of an IR binary op, if modelled.
fn binop(b: BinOp) -> Option<ArithOp> {
    Some(match b {
        BinOp::Add => ArithOp::IAdd,
        BinOp::Sub => ArithOp::ISub,
        BinOp::Mul => ArithOp::IMul,
        BinOp::SDiv => ArithOp::SDiv,
        BinOp::SRem => ArithOp::SRem,
        BinOp::And => ArithOp::And,
        BinOp::Or => ArithOp::Or,
        BinOp::Xor => ArithOp::Xor,
        BinOp::FAdd => ArithOp::FAdd,
        BinOp::FSub => ArithOp::FSub,
        BinOp::FMul => ArithOp::FMul,
        BinOp::FDiv => ArithOp::FDiv,
        _ => return None,
    })
}

/// Whether an op of kind `k` only computes values from its operands (an
/// `if` counts, its arms are checked on their own).
fn computes(k: &OpKind) -> bool {
    matches!(
        k,
        OpKind::Const { .. }
            | OpKind::Binary(..)
            | OpKind::Unary(_)
            | OpKind::Cmp(_)
            | OpKind::Cast(_)
            | OpKind::Select
            | OpKind::Yield
            | OpKind::If
    )
}

/// `buffer + offset` or `address + offset` on integers, with the offset a
/// thread-index expression or constant in bytes.
fn byte_address(x: Val, y: Val) -> Option<Val> {
    match (x, y) {
        (Val::Buffer(p), o) | (o, Val::Buffer(p)) => o.as_lin().map(|l| Val::Bytes(p, l)),
        (Val::Bytes(p, a), o) | (o, Val::Bytes(p, a)) => o.as_lin().map(|l| {
            Val::Bytes(
                p,
                Lin {
                    bid: a.bid + l.bid,
                    tid: a.tid + l.tid,
                    k: a.k + l.k,
                    ty: a.ty,
                },
            )
        }),
        _ => None,
    }
}

fn pred(p: CmpPred) -> Option<ArithOp> {
    Some(match p {
        CmpPred::Eq => ArithOp::ICmp(Pred::Eq),
        CmpPred::Ne => ArithOp::ICmp(Pred::Ne),
        CmpPred::Slt => ArithOp::ICmp(Pred::Lt),
        CmpPred::Sle => ArithOp::ICmp(Pred::Le),
        CmpPred::Sgt => ArithOp::ICmp(Pred::Gt),
        CmpPred::Sge => ArithOp::ICmp(Pred::Ge),
        CmpPred::Ult => ArithOp::UCmp(Pred::Lt),
        CmpPred::Ule => ArithOp::UCmp(Pred::Le),
        CmpPred::Ugt => ArithOp::UCmp(Pred::Gt),
        CmpPred::Uge => ArithOp::UCmp(Pred::Ge),
        CmpPred::FOeq => ArithOp::FCmp(Pred::Eq),
        CmpPred::FOne => ArithOp::FCmp(Pred::Ne),
        CmpPred::FOlt => ArithOp::FCmp(Pred::Lt),
        CmpPred::FOle => ArithOp::FCmp(Pred::Le),
        CmpPred::FOgt => ArithOp::FCmp(Pred::Gt),
        CmpPred::FOge => ArithOp::FCmp(Pred::Ge),
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    fn diag_at(&self, loc: cucc_ir::Loc, construct: &str, message: String) -> Diagnostic {
        Diagnostic {
            location: self.m.describe_loc(loc),
            kernel: self.kernel.clone(),
            construct: construct.into(),
            message,
        }
    }

    fn diag(&self, op: Op, construct: &str, message: String) -> Diagnostic {
        self.diag_at(self.f.ops[op].loc, construct, message)
    }

    fn ty_of(&self, v: Value) -> R<Ty> {
        match &self.m.types[self.f.values[v].ty] {
            Type::Int(1) => Ok(Ty::I1),
            Type::Int(32) => Ok(Ty::I32),
            Type::Int(64) => Ok(Ty::I64),
            Type::Float(FloatKind::F64) => Ok(Ty::F64),
            t => {
                let loc = match self.f.values[v].def {
                    cucc_ir::ValueDef::Result { op, .. } => self.f.ops[op].loc,
                    cucc_ir::ValueDef::Arg { .. } => self.f.loc,
                };
                Err(self.diag_at(
                    loc,
                    "type",
                    format!(
                        "{t:?} values are not modelled (RACER streams carry i1, i32, i64 and f64)"
                    ),
                ))
            }
        }
    }

    fn add(
        &mut self,
        kind: NodeKind,
        ins: Vec<Operand>,
        outs: &[Ty],
        line: u32,
    ) -> (NodeId, Vec<EdgeId>) {
        let (id, o) = self.g.add(kind, ins, outs, line);
        for &k in &self.open_loops {
            self.loops[k].nodes.push(id);
        }
        (id, o)
    }

    fn add1(&mut self, kind: NodeKind, ins: Vec<Operand>, ty: Ty, line: u32) -> EdgeId {
        // An operator is a function of its operand streams: built twice
        // (a loop condition evaluated on the merged values next to the
        // body's own operations on them) it is built once.
        let key = match &kind {
            NodeKind::Op(op) => Some(op_key(*op, &ins, ty)),
            _ => None,
        };
        if let Some(e) = key.as_ref().and_then(|k| self.built.get(k)) {
            return *e;
        }
        let e = self.add(kind, ins, &[ty], line).1[0];
        if let Some(k) = key {
            self.built.insert(k, e);
        }
        e
    }

    /// Streams that one steering decision moves together (a merge's lanes,
    /// a split's condition and lanes) paired first by an explicit
    /// synchronisation; one stream needs none.
    fn synced(&mut self, streams: Vec<EdgeId>, line: u32) -> Vec<EdgeId> {
        if streams.len() < 2 {
            return streams;
        }
        let tys: Vec<Ty> = streams.iter().map(|e| self.g.edge(*e).ty).collect();
        let ins = streams.into_iter().map(Operand::Stream).collect();
        self.add(NodeKind::Sync, ins, &tys, line).1
    }

    fn gid_stream(&mut self, op: Op) -> R<EdgeId> {
        match self.gid {
            GidState::Stream(e) => Ok(e),
            GidState::Unused => {
                let e = self.g.add1(NodeKind::Source { name: "tid".into() }, vec![], Ty::I32, 0);
                self.inputs.push(MemStream {
                    name: "tid".into(),
                    param: None,
                    offset: 0,
                    ty: Ty::I32,
                    lead: 0,
                });
                self.gid = GidState::Stream(e);
                Ok(e)
            }
            GidState::Reordered => Err(self.diag(op, "thread index after a loop", "elements leave a loop out of order; a fresh tag-ordered stream (thread index or memory read) cannot be joined with them here".into())),
        }
    }

    /// If `l` is `c * global_id + k`, returns `(c, k)`.
    fn gid_affine(&self, l: Lin) -> Option<(i64, i64)> {
        let (grid, block) = (self.opts.grid as i64, self.opts.block as i64);
        if grid == 1 {
            Some((l.tid, l.k))
        } else if block == 1 {
            Some((l.bid, l.k))
        } else if l.bid == l.tid.wrapping_mul(block) {
            Some((l.tid, l.k))
        } else {
            None
        }
    }

    /// A value as an operator input: streams as they are, constants in the
    /// LMU, affine thread indices computed from the `tid` stream.
    fn operand(&mut self, v: Value, op: Op) -> R<Operand> {
        let val = self.val(v, op)?;
        self.operand_of(val, op)
    }

    fn operand_of(&mut self, val: Val, op: Op) -> R<Operand> {
        let line = self.f.ops[op].loc.line;
        match val {
            Val::Const(s, _) => Ok(Operand::Lmu(s)),
            Val::Stream(e) => Ok(Operand::Stream(e)),
            Val::Lin(l) => {
                let gid = self.gid_stream(op)?;
                let block = self.opts.block as i64;
                let (c, k) = match self.gid_affine(l) {
                    Some(ck) => ck,
                    None => {
                        // Split the id into block and thread index.
                        let t = self.add1(NodeKind::Op(ArithOp::SRem), vec![Operand::Stream(gid), Operand::Lmu(Scalar::Int(block))], Ty::I32, line);
                        let gid2 = self.gid_stream(op)?;
                        let b = self.add1(NodeKind::Op(ArithOp::SDiv), vec![Operand::Stream(gid2), Operand::Lmu(Scalar::Int(block))], Ty::I32, line);
                        let t = self.add1(NodeKind::Op(ArithOp::IMul), vec![Operand::Stream(t), Operand::Lmu(Scalar::Int(l.tid))], l.ty, line);
                        let b = self.add1(NodeKind::Op(ArithOp::IMul), vec![Operand::Stream(b), Operand::Lmu(Scalar::Int(l.bid))], l.ty, line);
                        let s = self.add1(NodeKind::Op(ArithOp::IAdd), vec![Operand::Stream(t), Operand::Stream(b)], l.ty, line);
                        let s = self.add1(NodeKind::Op(ArithOp::IAdd), vec![Operand::Stream(s), Operand::Lmu(Scalar::Int(l.k))], l.ty, line);
                        return Ok(Operand::Stream(s));
                    }
                };
                let mut e = gid;
                if l.ty != Ty::I32 {
                    e = self.add1(NodeKind::Op(ArithOp::IntCast), vec![Operand::Stream(e)], l.ty, line);
                }
                if c != 1 {
                    e = self.add1(NodeKind::Op(ArithOp::IMul), vec![Operand::Stream(e), Operand::Lmu(Scalar::Int(c))], l.ty, line);
                }
                if k != 0 {
                    e = self.add1(NodeKind::Op(ArithOp::IAdd), vec![Operand::Stream(e), Operand::Lmu(Scalar::Int(k))], l.ty, line);
                }
                Ok(Operand::Stream(e))
            }
            Val::LinCmp(p, a, b) => {
                let x = self.operand_of(Val::Lin(a), op)?;
                let y = self.operand_of(Val::Lin(b), op)?;
                Ok(Operand::Stream(self.add1(NodeKind::Op(ArithOp::ICmp(p)), vec![x, y], Ty::I1, line)))
            }
            Val::Buffer(_) | Val::Addr(..) | Val::Bytes(..) => Err(self.diag(op, "pointer arithmetic", "a pointer used as a value: only `buffer[thread index + constant]` loads and stores are streams".into())),
        }
    }

    /// A value as a stream, splatting constants once per `trigger` element.
    fn stream_of(&mut self, val: Val, ty: Ty, trigger: Option<EdgeId>, op: Op) -> R<EdgeId> {
        let line = self.f.ops[op].loc.line;
        match self.operand_of(val, op)? {
            Operand::Stream(e) => Ok(e),
            Operand::Lmu(s) => {
                let t = match trigger {
                    Some(t) => t,
                    None => self.gid_stream(op)?,
                };
                Ok(self.add1(
                    NodeKind::Op(ArithOp::Splat),
                    vec![Operand::Stream(t), Operand::Lmu(s)],
                    ty,
                    line,
                ))
            }
        }
    }

    fn val(&self, v: Value, op: Op) -> R<Val> {
        self.env.get(&v).copied().ok_or_else(|| {
            self.diag(
                op,
                "value",
                format!("internal: value {v:?} used before it was lowered"),
            )
        })
    }

    fn lower_region(&mut self, r: Region, later: &HashSet<Value>) -> R<Vec<Value>> {
        let ops = self.f.regions[r].ops.clone();
        for (i, &op) in ops.iter().enumerate() {
            let d = &self.f.ops[op];
            match d.kind {
                OpKind::Yield | OpKind::Condition | OpKind::Return => {
                    return Ok(d.operands.clone());
                }
                _ => {}
            }
            if self.skip.contains(&op) {
                continue;
            }
            let needs_later = !d.regions.is_empty();
            let mut after = HashSet::new();
            if needs_later {
                uses_of(self.f, &ops[i + 1..], &mut after);
                after.extend(later.iter().copied());
            }
            self.lower_op(op, &after)?;
        }
        Ok(Vec::new())
    }

    fn lower_op(&mut self, op: Op, later: &HashSet<Value>) -> R<()> {
        let d = self.f.ops[op].clone();
        let line = d.loc.line;
        let result = d.results.first().copied();
        let set = |s: &mut Self, v: Val| {
            if let Some(r) = result {
                s.env.insert(r, v);
            }
        };
        match d.kind {
            OpKind::Const { bits } => {
                let Some(r) = result else { return Ok(()) };
                let ty = self.ty_of(r)?;
                let s = match ty {
                    Ty::F64 => Scalar::F64(f64::from_bits(bits)),
                    Ty::I1 => Scalar::Int((bits & 1) as i64),
                    Ty::I32 => Scalar::Int(bits as u32 as i32 as i64),
                    Ty::I64 => Scalar::Int(bits as i64),
                };
                set(self, Val::Const(s, ty));
            }
            OpKind::ThreadId(dim) | OpKind::BlockId(dim) => {
                let Some(r) = result else { return Ok(()) };
                let ty = self.ty_of(r)?;
                let v = if dim != Dim::X {
                    Val::Const(Scalar::Int(0), ty)
                } else if matches!(d.kind, OpKind::ThreadId(_)) {
                    Val::Lin(Lin { bid: 0, tid: 1, k: 0, ty })
                } else {
                    Val::Lin(Lin { bid: 1, tid: 0, k: 0, ty })
                };
                set(self, v);
            }
            OpKind::BlockDim(dim) | OpKind::GridDim(dim) => {
                let Some(r) = result else { return Ok(()) };
                let ty = self.ty_of(r)?;
                let n = match (dim, &d.kind) {
                    (Dim::X, OpKind::BlockDim(_)) => self.opts.block,
                    (Dim::X, _) => self.opts.grid,
                    _ => 1,
                };
                set(self, Val::Const(Scalar::Int(n as i64), ty));
            }
            OpKind::Binary(b, _) => {
                let Some(r) = result else { return Ok(()) };
                let ty = self.ty_of(r)?;
                let x = self.val(d.lhs(), op)?;
                let y = self.val(d.rhs(), op)?;
                if b == BinOp::Add {
                    if let Some(v) = byte_address(x, y) {
                        set(self, v);
                        return Ok(());
                    }
                }
                if let Some(v) = self.fold_lin(b, x, y, ty) {
                    set(self, v);
                    return Ok(());
                }
                let Some(aop) = binop(b) else {
                    return Err(self.diag(op, b.name(), "this operation is not in the modelled LPU operator set".into()));
                };
                self.emit(op, aop, &d.operands, ty, line)?;
            }
            OpKind::Unary(UnOp::FNeg) => {
                let Some(r) = result else { return Ok(()) };
                let x = self.operand(d.input(), op)?;
                self.emit_ops(r, op, ArithOp::FMul, vec![x, Operand::Lmu(Scalar::F64(-1.0))], Ty::F64, line)?;
            }
            OpKind::Cmp(p) => {
                if result.is_none() {
                    return Ok(());
                }
                let Some(aop) = pred(p) else {
                    return Err(self.diag(op, &format!("cmp {}", p.name()), "unordered comparisons are not modelled".into()));
                };
                                let (x, y) = (self.val(d.lhs(), op)?, self.val(d.rhs(), op)?);
                match (aop, x.as_lin(), y.as_lin()) {
                    (ArithOp::ICmp(q), Some(a), Some(b)) if x.needs_gid() || y.needs_gid() => {
                        set(self, Val::LinCmp(q, a, b));
                    }
                    _ => self.emit(op, aop, &d.operands, Ty::I1, line)?,
                }
            }
            OpKind::Cast(c) => {
                let Some(r) = result else { return Ok(()) };
                let x = self.val(d.input(), op)?;
                match c {
                    CastOp::SpaceCast => set(self, x),
                    CastOp::IntToPtr | CastOp::PtrToInt if matches!(x, Val::Buffer(_) | Val::Bytes(..)) => set(self, x),
                    CastOp::SExt | CastOp::Trunc | CastOp::ZExt => {
                        let ty = self.ty_of(r)?;
                        let v = match x {
                            Val::Lin(l) if c == CastOp::SExt => Val::Lin(Lin { ty, ..l }),
                            Val::Const(Scalar::Int(v), from) => {
                                let v = if c == CastOp::ZExt && from == Ty::I32 { v as u32 as i64 } else { v };
                                Val::Const(eval(ArithOp::IntCast, &[Scalar::Int(v)], ty), ty)
                            }
                            _ if c == CastOp::ZExt && self.ty_of(d.input())? != Ty::I1 => {
                                return Err(self.diag(op, "zext", "zero extension of a signed stream is not modelled".into()))
                            }
                            _ => {
                                let o = self.operand_of(x, op)?;
                                let e = self.add1(NodeKind::Op(ArithOp::IntCast), vec![o], ty, line);
                                Val::Stream(e)
                            }
                        };
                        set(self, v);
                    }
                    CastOp::SiToFp => self.emit(op, ArithOp::SiToFp, &d.operands, Ty::F64, line)?,
                    CastOp::FpToSi => {
                        let ty = self.ty_of(r)?;
                        self.emit(op, ArithOp::FpToSi, &d.operands, ty, line)?
                    }
                    other => return Err(self.diag(op, other.name(), "this conversion is not modelled".into())),
                }
            }
            OpKind::Select => {
                let Some(r) = result else { return Ok(()) };
                let ty = self.ty_of(r)?;
                let c = self.val(d.cond(), op)?;
                let a = self.val(d.if_true(), op)?;
                let b = self.val(d.if_false(), op)?;
                let v = self.select(op, c, a, b, ty)?;
                set(self, v);
            }
            OpKind::If => self.lower_if(op, later)?,
            OpKind::While => self.lower_while(op, later)?,
            OpKind::For { unsigned } => self.lower_for(op, unsigned, later)?,
            OpKind::PtrIndex { elem } => {
                let Some(r) = result else { return Ok(()) };
                let base = self.val(d.ptr(), op)?;
                let idx = self.val(d.index(), op)?;
                let elem_ok = matches!(self.m.types[elem], Type::Int(32) | Type::Int(64) | Type::Float(FloatKind::F64));
                let v = match (base, idx) {
                    (Val::Buffer(p), Val::Lin(l)) if elem_ok => Val::Addr(p, l),
                    (Val::Buffer(p), Val::Const(Scalar::Int(k), ty)) if elem_ok => Val::Addr(p, Lin { bid: 0, tid: 0, k, ty }),
                    (Val::Buffer(_), _) if elem_ok => return Err(self.diag(op, "gather", "the address depends on computed data, not on the thread index alone: a memory unit streams `buffer[thread index + constant]` only".into())),
                    (Val::Buffer(_), _) => return Err(self.diag(op, "element type", "only i32, i64 and f64 buffers are streamed".into())),
                    _ => return Err(self.diag(op, "pointer arithmetic", "indexing a pointer that is not a kernel buffer parameter".into())),
                };
                let _ = r;
                set(self, v);
            }
            OpKind::Load { .. } => {
                let Some(r) = result else { return Ok(()) };
                let ty = self.ty_of(r)?;
                let (p, off) = self.stream_address(op, d.ptr(), "load", "gather", ty)?;
                if self.loop_depth > 0 {
                    return Err(self.diag(op, "load in a loop", "a memory unit streams each buffer element once per thread, in tag order; reads inside loops are not modelled".into()));
                }
                if self.gid == GidState::Reordered {
                    return Err(self.diag(op, "load after a loop", "elements leave a loop out of order; a fresh tag-ordered memory stream cannot be joined with them here".into()));
                }
                let run = self.plan.get(&p).and_then(|r| r.iter().copied().find(|(lo, hi)| (*lo..=*hi).contains(&off)));
                if let Some((lo, hi)) = run {
                    // One stream for the run, sent `hi - lo` elements
                    // ahead; each offset is a delay line on it.
                    let span = (hi - lo) as u32;
                    let src = match self.runs.get(&(p, lo)) {
                        Some(e) => *e,
                        None => {
                            let name = self.unique(format!("arg{p}[{lo}..={hi}]"));
                            let e = self.g.add1(NodeKind::Source { name: name.clone() }, vec![], ty, line);
                            self.inputs.push(MemStream { name, param: Some(p), offset: lo, ty, lead: span as u64 });
                            self.runs.insert((p, lo), e);
                            e
                        }
                    };
                    let fill = if ty == Ty::F64 { Scalar::F64(0.0) } else { Scalar::Int(0) };
                    let depth = (hi - off) as u32;
                    let e = self.add1(NodeKind::Delay { depth, fill, skip: span }, vec![Operand::Stream(src)], ty, line);
                    set(self, Val::Stream(e));
                    return Ok(());
                }
                let name = format!("arg{p}{}", if off == 0 { String::new() } else { format!("{off:+}") });
                let name = self.unique(name);
                let e = self.g.add1(NodeKind::Source { name: name.clone() }, vec![], ty, line);
                self.inputs.push(MemStream { name, param: Some(p), offset: off, ty, lead: 0 });
                set(self, Val::Stream(e));
            }
            OpKind::Store { .. } => {
                let stored = self.ty_of(d.value())?;
                let (p, off) = self.stream_address(op, d.ptr(), "store", "scatter", stored)?;
                if self.loop_depth > 0 {
                    return Err(self.diag(op, "store in a loop", "repeated writes are not lowered; the memory unit receives at most one element per thread and store".into()));
                }
                let guard = match self.guard {
                    None => None,
                    Some(Val::Const(g, _)) if crate::sim::truth(g) => None,
                    // A store under a condition no thread meets.
                    Some(Val::Const(..)) => return Ok(()),
                    Some(g) => Some(g),
                };
                let ty = self.ty_of(d.value())?;
                let v = self.val(d.value(), op)?;
                let mut e = self.stream_of(v, ty, None, op)?;
                if let Some(g) = guard {
                    // Conditional write: the element goes to the memory
                    // unit only where the guard holds.
                    let gs = self.stream_of(g, Ty::I1, None, op)?;
                    let (_, so) = self.add(NodeKind::Split, vec![Operand::Stream(gs), Operand::Stream(e)], &[ty, ty], line);
                    self.add(NodeKind::Discard, vec![Operand::Stream(so[1])], &[], line);
                    e = so[0];
                }
                let name = self.unique(format!("arg{p}{}", if off == 0 { String::new() } else { format!("{off:+}") }));
                self.add(NodeKind::Sink { name: name.clone(), sort: true }, vec![Operand::Stream(e)], &[], line);
                self.outputs.push(MemStream { name, param: Some(p), offset: off, ty, lead: 0 });
            }
            OpKind::Call(cucc_ir::Callee::Extern(ref name)) if name == "fma" && d.operands.len() == 3 => {
                let Some(r) = result else { return Ok(()) };
                let ty = self.ty_of(r)?;
                self.emit(op, ArithOp::Fma, &d.operands, ty, line)?;
            }
            OpKind::AtomicRmw { .. } | OpKind::AtomicCas { .. } => return Err(self.diag(op, "atomic", "atomics need a shared read-modify-write memory; RACER's memory units stream and sort".into())),
            OpKind::Barrier(_) | OpKind::BarrierReduce(_) => return Err(self.diag(op, "barrier", "threads are elements of one stream; there is no block to synchronise".into())),
            OpKind::Shuffle(_) | OpKind::Vote(_) | OpKind::ActiveMask | OpKind::LaneId | OpKind::WarpSize => return Err(self.diag(op, "warp function", "there are no warps on a stream processor".into())),
            OpKind::DynamicShared => return Err(self.diag(op, "shared memory", "threads are elements of one stream; there is no per-block memory".into())),
            OpKind::GlobalAddr(gl) if self.m.globals[gl].space == cucc_ir::Space::Shared => return Err(self.diag(op, "shared memory", "threads are elements of one stream; there is no per-block memory".into())),
            OpKind::Alloca { .. } | OpKind::GlobalAddr(_) => return Err(self.diag(op, "memory object", "globals and private arrays are not modelled: only kernel buffer parameters, streamed by memory units".into())),
            ref k => return Err(self.diag(op, &format!("{k:?}").chars().take_while(|c| c.is_alphanumeric()).collect::<String>(), "not modelled by the RACER lowering".into())),
        }
        Ok(())
    }

    fn unique(&self, base: String) -> String {
        let taken = |n: &str| self.inputs.iter().chain(&self.outputs).any(|s| s.name == n);
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|k| format!("{base}#{k}"))
            .find(|n| !taken(n))
            .unwrap_or(base)
    }

    fn stream_address(
        &self,
        op: Op,
        ptr: Value,
        what: &str,
        gather: &str,
        ty: Ty,
    ) -> R<(usize, i64)> {
        let mut v = self.val(ptr, op)?;
        if let Val::Bytes(p, l) = v {
            let size = match ty {
                Ty::I1 => 1,
                Ty::I32 => 4,
                Ty::I64 | Ty::F64 => 8,
            };
            if l.bid % size != 0 || l.tid % size != 0 || l.k % size != 0 {
                return Err(self.diag(op, gather, format!("the {what} byte address is not a whole number of {size}-byte elements from the buffer")));
            }
            v = Val::Addr(
                p,
                Lin {
                    bid: l.bid / size,
                    tid: l.tid / size,
                    k: l.k / size,
                    ty: l.ty,
                },
            );
        }
        match v {
            Val::Addr(p, l) => match self.gid_affine(l) {
                Some((1, k)) => Ok((p, k)),
                Some((0, _)) => Err(self.diag(op, &format!("uniform {what}"), format!("every thread would {what} the same element; a memory unit streams one element per thread"))),
                _ => Err(self.diag(op, gather, format!("the {what} address is not `thread index + constant`: a memory unit streams consecutive elements in tag order"))),
            },
            Val::Buffer(_) => Err(self.diag(op, &format!("uniform {what}"), format!("every thread would {what} the same element; a memory unit streams one element per thread"))),
            _ => Err(self.diag(op, gather, format!("the {what} address is computed from data"))),
        }
    }

    /// Integer arithmetic on thread-index expressions and constants, done
    /// at lowering time.
    fn fold_lin(&self, b: BinOp, x: Val, y: Val, ty: Ty) -> Option<Val> {
        if let (Val::Const(a, _), Val::Const(c, _)) = (x, y) {
            let aop = binop(b)?;
            return Some(Val::Const(eval(aop, &[a, c], ty), ty));
        }
        let (a, c) = (x.as_lin()?, y.as_lin()?);
        let is_const = |l: Lin| l.bid == 0 && l.tid == 0;
        let out = match b {
            BinOp::Add => Lin {
                bid: a.bid + c.bid,
                tid: a.tid + c.tid,
                k: a.k + c.k,
                ty,
            },
            BinOp::Sub => Lin {
                bid: a.bid - c.bid,
                tid: a.tid - c.tid,
                k: a.k - c.k,
                ty,
            },
            BinOp::Mul if is_const(c) => Lin {
                bid: a.bid * c.k,
                tid: a.tid * c.k,
                k: a.k * c.k,
                ty,
            },
            BinOp::Mul if is_const(a) => Lin {
                bid: c.bid * a.k,
                tid: c.tid * a.k,
                k: c.k * a.k,
                ty,
            },
            _ => return None,
        };
        Some(Val::Lin(out))
    }

    fn emit(&mut self, op: Op, aop: ArithOp, operands: &[Value], ty: Ty, line: u32) -> R<()> {
        let r = self.f.ops[op].results[0];
        let vals: Vec<Val> = operands
            .iter()
            .map(|v| self.val(*v, op))
            .collect::<R<_>>()?;
        if vals.iter().all(|v| matches!(v, Val::Const(..))) {
            let s: Vec<Scalar> = vals
                .iter()
                .map(|v| match v {
                    Val::Const(s, _) => *s,
                    _ => Scalar::Int(0),
                })
                .collect();
            self.env.insert(r, Val::Const(eval(aop, &s, ty), ty));
            return Ok(());
        }
        let ins: Vec<Operand> = vals
            .into_iter()
            .map(|v| self.operand_of(v, op))
            .collect::<R<_>>()?;
        self.emit_ops(r, op, aop, ins, ty, line)
    }

    fn emit_ops(
        &mut self,
        r: Value,
        _op: Op,
        aop: ArithOp,
        ins: Vec<Operand>,
        ty: Ty,
        line: u32,
    ) -> R<()> {
        let e = self.add1(NodeKind::Op(aop), ins, ty, line);
        self.env.insert(r, Val::Stream(e));
        Ok(())
    }

    /// `x aop y` on booleans: a select with a constant arm is a logic op.
    fn bool_op(&mut self, aop: ArithOp, x: Val, y: Val, op: Op, line: u32) -> R<Val> {
        let (p, q) = (self.operand_of(x, op)?, self.operand_of(y, op)?);
        Ok(Val::Stream(self.add1(
            NodeKind::Op(aop),
            vec![p, q],
            Ty::I1,
            line,
        )))
    }

    fn select(&mut self, op: Op, c: Val, a: Val, b: Val, ty: Ty) -> R<Val> {
        let line = self.f.ops[op].loc.line;
        if let Val::Const(s, _) = c {
            return Ok(if crate::sim::truth(s) { a } else { b });
        }
        if a == b {
            return Ok(a);
        }
        if ty == Ty::I1 {
            // Booleans: `c ? x : false` is `c and x`, `c ? true : y` is `c or y`.
            if b == Val::Const(Scalar::Int(0), Ty::I1) {
                return self.bool_op(ArithOp::And, c, a, op, line);
            }
            if a == Val::Const(Scalar::Int(1), Ty::I1) {
                return self.bool_op(ArithOp::Or, c, b, op, line);
            }
        }
        // `c ? 1 : 0` on integers is `c` widened (PTX's `selp` after a
        // compare): a conversion, not a select on the integer ALU.
        if ty != Ty::F64
            && matches!(a, Val::Const(Scalar::Int(1), _))
            && matches!(b, Val::Const(Scalar::Int(0), _))
        {
            let p = self.operand_of(c, op)?;
            return Ok(Val::Stream(self.add1(
                NodeKind::Op(ArithOp::IntCast),
                vec![p],
                ty,
                line,
            )));
        }
        let ins = vec![
            self.operand_of(c, op)?,
            self.operand_of(a, op)?,
            self.operand_of(b, op)?,
        ];
        Ok(Val::Stream(self.add1(
            NodeKind::Op(ArithOp::Select),
            ins,
            ty,
            line,
        )))
    }

    fn lower_if(&mut self, op: Op, later: &HashSet<Value>) -> R<()> {
        let d = self.f.ops[op].clone();
        if self.bounds_guard(op, later)? {
            return Ok(());
        }
        let split = self.opts.split_branches && !matches!(self.val(d.cond(), op)?, Val::Const(..));
        let stores_ok = !split && self.loop_depth == 0;
        let mut stores = false;
        for &r in &d.regions {
            for &o in &self.f.regions[r].ops {
                let k = &self.f.ops[o].kind;
                // Reads in if-converted arms happen for every thread
                // (speculatively); a read outside its buffer is an error
                // when the buffers are bound.
                let store = matches!(
                    k,
                    OpKind::Store { .. } | OpKind::PtrIndex { .. } | OpKind::Load { .. }
                );
                stores |= store;
                let pure = (stores_ok && store) || computes(k);
                if !pure {
                    return Err(self.diag(op, "if", format!(
                        "only branches whose arms compute values are lowered (to selects); this arm has a `{}` at {}",
                        format!("{k:?}").chars().take_while(|c| c.is_alphanumeric()).collect::<String>(),
                        self.m.describe_loc(self.f.ops[o].loc)
                    )));
                }
            }
        }
        if split {
            return self.lower_if_split(op, later);
        }
        let c = self.val(d.cond(), op)?;
        let outer = self.guard;
        let guards = if stores {
            let not_c = match c {
                Val::Const(s, ty) => Val::Const(Scalar::Int(i64::from(!crate::sim::truth(s))), ty),
                _ => {
                    let x = self.operand_of(c, op)?;
                    let line = d.loc.line;
                    Val::Stream(self.add1(
                        NodeKind::Op(ArithOp::Xor),
                        vec![x, Operand::Lmu(Scalar::Int(1))],
                        Ty::I1,
                        line,
                    ))
                }
            };
            let fals = Val::Const(Scalar::Int(0), Ty::I1);
            let both = |s: &mut Self, g: Val| -> R<Val> {
                match outer {
                    None => Ok(g),
                    Some(o) => s.select(op, o, g, fals, Ty::I1),
                }
            };
            (Some(both(self, c)?), Some(both(self, not_c)?))
        } else {
            (outer, outer)
        };
        self.depth += 1;
        self.guard = guards.0;
        let then_vals = self.lower_region(d.then_region(), later)?;
        self.guard = guards.1;
        let else_vals = self.lower_region(d.else_region(), later)?;
        self.guard = outer;
        self.depth -= 1;
        for (k, &r) in d.results.iter().enumerate() {
            let ty = self.ty_of(r)?;
            let a = self.val(then_vals[k], op)?;
            let b = self.val(else_vals[k], op)?;
            let v = self.select(op, c, a, b, ty)?;
            self.env.insert(r, v);
        }
        Ok(())
    }
}

impl<'a> Lowerer<'a> {
    /// `if (i < n) { ... }` with `i` a thread index, `n` known and nothing
    /// after it: the threads that take the branch are a prefix of the
    /// launch, so the memory units generate only those indices and the
    /// arm runs unconditionally. Also the inverted form PTX gives,
    /// `if (i >= n) {} else { ... }`. Returns whether the `if` was one.
    fn bounds_guard(&mut self, op: Op, later: &HashSet<Value>) -> R<bool> {
        let d = self.f.ops[op].clone();
        let Ok(Val::LinCmp(p, a, b)) = self.val(d.cond(), op) else {
            return Ok(false);
        };
        let (then_r, else_r) = (d.then_region(), d.else_region());
        let empty = |r: Region| self.f.regions[r].ops.len() == 1;
        // The arm that runs, and whether it runs where the condition fails.
        let (arm, inverted) = match (empty(then_r), empty(else_r)) {
            (_, true) => (then_r, false),
            (true, false) => (else_r, true),
            (false, false) => return Ok(false),
        };
        if !d.results.is_empty() || !later.is_empty() || self.depth > 0 || !self.outputs.is_empty()
        {
            return Ok(false);
        }
        let block = self.opts.block as i64;
        let at = |l: Lin, t: i64| l.bid * (t / block) + l.tid * (t % block) + l.k;
        let taken = |t: i64| {
            let (x, y) = (at(a, t), at(b, t));
            inverted
                != match p {
                    Pred::Lt => x < y,
                    Pred::Le => x <= y,
                    Pred::Gt => x > y,
                    Pred::Ge => x >= y,
                    Pred::Eq => x == y,
                    Pred::Ne => x != y,
                }
        };
        let n = self.active as i64;
        let k = (0..n).find(|&t| !taken(t)).unwrap_or(n);
        if (k..n).any(taken) {
            return Ok(false);
        }
        self.active = k as u64;
        self.lower_region(arm, later)?;
        Ok(true)
    }
}

mod loop_lanes;
mod route;
