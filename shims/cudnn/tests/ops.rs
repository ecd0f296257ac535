//! Tensor operations, activations, pooling, softmax, LRN and batch
//! normalisation against naive loops, float and double, NCHW / NHWC /
//! padded strides, with alpha/beta blending and error statuses.

mod common;

use common::*;
use cudnn::activation::*;
use cudnn::batchnorm::*;
use cudnn::desc::*;
use cudnn::lrn::*;
use cudnn::pooling::*;
use cudnn::softmax::*;
use cudnn::tensor_ops::*;
use cudnn::Status;

const LAYOUTS: [Layout; 3] = [Layout::Nchw, Layout::Nhwc, Layout::Padded];
const DIMS: [usize; 4] = [2, 3, 7, 5];

fn expect(
    y: &Tensor<impl El>,
    y0: &[f64],
    alpha: f64,
    beta: f64,
    f: impl Fn(&[usize]) -> f64,
) -> Vec<f64> {
    (0..y.count())
        .map(|i| blend(f(&y.unflat(i)), alpha, beta, y0[i]))
        .collect()
}

fn tensor_ops<T: El>(layout: Layout) {
    let h = H::new();
    let (al, be) = (sc::<T>(0.5), sc::<T>(-1.25));
    // AddTensor with a per-channel bias and with a full tensor.
    for bdims in [[1, 3, 1, 1], [2, 3, 7, 5], [1, 1, 7, 1]] {
        let a = Tensor::<T>::new(&bdims, layout, 11);
        let mut c = Tensor::<T>::new(&DIMS, layout, 12);
        let c0 = c.values();
        unsafe {
            assert_eq!(
                cudnnAddTensor(h.0, scp(&*al), a.desc, a.ptr(), scp(&*be), c.desc, c.mptr()),
                Status::SUCCESS
            );
        }
        let want = expect(&c, &c0, 0.5, -1.25, |i| {
            let j: Vec<usize> = i
                .iter()
                .zip(&bdims)
                .map(|(&v, &d)| if d == 1 { 0 } else { v })
                .collect();
            a.get(&j)
        });
        assert_close::<T>("add tensor", &c.values(), &want);
    }
    // Incompatible broadcast.
    let a = Tensor::<T>::new(&[1, 2, 1, 1], layout, 11);
    let mut c = Tensor::<T>::new(&DIMS, layout, 12);
    unsafe {
        assert_eq!(
            cudnnAddTensor(h.0, scp(&*al), a.desc, a.ptr(), scp(&*be), c.desc, c.mptr()),
            Status::BAD_PARAM
        );
    }

    // OpTensor: every op, B broadcast per channel.
    let mut od = std::ptr::null_mut();
    unsafe { cudnnCreateOpTensorDescriptor(&mut od) };
    for op in 0..6 {
        let a = Tensor::<T>::new(&DIMS, layout, 13);
        let b = Tensor::<T>::new(&[1, 3, 1, 1], layout, 14);
        let mut c = Tensor::<T>::new(&DIMS, layout, 15);
        let c0 = c.values();
        let (a1, a2, bt) = (
            sc::<T>(if op == 4 { 2.0 } else { 0.75 }),
            sc::<T>(-2.0),
            sc::<T>(0.5),
        );
        unsafe {
            assert_eq!(
                cudnnSetOpTensorDescriptor(od, op, T::DT, 0),
                Status::SUCCESS
            );
            // sqrt needs non-negative inputs: use |A| for it.
            let mut a = a;
            if op == 4 {
                for i in 0..a.count() {
                    let idx = a.unflat(i);
                    let v = a.get(&idx).abs();
                    a.set(&idx, v);
                }
            }
            assert_eq!(
                cudnnOpTensor(
                    h.0,
                    od,
                    scp(&*a1),
                    a.desc,
                    a.ptr(),
                    scp(&*a2),
                    b.desc,
                    b.ptr(),
                    scp(&*bt),
                    c.desc,
                    c.mptr()
                ),
                Status::SUCCESS
            );
            let want = expect(&c, &c0, 1.0, 0.5, |i| {
                let x = a1.d() * a.get(i);
                let y = -2.0 * b.get(&[0, i[1], 0, 0]);
                match op {
                    0 => x + y,
                    1 => x * y,
                    2 => x.min(y),
                    3 => x.max(y),
                    4 => x.sqrt(),
                    _ => 1.0 - x,
                }
            });
            assert_close::<T>(&format!("op tensor {op}"), &c.values(), &want);
        }
    }
    unsafe {
        assert_eq!(
            cudnnSetOpTensorDescriptor(od, 6, T::DT, 0),
            Status::BAD_PARAM
        );
        cudnnDestroyOpTensorDescriptor(od);
    }

    // TransformTensor to another layout, SetTensor, ScaleTensor.
    let x = Tensor::<T>::new(&DIMS, layout, 16);
    let mut y = Tensor::<T>::new(&DIMS, Layout::Nhwc, 17);
    let y0 = y.values();
    unsafe {
        assert_eq!(
            cudnnTransformTensor(h.0, scp(&*al), x.desc, x.ptr(), scp(&*be), y.desc, y.mptr()),
            Status::SUCCESS
        );
    }
    assert_close::<T>(
        "transform",
        &y.values(),
        &expect(&y, &y0, 0.5, -1.25, |i| x.get(i)),
    );
    let other = Tensor::<T>::new(&[2, 3, 5, 7], layout, 1);
    unsafe {
        assert_eq!(
            cudnnTransformTensor(
                h.0,
                scp(&*al),
                x.desc,
                x.ptr(),
                scp(&*be),
                other.desc,
                y.mptr()
            ),
            Status::BAD_PARAM
        );
        let v = sc::<T>(3.5);
        assert_eq!(
            cudnnSetTensor(h.0, y.desc, y.mptr(), scp(&*v)),
            Status::SUCCESS
        );
    }
    assert!(y.values().iter().all(|&v| v == 3.5));
    let mut y = Tensor::<T>::new(&DIMS, layout, 18);
    let y0 = y.values();
    unsafe {
        let s = sc::<T>(-3.0);
        assert_eq!(
            cudnnScaleTensor(h.0, y.desc, y.mptr(), scp(&*s)),
            Status::SUCCESS
        );
    }
    assert_close::<T>(
        "scale",
        &y.values(),
        &y0.iter().map(|v| -3.0 * v).collect::<Vec<_>>(),
    );
    // Padding slots stay untouched by every write.
    if layout == Layout::Padded {
        let touched = y.data.iter().filter(|v| !v.d().is_nan()).count();
        assert_eq!(touched, y.count());
    }
}

