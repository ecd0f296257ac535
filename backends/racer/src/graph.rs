//! The stream-graph IR: what a RACER program is before placement.
//!
//! A graph is a set of nodes joined by single-consumer streams (edges).
//! Every element on a stream carries a tag (the thread id it belongs to)
//! and one scalar. Nodes and edges live in two arenas addressed by typed
//! handles, as in `cucc-ir`. Constants are not streams: they are operands
//! held in the consuming PE's LMU (thesis L1007).

use std::collections::BTreeMap;
use std::fmt;

/// A node handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// A stream (edge) handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeId(pub u32);

/// Element types. Booleans travel as `i1` (the thesis encodes them as
/// floats, L966; the difference is invisible to the graph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// Boolean.
    I1,
    /// 32-bit integer (arithmetic wraps at 32 bits).
    I32,
    /// 64-bit integer.
    I64,
    /// Double precision.
    F64,
}

impl Ty {
    /// Its text name.
    pub fn name(self) -> &'static str {
        match self {
            Ty::I1 => "i1",
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::F64 => "f64",
        }
    }

    fn from_name(s: &str) -> Option<Ty> {
        [Ty::I1, Ty::I32, Ty::I64, Ty::F64]
            .into_iter()
            .find(|t| t.name() == s)
    }
}

/// A value on a stream or in an LMU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// Any integer type (and `i1` as 0/1).
    Int(i64),
    /// A double.
    F64(f64),
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Int(v) => write!(f, "{v}"),
            // `{:?}` keeps a `.0` so the parser can tell the kinds apart.
            Scalar::F64(v) => write!(f, "{v:?}"),
        }
    }
}

/// An operator input: a stream, or a constant in the PE's LMU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// The head of a stream.
    Stream(EdgeId),
    /// A constant (never consumed).
    Lmu(Scalar),
}

/// Comparison predicates (signed for integers, ordered for floats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pred {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// Arithmetic and logic operators of a PE's LPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// FP add.
    FAdd,
    /// FP subtract.
    FSub,
    /// FP multiply.
    FMul,
    /// FP divide.
    FDiv,
    /// Fused multiply-add `a * b + c`, one rounding (the PE's multiply-add;
    /// nvcc contracts `a * b + c` into it).
    Fma,
    /// Multiply-add `a * b + c` with the product rounded before the add:
    /// the PE's multiplier feeding its adder (L896, L1035), the same bits
    /// as the two operations written apart.
    FMulAdd,
    /// Integer add.
    IAdd,
    /// Integer subtract.
    ISub,
    /// Integer multiply.
    IMul,
    /// Signed integer divide (by zero gives 0: the PE has no traps).
    SDiv,
    /// Signed remainder (by zero gives 0).
    SRem,
    /// Integer compare.
    ICmp(Pred),
    /// FP compare (ordered).
    FCmp(Pred),
    /// Unsigned integer compare.
    UCmp(Pred),
    /// Boolean and.
    And,
    /// Boolean or.
    Or,
    /// Boolean exclusive or.
    Xor,
    /// `(c, a, b) -> c ? a : b`: the select form of a conditional branch.
    Select,
    /// Signed int to double.
    SiToFp,
    /// Double to signed int (truncating).
    FpToSi,
    /// Re-type an integer (sign-extend or truncate to the result type).
    IntCast,
    /// `(trigger, k) -> k`: an LMU constant emitted once per trigger
    /// element with its tag (initial values of loop variables).
    Splat,
}

impl ArithOp {
    /// The text mnemonic.
    pub fn mnemonic(self) -> String {
        let p = |p: Pred| match p {
            Pred::Lt => "lt",
            Pred::Le => "le",
            Pred::Gt => "gt",
            Pred::Ge => "ge",
            Pred::Eq => "eq",
            Pred::Ne => "ne",
        };
        match self {
            ArithOp::FAdd => "fadd".into(),
            ArithOp::FSub => "fsub".into(),
            ArithOp::FMul => "fmul".into(),
            ArithOp::FDiv => "fdiv".into(),
            ArithOp::Fma => "fma".into(),
            ArithOp::FMulAdd => "fmuladd".into(),
            ArithOp::IAdd => "iadd".into(),
            ArithOp::ISub => "isub".into(),
            ArithOp::IMul => "imul".into(),
            ArithOp::SDiv => "sdiv".into(),
            ArithOp::SRem => "srem".into(),
            ArithOp::ICmp(q) => format!("icmp.{}", p(q)),
            ArithOp::FCmp(q) => format!("fcmp.{}", p(q)),
            ArithOp::UCmp(q) => format!("ucmp.{}", p(q)),
            ArithOp::And => "and".into(),
            ArithOp::Or => "or".into(),
            ArithOp::Xor => "xor".into(),
            ArithOp::Select => "select".into(),
            ArithOp::SiToFp => "sitofp".into(),
            ArithOp::FpToSi => "fptosi".into(),
            ArithOp::IntCast => "intcast".into(),
            ArithOp::Splat => "splat".into(),
        }
    }

