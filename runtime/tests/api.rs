//! The runtime API called as C code calls it: registration, launches, memory,
//! symbols, streams, events and device queries. These tests share one process
//! and run in parallel, so none of them resets the device or traps (see
//! `sticky.rs` for those).

#[macro_use]
mod common;

use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use common::*;
use cucc_runtime::device::*;
use cucc_runtime::errors::{cudaGetErrorString, cudaGetLastError, cudaPeekAtLastError};
use cucc_runtime::event::*;
use cucc_runtime::ffi::*;
use cucc_runtime::launch::*;
use cucc_runtime::memory::*;
use cucc_runtime::registry::CuccLaunch;
use cucc_runtime::stream::*;

const H2D: i32 = MEMCPY_HOST_TO_DEVICE;
const D2H: i32 = MEMCPY_DEVICE_TO_HOST;
const D2D: i32 = MEMCPY_DEVICE_TO_DEVICE;

fn dmalloc(bytes: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMalloc(&mut p, bytes) }, 0);
    p
}

fn to_dev<T>(dst: *mut c_void, src: &[T]) {
    // SAFETY: `src` is a live slice of the copied size.
    let rc = unsafe {
        cudaMemcpy(
            dst,
            src.as_ptr() as *const c_void,
            std::mem::size_of_val(src),
            H2D,
        )
    };
    assert_eq!(rc, 0);
}

fn from_dev<T>(dst: &mut [T], src: *const c_void) {
    // SAFETY: `dst` is a live slice of the copied size.
    let rc = unsafe {
        cudaMemcpy(
            dst.as_mut_ptr() as *mut c_void,
            src,
            std::mem::size_of_val(dst),
            D2H,
        )
    };
    assert_eq!(rc, 0);
}

/// A module with `vec_add`, registered device side first.
fn vec_add_module() -> *const std::ffi::c_char {
    let id = fresh_id();
    register_device(
        id,
        &[K {
            name: "_Z6vecAddPKfS0_Pfi",
            entry: vec_add,
            static_shared: 0,
            params: VEC_ADD_PARAMS,
        }],
    );
    let h = register_fatbin(blob(id));
    let f = stub();
    register_function(h, f, "_Z6vecAddPKfS0_Pfi");
    f
}

fn run_vec_add(f: *const std::ffi::c_char, n: usize, block: u32, stream: cudaStream_t) -> Vec<f32> {
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
    let (da, db, dc) = (dmalloc(n * 4), dmalloc(n * 4), dmalloc(n * 4));
    to_dev(da, &a);
    to_dev(db, &b);
    let mut n32 = n as i32;
    let (mut pa, mut pb, mut pc) = (da, db, dc);
    let mut args = [
        &mut pa as *mut _ as *mut c_void,
        &mut pb as *mut _ as *mut c_void,
        &mut pc as *mut _ as *mut c_void,
        &mut n32 as *mut i32 as *mut c_void,
    ];
    let grid = (n as u32).div_ceil(block);
    assert_eq!(
        launch(
            f,
            Dim3::new(grid, 1, 1),
            Dim3::new(block, 1, 1),
            0,
            stream,
            &mut args
        ),
        0
    );
    let mut c = vec![0f32; n];
    assert_eq!(cudaStreamSynchronize(stream), 0);
    from_dev(&mut c, dc);
    for p in [da, db, dc] {
        assert_eq!(cudaFree(p), 0);
    }
    c
}

#[test]
fn vector_add_through_the_host_protocol() {
    let f = vec_add_module();
    let c = run_vec_add(f, 10_000, 256, std::ptr::null_mut());
    for (i, v) in c.iter().enumerate() {
        assert_eq!(*v, 3.0 * i as f32, "element {i}");
    }
}

/// Parameter sizes of the argument-capture kernels: param 0 is the output
/// pointer, the rest are values whose bytes the kernel sums.
static FEW_PARAMS: [u32; 4] = [8, 4, 12, 1];
static MANY_PARAMS: [u32; 41] = {
    let mut p = [4u32; 41];
    p[0] = 8;
    p
};
static BIG_PARAMS: [u32; 3] = [8, 300, 2];

kernel! {
    /// Writes the sum of every byte of params 1.. (sizes from the table named by
    /// the number of parameters) to `*out`, so the test sees what was captured.
    fn sum_param_bytes(args, _l, _begin, _end, _s) {
        unsafe {
            let out: *mut u64 = arg(args, 0);
            let sizes: &[u32] = match *out {
                4 => &FEW_PARAMS,
                41 => &MANY_PARAMS,
                _ => &BIG_PARAMS,
            };
            let mut sum = 0u64;
            for (i, &size) in sizes.iter().enumerate().skip(1) {
                let p = *args.add(i) as *const u8;
                assert_eq!(p as usize % 16, 0, "param {i} is 16-byte aligned");
                sum += (0..size as usize)
                    .map(|b| u64::from(*p.add(b)))
                    .sum::<u64>();
            }
            *out = sum;
        }
    }
}

#[test]
fn arguments_are_captured_inline_and_on_the_heap() {
    // Few small parameters (inline), many (more than fit inline) and one
    // large (more bytes than fit inline).
    for (id, sizes) in [
        (*b"args-capture-001", &FEW_PARAMS[..]),
        (*b"args-capture-002", &MANY_PARAMS[..]),
        (*b"args-capture-003", &BIG_PARAMS[..]),
    ] {
        let h = register_fatbin(blob(id));
        let f = stub();
        register_function(h, f, "_Z15sum_param_bytesv");
        register_device(
            id,
            &[K {
                name: "_Z15sum_param_bytesv",
                entry: sum_param_bytes,
                static_shared: 0,
                params: sizes,
            }],
        );
        let out = dmalloc(8) as *mut u64;
        // The kernel reads the parameter count from `*out`.
        let count = sizes.len() as u64;
        to_dev(out as *mut c_void, &[count]);
        let values: Vec<Vec<u8>> = sizes
            .iter()
            .enumerate()
            .map(|(i, &s)| (0..s).map(|b| (i as u32 * 7 + b) as u8).collect())
            .collect();
        let mut out_arg = out;
        let mut args: Vec<*mut c_void> = values.iter().map(|v| v.as_ptr() as *mut c_void).collect();
        args[0] = &mut out_arg as *mut *mut u64 as *mut c_void;
        let one = Dim3 { x: 1, y: 1, z: 1 };
        assert_eq!(launch(f, one, one, 0, std::ptr::null_mut(), &mut args), 0);
        // Arguments are read at launch: changing them afterwards has no effect.
        drop(values);
        let mut got = [0u64];
        from_dev(&mut got, out as *const c_void);
        let want: u64 = sizes
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, &s)| {
                (0..s)
                    .map(|b| u64::from((i as u32 * 7 + b) as u8))
                    .sum::<u64>()
            })
            .sum();
        assert_eq!(got[0], want, "{} parameters", sizes.len());
        assert_eq!(cudaFree(out as *mut c_void), 0);
    }
}

