//! Lowering tests on the thesis' Mandelbrot kernel (frontend output kept
//! as text) and on small per-thread kernels.

use std::collections::BTreeMap;

use super::*;
use crate::graph::{ArithOp, NodeKind};
use crate::machine::Machine;
use crate::sim::{Sim, Token};

pub(crate) const MANDELBROT: &str = include_str!("../../tests/kernels/mandelbrot.cuir");

/// The viewport of the figures in docs/racer.md.
pub(crate) struct View {
    pub w: u32,
    pub h: u32,
    pub x0: f64,
    pub y0: f64,
    pub dx: f64,
    pub dy: f64,
}

pub(crate) fn mandel_opts(v: &View, rotate: bool) -> Options {
    let n = v.w * v.h;
    Options {
        grid: n / 64,
        block: 64,
        args: vec![
            Arg::Buffer,
            Arg::F64(v.x0),
            Arg::F64(v.y0),
            Arg::F64(v.dx),
            Arg::F64(v.dy),
            Arg::Int(v.w as i64),
        ],
        rotate,
        split_branches: false,
    }
}

/// The iterations the kernel counts for the point `x + iy`, operation for
/// operation.
pub(crate) fn mandel_iters(x: f64, y: f64) -> i64 {
    let (mut z1, mut z2, mut iter) = (0.0f64, 0.0f64, 0i64);
    loop {
        let a = z1 * z1 - z2 * z2 + x;
        let b = 2.0 * z1 * z2 + y;
        z1 = a;
        z2 = b;
        let len = z1 * z1 + z2 * z2;
        iter += 1;
        if !(iter < 200 && len < 16.0) {
            return iter;
        }
    }
}

/// The kernel in Rust, operation for operation.
pub(crate) fn mandel_ref(v: &View) -> Vec<i64> {
    (0..(v.w * v.h) as i32)
        .map(|i| {
            let x = v.x0 + ((i % v.w as i32) as f64) * v.dx;
            let y = v.y0 + ((i / v.w as i32) as f64) * v.dy;
            mandel_iters(x, y)
        })
        .collect()
}

pub(crate) fn lower_mandel(v: &View, rotate: bool) -> Lowered {
    let m = cucc_ir::parse_module(MANDELBROT).unwrap_or_else(|e| panic!("{e}"));
    compile(&m, "mandelbrot", &mandel_opts(v, rotate)).unwrap_or_else(|e| panic!("{e}"))
}

pub(crate) fn run_mandel(l: &Lowered, m: &Machine) -> crate::sim::Outcome {
    let tids: Vec<Token> = (0..l.threads)
        .map(|t| Token {
            tag: t,
            value: Scalar::Int(t as i64),
        })
        .collect();
    let inputs: BTreeMap<String, Vec<Token>> = [("tid".to_string(), tids)].into();
    Sim::new(&l.graph, m, &inputs)
        .and_then(|s| s.run(50_000_000))
        .unwrap_or_else(|e| panic!("{e}\n{}", crate::graph::print(&l.graph)))
}

const SMALL: View = View {
    w: 32,
    h: 16,
    x0: -2.0,
    y0: -1.0,
    dx: 3.0 / 32.0,
    dy: 2.0 / 16.0,
};

