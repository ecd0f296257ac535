//! Streams and events: a `CUstream` is a `cudaStream_t` and a `CUevent` a
//! `cudaEvent_t` (as in CUDA, where the two APIs exchange them), so these
//! entry points take the runtime's. `CU_STREAM_LEGACY` (1) and
//! `CU_STREAM_PER_THREAD` (2) are the runtime's special handles too.

use std::ffi::{c_int, c_uint, c_void};

use super::context::current;
use super::result::INVALID_VALUE;
use super::{drv, drv_ctx, out, rt, CUresult};
use crate::event as e;
use crate::ffi::{cudaEvent_t, cudaStream_t};
use crate::stream as s;

unsafe extern "C" fn cuStreamCreate(ph: *mut cudaStream_t, flags: c_uint) -> CUresult {
    drv_ctx(|| {
        if ph.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null.
        rt(unsafe { s::cudaStreamCreateWithFlags(ph, flags) })
    })
}

unsafe extern "C" fn cuStreamCreateWithPriority(
    ph: *mut cudaStream_t,
    flags: c_uint,
    priority: c_int,
) -> CUresult {
    drv_ctx(|| {
        if ph.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null.
        rt(unsafe { s::cudaStreamCreateWithPriority(ph, flags, priority) })
    })
}

unsafe extern "C" fn cuStreamDestroy_v2(h: cudaStream_t) -> CUresult {
    drv_ctx(|| rt(s::cudaStreamDestroy(h)))
}

unsafe extern "C" fn cuStreamSynchronize(h: cudaStream_t) -> CUresult {
    drv(|| rt(s::cudaStreamSynchronize(h)))
}

unsafe extern "C" fn cuStreamSynchronize_ptsz(h: cudaStream_t) -> CUresult {
    drv(|| rt(s::cudaStreamSynchronize_ptsz(h)))
}

unsafe extern "C" fn cuStreamQuery(h: cudaStream_t) -> CUresult {
    drv(|| rt(s::cudaStreamQuery(h)))
}

unsafe extern "C" fn cuStreamQuery_ptsz(h: cudaStream_t) -> CUresult {
    drv(|| rt(s::cudaStreamQuery_ptsz(h)))
}

unsafe extern "C" fn cuStreamWaitEvent(
    h: cudaStream_t,
    ev: cudaEvent_t,
    flags: c_uint,
) -> CUresult {
    drv(|| rt(e::cudaStreamWaitEvent(h, ev, flags)))
}

unsafe extern "C" fn cuStreamWaitEvent_ptsz(
    h: cudaStream_t,
    ev: cudaEvent_t,
    flags: c_uint,
) -> CUresult {
    drv(|| rt(e::cudaStreamWaitEvent_ptsz(h, ev, flags)))
}

unsafe extern "C" fn cuStreamGetFlags(h: cudaStream_t, flags: *mut c_uint) -> CUresult {
    drv(|| {
        if flags.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null.
        rt(unsafe { s::cudaStreamGetFlags(h, flags) })
    })
}

unsafe extern "C" fn cuStreamGetPriority(h: cudaStream_t, priority: *mut c_int) -> CUresult {
    drv(|| {
        if priority.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null.
        rt(unsafe { s::cudaStreamGetPriority(h, priority) })
    })
}

unsafe extern "C" fn cuStreamGetCtx(h: cudaStream_t, pctx: *mut *mut c_void) -> CUresult {
    drv(|| {
        s::resolve(h).map_err(super::result::from_runtime)?;
        let ctx = current()?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(pctx, ctx as *mut c_void) }
    })
}

unsafe extern "C" fn cuStreamGetDevice(h: cudaStream_t, dev: *mut c_int) -> CUresult {
    drv(|| {
        s::resolve(h).map_err(super::result::from_runtime)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(dev, 0) }
    })
}

