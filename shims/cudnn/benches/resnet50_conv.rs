//! ResNet-50's distinct convolution shapes (batch 8, NCHW, float): forward,
//! backward data and backward filter through the cuDNN entry points (the
//! im2col + GEMM algorithms), timed by criterion; then a table comparing
//! them with a naive direct convolution (seven plain loops, one thread),
//! which is measured on one image and scaled by 8 because it is slow.
//!
//! `cargo bench -p cucc-cudnn --bench resnet50_conv` (a name filter after
//! `--` runs only the matching criterion benchmarks, without the table).

use std::ffi::c_void;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use cudnn::conv::api::*;
use cudnn::desc::*;
use cudnn::handle::*;
use cudnn::Status;

const BATCH: usize = 8;

/// One convolution layer: input channels, output channels, input extent
/// (square), filter extent, stride, padding.
#[derive(Clone, Copy)]
struct Layer {
    name: &'static str,
    c: usize,
    k: usize,
    hw: usize,
    r: usize,
    stride: usize,
    pad: usize,
}

const fn l(
    name: &'static str,
    c: usize,
    k: usize,
    hw: usize,
    r: usize,
    stride: usize,
    pad: usize,
) -> Layer {
    Layer {
        name,
        c,
        k,
        hw,
        r,
        stride,
        pad,
    }
}

/// torchvision's ResNet-50 (stride on the 3x3 of each first bottleneck).
const LAYERS: [Layer; 23] = [
    l("conv1 7x7/2 3-64 @224", 3, 64, 224, 7, 2, 3),
    l("c2 1x1 64-64 @56", 64, 64, 56, 1, 1, 0),
    l("c2 3x3 64-64 @56", 64, 64, 56, 3, 1, 1),
    l("c2 1x1 64-256 @56", 64, 256, 56, 1, 1, 0),
    l("c2 1x1 256-64 @56", 256, 64, 56, 1, 1, 0),
    l("c3 1x1 256-128 @56", 256, 128, 56, 1, 1, 0),
    l("c3 3x3/2 128-128 @56", 128, 128, 56, 3, 2, 1),
    l("c3 1x1 128-512 @28", 128, 512, 28, 1, 1, 0),
    l("c3 down 1x1/2 256-512 @56", 256, 512, 56, 1, 2, 0),
    l("c3 1x1 512-128 @28", 512, 128, 28, 1, 1, 0),
    l("c3 3x3 128-128 @28", 128, 128, 28, 3, 1, 1),
    l("c4 1x1 512-256 @28", 512, 256, 28, 1, 1, 0),
    l("c4 3x3/2 256-256 @28", 256, 256, 28, 3, 2, 1),
    l("c4 1x1 256-1024 @14", 256, 1024, 14, 1, 1, 0),
    l("c4 down 1x1/2 512-1024 @28", 512, 1024, 28, 1, 2, 0),
    l("c4 1x1 1024-256 @14", 1024, 256, 14, 1, 1, 0),
    l("c4 3x3 256-256 @14", 256, 256, 14, 3, 1, 1),
    l("c5 1x1 1024-512 @14", 1024, 512, 14, 1, 1, 0),
    l("c5 3x3/2 512-512 @14", 512, 512, 14, 3, 2, 1),
    l("c5 1x1 512-2048 @7", 512, 2048, 7, 1, 1, 0),
    l("c5 down 1x1/2 1024-2048 @14", 1024, 2048, 14, 1, 2, 0),
    l("c5 1x1 2048-512 @7", 2048, 512, 7, 1, 1, 0),
    l("c5 3x3 512-512 @7", 512, 512, 7, 3, 1, 1),
];

impl Layer {
    fn out(&self) -> usize {
        (self.hw + 2 * self.pad - self.r) / self.stride + 1
    }
    fn flops(&self, n: usize) -> f64 {
        2.0 * (n * self.k * self.c * self.r * self.r * self.out() * self.out()) as f64
    }
}

/// Descriptors, buffers and workspace for one layer through the C API.
struct Setup {
    h: *mut Handle,
    xd: *mut TensorDesc,
    yd: *mut TensorDesc,
    wd: *mut FilterDesc,
    cd: *mut ConvDesc,
    x: Vec<f32>,
    w: Vec<f32>,
    y: Vec<f32>,
    ws: Vec<f32>,
}

