//! Streams: per-stream FIFOs, each executed by its own worker thread.
//!
//! Ordering rules (CUDA's):
//! - work in one stream runs in submission order;
//! - the legacy default stream (handle 0 or `cudaStreamLegacy`) is a barrier for
//!   *blocking* streams: its work waits for all work submitted earlier to any
//!   blocking stream, and work submitted to a blocking stream waits for all work
//!   submitted earlier to the legacy stream;
//! - `cudaStreamNonBlocking` streams take part in neither rule;
//! - `cudaStreamPerThread` (handle 2) is a blocking stream owned by the calling
//!   host thread.
//!
//! Such cross-stream waits become dependencies of a task, waited for just
//! before the task runs, so the submitting thread never blocks.
//!
//! Whoever holds a stream's run token pops and runs its tasks, one thread at
//! a time, in order: normally the stream's thread, but a host thread that
//! waits for the stream (a synchronising call, a synchronous copy) takes the
//! token when it is free and runs the tasks up to the one it waits for
//! itself, kernels included (on a worker-sized stack, [`crate::bigstack`]),
//! as an OpenMP master thread runs its share of a parallel region. A
//! synchronous round trip then costs no thread hop and no wake-up, and the
//! waiting thread works instead of sleeping. The program's own callbacks and
//! host functions are left to the stream's thread. Launches the host does not
//! wait for still start at once on the stream's thread.