    fn from_mnemonic(s: &str) -> Option<ArithOp> {
        let simple = [
            ArithOp::FAdd,
            ArithOp::FSub,
            ArithOp::FMul,
            ArithOp::FDiv,
            ArithOp::Fma,
            ArithOp::FMulAdd,
            ArithOp::IAdd,
            ArithOp::ISub,
            ArithOp::IMul,
            ArithOp::SDiv,
            ArithOp::SRem,
            ArithOp::And,
            ArithOp::Or,
            ArithOp::Xor,
            ArithOp::Select,
            ArithOp::SiToFp,
            ArithOp::FpToSi,
            ArithOp::IntCast,
            ArithOp::Splat,
        ];
        if let Some(op) = simple.into_iter().find(|o| o.mnemonic() == s) {
            return Some(op);
        }
        let preds = [Pred::Lt, Pred::Le, Pred::Gt, Pred::Ge, Pred::Eq, Pred::Ne];
        preds
            .into_iter()
            .flat_map(|p| [ArithOp::ICmp(p), ArithOp::FCmp(p), ArithOp::UCmp(p)])
            .find(|o| o.mnemonic() == s)
    }

    /// Number of operands.
    pub fn arity(self) -> usize {
        match self {
            ArithOp::Select | ArithOp::Fma | ArithOp::FMulAdd => 3,
            ArithOp::SiToFp | ArithOp::FpToSi | ArithOp::IntCast => 1,
            _ => 2,
        }
    }

    /// The resource class of the thesis' table this operator uses.
    pub fn class(self) -> &'static str {
        match self {
            ArithOp::FAdd => "fadd",
            ArithOp::FSub => "fsub",
            // The multiply-adds run on the multiplier (assumed: the thesis
            // counts one multiply-add per PE, L1035, L1041).
            ArithOp::FMul | ArithOp::FDiv | ArithOp::Fma | ArithOp::FMulAdd => "fmul",
            ArithOp::IAdd | ArithOp::ISub | ArithOp::IMul | ArithOp::SDiv | ArithOp::SRem => "iadd",
            ArithOp::ICmp(_) | ArithOp::FCmp(_) | ArithOp::UCmp(_) => "compare",
            ArithOp::And | ArithOp::Or | ArithOp::Xor | ArithOp::Select => "logic",
            ArithOp::SiToFp | ArithOp::FpToSi | ArithOp::IntCast => "convert",
            ArithOp::Splat => "const",
        }
    }
}

/// What a node does. Port conventions are given per kind.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A memory-unit stream entering the array: no inputs, one output,
    /// elements in the order the MU sends them.
    Source {
        /// The stream's name (bound to data when simulating).
        name: String,
    },
    /// A stream returning to a memory unit: one input. With `sort`, the MU
    /// stores elements by tag, so the stored result is in tag order
    /// whatever order they arrived in.
    Sink {
        /// The stream's name.
        name: String,
        /// Re-sort by tag in the MU.
        sort: bool,
    },
    /// Drops every element (results nobody reads, thesis L1012).
    Discard,
    /// An LPU operator: fires when every stream operand is present and the
    /// output is free.
    Op(ArithOp),
    /// Copy branch: one input, `n` outputs, all written at once.
    Copy,
    /// Explicit synchronisation: `n` inputs, `n` outputs, passed on
    /// together when all are present and all outputs free.
    Sync,
    /// Conditional branch (route form): inputs `[cond, d0..dn)`, outputs
    /// `[t0..tn, f0..fn)`; each element group goes to one side.
    Split,
    /// PHI merge of `n` lanes: inputs `[p0..pn, o0..on)`, outputs
    /// `[q0..qn)`. The `p` group (loop feedback) has priority: while any
    /// `p` lane holds an element the `o` group waits (thesis L1005).
    Merge,
    /// A delay line of `depth` elements: emits the value that entered
    /// `depth` elements earlier (`fill` for the first `depth`), with the
    /// tag of the element entering now, and drops its first `skip`
    /// outputs (elements that only prime the line).
    Delay {
        /// Elements of delay (0 only with a skip).
        depth: u32,
        /// Value emitted before the line is full.
        fill: Scalar,
        /// Leading outputs dropped.
        skip: u32,
    },
}

/// A node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What it does.
    pub kind: NodeKind,
    /// Its inputs, in port order.
    pub inputs: Vec<Operand>,
    /// Its output streams, in port order.
    pub outputs: Vec<EdgeId>,
    /// Source line of the kernel construct it came from (0: none).
    pub line: u32,
}

