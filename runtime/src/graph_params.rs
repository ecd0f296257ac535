//! The generic graph-node API (`cudaGraphAddNode`, `cudaGraphNodeGetParams`,
//! `cudaGraphNodeSetParams`, `cudaGraphExecNodeSetParams`): one
//! `cudaGraphNodeParams` union for every node type, translated to and from
//! the per-type forms of [`crate::graph`]. Kernel, copy, set, host, child
//! graph, empty and event nodes are supported, as in the per-type API.

use crate::errors::{api, api_dev, cudaError_t, non_null, CudaResult, Error};
use crate::ffi::{cudaEvent_t, cudaMemcpy3DParms, Dim3};
use crate::graph::{
    cudaGraphExec_t, cudaGraphNode_t, cudaGraph_t, cudaHostNodeParams, cudaKernelNodeParams,
    cudaMemsetParams, Op,
};
use std::ffi::{c_int, c_uint, c_void};

/// `struct cudaKernelNodeParamsV2`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct KernelV2 {
    /// Host stub, `cudaKernel_t` or `cudaFunction_t` (see `function_type`).
    pub func: *mut c_void,
    /// Grid extent.
    pub grid: Dim3,
    /// Block extent.
    pub block: Dim3,
    /// Dynamic shared memory.
    pub shared: c_uint,
    /// One pointer per parameter.
    pub kernel_params: *mut *mut c_void,
    /// Packed arguments (not supported).
    pub extra: *mut *mut c_void,
    /// Execution context (must be NULL).
    pub ctx: *mut c_void,
    /// `cudaKernelFunctionType`.
    pub function_type: c_int,
}

/// `struct cudaMemcpyNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemcpyV2 {
    /// Must be 0.
    pub flags: c_int,
    /// Must be 0.
    pub reserved: c_int,
    /// Execution context (must be NULL).
    pub ctx: *mut c_void,
    /// The copy.
    pub copy: cudaMemcpy3DParms,
}

/// `struct cudaMemsetParamsV2`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemsetV2 {
    /// The fill, as `cudaMemsetParams`.
    pub params: cudaMemsetParams,
    /// Execution context (must be NULL).
    pub ctx: *mut c_void,
}

/// `struct cudaHostNodeParamsV2`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct HostV2 {
    /// The function and its data.
    pub params: cudaHostNodeParams,
    /// `cudaHostTaskSyncMode` (ignored: host nodes run on the stream's thread).
    pub sync_mode: c_uint,
    /// Execution context (must be NULL).
    pub ctx: *mut c_void,
}

/// `struct cudaGraphNodeParams` (256 bytes).
#[repr(C)]
pub struct cudaGraphNodeParams {
    /// `cudaGraphNodeType`.
    pub node_type: c_int,
    /// Zero.
    pub reserved0: [c_int; 3],
    /// The type's parameters.
    pub u: [u64; 29],
    /// Zero.
    pub reserved2: i64,
}

const KERNEL: c_int = 0;
const MEMCPY: c_int = 1;
const MEMSET: c_int = 2;
const HOST: c_int = 3;
const GRAPH: c_int = 4;
const EMPTY: c_int = 5;
const WAIT_EVENT: c_int = 6;
const EVENT_RECORD: c_int = 7;

impl cudaGraphNodeParams {
    /// Reads the union as `T`.
    fn get<T: Copy>(&self) -> T {
        const { assert!(std::mem::size_of::<T>() <= 29 * 8) };
        // SAFETY: `T` fits the union (checked above) and is plain data.
        unsafe { (self.u.as_ptr() as *const T).read_unaligned() }
    }

    /// Writes `v` into the union.
    fn put<T: Copy>(&mut self, v: T) {
        const { assert!(std::mem::size_of::<T>() <= 29 * 8) };
        self.u = [0; 29];
        // SAFETY: as in `get`.
        unsafe { (self.u.as_mut_ptr() as *mut T).write_unaligned(v) };
    }
}

fn no_context(ctx: *mut c_void) -> CudaResult {
    if ctx.is_null() {
        Ok(())
    } else {
        crate::unsupported::note("graph nodes with an execution context");
        Err(Error::NotSupported)
    }
}