use crate::sync::lock;
use std::collections::{BTreeMap, VecDeque};
use std::ffi::{c_int, c_uint, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use crate::errors::{api, api_dev, cudaError_t, non_null, sticky, write_out, CudaResult, Error};
use crate::ffi::{cudaStream_t, STREAM_LEGACY, STREAM_NON_BLOCKING, STREAM_PER_THREAD};
use crate::signal::{spin_budget, Signal};

thread_local! {
    /// Set on stream threads, which wait for other streams without running
    /// their tasks.
    static STREAM_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the calling thread runs the tasks it waits for (host threads do).
fn runs_what_it_waits_for() -> bool {
    !STREAM_THREAD.with(|c| c.get())
}

/// A one-shot completion flag with the time it was set: an event record
/// (`crate::event`), which later work may depend on ([`Dep`]). Waiters
/// spin briefly, then sleep ([`Signal`]).
pub struct Completion {
    at: OnceLock<Instant>,
    /// A simulated device's clock (nanoseconds), read at completion
    /// instead of the host's: events on that device report model time.
    clock: Option<fn() -> u64>,
    sim_at: OnceLock<u64>,
    done: AtomicBool,
    signal: Signal,
    /// The stream and ticket of the record, so that a waiting host thread
    /// can run the stream up to it ([`Stream::wait_for`]).
    source: OnceLock<(Weak<Stream>, u64)>,
}

impl Completion {
    /// A fresh, incomplete record; with `clock` (a simulated device's
    /// nanoseconds), it also reads that clock when it completes.
    pub(crate) fn with_clock(clock: Option<fn() -> u64>) -> Arc<Completion> {
        Arc::new(Completion {
            at: OnceLock::new(),
            clock,
            sim_at: OnceLock::new(),
            done: AtomicBool::new(false),
            signal: Signal::new(),
            source: OnceLock::new(),
        })
    }

    /// Records the stream and ticket that complete it (once, right after
    /// it is queued).
    pub(crate) fn set_source(&self, stream: &Arc<Stream>, ticket: u64) {
        let _ = self.source.set((Arc::downgrade(stream), ticket));
    }

    /// Marks the record complete now and wakes its waiters.
    pub(crate) fn complete(&self) {
        if let Some(clock) = self.clock {
            let _ = self.sim_at.set(clock());
        }
        let _ = self.at.set(Instant::now());
        self.done.store(true, Ordering::Release);
        self.signal.notify_all();
    }

    /// Blocks until completed; returns the completion time.
    pub fn wait(&self) -> Instant {
        if let Some((stream, ticket)) = self.source.get() {
            if let Some(stream) = stream.upgrade() {
                stream.wait_for(*ticket);
            }
        }
        self.signal
            .wait_until(spin_budget(), || self.done.load(Ordering::Acquire));
        self.get().unwrap_or_else(Instant::now)
    }

    /// Whether the record reads a simulated clock.
    pub fn simulated(&self) -> bool {
        self.clock.is_some()
    }

    /// The simulated clock at completion (nanoseconds), if completed and
    /// simulated.
    pub fn sim_time(&self) -> Option<u64> {
        if self.done.load(Ordering::Acquire) {
            self.sim_at.get().copied()
        } else {
            None
        }
    }

    /// The completion time, if completed.
    pub fn get(&self) -> Option<Instant> {
        if self.done.load(Ordering::Acquire) {
            self.at.get().copied()
        } else {
            None
        }
    }
}

/// Something a task waits for before it runs.
pub(crate) enum Dep {
    /// The stream has completed the task with this ticket.
    Stream(Arc<Stream>, u64),
    /// An event record has completed.
    Event(Arc<Completion>),
}

impl Dep {
    fn wait(&self) {
        match self {
            Dep::Stream(s, ticket) => s.wait_for(*ticket),
            Dep::Event(c) => {
                c.wait();
            }
        }
    }
}

/// What a task does.
// Launches are held inline on purpose: queueing one allocates nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Work {
    /// A kernel launch, held inline (no allocation per launch).
    Launch(crate::job::Job),
    /// Completes an event record.
    Complete(Arc<Completion>),
    /// The runtime's own work (copies, sets, markers): any thread may run it.
    Call(Box<dyn FnOnce() + Send>),
    /// The program's code (callbacks, host functions): run on the stream's
    /// thread only, as CUDA runs it on a thread of its own (a host thread
    /// running it inside a synchronising call could deadlock on the
    /// program's own locks).
    User(Box<dyn FnOnce() + Send>),
    /// A call that has run.
    Done,
}

impl Work {
    /// Whether a waiting host thread may run this task itself (a launch
    /// needs a worker-sized stack).
    fn host_may_run(&self) -> bool {
        match self {
            Work::Launch(_) => crate::bigstack::available(),
            Work::User(_) => false,
            Work::Complete(_) | Work::Call(_) | Work::Done => true,
        }
    }

    fn run(&mut self) {
        match self {
            // In place: a launch is large, and moving it costs.
            Work::Launch(job) => {
                let mut run = || {
                    if catch_unwind(AssertUnwindSafe(|| job.run())).is_err() {
                        crate::errors::set_sticky(Error::Unknown);
                    }
                };
                // A host thread checked `host_may_run` first, so the stack
                // is there; stream threads run on their own.
                if crate::bigstack::run(&mut run).is_none() {
                    run();
                }
            }
            Work::Complete(c) => c.complete(),
            Work::Call(_) | Work::User(_) => {
                if let Work::Call(f) | Work::User(f) = std::mem::replace(self, Work::Done) {
                    f()
                }
            }
            Work::Done => {}
        }
    }
}

struct Task {
    deps: Vec<Dep>,
    work: Work,
    /// When it was queued (see [`HOST_GRACE`]).
    queued_at: Instant,
    /// Whether the stream thread was told about it: false for work a host
    /// thread queues just before running it itself.
    woke: bool,
}

/// How long the stream thread leaves a freshly queued task to the host
/// thread when it finds the stream idle: a host that launches and then
/// waits (or copies) at once takes the task within a microsecond or two
/// and runs it itself; had the stream thread started it, the host would
/// have to sleep until it finished. A launch nobody waits for starts this
/// much later.
/// The grace is skipped while the host queues work faster than the stream
/// runs it (two or more such tasks queued, or in the last burst): the host
/// is not waiting then, and the stream thread spins between bursts.
const HOST_GRACE: Duration = Duration::from_micros(20);

/// While the last push is this recent, the stream thread looks at its
/// queue every [`POLL`] instead of sleeping until a push wakes it, and a
/// push of work a host may run costs no system call. Waking the sleeping
/// thread (a futex wake: an interrupt to the other core, dear in a virtual
/// machine) cost the host several microseconds per launch, and the woken
/// thread mostly found the host already running the launch itself
/// ([`HOST_GRACE`]): myocyte's 6,234 round trips make a third of the futex
/// calls they made (docs/runtime.md).
const ACTIVE_WINDOW: Duration = Duration::from_millis(5);
/// How often the stream thread looks at its queue within [`ACTIVE_WINDOW`]:
/// the longest a launch or copy nobody waits for sits before it starts.
/// The program's callbacks, which only the stream thread runs, still wake
/// it, as does a host thread handing work back ([`Stream::disown`]).
const POLL: Duration = Duration::from_millis(1);
/// The stream thread's sleep outside [`ACTIVE_WINDOW`] (a push wakes it
/// sooner): a bound only, so that no lost wake-up could ever strand work.
const DEEP_SLEEP: Duration = Duration::from_secs(1);

/// Nanoseconds since the first call: the clock of [`Stream::last_push`].
fn now_ns() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

struct Queue {
    tasks: VecDeque<Task>,
}

/// A stream: its flags and its FIFO of pending tasks.
///
/// `submitted`, `popped` and `completed` count tasks (ticket `n` is the
/// `n`-th task, 1-based); `submitted` and `popped` change only under the
/// queue lock, `completed` only after the task ran. Waiters and the stream
/// thread read them without the lock, spinning briefly before they sleep
/// ([`Signal`]). `running` is the run token: its holder alone pops tasks.
pub struct Stream {
    handle: usize,
    flags: c_uint,
    priority: c_int,
    per_thread: bool,
    queue: Mutex<Queue>,
    submitted: AtomicU64,
    popped: AtomicU64,
    completed: AtomicU64,
    running: AtomicBool,
    closed: AtomicBool,
    /// Notified on a push, on close and when the run token is put back with
    /// tasks queued (the stream thread waits on it).
    work_ready: Signal,
    /// Notified when a task completes and when the run token is put back.
    work_done: Signal,
    /// When the last task was pushed ([`now_ns`]).
    last_push: AtomicU64,
    /// Set while the stream thread sleeps until notified (no push for
    /// [`ACTIVE_WINDOW`]): every push must notify it then.
    deep_sleep: AtomicBool,
}

impl Stream {
    fn spawn(
        handle: usize,
        flags: c_uint,
        priority: c_int,
        per_thread: bool,
    ) -> CudaResult<Arc<Stream>> {
        let stream = Arc::new(Stream {
            handle,
            flags,
            priority,
            per_thread,
            queue: Mutex::new(Queue {
                tasks: VecDeque::new(),
            }),
            submitted: AtomicU64::new(0),
            popped: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            running: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            work_ready: Signal::new(),
            work_done: Signal::new(),
            last_push: AtomicU64::new(0),
            deep_sleep: AtomicBool::new(false),
        });
        let worker = Arc::clone(&stream);
        std::thread::Builder::new()
            .name(format!("cucc-stream-{handle:x}"))
            .stack_size(crate::host::WORKER_STACK)
            .spawn(move || worker.run())
            .map_err(|_| Error::MemoryAllocation)?;
        Ok(stream)
    }

    /// The handle C code holds.
    pub fn handle(&self) -> usize {
        self.handle
    }

    /// Whether the stream synchronises with the legacy default stream.
    pub fn is_blocking(&self) -> bool {
        self.flags & STREAM_NON_BLOCKING == 0
    }

    /// The stream thread: whenever tasks are queued and no other thread
    /// holds the run token, takes it and runs them (after [`HOST_GRACE`]
    /// when the stream was idle). Between bursts it spins briefly only when
    /// the host is streaming work to it; otherwise it sleeps at once: a
    /// spinning stream thread would take every launch from host threads
    /// about to wait for it. It sleeps for [`POLL`] at a time while pushes
    /// are recent ([`ACTIVE_WINDOW`]), else until a push notifies it.
    fn run(self: Arc<Self>) {
        STREAM_THREAD.with(|c| c.set(true));
        crate::bigstack::mark_worker_thread();
        let mut streaming = false;
        loop {
            if !streaming {
                if let Some(left) = self.grace_left() {
                    self.work_ready.sleep_for(left, || {
                        self.running.load(Ordering::SeqCst) || !self.has_queued()
                    });
                    continue;
                }
            }
            streaming = false;
            if self.try_own() {
                streaming = self.run_tasks(None) >= 2;
                self.disown();
            }
            if self.closed.load(Ordering::SeqCst) && !self.has_queued() {
                return;
            }
            let spin = if streaming {
                spin_budget()
            } else {
                Duration::ZERO
            };
            let ready = || {
                !self.running.load(Ordering::SeqCst)
                    && (self.has_queued() || self.closed.load(Ordering::SeqCst))
            };
            let since_push = now_ns().saturating_sub(self.last_push.load(Ordering::SeqCst));
            if since_push < ACTIVE_WINDOW.as_nanos() as u64 {
                // Pushes need not wake the thread: it looks again soon.
                self.work_ready.wait_timed(spin, POLL, ready);
            } else {
                // Set before `ready` reads the queue, and read by `push`
                // after it counts its task: one of the two sees the other.
                self.deep_sleep.store(true, Ordering::SeqCst);
                self.work_ready.wait_timed(spin, DEEP_SLEEP, ready);
                self.deep_sleep.store(false, Ordering::SeqCst);
            }
        }
    }

    /// How much of [`HOST_GRACE`] the oldest queued task has left, if the
    /// stream is idle (nobody holds the run token) and not closed.
    fn grace_left(&self) -> Option<Duration> {
        if self.running.load(Ordering::SeqCst) || self.closed.load(Ordering::SeqCst) {
            return None;
        }
        let q = lock(&self.queue);
        let queued_at = q.tasks.front()?.queued_at;
        if q.tasks.iter().filter(|t| t.woke).nth(1).is_some() {
            return None;
        }
        drop(q);
        HOST_GRACE
            .checked_sub(queued_at.elapsed())
            .filter(|d| !d.is_zero())
    }

    /// Whether tasks wait in the queue (pushed and not yet popped).
    fn has_queued(&self) -> bool {
        self.popped.load(Ordering::SeqCst) < self.submitted.load(Ordering::SeqCst)
    }

    /// Takes the run token if it is free.
    fn try_own(&self) -> bool {
        self.running
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok()
    }

    /// Puts the run token back; the stream thread takes over what is queued.
    fn disown(&self) {
        self.running.store(false, Ordering::SeqCst);
        if self.has_queued() || self.closed.load(Ordering::SeqCst) {
            self.work_ready.notify(1);
        }
        self.work_done.notify_all();
    }

    /// Pops and runs tasks in order while holding the run token: all of them
    /// (the stream thread, `until` None), or on a host thread until ticket
    /// `until` has completed or the next task is not the host's to run.
    /// Returns how many of the tasks it ran were queued asynchronously
    /// (the stream thread was woken for them).
    fn run_tasks(&self, until: Option<u64>) -> usize {
        let mut woke = 0;
        loop {
            if until.is_some_and(|t| self.completed.load(Ordering::SeqCst) >= t) {
                return woke;
            }
            let mut task = {
                let mut q = lock(&self.queue);
                match q.tasks.front() {
                    Some(t) if until.is_none() || t.work.host_may_run() => {}
                    _ => return woke,
                }
                self.popped.fetch_add(1, Ordering::SeqCst);
                match q.tasks.pop_front() {
                    Some(t) => t,
                    None => return woke,
                }
            };
            woke += usize::from(task.woke);
            for dep in &task.deps {
                dep.wait();
            }
            // An event record fires only once the stream counts it done:
            // whoever sees the event complete (`cudaEventSynchronize`,
            // `cudaEventQuery`) then finds the stream idle if the record
            // was its last task (`cudaStreamQuery`), as CUDA guarantees.
            let record = match &task.work {
                Work::Complete(c) => Some(Arc::clone(c)),
                _ => None,
            };
            if record.is_none() && catch_unwind(AssertUnwindSafe(|| task.work.run())).is_err() {
                crate::errors::set_sticky(Error::Unknown);
            }
            drop(task);
            self.completed.fetch_add(1, Ordering::SeqCst);
            if let Some(c) = record {
                c.complete();
            }
            self.work_done.notify_all();
        }
    }

    /// Queues a task; `wake` tells the stream thread (a host thread that
    /// runs the task itself right after need not). Within [`ACTIVE_WINDOW`]
    /// the thread polls, and only work a host may not run notifies it.
    fn push(&self, deps: Vec<Dep>, work: Work, wake: bool) -> u64 {
        let host_may_run = work.host_may_run();
        let ticket = {
            let mut q = lock(&self.queue);
            q.tasks.push_back(Task {
                deps,
                work,
                queued_at: Instant::now(),
                woke: wake,
            });
            self.submitted.fetch_add(1, Ordering::SeqCst) + 1
        };
        self.last_push.store(now_ns(), Ordering::SeqCst);
        if wake && (!host_may_run || self.deep_sleep.load(Ordering::SeqCst)) {
            self.work_ready.notify(1);
        }
        ticket
    }

    /// Blocks until the task with `ticket` (and so every earlier one) is
    /// done. A host thread runs the tasks itself when the run token is free;
    /// while another thread holds it, the host thread helps with launches
    /// on the block pool, then waits.
    pub fn wait_for(&self, ticket: u64) {
        let done = || self.completed.load(Ordering::SeqCst) >= ticket;
        if done() {
            return;
        }
        if !runs_what_it_waits_for() {
            self.work_done.wait_until(spin_budget(), done);
            return;
        }
        loop {
            if self.try_own() {
                self.run_tasks(Some(ticket));
                self.disown();
                // Otherwise a task for the stream's thread comes first.
                self.work_done.wait_until(spin_budget(), done);
                return;
            }
            crate::pool::help();
            self.work_done.wait_until(spin_budget(), || {
                done() || !self.running.load(Ordering::SeqCst)
            });
            if done() {
                return;
            }
        }
    }

    /// The ticket of the last submitted task.
    pub fn last_ticket(&self) -> u64 {
        self.submitted.load(Ordering::Acquire)
    }

    /// Whether every submitted task has completed.
    pub fn is_idle(&self) -> bool {
        self.completed.load(Ordering::Acquire) == self.submitted.load(Ordering::Acquire)
    }

    fn pending(self: &Arc<Self>) -> Option<Dep> {
        let submitted = self.submitted.load(Ordering::Acquire);
        (self.completed.load(Ordering::Acquire) < submitted)
            .then(|| Dep::Stream(Arc::clone(self), submitted))
    }

    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.work_ready.notify_all();
    }
}

