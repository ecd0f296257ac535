//! Kernels with barriers, through `distribute` to C and run: the results
//! must equal what the GPU would compute.

mod common;
use common::{build, build_with, differential, global_x, run, HArg};
use cucc_ir::*;
use std::ffi::c_void;

fn shared_global(m: &mut Module, name: &str, ty: TypeId) -> GlobalId {
    m.add_global(Global::new(name, ty, Space::Shared))
}

/// `reduce(in, out, n)`: block sums with a tree in shared memory; the
/// halving loop is a `for` over k with s = 128 >> k (barrier inside), or a
/// `while` over s when `use_while`.
fn reduction_module(use_while: bool) -> Module {
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let f32t = m.types.f32();
    let arr = m.types.array(f32t, 256);
    let sdata = shared_global(&mut m, "sdata", arr);
    let mut k = Function::new("reduce", FunctionKind::Kernel, &[g, g, i32t], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let tid = b.thread_id(Dim::X);
        let bid = b.block_id(Dim::X);
        let bdim = b.block_dim(Dim::X);
        let base = b.binary(BinOp::Mul, bid, bdim);
        let i = b.binary(BinOp::Add, base, tid);
        let inb = b.cmp(CmpPred::Slt, i, p[2]);
        let v = b.if_else(
            inb,
            &[f32t],
            |b| {
                let f32t = b.types.f32();
                let a = b.ptr_index(p[0], i, f32t);
                vec![b.load(a, f32t)]
            },
            |b| vec![b.f32(0.0)],
        );
        let s_base = b.global_addr(sdata, Space::Shared);
        let mine = b.ptr_index(s_base, tid, f32t);
        b.store(mine, v[0]);
        b.barrier();
        let step = |b: &mut Builder<'_>, s: Value| {
            let lt = b.cmp(CmpPred::Slt, tid, s);
            b.if_then(lt, |b| {
                let f32t = b.types.f32();
                let j = b.binary(BinOp::Add, tid, s);
                let other = b.ptr_index(s_base, j, f32t);
                let x = b.load(other, f32t);
                let y = b.load(mine, f32t);
                let z = b.binary(BinOp::FAdd, x, y);
                b.store(mine, z);
            });
            b.barrier();
        };
        if use_while {
            let two = b.i32(2);
            let start = b.binary(BinOp::SDiv, bdim, two);
            b.while_(
                &[start],
                |b, a| {
                    let zero = b.i32(0);
                    let c = b.cmp(CmpPred::Sgt, a[0], zero);
                    (c, vec![a[0]])
                },
                |b, a| {
                    step(b, a[0]);
                    let one = b.i32(1);
                    vec![b.binary(BinOp::AShr, a[0], one)]
                },
            );
        } else {
            let zero = b.i32(0);
            let eight = b.i32(8);
            let one = b.i32(1);
            b.for_(zero, eight, one, &[], |b, kk, _| {
                let c128 = b.i32(128);
                let s = b.binary(BinOp::AShr, c128, kk);
                step(b, s);
                vec![]
            });
        }
        let zero = b.i32(0);
        let first = b.cmp(CmpPred::Eq, tid, zero);
        b.if_then(first, |b| {
            let f32t = b.types.f32();
            let t = b.load(s_base, f32t);
            let o = b.ptr_index(p[1], bid, f32t);
            b.store(o, t);
        });
        b.ret(vec![]);
    }
    m.add_function(k);
    m
}

fn check_reduction(use_while: bool, tag: &str) {
    check_reduction_with(use_while, tag, true);
}

