//! CUDA graphs: nodes and dependencies built explicitly or by stream capture
//! ([`crate::capture`]), instantiated into executable graphs and launched.
//!
//! A graph is a recorded task list. Instantiation orders the nodes
//! topologically (children of child-graph nodes inlined) into a plan; a
//! launch replays the plan into the target stream through the ordinary
//! entry points (`cudaLaunchKernel`, `cudaMemcpyAsync`, ...), one after the
//! other. A stream runs its tasks in order, so that order satisfies every
//! dependency; nodes without a path between them do not run concurrently,
//! which CUDA permits. Replaying through the entry points reuses their
//! validation and the stream machinery, and a graph launched into a
//! capturing stream is itself recorded.
//!
//! Kernel arguments are copied when a node is added (CUDA's semantics), so
//! the program may reuse its argument array at once.
//!
//! Locks: `STATE` is a leaf; no entry point is called while it is held (a
//! launch copies the plan out first). [`crate::capture`]'s lock is taken
//! before it.

use crate::errors::{api, api_dev, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::{cudaEvent_t, cudaMemcpy3DParms, cudaPitchedPtr, cudaPos, cudaStream_t, Dim3};
use crate::sync::lock;
use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::Mutex;

/// `cudaGraph_t`.
#[allow(non_camel_case_types)]
pub type cudaGraph_t = *mut c_void;
/// `cudaGraphNode_t`.
#[allow(non_camel_case_types)]
pub type cudaGraphNode_t = *mut c_void;
/// `cudaGraphExec_t`.
#[allow(non_camel_case_types)]
pub type cudaGraphExec_t = *mut c_void;

/// `struct cudaKernelNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaKernelNodeParams {
    /// The kernel's host stub.
    pub func: *mut c_void,
    /// Grid extent.
    pub grid: Dim3,
    /// Block extent.
    pub block: Dim3,
    /// Dynamic shared memory in bytes.
    pub shared: c_uint,
    /// One pointer per kernel parameter.
    pub kernel_params: *mut *mut c_void,
    /// Packed arguments (not supported).
    pub extra: *mut *mut c_void,
}

/// `struct cudaMemsetParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaMemsetParams {
    /// Destination (device memory).
    pub dst: *mut c_void,
    /// Row pitch in bytes.
    pub pitch: usize,
    /// The value, of `element_size` bytes.
    pub value: c_uint,
    /// 1, 2 or 4.
    pub element_size: c_uint,
    /// Elements per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// `struct cudaHostNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct cudaHostNodeParams {
    /// The host function.
    pub func: crate::stream::HostFn,
    /// Its argument.
    pub user_data: *mut c_void,
}

/// `struct cudaGraphExecUpdateResultInfo`.
#[repr(C)]
pub struct cudaGraphExecUpdateResultInfo {
    /// `cudaGraphExecUpdateResult`.
    pub result: c_int,
    /// The node that failed the update, or NULL.
    pub error_node: cudaGraphNode_t,
    /// The node of the executable graph it was matched with, or NULL.
    pub error_from_node: cudaGraphNode_t,
}

/// `struct cudaGraphInstantiateParams`.
#[repr(C)]
pub struct cudaGraphInstantiateParams {
    /// Instantiation flags.
    pub flags: u64,
    /// Stream for `cudaGraphInstantiateFlagUpload`.
    pub upload_stream: cudaStream_t,
    /// Out: the node that failed, or NULL.
    pub err_node_out: cudaGraphNode_t,
    /// Out: `cudaGraphInstantiateResult`.
    pub result_out: c_int,
}

/// A kernel launch held by a node: the stub, the shape and a copy of the
/// arguments (8-byte aligned; the launch copies them again).
pub(crate) struct KernelOp {
    func: usize,
    grid: Dim3,
    block: Dim3,
    shared: c_uint,
    args: Vec<Box<[u64]>>,
    /// Pointers into `args`, handed out by `cudaGraphKernelNodeGetParams`.
    ptrs: Vec<usize>,
}

impl Clone for KernelOp {
    fn clone(&self) -> Self {
        KernelOp::new(
            self.func,
            self.grid,
            self.block,
            self.shared,
            self.args.clone(),
        )
    }
}

impl KernelOp {
    fn new(func: usize, grid: Dim3, block: Dim3, shared: c_uint, args: Vec<Box<[u64]>>) -> Self {
        let ptrs = args.iter().map(|a| a.as_ptr() as usize).collect();
        KernelOp {
            func,
            grid,
            block,
            shared,
            args,
            ptrs,
        }
    }

    /// Copies a launch's arguments (their sizes are the kernel's).
    ///
    /// # Safety
    /// `args` must hold one readable pointer per kernel parameter, each to
    /// a value of the parameter's size.
    pub(crate) unsafe fn capture(
        func: *const c_void,
        grid: Dim3,
        block: Dim3,
        shared: usize,
        args: *mut *mut c_void,
    ) -> CudaResult<Self> {
        let k = crate::registry::function(func)?.kernel()?;
        let shared = c_uint::try_from(shared).map_err(|_| Error::InvalidValue)?;
        if !k.param_sizes.is_empty() && args.is_null() {
            return Err(Error::InvalidValue);
        }
        let mut copies = Vec::with_capacity(k.param_sizes.len());
        for (i, &size) in k.param_sizes.iter().enumerate() {
            let mut buf = vec![0u64; (size as usize).div_ceil(8)].into_boxed_slice();
            // SAFETY: the caller's contract for `args`.
            let src = unsafe { *args.add(i) };
            if src.is_null() && size > 0 {
                return Err(Error::InvalidValue);
            }
            // SAFETY: `src` holds `size` readable bytes; `buf` has room.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    src as *const u8,
                    buf.as_mut_ptr() as *mut u8,
                    size as usize,
                )
            };
            copies.push(buf);
        }
        Ok(KernelOp::new(func as usize, grid, block, shared, copies))
    }

    /// # Safety
    /// As [`KernelOp::capture`], for `p.kernel_params`.
    pub(crate) unsafe fn from_params(p: &cudaKernelNodeParams) -> CudaResult<Self> {
        if !p.extra.is_null() {
            crate::unsupported::note("kernel node arguments packed in `extra`");
            return Err(Error::NotSupported);
        }
        // SAFETY: forwarded contract.
        unsafe { KernelOp::capture(p.func, p.grid, p.block, p.shared as usize, p.kernel_params) }
    }

    pub(crate) fn params(&self) -> cudaKernelNodeParams {
        cudaKernelNodeParams {
            func: self.func as *mut c_void,
            grid: self.grid,
            block: self.block,
            shared: self.shared,
            kernel_params: self.ptrs.as_ptr() as *mut *mut c_void,
            extra: std::ptr::null_mut(),
        }
    }
}

/// A fill of `element_size`-byte values over a pitched region.
#[derive(Clone, Copy)]
pub(crate) struct MemsetOp {
    pub(crate) dst: usize,
    pub(crate) pitch: usize,
    pub(crate) value: u32,
    pub(crate) element_size: u32,
    pub(crate) width: usize,
    pub(crate) height: usize,
}

impl MemsetOp {
    /// The parameters as `cudaMemsetParams`.
    pub(crate) fn to_params(self) -> cudaMemsetParams {
        self.params()
    }

    /// A byte fill (`cudaMemset*Async` captured).
    pub(crate) fn bytes(dst: usize, pitch: usize, value: u8, width: usize, height: usize) -> Self {
        MemsetOp {
            dst,
            pitch,
            value: value as u32,
            element_size: 1,
            width,
            height,
        }
    }

    pub(crate) fn from_params(p: &cudaMemsetParams) -> CudaResult<Self> {
        let op = MemsetOp {
            dst: p.dst as usize,
            pitch: p.pitch,
            value: p.value,
            element_size: p.element_size,
            width: p.width,
            height: p.height,
        };
        if !matches!(op.element_size, 1 | 2 | 4) || op.dst == 0 {
            return Err(Error::InvalidValue);
        }
        let row = op.row_bytes()?;
        if op.height > 1 && row > op.pitch {
            return Err(Error::InvalidValue);
        }
        if op.width > 0 && op.height > 0 {
            crate::memory::check_device_range(op.dst, op.extent()?)?;
        }
        Ok(op)
    }

