use super::*;
use crate::affine::Sym;
use crate::builder::Builder;
use crate::func::{Function, FunctionKind};
use crate::module::{FuncId, Global, Module};
use crate::ops::{AtomicOp, BinOp, CmpPred, Dim, Level, TexKind};
use crate::types::{Space, TypeId};

/// The single effect of `kind` produced by `op`.
fn effect_of(effects: &[MemEffect], op: Op, kind: EffectKind) -> MemEffect {
    let found: Vec<&MemEffect> = effects
        .iter()
        .filter(|e| e.op == op && e.kind == kind)
        .collect();
    assert_eq!(found.len(), 1, "effects of {op:?}: {effects:?}");
    found[0].clone()
}

/// Adds a function to `m` built by `body`, with parameters of `params`.
fn add_fn<F>(m: &mut Module, name: &str, kind: FunctionKind, params: &[TypeId], body: F) -> FuncId
where
    F: FnOnce(&mut Builder<'_>, &[Value]),
{
    let mut f = Function::new(name, kind, params, &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut f);
        let ps = b.params();
        body(&mut b, &ps);
        if !b.is_terminated() {
            b.ret(vec![]);
        }
    }
    m.add_function(f)
}

/// Every op of `f` with the given mnemonic, in walk order.
fn ops_named(f: &Function, mnemonic: &str) -> Vec<Op> {
    f.walk()
        .into_iter()
        .map(|(_, op)| op)
        .filter(|&op| f.ops[op].kind.mnemonic() == mnemonic)
        .collect()
}

fn all_effects(m: &Module, f: &Function) -> Vec<MemEffect> {
    region_effects(m, f, f.body)
}

#[test]
fn alias_rules() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let i64t = m.types.i64();
    let pair = m.types.c_struct("Pair", &[("a", i32t), ("b", i32t)]);
    let id = add_fn(&mut m, "k", FunctionKind::Kernel, &[pg, pg, pg], |b, p| {
        let x = b.alloca(Space::Private, pair);
        let y = b.alloca(Space::Private, pair);
        let one = b.i32(1);
        b.store(x, one);
        b.store(y, one);
        let xb = b.ptr_field(x, pair, 1);
        b.store(xb, one);
        let wide = b.i64(7);
        b.store(x, wide);
        for &q in p {
            b.store(q, one);
        }
        let sh = b.alloca(Space::Shared, i64t);
        b.store(sh, wide);
    });
    m.functions[id].params[2].noalias = true;
    let f = &m.functions[id];
    let fx = all_effects(&m, f);
    let stores = ops_named(f, "store");
    let w = |i: usize| effect_of(&fx, stores[i], EffectKind::Write);
    let (x0, y0, x1, x_wide) = (w(0), w(1), w(2), w(3));
    let (p0, p1, p2, shared) = (w(4), w(5), w(6), w(7));
    // Two allocas never alias.
    assert!(!may_alias(&m, f, &x0, &y0));
    // One alloca: field 0 and field 1 are disjoint constants...
    assert_eq!(x1.offset, Some(crate::affine::Affine::constant(4)));
    assert!(!may_alias(&m, f, &x0, &x1));
    // ...but an 8-byte store at 0 covers both.
    assert!(may_alias(&m, f, &x_wide, &x1));
    assert!(may_alias(&m, f, &x_wide, &x0));
    // Plain parameters may alias each other; a noalias one aliases no other base.
    assert!(may_alias(&m, f, &p0, &p1));
    assert!(!may_alias(&m, f, &p0, &p2));
    assert!(!may_alias(&m, f, &p2, &p1));
    assert!(may_alias(&m, f, &p2, &p2));
    // An alloca never aliases a parameter; shared and global never meet.
    assert!(!may_alias(&m, f, &x0, &p0));
    assert_eq!(shared.space, Space::Shared);
    assert!(!may_alias(&m, f, &shared, &p0));
    // Read/read never conflicts; read/write on one place does.
    let r0 = MemEffect {
        kind: EffectKind::Read,
        ..p0.clone()
    };
    let r1 = MemEffect {
        kind: EffectKind::Read,
        ..p1.clone()
    };
    assert!(!conflicts(&m, f, &r0, &r1));
    assert!(conflicts(&m, f, &r0, &p1));
    assert!(!conflicts(&m, f, &r0, &p2));
}

