//! A host thread that waits for a stream runs the stream's queued work itself
//! (launches on a worker-sized stack, copies, event records) and leaves the
//! program's callbacks to the stream's thread. These tests check the paths
//! that hand-off opens: deep kernels on small host stacks, callbacks kept off
//! the waiting thread, launches that progress while nobody waits, events,
//! and several host threads waiting on the same streams.

#[macro_use]
mod common;

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::*;
use cucc_runtime::device::cudaDeviceSynchronize;
use cucc_runtime::event::*;
use cucc_runtime::ffi::*;
use cucc_runtime::memory::*;
use cucc_runtime::stream::*;

const H2D: i32 = MEMCPY_HOST_TO_DEVICE;
const D2H: i32 = MEMCPY_DEVICE_TO_HOST;

fn dmalloc(bytes: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMalloc(&mut p, bytes) }, 0);
    p
}

/// A device `u64` set to zero: the counter the increment kernels bump.
fn dmalloc_zeroed_u64() -> *mut c_void {
    let d = dmalloc(8);
    let zero = 0u64;
    // SAFETY: `zero` is a live u64.
    assert_eq!(
        unsafe { cudaMemcpy(d, &zero as *const u64 as *const c_void, 8, H2D) },
        0
    );
    d
}

fn module(
    name: &'static str,
    entry: cucc_runtime::registry::CuccKernelFn,
    params: &'static [u32],
) -> *const std::ffi::c_char {
    let id = fresh_id();
    register_device(
        id,
        &[K {
            name,
            entry,
            static_shared: 0,
            params,
        }],
    );
    let h = register_fatbin(blob(id));
    let f = stub();
    register_function(h, f, name);
    f
}

/// Recursion through 64 KiB frames: `depth` of them.
#[inline(never)]
fn deep(depth: u32) -> u64 {
    let pad = std::hint::black_box([depth as u8; 1 << 16]);
    if depth == 0 {
        u64::from(pad[1])
    } else {
        deep(depth - 1) + u64::from(pad[depth as usize % pad.len()])
    }
}

kernel! {
    /// Writes `deep(160)` (10 MiB of stack) for each block into `out` (param 0).
    fn deep_stack(args, _l, begin, end, _s) {
        unsafe {
            let out: *mut u64 = arg(args, 0);
            for b in begin..end {
                *out.add(b as usize) = deep(160);
            }
        }
    }
}

#[test]
fn kernels_run_by_a_waiting_thread_get_a_worker_sized_stack() {
    let f = module("deep_stack", deep_stack, &[8]) as usize;
    let want: u64 = (1..=160u64).map(|d| d as u8 as u64).sum();
    // A 1 MiB host thread: a kernel on its own stack would overflow it.
    let host = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let f = f as *const std::ffi::c_char;
            let blocks = 4usize;
            let d = dmalloc(8 * blocks);
            for round in 0..20 {
                let mut p = d;
                let mut args = [&mut p as *mut *mut c_void as *mut c_void];
                let rc = launch(
                    f,
                    Dim3::new(blocks as u32, 1, 1),
                    Dim3::new(1, 1, 1),
                    0,
                    std::ptr::null_mut(),
                    &mut args,
                );
                assert_eq!(rc, 0);
                // Alternate the two synchronous forms: a wait and a copy.
                if round % 2 == 0 {
                    assert_eq!(cudaDeviceSynchronize(), 0);
                }
                let mut out = vec![0u64; blocks];
                // SAFETY: `out` holds the `8 * blocks` bytes copied.
                let rc = unsafe { cudaMemcpy(out.as_mut_ptr() as *mut c_void, d, 8 * blocks, D2H) };
                assert_eq!(rc, 0);
                assert!(out.iter().all(|&v| v == want), "{out:?}");
            }
            assert_eq!(cudaFree(d), 0);
        });
    host.expect("spawn").join().expect("host thread");
}

kernel! {
    /// Adds 1 to the u64 at param 0 (one block, one thread).
    fn increment(args, _l, _begin, _end, _s) {
        unsafe {
            let p: *mut u64 = arg(args, 0);
            *p += 1;
        }
    }
}

const INCREMENT_PARAMS: &[u32] = &[8];

fn launch_increment(f: *const std::ffi::c_char, p: *mut c_void, stream: cudaStream_t) {
    let mut p = p;
    let mut args = [&mut p as *mut *mut c_void as *mut c_void];
    let rc = launch(
        f,
        Dim3::new(1, 1, 1),
        Dim3::new(1, 1, 1),
        0,
        stream,
        &mut args,
    );
    assert_eq!(rc, 0);
}

/// What the callback saw: the value, and whether it ran on the waiting thread.
static SEEN: Mutex<Vec<(u64, bool)>> = Mutex::new(Vec::new());

