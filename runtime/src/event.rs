//! Events: markers in a stream that complete, with a real timestamp, when all
//! work submitted before them has completed.
//!
//! Each `cudaEventRecord` makes a fresh [`Completion`] (the streams' one-shot
//! flag); the event remembers the latest one. Queries and waits look at the
//! latest record as of the call, so re-recording an event while a waiter is
//! blocked does not confuse it. `cudaStreamWaitEvent` is here too: it makes
//! a stream depend on an event's latest record.

use std::collections::BTreeMap;
use std::ffi::{c_float, c_uint};
use std::sync::{Arc, Mutex};

use crate::errors::{api, api_dev, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::{cudaEvent_t, cudaStream_t, EVENT_DISABLE_TIMING, EVENT_FLAGS_MASK};
pub use crate::stream::Completion;
use crate::stream::{resolve, resolve_ptsz, submit_completion, submit_event_wait, Stream};
use crate::sync::lock;

/// An event created by `cudaEventCreate`.
pub struct Event {
    flags: c_uint,
    current: Mutex<Option<Arc<Completion>>>,
}

impl Event {
    /// The latest record, if the event was ever recorded.
    pub fn current_record(&self) -> Option<Arc<Completion>> {
        lock(&self.current).clone()
    }
}

struct Registry {
    events: BTreeMap<usize, Arc<Event>>,
    next: usize,
}

static EVENTS: Mutex<Registry> = Mutex::new(Registry {
    events: BTreeMap::new(),
    next: 0,
});

/// Base of event handles; distinct from stream handles.
const EVENT_HANDLE_BASE: usize = 0x6e00_0000;

/// Resolves a C event handle.
pub fn lookup_event(handle: cudaEvent_t) -> CudaResult<Arc<Event>> {
    lock(&EVENTS)
        .events
        .get(&(handle as usize))
        .cloned()
        .ok_or(Error::InvalidResourceHandle)
}

/// Forgets every event (`cudaDeviceReset`).
pub fn destroy_all_events() {
    lock(&EVENTS).events.clear();
}

/// Creates an event with default flags.
///
/// # Safety
/// `event` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaEventCreate(event: *mut cudaEvent_t) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaEventCreateWithFlags(event, 0) }
}

/// Creates an event (`cudaEventDefault`, `BlockingSync`, `DisableTiming`,
/// `Interprocess`; waiting spins briefly, then sleeps, whatever the flags).
///
/// # Safety
/// `event` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaEventCreateWithFlags(
    event: *mut cudaEvent_t,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        if event.is_null() || flags & !EVENT_FLAGS_MASK != 0 {
            return Err(Error::InvalidValue);
        }
        let mut reg = lock(&EVENTS);
        reg.next += 1;
        let handle = EVENT_HANDLE_BASE + reg.next * 16;
        reg.events.insert(
            handle,
            Arc::new(Event {
                flags,
                current: Mutex::new(None),
            }),
        );
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(event, handle as cudaEvent_t) }
    })
}

/// The clock a record made now reads: a simulated device's when it is
/// current (streams have no device here; the record takes the device
/// current at `cudaEventRecord`), else the host's.
fn clock_of_current_device() -> CudaResult<Option<fn() -> u64>> {
    Ok(match crate::devices::current_kind()? {
        crate::devices::DeviceKind::Cpu => None,
        crate::devices::DeviceKind::Snitch => Some(crate::snitch::clock_ns as fn() -> u64),
        crate::devices::DeviceKind::Racer => Some(crate::racer::clock_ns as fn() -> u64),
    })
}

fn record(event: cudaEvent_t, stream: &Arc<Stream>) -> CudaResult {
    if let Some(r) = crate::capture::event_record(event, stream) {
        return r;
    }
    let event = lookup_event(event)?;
    let completion = Completion::with_clock(clock_of_current_device()?);
    *lock(&event.current) = Some(Arc::clone(&completion));
    let ticket = submit_completion(stream, Arc::clone(&completion))?;
    completion.set_source(stream, ticket);
    Ok(())
}

/// Records the event in a stream: it completes when the work before it does.
#[no_mangle]
pub extern "C" fn cudaEventRecord(event: cudaEvent_t, stream: cudaStream_t) -> cudaError_t {
    api_dev(|| record(event, &resolve(stream)?))
}

