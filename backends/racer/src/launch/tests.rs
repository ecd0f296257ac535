use super::*;
use crate::lower::Arg;

fn mandel_module() -> Module {
    let kept = include_str!("../../tests/kernels/mandelbrot.cuir");
    cucc_ir::parse_module(kept).unwrap_or_else(|e| panic!("{e}"))
}

fn opts(grid: u32, block: u32, width: i64) -> Options {
    Options {
        grid,
        block,
        args: vec![
            Arg::Buffer,
            Arg::F64(-2.0),
            Arg::F64(-1.0),
            Arg::F64(0.1),
            Arg::F64(0.1),
            Arg::Int(width),
        ],
        rotate: true,
        split_branches: false,
    }
}

fn reference(n: usize, width: usize) -> Vec<Scalar> {
    (0..n)
        .map(|i| {
            let x = -2.0 + (i % width) as f64 * 0.1;
            let y = -1.0 + (i / width) as f64 * 0.1;
            Scalar::Int(crate::lower::tests::mandel_iters(x, y))
        })
        .collect()
}

#[test]
fn shares_cover_the_range_in_order() {
    assert_eq!(shares(10, 4), vec![0..3, 3..6, 6..8, 8..10]);
    assert_eq!(shares(3, 64), vec![0..1, 1..2, 2..3]);
    assert_eq!(shares(0, 64), Vec::<Range<u64>>::new());
    assert_eq!(shares(5, 0), vec![0..5]);
}

/// 64 replicas on slices of the launch give the reference's counts, and
/// the launch is faster than one replica doing everything.
#[test]
fn replicas_compute_the_reference_and_share_the_time() {
    let m = Machine::racer_v1();
    let p = prepare(&mandel_module(), "mandelbrot", &opts(4, 64, 32), &m)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.replicas.len(), 64);
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [(0, vec![Scalar::Int(0); 256])].into();
    let r = p
        .run(&m, &mut bufs, 10_000_000)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bufs[&0], reference(256, 32));
    assert_eq!(r.replicas, 64);
    assert_eq!(r.elements_out, 256);
    assert!(r.elements_in >= 256, "{r:?}");
    assert!(r.pe_utilisation > 0.0 && r.pe_utilisation <= 1.0, "{r:?}");
    assert!(
        r.route_utilisation > 0.0 && r.route_utilisation <= 1.0,
        "{r:?}"
    );
    let mut one = p.clone();
    one.replicas.truncate(1);
    let mut bufs1: BTreeMap<usize, Vec<Scalar>> = [(0, vec![Scalar::Int(0); 256])].into();
    let r1 = one
        .run(&m, &mut bufs1, 10_000_000)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bufs1, bufs);
    assert!(r1.cycles > r.cycles, "{r1:?} vs {r:?}");
}

