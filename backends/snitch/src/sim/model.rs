//! The cycle model's parameters and the performance counters it reports.
//!
//! Sources are cited as: *thesis* = Ficarelli's thesis, chapter 3
//! (`shared/papers/ficarelli-thesis-snitch-compiler.txt`, section and line
//! of that text); *snitch_cluster* = the published snitch_cluster
//! configuration (`cfg/default.json` and the defaults of
//! `util/clustergen/snitch_cluster.schema.json`); *assumed* = no published
//! number was found, the value is this model's choice; *calibrated* = an
//! assumed value chosen to fit the thesis' Table 3.2 (the matmul kernels
//! xDSL 0.21.1 emits for its rows, run on this simulator; `docs/snitch.md`).

/// Every parameter of the cycle model. See `docs/snitch.md` for how they
/// are used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelParams {
    /// Pipeline registers of the FPU for f64 arithmetic (add, mul, FMA,
    /// f64 compares of magnitude): a dependent instruction issues
    /// `stages + 1` cycles after its producer. 3: snitch_cluster
    /// `lat_comp_fp64`; the thesis says the FPU "has three stages, so stalls
    /// are minimized with an unroll factor of at least four" (§3.4, line
    /// 1459), and Table 3.2's dependent-FMA rows (≈4 cycles per `fmadd.d`)
    /// agree.
    pub fpu_stages_f64: u64,
    /// Pipeline registers for f32 arithmetic, scalar and packed SIMD. 2:
    /// snitch_cluster `lat_comp_fp32`. (The thesis' Fig. 3.15 trace shows an
    /// `fmul.s` spanning 4 cycles on the configuration it measured, §3.5.2,
    /// line 1668.)
    pub fpu_stages_f32: u64,
    /// Pipeline registers for non-computational FP operations (sign
    /// injection/moves, min/max, compares, classify, `fmv`). 1:
    /// snitch_cluster `lat_noncomp`.
    pub fpu_stages_noncomp: u64,
    /// Pipeline registers for conversions. 2: snitch_cluster `lat_conv`.
    pub fpu_stages_conv: u64,
    /// Cycles from issue to result of a division or square root (the
    /// iterative unit is not pipelined in this model: it also blocks the
    /// next FP issue for this long). 20: assumed.
    pub fpu_divsqrt_latency: u64,
    /// Cycles the TCDM takes to answer a request: one. Thesis §3.5.2, line
    /// 1668 (Fig. 3.15: "single cycle latency needed to load a
    /// single-precision floating point value from L1 memory").
    pub tcdm_latency: u64,
    /// Cycles from an integer load's issue until a dependent instruction can
    /// issue: TCDM latency plus write-back. 2: assumed from `tcdm_latency`.
    pub int_load_use: u64,
    /// Cycles from an FP load's issue until a dependent FP instruction can
    /// issue. 2: thesis Fig. 3.15 (§3.5.2, line 1668): `flw ft0` at cycle
    /// 1320 writes `ft0` at 1321, read by the `fmul.s` issued at 1322.
    pub fp_load_use: u64,
    /// Cycles from issue of `mul`/`mulh*` to its result (the multiplier is
    /// shared by the cluster's cores and reached through the accelerator
    /// port). 4: calibrated on Table 3.2's baseline and +streams rows, whose
    /// loops compute addresses with five and two `mul`s per iteration.
    pub mul_latency: u64,
    /// Cycles from issue of `div`/`rem*` to its result (iterative divider).
    /// 32: assumed.
    pub div_latency: u64,
    /// Extra cycles after a taken branch or a jump. 0: calibrated on the
    /// same rows, which it fits within 0.5% (1 gives +2.3% and +4.7% there,
    /// and fits the +scalar replacement row, an integer loop of one FMA per
    /// iteration, within 0.2% instead of 1.7%).
    pub taken_branch_penalty: u64,
    /// Cycles from the integer core offloading an FP instruction until the
    /// FP subsystem can issue it. 1: snitch_cluster `register_fpu_req: true`
    /// (one register stage on the request path).
    pub offload_latency: u64,
    /// Entries of the FP sequencer, which is both the queue of offloaded FP
    /// instructions (the integer core stalls when it is full) and the FREP
    /// loop buffer (an FREP body may not be longer). 16: snitch_cluster
    /// schema default `num_sequencer_instructions` (its `default.json` uses
    /// 32).
    pub sequencer_depth: usize,
    /// Elements a stream data mover may fetch ahead of its consumer (and
    /// entries of a write stream's FIFO). 4: snitch_cluster `ssr_nr_credits`
    /// / schema `data_credits`.
    pub ssr_data_credits: usize,
    /// TCDM size in bytes. 128 KiB: snitch_cluster `tcdm.size`.
    pub tcdm_size: usize,
    /// TCDM base address. `0x1000_0000`: snitch_cluster `cluster_base_addr`.
    pub tcdm_base: u32,
    /// Where programs are loaded. `0x8000_0000`: snitch_cluster's `dram`
    /// region.
    pub code_base: u32,
    /// Clock frequency for converting cycles to time. 1 GHz: assumed.
    pub clock_hz: u64,
}