struct Registry {
    streams: BTreeMap<usize, Arc<Stream>>,
    next: usize,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    streams: BTreeMap::new(),
    next: 0,
});
/// The legacy default stream; it lives as long as the process.
static LEGACY: OnceLock<Arc<Stream>> = OnceLock::new();

/// Base of user stream handles; far from 0/1/2 and from event handles.
const STREAM_HANDLE_BASE: usize = 0x5a00_0000;

thread_local! {
    static PER_THREAD: std::cell::RefCell<Option<Arc<Stream>>> = const { std::cell::RefCell::new(None) };
}

fn new_handle(reg: &mut Registry) -> usize {
    reg.next += 1;
    STREAM_HANDLE_BASE + reg.next * 16
}

/// The legacy default stream, created on first use.
pub fn legacy() -> CudaResult<Arc<Stream>> {
    if let Some(s) = LEGACY.get() {
        return Ok(Arc::clone(s));
    }
    // Creation is rare and may fail (thread spawn): serialise it here
    // rather than inside `get_or_init`, which cannot fail.
    static CREATING: Mutex<()> = Mutex::new(());
    let _guard = lock(&CREATING);
    if let Some(s) = LEGACY.get() {
        return Ok(Arc::clone(s));
    }
    let s = Stream::spawn(STREAM_LEGACY, 0, 0, false)?;
    Ok(Arc::clone(LEGACY.get_or_init(|| s)))
}

