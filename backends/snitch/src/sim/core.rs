//! The integer core: RV32IMA, CSRs, SSR configuration and `frep`, with the
//! in-order single-issue timing of [`Timing`](super::timing::Timing).

use super::{ssr, Frep, Machine, SimError};
use crate::isa::*;

impl Machine {
    fn mem_err(pc: u32) -> impl Fn(super::MemFault) -> SimError {
        move |fault| SimError::Memory { pc, fault }
    }

    /// Executes one non-FP instruction; returns `false` when the run ends.
    pub(super) fn execute_int(&mut self, inst: Inst, pc: u32) -> Result<bool, SimError> {
        let p = self.params.clone();
        let mut next = pc.wrapping_add(4);
        let xv = |m: &Machine, r: XReg| m.x[r.num() as usize];
        // Whether the integer core issued it itself (not offloaded).
        let mut own_issue = true;
        match inst {
            Inst::Lui { rd, imm } => {
                let t = self.timing.int_issue(&[]);
                self.write_x(rd, imm << 12, t + 1);
            }
            Inst::Auipc { rd, imm } => {
                let t = self.timing.int_issue(&[]);
                self.write_x(rd, pc.wrapping_add(imm << 12), t + 1);
            }
            Inst::Jal { rd, offset } => {
                let t = self.timing.int_issue(&[]);
                self.write_x(rd, next, t + 1);
                next = pc.wrapping_add(offset as u32);
                self.timing.int_delay(p.taken_branch_penalty);
            }
            Inst::Jalr { rd, rs1, offset } => {
                let t = self.timing.int_issue(&[rs1]);
                let target = xv(self, rs1).wrapping_add(offset as u32) & !1;
                self.write_x(rd, next, t + 1);
                next = target;
                self.timing.int_delay(p.taken_branch_penalty);
            }
            Inst::Branch {
                op,
                rs1,
                rs2,
                offset,
            } => {
                self.timing.int_issue(&[rs1, rs2]);
                let (a, b) = (xv(self, rs1), xv(self, rs2));
                let taken = match op {
                    BranchOp::Beq => a == b,
                    BranchOp::Bne => a != b,
                    BranchOp::Blt => (a as i32) < (b as i32),
                    BranchOp::Bge => (a as i32) >= (b as i32),
                    BranchOp::Bltu => a < b,
                    BranchOp::Bgeu => a >= b,
                };
                if taken {
                    next = pc.wrapping_add(offset as u32);
                    self.timing.int_delay(p.taken_branch_penalty);
                }
            }
            Inst::Load {
                op,
                rd,
                rs1,
                offset,
            } => {
                let t = self.timing.int_issue(&[rs1]);
                let addr = xv(self, rs1).wrapping_add(offset as u32);
                let size = match op {
                    LoadOp::Lb | LoadOp::Lbu => 1,
                    LoadOp::Lh | LoadOp::Lhu => 2,
                    LoadOp::Lw => 4,
                };
                let raw = self.tcdm.read(addr, size).map_err(Self::mem_err(pc))? as u32;
                let v = match op {
                    LoadOp::Lb => raw as u8 as i8 as u32,
                    LoadOp::Lh => raw as u16 as i16 as u32,
                    _ => raw,
                };
                self.counters.snitch_loads += 1;
                self.write_x(rd, v, t + p.int_load_use);
            }
            Inst::Store {
                op,
                rs2,
                rs1,
                offset,
            } => {
                self.timing.int_issue(&[rs1, rs2]);
                let addr = xv(self, rs1).wrapping_add(offset as u32);
                let size = match op {
                    StoreOp::Sb => 1,
                    StoreOp::Sh => 2,
                    StoreOp::Sw => 4,
                };
                self.tcdm
                    .write(addr, size, xv(self, rs2).into())
                    .map_err(Self::mem_err(pc))?;
            }
            Inst::OpImm { op, rd, rs1, imm } => {
                let t = self.timing.int_issue(&[rs1]);
                let a = xv(self, rs1);
                let i = imm as u32;
                let v = match op {
                    ImmOp::Addi => a.wrapping_add(i),
                    ImmOp::Slti => u32::from((a as i32) < imm),
                    ImmOp::Sltiu => u32::from(a < i),
                    ImmOp::Xori => a ^ i,
                    ImmOp::Ori => a | i,
                    ImmOp::Andi => a & i,
                    ImmOp::Slli => a << (i & 31),
                    ImmOp::Srli => a >> (i & 31),
                    ImmOp::Srai => ((a as i32) >> (i & 31)) as u32,
                };
                self.write_x(rd, v, t + 1);
            }
            Inst::Op { op, rd, rs1, rs2 } => {
                let t = self.timing.int_issue(&[rs1, rs2]);
                let (v, latency) = alu(op, xv(self, rs1), xv(self, rs2), &p);
                self.write_x(rd, v, t + latency);
            }
            Inst::Fence { .. } => {
                // Waits until every offloaded FP instruction has retired and
                // every stream write has reached memory (assumed).
                self.timing.int_issue(&[]);
                let streams = self.last_stream_write();
                let done = self.timing.fp_end.max(streams);
                self.timing.int_next = self.timing.int_next.max(done);
            }
            Inst::Ecall | Inst::Ebreak => {
                self.timing.int_issue(&[]);
                self.counters.snitch_issues += 1;
                return Ok(false);
            }
            Inst::Amo {
                op, rd, rs1, rs2, ..
            } => {
                let t = self.timing.int_issue(&[rs1, rs2]);
                let addr = xv(self, rs1);
                let old = self.tcdm.read(addr, 4).map_err(Self::mem_err(pc))? as u32;
                let b = xv(self, rs2);
                let new = match op {
                    AmoOp::LrW => None,
                    AmoOp::ScW => Some(b),
                    AmoOp::SwapW => Some(b),
                    AmoOp::AddW => Some(old.wrapping_add(b)),
                    AmoOp::XorW => Some(old ^ b),
                    AmoOp::AndW => Some(old & b),
                    AmoOp::OrW => Some(old | b),
                    AmoOp::MinW => Some((old as i32).min(b as i32) as u32),
                    AmoOp::MaxW => Some((old as i32).max(b as i32) as u32),
                    AmoOp::MinuW => Some(old.min(b)),
                    AmoOp::MaxuW => Some(old.max(b)),
                };
                if let Some(v) = new {
                    self.tcdm
                        .write(addr, 4, v.into())
                        .map_err(Self::mem_err(pc))?;
                }
                // One core: a store-conditional after its load-reserved always succeeds.
                let result = if op == AmoOp::ScW { 0 } else { old };
                self.counters.snitch_loads += 1;
                self.write_x(rd, result, t + p.int_load_use);
            }
            Inst::Csr { op, rd, csr, rs1 } => {
                let value = xv(self, rs1);
                own_issue = !self.csr(op, rd, csr, value, rs1 != XReg::ZERO, &[rs1], pc)?;
            }
            Inst::CsrImm { op, rd, csr, uimm } => {
                own_issue = !self.csr(op, rd, csr, uimm.into(), uimm != 0, &[], pc)?;
            }
            Inst::Scfgwi { rs1, addr } => {
                let t = self.timing.int_issue(&[rs1]);
                self.write_ssr_config(addr.into(), xv(self, rs1), t, pc)?;
            }
            Inst::Scfgw { rs1, rs2 } => {
                let t = self.timing.int_issue(&[rs1, rs2]);
                self.write_ssr_config(xv(self, rs2), xv(self, rs1), t, pc)?;
            }
            Inst::Scfgri { rd, addr } => {
                let t = self.timing.int_issue(&[]);
                let v = self.read_ssr_config(addr.into(), pc)?;
                self.write_x(rd, v, t + 1);
            }
            Inst::Scfgr { rd, rs2 } => {
                let t = self.timing.int_issue(&[rs2]);
                let v = self.read_ssr_config(xv(self, rs2), pc)?;
                self.write_x(rd, v, t + 1);
            }
            Inst::Frep {
                mode,
                rs1,
                count,
                stagger_max,
                stagger_mask,
            } => {
                if self.frep.is_some() {
                    return Err(SimError::FrepNested { pc });
                }
                if usize::from(count) > p.sequencer_depth {
                    return Err(SimError::FrepTooLong {
                        pc,
                        count,
                        capacity: p.sequencer_depth,
                    });
                }
                self.timing.int_issue(&[rs1]);
                self.counters.snitch_fseq_offloads += 1;
                self.frep = Some(Frep {
                    mode,
                    count: count.into(),
                    iterations: u64::from(xv(self, rs1)) + 1,
                    stagger_max: stagger_max.into(),
                    stagger_mask: stagger_mask.into(),
                    body: Vec::new(),
                    last_issue: Vec::new(),
                    entries: Vec::new(),
                });
                own_issue = false;
            }
            // FP instructions are offloaded by `run` and never come here.
            _ => {}
        }
        if own_issue {
            self.counters.snitch_issues += 1;
        }
        self.pc = next;
        Ok(true)
    }