fn ok(s: Status) {
    assert_eq!(s, Status::SUCCESS);
}

impl Setup {
    fn new(l: &Layer) -> Setup {
        let o = l.out();
        let mut s = Setup {
            h: std::ptr::null_mut(),
            xd: std::ptr::null_mut(),
            yd: std::ptr::null_mut(),
            wd: std::ptr::null_mut(),
            cd: std::ptr::null_mut(),
            x: (0..BATCH * l.c * l.hw * l.hw)
                .map(|i| ((i % 13) as f32 - 6.0) * 0.05)
                .collect(),
            w: (0..l.k * l.c * l.r * l.r)
                .map(|i| ((i % 7) as f32 - 3.0) * 0.02)
                .collect(),
            y: (0..BATCH * l.k * o * o)
                .map(|i| ((i % 5) as f32 - 2.0) * 0.1)
                .collect(),
            ws: Vec::new(),
        };
        let i = |v: usize| v as i32;
        unsafe {
            ok(cudnnCreate(&mut s.h));
            ok(cudnnCreateTensorDescriptor(&mut s.xd));
            ok(cudnnCreateTensorDescriptor(&mut s.yd));
            ok(cudnnCreateFilterDescriptor(&mut s.wd));
            ok(cudnnCreateConvolutionDescriptor(&mut s.cd));
            ok(cudnnSetTensor4dDescriptor(
                s.xd,
                0,
                0,
                i(BATCH),
                i(l.c),
                i(l.hw),
                i(l.hw),
            ));
            ok(cudnnSetTensor4dDescriptor(
                s.yd,
                0,
                0,
                i(BATCH),
                i(l.k),
                i(o),
                i(o),
            ));
            ok(cudnnSetFilter4dDescriptor(
                s.wd,
                0,
                0,
                i(l.k),
                i(l.c),
                i(l.r),
                i(l.r),
            ));
            ok(cudnnSetConvolution2dDescriptor(
                s.cd,
                i(l.pad),
                i(l.pad),
                i(l.stride),
                i(l.stride),
                1,
                1,
                1,
                0,
            ));
            let (mut a, mut b, mut c) = (0, 0, 0);
            ok(cudnnGetConvolutionForwardWorkspaceSize(
                s.h, s.xd, s.wd, s.cd, s.yd, 1, &mut a,
            ));
            ok(cudnnGetConvolutionBackwardDataWorkspaceSize(
                s.h, s.wd, s.yd, s.cd, s.xd, 1, &mut b,
            ));
            ok(cudnnGetConvolutionBackwardFilterWorkspaceSize(
                s.h, s.xd, s.yd, s.cd, s.wd, 1, &mut c,
            ));
            s.ws = vec![0.0; a.max(b).max(c) / 4 + 1];
        }
        s
    }

    fn run(&mut self, dir: usize) {
        let (one, zero) = (1.0f32, 0.0f32);
        let (a, b) = (
            (&one as *const f32).cast::<c_void>(),
            (&zero as *const f32).cast::<c_void>(),
        );
        let bytes = self.ws.len() * 4;
        let ws = self.ws.as_mut_ptr().cast();
        unsafe {
            let s = match dir {
                0 => cudnnConvolutionForward(
                    self.h,
                    a,
                    self.xd,
                    self.x.as_ptr().cast(),
                    self.wd,
                    self.w.as_ptr().cast(),
                    self.cd,
                    1,
                    ws,
                    bytes,
                    b,
                    self.yd,
                    self.y.as_mut_ptr().cast(),
                ),
                1 => cudnnConvolutionBackwardData(
                    self.h,
                    a,
                    self.wd,
                    self.w.as_ptr().cast(),
                    self.yd,
                    self.y.as_ptr().cast(),
                    self.cd,
                    1,
                    ws,
                    bytes,
                    b,
                    self.xd,
                    self.x.as_mut_ptr().cast(),
                ),
                _ => cudnnConvolutionBackwardFilter(
                    self.h,
                    a,
                    self.xd,
                    self.x.as_ptr().cast(),
                    self.yd,
                    self.y.as_ptr().cast(),
                    self.cd,
                    1,
                    ws,
                    bytes,
                    b,
                    self.wd,
                    self.w.as_mut_ptr().cast(),
                ),
            };
            ok(s);
        }
        black_box(&self.y);
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        unsafe {
            cudnnDestroyConvolutionDescriptor(self.cd);
            cudnnDestroyFilterDescriptor(self.wd);
            cudnnDestroyTensorDescriptor(self.yd);
            cudnnDestroyTensorDescriptor(self.xd);
            cudnnDestroy(self.h);
        }
    }
}