    fn row_bytes(&self) -> CudaResult<usize> {
        self.width
            .checked_mul(self.element_size as usize)
            .ok_or(Error::InvalidValue)
    }

    fn extent(&self) -> CudaResult<usize> {
        let row = self.row_bytes()?;
        self.pitch
            .checked_mul(self.height.saturating_sub(1))
            .and_then(|b| b.checked_add(row))
            .ok_or(Error::InvalidValue)
    }

    fn params(&self) -> cudaMemsetParams {
        cudaMemsetParams {
            dst: self.dst as *mut c_void,
            pitch: self.pitch,
            value: self.value,
            element_size: self.element_size,
            width: self.width,
            height: self.height,
        }
    }
}

/// What a node does.
#[derive(Clone)]
pub(crate) enum Op {
    Kernel(KernelOp),
    /// `cudaMemcpyAsync`.
    Memcpy1D {
        dst: usize,
        src: usize,
        count: usize,
        kind: c_int,
    },
    /// `cudaMemcpy2DAsync`.
    Memcpy2D {
        dst: usize,
        dpitch: usize,
        src: usize,
        spitch: usize,
        width: usize,
        height: usize,
        kind: c_int,
    },
    /// `cudaMemcpy3DAsync`.
    Memcpy3D(Box<cudaMemcpy3DParms>),
    Memset(MemsetOp),
    Host {
        func: usize,
        data: usize,
    },
    /// A child graph, owned by the node (a clone of the graph given).
    Child(usize),
    Empty,
    EventRecord(usize),
    EventWait(usize),
}

// SAFETY: the raw pointers an op holds are addresses the program promised
// stay valid while the graph may run (CUDA's contract); the runtime only
// hands them back to its own entry points.
unsafe impl Send for Op {}

impl Op {
    /// `cudaGraphNodeType`.
    fn node_type(&self) -> c_int {
        match self {
            Op::Kernel(_) => 0,
            Op::Memcpy1D { .. } | Op::Memcpy2D { .. } | Op::Memcpy3D(_) => 1,
            Op::Memset(_) => 2,
            Op::Host { .. } => 3,
            Op::Child(_) => 4,
            Op::Empty => 5,
            Op::EventWait(_) => 6,
            Op::EventRecord(_) => 7,
        }
    }
}

struct Node {
    graph: usize,
    op: Op,
    deps: Vec<usize>,
    /// Position in its graph at creation (`cudaGraphNodeGetLocalId`).
    local_id: u32,
}

#[derive(Default)]
struct Graph {
    nodes: Vec<usize>,
    id: u32,
    /// Owned by a child-graph node: destroyed with it.
    owned: bool,
    next_local: u32,
}

/// One step of an executable graph: the node it came from and its op.
#[derive(Clone)]
struct Step {
    node: usize,
    op: Op,
}

struct Exec {
    steps: Vec<Step>,
    flags: u64,
    shape: Shape,
    id: u32,
}

/// The structure an update must preserve: per node in order, its type,
/// its dependencies' positions and (for child graphs) the child's shape.
#[derive(PartialEq, Eq, Debug)]
struct Shape(Vec<(c_int, Vec<usize>, Option<Shape>)>);

#[derive(Default)]
struct State {
    next: u64,
    graphs: HashMap<usize, Graph>,
    nodes: HashMap<usize, Node>,
    execs: HashMap<usize, Exec>,
    /// Launch attributes set on kernel nodes (recorded and reported back:
    /// none changes how a kernel runs here), by node and attribute id.
    attrs: HashMap<usize, HashMap<c_int, [u64; 8]>>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

const GRAPH_BASE: usize = 0x6100_0000_0000;
const NODE_BASE: usize = 0x6200_0000_0000;
const EXEC_BASE: usize = 0x6300_0000_0000;

fn with_state<T>(f: impl FnOnce(&mut State) -> T) -> T {
    let mut guard = lock(&STATE);
    f(guard.get_or_insert_with(State::default))
}

impl State {
    fn handle(&mut self, base: usize) -> usize {
        self.next += 1;
        base + self.next as usize * 16
    }

    fn new_graph(&mut self, owned: bool) -> usize {
        let h = self.handle(GRAPH_BASE);
        let id = self.next as u32;
        self.graphs.insert(
            h,
            Graph {
                id,
                owned,
                ..Graph::default()
            },
        );
        h
    }

    fn add(&mut self, graph: usize, deps: &[usize], op: Op) -> CudaResult<usize> {
        if !self.graphs.contains_key(&graph) {
            return Err(Error::InvalidValue);
        }
        for (i, d) in deps.iter().enumerate() {
            match self.nodes.get(d) {
                Some(n) if n.graph == graph => {}
                _ => return Err(Error::InvalidValue),
            }
            if deps[..i].contains(d) {
                return Err(Error::InvalidValue);
            }
        }
        let h = self.handle(NODE_BASE);
        let g = self.graphs.get_mut(&graph).ok_or(Error::InvalidValue)?;
        let local_id = g.next_local;
        g.next_local += 1;
        g.nodes.push(h);
        self.nodes.insert(
            h,
            Node {
                graph,
                op,
                deps: deps.to_vec(),
                local_id,
            },
        );
        Ok(h)
    }

    /// Copies graph `src` into a new graph (`owned`: a child's).
    fn clone_graph(
        &mut self,
        src: usize,
        owned: bool,
    ) -> CudaResult<(usize, HashMap<usize, usize>)> {
        let order = self
            .graphs
            .get(&src)
            .ok_or(Error::InvalidValue)?
            .nodes
            .clone();
        let dst = self.new_graph(owned);
        let mut map = HashMap::new();
        for n in order {
            let node = self.nodes.get(&n).ok_or(Error::InvalidValue)?;
            let deps: Vec<usize> = node
                .deps
                .iter()
                .filter_map(|d| map.get(d).copied())
                .collect();
            let op = match &node.op {
                Op::Child(c) => {
                    let c = *c;
                    Op::Child(self.clone_graph(c, true)?.0)
                }
                op => op.clone(),
            };
            let h = self.add(dst, &deps, op)?;
            map.insert(n, h);
        }
        Ok((dst, map))
    }

    fn destroy_node(&mut self, node: usize) {
        self.attrs.remove(&node);
        if let Some(n) = self.nodes.remove(&node) {
            if let Op::Child(c) = n.op {
                self.destroy_graph(c);
            }
            if let Some(g) = self.graphs.get_mut(&n.graph) {
                g.nodes.retain(|&x| x != node);
                for &other in &g.nodes {
                    if let Some(o) = self.nodes.get_mut(&other) {
                        o.deps.retain(|&d| d != node);
                    }
                }
            }
        }
    }

    fn destroy_graph(&mut self, graph: usize) {
        if let Some(g) = self.graphs.remove(&graph) {
            for n in g.nodes {
                self.attrs.remove(&n);
                if let Some(node) = self.nodes.remove(&n) {
                    if let Op::Child(c) = node.op {
                        self.destroy_graph(c);
                    }
                }
            }
        }
    }

    /// Whether `target` is `graph` or a child graph inside it.
    fn reaches(&self, graph: usize, target: usize) -> bool {
        graph == target
            || self.graphs.get(&graph).is_some_and(|g| {
                g.nodes.iter().any(|n| match self.nodes.get(n) {
                    Some(Node {
                        op: Op::Child(c), ..
                    }) => self.reaches(*c, target),
                    _ => false,
                })
            })
    }

    /// The nodes of `graph` in a dependency-respecting order (creation
    /// order among ready nodes).
    fn topo(&self, graph: usize) -> CudaResult<Vec<usize>> {
        let g = self.graphs.get(&graph).ok_or(Error::InvalidValue)?;
        let mut done: Vec<usize> = Vec::with_capacity(g.nodes.len());
        let mut left: Vec<usize> = g.nodes.clone();
        while !left.is_empty() {
            let before = left.len();
            let mut i = 0;
            while i < left.len() {
                let n = left[i];
                let ready = self
                    .nodes
                    .get(&n)
                    .is_some_and(|node| node.deps.iter().all(|d| done.contains(d)));
                if ready {
                    done.push(n);
                    left.remove(i);
                } else {
                    i += 1;
                }
            }
            if left.len() == before {
                // A cycle.
                return Err(Error::InvalidValue);
            }
        }
        Ok(done)
    }

