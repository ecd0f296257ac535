//! Handles, settings, transfers, mixed-precision GEMM, stream order, and
//! the library's exported symbols.

mod common;

use std::ffi::{c_int, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};

use common::*;
use cublas::extensions::*;
use cublas::handle::*;
use cublas::level1::*;
use cublas::level3::*;
use cublas::transfer::*;
use cublas::types::*;
use half::f16;

fn malloc(bytes: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { runtime::memory::cudaMalloc(&mut p, bytes) }, 0);
    p
}

#[test]
fn handle_settings_round_trip() {
    let h = handle(POINTER_MODE_HOST);
    let mut v = 0;
    assert_eq!(unsafe { cublasGetVersion_v2(h, &mut v) }, 0);
    assert_eq!(v, 130100);
    let (mut major, mut minor) = (0, 0);
    assert_eq!(unsafe { cublasGetProperty(0, &mut major) }, 0);
    assert_eq!(unsafe { cublasGetProperty(1, &mut minor) }, 0);
    assert_eq!((major, minor), (13, 1));
    assert_eq!(
        unsafe { cublasGetProperty(7, &mut major) },
        CUBLAS_STATUS_INVALID_VALUE
    );

    let mut mode = -1;
    assert_eq!(unsafe { cublasGetPointerMode_v2(h, &mut mode) }, 0);
    assert_eq!(mode, POINTER_MODE_HOST);
    assert_eq!(cublasSetPointerMode_v2(h, 1), 0);
    assert_eq!(unsafe { cublasGetPointerMode_v2(h, &mut mode) }, 0);
    assert_eq!(mode, POINTER_MODE_DEVICE);
    assert_eq!(cublasSetPointerMode_v2(h, 2), CUBLAS_STATUS_INVALID_VALUE);

    assert_eq!(cublasSetMathMode(h, 3 | 16), 0);
    assert_eq!(unsafe { cublasGetMathMode(h, &mut mode) }, 0);
    assert_eq!(mode, 19);
    assert_eq!(cublasSetMathMode(h, 5), CUBLAS_STATUS_INVALID_VALUE);
    assert_eq!(cublasSetAtomicsMode(h, 1), 0);
    assert_eq!(unsafe { cublasGetAtomicsMode(h, &mut mode) }, 0);
    assert_eq!(mode, 1);
    assert_eq!(cublasSetAtomicsMode(h, 2), CUBLAS_STATUS_INVALID_VALUE);

    let mut s: cudaStream_t = std::ptr::null_mut();
    assert_eq!(unsafe { runtime::stream::cudaStreamCreate(&mut s) }, 0);
    assert_eq!(cublasSetStream_v2(h, s), 0);
    let mut got: cudaStream_t = std::ptr::null_mut();
    assert_eq!(unsafe { cublasGetStream_v2(h, &mut got) }, 0);
    assert_eq!(got, s);
    assert_eq!(
        unsafe { cublasGetStream_v2(h, std::ptr::null_mut()) },
        CUBLAS_STATUS_INVALID_VALUE
    );

    let ws = malloc(4096);
    assert_eq!(cublasSetWorkspace_v2(h, ws, 4096), 0);
    assert_eq!(
        cublasSetWorkspace_v2(h, ws.wrapping_byte_add(8), 64),
        CUBLAS_STATUS_INVALID_VALUE
    );

    assert_eq!(cublasDestroy_v2(h), 0);
    assert_eq!(cublasDestroy_v2(h), CUBLAS_STATUS_NOT_INITIALIZED);
    assert_eq!(cublasSetStream_v2(h, s), CUBLAS_STATUS_NOT_INITIALIZED);
    assert_eq!(
        cublasSetPointerMode_v2(std::ptr::null_mut(), 0),
        CUBLAS_STATUS_NOT_INITIALIZED
    );
    assert_eq!(
        unsafe { cublasCreate_v2(std::ptr::null_mut()) },
        CUBLAS_STATUS_INVALID_VALUE
    );
    runtime::memory::cudaFree(ws);
    runtime::stream::cudaStreamDestroy(s);
}