#[test]
fn device_module_may_register_after_the_host_object() {
    let id = fresh_id();
    let h = register_fatbin(blob(id));
    let f = stub();
    register_function(h, f, "_Z6vecAddPKfS0_Pfi");
    register_device(
        id,
        &[K {
            name: "_Z6vecAddPKfS0_Pfi",
            entry: vec_add,
            static_shared: 0,
            params: VEC_ADD_PARAMS,
        }],
    );
    let c = run_vec_add(f, 1000, 64, std::ptr::null_mut());
    assert_eq!(c[999], 2997.0);
}

static SCRATCH_SEEN: AtomicU32 = AtomicU32::new(0);

kernel! {
    /// Checks that scratch holds static + dynamic bytes: writes to both ends.
    fn uses_scratch(_args, launch, begin, end, scratch) {
        unsafe {
            let bytes = 1024 + (*launch).dynamic_shared as usize;
            let s = scratch as *mut u8;
            for _ in begin..end {
                *s = 1;
                *s.add(bytes - 1) = 2;
                SCRATCH_SEEN.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

#[test]
fn scratch_covers_static_and_dynamic_shared_memory() {
    let id = fresh_id();
    register_device(
        id,
        &[K {
            name: "scratchy",
            entry: uses_scratch,
            static_shared: 1024,
            params: &[],
        }],
    );
    let h = register_fatbin(blob(id));
    let f = stub();
    register_function(h, f, "scratchy");
    assert_eq!(
        launch(
            f,
            Dim3::new(7, 3, 2),
            Dim3::new(32, 1, 1),
            4096,
            std::ptr::null_mut(),
            &mut []
        ),
        0
    );
    assert_eq!(cudaDeviceSynchronize(), 0);
    assert_eq!(SCRATCH_SEEN.load(Ordering::Relaxed), 42);
}

#[test]
fn launch_configuration_and_lookup_errors() {
    let f = vec_add_module();
    let mut dummy = [std::ptr::null_mut(); 4];
    let mut ptrs: Vec<*mut c_void> = Vec::new();
    let mut vals = [0u64; 4];
    for v in vals.iter_mut() {
        ptrs.push(v as *mut u64 as *mut c_void);
    }
    let null = std::ptr::null_mut();
    let launch_with = |grid: Dim3, block: Dim3, shared: usize, args: &mut [*mut c_void]| {
        launch(f, grid, block, shared, null, args)
    };
    // Too many threads, bad extents, zero grid, too much shared memory.
    assert_eq!(
        launch_with(Dim3::new(1, 1, 1), Dim3::new(1025, 1, 1), 0, &mut ptrs),
        9
    );
    assert_eq!(
        launch_with(Dim3::new(1, 1, 1), Dim3::new(32, 32, 2), 0, &mut ptrs),
        9
    );
    assert_eq!(
        launch_with(Dim3::new(1, 1, 1), Dim3::new(1, 1, 65), 0, &mut ptrs),
        9
    );
    assert_eq!(
        launch_with(Dim3::new(0, 1, 1), Dim3::new(1, 1, 1), 0, &mut ptrs),
        9
    );
    assert_eq!(
        launch_with(Dim3::new(1, 65536, 1), Dim3::new(1, 1, 1), 0, &mut ptrs),
        9
    );
    assert_eq!(
        launch_with(
            Dim3::new(1, 1, 1),
            Dim3::new(1, 1, 1),
            48 * 1024 + 1,
            &mut ptrs
        ),
        9
    );
    // Configuration errors are not sticky.
    assert_eq!(cudaPeekAtLastError(), 9);
    assert_eq!(cudaGetLastError(), 9);
    assert_eq!(cudaGetLastError(), 0);
    // Opting in to more dynamic shared memory.
    assert_eq!(cudaFuncSetAttribute(f as *const c_void, 8, 100 * 1024), 0);
    assert_eq!(
        launch_with(Dim3::new(1, 1, 1), Dim3::new(1, 1, 1), 64 * 1024, &mut ptrs),
        0
    );
    assert_eq!(cudaFuncSetAttribute(f as *const c_void, 8, 200 * 1024), 1);
    assert_eq!(cudaFuncSetAttribute(f as *const c_void, 99, 0), 1);
    // Unknown function.
    let unknown = stub();
    assert_eq!(
        launch(
            unknown,
            Dim3::new(1, 1, 1),
            Dim3::new(1, 1, 1),
            0,
            null,
            &mut dummy
        ),
        98
    );
    // Host knows it, the module has no such kernel.
    let id = fresh_id();
    register_device(id, &[]);
    let h = register_fatbin(blob(id));
    let g = stub();
    register_function(h, g, "_Z7missingv");
    assert_eq!(
        launch(
            g,
            Dim3::new(1, 1, 1),
            Dim3::new(1, 1, 1),
            0,
            null,
            &mut dummy
        ),
        98
    );
    // No device object for the module at all.
    let h = register_fatbin(blob(fresh_id()));
    let g = stub();
    register_function(h, g, "_Z6orphanv");
    assert_eq!(
        launch(
            g,
            Dim3::new(1, 1, 1),
            Dim3::new(1, 1, 1),
            0,
            null,
            &mut dummy
        ),
        209
    );
    // An nvcc fat binary without PTX (here: without entries).
    let nv: &'static [u8] = &[0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let h = register_fatbin(nv);
    let g = stub();
    register_function(h, g, "_Z3nvcv");
    assert_eq!(
        launch(
            g,
            Dim3::new(1, 1, 1),
            Dim3::new(1, 1, 1),
            0,
            null,
            &mut dummy
        ),
        209
    );
    // Pop without push.
    let (mut gd, mut bd, mut s) = (Dim3::default(), Dim3::default(), 0usize);
    let mut st: cudaStream_t = null;
    // SAFETY: valid out-pointers.
    let rc = unsafe {
        __cudaPopCallConfiguration(&mut gd, &mut bd, &mut s, &mut st as *mut _ as *mut c_void)
    };
    assert_eq!(rc, 52);
    // NULL arguments for a kernel with parameters.
    // SAFETY: deliberately invalid argument array.
    let rc = unsafe {
        cudaLaunchKernel(
            f as *const c_void,
            Dim3::new(1, 1, 1),
            Dim3::new(1, 1, 1),
            std::ptr::null_mut(),
            0,
            null,
        )
    };
    assert_eq!(rc, 1);
    // The context is still healthy.
    assert_eq!(cudaDeviceSynchronize(), 0);
    let _ = cudaGetLastError();
}

#[test]
fn function_attributes_and_occupancy() {
    let f = vec_add_module() as *const c_void;
    let mut attr = cudaFuncAttributes::default();
    // SAFETY: valid out-pointers throughout.
    unsafe {
        assert_eq!(cudaFuncGetAttributes(&mut attr, f), 0);
        assert_eq!(attr.maxThreadsPerBlock, 1024);
        assert_eq!(attr.maxDynamicSharedSizeBytes, 48 * 1024);
        let mut n = -1;
        assert_eq!(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, f, 256, 0),
            0
        );
        assert_eq!(n, 1);
        assert_eq!(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, f, 2048, 0),
            0
        );
        assert_eq!(n, 0);
        let (mut grid, mut block) = (0, 0);
        assert_eq!(
            cudaOccupancyMaxPotentialBlockSize(&mut grid, &mut block, f, 0, 0),
            0
        );
        assert_eq!(block, 1024);
        assert!(grid >= 1);
        assert_eq!(
            cudaOccupancyMaxPotentialBlockSize(&mut grid, &mut block, f, 0, 100),
            0
        );
        assert_eq!(block, 96);
        assert_eq!(
            cudaFuncGetAttributes(&mut attr, stub() as *const c_void),
            98
        );
    }
    assert_eq!(cudaFuncSetCacheConfig(f, 1), 0);
    assert_eq!(cudaFuncSetCacheConfig(f, 7), 1);
    let _ = cudaGetLastError();
}

#[test]
fn memory_errors_have_cuda_codes() {
    let p = dmalloc(1024);
    let host = [0u8; 2048];
    let hp = host.as_ptr() as *const c_void;
    // Out of range, straddling the end, and a bad direction.
    // SAFETY: `host` holds 2048 bytes, more than any copy here reads; copies
    // with a host destination fail on their device side before writing.
    assert_eq!(unsafe { cudaMemcpy(p, hp, 1025, H2D) }, 1);
    // SAFETY: as above.
    assert_eq!(
        unsafe { cudaMemcpy((p as usize + 1000) as *mut c_void, hp, 100, H2D) },
        1
    );
    // SAFETY: as above.
    assert_eq!(unsafe { cudaMemcpy(p, hp, 16, 7) }, 21);
    // SAFETY: as above.
    assert_eq!(
        unsafe { cudaMemcpy(host.as_ptr() as *mut c_void, hp, 16, D2H) },
        1
    );
    assert_eq!(cudaMemset(p, 0, 2000), 1);
    // Interior pointers are fine.
    // SAFETY: as above.
    assert_eq!(
        unsafe { cudaMemcpy((p as usize + 512) as *mut c_void, hp, 512, H2D) },
        0
    );
    // Free: unknown pointer, interior pointer, double free, NULL.
    assert_eq!(cudaFree(hp as *mut c_void), 1);
    assert_eq!(cudaFree((p as usize + 8) as *mut c_void), 1);
    assert_eq!(cudaFree(p), 0);
    assert_eq!(cudaFree(p), 1);
    assert_eq!(cudaFree(std::ptr::null_mut()), 0);
    // Use after free.
    // SAFETY: as above (the freed pointer is rejected).
    assert_eq!(unsafe { cudaMemcpy(p, hp, 16, H2D) }, 1);
    // SAFETY: NULL out-pointer is rejected.
    assert_eq!(unsafe { cudaMalloc(std::ptr::null_mut(), 16) }, 1);
    // Pinned host memory is not freed by cudaFree, nor device memory by cudaFreeHost.
    let mut pinned = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMallocHost(&mut pinned, 64) }, 0);
    assert_eq!(cudaFree(pinned), 1);
    let d = dmalloc(64);
    assert_eq!(cudaFreeHost(d), 1);
    assert_eq!(cudaFreeHost(pinned), 0);
    assert_eq!(cudaFree(d), 0);
    // Errors are not sticky.
    assert_eq!(cudaGetLastError(), 1);
    assert_eq!(cudaGetLastError(), 0);
}

