//! A cycle-level simulator of the half-speed handshake (thesis L916-962).
//!
//! Every stream is a chain of pipeline registers: the producer's own stages
//! (its latency from the machine description) plus the route's. Each cycle,
//! every register and node decides from the state at the start of the
//! cycle: an element moves into a register only if that register was empty
//! when the cycle began. A register that passes its element on is therefore
//! refilled one cycle later at the earliest, so a busy stream carries data
//! in every other register and one element per stage every two cycles: the
//! thesis' half-speed mode, with back-pressure propagating backwards
//! through the empty registers.
//!
//! Node rules: an operator fires when every stream operand is present and
//! its output is free (implicit synchronisation); copy, sync, split and
//! merge need all their outputs (on the chosen side) free; a merge takes
//! its priority (feedback) group whenever any of its lanes holds an
//! element. Every element carries its thread's tag; operands of one firing
//! must have equal tags, which catches graphs that mix up elements. A cycle
//! in which nothing moves while elements remain is a deadlock, reported
//! with the cycle and the nodes that hold elements and why they wait.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use crate::graph::{
    verify, ArithOp, EdgeId, Graph, NodeId, NodeKind, Operand, Pred, Scalar, Ty, VerifyError,
};
use crate::machine::Machine;

/// A stream element: its thread's tag and one value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    /// The element's tag (thread id).
    pub tag: u64,
    /// Its value.
    pub value: Scalar,
}

/// Why a node cannot fire while it holds elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stall {
    /// The node.
    pub node: NodeId,
    /// Its kind as printed.
    pub what: String,
    /// Which inputs are missing or outputs blocked.
    pub reason: String,
}

/// A simulation failure.
#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// The graph does not verify.
    Invalid(VerifyError),
    /// A source has no data bound to it.
    MissingInput(String),
    /// Nothing moved in `cycle` while elements remained.
    Deadlock {
        /// The cycle in which nothing could move.
        cycle: u64,
        /// Nodes holding elements and why they wait.
        stalled: Vec<Stall>,
    },
    /// The operands of one firing had different tags.
    TagMismatch {
        /// When.
        cycle: u64,
        /// Where.
        node: NodeId,
        /// The tags seen.
        tags: Vec<u64>,
    },
    /// The run did not finish within the cycle limit.
    CycleLimit(u64),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Invalid(e) => write!(f, "invalid graph: {e}"),
            SimError::MissingInput(n) => write!(f, "no data for source `{n}`"),
            SimError::Deadlock { cycle, stalled } => {
                write!(f, "deadlock at cycle {cycle}:")?;
                for s in stalled {
                    write!(f, " n{} ({}) {};", s.node.0, s.what, s.reason)?;
                }
                Ok(())
            }
            SimError::TagMismatch { cycle, node, tags } => {
                write!(
                    f,
                    "cycle {cycle}: node n{} joined elements of different tags {tags:?}",
                    node.0
                )
            }
            SimError::CycleLimit(c) => write!(f, "not finished after {c} cycles"),
        }
    }
}

impl std::error::Error for SimError {}

/// What one sink received.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SinkLog {
    /// Elements in arrival order with their arrival cycle.
    pub arrivals: Vec<(u64, Token)>,
    /// Whether the MU re-sorts this stream by tag.
    pub sorted: bool,
}

impl SinkLog {
    /// The stream as stored by the memory unit: by tag if sorted,
    /// otherwise in arrival order.
    pub fn stored(&self) -> Vec<Token> {
        let mut v: Vec<Token> = self.arrivals.iter().map(|(_, t)| *t).collect();
        if self.sorted {
            v.sort_by_key(|t| t.tag);
        }
        v
    }
}

/// The result of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Cycles until the last element left the array.
    pub cycles: u64,
    /// Per named sink.
    pub sinks: BTreeMap<String, SinkLog>,
    /// Cycle in which the last source element entered the array.
    pub last_input_cycle: u64,
    /// Cycle of the first arrival at a named sink.
    pub first_output_cycle: Option<u64>,
    /// Cycle of the last arrival at a named sink.
    pub last_output_cycle: Option<u64>,
    /// Firings per node.
    pub fires: Vec<u64>,
}

