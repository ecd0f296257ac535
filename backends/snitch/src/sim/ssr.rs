//! Stream semantic registers: the three data movers behind `ft0`–`ft2`.
//!
//! Each mover runs one *job* at a time: an affine walk of up to four
//! dimensions over 64-bit words, reading (each element delivered
//! `repeat + 1` times) or writing. Configuration follows snitch_cluster's
//! `snitch_ssr_addr_gen.sv`: word `register << 5 | mover` of the
//! configuration space, with `status` = 0, `repeat` = 1, `bounds[d]` =
//! 2 + d (stored as iterations − 1), `strides[d]` = 6 + d (stored as the
//! pointer increment when dimension `d` advances, i.e. already corrected
//! for the inner dimensions' travel), and writing read pointer `24 + d` or
//! write pointer `28 + d` starts a (d + 1)-dimensional job. Mover 31
//! broadcasts a write to all three. A job started while another runs is
//! queued in the shadow registers and starts when the running one is done;
//! a further configuration write while a job is queued would block the core
//! until the running job drains, which in this functional model can never
//! happen (see [`SsrFault::WouldBlock`]).
//!
//! The timing side ([`StreamTiming`]) models the address generator: one
//! 64-bit TCDM request per cycle, at most `data_credits` elements fetched
//! ahead of the consumer, data usable `tcdm_latency` cycles after the
//! request; a write stream drains one element per cycle.

use std::collections::VecDeque;

use super::mem::{MemFault, Tcdm};

/// Number of loop dimensions of a data mover.
pub const NUM_DIMS: usize = 4;
/// Configuration register: status (pointer, done, write, dims).
pub const REG_STATUS: u32 = 0;
/// Configuration register: repetitions of each read element, minus one.
pub const REG_REPEAT: u32 = 1;
/// Configuration registers: iterations of dimension d, minus one (2 + d).
pub const REG_BOUNDS: u32 = 2;
/// Configuration registers: pointer increment of dimension d (6 + d).
pub const REG_STRIDES: u32 = 6;
/// Configuration registers: read pointer starting a (d+1)-D job (24 + d).
pub const REG_RPTR: u32 = 24;
/// Configuration registers: write pointer starting a (d+1)-D job (28 + d).
pub const REG_WPTR: u32 = 28;
/// Mover index that broadcasts a configuration write to every mover.
pub const BROADCAST: u32 = 31;

/// A stream misuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SsrFault {
    /// The register was read (or written) while its mover has no job left.
    #[error("stream {mover} has no {} job to {}", if *.write { "write" } else { "read" }, if *.write { "take a value" } else { "supply a value" })]
    NoJob {
        /// The mover.
        mover: usize,
        /// Whether a write was attempted.
        write: bool,
    },
    /// A read of a write stream's register or a write to a read stream's.
    #[error("stream {mover} is a {} stream", if *.is_write { "write" } else { "read" })]
    Direction {
        /// The mover.
        mover: usize,
        /// Whether the running job writes.
        is_write: bool,
    },
    /// A configuration address names no register of the supported subset.
    #[error("SSR configuration word {addr:#x} (register {reg}, mover {mover}) does not exist")]
    BadAddress {
        /// The address.
        addr: u32,
        /// Register field.
        reg: u32,
        /// Mover field.
        mover: u32,
    },
    /// A configuration write while a job is already queued behind a running
    /// one: the hardware stalls the core until the running job drains, which
    /// never happens here because the core itself would have to feed it.
    #[error("configuration write to stream {mover} would block: a job is already queued behind the running one")]
    WouldBlock {
        /// The mover.
        mover: usize,
    },
    /// The stream's memory access failed.
    #[error("stream {mover}: {fault}")]
    Memory {
        /// The mover.
        mover: usize,
        /// The fault.
        fault: MemFault,
    },
}

#[derive(Clone, Debug, Default)]
struct Job {
    write: bool,
    dims: usize,
    bounds: [u32; NUM_DIMS],
    strides: [u32; NUM_DIMS],
    repeat: u32,
    idx: [u32; NUM_DIMS],
    ptr: u32,
    rep: u32,
    done: bool,
    /// Cycle of the configuration write that created the job.
    configured_at: u64,
}

impl Job {
    fn advance(&mut self) {
        for d in 0..self.dims {
            if self.idx[d] < self.bounds[d] {
                self.idx[d] += 1;
                for i in &mut self.idx[..d] {
                    *i = 0;
                }
                self.ptr = self.ptr.wrapping_add(self.strides[d]);
                return;
            }
        }
        self.done = true;
    }
}

