//! Index functions computed by the memory units instead of the array.
//!
//! Operators whose inputs come only from the thread-index stream (and
//! constants) compute a fixed function of the tag, such as Mandelbrot's
//! pixel coordinates `x0 + (i % w) * dx`. The thesis has the memory unit
//! deliver those coordinates (L1012), and its memory processing unit may
//! be an ALU or an FPU (L819); this pass moves such operators into the
//! memory unit (an assumption: the thesis does not say which functions a
//! memory unit can generate), leaving one source stream per value the
//! array still needs.

use std::collections::BTreeMap;

use crate::graph::{ArithOp, EdgeId, Graph, NodeId, NodeKind, Operand, Scalar};
use crate::lower::{Lowered, MemStream};
use crate::sim::eval;

/// A stream a memory unit computes from the tag.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexFunction {
    /// The graph before the pass (the operators are evaluated in it).
    pub graph: Graph,
    /// The operators, in dependence order.
    pub nodes: Vec<NodeId>,
    /// The `tid` source's stream in `graph`.
    pub tid: EdgeId,
    /// The value delivered, a stream of `graph`.
    pub out: EdgeId,
}

impl IndexFunction {
    /// The value for tag `t`.
    pub fn eval(&self, t: u64) -> Scalar {
        let mut vals: BTreeMap<EdgeId, Scalar> = BTreeMap::new();
        vals.insert(self.tid, Scalar::Int(t as i64));
        for &n in &self.nodes {
            let node = self.graph.node(n);
            let ins: Vec<Scalar> = node
                .inputs
                .iter()
                .map(|o| match o {
                    Operand::Stream(e) => vals.get(e).copied().unwrap_or(Scalar::Int(0)),
                    Operand::Lmu(v) => *v,
                })
                .collect();
            match &node.kind {
                NodeKind::Op(op) => {
                    let ty = self.graph.edge(node.outputs[0]).ty;
                    vals.insert(node.outputs[0], eval(*op, &ins, ty));
                }
                NodeKind::Copy => {
                    for e in &node.outputs {
                        vals.insert(*e, ins[0]);
                    }
                }
                _ => {}
            }
        }
        vals.get(&self.out).copied().unwrap_or(Scalar::Int(0))
    }
}