/// Pipeline stages a node adds before its outputs (its operator latency).
pub fn node_latency(m: &Machine, kind: &NodeKind) -> u32 {
    let l = &m.latency;
    match kind {
        NodeKind::Source { .. } | NodeKind::Sink { .. } | NodeKind::Discard => 0,
        // The product passes the multiplier, then the adder (assumed).
        NodeKind::Op(ArithOp::FMulAdd) => l.fmul + l.fadd,
        NodeKind::Op(op) => match op.class() {
            "fmul" => l.fmul,
            "fadd" | "fsub" => l.fadd,
            "compare" => l.compare,
            "iadd" => l.iadd,
            "convert" => l.convert,
            _ => l.logic,
        },
        NodeKind::Copy
        | NodeKind::Sync
        | NodeKind::Split
        | NodeKind::Merge
        | NodeKind::Delay { .. } => l.steer,
    }
}

/// A simulator instance for one graph.
pub struct Sim<'g> {
    g: &'g Graph,
    /// Flattened registers of all streams.
    slots: Vec<Option<Token>>,
    /// Start of each stream's registers in `slots`, and its length.
    span: Vec<(usize, usize)>,
    occ: Vec<bool>,
    sources: Vec<VecDeque<Token>>,
    delays: Vec<VecDeque<Scalar>>,
    out: Outcome,
}