/// One data mover.
#[derive(Clone, Debug, Default)]
pub struct DataMover {
    index: usize,
    repeat: u32,
    bounds: [u32; NUM_DIMS],
    strides: [u32; NUM_DIMS],
    active: Option<Job>,
    queued: Option<Job>,
    /// Timing state of the address generator.
    pub timing: StreamTiming,
    /// Cycle at which the current job started generating addresses.
    job_start: u64,
}

/// What a pop or push did, for the timing model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The 64-bit value read or written.
    pub value: u64,
    /// Whether this was the last delivery of the element (reads with
    /// `repeat > 0` deliver each element several times).
    pub last_of_element: bool,
    /// Whether this delivery fetched a new element from memory.
    pub first_of_element: bool,
}

impl DataMover {
    /// Mover number `index` (0, 1 or 2), idle.
    pub fn new(index: usize) -> DataMover {
        DataMover {
            index,
            ..DataMover::default()
        }
    }

    /// Whether the running job (if any) is a write stream.
    pub fn is_write(&self) -> Option<bool> {
        self.active.as_ref().map(|j| j.write)
    }

    /// Whether the mover has neither a running nor a queued job.
    pub fn idle(&self) -> bool {
        self.active.is_none() && self.queued.is_none()
    }

    /// Cycle at which the running job started (for the timing model).
    pub fn job_start(&self) -> u64 {
        self.job_start
    }

    fn promote(&mut self) {
        if self.active.as_ref().is_none_or(|j| j.done) {
            self.active = self.queued.take();
            if let Some(j) = &self.active {
                self.job_start = (j.configured_at + 1).max(self.timing.last_req + 1);
                self.timing.cur_avail = None;
            }
        }
    }

    /// Writes configuration register `reg` at cycle `now`.
    pub fn write_config(&mut self, reg: u32, value: u32, now: u64) -> Result<(), SsrFault> {
        if self.queued.is_some() {
            return Err(SsrFault::WouldBlock { mover: self.index });
        }
        match reg {
            REG_STATUS => {
                // A raw status write: pointer and flags at once.
                let dims = ((value >> 28) & 3) as usize;
                self.start_job(value & 0x07ff_ffff, dims, value & (1 << 30) != 0, now);
            }
            REG_REPEAT => self.repeat = value,
            r if (REG_BOUNDS..REG_BOUNDS + 4).contains(&r) => {
                self.bounds[(r - REG_BOUNDS) as usize] = value
            }
            r if (REG_STRIDES..REG_STRIDES + 4).contains(&r) => {
                self.strides[(r - REG_STRIDES) as usize] = value
            }
            r if (REG_RPTR..REG_RPTR + 4).contains(&r) => {
                self.start_job(value, (r - REG_RPTR) as usize, false, now)
            }
            r if (REG_WPTR..REG_WPTR + 4).contains(&r) => {
                self.start_job(value, (r - REG_WPTR) as usize, true, now)
            }
            _ => {
                let mover = self.index as u32;
                return Err(SsrFault::BadAddress {
                    addr: reg << 5 | mover,
                    reg,
                    mover,
                });
            }
        }
        Ok(())
    }

    fn start_job(&mut self, ptr: u32, d: usize, write: bool, now: u64) {
        let job = Job {
            write,
            dims: d + 1,
            bounds: self.bounds,
            strides: self.strides,
            repeat: if write { 0 } else { self.repeat },
            ptr,
            configured_at: now,
            ..Job::default()
        };
        self.queued = Some(job);
        self.promote();
    }

    /// Reads configuration register `reg` (status as in the hardware:
    /// pointer in the low bits, then `indir`, `dims`, `write`, `done` in
    /// bits 27..31; registers without a value here read as 0).
    pub fn read_config(&self, reg: u32) -> u32 {
        match reg {
            REG_STATUS => match &self.active {
                Some(j) => {
                    (j.ptr & 0x07ff_ffff)
                        | (u32::from(j.done) << 31)
                        | (u32::from(j.write) << 30)
                        | (((j.dims as u32 - 1) & 3) << 28)
                }
                None => 1 << 31,
            },
            REG_REPEAT => self.repeat,
            r if (REG_BOUNDS..REG_BOUNDS + 4).contains(&r) => {
                self.bounds[(r - REG_BOUNDS) as usize]
            }
            r if (REG_STRIDES..REG_STRIDES + 4).contains(&r) => {
                self.strides[(r - REG_STRIDES) as usize]
            }
            _ => 0,
        }
    }

