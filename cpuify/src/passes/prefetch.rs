//! `prefetch` (last): a thread loop inside a serial loop of the block that
//! reads a contiguous range of a kernel's pointer argument is preceded by a
//! prefetch of the range the next block reads on the same trip.
//!
//! A block that walks several rows of an array in a serial loop (a time
//! step, a pyramid of rows) reads a short run of each row, far from the
//! previous one: as many streams as trips. Consecutive blocks, which one
//! worker runs in order, read the next runs of the same rows, but the
//! hardware prefetchers lose such interleaved short streams, and each
//! run's first lines arrive at memory latency. The address a load has in
//! block `bx + 1` is its address with `blockIdx.x` replaced, so before the
//! thread loop the pass computes the address of the range's first element
//! (thread 0) for the next block and prefetches the whole range, one cache
//! line at a time. Prefetches cannot fault, so the range may lie anywhere.
//!
//! Blocks of several rows (`threadIdx.y`, a 16x16 tile) have the same
//! shape of access without any serial loop: each row of the tile is a
//! short run of a distant row of the array, one stream per row and array
//! (srad's coefficient kernel: 16 rows x 6 arrays). For such accesses,
//! wherever the thread loop is, the pass prefetches the next block's run
//! in every row, in a loop over the other thread indices the address
//! reads.
//!
//! Only loads and stores whose address depends on the block index (else
//! the range is the one being accessed), is affine in `threadIdx.x` with a
//! step of at most a cache line, and is computed by pure ops are
//! prefetched, at most [`MAX_STREAMS`] ranges per thread loop. A thread
//! loop outside every serial loop whose accesses read `threadIdx.x` alone
//! is left to the hardware: consecutive blocks continue its one stream.

use crate::passes::entry::{launch_parts, Changed};
use crate::remarks::Remarks;
use cucc_ir::{
    ArithFlags, BinOp, CastOp, FuncId, Function, Level, Module, Op, OpKind, Region, Types, Value,
    ValueDef,
};
use std::collections::{HashMap, HashSet};

/// Most ranges prefetched before one thread loop.
pub const MAX_STREAMS: usize = 8;
/// Largest step between consecutive threads' addresses (a cache line).
const MAX_STEP: i64 = 64;

/// Inserts the prefetches into `fid` (launch form); returns how many thread
/// loops got some.
pub fn prefetch(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
    let grids = crate::passes::launch_form::top_grids(func);
    let mut done = 0;
    for g in grids {
        let grid_body = func.ops[g].body();
        let Some(&bx) = func.regions[grid_body].args.first() else {
            continue;
        };
        let walks = super::prefetch_walks::prefetch_walks(types, func, grid_body);
        if walks > 0 {
            let name = func.name.clone();
            remarks.add(
                "prefetch",
                &name,
                func.ops[g].loc,
                format!(
                    "{walks} load(s) of serial loops walking a pointer argument with a wide or run-time stride prefetch the element {} trips ahead",
                    super::prefetch_walks::AHEAD
                ),
            );
            done += 1;
        }
        let mut loops = Vec::new();
        thread_loops(func, grid_body, false, &mut loops);
        for (region, p, in_serial) in loops {
            let (n, rows) = prefetch_loop(types, func, region, p, bx, in_serial);
            if n > 0 {
                done += 1;
                let name = func.name.clone();
                let why = if rows > 0 {
                    format!("{rows} of them in every row of the block's tile")
                } else {
                    "in a serial loop of the block".to_string()
                };
                remarks.add(
                    "prefetch",
                    &name,
                    func.ops[p].loc,
                    format!(
                        "{n} range(s) the next block accesses prefetched before the thread loop: contiguous accesses of a pointer argument, {why}"
                    ),
                );
            }
        }
    }
    Ok(done)
}