impl<'g> Sim<'g> {
    /// Prepares a run of `g` on machine `m` with `inputs` bound to its
    /// sources by name.
    pub fn new(
        g: &'g Graph,
        m: &Machine,
        inputs: &BTreeMap<String, Vec<Token>>,
    ) -> Result<Sim<'g>, SimError> {
        verify(g).map_err(SimError::Invalid)?;
        let mut span = Vec::with_capacity(g.edges.len());
        let mut total = 0;
        for e in &g.edges {
            let len = (node_latency(m, &g.node(e.from.0).kind) + e.route_stages).max(1) as usize;
            span.push((total, len));
            total += len;
        }
        let mut sources = vec![VecDeque::new(); g.nodes.len()];
        let mut delays = vec![VecDeque::new(); g.nodes.len()];
        let mut sinks = BTreeMap::new();
        for id in g.node_ids() {
            match &g.node(id).kind {
                NodeKind::Source { name } => {
                    let data = inputs
                        .get(name)
                        .ok_or_else(|| SimError::MissingInput(name.clone()))?;
                    sources[id.0 as usize] = data.iter().copied().collect();
                }
                NodeKind::Sink { name, sort } => {
                    sinks.insert(
                        name.clone(),
                        SinkLog {
                            arrivals: Vec::new(),
                            sorted: *sort,
                        },
                    );
                }
                NodeKind::Delay { depth, fill, .. } => {
                    delays[id.0 as usize] = std::iter::repeat_n(*fill, *depth as usize).collect();
                }
                _ => {}
            }
        }
        Ok(Sim {
            g,
            slots: vec![None; total],
            span,
            occ: vec![false; total],
            sources,
            delays,
            out: Outcome {
                sinks,
                fires: vec![0; g.nodes.len()],
                ..Outcome::default()
            },
        })
    }

    fn head(&self, e: EdgeId) -> usize {
        let (s, l) = self.span[e.0 as usize];
        s + l - 1
    }

    fn tail(&self, e: EdgeId) -> usize {
        self.span[e.0 as usize].0
    }

    fn present(&self, o: &Operand) -> bool {
        match o {
            Operand::Stream(e) => self.occ[self.head(*e)],
            Operand::Lmu(_) => true,
        }
    }

    fn free(&self, e: EdgeId) -> bool {
        !self.occ[self.tail(e)]
    }

    fn take(&mut self, o: &Operand) -> (Option<u64>, Scalar) {
        match o {
            Operand::Stream(e) => {
                let h = self.head(*e);
                match self.slots[h].take() {
                    Some(t) => (Some(t.tag), t.value),
                    None => (None, Scalar::Int(0)),
                }
            }
            Operand::Lmu(v) => (None, *v),
        }
    }

    fn put(&mut self, e: EdgeId, t: Token) {
        let i = self.tail(e);
        self.slots[i] = Some(t);
    }

    /// Takes a group of operands, checking their tags agree.
    fn take_all(
        &mut self,
        ops: &[Operand],
        node: NodeId,
        cycle: u64,
    ) -> Result<(u64, Vec<Scalar>), SimError> {
        let mut tags = Vec::new();
        let mut vals = Vec::new();
        for o in ops {
            let (tag, v) = self.take(o);
            tags.extend(tag);
            vals.push(v);
        }
        let tag = tags.first().copied().unwrap_or(0);
        if tags.iter().any(|&t| t != tag) {
            return Err(SimError::TagMismatch { cycle, node, tags });
        }
        Ok((tag, vals))
    }

    /// Runs until every element has left the array.
    pub fn run(mut self, max_cycles: u64) -> Result<Outcome, SimError> {
        let g = self.g;
        let mut cycle = 0u64;
        loop {
            cycle += 1;
            if cycle > max_cycles {
                return Err(SimError::CycleLimit(max_cycles));
            }
            for (o, s) in self.occ.iter_mut().zip(&self.slots) {
                *o = s.is_some();
            }
            let mut moved = false;
            // Registers inside streams.
            for &(start, len) in &self.span {
                for k in (start + 1..start + len).rev() {
                    if self.occ[k - 1] && !self.occ[k] {
                        self.slots[k] = self.slots[k - 1].take();
                        moved = true;
                    }
                }
            }
            // Nodes.
            for id in g.node_ids() {
                if self.step_node(id, cycle)? {
                    self.out.fires[id.0 as usize] += 1;
                    moved = true;
                }
            }
            let busy = self.slots.iter().any(Option::is_some)
                || self.sources.iter().any(|q| !q.is_empty());
            if !busy {
                self.out.cycles = cycle;
                return Ok(self.out);
            }
            if !moved {
                return Err(SimError::Deadlock {
                    cycle,
                    stalled: self.stalls(),
                });
            }
        }
    }

    fn step_node(&mut self, id: NodeId, cycle: u64) -> Result<bool, SimError> {
        let g = self.g;
        let n = g.node(id);
        let i = id.0 as usize;
        let outs_free = |s: &Self, outs: &[EdgeId]| outs.iter().all(|e| s.free(*e));
        let all_present = |s: &Self, ins: &[Operand]| ins.iter().all(|o| s.present(o));
        match &n.kind {
            NodeKind::Source { .. } => {
                if self.free(n.outputs[0]) {
                    if let Some(t) = self.sources[i].pop_front() {
                        self.put(n.outputs[0], t);
                        self.out.last_input_cycle = cycle;
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            NodeKind::Sink { .. } | NodeKind::Discard => {
                if !self.present(&n.inputs[0]) {
                    return Ok(false);
                }
                let Operand::Stream(e) = n.inputs[0] else {
                    return Ok(false);
                };
                let h = self.head(e);
                let Some(t) = self.slots[h].take() else {
                    return Ok(false);
                };
                if let NodeKind::Sink { name, .. } = &n.kind {
                    if let Some(log) = self.out.sinks.get_mut(name) {
                        log.arrivals.push((cycle, t));
                    }
                    self.out.first_output_cycle.get_or_insert(cycle);
                    self.out.last_output_cycle = Some(cycle);
                }
                Ok(true)
            }
            NodeKind::Op(op) => {
                if !all_present(self, &n.inputs) || !self.free(n.outputs[0]) {
                    return Ok(false);
                }
                let (tag, vals) = self.take_all(&n.inputs, id, cycle)?;
                let ty = g.edge(n.outputs[0]).ty;
                self.put(
                    n.outputs[0],
                    Token {
                        tag,
                        value: eval(*op, &vals, ty),
                    },
                );
                Ok(true)
            }
            NodeKind::Copy => {
                if !all_present(self, &n.inputs) || !outs_free(self, &n.outputs) {
                    return Ok(false);
                }
                let (tag, v) = self.take_all(&n.inputs, id, cycle)?;
                for e in &n.outputs {
                    self.put(*e, Token { tag, value: v[0] });
                }
                Ok(true)
            }
            NodeKind::Sync => {
                if !all_present(self, &n.inputs) || !outs_free(self, &n.outputs) {
                    return Ok(false);
                }
                let (tag, v) = self.take_all(&n.inputs, id, cycle)?;
                for (e, x) in n.outputs.iter().zip(v) {
                    self.put(*e, Token { tag, value: x });
                }
                Ok(true)
            }
            NodeKind::Split => {
                if !all_present(self, &n.inputs) {
                    return Ok(false);
                }
                let lanes = n.inputs.len() - 1;
                let cond = match n.inputs[0] {
                    Operand::Stream(e) => self.slots[self.head(e)].map(|t| t.value),
                    Operand::Lmu(v) => Some(v),
                };
                let side = if truth(cond.unwrap_or(Scalar::Int(0))) {
                    &n.outputs[..lanes]
                } else {
                    &n.outputs[lanes..]
                };
                if !outs_free(self, side) {
                    return Ok(false);
                }
                let (tag, v) = self.take_all(&n.inputs, id, cycle)?;
                for (e, x) in side.iter().zip(&v[1..]) {
                    self.put(*e, Token { tag, value: *x });
                }
                Ok(true)
            }
            NodeKind::Merge => {
                let lanes = n.outputs.len();
                let (prio, other) = n.inputs.split_at(lanes);
                if !outs_free(self, &n.outputs) {
                    return Ok(false);
                }
                let group = if prio.iter().any(|o| self.present(o)) {
                    if !all_present(self, prio) {
                        return Ok(false);
                    }
                    prio
                } else if all_present(self, other) {
                    other
                } else {
                    return Ok(false);
                };
                let (tag, v) = self.take_all(group, id, cycle)?;
                for (e, x) in n.outputs.iter().zip(v) {
                    self.put(*e, Token { tag, value: x });
                }
                Ok(true)
            }
            NodeKind::Delay { skip, .. } => {
                let skipping = self.out.fires[i] < *skip as u64;
                if !all_present(self, &n.inputs) || !(skipping || self.free(n.outputs[0])) {
                    return Ok(false);
                }
                let (tag, v) = self.take_all(&n.inputs, id, cycle)?;
                self.delays[i].push_back(v[0]);
                let value = self.delays[i].pop_front().unwrap_or(v[0]);
                if !skipping {
                    self.put(n.outputs[0], Token { tag, value });
                }
                Ok(true)
            }
        }
    }

    fn stalls(&self) -> Vec<Stall> {
        let g = self.g;
        let mut out = Vec::new();
        for id in g.node_ids() {
            let n = g.node(id);
            let holding: Vec<usize> = (0..n.inputs.len())
                .filter(|&k| {
                    matches!(n.inputs[k], Operand::Stream(_)) && self.present(&n.inputs[k])
                })
                .collect();
            if holding.is_empty() {
                continue;
            }
            let missing: Vec<String> = (0..n.inputs.len())
                .filter(|&k| !self.present(&n.inputs[k]))
                .map(|k| format!("in{k}"))
                .collect();
            let blocked: Vec<String> = (0..n.outputs.len())
                .filter(|&k| !self.free(n.outputs[k]))
                .map(|k| format!("out{k}"))
                .collect();
            let mut reason = Vec::new();
            if !missing.is_empty() {
                reason.push(format!("waits for {}", missing.join(",")));
            }
            if !blocked.is_empty() {
                reason.push(format!("blocked on {}", blocked.join(",")));
            }
            let what = crate::graph::print(&Graph {
                name: String::new(),
                nodes: vec![n.clone()],
                edges: g.edges.clone(),
            });
            out.push(Stall {
                node: id,
                what: what.lines().nth(1).unwrap_or("").trim().to_string(),
                reason: reason.join(", "),
            });
        }
        out
    }
}

/// Whether a scalar is true (non-zero).
pub fn truth(v: Scalar) -> bool {
    match v {
        Scalar::Int(x) => x != 0,
        Scalar::F64(x) => x != 0.0,
    }
}

fn int(v: Scalar) -> i64 {
    match v {
        Scalar::Int(x) => x,
        Scalar::F64(x) => x as i64,
    }
}

fn float(v: Scalar) -> f64 {
    match v {
        Scalar::F64(x) => x,
        Scalar::Int(x) => x as f64,
    }
}

fn wrap(x: i64, ty: Ty) -> i64 {
    match ty {
        Ty::I1 => x & 1,
        Ty::I32 => x as i32 as i64,
        Ty::I64 | Ty::F64 => x,
    }
}

fn cmp<T: PartialOrd>(p: Pred, a: T, b: T) -> bool {
    match p {
        Pred::Lt => a < b,
        Pred::Le => a <= b,
        Pred::Gt => a > b,
        Pred::Ge => a >= b,
        Pred::Eq => a == b,
        Pred::Ne => a != b,
    }
}

/// Evaluates an operator on its operand values, giving a `ty` result.
pub fn eval(op: ArithOp, v: &[Scalar], ty: Ty) -> Scalar {
    let a = v.first().copied().unwrap_or(Scalar::Int(0));
    let b = v.get(1).copied().unwrap_or(Scalar::Int(0));
    let i = |x: i64| Scalar::Int(wrap(x, ty));
    let bool_ = |x: bool| Scalar::Int(x as i64);
    match op {
        ArithOp::FAdd => Scalar::F64(float(a) + float(b)),
        ArithOp::FSub => Scalar::F64(float(a) - float(b)),
        ArithOp::FMul => Scalar::F64(float(a) * float(b)),
        ArithOp::FDiv => Scalar::F64(float(a) / float(b)),
        ArithOp::Fma => Scalar::F64(float(a).mul_add(
            float(b),
            float(v.get(2).copied().unwrap_or(Scalar::F64(0.0))),
        )),
        ArithOp::FMulAdd => {
            let p = float(a) * float(b);
            Scalar::F64(p + float(v.get(2).copied().unwrap_or(Scalar::F64(0.0))))
        }
        ArithOp::IAdd => i(int(a).wrapping_add(int(b))),
        ArithOp::ISub => i(int(a).wrapping_sub(int(b))),
        ArithOp::IMul => i(int(a).wrapping_mul(int(b))),
        ArithOp::SDiv => i(int(a).checked_div(int(b)).unwrap_or(0)),
        ArithOp::SRem => i(int(a).checked_rem(int(b)).unwrap_or(0)),
        ArithOp::ICmp(p) => bool_(cmp(p, int(a), int(b))),
        ArithOp::FCmp(p) => bool_(cmp(p, float(a), float(b))),
        // Integers are kept sign-extended from their width, which keeps
        // the unsigned order of any one width when read as u64.
        ArithOp::UCmp(p) => bool_(cmp(p, int(a) as u64, int(b) as u64)),
        ArithOp::And => i(int(a) & int(b)),
        ArithOp::Or => i(int(a) | int(b)),
        ArithOp::Xor => i(int(a) ^ int(b)),
        ArithOp::Select => {
            if truth(a) {
                b
            } else {
                v.get(2).copied().unwrap_or(Scalar::Int(0))
            }
        }
        ArithOp::SiToFp => Scalar::F64(int(a) as f64),
        ArithOp::FpToSi => i(float(a) as i64),
        ArithOp::IntCast => i(int(a)),
        ArithOp::Splat => b,
    }
}

/// Elements `values` tagged 0, 1, 2, ... in order.
pub fn tagged(values: impl IntoIterator<Item = Scalar>) -> Vec<Token> {
    values
        .into_iter()
        .enumerate()
        .map(|(k, value)| Token {
            tag: k as u64,
            value,
        })
        .collect()
}

#[cfg(test)]
mod tests;