#[test]
fn globals_and_unknown_bases() {
    let mut m = Module::new();
    let f32t = m.types.f32();
    let arr = m.types.array(f32t, 64);
    let global = |m: &mut Module, name: &str, space| m.add_global(Global::new(name, arr, space));
    let g1 = global(&mut m, "g1", Space::Global);
    let g2 = global(&mut m, "g2", Space::Global);
    let s1 = global(&mut m, "s1", Space::Shared);
    let pg = m.types.ptr(Space::Global);
    let pgen = m.types.ptr(Space::Generic);
    let id = add_fn(&mut m, "k", FunctionKind::Kernel, &[pg], |b, p| {
        let v = b.f32(1.0);
        let a = b.global_addr(g1, Space::Global);
        b.store(a, v);
        let c = b.global_addr(g2, Space::Global);
        b.store(c, v);
        let s = b.global_addr(s1, Space::Shared);
        b.store(s, v);
        let d = b.dynamic_shared();
        b.store(d, v);
        let loaded = b.load(p[0], pgen);
        b.store(loaded, v);
    });
    let f = &m.functions[id];
    let fx = all_effects(&m, f);
    let stores = ops_named(f, "store");
    let w = |i: usize| effect_of(&fx, stores[i], EffectKind::Write);
    let (eg1, eg2, es, ed, eu) = (w(0), w(1), w(2), w(3), w(4));
    assert_eq!(eg1.base, Base::Global(g1));
    assert_eq!(eu.base, Base::Unknown);
    assert!(!may_alias(&m, f, &eg1, &eg2));
    assert!(!may_alias(&m, f, &es, &ed));
    assert!(may_alias(&m, f, &eu, &eg1));
    assert!(may_alias(&m, f, &eu, &es));
}

#[test]
fn op_kinds_and_regions() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let f32t = m.types.f32();
    let i64t = m.types.i64();
    let id = add_fn(&mut m, "k", FunctionKind::Kernel, &[pg, pg], |b, p| {
        let one = b.i32(1);
        b.atomic_rmw(AtomicOp::Add, p[0], one);
        let len = b.i64(64);
        b.memcpy(p[0], p[1], len);
        let x = b.f32(2.0);
        b.call_extern("sinf", vec![x], &[f32t]);
        b.op(
            OpKind::Printf {
                format: "hi".into(),
            },
            vec![],
            &[],
            vec![],
        );
        let h = b.i64(0);
        let tx = b.thread_id(Dim::X);
        b.op(
            OpKind::TexFetch(TexKind::Fetch1D),
            vec![h, tx],
            &[f32t],
            vec![],
        );
        let c = b.cmp(CmpPred::Eq, tx, one);
        b.if_then(c, |b| {
            let t = b.alloca(Space::Private, i64t);
            let z = b.i64(0);
            b.store(t, z);
        });
        b.barrier();
        let _ = i32t;
    });
    let f = &m.functions[id];
    let fx = all_effects(&m, f);
    let atomic = ops_named(f, "atomic.rmw")[0];
    let r = effect_of(&fx, atomic, EffectKind::Read);
    let w = effect_of(&fx, atomic, EffectKind::Write);
    assert!(r.atomic && w.atomic);
    assert_eq!(w.size, Some(4));
    let memcpy = ops_named(f, "memcpy")[0];
    assert_eq!(
        effect_of(&fx, memcpy, EffectKind::Write).base,
        Base::Param(0)
    );
    let src = effect_of(&fx, memcpy, EffectKind::Read);
    assert_eq!((src.base, src.size), (Base::Param(1), Some(64)));
    let call = ops_named(f, "call")[0];
    assert!(op_effects(&m, f, call).is_empty(), "sinf is pure");
    let printf = ops_named(f, "printf")[0];
    assert_eq!(
        effect_of(&fx, printf, EffectKind::Write).base,
        Base::Unknown
    );
    let tex = effect_of(&fx, ops_named(f, "tex.fetch")[0], EffectKind::Read);
    assert_eq!(tex.base, Base::Texture);
    // Texture memory is read-only: it conflicts with nothing.
    assert!(!conflicts(&m, f, &tex, &w));
    assert!(op_effects(&m, f, ops_named(f, "barrier")[0]).is_empty());
    // The `if` has its store, but not the alloc of its local alloca.
    let if_op = ops_named(f, "if")[0];
    let inner = op_effects(&m, f, if_op);
    assert_eq!(inner.len(), 1, "{inner:?}");
    assert_eq!(inner[0].kind, EffectKind::Write);
    assert!(matches!(inner[0].base, Base::Alloca(_)));
    // The alloca itself allocates.
    let alloca = ops_named(f, "alloca")[0];
    assert_eq!(op_effects(&m, f, alloca)[0].kind, EffectKind::Alloc);
}

