//! The library surface: handle and stream, versions, status strings,
//! descriptor set/get round trips and their argument checks, and the
//! built `libcudnn.so` exporting exactly what `cudnn.h` declares.

mod common;

use std::ffi::{c_void, CStr};

use common::*;
use cudnn::desc::*;
use cudnn::handle::*;
use cudnn::status::cudnnGetErrorString;
use cudnn::Status;

#[test]
fn handle_stream_and_versions() {
    unsafe {
        let mut h = std::ptr::null_mut();
        assert_eq!(cudnnCreate(&mut h), Status::SUCCESS);
        let mut s: *mut c_void = std::ptr::dangling_mut::<c_void>();
        assert_eq!(cudnnGetStream(h, &mut s), Status::SUCCESS);
        assert!(s.is_null(), "a new handle uses the default stream");
        let fake = 0x1234usize as *mut c_void;
        assert_eq!(cudnnSetStream(h, fake), Status::SUCCESS);
        assert_eq!(cudnnGetStream(h, &mut s), Status::SUCCESS);
        assert_eq!(s, fake);
        assert_eq!(cudnnDestroy(h), Status::SUCCESS);
        assert_eq!(cudnnCreate(std::ptr::null_mut()), Status::BAD_PARAM);
        assert_eq!(
            cudnnSetStream(std::ptr::null_mut(), fake),
            Status::BAD_PARAM
        );
        assert_eq!(cudnnDestroy(std::ptr::null_mut()), Status::BAD_PARAM);
    }
    assert_eq!(cudnnGetVersion(), 90600);
    let mut v = [0; 3];
    unsafe {
        for (k, out) in v.iter_mut().enumerate() {
            assert_eq!(cudnnGetProperty(k as i32, out), Status::SUCCESS);
        }
        assert_eq!(cudnnGetProperty(3, &mut v[0]), Status::BAD_PARAM);
    }
    assert_eq!(v, [9, 6, 0]);
    assert_eq!(cudnnGetCudartVersion(), 13000);
    assert_eq!(cudnnGetMaxDeviceVersion(), 800);
}

#[test]
fn error_strings() {
    let s = |c: i32| {
        unsafe { CStr::from_ptr(cudnnGetErrorString(c)) }
            .to_str()
            .map(str::to_owned)
    };
    assert_eq!(s(0).as_deref(), Ok("CUDNN_STATUS_SUCCESS"));
    assert_eq!(s(2000).as_deref(), Ok("CUDNN_STATUS_BAD_PARAM"));
    assert_eq!(s(3000).as_deref(), Ok("CUDNN_STATUS_NOT_SUPPORTED"));
    assert_eq!(
        s(4003).as_deref(),
        Ok("CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED")
    );
    assert_eq!(
        s(5003).as_deref(),
        Ok("CUDNN_STATUS_EXECUTION_FAILED_CUDART")
    );
    assert_eq!(s(77).as_deref(), Ok("CUDNN_UNKNOWN_STATUS"));
}