/// The calling thread's per-thread default stream, created on first use.
pub fn per_thread() -> CudaResult<Arc<Stream>> {
    PER_THREAD.with(|slot| {
        if let Some(s) = slot.borrow().as_ref() {
            return Ok(Arc::clone(s));
        }
        let mut reg = lock(&REGISTRY);
        let handle = new_handle(&mut reg);
        let s = Stream::spawn(handle, 0, 0, true)?;
        reg.streams.insert(handle, Arc::clone(&s));
        *slot.borrow_mut() = Some(Arc::clone(&s));
        Ok(s)
    })
}

/// Resolves a C stream handle (0, `cudaStreamLegacy`, `cudaStreamPerThread` or
/// one from `cudaStreamCreate`).
pub fn resolve(handle: cudaStream_t) -> CudaResult<Arc<Stream>> {
    match handle as usize {
        0 | STREAM_LEGACY => legacy(),
        STREAM_PER_THREAD => per_thread(),
        h => lock(&REGISTRY)
            .streams
            .get(&h)
            .cloned()
            .ok_or(Error::InvalidResourceHandle),
    }
}

/// Resolves a handle for the per-thread-default-stream API variants
/// (`*_ptsz`), where 0 names the per-thread stream.
pub fn resolve_ptsz(handle: cudaStream_t) -> CudaResult<Arc<Stream>> {
    if handle.is_null() {
        per_thread()
    } else {
        resolve(handle)
    }
}

