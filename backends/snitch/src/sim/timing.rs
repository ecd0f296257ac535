//! Issue-time bookkeeping of the cycle model.
//!
//! The model is computed per instruction in program order, not cycle by
//! cycle: each instruction gets the first cycle at which it can issue given
//! what it waits for, and records when its result is ready.
//!
//! - The integer core issues one instruction per cycle, in order, when its
//!   integer operands are ready (scoreboard); a taken branch or jump costs
//!   [`ModelParams::taken_branch_penalty`] more.
//! - FP instructions are offloaded by the integer core (one issue slot of
//!   its own) into the sequencer queue of [`ModelParams::sequencer_depth`]
//!   entries; the core stalls only when the queue is full or when it reads
//!   an integer register an FP instruction has not written yet. The FP
//!   subsystem issues one instruction per cycle, in order, when its FP
//!   operands (scoreboard), stream data and stream FIFO space are ready.
//! - An entry leaves the queue when it issues; an FREP body stays in the
//!   sequencer until its last repetition issues.

use std::collections::VecDeque;

use super::model::ModelParams;
use crate::isa::{FReg, XReg};

/// Marks a queue entry whose leaving cycle is not known yet (an FREP body
/// instruction whose repetitions are still to come).
const PENDING: u64 = u64::MAX;

/// A sequencer queue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QueueEntry(u64);

#[derive(Clone, Debug)]
pub(crate) struct Timing {
    /// Next cycle the integer core can issue.
    pub int_next: u64,
    /// Cycle each integer register's pending value is ready.
    x_ready: [u64; 32],
    /// Cycle each FP register's pending value is ready.
    f_ready: [u64; 32],
    /// Next cycle the FP subsystem can issue.
    fp_next: u64,
    /// Cycle until which the divide/square-root unit is busy.
    divsqrt_busy: u64,
    /// The sequencer queue's entries (id, leaving cycle), oldest first.
    queue: VecDeque<(u64, u64)>,
    /// Id of the next queue entry.
    next_entry: u64,
    /// Latest cycle at which an FP instruction retired.
    pub fp_end: u64,
    /// Cycle of the integer core's latest issue or offload.
    pub last_int: u64,
}

impl Timing {
    pub fn new() -> Timing {
        Timing {
            int_next: 0,
            x_ready: [0; 32],
            f_ready: [0; 32],
            fp_next: 0,
            divsqrt_busy: 0,
            queue: VecDeque::new(),
            next_entry: 0,
            fp_end: 0,
            last_int: 0,
        }
    }

    fn ready(&self, srcs: &[XReg]) -> u64 {
        srcs.iter()
            .map(|r| self.x_ready[r.num() as usize])
            .max()
            .unwrap_or(0)
    }

    /// Issues an integer-core instruction reading `srcs`; returns its cycle.
    pub fn int_issue(&mut self, srcs: &[XReg]) -> u64 {
        let t = self.int_next.max(self.ready(srcs));
        self.int_next = t + 1;
        self.last_int = t;
        t
    }

    /// The integer core's next issue is delayed by `cycles` (taken branch).
    pub fn int_delay(&mut self, cycles: u64) {
        self.int_next += cycles;
    }

    /// Integer register `rd` gets its new value at cycle `at`.
    pub fn x_result(&mut self, rd: XReg, at: u64) {
        if rd != XReg::ZERO {
            self.x_ready[rd.num() as usize] = at;
        }
    }

    /// Offloads an FP instruction reading integer registers `srcs` into the
    /// sequencer queue; returns the offload cycle and the queue entry's id.
    pub fn offload(&mut self, srcs: &[XReg], p: &ModelParams) -> (u64, QueueEntry) {
        let mut t = self.int_next.max(self.ready(srcs));
        while self.queue.front().is_some_and(|(_, leave)| *leave <= t) {
            self.queue.pop_front();
        }
        if self.queue.len() >= p.sequencer_depth {
            // The oldest entry always has a known leaving cycle here: only
            // an FREP body still being collected is pending, and it is
            // shorter than the queue.
            if let Some((_, leave)) = self.queue.pop_front() {
                if leave != PENDING {
                    t = t.max(leave);
                }
            }
        }
        let id = self.next_entry;
        self.next_entry += 1;
        self.queue.push_back((id, PENDING));
        self.int_next = t + 1;
        self.last_int = t;
        (t, QueueEntry(id))
    }

    /// Sets the cycle at which queue entry `entry` leaves the sequencer.
    pub fn set_leave(&mut self, entry: QueueEntry, cycle: u64) {
        if let Some(e) = self.queue.iter_mut().find(|(id, _)| *id == entry.0) {
            e.1 = cycle;
        }
    }

    /// Cycle FP register `r`'s pending value is ready.
    pub fn f_ready(&self, r: FReg) -> u64 {
        self.f_ready[r.num() as usize]
    }

    /// Issues an FP instruction no earlier than `earliest`; returns its cycle.
    pub fn fp_issue(&mut self, earliest: u64) -> u64 {
        let t = self.fp_next.max(earliest).max(self.divsqrt_busy);
        self.fp_next = t + 1;
        t
    }

    /// Blocks further FP issue until `until` (iterative divide/sqrt).
    pub fn divsqrt(&mut self, until: u64) {
        self.divsqrt_busy = until;
    }

    /// FP register `rd` gets its new value at `at`.
    pub fn f_result(&mut self, rd: FReg, at: u64) {
        self.f_ready[rd.num() as usize] = at;
        self.retire(at);
    }

    /// An FP instruction retires at `at`.
    pub fn retire(&mut self, at: u64) {
        self.fp_end = self.fp_end.max(at);
    }
}