    fn plan(&self, graph: usize, out: &mut Vec<Step>) -> CudaResult {
        for n in self.topo(graph)? {
            let node = self.nodes.get(&n).ok_or(Error::InvalidValue)?;
            match &node.op {
                Op::Child(c) => self.plan(*c, out)?,
                Op::Empty => {}
                op => out.push(Step {
                    node: n,
                    op: op.clone(),
                }),
            }
        }
        Ok(())
    }

    fn shape(&self, graph: usize) -> CudaResult<Shape> {
        let g = self.graphs.get(&graph).ok_or(Error::InvalidValue)?;
        let mut out = Vec::with_capacity(g.nodes.len());
        for n in &g.nodes {
            let node = self.nodes.get(n).ok_or(Error::InvalidValue)?;
            let mut deps: Vec<usize> = node
                .deps
                .iter()
                .filter_map(|d| g.nodes.iter().position(|x| x == d))
                .collect();
            deps.sort_unstable();
            let child = match node.op {
                Op::Child(c) => Some(self.shape(c)?),
                _ => None,
            };
            out.push((node.op.node_type(), deps, child));
        }
        Ok(Shape(out))
    }

    fn instantiate(&mut self, graph: usize, flags: u64) -> CudaResult<usize> {
        let mut steps = Vec::new();
        self.plan(graph, &mut steps)?;
        let shape = self.shape(graph)?;
        let h = self.handle(EXEC_BASE);
        let id = self.next as u32;
        self.execs.insert(
            h,
            Exec {
                steps,
                flags,
                shape,
                id,
            },
        );
        Ok(h)
    }
}

/// Adds a node to `graph` after `deps` (capture's entry).
pub(crate) fn add_node(graph: usize, deps: &[usize], op: Op) -> CudaResult<usize> {
    with_state(|s| s.add(graph, deps, op))
}

/// Creates an empty graph (capture's entry).
pub(crate) fn create() -> usize {
    with_state(|s| s.new_graph(false))
}

/// Destroys a graph (an invalidated capture's).
pub(crate) fn destroy(graph: usize) {
    with_state(|s| s.destroy_graph(graph));
}

/// Whether `graph` names a graph the program may use.
pub(crate) fn exists(graph: usize) -> bool {
    with_state(|s| s.graphs.contains_key(&graph))
}

/// Whether `node` is a node of `graph`.
pub(crate) fn node_in(node: usize, graph: usize) -> bool {
    with_state(|s| s.nodes.get(&node).is_some_and(|n| n.graph == graph))
}

fn code(c: cudaError_t) -> CudaResult {
    if c == 0 {
        Ok(())
    } else {
        Err(Error::from_code(c).unwrap_or(Error::Unknown))
    }
}

/// Queues one step on `stream` through the runtime's entry points.
fn replay(op: &Op, stream: cudaStream_t) -> CudaResult {
    match op {
        Op::Kernel(k) => {
            let mut ptrs: Vec<*mut c_void> =
                k.args.iter().map(|a| a.as_ptr() as *mut c_void).collect();
            // SAFETY: one pointer per parameter, to copies of the kernel's sizes.
            code(unsafe {
                crate::launch::cudaLaunchKernel(
                    k.func as *const c_void,
                    k.grid,
                    k.block,
                    ptrs.as_mut_ptr(),
                    k.shared as usize,
                    stream,
                )
            })
        }
        Op::Memcpy1D {
            dst,
            src,
            count,
            kind,
        } => {
            // SAFETY: the program's addresses, as it gave them to the node.
            code(unsafe {
                crate::memory::cudaMemcpyAsync(
                    *dst as *mut c_void,
                    *src as *const c_void,
                    *count,
                    *kind,
                    stream,
                )
            })
        }
        Op::Memcpy2D {
            dst,
            dpitch,
            src,
            spitch,
            width,
            height,
            kind,
        } => {
            // SAFETY: as above.
            code(unsafe {
                crate::memory::cudaMemcpy2DAsync(
                    *dst as *mut c_void,
                    *dpitch,
                    *src as *const c_void,
                    *spitch,
                    *width,
                    *height,
                    *kind,
                    stream,
                )
            })
        }
        // SAFETY: as above.
        Op::Memcpy3D(p) => code(unsafe { crate::array::cudaMemcpy3DAsync(&**p, stream) }),
        Op::Memset(m) if m.element_size == 1 => code(crate::memory::cudaMemset2DAsync(
            m.dst as *mut c_void,
            m.pitch.max(m.width),
            m.value as u8 as c_int,
            m.width,
            m.height,
            stream,
        )),
        Op::Memset(m) => {
            let m = *m;
            if m.width == 0 || m.height == 0 {
                return Ok(());
            }
            crate::memory::check_device_range(m.dst, m.extent()?)?;
            let s = crate::stream::resolve(stream)?;
            crate::stream::submit(&s, move || fill(&m))?;
            Ok(())
        }
        Op::Host { func, data } => {
            // SAFETY: a function pointer the program gave the node.
            let f: crate::stream::HostFn =
                unsafe { std::mem::transmute::<usize, crate::stream::HostFn>(*func) };
            // SAFETY: the program's host function and data.
            code(unsafe { crate::stream::cudaLaunchHostFunc(stream, f, *data as *mut c_void) })
        }
        Op::EventRecord(e) => code(crate::event::cudaEventRecord(*e as cudaEvent_t, stream)),
        Op::EventWait(e) => code(crate::event::cudaStreamWaitEvent(
            stream,
            *e as cudaEvent_t,
            0,
        )),
        Op::Child(_) | Op::Empty => Ok(()),
    }
}

/// Writes 2- or 4-byte values over a validated pitched region.
fn fill(m: &MemsetOp) {
    for row in 0..m.height {
        let base = m.dst + row * m.pitch;
        for i in 0..m.width {
            let at = base + i * m.element_size as usize;
            // SAFETY: the region was checked against the allocation table
            // when the step was queued.
            unsafe {
                if m.element_size == 2 {
                    (at as *mut u16).write_unaligned(m.value as u16);
                } else {
                    (at as *mut u32).write_unaligned(m.value);
                }
            }
        }
    }
}

/// Reads a dependency array.
///
/// # Safety
/// `deps` must point to `n` readable handles when `n > 0`.
unsafe fn dep_list(deps: *const cudaGraphNode_t, n: usize) -> CudaResult<Vec<usize>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    non_null(deps)?;
    // SAFETY: the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(deps, n) }
        .iter()
        .map(|&d| d as usize)
        .collect())
}

/// Adds a node built by `op` and writes its handle.
///
/// # Safety
/// `out` NULL or writable; `deps` as [`dep_list`].
unsafe fn add_with(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    op: impl FnOnce() -> CudaResult<Op>,
) -> CudaResult {
    non_null(out)?;
    // SAFETY: forwarded contract.
    let deps = unsafe { dep_list(deps, n)? };
    let op = op()?;
    let h = add_node(graph as usize, &deps, op)?;
    // SAFETY: checked non-null.
    unsafe { write_out(out, h as cudaGraphNode_t) }
}

/// Creates an empty graph.
///
/// # Safety
/// `graph` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphCreate(graph: *mut cudaGraph_t, flags: c_uint) -> cudaError_t {
    api(|| {
        if flags != 0 {
            return Err(Error::InvalidValue);
        }
        // SAFETY: forwarded contract.
        unsafe { write_out(graph, create() as cudaGraph_t) }
    })
}

/// Destroys a graph and its nodes (executable graphs made from it stay).
#[no_mangle]
pub extern "C" fn cudaGraphDestroy(graph: cudaGraph_t) -> cudaError_t {
    api(|| {
        with_state(|s| match s.graphs.get(&(graph as usize)) {
            Some(g) if !g.owned => {
                s.destroy_graph(graph as usize);
                Ok(())
            }
            _ => Err(Error::InvalidValue),
        })
    })
}

