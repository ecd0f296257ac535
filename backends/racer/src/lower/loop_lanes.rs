//! The lanes of a loop route: which outer streams ride along, the streams
//! that enter the merge, opening the route and closing it with the
//! feedback. Every loop form (rotated, test-first, `for`) builds its route
//! from these, so they agree on the lane order: carried values, then any
//! extra carried lanes, then the riding streams, then the thread index.

use std::collections::HashSet;

use cucc_ir::{Op, Value};

use super::{GidState, LoopInfo, Lowerer, Val, R};
use crate::graph::{EdgeId, NodeId, NodeKind, Operand, Ty};

/// The streams that enter a loop's merge before its first trip.
pub(super) struct Entry {
    /// The type of each merge lane.
    pub(super) lane_tys: Vec<Ty>,
    /// The initial stream of each lane that has one.
    pub(super) init_streams: Vec<EdgeId>,
    /// What a constant initial value is materialised against.
    pub(super) trigger: Option<EdgeId>,
    /// The thread-index stream, when it rides through the loop.
    gid_init: Option<EdgeId>,
}

impl Entry {
    /// Adds an extra carried lane (after the carried values).
    pub(super) fn push(&mut self, ty: Ty, init: EdgeId) {
        self.lane_tys.push(ty);
        self.init_streams.push(init);
    }
}

impl Lowerer<'_> {
    /// The outer streams used inside a loop or branch (`inner_uses` less
    /// its own `inner_defs`) or `later`, sorted: they ride along as lanes.
    pub(super) fn riding(
        &self,
        inner_uses: &HashSet<Value>,
        inner_defs: &HashSet<Value>,
        later: &HashSet<Value>,
    ) -> Vec<Value> {
        let mut live: Vec<Value> = inner_uses
            .iter()
            .chain(later.iter())
            .copied()
            .filter(|v| !inner_defs.contains(v) && matches!(self.env.get(v), Some(Val::Stream(_))))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        live.sort();
        live
    }

    /// Whether the thread index rides through a loop: a linear value inside
    /// needs it, and inside another loop that carries it, it is fed back
    /// after this one.
    pub(super) fn loop_carries_gid(
        &self,
        inner_uses: &HashSet<Value>,
        inner_defs: &HashSet<Value>,
    ) -> bool {
        let lin_inside = inner_uses
            .iter()
            .any(|v| !inner_defs.contains(v) && self.env.get(v).is_some_and(Val::needs_gid));
        lin_inside || (!self.open_loops.is_empty() && matches!(self.gid, GidState::Stream(_)))
    }

    /// The merge lanes of the carried values `args` from `inits`; the
    /// riding lanes follow through [`Self::ride_along`].
    pub(super) fn loop_entry(
        &mut self,
        op: Op,
        args: &[Value],
        inits: &[Val],
        live: &[Value],
        carry_gid: bool,
    ) -> R<Entry> {
        let mut trigger = inits
            .iter()
            .chain(live.iter().filter_map(|v| self.env.get(v)))
            .find_map(|v| match v {
                Val::Stream(e) => Some(*e),
                _ => None,
            });
        if trigger.is_none() {
            trigger = Some(self.gid_stream(op)?);
        }
        let gid_init = if carry_gid {
            Some(self.gid_stream(op)?)
        } else {
            None
        };
        let mut entry = Entry {
            lane_tys: Vec::new(),
            init_streams: Vec::new(),
            trigger,
            gid_init,
        };
        for (k, &a) in args.iter().enumerate() {
            let ty = self.ty_of(a)?;
            let init = self.stream_of(inits[k], ty, trigger, op)?;
            entry.push(ty, init);
        }
        Ok(entry)
    }

    /// Adds the lanes of the riding streams `live` and of the thread index
    /// to `entry`; returns the lane count.
    pub(super) fn ride_along(&mut self, entry: &mut Entry, live: &[Value]) -> R<usize> {
        for v in live {
            entry.lane_tys.push(self.ty_of(*v)?);
            if let Some(Val::Stream(e)) = self.env.get(v) {
                entry.init_streams.push(*e);
            }
        }
        if let Some(g) = entry.gid_init {
            entry.push(Ty::I32, g);
        }
        Ok(entry.lane_tys.len())
    }

    /// Adds to `data`, the lanes a split sends on, the riding values
    /// `live` that are streams and, when it rides, the thread index.
    pub(super) fn push_riding(&self, data: &mut Vec<EdgeId>, live: &[Value], carry_gid: bool) {
        for v in live {
            if let Some(Val::Stream(e)) = self.env.get(v) {
                data.push(*e);
            }
        }
        if let (true, GidState::Stream(e)) = (carry_gid, self.gid) {
            data.push(e);
        }
    }

    /// Adds to `out` the riding values `live` as they are now, each a
    /// stream triggered by `trigger`.
    pub(super) fn push_riding_values(
        &mut self,
        out: &mut Vec<EdgeId>,
        live: &[Value],
        trigger: EdgeId,
        op: Op,
    ) -> R<()> {
        for v in live {
            let val = self.val(*v, op)?;
            let ty = self.ty_of(*v)?;
            out.push(self.stream_of(val, ty, Some(trigger), op)?);
        }
        Ok(())
    }

    /// Opens the route of a loop with `lane_tys` lanes: its merge, whose
    /// synchronised outputs are returned, and its entry among the open
    /// loops.
    pub(super) fn open_loop(
        &mut self,
        line: u32,
        lane_tys: &[Ty],
        rotated: usize,
        test_first: bool,
    ) -> (NodeId, Vec<EdgeId>) {
        let (merge, mo) = self.add(NodeKind::Merge, Vec::new(), lane_tys, line);
        let idx = self.loops.len();
        self.loops.push(LoopInfo {
            line,
            nodes: vec![merge],
            lanes: lane_tys.len(),
            rotated,
            test_first,
        });
        self.open_loops.push(idx);
        let mo = self.synced(mo, line);
        self.depth += 1;
        self.loop_depth += 1;
        (merge, mo)
    }

    /// Closes the route of `merge`: its inputs are the `feedback` (with
    /// the thread index when it rides along) and then the initial streams.
    pub(super) fn close_loop(
        &mut self,
        op: Op,
        what: &str,
        merge: NodeId,
        mut feedback: Vec<EdgeId>,
        entry: &Entry,
        carry_gid: bool,
    ) -> R<()> {
        if let (true, GidState::Stream(e)) = (carry_gid, self.gid) {
            feedback.push(e);
        }
        let lanes = entry.lane_tys.len();
        if feedback.len() != lanes {
            return Err(self.diag(
                op,
                what,
                format!(
                    "internal: {} feedback lanes for {lanes} merge lanes",
                    feedback.len()
                ),
            ));
        }
        self.g.nodes[merge.0 as usize].inputs = feedback
            .iter()
            .chain(&entry.init_streams)
            .copied()
            .map(Operand::Stream)
            .collect();
        self.depth -= 1;
        self.loop_depth -= 1;
        self.open_loops.pop();
        Ok(())
    }
}
