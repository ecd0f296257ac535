//! The builder frontends and passes use to create ops.
//!
//! A [`Builder`] appends ops at an insertion point (a region and a position)
//! and stamps them with the current source location. Structured ops come in
//! two styles: closures (`if_else`, `for_`, `while_`, `parallel`), which
//! build the nested regions and their terminators in one call, and
//! `create_*` functions that return the new regions for callers that fill
//! them step by step (a recursive AST lowering, say).

use crate::func::{Function, Op, Region, Value};
use crate::loc::Loc;
use crate::module::{FuncId, GlobalId};
use crate::ops::*;
use crate::types::{FloatKind, Space, Type, TypeId, Types};

/// Appends ops to a function.
pub struct Builder<'a> {
    /// The module's type table (to make result types).
    pub types: &'a mut Types,
    /// The function being built.
    pub func: &'a mut Function,
    region: Region,
    pos: Option<usize>,
    loc: Loc,
}

impl<'a> Builder<'a> {
    /// A builder appending to the end of `func`'s body.
    pub fn new(types: &'a mut Types, func: &'a mut Function) -> Self {
        let region = func.body;
        Builder {
            types,
            func,
            region,
            pos: None,
            loc: Loc::UNKNOWN,
        }
    }

    /// Sets the location stamped on new ops.
    pub fn set_loc(&mut self, loc: Loc) {
        self.loc = loc;
    }

    /// The location stamped on new ops.
    pub fn loc(&self) -> Loc {
        self.loc
    }

    /// Appends further ops at the end of `region`.
    pub fn set_insertion_end(&mut self, region: Region) {
        self.region = region;
        self.pos = None;
    }

    /// Inserts further ops at position `index` of `region` (ops then go in order).
    pub fn set_insertion_at(&mut self, region: Region, index: usize) {
        self.region = region;
        self.pos = Some(index);
    }

    /// Inserts further ops just before `anchor` in `region` (ops then go in
    /// order, all before `anchor`).
    ///
    /// # Panics
    ///
    /// If `anchor` is not in `region` (see [`Function::op_index`]).
    #[track_caller]
    pub fn set_insertion_before(&mut self, region: Region, anchor: Op) {
        let at = self.func.op_index(region, anchor);
        self.set_insertion_at(region, at);
    }

    /// Inserts further ops just after `anchor` in `region` (ops then go in
    /// order, all after `anchor`).
    ///
    /// # Panics
    ///
    /// If `anchor` is not in `region` (see [`Function::op_index`]).
    #[track_caller]
    pub fn set_insertion_after(&mut self, region: Region, anchor: Op) {
        let at = self.func.op_index(region, anchor) + 1;
        self.set_insertion_at(region, at);
    }

    /// The region ops are inserted into.
    pub fn insertion_region(&self) -> Region {
        self.region
    }

    /// The function's parameter values.
    pub fn params(&self) -> Vec<Value> {
        self.func.param_values().to_vec()
    }

    /// The type of `v`.
    pub fn ty(&self, v: Value) -> TypeId {
        self.func.value_type(v)
    }

    /// True if the region being filled already ends in a terminator.
    pub fn is_terminated(&self) -> bool {
        self.func.regions[self.region]
            .ops
            .last()
            .is_some_and(|&op| self.func.ops[op].kind.is_terminator())
    }

    /// Creates an op and inserts it at the insertion point.
    pub fn op(
        &mut self,
        kind: OpKind,
        operands: Vec<Value>,
        result_types: &[TypeId],
        regions: Vec<Region>,
    ) -> Op {
        let op = self
            .func
            .new_op(kind, operands, result_types, regions, self.loc);
        let ops = &mut self.func.regions[self.region].ops;
        match &mut self.pos {
            None => ops.push(op),
            Some(i) => {
                ops.insert(*i, op);
                *i += 1;
            }
        }
        op
    }

    /// Like [`Builder::op`] for an op with one result; returns the result.
    pub fn op1(&mut self, kind: OpKind, operands: Vec<Value>, ty: TypeId) -> Value {
        let op = self.op(kind, operands, &[ty], Vec::new());
        self.func.ops[op].results[0]
    }

    /// Names a value (for printing and the C emitter).
    pub fn name(&mut self, v: Value, name: &str) {
        self.func.values[v].name = Some(name.to_string());
    }

    // ---- constants ----------------------------------------------------------