/// The block-level thread loops (with their regions) of the grid
/// iteration's body `region`, each with whether a `for` or `while` of the
/// block encloses it.
fn thread_loops(
    func: &Function,
    region: Region,
    in_serial: bool,
    out: &mut Vec<(Region, Op, bool)>,
) {
    for &op in &func.regions[region].ops {
        let data = &func.ops[op];
        match data.kind {
            OpKind::Parallel {
                level: Level::Block,
            } => out.push((region, op, in_serial)),
            OpKind::For { .. } | OpKind::While => {
                for &r in &data.regions {
                    thread_loops(func, r, true, out);
                }
            }
            _ => {
                for &r in &data.regions {
                    thread_loops(func, r, in_serial, out);
                }
            }
        }
    }
}

/// An access to prefetch: its address, the bytes between consecutive
/// threads, and the other thread indices (with their extents) it reads.
type Range = (Value, i64, Vec<(Value, Value)>);

/// Prefetches for thread loop `p` (in `region`); returns how many ranges,
/// and how many of them are prefetched row by row.
fn prefetch_loop(
    types: &mut Types,
    func: &mut Function,
    region: Region,
    p: Op,
    bx: Value,
    in_serial: bool,
) -> (usize, usize) {
    let ubs = func.ops[p].ubs().to_vec();
    let body = func.ops[p].body();
    let args = func.regions[body].args.clone();
    let (Some(&tx), Some(&ub)) = (args.first(), ubs.first()) else {
        return (0, 0);
    };
    // The other thread indices with their extents: a range over x is
    // prefetched for each of their values the address reads.
    let others: Vec<(Value, Value)> = args
        .iter()
        .copied()
        .zip(ubs.iter().copied())
        .skip(1)
        .collect();
    let mut addrs = Vec::new();
    accesses_in(func, body, &mut addrs);
    let inside = defined_in(func, body);
    let mut a = Analysis {
        func,
        tx,
        bx,
        varying: varying_in(func, body, tx, &others),
        on_bx: HashMap::new(),
    };
    let mut picked: Vec<Range> = Vec::new();
    let mut seen = HashSet::new();
    for addr in addrs {
        if picked.len() == MAX_STREAMS || !seen.insert(addr) {
            continue;
        }
        if !from_parameter(a.func, addr) || !a.depends_on_bx(addr) {
            continue;
        }
        let rows: Vec<(Value, Value)> = others
            .iter()
            .copied()
            .filter(|&(t, _)| reaches(a.func, addr, t, &mut HashSet::new()))
            .collect();
        // Outside serial loops, a one-row range continues the stream the
        // hardware already follows from the previous block.
        if !in_serial && rows.is_empty() {
            continue;
        }
        match a.byte_step(types, addr) {
            Some(step) if step > 0 && step <= MAX_STEP => picked.push((addr, step, rows)),
            _ => {}
        }
    }
    if picked.is_empty() {
        return (0, 0);
    }
    let loc = func.ops[p].loc;
    let at = func.op_index(region, p);
    let mut e = Emitter {
        func,
        region,
        at,
        loc,
    };
    let i64t = types.i64();
    let bx_ty = e.func.value_type(bx);
    let one = e.constant(bx_ty, 1);
    let next_bx = e.op(
        OpKind::Binary(BinOp::Add, ArithFlags::NONE),
        vec![bx, one],
        bx_ty,
    );
    let tx_ty = e.func.value_type(tx);
    let zero = e.constant(tx_ty, 0);
    let mut map: HashMap<Value, Value> = HashMap::new();
    map.insert(tx, zero);
    map.insert(bx, next_bx);
    let threads = e.op(OpKind::Cast(CastOp::SExt), vec![ub], i64t);
    let (mut n, mut by_rows) = (0, 0);
    for (addr, step, rows) in picked {
        let step_v = e.constant(i64t, step as u64);
        let len = e.op(
            OpKind::Binary(BinOp::Mul, ArithFlags::NONE),
            vec![threads, step_v],
            i64t,
        );
        if rows.is_empty() {
            let mut scratch = map.clone();
            let Some(first) = materialize(&mut e, &inside, bx, &mut scratch, addr) else {
                continue;
            };
            let pf = e
                .func
                .new_op(OpKind::Prefetch, vec![first, len], &[], vec![], loc);
            e.func.regions[region].ops.insert(e.at, pf);
            e.at += 1;
            map = scratch;
        } else {
            // for %r1 = 0 to %ub1 { for %r2 ... { prefetch } }: the ops
            // computing the address go into the innermost body.
            let top_from = e.at;
            let mut scratch = map.clone();
            let mut bodies = Vec::new();
            let (mut cur, mut cur_at) = (region, e.at);
            for &(t, t_ub) in &rows {
                let t_ty = e.func.value_type(t_ub);
                let mut lvl = Emitter {
                    func: &mut *e.func,
                    region: cur,
                    at: cur_at,
                    loc,
                };
                let lb = lvl.constant(t_ty, 0);
                let st = lvl.constant(t_ty, 1);
                let r = lvl.func.new_region(&[t_ty]);
                let iv = lvl.func.regions[r].args[0];
                let f = lvl.func.new_op(
                    OpKind::For { unsigned: false },
                    vec![lb, t_ub, st],
                    &[],
                    vec![r],
                    loc,
                );
                lvl.func.regions[cur].ops.insert(lvl.at, f);
                if cur == region {
                    e.at = lvl.at + 1;
                }
                scratch.insert(t, iv);
                bodies.push(r);
                cur = r;
                cur_at = 0;
            }
            let mut innermost = Emitter {
                func: &mut *e.func,
                region: cur,
                at: 0,
                loc,
            };
            let Some(first) = materialize(&mut innermost, &inside, bx, &mut scratch, addr) else {
                e.func.regions[region].ops.drain(top_from..e.at);
                e.at = top_from;
                continue;
            };
            let pf = innermost
                .func
                .new_op(OpKind::Prefetch, vec![first, len], &[], vec![], loc);
            innermost.func.regions[cur].ops.push(pf);
            for r in bodies {
                let y = e.func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
                e.func.regions[r].ops.push(y);
            }
            by_rows += 1;
        }
        n += 1;
    }
    (n, by_rows)
}