impl Default for ModelParams {
    fn default() -> Self {
        ModelParams {
            fpu_stages_f64: 3,
            fpu_stages_f32: 2,
            fpu_stages_noncomp: 1,
            fpu_stages_conv: 2,
            fpu_divsqrt_latency: 20,
            tcdm_latency: 1,
            int_load_use: 2,
            fp_load_use: 2,
            mul_latency: 4,
            div_latency: 32,
            taken_branch_penalty: 0,
            offload_latency: 1,
            sequencer_depth: 16,
            ssr_data_credits: 4,
            tcdm_size: 128 * 1024,
            tcdm_base: 0x1000_0000,
            code_base: 0x8000_0000,
            clock_hz: 1_000_000_000,
        }
    }
}

/// Performance counters of one run, named as in the thesis' Table 3.1
/// (§3.5.2), plus dynamic instruction counts by mnemonic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Cycles of the run: until the integer core has finished and every FP
    /// result and stream write has landed.
    pub cycles: u64,
    /// Cycle at which the integer core issued its last instruction, plus one.
    pub end: u64,
    /// Cycle at which the last FP instruction retired (`end_fpss`).
    pub end_fpss: u64,
    /// Instructions issued by the integer core, not counting those it
    /// offloaded to the FP subsystem (`snitch_issues`).
    pub snitch_issues: u64,
    /// Instructions the integer core offloaded to the FP subsystem
    /// (`snitch_fseq_offloads`); FREP repetitions are not offloads.
    pub snitch_fseq_offloads: u64,
    /// Loads retired by the integer core's LSU (`snitch_loads`).
    pub snitch_loads: u64,
    /// Instructions issued by the FP subsystem, repetitions included
    /// (`fpss_issues`).
    pub fpss_issues: u64,
    /// Of those, instructions for the FPU proper, i.e. not FP loads and
    /// stores (`fpss_fpu_issues`).
    pub fpss_fpu_issues: u64,
    /// Of those, `fmadd.d` (`fpss_fpu_fmadd_issues`).
    pub fpss_fpu_fmadd_issues: u64,
    /// Loads by the FP subsystem's own LSU (`fpss_loads`).
    pub fpss_loads: u64,
    /// Stores by the FP subsystem's own LSU.
    pub fpss_stores: u64,
    /// Elements read through stream registers.
    pub ssr_reads: u64,
    /// Elements written through stream registers.
    pub ssr_writes: u64,
    /// Dynamic count of every mnemonic executed (FREP repetitions included).
    pub by_mnemonic: std::collections::BTreeMap<String, u64>,
}

impl Counters {
    fn ratio(a: u64, b: u64) -> f64 {
        if b == 0 {
            0.0
        } else {
            a as f64 / b as f64
        }
    }

    /// `fpss_fpu_occupancy`: FPU issues per cycle.
    pub fn fpu_occupancy(&self) -> f64 {
        Self::ratio(self.fpss_fpu_issues, self.cycles)
    }

    /// `snitch_occupancy`: integer-core issues per cycle.
    pub fn snitch_occupancy(&self) -> f64 {
        Self::ratio(self.snitch_issues, self.cycles)
    }

    /// `fpss_occupancy`: FP-subsystem issues per cycle.
    pub fn fpss_occupancy(&self) -> f64 {
        Self::ratio(self.fpss_issues, self.cycles)
    }

    /// `total_ipc`: `snitch_occupancy + fpss_occupancy`.
    pub fn total_ipc(&self) -> f64 {
        self.snitch_occupancy() + self.fpss_occupancy()
    }

    /// `fpss_section_latency`: how long the FP subsystem ran on after the
    /// integer core finished.
    pub fn fpss_section_latency(&self) -> u64 {
        self.end_fpss.saturating_sub(self.end)
    }

    /// Dynamic count of one mnemonic.
    pub fn count(&self, mnemonic: &str) -> u64 {
        self.by_mnemonic.get(mnemonic).copied().unwrap_or(0)
    }
}

impl std::fmt::Display for Counters {
    /// One `name value` line per Table 3.1 counter, derived metrics last.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let counts = [
            ("cycles", self.cycles),
            ("end", self.end),
            ("end_fpss", self.end_fpss),
            ("snitch_issues", self.snitch_issues),
            ("snitch_fseq_offloads", self.snitch_fseq_offloads),
            ("snitch_loads", self.snitch_loads),
            ("fpss_issues", self.fpss_issues),
            ("fpss_fpu_issues", self.fpss_fpu_issues),
            ("fpss_fpu_fmadd_issues", self.fpss_fpu_fmadd_issues),
            ("fpss_loads", self.fpss_loads),
            ("fpss_section_latency", self.fpss_section_latency()),
        ];
        for (name, v) in counts {
            writeln!(f, "{name:<24}{v}")?;
        }
        let ratios = [
            ("snitch_occupancy", self.snitch_occupancy()),
            ("fpss_occupancy", self.fpss_occupancy()),
            ("fpss_fpu_occupancy", self.fpu_occupancy()),
            ("total_ipc", self.total_ipc()),
        ];
        for (name, v) in ratios {
            writeln!(f, "{name:<24}{v:.4}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Counters;

    #[test]
    fn report_lists_counters_and_ratios() {
        let c = Counters {
            cycles: 1000,
            fpss_fpu_issues: 900,
            snitch_issues: 50,
            fpss_issues: 950,
            ..Counters::default()
        };
        let text = c.to_string();
        assert!(text.contains("cycles                  1000\n"), "{text}");
        assert!(text.contains("fpss_fpu_occupancy      0.9000\n"), "{text}");
        assert!(text.contains("total_ipc               1.0000\n"), "{text}");
        assert_eq!(Counters::default().fpu_occupancy(), 0.0);
    }
}