#[test]
fn mandelbrot_loop_has_the_thesis_operation_counts() {
    let l = lower_mandel(&SMALL, true);
    assert_eq!(l.loops.len(), 1);
    let c = l.loop_counts(0);
    let n = |k: &str| c.get(k).copied().unwrap_or(0);
    // Thesis L1023-1029: 2 compares, 4 FP multiplies, 3 FP adds, 1 integer
    // add, 5 branching and 5 merging lanes, 11 synchronisations.
    // Multiplies: `z1*z1` and `z2*z2` (shared by `len` and the next `z`,
    // the condition being evaluated test-first on the merged values),
    // `2*z1`, and `(2*z1)*z2 + y` as one multiply-add. Adds: `len`, `+ x`
    // and `z1*z1 - z2*z2`, a subtraction on the adder (the thesis' table
    // has no subtract row; its adder, like the GRFPU it cites, does both).
    assert_eq!(
        (n("compare"), n("fmul"), n("fadd") + n("fsub"), n("iadd")),
        (2, 4, 3, 1),
        "{c:?}"
    );
    assert_eq!((n("fadd"), n("fsub")), (2, 1), "{c:?}");
    let muladds = l.loops[0]
        .nodes
        .iter()
        .filter(|k| l.graph.node(**k).kind == NodeKind::Op(ArithOp::FMulAdd))
        .count();
    assert_eq!(muladds, 1);
    // Lanes: z1, z2, iter and x, y riding along; nothing rotated in.
    assert!(l.loops[0].test_first);
    assert_eq!((l.loops[0].lanes, l.loops[0].rotated), (5, 0));
    assert_eq!((n("branch"), n("merge")), (5, 5));
    // The merge's five lanes and the split's condition and five lanes are
    // each synchronised before their steering decision: 5 + 6.
    assert_eq!(n("sync"), 11);
    assert_eq!(
        n("logic"),
        1,
        "`iter < 200 && len < 16` if-converted to an and"
    );
}

#[test]
fn without_rotation_the_loop_recomputes_the_squares() {
    // The do-while as written: the body, then the condition on the next
    // values, whose squares are computed again (`a*a` only for `len`: a
    // multiply-add with `b*b`).
    let l = lower_mandel(&SMALL, false);
    let c = l.loop_counts(0);
    assert!(!l.loops[0].test_first);
    assert_eq!(
        (c["fmul"], c["fadd"], c["fsub"], l.loops[0].lanes),
        (6, 1, 1, 5),
        "{c:?}"
    );
}

#[test]
fn simulated_mandelbrot_matches_the_reference_per_pixel() {
    let m = Machine::racer_v1();
    let l = lower_mandel(&SMALL, true);
    let out = run_mandel(&l, &m);
    let got: Vec<i64> = out.sinks["arg0"]
        .stored()
        .iter()
        .map(|t| match t.value {
            Scalar::Int(v) => v,
            Scalar::F64(v) => v as i64,
        })
        .collect();
    assert_eq!(got, mandel_ref(&SMALL));
    let tags: Vec<u64> = out.sinks["arg0"].stored().iter().map(|t| t.tag).collect();
    assert_eq!(tags, (0..l.threads).collect::<Vec<_>>());
}

#[test]
fn malformed_ir_is_a_diagnostic() {
    let text = "kernel @k(%a: f64) {\n  %b = fadd %a : f64\n  return\n}\n";
    let m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 1,
        block: 1,
        args: vec![Arg::F64(1.0)],
        rotate: true,
        split_branches: false,
    };
    let d = compile(&m, "k", &opts).expect_err("malformed");
    assert_eq!(d.construct, "ir", "{d}");
}

#[test]
fn counted_loop_with_a_thread_dependent_bound_runs() {
    // acc = sum of i for i in [0, tid): trips differ per thread, including
    // zero trips for thread 0.
    let text = "kernel @k(%out: ptr<global>) {
  %tx = thread_id x : i32
  %z = const 0 : i32
  %one = const 1 : i32
  %s = for %i = %z to %tx step %one iter(%acc = %z) -> (i32) {
    %a = add %acc, %i : i32
    yield %a
  } loc(0:7:3)
  %i64 = sext %tx : i64
  %p = ptr.index i32 %out, %i64 : ptr<global>
  store %p, %s
  return
}
";
    let m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 1,
        block: 24,
        args: vec![Arg::Buffer],
        rotate: true,
        split_branches: false,
    };
    let l = compile(&m, "k", &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.loops.len(), 1);
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [(0, vec![Scalar::Int(-1); 24])].into();
    let inputs = crate::run::bind(&l, &bufs).unwrap_or_else(|e| panic!("{e}"));
    let out = Sim::new(&l.graph, &Machine::racer_v1(), &inputs)
        .and_then(|s| s.run(1_000_000))
        .unwrap_or_else(|e| panic!("{e}\n{}", crate::graph::print(&l.graph)));
    crate::run::write_back(&l, &out, &mut bufs).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<Scalar> = (0..24i64).map(|t| Scalar::Int(t * (t - 1) / 2)).collect();
    assert_eq!(bufs[&0], want);
}

