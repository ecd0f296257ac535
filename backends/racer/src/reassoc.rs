//! Integer addition chains re-associated into balanced trees.
//!
//! A chain `((a + b) + c) + ...` of `k` additions is a path of `k` PEs with
//! one integer-ALU slot each, and a placed path runs only down and right
//! through a block (at most 7 PEs on a 4 x 4 block); a balanced tree of the
//! same additions is `ceil(log2(k + 1))` deep. nvcc re-associates a
//! tree written in the source back into a chain, so the lowering of its
//! PTX needs this. Wrapping integer addition is associative and
//! commutative, so the results are bit for bit the same; floating-point
//! sums are left alone.

use crate::graph::{ArithOp, Graph, NodeId, NodeKind, Operand};

fn is_iadd(g: &Graph, n: NodeId) -> bool {
    matches!(g.node(n).kind, NodeKind::Op(ArithOp::IAdd))
}

/// Rewrites every maximal tree of integer additions deeper than a balanced
/// one as a balanced tree over the same operands, reusing its nodes.
/// Returns the number of trees rewritten.
pub fn balance_add_trees(g: &mut Graph) -> usize {
    let consumers = g.consumers();
    // An addition feeding another addition of the same type (its one
    // consumer) is inside a tree; the others are roots.
    let inner = |g: &Graph, n: NodeId| -> bool {
        let Some(&e) = g.node(n).outputs.first() else {
            return false;
        };
        match consumers[e.0 as usize].as_slice() {
            [(c, _)] => is_iadd(g, *c) && g.edge(g.node(*c).outputs[0]).ty == g.edge(e).ty,
            _ => false,
        }
    };
    let roots: Vec<NodeId> = g
        .node_ids()
        .filter(|&n| is_iadd(g, n) && g.node(n).outputs.len() == 1 && !inner(g, n))
        .collect();
    let mut rewritten = 0;
    for root in roots {
        // Leaves in source order and the tree's nodes, with its depth.
        let mut leaves = Vec::new();
        let mut nodes = Vec::new();
        let depth = collect(g, root, &inner, &mut leaves, &mut nodes);
        let k = nodes.len();
        let balanced = usize::BITS - k.leading_zeros(); // ceil(log2(k + 1))
        if k < 3 || depth <= balanced as usize {
            continue;
        }
        // Pair neighbours level by level; the root makes the last sum.
        let mut pool: Vec<NodeId> = nodes.into_iter().filter(|&n| n != root).collect();
        pool.reverse();
        let mut level = leaves;
        while level.len() > 1 {
            let mut next = Vec::with_capacity(level.len().div_ceil(2));
            let last = level.len() == 2;
            let mut it = level.into_iter();
            while let Some(a) = it.next() {
                match it.next() {
                    Some(b) => {
                        let n = if last {
                            root
                        } else {
                            pool.pop().unwrap_or(root)
                        };
                        g.nodes[n.0 as usize].inputs = vec![a, b];
                        next.push(Operand::Stream(g.node(n).outputs[0]));
                    }
                    None => next.push(a),
                }
            }
            level = next;
        }
        rewritten += 1;
    }
    rewritten
}

/// Collects the leaves and nodes of the tree under `n`; returns its depth
/// in additions.
fn collect(
    g: &Graph,
    n: NodeId,
    inner: &dyn Fn(&Graph, NodeId) -> bool,
    leaves: &mut Vec<Operand>,
    nodes: &mut Vec<NodeId>,
) -> usize {
    nodes.push(n);
    let mut depth = 0;
    for o in g.node(n).inputs.clone() {
        match o {
            Operand::Stream(e) if is_iadd(g, g.edge(e).from.0) && inner(g, g.edge(e).from.0) => {
                depth = depth.max(collect(g, g.edge(e).from.0, inner, leaves, nodes));
            }
            other => leaves.push(other),
        }
    }
    depth + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Scalar, Ty};
    use crate::machine::Machine;
    use crate::sim::{tagged, Sim};
    use std::collections::BTreeMap;

    /// `x0 + x1 + ... + x7` as a chain, summed into sink `s`.
    fn chain(n: usize) -> Graph {
        let mut g = Graph::new("chain");
        let xs: Vec<_> = (0..n)
            .map(|k| {
                g.add1(
                    NodeKind::Source {
                        name: format!("x{k}"),
                    },
                    vec![],
                    Ty::I32,
                    0,
                )
            })
            .collect();
        let mut acc = xs[0];
        for &x in &xs[1..] {
            acc = g.add1(
                NodeKind::Op(ArithOp::IAdd),
                vec![Operand::Stream(acc), Operand::Stream(x)],
                Ty::I32,
                0,
            );
        }
        g.add(
            NodeKind::Sink {
                name: "s".into(),
                sort: true,
            },
            vec![Operand::Stream(acc)],
            &[],
            0,
        );
        g
    }

    fn run(g: &Graph, n: usize) -> Vec<Scalar> {
        let inputs: BTreeMap<String, Vec<_>> = (0..n)
            .map(|k| {
                let vals = (0..5).map(|t| Scalar::Int(i64::from(i32::MAX) - (t * 7 + k as i64)));
                (format!("x{k}"), tagged(vals))
            })
            .collect();
        let out = Sim::new(g, &Machine::racer_v1(), &inputs)
            .and_then(|s| s.run(10_000))
            .unwrap_or_else(|e| panic!("{e}"));
        out.sinks["s"].stored().iter().map(|t| t.value).collect()
    }

    fn depth(g: &Graph, n: NodeId) -> usize {
        let ins = g.node(n).inputs.clone();
        1 + ins
            .iter()
            .filter_map(|o| match o {
                Operand::Stream(e) if is_iadd(g, g.edge(*e).from.0) => {
                    Some(depth(g, g.edge(*e).from.0))
                }
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_chain_of_seven_becomes_a_tree_of_depth_three_with_the_same_sums() {
        let mut g = chain(8);
        let before = run(&g, 8);
        assert_eq!(balance_add_trees(&mut g), 1);
        crate::graph::verify(&g).unwrap_or_else(|e| panic!("{e}"));
        let root = g
            .node_ids()
            .find(|&n| {
                is_iadd(&g, n) && {
                    let e = g.node(n).outputs[0];
                    g.consumers()[e.0 as usize]
                        .iter()
                        .all(|(c, _)| !is_iadd(&g, *c))
                }
            })
            .unwrap_or_else(|| panic!("no root"));
        assert_eq!(depth(&g, root), 3);
        // Wrapping sums are the same, overflow included.
        assert_eq!(run(&g, 8), before);
    }

    #[test]
    fn short_or_balanced_sums_are_left_alone() {
        let mut g = chain(3);
        assert_eq!(balance_add_trees(&mut g), 0);
        let mut g = chain(8);
        balance_add_trees(&mut g);
        let again = g.clone();
        assert_eq!(balance_add_trees(&mut g), 0);
        assert_eq!(g, again);
    }
}