/// The op `p` describes (`parent`: the graph of a new child-graph node).
///
/// # Safety
/// `p`'s pointers as the per-type calls require them.
unsafe fn op_of(p: &cudaGraphNodeParams, parent: usize) -> CudaResult<Op> {
    match p.node_type {
        KERNEL => {
            let k: KernelV2 = p.get();
            no_context(k.ctx)?;
            // Unspecified, a device entry (host stub) or a cudaKernel_t
            // (the stub too, here); driver functions are not supported.
            if !(0..=2).contains(&k.function_type) {
                crate::unsupported::note("kernel nodes of driver API functions");
                return Err(Error::NotSupported);
            }
            let v1 = cudaKernelNodeParams {
                func: k.func,
                grid: k.grid,
                block: k.block,
                shared: k.shared,
                kernel_params: k.kernel_params,
                extra: k.extra,
            };
            // SAFETY: forwarded contract.
            Ok(Op::Kernel(unsafe {
                crate::graph::KernelOp::from_params(&v1)?
            }))
        }
        MEMCPY => {
            let m: MemcpyV2 = p.get();
            no_context(m.ctx)?;
            if m.flags != 0 || !(0..=4).contains(&m.copy.kind) {
                return Err(Error::InvalidValue);
            }
            Ok(Op::Memcpy3D(Box::new(m.copy)))
        }
        MEMSET => {
            let m: MemsetV2 = p.get();
            no_context(m.ctx)?;
            Ok(Op::Memset(crate::graph::MemsetOp::from_params(&m.params)?))
        }
        HOST => {
            let h: HostV2 = p.get();
            no_context(h.ctx)?;
            crate::graph::host_op(&h.params)
        }
        GRAPH => {
            let (graph, ownership): (usize, c_int) = p.get();
            if !matches!(ownership, 0 | 1) {
                return Err(Error::InvalidValue);
            }
            crate::graph::child_op(parent, graph, ownership == 1)
        }
        EMPTY => Ok(Op::Empty),
        WAIT_EVENT => {
            let e: usize = p.get();
            crate::graph::event_op(e as cudaEvent_t, false)
        }
        EVENT_RECORD => {
            let (e, ctx): (usize, usize) = p.get();
            no_context(ctx as *mut c_void)?;
            crate::graph::event_op(e as cudaEvent_t, true)
        }
        _ => {
            crate::unsupported::note("graph nodes of this type");
            Err(Error::NotSupported)
        }
    }
}

/// Adds a node described by `params`.
///
/// # Safety
/// `node` writable; `deps` `n` readable handles; `edges` NULL or `n`
/// entries; `params` readable, its pointers as the per-type calls need.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddNode(
    node: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    edges: *const c_void,
    n: usize,
    params: *mut cudaGraphNodeParams,
) -> cudaError_t {
    api_dev(|| {
        non_null(params)?;
        // SAFETY: forwarded contract.
        unsafe {
            crate::graph::add_op(node, graph, deps, edges, n, || {
                op_of(&*params, graph as usize)
            })
        }
    })
}