    /// An integer constant of type `ty` (truncated to its width).
    pub fn const_int(&mut self, ty: TypeId, value: i64) -> Value {
        let bits = match self.types[ty] {
            Type::Int(64) => value as u64,
            Type::Int(b) => (value as u64) & ((1u64 << b) - 1),
            _ => value as u64,
        };
        self.op1(OpKind::Const { bits }, vec![], ty)
    }

    /// An `i32` constant.
    pub fn i32(&mut self, value: i32) -> Value {
        let ty = self.types.i32();
        self.const_int(ty, i64::from(value))
    }

    /// An `i64` constant.
    pub fn i64(&mut self, value: i64) -> Value {
        let ty = self.types.i64();
        self.const_int(ty, value)
    }

    /// An `i1` constant.
    pub fn bool(&mut self, value: bool) -> Value {
        let ty = self.types.i1();
        self.const_int(ty, i64::from(value))
    }

    /// An `f32` constant.
    pub fn f32(&mut self, value: f32) -> Value {
        let ty = self.types.f32();
        self.op1(
            OpKind::Const {
                bits: u64::from(value.to_bits()),
            },
            vec![],
            ty,
        )
    }

    /// An `f64` constant.
    pub fn f64(&mut self, value: f64) -> Value {
        let ty = self.types.f64();
        self.op1(
            OpKind::Const {
                bits: value.to_bits(),
            },
            vec![],
            ty,
        )
    }

    /// A float constant of any float type, from an `f64` (rounded).
    pub fn const_float(&mut self, ty: TypeId, value: f64) -> Value {
        let bits = match self.types[ty] {
            Type::Float(FloatKind::F32) => u64::from((value as f32).to_bits()),
            Type::Float(FloatKind::F16) => u64::from(crate::float::f64_to_f16(value)),
            Type::Float(FloatKind::BF16) => u64::from(crate::float::f64_to_bf16(value)),
            _ => value.to_bits(),
        };
        self.op1(OpKind::Const { bits }, vec![], ty)
    }

    /// The null pointer of a space.
    pub fn null(&mut self, space: Space) -> Value {
        let ty = self.types.ptr(space);
        self.op1(OpKind::Const { bits: 0 }, vec![], ty)
    }

    /// An unspecified value of type `ty`.
    pub fn undef(&mut self, ty: TypeId) -> Value {
        self.op1(OpKind::Undef, vec![], ty)
    }

    // ---- arithmetic ---------------------------------------------------------