/// Copies a graph with all its nodes.
///
/// # Safety
/// `clone` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphClone(
    clone: *mut cudaGraph_t,
    graph: cudaGraph_t,
) -> cudaError_t {
    api(|| {
        non_null(clone)?;
        let (h, _) = with_state(|s| s.clone_graph(graph as usize, false))?;
        // SAFETY: checked non-null.
        unsafe { write_out(clone, h as cudaGraph_t) }
    })
}

/// Adds a kernel node; the arguments are copied now.
///
/// # Safety
/// `node` NULL or writable; `deps` `n` readable handles; `params` NULL or
/// readable, its `kernelParams` one readable pointer per parameter.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddKernelNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    params: *const cudaKernelNodeParams,
) -> cudaError_t {
    api_dev(|| {
        non_null(params)?;
        // SAFETY: forwarded contract.
        unsafe {
            add_with(node, graph, deps, n, || {
                Ok(Op::Kernel(KernelOp::from_params(&*params)?))
            })
        }
    })
}

/// Adds a 3D copy node.
///
/// # Safety
/// As [`cudaGraphAddKernelNode`], `p` a readable `cudaMemcpy3DParms`.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *const cudaMemcpy3DParms,
) -> cudaError_t {
    api_dev(|| {
        non_null(p)?;
        // SAFETY: checked non-null; caller promises validity.
        let p = unsafe { p.read() };
        if !(0..=4).contains(&p.kind) {
            return Err(Error::InvalidMemcpyDirection);
        }
        // SAFETY: forwarded contract.
        unsafe { add_with(node, graph, deps, n, || Ok(Op::Memcpy3D(Box::new(p)))) }
    })
}

/// Adds a 1D copy node.
///
/// # Safety
/// As [`cudaGraphAddKernelNode`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode1D(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    api_dev(|| {
        let op = memcpy_1d(dst, src, count, kind)?;
        // SAFETY: forwarded contract.
        unsafe { add_with(node, graph, deps, n, || Ok(op)) }
    })
}

fn memcpy_1d(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) -> CudaResult<Op> {
    if !(0..=4).contains(&kind) {
        return Err(Error::InvalidMemcpyDirection);
    }
    if count > 0 && (dst.is_null() || src.is_null()) {
        return Err(Error::InvalidValue);
    }
    Ok(Op::Memcpy1D {
        dst: dst as usize,
        src: src as usize,
        count,
        kind,
    })
}

/// Adds a memset node (1-, 2- or 4-byte values over a pitched region).
///
/// # Safety
/// As [`cudaGraphAddKernelNode`], `p` readable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemsetNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *const cudaMemsetParams,
) -> cudaError_t {
    api_dev(|| {
        non_null(p)?;
        // SAFETY: checked non-null.
        let m = MemsetOp::from_params(unsafe { &*p })?;
        // SAFETY: forwarded contract.
        unsafe { add_with(node, graph, deps, n, || Ok(Op::Memset(m))) }
    })
}

pub(crate) fn host_op(p: *const cudaHostNodeParams) -> CudaResult<Op> {
    non_null(p)?;
    // SAFETY: checked non-null; the callers' contract makes it readable.
    let p = unsafe { p.read() };
    let f = p.func.ok_or(Error::InvalidValue)?;
    Ok(Op::Host {
        func: f as usize,
        data: p.user_data as usize,
    })
}

/// Adds a host-function node.
///
/// # Safety
/// As [`cudaGraphAddKernelNode`], `p` readable with a valid function.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddHostNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    p: *const cudaHostNodeParams,
) -> cudaError_t {
    api(|| {
        let op = host_op(p)?;
        // SAFETY: forwarded contract.
        unsafe { add_with(node, graph, deps, n, || Ok(op)) }
    })
}

/// Adds a node that does nothing (a join point).
///
/// # Safety
/// As [`cudaGraphAddKernelNode`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddEmptyNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { add_with(node, graph, deps, n, || Ok(Op::Empty)) })
}

/// Adds a node that runs a copy of `child`.
///
/// # Safety
/// As [`cudaGraphAddKernelNode`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddChildGraphNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    child: cudaGraph_t,
) -> cudaError_t {
    api(|| {
        if child == graph {
            return Err(Error::InvalidValue);
        }
        if !exists(child as usize) {
            return Err(Error::InvalidValue);
        }
        // SAFETY: forwarded contract.
        unsafe {
            add_with(node, graph, deps, n, || {
                Ok(Op::Child(
                    with_state(|s| s.clone_graph(child as usize, true))?.0,
                ))
            })
        }
    })
}

pub(crate) fn event_op(event: cudaEvent_t, record: bool) -> CudaResult<Op> {
    crate::event::lookup_event(event)?;
    Ok(if record {
        Op::EventRecord(event as usize)
    } else {
        Op::EventWait(event as usize)
    })
}

/// Adds a node that records `event`.
///
/// # Safety
/// As [`cudaGraphAddKernelNode`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddEventRecordNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    event: cudaEvent_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { add_with(node, graph, deps, n, || event_op(event, true)) })
}

/// Adds a node that waits for `event`.
///
/// # Safety
/// As [`cudaGraphAddKernelNode`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddEventWaitNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    n: usize,
    event: cudaEvent_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { add_with(node, graph, deps, n, || event_op(event, false)) })
}

/// Reads `n` (from, to) pairs.
///
/// # Safety
/// `from` and `to` must point to `n` readable handles when `n > 0`.
unsafe fn edges(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    n: usize,
) -> CudaResult<Vec<(usize, usize)>> {
    // SAFETY: forwarded contract.
    let (f, t) = unsafe { (dep_list(from, n)?, dep_list(to, n)?) };
    let g = graph as usize;
    let pairs: Vec<(usize, usize)> = f.into_iter().zip(t).collect();
    for &(a, b) in &pairs {
        if a == b || !node_in(a, g) || !node_in(b, g) {
            return Err(Error::InvalidValue);
        }
    }
    Ok(pairs)
}

/// Adds edges `from[i] -> to[i]` (edge data other than the default is not
/// supported).
///
/// # Safety
/// `from`, `to` `n` readable handles.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edge_data: *const c_void,
    n: usize,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        unsafe { check_edge_data(edge_data, n)? };
        // SAFETY: forwarded contract.
        let pairs = unsafe { edges(graph, from, to, n)? };
        with_state(|s| {
            for (a, b) in pairs {
                let node = s.nodes.get_mut(&b).ok_or(Error::InvalidValue)?;
                if node.deps.contains(&a) {
                    return Err(Error::InvalidValue);
                }
                node.deps.push(a);
            }
            Ok(())
        })
    })
}

/// Removes edges `from[i] -> to[i]`.
///
/// # Safety
/// `from`, `to` `n` readable handles.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphRemoveDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edge_data: *const c_void,
    n: usize,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        unsafe { check_edge_data(edge_data, n)? };
        // SAFETY: forwarded contract.
        let pairs = unsafe { edges(graph, from, to, n)? };
        with_state(|s| {
            for (a, b) in pairs {
                let node = s.nodes.get_mut(&b).ok_or(Error::InvalidValue)?;
                let before = node.deps.len();
                node.deps.retain(|&d| d != a);
                if node.deps.len() == before {
                    return Err(Error::InvalidValue);
                }
            }
            Ok(())
        })
    })
}

/// `cudaGraphEdgeData` entries must all be the default (zero) edge.
///
/// # Safety
/// `data` NULL or `n` readable 8-byte entries.
unsafe fn check_edge_data(data: *const c_void, n: usize) -> CudaResult {
    if data.is_null() {
        return Ok(());
    }
    // SAFETY: the caller's contract.
    let entries = unsafe { std::slice::from_raw_parts(data as *const u64, n) };
    if entries.iter().any(|&e| e != 0) {
        crate::unsupported::note("graph edges with port or type data");
        return Err(Error::NotSupported);
    }
    Ok(())
}