#[test]
fn a_write_outside_the_buffer_is_a_bind_error() {
    let m = Machine::racer_v1();
    let p = prepare(&mandel_module(), "mandelbrot", &opts(1, 64, 8), &m)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [(0, vec![Scalar::Int(0); 10])].into();
    match p.run(&m, &mut bufs, 10_000_000) {
        Err(RunError::Bind(e)) => assert!(e.contains("parameter 0"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_cycle_limit_is_a_simulator_error_naming_the_replica() {
    let m = Machine::racer_v1();
    let p = prepare(&mandel_module(), "mandelbrot", &opts(1, 64, 8), &m)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [(0, vec![Scalar::Int(0); 64])].into();
    match p.run(&m, &mut bufs, 10) {
        Err(e @ RunError::Sim { replica: 0, .. }) => {
            assert!(e.to_string().contains("threads 0..1"), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn buffer_types_come_from_the_streams() {
    let m = Machine::racer_v1();
    let p = prepare(&mandel_module(), "mandelbrot", &opts(1, 64, 8), &m)
        .unwrap_or_else(|e| panic!("{e}"));
    let t = buffer_types(&p.lowered).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t, [(0, crate::graph::Ty::I32)].into());
}

/// What nvcc's PTX looks like after translation: `u64` parameters used
/// as byte addresses, `fma`, an unsigned compare.
const PTX_SHAPED: &str = r#"file "k.ptx"

kernel @k(%x: i64, %y: i64, %z: i64) loc(0:1:1) {
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %dx = block_dim x : i32
  %0 = mul %bx, %dx : i32
  %i = add %0, %tx : i32
  %i64 = sext %i : i64
  %eight = const 8 : i64
  %off = mul %i64, %eight : i64
  %xa = add %x, %off : i64
  %xp = inttoptr %xa : ptr<global>
  %xv = load %xp : f64 loc(0:3:3)
  %m = call extern @fma(%xv, %xv, %xv) : f64 loc(0:4:3)
  %ya = add %off, %y : i64
  %yp = inttoptr %ya : ptr<global>
  store %yp, %m loc(0:5:3)
  %lim = const 5 : i32
  %small = cmp ult %i, %lim : i1 loc(0:6:3)
  %w = zext %small : i32
  %four = const 4 : i64
  %zo = mul %i64, %four : i64
  %za = add %z, %zo : i64
  %zp = inttoptr %za : ptr<global>
  store %zp, %w loc(0:7:3)
  return
}
"#;

#[test]
fn byte_addresses_fma_and_unsigned_compares_lower() {
    let m = cucc_ir::parse_module(PTX_SHAPED).unwrap_or_else(|e| panic!("{e}"));
    let machine = Machine::racer_v1();
    let opts = Options {
        grid: 2,
        block: 4,
        args: vec![Arg::Buffer; 3],
        rotate: true,
        split_branches: false,
    };
    let p = prepare(&m, "k", &opts, &machine).unwrap_or_else(|e| panic!("{e}"));
    let text = crate::graph::print(&p.lowered.graph);
    // The compare depends on the thread index alone: the memory unit
    // computes it (offload); the multiply-add stays on the array.
    assert!(text.contains("fma"), "{text}");
    let x: Vec<f64> = (0..8).map(|k| k as f64 * 0.3 - 1.0).collect();
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [
        (0, x.iter().map(|&v| Scalar::F64(v)).collect()),
        (1, vec![Scalar::F64(0.0); 8]),
        (2, vec![Scalar::Int(9); 8]),
    ]
    .into();
    p.run(&machine, &mut bufs, 100_000)
        .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<Scalar> = x.iter().map(|&v| Scalar::F64(v.mul_add(v, v))).collect();
    assert_eq!(bufs[&1], want);
    let small: Vec<Scalar> = (0..8).map(|k| Scalar::Int(i64::from(k < 5))).collect();
    assert_eq!(bufs[&2], small);
    assert_eq!(
        buffer_types(&p.lowered),
        Ok([
            (0, crate::graph::Ty::F64),
            (1, crate::graph::Ty::F64),
            (2, crate::graph::Ty::I32)
        ]
        .into())
    );
}

#[test]
fn a_byte_address_between_elements_is_a_diagnostic() {
    let text = PTX_SHAPED.replace("%eight = const 8 : i64", "%eight = const 6 : i64");
    let m = cucc_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 1,
        block: 4,
        args: vec![Arg::Buffer; 3],
        rotate: true,
        split_branches: false,
    };
    match prepare(&m, "k", &opts, &Machine::racer_v1()) {
        Err(PrepareError::Lower(d)) => {
            assert_eq!(d.construct, "gather", "{d}");
            assert!(d.location.ends_with(":3:3"), "{d}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unsigned_compares_order_negative_values_last() {
    use crate::graph::{ArithOp, Pred, Ty};
    let lt = |a: i64, b: i64| {
        crate::sim::eval(
            ArithOp::UCmp(Pred::Lt),
            &[Scalar::Int(a), Scalar::Int(b)],
            Ty::I1,
        )
    };
    assert_eq!(lt(-1, 1), Scalar::Int(0));
    assert_eq!(lt(1, -1), Scalar::Int(1));
    assert_eq!(lt(i64::from(i32::MIN), -1), Scalar::Int(1));
}

/// PTX's bounds guard, `if (i >= n) {} else { ... }`, shortens the launch
/// like `if (i < n)`; `c ? 1 : 0` is a conversion, not a select.
const INVERTED_GUARD: &str = r#"file "g.ptx"

kernel @g(%x: ptr<global>, %y: ptr<global>, %n: i32) loc(0:1:1) {
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %dx = block_dim x : i32
  %0 = mul %bx, %dx : i32
  %i = add %0, %tx : i32
  %out = cmp sge %i, %n : i1
  if %out {
    yield
  } else {
    %i64 = sext %i : i64
    %xp = ptr.index i32 %x, %i64 : ptr<global>
    %xv = load %xp : i32
    %three = const 3 : i32
    %big = cmp sgt %xv, %three : i1
    %one = const 1 : i32
    %zero = const 0 : i32
    %w = select %big, %one, %zero : i32
    %yp = ptr.index i32 %y, %i64 : ptr<global>
    store %yp, %w
    yield
  } loc(0:3:3)
  return
}
"#;

#[test]
fn an_inverted_bounds_guard_shortens_the_launch() {
    let m = cucc_ir::parse_module(INVERTED_GUARD).unwrap_or_else(|e| panic!("{e}"));
    let machine = Machine::racer_v1();
    let opts = Options {
        grid: 2,
        block: 8,
        args: vec![Arg::Buffer, Arg::Buffer, Arg::Int(11)],
        rotate: true,
        split_branches: false,
    };
    let p = prepare(&m, "g", &opts, &machine).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.lowered.threads, 11);
    let text = crate::graph::print(&p.lowered.graph);
    assert!(
        text.contains("intcast") && !text.contains("select"),
        "{text}"
    );
    // Only 11 elements of x: the guard keeps the reads inside it.
    let mut bufs: BTreeMap<usize, Vec<Scalar>> = [
        (0, (0..11).map(Scalar::Int).collect()),
        (1, vec![Scalar::Int(-7); 16]),
    ]
    .into();
    p.run(&machine, &mut bufs, 100_000)
        .unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<Scalar> = (0..16)
        .map(|k| Scalar::Int(if k >= 11 { -7 } else { i64::from(k > 3) }))
        .collect();
    assert_eq!(bufs[&1], want);
}