/// Addresses of the loads and stores in `region` and the `if`s nested in
/// it (not in nested loops, whose trips the range would not describe).
fn accesses_in(func: &Function, region: Region, out: &mut Vec<Value>) {
    for &op in &func.regions[region].ops {
        let data = &func.ops[op];
        match data.kind {
            OpKind::Load {
                volatile: false, ..
            }
            | OpKind::Store { volatile: false } => out.push(data.ptr()),
            OpKind::If => {
                for &r in &data.regions {
                    accesses_in(func, r, out);
                }
            }
            _ => {}
        }
    }
}

/// The values of thread loop body `body` computed from the thread index
/// `tx` (arguments of nested regions count as such). The other thread
/// indices `others` are fixed while `tx` varies.
fn varying_in(
    func: &Function,
    body: Region,
    tx: Value,
    others: &[(Value, Value)],
) -> HashSet<Value> {
    let mut out: HashSet<Value> = func.regions[body]
        .args
        .iter()
        .copied()
        .filter(|a| !others.iter().any(|&(t, _)| t == *a))
        .collect();
    out.insert(tx);
    let mut walk = Vec::new();
    func.walk_region(body, &mut walk);
    for (_, o) in walk {
        let d = &func.ops[o];
        for &r in &d.regions {
            out.extend(func.regions[r].args.iter().copied());
        }
        if !d.regions.is_empty() || d.operands.iter().any(|v| out.contains(v)) {
            out.extend(d.results.iter().copied());
        }
    }
    out
}

/// True if pointer `v` is derived from a parameter of the function (memory
/// the host allocated) by indexing and casts.
pub(super) fn from_parameter(func: &Function, mut v: Value) -> bool {
    loop {
        match func.values[v].def {
            ValueDef::Arg { region, .. } => return region == func.body,
            ValueDef::Result { op, .. } => {
                let d = &func.ops[op];
                match d.kind {
                    OpKind::PtrIndex { .. } | OpKind::PtrField { .. } => v = d.ptr(),
                    OpKind::Cast(CastOp::SpaceCast) => v = d.input(),
                    OpKind::Cast(CastOp::IntToPtr) => {
                        return int_from_parameter(func, d.input(), 0)
                    }
                    _ => return false,
                }
            }
        }
    }
}

