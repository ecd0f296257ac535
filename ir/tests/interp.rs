//! Kernels written with the builder, run by the reference interpreter and
//! checked against results computed on the host.

use cucc_ir::interp::{Arg, InterpError, Interpreter, LaunchConfig};
use cucc_ir::*;

const X: Dim = Dim::X;
const Y: Dim = Dim::Y;

fn module() -> Module {
    let mut m = Module::new();
    m.file_id("test.cu");
    m
}

/// Adds a function built by `body` (which gets the parameters) and
/// terminates it with `return`.
fn build(
    m: &mut Module,
    name: &str,
    kind: FunctionKind,
    params: &[TypeId],
    body: impl FnOnce(&mut Builder<'_>, &[Value]),
) -> FuncId {
    let mut f = Function::new(name, kind, params, &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut f);
        b.set_loc(Loc::new(0, 1, 1));
        let ps = b.params();
        body(&mut b, &ps);
        if !b.is_terminated() {
            b.ret(vec![]);
        }
    }
    m.add_function(f)
}

fn shared_global(m: &mut Module, name: &str, ty: TypeId) -> GlobalId {
    m.add_global(Global::new(name, ty, Space::Shared))
}

/// `blockIdx.x * blockDim.x + threadIdx.x`.
fn gid(b: &mut Builder<'_>) -> Value {
    let bid = b.block_id(X);
    let bdim = b.block_dim(X);
    let tid = b.thread_id(X);
    let t = b.binary(BinOp::Mul, bid, bdim);
    b.binary(BinOp::Add, t, tid)
}

fn at(b: &mut Builder<'_>, base: Value, i: Value, elem: TypeId) -> Value {
    b.ptr_index(base, i, elem)
}

fn load_at(b: &mut Builder<'_>, base: Value, i: Value, elem: TypeId) -> Value {
    let p = b.ptr_index(base, i, elem);
    b.load(p, elem)
}

fn store_at(b: &mut Builder<'_>, base: Value, i: Value, v: Value) {
    let elem = b.ty(v);
    let p = b.ptr_index(base, i, elem);
    b.store(p, v);
}

fn gptr(m: &mut Module) -> TypeId {
    m.types.ptr(Space::Global)
}

#[test]
fn vector_add_with_bounds_guard() {
    let mut m = module();
    let (p, i32t) = (gptr(&mut m), m.types.i32());
    let f32t = m.types.f32();
    build(
        &mut m,
        "vadd",
        FunctionKind::Kernel,
        &[p, p, p, i32t],
        |b, ps| {
            let i = gid(b);
            let ok = b.cmp(CmpPred::Slt, i, ps[3]);
            b.if_then(ok, |b| {
                let x = load_at(b, ps[0], i, f32t);
                let y = load_at(b, ps[1], i, f32t);
                let s = b.binary(BinOp::FAdd, x, y);
                store_at(b, ps[2], i, s);
            });
        },
    );
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let bv: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let mut it = Interpreter::new(&m);
    let pa = it.memory.alloc(Space::Global, 4 * n as u64);
    let pb = it.memory.alloc(Space::Global, 4 * n as u64);
    let pc = it.memory.alloc(Space::Global, 4 * n as u64);
    it.memory.write_f32s(pa, &a).unwrap();
    it.memory.write_f32s(pb, &bv).unwrap();
    let stats = it
        .launch(
            "vadd",
            &LaunchConfig::linear(8, 128),
            &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc), Arg::i32(n as i32)],
        )
        .unwrap();
    assert_eq!(stats.blocks, 8);
    assert_eq!(stats.threads, 1024);
    let c = it.memory.read_f32s(pc, n).unwrap();
    for i in 0..n {
        assert_eq!(c[i], a[i] + bv[i], "element {i}");
    }
    // Host buffers survive; everything the launch allocated is gone.
    assert_eq!(it.memory.live_count(), 3);
}

/// The body of a shared-memory tree reduction of 256 `i32`s per block:
/// thread `tid` of block `bid` (block size `bdim`) with shared array `sh`.
fn reduce_body(
    b: &mut Builder<'_>,
    tid: Value,
    bid: Value,
    bdim: Value,
    sh: Value,
    inp: Value,
    out: Value,
) {
    let i32t = b.types.i32();
    let base = b.binary(BinOp::Mul, bid, bdim);
    let g = b.binary(BinOp::Add, base, tid);
    let v = load_at(b, inp, g, i32t);
    store_at(b, sh, tid, v);
    b.barrier();
    let (zero, eight, one) = (b.i32(0), b.i32(8), b.i32(1));
    b.for_(zero, eight, one, &[], |b, i, _| {
        let c128 = b.i32(128);
        let s = b.binary(BinOp::LShr, c128, i);
        let active = b.cmp(CmpPred::Slt, tid, s);
        b.if_then(active, |b| {
            let mine = load_at(b, sh, tid, i32t);
            let j = b.binary(BinOp::Add, tid, s);
            let other = load_at(b, sh, j, i32t);
            let sum = b.binary(BinOp::Add, mine, other);
            store_at(b, sh, tid, sum);
        });
        b.barrier();
        vec![]
    });
    let z = b.i32(0);
    let first = b.cmp(CmpPred::Eq, tid, z);
    b.if_then(first, |b| {
        let z = b.i32(0);
        let total = load_at(b, sh, z, i32t);
        store_at(b, out, bid, total);
    });
}

fn reduce_input(blocks: usize) -> (Vec<i32>, Vec<i32>) {
    let data: Vec<i32> = (0..blocks * 256)
        .map(|i| (i as i32 * 7919) % 1000 - 500)
        .collect();
    let sums = data.chunks(256).map(|c| c.iter().sum()).collect();
    (data, sums)
}