/// `cudaEventRecord` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaEventRecord_ptsz(event: cudaEvent_t, stream: cudaStream_t) -> cudaError_t {
    api_dev(|| record(event, &resolve_ptsz(stream)?))
}

/// `cudaEventRecord` with flags (only `cudaEventRecordDefault`/`External`).
#[no_mangle]
pub extern "C" fn cudaEventRecordWithFlags(
    event: cudaEvent_t,
    stream: cudaStream_t,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| {
        if flags & !1 != 0 {
            return Err(Error::InvalidValue);
        }
        record(event, &resolve(stream)?)
    })
}

/// Waits for the event's latest record to complete (at once if never recorded).
#[no_mangle]
pub extern "C" fn cudaEventSynchronize(event: cudaEvent_t) -> cudaError_t {
    api_dev(|| {
        let _p = crate::profile::Scope::new(crate::profile::Category::Synchronize);
        if let Some(c) = lookup_event(event)?.current_record() {
            c.wait();
        }
        crate::errors::check_sticky()
    })
}

/// `cudaSuccess` if the latest record completed (or none was made), else
/// `cudaErrorNotReady`.
#[no_mangle]
pub extern "C" fn cudaEventQuery(event: cudaEvent_t) -> cudaError_t {
    api_dev(|| match lookup_event(event)?.current_record() {
        Some(c) if c.get().is_none() => Err(Error::NotReady),
        _ => Ok(()),
    })
}

/// Milliseconds between two completed records.
///
/// # Safety
/// `ms` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaEventElapsedTime(
    ms: *mut c_float,
    start: cudaEvent_t,
    end: cudaEvent_t,
) -> cudaError_t {
    api_dev(|| {
        non_null(ms)?;
        let (start, end) = (lookup_event(start)?, lookup_event(end)?);
        if start.flags & EVENT_DISABLE_TIMING != 0 || end.flags & EVENT_DISABLE_TIMING != 0 {
            return Err(Error::InvalidResourceHandle);
        }
        let (s, e) = match (start.current_record(), end.current_record()) {
            (Some(s), Some(e)) => (s, e),
            _ => return Err(Error::InvalidResourceHandle),
        };
        // Records on different devices (a simulated clock and the host's,
        // or two clocks) have no common time base, as in CUDA.
        if s.simulated() != e.simulated() {
            return Err(Error::InvalidResourceHandle);
        }
        if s.simulated() {
            let (s, e) = match (s.sim_time(), e.sim_time()) {
                (Some(s), Some(e)) => (s, e),
                _ => return Err(Error::NotReady),
            };
            let millis = (e as f64 - s as f64) / 1e6;
            // SAFETY: checked non-null; caller promises validity.
            return unsafe { write_out(ms, millis as c_float) };
        }
        let (s, e) = match (s.get(), e.get()) {
            (Some(s), Some(e)) => (s, e),
            _ => return Err(Error::NotReady),
        };
        let millis = if e >= s {
            e.duration_since(s).as_secs_f64() * 1e3
        } else {
            -(s.duration_since(e).as_secs_f64() * 1e3)
        };
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(ms, millis as c_float) }
    })
}

/// Destroys an event; records already submitted still complete harmlessly.
#[no_mangle]
pub extern "C" fn cudaEventDestroy(event: cudaEvent_t) -> cudaError_t {
    api(|| {
        lock(&EVENTS)
            .events
            .remove(&(event as usize))
            .map(|_| ())
            .ok_or(Error::InvalidResourceHandle)
    })
}

fn wait_event(s: &Arc<Stream>, event: cudaEvent_t, flags: c_uint) -> CudaResult {
    if flags & !1 != 0 {
        return Err(Error::InvalidValue);
    }
    if let Some(r) = crate::capture::event_wait(s, event) {
        return r;
    }
    let event = lookup_event(event)?;
    match event.current_record() {
        Some(record) => submit_event_wait(s, record),
        None => Ok(()),
    }
}

/// Makes later work on the stream wait for the event's latest record.
#[no_mangle]
pub extern "C" fn cudaStreamWaitEvent(
    stream: cudaStream_t,
    event: cudaEvent_t,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| wait_event(&resolve(stream)?, event, flags))
}

/// `cudaStreamWaitEvent` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaStreamWaitEvent_ptsz(
    stream: cudaStream_t,
    event: cudaEvent_t,
    flags: c_uint,
) -> cudaError_t {
    api_dev(|| wait_event(&resolve_ptsz(stream)?, event, flags))
}