fn check_reduction_with(use_while: bool, tag: &str, unroll: bool) {
    let (lib, _) = build_with(reduction_module(use_while), tag, unroll);
    let n = 1000usize;
    let blocks = n.div_ceil(256);
    let input: Vec<f32> = (0..n).map(|i| ((i * 7) % 13) as f32).collect();
    let oracle = differential(
        reduction_module(use_while),
        "reduce",
        [blocks as u32, 1, 1],
        [256, 1, 1],
        &[
            HArg::f32s(&input),
            HArg::f32s(&vec![0.0; blocks]),
            HArg::i32(n as i32),
        ],
        &format!("{tag}_diff"),
    );
    let sums: Vec<f32> = oracle[1]
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for (bi, got) in sums.iter().enumerate() {
        let want: f32 = input[bi * 256..((bi + 1) * 256).min(n)].iter().sum();
        assert_eq!(*got, want, "oracle block {bi}");
    }
    let mut out = vec![0f32; blocks];
    let (mut pi, mut po, mut nn) = (input.as_ptr(), out.as_mut_ptr(), n as i32);
    let mut args: Vec<*mut c_void> = vec![
        (&mut pi as *mut *const f32).cast(),
        (&mut po as *mut *mut f32).cast(),
        (&mut nn as *mut i32).cast(),
    ];
    run(
        &lib,
        "reduce",
        [blocks as u32, 1, 1],
        [256, 1, 1],
        &mut args,
        256 * 4,
    );
    for (bi, got) in out.iter().enumerate() {
        let want: f32 = input[bi * 256..((bi + 1) * 256).min(n)].iter().sum();
        assert_eq!(*got, want, "block {bi}");
    }
}

#[test]
fn tree_reduction_barrier_in_for() {
    check_reduction(false, "reduce_for");
}

#[test]
fn tree_reduction_barrier_in_for_interchanged() {
    check_reduction_with(false, "reduce_for_interchanged", false);
}

#[test]
fn tree_reduction_barrier_in_while() {
    check_reduction(true, "reduce_while");
}

#[test]
fn tiled_transpose() {
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let f32t = m.types.f32();
    let row = m.types.array(f32t, 17);
    let tile_t = m.types.array(row, 16);
    let tile = shared_global(&mut m, "tile", tile_t);
    let mut k = Function::new("transpose", FunctionKind::Kernel, &[g, g, i32t, i32t], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let (w, h) = (p[2], p[3]);
        let tx = b.thread_id(Dim::X);
        let ty = b.thread_id(Dim::Y);
        let bx = b.block_id(Dim::X);
        let by = b.block_id(Dim::Y);
        let sixteen = b.i32(16);
        let bx16 = b.binary(BinOp::Mul, bx, sixteen);
        let by16 = b.binary(BinOp::Mul, by, sixteen);
        let x = b.binary(BinOp::Add, bx16, tx);
        let y = b.binary(BinOp::Add, by16, ty);
        let tb = b.global_addr(tile, Space::Shared);
        let c1 = b.cmp(CmpPred::Slt, x, w);
        let c2 = b.cmp(CmpPred::Slt, y, h);
        let c = b.binary(BinOp::And, c1, c2);
        b.if_then(c, |b| {
            let f32t = b.types.f32();
            let yw = b.binary(BinOp::Mul, y, w);
            let idx = b.binary(BinOp::Add, yw, x);
            let src = b.ptr_index(p[0], idx, f32t);
            let v = b.load(src, f32t);
            let r = b.ptr_index(tb, ty, row);
            let d = b.ptr_index(r, tx, f32t);
            b.store(d, v);
        });
        b.barrier();
        let x2 = b.binary(BinOp::Add, by16, tx);
        let y2 = b.binary(BinOp::Add, bx16, ty);
        let c1 = b.cmp(CmpPred::Slt, x2, h);
        let c2 = b.cmp(CmpPred::Slt, y2, w);
        let c = b.binary(BinOp::And, c1, c2);
        b.if_then(c, |b| {
            let f32t = b.types.f32();
            let r = b.ptr_index(tb, tx, row);
            let s = b.ptr_index(r, ty, f32t);
            let v = b.load(s, f32t);
            let yh = b.binary(BinOp::Mul, y2, h);
            let idx = b.binary(BinOp::Add, yh, x2);
            let dst = b.ptr_index(p[1], idx, f32t);
            b.store(dst, v);
        });
        b.ret(vec![]);
    }
    m.add_function(k);
    let (w, h) = (37usize, 23usize);
    let input: Vec<f32> = (0..w * h).map(|i| i as f32).collect();
    let grid = [w.div_ceil(16) as u32, h.div_ceil(16) as u32, 1];
    differential(
        m.clone(),
        "transpose",
        grid,
        [16, 16, 1],
        &[
            HArg::f32s(&input),
            HArg::f32s(&vec![-1.0; w * h]),
            HArg::i32(w as i32),
            HArg::i32(h as i32),
        ],
        "transpose_diff",
    );
    let (lib, _) = build(m, "transpose");
    let mut out = vec![-1f32; w * h];
    let (mut pi, mut po, mut pw, mut ph) = (input.as_ptr(), out.as_mut_ptr(), w as i32, h as i32);
    let mut args: Vec<*mut c_void> = vec![
        (&mut pi as *mut *const f32).cast(),
        (&mut po as *mut *mut f32).cast(),
        (&mut pw as *mut i32).cast(),
        (&mut ph as *mut i32).cast(),
    ];
    let grid = [w.div_ceil(16) as u32, h.div_ceil(16) as u32, 1];
    run(&lib, "transpose", grid, [16, 16, 1], &mut args, 16 * 17 * 4);
    for y in 0..h {
        for x in 0..w {
            assert_eq!(out[x * h + y], input[y * w + x], "({x}, {y})");
        }
    }
}