#[test]
fn leaving_a_parallel_forgets_its_ivs() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let f32t = m.types.f32();
    let id = add_fn(&mut m, "k", FunctionKind::Launch, &[pg], |b, p| {
        let n = b.i32(64);
        let a = p[0];
        b.parallel(Level::Block, &[n], |b, t| {
            let q = b.ptr_index(a, t[0], f32t);
            let v = b.f32(0.0);
            b.store(q, v);
        });
    });
    let f = &m.functions[id];
    let par = ops_named(f, "parallel")[0];
    let store = ops_named(f, "store")[0];
    let inside = op_effects(&m, f, store);
    assert_eq!(
        inside[0]
            .offset
            .as_ref()
            .map(|o| o.coeff(Sym::Thread(Dim::X))),
        Some(4)
    );
    let outside = op_effects(&m, f, par);
    assert_eq!(outside.len(), 1);
    assert_eq!(outside[0].base, Base::Param(0));
    assert_eq!(outside[0].offset, None);
}

#[test]
fn call_summaries_map_params_to_arguments() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let pp = m.types.ptr(Space::Private);
    let i32t = m.types.i32();
    let f32t = m.types.f32();
    let arr = m.types.array(f32t, 8);
    // set(p, i, v) { float tmp; tmp = v; p[i] = v; }
    let set = add_fn(
        &mut m,
        "set",
        FunctionKind::Device,
        &[pg, i32t, f32t],
        |b, p| {
            let tmp = b.alloca(Space::Private, f32t);
            b.store(tmp, p[2]);
            let q = b.ptr_index(p[0], p[1], f32t);
            b.store(q, p[2]);
        },
    );
    // put(p, v) on a private pointer.
    let put = add_fn(&mut m, "put", FunctionKind::Device, &[pp, f32t], |b, p| {
        let one = b.i32(1);
        let q = b.ptr_index(p[0], one, f32t);
        b.store(q, p[1]);
    });
    let k = add_fn(&mut m, "k", FunctionKind::Kernel, &[pg], |b, p| {
        let tx = b.thread_id(Dim::X);
        let v = b.f32(1.0);
        b.call(set, vec![p[0], tx, v], &[]);
        let local = b.alloca(Space::Private, arr);
        let two = b.i32(2);
        let at = b.ptr_index(local, two, f32t);
        b.call(put, vec![at, v], &[]);
    });
    let sums = CallSummaries::compute(&m);
    let s = sums.get(set).expect("summary");
    assert_eq!(s.len(), 1, "the callee's own alloca is hidden: {s:?}");
    assert_eq!(s[0].base, Base::Param(0));

    let f = &m.functions[k];
    let fx = FunctionEffects::new(&m, f, &sums);
    let calls = ops_named(f, "call");
    let e = fx.op_effects(calls[0]);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].kind, EffectKind::Write);
    assert_eq!(e[0].op, calls[0]);
    assert_eq!(e[0].base, Base::Param(0));
    assert_eq!(e[0].space, Space::Global);
    let off = e[0]
        .offset
        .clone()
        .expect("offset rewritten with the argument");
    assert_eq!(off.coeff(Sym::Thread(Dim::X)), 4);
    assert!(crate::affine::is_thread_injective(
        &off,
        4,
        [None, Some(1), Some(1)]
    ));

    let e = fx.op_effects(calls[1]);
    let local = ops_named(f, "alloca")[0];
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].base, Base::Alloca(local));
    assert_eq!(e[0].offset, Some(crate::affine::Affine::constant(12)));
    assert_eq!(e[0].space, Space::Private);
    // Without summaries a call touches anything.
    let none = CallSummaries::none();
    let blind = FunctionEffects::new(&m, f, &none).op_effects(calls[0]);
    assert!(blind.iter().all(|e| e.base == Base::Unknown) && blind.len() == 2);
}