#[test]
fn tensor_operations() {
    for layout in LAYOUTS {
        tensor_ops::<f32>(layout);
        tensor_ops::<f64>(layout);
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn activations<T: El>(layout: Layout) {
    let h = H::new();
    let mut ad = std::ptr::null_mut();
    unsafe { cudnnCreateActivationDescriptor(&mut ad) };
    let coef = 0.4;
    for mode in [0, 1, 2, 3, 4, 6] {
        unsafe {
            assert_eq!(
                cudnnSetActivationDescriptor(ad, mode, 0, coef),
                Status::SUCCESS
            );
            assert_eq!(
                cudnnSetActivationDescriptorSwishBeta(ad, 1.5),
                Status::SUCCESS
            );
        }
        let f = |x: f64| match mode {
            0 => sigmoid(x),
            1 => x.max(0.0),
            2 => x.tanh(),
            3 => x.max(0.0).min(coef),
            4 => {
                if x > 0.0 {
                    x
                } else {
                    coef * (x.exp() - 1.0)
                }
            }
            _ => x * sigmoid(1.5 * x),
        };
        let df = |x: f64| {
            let e = 1e-6;
            (f(x + e) - f(x - e)) / (2.0 * e)
        };
        let x = Tensor::<T>::new(&DIMS, layout, 21);
        let mut y = Tensor::<T>::new(&DIMS, Layout::Padded, 22);
        y.poison();
        let (a, b0, b1) = (sc::<T>(1.0), sc::<T>(0.0), sc::<T>(0.5));
        unsafe {
            assert_eq!(
                cudnnActivationForward(
                    h.0,
                    ad,
                    scp(&*a),
                    x.desc,
                    x.ptr(),
                    scp(&*b0),
                    y.desc,
                    y.mptr()
                ),
                Status::SUCCESS
            );
        }
        let fx: Vec<f64> = (0..x.count()).map(|i| f(x.get(&x.unflat(i)))).collect();
        assert_close::<T>(&format!("activation {mode}"), &y.values(), &fx);
        let dy = Tensor::<T>::new(&DIMS, layout, 23);
        let mut dx = Tensor::<T>::new(&DIMS, layout, 24);
        let dx0 = dx.values();
        let a2 = sc::<T>(2.0);
        unsafe {
            let st = cudnnActivationBackward(
                h.0,
                ad,
                scp(&*a2),
                y.desc,
                y.ptr(),
                dy.desc,
                dy.ptr(),
                x.desc,
                x.ptr(),
                scp(&*b1),
                dx.desc,
                dx.mptr(),
            );
            assert_eq!(st, Status::SUCCESS);
        }
        let want = expect(&dx, &dx0, 2.0, 0.5, |i| dy.get(i) * df(x.get(i)));
        // The numerical derivative is good to ~1e-6.
        let got = dx.values();
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (g - w).abs() < 1e-3,
                "activation backward {mode}: {g} vs {w}"
            );
        }
    }
    unsafe {
        // Identity is for the fused convolution only.
        cudnnSetActivationDescriptor(ad, 5, 0, 0.0);
        let x = Tensor::<T>::new(&DIMS, layout, 21);
        let mut y = Tensor::<T>::new(&DIMS, layout, 22);
        let (a, b) = (sc::<T>(1.0), sc::<T>(0.0));
        assert_eq!(
            cudnnActivationForward(
                h.0,
                ad,
                scp(&*a),
                x.desc,
                x.ptr(),
                scp(&*b),
                y.desc,
                y.mptr()
            ),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetActivationDescriptor(ad, 7, 0, 0.0),
            Status::BAD_PARAM
        );
        let (mut m, mut n, mut c) = (0, 0, 0.0);
        cudnnGetActivationDescriptor(ad, &mut m, &mut n, &mut c);
        assert_eq!(m, 5);
        cudnnDestroyActivationDescriptor(ad);
    }
}