#[test]
fn syncthreads_count_and_or() {
    // out[b*3 + 0..3] = count/and/or of (in[i] odd) over the block.
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let mut k = Function::new("votes", FunctionKind::Kernel, &[g, g], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let tid = b.thread_id(Dim::X);
        let bid = b.block_id(Dim::X);
        let bdim = b.block_dim(Dim::X);
        let base = b.binary(BinOp::Mul, bid, bdim);
        let i = b.binary(BinOp::Add, base, tid);
        let a = b.ptr_index(p[0], i, i32t);
        let v = b.load(a, i32t);
        let one = b.i32(1);
        let bit = b.binary(BinOp::And, v, one);
        let z = b.i32(0);
        let odd = b.cmp(CmpPred::Ne, bit, z);
        let cnt = b.barrier_reduce(BarrierReduceKind::Count, odd);
        let all = b.barrier_reduce(BarrierReduceKind::And, odd);
        let any = b.barrier_reduce(BarrierReduceKind::Or, odd);
        let zero = b.i32(0);
        let first = b.cmp(CmpPred::Eq, tid, zero);
        b.if_then(first, |b| {
            let i32t = b.types.i32();
            let three = b.i32(3);
            let o = b.binary(BinOp::Mul, bid, three);
            let d0 = b.ptr_index(p[1], o, i32t);
            b.store(d0, cnt);
            let one = b.i32(1);
            let d1 = b.ptr_index(d0, one, i32t);
            let allw = b.cast(CastOp::ZExt, all, i32t);
            b.store(d1, allw);
            let two = b.i32(2);
            let d2 = b.ptr_index(d0, two, i32t);
            let anyw = b.cast(CastOp::ZExt, any, i32t);
            b.store(d2, anyw);
        });
        b.ret(vec![]);
    }
    m.add_function(k);
    // Block 0: mixed; block 1: all odd; block 2: all even.
    let mut input: Vec<i32> = (0..64).collect();
    input.extend((0..64).map(|i| 2 * i + 1));
    input.extend((0..64).map(|i| 2 * i));
    differential(
        m.clone(),
        "votes",
        [3, 1, 1],
        [64, 1, 1],
        &[HArg::i32s(&input), HArg::i32s(&[-1; 9])],
        "votes_diff",
    );
    let (lib, _) = build(m, "votes");
    let mut out = vec![-1i32; 9];
    let (mut pi, mut po) = (input.as_ptr(), out.as_mut_ptr());
    let mut args: Vec<*mut c_void> = vec![
        (&mut pi as *mut *const i32).cast(),
        (&mut po as *mut *mut i32).cast(),
    ];
    run(&lib, "votes", [3, 1, 1], [64, 1, 1], &mut args, 16);
    assert_eq!(out, vec![32, 0, 1, 64, 1, 1, 0, 0, 0]);
}