fn is_legacy(stream: &Stream) -> bool {
    stream.handle == STREAM_LEGACY
}

fn all_streams() -> Vec<Arc<Stream>> {
    lock(&REGISTRY).streams.values().cloned().collect()
}

/// Whether every blocking stream is idle (what the legacy stream waits for).
fn blocking_streams_idle() -> bool {
    lock(&REGISTRY)
        .streams
        .values()
        .all(|s| !s.is_blocking() || s.is_idle())
}

/// The implicit dependencies of a task submitted to `stream`.
fn implicit_deps(stream: &Stream) -> Vec<Dep> {
    if is_legacy(stream) {
        lock(&REGISTRY)
            .streams
            .values()
            .filter(|s| s.is_blocking())
            .filter_map(|s| s.pending())
            .collect()
    } else if stream.is_blocking() {
        LEGACY.get().and_then(|l| l.pending()).into_iter().collect()
    } else {
        Vec::new()
    }
}

/// Submits `work` to `stream` after the stream's implicit dependencies and
/// `extra`; returns its ticket.
pub(crate) fn submit_with(stream: &Arc<Stream>, extra: Option<Dep>, work: Work) -> CudaResult<u64> {
    crate::capture::refuse_if_capturing(stream)?;
    let mut deps = implicit_deps(stream);
    deps.extend(extra);
    Ok(stream.push(deps, work, true))
}

