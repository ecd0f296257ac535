//! The published Mandelbrot figures next to this model's (docs/racer.md
//! "Figures"); every number in that table is asserted here.

use crate::graph::NodeKind;
use crate::lower::tests::{lower_mandel, mandel_ref, View};
use crate::lower::Lowered;
use crate::machine::Machine;
use crate::place::{place, replicate, Placement};
use crate::sim::Outcome;

/// The stated viewport: 64 x 48 pixels over [-3, 2) x [-2, 2), pixels fed
/// in row-major order. Chosen so the average iteration count (19.1) is
/// near the 21 that the thesis' 42 cycles/pixel implies at 2 cycles per
/// iteration; the thesis gives no viewport (L1018).
pub(crate) const VIEW: View = View {
    w: 64,
    h: 48,
    x0: -3.0,
    y0: -2.0,
    dx: 5.0 / 64.0,
    dy: 4.0 / 48.0,
};

struct Figures {
    placement: Placement,
    out: Outcome,
    avg_iter: f64,
    pixels: usize,
    lowered: Lowered,
}

fn figures(v: &View) -> Figures {
    let m = Machine::racer_v1();
    let mut l = lower_mandel(v, true);
    // Pixel coordinates from the memory units (L1012); the rest of the
    // graph on one block.
    crate::offload::offload_index_functions(&mut l);
    let placement = place(&mut l.graph, &m, None).unwrap_or_else(|e| panic!("{e}"));
    let inputs =
        crate::run::bind(&l, &std::collections::BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
    let out = crate::sim::Sim::new(&l.graph, &m, &inputs)
        .and_then(|s| s.run(50_000_000))
        .unwrap_or_else(|e| panic!("{e}"));
    let want = mandel_ref(v);
    let got: Vec<i64> = out.sinks["arg0"]
        .stored()
        .iter()
        .map(|t| match t.value {
            crate::graph::Scalar::Int(x) => x,
            crate::graph::Scalar::F64(x) => x as i64,
        })
        .collect();
    assert_eq!(got, want, "placed graph computes the reference's counts");
    Figures {
        placement,
        out,
        avg_iter: want.iter().sum::<i64>() as f64 / want.len() as f64,
        pixels: want.len(),
        lowered: l,
    }
}

#[test]
fn mandelbrot_loop_fits_one_block_and_replicates_over_the_array() {
    let m = Machine::racer_v1();
    let f = figures(&View {
        w: 16,
        h: 8,
        ..VIEW
    });
    let p = &f.placement;
    assert!(p.pes_used() <= 16);
    assert_eq!(p.pes_used(), 9);
    for (i, n) in f.lowered.graph.nodes.iter().enumerate() {
        if matches!(n.kind, NodeKind::Split) {
            assert!(
                p.parts[i].iter().all(|pe| m.is_g(pe.row, pe.col)),
                "split off G"
            );
        }
        for pe in &p.parts[i] {
            assert!(pe.row < m.block_rows && pe.col < m.block_cols);
        }
    }
    for (pe, u) in &p.used {
        for (class, k) in u {
            assert!(*k <= m.pe_capacity[*class], "{pe:?} {class} {k}");
        }
    }
    // Two memory-unit streams per replica (tid in, counts out) over the
    // 128 I/O ports of a 32 x 32 array: all 64 blocks.
    assert_eq!(p.blocks, (1, 1));
    assert_eq!(replicate(&f.lowered.graph, &m, p).len(), 64);
    // Forward streams only go down and right: every part of a node sits
    // at or below/right of the producers of the lanes it holds.
    let g = &f.lowered.graph;
    for (i, n) in g.nodes.iter().enumerate() {
        let cap = crate::place::part_cap(n, &m);
        for (part, to) in p.parts[i].iter().enumerate() {
            for (port, o) in n.inputs.iter().enumerate() {
                let crate::graph::Operand::Stream(e) = o else {
                    continue;
                };
                let back = matches!(n.kind, NodeKind::Merge) && port < n.outputs.len();
                if back || !crate::place::input_in_part(n, port, cap, part) {
                    continue;
                }
                let (from, out) = g.edge(*e).from;
                let from = crate::place::port_pe(g, &p.parts, &m, from.0 as usize, out as usize);
                if let Some(from) = from {
                    assert!(to.row >= from.row && to.col >= from.col, "n{i}");
                }
            }
        }
    }
}

#[test]
fn mandelbrot_figures_for_the_stated_viewport() {
    let m = Machine::racer_v1();
    let f = figures(&VIEW);
    let cycles = f.out.cycles;
    let cpp = cycles as f64 / f.pixels as f64;
    let first = f.out.first_output_cycle.unwrap_or(0);
    let drain = f.out.last_output_cycle.unwrap_or(0) - f.out.last_input_cycle;
    // Regression values of this model (docs/racer.md, "Figures").
    assert_eq!(f.pixels, 3072);
    assert_eq!((f.avg_iter * 100.0).round() / 100.0, 19.12);
    assert_eq!((cpp * 100.0).round() / 100.0, 41.19);
    assert_eq!(first, 123);
    assert_eq!(drain, 124);
    // One merge issue slot every two cycles bounds the rate from below:
    // a pixel of k iterations passes the test-first loop's merge k + 1
    // times.
    assert!(cpp >= 2.0 * (f.avg_iter + 1.0));
    // 64 replicas at 700 MHz.
    let mpix = 64.0 * m.clock_mhz as f64 / cpp;
    assert_eq!(mpix.round(), 1088.0);
    let peak = (m.array_rows * m.array_cols) as f64 * m.clock_mhz as f64 / 1000.0 * 2.0 / 2.0;
    assert_eq!(peak, 716.8);
    // Achieved: 8 FP operations per iteration in this graph (3 multiplies,
    // 1 multiply-add, 2 adds, 1 subtract), iterations issued every
    // cycles/iteration.
    let cycles_per_iter = cycles as f64 / (f.avg_iter * f.pixels as f64);
    let gflops = 64.0 * m.clock_mhz as f64 / 1000.0 / cycles_per_iter * 8.0;
    assert_eq!((cycles_per_iter * 1000.0).round(), 2154.0);
    assert_eq!(gflops.round(), 166.0);
}

/// Each iteration of each pixel passes the merge once, and once more for
/// the test-first loop's last test, and the merge issues at most one
/// group every two cycles: cycles >= 2 x (iterations + pixels). Fill and
/// drain add a fixed cost that shrinks per pixel as the image grows.
#[test]
fn cycles_per_pixel_follow_the_average_iteration_count() {
    let mut ratios = Vec::new();
    for v in [
        View {
            w: 64,
            h: 48,
            x0: -2.5,
            y0: -1.25,
            dx: 3.5 / 64.0,
            dy: 2.5 / 48.0,
        },
        View {
            w: 32,
            h: 24,
            x0: -3.0,
            y0: -2.0,
            dx: 5.0 / 32.0,
            dy: 4.0 / 24.0,
        },
        VIEW,
        View {
            w: 64,
            h: 64,
            x0: -4.0,
            y0: -4.0,
            dx: 0.125,
            dy: 0.125,
        },
    ] {
        let f = figures(&v);
        let total_iter = f.avg_iter * f.pixels as f64;
        assert!(f.out.cycles as f64 >= 2.0 * (total_iter + f.pixels as f64));
        ratios.push(f.out.cycles as f64 / total_iter);
    }
    // 40.9 average iterations: close to the bound.
    assert!(ratios[0] < 2.2, "{ratios:?}");
    // The same viewport at a quarter of the pixels pays more fill/drain
    // per pixel.
    assert!(ratios[1] > ratios[2], "{ratios:?}");
    // Few iterations (7.5 on average): fill and drain dominate.
    assert!(ratios[3] > ratios[2], "{ratios:?}");
}

/// With the pixel coordinates computed by the memory units (as the thesis
/// has it, L1012), the whole Mandelbrot graph fits one block, its two
/// coordinates share one 128-bit stream element, and all 64 blocks get a
/// replica.
#[test]
fn whole_mandelbrot_graph_fits_one_block_with_coordinates_from_the_memory_units() {
    let m = Machine::racer_v1();
    let v = View {
        w: 32,
        h: 24,
        ..VIEW
    };
    let mut l = lower_mandel(&v, true);
    let moved = crate::offload::offload_index_functions(&mut l);
    // srem, sdiv, two conversions, two multiply-adds and the copies of
    // the thread index and of x.
    assert_eq!(moved, 8);
    let names: Vec<&str> = l.inputs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, vec!["index0", "index1"]);
    let p = place(&mut l.graph, &m, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(p.pes_used() <= 16, "{}", p.pes_used());
    assert_eq!(p.blocks, (1, 1));
    assert_eq!(replicate(&l.graph, &m, &p).len(), 64);
    let inputs =
        crate::run::bind(&l, &std::collections::BTreeMap::new()).unwrap_or_else(|e| panic!("{e}"));
    let out = crate::sim::Sim::new(&l.graph, &m, &inputs)
        .and_then(|s| s.run(10_000_000))
        .unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<i64> = out.sinks["arg0"]
        .stored()
        .iter()
        .map(|t| match t.value {
            crate::graph::Scalar::Int(x) => x,
            crate::graph::Scalar::F64(x) => x as i64,
        })
        .collect();
    assert_eq!(got, mandel_ref(&v));
}

/// Even with the pixel coordinates computed in the array (remainder,
/// quotient, two conversions, two multiply-adds), the whole graph fits
/// one block.
#[test]
fn whole_mandelbrot_graph_fits_one_block_without_offloading() {
    let m = Machine::racer_v1();
    let v = View {
        w: 16,
        h: 8,
        ..VIEW
    };
    let mut l = lower_mandel(&v, true);
    let p = place(&mut l.graph, &m, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.blocks, (1, 1));
    assert!(p.pes_used() <= 16, "{}", p.pes_used());
    let out = crate::lower::tests::run_mandel(&l, &m);
    let got: Vec<i64> = out.sinks["arg0"]
        .stored()
        .iter()
        .map(|t| match t.value {
            crate::graph::Scalar::Int(x) => x,
            crate::graph::Scalar::F64(x) => x as i64,
        })
        .collect();
    assert_eq!(got, mandel_ref(&v));
}