    /// `a op b`, result of `a`'s type (wrapping).
    pub fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        self.binary_flags(op, ArithFlags::NONE, a, b)
    }

    /// `a op b` with overflow flags (`nsw` only on integer `add`, `sub`
    /// and `mul`; the verifier checks).
    pub fn binary_flags(&mut self, op: BinOp, flags: ArithFlags, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.op1(OpKind::Binary(op, flags), vec![a, b], ty)
    }

    /// `op a`, result of `a`'s type.
    pub fn unary(&mut self, op: UnOp, a: Value) -> Value {
        let ty = self.ty(a);
        self.op1(OpKind::Unary(op), vec![a], ty)
    }

    /// `a pred b` as `i1`.
    pub fn cmp(&mut self, pred: CmpPred, a: Value, b: Value) -> Value {
        let ty = self.types.i1();
        self.op1(OpKind::Cmp(pred), vec![a, b], ty)
    }

    /// Converts `v` to `ty`.
    pub fn cast(&mut self, op: CastOp, v: Value, ty: TypeId) -> Value {
        self.op1(OpKind::Cast(op), vec![v], ty)
    }

    /// `c ? a : b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.op1(OpKind::Select, vec![c, a, b], ty)
    }

    // ---- memory -------------------------------------------------------------

    /// Storage for one `ty` in `space`.
    pub fn alloca(&mut self, space: Space, ty: TypeId) -> Value {
        let pty = self.types.ptr(space);
        self.op1(OpKind::Alloca { space, ty }, vec![], pty)
    }

    /// Reads a `ty` from `ptr`.
    pub fn load(&mut self, ptr: Value, ty: TypeId) -> Value {
        self.op1(
            OpKind::Load {
                volatile: false,
                speculative: false,
            },
            vec![ptr],
            ty,
        )
    }

    /// Writes `value` to `ptr`.
    pub fn store(&mut self, ptr: Value, value: Value) -> Op {
        self.op(
            OpKind::Store { volatile: false },
            vec![ptr, value],
            &[],
            vec![],
        )
    }

    /// `base + index * size_of(elem)`, in `base`'s space.
    pub fn ptr_index(&mut self, base: Value, index: Value, elem: TypeId) -> Value {
        let ty = self.ty(base);
        self.op1(OpKind::PtrIndex { elem }, vec![base, index], ty)
    }

    /// Address of field `field` of the struct `sty` at `base`.
    pub fn ptr_field(&mut self, base: Value, sty: TypeId, field: u32) -> Value {
        let ty = self.ty(base);
        self.op1(OpKind::PtrField { ty: sty, field }, vec![base], ty)
    }

    /// Address of a global living in `space`.
    pub fn global_addr(&mut self, global: GlobalId, space: Space) -> Value {
        let ty = self.types.ptr(space);
        self.op1(OpKind::GlobalAddr(global), vec![], ty)
    }

    /// The block's dynamic shared memory.
    pub fn dynamic_shared(&mut self) -> Value {
        let ty = self.types.ptr(Space::Shared);
        self.op1(OpKind::DynamicShared, vec![], ty)
    }

    /// Copies `len` bytes.
    pub fn memcpy(&mut self, dst: Value, src: Value, len: Value) -> Op {
        self.op(OpKind::Memcpy, vec![dst, src, len], &[], vec![])
    }

    /// Fills `len` bytes with `byte`.
    pub fn memset(&mut self, dst: Value, byte: Value, len: Value) -> Op {
        self.op(OpKind::Memset, vec![dst, byte, len], &[], vec![])
    }

    /// A hint that `[ptr, ptr + len)` will be read soon.
    pub fn prefetch(&mut self, ptr: Value, len: Value) -> Op {
        self.op(OpKind::Prefetch, vec![ptr, len], &[], vec![])
    }

    /// Atomic read-modify-write at device scope; returns the old value.
    pub fn atomic_rmw(&mut self, op: AtomicOp, ptr: Value, v: Value) -> Value {
        let ty = self.ty(v);
        self.op1(
            OpKind::AtomicRmw {
                op,
                scope: MemScope::Device,
            },
            vec![ptr, v],
            ty,
        )
    }

    /// Atomic compare-and-swap at device scope; returns the old value.
    pub fn atomic_cas(&mut self, ptr: Value, expected: Value, new: Value) -> Value {
        let ty = self.ty(new);
        self.op1(
            OpKind::AtomicCas {
                scope: MemScope::Device,
            },
            vec![ptr, expected, new],
            ty,
        )
    }

    /// Stops the kernel with `message`: a failed `assert` when `assert`,
    /// a trap otherwise.
    pub fn trap(&mut self, message: impl Into<String>, assert: bool) -> Op {
        let message = message.into();
        self.op(OpKind::Trap { message, assert }, vec![], &[], vec![])
    }

    /// A memory fence.
    pub fn fence(&mut self, scope: MemScope) -> Op {
        self.op(OpKind::Fence { scope }, vec![], &[], vec![])
    }

    // ---- GPU ----------------------------------------------------------------

    /// The `i32` result of operand-less op `kind` (a thread or block index
    /// or extent).
    fn i32_index(&mut self, kind: OpKind) -> Value {
        let ty = self.types.i32();
        self.op1(kind, vec![], ty)
    }

    /// `threadIdx.d`.
    pub fn thread_id(&mut self, d: Dim) -> Value {
        self.i32_index(OpKind::ThreadId(d))
    }

    /// `blockIdx.d`.
    pub fn block_id(&mut self, d: Dim) -> Value {
        self.i32_index(OpKind::BlockId(d))
    }

    /// `blockDim.d`.
    pub fn block_dim(&mut self, d: Dim) -> Value {
        self.i32_index(OpKind::BlockDim(d))
    }

    /// `gridDim.d`.
    pub fn grid_dim(&mut self, d: Dim) -> Value {
        self.i32_index(OpKind::GridDim(d))
    }

    /// The lane id.
    pub fn lane_id(&mut self) -> Value {
        let ty = self.types.i32();
        self.op1(OpKind::LaneId, vec![], ty)
    }

    /// `__syncthreads()`.
    pub fn barrier(&mut self) -> Op {
        self.op(OpKind::Barrier(BarrierScope::Block), vec![], &[], vec![])
    }

    /// `__syncwarp(mask)`.
    pub fn barrier_warp(&mut self, mask: Value) -> Op {
        self.op(OpKind::Barrier(BarrierScope::Warp), vec![mask], &[], vec![])
    }

    /// `__syncthreads_count/and/or(pred)`.
    pub fn barrier_reduce(&mut self, kind: BarrierReduceKind, pred: Value) -> Value {
        let ty = match kind {
            BarrierReduceKind::Count => self.types.i32(),
            _ => self.types.i1(),
        };
        self.op1(OpKind::BarrierReduce(kind), vec![pred], ty)
    }

    /// `__shfl*_sync(mask, value, lane_or_delta, width)`.
    pub fn shuffle(
        &mut self,
        mode: ShuffleMode,
        mask: Value,
        value: Value,
        lane: Value,
        width: Value,
    ) -> Value {
        let ty = self.ty(value);
        self.op1(OpKind::Shuffle(mode), vec![mask, value, lane, width], ty)
    }

    /// `__ballot_sync`, `__any_sync`, `__all_sync`.
    pub fn vote(&mut self, kind: VoteKind, mask: Value, pred: Value) -> Value {
        let ty = match kind {
            VoteKind::Ballot => self.types.i32(),
            _ => self.types.i1(),
        };
        self.op1(OpKind::Vote(kind), vec![mask, pred], ty)
    }

    // ---- calls and terminators ---------------------------------------------

    /// Calls a module function.
    pub fn call(&mut self, func: FuncId, args: Vec<Value>, results: &[TypeId]) -> Vec<Value> {
        let op = self.op(OpKind::Call(Callee::Func(func)), args, results, vec![]);
        self.func.ops[op].results.clone()
    }

    /// Calls a known external function such as `sqrtf`.
    pub fn call_extern(&mut self, name: &str, args: Vec<Value>, results: &[TypeId]) -> Vec<Value> {
        let op = self.op(
            OpKind::Call(Callee::Extern(name.to_string())),
            args,
            results,
            vec![],
        );
        self.func.ops[op].results.clone()
    }

    /// `yield vals`.
    pub fn yield_(&mut self, vals: Vec<Value>) -> Op {
        self.op(OpKind::Yield, vals, &[], vec![])
    }

    /// `return vals`.
    pub fn ret(&mut self, vals: Vec<Value>) -> Op {
        self.op(OpKind::Return, vals, &[], vec![])
    }

    /// `condition c, vals`.
    pub fn condition(&mut self, c: Value, vals: Vec<Value>) -> Op {
        let mut operands = vec![c];
        operands.extend(vals);
        self.op(OpKind::Condition, operands, &[], vec![])
    }

    // ---- structured ops, step by step ---------------------------------------

    /// Inserts an `if` with empty then/else regions; returns (op, then, else).
    pub fn create_if(&mut self, cond: Value, result_types: &[TypeId]) -> (Op, Region, Region) {
        let then_r = self.func.new_region(&[]);
        let else_r = self.func.new_region(&[]);
        let op = self.op(OpKind::If, vec![cond], result_types, vec![then_r, else_r]);
        (op, then_r, else_r)
    }

    /// Inserts a `for` with an empty body whose arguments are (iv, carried...).
    pub fn create_for(
        &mut self,
        lb: Value,
        ub: Value,
        step: Value,
        inits: &[Value],
        unsigned: bool,
    ) -> (Op, Region) {
        let mut arg_types = vec![self.ty(lb)];
        arg_types.extend(inits.iter().map(|&v| self.ty(v)));
        let body = self.func.new_region(&arg_types);
        let mut operands = vec![lb, ub, step];
        operands.extend_from_slice(inits);
        let result_types: Vec<TypeId> = inits.iter().map(|&v| self.ty(v)).collect();
        let op = self.op(
            OpKind::For { unsigned },
            operands,
            &result_types,
            vec![body],
        );
        (op, body)
    }

    /// Inserts a `while` with empty before/after regions taking `arg_types`
    /// and producing `result_types`; returns (op, before, after).
    pub fn create_while(
        &mut self,
        inits: &[Value],
        after_arg_types: &[TypeId],
    ) -> (Op, Region, Region) {
        let before_types: Vec<TypeId> = inits.iter().map(|&v| self.ty(v)).collect();
        let before = self.func.new_region(&before_types);
        let after = self.func.new_region(after_arg_types);
        let op = self.op(
            OpKind::While,
            inits.to_vec(),
            after_arg_types,
            vec![before, after],
        );
        (op, before, after)
    }

    /// Inserts a `parallel` over `0 <= iv < ubs`; returns (op, body).
    pub fn create_parallel(&mut self, level: Level, ubs: &[Value]) -> (Op, Region) {
        let arg_types: Vec<TypeId> = ubs.iter().map(|&v| self.ty(v)).collect();
        let body = self.func.new_region(&arg_types);
        let op = self.op(OpKind::Parallel { level }, ubs.to_vec(), &[], vec![body]);
        (op, body)
    }

    // ---- structured ops with closures ---------------------------------------

    /// Builds `region` with `f` (which returns the values to yield) and
    /// terminates it with `yield`, then restores the insertion point.
    fn fill<F>(&mut self, region: Region, f: F)
    where
        F: FnOnce(&mut Builder<'_>, &[Value]) -> Vec<Value>,
    {
        let saved = (self.region, self.pos);
        self.set_insertion_end(region);
        let args = self.func.regions[region].args.clone();
        let vals = f(self, &args);
        if !self.is_terminated() {
            self.yield_(vals);
        }
        (self.region, self.pos) = saved;
    }

    /// `if cond { then } else { else }`; each closure returns its yielded values.
    pub fn if_else<T, E>(
        &mut self,
        cond: Value,
        result_types: &[TypeId],
        then_f: T,
        else_f: E,
    ) -> Vec<Value>
    where
        T: FnOnce(&mut Builder<'_>) -> Vec<Value>,
        E: FnOnce(&mut Builder<'_>) -> Vec<Value>,
    {
        let (op, t, e) = self.create_if(cond, result_types);
        self.fill(t, |b, _| then_f(b));
        self.fill(e, |b, _| else_f(b));
        self.func.ops[op].results.clone()
    }

    /// `if cond { then }` with no results.
    pub fn if_then<T>(&mut self, cond: Value, then_f: T)
    where
        T: FnOnce(&mut Builder<'_>),
    {
        self.if_else(
            cond,
            &[],
            |b| {
                then_f(b);
                vec![]
            },
            |_| vec![],
        );
    }

    /// `for iv in lb..ub step` with carried values; `body(b, iv, carried)`
    /// returns the next carried values. Returns the final carried values.
    pub fn for_<F>(
        &mut self,
        lb: Value,
        ub: Value,
        step: Value,
        inits: &[Value],
        body: F,
    ) -> Vec<Value>
    where
        F: FnOnce(&mut Builder<'_>, Value, &[Value]) -> Vec<Value>,
    {
        let (op, r) = self.create_for(lb, ub, step, inits, false);
        self.fill(r, |b, args| body(b, args[0], &args[1..]));
        self.func.ops[op].results.clone()
    }

    /// `while`: `before(b, args)` returns `(cond, vals)` passed to `after`,
    /// whose types are those of `inits`; `after(b, vals)` returns the next
    /// `args`. Returns the values passed to `condition` on exit.
    pub fn while_<B, A>(&mut self, inits: &[Value], before: B, after: A) -> Vec<Value>
    where
        B: FnOnce(&mut Builder<'_>, &[Value]) -> (Value, Vec<Value>),
        A: FnOnce(&mut Builder<'_>, &[Value]) -> Vec<Value>,
    {
        let types: Vec<TypeId> = inits.iter().map(|&v| self.ty(v)).collect();
        let (op, br, ar) = self.create_while(inits, &types);
        let saved = (self.region, self.pos);
        self.set_insertion_end(br);
        let args = self.func.regions[br].args.clone();
        let (c, vals) = before(self, &args);
        self.condition(c, vals);
        (self.region, self.pos) = saved;
        self.fill(ar, after);
        self.func.ops[op].results.clone()
    }

    /// `parallel<level> (ivs) in ubs { body }`.
    pub fn parallel<F>(&mut self, level: Level, ubs: &[Value], body: F) -> Op
    where
        F: FnOnce(&mut Builder<'_>, &[Value]),
    {
        let (op, r) = self.create_parallel(level, ubs);
        self.fill(r, |b, ivs| {
            body(b, ivs);
            vec![]
        });
        op
    }
}
