//! Multiplies feeding one add, fused into the PE's multiply-add.
//!
//! The thesis' PE executes a double-precision multiply-add every two
//! cycles (L1035, the basis of its peak figure L1041), its FPU's
//! multiplier feeding the adder (L896). A multiply whose only consumer is
//! an add therefore takes one operator, `fmuladd`, on the multiplier's
//! slot. The product is rounded before the add (assumed: an unfused
//! multiply-add), so the result has the same bits as the source's two
//! operations and the CPU device's; only the operand order of the add
//! may change, and IEEE addition is commutative. Mandelbrot's
//! `2 * z1 * z2 + y` is one; its squares, used twice, are not.

use crate::graph::{ArithOp, NodeId, NodeKind, Operand};
use crate::lower::Lowered;

/// Fuses every `fmul` whose result only an `fadd` reads into that add.
/// Returns the number of multiply-adds made.
pub fn fuse_multiply_adds(l: &mut Lowered) -> usize {
    let g = &mut l.graph;
    let consumers = g.consumers();
    let mut dead = vec![false; g.nodes.len()];
    let mut fused = 0;
    for i in 0..g.nodes.len() {
        if g.nodes[i].kind != NodeKind::Op(ArithOp::FAdd) {
            continue;
        }
        for port in 0..2 {
            let Operand::Stream(e) = g.nodes[i].inputs[port] else {
                continue;
            };
            let p = g.edge(e).from.0 .0 as usize;
            if dead[p]
                || g.nodes[p].kind != NodeKind::Op(ArithOp::FMul)
                || consumers[e.0 as usize].len() != 1
            {
                continue;
            }
            let other = g.nodes[i].inputs[1 - port];
            let (a, b) = (g.nodes[p].inputs[0], g.nodes[p].inputs[1]);
            g.nodes[i].kind = NodeKind::Op(ArithOp::FMulAdd);
            g.nodes[i].inputs = vec![a, b, other];
            // The multiply's operands now feed the multiply-add.
            g.nodes[p].inputs.clear();
            dead[p] = true;
            fused += 1;
            break;
        }
    }
    if fused == 0 {
        return 0;
    }
    let map = g.remove_nodes(&dead);
    for lp in &mut l.loops {
        lp.nodes = lp
            .nodes
            .iter()
            .filter_map(|n| map[n.0 as usize])
            .collect::<Vec<NodeId>>();
    }
    fused
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{parse, print, verify};
    use crate::machine::Machine;
    use crate::sim::{tagged, Sim};
    use std::collections::BTreeMap;

    fn lowered(text: &str) -> Lowered {
        Lowered {
            graph: parse(text).unwrap_or_else(|e| panic!("{e}")),
            inputs: Vec::new(),
            outputs: Vec::new(),
            loops: Vec::new(),
            threads: 0,
            index_functions: Vec::new(),
        }
    }

    const FUSED: &str = "graph \"k\" {
  s0 = source \"a\" : f64
  s1, s2, s3 = copy s0 : f64, f64, f64
  s4 = fmul s1, #3.0 : f64 @2
  s5 = fadd s2, s4 : f64 @2
  discard s3
  sink \"y\" s5
}
";

    const SHARED: &str = "graph \"k\" {
  s0 = source \"a\" : f64
  s1, s2 = copy s0 : f64, f64
  s3 = fmul s1, #3.0 : f64 @2
  s4, s5 = copy s3 : f64, f64
  s6 = fadd s2, s4 : f64 @2
  sink \"y\" s6
  sink \"p\" s5
}
";

    #[test]
    fn a_product_read_only_by_an_add_becomes_one_multiply_add() {
        // `y = a + a * 3.0`: the product's one consumer is the add.
        let mut l = lowered(FUSED);
        assert_eq!(fuse_multiply_adds(&mut l), 1);
        verify(&l.graph).unwrap_or_else(|e| panic!("{e}"));
        let out = print(&l.graph);
        assert!(out.contains("s4 = fmuladd s1, #3.0, s2 : f64 @2"), "{out}");
        assert!(!out.contains("fmul "), "{out}");
        // Same bits as the two operations, for awkward values too.
        let m = Machine::racer_v1();
        let xs = [0.1, -0.0, 1e308, 3.0f64.sqrt(), f64::MIN_POSITIVE / 3.0];
        let inputs: BTreeMap<String, _> = [(
            "a".to_string(),
            tagged(xs.iter().map(|&x| crate::graph::Scalar::F64(x))),
        )]
        .into();
        let got = Sim::new(&l.graph, &m, &inputs)
            .and_then(|s| s.run(10_000))
            .unwrap_or_else(|e| panic!("{e}"));
        let vals: Vec<u64> = got.sinks["y"]
            .stored()
            .iter()
            .map(|t| match t.value {
                crate::graph::Scalar::F64(v) => v.to_bits(),
                crate::graph::Scalar::Int(v) => v as u64,
            })
            .collect();
        let want: Vec<u64> = xs.iter().map(|&x| (x + x * 3.0).to_bits()).collect();
        assert_eq!(vals, want);
    }

    #[test]
    fn a_product_read_twice_is_left_alone() {
        let mut l = lowered(SHARED);
        let before = print(&l.graph);
        assert_eq!(fuse_multiply_adds(&mut l), 0);
        assert_eq!(print(&l.graph), before);
    }
}
