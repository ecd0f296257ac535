//! Paired timing of `cublasSgemm`/`cublasDgemm` (through the shim, stream
//! wait included) against `cblas_?gemm`: the two calls alternate, so load
//! from other processes hits both alike, and the minimum and median of each
//! are compared. Complements the criterion bench (`gemm.rs`) on a shared
//! machine. `cargo bench -p cucc-cublas --bench gemm_paired`.

use std::ffi::c_int;
use std::time::{Duration, Instant};

use cblas_sys as cb;
use cublas::handle::*;
use cublas::level3::*;
use cublas::types::*;
use cucc_runtime as runtime;

mod common;

/// (size, rounds): fewer rounds where one GEMM takes seconds.
const PLAN: [(usize, usize); 5] = [(256, 200), (512, 60), (1024, 12), (2048, 5), (4096, 3)];

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

macro_rules! paired {
    ($fname:ident, $t:ty, $name:literal, $cblas:ident, $cublas:ident) => {
        fn $fname(h: cublasHandle_t, s: cudaStream_t) {
            for (n, rounds) in PLAN {
                let a: Vec<$t> = (0..n * n).map(|i| ((i * 7) % 13) as $t * 0.1).collect();
                let b: Vec<$t> = (0..n * n).map(|i| ((i * 3) % 11) as $t * 0.1).collect();
                let mut c: Vec<$t> = vec![0.0; n * n];
                let ni = n as c_int;
                let (one, zero): ($t, $t) = (1.0, 0.0);
                let mut direct = || {
                    let t = Instant::now();
                    // SAFETY: n x n matrices.
                    unsafe {
                        cb::$cblas(cb::CblasColMajor, cb::CblasNoTrans, cb::CblasNoTrans, ni,
                            ni, ni, one, a.as_ptr(), ni, b.as_ptr(), ni, zero, c.as_mut_ptr(), ni)
                    };
                    t.elapsed()
                };
                let mut c2: Vec<$t> = vec![0.0; n * n];
                let mut shim = || {
                    let t = Instant::now();
                    // SAFETY: n x n matrices; the stream is waited for.
                    let rc = unsafe {
                        $cublas(h, 0, 0, ni, ni, ni, &one, a.as_ptr(), ni, b.as_ptr(), ni, &zero,
                            c2.as_mut_ptr(), ni)
                    };
                    assert_eq!(rc, 0);
                    assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
                    t.elapsed()
                };
                direct();
                shim();
                let (mut td, mut ts) = (Vec::new(), Vec::new());
                for r in 0..rounds {
                    if r % 2 == 0 {
                        td.push(direct());
                        ts.push(shim());
                    } else {
                        ts.push(shim());
                        td.push(direct());
                    }
                }
                let (md, ms) = (td.iter().min().copied(), ts.iter().min().copied());
                let (Some(md), Some(ms)) = (md, ms) else { continue };
                let (qd, qs) = (median(&mut td), median(&mut ts));
                println!(
                    "{:<6} n={:<5} openblas min {:>10.3?} median {:>10.3?} | cublas min {:>10.3?} median {:>10.3?} | ratio min {:.3} median {:.3}",
                    $name, n, md, qd, ms, qs,
                    ms.as_secs_f64() / md.as_secs_f64(),
                    qs.as_secs_f64() / qd.as_secs_f64()
                );
            }
        }
    };
}

paired!(sgemm, f32, "sgemm", cblas_sgemm, cublasSgemm_v2);
paired!(dgemm, f64, "dgemm", cblas_dgemm, cublasDgemm_v2);

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs nothing.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let (h, s) = common::stream_handle();
    sgemm(h, s);
    dgemm(h, s);
    cublasDestroy_v2(h);
}
