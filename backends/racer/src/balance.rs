//! Route balancing: registers added to the shorter inputs of every join.
//!
//! A node that fires only when all its inputs are present passes elements
//! at the full half-speed rate only if each input path holds as many
//! elements in flight as the longest one; otherwise the short path fills
//! its few registers and stalls the fork that feeds both. A placer fixes
//! this by choosing route lengths (RACER's routing elements have pipeline
//! stages, thesis L914, L1090); this pass sets each edge's route stages so
//! every input of a node arrives after the same number of registers,
//! counted from the sources and, inside loops, from the merge. A merge's
//! feedback inputs (the loop's back edges) are balanced among themselves:
//! they leave the split together and must reach the merge together.

use crate::graph::{EdgeId, Graph, NodeKind, Operand};
use crate::machine::Machine;
use crate::sim::node_latency;

/// A graph whose cycles do not all pass through merge feedback inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleError {
    /// Nodes left on a cycle.
    pub nodes: Vec<u32>,
}

impl std::fmt::Display for CycleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cycle not closed by a merge feedback input through nodes {:?}",
            self.nodes
        )
    }
}

impl std::error::Error for CycleError {}

/// Inputs that count for ordering: all but merge feedback ports.
fn forward_inputs(g: &Graph, n: usize) -> Vec<(usize, EdgeId)> {
    let node = &g.nodes[n];
    let skip = match node.kind {
        NodeKind::Merge => node.outputs.len(),
        _ => 0,
    };
    node.inputs
        .iter()
        .enumerate()
        .skip(skip)
        .filter_map(|(k, o)| match o {
            Operand::Stream(e) => Some((k, *e)),
            Operand::Lmu(_) => None,
        })
        .collect()
}

/// Balances `g` in place; returns the registers added.
pub fn balance(g: &mut Graph, m: &Machine) -> Result<u64, CycleError> {
    if crate::graph::verify(g).is_err() {
        // Only verified graphs have the port structure walked below.
        return Err(CycleError { nodes: Vec::new() });
    }
    let n = g.nodes.len();
    let mut pending: Vec<usize> = (0..n).map(|i| forward_inputs(g, i).len()).collect();
    let consumers = g.consumers();
    let mut order = Vec::with_capacity(n);
    let mut ready: Vec<usize> = (0..n).filter(|&i| pending[i] == 0).collect();
    while let Some(i) = ready.pop() {
        order.push(i);
        for e in &g.nodes[i].outputs {
            for &(c, port) in &consumers[e.0 as usize] {
                let c = c.0 as usize;
                let is_feedback = matches!(g.nodes[c].kind, NodeKind::Merge)
                    && (port as usize) < g.nodes[c].outputs.len();
                if is_feedback {
                    continue;
                }
                pending[c] -= 1;
                if pending[c] == 0 {
                    ready.push(c);
                }
            }
        }
    }
    if order.len() != n {
        return Err(CycleError {
            nodes: (0..n)
                .filter(|&i| pending[i] > 0)
                .map(|i| i as u32)
                .collect(),
        });
    }
    let len = |g: &Graph, e: EdgeId| {
        let edge = g.edge(e);
        (node_latency(m, &g.node(edge.from.0).kind) + edge.route_stages) as u64
    };
    let mut depth = vec![0u64; n];
    let mut added = 0;
    for &i in &order {
        let ins = forward_inputs(g, i);
        let arrive: Vec<u64> = ins
            .iter()
            .map(|(_, e)| depth[g.edge(*e).from.0 .0 as usize] + len(g, *e))
            .collect();
        let d = arrive.iter().copied().max().unwrap_or(0);
        depth[i] = d;
        for ((_, e), a) in ins.iter().zip(arrive) {
            let extra = d - a;
            g.edges[e.0 as usize].route_stages += extra as u32;
            added += extra;
        }
    }
    // A merge's feedback lanes leave the loop's split together; paths of
    // different length back to the merge (an operator on one lane) would
    // leave it waiting for the rest of a group, so they are padded too.
    for i in 0..n {
        let node = &g.nodes[i];
        if !matches!(node.kind, NodeKind::Merge) {
            continue;
        }
        let back: Vec<EdgeId> = node.inputs[..node.outputs.len()]
            .iter()
            .filter_map(|o| match o {
                Operand::Stream(e) => Some(*e),
                Operand::Lmu(_) => None,
            })
            .collect();
        let arrive: Vec<u64> = back
            .iter()
            .map(|e| depth[g.edge(*e).from.0 .0 as usize] + len(g, *e))
            .collect();
        let d = arrive.iter().copied().max().unwrap_or(0);
        for (e, a) in back.iter().zip(arrive) {
            g.edges[e.0 as usize].route_stages += (d - a) as u32;
            added += d - a;
        }
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{ArithOp, Scalar, Ty};
    use crate::sim::{tagged, Sim};
    use std::collections::BTreeMap;

    #[test]
    fn unequal_fork_join_runs_at_full_rate_once_balanced() {
        let m = Machine::racer_v1();
        let mut g = Graph::new("fj");
        let x = g.add1(NodeKind::Source { name: "x".into() }, vec![], Ty::F64, 0);
        let (_, c) = g.add(
            NodeKind::Copy,
            vec![Operand::Stream(x)],
            &[Ty::F64, Ty::F64],
            0,
        );
        let mut long = c[0];
        for _ in 0..4 {
            long = g.add1(
                NodeKind::Op(ArithOp::FMul),
                vec![Operand::Stream(long), Operand::Lmu(Scalar::F64(1.0))],
                Ty::F64,
                0,
            );
        }
        let j = g.add1(
            NodeKind::Op(ArithOp::FSub),
            vec![Operand::Stream(long), Operand::Stream(c[1])],
            Ty::F64,
            0,
        );
        g.add(
            NodeKind::Sink {
                name: "j".into(),
                sort: false,
            },
            vec![Operand::Stream(j)],
            &[],
            0,
        );
        let n = 64;
        let inputs: BTreeMap<String, Vec<_>> = [(
            "x".to_string(),
            tagged((0..n).map(|k| Scalar::F64(k as f64))),
        )]
        .into();
        let spacing = |g: &Graph| {
            let out = Sim::new(g, &m, &inputs)
                .and_then(|s| s.run(100_000))
                .expect("runs");
            let a = &out.sinks["j"].arrivals;
            assert_eq!(a.len(), n);
            (a[n - 1].0 - a[0].0) as f64 / (n - 1) as f64
        };
        let before = spacing(&g);
        let added = balance(&mut g, &m).expect("acyclic");
        assert_eq!(added, 4 * (m.latency.fmul as u64 + 1));
        let after = spacing(&g);
        assert!(before > 2.0, "{before}");
        assert_eq!(after, 2.0);
    }

    #[test]
    fn a_cycle_without_a_merge_is_reported() {
        let m = Machine::racer_v1();
        let mut g = Graph::new("c");
        let a = g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::I32, 0);
        let (add, ao) = g.add(NodeKind::Op(ArithOp::IAdd), vec![], &[Ty::I32], 0);
        let (_, c) = g.add(
            NodeKind::Copy,
            vec![Operand::Stream(ao[0])],
            &[Ty::I32, Ty::I32],
            0,
        );
        g.nodes[add.0 as usize].inputs = vec![Operand::Stream(a), Operand::Stream(c[1])];
        g.add(NodeKind::Discard, vec![Operand::Stream(c[0])], &[], 0);
        assert!(balance(&mut g, &m).is_err());
    }
}
