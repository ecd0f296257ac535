//! Stream capture: between `cudaStreamBeginCapture` and
//! `cudaStreamEndCapture`, work submitted to a capturing stream becomes
//! nodes of a graph ([`crate::graph`]) instead of running.
//!
//! The entry points that can be recorded (kernel launches, 1D/2D/3D copies,
//! 1D/2D sets, host functions, event records and waits) ask [`record`] first;
//! each node depends on the stream's last recorded nodes. An event recorded
//! in a capturing stream remembers those nodes, and a stream that waits for
//! it joins the capture with them as its dependencies (CUDA's fork and
//! join across streams). Anything else that reaches a capturing stream's
//! queue is refused with `cudaErrorStreamCaptureUnsupported` and
//! invalidates the capture ([`refuse_if_capturing`], called where tasks
//! are queued), so nothing runs that the graph would miss.
//!
//! Locks: `CAPTURES` is taken before [`crate::graph`]'s, never the other way.
//! When no stream captures, the hooks cost one atomic load.

use crate::errors::{api, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::{cudaEvent_t, cudaStream_t, Dim3, STREAM_LEGACY};
use crate::graph::{cudaGraphNode_t, cudaGraph_t, Op};
use crate::stream::{resolve, Stream};
use crate::sync::lock;
use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

struct Capture {
    graph: usize,
    /// Whether the capture made the graph (else the program gave it).
    made_graph: bool,
    origin: usize,
    invalid: bool,
}

struct Member {
    capture: u64,
    /// The nodes the stream's next node depends on.
    last: Vec<usize>,
    /// What `cudaStreamGetCaptureInfo` last handed out (kept alive).
    deps_out: Box<[usize]>,
    edges_out: Box<[u64]>,
}

#[derive(Default)]
struct Captures {
    next: u64,
    captures: HashMap<u64, Capture>,
    /// Capturing streams by handle.
    streams: HashMap<usize, Member>,
    /// Events recorded in a capture: the capture and the nodes they follow.
    events: HashMap<usize, (u64, Vec<usize>)>,
}

static CAPTURES: Mutex<Option<Captures>> = Mutex::new(None);
/// Number of capturing streams: the hooks' fast path.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// `cudaThreadExchangeStreamCaptureMode`'s per-thread mode.
    static MODE: Cell<c_int> = const { Cell::new(0) };
}

fn with<T>(f: impl FnOnce(&mut Captures) -> T) -> T {
    let mut guard = lock(&CAPTURES);
    f(guard.get_or_insert_with(Captures::default))
}

fn active() -> bool {
    ACTIVE.load(Ordering::SeqCst) != 0
}

fn invalidate(c: &mut Captures, id: u64) {
    if let Some(cap) = c.captures.get_mut(&id) {
        cap.invalid = true;
    }
}

/// Records `op` as the next node of `stream` if it is capturing. `None`:
/// not capturing, run the work.
pub(crate) fn record(
    stream: &Arc<Stream>,
    op: impl FnOnce() -> CudaResult<Op>,
) -> Option<CudaResult> {
    if !active() {
        return None;
    }
    let h = stream.handle();
    let id = with(|c| c.streams.get(&h).map(|m| m.capture))?;
    let op = match op() {
        Ok(op) => op,
        Err(e) => {
            with(|c| invalidate(c, id));
            return Some(Err(e));
        }
    };
    Some(with(|c| {
        let Some(m) = c.streams.get(&h) else {
            return Err(Error::StreamCaptureInvalidated);
        };
        let cap = c
            .captures
            .get(&m.capture)
            .ok_or(Error::StreamCaptureInvalidated)?;
        if cap.invalid {
            return Err(Error::StreamCaptureInvalidated);
        }
        let node = crate::graph::captured(cap.graph, &m.last, op)?;
        if let Some(m) = c.streams.get_mut(&h) {
            m.last = vec![node];
        }
        Ok(())
    }))
}