#[test]
fn memcpy_default_pitched_and_peer() {
    let d = dmalloc(256);
    let src: Vec<u8> = (0..=255).collect();
    // SAFETY: `src` holds the 256 bytes copied.
    assert_eq!(
        unsafe { cudaMemcpy(d, src.as_ptr() as *const c_void, 256, MEMCPY_DEFAULT) },
        0
    );
    let d2 = dmalloc(256);
    // SAFETY: both sides are device allocations.
    assert_eq!(unsafe { cudaMemcpy(d2, d, 256, MEMCPY_DEFAULT) }, 0);
    assert_eq!(cudaMemcpyPeer(d2, 0, d, 0, 256), 0);
    assert_eq!(cudaMemcpyPeer(d2, 1, d, 0, 256), 101);
    let mut back = vec![0u8; 256];
    // SAFETY: `back` holds the 256 bytes copied.
    assert_eq!(
        unsafe { cudaMemcpy(back.as_mut_ptr() as *mut c_void, d2, 256, MEMCPY_DEFAULT) },
        0
    );
    assert_eq!(back, src);
    // Pitched 2D: 5 rows of 10 bytes.
    let (mut p, mut pitch) = (std::ptr::null_mut(), 0usize);
    // SAFETY: valid out-pointers.
    assert_eq!(unsafe { cudaMallocPitch(&mut p, &mut pitch, 10, 5) }, 0);
    assert!(pitch >= 10 && pitch % 256 == 0);
    assert_eq!(cudaMemset2D(p, pitch, 7, 10, 5), 0);
    assert_eq!(cudaMemset2D(p, pitch, 7, pitch + 1, 5), 1);
    let mut rows = vec![0u8; 50];
    // SAFETY: `rows` holds 5 rows of 10 bytes.
    let rc = unsafe { cudaMemcpy2D(rows.as_mut_ptr() as *mut c_void, 10, p, pitch, 10, 5, D2H) };
    assert_eq!(rc, 0);
    assert!(rows.iter().all(|&v| v == 7));
    // SAFETY: as above (the pitch is rejected first).
    let rc = unsafe { cudaMemcpy2D(rows.as_mut_ptr() as *mut c_void, 5, p, pitch, 10, 5, D2H) };
    assert_eq!(rc, 12);
    // SAFETY: as above (the 6th row is past the device allocation, rejected
    // first).
    let rc = unsafe { cudaMemcpy2D(rows.as_mut_ptr() as *mut c_void, 10, p, pitch, 10, 6, D2H) };
    assert_eq!(rc, 1);
    // 3D.
    let mut pp = cudaPitchedPtr {
        ptr: std::ptr::null_mut(),
        pitch: 0,
        xsize: 0,
        ysize: 0,
    };
    let ext = cudaExtent {
        width: 100,
        height: 4,
        depth: 3,
    };
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMalloc3D(&mut pp, ext) }, 0);
    assert_eq!((pp.xsize, pp.ysize), (100, 4));
    assert_eq!(cudaMemset(pp.ptr, 1, pp.pitch * 12), 0);
    for q in [d, d2, p, pp.ptr] {
        assert_eq!(cudaFree(q), 0);
    }
}