/// The naive direct convolution on `n` images: forward, backward data or
/// backward filter, written as plainly as the definition.
fn naive(l: &Layer, n: usize, dir: usize, x: &mut [f32], w: &mut [f32], y: &mut [f32]) {
    let (c, k, hw, r, o) = (l.c, l.k, l.hw, l.r, l.out());
    match dir {
        0 => y.iter_mut().for_each(|v| *v = 0.0),
        1 => x.iter_mut().for_each(|v| *v = 0.0),
        _ => w.iter_mut().for_each(|v| *v = 0.0),
    }
    for b in 0..n {
        for kk in 0..k {
            for oh in 0..o {
                for ow in 0..o {
                    let yi = ((b * k + kk) * o + oh) * o + ow;
                    for cc in 0..c {
                        for i in 0..r {
                            for j in 0..r {
                                let ih = (oh * l.stride + i) as isize - l.pad as isize;
                                let iw = (ow * l.stride + j) as isize - l.pad as isize;
                                if ih < 0 || iw < 0 || ih >= hw as isize || iw >= hw as isize {
                                    continue;
                                }
                                let xi = ((b * c + cc) * hw + ih as usize) * hw + iw as usize;
                                let wi = ((kk * c + cc) * r + i) * r + j;
                                match dir {
                                    0 => y[yi] += x[xi] * w[wi],
                                    1 => x[xi] += y[yi] * w[wi],
                                    _ => w[wi] += y[yi] * x[xi],
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

const DIRS: [&str; 3] = ["fwd", "bwd-data", "bwd-filter"];

fn main() {
    let mut crit = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    for l in &LAYERS {
        let mut s = Setup::new(l);
        let mut g = crit.benchmark_group(l.name);
        for (d, name) in DIRS.iter().enumerate() {
            g.bench_function(*name, |b| b.iter(|| s.run(d)));
        }
        g.finish();
    }
    crit.final_summary();
    // A filtered run (`-- NAME`) measures only what it names.
    if std::env::args().skip(1).any(|a| !a.starts_with('-')) {
        return;
    }

    // The table for docs/cudnn.md: best of three runs of ours (batch 8)
    // against the naive loops on one image, scaled by 8.
    println!("\n| layer | dir | ours ms | GFLOP/s | naive ms (1 image x 8) | speed-up |");
    println!("|---|---|---:|---:|---:|---:|");
    let mut totals = [[0.0f64; 2]; 3];
    for l in &LAYERS {
        let mut s = Setup::new(l);
        let o = l.out();
        let mut x1 = s.x[..l.c * l.hw * l.hw].to_vec();
        let mut w1 = s.w.clone();
        let mut y1 = s.y[..l.k * o * o].to_vec();
        for (d, name) in DIRS.iter().enumerate() {
            let mut best = f64::INFINITY;
            for _ in 0..3 {
                let t = Instant::now();
                s.run(d);
                best = best.min(t.elapsed().as_secs_f64());
            }
            let t = Instant::now();
            naive(l, 1, d, &mut x1, &mut w1, &mut y1);
            let naive_s = t.elapsed().as_secs_f64() * BATCH as f64;
            black_box((&x1, &w1, &y1));
            totals[d][0] += best;
            totals[d][1] += naive_s;
            println!(
                "| {} | {} | {:.2} | {:.1} | {:.0} | {:.0}x |",
                l.name,
                name,
                best * 1e3,
                l.flops(BATCH) / best / 1e9,
                naive_s * 1e3,
                naive_s / best
            );
        }
    }
    for (d, name) in DIRS.iter().enumerate() {
        println!(
            "| all 23 layers | {} | {:.1} | | {:.0} | {:.0}x |",
            name,
            totals[d][0] * 1e3,
            totals[d][1] * 1e3,
            totals[d][1] / totals[d][0]
        );
    }
}