/// True if integer `v` is an address computed from a parameter (PTX passes
/// pointers as `u64`) by adding and subtracting offsets.
fn int_from_parameter(func: &Function, v: Value, depth: u32) -> bool {
    if depth > 12 {
        return false;
    }
    match func.values[v].def {
        // A prefetch cannot fault: an integer parameter taken for the
        // base costs a useless prefetch at worst.
        ValueDef::Arg { region, .. } => region == func.body,
        ValueDef::Result { op, .. } => {
            let d = &func.ops[op];
            match d.kind {
                OpKind::Binary(BinOp::Add, _) => d
                    .operands
                    .iter()
                    .any(|&o| int_from_parameter(func, o, depth + 1)),
                OpKind::Binary(BinOp::Sub, _) => int_from_parameter(func, d.lhs(), depth + 1),
                OpKind::Cast(CastOp::PtrToInt) => from_parameter(func, d.input()),
                _ => false,
            }
        }
    }
}

/// Values defined in `region` (results and region arguments, at any depth).
pub(super) fn defined_in(func: &Function, region: Region) -> HashSet<Value> {
    let mut out: HashSet<Value> = func.regions[region].args.iter().copied().collect();
    let mut walk = Vec::new();
    func.walk_region(region, &mut walk);
    for (_, o) in walk {
        out.extend(func.ops[o].results.iter().copied());
        for &r in &func.ops[o].regions {
            out.extend(func.regions[r].args.iter().copied());
        }
    }
    out
}

/// Questions about the address computations of one thread loop.
struct Analysis<'a> {
    func: &'a Function,
    tx: Value,
    bx: Value,
    /// Values of the thread loop computed from the thread index.
    varying: HashSet<Value>,
    on_bx: HashMap<Value, bool>,
}

impl Analysis<'_> {
    /// True if `v` is computed from the block index `bx`.
    fn depends_on_bx(&mut self, v: Value) -> bool {
        if v == self.bx {
            return true;
        }
        if let Some(&b) = self.on_bx.get(&v) {
            return b;
        }
        self.on_bx.insert(v, false);
        let r = match self.func.defining_op(v) {
            Some(op) => {
                let operands = self.func.ops[op].operands.clone();
                operands.into_iter().any(|o| self.depends_on_bx(o))
            }
            None => false,
        };
        self.on_bx.insert(v, r);
        r
    }

    /// Bytes between the addresses two consecutive threads load, if `addr`
    /// is affine in the thread index with a constant step.
    fn byte_step(&self, types: &Types, addr: Value) -> Option<i64> {
        let Some(op) = self.func.defining_op(addr) else {
            return Some(0);
        };
        let d = &self.func.ops[op];
        match d.kind {
            OpKind::PtrIndex { elem } => {
                if self.byte_step(types, d.ptr())? != 0 {
                    return None;
                }
                let size = i64::try_from(types.size_of(elem)).ok()?;
                self.int_step(d.index())?.checked_mul(size)
            }
            OpKind::PtrField { .. } => self.byte_step(types, d.ptr()),
            OpKind::Cast(CastOp::SpaceCast) => self.byte_step(types, d.input()),
            // An integer address (PTX's): its step is in bytes.
            OpKind::Cast(CastOp::IntToPtr) => self.int_step(d.input()),
            _ => (!self.varies(addr)).then_some(0),
        }
    }

    /// The step of integer `v` per thread, if affine in the thread index.
    fn int_step(&self, v: Value) -> Option<i64> {
        if v == self.tx {
            return Some(1);
        }
        if !self.varies(v) {
            return Some(0);
        }
        let op = self.func.defining_op(v)?;
        let d = &self.func.ops[op];
        let c = |w: Value| self.func.const_bits(w).map(|b| b as i64);
        match d.kind {
            OpKind::Binary(BinOp::Add, _) => {
                self.int_step(d.lhs())?.checked_add(self.int_step(d.rhs())?)
            }
            OpKind::Binary(BinOp::Sub, _) => {
                self.int_step(d.lhs())?.checked_sub(self.int_step(d.rhs())?)
            }
            OpKind::Binary(BinOp::Mul, _) => {
                let (a, b) = (self.int_step(d.lhs())?, self.int_step(d.rhs())?);
                match (a, b, c(d.lhs()), c(d.rhs())) {
                    (0, _, Some(k), _) => b.checked_mul(k),
                    (_, 0, _, Some(k)) => a.checked_mul(k),
                    _ => None,
                }
            }
            OpKind::Binary(BinOp::Shl, _) => {
                let k = c(d.rhs()).filter(|k| (0..32).contains(k))?;
                self.int_step(d.lhs())?.checked_mul(1 << k)
            }
            OpKind::Cast(CastOp::SExt | CastOp::ZExt | CastOp::Trunc) => self.int_step(d.input()),
            _ => None,
        }
    }

    /// True if `v` is computed from the thread index.
    fn varies(&self, v: Value) -> bool {
        self.varying.contains(&v)
    }
}