#[test]
fn pointer_attributes_and_host_registration() {
    let d = dmalloc(64);
    let mut m = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMallocManaged(&mut m, 64, 1) }, 0);
    // SAFETY: as above.
    assert_eq!(unsafe { cudaMallocManaged(&mut m, 64, 9) }, 1);
    // SAFETY: as above.
    assert_eq!(unsafe { cudaMallocManaged(&mut m, 64, 1) }, 0);
    let mut buf = vec![0u8; 4096];
    let bp = buf.as_mut_ptr() as *mut c_void;
    let attr_of = |p: *const c_void| {
        // SAFETY: all-zero is a valid value of the plain C struct.
        let mut a: cudaPointerAttributes = unsafe { std::mem::zeroed() };
        // SAFETY: valid out-pointer.
        assert_eq!(unsafe { cudaPointerGetAttributes(&mut a, p) }, 0);
        a
    };
    assert_eq!(attr_of(d).type_, memory_type::DEVICE);
    assert_eq!(
        attr_of((d as usize + 63) as *const c_void).type_,
        memory_type::DEVICE
    );
    assert_eq!(attr_of(m).type_, memory_type::MANAGED);
    let a = attr_of(bp);
    assert_eq!((a.type_, a.device), (memory_type::UNREGISTERED, -2));
    // SAFETY: `buf` stays alive and registered until `cudaHostUnregister` below,
    // and no copy uses it.
    assert_eq!(unsafe { cudaHostRegister(bp, 4096, 0) }, 0);
    assert_eq!(
        attr_of((bp as usize + 100) as *const c_void).type_,
        memory_type::HOST
    );
    // SAFETY: as above (overlapping ranges are rejected).
    assert_eq!(
        unsafe { cudaHostRegister((bp as usize + 8) as *mut c_void, 16, 0) },
        712
    );
    let mut dp = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaHostGetDevicePointer(&mut dp, bp, 0) }, 0);
    assert_eq!(dp, bp);
    assert_eq!(cudaHostUnregister((bp as usize + 8) as *mut c_void), 713);
    assert_eq!(cudaHostUnregister(bp), 0);
    assert_eq!(cudaHostUnregister(bp), 713);
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaHostGetDevicePointer(&mut dp, bp, 0) }, 1);
    let (mut free, mut total) = (0usize, 0usize);
    // SAFETY: valid out-pointers.
    assert_eq!(unsafe { cudaMemGetInfo(&mut free, &mut total) }, 0);
    assert!(total > 0 && free <= total);
    assert_eq!(cudaFree(d), 0);
    assert_eq!(cudaFree(m), 0);
    drop(buf);
    let _ = cudaGetLastError();
}

/// `out[i] = table[i] * scale` (params: out, n); `table` and `scale` are
/// module variables reached through globals set at registration.
static mut TABLE: [f32; 8] = [0.0; 8];
static mut SCALE: f32 = 0.0;

kernel! {
    fn scale_table(args, _l, begin, end, _s) {
        unsafe {
            let out: *mut f32 = arg(args, 0);
            for _ in begin..end {
                for i in 0..8 {
                    *out.add(i) = (*std::ptr::addr_of!(TABLE))[i] * *std::ptr::addr_of!(SCALE);
                }
            }
        }
    }
}