/// A stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// Element type.
    pub ty: Ty,
    /// Producer and output port.
    pub from: (NodeId, u32),
    /// Pipeline registers on the route, beyond the producer's own stages
    /// (placement sets this; 1 before placement).
    pub route_stages: u32,
}

/// A stream graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// Its name (the kernel's).
    pub name: String,
    /// Nodes.
    pub nodes: Vec<Node>,
    /// Edges.
    pub edges: Vec<Edge>,
}

impl Graph {
    /// An empty graph.
    pub fn new(name: &str) -> Graph {
        Graph {
            name: name.to_string(),
            ..Graph::default()
        }
    }

    /// Adds a node with outputs of types `outs`; returns it and its output
    /// streams.
    pub fn add(
        &mut self,
        kind: NodeKind,
        inputs: Vec<Operand>,
        outs: &[Ty],
        line: u32,
    ) -> (NodeId, Vec<EdgeId>) {
        let id = NodeId(self.nodes.len() as u32);
        let outputs: Vec<EdgeId> = outs
            .iter()
            .enumerate()
            .map(|(port, &ty)| {
                let e = EdgeId(self.edges.len() as u32);
                self.edges.push(Edge {
                    ty,
                    from: (id, port as u32),
                    route_stages: 1,
                });
                e
            })
            .collect();
        self.nodes.push(Node {
            kind,
            inputs,
            outputs: outputs.clone(),
            line,
        });
        (id, outputs)
    }

    /// Adds a one-output node and returns the output stream.
    pub fn add1(&mut self, kind: NodeKind, inputs: Vec<Operand>, ty: Ty, line: u32) -> EdgeId {
        let (_, outs) = self.add(kind, inputs, &[ty], line);
        outs[0]
    }

    /// The node.
    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n.0 as usize]
    }

    /// The edge.
    pub fn edge(&self, e: EdgeId) -> &Edge {
        &self.edges[e.0 as usize]
    }

    /// Node handles in order.
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The consumer (node, input port) of every edge that has one.
    pub fn consumers(&self) -> Vec<Vec<(NodeId, u32)>> {
        let mut c = vec![Vec::new(); self.edges.len()];
        for id in self.node_ids() {
            for (port, op) in self.node(id).inputs.iter().enumerate() {
                if let Operand::Stream(e) = op {
                    if let Some(slot) = c.get_mut(e.0 as usize) {
                        slot.push((id, port as u32));
                    }
                }
            }
        }
        c
    }

    /// The type of an operand.
    pub fn operand_ty(&self, o: &Operand) -> Option<Ty> {
        match o {
            Operand::Stream(e) => self.edges.get(e.0 as usize).map(|e| e.ty),
            Operand::Lmu(Scalar::F64(_)) => Some(Ty::F64),
            Operand::Lmu(Scalar::Int(_)) => None,
        }
    }

    /// Resource use by class, as in the thesis' table: `branch` and
    /// `merge` count lanes, `sync` counts explicit synchronisation lanes.
    pub fn resource_counts(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for n in &self.nodes {
            let (class, k) = match &n.kind {
                NodeKind::Op(op) => (op.class(), 1),
                NodeKind::Split => ("branch", n.outputs.len() / 2),
                NodeKind::Merge => ("merge", n.outputs.len()),
                NodeKind::Sync => ("sync", n.outputs.len()),
                NodeKind::Copy => ("copy", 1),
                NodeKind::Delay { .. } => ("delay", 1),
                NodeKind::Source { .. } => ("source", 1),
                NodeKind::Sink { .. } => ("sink", 1),
                NodeKind::Discard => ("discard", 1),
            };
            *m.entry(class).or_insert(0) += k;
        }
        m
    }

    /// Drops the nodes marked in `dead` and their output streams, which
    /// nothing may still consume; returns each old node's new handle.
    pub fn remove_nodes(&mut self, dead: &[bool]) -> Vec<Option<NodeId>> {
        let mut node_map = Vec::with_capacity(self.nodes.len());
        let mut next = 0u32;
        for i in 0..self.nodes.len() {
            if dead.get(i).copied().unwrap_or(false) {
                node_map.push(None);
            } else {
                node_map.push(Some(NodeId(next)));
                next += 1;
            }
        }
        let mut edge_map = Vec::with_capacity(self.edges.len());
        let mut kept = Vec::new();
        for e in &self.edges {
            match node_map[e.from.0 .0 as usize] {
                Some(n) => {
                    edge_map.push(Some(EdgeId(kept.len() as u32)));
                    kept.push(Edge {
                        from: (n, e.from.1),
                        ..e.clone()
                    });
                }
                None => edge_map.push(None),
            }
        }
        let remap = |e: EdgeId| edge_map[e.0 as usize].unwrap_or(EdgeId(u32::MAX));
        let nodes = std::mem::take(&mut self.nodes);
        for (i, mut n) in nodes.into_iter().enumerate() {
            if node_map[i].is_none() {
                continue;
            }
            for o in &mut n.inputs {
                if let Operand::Stream(e) = o {
                    *e = remap(*e);
                }
            }
            for e in &mut n.outputs {
                *e = remap(*e);
            }
            self.nodes.push(n);
        }
        self.edges = kept;
        node_map
    }
}

