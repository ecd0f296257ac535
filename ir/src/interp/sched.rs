//! Scheduling thread groups: the iterations of a `parallel` op (or, in
//! kernel form, the threads of one block) and their synchronisation.
//!
//! A `Group` runs its threads round-robin; each runs until it finishes,
//! reaches a block barrier or a warp op. When every thread is stopped:
//! - warp ops resolve per warp: lanes waiting at the same op whose masks
//!   name only lanes waiting there (lanes that do not exist are ignored)
//!   exchange values and continue; a shuffle or vote whose mask names a
//!   finished lane is an error, a `__syncwarp` ignores finished lanes;
//! - a block barrier releases when every thread of the group that has not
//!   finished waits at the same barrier op (finished threads no longer
//!   count, as on GPUs since Volta, so an early `return` before a barrier
//!   is fine), in a group that binds block barriers (`block` and
//!   `warp` levels, and the implicit block of kernel form). A `lane` group
//!   whose threads all wait at one block barrier reports that wait to its
//!   parent thread, so the enclosing warp group releases only when all of
//!   its warps (and so all lanes of the block) wait there. Threads waiting
//!   at different barriers are still a divergence error;
//! - anything else is a deadlock, reported as a divergent barrier or warp op.
//!
//! Grid-level iterations run one after another, each with fresh shared
//! memory; a barrier that reaches a grid-level group is an error.

use super::error::InterpError;
use super::memory::Origin;
use super::thread::{set_args, Ctx, Cursor, Frame, State, Thread, Wait, WaitKind};
use super::Exec;
use crate::func::{Op, Region};
use crate::module::{FuncId, GlobalKind};
use crate::ops::{BarrierReduceKind, BarrierScope, Level, OpKind, ShuffleMode, VoteKind};
use crate::types::Space;

/// Most iterations a block-like group may have.
const MAX_GROUP: u64 = 1 << 16;

/// One block's shared memory.
#[derive(Debug)]
pub(crate) struct SharedInstance {
    /// Address of each shared global's instance, indexed by global index
    /// (0 for globals that are not shared).
    pub globals: Vec<u64>,
    /// The dynamic shared memory.
    pub dynamic: u64,
}

/// The spawning thread's ids, inherited by its iterations.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parent {
    pub block: Option<[u32; 3]>,
    pub tid: Option<[u32; 3]>,
    pub linear: u32,
    pub shared: Option<usize>,
    pub clock: u64,
}

/// Grid iterations still to run, created one at a time.
#[derive(Debug)]
struct GridIters {
    func: FuncId,
    env: Vec<u64>,
    body: Region,
    ubs: [u64; 3],
    ndims: usize,
    next: u64,
    total: u64,
    parent: Parent,
    current: Option<Thread>,
}

/// The iterations of one `parallel` op, or the threads of one block.
#[derive(Debug)]
pub(crate) struct Group {
    level: Level,
    children: Vec<Thread>,
    grid: Option<Box<GridIters>>,
    block: Option<[u32; 3]>,
}

fn decompose(i: u64, ubs: &[u64; 3]) -> [u64; 3] {
    [i % ubs[0], (i / ubs[0]) % ubs[1], i / (ubs[0] * ubs[1])]
}

impl Group {
    /// The implicit block-level group of a kernel-form block.
    pub fn block(children: Vec<Thread>, block: [u32; 3]) -> Group {
        Group {
            level: Level::Block,
            children,
            grid: None,
            block: Some(block),
        }
    }
}

/// Which lanes of a chunk are in which state, as bitsets.
struct Lanes {
    finished: u32,
    exists: u32,
}