#[test]
fn activation_forward_backward() {
    for layout in LAYOUTS {
        activations::<f32>(layout);
        activations::<f64>(layout);
    }
}

fn pooling<T: El>(layout: Layout) {
    let h = H::new();
    // 3x2 window, padding (1, 1), stride (2, 1) over 7x5.
    let (win, pad, stride) = ([3usize, 2], [1usize, 1], [2usize, 1]);
    let out = [(7 + 2 - 3) / 2 + 1, (5 + 2 - 2) + 1];
    for mode in 0..3 {
        let mut pd = std::ptr::null_mut();
        unsafe {
            cudnnCreatePoolingDescriptor(&mut pd);
            assert_eq!(
                cudnnSetPooling2dDescriptor(pd, mode, 0, 3, 2, 1, 1, 2, 1),
                Status::SUCCESS
            );
        }
        let x = Tensor::<T>::new(&DIMS, layout, 31);
        let ydims = [2, 3, out[0], out[1]];
        unsafe {
            let (mut n, mut c, mut hh, mut ww) = (0, 0, 0, 0);
            assert_eq!(
                cudnnGetPooling2dForwardOutputDim(pd, x.desc, &mut n, &mut c, &mut hh, &mut ww),
                Status::SUCCESS
            );
            assert_eq!([n, c, hh, ww], [2, 3, out[0] as i32, out[1] as i32]);
        }
        let mut y = Tensor::<T>::new(&ydims, layout, 32);
        let y0 = y.values();
        let cells = |i: &[usize]| {
            let mut v = Vec::new();
            for r in 0..win[0] {
                for s in 0..win[1] {
                    let ih = (i[2] * stride[0] + r) as isize - pad[0] as isize;
                    let iw = (i[3] * stride[1] + s) as isize - pad[1] as isize;
                    if (0..7).contains(&ih) && (0..5).contains(&iw) {
                        v.push([i[0], i[1], ih as usize, iw as usize]);
                    }
                }
            }
            v
        };
        let (a, b) = (sc::<T>(1.5), sc::<T>(0.25));
        unsafe {
            assert_eq!(
                cudnnPoolingForward(
                    h.0,
                    pd,
                    scp(&*a),
                    x.desc,
                    x.ptr(),
                    scp(&*b),
                    y.desc,
                    y.mptr()
                ),
                Status::SUCCESS
            );
        }
        let want = expect(&y, &y0, 1.5, 0.25, |i| {
            let c = cells(i);
            match mode {
                0 => c.iter().map(|j| x.get(j)).fold(f64::MIN, f64::max),
                1 => c.iter().map(|j| x.get(j)).sum::<f64>() / 6.0,
                _ => c.iter().map(|j| x.get(j)).sum::<f64>() / c.len() as f64,
            }
        });
        assert_close::<T>(&format!("pool fwd {mode}"), &y.values(), &want);
        // Backward.
        let dy = Tensor::<T>::new(&ydims, layout, 33);
        let mut dx = Tensor::<T>::new(&DIMS, layout, 34);
        let dx0 = dx.values();
        let mut acc = vec![0.0; dx.count()];
        let lin = |j: &[usize; 4]| ((j[0] * 3 + j[1]) * 7 + j[2]) * 5 + j[3];
        for i in 0..dy.count() {
            let o = dy.unflat(i);
            let c = cells(&o);
            let g = dy.get(&o);
            match mode {
                0 => {
                    let best = c.iter().fold(None::<[usize; 4]>, |b, j| match b {
                        Some(bj) if x.get(&bj) >= x.get(j) => Some(bj),
                        _ => Some(*j),
                    });
                    if let Some(bj) = best {
                        acc[lin(&bj)] += g;
                    }
                }
                1 => c.iter().for_each(|j| acc[lin(j)] += g / 6.0),
                _ => c.iter().for_each(|j| acc[lin(j)] += g / c.len() as f64),
            }
        }
        unsafe {
            let st = cudnnPoolingBackward(
                h.0,
                pd,
                scp(&*a),
                y.desc,
                y.ptr(),
                dy.desc,
                dy.ptr(),
                x.desc,
                x.ptr(),
                scp(&*b),
                dx.desc,
                dx.mptr(),
            );
            assert_eq!(st, Status::SUCCESS);
        }
        let want: Vec<f64> = acc
            .iter()
            .zip(&dx0)
            .map(|(&v, &o)| blend(v, 1.5, 0.25, o))
            .collect();
        assert_close::<T>(&format!("pool bwd {mode}"), &dx.values(), &want);
        unsafe {
            // Wrong output shape.
            let bad = Tensor::<T>::new(&[2, 3, 4, 4], layout, 1);
            assert_eq!(
                cudnnPoolingForward(
                    h.0,
                    pd,
                    scp(&*a),
                    x.desc,
                    x.ptr(),
                    scp(&*b),
                    bad.desc,
                    y.mptr()
                ),
                Status::BAD_PARAM
            );
            cudnnDestroyPoolingDescriptor(pd);
        }
    }
}