/// A verifier error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The node at fault, if one.
    pub node: Option<NodeId>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node {
            Some(n) => write!(f, "node n{}: {}", n.0, self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Checks port counts, types and that every stream has exactly one
/// consumer.
pub fn verify(g: &Graph) -> Result<(), VerifyError> {
    let fail = |n: NodeId, message: String| VerifyError {
        node: Some(n),
        message,
    };
    for (i, e) in g.edges.iter().enumerate() {
        let (n, port) = e.from;
        let ok = g
            .nodes
            .get(n.0 as usize)
            .is_some_and(|node| node.outputs.get(port as usize) == Some(&EdgeId(i as u32)));
        if !ok {
            return Err(VerifyError {
                node: None,
                message: format!("stream s{i} is not output {port} of n{}", n.0),
            });
        }
    }
    for (i, c) in g.consumers().iter().enumerate() {
        if c.len() != 1 {
            let (n, _) = g.edges[i].from;
            return Err(fail(
                n,
                format!(
                    "stream s{i} has {} consumers (a stream has exactly one; fan out with copy)",
                    c.len()
                ),
            ));
        }
    }
    for id in g.node_ids() {
        let n = g.node(id);
        for (k, e) in n.outputs.iter().enumerate() {
            if g.edges.get(e.0 as usize).map(|ed| ed.from) != Some((id, k as u32)) {
                return Err(fail(
                    id,
                    format!("output {k} (s{}) is not a stream this node produces", e.0),
                ));
            }
        }
        for op in &n.inputs {
            if let Operand::Stream(e) = op {
                if e.0 as usize >= g.edges.len() {
                    return Err(fail(id, format!("input s{} does not exist", e.0)));
                }
            }
        }
        let ins = n.inputs.len();
        let outs = n.outputs.len();
        let ity = |k: usize| g.operand_ty(&n.inputs[k]);
        let oty = |k: usize| g.edge(n.outputs[k]).ty;
        let streams = n
            .inputs
            .iter()
            .filter(|o| matches!(o, Operand::Stream(_)))
            .count();
        match &n.kind {
            NodeKind::Source { .. } => {
                if ins != 0 || outs != 1 {
                    return Err(fail(id, "source takes no input and has one output".into()));
                }
            }
            NodeKind::Sink { .. } | NodeKind::Discard => {
                if ins != 1 || outs != 0 || streams != 1 {
                    return Err(fail(id, "sink takes one stream and has no output".into()));
                }
            }
            NodeKind::Op(op) => {
                if ins != op.arity() || outs != 1 {
                    return Err(fail(
                        id,
                        format!(
                            "{} takes {} operands and has one output",
                            op.mnemonic(),
                            op.arity()
                        ),
                    ));
                }
                if streams == 0 {
                    return Err(fail(
                        id,
                        format!(
                            "{} has no stream operand: nothing would trigger it",
                            op.mnemonic()
                        ),
                    ));
                }
                check_op_types(*op, &ity, oty(0)).map_err(|m| fail(id, m))?;
            }
            NodeKind::Copy => {
                if ins != 1 || outs < 2 || streams != 1 {
                    return Err(fail(
                        id,
                        "copy takes one stream and has at least two outputs".into(),
                    ));
                }
                if (0..outs).any(|k| Some(oty(k)) != ity(0)) {
                    return Err(fail(id, "copy outputs must have the input's type".into()));
                }
            }
            NodeKind::Sync => {
                if ins != outs || ins < 2 || streams != ins {
                    return Err(fail(
                        id,
                        "sync takes n >= 2 streams and has n outputs".into(),
                    ));
                }
                if (0..outs).any(|k| Some(oty(k)) != ity(k)) {
                    return Err(fail(id, "sync output types must match its inputs".into()));
                }
            }
            NodeKind::Split => {
                let lanes = ins.saturating_sub(1);
                if ins < 2 || outs != 2 * lanes || streams != ins {
                    return Err(fail(
                        id,
                        "split takes [cond, n data streams] and has 2n outputs".into(),
                    ));
                }
                if ity(0) != Some(Ty::I1) {
                    return Err(fail(id, "split condition must be i1".into()));
                }
                for k in 0..lanes {
                    if Some(oty(k)) != ity(k + 1) || Some(oty(k + lanes)) != ity(k + 1) {
                        return Err(fail(
                            id,
                            format!("split lane {k}: output types must match the input"),
                        ));
                    }
                }
            }
            NodeKind::Merge => {
                if ins != 2 * outs || outs == 0 || streams != ins {
                    return Err(fail(
                        id,
                        "merge takes 2n streams (priority, other) and has n outputs".into(),
                    ));
                }
                for k in 0..outs {
                    if ity(k) != Some(oty(k)) || ity(k + outs) != Some(oty(k)) {
                        return Err(fail(
                            id,
                            format!("merge lane {k}: input and output types differ"),
                        ));
                    }
                }
            }
            NodeKind::Delay { depth, skip, .. } => {
                if ins != 1 || outs != 1 || streams != 1 || (*depth == 0 && *skip == 0) {
                    return Err(fail(
                        id,
                        "delay takes one stream, has one output and a depth or a skip".into(),
                    ));
                }
                if Some(oty(0)) != ity(0) {
                    return Err(fail(id, "delay output type must match its input".into()));
                }
            }
        }
    }
    Ok(())
}

fn check_op_types(op: ArithOp, ity: &dyn Fn(usize) -> Option<Ty>, out: Ty) -> Result<(), String> {
    let is_int = |t: Option<Ty>| t != Some(Ty::F64);
    let name = op.mnemonic();
    let want = |ok: bool, what: &str| {
        if ok {
            Ok(())
        } else {
            Err(format!("{name}: {what}"))
        }
    };
    match op {
        ArithOp::FAdd | ArithOp::FSub | ArithOp::FMul | ArithOp::FDiv => want(
            ity(0) == Some(Ty::F64) && ity(1) == Some(Ty::F64) && out == Ty::F64,
            "operands and result must be f64",
        ),
        ArithOp::IAdd | ArithOp::ISub | ArithOp::IMul | ArithOp::SDiv | ArithOp::SRem => want(
            is_int(ity(0)) && is_int(ity(1)) && out != Ty::F64,
            "operands and result must be integers",
        ),
        ArithOp::Fma | ArithOp::FMulAdd => want(
            ity(0) == Some(Ty::F64)
                && ity(1) == Some(Ty::F64)
                && ity(2) == Some(Ty::F64)
                && out == Ty::F64,
            "operands and result must be f64",
        ),
        ArithOp::ICmp(_) | ArithOp::UCmp(_) => want(
            is_int(ity(0)) && is_int(ity(1)) && out == Ty::I1,
            "integer operands, i1 result",
        ),
        ArithOp::FCmp(_) => want(
            ity(0) == Some(Ty::F64) && ity(1) == Some(Ty::F64) && out == Ty::I1,
            "f64 operands, i1 result",
        ),
        ArithOp::And | ArithOp::Or | ArithOp::Xor => want(
            is_int(ity(0)) && is_int(ity(1)) && out != Ty::F64,
            "integer operands and result",
        ),
        ArithOp::Select => want(
            matches!(ity(0), Some(Ty::I1) | None)
                && (ity(1).is_none() || ity(1) == Some(out))
                && (ity(2).is_none() || ity(2) == Some(out)),
            "(i1, T, T) -> T",
        ),
        ArithOp::SiToFp => want(is_int(ity(0)) && out == Ty::F64, "integer to f64"),
        ArithOp::FpToSi => want(ity(0) == Some(Ty::F64) && out != Ty::F64, "f64 to integer"),
        ArithOp::IntCast => want(is_int(ity(0)) && out != Ty::F64, "integer to integer"),
        ArithOp::Splat => want(
            (ity(1).is_none() && out != Ty::F64) || ity(1) == Some(out),
            "the constant must have the result type",
        ),
    }
}

// ---- text -------------------------------------------------------------

fn kind_text(k: &NodeKind) -> String {
    match k {
        NodeKind::Source { name } => format!("source {}", quote(name)),
        NodeKind::Sink { name, sort } => {
            format!("sink {}{}", quote(name), if *sort { " sorted" } else { "" })
        }
        NodeKind::Discard => "discard".into(),
        NodeKind::Op(op) => op.mnemonic(),
        NodeKind::Copy => "copy".into(),
        NodeKind::Sync => "sync".into(),
        NodeKind::Split => "split".into(),
        NodeKind::Merge => "merge".into(),
        NodeKind::Delay { depth, fill, skip } => {
            if *skip == 0 {
                format!("delay {depth} fill {fill}")
            } else {
                format!("delay {depth} fill {fill} skip {skip}")
            }
        }
    }
}

/// Prints the graph: one node a line,
/// `s3, s4 = split s0, s1 : f64, f64 @12`, with `#k` for LMU constants and
/// streams named by edge index, so a printed graph parses back to itself.
pub fn print(g: &Graph) -> String {
    let mut out = format!("graph {} {{\n", quote(&g.name));
    for n in &g.nodes {
        out.push_str("  ");
        if !n.outputs.is_empty() {
            let outs: Vec<String> = n.outputs.iter().map(|e| format!("s{}", e.0)).collect();
            out.push_str(&outs.join(", "));
            out.push_str(" = ");
        }
        out.push_str(&kind_text(&n.kind));
        let ins: Vec<String> = n
            .inputs
            .iter()
            .map(|o| match o {
                Operand::Stream(e) => format!("s{}", e.0),
                Operand::Lmu(v) => format!("#{v}"),
            })
            .collect();
        if !ins.is_empty() {
            out.push(' ');
            out.push_str(&ins.join(", "));
        }
        if !n.outputs.is_empty() {
            let tys: Vec<String> = n
                .outputs
                .iter()
                .map(|e| {
                    let ed = g.edge(*e);
                    if ed.route_stages == 1 {
                        ed.ty.name().to_string()
                    } else {
                        format!("{}~{}", ed.ty.name(), ed.route_stages)
                    }
                })
                .collect();
            out.push_str(" : ");
            out.push_str(&tys.join(", "));
        }
        if n.line != 0 {
            out.push_str(&format!(" @{}", n.line));
        }
        out.push('\n');
    }
    out.push_str("}\n");
    out
}

/// A name in quotes; anything but letters, digits and `_.+-` is written
/// `\u{hex}`, so names never hold the format's separators.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() || "_.+-".contains(ch) {
            out.push(ch);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", ch as u32));
        }
    }
    out.push('"');
    out
}