std::thread_local! {
    static WAITER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

unsafe extern "C" fn look(data: *mut c_void) {
    // SAFETY: the test passes a pinned u64 that outlives the stream's work.
    let v = unsafe { *(data as *const u64) };
    SEEN.lock()
        .expect("seen")
        .push((v, WAITER.with(|w| w.get())));
}

#[test]
fn callbacks_stay_on_the_stream_thread_between_launches_the_host_runs() {
    let f = module("increment", increment, INCREMENT_PARAMS);
    WAITER.with(|w| w.set(true));
    let mut s = std::ptr::null_mut();
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointers, callback and data.
    unsafe {
        assert_eq!(cudaStreamCreate(&mut s), 0);
        assert_eq!(cudaMallocHost(&mut p, 8), 0);
        *(p as *mut u64) = 0;
        for _ in 0..50 {
            launch_increment(f, p, s);
            assert_eq!(cudaLaunchHostFunc(s, Some(look), p), 0);
            launch_increment(f, p, s);
            assert_eq!(cudaStreamSynchronize(s), 0);
        }
        assert_eq!(*(p as *const u64), 100);
        assert_eq!(cudaStreamDestroy(s), 0);
        assert_eq!(cudaFreeHost(p), 0);
    }
    let seen = SEEN.lock().expect("seen");
    let want: Vec<(u64, bool)> = (0..50).map(|i| (2 * i + 1, false)).collect();
    assert_eq!(*seen, want);
}

static FLAG: AtomicBool = AtomicBool::new(false);

kernel! {
    fn set_flag(_a, _l, _b, _e, _s) {
        FLAG.store(true, Ordering::SeqCst);
    }
}

#[test]
fn launches_progress_while_the_host_does_not_wait() {
    let f = module("set_flag", set_flag, &[]);
    let mut args: [*mut c_void; 0] = [];
    let rc = launch(
        f,
        Dim3::new(3, 1, 1),
        Dim3::new(1, 1, 1),
        0,
        STREAM_LEGACY as cudaStream_t,
        &mut args,
    );
    assert_eq!(rc, 0);
    // No synchronising call: the kernel must still run.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !FLAG.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(FLAG.load(Ordering::SeqCst));
    let deadline = Instant::now() + Duration::from_secs(20);
    while cudaStreamQuery(STREAM_LEGACY as cudaStream_t) != 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(cudaStreamQuery(STREAM_LEGACY as cudaStream_t), 0);
}

#[test]
fn event_synchronize_sees_the_work_recorded_before_it() {
    let f = module("increment", increment, INCREMENT_PARAMS);
    let mut s = std::ptr::null_mut();
    let mut e = std::ptr::null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(cudaStreamCreateWithFlags(&mut s, STREAM_NON_BLOCKING), 0);
        assert_eq!(cudaEventCreate(&mut e), 0);
    }
    let d = dmalloc_zeroed_u64();
    for i in 1..=30u64 {
        launch_increment(f, d, s);
        assert_eq!(cudaEventRecord(e, s), 0);
        assert_eq!(cudaEventSynchronize(e), 0);
        assert_eq!(cudaEventQuery(e), 0);
        let mut got = 0u64;
        // A pageable destination: the copy returns once done.
        // SAFETY: `got` is pageable, so the copy is done when the call returns.
        let rc = unsafe { cudaMemcpyAsync(&mut got as *mut u64 as *mut c_void, d, 8, D2H, s) };
        assert_eq!(rc, 0);
        assert_eq!(cudaStreamSynchronize(s), 0);
        assert_eq!(got, i);
    }
    assert_eq!(cudaEventDestroy(e), 0);
    assert_eq!(cudaStreamDestroy(s), 0);
    assert_eq!(cudaFree(d), 0);
}

static TOTAL: AtomicU64 = AtomicU64::new(0);

#[test]
fn host_threads_waiting_on_shared_streams_keep_stream_order() {
    let f = module("increment", increment, INCREMENT_PARAMS) as usize;
    let mut shared = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaStreamCreate(&mut shared) }, 0);
    let shared = shared as usize;
    let threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let f = f as *const std::ffi::c_char;
                let stream = if t % 2 == 0 {
                    STREAM_LEGACY as cudaStream_t
                } else {
                    shared as cudaStream_t
                };
                let d = dmalloc_zeroed_u64();
                for i in 1..=200u64 {
                    launch_increment(f, d, stream);
                    launch_increment(f, d, stream);
                    let mut got = 0u64;
                    // SAFETY: `got` is a live u64.
                    let rc = unsafe { cudaMemcpy(&mut got as *mut u64 as *mut c_void, d, 8, D2H) };
                    assert_eq!(rc, 0);
                    assert_eq!(got, 2 * i);
                    if i % 3 == 0 {
                        assert_eq!(cudaStreamSynchronize(stream), 0);
                    }
                }
                TOTAL.fetch_add(1, Ordering::SeqCst);
                assert_eq!(cudaFree(d), 0);
            })
        })
        .collect();
    for t in threads {
        t.join().expect("host thread");
    }
    assert_eq!(TOTAL.load(Ordering::SeqCst), 4);
    assert_eq!(cudaStreamDestroy(shared as cudaStream_t), 0);
}

#[test]
fn streamed_launches_and_copies_keep_their_order() {
    // The host queues faster than the stream runs (the stream thread's
    // streaming mode), then waits once; copies in between see every earlier
    // launch.
    let f = module("increment", increment, INCREMENT_PARAMS);
    let d = dmalloc_zeroed_u64();
    let mut seen = vec![0u64; 10];
    let mut pinned = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMallocHost(&mut pinned, 8 * seen.len()) }, 0);
    for (i, _) in seen.iter().enumerate() {
        for _ in 0..100 {
            launch_increment(f, d, std::ptr::null_mut());
        }
        // Pinned destination: queued, not waited for.
        let dst = (pinned as usize + 8 * i) as *mut c_void;
        // SAFETY: `dst` is 8 bytes of the pinned buffer, freed only after the
        // synchronisation below.
        let rc = unsafe { cudaMemcpyAsync(dst, d, 8, D2H, std::ptr::null_mut()) };
        assert_eq!(rc, 0);
    }
    assert_eq!(cudaDeviceSynchronize(), 0);
    // SAFETY: the pinned buffer holds `seen.len()` u64s, all written.
    unsafe { std::ptr::copy_nonoverlapping(pinned as *const u64, seen.as_mut_ptr(), seen.len()) };
    let want: Vec<u64> = (1..=10).map(|i| 100 * i).collect();
    assert_eq!(seen, want);
    assert_eq!(cudaFreeHost(pinned), 0);
    assert_eq!(cudaFree(d), 0);
}
