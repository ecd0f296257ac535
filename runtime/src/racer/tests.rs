//! The device's launch path short of the CUDA entry points: parameters
//! and arguments from the IR, element encoding, runs over host memory.

use super::buffers::{decode, encode, Bound};
use super::*;
use cucc_racer::graph::{Scalar, Ty};

/// Binds parameter 0 to `x` and parameter 1 to `y`, both of elements `ty`.
fn bind_xy<T>(x: &[T], y: &mut [T], ty: Ty) -> Vec<Bound> {
    vec![
        Bound {
            param: 0,
            host: x.as_ptr() as usize,
            len: std::mem::size_of_val(x),
            ty,
        },
        Bound {
            param: 1,
            host: y.as_mut_ptr() as usize,
            len: std::mem::size_of_val(y),
            ty,
        },
    ]
}

fn scale_module() -> Module {
    cucc_ir::parse_module(&crate::test_kernels::scale()).unwrap_or_else(|e| panic!("{e}"))
}

/// `scale` prepared for `grid` blocks of 64 threads, `a = 0.5`, over `n`
/// elements.
fn prepared_scale(grid: u32, n: u64) -> Prepared {
    let m = scale_module();
    let kinds = param_kinds(&m, "scale").unwrap_or_else(|| panic!("no kernel"));
    let opts = Options {
        grid,
        block: 64,
        args: lowering_args(&kinds, &[0, 0, 0.5f64.to_bits(), n], &[8, 8, 8, 4]),
        rotate: true,
        split_branches: false,
    };
    prepare(&m, "scale", &opts, machine()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn parameters_and_arguments_come_from_the_ir() {
    let m = scale_module();
    let kinds = param_kinds(&m, "scale").unwrap_or_else(|| panic!("no kernel"));
    assert_eq!(
        kinds,
        vec![
            ParamKind::Buffer,
            ParamKind::Buffer,
            ParamKind::F64,
            ParamKind::Int(32)
        ]
    );
    assert!(param_kinds(&m, "nope").is_none());
    let args = lowering_args(
        &kinds,
        &[0x1000, 0x2000, 2.5f64.to_bits(), 0xffff_fffe],
        &[8, 8, 8, 4],
    );
    assert_eq!(
        args,
        vec![Arg::Buffer, Arg::Buffer, Arg::F64(2.5), Arg::Int(-2)]
    );
}

#[test]
fn elements_round_trip_through_memory_bytes() {
    let ints = vec![Scalar::Int(-1), Scalar::Int(7)];
    let b = encode(&ints, Ty::I32);
    assert_eq!(b, vec![0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0]);
    assert_eq!(decode(&b, Ty::I32), ints);
    let f = vec![Scalar::F64(1.5), Scalar::F64(-0.0)];
    assert_eq!(decode(&encode(&f, Ty::F64), Ty::F64), f);
    let l = vec![Scalar::Int(i64::MIN), Scalar::Int(3)];
    assert_eq!(decode(&encode(&l, Ty::I64), Ty::I64), l);
}

/// `y = a·x + y` over host memory: the guard's 100 of 128 threads run, the
/// rest of `y` is untouched, and the report counts the elements.
#[test]
fn a_prepared_launch_runs_over_memory_and_writes_back_what_changed() {
    let p = prepared_scale(2, 100);
    let x: Vec<f64> = (0..128).map(|i| i as f64).collect();
    let mut y: Vec<f64> = (0..128).map(|i| 1000.0 - i as f64).collect();
    let bound = bind_xy(&x, &mut y, Ty::F64);
    let r = run_bound(&p, &bound).unwrap_or_else(|(_, e)| panic!("{e}"));
    for (i, v) in y.iter().enumerate() {
        let want = if i < 100 {
            0.5 * i as f64 + 1000.0 - i as f64
        } else {
            1000.0 - i as f64
        };
        assert_eq!(*v, want, "element {i}");
    }
    assert_eq!(r.elements_out, 100);
    assert_eq!(r.elements_in, 200);
    assert!(r.cycles > 0);
}

/// A buffer shorter than the threads read is an illegal address, not a
/// read past the allocation.
#[test]
fn a_short_buffer_is_an_illegal_address() {
    let p = prepared_scale(1, 64);
    let x = [0.0f64; 10];
    let mut y = vec![0.0f64; 64];
    let bound = bind_xy(&x, &mut y, Ty::F64);
    match run_bound(&p, &bound) {
        Err((Error::IllegalAddress, e)) => assert!(e.contains("parameter 0"), "{e}"),
        other => panic!("{:?}", other.map(|r| r.cycles)),
    }
}

#[test]
fn a_rejected_kernel_keeps_the_lowering_diagnostic() {
    let text = crate::test_kernels::scale().replace(
        "%s = fadd %m, %yv : f64",
        "%s = atomic.rmw fadd device %yp, %m : f64 loc(0:9:5)",
    );
    let m = cucc_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 1,
        block: 64,
        args: vec![Arg::Buffer, Arg::Buffer, Arg::F64(1.0), Arg::Int(64)],
        rotate: true,
        split_branches: false,
    };
    let e = prepare(&m, "scale", &opts, machine())
        .err()
        .unwrap_or_else(|| panic!("lowered"))
        .to_string();
    assert!(e.contains("scale.cu:9:5: error: scale: atomic"), "{e}");
}

#[test]
fn properties_describe_the_array() {
    crate::sim_device::assert_properties(
        properties(),
        "RACER array processor (32x32 PEs, simulated)",
        64,
        700_000,
        0,
    );
    assert_eq!(clock_hz(), 700_000_000);
}

/// A simulator stop is the launch's failure, with the replica and the
/// simulator's message: here a hand-built graph whose two streams of one
/// buffer are out of step, so an adder joins elements of different
/// threads.
#[test]
fn a_simulator_stop_is_a_launch_failure_naming_the_replica() {
    use cucc_racer::graph::{ArithOp, Graph, NodeKind, Operand};
    use cucc_racer::lower::{Lowered, MemStream};
    let mut g = Graph::new("t");
    let a = g.add1(NodeKind::Source { name: "a".into() }, vec![], Ty::I32, 1);
    let b = g.add1(NodeKind::Source { name: "b".into() }, vec![], Ty::I32, 1);
    let s = g.add1(
        NodeKind::Op(ArithOp::IAdd),
        vec![Operand::Stream(a), Operand::Stream(b)],
        Ty::I32,
        2,
    );
    g.add(
        NodeKind::Sink {
            name: "out".into(),
            sort: true,
        },
        vec![Operand::Stream(s)],
        &[],
        3,
    );
    let placement =
        cucc_racer::place::place(&mut g, machine(), None).unwrap_or_else(|e| panic!("{e}"));
    let stream = |name: &str, param, lead| MemStream {
        name: name.into(),
        param: Some(param),
        offset: 0,
        ty: Ty::I32,
        lead,
    };
    let p = Prepared {
        lowered: Lowered {
            graph: g,
            // `a` is sent one element ahead, and no delay line drops it.
            inputs: vec![stream("a", 0, 1), stream("b", 0, 0)],
            outputs: vec![stream("out", 1, 0)],
            loops: vec![],
            threads: 4,
            index_functions: vec![],
        },
        placement,
        replicas: vec![cucc_racer::place::Pe { row: 0, col: 0 }],
    };
    let x = [1i32, 2, 3, 4, 5];
    let mut y = [0i32; 4];
    let bound = bind_xy(&x, &mut y, Ty::I32);
    match run_bound(&p, &bound) {
        Err((Error::LaunchFailure, e)) => {
            assert!(e.contains("replica 0 (threads 0..4)"), "{e}");
            assert!(e.contains("different tags"), "{e}");
        }
        other => panic!("{:?}", other.map(|r| r.cycles)),
    }
    assert_eq!(y, [0; 4], "nothing written back");
}