/// Submits `work` to `stream`; it runs asynchronously.
pub(crate) fn submit(
    stream: &Arc<Stream>,
    work: impl FnOnce() + Send + 'static,
) -> CudaResult<u64> {
    submit_with(stream, None, Work::Call(Box::new(work)))
}

/// Submits the program's own code (a callback or host function) to
/// `stream`; only the stream's thread runs it.
fn submit_user(stream: &Arc<Stream>, work: impl FnOnce() + Send + 'static) -> CudaResult<u64> {
    submit_with(stream, None, Work::User(Box::new(work)))
}

/// Queues a kernel launch on `stream`.
pub(crate) fn submit_launch(stream: &Arc<Stream>, job: crate::job::Job) -> CudaResult<u64> {
    submit_with(stream, None, Work::Launch(job))
}

/// Makes later work on `stream` wait for `record` (`cudaStreamWaitEvent`).
pub(crate) fn submit_event_wait(stream: &Arc<Stream>, record: Arc<Completion>) -> CudaResult {
    submit_with(
        stream,
        Some(Dep::Event(record)),
        Work::Call(Box::new(|| {})),
    )?;
    Ok(())
}

/// Queues the completion of an event record on `stream`.
pub(crate) fn submit_completion(stream: &Arc<Stream>, c: Arc<Completion>) -> CudaResult<u64> {
    submit_with(stream, None, Work::Complete(c))
}

/// Runs `work` in stream order on `stream` and waits for it (synchronous
/// copies and sets). A host thread runs it, and whatever is queued before it,
/// itself ([`Stream::wait_for`]), so the stream thread is not woken. Returns
/// the sticky error if the context broke meanwhile.
pub(crate) fn run_sync(stream: &Arc<Stream>, work: impl FnOnce() + Send + 'static) -> CudaResult {
    crate::capture::refuse_if_capturing(stream)?;
    let deps = implicit_deps(stream);
    let ticket = stream.push(deps, Work::Call(Box::new(work)), !runs_what_it_waits_for());
    stream.wait_for(ticket);
    crate::errors::check_sticky()
}

/// Waits for all work on `stream` (for the legacy stream: and for the blocking
/// streams it waits for), on the calling thread.
pub fn synchronize(stream: &Arc<Stream>) -> CudaResult {
    let _p = crate::profile::Scope::new(crate::profile::Category::Synchronize);
    crate::capture::refuse_if_capturing(stream)?;
    if is_legacy(stream) {
        for dep in implicit_deps(stream) {
            dep.wait();
        }
    }
    stream.wait_for(stream.last_ticket());
    crate::errors::check_sticky()
}

/// Waits for all work on every stream.
pub fn synchronize_all() -> CudaResult {
    if let Some(l) = LEGACY.get() {
        l.wait_for(l.last_ticket());
    }
    // Collected (no allocation when there are no user streams) so that no
    // lock is held while waiting.
    for s in &all_streams() {
        s.wait_for(s.last_ticket());
    }
    crate::errors::check_sticky()
}

