//! `cublasSgemm`/`cublasDgemm` through the shim (argument checks, a task
//! on a CUDA stream, the wait for it) against calling OpenBLAS's
//! `cblas_?gemm` directly, at n = 256 ... 4096 (square, no transposes).
//!
//! `cargo bench -p cucc-cublas --bench gemm`; set `OPENBLAS_NUM_THREADS` to
//! fix the thread count of both sides. Figures are in docs/cublas.md.

use std::ffi::c_int;
use std::hint::black_box;
use std::time::Duration;

use cblas_sys as cb;
use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use cublas::handle::*;
use cublas::level3::*;
use cucc_runtime as runtime;

mod common;
use common::stream_handle;

const SIZES: [usize; 5] = [256, 512, 1024, 2048, 4096];

macro_rules! bench_gemm {
    ($fname:ident, $t:ty, $name:literal, $cblas:ident, $cublas:ident) => {
        fn $fname(c: &mut Criterion) {
            let (h, s) = stream_handle();
            for n in SIZES {
                let mut g = c.benchmark_group($name);
                g.sample_size(if n >= 2048 { 10 } else { 20 })
                    .warm_up_time(Duration::from_secs(1))
                    .measurement_time(Duration::from_secs(if n >= 2048 { 20 } else { 5 }))
                    // One iteration per sample at the big sizes (seconds each).
                    .sampling_mode(if n >= 2048 {
                        SamplingMode::Flat
                    } else {
                        SamplingMode::Auto
                    })
                    .throughput(Throughput::Elements((2 * n * n * n) as u64));
                let a: Vec<$t> = (0..n * n).map(|i| ((i * 7) % 13) as $t * 0.1).collect();
                let b: Vec<$t> = (0..n * n).map(|i| ((i * 3) % 11) as $t * 0.1).collect();
                let mut cm: Vec<$t> = vec![0.0; n * n];
                let ni = n as c_int;
                let (one, zero): ($t, $t) = (1.0, 0.0);
                g.bench_with_input(BenchmarkId::new("openblas", n), &n, |bch, _| {
                    bch.iter(|| {
                        // SAFETY: n x n matrices.
                        unsafe {
                            cb::$cblas(
                                cb::CblasColMajor,
                                cb::CblasNoTrans,
                                cb::CblasNoTrans,
                                ni,
                                ni,
                                ni,
                                one,
                                a.as_ptr(),
                                ni,
                                b.as_ptr(),
                                ni,
                                zero,
                                cm.as_mut_ptr(),
                                ni,
                            )
                        };
                        black_box(&mut cm);
                    })
                });
                g.bench_with_input(BenchmarkId::new("cublas", n), &n, |bch, _| {
                    bch.iter(|| {
                        // SAFETY: n x n matrices; the stream is waited for.
                        let rc = unsafe {
                            $cublas(
                                h,
                                0,
                                0,
                                ni,
                                ni,
                                ni,
                                &one,
                                a.as_ptr(),
                                ni,
                                b.as_ptr(),
                                ni,
                                &zero,
                                cm.as_mut_ptr(),
                                ni,
                            )
                        };
                        assert_eq!(rc, 0);
                        assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
                        black_box(&mut cm);
                    })
                });
                g.finish();
            }
            cublasDestroy_v2(h);
        }
    };
}

bench_gemm!(sgemm, f32, "sgemm", cblas_sgemm, cublasSgemm_v2);
bench_gemm!(dgemm, f64, "dgemm", cblas_dgemm, cublasDgemm_v2);

criterion_group!(benches, sgemm, dgemm);
criterion_main!(benches);