#[test]
fn pooling_forward_backward() {
    for layout in LAYOUTS {
        pooling::<f32>(layout);
        pooling::<f64>(layout);
    }
    unsafe {
        let mut pd = std::ptr::null_mut();
        cudnnCreatePoolingDescriptor(&mut pd);
        assert_eq!(
            cudnnSetPooling2dDescriptor(pd, 4, 0, 2, 2, 0, 0, 1, 1),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetPooling2dDescriptor(pd, 0, 0, 0, 2, 0, 0, 1, 1),
            Status::BAD_PARAM
        );
        // 3-D pooling.
        let (w, p, s) = ([2, 2, 2], [0, 1, 0], [1, 2, 2]);
        assert_eq!(
            cudnnSetPoolingNdDescriptor(pd, 0, 0, 3, w.as_ptr(), p.as_ptr(), s.as_ptr()),
            Status::SUCCESS
        );
        let x = Tensor::<f64>::new(&[1, 2, 3, 4, 5], Layout::Nchw, 3);
        let mut out = [0i32; 5];
        assert_eq!(
            cudnnGetPoolingNdForwardOutputDim(pd, x.desc, 5, out.as_mut_ptr()),
            Status::SUCCESS
        );
        assert_eq!(out, [1, 2, 2, 3, 2]);
        let mut y = Tensor::<f64>::new(&[1, 2, 2, 3, 2], Layout::Nchw, 3);
        let h = H::new();
        let (a, b) = (sc::<f64>(1.0), sc::<f64>(0.0));
        assert_eq!(
            cudnnPoolingForward(
                h.0,
                pd,
                scp(&*a),
                x.desc,
                x.ptr(),
                scp(&*b),
                y.desc,
                y.mptr()
            ),
            Status::SUCCESS
        );
        for i in 0..y.count() {
            let o = y.unflat(i);
            let mut m = f64::MIN;
            for dd in 0..2 {
                for hh in 0..2 {
                    for ww in 0..2 {
                        let id = o[2] + dd;
                        let ih = (o[3] * 2 + hh) as isize - 1;
                        let iw = o[4] * 2 + ww;
                        if ih >= 0 && (ih as usize) < 4 {
                            m = m.max(x.get(&[o[0], o[1], id, ih as usize, iw]));
                        }
                    }
                }
            }
            assert_eq!(y.get(&o), m);
        }
        cudnnDestroyPoolingDescriptor(pd);
    }
}

