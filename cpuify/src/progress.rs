//! Compile-time reporting: how long each phase of a compile took, and one
//! notice on stderr when a compile runs long.
//!
//! A compile of a large kernel can take many seconds; without a word the
//! user cannot tell a slow compile from a hung one. [`Progress`] keeps the
//! name of the phase running now and a watchdog thread that, once the
//! compile has run for `after`, reports that phase once (never a flood, and
//! nothing at all for compiles that end sooner). [`PhaseTimes`] sums the
//! time of each named phase, in first-seen order, for `cucc -v` and the
//! JIT's `CUCC_LOG=info` lines.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a compile runs before [`Progress`] says what it is doing.
pub const DEFAULT_NOTICE_AFTER: Duration = Duration::from_secs(5);

/// Time spent in each named phase, summed over repeats, in the order the
/// phases first ran.
#[derive(Clone, Debug, Default)]
pub struct PhaseTimes {
    entries: Vec<(String, Duration)>,
}

impl PhaseTimes {
    /// Adds `d` to phase `name`.
    pub fn add(&mut self, name: &str, d: Duration) {
        match self.entries.iter_mut().find(|(n, _)| n == name) {
            Some((_, t)) => *t += d,
            None => self.entries.push((name.to_string(), d)),
        }
    }

    /// Runs `f` and adds its time to phase `name`.
    pub fn time<T>(&mut self, name: &str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let out = f();
        self.add(name, t.elapsed());
        out
    }

    /// Adds every phase of `other` to this record.
    pub fn merge(&mut self, other: &PhaseTimes) {
        for (n, d) in &other.entries {
            self.add(n, *d);
        }
    }

    /// The phases and their times, in first-run order.
    pub fn entries(&self) -> &[(String, Duration)] {
        &self.entries
    }

    /// The sum over all phases.
    pub fn total(&self) -> Duration {
        self.entries.iter().map(|(_, d)| *d).sum()
    }

    /// One line per phase, `PREFIX NAME  12.3 ms`, with names aligned.
    pub fn render(&self, prefix: &str) -> String {
        let width = self.entries.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        let mut out = String::new();
        for (name, d) in &self.entries {
            out.push_str(&format!(
                "{prefix}{name:<width$} {:>10.1} ms\n",
                d.as_secs_f64() * 1e3
            ));
        }
        out
    }
}

/// What the watchdog shares with the compiling thread.
#[derive(Default)]
struct State {
    /// The phase running now, as the notice names it.
    phase: String,
    /// Set when the compile is over.
    done: bool,
}

/// A compile's current phase, reported once on stderr (through `sink`) if
/// the compile outlives its deadline. Dropping it ends the watchdog.
pub struct Progress {
    shared: Arc<(Mutex<State>, Condvar)>,
    watchdog: Option<JoinHandle<()>>,
}

/// Where a [`Progress`] notice goes (stderr in the driver and the runtime,
/// a buffer in tests).
pub type Sink = Box<dyn FnOnce(String) + Send>;

impl Progress {
    /// Starts watching a compile of `what` (a file or a module name): if it
    /// is still running after `after`, `sink` gets one line naming `what`
    /// and the phase running then (without a prefix: the sink adds the
    /// speaker's, `cucc: ` or `cucc runtime: `). The check happens when the deadline
    /// passes, or at [`Progress::finish`] if that comes later than the
    /// deadline (so a zero deadline always reports, which tests rely on).
    pub fn start(what: &str, after: Duration, sink: Sink) -> Progress {
        let shared = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let watch = Arc::clone(&shared);
        let what = what.to_string();
        let started = Instant::now();
        let watchdog = std::thread::Builder::new()
            .name("cucc-progress".into())
            .spawn(move || {
                let (lock, cv) = &*watch;
                let mut st = lock_state(lock);
                loop {
                    let elapsed = started.elapsed();
                    if elapsed >= after {
                        let phase = if st.phase.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", st.phase)
                        };
                        let secs = elapsed.as_secs_f64();
                        drop(st);
                        sink(format!(
                            "still compiling {what}{phase} ({secs:.0} s so far)..."
                        ));
                        return;
                    }
                    if st.done {
                        return;
                    }
                    st = match cv.wait_timeout(st, after - elapsed) {
                        Ok((g, _)) => g,
                        Err(poisoned) => poisoned.into_inner().0,
                    };
                }
            })
            .ok();
        Progress { shared, watchdog }
    }

    /// A watchdog printing on stderr after `after` (`None`: the default,
    /// or `CUCC_PROGRESS_AFTER` seconds when that is set).
    pub fn stderr(what: &str, after: Option<Duration>) -> Progress {
        let after = after.unwrap_or_else(notice_after);
        Progress::start(what, after, Box::new(|line| eprintln!("cucc: {line}")))
    }

    /// Names the phase running from now on.
    pub fn phase(&self, phase: impl Into<String>) {
        lock_state(&self.shared.0).phase = phase.into();
    }

    /// Ends the watch and waits for the watchdog (which reports now if the
    /// deadline has passed and it has not yet).
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        lock_state(&self.shared.0).done = true;
        self.shared.1.notify_all();
        if let Some(h) = self.watchdog.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

fn lock_state(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The notice deadline: `CUCC_PROGRESS_AFTER` (seconds, fractions allowed)
/// when it parses, else [`DEFAULT_NOTICE_AFTER`].
pub fn notice_after() -> Duration {
    std::env::var("CUCC_PROGRESS_AFTER")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(DEFAULT_NOTICE_AFTER, Duration::from_secs_f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collecting() -> (Arc<Mutex<Vec<String>>>, Sink) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let l = Arc::clone(&lines);
        let sink: Sink = Box::new(move |s| lock(&l).push(s));
        (lines, sink)
    }

    fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
        m.lock().unwrap_or_else(|p| p.into_inner())
    }

    #[test]
    fn phase_times_sum_repeats_in_first_run_order() {
        let mut t = PhaseTimes::default();
        t.add("b", Duration::from_millis(2));
        t.add("a", Duration::from_millis(1));
        t.add("b", Duration::from_millis(3));
        let names: Vec<&str> = t.entries().iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["b", "a"]);
        assert_eq!(t.entries()[0].1, Duration::from_millis(5));
        assert_eq!(t.total(), Duration::from_millis(6));
        let text = t.render("x: ");
        assert_eq!(text.lines().count(), 2);
        assert!(text.starts_with("x: b "), "{text}");
        assert!(text.contains("5.0 ms"), "{text}");
    }

    #[test]
    fn a_passed_deadline_reports_once() {
        let (lines, sink) = collecting();
        let p = Progress::start("k.cu", Duration::ZERO, sink);
        p.phase("pass mem2reg on kernel big");
        p.finish();
        let lines = lock(&lines);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("still compiling k.cu"), "{lines:?}");
    }

    #[test]
    fn a_compile_ending_before_its_deadline_is_quiet() {
        let (lines, sink) = collecting();
        let p = Progress::start("k.cu", Duration::from_secs(3600), sink);
        p.phase("frontend");
        drop(p);
        assert!(lock(&lines).is_empty());
    }
}