#[test]
fn status_names_and_strings() {
    let name = |s| {
        unsafe { CStr::from_ptr(cublasGetStatusName(s)) }
            .to_str()
            .unwrap_or("")
    };
    let text = |s| {
        unsafe { CStr::from_ptr(cublasGetStatusString(s)) }
            .to_str()
            .unwrap_or("")
    };
    assert_eq!(name(0), "CUBLAS_STATUS_SUCCESS");
    assert_eq!(name(7), "CUBLAS_STATUS_INVALID_VALUE");
    assert_eq!(name(15), "CUBLAS_STATUS_NOT_SUPPORTED");
    assert_eq!(text(1), "the library was not initialized");
    assert!(!text(12345).is_empty());
}

#[test]
fn set_get_vector_and_matrix() {
    let (rows, cols, lda, ldb) = (5usize, 3usize, 7usize, 6usize);
    let host: Vec<f64> = (0..lda * cols).map(|i| i as f64).collect();
    let dev = malloc(ldb * cols * 8) as *mut f64;
    assert_eq!(
        unsafe {
            cublasSetMatrix(
                rows as c_int,
                cols as c_int,
                8,
                host.as_ptr().cast(),
                lda as c_int,
                dev.cast(),
                ldb as c_int,
            )
        },
        0
    );
    let mut back = vec![-1.0f64; lda * cols];
    assert_eq!(
        unsafe {
            cublasGetMatrix(
                rows as c_int,
                cols as c_int,
                8,
                dev.cast(),
                ldb as c_int,
                back.as_mut_ptr().cast(),
                lda as c_int,
            )
        },
        0
    );
    for j in 0..cols {
        for i in 0..lda {
            let want = if i < rows { host[i + j * lda] } else { -1.0 };
            assert_eq!(back[i + j * lda], want, "({i},{j})");
        }
    }
    // Strided vectors, and the Async forms on a stream.
    let mut s: cudaStream_t = std::ptr::null_mut();
    assert_eq!(unsafe { runtime::stream::cudaStreamCreate(&mut s) }, 0);
    let x: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let dv = malloc(64) as *mut f32;
    assert_eq!(
        unsafe { cublasSetVectorAsync(4, 4, x.as_ptr().cast(), 3, dv.cast(), 2, s) },
        0
    );
    let mut y = [0.0f32; 4];
    assert_eq!(
        unsafe { cublasGetVectorAsync(4, 4, dv.cast(), 2, y.as_mut_ptr().cast(), 1, s) },
        0
    );
    assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
    assert_eq!(y, [0.0, 3.0, 6.0, 9.0]);
    assert_eq!(
        unsafe { cublasSetVector(4, 4, x.as_ptr().cast(), 1, dv.cast(), 1) },
        0
    );
    assert_eq!(
        unsafe { cublasGetVector(4, 4, dv.cast(), 1, y.as_mut_ptr().cast(), 1) },
        0
    );
    assert_eq!(y, [0.0, 1.0, 2.0, 3.0]);
    let mut m = [0.0f32; 4];
    assert_eq!(
        unsafe { cublasSetMatrixAsync(2, 2, 4, x.as_ptr().cast(), 2, dv.cast(), 2, s) },
        0
    );
    assert_eq!(
        unsafe { cublasGetMatrixAsync(2, 2, 4, dv.cast(), 2, m.as_mut_ptr().cast(), 2, s) },
        0
    );
    assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
    assert_eq!(m, [0.0, 1.0, 2.0, 3.0]);
    // Errors: bad sizes and strides, and memory the runtime does not know.
    let bad = CUBLAS_STATUS_INVALID_VALUE;
    assert_eq!(
        unsafe { cublasSetVector(4, 4, x.as_ptr().cast(), 0, dv.cast(), 1) },
        bad
    );
    assert_eq!(
        unsafe { cublasSetVector(4, 0, x.as_ptr().cast(), 1, dv.cast(), 1) },
        bad
    );
    assert_eq!(
        unsafe { cublasSetVector(-1, 4, x.as_ptr().cast(), 1, dv.cast(), 1) },
        bad
    );
    assert_eq!(
        unsafe { cublasSetMatrix(3, 2, 4, x.as_ptr().cast(), 2, dv.cast(), 3) },
        bad,
        "lda < rows"
    );
    assert_eq!(
        unsafe { cublasGetMatrix(3, 2, 4, dv.cast(), 3, m.as_mut_ptr().cast(), 2) },
        bad,
        "ldb < rows"
    );
    let bogus = 0x10usize as *mut c_void;
    assert_eq!(
        unsafe { cublasSetVector(4, 4, x.as_ptr().cast(), 1, bogus, 1) },
        CUBLAS_STATUS_MAPPING_ERROR
    );
    runtime::memory::cudaFree(dv.cast());
    runtime::memory::cudaFree(dev.cast());
    runtime::stream::cudaStreamDestroy(s);
}