/// Records a kernel launch (arguments copied now).
///
/// # Safety
/// `args` as for `cudaLaunchKernel`.
pub(crate) unsafe fn kernel(
    stream: &Arc<Stream>,
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
) -> Option<CudaResult> {
    record(stream, || {
        // SAFETY: forwarded contract.
        Ok(Op::Kernel(unsafe {
            crate::graph::KernelOp::capture(func, grid, block, shared, args)?
        }))
    })
}

/// Records a 1D copy (`cudaMemcpyAsync` and the copies built on it).
pub(crate) fn memcpy_1d(
    stream: &Arc<Stream>,
    dst: usize,
    src: usize,
    count: usize,
    kind: c_int,
) -> Option<CudaResult> {
    record(stream, || {
        Ok(Op::Memcpy1D {
            dst,
            src,
            count,
            kind,
        })
    })
}

/// Records a pitched 2D copy; `shape` is `[dpitch, spitch, width, height]`.
pub(crate) fn memcpy_2d(
    stream: &Arc<Stream>,
    dst: usize,
    src: usize,
    shape: [usize; 4],
    kind: c_int,
) -> Option<CudaResult> {
    let [dpitch, spitch, width, height] = shape;
    record(stream, || {
        Ok(Op::Memcpy2D {
            dst,
            dpitch,
            src,
            spitch,
            width,
            height,
            kind,
        })
    })
}

/// Records a host function (`cudaLaunchHostFunc`).
pub(crate) fn host_func(stream: &Arc<Stream>, func: usize, data: usize) -> Option<CudaResult> {
    record(stream, || Ok(Op::Host { func, data }))
}

/// Records a byte fill of a pitched region.
pub(crate) fn memset_2d(
    stream: &Arc<Stream>,
    ptr: usize,
    pitch: usize,
    value: u8,
    width: usize,
    height: usize,
) -> Option<CudaResult> {
    record(stream, || {
        Ok(Op::Memset(crate::graph::MemsetOp::bytes(
            ptr, pitch, value, width, height,
        )))
    })
}

/// Fails work that cannot be recorded while `stream` captures, and
/// invalidates the capture.
pub(crate) fn refuse_if_capturing(stream: &Stream) -> CudaResult {
    if !active() {
        return Ok(());
    }
    let h = stream.handle();
    with(|c| match c.streams.get(&h).map(|m| m.capture) {
        Some(id) => {
            invalidate(c, id);
            Err(Error::StreamCaptureUnsupported)
        }
        None => Ok(()),
    })
}

/// `cudaEventRecord` on a capturing stream: the event remembers the
/// stream's last nodes. On other streams it stops being a capture event.
pub(crate) fn event_record(event: cudaEvent_t, stream: &Arc<Stream>) -> Option<CudaResult> {
    if !active() {
        return None;
    }
    if let Err(e) = crate::event::lookup_event(event) {
        return Some(Err(e));
    }
    let h = stream.handle();
    with(|c| match c.streams.get(&h) {
        Some(m) => {
            let entry = (m.capture, m.last.clone());
            c.events.insert(event as usize, entry);
            Some(Ok(()))
        }
        None => {
            c.events.remove(&(event as usize));
            None
        }
    })
}