/// A node's parameters in the generic form (kernel arguments point into
/// the node, as for `cudaGraphKernelNodeGetParams`).
///
/// # Safety
/// `params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetParams(
    node: cudaGraphNode_t,
    params: *mut cudaGraphNodeParams,
) -> cudaError_t {
    api(|| {
        non_null(params)?;
        let op = crate::graph::node_op(node)?;
        let mut out = cudaGraphNodeParams {
            node_type: 0,
            reserved0: [0; 3],
            u: [0; 29],
            reserved2: 0,
        };
        match &op {
            Op::Kernel(_) => {
                // The node's own argument array (stable while it lives).
                let mut k = cudaKernelNodeParams {
                    func: std::ptr::null_mut(),
                    grid: Dim3::default(),
                    block: Dim3::default(),
                    shared: 0,
                    kernel_params: std::ptr::null_mut(),
                    extra: std::ptr::null_mut(),
                };
                // SAFETY: a local to write into.
                let code = unsafe { crate::graph::cudaGraphKernelNodeGetParams(node, &mut k) };
                if code != 0 {
                    return Err(Error::from_code(code).unwrap_or(Error::Unknown));
                }
                out.put(KernelV2 {
                    func: k.func,
                    grid: k.grid,
                    block: k.block,
                    shared: k.shared,
                    kernel_params: k.kernel_params,
                    extra: std::ptr::null_mut(),
                    ctx: std::ptr::null_mut(),
                    function_type: 0,
                });
            }
            Op::Memcpy1D { .. } | Op::Memcpy2D { .. } | Op::Memcpy3D(_) => out.put(MemcpyV2 {
                flags: 0,
                reserved: 0,
                ctx: std::ptr::null_mut(),
                copy: crate::graph::memcpy_params(&op),
            }),
            Op::Memset(m) => out.put(MemsetV2 {
                params: m.to_params(),
                ctx: std::ptr::null_mut(),
            }),
            Op::Host { func, data } => out.put(HostV2 {
                params: cudaHostNodeParams {
                    // SAFETY: the function pointer the node was given.
                    func: unsafe { std::mem::transmute::<usize, crate::stream::HostFn>(*func) },
                    user_data: *data as *mut c_void,
                },
                sync_mode: 0,
                ctx: std::ptr::null_mut(),
            }),
            Op::Child(g) => out.put((*g, 0 as c_int)),
            Op::Empty => {}
            Op::EventWait(e) => out.put(*e),
            Op::EventRecord(e) => out.put((*e, 0usize)),
        }
        out.node_type = match op {
            Op::Kernel(_) => KERNEL,
            Op::Memcpy1D { .. } | Op::Memcpy2D { .. } | Op::Memcpy3D(_) => MEMCPY,
            Op::Memset(_) => MEMSET,
            Op::Host { .. } => HOST,
            Op::Child(_) => GRAPH,
            Op::Empty => EMPTY,
            Op::EventWait(_) => WAIT_EVENT,
            Op::EventRecord(_) => EVENT_RECORD,
        };
        // SAFETY: checked non-null.
        unsafe { params.write(out) };
        Ok(())
    })
}

/// The operation that new parameters for a node describe; node types in
/// `fixed` cannot be replaced this way.
///
/// # Safety
/// `params` NULL or readable, its pointers as the per-type calls need.
unsafe fn replacement(params: *mut cudaGraphNodeParams, fixed: &[c_int]) -> CudaResult<Op> {
    non_null(params)?;
    // SAFETY: checked non-null; forwarded contract.
    let p = unsafe { &*params };
    if fixed.contains(&p.node_type) {
        return Err(Error::InvalidValue);
    }
    // SAFETY: forwarded contract.
    unsafe { op_of(p, 0) }
}

/// Replaces a node's parameters (same node type; child graphs cannot be
/// replaced this way).
///
/// # Safety
/// `params` NULL or readable, its pointers as the per-type calls need.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeSetParams(
    node: cudaGraphNode_t,
    params: *mut cudaGraphNodeParams,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| crate::graph::set_node_op(node, unsafe { replacement(params, &[GRAPH])? }))
}

/// Replaces a node's parameters in an executable graph only.
///
/// # Safety
/// As [`cudaGraphNodeSetParams`].
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecNodeSetParams(
    exec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    params: *mut cudaGraphNodeParams,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| crate::graph::exec_set(exec, node, unsafe { replacement(params, &[GRAPH, EMPTY])? }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_match_cuda() {
        assert_eq!(std::mem::size_of::<cudaGraphNodeParams>(), 256);
        assert_eq!(std::mem::offset_of!(cudaGraphNodeParams, u), 16);
        assert_eq!(std::mem::size_of::<KernelV2>(), 72);
        assert_eq!(std::mem::offset_of!(KernelV2, ctx), 56);
        assert_eq!(std::mem::offset_of!(MemcpyV2, copy), 16);
        assert_eq!(std::mem::size_of::<MemsetV2>(), 48);
        assert_eq!(std::mem::offset_of!(HostV2, ctx), 24);
    }
}