fn softmax<T: El>(layout: Layout) {
    let h = H::new();
    for algo in 0..3 {
        for mode in 0..2 {
            let x = Tensor::<T>::new(&DIMS, layout, 41);
            let mut y = Tensor::<T>::new(&DIMS, Layout::Nchw, 42);
            y.poison();
            let (a, b) = (sc::<T>(1.0), sc::<T>(0.0));
            unsafe {
                assert_eq!(
                    cudnnSoftmaxForward(
                        h.0,
                        algo,
                        mode,
                        scp(&*a),
                        x.desc,
                        x.ptr(),
                        scp(&*b),
                        y.desc,
                        y.mptr()
                    ),
                    Status::SUCCESS
                );
            }
            // The members of the softmax group of index i.
            let group = |i: &[usize]| -> Vec<[usize; 4]> {
                let mut v = Vec::new();
                for c in 0..3 {
                    if mode == 1 {
                        v.push([i[0], c, i[2], i[3]]);
                    } else {
                        for hh in 0..7 {
                            for ww in 0..5 {
                                v.push([i[0], c, hh, ww]);
                            }
                        }
                    }
                }
                v
            };
            let sm = |i: &[usize]| {
                let s: f64 = group(i).iter().map(|j| x.get(j).exp()).sum();
                if algo == 2 {
                    x.get(i) - s.ln()
                } else {
                    x.get(i).exp() / s
                }
            };
            let want: Vec<f64> = (0..y.count()).map(|i| sm(&y.unflat(i))).collect();
            assert_close::<T>(&format!("softmax {algo} {mode}"), &y.values(), &want);
            // Backward.
            let dy = Tensor::<T>::new(&DIMS, layout, 43);
            let mut dx = Tensor::<T>::new(&DIMS, layout, 44);
            let dx0 = dx.values();
            let (a2, b2) = (sc::<T>(0.5), sc::<T>(2.0));
            unsafe {
                let st = cudnnSoftmaxBackward(
                    h.0,
                    algo,
                    mode,
                    scp(&*a2),
                    y.desc,
                    y.ptr(),
                    dy.desc,
                    dy.ptr(),
                    scp(&*b2),
                    dx.desc,
                    dx.mptr(),
                );
                assert_eq!(st, Status::SUCCESS);
            }
            let want = expect(&dx, &dx0, 0.5, 2.0, |i| {
                let g = group(i);
                if algo == 2 {
                    let s: f64 = g.iter().map(|j| dy.get(j)).sum();
                    dy.get(i) - y.get(i).exp() * s
                } else {
                    let s: f64 = g.iter().map(|j| dy.get(j) * y.get(j)).sum();
                    y.get(i) * (dy.get(i) - s)
                }
            });
            assert_close::<T>(&format!("softmax bwd {algo} {mode}"), &dx.values(), &want);
        }
    }
    let x = Tensor::<T>::new(&DIMS, layout, 41);
    let mut y = Tensor::<T>::new(&DIMS, layout, 42);
    let (a, b) = (sc::<T>(1.0), sc::<T>(0.0));
    unsafe {
        assert_eq!(
            cudnnSoftmaxForward(
                h.0,
                3,
                0,
                scp(&*a),
                x.desc,
                x.ptr(),
                scp(&*b),
                y.desc,
                y.mptr()
            ),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSoftmaxForward(
                h.0,
                0,
                2,
                scp(&*a),
                x.desc,
                x.ptr(),
                scp(&*b),
                y.desc,
                y.mptr()
            ),
            Status::BAD_PARAM
        );
    }
}

#[test]
fn softmax_forward_backward() {
    for layout in LAYOUTS {
        softmax::<f32>(layout);
        softmax::<f64>(layout);
    }
}