/// `cudaStreamWaitEvent`: waiting for a capture event joins the stream to
/// the capture (or adds the event's nodes to its dependencies); a
/// capturing stream waiting for another event records a wait node.
pub(crate) fn event_wait(stream: &Arc<Stream>, event: cudaEvent_t) -> Option<CudaResult> {
    if !active() {
        return None;
    }
    let h = stream.handle();
    let joined = with(|c| {
        let (id, nodes) = c.events.get(&(event as usize))?.clone();
        Some(match c.streams.get_mut(&h) {
            Some(m) if m.capture == id => {
                for n in nodes {
                    if !m.last.contains(&n) {
                        m.last.push(n);
                    }
                }
                Ok(())
            }
            Some(m) => {
                let other = m.capture;
                invalidate(c, other);
                invalidate(c, id);
                Err(Error::StreamCaptureUnsupported)
            }
            None if h == STREAM_LEGACY => Err(Error::StreamCaptureImplicit),
            None => {
                c.streams.insert(
                    h,
                    Member {
                        capture: id,
                        last: nodes,
                        deps_out: Box::new([]),
                        edges_out: Box::new([]),
                    },
                );
                ACTIVE.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }
        })
    });
    if joined.is_some() {
        return joined;
    }
    record(stream, || {
        crate::event::lookup_event(event)?;
        Ok(Op::EventWait(event as usize))
    })
}

fn begin(stream: &Arc<Stream>, graph: Option<usize>, deps: Vec<usize>, mode: c_int) -> CudaResult {
    if !(0..=2).contains(&mode) {
        return Err(Error::InvalidValue);
    }
    let h = stream.handle();
    if h == STREAM_LEGACY {
        return Err(Error::StreamCaptureUnsupported);
    }
    if let Some(g) = graph {
        if !crate::graph::exists(g) || deps.iter().any(|&d| !crate::graph::node_in(d, g)) {
            return Err(Error::InvalidValue);
        }
    }
    with(|c| {
        if c.streams.contains_key(&h) {
            return Err(Error::IllegalState);
        }
        let made_graph = graph.is_none();
        let graph = graph.unwrap_or_else(crate::graph::create);
        c.next += 1;
        let id = c.next;
        c.captures.insert(
            id,
            Capture {
                graph,
                made_graph,
                origin: h,
                invalid: false,
            },
        );
        c.streams.insert(
            h,
            Member {
                capture: id,
                last: deps,
                deps_out: Box::new([]),
                edges_out: Box::new([]),
            },
        );
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        Ok(())
    })
}

fn end(stream: &Arc<Stream>) -> CudaResult<usize> {
    let h = stream.handle();
    let (graph, made, invalid) = with(|c| {
        let id = c.streams.get(&h).ok_or(Error::IllegalState)?.capture;
        let cap = c.captures.get(&id).ok_or(Error::IllegalState)?;
        if cap.origin != h {
            return Err(Error::StreamCaptureUnmatched);
        }
        let before = c.streams.len();
        c.streams.retain(|_, m| m.capture != id);
        ACTIVE.fetch_sub(before - c.streams.len(), Ordering::SeqCst);
        c.events.retain(|_, (cid, _)| *cid != id);
        let cap = c.captures.remove(&id).ok_or(Error::IllegalState)?;
        Ok((cap.graph, cap.invalid && cap.made_graph, cap.invalid))
    })?;
    if invalid {
        if made {
            crate::graph::destroy(graph);
        }
        return Err(Error::StreamCaptureInvalidated);
    }
    Ok(graph)
}

/// `cudaStreamCaptureStatus` of a stream: 0 none, 1 active, 2 invalidated.
fn status(stream: &Stream) -> (c_int, u64, usize) {
    if !active() {
        return (0, 0, 0);
    }
    with(|c| {
        let Some(m) = c.streams.get(&stream.handle()) else {
            return (0, 0, 0);
        };
        match c.captures.get(&m.capture) {
            Some(cap) if cap.invalid => (2, m.capture, cap.graph),
            Some(cap) => (1, m.capture, cap.graph),
            None => (0, 0, 0),
        }
    })
}

/// Starts capturing `stream` into a new graph.
#[no_mangle]
pub extern "C" fn cudaStreamBeginCapture(stream: cudaStream_t, mode: c_int) -> cudaError_t {
    api(|| begin(&resolve(stream)?, None, Vec::new(), mode))
}