#[test]
fn recursive_summaries_converge() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    // even(p, q) stores to p and calls odd(q, p); odd(p, q) reads p and calls
    // even(p, q); rec(p) stores to p[1] and calls rec(p + 4).
    let even = FuncId::new(0);
    let odd = FuncId::new(1);
    add_fn(&mut m, "even", FunctionKind::Device, &[pg, pg], |b, p| {
        let one = b.i32(1);
        b.store(p[0], one);
        b.call(odd, vec![p[1], p[0]], &[]);
    });
    add_fn(&mut m, "odd", FunctionKind::Device, &[pg, pg], |b, p| {
        b.load(p[0], i32t);
        b.call(even, vec![p[0], p[1]], &[]);
    });
    let rec = FuncId::new(2);
    add_fn(&mut m, "rec", FunctionKind::Device, &[pg], |b, p| {
        let one = b.i32(1);
        let q = b.ptr_index(p[0], one, i32t);
        b.store(q, one);
        b.call(rec, vec![q], &[]);
    });
    let sums = CallSummaries::compute(&m);
    let e = sums.get(even).expect("summary");
    let has = |e: &[MemEffect], kind, base| e.iter().any(|x| x.kind == kind && x.base == base);
    // even writes p directly and, through odd -> even, writes q too; odd's
    // read of its first parameter reaches even's second.
    assert!(has(e, EffectKind::Write, Base::Param(0)));
    assert!(has(e, EffectKind::Write, Base::Param(1)));
    assert!(has(e, EffectKind::Read, Base::Param(1)));
    let o = sums.get(odd).expect("summary");
    assert!(has(o, EffectKind::Read, Base::Param(0)));
    assert!(has(o, EffectKind::Write, Base::Param(0)));
    let r = sums.get(rec).expect("summary");
    assert!(r.iter().all(|x| x.offset.is_none()));
    assert!(has(r, EffectKind::Write, Base::Param(0)));
}

/// The tree reduction of a block, with each thread also copying its input
/// to `copy`:
///
/// ```text
/// v = in[i]; copy[i] = v; sdata[tid] = v;          B1
/// for (s = 128; s > 0; s >>= 1) {
///   if (tid < s) sdata[tid] = sdata[tid] + sdata[tid + s];
///   B2
/// }
/// if (tid == 0) out[bid] = sdata[0];
/// ```
struct Reduction {
    m: Module,
    k: FuncId,
    b1: Op,
    b2: Op,
    copy_store: Op,
    own_load: Op,
    other_load: Op,
    sdata_stores: Vec<Op>,
    in_load: Op,
}

fn reduction(noalias: bool) -> Reduction {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let f32t = m.types.f32();
    let arr = m.types.array(f32t, 256);
    let sdata = m.add_global(Global::new("sdata", arr, Space::Shared));
    let k = add_fn(
        &mut m,
        "reduce",
        FunctionKind::Kernel,
        &[pg, pg, pg],
        |b, p| {
            let (input, out, copy) = (p[0], p[1], p[2]);
            let tid = b.thread_id(Dim::X);
            let bid = b.block_id(Dim::X);
            let n = b.i32(256);
            let base = b.binary(BinOp::Mul, bid, n);
            let i = b.binary(BinOp::Add, base, tid);
            let src = b.ptr_index(input, i, f32t);
            let v = b.load(src, f32t);
            let dst = b.ptr_index(copy, i, f32t);
            b.store(dst, v);
            let s = b.global_addr(sdata, Space::Shared);
            let mine = b.ptr_index(s, tid, f32t);
            b.store(mine, v);
            b.barrier();
            let half = b.i32(128);
            b.while_(
                &[half],
                |b, a| {
                    let zero = b.i32(0);
                    let c = b.cmp(CmpPred::Sgt, a[0], zero);
                    (c, vec![a[0]])
                },
                |b, a| {
                    let st = a[0];
                    let c = b.cmp(CmpPred::Slt, tid, st);
                    b.if_then(c, |b| {
                        let x = b.load(mine, f32t);
                        let j = b.binary(BinOp::Add, tid, st);
                        let theirs = b.ptr_index(s, j, f32t);
                        let y = b.load(theirs, f32t);
                        let sum = b.binary(BinOp::FAdd, x, y);
                        b.store(mine, sum);
                    });
                    b.barrier();
                    let one = b.i32(1);
                    vec![b.binary(BinOp::AShr, st, one)]
                },
            );
            let zero = b.i32(0);
            let first = b.cmp(CmpPred::Eq, tid, zero);
            b.if_then(first, |b| {
                let r = b.load(s, f32t);
                let o = b.ptr_index(out, bid, f32t);
                b.store(o, r);
            });
        },
    );
    if noalias {
        for p in &mut m.functions[k].params {
            p.noalias = true;
        }
    }
    let f = &m.functions[k];
    let barriers = ops_named(f, "barrier");
    let stores = ops_named(f, "store");
    let loads = ops_named(f, "load");
    Reduction {
        b1: barriers[0],
        b2: barriers[1],
        copy_store: stores[0],
        sdata_stores: vec![stores[1], stores[2]],
        in_load: loads[0],
        own_load: loads[1],
        other_load: loads[2],
        k,
        m,
    }
}