#[test]
fn symbols_bind_host_shadows_to_device_storage() {
    let id = fresh_id();
    // Host shadows: distinct addresses the program passes as `symbol`.
    let shadow_table = stub() as *const c_void;
    let shadow_scale = stub() as *const c_void;
    let shadow_missing = stub() as *const c_void;
    let h = register_fatbin(blob(id));
    register_var(h, shadow_table, "table", 32);
    register_var(h, shadow_scale, "scale", 4);
    register_var(h, shadow_missing, "missing", 4);
    let f = stub();
    register_function(h, f, "scale_table");
    register_device(
        id,
        &[K {
            name: "scale_table",
            entry: scale_table,
            static_shared: 0,
            params: &[8],
        }],
    );
    register_device_vars(
        id,
        &[
            ("table", std::ptr::addr_of_mut!(TABLE) as *mut c_void, 32),
            ("scale", std::ptr::addr_of_mut!(SCALE) as *mut c_void, 4),
        ],
    );
    let values: Vec<f32> = (1..=8).map(|v| v as f32).collect();
    let two = 2.0f32;
    let vp = values.as_ptr() as *const c_void;
    // SAFETY: `values` holds the 32 bytes copied.
    assert_eq!(
        unsafe { cudaMemcpyToSymbol(shadow_table, vp, 32, 0, H2D) },
        0
    );
    // SAFETY: `two` is a live f32.
    assert_eq!(
        unsafe {
            cudaMemcpyToSymbol(
                shadow_scale,
                &two as *const f32 as *const c_void,
                4,
                0,
                MEMCPY_DEFAULT,
            )
        },
        0
    );
    // Errors: past the end, wrong direction, unknown symbol, unbound symbol.
    // SAFETY: `values` holds 32 bytes (the copy is rejected: past the end).
    assert_eq!(
        unsafe { cudaMemcpyToSymbol(shadow_table, vp, 32, 4, H2D) },
        1
    );
    // SAFETY: as above (rejected: wrong direction).
    assert_eq!(
        unsafe { cudaMemcpyToSymbol(shadow_table, vp, 4, 0, D2H) },
        21
    );
    // SAFETY: as above (rejected: not a variable).
    assert_eq!(
        unsafe { cudaMemcpyToSymbol(stub() as *const c_void, vp, 4, 0, H2D) },
        13
    );
    // SAFETY: as above (rejected: unbound variable).
    assert_eq!(
        unsafe { cudaMemcpyToSymbol(shadow_missing, vp, 4, 0, H2D) },
        13
    );
    // Kernel reads the variables.
    let out = dmalloc(32);
    let mut po = out;
    let mut args = [&mut po as *mut _ as *mut c_void];
    assert_eq!(
        launch(
            f,
            Dim3::new(1, 1, 1),
            Dim3::new(1, 1, 1),
            0,
            std::ptr::null_mut(),
            &mut args
        ),
        0
    );
    let mut got = [0f32; 8];
    from_dev(&mut got, out);
    assert_eq!(got, [2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0]);
    // From symbol with an offset, symbol address and size.
    let mut tail = [0f32; 2];
    // SAFETY: `tail` holds the 8 bytes copied.
    let rc =
        unsafe { cudaMemcpyFromSymbol(tail.as_mut_ptr() as *mut c_void, shadow_table, 8, 24, D2H) };
    assert_eq!(rc, 0);
    assert_eq!(tail, [7.0, 8.0]);
    let (mut addr, mut size) = (std::ptr::null_mut(), 0usize);
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(cudaGetSymbolAddress(&mut addr, shadow_table), 0);
        assert_eq!(cudaGetSymbolSize(&mut size, shadow_table), 0);
    }
    assert_eq!(addr, std::ptr::addr_of_mut!(TABLE) as *mut c_void);
    assert_eq!(size, 32);
    // The storage counts as device memory for plain copies.
    // SAFETY: both sides are device memory (variable storage and an allocation).
    assert_eq!(unsafe { cudaMemcpy(out, addr, 32, D2D) }, 0);
    // SAFETY: as above (rejected: past the end of the storage).
    assert_eq!(unsafe { cudaMemcpy(out, addr, 36, D2D) }, 1);
    // Async forms on a stream.
    let mut s = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaStreamCreate(&mut s) }, 0);
    let nine = 9.0f32;
    // SAFETY: `nine` outlives the stream synchronisation below.
    let rc = unsafe {
        cudaMemcpyToSymbolAsync(
            shadow_scale,
            &nine as *const f32 as *const c_void,
            4,
            0,
            H2D,
            s,
        )
    };
    assert_eq!(rc, 0);
    let mut back = 0f32;
    // SAFETY: `back` outlives the stream synchronisation below.
    let rc = unsafe {
        cudaMemcpyFromSymbolAsync(
            &mut back as *mut f32 as *mut c_void,
            shadow_scale,
            4,
            0,
            D2H,
            s,
        )
    };
    assert_eq!(rc, 0);
    assert_eq!(cudaStreamSynchronize(s), 0);
    assert_eq!(back, 9.0);
    assert_eq!(cudaStreamDestroy(s), 0);
    assert_eq!(cudaFree(out), 0);
    let _ = cudaGetLastError();
}

static SLOW_DONE: AtomicBool = AtomicBool::new(false);

unsafe extern "C" fn slow_writer(data: *mut c_void) {
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: the test passes a pointer to a pinned u32.
    unsafe { *(data as *mut u32) = 0xC0FFEE };
    SLOW_DONE.store(true, Ordering::SeqCst);
}

#[test]
fn stream_work_runs_in_order_and_asynchronously() {
    let mut s = std::ptr::null_mut();
    // SAFETY: valid out-pointers throughout.
    unsafe {
        assert_eq!(cudaStreamCreate(&mut s), 0);
        let (mut a, mut b) = (std::ptr::null_mut(), std::ptr::null_mut());
        assert_eq!(cudaMallocHost(&mut a, 4), 0);
        assert_eq!(cudaMallocHost(&mut b, 4), 0);
        *(a as *mut u32) = 1;
        let d = dmalloc(4);
        assert_eq!(cudaLaunchHostFunc(s, Some(slow_writer), a), 0);
        assert_eq!(cudaMemcpyAsync(d, a, 4, H2D, s), 0);
        assert_eq!(cudaMemcpyAsync(b, d, 4, D2H, s), 0);
        // Queued, not run: the host function is still sleeping.
        assert!(!SLOW_DONE.load(Ordering::SeqCst));
        assert_eq!(cudaStreamQuery(s), 600);
        assert_eq!(cudaGetLastError(), 0, "NotReady is not an error");
        assert_eq!(cudaStreamSynchronize(s), 0);
        assert!(SLOW_DONE.load(Ordering::SeqCst));
        assert_eq!(*(b as *mut u32), 0xC0FFEE);
        assert_eq!(cudaStreamQuery(s), 0);
        let mut flags = 9;
        assert_eq!(cudaStreamGetFlags(s, &mut flags), 0);
        assert_eq!(flags, 0);
        assert_eq!(cudaStreamDestroy(s), 0);
        assert_eq!(cudaStreamDestroy(s), 400);
        assert_eq!(cudaStreamSynchronize(s), 400);
        assert_eq!(cudaFree(d), 0);
        assert_eq!(cudaFreeHost(a), 0);
        assert_eq!(cudaFreeHost(b), 0);
    }
    let _ = cudaGetLastError();
}

static GATE: AtomicBool = AtomicBool::new(false);

unsafe extern "C" fn wait_for_gate(_data: *mut c_void) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !GATE.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
}

static ORDER_LOG: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

unsafe extern "C" fn log_id(id: *mut c_void) {
    // SAFETY: the test passes pointers into a live vector of ids.
    let id = unsafe { *(id as *const u32) };
    ORDER_LOG.lock().expect("log").push(id);
}