fn lrn<T: El>(layout: Layout) {
    let h = H::new();
    let dims = [2, 7, 3, 2];
    let (n, alpha, beta, k) = (5u32, 0.3, 0.75, 1.5);
    let mut ld = std::ptr::null_mut();
    unsafe {
        cudnnCreateLRNDescriptor(&mut ld);
        assert_eq!(
            cudnnSetLRNDescriptor(ld, n, alpha, beta, k),
            Status::SUCCESS
        );
    }
    let x = Tensor::<T>::new(&dims, layout, 51);
    let scale = |i: &[usize]| {
        let lo = i[1].saturating_sub(2);
        let hi = (i[1] + 2).min(6);
        let s: f64 = (lo..=hi)
            .map(|c| x.get(&[i[0], c, i[2], i[3]]).powi(2))
            .sum();
        k + alpha / n as f64 * s
    };
    let f = |i: &[usize]| x.get(i) * scale(i).powf(-beta);
    let mut y = Tensor::<T>::new(&dims, layout, 52);
    let y0 = y.values();
    let (a, b) = (sc::<T>(0.5), sc::<T>(0.5));
    unsafe {
        assert_eq!(
            cudnnLRNCrossChannelForward(
                h.0,
                ld,
                0,
                scp(&*a),
                x.desc,
                x.ptr(),
                scp(&*b),
                y.desc,
                y.mptr()
            ),
            Status::SUCCESS
        );
    }
    assert_close::<T>("lrn fwd", &y.values(), &expect(&y, &y0, 0.5, 0.5, f));
    // Backward against a numerical Jacobian-vector product.
    let dy = Tensor::<T>::new(&dims, layout, 53);
    let mut yv = Tensor::<T>::new(&dims, layout, 52);
    let (one, zero) = (sc::<T>(1.0), sc::<T>(0.0));
    unsafe {
        cudnnLRNCrossChannelForward(
            h.0,
            ld,
            0,
            scp(&*one),
            x.desc,
            x.ptr(),
            scp(&*zero),
            yv.desc,
            yv.mptr(),
        );
    }
    let mut dx = Tensor::<T>::new(&dims, layout, 54);
    unsafe {
        let st = cudnnLRNCrossChannelBackward(
            h.0,
            ld,
            0,
            scp(&*one),
            yv.desc,
            yv.ptr(),
            dy.desc,
            dy.ptr(),
            x.desc,
            x.ptr(),
            scp(&*zero),
            dx.desc,
            dx.mptr(),
        );
        assert_eq!(st, Status::SUCCESS);
    }
    for i in 0..x.count() {
        let idx = x.unflat(i);
        // d/dx_i of sum_j dy_j y_j, numerically on an f64 copy.
        let e = 1e-6;
        let mut xp: Vec<f64> = x.values();
        let val = |xv: &[f64]| {
            let mut s = 0.0;
            for j in 0..x.count() {
                let jj = x.unflat(j);
                let lo = jj[1].saturating_sub(2);
                let hi = (jj[1] + 2).min(6);
                let lin = |c: usize| ((jj[0] * 7 + c) * 3 + jj[2]) * 2 + jj[3];
                let sq: f64 = (lo..=hi).map(|c| xv[lin(c)].powi(2)).sum();
                s += dy.get(&jj) * xv[j] * (k + alpha / n as f64 * sq).powf(-beta);
            }
            s
        };
        xp[i] += e;
        let up = val(&xp);
        xp[i] -= 2.0 * e;
        let down = val(&xp);
        let num = (up - down) / (2.0 * e);
        assert!(
            (dx.get(&idx) - num).abs() < 1e-4,
            "lrn bwd {idx:?}: {} vs {num}",
            dx.get(&idx)
        );
    }
    unsafe {
        assert_eq!(
            cudnnSetLRNDescriptor(ld, 17, alpha, beta, k),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetLRNDescriptor(ld, 5, alpha, 0.001, k),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnLRNCrossChannelForward(
                h.0,
                ld,
                1,
                scp(&*a),
                x.desc,
                x.ptr(),
                scp(&*b),
                y.desc,
                y.mptr()
            ),
            Status::BAD_PARAM
        );
        cudnnDestroyLRNDescriptor(ld);
    }
}

#[test]
fn lrn_forward_backward() {
    for layout in LAYOUTS {
        lrn::<f32>(layout);
        lrn::<f64>(layout);
    }
}

