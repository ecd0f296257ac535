//! Hand-built graphs: a pipeline, a fork/join, a loop with a back-edge
//! merge, a deliberate deadlock, a tag mix-up.

use super::*;
use crate::graph::{ArithOp, Graph, NodeKind, Operand, Pred, Scalar, Ty};
use crate::machine::Machine;

fn s(e: EdgeId) -> Operand {
    Operand::Stream(e)
}

fn f(v: f64) -> Operand {
    Operand::Lmu(Scalar::F64(v))
}

fn i(v: i64) -> Operand {
    Operand::Lmu(Scalar::Int(v))
}

fn op(g: &mut Graph, o: ArithOp, ins: Vec<Operand>, ty: Ty) -> EdgeId {
    g.add1(NodeKind::Op(o), ins, ty, 0)
}

fn copy2(g: &mut Graph, e: EdgeId) -> (EdgeId, EdgeId) {
    let ty = g.edge(e).ty;
    let (_, o) = g.add(NodeKind::Copy, vec![s(e)], &[ty, ty], 0);
    (o[0], o[1])
}

fn source(g: &mut Graph, name: &str, ty: Ty) -> EdgeId {
    g.add1(NodeKind::Source { name: name.into() }, vec![], ty, 0)
}

fn sink(g: &mut Graph, name: &str, e: EdgeId, sort: bool) {
    g.add(
        NodeKind::Sink {
            name: name.into(),
            sort,
        },
        vec![s(e)],
        &[],
        0,
    );
}

fn inputs(list: &[(&str, Vec<Token>)]) -> BTreeMap<String, Vec<Token>> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn floats(n: usize) -> Vec<Token> {
    tagged((0..n).map(|k| Scalar::F64(k as f64 * 0.5)))
}

#[test]
fn pipeline_latency_is_its_registers_and_throughput_one_per_two_cycles() {
    let m = Machine::racer_v1();
    let mut g = Graph::new("pipe");
    let x = source(&mut g, "x", Ty::F64);
    let a = op(&mut g, ArithOp::FAdd, vec![s(x), f(1.0)], Ty::F64);
    let b = op(&mut g, ArithOp::FMul, vec![s(a), f(2.0)], Ty::F64);
    sink(&mut g, "y", b, false);
    let n = 50;
    let out = Sim::new(&g, &m, &inputs(&[("x", floats(n))]))
        .and_then(|s| s.run(10_000))
        .expect("runs");
    let log = &out.sinks["y"];
    let got: Vec<f64> = log.stored().iter().map(|t| float(t.value)).collect();
    let want: Vec<f64> = (0..n).map(|k| (k as f64 * 0.5 + 1.0) * 2.0).collect();
    assert_eq!(got, want);
    // Registers on the path: source route 1, fadd 3 + 1, fmul 4 + 1; one
    // cycle in each, plus the cycle the sink takes the element.
    let regs = 1 + (m.latency.fadd + 1) + (m.latency.fmul + 1);
    assert_eq!(out.first_output_cycle, Some(regs as u64 + 1));
    // Half-speed: exactly two cycles between consecutive elements.
    for w in log.arrivals.windows(2) {
        assert_eq!(w[1].0 - w[0].0, 2);
    }
    assert_eq!(out.cycles, regs as u64 + 1 + 2 * (n as u64 - 1));
}

#[test]
fn back_pressure_from_a_slow_join_stops_the_pipeline_in_order() {
    // One operand of the join comes through two extra multipliers: the
    // other side must wait in its registers without losing or reordering
    // elements.
    let m = Machine::racer_v1();
    let mut g = Graph::new("bp");
    let x = source(&mut g, "x", Ty::F64);
    let y = source(&mut g, "y", Ty::F64);
    let d = op(&mut g, ArithOp::FMul, vec![s(y), f(1.0)], Ty::F64);
    let d = op(&mut g, ArithOp::FMul, vec![s(d), f(1.0)], Ty::F64);
    let z = op(&mut g, ArithOp::FSub, vec![s(x), s(d)], Ty::F64);
    sink(&mut g, "z", z, false);
    let n = 30;
    let out = Sim::new(&g, &m, &inputs(&[("x", floats(n)), ("y", floats(n))]))
        .and_then(|s| s.run(10_000))
        .expect("runs");
    let z = out.sinks["z"].stored();
    assert_eq!(z.len(), n);
    assert!(z
        .iter()
        .enumerate()
        .all(|(k, t)| t.tag == k as u64 && float(t.value) == 0.0));
}