#[test]
fn unsigned_for_loops_are_rejected_at_their_line() {
    let text = "kernel @k(%out: ptr<global>) {
  %tx = thread_id x : i32
  %z = const 0 : i32
  %one = const 1 : i32
  %s = for unsigned %i = %z to %tx step %one iter(%acc = %z) -> (i32) {
    %a = add %acc, %i : i32
    yield %a
  } loc(0:7:3)
  %i64 = sext %tx : i64
  %p = ptr.index i32 %out, %i64 : ptr<global>
  store %p, %s
  return
}
";
    let m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 1,
        block: 8,
        args: vec![Arg::Buffer],
        rotate: true,
        split_branches: false,
    };
    let d = compile(&m, "k", &opts).expect_err("unsigned");
    assert_eq!(d.construct, "for loop", "{d}");
    assert!(d.location.ends_with(":7:3"), "{d}");
}

#[test]
fn nested_loops_run() {
    // For each thread: sum over j < tid of (count-down loop from j to 0).
    let text = "kernel @k(%out: ptr<global>) {
  %tx = thread_id x : i32
  %z = const 0 : i32
  %one = const 1 : i32
  %s = for %j = %z to %tx step %one iter(%acc = %z) -> (i32) {
    %r, %c = while (%x = %j, %n = %z) -> (i32, i32) {
      %more = cmp sgt %x, %z : i1
      condition %more, %x, %n
    } do (%x2: i32, %n2: i32) {
      %xm = sub %x2, %one : i32
      %np = add %n2, %one : i32
      yield %xm, %np
    } loc(0:9:5)
    %a = add %acc, %c : i32
    yield %a
  } loc(0:7:3)
  %i64 = sext %tx : i64
  %p = ptr.index i32 %out, %i64 : ptr<global>
  store %p, %s
  return
}
";
    let m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 1,
        block: 16,
        args: vec![Arg::Buffer],
        rotate: true,
        split_branches: false,
    };
    let l = compile(&m, "k", &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.loops.len(), 2);
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [(0, vec![Scalar::Int(-1); 16])].into();
    let inputs = crate::run::bind(&l, &bufs).unwrap_or_else(|e| panic!("{e}"));
    let out = Sim::new(&l.graph, &Machine::racer_v1(), &inputs)
        .and_then(|s| s.run(1_000_000))
        .unwrap_or_else(|e| panic!("{e}\n{}", crate::graph::print(&l.graph)));
    crate::run::write_back(&l, &out, &mut bufs).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<Scalar> = (0..16i64).map(|t| Scalar::Int(t * (t - 1) / 2)).collect();
    assert_eq!(bufs[&0], want);
}

#[test]
fn mandelbrot_with_branches_as_split_and_merge_matches_the_reference() {
    let m = Machine::racer_v1();
    let module = cucc_ir::parse_module(MANDELBROT).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        split_branches: true,
        ..mandel_opts(&SMALL, true)
    };
    let mut l = compile(&module, "mandelbrot", &opts).unwrap_or_else(|e| panic!("{e}"));
    let c = l.loop_counts(0);
    // `iter < 200 && len < 16`: the second compare runs only on the
    // taken side; the branch adds a split and a merge inside the loop.
    assert_eq!((c["compare"], c.get("logic")), (2, None), "{c:?}");
    crate::balance::balance(&mut l.graph, &m).expect("acyclic");
    let out = run_mandel(&l, &m);
    let got: Vec<i64> = out.sinks["arg0"]
        .stored()
        .iter()
        .map(|t| match t.value {
            Scalar::Int(v) => v,
            Scalar::F64(v) => v as i64,
        })
        .collect();
    assert_eq!(got, mandel_ref(&SMALL));
}