/// Reads a [`quote`]d name; returns it and the text after it.
fn unquote(r: &str) -> Result<(String, &str), String> {
    let r = r.trim_start();
    let inner = r
        .strip_prefix('"')
        .ok_or(format!("expected a quoted name in `{r}`"))?;
    let end = inner
        .find('"')
        .ok_or(format!("unterminated name in `{r}`"))?;
    let (body, rest) = (&inner[..end], &inner[end + 1..]);
    let mut out = String::new();
    let mut it = body.split("\\u{");
    out.push_str(it.next().unwrap_or(""));
    for part in it {
        let (hex, tail) = part
            .split_once('}')
            .ok_or(format!("bad escape in `{body}`"))?;
        let ch = u32::from_str_radix(hex, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or(format!("bad escape `\\u{{{hex}}}`"))?;
        out.push(ch);
        out.push_str(tail);
    }
    // Only the canonical spelling is accepted, so text and graph round-trip.
    if quote(&out) != format!("\"{body}\"") {
        return Err(format!(
            "name `{body}` is not written as the printer writes it"
        ));
    }
    Ok((out, rest))
}

/// A text parse error with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the text.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses [`print()`]'s format. Streams must be numbered `s0, s1, ...` in the
/// order their defining lines appear (as printed); uses may come before
/// definitions (loop back edges).
pub fn parse(text: &str) -> Result<Graph, ParseError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((hl, header)) = lines.next() else {
        return Err(ParseError {
            line: 1,
            message: "empty text".into(),
        });
    };
    let header = header.trim();
    let name = header
        .strip_prefix("graph ")
        .and_then(|r| unquote(r).ok())
        .filter(|(_, rest)| rest.trim() == "{")
        .map(|(n, _)| n)
        .ok_or(ParseError {
            line: hl + 1,
            message: format!("expected `graph \"name\" {{`, found `{header}`"),
        })?;
    let mut g = Graph::new(&name);
    let mut closed = false;
    for (i, raw) in lines {
        let line = i + 1;
        let err = |m: String| ParseError { line, message: m };
        let mut s = raw.trim();
        if s == "}" {
            closed = true;
            continue;
        }
        if closed {
            return Err(err(format!("text after the closing `}}`: `{s}`")));
        }
        let mut src_line = 0;
        if let Some(at) = s.rfind(" @") {
            src_line = s[at + 2..]
                .parse()
                .map_err(|_| err(format!("bad source line `{}`", &s[at + 2..])))?;
            s = s[..at].trim();
        }
        let (outs, rest) = match s.split_once(" = ") {
            Some((o, r)) if !o.contains('"') => {
                (o.split(',').map(str::trim).collect::<Vec<_>>(), r.trim())
            }
            _ => (Vec::new(), s),
        };
        let (body, tys) = match rest.rsplit_once(" : ") {
            Some((b, t)) if !outs.is_empty() => {
                (b.trim(), t.split(',').map(str::trim).collect::<Vec<_>>())
            }
            _ => (rest, Vec::new()),
        };
        if outs.len() != tys.len() {
            return Err(err(format!(
                "{} outputs but {} types",
                outs.len(),
                tys.len()
            )));
        }
        let mut out_tys = Vec::new();
        let mut stages = Vec::new();
        for (o, t) in outs.iter().zip(&tys) {
            let want = format!("s{}", g.edges.len() + out_tys.len());
            if *o != want {
                return Err(err(format!("expected stream `{want}` next, found `{o}`")));
            }
            let (tn, st) = match t.split_once('~') {
                Some((a, b)) => (
                    a,
                    b.parse::<u32>()
                        .map_err(|_| err(format!("bad stage count in `{t}`")))?,
                ),
                None => (*t, 1),
            };
            out_tys.push(Ty::from_name(tn).ok_or_else(|| err(format!("unknown type `{tn}`")))?);
            stages.push(st);
        }
        let (kind, operands) = parse_kind(body).map_err(err)?;
        let (_, es) = g.add(kind, operands, &out_tys, src_line);
        for (e, st) in es.iter().zip(stages) {
            g.edges[e.0 as usize].route_stages = st;
        }
    }
    if !closed {
        return Err(ParseError {
            line: text.lines().count(),
            message: "missing closing `}`".into(),
        });
    }
    Ok(g)
}