    pub(super) fn write_x(&mut self, rd: XReg, v: u32, ready: u64) {
        if rd != XReg::ZERO {
            self.x[rd.num() as usize] = v;
        }
        self.timing.x_result(rd, ready);
    }

    fn write_ssr_config(&mut self, addr: u32, value: u32, t: u64, pc: u32) -> Result<(), SimError> {
        let (reg, movers) =
            ssr::config_target(addr).map_err(|fault| SimError::Stream { pc, fault })?;
        for m in movers {
            self.ssr[m]
                .write_config(reg, value, t)
                .map_err(|fault| SimError::Stream { pc, fault })?;
        }
        Ok(())
    }

    fn read_ssr_config(&self, addr: u32, pc: u32) -> Result<u32, SimError> {
        let (reg, movers) =
            ssr::config_target(addr).map_err(|fault| SimError::Stream { pc, fault })?;
        if movers.len() != 1 {
            let fault = ssr::SsrFault::BadAddress {
                addr,
                reg,
                mover: ssr::BROADCAST,
            };
            return Err(SimError::Stream { pc, fault });
        }
        Ok(self.ssr[movers.start].read_config(reg))
    }

    /// A CSR read-modify-write. `writes` is false for `csrrs`/`csrrc` with
    /// `x0` or a zero immediate, which only read. Returns whether the
    /// instruction was offloaded to the FP subsystem (the SSR switch).
    #[allow(clippy::too_many_arguments)]
    fn csr(
        &mut self,
        op: CsrOp,
        rd: XReg,
        csr: u16,
        src: u32,
        writes: bool,
        srcs: &[XReg],
        pc: u32,
    ) -> Result<bool, SimError> {
        let writes = writes || op == CsrOp::Rw;
        let apply = |old: u32| match op {
            CsrOp::Rw => src,
            CsrOp::Rs => old | src,
            CsrOp::Rc => old & !src,
        };
        if csr == CSR_SSR {
            // The SSR switch lives in the FP subsystem: it is offloaded and
            // takes effect in order with the FP instructions around it.
            let p = self.params.clone();
            let (t_off, entry) = self.timing.offload(srcs, &p);
            let t = self.timing.fp_issue(t_off + p.offload_latency);
            self.timing.set_leave(entry, t);
            self.counters.snitch_fseq_offloads += 1;
            self.counters.fpss_issues += 1;
            let old = u32::from(self.ssr_enabled);
            if writes {
                self.ssr_enabled = apply(old) & 1 != 0;
            }
            self.write_x(rd, old, t + 1);
            return Ok(true);
        }
        let t = self.timing.int_issue(srcs);
        let old = match csr {
            CSR_FFLAGS => self.fcsr & 0x1f,
            CSR_FRM => (self.fcsr >> 5) & 7,
            CSR_FCSR => self.fcsr & 0xff,
            CSR_MCYCLE | CSR_CYCLE => t as u32,
            CSR_MCYCLEH => (t >> 32) as u32,
            CSR_MINSTRET => self.retired as u32,
            CSR_MHARTID => self.hart_id,
            _ => {
                return Err(SimError::Csr {
                    pc,
                    csr,
                    write: false,
                })
            }
        };
        if writes {
            let new = apply(old);
            self.fcsr = match csr {
                CSR_FFLAGS => (self.fcsr & !0x1f) | (new & 0x1f),
                CSR_FRM => (self.fcsr & !0xe0) | ((new & 7) << 5),
                CSR_FCSR => new & 0xff,
                _ => {
                    return Err(SimError::Csr {
                        pc,
                        csr,
                        write: true,
                    })
                }
            };
        }
        self.write_x(rd, old, t + 1);
        Ok(false)
    }
}

