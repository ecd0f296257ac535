//! Spin-then-sleep waiting: an event count on a Linux futex.
//!
//! Launch-heavy programs hand work between the host thread, stream threads
//! and block workers thousands of times a second. A condition variable costs
//! a system call per notification and a sleeping thread takes tens of
//! microseconds to wake, which is what a launch used to cost. Here a waiter
//! first spins for a short, bounded time ([`spin_budget`]; most hand-offs end
//! within it), then sleeps on a futex; a notifier makes a system call only
//! when someone sleeps.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Default spin before sleeping: long enough to cover the gap between
/// back-to-back launches and synchronisations, short enough that an idle
/// runtime stops burning a core within a fraction of a millisecond.
const DEFAULT_SPIN_US: u64 = 50;
/// A pause this long between two looks at the condition means the spinner
/// lost its core.
const PREEMPTED: Duration = Duration::from_micros(20);
/// This many such pauses, each within [`STRIKE_WINDOW`] of the previous
/// one, mean the machine is busy; a lone pause (a virtual CPU's hiccup on
/// an idle machine) does not.
const STRIKES: u32 = 3;
const STRIKE_WINDOW: Duration = Duration::from_millis(10);
/// Once the machine looks busy, nobody spins for a while: 5 ms at first,
/// doubling (up to 1 s) while the machine is found busy again soon after
/// each pause ends. On a busy machine a spinning thread is the worst kind of
/// waiter: the scheduler counts it as busy and runs it late, and its partner
/// cannot wake it (it does not sleep), whereas a sleeping thread is run as
/// soon as it is woken. A short first pause matters because the runtime's
/// own threads can look like load for a moment (a host thread submitting
/// while both executors run a kernel).
const QUIET_MIN: Duration = Duration::from_millis(5);
const QUIET_MAX: Duration = Duration::from_secs(1);
/// The current pause length in nanoseconds.
static QUIET_NS: AtomicU64 = AtomicU64::new(0);

/// Nanoseconds after [`epoch`] before which nobody spins.
static NO_SPIN_UNTIL: AtomicU64 = AtomicU64::new(0);
/// When the last preempted spinner noticed (nanoseconds after [`epoch`]),
/// and how many noticed in a row. Updated racily: an estimate suffices.
static LAST_STRIKE: AtomicU64 = AtomicU64::new(0);
static STRIKE_COUNT: AtomicU32 = AtomicU32::new(0);