/// `warps(in, sums, xors, ballots)`: per warp, a shfl_down tree sum, an
/// xor-butterfly max, and a ballot of odd inputs (with any/all packed in).
#[test]
fn warp_shuffles_and_votes() {
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let mut k = Function::new("warps", FunctionKind::Kernel, &[g, g, g, g], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let (_, i) = global_x(&mut b);
        let a = b.ptr_index(p[0], i, i32t);
        let v = b.load(a, i32t);
        let full = b.i32(-1);
        let zero = b.i32(0);
        let five = b.i32(5);
        let one = b.i32(1);
        let sum = b.for_(zero, five, one, &[v], |b, kk, c| {
            let sixteen = b.i32(16);
            let off = b.binary(BinOp::AShr, sixteen, kk);
            let w = b.i32(32);
            let other = b.shuffle(ShuffleMode::Down, full, c[0], off, w);
            vec![b.binary(BinOp::Add, c[0], other)]
        })[0];
        let max = b.for_(zero, five, one, &[v], |b, kk, c| {
            let one = b.i32(1);
            let mask = b.binary(BinOp::Shl, one, kk);
            let w = b.i32(32);
            let other = b.shuffle(ShuffleMode::Xor, full, c[0], mask, w);
            vec![b.binary(BinOp::SMax, c[0], other)]
        })[0];
        let bit = b.binary(BinOp::And, v, one);
        let odd = b.cmp(CmpPred::Ne, bit, zero);
        let ballot = b.vote(VoteKind::Ballot, full, odd);
        let any = b.vote(VoteKind::Any, full, odd);
        let all = b.vote(VoteKind::All, full, odd);
        let lane = b.lane_id();
        let first = b.cmp(CmpPred::Eq, lane, zero);
        b.if_then(first, |b| {
            let i32t = b.types.i32();
            let i64t = b.types.i64();
            let c32 = b.i32(32);
            let wid = b.binary(BinOp::SDiv, i, c32);
            let s = b.ptr_index(p[1], wid, i32t);
            b.store(s, sum);
            let x = b.ptr_index(p[2], wid, i32t);
            b.store(x, max);
            let bl = b.ptr_index(p[3], wid, i64t);
            let wide = b.cast(CastOp::ZExt, ballot, i64t);
            let anyw = b.cast(CastOp::ZExt, any, i64t);
            let allw = b.cast(CastOp::ZExt, all, i64t);
            let c32l = b.i64(32);
            let c33l = b.i64(33);
            let a1 = b.binary(BinOp::Shl, anyw, c32l);
            let a2 = b.binary(BinOp::Shl, allw, c33l);
            let t = b.binary(BinOp::Or, wide, a1);
            let t = b.binary(BinOp::Or, t, a2);
            b.store(bl, t);
        });
        b.ret(vec![]);
    }
    m.add_function(k);
    {
        let n = 3 * 128;
        let input: Vec<i32> = (0..n).map(|i| (i * 37) % 101).collect();
        differential(
            m.clone(),
            "warps",
            [3, 1, 1],
            [128, 1, 1],
            &[
                HArg::i32s(&input),
                HArg::i32s(&[0; 12]),
                HArg::i32s(&[0; 12]),
                HArg::i32s(&[0; 24]),
            ],
            "warps_diff",
        );
    }
    let (lib, _) = build_with(m.clone(), "warps", true);
    check_warps(&lib);
    let (lib, _) = build_with(m, "warps_interchanged", false);
    check_warps(&lib);
}

fn check_warps(lib: &libloading::Library) {
    let n = 3 * 128;
    let mut input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 101).collect();
    // Warp 5: all odd; warp 6: all even.
    for x in &mut input[160..192] {
        *x = 2 * (*x / 2) + 1;
    }
    for x in &mut input[192..224] {
        *x = 2 * (*x / 2);
    }
    let warps = n / 32;
    let mut sums = vec![0i32; warps];
    let mut maxs = vec![0i32; warps];
    let mut ballots = vec![0u64; warps];
    let (mut pi, mut ps, mut px, mut pb) = (
        input.as_ptr(),
        sums.as_mut_ptr(),
        maxs.as_mut_ptr(),
        ballots.as_mut_ptr(),
    );
    let mut args: Vec<*mut c_void> = vec![
        (&mut pi as *mut *const i32).cast(),
        (&mut ps as *mut *mut i32).cast(),
        (&mut px as *mut *mut i32).cast(),
        (&mut pb as *mut *mut u64).cast(),
    ];
    run(lib, "warps", [3, 1, 1], [128, 1, 1], &mut args, 16);
    for w in 0..warps {
        let lanes = &input[w * 32..w * 32 + 32];
        assert_eq!(sums[w], lanes.iter().sum::<i32>(), "sum of warp {w}");
        assert_eq!(
            maxs[w],
            *lanes.iter().max().unwrap_or(&0),
            "max of warp {w}"
        );
        let mut bits = 0u64;
        for (j, x) in lanes.iter().enumerate() {
            bits |= ((x & 1) as u64) << j;
        }
        let any = u64::from(bits != 0);
        let all = u64::from(bits == 0xffff_ffff);
        assert_eq!(
            ballots[w],
            bits | (any << 32) | (all << 33),
            "votes of warp {w}"
        );
    }
}

