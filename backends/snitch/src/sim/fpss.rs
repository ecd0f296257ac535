//! The FP subsystem: the sequencer that receives offloaded FP instructions
//! and repeats FREP bodies, the routing of `ft0`–`ft2` to the stream data
//! movers while SSRs are enabled, and FP issue timing.
//!
//! An FREP body is held as the offloaded instruction *words*; each
//! repetition re-decodes its word after adding the stagger count to the
//! register fields selected by the stagger mask (bit 0: `rd`, bit 1: `rs1`,
//! bit 2: `rs2`, bit 3: `rs3`), as snitch_cluster's `snitch_sequencer.sv`
//! does. `frep.o` repeats the whole body, `frep.i` each instruction.
//! Integer instructions between the `frep` and the end of its body run once,
//! on the integer core; the body is the next `count` FP instructions.

use super::{fpu, Machine, SimError};
use crate::isa::*;

/// Which execution unit an FP instruction uses, for its latency.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unit {
    Load,
    Store,
    Comp(FFmt),
    NonComp,
    Conv,
    DivSqrt,
}

/// The FP registers an instruction reads, in operand order (at most three).
struct Srcs {
    regs: [FReg; 3],
    len: usize,
}

impl Srcs {
    fn new(regs: &[FReg]) -> Srcs {
        let mut s = Srcs {
            regs: [FReg::FT0; 3],
            len: regs.len().min(3),
        };
        s.regs[..s.len].copy_from_slice(&regs[..s.len]);
        s
    }

    fn as_slice(&self) -> &[FReg] {
        &self.regs[..self.len]
    }
}

/// Adds the stagger count `n` to the register fields selected by `mask`.
fn stagger(word: u32, mask: u32, n: u32) -> u32 {
    let mut w = word;
    for (bit, shift) in [(0, 7), (1, 15), (2, 20), (3, 27)] {
        if mask & (1 << bit) != 0 {
            let field = ((w >> shift) + n) & 31;
            w = (w & !(31 << shift)) | (field << shift);
        }
    }
    w
}

impl Machine {
    /// The integer core hands an FP instruction to the sequencer.
    pub(super) fn offload(&mut self, word: u32, inst: Inst, pc: u32) -> Result<(), SimError> {
        let int_src = match inst {
            Inst::FLoad { rs1, .. } | Inst::FStore { rs1, .. } => Some(rs1),
            Inst::FCvtFromInt { rs1, .. } | Inst::FMvFromInt { rs1, .. } => Some(rs1),
            _ => None,
        };
        let p = self.params.clone();
        let (t_off, entry) = self.timing.offload(int_src.as_slice(), &p);
        self.record(t_off, super::Unit::Int, pc, inst);
        self.counters.snitch_fseq_offloads += 1;
        let earliest = t_off + p.offload_latency;
        let Some(mut frep) = self.frep.take() else {
            let t = self.issue_fp(inst, pc, earliest)?;
            self.timing.set_leave(entry, t);
            return Ok(());
        };
        frep.body.push((word, pc));
        frep.entries.push(entry);
        let smax = frep.stagger_max + 1;
        let last = match frep.mode {
            FrepMode::Outer => self.issue_fp(inst, pc, earliest)?,
            FrepMode::Inner => {
                let mut last = self.issue_fp(inst, pc, earliest)?;
                for r in 1..frep.iterations {
                    let n = (r % u64::from(smax)) as u32;
                    last = self.repeat(stagger(word, frep.stagger_mask, n), pc)?;
                }
                last
            }
        };
        frep.last_issue.push(last);
        if frep.body.len() < frep.count {
            self.frep = Some(frep);
            return Ok(());
        }
        if frep.mode == FrepMode::Outer {
            for it in 1..frep.iterations {
                let n = (it % u64::from(smax)) as u32;
                for (j, &(w, at)) in frep.body.iter().enumerate() {
                    frep.last_issue[j] = self.repeat(stagger(w, frep.stagger_mask, n), at)?;
                }
            }
        }
        // The body leaves the sequencer as its last repetitions issue.
        for (entry, t) in frep.entries.iter().zip(&frep.last_issue) {
            self.timing.set_leave(*entry, *t);
        }
        Ok(())
    }