/// Writes `items` to `out` (if not NULL) and their number to `count`:
/// CUDA's two-call query protocol.
///
/// # Safety
/// `count` NULL or read-write; `out` NULL or `*count` writable handles.
unsafe fn list_out(items: &[usize], out: *mut cudaGraphNode_t, count: *mut usize) -> CudaResult {
    non_null(count)?;
    if out.is_null() {
        // SAFETY: checked non-null.
        unsafe { count.write(items.len()) };
        return Ok(());
    }
    // SAFETY: checked non-null.
    let room = unsafe { count.read() };
    for (i, &h) in items.iter().take(room).enumerate() {
        // SAFETY: `room` writable handles.
        unsafe { out.add(i).write(h as cudaGraphNode_t) };
    }
    for i in items.len()..room {
        // SAFETY: as above; CUDA zeroes the unused entries.
        unsafe { out.add(i).write(std::ptr::null_mut()) };
    }
    // SAFETY: checked non-null.
    unsafe { count.write(items.len().min(room)) };
    Ok(())
}

/// The graph's nodes in creation order.
///
/// # Safety
/// As [`list_out`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphGetNodes(
    graph: cudaGraph_t,
    nodes: *mut cudaGraphNode_t,
    count: *mut usize,
) -> cudaError_t {
    api(|| {
        let items = with_state(|s| s.graphs.get(&(graph as usize)).map(|g| g.nodes.clone()))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { list_out(&items, nodes, count) }
    })
}

/// The graph's nodes without dependencies.
///
/// # Safety
/// As [`list_out`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphGetRootNodes(
    graph: cudaGraph_t,
    nodes: *mut cudaGraphNode_t,
    count: *mut usize,
) -> cudaError_t {
    api(|| {
        let items = with_state(|s| {
            s.graphs.get(&(graph as usize)).map(|g| {
                g.nodes
                    .iter()
                    .copied()
                    .filter(|n| s.nodes.get(n).is_some_and(|x| x.deps.is_empty()))
                    .collect::<Vec<_>>()
            })
        })
        .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { list_out(&items, nodes, count) }
    })
}

/// The graph's edges.
///
/// # Safety
/// As [`list_out`] for `from` and `to`; `edge_data` NULL or as many
/// writable 8-byte entries.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphGetEdges(
    graph: cudaGraph_t,
    from: *mut cudaGraphNode_t,
    to: *mut cudaGraphNode_t,
    edge_data: *mut c_void,
    count: *mut usize,
) -> cudaError_t {
    api(|| {
        let pairs = with_state(|s| {
            s.graphs.get(&(graph as usize)).map(|g| {
                let mut v = Vec::new();
                for n in &g.nodes {
                    if let Some(node) = s.nodes.get(n) {
                        v.extend(node.deps.iter().map(|&d| (d, *n)));
                    }
                }
                v
            })
        })
        .ok_or(Error::InvalidValue)?;
        if count.is_null() || (from.is_null() != to.is_null()) {
            return Err(Error::InvalidValue);
        }
        let a: Vec<usize> = pairs.iter().map(|p| p.0).collect();
        let b: Vec<usize> = pairs.iter().map(|p| p.1).collect();
        if from.is_null() {
            // SAFETY: checked non-null.
            unsafe { count.write(pairs.len()) };
            return Ok(());
        }
        // SAFETY: checked non-null.
        let room = unsafe { count.read() };
        // SAFETY: forwarded contract (each writes the same count).
        unsafe {
            list_out(&a, from, count)?;
            count.write(room);
            list_out(&b, to, count)?;
            if !edge_data.is_null() {
                std::ptr::write_bytes(edge_data as *mut u64, 0, room);
            }
        }
        Ok(())
    })
}

/// A node's dependencies.
///
/// # Safety
/// As [`list_out`]; `edge_data` NULL or writable entries.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependencies(
    node: cudaGraphNode_t,
    deps: *mut cudaGraphNode_t,
    edge_data: *mut c_void,
    count: *mut usize,
) -> cudaError_t {
    api(|| {
        let items = with_state(|s| s.nodes.get(&(node as usize)).map(|n| n.deps.clone()))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe {
            list_out(&items, deps, count)?;
            if !edge_data.is_null() && !deps.is_null() {
                std::ptr::write_bytes(edge_data as *mut u64, 0, count.read());
            }
        }
        Ok(())
    })
}

/// The nodes that depend on `node`.
///
/// # Safety
/// As [`cudaGraphNodeGetDependencies`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependentNodes(
    node: cudaGraphNode_t,
    out: *mut cudaGraphNode_t,
    edge_data: *mut c_void,
    count: *mut usize,
) -> cudaError_t {
    api(|| {
        let h = node as usize;
        let items = with_state(|s| {
            let g = s.nodes.get(&h)?.graph;
            Some(
                s.graphs
                    .get(&g)?
                    .nodes
                    .iter()
                    .copied()
                    .filter(|n| s.nodes.get(n).is_some_and(|x| x.deps.contains(&h)))
                    .collect::<Vec<_>>(),
            )
        })
        .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe {
            list_out(&items, out, count)?;
            if !edge_data.is_null() && !out.is_null() {
                std::ptr::write_bytes(edge_data as *mut u64, 0, count.read());
            }
        }
        Ok(())
    })
}

/// `cudaGraphNodeType` of a node.
///
/// # Safety
/// `kind` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetType(
    node: cudaGraphNode_t,
    kind: *mut c_int,
) -> cudaError_t {
    api(|| {
        let t = with_state(|s| s.nodes.get(&(node as usize)).map(|n| n.op.node_type()))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(kind, t) }
    })
}

/// Removes a node and its edges.
#[no_mangle]
pub extern "C" fn cudaGraphDestroyNode(node: cudaGraphNode_t) -> cudaError_t {
    api(|| {
        with_state(|s| {
            if !s.nodes.contains_key(&(node as usize)) {
                return Err(Error::InvalidValue);
            }
            s.destroy_node(node as usize);
            Ok(())
        })
    })
}

/// The graph a node belongs to.
///
/// # Safety
/// `graph` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetContainingGraph(
    node: cudaGraphNode_t,
    graph: *mut cudaGraph_t,
) -> cudaError_t {
    api(|| {
        let g = with_state(|s| s.nodes.get(&(node as usize)).map(|n| n.graph))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(graph, g as cudaGraph_t) }
    })
}

/// A node's position in its graph at creation.
///
/// # Safety
/// `id` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetLocalId(
    node: cudaGraphNode_t,
    id: *mut c_uint,
) -> cudaError_t {
    api(|| {
        let v = with_state(|s| s.nodes.get(&(node as usize)).map(|n| n.local_id))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(id, v) }
    })
}

/// A graph's process-unique id.
///
/// # Safety
/// `id` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphGetId(graph: cudaGraph_t, id: *mut c_uint) -> cudaError_t {
    api(|| {
        let v = with_state(|s| s.graphs.get(&(graph as usize)).map(|g| g.id))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(id, v) }
    })
}

/// An executable graph's process-unique id.
///
/// # Safety
/// `id` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecGetId(exec: cudaGraphExec_t, id: *mut c_uint) -> cudaError_t {
    api(|| {
        let v = with_state(|s| s.execs.get(&(exec as usize)).map(|e| e.id))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(id, v) }
    })
}

/// Runs `f` on the op of `node` if it has the wanted type.
fn with_op<T>(
    node: cudaGraphNode_t,
    ty: c_int,
    f: impl FnOnce(&mut Op) -> CudaResult<T>,
) -> CudaResult<T> {
    with_state(|s| {
        let n = s
            .nodes
            .get_mut(&(node as usize))
            .ok_or(Error::InvalidValue)?;
        if n.op.node_type() != ty {
            return Err(Error::InvalidValue);
        }
        f(&mut n.op)
    })
}

/// A kernel node's parameters; `kernelParams` points into the node (valid
/// until its parameters change).
///
/// # Safety
/// `p` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphKernelNodeGetParams(
    node: cudaGraphNode_t,
    p: *mut cudaKernelNodeParams,
) -> cudaError_t {
    api(|| {
        let v = with_op(node, 0, |op| match op {
            Op::Kernel(k) => Ok(k.params()),
            _ => Err(Error::InvalidValue),
        })?;
        // SAFETY: forwarded contract.
        unsafe { write_out(p, v) }
    })
}

/// Replaces a kernel node's parameters (arguments copied).
///
/// # Safety
/// `p` NULL or readable, as for [`cudaGraphAddKernelNode`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphKernelNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaKernelNodeParams,
) -> cudaError_t {
    api_dev(|| {
        non_null(p)?;
        // SAFETY: forwarded contract.
        let k = unsafe { KernelOp::from_params(&*p)? };
        with_op(node, 0, |op| {
            *op = Op::Kernel(k);
            Ok(())
        })
    })
}