#[test]
fn divergent_barrier_is_reported_with_check_barriers() {
    // if (tid < 16) { for (k = 0; k < out[tid]; k++) { s[tid] = 1; __syncthreads(); } }
    // -- only half the block, and a loop bound `predicate-barriers` cannot
    // give the other half, so the `if` is left to `distribute` and its check.
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let arr = m.types.array(i32t, 32);
    let s = shared_global(&mut m, "s", arr);
    let mut k = Function::new("divergent", FunctionKind::Kernel, &[g], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let tid = b.thread_id(Dim::X);
        let sixteen = b.i32(16);
        let c = b.cmp(CmpPred::Slt, tid, sixteen);
        let base = b.global_addr(s, Space::Shared);
        b.if_then(c, |b| {
            let i32t = b.types.i32();
            let src = b.ptr_index(p[0], tid, i32t);
            let count = b.load(src, i32t);
            let zero = b.i32(0);
            let one = b.i32(1);
            b.for_(zero, count, one, &[], |b, _, _| {
                let slot = b.ptr_index(base, tid, i32t);
                b.store(slot, one);
                b.barrier();
                vec![]
            });
        });
        let dst = b.ptr_index(p[0], tid, i32t);
        b.store(dst, tid);
        b.ret(vec![]);
    }
    m.add_function(k);
    let (lib, _) = build(m, "divergent");
    let mut out = vec![1i32; 32];
    let mut po = out.as_mut_ptr();
    let mut args: Vec<*mut c_void> = vec![(&mut po as *mut *mut i32).cast()];
    assert_eq!(common::trap_count(&lib), 0);
    run(&lib, "divergent", [1, 1, 1], [32, 1, 1], &mut args, 32 * 4);
    assert!(common::trap_count(&lib) > 0, "divergence not reported");
}

#[test]
fn shared_memory_histogram_with_shared_atomics() {
    // __shared__ int h[8]; h[tid % 8] = 0 for tid < 8; barrier;
    // atomicAdd(&h[in[i] & 7], 1); atomicMax(&h[0], 0); barrier;
    // if tid < 8: atomicAdd(&out[tid], h[tid])
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let arr = m.types.array(i32t, 8);
    let h = shared_global(&mut m, "h", arr);
    let mut k = Function::new("hist", FunctionKind::Kernel, &[g, g], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let (tid, i) = global_x(&mut b);
        let hb = b.global_addr(h, Space::Shared);
        let eight = b.i32(8);
        let small = b.cmp(CmpPred::Slt, tid, eight);
        b.if_then(small, |b| {
            let i32t = b.types.i32();
            let slot = b.ptr_index(hb, tid, i32t);
            let zero = b.i32(0);
            b.store(slot, zero);
        });
        b.barrier();
        let src = b.ptr_index(p[0], i, i32t);
        let v = b.load(src, i32t);
        let seven = b.i32(7);
        let bin = b.binary(BinOp::And, v, seven);
        let slot = b.ptr_index(hb, bin, i32t);
        let one = b.i32(1);
        b.atomic_rmw(AtomicOp::Add, slot, one);
        let zero = b.i32(0);
        b.atomic_rmw(AtomicOp::SMax, hb, zero);
        b.barrier();
        b.if_then(small, |b| {
            let i32t = b.types.i32();
            let s = b.ptr_index(hb, tid, i32t);
            let c = b.load(s, i32t);
            let d = b.ptr_index(p[1], tid, i32t);
            b.atomic_rmw(AtomicOp::Add, d, c);
        });
        b.ret(vec![]);
    }
    m.add_function(k);
    let input: Vec<i32> = (0..512).map(|i| (i * 13 + 5) % 97).collect();
    let out = differential(
        m,
        "hist",
        [4, 1, 1],
        [128, 1, 1],
        &[HArg::i32s(&input), HArg::i32s(&[0; 8])],
        "hist_diff",
    );
    let mut want = [0i32; 8];
    for x in &input {
        want[(x & 7) as usize] += 1;
    }
    let got: Vec<i32> = out[1]
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, want);
}