    /// Issues one repetition the sequencer replays from its buffer.
    fn repeat(&mut self, word: u32, pc: u32) -> Result<u64, SimError> {
        self.step()?;
        let inst = decode(word).map_err(|source| SimError::Decode { pc, source })?;
        self.count_exec(pc);
        self.issue_fp(inst, pc, 0)
    }

    fn stream_of(&self, r: FReg) -> Option<usize> {
        if self.ssr_enabled {
            r.ssr_index()
        } else {
            None
        }
    }

    fn resolve_rm(&self, rm: RoundingMode) -> Result<RoundingMode, fpu::FpError> {
        if rm != RoundingMode::Dyn {
            return Ok(rm);
        }
        match RoundingMode::from_bits((self.fcsr >> 5) & 7) {
            Some(RoundingMode::Dyn) | None => Err(fpu::FpError::Rounding(RoundingMode::Dyn)),
            Some(m) => Ok(m),
        }
    }

    /// Issues an FP instruction no earlier than `earliest`: waits for its
    /// operands (registers or stream data) and stream FIFO space, executes
    /// it, and records when its result is ready. Returns the issue cycle.
    fn issue_fp(&mut self, inst: Inst, pc: u32, earliest: u64) -> Result<u64, SimError> {
        let p = self.params.clone();
        let (srcs, unit): (Srcs, Unit) = match inst {
            Inst::FLoad { .. } => (Srcs::new(&[]), Unit::Load),
            Inst::FStore { rs2, .. } => (Srcs::new(&[rs2]), Unit::Store),
            Inst::FArith {
                op: FArithOp::Div,
                rs1,
                rs2,
                ..
            } => (Srcs::new(&[rs1, rs2]), Unit::DivSqrt),
            Inst::FArith { fmt, rs1, rs2, .. } => (Srcs::new(&[rs1, rs2]), Unit::Comp(fmt)),
            Inst::FSqrt { rs1, .. } => (Srcs::new(&[rs1]), Unit::DivSqrt),
            Inst::FSgnj { rs1, rs2, .. } | Inst::FMinMax { rs1, rs2, .. } => {
                (Srcs::new(&[rs1, rs2]), Unit::NonComp)
            }
            Inst::Fma {
                fmt, rs1, rs2, rs3, ..
            } => (Srcs::new(&[rs1, rs2, rs3]), Unit::Comp(fmt)),
            Inst::FCmp { rs1, rs2, .. } => (Srcs::new(&[rs1, rs2]), Unit::NonComp),
            Inst::FClass { rs1, .. } | Inst::FMvToInt { rs1, .. } => {
                (Srcs::new(&[rs1]), Unit::NonComp)
            }
            Inst::FCvtToInt { rs1, .. } | Inst::FCvtFmt { rs1, .. } => {
                (Srcs::new(&[rs1]), Unit::Conv)
            }
            Inst::FCvtFromInt { .. } => (Srcs::new(&[]), Unit::Conv),
            Inst::FMvFromInt { .. } => (Srcs::new(&[]), Unit::NonComp),
            Inst::Vf {
                op: VfOp::Mac,
                rd,
                rs1,
                rs2,
            } => (Srcs::new(&[rs1, rs2, rd]), Unit::Comp(FFmt::S)),
            Inst::Vf {
                op: VfOp::Cpka,
                rs1,
                rs2,
                ..
            } => (Srcs::new(&[rs1, rs2]), Unit::NonComp),
            Inst::Vf { rs1, rs2, .. } => (Srcs::new(&[rs1, rs2]), Unit::Comp(FFmt::S)),
            _ => (Srcs::new(&[]), Unit::NonComp),
        };
        let latency = match unit {
            Unit::Load => p.fp_load_use,
            Unit::Store => 1,
            Unit::Comp(FFmt::D) => p.fpu_stages_f64 + 1,
            Unit::Comp(FFmt::S) => p.fpu_stages_f32 + 1,
            Unit::NonComp => p.fpu_stages_noncomp + 1,
            Unit::Conv => p.fpu_stages_conv + 1,
            Unit::DivSqrt => p.fpu_divsqrt_latency,
        };
        let f_dest = match inst {
            Inst::FLoad { rd, .. }
            | Inst::FArith { rd, .. }
            | Inst::FSqrt { rd, .. }
            | Inst::FSgnj { rd, .. }
            | Inst::FMinMax { rd, .. }
            | Inst::Fma { rd, .. }
            | Inst::FCvtFromInt { rd, .. }
            | Inst::FCvtFmt { rd, .. }
            | Inst::FMvFromInt { rd, .. }
            | Inst::Vf { rd, .. } => Some(rd),
            _ => None,
        };

        // When can it issue?
        let mut ready = earliest;
        let mut seen = [false; 3];
        for &r in srcs.as_slice() {
            ready = ready.max(match self.stream_of(r) {
                Some(m) if !seen[m] => {
                    seen[m] = true;
                    let start = self.ssr[m].job_start();
                    self.ssr[m]
                        .timing
                        .read_ready(start, p.ssr_data_credits, p.tcdm_latency)
                }
                Some(_) => 0,
                None => self.timing.f_ready(r),
            });
        }
        if let Some(m) = f_dest.and_then(|r| self.stream_of(r)) {
            let slot = self.ssr[m].timing.write_slot(p.ssr_data_credits);
            ready = ready.max(slot.saturating_sub(latency));
        }
        let t = self.timing.fp_issue(ready);
        self.record(t, super::Unit::Fp, pc, inst);
        if unit == Unit::DivSqrt {
            self.timing.divsqrt(t + latency);
        }

        // Operand values: each stream operand pops one element.
        let mut vals = [0u64; 3];
        for (i, &r) in srcs.as_slice().iter().enumerate() {
            match self.stream_of(r) {
                Some(m) => {
                    let tr = self.ssr[m]
                        .pop(&self.tcdm)
                        .map_err(|fault| SimError::Stream { pc, fault })?;
                    self.ssr[m]
                        .timing
                        .consume(tr, t, p.ssr_data_credits, p.tcdm_latency);
                    self.counters.ssr_reads += 1;
                    vals[i] = tr.value;
                }
                None => vals[i] = self.f[r.num() as usize],
            }
        }
        let v = |i: usize| vals[i];
        let fp_err = |error| SimError::Fp {
            pc,
            inst: inst.to_string(),
            error,
        };
        let xval = |r: XReg| self.x[r.num() as usize];

        // Execute.
        enum Out {
            F(u64),
            X(XReg, u32),
            None,
        }
        let out = match inst {
            Inst::FLoad {
                fmt, rs1, offset, ..
            } => {
                let addr = xval(rs1).wrapping_add(offset as u32);
                let mem = |fault| SimError::Memory { pc, fault };
                self.counters.fpss_loads += 1;
                Out::F(match fmt {
                    FFmt::D => self.tcdm.read(addr, 8).map_err(mem)?,
                    FFmt::S => {
                        fpu::box_s(f32::from_bits(self.tcdm.read(addr, 4).map_err(mem)? as u32))
                    }
                })
            }
            Inst::FStore {
                fmt, rs1, offset, ..
            } => {
                let addr = xval(rs1).wrapping_add(offset as u32);
                let size = if fmt == FFmt::D { 8 } else { 4 };
                self.tcdm
                    .write(addr, size, v(0))
                    .map_err(|fault| SimError::Memory { pc, fault })?;
                self.counters.fpss_stores += 1;
                Out::None
            }
            Inst::FArith { op, fmt, rm, .. } => {
                let rm = self.resolve_rm(rm).map_err(fp_err)?;
                Out::F(fpu::arith(op, fmt, v(0), v(1), rm).map_err(fp_err)?)
            }
            Inst::FSqrt { fmt, rm, .. } => {
                let rm = self.resolve_rm(rm).map_err(fp_err)?;
                Out::F(fpu::sqrt(fmt, v(0), rm).map_err(fp_err)?)
            }
            Inst::FSgnj { op, fmt, .. } => Out::F(fpu::sgnj(op, fmt, v(0), v(1))),
            Inst::FMinMax { op, fmt, .. } => Out::F(fpu::min_max(op, fmt, v(0), v(1))),
            Inst::Fma { op, fmt, rm, .. } => {
                let rm = self.resolve_rm(rm).map_err(fp_err)?;
                Out::F(fpu::fma(op, fmt, v(0), v(1), v(2), rm).map_err(fp_err)?)
            }
            Inst::FCmp { op, fmt, rd, .. } => Out::X(rd, fpu::compare(op, fmt, v(0), v(1))),
            Inst::FClass { fmt, rd, .. } => Out::X(rd, fpu::classify(fmt, v(0))),
            Inst::FCvtToInt {
                fmt,
                unsigned,
                rd,
                rm,
                ..
            } => {
                let rm = self.resolve_rm(rm).map_err(fp_err)?;
                Out::X(rd, fpu::to_int(fmt, unsigned, v(0), rm))
            }
            Inst::FCvtFromInt {
                fmt,
                unsigned,
                rs1,
                rm,
                ..
            } => {
                let rm = self.resolve_rm(rm).map_err(fp_err)?;
                Out::F(fpu::from_int(fmt, unsigned, xval(rs1), rm).map_err(fp_err)?)
            }
            Inst::FCvtFmt { to, rm, .. } => {
                let rm = self.resolve_rm(rm).map_err(fp_err)?;
                Out::F(fpu::convert(to, v(0), rm).map_err(fp_err)?)
            }
            Inst::FMvToInt { rd, .. } => Out::X(rd, v(0) as u32),
            Inst::FMvFromInt { rs1, .. } => Out::F(fpu::box_s(f32::from_bits(xval(rs1)))),
            Inst::Vf { op: VfOp::Mac, .. } => Out::F(fpu::packed(VfOp::Mac, v(2), v(0), v(1))),
            Inst::Vf { op, .. } => Out::F(fpu::packed(op, 0, v(0), v(1))),
            _ => Out::None,
        };

        // Write back.
        let done = t + latency;
        match out {
            Out::F(bits) => {
                let rd = f_dest.unwrap_or(FReg::FT0);
                match self.stream_of(rd) {
                    Some(m) => {
                        self.ssr[m]
                            .push(&mut self.tcdm, bits)
                            .map_err(|fault| SimError::Stream { pc, fault })?;
                        let start = self.ssr[m].job_start();
                        self.ssr[m]
                            .timing
                            .push(done, start, p.ssr_data_credits, p.tcdm_latency);
                        self.counters.ssr_writes += 1;
                        self.timing.retire(done);
                    }
                    None => {
                        self.f[rd.num() as usize] = bits;
                        self.timing.f_result(rd, done);
                    }
                }
            }
            Out::X(rd, value) => {
                self.write_x(rd, value, done);
                self.timing.retire(done);
            }
            Out::None => self.timing.retire(done),
        }
        self.counters.fpss_issues += 1;
        if !matches!(unit, Unit::Load | Unit::Store) {
            self.counters.fpss_fpu_issues += 1;
        }
        if matches!(
            inst,
            Inst::Fma {
                op: FmaOp::Madd,
                fmt: FFmt::D,
                ..
            }
        ) {
            self.counters.fpss_fpu_fmadd_issues += 1;
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::stagger;

    #[test]
    fn stagger_adds_to_selected_fields_modulo_32() {
        // fadd.d ft3, ft4, ft5 (rd=3, rs1=4, rs2=5).
        let w = 0x0252_71d3;
        assert_eq!(stagger(w, 0b0001, 2) >> 7 & 31, 5);
        assert_eq!(stagger(w, 0b0110, 1) >> 15 & 31, 5);
        assert_eq!(stagger(w, 0b0110, 1) >> 20 & 31, 6);
        assert_eq!(stagger(w, 0b0000, 3), w);
        assert_eq!(stagger(0x1f << 7, 1, 1) >> 7 & 31, 0);
    }
}