pub(crate) fn memcpy_params(op: &Op) -> cudaMemcpy3DParms {
    let pitched = |ptr: usize, pitch: usize, width: usize, height: usize| cudaPitchedPtr {
        ptr: ptr as *mut c_void,
        pitch,
        xsize: width,
        ysize: height,
    };
    let blank = |dst: cudaPitchedPtr, src: cudaPitchedPtr, width, height, kind| cudaMemcpy3DParms {
        srcArray: std::ptr::null_mut(),
        srcPos: cudaPos::default(),
        srcPtr: src,
        dstArray: std::ptr::null_mut(),
        dstPos: cudaPos::default(),
        dstPtr: dst,
        extent: crate::ffi::cudaExtent {
            width,
            height,
            depth: 1,
        },
        kind,
    };
    match *op {
        Op::Memcpy3D(ref p) => **p,
        Op::Memcpy1D {
            dst,
            src,
            count,
            kind,
        } => blank(
            pitched(dst, count, count, 1),
            pitched(src, count, count, 1),
            count,
            1,
            kind,
        ),
        Op::Memcpy2D {
            dst,
            dpitch,
            src,
            spitch,
            width,
            height,
            kind,
        } => blank(
            pitched(dst, dpitch, width, height),
            pitched(src, spitch, width, height),
            width,
            height,
            kind,
        ),
        _ => blank(pitched(0, 0, 0, 0), pitched(0, 0, 0, 0), 0, 0, 0),
    }
}

/// A copy node's parameters, as a 3D copy.
///
/// # Safety
/// `p` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemcpyNodeGetParams(
    node: cudaGraphNode_t,
    p: *mut cudaMemcpy3DParms,
) -> cudaError_t {
    api(|| {
        let v = with_op(node, 1, |op| Ok(memcpy_params(op)))?;
        // SAFETY: forwarded contract.
        unsafe { write_out(p, v) }
    })
}

/// Replaces a copy node's parameters.
///
/// # Safety
/// `p` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemcpyNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaMemcpy3DParms,
) -> cudaError_t {
    api(|| {
        non_null(p)?;
        // SAFETY: checked non-null.
        let p = unsafe { p.read() };
        with_op(node, 1, |op| {
            *op = Op::Memcpy3D(Box::new(p));
            Ok(())
        })
    })
}

/// Replaces a copy node's parameters with a 1D copy.
#[no_mangle]
pub extern "C" fn cudaGraphMemcpyNodeSetParams1D(
    node: cudaGraphNode_t,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    api(|| {
        let new = memcpy_1d(dst, src, count, kind)?;
        with_op(node, 1, |op| {
            *op = new;
            Ok(())
        })
    })
}

/// A memset node's parameters.
///
/// # Safety
/// `p` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemsetNodeGetParams(
    node: cudaGraphNode_t,
    p: *mut cudaMemsetParams,
) -> cudaError_t {
    api(|| {
        let v = with_op(node, 2, |op| match op {
            Op::Memset(m) => Ok(m.params()),
            _ => Err(Error::InvalidValue),
        })?;
        // SAFETY: forwarded contract.
        unsafe { write_out(p, v) }
    })
}

/// Replaces a memset node's parameters.
///
/// # Safety
/// `p` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemsetNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaMemsetParams,
) -> cudaError_t {
    api(|| {
        non_null(p)?;
        // SAFETY: checked non-null.
        let m = MemsetOp::from_params(unsafe { &*p })?;
        with_op(node, 2, |op| {
            *op = Op::Memset(m);
            Ok(())
        })
    })
}

/// A host node's parameters.
///
/// # Safety
/// `p` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphHostNodeGetParams(
    node: cudaGraphNode_t,
    p: *mut cudaHostNodeParams,
) -> cudaError_t {
    api(|| {
        let v = with_op(node, 3, |op| match *op {
            Op::Host { func, data } => Ok(cudaHostNodeParams {
                // SAFETY: the function pointer the node was given.
                func: unsafe { std::mem::transmute::<usize, crate::stream::HostFn>(func) },
                user_data: data as *mut c_void,
            }),
            _ => Err(Error::InvalidValue),
        })?;
        // SAFETY: forwarded contract.
        unsafe { write_out(p, v) }
    })
}

/// Replaces a host node's parameters.
///
/// # Safety
/// `p` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphHostNodeSetParams(
    node: cudaGraphNode_t,
    p: *const cudaHostNodeParams,
) -> cudaError_t {
    api(|| {
        let new = host_op(p)?;
        with_op(node, 3, |op| {
            *op = new;
            Ok(())
        })
    })
}

/// The graph a child-graph node owns.
///
/// # Safety
/// `graph` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphChildGraphNodeGetGraph(
    node: cudaGraphNode_t,
    graph: *mut cudaGraph_t,
) -> cudaError_t {
    api(|| {
        let g = with_op(node, 4, |op| match op {
            Op::Child(c) => Ok(*c),
            _ => Err(Error::InvalidValue),
        })?;
        // SAFETY: forwarded contract.
        unsafe { write_out(graph, g as cudaGraph_t) }
    })
}

fn event_of(node: cudaGraphNode_t, ty: c_int) -> CudaResult<usize> {
    with_op(node, ty, |op| match op {
        Op::EventRecord(e) | Op::EventWait(e) => Ok(*e),
        _ => Err(Error::InvalidValue),
    })
}

fn set_event(node: cudaGraphNode_t, ty: c_int, event: cudaEvent_t) -> CudaResult {
    let new = event_op(event, ty == 7)?;
    with_op(node, ty, |op| {
        *op = new;
        Ok(())
    })
}

/// The event an event-record node records.
///
/// # Safety
/// `event` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphEventRecordNodeGetEvent(
    node: cudaGraphNode_t,
    event: *mut cudaEvent_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(event, event_of(node, 7)? as cudaEvent_t) })
}

/// Sets the event an event-record node records.
#[no_mangle]
pub extern "C" fn cudaGraphEventRecordNodeSetEvent(
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    api(|| set_event(node, 7, event))
}

/// The event an event-wait node waits for.
///
/// # Safety
/// `event` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphEventWaitNodeGetEvent(
    node: cudaGraphNode_t,
    event: *mut cudaEvent_t,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api(|| unsafe { write_out(event, event_of(node, 6)? as cudaEvent_t) })
}

/// Sets the event an event-wait node waits for.
#[no_mangle]
pub extern "C" fn cudaGraphEventWaitNodeSetEvent(
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    api(|| set_event(node, 6, event))
}

/// Instantiation flags CUDA defines: auto-free on launch, upload, device
/// launch, use node priority.
const INSTANTIATE_FLAGS: u64 = 1 | 2 | 4 | 8;
/// `cudaGraphInstantiateFlagDeviceLaunch`: kernels launching graphs.
const FLAG_DEVICE_LAUNCH: u64 = 4;

fn instantiate(graph: cudaGraph_t, flags: u64) -> CudaResult<usize> {
    if flags & !INSTANTIATE_FLAGS != 0 {
        return Err(Error::InvalidValue);
    }
    if flags & FLAG_DEVICE_LAUNCH != 0 {
        crate::unsupported::note("graphs launched from the device");
        return Err(Error::NotSupported);
    }
    with_state(|s| s.instantiate(graph as usize, flags))
}

/// Instantiates a graph: its nodes in a dependency order, child graphs
/// inlined; a cycle is `cudaErrorInvalidValue`.
///
/// # Safety
/// `exec` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphInstantiate(
    exec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: u64,
) -> cudaError_t {
    api_dev(|| {
        non_null(exec)?;
        let h = instantiate(graph, flags)?;
        // SAFETY: checked non-null.
        unsafe { write_out(exec, h as cudaGraphExec_t) }
    })
}

/// Same as [`cudaGraphInstantiate`].
///
/// # Safety
/// As [`cudaGraphInstantiate`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphInstantiateWithFlags(
    exec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    flags: u64,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaGraphInstantiate(exec, graph, flags) }
}