/// Reads the dependency list of a capture into an existing graph.
///
/// # Safety
/// `deps` `n` readable handles; `edges` NULL or `n` readable 8-byte entries.
unsafe fn deps_in(
    deps: *const cudaGraphNode_t,
    edges: *const c_void,
    n: usize,
) -> CudaResult<Vec<usize>> {
    if n > 0 && deps.is_null() {
        return Err(Error::InvalidValue);
    }
    if !edges.is_null() && n > 0 {
        // SAFETY: the caller's contract.
        let e = unsafe { std::slice::from_raw_parts(edges as *const u64, n) };
        if e.iter().any(|&x| x != 0) {
            crate::unsupported::note("capture dependencies with edge data");
            return Err(Error::NotSupported);
        }
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: checked non-null; the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(deps, n) }
        .iter()
        .map(|&d| d as usize)
        .collect())
}

/// Starts capturing `stream` into an existing graph, after `deps`.
///
/// # Safety
/// As [`deps_in`].
#[no_mangle]
pub unsafe extern "C" fn cudaStreamBeginCaptureToGraph(
    stream: cudaStream_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    edges: *const c_void,
    n: usize,
    mode: c_int,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        let d = unsafe { deps_in(deps, edges, n)? };
        begin(&resolve(stream)?, Some(graph as usize), d, mode)
    })
}

/// Ends the capture begun on `stream` and hands out its graph (NULL and
/// `cudaErrorStreamCaptureInvalidated` if something could not be recorded).
///
/// # Safety
/// `graph` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamEndCapture(
    stream: cudaStream_t,
    graph: *mut cudaGraph_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { end_into(resolve(stream)?, graph) })
}

/// # Safety
/// `graph` NULL or writable.
unsafe fn end_into(stream: Arc<Stream>, graph: *mut cudaGraph_t) -> CudaResult {
    non_null(graph)?;
    let r = end(&stream);
    let g = *r.as_ref().unwrap_or(&0);
    // SAFETY: checked non-null; caller promises validity.
    unsafe { graph.write(g as cudaGraph_t) };
    r.map(|_| ())
}

/// Whether `stream` is capturing.
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamIsCapturing(
    stream: cudaStream_t,
    out: *mut c_int,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(out, status(&*resolve(stream)?).0) })
}

/// # Safety
/// Each pointer NULL or writable.
unsafe fn capture_info(
    stream: Arc<Stream>,
    status_out: *mut c_int,
    id_out: *mut u64,
    graph_out: *mut cudaGraph_t,
    deps_out: *mut *const cudaGraphNode_t,
    edges_out: *mut *const c_void,
    n_out: *mut usize,
) -> CudaResult {
    non_null(status_out)?;
    let (st, id, graph) = status(&stream);
    let h = stream.handle();
    // Snapshots kept in the member until the next query, as CUDA keeps them.
    let (deps, edges, n) = with(|c| match c.streams.get_mut(&h) {
        Some(m) if st == 1 => {
            m.deps_out = m.last.clone().into_boxed_slice();
            m.edges_out = vec![0u64; m.last.len()].into_boxed_slice();
            (
                m.deps_out.as_ptr() as *const cudaGraphNode_t,
                m.edges_out.as_ptr() as *const c_void,
                m.last.len(),
            )
        }
        _ => (std::ptr::null(), std::ptr::null(), 0),
    });
    // SAFETY: the caller's contract; each checked for NULL.
    unsafe {
        status_out.write(st);
        if st == 1 {
            if !id_out.is_null() {
                id_out.write(id);
            }
            if !graph_out.is_null() {
                graph_out.write(graph as cudaGraph_t);
            }
            if !deps_out.is_null() {
                deps_out.write(deps);
            }
            if !edges_out.is_null() {
                edges_out.write(edges);
            }
            if !n_out.is_null() {
                n_out.write(n);
            }
        }
    }
    Ok(())
}