/// Inserts ops into `region` before position `at`.
pub(super) struct Emitter<'a> {
    pub(super) func: &'a mut Function,
    pub(super) region: Region,
    pub(super) at: usize,
    pub(super) loc: cucc_ir::Loc,
}

impl Emitter<'_> {
    pub(super) fn op(&mut self, kind: OpKind, operands: Vec<Value>, ty: cucc_ir::TypeId) -> Value {
        let op = self.func.new_op(kind, operands, &[ty], vec![], self.loc);
        self.func.regions[self.region].ops.insert(self.at, op);
        self.at += 1;
        self.func.ops[op].results[0]
    }

    fn constant(&mut self, ty: cucc_ir::TypeId, bits: u64) -> Value {
        self.op(OpKind::Const { bits }, vec![], ty)
    }
}

/// `v` recomputed before the thread loop with the substitutions of `map`
/// (the thread index and block index): values from outside the loop that
/// do not depend on the block index are used as they are; the pure ops
/// computing the rest are copied. None if one is not a pure op.
fn materialize(
    e: &mut Emitter<'_>,
    inside: &HashSet<Value>,
    bx: Value,
    map: &mut HashMap<Value, Value>,
    v: Value,
) -> Option<Value> {
    if let Some(&m) = map.get(&v) {
        return Some(m);
    }
    if !inside.contains(&v) && !reaches(e.func, v, bx, &mut HashSet::new()) {
        return Some(v);
    }
    let op = e.func.defining_op(v)?;
    let data = e.func.ops[op].clone();
    if !data.kind.is_pure() || !data.regions.is_empty() || data.results.len() != 1 {
        return None;
    }
    let mut operands = Vec::with_capacity(data.operands.len());
    for &o in &data.operands {
        operands.push(materialize(e, inside, bx, map, o)?);
    }
    let ty = e.func.value_type(v);
    // The next block's index may be past the grid: its arithmetic wraps.
    let kind = match data.kind {
        OpKind::Binary(b, _) => OpKind::Binary(b, ArithFlags::NONE),
        k => k,
    };
    let r = e.op(kind, operands, ty);
    map.insert(v, r);
    Some(r)
}

/// True if `v` is computed from `target`.
fn reaches(func: &Function, v: Value, target: Value, seen: &mut HashSet<Value>) -> bool {
    if v == target {
        return true;
    }
    if !seen.insert(v) {
        return false;
    }
    match func.defining_op(v) {
        Some(op) => func.ops[op]
            .operands
            .iter()
            .any(|&o| reaches(func, o, target, seen)),
        None => false,
    }
}