/// An integer ALU or M-extension operation: (result, latency).
fn alu(op: RegOp, a: u32, b: u32, p: &super::ModelParams) -> (u32, u64) {
    let (sa, sb) = (a as i32, b as i32);
    match op {
        RegOp::Add => (a.wrapping_add(b), 1),
        RegOp::Sub => (a.wrapping_sub(b), 1),
        RegOp::Sll => (a << (b & 31), 1),
        RegOp::Slt => (u32::from(sa < sb), 1),
        RegOp::Sltu => (u32::from(a < b), 1),
        RegOp::Xor => (a ^ b, 1),
        RegOp::Srl => (a >> (b & 31), 1),
        RegOp::Sra => ((sa >> (b & 31)) as u32, 1),
        RegOp::Or => (a | b, 1),
        RegOp::And => (a & b, 1),
        RegOp::Mul => (a.wrapping_mul(b), p.mul_latency),
        RegOp::Mulh => (
            ((i64::from(sa) * i64::from(sb)) >> 32) as u32,
            p.mul_latency,
        ),
        RegOp::Mulhsu => (((i64::from(sa) * i64::from(b)) >> 32) as u32, p.mul_latency),
        RegOp::Mulhu => (((u64::from(a) * u64::from(b)) >> 32) as u32, p.mul_latency),
        RegOp::Div => (
            if b == 0 {
                u32::MAX
            } else {
                sa.wrapping_div(sb) as u32
            },
            p.div_latency,
        ),
        RegOp::Divu => (a.checked_div(b).unwrap_or(u32::MAX), p.div_latency),
        RegOp::Rem => (
            if b == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u32
            },
            p.div_latency,
        ),
        RegOp::Remu => (if b == 0 { a } else { a % b }, p.div_latency),
    }
}