impl Exec<'_> {
    /// `threadIdx` of linear id `l` in the launch's block shape.
    fn tid_of(&self, l: u32) -> [u32; 3] {
        let [bx, by, _] = self.cfg.block;
        [l % bx, (l / bx) % by, l / (bx * by)]
    }

    /// Allocates a block's shared memory.
    pub(crate) fn new_shared(&mut self) -> Result<usize, InterpError> {
        let module = self.module;
        let mut globals = vec![0; module.globals.len()];
        for (g, gl) in module.globals.iter() {
            if gl.space == Space::Shared && gl.kind == GlobalKind::Variable {
                let size = module.types.size_of(gl.ty);
                globals[g.index()] = self
                    .mem
                    .alloc_transient(Space::Shared, size, Origin::SharedGlobal(g))
                    .map_err(|f| InterpError::Setup {
                        message: self.mem.describe(&f, Some(module)),
                    })?;
            }
        }
        let dynamic = self
            .mem
            .alloc_transient(
                Space::Shared,
                u64::from(self.cfg.dynamic_shared),
                Origin::DynamicShared,
            )
            .map_err(|f| InterpError::Setup {
                message: self.mem.describe(&f, Some(module)),
            })?;
        let inst = SharedInstance { globals, dynamic };
        match self.shared.iter().position(Option::is_none) {
            Some(i) => {
                self.shared[i] = Some(inst);
                Ok(i)
            }
            None => {
                self.shared.push(Some(inst));
                Ok(self.shared.len() - 1)
            }
        }
    }

    /// Frees a block's shared memory.
    pub(crate) fn free_shared(&mut self, idx: usize) {
        if let Some(inst) = self.shared.get_mut(idx).and_then(Option::take) {
            for p in inst.globals.into_iter().filter(|&p| p != 0) {
                let _ = self.mem.free_device(p);
            }
            let _ = self.mem.free_device(inst.dynamic);
        }
    }

    /// The values the ops of `body` (at any depth) read.
    fn captures_of(&mut self, func: FuncId, body: Region) -> std::rc::Rc<[u32]> {
        if let Some(c) = self.captures.get(&(func, body)) {
            return c.clone();
        }
        let f = &self.module.functions[func];
        let mut walked = Vec::new();
        f.walk_region(body, &mut walked);
        let mut used: Vec<u32> = walked
            .iter()
            .flat_map(|&(_, op)| f.ops[op].operands.iter().map(|v| v.index() as u32))
            .collect();
        used.sort_unstable();
        used.dedup();
        let used: std::rc::Rc<[u32]> = used.into();
        self.captures.insert((func, body), used.clone());
        used
    }

    /// The environment of an iteration of `body` spawned from `parent`.
    ///
    /// Only the values the body reads are copied: every other value an
    /// iteration reads is defined in the body before its use (SSA), so
    /// whatever an environment reused from [`Exec::env_pool`] holds there
    /// is overwritten first.
    fn child_env(&mut self, func: FuncId, parent: &[u64], body: Region) -> Vec<u64> {
        let Some(mut env) = self.env_pool.pop() else {
            return parent.to_vec();
        };
        if env.len() != parent.len() {
            return parent.to_vec();
        }
        for &i in self.captures_of(func, body).iter() {
            if let (Some(d), Some(&s)) = (env.get_mut(i as usize), parent.get(i as usize)) {
                *d = s;
            }
        }
        env
    }

    /// Returns a finished iteration's environment for reuse.
    pub(crate) fn recycle_env(&mut self, env: Vec<u64>) {
        // Enough for the deepest nesting of live groups in practice.
        if self.env_pool.len() < 4096 {
            self.env_pool.push(env);
        }
    }

    fn child_frame(&mut self, func: FuncId, parent: &[u64], body: Region, ivs: &[u64]) -> Frame {
        let mut env = self.child_env(func, parent, body);
        set_args(
            &mut env,
            &self.module.functions[func].regions[body].args,
            ivs,
        );
        Frame {
            func,
            env,
            cursors: vec![Cursor {
                region: body,
                pos: 0,
                ctx: Ctx::Parallel,
            }],
            allocas: Vec::new(),
            call: None,
            parallel_child: true,
        }
    }

    /// Creates the group of a `parallel` op executed by a thread whose top
    /// frame is `frame`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn spawn(
        &mut self,
        level: Level,
        func: FuncId,
        op: Op,
        frame: &Frame,
        body: Region,
        ubs: [u64; 3],
        ndims: usize,
        parent: Parent,
    ) -> Result<Box<Group>, InterpError> {
        let total = ubs[0].saturating_mul(ubs[1]).saturating_mul(ubs[2]);
        if level == Level::Grid {
            return Ok(Box::new(Group {
                level,
                children: Vec::new(),
                grid: Some(Box::new(GridIters {
                    func,
                    env: frame.env.clone(),
                    body,
                    ubs,
                    ndims,
                    next: 0,
                    total,
                    parent,
                    current: None,
                })),
                block: parent.block,
            }));
        }
        let limit = if level == Level::Lane { 32 } else { MAX_GROUP };
        if total > limit {
            return Err(InterpError::InvalidOperation {
                site: self.site((parent.block, parent.tid), func, op),
                message: format!(
                    "`parallel<{}>` with {total} iterations exceeds the limit of {limit}",
                    level.name()
                ),
            });
        }
        let mut children = Vec::with_capacity(total as usize);
        for i in 0..total {
            let iv = decompose(i, &ubs);
            let mut t = Thread::new(self.child_frame(func, &frame.env, body, &iv[..ndims]));
            t.block = parent.block;
            t.shared = parent.shared;
            t.clock = parent.clock;
            match level {
                Level::Block => {
                    t.linear = i as u32;
                    t.tid = Some([iv[0] as u32, iv[1] as u32, iv[2] as u32]);
                }
                Level::Warp => {
                    t.linear = (i as u32).saturating_mul(32);
                    t.tid = Some(self.tid_of(t.linear));
                }
                _ => {
                    t.linear = parent.linear.saturating_add(i as u32);
                    t.tid = Some(self.tid_of(t.linear));
                }
            }
            children.push(t);
        }
        self.threads += total;
        Ok(Box::new(Group {
            level,
            children,
            grid: None,
            block: parent.block,
        }))
    }

    /// Runs a group until all its threads finished (`None`) or, for a lane
    /// group, until they all wait at one block barrier (`Some(wait)`).
    pub(crate) fn run_group(&mut self, g: &mut Group) -> Result<Option<Wait>, InterpError> {
        if let Some(grid) = g.grid.as_deref_mut() {
            return self.run_grid(grid).map(|()| None);
        }
        // Warps are 32 consecutive threads (a lane group is one warp).
        let warp = 32;
        loop {
            for i in 0..g.children.len() {
                if g.children[i].state == State::Running {
                    let start = i / warp * warp;
                    let end = (start + warp).min(g.children.len());
                    let mut mask = 0u32;
                    for (l, c) in g.children[start..end].iter().enumerate() {
                        if c.state != State::Finished {
                            mask |= 1 << l;
                        }
                    }
                    g.children[i].active_mask = mask;
                    self.run_thread(&mut g.children[i])?;
                }
            }
            if g.children.iter().all(|c| c.state == State::Finished) {
                return Ok(None);
            }
            if self.resolve_warp_ops(g)? {
                continue;
            }
            // Every thread is stopped and no warp op can proceed: the group
            // must be at one block barrier.
            let first = g.children.iter().find_map(|c| match c.state {
                State::Waiting(w) if matches!(w.kind, WaitKind::Block { .. }) => Some(w),
                _ => None,
            });
            let Some(first) = first else {
                return Err(self.divergence(g, false));
            };
            let (mut n_true, mut n_total) = (0, 0);
            for c in &g.children {
                match c.state {
                    // Threads that finished (returned from the kernel, or
                    // ended their iteration) no longer take part, as
                    // `bar.sync` counts only the threads that have not exited.
                    State::Finished => {}
                    State::Waiting(Wait {
                        func,
                        op,
                        kind:
                            WaitKind::Block {
                                n_true: t,
                                n_total: n,
                            },
                    }) if func == first.func && op == first.op => {
                        n_true += t;
                        n_total += n;
                    }
                    _ => return Err(self.divergence(g, true)),
                }
            }
            if g.level == Level::Lane {
                return Ok(Some(Wait {
                    func: first.func,
                    op: first.op,
                    kind: WaitKind::Block { n_true, n_total },
                }));
            }
            let result = match self.module.functions[first.func].ops[first.op].kind {
                OpKind::BarrierReduce(BarrierReduceKind::Count) => Some(n_true),
                OpKind::BarrierReduce(BarrierReduceKind::And) => Some(u64::from(n_true == n_total)),
                OpKind::BarrierReduce(BarrierReduceKind::Or) => Some(u64::from(n_true > 0)),
                _ => None,
            };
            for c in &mut g.children {
                self.release_block(c, result);
            }
        }
    }

    /// Resumes a thread waiting at a block barrier, and every thread of
    /// the lane groups that made it wait.
    fn release_block(&self, t: &mut Thread, result: Option<u64>) {
        if let Some(g) = t.group.as_deref_mut() {
            for c in &mut g.children {
                if matches!(c.state, State::Waiting(_)) {
                    self.release_block(c, result);
                }
            }
        } else if let (State::Waiting(w), Some(r)) = (t.state, result) {
            if let (Some(frame), Some(&res)) = (
                t.frames.last_mut(),
                self.module.functions[w.func].ops[w.op].results.first(),
            ) {
                frame.env[res.index()] = r;
            }
        }
        t.state = State::Running;
    }

    fn run_grid(&mut self, gi: &mut GridIters) -> Result<(), InterpError> {
        loop {
            if gi.current.is_none() {
                if gi.next >= gi.total {
                    return Ok(());
                }
                let iv = decompose(gi.next, &gi.ubs);
                gi.next += 1;
                let frame = self.child_frame(gi.func, &gi.env, gi.body, &iv[..gi.ndims]);
                let mut t = Thread::new(frame);
                t.block = Some([iv[0] as u32, iv[1] as u32, iv[2] as u32]);
                t.tid = gi.parent.tid;
                t.linear = gi.parent.linear;
                t.clock = gi.parent.clock;
                t.shared = Some(self.new_shared()?);
                self.threads += 1;
                self.blocks += 1;
                gi.current = Some(t);
            }
            let Some(t) = gi.current.as_mut() else {
                continue;
            };
            t.active_mask = 1 << (t.linear % 32);
            self.run_thread(t)?;
            match t.state {
                State::Waiting(w) => return Err(self.unbound_sync(t, w)),
                _ => {
                    if let Some(s) = t.shared {
                        self.free_shared(s);
                    }
                    gi.current = None;
                }
            }
        }
    }

    /// The error for a barrier or warp op that reached a thread outside
    /// any group that binds it.
    pub(crate) fn unbound_sync(&self, t: &Thread, w: Wait) -> InterpError {
        let what = match w.kind {
            WaitKind::Block { .. } => "block barrier outside any block- or warp-level parallel",
            WaitKind::Warp { .. } => "warp op outside any block- or lane-level parallel",
        };
        InterpError::Malformed {
            site: self.site((t.block, t.tid), w.func, w.op),
            message: what.to_string(),
        }
    }

    /// Resolves the warp ops that can proceed; true if any did.
    fn resolve_warp_ops(&mut self, g: &mut Group) -> Result<bool, InterpError> {
        let chunk = match g.level {
            Level::Block | Level::Lane => 32,
            _ => {
                if let Some(c) = g.children.iter().find(|c| {
                    matches!(
                        c.state,
                        State::Waiting(Wait {
                            kind: WaitKind::Warp { .. },
                            ..
                        })
                    )
                }) {
                    if let State::Waiting(w) = c.state {
                        return Err(self.unbound_sync(c, w));
                    }
                }
                return Ok(false);
            }
        };
        let mut progressed = false;
        let n = g.children.len();
        for start in (0..n).step_by(chunk) {
            let end = (start + chunk).min(n);
            let lanes = &mut g.children[start..end];
            let mut info = Lanes {
                finished: 0,
                exists: 0,
            };
            for (l, c) in lanes.iter().enumerate() {
                info.exists |= 1 << l;
                if c.state == State::Finished {
                    info.finished |= 1 << l;
                }
            }
            for l in 0..lanes.len() {
                let State::Waiting(
                    w @ Wait {
                        kind: WaitKind::Warp { .. },
                        ..
                    },
                ) = lanes[l].state
                else {
                    continue;
                };
                if self.resolve_one(lanes, &info, w)? {
                    progressed = true;
                }
            }
        }
        Ok(progressed)
    }

    /// Tries to resolve the warp op `w` among `lanes`.
    fn resolve_one(
        &mut self,
        lanes: &mut [Thread],
        info: &Lanes,
        w: Wait,
    ) -> Result<bool, InterpError> {
        let at = |c: &Thread| match c.state {
            State::Waiting(x) if x.func == w.func && x.op == w.op => match x.kind {
                WaitKind::Warp { mask, args } => Some((mask, args)),
                WaitKind::Block { .. } => None,
            },
            _ => None,
        };
        if self.module.functions[w.func].ops[w.op].kind == OpKind::ActiveMask {
            return Ok(self.resolve_active_mask(lanes, w));
        }
        // `__syncwarp` waits only for the named lanes that have not exited;
        // a shuffle or vote naming an exited lane has no value to read.
        let exited_ok = matches!(
            self.module.functions[w.func].ops[w.op].kind,
            OpKind::Barrier(BarrierScope::Warp)
        );
        let live = |mask: u32| {
            if exited_ok {
                mask & !info.finished
            } else {
                mask
            }
        };
        let mut part = 0u32;
        for (l, c) in lanes.iter().enumerate() {
            if let Some((mask, _)) = at(c) {
                if live(mask) & info.finished != 0 {
                    return Err(InterpError::DivergentWarpOp {
                        site: self.site((c.block, c.tid), w.func, w.op),
                        detail: format!(
                            "mask {mask:#010x} names lanes that finished ({:#010x}); {}",
                            mask & info.finished,
                            self.describe_lanes(lanes)
                        ),
                    });
                }
                part |= 1 << l;
            }
        }
        // Drop lanes whose mask names a lane not waiting here, until stable.
        loop {
            let mut dropped = false;
            for (l, c) in lanes.iter().enumerate() {
                if part & (1 << l) == 0 {
                    continue;
                }
                if let Some((mask, _)) = at(c) {
                    if live(mask) & info.exists & !part != 0 {
                        part &= !(1 << l);
                        dropped = true;
                    }
                }
            }
            if !dropped {
                break;
            }
        }
        if part == 0 {
            return Ok(false);
        }
        let kind = self.module.functions[w.func].ops[w.op].kind.clone();
        let args: Vec<[u64; 3]> = lanes
            .iter()
            .map(|c| at(c).map(|(_, a)| a).unwrap_or([0; 3]))
            .collect();
        let masks: Vec<u32> = lanes
            .iter()
            .map(|c| at(c).map(|(m, _)| m).unwrap_or(0))
            .collect();
        let mut results = vec![None; lanes.len()];
        match kind {
            OpKind::Shuffle(mode) => {
                for l in 0..lanes.len() {
                    if part & (1 << l) == 0 {
                        continue;
                    }
                    let [own, sel, width] = args[l];
                    let width = width as u32 as i32;
                    if !(1..=32).contains(&width) || (width & (width - 1)) != 0 {
                        let c = &lanes[l];
                        return Err(InterpError::InvalidOperation {
                            site: self.site((c.block, c.tid), w.func, w.op),
                            message: format!(
                                "shuffle width {width} is not a power of two in 1..=32"
                            ),
                        });
                    }
                    let (li, wi) = (l as i64, i64::from(width));
                    let base = li & !(wi - 1);
                    let d = i64::from(sel as u32 as i32);
                    let src = match mode {
                        ShuffleMode::Idx => base + (d & (wi - 1)),
                        ShuffleMode::Up => {
                            let s = li - i64::from(sel as u32);
                            if s < base {
                                li
                            } else {
                                s
                            }
                        }
                        ShuffleMode::Down => {
                            let s = li + i64::from(sel as u32);
                            if s >= base + wi {
                                li
                            } else {
                                s
                            }
                        }
                        ShuffleMode::Xor => {
                            let s = li ^ i64::from(sel as u32);
                            if s < base || s >= base + wi {
                                li
                            } else {
                                s
                            }
                        }
                    };
                    let v = if (0..32).contains(&src) && part & (1 << src) != 0 {
                        args[src as usize][0]
                    } else {
                        own
                    };
                    results[l] = Some(v);
                }
            }
            OpKind::Vote(vk) => {
                let mut ballot = 0u32;
                for (l, a) in args.iter().enumerate() {
                    if part & (1 << l) != 0 && a[0] & 1 != 0 {
                        ballot |= 1 << l;
                    }
                }
                // Each lane sees the lanes of its own mask (the lanes of
                // `part` it names): lanes outside the mask do not count,
                // even when they vote at the same time with another mask.
                for (l, res) in results.iter_mut().enumerate() {
                    if part & (1 << l) != 0 {
                        let seen = part & masks[l];
                        let mine = ballot & seen;
                        *res = Some(match vk {
                            VoteKind::Ballot => u64::from(mine),
                            VoteKind::Any => u64::from(mine != 0),
                            VoteKind::All => u64::from(mine == seen),
                        });
                    }
                }
            }
            _ => {}
        }
        let res_val = self.module.functions[w.func].ops[w.op]
            .results
            .first()
            .copied();
        for (l, c) in lanes.iter_mut().enumerate() {
            if part & (1 << l) == 0 {
                continue;
            }
            if let (Some(v), Some(r), Some(frame)) = (results[l], res_val, c.frames.last_mut()) {
                let ty = self.infos[w.func.index()].vty[r.index()];
                frame.env[r.index()] = ty.normalize(v);
            }
            c.state = State::Running;
        }
        Ok(true)
    }

    /// `activemask` resolves once every lane of the warp is finished or
    /// waiting somewhere: its value is the set of lanes waiting at this op,
    /// as converged lanes on a GPU execute it together.
    fn resolve_active_mask(&mut self, lanes: &mut [Thread], w: Wait) -> bool {
        let quiet = lanes
            .iter()
            .all(|c| matches!(c.state, State::Finished | State::Waiting(_)));
        if !quiet {
            return false;
        }
        let here =
            |c: &Thread| matches!(c.state, State::Waiting(x) if x.func == w.func && x.op == w.op);
        let mut part = 0u32;
        for (l, c) in lanes.iter().enumerate() {
            if here(c) {
                part |= 1 << l;
            }
        }
        let res_val = self.module.functions[w.func].ops[w.op]
            .results
            .first()
            .copied();
        for c in lanes.iter_mut() {
            if !here(c) {
                continue;
            }
            if let (Some(r), Some(frame)) = (res_val, c.frames.last_mut()) {
                frame.env[r.index()] = u64::from(part);
            }
            c.state = State::Running;
        }
        part != 0
    }

    /// "threads 0-15: wait at f.cu:3:5 (barrier); threads 16-31: finished".
    fn describe_lanes(&self, threads: &[Thread]) -> String {
        let mut parts: Vec<(String, u32, u32)> = Vec::new();
        for t in threads {
            let what = match t.state {
                State::Finished => "finished".to_string(),
                State::Running => "running".to_string(),
                State::Waiting(w) => {
                    let f = &self.module.functions[w.func];
                    let od = &f.ops[w.op];
                    format!(
                        "wait at {} ({})",
                        self.module.describe_loc(od.loc),
                        od.kind.mnemonic()
                    )
                }
            };
            match parts.last_mut() {
                Some((w, _, hi)) if *w == what && *hi + 1 == t.linear => *hi = t.linear,
                _ => parts.push((what, t.linear, t.linear)),
            }
        }
        parts
            .iter()
            .map(|(w, lo, hi)| {
                if lo == hi {
                    format!("thread {lo}: {w}")
                } else {
                    format!("threads {lo}-{hi}: {w}")
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The error for a group that cannot make progress.
    fn divergence(&self, g: &Group, barrier: bool) -> InterpError {
        let waiting = g.children.iter().find_map(|c| match c.state {
            State::Waiting(w) if barrier == matches!(w.kind, WaitKind::Block { .. }) => Some(w),
            _ => None,
        });
        let func = waiting.map_or(self.kernel, |w| w.func);
        let mut site = match waiting {
            Some(w) => self.site((g.block, None), w.func, w.op),
            None => self.site((g.block, None), func, Op::new(usize::MAX >> 33)),
        };
        site.thread = None;
        let detail = self.describe_lanes(&g.children);
        if barrier {
            InterpError::DivergentBarrier { site, detail }
        } else {
            InterpError::DivergentWarpOp { site, detail }
        }
    }
}