fn parse_kind(body: &str) -> Result<(NodeKind, Vec<Operand>), String> {
    let (word, mut rest) = body.split_once(' ').unwrap_or((body, ""));
    let quoted = |r: &str| -> Result<(String, String), String> {
        unquote(r).map(|(n, rest)| (n, rest.trim().to_string()))
    };
    let owned;
    let kind = match word {
        "source" => {
            let (n, r) = quoted(rest)?;
            owned = r;
            rest = &owned;
            NodeKind::Source { name: n }
        }
        "sink" => {
            let (n, r) = quoted(rest)?;
            let (sort, r) = match r.strip_prefix("sorted") {
                Some(r) => (true, r.trim().to_string()),
                None => (false, r),
            };
            owned = r;
            rest = &owned;
            NodeKind::Sink { name: n, sort }
        }
        "discard" => NodeKind::Discard,
        "copy" => NodeKind::Copy,
        "sync" => NodeKind::Sync,
        "split" => NodeKind::Split,
        "merge" => NodeKind::Merge,
        "delay" => {
            let parts: Vec<&str> = rest.splitn(6, ' ').collect();
            if parts.len() < 4 || parts[1] != "fill" {
                return Err(format!(
                    "expected `delay <depth> fill <value> [skip <n>] <input>`, found `{body}`"
                ));
            }
            let depth = parts[0]
                .parse()
                .map_err(|_| format!("bad delay depth `{}`", parts[0]))?;
            let fill = parse_scalar(parts[2])?;
            let (skip, tail) = if parts[3] == "skip" && parts.len() >= 5 {
                let n = parts[4]
                    .parse()
                    .map_err(|_| format!("bad delay skip `{}`", parts[4]))?;
                (n, parts[5..].join(" "))
            } else {
                (0, parts[3..].join(" "))
            };
            owned = tail;
            rest = &owned;
            NodeKind::Delay { depth, fill, skip }
        }
        w => NodeKind::Op(ArithOp::from_mnemonic(w).ok_or(format!("unknown node kind `{w}`"))?),
    };
    let mut operands = Vec::new();
    for o in rest.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        if let Some(v) = o.strip_prefix('#') {
            operands.push(Operand::Lmu(parse_scalar(v)?));
        } else if let Some(n) = o.strip_prefix('s') {
            operands.push(Operand::Stream(EdgeId(
                n.parse().map_err(|_| format!("bad stream `{o}`"))?,
            )));
        } else {
            return Err(format!("bad operand `{o}` (expected sN or #constant)"));
        }
    }
    Ok((kind, operands))
}