#[test]
fn fork_join_of_unequal_paths_synchronises_by_firing_rule() {
    let m = Machine::racer_v1();
    let mut g = Graph::new("fj");
    let x = source(&mut g, "x", Ty::F64);
    let (p, q) = copy2(&mut g, x);
    let (p1, p2) = copy2(&mut g, p);
    let sq = op(&mut g, ArithOp::FMul, vec![s(p1), s(p2)], Ty::F64);
    let inc = op(&mut g, ArithOp::FAdd, vec![s(q), f(1.0)], Ty::F64);
    let r = op(&mut g, ArithOp::FSub, vec![s(sq), s(inc)], Ty::F64);
    sink(&mut g, "r", r, false);
    let n = 40;
    let out = Sim::new(&g, &m, &inputs(&[("x", floats(n))]))
        .and_then(|s| s.run(10_000))
        .expect("runs");
    let got: Vec<f64> = out.sinks["r"]
        .stored()
        .iter()
        .map(|t| float(t.value))
        .collect();
    let want: Vec<f64> = (0..n)
        .map(|k| k as f64 * 0.5)
        .map(|v| v * v - (v + 1.0))
        .collect();
    assert_eq!(got, want);
}

/// `k = 0; do k++; while (k < n);` per element: a closed route through a
/// priority merge and a split, elements overtaking each other.
fn count_loop() -> Graph {
    let mut g = Graph::new("count");
    let n = source(&mut g, "n", Ty::I32);
    let (n_in, trig) = copy2(&mut g, n);
    let k0 = op(&mut g, ArithOp::Splat, vec![s(trig), i(0)], Ty::I32);
    // Feedback edges are created by the split below; the merge is built
    // first with placeholder ids patched afterwards.
    let (merge, mo) = g.add(NodeKind::Merge, vec![], &[Ty::I32, Ty::I32], 0);
    let (nm1, nm2) = copy2(&mut g, mo[0]);
    let k1 = op(&mut g, ArithOp::IAdd, vec![s(mo[1]), i(1)], Ty::I32);
    let (k1a, k1b) = copy2(&mut g, k1);
    let c = op(
        &mut g,
        ArithOp::ICmp(Pred::Lt),
        vec![s(k1a), s(nm1)],
        Ty::I1,
    );
    let (_, so) = g.add(
        NodeKind::Split,
        vec![s(c), s(nm2), s(k1b)],
        &[Ty::I32; 4],
        0,
    );
    g.nodes[merge.0 as usize].inputs = vec![s(so[0]), s(so[1]), s(n_in), s(k0)];
    g.add(NodeKind::Discard, vec![s(so[2])], &[], 0);
    sink(&mut g, "k", so[3], true);
    g
}

#[test]
fn loop_with_priority_merge_computes_and_reorders_by_tag() {
    let m = Machine::racer_v1();
    let g = count_loop();
    crate::graph::verify(&g).expect("valid");
    let ns: Vec<i64> = vec![25, 1, 3, 1, 7, 2, 40, 1, 1, 5, 9, 1, 2, 3, 4, 12];
    let out = Sim::new(
        &g,
        &m,
        &inputs(&[("n", tagged(ns.iter().map(|&v| Scalar::Int(v))))]),
    )
    .and_then(|s| s.run(100_000))
    .expect("runs");
    let log = &out.sinks["k"];
    let got: Vec<i64> = log.stored().iter().map(|t| int(t.value)).collect();
    assert_eq!(got, ns.iter().map(|&v| v.max(1)).collect::<Vec<_>>());
    let arrival: Vec<u64> = log.arrivals.iter().map(|(_, t)| t.tag).collect();
    assert_ne!(
        arrival,
        (0..ns.len() as u64).collect::<Vec<_>>(),
        "short loops overtake long ones"
    );
    assert_eq!(arrival.last(), Some(&6), "the 40-trip element leaves last");
}