fn batchnorm<T: El>(layout: Layout, mode: i32) {
    let h = H::new();
    let spatial = mode != 0;
    let x = Tensor::<T>::new(&DIMS, layout, 61);
    let mut pd = std::ptr::null_mut();
    unsafe {
        cudnnCreateTensorDescriptor(&mut pd);
        assert_eq!(
            cudnnDeriveBNTensorDescriptor(pd, x.desc, mode),
            Status::SUCCESS
        );
    }
    let pdims = if spatial {
        vec![1, 3, 1, 1]
    } else {
        vec![1, 3, 7, 5]
    };
    let mk = |seed: u64| Tensor::<T>::new(&pdims, Layout::Nchw, seed);
    let (scale, bias) = (mk(62), mk(63));
    let (mut rm, mut rv) = (mk(64), mk(65));
    for i in 0..rv.count() {
        let idx = rv.unflat(i);
        let v = rv.get(&idx).abs() + 0.5;
        rv.set(&idx, v);
    }
    let (rm0, rv0) = (rm.values(), rv.values());
    let (mut sm, mut siv) = (mk(66), mk(67));
    let mut y = Tensor::<T>::new(&DIMS, layout, 68);
    let y0 = y.values();
    let (eps, factor) = (1e-3, 0.3);
    // The members of parameter index p (row-major over pdims).
    let members = |p: &[usize]| -> Vec<[usize; 4]> {
        let mut v = Vec::new();
        for n in 0..2 {
            if spatial {
                for hh in 0..7 {
                    for ww in 0..5 {
                        v.push([n, p[1], hh, ww]);
                    }
                }
            } else {
                v.push([n, p[1], p[2], p[3]]);
            }
        }
        v
    };
    let pidx = |i: &[usize]| {
        if spatial {
            vec![0, i[1], 0, 0]
        } else {
            vec![0, i[1], i[2], i[3]]
        }
    };
    let stats = |p: &[usize]| {
        let m = members(p);
        let mean = m.iter().map(|j| x.get(j)).sum::<f64>() / m.len() as f64;
        let var = m.iter().map(|j| (x.get(j) - mean).powi(2)).sum::<f64>() / m.len() as f64;
        (mean, var, m.len() as f64)
    };
    let (a, b) = (sc::<T>(0.75), sc::<T>(0.5));
    unsafe {
        let st = cudnnBatchNormalizationForwardTraining(
            h.0,
            mode,
            scp(&*a),
            scp(&*b),
            x.desc,
            x.ptr(),
            y.desc,
            y.mptr(),
            pd,
            scale.ptr(),
            bias.ptr(),
            factor,
            rm.mptr(),
            rv.mptr(),
            eps,
            sm.mptr(),
            siv.mptr(),
        );
        assert_eq!(st, Status::SUCCESS);
    }
    let want = expect(&y, &y0, 0.75, 0.5, |i| {
        let p = pidx(i);
        let (mean, var, _) = stats(&p);
        (x.get(i) - mean) / (var + eps).sqrt() * scale.get(&p) + bias.get(&p)
    });
    assert_close::<T>("bn train y", &y.values(), &want);
    for i in 0..rm.count() {
        let p = rm.unflat(i);
        let (mean, var, m) = stats(&p);
        let tol = T::TOL * 100.0;
        assert!((rm.get(&p) - ((1.0 - factor) * rm0[i] + factor * mean)).abs() < tol);
        assert!(
            (rv.get(&p) - ((1.0 - factor) * rv0[i] + factor * var * m / (m - 1.0))).abs() < tol
        );
        assert!((sm.get(&p) - mean).abs() < tol);
        assert!((siv.get(&p) - 1.0 / (var + eps).sqrt()).abs() < tol * 10.0);
    }
    // Inference with the running statistics.
    let mut yi = Tensor::<T>::new(&DIMS, layout, 69);
    yi.poison();
    let (one, zero) = (sc::<T>(1.0), sc::<T>(0.0));
    unsafe {
        let st = cudnnBatchNormalizationForwardInference(
            h.0,
            mode,
            scp(&*one),
            scp(&*zero),
            x.desc,
            x.ptr(),
            yi.desc,
            yi.mptr(),
            pd,
            scale.ptr(),
            bias.ptr(),
            rm.ptr(),
            rv.ptr(),
            eps,
        );
        assert_eq!(st, Status::SUCCESS);
    }
    let want: Vec<f64> = (0..yi.count())
        .map(|i| {
            let idx = yi.unflat(i);
            let p = pidx(&idx);
            (x.get(&idx) - rm.get(&p)) / (rv.get(&p) + eps).sqrt() * scale.get(&p) + bias.get(&p)
        })
        .collect();
    assert_close::<T>("bn inference", &yi.values(), &want);
    // Backward, with and without the saved statistics.
    for saved in [true, false] {
        let dy = Tensor::<T>::new(&DIMS, layout, 70);
        let mut dx = Tensor::<T>::new(&DIMS, layout, 71);
        let (mut ds, mut db) = (mk(72), mk(73));
        let (dx0, ds0, db0) = (dx.values(), ds.values(), db.values());
        let (ad, bd, ap, bp) = (sc::<T>(1.5), sc::<T>(0.5), sc::<T>(2.0), sc::<T>(-1.0));
        let (smp, sivp) = if saved {
            (sm.ptr(), siv.ptr())
        } else {
            (std::ptr::null(), std::ptr::null())
        };
        unsafe {
            let st = cudnnBatchNormalizationBackward(
                h.0,
                mode,
                scp(&*ad),
                scp(&*bd),
                scp(&*ap),
                scp(&*bp),
                x.desc,
                x.ptr(),
                dy.desc,
                dy.ptr(),
                dx.desc,
                dx.mptr(),
                pd,
                scale.ptr(),
                ds.mptr(),
                db.mptr(),
                eps,
                smp,
                sivp,
            );
            assert_eq!(st, Status::SUCCESS);
        }
        let grads = |p: &[usize]| {
            let (mean, var, _) = stats(p);
            let inv = 1.0 / (var + eps).sqrt();
            let m = members(p);
            let dbias: f64 = m.iter().map(|j| dy.get(j)).sum();
            let dscale: f64 = m.iter().map(|j| dy.get(j) * (x.get(j) - mean) * inv).sum();
            (mean, inv, dbias, dscale, m.len() as f64)
        };
        let want = expect(&dx, &dx0, 1.5, 0.5, |i| {
            let p = pidx(i);
            let (mean, inv, dbias, dscale, m) = grads(&p);
            let xhat = (x.get(i) - mean) * inv;
            scale.get(&p) * inv / m * (m * dy.get(i) - dbias - xhat * dscale)
        });
        assert_close::<T>("bn dx", &dx.values(), &want);
        for i in 0..ds.count() {
            let p = ds.unflat(i);
            let (_, _, dbias, dscale, _) = grads(&p);
            let tol = T::TOL * 1000.0;
            assert!((ds.get(&p) - (2.0 * dscale - ds0[i])).abs() < tol, "dscale");
            assert!((db.get(&p) - (2.0 * dbias - db0[i])).abs() < tol, "dbias");
        }
    }
    unsafe {
        // Parameters shaped for the other mode.
        let other = Tensor::<T>::new(
            if spatial {
                &[1, 3, 7, 5]
            } else {
                &[1, 3, 1, 1]
            },
            Layout::Nchw,
            1,
        );
        let st = cudnnBatchNormalizationForwardInference(
            h.0,
            mode,
            scp(&*one),
            scp(&*zero),
            x.desc,
            x.ptr(),
            yi.desc,
            yi.mptr(),
            other.desc,
            scale.ptr(),
            bias.ptr(),
            rm.ptr(),
            rv.ptr(),
            eps,
        );
        assert_eq!(st, Status::BAD_PARAM);
        // Negative epsilon, unknown mode.
        let st = cudnnBatchNormalizationForwardInference(
            h.0,
            mode,
            scp(&*one),
            scp(&*zero),
            x.desc,
            x.ptr(),
            yi.desc,
            yi.mptr(),
            pd,
            scale.ptr(),
            bias.ptr(),
            rm.ptr(),
            rv.ptr(),
            -1.0,
        );
        assert_eq!(st, Status::BAD_PARAM);
        let st = cudnnBatchNormalizationForwardInference(
            h.0,
            3,
            scp(&*one),
            scp(&*zero),
            x.desc,
            x.ptr(),
            yi.desc,
            yi.mptr(),
            pd,
            scale.ptr(),
            bias.ptr(),
            rm.ptr(),
            rv.ptr(),
            eps,
        );
        assert_eq!(st, Status::BAD_PARAM);
        cudnnDestroyTensorDescriptor(pd);
    }
}

#[test]
fn batch_normalisation() {
    for layout in LAYOUTS {
        for mode in [0, 1, 2] {
            batchnorm::<f32>(layout, mode);
            batchnorm::<f64>(layout, mode);
        }
    }
}