/// Instantiates with a parameter block (result code written back; the
/// upload flag is honoured by doing nothing: there is nothing to upload).
///
/// # Safety
/// `exec` NULL or writable; `params` NULL or read-write.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphInstantiateWithParams(
    exec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    params: *mut cudaGraphInstantiateParams,
) -> cudaError_t {
    api_dev(|| {
        non_null(exec)?;
        non_null(params)?;
        // SAFETY: checked non-null.
        let p = unsafe { &mut *params };
        p.err_node_out = std::ptr::null_mut();
        match instantiate(graph, p.flags) {
            Ok(h) => {
                p.result_out = 0;
                // SAFETY: checked non-null.
                unsafe { write_out(exec, h as cudaGraphExec_t) }
            }
            Err(e) => {
                p.result_out = if e == Error::NotSupported { 3 } else { 1 };
                Err(e)
            }
        }
    })
}

/// `cudaGraphInstantiateWithParams` (no stream is involved).
///
/// # Safety
/// As [`cudaGraphInstantiateWithParams`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphInstantiateWithParams_ptsz(
    exec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    params: *mut cudaGraphInstantiateParams,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaGraphInstantiateWithParams(exec, graph, params) }
}

/// The flags an executable graph was instantiated with.
///
/// # Safety
/// `flags` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecGetFlags(
    exec: cudaGraphExec_t,
    flags: *mut u64,
) -> cudaError_t {
    api(|| {
        let f = with_state(|s| s.execs.get(&(exec as usize)).map(|e| e.flags))
            .ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(flags, f) }
    })
}

/// Destroys an executable graph (launches already queued still run).
#[no_mangle]
pub extern "C" fn cudaGraphExecDestroy(exec: cudaGraphExec_t) -> cudaError_t {
    api(|| {
        with_state(|s| s.execs.remove(&(exec as usize)))
            .map(|_| ())
            .ok_or(Error::InvalidValue)
    })
}

fn launch(exec: cudaGraphExec_t, stream: cudaStream_t) -> CudaResult {
    let steps = with_state(|s| s.execs.get(&(exec as usize)).map(|e| e.steps.clone()))
        .ok_or(Error::InvalidValue)?;
    crate::stream::resolve(stream)?;
    for step in &steps {
        replay(&step.op, stream)?;
    }
    Ok(())
}

/// Queues an executable graph's nodes on `stream`, in dependency order.
#[no_mangle]
pub extern "C" fn cudaGraphLaunch(exec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t {
    api_dev(|| launch(exec, stream))
}

/// `cudaGraphLaunch` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaGraphLaunch_ptsz(exec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t {
    let s = if stream.is_null() {
        crate::ffi::STREAM_PER_THREAD as cudaStream_t
    } else {
        stream
    };
    api_dev(|| launch(exec, s))
}

fn upload(exec: cudaGraphExec_t, stream: cudaStream_t) -> CudaResult {
    with_state(|s| s.execs.contains_key(&(exec as usize)))
        .then_some(())
        .ok_or(Error::InvalidValue)?;
    crate::stream::resolve(stream).map(|_| ())
}

/// Nothing to upload: the graph's work is host memory already.
#[no_mangle]
pub extern "C" fn cudaGraphUpload(exec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t {
    api_dev(|| upload(exec, stream))
}

/// `cudaGraphUpload` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaGraphUpload_ptsz(exec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t {
    api_dev(|| upload(exec, stream))
}

/// Replaces the op of the step made from `node` in `exec`.
pub(crate) fn exec_set(exec: cudaGraphExec_t, node: cudaGraphNode_t, new: Op) -> CudaResult {
    with_state(|s| {
        let e = s
            .execs
            .get_mut(&(exec as usize))
            .ok_or(Error::InvalidValue)?;
        let step = e
            .steps
            .iter_mut()
            .find(|st| st.node == node as usize)
            .ok_or(Error::InvalidValue)?;
        if step.op.node_type() != new.node_type() {
            return Err(Error::InvalidValue);
        }
        step.op = new;
        Ok(())
    })
}

/// Sets a kernel node's parameters in an executable graph only.
///
/// # Safety
/// As [`cudaGraphKernelNodeSetParams`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecKernelNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaKernelNodeParams,
) -> cudaError_t {
    api_dev(|| {
        non_null(p)?;
        // SAFETY: forwarded contract.
        let k = unsafe { KernelOp::from_params(&*p)? };
        exec_set(exec, node, Op::Kernel(k))
    })
}

/// Sets a copy node's parameters in an executable graph only.
///
/// # Safety
/// `p` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaMemcpy3DParms,
) -> cudaError_t {
    api(|| {
        non_null(p)?;
        // SAFETY: checked non-null.
        exec_set(exec, node, Op::Memcpy3D(Box::new(unsafe { p.read() })))
    })
}

/// Sets a 1D copy node's parameters in an executable graph only.
#[no_mangle]
pub extern "C" fn cudaGraphExecMemcpyNodeSetParams1D(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> cudaError_t {
    api(|| exec_set(exec, node, memcpy_1d(dst, src, count, kind)?))
}

/// Sets a memset node's parameters in an executable graph only.
///
/// # Safety
/// `p` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecMemsetNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaMemsetParams,
) -> cudaError_t {
    api(|| {
        non_null(p)?;
        // SAFETY: checked non-null.
        exec_set(
            exec,
            node,
            Op::Memset(MemsetOp::from_params(unsafe { &*p })?),
        )
    })
}

/// Sets a host node's parameters in an executable graph only.
///
/// # Safety
/// `p` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecHostNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    p: *const cudaHostNodeParams,
) -> cudaError_t {
    api(|| exec_set(exec, node, host_op(p)?))
}

/// Sets an event-record node's event in an executable graph only.
#[no_mangle]
pub extern "C" fn cudaGraphExecEventRecordNodeSetEvent(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    api(|| exec_set(exec, node, event_op(event, true)?))
}

/// Sets an event-wait node's event in an executable graph only.
#[no_mangle]
pub extern "C" fn cudaGraphExecEventWaitNodeSetEvent(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    event: cudaEvent_t,
) -> cudaError_t {
    api(|| exec_set(exec, node, event_op(event, false)?))
}

/// Replaces a child-graph node's graph in an executable graph, when the
/// new child has the same structure.
#[no_mangle]
pub extern "C" fn cudaGraphExecChildGraphNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    child: cudaGraph_t,
) -> cudaError_t {
    crate::unsupported::note("cudaGraphExecChildGraphNodeSetParams");
    let _ = (exec, node, child);
    api(|| Err(Error::NotSupported))
}

/// Updates an executable graph from a graph of the same structure (same
/// nodes, types and edges, in the same creation order): every node's
/// parameters are taken over. Otherwise `cudaErrorGraphExecUpdateFailure`
/// with the reason in `info`.
///
/// # Safety
/// `info` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecUpdate(
    exec: cudaGraphExec_t,
    graph: cudaGraph_t,
    info: *mut cudaGraphExecUpdateResultInfo,
) -> cudaError_t {
    api_dev(|| {
        let outcome = with_state(|s| -> CudaResult<Result<(), c_int>> {
            let shape = s.shape(graph as usize)?;
            let e = s.execs.get(&(exec as usize)).ok_or(Error::InvalidValue)?;
            if e.shape != shape {
                // cudaGraphExecUpdateErrorTopologyChanged.
                return Ok(Err(2));
            }
            let old_nodes: Vec<usize> = e.steps.iter().map(|st| st.node).collect();
            let mut steps = Vec::new();
            s.plan(graph as usize, &mut steps)?;
            // Same shape, same plan order: the i-th step of each matches.
            if steps.len() != old_nodes.len() {
                return Ok(Err(2));
            }
            for (st, old) in steps.iter_mut().zip(old_nodes) {
                st.node = old;
            }
            if let Some(e) = s.execs.get_mut(&(exec as usize)) {
                e.steps = steps;
            }
            Ok(Ok(()))
        })?;
        let result = match outcome {
            Ok(()) => 0,
            Err(r) => r,
        };
        if !info.is_null() {
            // SAFETY: checked non-null; caller promises validity.
            unsafe {
                info.write(cudaGraphExecUpdateResultInfo {
                    result,
                    error_node: std::ptr::null_mut(),
                    error_from_node: std::ptr::null_mut(),
                })
            };
        }
        if result == 0 {
            Ok(())
        } else {
            Err(Error::GraphExecUpdateFailure)
        }
    })
}

