//! Spin-then-sleep waiting: an event count on a Linux futex.
//!
//! Launch-heavy programs hand work between the host thread, stream threads
//! and block workers thousands of times a second. A condition variable costs
//! a system call per notification and a sleeping thread takes tens of
//! microseconds to wake, which is what a launch used to cost. Here a waiter
//! first spins for a short, bounded time ([`spin_budget`]; most hand-offs end
//! within it), then sleeps on a futex; a notifier makes a system call only
//! when someone sleeps.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Default spin before sleeping: long enough to cover the gap between
/// back-to-back launches and synchronisations, short enough that an idle
/// runtime stops burning a core within a fraction of a millisecond.
const DEFAULT_SPIN_US: u64 = 50;
/// Spin without yielding this long first; afterwards each round yields the
/// core, so spinning threads do not starve runnable ones on a busy machine.
const PURE_SPIN: Duration = Duration::from_micros(4);

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

/// Spins until `done()` or until `budget` has passed; whether `done()` held.
fn spin_until(budget: Duration, done: &mut impl FnMut() -> bool) -> bool {
    if budget.is_zero() {
        return false;
    }
    let start = Instant::now();
    loop {
        for _ in 0..32 {
            std::hint::spin_loop();
        }
        if done() {
            return true;
        }
        let spent = start.elapsed();
        if spent >= budget {
            return false;
        }
        if spent >= PURE_SPIN {
            std::thread::yield_now();
        }
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