#[test]
fn legacy_and_blocking_streams_interleave_in_submission_order() {
    // Work alternating irregularly between the legacy stream and a blocking
    // stream must complete in submission order: each waits for the other's
    // earlier work. Many rounds, so that hand-offs race.
    let ids: Vec<u32> = (0..600).collect();
    let mut bl = std::ptr::null_mut();
    // SAFETY: valid out-pointer, callbacks and user data.
    unsafe {
        assert_eq!(cudaStreamCreate(&mut bl), 0);
        for id in &ids {
            let stream = if (id * 7 / 3) % 2 == 0 {
                STREAM_LEGACY as cudaStream_t
            } else {
                bl
            };
            let data = id as *const u32 as *mut c_void;
            assert_eq!(cudaLaunchHostFunc(stream, Some(log_id), data), 0);
        }
        assert_eq!(cudaDeviceSynchronize(), 0);
        assert_eq!(cudaStreamDestroy(bl), 0);
    }
    assert_eq!(*ORDER_LOG.lock().expect("log"), ids);
}

#[test]
fn legacy_stream_blocks_blocking_streams_but_not_non_blocking_ones() {
    let (mut nb, mut bl) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: valid out-pointers and callbacks throughout.
    unsafe {
        assert_eq!(cudaStreamCreateWithFlags(&mut nb, STREAM_NON_BLOCKING), 0);
        assert_eq!(cudaStreamCreateWithFlags(&mut bl, 0), 0);
        assert_eq!(cudaStreamCreateWithFlags(&mut bl, 4), 1);
        assert_eq!(cudaStreamCreateWithFlags(&mut bl, 0), 0);
        let d = dmalloc(16);
        // The legacy stream is held up by a gated host function.
        assert_eq!(
            cudaLaunchHostFunc(
                STREAM_LEGACY as cudaStream_t,
                Some(wait_for_gate),
                std::ptr::null_mut()
            ),
            0
        );
        // Non-blocking: completes while the legacy stream is held.
        assert_eq!(cudaMemsetAsync(d, 1, 16, nb), 0);
        assert_eq!(cudaStreamSynchronize(nb), 0);
        // Blocking: waits for the legacy stream.
        assert_eq!(cudaMemsetAsync(d, 2, 16, bl), 0);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(cudaStreamQuery(bl), 600);
        GATE.store(true, Ordering::SeqCst);
        assert_eq!(cudaStreamSynchronize(bl), 0);
        let mut out = [0u8; 16];
        from_dev(&mut out, d);
        assert_eq!(out, [2u8; 16]);
        let mut prio = 1;
        let (mut least, mut greatest) = (1, 1);
        assert_eq!(
            cudaDeviceGetStreamPriorityRange(&mut least, &mut greatest),
            0
        );
        let mut p = std::ptr::null_mut();
        assert_eq!(cudaStreamCreateWithPriority(&mut p, 0, greatest - 10), 0);
        assert_eq!(cudaStreamGetPriority(p, &mut prio), 0);
        assert_eq!(prio, greatest);
        for s in [nb, bl, p] {
            assert_eq!(cudaStreamDestroy(s), 0);
        }
        assert_eq!(cudaFree(d), 0);
    }
}

#[test]
fn per_thread_default_stream_is_accepted() {
    let f = vec_add_module();
    let c = run_vec_add(f, 300, 32, STREAM_PER_THREAD as cudaStream_t);
    assert_eq!(c[299], 897.0);
    let d = dmalloc(8);
    assert_eq!(
        cudaMemsetAsync(d, 3, 8, STREAM_PER_THREAD as cudaStream_t),
        0
    );
    assert_eq!(cudaMemsetAsync_ptsz(d, 4, 8, std::ptr::null_mut()), 0);
    assert_eq!(cudaStreamSynchronize_ptsz(std::ptr::null_mut()), 0);
    let mut out = [0u8; 8];
    from_dev(&mut out, d);
    assert_eq!(out, [4u8; 8]);
    assert_eq!(cudaStreamDestroy(STREAM_PER_THREAD as cudaStream_t), 400);
    assert_eq!(cudaFree(d), 0);
    let _ = cudaGetLastError();
}

static CALLBACK_STATUS: AtomicU32 = AtomicU32::new(u32::MAX);

unsafe extern "C" fn record_status(_s: cudaStream_t, status: i32, data: *mut c_void) {
    CALLBACK_STATUS.store(status as u32 + data as u32, Ordering::SeqCst);
}

#[test]
fn stream_callbacks_get_status_and_user_data() {
    let mut s = std::ptr::null_mut();
    // SAFETY: valid out-pointer and callback.
    unsafe {
        assert_eq!(cudaStreamCreate(&mut s), 0);
        assert_eq!(
            cudaStreamAddCallback(s, Some(record_status), 5 as *mut c_void, 0),
            0
        );
        assert_eq!(
            cudaStreamAddCallback(s, Some(record_status), 5 as *mut c_void, 1),
            1
        );
        assert_eq!(cudaStreamAddCallback(s, None, std::ptr::null_mut(), 0), 1);
    }
    assert_eq!(cudaStreamSynchronize(s), 0);
    assert_eq!(CALLBACK_STATUS.load(Ordering::SeqCst), 5);
    assert_eq!(cudaStreamDestroy(s), 0);
    let _ = cudaGetLastError();
}

unsafe extern "C" fn sleep_100ms(_data: *mut c_void) {
    std::thread::sleep(Duration::from_millis(100));
}