    /// Delivers the next element of a read stream.
    pub fn pop(&mut self, mem: &Tcdm) -> Result<Transfer, SsrFault> {
        let mover = self.index;
        let job = match self.active.as_mut() {
            Some(j) if !j.done => j,
            _ => {
                return Err(SsrFault::NoJob {
                    mover,
                    write: false,
                })
            }
        };
        if job.write {
            return Err(SsrFault::Direction {
                mover,
                is_write: true,
            });
        }
        let value = mem
            .read(job.ptr, 8)
            .map_err(|fault| SsrFault::Memory { mover, fault })?;
        let first_of_element = job.rep == 0;
        let last_of_element = job.rep >= job.repeat;
        if last_of_element {
            job.rep = 0;
            job.advance();
        } else {
            job.rep += 1;
        }
        let done = job.done;
        if done {
            self.promote();
        }
        Ok(Transfer {
            value,
            last_of_element,
            first_of_element,
        })
    }

    /// Takes the next element of a write stream.
    pub fn push(&mut self, mem: &mut Tcdm, value: u64) -> Result<Transfer, SsrFault> {
        let mover = self.index;
        let job = match self.active.as_mut() {
            Some(j) if !j.done => j,
            _ => return Err(SsrFault::NoJob { mover, write: true }),
        };
        if !job.write {
            return Err(SsrFault::Direction {
                mover,
                is_write: false,
            });
        }
        mem.write(job.ptr, 8, value)
            .map_err(|fault| SsrFault::Memory { mover, fault })?;
        job.advance();
        if job.done {
            self.promote();
        }
        Ok(Transfer {
            value,
            last_of_element: true,
            first_of_element: true,
        })
    }
}

/// Splits a configuration address into (register, mover list).
pub fn config_target(addr: u32) -> Result<(u32, std::ops::Range<usize>), SsrFault> {
    let reg = (addr >> 5) & 31;
    let mover = addr & 31;
    let bad = || SsrFault::BadAddress { addr, reg, mover };
    if addr > 0x3ff || !(reg <= 9 || reg >= REG_RPTR) {
        return Err(bad());
    }
    match mover {
        0..=2 => Ok((reg, mover as usize..mover as usize + 1)),
        BROADCAST => Ok((reg, 0..3)),
        _ => Err(bad()),
    }
}

/// The address generator's timing state, shared by the mover's jobs.
#[derive(Clone, Debug, Default)]
pub struct StreamTiming {
    /// Cycle of the last memory request (read fetch or write-back).
    pub last_req: u64,
    /// For reads: the cycles at which the FIFO slots of the most recently
    /// consumed elements were freed (at most `data_credits` kept). For
    /// writes: the cycles at which the last elements left the FIFO.
    credits: VecDeque<u64>,
    /// Availability cycle of the element at the head of a read FIFO while
    /// it still has repeats to deliver.
    cur_avail: Option<u64>,
    /// Request cycle computed by [`StreamTiming::read_ready`] for an element
    /// not yet committed.
    planned_req: Option<u64>,
    /// Cycle at which the last write reached memory.
    pub last_write_done: u64,
}

impl StreamTiming {
    /// The first cycle at which the next read element can be consumed.
    pub fn read_ready(&mut self, job_start: u64, credits: usize, tcdm_latency: u64) -> u64 {
        if let Some(a) = self.cur_avail {
            return a;
        }
        let mut req = (self.last_req + 1).max(job_start);
        if self.credits.len() >= credits {
            if let Some(free) = self.credits.front() {
                req = req.max(*free);
            }
        }
        self.planned_req = Some(req);
        req + tcdm_latency
    }

    /// Records that the element was consumed at `cycle`.
    pub fn consume(&mut self, t: Transfer, cycle: u64, credits: usize, tcdm_latency: u64) {
        if t.first_of_element {
            if let Some(req) = self.planned_req.take() {
                self.last_req = req;
                self.cur_avail = Some(req + tcdm_latency);
            }
        }
        if t.last_of_element {
            self.cur_avail = None;
            self.credits.push_back(cycle);
            while self.credits.len() > credits {
                self.credits.pop_front();
            }
        }
    }

