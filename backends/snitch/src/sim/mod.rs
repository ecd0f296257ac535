//! A Snitch core simulator that runs encoded programs.
//!
//! The program is a sequence of 32-bit words in instruction memory; every
//! instruction is fetched and decoded from those words, so the simulator
//! checks the encoder as much as the compiler. It executes RV32IMAFD, the
//! stream semantic registers ([`ssr`]), FREP (a sequencer buffer holding the
//! repeated FP instructions' words, with register staggering) and the
//! packed-SIMD subset, on a bounds-checked TCDM ([`mem`]).
//!
//! Functional effects happen in program order; the cycle model ([`model`],
//! `timing`) runs alongside and lets the integer core run ahead of the FP
//! subsystem. A run ends at `ecall`/`ebreak` or when the core jumps to
//! [`EXIT_ADDRESS`] (the initial return address), and reports the thesis'
//! Table 3.1 counters.

mod core;
mod fpss;
pub mod fpu;
pub mod mem;
pub mod model;
pub mod ssr;
mod timing;

pub use mem::{MemFault, Tcdm};
pub use model::{Counters, ModelParams};
pub use ssr::SsrFault;

use crate::isa::{decode, DecodeError, FReg, FrepMode, Inst, XReg};
use fpu::FpError;

/// Jumping here ends the run: the return address a program starts with.
pub const EXIT_ADDRESS: u32 = 0;

/// Why a run stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The program counter left the program or is misaligned.
    #[error("pc {pc:#010x}: no instruction there (program is {base:#010x}..{end:#010x})")]
    Fetch {
        /// The program counter.
        pc: u32,
        /// First instruction address.
        base: u32,
        /// One past the last.
        end: u64,
    },
    /// The word at `pc` is not an instruction of the subset.
    #[error("pc {pc:#010x}: {source}")]
    Decode {
        /// The program counter.
        pc: u32,
        /// The decoder's error.
        source: DecodeError,
    },
    /// A load or store faulted.
    #[error("pc {pc:#010x}: {fault}")]
    Memory {
        /// The program counter.
        pc: u32,
        /// The fault.
        fault: MemFault,
    },
    /// A stream was misused.
    #[error("pc {pc:#010x}: {fault}")]
    Stream {
        /// The program counter.
        pc: u32,
        /// The fault.
        fault: SsrFault,
    },
    /// An FP operation the model cannot perform exactly.
    #[error("pc {pc:#010x}: `{inst}`: {error}")]
    Fp {
        /// The program counter.
        pc: u32,
        /// The instruction as text.
        inst: String,
        /// The problem.
        error: FpError,
    },
    /// A CSR the model does not have, or a write to a read-only one.
    #[error("pc {pc:#010x}: CSR {csr:#x} is not modelled{}", if *.write { " as writable" } else { "" })]
    Csr {
        /// The program counter.
        pc: u32,
        /// The CSR number.
        csr: u16,
        /// Whether it was written.
        write: bool,
    },
    /// An FREP body longer than the sequencer buffer.
    #[error("pc {pc:#010x}: frep body of {count} instructions does not fit the {capacity}-entry sequencer")]
    FrepTooLong {
        /// The program counter.
        pc: u32,
        /// Instructions in the body.
        count: u16,
        /// Sequencer entries.
        capacity: usize,
    },
    /// An `frep` while another FREP body is still being collected.
    #[error("pc {pc:#010x}: frep inside an FREP body (one loop level is modelled)")]
    FrepNested {
        /// The program counter.
        pc: u32,
    },
    /// The run ended while an FREP body was incomplete.
    #[error(
        "pc {pc:#010x}: program ended with {missing} FP instructions of an FREP body still to come"
    )]
    FrepUnfinished {
        /// The program counter.
        pc: u32,
        /// Instructions the body still lacks.
        missing: usize,
    },
    /// The instruction limit was reached.
    #[error("stopped after {limit} instructions without reaching the exit")]
    StepLimit {
        /// The limit.
        limit: u64,
    },
}

/// Which part of the core issued a traced instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// The integer core (for an FP instruction: its offload).
    Int,
    /// The FP subsystem.
    Fp,
}

/// One issue event, recorded when tracing is on (like the per-cycle traces
/// of the thesis' Fig. 3.15, one line per issue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    /// The issue cycle.
    pub cycle: u64,
    /// Who issued it.
    pub unit: Unit,
    /// The instruction's address.
    pub pc: u32,
    /// The instruction (for FREP repetitions: after staggering).
    pub inst: Inst,
}

