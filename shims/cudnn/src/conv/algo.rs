//! Algorithm ids, workspace sizes, heuristics (`*_v7`) and measured search
//! (`Find*`) for the three convolution directions.
//!
//! | direction | ids run by the direct engine | ids run by im2col + GEMM | not implemented (`NOT_SUPPORTED`) |
//! |---|---|---|---|
//! | forward | IMPLICIT_GEMM (0), DIRECT (3) | IMPLICIT_PRECOMP_GEMM (1), GEMM (2) | FFT, FFT_TILING, WINOGRAD, WINOGRAD_NONFUSED |
//! | backward data | ALGO_0 | ALGO_1 | FFT, FFT_TILING, WINOGRAD, WINOGRAD_NONFUSED |
//! | backward filter | ALGO_0 | ALGO_1, ALGO_3 | FFT, WINOGRAD, WINOGRAD_NONFUSED, FFT_TILING |
//!
//! Ids at or beyond the direction's `COUNT` are `BAD_PARAM`.

use std::ffi::c_int;
use std::time::Instant;

use super::exec::{bwd_data_elems, bwd_filter_elems, fwd_elems, Engine};
use super::Geom;
use crate::status::{Result, Status};

/// A convolution direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// `cudnnConvolutionForward`.
    Forward,
    /// `cudnnConvolutionBackwardData`.
    BackwardData,
    /// `cudnnConvolutionBackwardFilter`.
    BackwardFilter,
}

impl Dir {
    /// The direction's `*_ALGO_COUNT`.
    pub fn count(self) -> usize {
        match self {
            Dir::Forward => 8,
            Dir::BackwardData => 6,
            Dir::BackwardFilter => 7,
        }
    }
}

/// The engine an algorithm id runs, `NOT_SUPPORTED` for ids this library
/// does not implement, `BAD_PARAM` for ids cuDNN does not define.
pub fn engine(dir: Dir, algo: c_int) -> Result<Engine> {
    if algo < 0 || algo as usize >= dir.count() {
        return Err(Status::BAD_PARAM);
    }
    match (dir, algo) {
        (Dir::Forward, 0 | 3) | (Dir::BackwardData, 0) | (Dir::BackwardFilter, 0) => {
            Ok(Engine::Direct)
        }
        (Dir::Forward, 1 | 2) | (Dir::BackwardData, 1) | (Dir::BackwardFilter, 1 | 3) => {
            Ok(Engine::Gemm)
        }
        _ => Err(Status::NOT_SUPPORTED),
    }
}

/// Workspace bytes an engine needs for `g` in direction `dir`.
pub fn workspace_bytes(g: &Geom, dir: Dir, e: Engine) -> usize {
    let elems = match dir {
        Dir::Forward => fwd_elems(g, e),
        Dir::BackwardData => bwd_data_elems(g, e),
        Dir::BackwardFilter => bwd_filter_elems(g, e),
    };
    elems * g.dtype.size()
}

/// `cudnnConvolution*AlgoPerf_t` (all three share this layout).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AlgoPerf {
    /// Algorithm id.
    pub algo: c_int,
    /// `SUCCESS`, or why the algorithm cannot run this convolution.
    pub status: Status,
    /// Milliseconds: measured by `Find*`, estimated by `*_v7`; -1 when not
    /// supported.
    pub time: f32,
    /// Workspace bytes.
    pub memory: usize,
    /// `cudnnDeterminism_t`: every engine here is deterministic (1).
    pub determinism: c_int,
    /// `cudnnMathType_t`: the convolution descriptor's.
    pub math_type: c_int,
    /// Reserved.
    pub reserved: [c_int; 3],
}

/// Estimated milliseconds for an engine: a throughput model of this CPU
/// family (GEMM near 10 GFLOP/s per core when its matrices are not tiny,
/// direct loops near 1.5), plus the im2col traffic.
pub fn estimate_ms(g: &Geom, e: Engine) -> f32 {
    let flops = 2.0 * g.macs();
    let threads = rayon::current_num_threads() as f64;
    let secs = match e {
        Engine::Direct => flops / (1.5e9 * threads),
        Engine::Gemm => {
            let m = g.kg as f64;
            let k = g.col_rows() as f64;
            let eff = (m / 32.0).min(1.0) * (k / 32.0).min(1.0);
            let im2col = (g.n * g.groups * g.col_rows() * g.p_out()) as f64 / (1e9 * threads);
            flops / (10e9 * eff.max(0.02) * g.workers as f64) + im2col
        }
    };
    (secs * 1e3) as f32
}

fn perf(algo: usize, status: Status, time: f32, memory: usize, math: c_int) -> AlgoPerf {
    AlgoPerf {
        algo: algo as c_int,
        status,
        time,
        memory,
        determinism: 1,
        math_type: math,
        reserved: [0; 3],
    }
}

/// Every algorithm id of `dir`: the implemented ones first, ordered by
/// `time_of` (estimated or measured; `Err` marks an engine that could not
/// run), then the unimplemented ones with `NOT_SUPPORTED`.
pub fn rank(
    g: &Geom,
    dir: Dir,
    mut time_of: impl FnMut(Engine, usize) -> std::result::Result<f32, Status>,
) -> Vec<AlgoPerf> {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for algo in 0..dir.count() {
        match engine(dir, algo as c_int) {
            Ok(e) => {
                let mem = workspace_bytes(g, dir, e);
                match time_of(e, mem) {
                    Ok(t) => good.push(perf(algo, Status::SUCCESS, t, mem, g.math)),
                    Err(s) => bad.push(perf(algo, s, -1.0, mem, g.math)),
                }
            }
            Err(s) => bad.push(perf(algo, s, -1.0, 0, g.math)),
        }
    }
    good.sort_by(|a, b| a.time.total_cmp(&b.time));
    good.extend(bad);
    good
}

/// Heuristic ranking for `cudnnGet*Algorithm_v7`.
pub fn heuristic(g: &Geom, dir: Dir) -> Vec<AlgoPerf> {
    rank(g, dir, |e, _| Ok(estimate_ms(g, e)))
}

/// Measures `run` (best of two runs) in milliseconds.
pub fn measure(mut run: impl FnMut()) -> f32 {
    let mut best = f64::INFINITY;
    for _ in 0..2 {
        let t = Instant::now();
        run();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best * 1e3) as f32
}