#[test]
fn tensor_descriptors() {
    unsafe {
        let mut d = std::ptr::null_mut();
        assert_eq!(cudnnCreateTensorDescriptor(&mut d), Status::SUCCESS);
        // An unset descriptor cannot be read.
        let mut size = 0usize;
        assert_eq!(cudnnGetTensorSizeInBytes(d, &mut size), Status::BAD_PARAM);
        // NHWC 4-D: strides are channel-innermost.
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 1, 0, 2, 3, 7, 5),
            Status::SUCCESS
        );
        let mut v = [0i32; 9];
        let [dt, n, c, hh, ww, ns, cs, hs, ws] = &mut v;
        assert_eq!(
            cudnnGetTensor4dDescriptor(d, dt, n, c, hh, ww, ns, cs, hs, ws),
            Status::SUCCESS
        );
        assert_eq!(v, [0, 2, 3, 7, 5, 105, 1, 15, 3]);
        assert_eq!(cudnnGetTensorSizeInBytes(d, &mut size), Status::SUCCESS);
        assert_eq!(size, 2 * 3 * 7 * 5 * 4);
        // Explicit strides with gaps; double.
        assert_eq!(
            cudnnSetTensor4dDescriptorEx(d, 1, 2, 3, 4, 5, 100, 30, 6, 1),
            Status::SUCCESS
        );
        assert_eq!(cudnnGetTensorSizeInBytes(d, &mut size), Status::SUCCESS);
        assert_eq!(size, (100 + 2 * 30 + 3 * 6 + 4 + 1) * 8);
        // N-d round trip.
        let dims = [2, 3, 4, 5, 6];
        let strides = [360, 120, 30, 6, 1];
        assert_eq!(
            cudnnSetTensorNdDescriptor(d, 0, 5, dims.as_ptr(), strides.as_ptr()),
            Status::SUCCESS
        );
        let (mut dt, mut nb) = (0, 0);
        let (mut gd, mut gs) = ([0i32; 8], [0i32; 8]);
        assert_eq!(
            cudnnGetTensorNdDescriptor(d, 8, &mut dt, &mut nb, gd.as_mut_ptr(), gs.as_mut_ptr()),
            Status::SUCCESS
        );
        assert_eq!((dt, nb), (0, 5));
        assert_eq!(&gd[..5], &dims);
        assert_eq!(&gs[..5], &strides);
        // Fewer requested than held.
        let (mut gd2, mut gs2) = ([0i32; 2], [0i32; 2]);
        assert_eq!(
            cudnnGetTensorNdDescriptor(d, 2, &mut dt, &mut nb, gd2.as_mut_ptr(), gs2.as_mut_ptr()),
            Status::SUCCESS
        );
        assert_eq!((nb, gd2), (5, [2, 3]));
        // 5-D is not 4-D.
        {
            let mut v = [0i32; 9];
            let [dt, n, c, hh, ww, ns, cs, hs, ws] = &mut v;
            assert_eq!(
                cudnnGetTensor4dDescriptor(d, dt, n, c, hh, ww, ns, cs, hs, ws),
                Status::BAD_PARAM
            );
        }
        // NHWC N-d (NDHWC).
        assert_eq!(
            cudnnSetTensorNdDescriptorEx(d, 1, 1, 5, dims.as_ptr()),
            Status::SUCCESS
        );
        assert_eq!(
            cudnnGetTensorNdDescriptor(d, 8, &mut dt, &mut nb, gd.as_mut_ptr(), gs.as_mut_ptr()),
            Status::SUCCESS
        );
        assert_eq!(&gs[..5], &[360, 1, 90, 18, 3]);
        // Bad arguments.
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 0, 0, 0, 3, 7, 5),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 0, 0, -2, 3, 7, 5),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 5, 0, 2, 3, 7, 5),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 2, 0, 2, 3, 7, 5),
            Status::NOT_SUPPORTED
        );
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 0, 99, 2, 3, 7, 5),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 0, 3, 2, 3, 7, 5),
            Status::NOT_SUPPORTED
        );
        assert_eq!(
            cudnnSetTensorNdDescriptor(d, 0, 9, dims.as_ptr(), strides.as_ptr()),
            Status::NOT_SUPPORTED
        );
        assert_eq!(
            cudnnSetTensorNdDescriptor(d, 0, 0, dims.as_ptr(), strides.as_ptr()),
            Status::BAD_PARAM
        );
        assert_eq!(
            cudnnSetTensorNdDescriptor(d, 0, 5, dims.as_ptr(), std::ptr::null()),
            Status::BAD_PARAM
        );
        let huge = [65536, 65536, 1, 1];
        assert_eq!(
            cudnnSetTensorNdDescriptorEx(d, 0, 0, 4, huge.as_ptr()),
            Status::NOT_SUPPORTED
        );
        assert_eq!(cudnnDestroyTensorDescriptor(d), Status::SUCCESS);
        assert_eq!(
            cudnnDestroyTensorDescriptor(std::ptr::null_mut()),
            Status::SUCCESS
        );
    }
}