/// An FREP block being collected by the sequencer.
#[derive(Clone, Debug)]
struct Frep {
    mode: FrepMode,
    count: usize,
    iterations: u64,
    stagger_max: u32,
    stagger_mask: u32,
    /// The body's words and their addresses, as offloaded.
    body: Vec<(u32, u32)>,
    /// Issue cycle of each body instruction's latest repetition.
    last_issue: Vec<u64>,
    /// The body's sequencer queue entries.
    entries: Vec<timing::QueueEntry>,
}

/// One Snitch core with its TCDM.
#[derive(Clone, Debug)]
pub struct Machine {
    params: ModelParams,
    code: Vec<u32>,
    decoded: Vec<Option<Inst>>,
    /// The data memory.
    pub tcdm: Tcdm,
    x: [u32; 32],
    f: [u64; 32],
    pc: u32,
    ssr: [ssr::DataMover; 3],
    ssr_enabled: bool,
    fcsr: u32,
    hart_id: u32,
    frep: Option<Frep>,
    timing: timing::Timing,
    counters: Counters,
    retired: u64,
    /// Executions of each program word, FREP repetitions included.
    exec_counts: Vec<u64>,
    /// Instructions executed, FREP repetitions included, and the run's limit.
    executed: u64,
    limit: u64,
    trace: Option<Vec<TraceEntry>>,
}

impl Machine {
    /// A core with `program` loaded at [`ModelParams::code_base`], a zeroed
    /// TCDM, `sp` at the top of the TCDM and `ra` = [`EXIT_ADDRESS`].
    pub fn new(params: ModelParams, program: &[u32]) -> Machine {
        let tcdm = Tcdm::new(params.tcdm_base, params.tcdm_size);
        let mut x = [0u32; 32];
        x[XReg::SP.num() as usize] = (tcdm.end() as u32) & !15;
        x[XReg::RA.num() as usize] = EXIT_ADDRESS;
        Machine {
            decoded: vec![None; program.len()],
            code: program.to_vec(),
            tcdm,
            x,
            f: [0; 32],
            pc: params.code_base,
            ssr: [
                ssr::DataMover::new(0),
                ssr::DataMover::new(1),
                ssr::DataMover::new(2),
            ],
            ssr_enabled: false,
            fcsr: 0,
            hart_id: 0,
            frep: None,
            timing: timing::Timing::new(),
            counters: Counters::default(),
            retired: 0,
            exec_counts: vec![0; program.len()],
            executed: 0,
            limit: u64::MAX,
            trace: None,
            params,
        }
    }

    /// The model parameters.
    pub fn params(&self) -> &ModelParams {
        &self.params
    }

    /// Integer register `r`.
    pub fn x(&self, r: XReg) -> u32 {
        self.x[r.num() as usize]
    }

    /// Sets integer register `r` (writes to `zero` are ignored).
    pub fn set_x(&mut self, r: XReg, v: u32) {
        if r != XReg::ZERO {
            self.x[r.num() as usize] = v;
        }
    }

    /// FP register `r`'s 64 bits.
    pub fn f_bits(&self, r: FReg) -> u64 {
        self.f[r.num() as usize]
    }

    /// FP register `r` as an f64.
    pub fn f64(&self, r: FReg) -> f64 {
        f64::from_bits(self.f_bits(r))
    }

    /// FP register `r`'s low 32 bits as an f32.
    pub fn f32(&self, r: FReg) -> f32 {
        f32::from_bits(self.f_bits(r) as u32)
    }

    /// Sets FP register `r`'s 64 bits.
    pub fn set_f_bits(&mut self, r: FReg, v: u64) {
        self.f[r.num() as usize] = v;
    }

    /// Sets FP register `r` to an f64.
    pub fn set_f64(&mut self, r: FReg, v: f64) {
        self.set_f_bits(r, v.to_bits());
    }

    /// Sets `mhartid`.
    pub fn set_hart_id(&mut self, id: u32) {
        self.hart_id = id;
    }

    /// The address of the instruction at byte `offset` of the program.
    pub fn code_address(&self, offset: u32) -> u32 {
        self.params.code_base.wrapping_add(offset)
    }

    /// Starts recording every issue (see [`Machine::trace`]).
    pub fn enable_trace(&mut self) {
        self.trace.get_or_insert_with(Vec::new);
    }