fn run_reduce(m: &Module, name: &str, blocks: usize) -> Vec<i32> {
    let (data, _) = reduce_input(blocks);
    let mut it = Interpreter::new(m);
    let pin = it.memory.alloc(Space::Global, 4 * data.len() as u64);
    let pout = it.memory.alloc(Space::Global, 4 * blocks as u64);
    it.memory.write_i32s(pin, &data).unwrap();
    it.launch(
        name,
        &LaunchConfig::linear(blocks as u32, 256),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    it.memory.read_i32s(pout, blocks).unwrap()
}

#[test]
fn shared_memory_tree_reduction_with_barrier_in_loop() {
    let mut m = module();
    let p = gptr(&mut m);
    let i32t = m.types.i32();
    let arr = m.types.array(i32t, 256);
    let sdata = shared_global(&mut m, "sdata", arr);
    build(&mut m, "reduce", FunctionKind::Kernel, &[p, p], |b, ps| {
        let tid = b.thread_id(X);
        let bid = b.block_id(X);
        let bdim = b.block_dim(X);
        let sh = b.global_addr(sdata, Space::Shared);
        reduce_body(b, tid, bid, bdim, sh, ps[0], ps[1]);
    });
    let (_, expect) = reduce_input(5);
    assert_eq!(run_reduce(&m, "reduce", 5), expect);
}

#[test]
fn same_reduction_in_launch_form_block_and_warp_lane() {
    let mut m = module();
    let p = gptr(&mut m);
    let i32t = m.types.i32();
    let arr = m.types.array(i32t, 256);
    build(
        &mut m,
        "reduce_launch",
        FunctionKind::Launch,
        &[p, p],
        |b, ps| {
            let (inp, out) = (ps[0], ps[1]);
            let gx = b.grid_dim(X);
            b.parallel(Level::Grid, &[gx], |b, bv| {
                let bid = bv[0];
                let sh = b.alloca(Space::Shared, arr);
                let bx = b.block_dim(X);
                b.parallel(Level::Block, &[bx], |b, tv| {
                    let bdim = b.block_dim(X);
                    reduce_body(b, tv[0], bid, bdim, sh, inp, out);
                });
            });
        },
    );
    build(
        &mut m,
        "reduce_warps",
        FunctionKind::Launch,
        &[p, p],
        |b, ps| {
            let (inp, out) = (ps[0], ps[1]);
            let gx = b.grid_dim(X);
            b.parallel(Level::Grid, &[gx], |b, bv| {
                let bid = bv[0];
                let sh = b.alloca(Space::Shared, arr);
                let nw = b.i32(8);
                b.parallel(Level::Warp, &[nw], |b, wv| {
                    let w = wv[0];
                    let nl = b.i32(32);
                    b.parallel(Level::Lane, &[nl], |b, lv| {
                        let c32 = b.i32(32);
                        let wb = b.binary(BinOp::Mul, w, c32);
                        let tid = b.binary(BinOp::Add, wb, lv[0]);
                        let bdim = b.block_dim(X);
                        reduce_body(b, tid, bid, bdim, sh, inp, out);
                    });
                });
            });
        },
    );
    let (_, expect) = reduce_input(3);
    assert_eq!(run_reduce(&m, "reduce_launch", 3), expect);
    assert_eq!(run_reduce(&m, "reduce_warps", 3), expect);
}

#[test]
fn tiled_transpose_with_padded_shared_tile() {
    let mut m = module();
    let (p, i32t, f32t) = (gptr(&mut m), m.types.i32(), m.types.f32());
    let row = m.types.array(f32t, 17);
    let tile_ty = m.types.array(row, 16);
    let tile = shared_global(&mut m, "tile", tile_ty);
    // in: h x w, out: w x h.
    build(
        &mut m,
        "transpose",
        FunctionKind::Kernel,
        &[p, p, i32t, i32t],
        |b, ps| {
            let (inp, out, w, h) = (ps[0], ps[1], ps[2], ps[3]);
            let (tx, ty) = (b.thread_id(X), b.thread_id(Y));
            let (bx, by) = (b.block_id(X), b.block_id(Y));
            let c16 = b.i32(16);
            let bx16 = b.binary(BinOp::Mul, bx, c16);
            let by16 = b.binary(BinOp::Mul, by, c16);
            let x = b.binary(BinOp::Add, bx16, tx);
            let y = b.binary(BinOp::Add, by16, ty);
            let t = b.global_addr(tile, Space::Shared);
            let okx = b.cmp(CmpPred::Slt, x, w);
            let oky = b.cmp(CmpPred::Slt, y, h);
            let ok = b.binary(BinOp::And, okx, oky);
            b.if_then(ok, |b| {
                let yw = b.binary(BinOp::Mul, y, w);
                let i = b.binary(BinOp::Add, yw, x);
                let v = load_at(b, inp, i, f32t);
                let r = at(b, t, ty, row);
                store_at(b, r, tx, v);
            });
            b.barrier();
            let x2 = b.binary(BinOp::Add, by16, tx);
            let y2 = b.binary(BinOp::Add, bx16, ty);
            let okx = b.cmp(CmpPred::Slt, x2, h);
            let oky = b.cmp(CmpPred::Slt, y2, w);
            let ok = b.binary(BinOp::And, okx, oky);
            b.if_then(ok, |b| {
                let r = at(b, t, tx, row);
                let v = load_at(b, r, ty, f32t);
                let yh = b.binary(BinOp::Mul, y2, h);
                let i = b.binary(BinOp::Add, yh, x2);
                store_at(b, out, i, v);
            });
        },
    );
    let (w, h) = (37usize, 23usize);
    let data: Vec<f32> = (0..w * h).map(|i| i as f32 + 0.25).collect();
    let mut it = Interpreter::new(&m);
    let pin = it.memory.alloc(Space::Global, 4 * (w * h) as u64);
    let pout = it.memory.alloc(Space::Global, 4 * (w * h) as u64);
    it.memory.write_f32s(pin, &data).unwrap();
    let cfg = LaunchConfig {
        grid: [w.div_ceil(16) as u32, h.div_ceil(16) as u32, 1],
        block: [16, 16, 1],
        dynamic_shared: 0,
    };
    it.launch(
        "transpose",
        &cfg,
        &[
            Arg::ptr(pin),
            Arg::ptr(pout),
            Arg::i32(w as i32),
            Arg::i32(h as i32),
        ],
    )
    .unwrap();
    let got = it.memory.read_f32s(pout, w * h).unwrap();
    for y in 0..h {
        for x in 0..w {
            assert_eq!(got[x * h + y], data[y * w + x], "({x},{y})");
        }
    }
}

/// Shuffle reductions of `in` per warp: `down` (lane 0 writes `sums[warp]`)
/// and `xor` butterflies (every lane writes `all[gid]`).
fn shuffle_body(b: &mut Builder<'_>, g: Value, lane: Value, inp: Value, sums: Value, all: Value) {
    let i32t = b.types.i32();
    let v = load_at(b, inp, g, i32t);
    let full = b.i32(-1);
    let width = b.i32(32);
    let mut down = v;
    let mut xor = v;
    for d in [16, 8, 4, 2, 1] {
        let dv = b.i32(d);
        let o = b.shuffle(ShuffleMode::Down, full, down, dv, width);
        down = b.binary(BinOp::Add, down, o);
        let o = b.shuffle(ShuffleMode::Xor, full, xor, dv, width);
        xor = b.binary(BinOp::Add, xor, o);
    }
    store_at(b, all, g, xor);
    let z = b.i32(0);
    let first = b.cmp(CmpPred::Eq, lane, z);
    b.if_then(first, |b| {
        let c5 = b.i32(5);
        let w = b.binary(BinOp::LShr, g, c5);
        store_at(b, sums, w, down);
    });
}

fn shuffle_check(m: &Module, name: &str) {
    let n = 128;
    let data: Vec<i32> = (0..n).map(|i| i * i % 97).collect();
    let mut it = Interpreter::new(m);
    let pin = it.memory.alloc(Space::Global, 4 * n as u64);
    let psums = it.memory.alloc(Space::Global, 4 * 4);
    let pall = it.memory.alloc(Space::Global, 4 * n as u64);
    it.memory.write_i32s(pin, &data).unwrap();
    it.launch(
        name,
        &LaunchConfig::linear(2, 64),
        &[Arg::ptr(pin), Arg::ptr(psums), Arg::ptr(pall)],
    )
    .unwrap();
    let expect: Vec<i32> = data.chunks(32).map(|c| c.iter().sum()).collect();
    assert_eq!(it.memory.read_i32s(psums, 4).unwrap(), expect);
    let all = it.memory.read_i32s(pall, n as usize).unwrap();
    for (i, v) in all.iter().enumerate() {
        assert_eq!(*v, expect[i / 32], "lane {i}");
    }
}

#[test]
fn warp_shuffle_reductions() {
    let mut m = module();
    let p = gptr(&mut m);
    build(&mut m, "shfl", FunctionKind::Kernel, &[p, p, p], |b, ps| {
        let g = gid(b);
        let lane = b.lane_id();
        shuffle_body(b, g, lane, ps[0], ps[1], ps[2]);
    });
    // The same in launch form: warp ops bind to the lane-level parallel.
    build(
        &mut m,
        "shfl_launch",
        FunctionKind::Launch,
        &[p, p, p],
        |b, ps| {
            let (inp, sums, all) = (ps[0], ps[1], ps[2]);
            let gx = b.grid_dim(X);
            b.parallel(Level::Grid, &[gx], |b, bv| {
                let nw = b.i32(2);
                let bid = bv[0];
                b.parallel(Level::Warp, &[nw], |b, wv| {
                    let nl = b.i32(32);
                    let w = wv[0];
                    b.parallel(Level::Lane, &[nl], |b, lv| {
                        let c64 = b.i32(64);
                        let c32 = b.i32(32);
                        let base = b.binary(BinOp::Mul, bid, c64);
                        let wb = b.binary(BinOp::Mul, w, c32);
                        let t = b.binary(BinOp::Add, base, wb);
                        let g = b.binary(BinOp::Add, t, lv[0]);
                        shuffle_body(b, g, lv[0], inp, sums, all);
                    });
                });
            });
        },
    );
    shuffle_check(&m, "shfl");
    shuffle_check(&m, "shfl_launch");
}

#[test]
fn shuffle_modes_with_sub_warp_width() {
    let mut m = module();
    let p = gptr(&mut m);
    // out[4 * lane + k] = shfl_{idx,up,down,xor}(lane, arg, width 8)
    build(&mut m, "modes", FunctionKind::Kernel, &[p], |b, ps| {
        let lane = b.lane_id();
        let full = b.i32(-1);
        let w8 = b.i32(8);
        let c4 = b.i32(4);
        let base = b.binary(BinOp::Mul, lane, c4);
        for (k, (mode, arg)) in [
            (ShuffleMode::Idx, 11),
            (ShuffleMode::Up, 3),
            (ShuffleMode::Down, 3),
            (ShuffleMode::Xor, 5),
        ]
        .into_iter()
        .enumerate()
        {
            let a = b.i32(arg);
            let v = b.shuffle(mode, full, lane, a, w8);
            let kv = b.i32(k as i32);
            let i = b.binary(BinOp::Add, base, kv);
            store_at(b, ps[0], i, v);
        }
    });
    let mut it = Interpreter::new(&m);
    let out = it.memory.alloc(Space::Global, 4 * 4 * 32);
    it.launch("modes", &LaunchConfig::linear(1, 32), &[Arg::ptr(out)])
        .unwrap();
    let got = it.memory.read_i32s(out, 4 * 32).unwrap();
    for l in 0..32i32 {
        let base = l & !7;
        let idx = base + 11 % 8;
        let up = if l - 3 >= base { l - 3 } else { l };
        let down = if l + 3 < base + 8 { l + 3 } else { l };
        let xor = l ^ 5;
        assert_eq!(
            &got[4 * l as usize..4 * l as usize + 4],
            &[idx, up, down, xor],
            "lane {l}"
        );
    }
}

#[test]
fn votes_over_a_partial_warp() {
    let mut m = module();
    let p = gptr(&mut m);
    let i32t = m.types.i32();
    // Block of 48 threads: the second warp has 16 lanes; the full mask names
    // lanes that do not exist, which are ignored.
    build(&mut m, "votes", FunctionKind::Kernel, &[p, p], |b, ps| {
        let tid = b.thread_id(X);
        let v = load_at(b, ps[0], tid, i32t);
        let one = b.i32(1);
        let odd = b.binary(BinOp::And, v, one);
        let z = b.i32(0);
        let pred = b.cmp(CmpPred::Ne, odd, z);
        let full = b.i32(-1);
        let ballot = b.vote(VoteKind::Ballot, full, pred);
        let any = b.vote(VoteKind::Any, full, pred);
        let all = b.vote(VoteKind::All, full, pred);
        let c3 = b.i32(3);
        let base = b.binary(BinOp::Mul, tid, c3);
        store_at(b, ps[1], base, ballot);
        let i32t = b.types.i32();
        let anyi = b.cast(CastOp::ZExt, any, i32t);
        let alli = b.cast(CastOp::ZExt, all, i32t);
        let i1 = b.binary(BinOp::Add, base, one);
        store_at(b, ps[1], i1, anyi);
        let i2 = b.binary(BinOp::Add, i1, one);
        store_at(b, ps[1], i2, alli);
    });
    // Warp 0: lanes 3 and 17 odd; warp 1: all odd.
    let mut data = vec![2i32; 48];
    data[3] = 1;
    data[17] = 5;
    for d in &mut data[32..] {
        *d = 7;
    }
    let mut it = Interpreter::new(&m);
    let pin = it.memory.alloc(Space::Global, 4 * 48);
    let pout = it.memory.alloc(Space::Global, 4 * 3 * 48);
    it.memory.write_i32s(pin, &data).unwrap();
    it.launch(
        "votes",
        &LaunchConfig::linear(1, 48),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let got = it.memory.read_i32s(pout, 3 * 48).unwrap();
    for t in 0..48 {
        let expect = if t < 32 {
            [(1 << 3) | (1 << 17), 1, 0]
        } else {
            [0xffff, 1, 1]
        };
        assert_eq!(&got[3 * t..3 * t + 3], &expect, "thread {t}");
    }
}

#[test]
fn votes_count_only_the_lanes_of_each_mask() {
    let mut m = module();
    let p = gptr(&mut m);
    // Both halves of the warp vote at once, each with the mask of its own
    // 16 lanes: neither half may see the other's predicates.
    build(&mut m, "halves", FunctionKind::Kernel, &[p], |b, ps| {
        let tid = b.thread_id(X);
        let c16 = b.i32(16);
        let low = b.cmp(CmpPred::Slt, tid, c16);
        let lo_m = b.i32(0xffff);
        let hi_m = b.i32(0xffff_0000u32 as i32);
        let mask = b.select(low, lo_m, hi_m);
        // pred: lane is 3 or above 20 (so no half is all-true but the high
        // half's lanes 21..31 are).
        let c3 = b.i32(3);
        let c20 = b.i32(20);
        let is3 = b.cmp(CmpPred::Eq, tid, c3);
        let big = b.cmp(CmpPred::Sgt, tid, c20);
        let pred = b.binary(BinOp::Or, is3, big);
        let ballot = b.vote(VoteKind::Ballot, mask, pred);
        let any = b.vote(VoteKind::Any, mask, pred);
        let all = b.vote(VoteKind::All, mask, big);
        let i32t = b.types.i32();
        let anyi = b.cast(CastOp::ZExt, any, i32t);
        let alli = b.cast(CastOp::ZExt, all, i32t);
        let c3 = b.i32(3);
        let base = b.binary(BinOp::Mul, tid, c3);
        store_at(b, ps[0], base, ballot);
        let one = b.i32(1);
        let i1 = b.binary(BinOp::Add, base, one);
        store_at(b, ps[0], i1, anyi);
        let i2 = b.binary(BinOp::Add, i1, one);
        store_at(b, ps[0], i2, alli);
    });
    let mut it = Interpreter::new(&m);
    let pout = it.memory.alloc(Space::Global, 4 * 3 * 32);
    it.launch("halves", &LaunchConfig::linear(1, 32), &[Arg::ptr(pout)])
        .unwrap();
    let got = it.memory.read_i32s(pout, 3 * 32).unwrap();
    for t in 0..32 {
        let expect = if t < 16 {
            [1 << 3, 1, 0]
        } else {
            [0xffe0_0000u32 as i32, 1, 0]
        };
        assert_eq!(&got[3 * t..3 * t + 3], &expect, "thread {t}");
    }
}

#[test]
fn while_loop_with_uniform_condition_and_barriers() {
    // Relaxation until a shared flag says nothing changed: a[t] = max(a[t], a[t-1]),
    // which converges to the prefix maximum.
    let mut m = module();
    let p = gptr(&mut m);
    let i32t = m.types.i32();
    let arr = m.types.array(i32t, 64);
    let a = shared_global(&mut m, "a", arr);
    let changed = shared_global(&mut m, "changed", i32t);
    build(
        &mut m,
        "relax",
        FunctionKind::Kernel,
        &[p, p, p],
        |b, ps| {
            let tid = b.thread_id(X);
            let sa = b.global_addr(a, Space::Shared);
            let sc = b.global_addr(changed, Space::Shared);
            let v = load_at(b, ps[0], tid, i32t);
            store_at(b, sa, tid, v);
            let zero = b.i32(0);
            let rounds = b.while_(
                &[zero],
                |b, args| {
                    let n = args[0];
                    b.barrier();
                    let z = b.i32(0);
                    let first = b.cmp(CmpPred::Eq, tid, z);
                    b.if_then(first, |b| {
                        let z = b.i32(0);
                        b.store(sc, z);
                    });
                    b.barrier();
                    let mine = load_at(b, sa, tid, i32t);
                    let z = b.i32(0);
                    let has_left = b.cmp(CmpPred::Sgt, tid, z);
                    let left = b.if_else(
                        has_left,
                        &[i32t],
                        |b| {
                            let one = b.i32(1);
                            let l = b.binary(BinOp::Sub, tid, one);
                            vec![load_at(b, sa, l, i32t)]
                        },
                        |_| vec![mine],
                    )[0];
                    let new = b.binary(BinOp::SMax, mine, left);
                    b.barrier();
                    let differs = b.cmp(CmpPred::Ne, new, mine);
                    b.if_then(differs, |b| {
                        store_at(b, sa, tid, new);
                        let one = b.i32(1);
                        b.store(sc, one);
                    });
                    b.barrier();
                    let c = b.load(sc, i32t);
                    let z = b.i32(0);
                    let again = b.cmp(CmpPred::Ne, c, z);
                    let one = b.i32(1);
                    let n1 = b.binary(BinOp::Add, n, one);
                    (again, vec![n1])
                },
                |_, args| args.to_vec(),
            )[0];
            let r = load_at(b, sa, tid, i32t);
            store_at(b, ps[1], tid, r);
            store_at(b, ps[2], tid, rounds);
        },
    );
    let data: Vec<i32> = (0..64).map(|i| (i * 37 % 64) - 20).collect();
    let mut it = Interpreter::new(&m);
    let pin = it.memory.alloc(Space::Global, 4 * 64);
    let pout = it.memory.alloc(Space::Global, 4 * 64);
    let prounds = it.memory.alloc(Space::Global, 4 * 64);
    it.memory.write_i32s(pin, &data).unwrap();
    it.launch(
        "relax",
        &LaunchConfig::linear(1, 64),
        &[Arg::ptr(pin), Arg::ptr(pout), Arg::ptr(prounds)],
    )
    .unwrap();
    let mut expect = data.clone();
    for i in 1..64 {
        expect[i] = expect[i].max(expect[i - 1]);
    }
    assert_eq!(it.memory.read_i32s(pout, 64).unwrap(), expect);
    let rounds = it.memory.read_i32s(prounds, 64).unwrap();
    assert!(
        rounds.iter().all(|&r| r == rounds[0] && r > 1),
        "{rounds:?}"
    );
}

#[test]
fn global_atomics_across_blocks() {
    let mut m = module();
    let (p, i32t, f32t) = (gptr(&mut m), m.types.i32(), m.types.f32());
    build(
        &mut m,
        "atomics",
        FunctionKind::Kernel,
        &[p, p, p, p, i32t],
        |b, ps| {
            let (inp, hist, maxp, sum, n) = (ps[0], ps[1], ps[2], ps[3], ps[4]);
            let i = gid(b);
            let ok = b.cmp(CmpPred::Slt, i, n);
            b.if_then(ok, |b| {
                let v = load_at(b, inp, i, i32t);
                let c15 = b.i32(15);
                let bin = b.binary(BinOp::And, v, c15);
                let hp = at(b, hist, bin, i32t);
                let one = b.i32(1);
                b.atomic_rmw(AtomicOp::Add, hp, one);
                b.atomic_rmw(AtomicOp::SMax, maxp, v);
                // CAS loop adding v as a float.
                let x = b.cast(CastOp::SiToFp, v, f32t);
                let old0 = b.load(sum, i32t);
                b.while_(
                    &[old0],
                    |b, args| {
                        let old = args[0];
                        let f32t = b.types.f32();
                        let i32t = b.types.i32();
                        let of = b.cast(CastOp::Bitcast, old, f32t);
                        let nf = b.binary(BinOp::FAdd, of, x);
                        let nb = b.cast(CastOp::Bitcast, nf, i32t);
                        let prev = b.atomic_cas(sum, old, nb);
                        let retry = b.cmp(CmpPred::Ne, prev, old);
                        (retry, vec![prev])
                    },
                    |_, args| args.to_vec(),
                );
            });
        },
    );
    let n = 5000usize;
    let data: Vec<i32> = (0..n as i32).map(|i| (i * 7 + i / 13) % 200 - 50).collect();
    let mut it = Interpreter::new(&m);
    let pin = it.memory.alloc(Space::Global, 4 * n as u64);
    let phist = it.memory.alloc(Space::Global, 4 * 16);
    let pmax = it.memory.alloc(Space::Global, 4);
    let psum = it.memory.alloc(Space::Global, 4);
    it.memory.write_i32s(pin, &data).unwrap();
    it.memory.write_i32s(pmax, &[i32::MIN]).unwrap();
    it.launch(
        "atomics",
        &LaunchConfig::linear(n.div_ceil(256) as u32, 256),
        &[
            Arg::ptr(pin),
            Arg::ptr(phist),
            Arg::ptr(pmax),
            Arg::ptr(psum),
            Arg::i32(n as i32),
        ],
    )
    .unwrap();
    let mut hist = vec![0i32; 16];
    for v in &data {
        hist[(v & 15) as usize] += 1;
    }
    assert_eq!(it.memory.read_i32s(phist, 16).unwrap(), hist);
    assert_eq!(
        it.memory.read_i32s(pmax, 1).unwrap()[0],
        *data.iter().max().unwrap()
    );
    let sum: i32 = data.iter().sum();
    assert_eq!(it.memory.read_f32s(psum, 1).unwrap()[0], sum as f32);
}

#[test]
fn divergent_barrier_is_reported() {
    // Threads 16-31 skip the barrier in the `if` and reach the next one:
    // two barriers, each waited at by part of the block.
    let mut m = module();
    build(&mut m, "diverge", FunctionKind::Kernel, &[], |b, _| {
        let tid = b.thread_id(X);
        let c16 = b.i32(16);
        let low = b.cmp(CmpPred::Slt, tid, c16);
        b.if_then(low, |b| {
            b.set_loc(Loc::new(0, 7, 3));
            b.barrier();
        });
        b.set_loc(Loc::new(0, 9, 3));
        b.barrier();
    });
    let mut it = Interpreter::new(&m);
    let err = it
        .launch("diverge", &LaunchConfig::linear(2, 32), &[])
        .unwrap_err();
    let InterpError::DivergentBarrier { site, detail } = &err else {
        panic!("wrong error: {err}");
    };
    assert_eq!(site.loc, "test.cu:7:3");
    assert_eq!(site.block, Some([0, 0, 0]));
    assert_eq!(
        detail,
        "threads 0-15: wait at test.cu:7:3 (barrier); threads 16-31: wait at test.cu:9:3 (barrier)"
    );
    assert!(
        err.to_string()
            .starts_with("test.cu:7:3: divergent block barrier"),
        "{err}"
    );
    assert_eq!(it.memory.live_count(), 0);
}

#[test]
fn early_exit_before_barrier_in_partial_block() {
    // i = gid; if (i < n) { s[tid] = in[i]; __syncthreads(); out[i] = s[0] + s[tid]; }
    // with n = 40 in blocks of 32: the second block's threads 8-31 exit
    // and the barrier waits only for threads 0-7, as on the GPU.
    let mut m = module();
    let (p, i32t) = (gptr(&mut m), m.types.i32());
    let arr = m.types.array(i32t, 32);
    let s = shared_global(&mut m, "s", arr);
    build(
        &mut m,
        "early",
        FunctionKind::Kernel,
        &[p, p, i32t],
        |b, ps| {
            let i = gid(b);
            let tid = b.thread_id(X);
            let inside = b.cmp(CmpPred::Slt, i, ps[2]);
            let sh = b.global_addr(s, Space::Shared);
            b.if_then(inside, |b| {
                let i32t = b.types.i32();
                let v = load_at(b, ps[0], i, i32t);
                store_at(b, sh, tid, v);
                b.barrier();
                let zero = b.i32(0);
                let first = load_at(b, sh, zero, i32t);
                let own = load_at(b, sh, tid, i32t);
                let sum = b.binary(BinOp::Add, first, own);
                store_at(b, ps[1], i, sum);
            });
        },
    );
    let n = 40usize;
    let input: Vec<i32> = (0..n as i32).map(|k| k * 3 - 7).collect();
    let mut it = Interpreter::new(&m);
    let pin = it.memory.alloc(Space::Global, 4 * n as u64);
    let pout = it.memory.alloc(Space::Global, 4 * n as u64);
    it.memory.write_i32s(pin, &input).unwrap();
    it.launch(
        "early",
        &LaunchConfig::linear(2, 32),
        &[Arg::ptr(pin), Arg::ptr(pout), Arg::i32(n as i32)],
    )
    .unwrap();
    let want: Vec<i32> = (0..n).map(|k| input[k / 32 * 32] + input[k]).collect();
    assert_eq!(it.memory.read_i32s(pout, n).unwrap(), want);
}

#[test]
fn syncwarp_ignores_exited_lanes() {
    // if (tid >= 16) { __syncwarp(0xffffffff); out[tid] = tid; }
    let mut m = module();
    let p = gptr(&mut m);
    build(&mut m, "warpexit", FunctionKind::Kernel, &[p], |b, ps| {
        let tid = b.thread_id(X);
        let c16 = b.i32(16);
        let high = b.cmp(CmpPred::Sge, tid, c16);
        b.if_then(high, |b| {
            let full = b.i32(-1);
            b.barrier_warp(full);
            store_at(b, ps[0], tid, tid);
        });
    });
    let mut it = Interpreter::new(&m);
    let pout = it.memory.alloc(Space::Global, 4 * 32);
    it.launch("warpexit", &LaunchConfig::linear(1, 32), &[Arg::ptr(pout)])
        .unwrap();
    let want: Vec<i32> = (0..32).map(|t| if t >= 16 { t } else { 0 }).collect();
    assert_eq!(it.memory.read_i32s(pout, 32).unwrap(), want);
}

#[test]
fn divergent_warp_op_is_reported() {
    let mut m = module();
    build(&mut m, "warpdiv", FunctionKind::Kernel, &[], |b, _| {
        let tid = b.thread_id(X);
        let c16 = b.i32(16);
        let high = b.cmp(CmpPred::Sge, tid, c16);
        b.if_then(high, |b| {
            let full = b.i32(-1);
            let one = b.i32(1);
            let w = b.i32(32);
            b.set_loc(Loc::new(0, 9, 5));
            b.shuffle(ShuffleMode::Down, full, tid, one, w);
        });
    });
    let mut it = Interpreter::new(&m);
    let err = it
        .launch("warpdiv", &LaunchConfig::linear(1, 32), &[])
        .unwrap_err();
    assert!(matches!(err, InterpError::DivergentWarpOp { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("test.cu:9:5: divergent warp op"),
        "{err}"
    );
}

#[test]
fn out_of_bounds_store_is_reported() {
    let mut m = module();
    let p = gptr(&mut m);
    build(&mut m, "oob", FunctionKind::Kernel, &[p], |b, ps| {
        let i = gid(b);
        b.set_loc(Loc::new(0, 12, 9));
        store_at(b, ps[0], i, i);
    });
    let mut it = Interpreter::new(&m);
    let buf = it.memory.alloc(Space::Global, 40);
    let err = it
        .launch("oob", &LaunchConfig::linear(1, 16), &[Arg::ptr(buf)])
        .unwrap_err();
    let InterpError::Memory { site, message } = &err else {
        panic!("wrong error: {err}");
    };
    assert_eq!(site.thread, Some([10, 0, 0]));
    assert_eq!(
        message,
        &format!(
            "store of 4 bytes at {:#x}: offset 40 is out of bounds of global allocation of 40 bytes (host buffer)",
            buf + 40
        )
    );
    assert_eq!(
        err.to_string(),
        format!("test.cu:12:9: {message} [kernel `oob`, block (0,0,0), thread (10,0,0)]")
    );
}

#[test]
fn division_by_zero_gives_the_gpu_values() {
    let mut m = module();
    let p = gptr(&mut m);
    build(&mut m, "div", FunctionKind::Kernel, &[p], |b, ps| {
        let tid = b.thread_id(X);
        let c3 = b.i32(3);
        let d = b.binary(BinOp::Sub, tid, c3);
        let c100 = b.i32(100);
        b.set_loc(Loc::new(0, 4, 2));
        let q = b.binary(BinOp::SDiv, c100, d);
        store_at(b, ps[0], tid, q);
    });
    let mut it = Interpreter::new(&m);
    let buf = it.memory.alloc(Space::Global, 4 * 8);
    it.launch("div", &LaunchConfig::linear(1, 8), &[Arg::ptr(buf)])
        .expect("division never traps");
    // Thread 3 divides by zero and gets all ones (-1), as on a GPU.
    assert_eq!(
        it.memory.read_i32s(buf, 8).unwrap(),
        vec![-33, -50, -100, -1, 100, 50, 33, 25]
    );
}

#[test]
fn barrier_reduce_count_and_or() {
    let mut m = module();
    let p = gptr(&mut m);
    build(&mut m, "breduce", FunctionKind::Kernel, &[p], |b, ps| {
        let i32t = b.types.i32();
        let tid = b.thread_id(X);
        let c3 = b.i32(3);
        let r = b.binary(BinOp::URem, tid, c3);
        let z = b.i32(0);
        let div3 = b.cmp(CmpPred::Eq, r, z);
        let count = b.barrier_reduce(BarrierReduceKind::Count, div3);
        let c100 = b.i32(100);
        let lt100 = b.cmp(CmpPred::Slt, tid, c100);
        let and_true = b.barrier_reduce(BarrierReduceKind::And, lt100);
        let c5 = b.i32(5);
        let not5 = b.cmp(CmpPred::Ne, tid, c5);
        let and_false = b.barrier_reduce(BarrierReduceKind::And, not5);
        let c1000 = b.i32(1000);
        let is1000 = b.cmp(CmpPred::Eq, tid, c1000);
        let or_false = b.barrier_reduce(BarrierReduceKind::Or, is1000);
        let c7 = b.i32(7);
        let is7 = b.cmp(CmpPred::Eq, tid, c7);
        let or_true = b.barrier_reduce(BarrierReduceKind::Or, is7);
        let c6 = b.i32(6);
        let base = b.binary(BinOp::Mul, tid, c6);
        let mut i = base;
        for v in [count, and_true, and_false, or_false, or_true] {
            let v = if b.ty(v) == i32t {
                v
            } else {
                b.cast(CastOp::ZExt, v, i32t)
            };
            store_at(b, ps[0], i, v);
            let one = b.i32(1);
            i = b.binary(BinOp::Add, i, one);
        }
    });
    let mut it = Interpreter::new(&m);
    let out = it.memory.alloc(Space::Global, 4 * 6 * 100);
    it.launch("breduce", &LaunchConfig::linear(1, 100), &[Arg::ptr(out)])
        .unwrap();
    let got = it.memory.read_i32s(out, 600).unwrap();
    for t in 0..100 {
        assert_eq!(&got[6 * t..6 * t + 5], &[34, 1, 0, 0, 1], "thread {t}");
    }
}

#[test]
fn dynamic_shared_memory() {
    let mut m = module();
    let p = gptr(&mut m);
    let i32t = m.types.i32();
    build(&mut m, "reverse", FunctionKind::Kernel, &[p, p], |b, ps| {
        let tid = b.thread_id(X);
        let bdim = b.block_dim(X);
        let g = gid(b);
        let ds = b.dynamic_shared();
        let v = load_at(b, ps[0], g, i32t);
        store_at(b, ds, tid, v);
        b.barrier();
        let one = b.i32(1);
        let last = b.binary(BinOp::Sub, bdim, one);
        let j = b.binary(BinOp::Sub, last, tid);
        let r = load_at(b, ds, j, i32t);
        store_at(b, ps[1], g, r);
    });
    let data: Vec<i32> = (0..128).collect();
    let mut it = Interpreter::new(&m);
    let pin = it.memory.alloc(Space::Global, 4 * 128);
    let pout = it.memory.alloc(Space::Global, 4 * 128);
    it.memory.write_i32s(pin, &data).unwrap();
    let mut cfg = LaunchConfig::linear(2, 64);
    cfg.dynamic_shared = 64 * 4;
    it.launch("reverse", &cfg, &[Arg::ptr(pin), Arg::ptr(pout)])
        .unwrap();
    let expect: Vec<i32> = data
        .chunks(64)
        .flat_map(|c| c.iter().rev().copied())
        .collect();
    assert_eq!(it.memory.read_i32s(pout, 128).unwrap(), expect);
    // Too little dynamic shared memory is an out-of-bounds access.
    cfg.dynamic_shared = 16;
    let err = it
        .launch("reverse", &cfg, &[Arg::ptr(pin), Arg::ptr(pout)])
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("shared allocation of 16 bytes (dynamic shared memory)"),
        "{err}"
    );
}

#[test]
fn byval_struct_parameter_is_a_private_copy() {
    let mut m = module();
    let (i32t, f32t, i64t) = (m.types.i32(), m.types.f32(), m.types.i64());
    let s = m
        .types
        .c_struct("S", &[("a", i32t), ("b", f32t), ("c", i64t)]);
    let (pp, gp) = (m.types.ptr(Space::Private), gptr(&mut m));
    let mut f = Function::new("byval", FunctionKind::Kernel, &[pp, gp], &[]);
    f.params[0].byval = Some(s);
    {
        let mut b = Builder::new(&mut m.types, &mut f);
        let ps = b.params();
        let tid = b.thread_id(X);
        let pa = b.ptr_field(ps[0], s, 0);
        let a = b.load(pa, i32t);
        let a2 = b.binary(BinOp::Add, a, tid);
        b.store(pa, a2); // each thread changes only its own copy
        let a3 = b.load(pa, i32t);
        let pb = b.ptr_field(ps[0], s, 1);
        let bf = b.load(pb, f32t);
        let bi = b.cast(CastOp::FpToSi, bf, i32t);
        let pc = b.ptr_field(ps[0], s, 2);
        let c = b.load(pc, i64t);
        let ci = b.cast(CastOp::Trunc, c, i32t);
        let t = b.binary(BinOp::Add, a3, bi);
        let r = b.binary(BinOp::Add, t, ci);
        store_at(&mut b, ps[1], tid, r);
        b.ret(vec![]);
    }
    m.add_function(f);
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&100i32.to_le_bytes());
    bytes.extend_from_slice(&2.5f32.to_le_bytes());
    bytes.extend_from_slice(&1000i64.to_le_bytes());
    let mut it = Interpreter::new(&m);
    let out = it.memory.alloc(Space::Global, 4 * 8);
    it.launch(
        "byval",
        &LaunchConfig::linear(1, 8),
        &[Arg::Byval(bytes.clone()), Arg::ptr(out)],
    )
    .unwrap();
    let expect: Vec<i32> = (0..8).map(|t| 100 + t + 2 + 1000).collect();
    assert_eq!(it.memory.read_i32s(out, 8).unwrap(), expect);
    // Wrong sizes and kinds are errors, not panics.
    let err = it
        .launch(
            "byval",
            &LaunchConfig::linear(1, 8),
            &[Arg::Byval(bytes[..8].to_vec()), Arg::ptr(out)],
        )
        .unwrap_err();
    assert!(matches!(err, InterpError::BadArgs { .. }), "{err}");
    let err = it
        .launch(
            "byval",
            &LaunchConfig::linear(1, 8),
            &[Arg::i32(1), Arg::ptr(out)],
        )
        .unwrap_err();
    assert!(matches!(err, InterpError::BadArgs { .. }), "{err}");
    let err = it
        .launch("byval", &LaunchConfig::linear(1, 8), &[])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "kernel `byval`: bad launch arguments: 0 arguments given, the kernel has 2 parameters"
    );
}

#[test]
fn printf_formats_in_execution_order() {
    let mut m = module();
    let i8t = m.types.i8();
    let arr = m.types.array(i8t, 5);
    let name = m.add_global(Global {
        name: "name".into(),
        ty: arr,
        space: Space::Constant,
        init: Some(b"cuda\0".to_vec()),
        kind: GlobalKind::Variable,
        managed: false,
        linkage: Default::default(),
        loc: Loc::UNKNOWN,
    });
    build(&mut m, "hello", FunctionKind::Kernel, &[], |b, _| {
        let tid = b.thread_id(X);
        let f32t = b.types.f32();
        let f64t = b.types.f64();
        let tf = b.cast(CastOp::SiToFp, tid, f32t);
        let q = b.f32(0.25);
        let x = b.binary(BinOp::FAdd, tf, q);
        let xd = b.cast(CastOp::FpExt, x, f64t);
        let s = b.global_addr(name, Space::Constant);
        let c255 = b.i32(255);
        let neg = b.i64(-7);
        b.op(
            OpKind::Printf {
                format: "[%d] %5.2f %s|%#x|%-4d|%lld|%e|%g%%\n".into(),
            },
            vec![tid, xd, s, c255, tid, neg, xd, xd],
            &[],
            vec![],
        );
    });
    let mut it = Interpreter::new(&m);
    it.launch("hello", &LaunchConfig::linear(1, 2), &[])
        .unwrap();
    assert_eq!(
        it.printf_output(),
        "[0]  0.25 cuda|0xff|0   |-7|2.500000e-01|0.25%\n\
         [1]  1.25 cuda|0xff|1   |-7|1.250000e+00|1.25%\n"
    );
}

#[test]
fn step_limit_stops_an_infinite_loop() {
    let mut m = module();
    build(&mut m, "spin", FunctionKind::Kernel, &[], |b, _| {
        b.while_(
            &[],
            |b, _| {
                b.set_loc(Loc::new(0, 3, 1));
                (b.bool(true), vec![])
            },
            |_, _| vec![],
        );
    });
    let mut it = Interpreter::new(&m);
    it.set_step_limit(Some(10_000));
    let err = it
        .launch("spin", &LaunchConfig::linear(1, 1), &[])
        .unwrap_err();
    assert!(
        matches!(err, InterpError::StepLimit { limit: 10_000, .. }),
        "{err}"
    );
}

#[test]
fn malformed_ir_and_bad_launches_are_errors() {
    let mut m = module();
    build(&mut m, "bad", FunctionKind::Kernel, &[], |b, _| {
        let one = b.i32(1);
        // An add with a single operand.
        let i32t = b.types.i32();
        b.op1(
            OpKind::Binary(BinOp::Add, ArithFlags::NONE),
            vec![one],
            i32t,
        );
    });
    build(&mut m, "dev", FunctionKind::Device, &[], |_, _| {});
    let mut it = Interpreter::new(&m);
    let err = it
        .launch("bad", &LaunchConfig::linear(1, 1), &[])
        .unwrap_err();
    assert!(matches!(err, InterpError::Malformed { .. }), "{err}");
    assert!(matches!(
        it.launch("nope", &LaunchConfig::linear(1, 1), &[]),
        Err(InterpError::UnknownKernel { .. })
    ));
    assert!(matches!(
        it.launch("dev", &LaunchConfig::linear(1, 1), &[]),
        Err(InterpError::NotAKernel { .. })
    ));
    assert!(matches!(
        it.launch("bad", &LaunchConfig::linear(1, 2048), &[]),
        Err(InterpError::BadConfig { .. })
    ));
}

#[test]
fn device_calls_recursion_and_math() {
    let mut m = module();
    let (i32t, f32t, p) = (m.types.i32(), m.types.f32(), gptr(&mut m));
    // fact(n) = n <= 1 ? 1 : n * fact(n - 1)
    let mut f = Function::new("fact", FunctionKind::Device, &[i32t], &[i32t]);
    let fact = FuncId::new(m.functions.len());
    {
        let mut b = Builder::new(&mut m.types, &mut f);
        let n = b.params()[0];
        let one = b.i32(1);
        let small = b.cmp(CmpPred::Sle, n, one);
        let r = b.if_else(
            small,
            &[i32t],
            |b| vec![b.i32(1)],
            |b| {
                let one = b.i32(1);
                let n1 = b.binary(BinOp::Sub, n, one);
                let r = b.call(fact, vec![n1], &[i32t])[0];
                vec![b.binary(BinOp::Mul, n, r)]
            },
        )[0];
        b.ret(vec![r]);
    }
    assert_eq!(m.add_function(f), fact);
    build(&mut m, "calls", FunctionKind::Kernel, &[p, p], |b, ps| {
        let tid = b.thread_id(X);
        let r = b.call(fact, vec![tid], &[i32t])[0];
        store_at(b, ps[0], tid, r);
        let x = b.cast(CastOp::SiToFp, tid, f32t);
        let s = b.call_extern("sqrtf", vec![x], &[f32t])[0];
        let e = b.call_extern("expf", vec![s], &[f32t])[0];
        store_at(b, ps[1], tid, e);
    });
    let mut it = Interpreter::new(&m);
    let o1 = it.memory.alloc(Space::Global, 4 * 8);
    let o2 = it.memory.alloc(Space::Global, 4 * 8);
    it.launch(
        "calls",
        &LaunchConfig::linear(1, 8),
        &[Arg::ptr(o1), Arg::ptr(o2)],
    )
    .unwrap();
    assert_eq!(
        it.memory.read_i32s(o1, 8).unwrap(),
        vec![1, 1, 2, 6, 24, 120, 720, 5040]
    );
    let expect: Vec<f32> = (0..8).map(|t| (t as f32).sqrt().exp()).collect();
    assert_eq!(it.memory.read_f32s(o2, 8).unwrap(), expect);
}

#[test]
fn barrier_in_lanes_synchronises_the_whole_block() {
    // Launch form, warp x lane: lane l of warp w writes sh[w*32+l], then a
    // block barrier, then reads the element of the *other* warp. Without a
    // block-wide barrier, warp 0 would read warp 1's slots before they are
    // written.
    let mut m = module();
    let p = gptr(&mut m);
    let i32t = m.types.i32();
    let arr = m.types.array(i32t, 64);
    build(&mut m, "crosswarp", FunctionKind::Launch, &[p], |b, ps| {
        let out = ps[0];
        let one = b.i32(1);
        b.parallel(Level::Grid, &[one], |b, _| {
            let sh = b.alloca(Space::Shared, arr);
            let two = b.i32(2);
            b.parallel(Level::Warp, &[two], |b, wv| {
                let w = wv[0];
                let n = b.i32(32);
                b.parallel(Level::Lane, &[n], |b, lv| {
                    let c32 = b.i32(32);
                    let wb = b.binary(BinOp::Mul, w, c32);
                    let t = b.binary(BinOp::Add, wb, lv[0]);
                    let c10 = b.i32(10);
                    let v = b.binary(BinOp::Mul, t, c10);
                    store_at(b, sh, t, v);
                    b.barrier();
                    let c63 = b.i32(63);
                    let o = b.binary(BinOp::Sub, c63, t);
                    let r = load_at(b, sh, o, i32t);
                    store_at(b, out, t, r);
                });
            });
        });
    });
    let mut it = Interpreter::new(&m);
    let out = it.memory.alloc(Space::Global, 4 * 64);
    it.launch("crosswarp", &LaunchConfig::linear(1, 64), &[Arg::ptr(out)])
        .unwrap();
    let expect: Vec<i32> = (0..64).map(|t| (63 - t) * 10).collect();
    assert_eq!(it.memory.read_i32s(out, 64).unwrap(), expect);
}

#[test]
fn many_thread_steps_run_quickly() {
    // 64 blocks x 256 threads, 60 loop iterations each: over 4 million ops.
    let mut m = module();
    let p = gptr(&mut m);
    build(&mut m, "spin", FunctionKind::Kernel, &[p], |b, ps| {
        let g = gid(b);
        let (zero, n, one) = (b.i32(0), b.i32(60), b.i32(1));
        let acc = b.for_(zero, n, one, &[g], |b, i, c| {
            let c3 = b.i32(3);
            let t = b.binary(BinOp::Mul, c[0], c3);
            vec![b.binary(BinOp::Add, t, i)]
        })[0];
        store_at(b, ps[0], g, acc);
    });
    let mut it = Interpreter::new(&m);
    let threads = 64 * 256;
    let out = it.memory.alloc(Space::Global, 4 * threads as u64);
    let stats = it
        .launch("spin", &LaunchConfig::linear(64, 256), &[Arg::ptr(out)])
        .unwrap();
    assert!(stats.steps > 4_000_000, "{stats:?}");
    let got = it.memory.read_i32s(out, threads).unwrap();
    for g in [0, 1, 777, threads - 1] {
        let mut acc = g as i32;
        for i in 0..60 {
            acc = acc.wrapping_mul(3).wrapping_add(i);
        }
        assert_eq!(got[g], acc);
    }
}

#[test]
fn alloc_distinct_compares_allocations() {
    let src = "kernel @k(%out: ptr<global>, %a: ptr<global>, %b: ptr<global>) {\n  \
               %d = alloc.distinct %a, %b : i1\n  \
               %v = zext %d : i32\n  \
               store %out, %v\n  \
               return\n}\n";
    let m = parse_module(src).expect("parse");
    verify_module(&m).expect("verifies");
    let mut it = Interpreter::new(&m);
    let out = it.memory.alloc(Space::Global, 4);
    let x = it.memory.alloc(Space::Global, 64);
    let y = it.memory.alloc(Space::Global, 64);
    let mut run = |a: u64, b: u64| {
        it.launch(
            "k",
            &LaunchConfig::linear(1, 1),
            &[Arg::ptr(out), Arg::ptr(a), Arg::ptr(b)],
        )
        .unwrap();
        it.memory.read_i32s(out, 1).unwrap()[0]
    };
    assert_eq!(run(x, y), 1, "two buffers");
    assert_eq!(run(x, x + 16), 0, "two pointers into one buffer");
    assert_eq!(run(x, 0), 0, "a null pointer");
}

/// A resolver for one four-channel `i32` texture: texel `i` holds
/// `(10i, 10i+1, 10i+2, 10i+3)` for `i` in `[0, 8)`, zeros elsewhere.
struct Quads;

impl cucc_ir::interp::TextureResolver for Quads {
    fn fetch(&self, req: &cucc_ir::interp::TexRequest<'_>) -> Result<Vec<u64>, String> {
        if req.handle != 3 || req.kind != TexKind::Fetch1D || req.results != 4 {
            return Err(format!("unexpected fetch {req:?}"));
        }
        let i = req.coords[0] as u32 as i32;
        Ok((0..4)
            .map(|c| {
                if (0..8).contains(&i) {
                    (10 * i + c) as u32 as u64
                } else {
                    0
                }
            })
            .collect())
    }
}

/// `fetch1d.lane` reads channel `lane` of the four-channel texel, channels
/// 3 and above (unsigned) reading the last, and zeros outside the texture.
#[test]
fn lane_fetch_reads_one_channel() {
    let text = r#"
kernel @k(%t: i64, %out: ptr<global>) {
  %tid = thread_id x : i32
  %two = const 2 : i32
  %i = ashr %tid, %two : i32
  %three = const 3 : i32
  %lane0 = and %tid, %three : i32
  %one = const 1 : i32
  %zero = const 0 : i32
  %bit = and %tid, %one : i32
  %odd = cmp ne %bit, %zero : i1
  %big = const -7 : i32
  %lane = select %odd, %big, %lane0 : i32
  %v = tex.fetch fetch1d.lane %t, %i, %lane : i32
  %p = ptr.index i32 %out, %tid : ptr<global>
  store %p, %v
  return
}
"#;
    let m = parse_module(text).unwrap();
    verify_module(&m).unwrap();
    let mut it = Interpreter::new(&m);
    it.set_textures(Box::new(Quads));
    let n = 40usize;
    let out = it.memory.alloc(Space::Global, 4 * n as u64);
    it.launch(
        "k",
        &LaunchConfig::linear(1, n as u32),
        &[Arg::Scalar(3), Arg::ptr(out)],
    )
    .unwrap();
    let bytes = it.memory.read(out, 4 * n as u64).unwrap();
    for t in 0..n {
        let i = (t / 4) as i32;
        let lane = if t % 2 == 1 { 3 } else { (t % 4) as i32 };
        let want = if i < 8 { 10 * i + lane } else { 0 };
        let got = i32::from_le_bytes(bytes[4 * t..4 * t + 4].try_into().unwrap());
        assert_eq!(got, want, "thread {t}");
    }
}

/// Iterations of consecutive `parallel` ops reuse environments: each must
/// still see the values of its own spawn (`%k` and `%s` change every trip
/// of the serial loop around them).
#[test]
fn parallel_iterations_see_the_values_of_their_spawn() {
    let src = r#"
launch @phases(%out: ptr<global>, %n: i32, %g: i32) {
  parallel<grid> (%blk) in (%g) {
    %c0 = const 0 : i32
    %c1 = const 1 : i32
    %c3 = const 3 : i32
    %c10 = const 10 : i32
    for %k = %c0 to %c3 step %c1 {
      parallel<block> (%tx) in (%n) {
        %a = ptr.index i32 %out, %tx : ptr<global>
        %v = load %a : i32
        %w = add %v, %k : i32
        store %a, %w
        yield
      }
      %s = mul %k, %c10 : i32
      %t = add %s, %blk : i32
      parallel<block> (%tx2) in (%n) {
        %b = ptr.index i32 %out, %tx2 : ptr<global>
        %v2 = load %b : i32
        %w2 = add %v2, %t : i32
        store %b, %w2
        yield
      }
      yield
    }
    yield
  }
  return
}
"#;
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e}"));
    let mut it = Interpreter::new(&m);
    let n = 40usize;
    let out = it.memory.alloc(Space::Global, 4 * n as u64);
    it.launch(
        "phases",
        &LaunchConfig::linear(1, 1),
        &[Arg::ptr(out), Arg::i32(n as i32), Arg::i32(2)],
    )
    .unwrap();
    // Two blocks, three trips each: k + 10 k + blk summed.
    let want = 2 * (0..3).map(|k| 11 * k).sum::<i32>() + 3;
    let got: Vec<i32> = it
        .memory
        .read(out, 4 * n as u64)
        .unwrap()
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(got, vec![want; n]);
}
