//! The block pool: helper threads that run the chunks of a launch (or of a
//! large copy) together with the thread that posts it.
//!
//! [`parallel_for`] publishes a job in the posting thread's own slot and
//! works on it itself, so a launch never waits for another thread to start
//! it and the poster is one of the `CUCC_NUM_THREADS` executors (the pool
//! has one helper fewer). Chunks are claimed with one `fetch_add` on a word
//! of two counters: the poster takes chunks from the front, helpers from
//! the back, so in launch after launch over the same data each core gets
//! about the same blocks and finds them in its own caches, as OpenMP's
//! static schedule does, while a late or slow thread still leaves its
//! share to the others. Helpers spin briefly after their last chunk before
//! sleeping ([`crate::signal`]). Posting allocates nothing: slots are per
//! thread and reused.

use std::cell::UnsafeCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::signal::{core_free, spin_budget, Signal, Working};
use crate::sync::lock;

/// A chunk body: called with each chunk index in `[0, chunks)`.
pub type ChunkFn<'a> = &'a (dyn Fn(u32) + Sync + 'a);

/// One thread's job slot.
struct Slot {
    /// The job's chunk count and the chunks claimed from its front and
    /// from its back, in one word ([`fields`]), so that publishing a job
    /// is one store and a claim one `fetch_add`: a claim adds one to its
    /// end's count and is good when the claims before it, both ends
    /// together, leave a chunk.
    word: AtomicU64,
    /// Chunks finished.
    done: AtomicU32,
    /// The job's body, valid while a claimed chunk of it runs: written
    /// before `word` is published (release) and read after a successful
    /// claim (acquire), and the poster waits for every chunk before
    /// returning.
    body: UnsafeCell<Option<ChunkFn<'static>>>,
    /// Notified when the last chunk finishes.
    finished: Signal,
}

// SAFETY: `body` is only written by the slot's owner while no chunk is
// claimed, and only read by threads that claimed a chunk (see the field).
unsafe impl Sync for Slot {}

/// Bits of each field of a slot's word.
const FIELD_BITS: u32 = 21;
/// The largest chunk count a job may have (claims past the end, at most
/// one per thread and job, must not carry into the next field).
const MAX_CHUNKS: u32 = (1 << (FIELD_BITS - 1)) - 1;

/// (claimed from the front, claimed from the back, chunks) of a word.
fn fields(w: u64) -> (u32, u32, u32) {
    let mask = (1u64 << FIELD_BITS) - 1;
    (
        (w & mask) as u32,
        ((w >> FIELD_BITS) & mask) as u32,
        (w >> (2 * FIELD_BITS)) as u32,
    )
}

/// Which end of a job a thread claims chunks from.
#[derive(Clone, Copy)]
enum End {
    /// The poster: chunks 0, 1, 2, ...
    Front,
    /// Helpers: the last chunk, the one before, ...
    Back,
}

impl Slot {
    fn new() -> Slot {
        Slot {
            word: AtomicU64::new(0),
            done: AtomicU32::new(0),
            body: UnsafeCell::new(None),
            finished: Signal::new(),
        }
    }

    fn has_work(&self) -> bool {
        let (front, back, total) = fields(self.word.load(Ordering::Relaxed));
        front + back < total
    }

    /// Claims and runs chunks from `end` until none is left.
    fn work(&self, end: End) {
        let step = match end {
            End::Front => 1,
            End::Back => 1 << FIELD_BITS,
        };
        while self.has_work() {
            let (front, back, total) = fields(self.word.fetch_add(step, Ordering::AcqRel));
            if front + back >= total {
                return;
            }
            let index = match end {
                End::Front => front,
                End::Back => total - 1 - back,
            };
            // SAFETY: a successful claim; see `body`.
            if let Some(body) = unsafe { *self.body.get() } {
                // A panic must neither kill a helper nor leave the poster
                // waiting for a chunk that never finishes.
                if catch_unwind(AssertUnwindSafe(|| body(index))).is_err() {
                    crate::errors::set_sticky(crate::Error::Unknown);
                }
            }
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == total {
                self.finished.notify(1);
            }
        }
    }
}

struct Pool {
    helpers: usize,
    /// Bumped when a job is posted.
    posted: Signal,
    /// Slots with a job in progress.
    active: Mutex<Vec<&'static Slot>>,
    /// Slots of exited threads, for reuse.
    free: Mutex<Vec<&'static Slot>>,
}

static POOL: OnceLock<Pool> = OnceLock::new();

fn pool() -> &'static Pool {
    POOL.get_or_init(|| {
        let wanted = crate::host::worker_count().saturating_sub(1);
        let mut helpers = 0;
        for i in 0..wanted {
            let spawned = std::thread::Builder::new()
                .name(format!("cucc-block-{i}"))
                .stack_size(crate::host::WORKER_STACK)
                .spawn(helper_main);
            if spawned.is_ok() {
                helpers += 1;
            }
        }
        Pool {
            helpers,
            posted: Signal::new(),
            active: Mutex::new(Vec::new()),
            free: Mutex::new(Vec::new()),
        }
    })
}

