//! Spin-then-sleep waiting: an event count on a Linux futex.
//!
//! Launch-heavy programs hand work between the host thread, stream threads
//! and block workers thousands of times a second. A condition variable costs
//! a system call per notification and a sleeping thread takes tens of
//! microseconds to wake, which is what a launch used to cost. Here a waiter
//! first spins for a short, bounded time ([`spin_budget`]; most hand-offs end
//! within it), then sleeps on a futex; a notifier makes a system call only
//! when someone sleeps.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Default spin before sleeping: long enough to cover the gap between
/// back-to-back launches and synchronisations, short enough that an idle
/// runtime stops burning a core within a fraction of a millisecond.
const DEFAULT_SPIN_US: u64 = 50;
/// A pause this long between two looks at the condition means the spinner
/// lost its core: the machine is busy.
const PREEMPTED: Duration = Duration::from_micros(20);
/// After a spinner lost its core, nobody spins for this long. On a busy
/// machine a spinning thread is the worst kind of waiter: the scheduler
/// counts it as busy and runs it late, and its partner cannot wake it
/// (it does not sleep), whereas a sleeping thread is run as soon as it is
/// woken.
const QUIET: Duration = Duration::from_millis(100);

/// Nanoseconds after [`epoch`] before which nobody spins.
static NO_SPIN_UNTIL: AtomicU64 = AtomicU64::new(0);

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
    pub fn wait_until(&self, spin: Duration, mut done: impl FnMut() -> bool) {
        if done() || spin_until(spin, &mut done) {
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
/// hands its core away for a whole time slice), and it does not spin at
/// all for a while after any spinner was preempted ([`QUIET`]).
fn spin_until(budget: Duration, done: &mut impl FnMut() -> bool) -> bool {
    if budget.is_zero() {
        return false;
    }
    let start = Instant::now();
    if since_epoch(start) < NO_SPIN_UNTIL.load(Ordering::Relaxed) {
        return false;
    }
    let mut last = start;
    loop {
        for _ in 0..32 {
            std::hint::spin_loop();
        }
        let now = Instant::now();
        if now.duration_since(last) >= PREEMPTED {
            NO_SPIN_UNTIL.store(since_epoch(now + QUIET), Ordering::Relaxed);
            return done();
        }
        if done() {
            return true;
        }
        if now.duration_since(start) >= budget {
            return false;
        }
        last = now;
    }
}

fn futex_wait(word: &AtomicU32, expected: u32) {
    // SAFETY: FUTEX_WAIT reads the aligned u32 behind a live atomic; it
    // sleeps only while the value equals `expected`. Spurious returns
    // (EINTR, EAGAIN) are fine: callers re-check their condition.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            std::ptr::null::<libc::timespec>(),
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