fn parse_scalar(s: &str) -> Result<Scalar, String> {
    if s.contains(['.', 'e', 'n', 'i']) {
        s.parse::<f64>()
            .map(Scalar::F64)
            .map_err(|_| format!("bad constant `{s}`"))
    } else {
        s.parse::<i64>()
            .map(Scalar::Int)
            .map_err(|_| format!("bad constant `{s}`"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Graph {
        let mut g = Graph::new("t");
        let a = g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::F64, 0);
        let (_, c) = g.add(
            NodeKind::Copy,
            vec![Operand::Stream(a)],
            &[Ty::F64, Ty::F64],
            3,
        );
        let m = g.add1(
            NodeKind::Op(ArithOp::FMul),
            vec![Operand::Stream(c[0]), Operand::Lmu(Scalar::F64(2.0))],
            Ty::F64,
            4,
        );
        let s = g.add1(
            NodeKind::Op(ArithOp::FAdd),
            vec![Operand::Stream(m), Operand::Stream(c[1])],
            Ty::F64,
            4,
        );
        g.add(
            NodeKind::Sink {
                name: "out".into(),
                sort: true,
            },
            vec![Operand::Stream(s)],
            &[],
            5,
        );
        g
    }

    #[test]
    fn print_parse_round_trip() {
        let mut g = sample();
        g.name = "k<\"a b\"> @1 : x = y".into();
        verify(&g).expect("valid");
        let text = print(&g);
        assert!(text.contains("s3 = fmul s1, #2.0 : f64 @4"), "{text}");
        let back = parse(&text).expect("parses");
        assert_eq!(back, g);
        assert_eq!(print(&back), text);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let e = parse("graph \"x\" {\n  s0 = frob s1 : f64\n}\n").expect_err("bad");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unknown node kind `frob`"), "{e}");
        let e = parse("graph \"x\" {\n  s1 = source \"a\" : f64\n}\n").expect_err("bad");
        assert!(e.message.contains("expected stream `s0`"), "{e}");
        let e = parse("graph \"x\" {\n").expect_err("open");
        assert!(e.message.contains("closing"), "{e}");
    }

    #[test]
    fn verifier_rejects_fan_out_without_copy_and_bad_types() {
        let mut g = Graph::new("t");
        let a = g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::F64, 0);
        g.add(NodeKind::Discard, vec![Operand::Stream(a)], &[], 0);
        g.add(NodeKind::Discard, vec![Operand::Stream(a)], &[], 0);
        let e = verify(&g).expect_err("two consumers");
        assert!(e.message.contains("2 consumers"), "{e}");

        let mut g = Graph::new("t");
        let a = g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::I32, 0);
        let b = g.add1(
            NodeKind::Op(ArithOp::FAdd),
            vec![Operand::Stream(a), Operand::Lmu(Scalar::F64(1.0))],
            Ty::F64,
            0,
        );
        g.add(NodeKind::Discard, vec![Operand::Stream(b)], &[], 0);
        let e = verify(&g).expect_err("int into fadd");
        assert!(e.message.contains("must be f64"), "{e}");

        let mut g = Graph::new("t");
        let a = g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::F64, 0);
        let (_, o) = g.add(
            NodeKind::Split,
            vec![Operand::Stream(a), Operand::Stream(a)],
            &[Ty::F64, Ty::F64],
            0,
        );
        for e in o {
            g.add(NodeKind::Discard, vec![Operand::Stream(e)], &[], 0);
        }
        assert!(verify(&g).is_err());
    }

    #[test]
    fn a_node_claiming_a_stream_it_does_not_produce_is_rejected() {
        let mut g = sample();
        g.nodes[1].outputs.push(EdgeId(99));
        assert!(verify(&g).expect_err("bad output").message.contains("s99"));
        let mut g = sample();
        g.nodes[0].outputs = vec![EdgeId(3)];
        assert!(verify(&g).is_err());
    }

    #[test]
    fn unconsumed_stream_is_rejected() {
        let mut g = Graph::new("t");
        g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::F64, 0);
        let e = verify(&g).expect_err("dangling");
        assert!(e.message.contains("0 consumers"), "{e}");
    }
}

