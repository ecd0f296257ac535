//! IR-in/IR-out tests: the Mandelbrot kernel's stream graph after
//! lowering, and after offloading, placement and balancing, against
//! expected text; the Game of Life graph after balancing.
//! `CUCC_BLESS=1 cargo test -p cucc-racer --test golden` rewrites the
//! expected files.

use cucc_racer::graph::{parse, print};
use cucc_racer::lower::{compile, Arg, Options};
use cucc_racer::machine::Machine;

fn check(name: &str, actual: &str) {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("CUCC_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("cannot bless {path}: {e}"));
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}; run with CUCC_BLESS=1 to create it"));
    assert!(expected == actual, "{path} differs; got:\n{actual}");
}

fn mandelbrot() -> cucc_racer::lower::Lowered {
    let m = cucc_ir::parse_module(include_str!("kernels/mandelbrot.cuir"))
        .unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        grid: 8,
        block: 64,
        args: vec![
            Arg::Buffer,
            Arg::F64(-2.0),
            Arg::F64(-1.0),
            Arg::F64(0.125),
            Arg::F64(0.125),
            Arg::Int(32),
        ],
        rotate: true,
        split_branches: false,
    };
    compile(&m, "mandelbrot", &opts).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn mandelbrot_lowered() {
    let l = mandelbrot();
    let text = print(&l.graph);
    assert_eq!(parse(&text).as_ref(), Ok(&l.graph));
    check("mandelbrot.lowered", &text);
}

#[test]
fn mandelbrot_placed() {
    let m = Machine::racer_v1();
    let mut l = mandelbrot();
    cucc_racer::offload::offload_index_functions(&mut l);
    let p = cucc_racer::place::place(&mut l.graph, &m, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parse(&print(&l.graph)).as_ref(), Ok(&l.graph));
    check(
        "mandelbrot.placed",
        &cucc_racer::dump::dump_text(&l.graph, &p, &m),
    );
    check(
        "mandelbrot.svg",
        &cucc_racer::dump::dump_svg(&l.graph, &p, &m),
    );
}

#[test]
fn life_balanced() {
    let m = Machine::racer_v1();
    let mut g = cucc_racer::life::life_graph();
    cucc_racer::balance::balance(&mut g, &m).unwrap_or_else(|e| panic!("{e}"));
    let text = print(&g);
    assert_eq!(parse(&text).as_ref(), Ok(&g));
    check("life.balanced", &text);
}