/// Launch attributes CUDA accepts on kernel nodes: access policy window,
/// cooperative, cluster dimension and scheduling, priority, memory-sync
/// domain map and domain, shared memory carveout, NVLink scheduling.
fn kernel_node_attribute(id: c_int) -> CudaResult {
    match id {
        1 | 2 | 4 | 5 | 8 | 9 | 10 | 14 | 16 => Ok(()),
        13 => {
            crate::unsupported::note("device-updatable kernel nodes");
            Err(Error::NotSupported)
        }
        _ => Err(Error::InvalidValue),
    }
}

/// Reads a kernel node's attribute (what was set, else zeros: CUDA's
/// defaults for these).
///
/// # Safety
/// `value` NULL or writable for 64 bytes.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphKernelNodeGetAttribute(
    node: cudaGraphNode_t,
    id: c_int,
    value: *mut c_void,
) -> cudaError_t {
    api(|| {
        kernel_node_attribute(id)?;
        non_null(value)?;
        let v = with_state(|s| -> CudaResult<[u64; 8]> {
            match s.nodes.get(&(node as usize)) {
                Some(n) if n.op.node_type() == 0 => {}
                _ => return Err(Error::InvalidValue),
            }
            Ok(s.attrs
                .get(&(node as usize))
                .and_then(|a| a.get(&id).copied())
                .unwrap_or([0; 8]))
        })?;
        // SAFETY: checked non-null; a value is 64 bytes.
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr() as *const u8, value as *mut u8, 64) };
        Ok(())
    })
}

/// Sets a kernel node's attribute (recorded).
///
/// # Safety
/// `value` NULL or readable for 64 bytes.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphKernelNodeSetAttribute(
    node: cudaGraphNode_t,
    id: c_int,
    value: *const c_void,
) -> cudaError_t {
    api(|| {
        kernel_node_attribute(id)?;
        non_null(value)?;
        let mut v = [0u64; 8];
        // SAFETY: checked non-null; a value is 64 bytes.
        unsafe { std::ptr::copy_nonoverlapping(value as *const u8, v.as_mut_ptr() as *mut u8, 64) };
        with_state(|s| {
            match s.nodes.get(&(node as usize)) {
                Some(n) if n.op.node_type() == 0 => {}
                _ => return Err(Error::InvalidValue),
            }
            s.attrs.entry(node as usize).or_default().insert(id, v);
            Ok(())
        })
    })
}

/// Gives kernel node `dst` the attributes of kernel node `src`.
#[no_mangle]
pub extern "C" fn cudaGraphKernelNodeCopyAttributes(
    dst: cudaGraphNode_t,
    src: cudaGraphNode_t,
) -> cudaError_t {
    api(|| {
        with_state(|s| {
            for n in [dst, src] {
                match s.nodes.get(&(n as usize)) {
                    Some(x) if x.op.node_type() == 0 => {}
                    _ => return Err(Error::InvalidValue),
                }
            }
            let values = s.attrs.get(&(src as usize)).cloned().unwrap_or_default();
            s.attrs.insert(dst as usize, values);
            Ok(())
        })
    })
}

/// A child-graph op: a copy of `child`, or `child` itself when the node
/// takes ownership (`move`; the graph must be the program's own).
pub(crate) fn child_op(parent: usize, child: usize, take: bool) -> CudaResult<Op> {
    with_state(|s| {
        match s.graphs.get(&child) {
            Some(g) if !g.owned && child != parent => {}
            _ => return Err(Error::InvalidValue),
        }
        if take {
            // Moving a graph that holds the parent would make a cycle.
            if s.reaches(child, parent) {
                return Err(Error::InvalidValue);
            }
            if let Some(g) = s.graphs.get_mut(&child) {
                g.owned = true;
            }
            return Ok(Op::Child(child));
        }
        Ok(Op::Child(s.clone_graph(child, true)?.0))
    })
}

/// A copy of a node's op.
pub(crate) fn node_op(node: cudaGraphNode_t) -> CudaResult<Op> {
    with_state(|s| s.nodes.get(&(node as usize)).map(|n| n.op.clone())).ok_or(Error::InvalidValue)
}

/// Replaces a node's op with one of the same type.
pub(crate) fn set_node_op(node: cudaGraphNode_t, new: Op) -> CudaResult {
    with_op(node, new.node_type(), |op| {
        *op = new;
        Ok(())
    })
}

/// Adds `op` to `graph` after `deps` and writes the node's handle.
///
/// # Safety
/// As [`add_with`].
pub(crate) unsafe fn add_op(
    out: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    edges: *const c_void,
    n: usize,
    op: impl FnOnce() -> CudaResult<Op>,
) -> CudaResult {
    // SAFETY: forwarded contract.
    unsafe {
        check_edge_data(edges, n)?;
        add_with(out, graph, deps, n, op)
    }
}

/// Adds a captured op after the stream's current dependencies.
pub(crate) fn captured(graph: usize, deps: &[usize], op: Op) -> CudaResult<usize> {
    add_node(graph, deps, op)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_match_cuda() {
        assert_eq!(std::mem::size_of::<cudaKernelNodeParams>(), 56);
        assert_eq!(
            std::mem::offset_of!(cudaKernelNodeParams, kernel_params),
            40
        );
        assert_eq!(std::mem::size_of::<cudaMemsetParams>(), 40);
        assert_eq!(std::mem::size_of::<cudaHostNodeParams>(), 16);
        assert_eq!(std::mem::size_of::<cudaGraphExecUpdateResultInfo>(), 24);
        assert_eq!(std::mem::size_of::<cudaGraphInstantiateParams>(), 32);
    }

    #[test]
    fn plan_orders_by_dependencies_and_inlines_children() {
        let mut s = State::default();
        let g = s.new_graph(false);
        let a = s.add(g, &[], Op::Host { func: 1, data: 0 }).unwrap();
        let b = s.add(g, &[], Op::Host { func: 2, data: 0 }).unwrap();
        // c after both; b made to depend on a afterwards.
        let c = s.add(g, &[a, b], Op::Host { func: 3, data: 0 }).unwrap();
        s.nodes.get_mut(&b).unwrap().deps.push(c);
        assert_eq!(s.topo(g), Err(Error::InvalidValue), "a cycle is refused");
        s.nodes.get_mut(&b).unwrap().deps.clear();
        let child = s.new_graph(false);
        s.add(child, &[], Op::Host { func: 9, data: 0 }).unwrap();
        let (owned, _) = s.clone_graph(child, true).unwrap();
        s.add(g, &[c], Op::Child(owned)).unwrap();
        s.add(g, &[], Op::Empty).unwrap();
        let mut steps = Vec::new();
        s.plan(g, &mut steps).unwrap();
        let funcs: Vec<usize> = steps
            .iter()
            .map(|st| match st.op {
                Op::Host { func, .. } => func,
                _ => 0,
            })
            .collect();
        assert_eq!(funcs, vec![1, 2, 3, 9]);
    }

    #[test]
    fn dependencies_must_be_nodes_of_the_same_graph() {
        let mut s = State::default();
        let g1 = s.new_graph(false);
        let g2 = s.new_graph(false);
        let a = s.add(g1, &[], Op::Empty).unwrap();
        assert_eq!(s.add(g2, &[a], Op::Empty), Err(Error::InvalidValue));
        assert_eq!(s.add(g1, &[a, a], Op::Empty), Err(Error::InvalidValue));
    }

    #[test]
    fn shapes_differ_when_edges_differ() {
        let mut s = State::default();
        let g1 = s.new_graph(false);
        let a = s.add(g1, &[], Op::Empty).unwrap();
        s.add(g1, &[a], Op::Empty).unwrap();
        let g2 = s.new_graph(false);
        s.add(g2, &[], Op::Empty).unwrap();
        s.add(g2, &[], Op::Empty).unwrap();
        assert_ne!(s.shape(g1).unwrap(), s.shape(g2).unwrap());
        let (g3, _) = s.clone_graph(g1, false).unwrap();
        assert_eq!(s.shape(g1).unwrap(), s.shape(g3).unwrap());
    }
}