/// Records that a spinner lost its core at `now`; after [`STRIKES`] in a
/// row, stops spinning for a while ([`QUIET_MIN`]).
fn strike(now: Instant) {
    let t = since_epoch(now);
    let last = LAST_STRIKE.swap(t, Ordering::Relaxed);
    let in_row = if t.saturating_sub(last) < STRIKE_WINDOW.as_nanos() as u64 {
        STRIKE_COUNT.fetch_add(1, Ordering::Relaxed) + 1
    } else {
        STRIKE_COUNT.store(1, Ordering::Relaxed);
        1
    };
    if in_row >= STRIKES {
        STRIKE_COUNT.store(0, Ordering::Relaxed);
        let (min, max) = (QUIET_MIN.as_nanos() as u64, QUIET_MAX.as_nanos() as u64);
        let last = QUIET_NS.load(Ordering::Relaxed).max(min);
        // Busy again within one pause length of the last pause's end?
        let again = t < NO_SPIN_UNTIL.load(Ordering::Relaxed).saturating_add(last);
        let pause = if again { (last * 2).min(max) } else { min };
        QUIET_NS.store(pause, Ordering::Relaxed);
        NO_SPIN_UNTIL.store(t.saturating_add(pause), Ordering::Relaxed);
    }
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn since_epoch(t: Instant) -> u64 {
    t.saturating_duration_since(epoch()).as_nanos() as u64
}

/// How long waiters spin before sleeping: `CUCC_SPIN_US` microseconds
/// (0 disables spinning), else 50 µs.
pub fn spin_budget() -> Duration {
    static BUDGET: OnceLock<Duration> = OnceLock::new();
    *BUDGET.get_or_init(|| {
        let us = std::env::var("CUCC_SPIN_US")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(DEFAULT_SPIN_US);
        Duration::from_micros(us)
    })
}

/// An event count: waiters wait for a condition, notifiers bump the count
/// after making a condition true.
pub struct Signal {
    seq: AtomicU32,
    sleepers: AtomicU32,
}

impl Default for Signal {
    fn default() -> Self {
        Self::new()
    }
}

impl Signal {
    /// A signal nobody waits on.
    pub const fn new() -> Signal {
        Signal {
            seq: AtomicU32::new(0),
            sleepers: AtomicU32::new(0),
        }
    }

    /// The current count (for waiting until it changes).
    pub fn seq(&self) -> u32 {
        self.seq.load(Ordering::SeqCst)
    }

    /// Wakes up to `n` sleeping waiters; call after making their condition true.
    pub fn notify(&self, n: u32) {
        self.seq.fetch_add(1, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            futex_wake(&self.seq, n.min(i32::MAX as u32) as i32);
        }
    }

    /// Wakes every sleeping waiter.
    pub fn notify_all(&self) {
        self.notify(u32::MAX);
    }

    /// Returns once `done()` holds: spins for up to `spin`, then sleeps
    /// until notified (re-checking `done` after every wake-up).
    pub fn wait_until(&self, spin: Duration, done: impl FnMut() -> bool) {
        self.wait(spin, false, done)
    }

    /// Sleeps (without spinning) until notified or until `timeout` has
    /// passed, unless `done()` holds already; the caller re-checks.
    pub fn sleep_for(&self, timeout: Duration, mut done: impl FnMut() -> bool) {
        let seen = self.seq.load(Ordering::SeqCst);
        if done() {
            return;
        }
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        if !done() {
            futex_wait_for(&self.seq, seen, Some(timeout));
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Returns once `done()` holds, after spinning for up to `spin` and
    /// then sleeping until notified or until `timeout` has passed, whichever
    /// comes first; the caller re-checks.
    pub fn wait_timed(&self, spin: Duration, timeout: Duration, mut done: impl FnMut() -> bool) {
        if done() || spin_until(spin, false, &mut done) {
            return;
        }
        self.sleep_for(timeout, done);
    }

    /// [`Signal::wait_until`] for a wait known to be short (work already
    /// running on another thread): spins even while the machine looks busy.
    pub fn wait_until_short(&self, spin: Duration, done: impl FnMut() -> bool) {
        self.wait(spin, true, done)
    }

    fn wait(&self, spin: Duration, short: bool, mut done: impl FnMut() -> bool) {
        if done() || spin_until(spin, short, &mut done) {
            return;
        }
        loop {
            let seen = self.seq.load(Ordering::SeqCst);
            if done() {
                return;
            }
            self.sleepers.fetch_add(1, Ordering::SeqCst);
            // A notification after `seen` was read changes `seq`, so the
            // futex returns at once instead of sleeping through it.
            if !done() {
                futex_wait(&self.seq, seen);
            }
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Spins until `done()`, until `budget` has passed or until the spinner
/// is preempted; whether `done()` held. It never yields (a yielding spinner
/// hands its core away for a whole time slice), gives up when preempted,
/// and does not spin at all while the machine looks busy ([`strike`])
/// unless the wait is `short`.
fn spin_until(budget: Duration, short: bool, done: &mut impl FnMut() -> bool) -> bool {
    if budget.is_zero() || !room_to_spin(0) {
        return false;
    }
    let start = Instant::now();
    if !short && since_epoch(start) < NO_SPIN_UNTIL.load(Ordering::Relaxed) {
        return false;
    }
    SPINNING.fetch_add(1, Ordering::Relaxed);
    let _spinning = Spinning;
    let mut last = start;
    loop {
        for _ in 0..32 {
            std::hint::spin_loop();
        }
        let now = Instant::now();
        if now.duration_since(last) >= PREEMPTED {
            strike(now);
            return done();
        }
        if done() {
            return true;
        }
        if now.duration_since(start) >= budget || !room_to_spin(1) {
            return false;
        }
        last = now;
    }
}

/// Threads spinning in [`spin_until`] now.
static SPINNING: AtomicUsize = AtomicUsize::new(0);
/// Threads running chunks of the block pool now ([`Working`]).
static WORKING: AtomicUsize = AtomicUsize::new(0);

/// Decrements [`SPINNING`] when a spin ends.
struct Spinning;

impl Drop for Spinning {
    fn drop(&mut self) {
        SPINNING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Counts the holder as running pool work while it lives: spinners give way
/// to working threads, so that waiting never takes a core from work.
pub struct Working;

impl Working {
    /// Starts counting the calling thread as working.
    pub fn start() -> Working {
        WORKING.fetch_add(1, Ordering::Relaxed);
        Working
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        WORKING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Whether fewer threads run pool work than there are cores.
pub fn core_free() -> bool {
    WORKING.load(Ordering::Relaxed) < cores()
}

fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(crate::host::core_count)
}

/// Whether a thread may (keep) spin(ning): spinning and working threads,
/// `own` of them the caller, must fit the cores. Three busy threads on two
/// cores preempt one another, and a preempted spinner is the slowest waiter.
fn room_to_spin(own: usize) -> bool {
    SPINNING.load(Ordering::Relaxed) + WORKING.load(Ordering::Relaxed) - own < cores()
}

fn futex_wait(word: &AtomicU32, expected: u32) {
    futex_wait_for(word, expected, None)
}

/// Sleeps while `word` holds `expected`, at most `timeout` if given.
fn futex_wait_for(word: &AtomicU32, expected: u32, timeout: Option<Duration>) {
    let ts = timeout.map(|t| libc::timespec {
        tv_sec: t.as_secs().min(i32::MAX as u64) as libc::time_t,
        tv_nsec: t.subsec_nanos() as libc::c_long,
    });
    let ts_ptr = ts
        .as_ref()
        .map_or(std::ptr::null(), |t| t as *const libc::timespec);
    // SAFETY: FUTEX_WAIT reads the aligned u32 behind a live atomic; it
    // sleeps only while the value equals `expected`, for at most the
    // relative timeout when one is given (a live timespec). Spurious
    // returns (EINTR, EAGAIN, ETIMEDOUT) are fine: callers re-check their
    // condition.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            ts_ptr,
        );
    }
}

fn futex_wake(word: &AtomicU32, n: i32) {
    // SAFETY: FUTEX_WAKE only uses the address as a key.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            n,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    #[test]
    fn sleeping_waiter_is_woken() {
        let s = Arc::new((Signal::new(), AtomicBool::new(false)));
        let waiter = {
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                s.0.wait_until(Duration::ZERO, || s.1.load(Ordering::Acquire))
            })
        };
        std::thread::sleep(Duration::from_millis(20));
        s.1.store(true, Ordering::Release);
        s.0.notify_all();
        waiter.join().expect("waiter");
    }

    #[test]
    fn sleep_for_returns_after_its_timeout_or_a_notification() {
        let s = Signal::new();
        // Nobody notifies: the timeout ends the sleep.
        s.sleep_for(Duration::from_millis(5), || false);
        let s = Arc::new((Signal::new(), AtomicBool::new(false)));
        let sleeper = {
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                while !s.1.load(Ordering::Acquire) {
                    s.0.sleep_for(Duration::from_secs(3600), || s.1.load(Ordering::Acquire));
                }
            })
        };
        std::thread::sleep(Duration::from_millis(10));
        s.1.store(true, Ordering::Release);
        s.0.notify_all();
        sleeper.join().expect("sleeper");
    }

    #[test]
    fn many_hand_offs_complete() {
        // Ping-pong a counter between two threads with and without spinning.
        for spin in [Duration::ZERO, Duration::from_micros(50)] {
            let s = Arc::new((Signal::new(), AtomicU32::new(0)));
            let other = {
                let s = Arc::clone(&s);
                std::thread::spawn(move || {
                    for i in 0..2000u32 {
                        s.0.wait_until(spin, || s.1.load(Ordering::Acquire) == 2 * i + 1);
                        s.1.store(2 * i + 2, Ordering::Release);
                        s.0.notify_all();
                    }
                })
            };
            for i in 0..2000u32 {
                s.1.store(2 * i + 1, Ordering::Release);
                s.0.notify_all();
                s.0.wait_until(spin, || s.1.load(Ordering::Acquire) == 2 * i + 2);
            }
            other.join().expect("other");
        }
    }
}