#[test]
fn events_time_and_order_work() {
    let (mut start, mut end, mut untimed, mut s, mut other) = (
        std::ptr::null_mut(),
        std::ptr::null_mut(),
        std::ptr::null_mut(),
        std::ptr::null_mut(),
        std::ptr::null_mut(),
    );
    // SAFETY: valid out-pointers and callbacks throughout.
    unsafe {
        assert_eq!(cudaEventCreate(&mut start), 0);
        assert_eq!(cudaEventCreateWithFlags(&mut end, 0), 0);
        assert_eq!(
            cudaEventCreateWithFlags(&mut untimed, EVENT_DISABLE_TIMING),
            0
        );
        assert_eq!(cudaEventCreateWithFlags(&mut untimed, 0x40), 1);
        assert_eq!(
            cudaEventCreateWithFlags(&mut untimed, EVENT_DISABLE_TIMING),
            0
        );
        assert_eq!(cudaStreamCreateWithFlags(&mut s, STREAM_NON_BLOCKING), 0);
        assert_eq!(
            cudaStreamCreateWithFlags(&mut other, STREAM_NON_BLOCKING),
            0
        );
        let mut ms = 0f32;
        // Never recorded.
        assert_eq!(cudaEventQuery(start), 0);
        assert_eq!(cudaEventElapsedTime(&mut ms, start, end), 400);
        assert_eq!(cudaEventRecord(start, s), 0);
        assert_eq!(
            cudaLaunchHostFunc(s, Some(sleep_100ms), std::ptr::null_mut()),
            0
        );
        assert_eq!(cudaEventRecord(end, s), 0);
        assert_eq!(cudaEventQuery(end), 600);
        assert_eq!(cudaEventElapsedTime(&mut ms, start, end), 600);
        // Another stream waits for `end` before its own work.
        let d = dmalloc(4);
        assert_eq!(cudaStreamWaitEvent(other, end, 0), 0);
        assert_eq!(cudaMemsetAsync(d, 5, 4, other), 0);
        assert_eq!(cudaStreamSynchronize(other), 0);
        assert_eq!(cudaEventQuery(end), 0);
        assert_eq!(cudaEventSynchronize(end), 0);
        assert_eq!(cudaEventElapsedTime(&mut ms, start, end), 0);
        assert!(ms >= 99.0, "elapsed {ms} ms");
        assert_eq!(cudaEventRecord(untimed, s), 0);
        assert_eq!(cudaEventSynchronize(untimed), 0);
        assert_eq!(cudaEventElapsedTime(&mut ms, start, untimed), 400);
        assert_eq!(cudaEventDestroy(untimed), 0);
        assert_eq!(cudaEventDestroy(untimed), 400);
        assert_eq!(cudaEventRecord(untimed, s), 400);
        for e in [start, end] {
            assert_eq!(cudaEventDestroy(e), 0);
        }
        for st in [s, other] {
            assert_eq!(cudaStreamDestroy(st), 0);
        }
        assert_eq!(cudaFree(d), 0);
    }
    let _ = cudaGetLastError();
}

#[test]
fn device_queries_describe_the_cpu_with_cuda_limits() {
    // SAFETY: valid out-pointers throughout.
    unsafe {
        let mut n = 0;
        assert_eq!(cudaGetDeviceCount(&mut n), 0);
        assert_eq!(n, 1);
        assert_eq!(cudaSetDevice(0), 0);
        assert_eq!(cudaSetDevice(1), 101);
        assert_eq!(cudaGetLastError(), 101);
        let mut dev = -1;
        assert_eq!(cudaGetDevice(&mut dev), 0);
        assert_eq!(dev, 0);
        let mut p: cudaDeviceProp = std::mem::zeroed();
        assert_eq!(cudaGetDeviceProperties(&mut p, 0), 0);
        assert_eq!(cudaGetDeviceProperties(&mut p, 1), 101);
        assert_eq!(cudaGetDeviceProperties_v2(&mut p, 0), 0);
        let name = CStr::from_ptr(p.name.as_ptr())
            .to_string_lossy()
            .into_owned();
        assert!(!name.is_empty());
        assert_eq!(
            (p.warpSize, p.maxThreadsPerBlock, p.major, p.minor),
            (32, 1024, 8, 0)
        );
        assert_eq!(p.maxGridSize, [0x7fff_ffff, 65535, 65535]);
        assert_eq!(p.sharedMemPerBlock, 48 * 1024);
        assert!(p.multiProcessorCount >= 1 && p.totalGlobalMem > 0);
        let mut v = 0;
        assert_eq!(cudaDeviceGetAttribute(&mut v, 10, 0), 0);
        assert_eq!(v, 32);
        assert_eq!(cudaDeviceGetAttribute(&mut v, 16, 0), 0);
        assert_eq!(v, p.multiProcessorCount);
        assert_eq!(cudaDeviceGetAttribute(&mut v, 75, 0), 0);
        assert_eq!(v, 8);
        // Clock rates agree with the fields CUDA 13 removed from the struct
        // (`clockRate`, `memoryClockRate`), which cucc keeps in `reserved`.
        assert_eq!(cudaDeviceGetAttribute(&mut v, 13, 0), 0);
        assert_eq!(v, p.reserved[0]);
        assert_eq!(cudaDeviceGetAttribute(&mut v, 36, 0), 0);
        assert_eq!(v, p.reserved[5]);
        assert!(v > 0);
        assert_eq!(cudaDeviceGetAttribute(&mut v, 1, 3), 101);
        assert_eq!(cudaDeviceGetAttribute(&mut v, 100_000, 0), 1);
        assert_eq!(cudaRuntimeGetVersion(&mut v), 0);
        assert_eq!(v, 13000);
        assert_eq!(cudaDriverGetVersion(&mut v), 0);
        assert!(v >= 13000);
        assert_eq!(cudaSetDeviceFlags(0x4), 0);
        assert_eq!(cudaSetDeviceFlags(0x3), 1);
        assert_eq!(cudaSetDeviceFlags(0x100), 1);
        assert_eq!(cudaDeviceSetCacheConfig(1), 0);
        assert_eq!(cudaThreadSetCacheConfig(9), 1);
        assert_eq!(cudaDeviceSetSharedMemConfig(2), 0);
        let mut lim = 0usize;
        assert_eq!(cudaDeviceGetLimit(&mut lim, 2), 0);
        assert_eq!(lim, 8 << 20);
        assert_eq!(cudaDeviceSetLimit(1, 4 << 20), 0);
        assert_eq!(cudaThreadGetLimit(&mut lim, 1), 0);
        assert_eq!(lim, 4 << 20);
        assert_eq!(cudaThreadSetLimit(0, 2048), 0);
        assert_eq!(cudaDeviceSetLimit(42, 1), 215);
        assert_eq!(cudaDeviceGetLimit(&mut lim, -1), 215);
        assert_eq!(cudaThreadSynchronize(), 0);
        assert_eq!(cudaDeviceSynchronize(), 0);
    }
    assert_eq!(name(1), "cudaErrorInvalidValue");
    assert_eq!(name(710), "cudaErrorAssert");
    assert_eq!(name(4242), "unrecognized error code");
    // SAFETY: static strings.
    let text = unsafe { CStr::from_ptr(cudaGetErrorString(0)) };
    assert_eq!(text.to_str(), Ok("no error"));
    let _ = cudaGetLastError();
}