/// The capture status, id, graph and current dependencies of a stream.
///
/// # Safety
/// Each pointer NULL or writable (`status` must not be NULL).
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetCaptureInfo(
    stream: cudaStream_t,
    status_out: *mut c_int,
    id_out: *mut u64,
    graph_out: *mut cudaGraph_t,
    deps_out: *mut *const cudaGraphNode_t,
    edges_out: *mut *const c_void,
    n_out: *mut usize,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        unsafe {
            capture_info(
                resolve(stream)?,
                status_out,
                id_out,
                graph_out,
                deps_out,
                edges_out,
                n_out,
            )
        }
    })
}

/// # Safety
/// As [`deps_in`].
unsafe fn update_deps(
    stream: Arc<Stream>,
    deps: *const cudaGraphNode_t,
    edges: *const c_void,
    n: usize,
    flags: u32,
) -> CudaResult {
    // SAFETY: forwarded contract.
    let new = unsafe { deps_in(deps, edges, n)? };
    let h = stream.handle();
    with(|c| {
        let m = c.streams.get_mut(&h).ok_or(Error::IllegalState)?;
        match flags {
            // cudaStreamAddCaptureDependencies
            0 => {
                for d in new {
                    if !m.last.contains(&d) {
                        m.last.push(d);
                    }
                }
            }
            // cudaStreamSetCaptureDependencies
            1 => m.last = new,
            _ => return Err(Error::InvalidValue),
        }
        Ok(())
    })
}

/// Adds to or replaces the nodes a capturing stream's next node depends on.
///
/// # Safety
/// As [`deps_in`].
#[no_mangle]
pub unsafe extern "C" fn cudaStreamUpdateCaptureDependencies(
    stream: cudaStream_t,
    deps: *const cudaGraphNode_t,
    edges: *const c_void,
    n: usize,
    flags: u32,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { update_deps(resolve(stream)?, deps, edges, n, flags) })
}

crate::ptsz::ptsz_first_forms! {
    cudaStreamBeginCapture_ptsz => capture::cudaStreamBeginCapture (mode: c_int);
    cudaStreamBeginCaptureToGraph_ptsz => capture::cudaStreamBeginCaptureToGraph (graph: cudaGraph_t, deps: *const cudaGraphNode_t, edges: *const c_void, n: usize, mode: c_int);
    cudaStreamEndCapture_ptsz => capture::cudaStreamEndCapture (graph: *mut cudaGraph_t);
    cudaStreamIsCapturing_ptsz => capture::cudaStreamIsCapturing (out: *mut c_int);
    cudaStreamGetCaptureInfo_ptsz => capture::cudaStreamGetCaptureInfo (status_out: *mut c_int, id_out: *mut u64, graph_out: *mut cudaGraph_t, deps_out: *mut *const cudaGraphNode_t, edges_out: *mut *const c_void, n_out: *mut usize);
    cudaStreamUpdateCaptureDependencies_ptsz => capture::cudaStreamUpdateCaptureDependencies (deps: *const cudaGraphNode_t, edges: *const c_void, n: usize, flags: u32);
}

/// Swaps the calling thread's capture interaction mode (recorded; the CPU
/// runtime does not forbid calls in other threads during a capture).
///
/// # Safety
/// `mode` NULL or read-write.
#[no_mangle]
pub unsafe extern "C" fn cudaThreadExchangeStreamCaptureMode(mode: *mut c_int) -> cudaError_t {
    api(|| {
        non_null(mode)?;
        // SAFETY: checked non-null.
        let new = unsafe { mode.read() };
        if !(0..=2).contains(&new) {
            return Err(Error::InvalidValue);
        }
        let old = MODE.with(|m| m.replace(new));
        // SAFETY: checked non-null.
        unsafe { mode.write(old) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_do_nothing_when_no_stream_captures() {
        if !active() {
            let s = crate::stream::per_thread().unwrap();
            assert!(record(&s, || Ok(Op::Empty)).is_none());
            assert_eq!(refuse_if_capturing(&s), Ok(()));
        }
    }
}