#[test]
fn barrier_effects_of_a_reduction() {
    let r = reduction(true);
    let f = &r.m.functions[r.k];
    let ext = [Some(256), Some(1), Some(1)];
    let (reads, writes) = barrier_effects(&r.m, f, r.b1, ext);
    let has = |v: &[MemEffect], op| v.iter().any(|e| e.op == op);
    // The injective store to `copy` is this thread's business only.
    assert!(!has(&writes, r.copy_store), "{writes:?}");
    // Input reads conflict with no write: nothing to order.
    assert!(!has(&reads, r.in_load));
    // Other threads' shared data is read through sdata[tid + s]...
    assert!(has(&reads, r.other_load), "{reads:?}");
    // ...so the injective sdata stores are ordered by the barrier as well.
    for &s in &r.sdata_stores {
        assert!(has(&writes, s));
    }
    // The per-access question: the thread's own sdata[tid] is untouched by
    // others (forwarding may see through the barrier), sdata[tid + s] is not.
    let summaries = CallSummaries::compute(&r.m);
    let fx = FunctionEffects::new(&r.m, f, &summaries);
    let window = fx.barrier_window(r.b1, ext).expect("a barrier");
    let own = effect_of(&fx.op_effects(r.own_load), r.own_load, EffectKind::Read);
    let other = effect_of(&fx.op_effects(r.other_load), r.other_load, EffectKind::Read);
    assert!(!window.conflicts_with(&own));
    assert!(window.conflicts_with(&other));

    // The loop's barrier sees the loop body on both sides.
    let (reads2, writes2) = fx.barrier_effects(r.b2, ext);
    assert!(has(&reads2, r.other_load));
    assert!(has(&writes2, r.sdata_stores[1]));

    // Without knowing the block's x extent, `copy[i]` is not injective.
    let (_, writes) = barrier_effects(&r.m, f, r.b1, [None, None, None]);
    assert!(has(&writes, r.copy_store));
}

#[test]
fn barrier_effects_respect_aliasing() {
    // Without noalias, the read of `in` may see another thread's write to
    // `out` or `copy`, so it stays.
    let r = reduction(false);
    let f = &r.m.functions[r.k];
    let (reads, writes) = barrier_effects(&r.m, f, r.b1, [Some(256), Some(1), Some(1)]);
    assert!(reads.iter().any(|e| e.op == r.in_load));
    assert!(writes.iter().any(|e| e.op == r.copy_store));
    // Not a barrier: no effects.
    let (reads, writes) = barrier_effects(&r.m, f, r.copy_store, [None; 3]);
    assert!(reads.is_empty() && writes.is_empty());
}

/// The paper's store-to-load forwarding example (section IV-B), in launch
/// form: `w[ty][tx] = h[i]; barrier; w[ty][tx] = w[ty][tx] * n[ty]`.
#[test]
fn barrier_over_own_tile_has_no_effects() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let f32t = m.types.f32();
    let row = m.types.array(f32t, 16);
    let tile = m.types.array(row, 16);
    let k = add_fn(&mut m, "fw", FunctionKind::Launch, &[pg, pg], |b, p| {
        let (h, n) = (p[0], p[1]);
        let grid = b.i32(8);
        let sixteen = b.i32(16);
        b.parallel(Level::Grid, &[grid], |b, _| {
            let w = b.alloca(Space::Shared, tile);
            b.parallel(Level::Block, &[sixteen, sixteen], |b, t| {
                let (tx, ty) = (t[0], t[1]);
                let wr = b.ptr_index(w, ty, row);
                let cell = b.ptr_index(wr, tx, f32t);
                let c16 = b.i32(16);
                let r = b.binary(BinOp::Mul, ty, c16);
                let i = b.binary(BinOp::Add, r, tx);
                let hp = b.ptr_index(h, i, f32t);
                let hv = b.load(hp, f32t);
                b.store(cell, hv);
                b.barrier();
                let x = b.load(cell, f32t);
                let np = b.ptr_index(n, ty, f32t);
                let nv = b.load(np, f32t);
                let y = b.binary(BinOp::FMul, x, nv);
                b.store(cell, y);
            });
        });
    });
    for p in &mut m.functions[k].params {
        p.noalias = true;
    }
    let f = &m.functions[k];
    let bar = ops_named(f, "barrier")[0];
    // Extents come from the block-level parallel's constant bounds.
    let (reads, writes) = barrier_effects(&m, f, bar, [None; 3]);
    assert!(reads.is_empty(), "{reads:?}");
    assert!(writes.is_empty(), "{writes:?}");
}