/// Threads that execute chunks: the helpers and the posting thread.
pub fn executors() -> usize {
    pool().helpers + 1
}

fn helper_main() {
    crate::bigstack::mark_worker_thread();
    // The pool is being initialised by the thread that spawned us; wait for it.
    let pool = loop {
        if let Some(p) = POOL.get() {
            break p;
        }
        std::thread::sleep(std::time::Duration::from_micros(50));
    };
    loop {
        let seen = pool.posted.seq();
        while let Some(slot) = find_work(pool) {
            let _working = Working::start();
            slot.work(End::Back);
        }
        pool.posted
            .wait_until(spin_budget(), || pool.posted.seq() != seen);
    }
}

fn find_work(pool: &Pool) -> Option<&'static Slot> {
    lock(&pool.active).iter().copied().find(|s| s.has_work())
}

/// Runs chunks of jobs other threads posted while a core is free: a host
/// thread waiting for a launch that a stream thread runs works on it (on a
/// worker-sized stack) instead of only waiting.
pub fn help() {
    let Some(pool) = POOL.get() else { return };
    if pool.helpers == 0 || !core_free() || find_work(pool).is_none() {
        return;
    }
    let mut work = || {
        while core_free() {
            let Some(slot) = find_work(pool) else { break };
            let _working = Working::start();
            slot.work(End::Back);
        }
    };
    let _ = crate::bigstack::run(&mut work);
}

/// The calling thread's slot, returned to the pool's free list at thread exit.
struct Owned(&'static Slot);

impl Drop for Owned {
    fn drop(&mut self) {
        lock(&pool().free).push(self.0);
    }
}

thread_local! {
    static SLOT: Owned = Owned(
        lock(&pool().free).pop().unwrap_or_else(|| Box::leak(Box::new(Slot::new())))
    );
}

/// Runs `body(c)` for every `c` in `[0, chunks)` on the calling thread and
/// the pool's helpers; returns when all have finished. Chunks run at most
/// once each, in no particular order.
pub fn parallel_for(chunks: u32, body: ChunkFn<'_>) {
    if chunks <= 1 || chunks > MAX_CHUNKS || pool().helpers == 0 {
        let _working = Working::start();
        (0..chunks).for_each(body);
        return;
    }
    let ran = SLOT.try_with(|owned| post_and_run(owned.0, chunks, body));
    if ran.is_err() {
        // Thread-local storage is being torn down: run everything here.
        let _working = Working::start();
        (0..chunks).for_each(body);
    }
}

fn post_and_run(slot: &'static Slot, chunks: u32, body: ChunkFn<'_>) {
    let pool = pool();
    // SAFETY: only the lifetime is erased; the body is not used after this
    // function returns, which waits for every claimed chunk to finish.
    let erased: ChunkFn<'static> = unsafe { std::mem::transmute::<ChunkFn<'_>, _>(body) };
    // SAFETY: no chunk of this slot is claimed now (the previous job, if any,
    // finished before its poster returned), so nobody reads `body`.
    unsafe { *slot.body.get() = Some(erased) };
    slot.done.store(0, Ordering::Relaxed);
    slot.word
        .store(u64::from(chunks) << (2 * FIELD_BITS), Ordering::Release);
    lock(&pool.active).push(slot);
    pool.posted.notify(chunks - 1);
    {
        let _working = Working::start();
        slot.work(End::Front);
    }
    {
        let mut active = lock(&pool.active);
        if let Some(i) = active.iter().position(|s| std::ptr::eq(*s, slot)) {
            active.swap_remove(i);
        }
    }
    // Only chunks already claimed are left, each a small share of the
    // launch, so spin for them even when the machine looks busy: a poster
    // put to sleep here pays a wake-up on every launch whose last chunk a
    // helper ran. (The poster no longer counts as working, so it has room.)
    slot.finished.wait_until_short(spin_budget(), || {
        slot.done.load(Ordering::Acquire) == chunks
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn every_chunk_runs_once() {
        for chunks in [0u32, 1, 2, 3, 8, 100] {
            let hits: Vec<AtomicUsize> = (0..chunks).map(|_| AtomicUsize::new(0)).collect();
            parallel_for(chunks, &|c| {
                hits[c as usize].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn concurrent_posters_do_not_mix_jobs() {
        let threads: Vec<_> = (0..4)
            .map(|t| {
                std::thread::spawn(move || {
                    for round in 0..200u32 {
                        let sum = AtomicUsize::new(0);
                        parallel_for(16, &|c| {
                            sum.fetch_add((c + t * 1000 + round) as usize, Ordering::Relaxed);
                        });
                        let want: u32 = (0..16).map(|c| c + t * 1000 + round).sum();
                        assert_eq!(sum.load(Ordering::Relaxed), want as usize);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("poster");
        }
    }
}