/// Reference C = A * B (no transposes) in f64.
fn mm(m: usize, n: usize, k: usize, a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for j in 0..n {
        for i in 0..m {
            c[i + j * m] = (0..k).map(|p| a[i + p * m] * b[p + j * k]).sum();
        }
    }
    c
}

#[test]
fn gemm_ex_mixed_precision() {
    let h = handle(POINTER_MODE_HOST);
    let (m, n, k) = (7usize, 5usize, 3usize);
    // Values exact in half precision, products exact in f32.
    let a: Vec<f64> = (0..m * k)
        .map(|i| ((i * 5) % 9) as f64 * 0.25 - 1.0)
        .collect();
    let b: Vec<f64> = (0..k * n)
        .map(|i| ((i * 3) % 7) as f64 * 0.5 - 1.5)
        .collect();
    let want = mm(m, n, k, &a, &b);
    let ah: Vec<u16> = a.iter().map(|v| f16::from_f64(*v).to_bits()).collect();
    let bh: Vec<u16> = b.iter().map(|v| f16::from_f64(*v).to_bits()).collect();
    let (one, zero) = (1.0f32, 0.0f32);
    let (r16, r32, r64) = (dtype::R_16F, dtype::R_32F, dtype::R_64F);
    // FP16 in, FP32 out, FP32 compute.
    let mut c32 = vec![0.0f32; m * n];
    let rc = unsafe {
        cublasGemmEx(
            h,
            0,
            0,
            m as c_int,
            n as c_int,
            k as c_int,
            (&one as *const f32).cast(),
            ah.as_ptr().cast(),
            r16,
            m as c_int,
            bh.as_ptr().cast(),
            r16,
            k as c_int,
            (&zero as *const f32).cast(),
            c32.as_mut_ptr().cast(),
            r32,
            m as c_int,
            compute::C32F,
            -1,
        )
    };
    assert_eq!(rc, 0);
    sync(h);
    assert_eq!(c32.iter().map(|v| *v as f64).collect::<Vec<_>>(), want);
    // FP16 in and out, FP32 compute.
    let mut c16 = vec![0u16; m * n];
    let rc = unsafe {
        cublasGemmEx(
            h,
            0,
            0,
            m as c_int,
            n as c_int,
            k as c_int,
            (&one as *const f32).cast(),
            ah.as_ptr().cast(),
            r16,
            m as c_int,
            bh.as_ptr().cast(),
            r16,
            k as c_int,
            (&zero as *const f32).cast(),
            c16.as_mut_ptr().cast(),
            r16,
            m as c_int,
            compute::C32F_FAST_16F,
            99,
        )
    };
    assert_eq!(rc, 0);
    sync(h);
    assert_eq!(
        c16.iter()
            .map(|v| f16::from_bits(*v).to_f64())
            .collect::<Vec<_>>(),
        want
    );
    // Hgemm: half scalars, C = 2AB - C.
    let (two, minus) = (f16::from_f32(2.0).to_bits(), f16::from_f32(-1.0).to_bits());
    let rc = unsafe {
        cublasHgemm(
            h,
            0,
            0,
            m as c_int,
            n as c_int,
            k as c_int,
            &two,
            ah.as_ptr(),
            m as c_int,
            bh.as_ptr(),
            k as c_int,
            &minus,
            c16.as_mut_ptr(),
            m as c_int,
        )
    };
    assert_eq!(rc, 0);
    sync(h);
    assert_eq!(
        c16.iter()
            .map(|v| f16::from_bits(*v).to_f64())
            .collect::<Vec<_>>(),
        want
    );
    // FP64 throughout.
    let (d1, d0) = (1.0f64, 0.0f64);
    let mut c64 = vec![0.0f64; m * n];
    let rc = unsafe {
        cublasGemmEx(
            h,
            0,
            0,
            m as c_int,
            n as c_int,
            k as c_int,
            (&d1 as *const f64).cast(),
            a.as_ptr().cast(),
            r64,
            m as c_int,
            b.as_ptr().cast(),
            r64,
            k as c_int,
            (&d0 as *const f64).cast(),
            c64.as_mut_ptr().cast(),
            r64,
            m as c_int,
            compute::C64F,
            -1,
        )
    };
    assert_eq!(rc, 0);
    sync(h);
    assert_eq!(c64, want);
    // SgemmEx and the strided batched form.
    let a32: Vec<f32> = a.iter().map(|v| *v as f32).collect();
    let mut cs = vec![0.0f32; 2 * m * n];
    let rc = unsafe {
        cublasGemmStridedBatchedEx(
            h,
            0,
            0,
            m as c_int,
            n as c_int,
            k as c_int,
            (&one as *const f32).cast(),
            a32.as_ptr().cast(),
            r32,
            m as c_int,
            0,
            bh.as_ptr().cast(),
            r16,
            k as c_int,
            0,
            (&zero as *const f32).cast(),
            cs.as_mut_ptr().cast(),
            r32,
            m as c_int,
            (m * n) as i64,
            2,
            compute::C32F,
            -1,
        )
    };
    assert_eq!(rc, CUBLAS_STATUS_NOT_SUPPORTED, "mixed A/B storage types");
    let b32: Vec<f32> = b.iter().map(|v| *v as f32).collect();
    let rc = unsafe {
        cublasGemmStridedBatchedEx(
            h,
            0,
            0,
            m as c_int,
            n as c_int,
            k as c_int,
            (&one as *const f32).cast(),
            a32.as_ptr().cast(),
            r32,
            m as c_int,
            0,
            b32.as_ptr().cast(),
            r32,
            k as c_int,
            0,
            (&zero as *const f32).cast(),
            cs.as_mut_ptr().cast(),
            r32,
            m as c_int,
            (m * n) as i64,
            2,
            compute::C32F,
            -1,
        )
    };
    assert_eq!(rc, 0);
    let mut cx = vec![0.0f32; m * n];
    let rc = unsafe {
        cublasSgemmEx(
            h,
            0,
            0,
            m as c_int,
            n as c_int,
            k as c_int,
            &one,
            ah.as_ptr().cast(),
            r16,
            m as c_int,
            bh.as_ptr().cast(),
            r16,
            k as c_int,
            &zero,
            cx.as_mut_ptr().cast(),
            r32,
            m as c_int,
        )
    };
    assert_eq!(rc, 0);
    sync(h);
    for c in [&cs[..m * n], &cs[m * n..], &cx[..]] {
        assert_eq!(c.iter().map(|v| *v as f64).collect::<Vec<_>>(), want);
    }
    // Unsupported and invalid combinations.
    let call = |at, bt, ct, compute, algo| unsafe {
        cublasGemmEx(
            h,
            0,
            0,
            2,
            2,
            2,
            (&one as *const f32).cast(),
            a32.as_ptr().cast(),
            at,
            2,
            a32.as_ptr().cast(),
            bt,
            2,
            (&zero as *const f32).cast(),
            cx.as_ptr().cast_mut().cast(),
            ct,
            2,
            compute,
            algo,
        )
    };
    assert_eq!(
        call(r32, r32, r32, compute::C64F, -1),
        CUBLAS_STATUS_NOT_SUPPORTED
    );
    assert_eq!(
        call(r32, r32, r16, compute::C16F, -1),
        CUBLAS_STATUS_NOT_SUPPORTED
    );
    assert_eq!(
        call(r32, r32, r32, compute::C32I, -1),
        CUBLAS_STATUS_NOT_SUPPORTED
    );
    assert_eq!(call(r32, r32, r32, 12345, -1), CUBLAS_STATUS_INVALID_VALUE);
    assert_eq!(
        call(r32, r32, r32, compute::C32F, 50),
        CUBLAS_STATUS_INVALID_VALUE
    );
    sync(h);
    cublasDestroy_v2(h);
}