unsafe extern "C" fn cuStreamAddCallback(
    h: cudaStream_t,
    cb: s::StreamCallback,
    data: *mut c_void,
    flags: c_uint,
) -> CUresult {
    // `CUstreamCallback` receives a `CUresult`; the runtime passes 0 or a
    // sticky error's code, which the two enums share.
    // SAFETY: the callback and its data are the program's (CUDA's contract).
    drv(|| rt(unsafe { s::cudaStreamAddCallback(h, cb, data, flags) }))
}

unsafe extern "C" fn cuLaunchHostFunc(
    h: cudaStream_t,
    f: s::HostFn,
    data: *mut c_void,
) -> CUresult {
    // SAFETY: the function and its data are the program's.
    drv(|| rt(unsafe { s::cudaLaunchHostFunc(h, f, data) }))
}

unsafe extern "C" fn cuEventCreate(ph: *mut cudaEvent_t, flags: c_uint) -> CUresult {
    drv_ctx(|| {
        if ph.is_null() {
            return Err(INVALID_VALUE);
        }
        // `CU_EVENT_*` flags are `cudaEvent*`'s.
        // SAFETY: checked non-null.
        rt(unsafe { e::cudaEventCreateWithFlags(ph, flags) })
    })
}

unsafe extern "C" fn cuEventRecord(ev: cudaEvent_t, h: cudaStream_t) -> CUresult {
    drv(|| rt(e::cudaEventRecord(ev, h)))
}

unsafe extern "C" fn cuEventRecord_ptsz(ev: cudaEvent_t, h: cudaStream_t) -> CUresult {
    drv(|| rt(e::cudaEventRecord_ptsz(ev, h)))
}

unsafe extern "C" fn cuEventRecordWithFlags(
    ev: cudaEvent_t,
    h: cudaStream_t,
    flags: c_uint,
) -> CUresult {
    drv(|| rt(e::cudaEventRecordWithFlags(ev, h, flags)))
}

unsafe extern "C" fn cuEventSynchronize(ev: cudaEvent_t) -> CUresult {
    drv(|| rt(e::cudaEventSynchronize(ev)))
}

unsafe extern "C" fn cuEventQuery(ev: cudaEvent_t) -> CUresult {
    drv(|| rt(e::cudaEventQuery(ev)))
}

unsafe extern "C" fn cuEventElapsedTime(
    ms: *mut f32,
    start: cudaEvent_t,
    end: cudaEvent_t,
) -> CUresult {
    drv(|| {
        if ms.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null.
        rt(unsafe { e::cudaEventElapsedTime(ms, start, end) })
    })
}

unsafe extern "C" fn cuEventDestroy_v2(ev: cudaEvent_t) -> CUresult {
    drv(|| rt(e::cudaEventDestroy(ev)))
}

/// `cuProfilerStart`/`Stop`: accepted, as the runtime's are (there is no
/// profiler to start; `CUCC_PROFILE` is always on or off).
unsafe extern "C" fn cuProfilerStart() -> CUresult {
    drv(|| Ok(()))
}

/// This module's entry points by NVIDIA's symbol names.
pub fn entries() -> Vec<(&'static str, usize)> {
    entries![
        cuStreamCreate,
        cuStreamCreateWithPriority,
        "cuStreamDestroy" => cuStreamDestroy_v2,
        cuStreamDestroy_v2,
        cuStreamSynchronize,
        cuStreamSynchronize_ptsz,
        cuStreamQuery,
        cuStreamQuery_ptsz,
        cuStreamWaitEvent,
        cuStreamWaitEvent_ptsz,
        cuStreamGetFlags,
        cuStreamGetPriority,
        cuStreamGetCtx,
        cuStreamGetDevice,
        cuStreamAddCallback,
        cuLaunchHostFunc,
        cuEventCreate,
        cuEventRecord,
        cuEventRecord_ptsz,
        cuEventRecordWithFlags,
        cuEventSynchronize,
        cuEventQuery,
        cuEventElapsedTime,
        "cuEventElapsedTime_v2" => cuEventElapsedTime,
        "cuEventDestroy" => cuEventDestroy_v2,
        cuEventDestroy_v2,
        cuProfilerStart,
        "cuProfilerStop" => cuProfilerStart,
    ]
}
