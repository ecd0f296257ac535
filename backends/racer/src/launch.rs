//! One kernel launch on the modelled array, as a CUDA device does it:
//! lower, re-associate integer addition chains, move the tag-only
//! operators into the memory units, place the
//! graph on one block (or the smallest region of blocks it fits),
//! replicate it over the array, and run each replica on its share of the
//! threads.
//!
//! The replicas are independent copies fed by their own memory-unit
//! ports, so each is simulated alone on a contiguous slice of the thread
//! range, and the launch takes as long as the slowest replica. Results
//! are the same however the range is cut: a thread's element never meets
//! another thread's (the simulator checks tags).

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use cucc_ir::Module;

use crate::graph::{NodeKind, Scalar};
use crate::lower::{Diagnostic, Lowered, Options};
use crate::machine::Machine;
use crate::place::{Pe, Placement};
use crate::sim::{Sim, SimError};

/// A kernel lowered and placed for one launch shape and argument set.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The lowered kernel (graph routed and balanced by placement).
    pub lowered: Lowered,
    /// Where each node sits on the block.
    pub placement: Placement,
    /// The replicas' block origins.
    pub replicas: Vec<Pe>,
}

/// Why a kernel cannot be configured onto the array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrepareError {
    /// The lowering rejected it.
    Lower(Diagnostic),
    /// The graph does not fit the array.
    Place {
        /// The kernel.
        kernel: String,
        /// The placer's reason.
        message: String,
    },
}

impl fmt::Display for PrepareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrepareError::Lower(d) => write!(f, "{d}"),
            PrepareError::Place { kernel, message } => write!(
                f,
                "{kernel}: placement: the stream graph does not fit the array: {message}"
            ),
        }
    }
}

impl std::error::Error for PrepareError {}

/// Lowers `kernel` of `module` for `opts` and places it on `m`.
pub fn prepare(
    module: &Module,
    kernel: &str,
    opts: &Options,
    m: &Machine,
) -> Result<Prepared, PrepareError> {
    let mut lowered = crate::lower::compile(module, kernel, opts).map_err(PrepareError::Lower)?;
    crate::reassoc::balance_add_trees(&mut lowered.graph);
    crate::offload::offload_index_functions(&mut lowered);
    let placement =
        crate::place::place(&mut lowered.graph, m, None).map_err(|e| PrepareError::Place {
            kernel: kernel.into(),
            message: e.to_string(),
        })?;
    let replicas = crate::place::replicate(&lowered.graph, m, &placement);
    Ok(Prepared {
        lowered,
        placement,
        replicas,
    })
}

/// What a launch did, for profiles and the device clock.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// Cycles of the slowest replica (the launch's time).
    pub cycles: u64,
    /// Replicas that had threads.
    pub replicas: u32,
    /// Stream elements the memory units sent (priming elements included).
    pub elements_in: u64,
    /// Stream elements that reached memory-unit sinks.
    pub elements_out: u64,
    /// Operator firings over what the placed PEs could fire in the run:
    /// each operator node at most once per `cycles_per_element` cycles.
    pub pe_utilisation: f64,
    /// Element-hops over route registers times the run's element slots:
    /// how busy the routes were.
    pub route_utilisation: f64,
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError {
    /// Buffers and streams disagree (a read or write outside a buffer).
    Bind(String),
    /// The simulator stopped (deadlock, tag mix-up, cycle limit).
    Sim {
        /// The replica.
        replica: usize,
        /// Its threads.
        threads: Range<u64>,
        /// What happened.
        error: SimError,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Bind(e) => write!(f, "{e}"),
            RunError::Sim {
                replica,
                threads,
                error,
            } => write!(
                f,
                "replica {replica} (threads {}..{}): {error}",
                threads.start, threads.end
            ),
        }
    }
}

impl std::error::Error for RunError {}

/// Contiguous thread slices, one per replica that gets threads.
pub fn shares(threads: u64, replicas: usize) -> Vec<Range<u64>> {
    let r = (replicas.max(1) as u64).min(threads.max(1));
    let base = threads / r;
    let extra = threads % r;
    let mut lo = 0;
    (0..r)
        .map(|k| {
            let hi = lo + base + u64::from(k < extra);
            let s = lo..hi;
            lo = hi;
            s
        })
        .filter(|s| !s.is_empty())
        .collect()
}

impl Prepared {
    /// Runs the launch over `buffers` (by kernel parameter), writing the
    /// results back into them; `max_cycles` bounds each replica's run.
    pub fn run(
        &self,
        m: &Machine,
        buffers: &mut BTreeMap<usize, Vec<Scalar>>,
        max_cycles: u64,
    ) -> Result<Report, RunError> {
        let l = &self.lowered;
        let g = &l.graph;
        let mut report = Report::default();
        let mut fires = 0u64;
        let mut hops = 0u64;
        // All replicas read the buffers as they were before the launch.
        let before = buffers.clone();
        for (k, share) in shares(l.threads, self.replicas.len())
            .into_iter()
            .enumerate()
        {
            let inputs =
                crate::run::bind_range(l, &before, share.clone()).map_err(RunError::Bind)?;
            report.elements_in += inputs.values().map(|v| v.len() as u64).sum::<u64>();
            let out = Sim::new(g, m, &inputs)
                .and_then(|s| s.run(max_cycles))
                .map_err(|error| RunError::Sim {
                    replica: k,
                    threads: share.clone(),
                    error,
                })?;
            crate::run::write_back(l, &out, buffers).map_err(RunError::Bind)?;
            report.elements_out += out
                .sinks
                .values()
                .map(|s| s.arrivals.len() as u64)
                .sum::<u64>();
            report.cycles = report.cycles.max(out.cycles);
            report.replicas += 1;
            for (i, n) in g.nodes.iter().enumerate() {
                if self.placement.at[i].is_none() {
                    continue;
                }
                let f = out.fires.get(i).copied().unwrap_or(0);
                fires += f;
                for e in &n.outputs {
                    hops += f * u64::from(g.edge(*e).route_stages);
                }
            }
            // Sources feed routes too.
            for n in &g.nodes {
                if let NodeKind::Source { name } = &n.kind {
                    let sent = inputs.get(name).map_or(0, |v| v.len() as u64);
                    for e in &n.outputs {
                        hops += sent * u64::from(g.edge(*e).route_stages);
                    }
                }
            }
        }
        let on_pes = self.placement.at.iter().filter(|a| a.is_some()).count() as u64;
        let registers: u64 = g
            .edges
            .iter()
            .map(|e| u64::from(e.route_stages))
            .sum::<u64>();
        let slots = |units: u64| {
            (units * u64::from(report.replicas) * report.cycles)
                / u64::from(m.cycles_per_element.max(1))
        };
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        report.pe_utilisation = ratio(fires, slots(on_pes));
        report.route_utilisation = ratio(hops, slots(registers));
        Ok(report)
    }
}

/// Every buffer parameter the lowered kernel streams, with the element
/// type its streams use; an error if two streams disagree.
pub fn buffer_types(l: &Lowered) -> Result<BTreeMap<usize, crate::graph::Ty>, String> {
    let mut out = BTreeMap::new();
    for s in l.inputs.iter().chain(&l.outputs) {
        let Some(p) = s.param else { continue };
        match out.insert(p, s.ty) {
            Some(t) if t != s.ty => {
                return Err(format!(
                    "parameter {p} is read or written both as {} and as {}",
                    t.name(),
                    s.ty.name()
                ))
            }
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