    /// The issues recorded since [`Machine::enable_trace`], in program order
    /// (FP issues are listed when the FP subsystem issues them, so their
    /// cycles may precede those of integer issues listed before them).
    pub fn trace(&self) -> &[TraceEntry] {
        self.trace.as_deref().unwrap_or(&[])
    }

    pub(crate) fn record(&mut self, cycle: u64, unit: Unit, pc: u32, inst: Inst) {
        if let Some(t) = &mut self.trace {
            t.push(TraceEntry {
                cycle,
                unit,
                pc,
                inst,
            });
        }
    }

    /// The counters as of the last completed run (`by_mnemonic` and the
    /// cycle totals are filled in when a run ends).
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Runs from `entry` until the exit, executing at most `limit`
    /// instructions (FREP repetitions included, so a huge repetition count
    /// cannot hang the simulator), and returns the counters.
    pub fn run(&mut self, entry: u32, limit: u64) -> Result<Counters, SimError> {
        self.pc = entry;
        self.limit = limit;
        loop {
            if self.pc == EXIT_ADDRESS {
                break;
            }
            self.step()?;
            let pc = self.pc;
            let (word, inst) = self.fetch(pc)?;
            self.retired += 1;
            self.count_exec(pc);
            if inst.is_fp() {
                self.offload(word, inst, pc)?;
                self.pc = pc.wrapping_add(4);
                continue;
            }
            let go_on = self.execute_int(inst, pc)?;
            let at = self.timing.last_int;
            self.record(at, Unit::Int, pc, inst);
            if !go_on {
                break;
            }
        }
        if let Some(frep) = &self.frep {
            return Err(SimError::FrepUnfinished {
                pc: self.pc,
                missing: frep.count - frep.body.len(),
            });
        }
        self.finish();
        Ok(self.counters.clone())
    }

    /// How often each instruction of the program ran (FREP repetitions
    /// included), by index: a per-instruction profile.
    pub fn exec_counts(&self) -> &[u64] {
        &self.exec_counts
    }

    /// Counts an execution of the instruction at `pc` for the profile.
    fn count_exec(&mut self, pc: u32) {
        let index = (pc.wrapping_sub(self.params.code_base) / 4) as usize;
        if let Some(n) = self.exec_counts.get_mut(index) {
            *n += 1;
        }
    }

    /// Counts one executed instruction against the run's limit.
    fn step(&mut self) -> Result<(), SimError> {
        if self.executed >= self.limit {
            return Err(SimError::StepLimit { limit: self.limit });
        }
        self.executed += 1;
        Ok(())
    }

    fn fetch(&mut self, pc: u32) -> Result<(u32, Inst), SimError> {
        let base = self.params.code_base;
        let off = pc.wrapping_sub(base);
        let index = (off / 4) as usize;
        if pc < base || off % 4 != 0 || index >= self.code.len() {
            let end = u64::from(base) + 4 * self.code.len() as u64;
            return Err(SimError::Fetch { pc, base, end });
        }
        let word = self.code[index];
        if let Some(inst) = self.decoded[index] {
            return Ok((word, inst));
        }
        let inst = decode(word).map_err(|source| SimError::Decode { pc, source })?;
        self.decoded[index] = Some(inst);
        Ok((word, inst))
    }

    /// Closes the counters: the run lasts until the integer core, the FP
    /// subsystem and the stream writes have all finished.
    /// The cycle at which the last stream write reaches memory: a run is
    /// not over before every streamed result has landed.
    fn last_stream_write(&self) -> u64 {
        self.ssr
            .iter()
            .map(|m| m.timing.last_write_done)
            .max()
            .unwrap_or(0)
    }

    fn finish(&mut self) {
        let mut by_mnemonic = std::collections::BTreeMap::new();
        for (n, inst) in self.exec_counts.iter().zip(&self.decoded) {
            if let (true, Some(inst)) = (*n > 0, inst) {
                *by_mnemonic.entry(inst.mnemonic()).or_default() += n;
            }
        }
        let streams = self.last_stream_write();
        let c = &mut self.counters;
        c.by_mnemonic = by_mnemonic;
        c.end = self.timing.int_next;
        c.end_fpss = self.timing.fp_end;
        c.cycles = c.end.max(c.end_fpss).max(streams);
    }
}

#[cfg(test)]
mod tests;