/// Destroys every user-created stream (after their work completes); used by
/// `cudaDeviceReset`. Per-thread default streams stay.
pub fn destroy_all_user_streams() {
    let mut reg = lock(&REGISTRY);
    let doomed: Vec<usize> = reg
        .streams
        .iter()
        .filter(|(_, s)| !s.per_thread)
        .map(|(h, _)| *h)
        .collect();
    for h in doomed {
        if let Some(s) = reg.streams.remove(&h) {
            s.close();
        }
    }
}

fn create(flags: c_uint, priority: c_int) -> CudaResult<Arc<Stream>> {
    if flags & !STREAM_NON_BLOCKING != 0 {
        return Err(Error::InvalidValue);
    }
    let priority = priority.clamp(GREATEST_PRIORITY, LEAST_PRIORITY);
    let mut reg = lock(&REGISTRY);
    let handle = new_handle(&mut reg);
    let s = Stream::spawn(handle, flags, priority, false)?;
    reg.streams.insert(handle, Arc::clone(&s));
    Ok(s)
}

/// Lowest (numerically greatest) stream priority, as CUDA reports it.
pub const LEAST_PRIORITY: c_int = 0;
/// Highest (numerically least) stream priority.
pub const GREATEST_PRIORITY: c_int = -5;

/// Creates a blocking stream.
///
/// # Safety
/// `stream` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreate(stream: *mut cudaStream_t) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaStreamCreateWithPriority(stream, 0, LEAST_PRIORITY) }
}

/// Creates a stream with flags (`cudaStreamDefault` or `cudaStreamNonBlocking`).
///
/// # Safety
/// `stream` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreateWithFlags(
    stream: *mut cudaStream_t,
    flags: c_uint,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    unsafe { cudaStreamCreateWithPriority(stream, flags, LEAST_PRIORITY) }
}

/// Creates a stream with flags and a priority (clamped to the supported range;
/// priorities are recorded but do not change scheduling on the CPU).
///
/// # Safety
/// `stream` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreateWithPriority(
    stream: *mut cudaStream_t,
    flags: c_uint,
    priority: c_int,
) -> cudaError_t {
    api_dev(|| {
        non_null(stream)?;
        let s = create(flags, priority)?;
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(stream, s.handle as cudaStream_t) }
    })
}

/// Destroys a stream; work already submitted still completes.
#[no_mangle]
pub extern "C" fn cudaStreamDestroy(stream: cudaStream_t) -> cudaError_t {
    api(|| {
        let h = stream as usize;
        let mut reg = lock(&REGISTRY);
        match reg.streams.get(&h) {
            Some(s) if !s.per_thread => {}
            _ => return Err(Error::InvalidResourceHandle),
        }
        if let Some(s) = reg.streams.remove(&h) {
            s.close();
        }
        Ok(())
    })
}

/// Waits until all work submitted to the stream has completed.
#[no_mangle]
pub extern "C" fn cudaStreamSynchronize(stream: cudaStream_t) -> cudaError_t {
    api_dev(|| synchronize(&resolve(stream)?))
}

/// `cudaStreamSynchronize` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaStreamSynchronize_ptsz(stream: cudaStream_t) -> cudaError_t {
    api_dev(|| synchronize(&resolve_ptsz(stream)?))
}

fn query(s: &Arc<Stream>) -> CudaResult {
    if is_legacy(s) && !blocking_streams_idle() {
        return Err(Error::NotReady);
    }
    if s.is_idle() {
        Ok(())
    } else {
        Err(Error::NotReady)
    }
}

/// `cudaSuccess` if all work on the stream is done, else `cudaErrorNotReady`.
#[no_mangle]
pub extern "C" fn cudaStreamQuery(stream: cudaStream_t) -> cudaError_t {
    api_dev(|| query(&resolve(stream)?))
}

/// `cudaStreamQuery` with per-thread default stream semantics.
#[no_mangle]
pub extern "C" fn cudaStreamQuery_ptsz(stream: cudaStream_t) -> cudaError_t {
    api_dev(|| query(&resolve_ptsz(stream)?))
}

/// C signature of a stream callback.
pub type StreamCallback = Option<unsafe extern "C" fn(cudaStream_t, cudaError_t, *mut c_void)>;
/// C signature of a host function.
pub type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;