static GATE_OPEN: AtomicBool = AtomicBool::new(false);

/// A stream task that holds the stream for a while, then writes `A` and the
/// device-mode scalar.
unsafe extern "C" fn slow_writer(data: *mut c_void) {
    std::thread::sleep(std::time::Duration::from_millis(50));
    let p = data as *mut f32;
    // SAFETY: the test's buffer: A (4 floats) then alpha.
    unsafe {
        for i in 0..4 {
            *p.add(i) = 2.0;
        }
        *p.add(4) = 3.0;
    }
    GATE_OPEN.store(true, Ordering::SeqCst);
}

/// BLAS calls run after the work queued before them on the handle's
/// stream (and on the legacy stream, for a blocking stream), read
/// device-mode scalars when they run, and use host-mode scalars as they
/// were at call time. (On an idle stream they run at once; the other tests
/// cover that path.)
#[test]
fn stream_order_and_scalar_capture() {
    let h = handle(POINTER_MODE_DEVICE);
    let mut s: cudaStream_t = std::ptr::null_mut();
    assert_eq!(unsafe { runtime::stream::cudaStreamCreate(&mut s) }, 0);
    assert_eq!(cublasSetStream_v2(h, s), 0);
    let buf = malloc(64) as *mut f32; // A[0..4], alpha at [4]
    let b = [1.0f32; 4];
    let mut c = [0.0f32; 4];
    let zero = malloc(4) as *mut f32;
    unsafe {
        std::ptr::write_bytes(buf, 0, 5);
        *zero = 0.0;
    }
    assert_eq!(
        unsafe { runtime::stream::cudaLaunchHostFunc(s, Some(slow_writer), buf.cast()) },
        0
    );
    // C = alpha * A * B with alpha and A written by the earlier task.
    let rc = unsafe {
        cublasSgemm_v2(
            h,
            0,
            0,
            2,
            2,
            2,
            buf.add(4),
            buf,
            2,
            b.as_ptr(),
            2,
            zero,
            c.as_mut_ptr(),
            2,
        )
    };
    assert_eq!(rc, 0);
    assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
    assert!(GATE_OPEN.load(Ordering::SeqCst));
    assert_eq!(c, [12.0; 4]);
    // Host mode: the scalar's value at call time is used, even if the
    // variable changes before the work runs.
    assert_eq!(cublasSetPointerMode_v2(h, POINTER_MODE_HOST), 0);
    let mut alpha = 0.5f32;
    let mut y = [1.0f32; 4];
    let x = [2.0f32; 4];
    assert_eq!(
        unsafe { runtime::stream::cudaLaunchHostFunc(s, Some(slow_writer), buf.cast()) },
        0
    );
    let rc = unsafe { cublasSaxpy_v2(h, 4, &alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    assert_eq!(rc, 0);
    alpha = 100.0;
    assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
    assert_eq!(y, [2.0; 4]);
    assert_eq!(alpha, 100.0);
    // A host-mode result is there when the call returns, after earlier work.
    let mut r = 0.0f32;
    let a_dev = buf;
    unsafe { std::ptr::write_bytes(a_dev, 0, 4) };
    assert_eq!(
        unsafe { runtime::stream::cudaLaunchHostFunc(s, Some(slow_writer), buf.cast()) },
        0
    );
    assert_eq!(unsafe { cublasSasum_v2(h, 4, a_dev, 1, &mut r) }, 0);
    assert_eq!(r, 8.0);
    // Work on the legacy default stream orders a blocking stream too: the
    // GEMM on `s` waits for the slow task on stream 0.
    assert_eq!(cublasSetPointerMode_v2(h, POINTER_MODE_DEVICE), 0);
    unsafe { std::ptr::write_bytes(buf, 0, 5) };
    c = [0.0; 4];
    let legacy: cudaStream_t = std::ptr::null_mut();
    assert_eq!(
        unsafe { runtime::stream::cudaLaunchHostFunc(legacy, Some(slow_writer), buf.cast()) },
        0
    );
    let rc = unsafe {
        cublasSgemm_v2(
            h,
            0,
            0,
            2,
            2,
            2,
            buf.add(4),
            buf,
            2,
            b.as_ptr(),
            2,
            zero,
            c.as_mut_ptr(),
            2,
        )
    };
    assert_eq!(rc, 0);
    assert_eq!(runtime::stream::cudaStreamSynchronize(s), 0);
    assert_eq!(c, [12.0; 4]);
    cublasDestroy_v2(h);
    runtime::memory::cudaFree(buf.cast());
    runtime::memory::cudaFree(zero.cast());
    runtime::stream::cudaStreamDestroy(s);
}

/// Runs a command, returning its stdout.
fn output(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().expect("run a binutils tool");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The cdylib is `libcublas.so.13` with every symbol versioned
/// `libcublas.so.13` (as NVIDIA's), depends on `libcudart.so.13`, and
/// exports every function `cublas_api.h` declares.
#[test]
fn library_exports_what_the_header_declares() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "cucc-cublas"])
        .current_dir(&root)
        .status()
        .expect("cargo build");
    assert!(status.success());
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(root.join("target"), Into::into);
    let lib = target.join("debug/libcublas.so");
    let dynamic = output(std::process::Command::new("readelf").arg("-d").arg(&lib));
    assert!(
        dynamic.contains("Library soname: [libcublas.so.13]"),
        "{dynamic}"
    );
    assert!(
        dynamic.contains("Shared library: [libcudart.so.13]"),
        "{dynamic}"
    );
    let syms = output(
        std::process::Command::new("nm")
            .args(["-D", "--defined-only"])
            .arg(&lib),
    );
    let header =
        std::fs::read_to_string(root.join("frontend/include/cublas_api.h")).expect("header");
    let mut n = 0;
    for decl in header.split("CUBLASWINAPI ").skip(1) {
        let name = decl.split('(').next().unwrap_or("").trim();
        assert!(
            syms.contains(&format!(" T {name}@@libcublas.so.13\n")),
            "{name} is declared but not exported as {name}@@libcublas.so.13"
        );
        n += 1;
    }
    assert!(n > 120, "only {n} declarations found");
    let v2 = std::fs::read_to_string(root.join("frontend/include/cublas_v2.h")).expect("header");
    for line in v2.lines().filter_map(|l| l.strip_prefix("#define cublas")) {
        let target = line.split_whitespace().nth(1).unwrap_or("");
        assert!(
            header.contains(&format!(" {target}(")),
            "cublas_v2.h maps to undeclared {target}"
        );
    }
}