/// Calls of the flagged entry that received thread ranges.
static THREAD_RANGE_CALLS: AtomicU32 = AtomicU32::new(0);
/// Calls of the unflagged entry that received thread ranges (must stay 0).
static UNFLAGGED_THREAD_RANGES: AtomicU32 = AtomicU32::new(0);

/// Counts each global linear thread id of its range in `counts` (param 0),
/// taking thread ranges when `launch.thread_ranges` says so, block ranges
/// otherwise, as a collapsed kernel's entry does.
unsafe extern "C" fn count_threads<const FLAGGED: bool>(
    args: *mut *mut c_void,
    launch: *const CuccLaunch,
    begin: u32,
    end: u32,
    _scratch: *mut c_void,
) {
    unsafe {
        let counts: *const AtomicU32 = arg(args, 0);
        let l = &*launch;
        let nt = u64::from(block_threads(l));
        let (lo, hi) = if l.thread_ranges != 0 {
            if FLAGGED {
                THREAD_RANGE_CALLS.fetch_add(1, Ordering::Relaxed);
            } else {
                UNFLAGGED_THREAD_RANGES.fetch_add(1, Ordering::Relaxed);
            }
            (u64::from(begin), u64::from(end))
        } else {
            (u64::from(begin) * nt, u64::from(end) * nt)
        };
        for t in lo..hi {
            (*counts.add(t as usize)).fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Launches `count_threads` registered with `flags` over each shape and
/// checks that every thread ran exactly once.
fn check_thread_counts(flags: u32) {
    let id = fresh_id();
    register_device_flagged(
        id,
        &[K {
            name: "count_threads",
            entry: if flags != 0 {
                count_threads::<true>
            } else {
                count_threads::<false>
            },
            static_shared: 0,
            params: &[8],
        }],
        flags,
    );
    let h = register_fatbin(blob(id));
    let f = stub();
    register_function(h, f, "count_threads");
    let shapes = [
        (Dim3::new(2, 1, 1), Dim3::new(1024, 1, 1)),
        (Dim3::new(3, 5, 2), Dim3::new(7, 3, 2)),
        (Dim3::new(64, 3, 1), Dim3::new(100, 2, 1)),
        (Dim3::new(5, 4, 3), Dim3::new(9, 5, 7)),
        (Dim3::new(1, 1, 1), Dim3::new(1, 1, 1)),
    ];
    for (grid, block) in shapes {
        let total = (grid.count() * block.count()) as usize;
        let d = dmalloc(4 * (total + 1));
        to_dev(d, &vec![0u32; total + 1]);
        let mut p = d;
        let mut args = [&mut p as *mut *mut c_void as *mut c_void];
        assert_eq!(
            launch(f, grid, block, 0, std::ptr::null_mut(), &mut args),
            0
        );
        assert_eq!(cudaDeviceSynchronize(), 0);
        let mut got = vec![0u32; total + 1];
        from_dev(&mut got, d);
        for (t, &c) in got[..total].iter().enumerate() {
            assert_eq!(c, 1, "thread {t} of {grid:?} x {block:?} ran {c} times");
        }
        assert_eq!(got[total], 0);
        assert_eq!(cudaFree(d), 0);
    }
}

#[test]
fn thread_range_kernels_run_every_thread_once() {
    check_thread_counts(cucc_runtime::registry::KERNEL_THREAD_RANGES);
    // Every launch passed thread ranges; the 38400- and 18900-thread ones
    // in several chunks, cut inside blocks.
    assert!(THREAD_RANGE_CALLS.load(Ordering::Relaxed) >= 7);
}

#[test]
fn unflagged_kernels_get_block_ranges() {
    check_thread_counts(0);
    assert_eq!(UNFLAGGED_THREAD_RANGES.load(Ordering::Relaxed), 0);
}

/// A stream whose last task is an event record is idle as soon as the
/// event is seen complete, by `cudaEventSynchronize` or by another thread
/// polling `cudaEventQuery` (CUDA's guarantee). Each round queues work
/// the stream thread runs (a host function), records the event, and lets
/// a second thread poll it; nothing is queued until that thread has
/// checked the stream, so the answer must be `cudaSuccess` every time,
/// whatever the timing.
#[test]
fn stream_is_idle_once_its_last_event_completed() {
    let mut s = std::ptr::null_mut();
    let mut e = std::ptr::null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(cudaStreamCreate(&mut s), 0);
        assert_eq!(cudaEventCreate(&mut e), 0);
    }
    let (s_addr, e_addr) = (s as usize, e as usize);
    let (go_tx, go_rx) = std::sync::mpsc::channel::<bool>();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<(i32, i32)>();
    let poller = std::thread::spawn(move || {
        while go_rx.recv() == Ok(true) {
            let (s, e) = (s_addr as cudaStream_t, e_addr as cudaEvent_t);
            while cudaEventQuery(e) != 0 {
                std::hint::spin_loop();
            }
            done_tx.send((cudaStreamQuery(s), 0)).expect("send");
        }
    });
    let mut flag = 0u32;
    for round in 0..400 {
        // SAFETY: the host function only reads its argument's address.
        unsafe {
            assert_eq!(
                cudaLaunchHostFunc(s, Some(nop_host_fn), (&mut flag as *mut u32).cast()),
                0
            );
            assert_eq!(cudaEventRecord(e, s), 0);
        }
        if round % 2 == 0 {
            assert_eq!(cudaEventSynchronize(e), 0);
            assert_eq!(
                cudaStreamQuery(s),
                0,
                "round {round}: after cudaEventSynchronize"
            );
        }
        go_tx.send(true).expect("go");
        let (q, _) = done_rx.recv().expect("poller");
        assert_eq!(
            q, 0,
            "round {round}: after cudaEventQuery on another thread"
        );
    }
    go_tx.send(false).expect("stop");
    poller.join().expect("poller");
    assert_eq!(cudaEventDestroy(e), 0);
    assert_eq!(cudaStreamDestroy(s), 0);
}

unsafe extern "C" fn nop_host_fn(_data: *mut c_void) {}