#[test]
fn barrier_window_in_a_loop_wraps_around() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let build = |m: &mut Module, name: &str, leading_barrier: bool| {
        add_fn(m, name, FunctionKind::Launch, &[pg, pg, pg, pg], |b, p| {
            let n = b.i32(64);
            b.parallel(Level::Block, &[n], |b, t| {
                b.load(p[0], i32t); // before the loop
                if leading_barrier {
                    b.barrier();
                }
                let z = b.i32(0);
                let four = b.i32(4);
                let one = b.i32(1);
                b.for_(z, four, one, &[], |b, _, _| {
                    b.load(p[1], i32t); // before the barrier in the body
                    b.barrier();
                    let q = b.ptr_index(p[2], t[0], i32t);
                    b.store(q, one); // after the barrier in the body
                    vec![]
                });
                b.load(p[3], i32t); // after the loop
            });
        })
    };
    let plain = build(&mut m, "plain", false);
    let fenced = build(&mut m, "fenced", true);
    let sums = CallSummaries::compute(&m);
    for (id, expect_first) in [(plain, true), (fenced, false)] {
        let f = &m.functions[id];
        let fx = FunctionEffects::new(&m, f, &sums);
        let bar = *ops_named(f, "barrier").last().expect("barrier");
        let w = fx.barrier_window(bar, [None; 3]).expect("window");
        let loads = ops_named(f, "load");
        let store = ops_named(f, "store")[0];
        let seen = |op: Op| w.accesses.iter().any(|e| e.op == op);
        assert_eq!(seen(loads[0]), expect_first);
        assert!(seen(loads[1]) && seen(store) && seen(loads[2]));
        // The store is thread-injective (64 threads, from the parallel's
        // bounds), but the parameters may alias, so other threads' loads
        // through p[0], p[1], p[3] may read it: the store stays.
        let (_, writes) = w.effects();
        assert!(writes.iter().any(|e| e.op == store));
    }
    // With noalias parameters the injective store drops out.
    for p in &mut m.functions[plain].params {
        p.noalias = true;
    }
    let f = &m.functions[plain];
    let bar = ops_named(f, "barrier")[0];
    let (reads, writes) = barrier_effects(&m, f, bar, [None; 3]);
    assert!(
        writes.is_empty() && reads.is_empty(),
        "{reads:?} {writes:?}"
    );
}

#[test]
fn private_storage_is_never_shared() {
    let mut m = Module::new();
    let i32t = m.types.i32();
    let k = add_fn(&mut m, "k", FunctionKind::Kernel, &[], |b, _| {
        let t = b.alloca(Space::Private, i32t);
        let z = b.i32(0);
        b.store(t, z);
        b.barrier();
        b.load(t, i32t);
    });
    let f = &m.functions[k];
    let bar = ops_named(f, "barrier")[0];
    let (reads, writes) = barrier_effects(&m, f, bar, [None; 3]);
    assert!(reads.is_empty() && writes.is_empty());
}

#[test]
fn cross_thread_conflicts_for_barrier_elimination() {
    let r = reduction(true);
    let f = &r.m.functions[r.k];
    let sums = CallSummaries::compute(&r.m);
    let fx = FunctionEffects::new(&r.m, f, &sums);
    let coords = crate::affine::Coords::from_extents([Some(256), Some(1), Some(1)]);
    let first_store = r.sdata_stores[0];
    let w = effect_of(&fx.op_effects(first_store), first_store, EffectKind::Write);
    let own = effect_of(&fx.op_effects(r.own_load), r.own_load, EffectKind::Read);
    let other = effect_of(&fx.op_effects(r.other_load), r.other_load, EffectKind::Read);
    // sdata[tid] then sdata[tid]: only the same thread meets itself.
    assert!(!conflicts_across_threads(f, &coords, &w, &own));
    // sdata[tid] then sdata[tid + s]: another thread's element.
    assert!(conflicts_across_threads(f, &coords, &w, &other));
    // Same thread, though, the two may alias (s is unknown).
    assert!(may_alias(&r.m, f, &w, &other));
    assert!(!conflicts_across_threads(f, &coords, &own, &other));
}