#[test]
fn loop_without_an_initial_element_deadlocks_and_names_the_node() {
    let m = Machine::racer_v1();
    let mut g = Graph::new("dead");
    let a = source(&mut g, "a", Ty::I32);
    let (add, ao) = g.add(NodeKind::Op(ArithOp::IAdd), vec![], &[Ty::I32], 7);
    let (o, fb) = copy2(&mut g, ao[0]);
    g.nodes[add.0 as usize].inputs = vec![s(a), s(fb)];
    sink(&mut g, "o", o, false);
    let e = Sim::new(
        &g,
        &m,
        &inputs(&[("a", tagged([Scalar::Int(1), Scalar::Int(2)]))]),
    )
    .and_then(|s| s.run(1000))
    .expect_err("deadlocks");
    match e {
        SimError::Deadlock { cycle, stalled } => {
            assert_eq!(cycle, 2);
            assert_eq!(stalled.len(), 1, "{stalled:?}");
            assert_eq!(stalled[0].node, add);
            assert!(stalled[0].reason.contains("waits for in1"), "{stalled:?}");
            assert!(stalled[0].what.contains("iadd"), "{stalled:?}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn joining_elements_of_different_threads_is_reported() {
    let m = Machine::racer_v1();
    let mut g = Graph::new("mix");
    let a = source(&mut g, "a", Ty::F64);
    let b = source(&mut g, "b", Ty::F64);
    let c = op(&mut g, ArithOp::FAdd, vec![s(a), s(b)], Ty::F64);
    sink(&mut g, "c", c, false);
    let mut rev = floats(3);
    rev.reverse();
    let e = Sim::new(&g, &m, &inputs(&[("a", floats(3)), ("b", rev)]))
        .and_then(|s| s.run(1000))
        .expect_err("mixed");
    assert!(
        matches!(e, SimError::TagMismatch { ref tags, .. } if tags == &vec![0, 2]),
        "{e}"
    );
}

#[test]
fn unbound_source_and_invalid_graph_are_errors() {
    let m = Machine::racer_v1();
    let mut g = Graph::new("x");
    let a = source(&mut g, "a", Ty::F64);
    sink(&mut g, "o", a, false);
    assert_eq!(
        Sim::new(&g, &m, &BTreeMap::new()).err(),
        Some(SimError::MissingInput("a".into()))
    );
    g.add(NodeKind::Discard, vec![s(a)], &[], 0);
    assert!(matches!(
        Sim::new(&g, &m, &inputs(&[("a", floats(1))])).err(),
        Some(SimError::Invalid(_))
    ));
}

/// Runs tags 0..6 with values 0..6 through one delay node (fill -1) and
/// returns the (tag, value) pairs that reach the sink.
fn run_delay(name: &str, depth: u32, skip: u32) -> Vec<(u64, i64)> {
    let m = Machine::racer_v1();
    let mut g = Graph::new(name);
    let a = source(&mut g, "a", Ty::I64);
    let d = g.add1(
        NodeKind::Delay {
            depth,
            fill: Scalar::Int(-1),
            skip,
        },
        vec![s(a)],
        Ty::I64,
        0,
    );
    sink(&mut g, "d", d, false);
    let out = Sim::new(&g, &m, &inputs(&[("a", tagged((0..6).map(Scalar::Int)))]))
        .and_then(|s| s.run(1000))
        .expect("runs");
    out.sinks["d"]
        .stored()
        .iter()
        .map(|t| (t.tag, int(t.value)))
        .collect()
}

#[test]
fn delay_line_shifts_values_and_keeps_tags() {
    assert_eq!(
        run_delay("delay", 3, 0),
        vec![(0, -1), (1, -1), (2, -1), (3, 0), (4, 1), (5, 2)]
    );
}

#[test]
fn delay_skip_drops_the_priming_elements() {
    assert_eq!(
        run_delay("skip", 1, 2),
        vec![(2, 1), (3, 2), (4, 3), (5, 4)]
    );
}