    /// The first cycle at which a result may enter the write FIFO.
    pub fn write_slot(&self, credits: usize) -> u64 {
        if self.credits.len() >= credits {
            self.credits.front().copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// Records a result entering the write FIFO at `cycle`; it is written to
    /// memory one element per cycle.
    pub fn push(&mut self, cycle: u64, job_start: u64, credits: usize, tcdm_latency: u64) {
        let w = (self.last_req + 1).max(cycle).max(job_start);
        self.last_req = w;
        self.last_write_done = w + tcdm_latency;
        self.credits.push_back(w);
        while self.credits.len() > credits {
            self.credits.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addrs(m: &mut DataMover, mem: &Tcdm, n: usize) -> Vec<u64> {
        (0..n)
            .map(|_| m.pop(mem).map(|t| t.value).unwrap_or(u64::MAX))
            .collect()
    }

    #[test]
    fn two_dimensional_walk_with_repeat() {
        // Memory holds its own word index at every word.
        let mut mem = Tcdm::new(0, 256);
        for i in 0..32u32 {
            mem.write(i * 8, 8, u64::from(i)).expect("in bounds");
        }
        let mut m = DataMover::new(0);
        // 3 columns of a 2-row matrix with row stride 4 words: elements
        // (0,0) (0,1) (0,2) (1,0) ... visited as 0,1,2,4,5,6.
        m.write_config(REG_REPEAT, 1, 0).expect("idle");
        m.write_config(REG_BOUNDS, 2, 0).expect("idle");
        m.write_config(REG_BOUNDS + 1, 1, 0).expect("idle");
        m.write_config(REG_STRIDES, 8, 0).expect("idle");
        m.write_config(REG_STRIDES + 1, 32 - 2 * 8, 0)
            .expect("idle");
        m.write_config(REG_RPTR + 1, 0, 0).expect("idle");
        assert_eq!(
            addrs(&mut m, &mem, 12),
            vec![0, 0, 1, 1, 2, 2, 4, 4, 5, 5, 6, 6]
        );
        assert_eq!(
            m.pop(&mem),
            Err(SsrFault::NoJob {
                mover: 0,
                write: false
            })
        );
        assert_eq!(m.read_config(REG_STATUS) >> 31, 1);
    }

    #[test]
    fn four_dimensional_walk() {
        // A 2×2×2×2 block of a 4×4×4×4 array of words, strides given as the
        // increments when each dimension advances.
        let mut mem = Tcdm::new(0, 256 * 8);
        for i in 0..256u32 {
            mem.write(i * 8, 8, u64::from(i)).expect("in bounds");
        }
        let mut m = DataMover::new(2);
        let steps = [1u32, 4, 16, 64]; // element distance of each dimension
        let mut travelled = 0u32;
        for (d, s) in steps.iter().enumerate() {
            m.write_config(REG_BOUNDS + d as u32, 1, 0).expect("idle");
            let inc = s * 8 - travelled;
            m.write_config(REG_STRIDES + d as u32, inc, 0)
                .expect("idle");
            travelled += s * 8;
        }
        m.write_config(REG_RPTR + 3, 0, 0).expect("idle");
        let want: Vec<u64> = (0..16u64)
            .map(|i| (i & 1) + ((i >> 1) & 1) * 4 + ((i >> 2) & 1) * 16 + ((i >> 3) & 1) * 64)
            .collect();
        assert_eq!(addrs(&mut m, &mem, 16), want);
        assert!(m.pop(&mem).is_err());
    }

    #[test]
    fn queued_job_starts_when_the_running_one_is_done() {
        let mut mem = Tcdm::new(0, 64);
        let mut m = DataMover::new(1);
        m.write_config(REG_BOUNDS, 1, 0).expect("idle");
        m.write_config(REG_STRIDES, 8, 0).expect("idle");
        m.write_config(REG_WPTR, 0, 0).expect("idle");
        m.write_config(REG_RPTR, 0, 0).expect("queues");
        assert_eq!(
            m.write_config(REG_REPEAT, 0, 0),
            Err(SsrFault::WouldBlock { mover: 1 })
        );
        assert!(matches!(
            m.pop(&mem),
            Err(SsrFault::Direction { is_write: true, .. })
        ));
        m.push(&mut mem, 7).expect("write stream");
        m.push(&mut mem, 9).expect("write stream");
        assert_eq!(addrs(&mut m, &mem, 2), vec![7, 9]);
        assert!(m.idle() || m.is_write() == Some(false));
    }

    #[test]
    fn config_addresses() {
        assert_eq!(config_target(2 << 5 | 1), Ok((2, 1..2)));
        assert_eq!(config_target(24 << 5 | 31), Ok((24, 0..3)));
        assert!(config_target(12 << 5).is_err());
        assert!(config_target(3).is_err());
    }
}