/// Moves the tag-only operators of `l` into the memory units. Returns the
/// number of operators moved.
pub fn offload_index_functions(l: &mut Lowered) -> usize {
    let g = &l.graph;
    let n = g.nodes.len();
    let Some(tid_node) = g
        .node_ids()
        .find(|&id| matches!(&g.node(id).kind, NodeKind::Source { name } if name == "tid"))
    else {
        return 0;
    };
    let tid = g.node(tid_node).outputs[0];
    // Grow the set in node order until it stops changing (the lowering
    // creates producers before consumers, except merge feedback).
    let mut inside = vec![false; n];
    inside[tid_node.0 as usize] = true;
    let mut order = Vec::new();
    loop {
        let mut grew = false;
        for id in g.node_ids() {
            let i = id.0 as usize;
            if inside[i] {
                continue;
            }
            let node = g.node(id);
            // Constant splats stay in the array: they are an output MUX
            // choosing an LMU word, not a memory stream.
            let movable = matches!(node.kind, NodeKind::Op(op) if op != ArithOp::Splat)
                || matches!(node.kind, NodeKind::Copy);
            let fed = node.inputs.iter().all(|o| match o {
                Operand::Stream(e) => inside[g.edge(*e).from.0 .0 as usize],
                Operand::Lmu(_) => true,
            });
            if movable && fed {
                inside[i] = true;
                order.push(id);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    if order.is_empty() {
        return 0;
    }
    let original = g.clone();
    // Streams leaving the set become memory-unit sources.
    let consumers = g.consumers();
    let mut new = Graph::new(&g.name);
    let mut node_map: Vec<Option<NodeId>> = vec![None; n];
    let mut edge_map: BTreeMap<EdgeId, EdgeId> = BTreeMap::new();
    let mut streams = Vec::new();
    // Boundary streams, grouped by the value they carry: copies inside
    // the set are looked through, so one memory stream (fanned out by a
    // copy in the array) serves every use of a value.
    let root = |mut e: EdgeId| loop {
        let from = g.edge(e).from.0;
        match (&g.node(from).kind, g.node(from).inputs.first()) {
            (NodeKind::Copy, Some(Operand::Stream(x))) if inside[from.0 as usize] => e = *x,
            _ => return e,
        }
    };
    let mut groups: BTreeMap<EdgeId, Vec<EdgeId>> = BTreeMap::new();
    for (e, cons) in consumers.iter().enumerate() {
        let eid = EdgeId(e as u32);
        let from = g.edge(eid).from.0 .0 as usize;
        if inside[from] && cons.iter().any(|(c, _)| !inside[c.0 as usize]) {
            groups.entry(root(eid)).or_default().push(eid);
        }
    }
    for (r, uses) in &groups {
        let name = format!("index{}", streams.len());
        let ty = g.edge(*r).ty;
        let line = g.node(g.edge(*r).from.0).line;
        let src = new.add1(NodeKind::Source { name: name.clone() }, vec![], ty, line);
        if let [one] = uses.as_slice() {
            edge_map.insert(*one, src);
        } else {
            let (_, outs) = new.add(
                NodeKind::Copy,
                vec![Operand::Stream(src)],
                &vec![ty; uses.len()],
                line,
            );
            for (u, o) in uses.iter().zip(outs) {
                edge_map.insert(*u, o);
            }
        }
        streams.push((
            MemStream {
                name,
                param: None,
                offset: 0,
                ty,
                lead: 0,
            },
            IndexFunction {
                graph: original.clone(),
                nodes: order.clone(),
                tid,
                out: *r,
            },
        ));
    }
    // Kept nodes, in their order; their outputs are created first so back
    // edges can be mapped, then inputs are filled in.
    for id in g.node_ids() {
        let i = id.0 as usize;
        if inside[i] {
            continue;
        }
        let node = g.node(id);
        let tys: Vec<_> = node.outputs.iter().map(|e| g.edge(*e).ty).collect();
        let (nid, outs) = new.add(node.kind.clone(), Vec::new(), &tys, node.line);
        for (old, newe) in node.outputs.iter().zip(outs) {
            new.edges[newe.0 as usize].route_stages = g.edge(*old).route_stages;
            edge_map.insert(*old, newe);
        }
        node_map[i] = Some(nid);
    }
    for id in g.node_ids() {
        let Some(nid) = node_map[id.0 as usize] else {
            continue;
        };
        new.nodes[nid.0 as usize].inputs = g
            .node(id)
            .inputs
            .iter()
            .map(|o| match o {
                Operand::Stream(e) => Operand::Stream(edge_map.get(e).copied().unwrap_or(*e)),
                lmu => *lmu,
            })
            .collect();
    }
    for lp in &mut l.loops {
        lp.nodes = lp
            .nodes
            .iter()
            .filter_map(|n| node_map[n.0 as usize])
            .collect();
    }
    l.inputs.retain(|s| s.name != "tid");
    for (s, f) in streams {
        l.index_functions.push((s.name.clone(), f));
        l.inputs.push(s);
    }
    l.graph = new;
    order.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Ty;
    use crate::lower::Lowered;

    #[test]
    fn tag_only_chain_moves_and_its_values_are_the_tags_function() {
        let mut g = Graph::new("t");
        let tid = g.add1(NodeKind::Source { name: "tid".into() }, vec![], Ty::I32, 0);
        let f = g.add1(
            NodeKind::Op(ArithOp::SiToFp),
            vec![Operand::Stream(tid)],
            Ty::F64,
            0,
        );
        let (_, c) = g.add(
            NodeKind::Copy,
            vec![Operand::Stream(f)],
            &[Ty::F64, Ty::F64],
            0,
        );
        let sq = g.add1(
            NodeKind::Op(ArithOp::FMul),
            vec![Operand::Stream(c[0]), Operand::Stream(c[1])],
            Ty::F64,
            0,
        );
        let k = g.add1(
            NodeKind::Op(ArithOp::Splat),
            vec![Operand::Stream(sq), Operand::Lmu(Scalar::F64(1.5))],
            Ty::F64,
            0,
        );
        g.add(
            NodeKind::Sink {
                name: "o".into(),
                sort: true,
            },
            vec![Operand::Stream(k)],
            &[],
            0,
        );
        let mut l = Lowered {
            graph: g,
            inputs: vec![MemStream {
                name: "tid".into(),
                param: None,
                offset: 0,
                ty: Ty::I32,
                lead: 0,
            }],
            outputs: Vec::new(),
            loops: Vec::new(),
            threads: 5,
            index_functions: Vec::new(),
        };
        assert_eq!(offload_index_functions(&mut l), 3);
        crate::graph::verify(&l.graph).expect("valid");
        // The splat stays in the array, triggered by the memory stream.
        let kinds: Vec<String> = l
            .graph
            .nodes
            .iter()
            .map(|n| format!("{:?}", n.kind))
            .collect();
        assert_eq!(kinds.len(), 3, "{kinds:?}");
        assert_eq!(l.inputs.len(), 1);
        let (_, f) = &l.index_functions[0];
        assert_eq!(f.eval(3), Scalar::F64(9.0));
        assert_eq!(offload_index_functions(&mut l), 0, "nothing left to move");
    }
}