/// Raw pointer that C promises may cross threads (user data of callbacks).
#[derive(Clone, Copy)]
pub(crate) struct SendPtr(pub *mut c_void);
// SAFETY: the CUDA API contract: user data handed to a stream is used on the
// stream's thread, and the caller guarantees it stays valid.
unsafe impl Send for SendPtr {}

/// Queues `cb(handle, status, data)` on `s` (`cudaStreamAddCallback`).
///
/// # Safety
/// `cb` must be safe to call on another thread with the stream, a status
/// and `data`, once the work before it has run.
unsafe fn add_callback(
    s: &Arc<Stream>,
    handle: cudaStream_t,
    cb: StreamCallback,
    data: *mut c_void,
    flags: c_uint,
) -> CudaResult {
    let cb = cb.ok_or(Error::InvalidValue)?;
    if flags != 0 {
        return Err(Error::InvalidValue);
    }
    let data = SendPtr(data);
    let handle = SendPtr(handle);
    submit_user(s, move || {
        let status = sticky().map_or(0, |e| e as i32);
        let (h, d) = (handle, data);
        // SAFETY: the user's callback with the user's data, as CUDA calls it.
        unsafe { cb(h.0, status, d.0) };
    })?;
    Ok(())
}

/// Calls `callback(stream, status, userData)` on a runtime thread once all
/// earlier work on the stream has completed.
///
/// # Safety
/// `callback` must be a valid function; `user_data` is passed through.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamAddCallback(
    stream: cudaStream_t,
    callback: StreamCallback,
    user_data: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { add_callback(&resolve(stream)?, stream, callback, user_data, flags) })
}

/// `cudaStreamAddCallback` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaStreamAddCallback`].
#[no_mangle]
pub unsafe extern "C" fn cudaStreamAddCallback_ptsz(
    stream: cudaStream_t,
    callback: StreamCallback,
    user_data: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { add_callback(&resolve_ptsz(stream)?, stream, callback, user_data, flags) })
}

/// Queues `f(data)` on `s` (`cudaLaunchHostFunc`).
///
/// # Safety
/// `f` must be safe to call on another thread with `data`, once the work
/// before it has run.
unsafe fn launch_host_func(s: &Arc<Stream>, f: HostFn, data: *mut c_void) -> CudaResult {
    let f = f.ok_or(Error::InvalidValue)?;
    if let Some(r) = crate::capture::host_func(s, f as usize, data as usize) {
        return r;
    }
    let data = SendPtr(data);
    submit_user(s, move || {
        let d = data;
        // SAFETY: the user's host function with the user's data.
        unsafe { f(d.0) };
    })?;
    Ok(())
}

/// Runs `fn(userData)` on a runtime thread in stream order.
///
/// # Safety
/// `f` must be a valid function; `user_data` is passed through.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchHostFunc(
    stream: cudaStream_t,
    f: HostFn,
    user_data: *mut c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { launch_host_func(&resolve(stream)?, f, user_data) })
}

/// `cudaLaunchHostFunc` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaLaunchHostFunc`].
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchHostFunc_ptsz(
    stream: cudaStream_t,
    f: HostFn,
    user_data: *mut c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { launch_host_func(&resolve_ptsz(stream)?, f, user_data) })
}

/// Reports the priority range: `least` is 0, `greatest` is -5.
///
/// # Safety
/// Each pointer must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetStreamPriorityRange(
    least: *mut c_int,
    greatest: *mut c_int,
) -> cudaError_t {
    api(|| {
        if !least.is_null() {
            // SAFETY: non-null, caller promises validity.
            unsafe { least.write(LEAST_PRIORITY) };
        }
        if !greatest.is_null() {
            // SAFETY: as above.
            unsafe { greatest.write(GREATEST_PRIORITY) };
        }
        Ok(())
    })
}

/// The flags a stream was created with.
///
/// # Safety
/// `flags` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetFlags(
    stream: cudaStream_t,
    flags: *mut c_uint,
) -> cudaError_t {
    api(|| {
        let s = resolve(stream)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(flags, s.flags) }
    })
}

/// The priority a stream was created with.
///
/// # Safety
/// `priority` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetPriority(
    stream: cudaStream_t,
    priority: *mut c_int,
) -> cudaError_t {
    api(|| {
        let s = resolve(stream)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(priority, s.priority) }
    })
}