#[test]
fn filter_and_other_descriptors() {
    unsafe {
        let mut f = std::ptr::null_mut();
        cudnnCreateFilterDescriptor(&mut f);
        assert_eq!(
            cudnnSetFilter4dDescriptor(f, 1, 1, 4, 3, 5, 2),
            Status::SUCCESS
        );
        let mut v = [0i32; 6];
        let [dt, fmt, k, c, hh, ww] = &mut v;
        assert_eq!(
            cudnnGetFilter4dDescriptor(f, dt, fmt, k, c, hh, ww),
            Status::SUCCESS
        );
        assert_eq!(v, [1, 1, 4, 3, 5, 2]);
        let mut size = 0;
        assert_eq!(cudnnGetFilterSizeInBytes(f, &mut size), Status::SUCCESS);
        assert_eq!(size, 4 * 3 * 5 * 2 * 8);
        let dims = [4, 3, 2, 2, 2];
        assert_eq!(
            cudnnSetFilterNdDescriptor(f, 0, 0, 5, dims.as_ptr()),
            Status::SUCCESS
        );
        let (mut dt, mut fmt, mut nb, mut got) = (0, 0, 0, [0i32; 5]);
        assert_eq!(
            cudnnGetFilterNdDescriptor(f, 5, &mut dt, &mut fmt, &mut nb, got.as_mut_ptr()),
            Status::SUCCESS
        );
        assert_eq!((dt, fmt, nb, got), (0, 0, 5, dims));
        assert_eq!(
            cudnnSetFilter4dDescriptor(f, 0, 0, 4, 0, 5, 2),
            Status::BAD_PARAM
        );
        cudnnDestroyFilterDescriptor(f);

        let mut p = std::ptr::null_mut();
        cudnnCreatePoolingDescriptor(&mut p);
        assert_eq!(
            cudnnSetPooling2dDescriptor(p, 2, 1, 3, 2, 1, 0, 2, 1),
            Status::SUCCESS
        );
        let mut v = [0i32; 8];
        let [m, nan, wh, ww, ph, pw, sh, sw] = &mut v;
        assert_eq!(
            cudnnGetPooling2dDescriptor(p, m, nan, wh, ww, ph, pw, sh, sw),
            Status::SUCCESS
        );
        assert_eq!(v, [2, 1, 3, 2, 1, 0, 2, 1]);
        let (w3, p3, s3) = ([2, 3, 1], [0, 1, 0], [1, 2, 1]);
        assert_eq!(
            cudnnSetPoolingNdDescriptor(p, 1, 0, 3, w3.as_ptr(), p3.as_ptr(), s3.as_ptr()),
            Status::SUCCESS
        );
        let (mut m, mut nan, mut nb) = (0, 0, 0);
        let (mut gw, mut gp, mut gs) = ([0i32; 3], [0i32; 3], [0i32; 3]);
        assert_eq!(
            cudnnGetPoolingNdDescriptor(
                p,
                3,
                &mut m,
                &mut nan,
                &mut nb,
                gw.as_mut_ptr(),
                gp.as_mut_ptr(),
                gs.as_mut_ptr()
            ),
            Status::SUCCESS
        );
        assert_eq!((m, nan, nb, gw, gp, gs), (1, 0, 3, w3, p3, s3));
        // A 3-D pooling is not 2-D.
        let mut v = [0i32; 8];
        let [m, nan, wh, ww, ph, pw, sh, sw] = &mut v;
        assert_eq!(
            cudnnGetPooling2dDescriptor(p, m, nan, wh, ww, ph, pw, sh, sw),
            Status::BAD_PARAM
        );
        cudnnDestroyPoolingDescriptor(p);

        let mut cd = std::ptr::null_mut();
        cudnnCreateConvolutionDescriptor(&mut cd);
        let (pa, sa, da) = ([1, 2, 3], [1, 1, 2], [2, 1, 1]);
        assert_eq!(
            cudnnSetConvolutionNdDescriptor(cd, 3, pa.as_ptr(), sa.as_ptr(), da.as_ptr(), 0, 1),
            Status::SUCCESS
        );
        let (mut len, mut mode, mut ct) = (0, 0, 0);
        let (mut gp, mut gs, mut gd) = ([0i32; 3], [0i32; 3], [0i32; 3]);
        assert_eq!(
            cudnnGetConvolutionNdDescriptor(
                cd,
                3,
                &mut len,
                gp.as_mut_ptr(),
                gs.as_mut_ptr(),
                gd.as_mut_ptr(),
                &mut mode,
                &mut ct
            ),
            Status::SUCCESS
        );
        assert_eq!((len, gp, gs, gd, mode, ct), (3, pa, sa, da, 0, 1));
        let mut math = -1;
        cudnnGetConvolutionMathType(cd, &mut math);
        assert_eq!(math, 0);
        assert_eq!(cudnnSetConvolutionMathType(cd, 1), Status::SUCCESS);
        cudnnGetConvolutionMathType(cd, &mut math);
        assert_eq!(math, 1);
        assert_eq!(
            cudnnSetConvolutionNdDescriptor(cd, 4, pa.as_ptr(), sa.as_ptr(), da.as_ptr(), 0, 1),
            Status::NOT_SUPPORTED
        );
        cudnnDestroyConvolutionDescriptor(cd);

        let mut l = std::ptr::null_mut();
        cudnnCreateLRNDescriptor(&mut l);
        let (mut n, mut a, mut b, mut k) = (0u32, 0.0, 0.0, 0.0);
        assert_eq!(
            cudnnGetLRNDescriptor(l, &mut n, &mut a, &mut b, &mut k),
            Status::SUCCESS
        );
        assert_eq!((n, a, b, k), (5, 1e-4, 0.75, 2.0));
        cudnnDestroyLRNDescriptor(l);

        let mut a = std::ptr::null_mut();
        cudnnCreateActivationDescriptor(&mut a);
        assert_eq!(cudnnSetActivationDescriptor(a, 3, 1, 6.0), Status::SUCCESS);
        let (mut m, mut nan, mut coef, mut sb) = (0, 0, 0.0, 0.0);
        cudnnGetActivationDescriptor(a, &mut m, &mut nan, &mut coef);
        cudnnGetActivationDescriptorSwishBeta(a, &mut sb);
        assert_eq!((m, nan, coef, sb), (3, 1, 6.0, 1.0));
        cudnnDestroyActivationDescriptor(a);

        let mut o = std::ptr::null_mut();
        cudnnCreateOpTensorDescriptor(&mut o);
        assert_eq!(cudnnSetOpTensorDescriptor(o, 3, 1, 1), Status::SUCCESS);
        let (mut op, mut ct, mut nn) = (0, 0, 0);
        cudnnGetOpTensorDescriptor(o, &mut op, &mut ct, &mut nn);
        assert_eq!((op, ct, nn), (3, 1, 1));
        assert_eq!(cudnnSetOpTensorDescriptor(o, 0, 1, 2), Status::BAD_PARAM);
        cudnnDestroyOpTensorDescriptor(o);
    }
    // Half tensors are described but not computed.
    let h = H::new();
    unsafe {
        let mut d = std::ptr::null_mut();
        cudnnCreateTensorDescriptor(&mut d);
        assert_eq!(
            cudnnSetTensor4dDescriptor(d, 0, 2, 1, 1, 2, 2),
            Status::SUCCESS
        );
        let mut buf = [0u16; 4];
        let v = 1.0f32;
        assert_eq!(
            cudnn::tensor_ops::cudnnSetTensor(
                h.0,
                d,
                buf.as_mut_ptr().cast(),
                (&v as *const f32).cast()
            ),
            Status::NOT_SUPPORTED
        );
        cudnnDestroyTensorDescriptor(d);
    }
}

/// The built cdylib: soname `libcudnn.so.9` aside (checked by the
/// end-to-end program), it exports every function `cudnn.h` declares.
#[test]
fn shared_library_exports_the_header() {
    let header = include_str!("../../../frontend/include/cudnn.h");
    let mut names: Vec<&str> = Vec::new();
    for (i, _) in header.match_indices("cudnn") {
        let rest = &header[i..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if rest[end..].starts_with('(') && !names.contains(&&rest[..end]) {
            names.push(&rest[..end]);
        }
    }
    assert!(names.len() > 90, "{} functions in cudnn.h", names.len());
    let exe = std::env::current_exe().expect("test path");
    let lib = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|d| d.join("libcudnn.so"))
        .expect("target dir");
    assert!(lib.exists(), "{} not built", lib.display());
    let path = std::ffi::CString::new(lib.to_string_lossy().as_bytes()).expect("path");
    unsafe {
        let h = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        assert!(!h.is_null(), "dlopen {}", lib.display());
        for n in &names {
            let c = std::ffi::CString::new(*n).expect("name");
            assert!(
                !libc::dlsym(h, c.as_ptr()).is_null(),
                "{n} is declared but not exported"
            );
        }
    }
}
