//! Convolutions against naive loops: forward, backward data, backward
//! filter, backward bias and the fused bias + activation forward, for odd
//! shapes (padding, stride, dilation, groups, depthwise, 1x1, 3-D), float
//! and double, NCHW / NHWC / padded strides, both engines, alpha/beta
//! blending; algorithm queries and error statuses.

mod common;

use std::ffi::c_void;

use common::*;
use cudnn::conv::algo::AlgoPerf;
use cudnn::conv::api::*;
use cudnn::conv::*;
use cudnn::desc::*;
use cudnn::Status;

/// A convolution case, spatial extents normalised to (d, h, w).
#[derive(Clone, Debug)]
struct Case {
    n: usize,
    c: usize,
    k: usize,
    groups: usize,
    nsp: usize,
    input: [usize; 3],
    filt: [usize; 3],
    pad: [usize; 3],
    stride: [usize; 3],
    dil: [usize; 3],
    flip: bool,
}

impl Case {
    #[allow(clippy::too_many_arguments)]
    fn two_d(
        n: usize,
        c: usize,
        hw: [usize; 2],
        k: usize,
        rs: [usize; 2],
        pad: [usize; 2],
        stride: [usize; 2],
        dil: [usize; 2],
        groups: usize,
        flip: bool,
    ) -> Case {
        Case {
            n,
            c,
            k,
            groups,
            nsp: 2,
            input: [1, hw[0], hw[1]],
            filt: [1, rs[0], rs[1]],
            pad: [0, pad[0], pad[1]],
            stride: [1, stride[0], stride[1]],
            dil: [1, dil[0], dil[1]],
            flip,
        }
    }
    fn out(&self) -> [usize; 3] {
        std::array::from_fn(|i| {
            (self.input[i] + 2 * self.pad[i] - (self.filt[i] - 1) * self.dil[i] - 1)
                / self.stride[i]
                + 1
        })
    }
    fn cg(&self) -> usize {
        self.c / self.groups
    }
    fn kg(&self) -> usize {
        self.k / self.groups
    }
    fn dims(&self, a: usize, b: usize, sp: [usize; 3]) -> Vec<usize> {
        let mut v = vec![a, b];
        v.extend_from_slice(&sp[3 - self.nsp..]);
        v
    }
    fn x_dims(&self) -> Vec<usize> {
        self.dims(self.n, self.c, self.input)
    }
    fn y_dims(&self) -> Vec<usize> {
        self.dims(self.n, self.k, self.out())
    }
    fn w_dims(&self) -> Vec<usize> {
        self.dims(self.k, self.cg(), self.filt)
    }
    fn idx(&self, a: usize, b: usize, sp: [usize; 3]) -> Vec<usize> {
        self.dims(a, b, sp)
    }
    /// Calls `f(n, k, c_global, c_in_group, out_pos, in_pos, w_tap)` for
    /// every multiply of the convolution.
    fn for_each_mac(
        &self,
        mut f: impl FnMut(usize, usize, usize, usize, [usize; 3], [usize; 3], [usize; 3]),
    ) {
        let out = self.out();
        for n in 0..self.n {
            for k in 0..self.k {
                let grp = k / self.kg();
                for c in 0..self.cg() {
                    for od in 0..out[0] {
                        for oh in 0..out[1] {
                            for ow in 0..out[2] {
                                let o = [od, oh, ow];
                                for fd in 0..self.filt[0] {
                                    for fh in 0..self.filt[1] {
                                        for fw in 0..self.filt[2] {
                                            let t = [fd, fh, fw];
                                            let mut i = [0; 3];
                                            let mut inside = true;
                                            for a in 0..3 {
                                                let v = (o[a] * self.stride[a] + t[a] * self.dil[a])
                                                    as isize
                                                    - self.pad[a] as isize;
                                                inside &= v >= 0 && (v as usize) < self.input[a];
                                                i[a] = v.max(0) as usize;
                                            }
                                            if !inside {
                                                continue;
                                            }
                                            let wt: [usize; 3] = if self.flip {
                                                std::array::from_fn(|a| self.filt[a] - 1 - t[a])
                                            } else {
                                                t
                                            };
                                            f(n, k, grp * self.cg() + c, c, o, i, wt);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn desc(&self, dt: i32) -> *mut ConvDesc {
        let mut d = std::ptr::null_mut();
        unsafe {
            assert_eq!(cudnnCreateConvolutionDescriptor(&mut d), Status::SUCCESS);
            let s = 3 - self.nsp;
            let p: Vec<i32> = self.pad[s..].iter().map(|&v| v as i32).collect();
            let st: Vec<i32> = self.stride[s..].iter().map(|&v| v as i32).collect();
            let dl: Vec<i32> = self.dil[s..].iter().map(|&v| v as i32).collect();
            let mode = if self.flip { 0 } else { 1 };
            let status = if self.nsp == 2 {
                cudnnSetConvolution2dDescriptor(d, p[0], p[1], st[0], st[1], dl[0], dl[1], mode, dt)
            } else {
                cudnnSetConvolutionNdDescriptor(
                    d,
                    self.nsp as i32,
                    p.as_ptr(),
                    st.as_ptr(),
                    dl.as_ptr(),
                    mode,
                    dt,
                )
            };
            assert_eq!(status, Status::SUCCESS);
            assert_eq!(
                cudnnSetConvolutionGroupCount(d, self.groups as i32),
                Status::SUCCESS
            );
        }
        d
    }
}

fn cases() -> Vec<Case> {
    vec![
        // The odd shape: 3x3, pad 1, stride 2, dilation 2.
        Case::two_d(2, 3, [7, 5], 4, [3, 3], [1, 1], [2, 2], [2, 2], 1, false),
        // Convolution mode (flipped filter), two groups.
        Case::two_d(2, 6, [7, 5], 4, [3, 3], [1, 1], [1, 1], [1, 1], 2, true),
        // Depthwise, stride 2.
        Case::two_d(2, 4, [7, 5], 4, [3, 3], [1, 1], [2, 2], [1, 1], 4, false),
        // 1x1, unit stride: the GEMM engine reads x as a matrix.
        Case::two_d(2, 3, [7, 5], 4, [1, 1], [0, 0], [1, 1], [1, 1], 1, false),
        // Rectangular filter, asymmetric padding and stride, flipped.
        Case::two_d(1, 3, [6, 7], 5, [5, 3], [2, 1], [1, 2], [1, 1], 1, true),
        // Five images with few output positions: the forward GEMM engine
        // batches several images per GEMM (uneven chunks per worker).
        Case::two_d(5, 3, [4, 3], 4, [3, 3], [1, 1], [1, 1], [1, 1], 1, false),
        Case::two_d(5, 4, [3, 3], 6, [3, 3], [1, 1], [2, 2], [1, 1], 2, true),
    ]
}

fn case_3d() -> Case {
    Case {
        n: 2,
        c: 2,
        k: 3,
        groups: 1,
        nsp: 3,
        input: [4, 5, 3],
        filt: [3, 3, 2],
        pad: [1, 1, 0],
        stride: [1, 2, 1],
        dil: [1, 1, 1],
        flip: false,
    }
}

const LAYOUTS: [Layout; 3] = [Layout::Nchw, Layout::Nhwc, Layout::Padded];
const BLENDS: [(f64, f64); 2] = [(1.0, 0.0), (0.5, -0.75)];

fn workspace(bytes: usize) -> Vec<f64> {
    vec![0.0; bytes / 8 + 1]
}

fn forward<T: El>(cs: &Case, layout: Layout, algo: i32, (alpha, beta): (f64, f64)) {
    let h = H::new();
    let x = Tensor::<T>::new(&cs.x_dims(), layout, 1);
    let w = Filter::<T>::new(&cs.w_dims(), layout == Layout::Nhwc, 2);
    let mut y = Tensor::<T>::new(&cs.y_dims(), layout, 3);
    if beta == 0.0 {
        y.poison();
    }
    let y0 = y.values();
    let cd = cs.desc(T::DT);
    let mut want = vec![0.0; y.count()];
    let yd = cs.y_dims();
    let lin = |v: &[usize]| v.iter().zip(&yd).fold(0, |a, (i, d)| a * d + i);
    cs.for_each_mac(|n, k, cgl, c, o, i, t| {
        want[lin(&cs.idx(n, k, o))] += x.get(&cs.idx(n, cgl, i)) * w.get(&cs.idx(k, c, t));
    });
    let want: Vec<f64> = want
        .iter()
        .zip(&y0)
        .map(|(&v, &old)| blend(v, alpha, beta, old))
        .collect();
    unsafe {
        let mut size = 0usize;
        assert_eq!(
            cudnnGetConvolutionForwardWorkspaceSize(
                h.0, x.desc, w.desc, cd, y.desc, algo, &mut size
            ),
            Status::SUCCESS
        );
        let mut ws = workspace(size);
        let (a, b) = (sc::<T>(alpha), sc::<T>(beta));
        let st = cudnnConvolutionForward(
            h.0,
            scp(&*a),
            x.desc,
            x.ptr(),
            w.desc,
            w.ptr(),
            cd,
            algo,
            ws.as_mut_ptr().cast(),
            size,
            scp(&*b),
            y.desc,
            y.mptr(),
        );
        assert_eq!(st, Status::SUCCESS, "{cs:?} {layout:?} algo {algo}");
        cudnnDestroyConvolutionDescriptor(cd);
    }
    assert_close::<T>(
        &format!("forward {cs:?} {layout:?} algo {algo} alpha {alpha} beta {beta}"),
        &y.values(),
        &want,
    );
}

fn backward_data<T: El>(cs: &Case, layout: Layout, algo: i32, (alpha, beta): (f64, f64)) {
    let h = H::new();
    let w = Filter::<T>::new(&cs.w_dims(), layout == Layout::Nhwc, 2);
    let dy = Tensor::<T>::new(&cs.y_dims(), layout, 4);
    let mut dx = Tensor::<T>::new(&cs.x_dims(), layout, 5);
    if beta == 0.0 {
        dx.poison();
    }
    let dx0 = dx.values();
    let cd = cs.desc(T::DT);
    let xd = cs.x_dims();
    let lin = |v: &[usize]| v.iter().zip(&xd).fold(0, |a, (i, d)| a * d + i);
    let mut want = vec![0.0; dx.count()];
    cs.for_each_mac(|n, k, cgl, c, o, i, t| {
        want[lin(&cs.idx(n, cgl, i))] += dy.get(&cs.idx(n, k, o)) * w.get(&cs.idx(k, c, t));
    });
    let want: Vec<f64> = want
        .iter()
        .zip(&dx0)
        .map(|(&v, &old)| blend(v, alpha, beta, old))
        .collect();
    unsafe {
        let mut size = 0usize;
        assert_eq!(
            cudnnGetConvolutionBackwardDataWorkspaceSize(
                h.0, w.desc, dy.desc, cd, dx.desc, algo, &mut size
            ),
            Status::SUCCESS
        );
        let mut ws = workspace(size);
        let (a, b) = (sc::<T>(alpha), sc::<T>(beta));
        let st = cudnnConvolutionBackwardData(
            h.0,
            scp(&*a),
            w.desc,
            w.ptr(),
            dy.desc,
            dy.ptr(),
            cd,
            algo,
            ws.as_mut_ptr().cast(),
            size,
            scp(&*b),
            dx.desc,
            dx.mptr(),
        );
        assert_eq!(st, Status::SUCCESS);
        cudnnDestroyConvolutionDescriptor(cd);
    }
    assert_close::<T>(
        &format!("backward data {cs:?} {layout:?} algo {algo} alpha {alpha} beta {beta}"),
        &dx.values(),
        &want,
    );
}

fn backward_filter<T: El>(cs: &Case, layout: Layout, algo: i32, (alpha, beta): (f64, f64)) {
    let h = H::new();
    let x = Tensor::<T>::new(&cs.x_dims(), layout, 1);
    let dy = Tensor::<T>::new(&cs.y_dims(), layout, 4);
    let mut dw = Filter::<T>::new(&cs.w_dims(), layout == Layout::Nhwc, 6);
    if beta == 0.0 {
        dw.data.iter_mut().for_each(|v| *v = T::f(f64::NAN));
    }
    let wd = cs.w_dims();
    let order = |v: &[usize]| v.iter().zip(&wd).fold(0, |a, (i, d)| a * d + i);
    let mut sums = vec![0.0; dw.data.len()];
    cs.for_each_mac(|n, k, cgl, c, o, i, t| {
        sums[order(&cs.idx(k, c, t))] += dy.get(&cs.idx(n, k, o)) * x.get(&cs.idx(n, cgl, i));
    });
    let count = sums.len();
    let unflat = |mut i: usize| {
        let mut idx = vec![0; wd.len()];
        for d in (0..wd.len()).rev() {
            idx[d] = i % wd[d];
            i /= wd[d];
        }
        idx
    };
    let want: Vec<f64> = (0..count)
        .map(|i| blend(sums[i], alpha, beta, dw.get(&unflat(i))))
        .collect();
    let cd = cs.desc(T::DT);
    unsafe {
        let mut size = 0usize;
        assert_eq!(
            cudnnGetConvolutionBackwardFilterWorkspaceSize(
                h.0, x.desc, dy.desc, cd, dw.desc, algo, &mut size
            ),
            Status::SUCCESS
        );
        let mut ws = workspace(size);
        let (a, b) = (sc::<T>(alpha), sc::<T>(beta));
        let st = cudnnConvolutionBackwardFilter(
            h.0,
            scp(&*a),
            x.desc,
            x.ptr(),
            dy.desc,
            dy.ptr(),
            cd,
            algo,
            ws.as_mut_ptr().cast(),
            size,
            scp(&*b),
            dw.desc,
            dw.mptr(),
        );
        assert_eq!(st, Status::SUCCESS);
        cudnnDestroyConvolutionDescriptor(cd);
    }
    let got: Vec<f64> = (0..count).map(|i| dw.get(&unflat(i))).collect();
    assert_close::<T>(
        &format!("backward filter {cs:?} {layout:?} algo {algo} alpha {alpha} beta {beta}"),
        &got,
        &want,
    );
}

#[test]
fn forward_matches_naive_loops() {
    for cs in cases().iter().chain([case_3d()].iter()) {
        for layout in LAYOUTS {
            for algo in [0, 1, 2, 3] {
                for bl in BLENDS {
                    forward::<f32>(cs, layout, algo, bl);
                    forward::<f64>(cs, layout, algo, bl);
                }
            }
        }
    }
}

#[test]
fn backward_data_matches_naive_loops() {
    for cs in cases().iter().chain([case_3d()].iter()) {
        for layout in LAYOUTS {
            for algo in [0, 1] {
                for bl in BLENDS {
                    backward_data::<f32>(cs, layout, algo, bl);
                    backward_data::<f64>(cs, layout, algo, bl);
                }
            }
        }
    }
}

#[test]
fn backward_filter_matches_naive_loops() {
    for cs in cases().iter().chain([case_3d()].iter()) {
        for layout in LAYOUTS {
            for algo in [0, 1, 3] {
                for bl in BLENDS {
                    backward_filter::<f32>(cs, layout, algo, bl);
                    backward_filter::<f64>(cs, layout, algo, bl);
                }
            }
        }
    }
}

#[test]
fn output_dims() {
    let cs = &cases()[0];
    let x = Tensor::<f32>::new(&cs.x_dims(), Layout::Nchw, 1);
    let w = Filter::<f32>::new(&cs.w_dims(), false, 2);
    let cd = cs.desc(0);
    let (mut n, mut c, mut hh, mut ww) = (0, 0, 0, 0);
    unsafe {
        assert_eq!(
            cudnnGetConvolution2dForwardOutputDim(
                cd, x.desc, w.desc, &mut n, &mut c, &mut hh, &mut ww
            ),
            Status::SUCCESS
        );
        // (7 + 2 - 5) / 2 + 1 = 3, (5 + 2 - 5) / 2 + 1 = 2.
        assert_eq!((n, c, hh, ww), (2, 4, 3, 2));
        let mut out = [0i32; 4];
        assert_eq!(
            cudnnGetConvolutionNdForwardOutputDim(cd, x.desc, w.desc, 4, out.as_mut_ptr()),
            Status::SUCCESS
        );
        assert_eq!(out, [2, 4, 3, 2]);
        // A filter wider than the padded input.
        let big = Filter::<f32>::new(&[4, 3, 11, 3], false, 2);
        assert_eq!(
            cudnnGetConvolution2dForwardOutputDim(
                cd, x.desc, big.desc, &mut n, &mut c, &mut hh, &mut ww
            ),
            Status::BAD_PARAM
        );
        // Channels that do not match the filter.
        let other = Filter::<f32>::new(&[4, 2, 3, 3], false, 2);
        assert_eq!(
            cudnnGetConvolution2dForwardOutputDim(
                cd, x.desc, other.desc, &mut n, &mut c, &mut hh, &mut ww
            ),
            Status::BAD_PARAM
        );
        // 3-D.
        let c3 = case_3d();
        let x3 = Tensor::<f64>::new(&c3.x_dims(), Layout::Nchw, 1);
        let w3 = Filter::<f64>::new(&c3.w_dims(), false, 1);
        let cd3 = c3.desc(1);
        let mut o5 = [0i32; 5];
        assert_eq!(
            cudnnGetConvolutionNdForwardOutputDim(cd3, x3.desc, w3.desc, 5, o5.as_mut_ptr()),
            Status::SUCCESS
        );
        let want: Vec<i32> = c3.y_dims().iter().map(|&v| v as i32).collect();
        assert_eq!(o5.to_vec(), want);
        cudnnDestroyConvolutionDescriptor(cd3);
        cudnnDestroyConvolutionDescriptor(cd);
    }
}

#[test]
fn backward_bias_and_fused_forward() {
    let h = H::new();
    let dy = Tensor::<f64>::new(&[2, 4, 3, 5], Layout::Nhwc, 7);
    let mut db = Tensor::<f64>::new(&[1, 4, 1, 1], Layout::Nchw, 8);
    let db0 = db.values();
    let (a, b) = (sc::<f64>(2.0), sc::<f64>(0.5));
    unsafe {
        assert_eq!(
            cudnnConvolutionBackwardBias(
                h.0,
                scp(&*a),
                dy.desc,
                dy.ptr(),
                scp(&*b),
                db.desc,
                db.mptr()
            ),
            Status::SUCCESS
        );
    }
    for (k, old) in db0.iter().enumerate() {
        let mut s = 0.0;
        for n in 0..2 {
            for i in 0..3 {
                for j in 0..5 {
                    s += dy.get(&[n, k, i, j]);
                }
            }
        }
        assert!((db.get(&[0, k, 0, 0]) - (2.0 * s + 0.5 * old)).abs() < 1e-12);
    }

    // y = relu(alpha1 * conv(x, w) + alpha2 * z + bias), z aliasing y.
    let cs = &cases()[0];
    let x = Tensor::<f32>::new(&cs.x_dims(), Layout::Nchw, 1);
    let w = Filter::<f32>::new(&cs.w_dims(), false, 2);
    let mut y = Tensor::<f32>::new(&cs.y_dims(), Layout::Nchw, 3);
    let z0 = y.values();
    let bias = Tensor::<f32>::new(&[1, 4, 1, 1], Layout::Nchw, 9);
    let cd = cs.desc(0);
    let mut act = std::ptr::null_mut();
    let yd = cs.y_dims();
    let lin = |v: &[usize]| v.iter().zip(&yd).fold(0, |a, (i, d)| a * d + i);
    let mut conv = vec![0.0; y.count()];
    cs.for_each_mac(|n, k, cgl, c, o, i, t| {
        conv[lin(&cs.idx(n, k, o))] += x.get(&cs.idx(n, cgl, i)) * w.get(&cs.idx(k, c, t));
    });
    let want: Vec<f64> = (0..y.count())
        .map(|i| {
            let k = y.unflat(i)[1];
            (1.5 * conv[i] + 0.25 * z0[i] + bias.get(&[0, k, 0, 0])).max(0.0)
        })
        .collect();
    unsafe {
        cudnnCreateActivationDescriptor(&mut act);
        assert_eq!(
            cudnnSetActivationDescriptor(act, 1, 0, 0.0),
            Status::SUCCESS
        );
        let (a1, a2) = (sc::<f32>(1.5), sc::<f32>(0.25));
        let zp = y.ptr();
        let st = cudnnConvolutionBiasActivationForward(
            h.0,
            scp(&*a1),
            x.desc,
            x.ptr(),
            w.desc,
            w.ptr(),
            cd,
            0,
            std::ptr::null_mut(),
            0,
            scp(&*a2),
            y.desc,
            zp,
            bias.desc,
            bias.ptr(),
            act,
            y.desc,
            y.mptr(),
        );
        assert_eq!(st, Status::SUCCESS);
        // Sigmoid is not a fused activation.
        cudnnSetActivationDescriptor(act, 0, 0, 0.0);
        let st = cudnnConvolutionBiasActivationForward(
            h.0,
            scp(&*a1),
            x.desc,
            x.ptr(),
            w.desc,
            w.ptr(),
            cd,
            0,
            std::ptr::null_mut(),
            0,
            scp(&*a2),
            y.desc,
            zp,
            bias.desc,
            bias.ptr(),
            act,
            y.desc,
            y.mptr(),
        );
        assert_eq!(st, Status::NOT_SUPPORTED);
        cudnnDestroyActivationDescriptor(act);
        cudnnDestroyConvolutionDescriptor(cd);
    }
    assert_close::<f32>("fused", &y.values(), &want);
}

fn blank() -> AlgoPerf {
    AlgoPerf {
        algo: -1,
        status: Status(-1),
        time: 0.0,
        memory: 0,
        determinism: -1,
        math_type: -1,
        reserved: [0; 3],
    }
}

#[test]
fn algorithm_queries_are_honest() {
    let h = H::new();
    let cs = &cases()[0];
    let x = Tensor::<f32>::new(&cs.x_dims(), Layout::Nchw, 1);
    let w = Filter::<f32>::new(&cs.w_dims(), false, 2);
    let mut y = Tensor::<f32>::new(&cs.y_dims(), Layout::Nchw, 3);
    let cd = cs.desc(0);
    unsafe {
        cudnnSetConvolutionMathType(cd, 3);
        let mut count = 0;
        cudnnGetConvolutionForwardAlgorithmMaxCount(h.0, &mut count);
        assert_eq!(count, 8);
        cudnnGetConvolutionBackwardDataAlgorithmMaxCount(h.0, &mut count);
        assert_eq!(count, 6);
        cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(h.0, &mut count);
        assert_eq!(count, 7);

        let mut perf = [blank(); 8];
        let mut got = 0;
        assert_eq!(
            cudnnGetConvolutionForwardAlgorithm_v7(
                h.0,
                x.desc,
                w.desc,
                cd,
                y.desc,
                8,
                &mut got,
                perf.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        assert_eq!(got, 8);
        let ok: Vec<i32> = perf
            .iter()
            .filter(|p| p.status == Status::SUCCESS)
            .map(|p| p.algo)
            .collect();
        let mut sorted = ok.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3]);
        // Supported first, each with its real workspace and the math type.
        assert!(perf[..4].iter().all(|p| p.status == Status::SUCCESS
            && p.time >= 0.0
            && p.math_type == 3
            && p.determinism == 1));
        assert!(perf[4..].iter().all(|p| p.status == Status::NOT_SUPPORTED));
        for p in &perf[..4] {
            let mut size = 0;
            cudnnGetConvolutionForwardWorkspaceSize(
                h.0, x.desc, w.desc, cd, y.desc, p.algo, &mut size,
            );
            assert_eq!(size, p.memory, "algo {}", p.algo);
        }
        // Fewer requested than exist.
        assert_eq!(
            cudnnGetConvolutionForwardAlgorithm_v7(
                h.0,
                x.desc,
                w.desc,
                cd,
                y.desc,
                2,
                &mut got,
                perf.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        assert_eq!(got, 2);
        assert_eq!(
            cudnnGetConvolutionForwardAlgorithm_v7(
                h.0,
                x.desc,
                w.desc,
                cd,
                y.desc,
                0,
                &mut got,
                perf.as_mut_ptr()
            ),
            Status::BAD_PARAM
        );

        // Find measures; FindEx leaves the convolution in y; with no
        // workspace the GEMM ids cannot run.
        assert_eq!(
            cudnnFindConvolutionForwardAlgorithm(
                h.0,
                x.desc,
                w.desc,
                cd,
                y.desc,
                8,
                &mut got,
                perf.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        assert_eq!(got, 8);
        assert!(perf[..4]
            .iter()
            .all(|p| p.status == Status::SUCCESS && p.time >= 0.0));
        y.poison();
        assert_eq!(
            cudnnFindConvolutionForwardAlgorithmEx(
                h.0,
                x.desc,
                x.ptr(),
                w.desc,
                w.ptr(),
                cd,
                y.desc,
                y.mptr(),
                8,
                &mut got,
                perf.as_mut_ptr(),
                std::ptr::null_mut(),
                0
            ),
            Status::SUCCESS
        );
        let direct: Vec<i32> = perf
            .iter()
            .filter(|p| p.status == Status::SUCCESS)
            .map(|p| p.algo)
            .collect();
        let mut direct_sorted = direct.clone();
        direct_sorted.sort();
        assert_eq!(direct_sorted, vec![0, 3]);
        assert!(perf
            .iter()
            .any(|p| p.status == Status::ALLOC_FAILED && p.algo == 1));
        assert!(y.values().iter().all(|v| v.is_finite()));

        let mut pd = [blank(); 6];
        assert_eq!(
            cudnnFindConvolutionBackwardDataAlgorithm(
                h.0,
                w.desc,
                y.desc,
                cd,
                x.desc,
                6,
                &mut got,
                pd.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        assert_eq!(got, 6);
        assert_eq!(pd.iter().filter(|p| p.status == Status::SUCCESS).count(), 2);
        assert_eq!(
            cudnnGetConvolutionBackwardDataAlgorithm_v7(
                h.0,
                w.desc,
                y.desc,
                cd,
                x.desc,
                6,
                &mut got,
                pd.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        let mut pf = [blank(); 7];
        assert_eq!(
            cudnnFindConvolutionBackwardFilterAlgorithm(
                h.0,
                x.desc,
                y.desc,
                cd,
                w.desc,
                7,
                &mut got,
                pf.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        assert_eq!(pf.iter().filter(|p| p.status == Status::SUCCESS).count(), 3);
        assert_eq!(
            cudnnGetConvolutionBackwardFilterAlgorithm_v7(
                h.0,
                x.desc,
                y.desc,
                cd,
                w.desc,
                7,
                &mut got,
                pf.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        assert_eq!(got, 7);
        cudnnDestroyConvolutionDescriptor(cd);
    }
    // Depthwise: the direct engine is the heuristic's first choice.
    let dw = &cases()[2];
    let x = Tensor::<f32>::new(&dw.x_dims(), Layout::Nchw, 1);
    let w = Filter::<f32>::new(&dw.w_dims(), false, 2);
    let y = Tensor::<f32>::new(&dw.y_dims(), Layout::Nchw, 3);
    let cd = dw.desc(0);
    unsafe {
        let mut perf = [blank(); 8];
        let mut got = 0;
        cudnnGetConvolutionForwardAlgorithm_v7(
            h.0,
            x.desc,
            w.desc,
            cd,
            y.desc,
            8,
            &mut got,
            perf.as_mut_ptr(),
        );
        assert!(perf[0].algo == 0 || perf[0].algo == 3, "{:?}", perf[0]);
        cudnnDestroyConvolutionDescriptor(cd);
    }
}

#[test]
fn convolution_errors() {
    let h = H::new();
    let cs = &cases()[0];
    let x = Tensor::<f32>::new(&cs.x_dims(), Layout::Nchw, 1);
    let w = Filter::<f32>::new(&cs.w_dims(), false, 2);
    let mut y = Tensor::<f32>::new(&cs.y_dims(), Layout::Nchw, 3);
    let cd = cs.desc(0);
    let (a, b) = (sc::<f32>(1.0), sc::<f32>(0.0));
    let run = |algo: i32, ws: *mut c_void, size: usize, yd: *mut TensorDesc, y: *mut c_void| unsafe {
        cudnnConvolutionForward(
            h.0,
            scp(&*a),
            x.desc,
            x.ptr(),
            w.desc,
            w.ptr(),
            cd,
            algo,
            ws,
            size,
            scp(&*b),
            yd,
            y,
        )
    };
    let yp = y.mptr();
    // FFT, FFT tiling, Winograd and Winograd non-fused are not implemented.
    for algo in 4..8 {
        assert_eq!(
            run(algo, std::ptr::null_mut(), 0, y.desc, yp),
            Status::NOT_SUPPORTED
        );
    }
    // Ids cuDNN does not define.
    assert_eq!(
        run(8, std::ptr::null_mut(), 0, y.desc, yp),
        Status::BAD_PARAM
    );
    assert_eq!(
        run(-1, std::ptr::null_mut(), 0, y.desc, yp),
        Status::BAD_PARAM
    );
    // GEMM without its workspace.
    assert_eq!(
        run(1, std::ptr::null_mut(), 0, y.desc, yp),
        Status::BAD_PARAM
    );
    // Wrong output shape and NULL output.
    let wrong = Tensor::<f32>::new(&[2, 4, 4, 2], Layout::Nchw, 3);
    assert_eq!(
        run(0, std::ptr::null_mut(), 0, wrong.desc, yp),
        Status::BAD_PARAM
    );
    assert_eq!(
        run(0, std::ptr::null_mut(), 0, y.desc, std::ptr::null_mut()),
        Status::BAD_PARAM
    );
    // Mixed types.
    let yd64 = Tensor::<f64>::new(&cs.y_dims(), Layout::Nchw, 3);
    assert_eq!(
        run(0, std::ptr::null_mut(), 0, yd64.desc, yp),
        Status::BAD_PARAM
    );
    unsafe {
        // A NULL handle.
        assert_eq!(
            cudnnConvolutionForward(
                std::ptr::null_mut(),
                scp(&*a),
                x.desc,
                x.ptr(),
                w.desc,
                w.ptr(),
                cd,
                0,
                std::ptr::null_mut(),
                0,
                scp(&*b),
                y.desc,
                yp
            ),
            Status::BAD_PARAM
        );
        // Unsupported algorithm in the workspace query.
        let mut size = 0;
        assert_eq!(
            cudnnGetConvolutionForwardWorkspaceSize(h.0, x.desc, w.desc, cd, y.desc, 6, &mut size),
            Status::NOT_SUPPORTED
        );
        assert_eq!(
            cudnnGetConvolutionBackwardFilterWorkspaceSize(
                h.0, x.desc, y.desc, cd, w.desc, 4, &mut size
            ),
            Status::NOT_SUPPORTED
        );
        assert_eq!(
            cudnnGetConvolutionBackwardDataWorkspaceSize(
                h.0, w.desc, y.desc, cd, x.desc, 6, &mut size
            ),
            Status::BAD_PARAM
        );
        // Descriptor setters.
        let mut d = std::ptr::null_mut();
        cudnnCreateConvolutionDescriptor(&mut d);
        assert_eq!(
            cudnnSetConvolution2dDescriptor(d, -1, 0, 1, 1, 1, 1, 1, 0),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetConvolution2dDescriptor(d, 0, 0, 0, 1, 1, 1, 1, 0),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetConvolution2dDescriptor(d, 0, 0, 1, 1, 0, 1, 1, 0),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetConvolution2dDescriptor(d, 0, 0, 1, 1, 1, 1, 2, 0),
            Status::BAD_PARAM
        );
        assert_eq!(cudnnSetConvolutionGroupCount(d, 0), Status::BAD_PARAM);
        assert_eq!(cudnnSetConvolutionMathType(d, 9), Status::BAD_PARAM);
        // Using an unset descriptor.
        assert_eq!(
            cudnnConvolutionForward(
                h.0,
                scp(&*a),
                x.desc,
                x.ptr(),
                w.desc,
                w.ptr(),
                d,
                0,
                std::ptr::null_mut(),
                0,
                scp(&*b),
                y.desc,
                yp
            ),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetConvolution2dDescriptor(d, 1, 2, 3, 4, 5, 6, 0, 1),
            Status::SUCCESS
        );
        let mut v = [0i32; 8];
        assert_eq!(
            cudnnGetConvolution2dDescriptor(
                d, &mut v[0], &mut v[1], &mut v[2], &mut v[3], &mut v[4], &mut v[5], &mut v[6],
                &mut v[7]
            ),
            Status::SUCCESS
        );
        assert_eq!(v, [1, 2, 3, 4, 5, 6, 0, 1]);
        let mut g = 0;
        cudnnSetConvolutionGroupCount(d, 3);
        cudnnGetConvolutionGroupCount(d, &mut g);
        assert_eq!(g, 3);
        cudnnDestroyConvolutionDescriptor(d);
        cudnnDestroyConvolutionDescriptor(cd);
    }
}