#[cfg(test)]
mod robustness {
    use super::*;

    /// Every truncation and every single-character damage of a printed
    /// graph parses or fails cleanly; what parses and verifies prints
    /// back to text that parses to the same graph.
    #[test]
    fn damaged_text_never_panics() {
        let mut g = Graph::new("t");
        let a = g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::F64, 1);
        let (_, c) = g.add(
            NodeKind::Copy,
            vec![Operand::Stream(a)],
            &[Ty::F64, Ty::F64],
            2,
        );
        let d = g.add1(
            NodeKind::Delay {
                depth: 2,
                fill: Scalar::F64(0.5),
                skip: 1,
            },
            vec![Operand::Stream(c[0])],
            Ty::F64,
            3,
        );
        let s = g.add1(
            NodeKind::Op(ArithOp::FCmp(Pred::Lt)),
            vec![Operand::Stream(d), Operand::Stream(c[1])],
            Ty::I1,
            4,
        );
        g.add(
            NodeKind::Sink {
                name: "o".into(),
                sort: true,
            },
            vec![Operand::Stream(s)],
            &[],
            5,
        );
        let text = print(&g);
        let bytes = text.as_bytes();
        let junk = [b'x', b'#', b',', b'"', b'~', b'@', b'9', b' ', b'\n', b'='];
        for i in 0..bytes.len() {
            let cut = String::from_utf8_lossy(&bytes[..i]).into_owned();
            let _ = parse(&cut).map(|g| verify(&g));
            for &j in &junk {
                let mut b = bytes.to_vec();
                b[i] = j;
                let t = String::from_utf8_lossy(&b).into_owned();
                if let Ok(g2) = parse(&t) {
                    if verify(&g2).is_ok() {
                        assert_eq!(parse(&print(&g2)).as_ref(), Ok(&g2), "{t}");
                    }
                }
            }
        }
    }
}
