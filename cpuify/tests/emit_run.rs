//! The C emitter end to end: kernels built per thread, lowered to launch
//! form, emitted, compiled by the system C compiler, loaded and run over the
//! whole grid, checked against host-computed results.

mod common;
use common::{build, differential, global_x, run, HArg};
use cucc_ir::*;
use std::ffi::c_void;

#[test]
fn vector_add_with_device_call() {
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let f32t = m.types.f32();
    // __device__ float twice_plus(float a, float b) { return a + 2*b; }
    let mut dev = Function::new("twice_plus", FunctionKind::Device, &[f32t, f32t], &[f32t]);
    {
        let mut b = Builder::new(&mut m.types, &mut dev);
        let p = b.params();
        let two = b.f32(2.0);
        let t = b.binary(BinOp::FMul, p[1], two);
        let s = b.binary(BinOp::FAdd, p[0], t);
        b.ret(vec![s]);
    }
    let dev_id = m.add_function(dev);
    let mut k = Function::new("vadd", FunctionKind::Kernel, &[g, g, g, i32t], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let (_, i) = global_x(&mut b);
        b.name(i, "i");
        let inb = b.cmp(CmpPred::Slt, i, p[3]);
        b.if_then(inb, |b| {
            let pa = b.ptr_index(p[0], i, f32t);
            let pb = b.ptr_index(p[1], i, f32t);
            let pc = b.ptr_index(p[2], i, f32t);
            let x = b.load(pa, f32t);
            let y = b.load(pb, f32t);
            let f32t = b.types.f32();
            let s = b.call(dev_id, vec![x, y], &[f32t]);
            b.store(pc, s[0]);
        });
        b.ret(vec![]);
    }
    m.add_function(k);
    {
        let a: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        differential(
            m.clone(),
            "vadd",
            [4, 1, 1],
            [256, 1, 1],
            &[
                HArg::f32s(&a),
                HArg::f32s(&a),
                HArg::f32s(&[0.0; 1000]),
                HArg::i32(1000),
            ],
            "vadd_diff",
        );
    }
    let (lib, _) = build(m, "vadd");
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let bv: Vec<f32> = (0..n).map(|i| (i * 3) as f32 * 0.5).collect();
    let mut c = vec![0f32; n];
    let (mut pa, mut pb, mut pc, mut nn) = (a.as_ptr(), bv.as_ptr(), c.as_mut_ptr(), n as i32);
    let mut args: Vec<*mut c_void> = vec![
        (&mut pa as *mut *const f32).cast(),
        (&mut pb as *mut *const f32).cast(),
        (&mut pc as *mut *mut f32).cast(),
        (&mut nn as *mut i32).cast(),
    ];
    run(&lib, "vadd", [4, 1, 1], [256, 1, 1], &mut args, 0);
    for i in 0..n {
        assert_eq!(c[i], a[i] + 2.0 * bv[i], "element {i}");
    }
}

#[test]
fn loops_atomics_and_shared_scratch() {
    // Each thread sums 0..=tid with a `for` loop, counts odd steps with a
    // `while`, keeps its partial in its own shared slot, and adds the slot
    // to a global total atomically.
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let arr = m.types.array(i32t, 64);
    let sh = m.add_global(Global::new("slots", arr, Space::Shared));
    let mut k = Function::new("loops", FunctionKind::Kernel, &[g, g], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let tid = b.thread_id(Dim::X);
        let zero = b.i32(0);
        let one = b.i32(1);
        let ub = b.binary(BinOp::Add, tid, one);
        let sum = b.for_(zero, ub, one, &[zero], |b, iv, c| {
            vec![b.binary(BinOp::Add, c[0], iv)]
        });
        // while (j < tid) { if (j & 1) odd++; j++; }
        let res = b.while_(
            &[zero, zero],
            |b, a| {
                let c = b.cmp(CmpPred::Slt, a[0], tid);
                (c, vec![a[0], a[1]])
            },
            |b, a| {
                let one = b.i32(1);
                let bit = b.binary(BinOp::And, a[0], one);
                let is_odd = b.cmp(CmpPred::Ne, bit, zero);
                let i32t = b.types.i32();
                let odd = b.if_else(
                    is_odd,
                    &[i32t],
                    |b| vec![b.binary(BinOp::Add, a[1], one)],
                    |_| vec![a[1]],
                );
                let j = b.binary(BinOp::Add, a[0], one);
                vec![j, odd[0]]
            },
        );
        let slots = b.global_addr(sh, Space::Shared);
        let slot = b.ptr_index(slots, tid, i32t);
        b.store(slot, sum[0]);
        let back = b.load(slot, i32t);
        b.atomic_rmw(AtomicOp::Add, p[0], back);
        b.atomic_rmw(AtomicOp::Add, p[1], res[1]);
        b.ret(vec![]);
    }
    m.add_function(k);
    differential(
        m.clone(),
        "loops",
        [3, 1, 1],
        [64, 1, 1],
        &[HArg::i32s(&[0]), HArg::i32s(&[0])],
        "loops_diff",
    );
    let (lib, _) = build(m, "loops");
    let mut total = 0i32;
    let mut odd = 0i32;
    let (mut pt, mut po) = (&mut total as *mut i32, &mut odd as *mut i32);
    let mut args: Vec<*mut c_void> = vec![
        (&mut pt as *mut *mut i32).cast(),
        (&mut po as *mut *mut i32).cast(),
    ];
    run(&lib, "loops", [3, 1, 1], [64, 1, 1], &mut args, 64 * 4);
    let per_block: i32 = (0..64).map(|t: i32| t * (t + 1) / 2).sum();
    let odd_per_block: i32 = (0..64).map(|t: i32| t / 2).sum();
    assert_eq!(total, 3 * per_block);
    assert_eq!(odd, 3 * odd_per_block);
}

#[test]
fn locals_in_allocas_are_promoted() {
    // int s = 0; for (i = 0; i < tid; i++) { if (i & 1) s += i; else s -= 1; }
    // int k = 0; while (k * k < tid) k++;   out[tid] = s * 1000 + k
    let mut m = Module::new();
    let g = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let mut k = Function::new("locals", FunctionKind::Kernel, &[g], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        let s = b.alloca(Space::Private, i32t);
        let kk = b.alloca(Space::Private, i32t);
        let tid = b.thread_id(Dim::X);
        let zero = b.i32(0);
        let one = b.i32(1);
        b.store(s, zero);
        b.for_(zero, tid, one, &[], |b, i, _| {
            let i32t = b.types.i32();
            let one = b.i32(1);
            let zero = b.i32(0);
            let bit = b.binary(BinOp::And, i, one);
            let odd = b.cmp(CmpPred::Ne, bit, zero);
            b.if_else(
                odd,
                &[],
                |b| {
                    let cur = b.load(s, i32t);
                    let n = b.binary(BinOp::Add, cur, i);
                    b.store(s, n);
                    vec![]
                },
                |b| {
                    let cur = b.load(s, i32t);
                    let one = b.i32(1);
                    let n = b.binary(BinOp::Sub, cur, one);
                    b.store(s, n);
                    vec![]
                },
            );
            vec![]
        });
        b.store(kk, zero);
        b.while_(
            &[],
            |b, _| {
                let i32t = b.types.i32();
                let v = b.load(kk, i32t);
                let sq = b.binary(BinOp::Mul, v, v);
                (b.cmp(CmpPred::Slt, sq, tid), vec![])
            },
            |b, _| {
                let i32t = b.types.i32();
                let v = b.load(kk, i32t);
                let one = b.i32(1);
                let n = b.binary(BinOp::Add, v, one);
                b.store(kk, n);
                vec![]
            },
        );
        let sv = b.load(s, i32t);
        let kv = b.load(kk, i32t);
        let thousand = b.i32(1000);
        let t = b.binary(BinOp::Mul, sv, thousand);
        let r = b.binary(BinOp::Add, t, kv);
        let dst = b.ptr_index(p[0], tid, i32t);
        b.store(dst, r);
        b.ret(vec![]);
    }
    m.add_function(k);
    differential(
        m.clone(),
        "locals",
        [1, 1, 1],
        [64, 1, 1],
        &[HArg::i32s(&[0; 64])],
        "locals_diff",
    );
    let (lib, lowered) = build(m, "locals");
    let f = &lowered.functions[lowered.function("locals").expect("kernel")];
    let allocas = f
        .walk()
        .into_iter()
        .filter(|&(_, op)| matches!(f.ops[op].kind, OpKind::Alloca { .. }))
        .count();
    assert_eq!(allocas, 0, "mem2reg left allocas");
    let mut out = vec![0i32; 64];
    let mut po = out.as_mut_ptr();
    let mut args: Vec<*mut c_void> = vec![(&mut po as *mut *mut i32).cast()];
    run(&lib, "locals", [1, 1, 1], [64, 1, 1], &mut args, 16);
    for (t, got) in out.iter().enumerate() {
        let t = t as i32;
        let mut s = 0;
        for i in 0..t {
            if i & 1 == 1 {
                s += i
            } else {
                s -= 1
            }
        }
        let mut k = 0;
        while k * k < t {
            k += 1;
        }
        assert_eq!(*got, s * 1000 + k, "thread {t}");
    }
}

/// Atomics on shared memory, even through generic pointers, are plain C
/// read-modify-writes (one CPU thread runs a block); global ones stay atomic.
#[test]
fn shared_atomics_through_generic_pointers_are_plain() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/ir/shared_histogram.cuir"
    );
    let text = std::fs::read_to_string(path).expect("example");
    let c = emitted_c(&text, "shared_histogram");
    // The global atomic adds remain (once per copy of a versioned loop);
    // every one of them targets the global output, none the shared bins.
    let adds: Vec<&str> = c
        .lines()
        .filter_map(|l| l.split("__atomic_fetch_add((uint32_t *)").nth(1))
        .filter_map(|rest| rest.split(',').next())
        .collect();
    assert!(adds.len() >= 2, "{c}");
    for ptr in adds {
        let def = format!("char *const {ptr} = ");
        let line = c.lines().find(|l| l.contains(&def));
        assert!(
            line.is_some_and(|l| l.contains("out_0")),
            "atomic add through `{ptr}`, not the global output: {c}"
        );
    }
    assert!(!c.contains("__atomic_compare_exchange"), "{c}");
}

/// `nsw` arithmetic: a 3-point stencil whose halo reads `in[i - 1]` and
/// `in[i + 1]` under guards (negative offsets at `i = 0`), on negative
/// data. The C writes `nsw` ops as signed arithmetic, folds the index's
/// sign extension into 64-bit arithmetic (`... - INT64_C(1)`) and counts
/// the thread loop with a signed variable; results match the interpreter
/// after every pass.
#[test]
fn nsw_stencil_signed_indices() {
    let text = r#"
kernel @halo(%in: ptr<global> noalias, %out: ptr<global> noalias, %n: i32) {
  %tid = thread_id x : i32
  %bx = block_id x : i32
  %bd = block_dim x : i32
  %base = mul nsw %bx, %bd : i32
  %i = add nsw %base, %tid : i32
  %zero = const 0 : i32
  %one = const 1 : i32
  %three = const 3 : i32
  %l = sub nsw %i, %one : i32
  %r = add nsw %i, %one : i32
  %inb = cmp slt %i, %n : i1
  if %inb {
    %pi = ptr.index i32 %in, %i : ptr<global>
    %c = load %pi : i32
    %lok = cmp sge %l, %zero : i1
    %lv = if %lok -> (i32) {
      %pl = ptr.index i32 %in, %l : ptr<global>
      %x = load %pl : i32
      yield %x
    } else {
      yield %zero
    }
    %rok = cmp slt %r, %n : i1
    %rv = if %rok -> (i32) {
      %pr = ptr.index i32 %in, %r : ptr<global>
      %y = load %pr : i32
      yield %y
    } else {
      yield %zero
    }
    %s0 = add nsw %lv, %c : i32
    %s1 = add nsw %s0, %rv : i32
    %s2 = mul nsw %s1, %three : i32
    %s3 = sub nsw %s2, %c : i32
    %po = ptr.index i32 %out, %i : ptr<global>
    store %po, %s3
    yield
  } else {
    yield
  }
  return
}
"#;
    let n = 37usize;
    let input: Vec<i32> = (0..n as i32).map(|k| 50 - 7 * k).collect();
    let args = [
        HArg::i32s(&input),
        HArg::i32s(&vec![0; n]),
        HArg::i32(n as i32),
    ];
    let m = parse_module(text).expect("parses");
    let out = differential(m, "halo", [3, 1, 1], [16, 1, 1], &args, "nsw_stencil");
    let got: Vec<i32> = out[1]
        .chunks(4)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    for (i, &g) in got.iter().enumerate() {
        let at = |k: i64| {
            if (0..n as i64).contains(&k) {
                input[k as usize]
            } else {
                0
            }
        };
        let c = at(i as i64);
        let want = (at(i as i64 - 1) + c + at(i as i64 + 1)) * 3 - c;
        assert_eq!(g, want, "out[{i}]");
    }

    let c = emitted_c(text, "halo");
    // Signed arithmetic for the nsw ops, e.g. `((int32_t)a) * ((int32_t)b)`.
    assert!(c.contains(") * ((int32_t)"), "{c}");
    // `in[i - 1]`: the index is 64-bit arithmetic on the extended operands.
    assert!(c.contains(") - INT64_C(1))"), "{c}");
    assert!(
        !c.contains("(int64_t)((int32_t)v_"),
        "an nsw index was not folded:\n{c}"
    );
    // The thread loop counts with a signed variable.
    assert!(c.contains("for (int32_t tx_"), "{c}");
}

/// A `tex1Dfetch` whose handle is a kernel parameter reads a texture view
/// resolved once in the prologue; one through a loaded handle takes the
/// general path.
#[test]
fn parameter_texture_handles_are_resolved_once() {
    let text = r#"
kernel @k(%t: i64, %hp: ptr<global>, %out: ptr<global>) {
  %i = thread_id x : i32
  %a = tex.fetch fetch1d %t, %i : i32
  %h = load %hp : i64
  %b = tex.fetch fetch1d %h, %i : i32
  %s = add %a, %b : i32
  %p = ptr.index i32 %out, %i : ptr<global>
  store %p, %s
  return
}
"#;
    let c = emitted_c(text, "k");
    assert_eq!(c.matches("= cucc_tex_view_of(launch, ").count(), 1, "{c}");
    // The thread loop may be emitted in more than one version. A view's
    // fetch is a bounds test against the view and a load into the result
    // variable itself, with the general path out of line.
    let views = c.matches("cucc_tex_fetch_cold(launch, ").count();
    assert!(views >= 1, "{c}");
    assert!(c.contains(".width, 1)) {"), "{c}");
    assert!(c.contains(".data + (uint64_t)(int64_t)(int32_t)"), "{c}");
    assert_eq!(c.matches("cucc_tex_fetch(launch, ").count(), views, "{c}");
}

/// A select choosing a value a `while` carries (what `branch-free` makes of
/// a search's `if`) is written as masks; a select feeding anything else
/// stays a ternary.
#[test]
fn carried_selects_are_masked() {
    let text = r#"
kernel @k(%tab: ptr<global>, %out: ptr<global>, %n: i32, %v: i32) {
  %tid = thread_id x : i32
  %zero = const 0 : i32
  %one = const 1 : i32
  %lo, %hi = while (%l = %zero, %h = %n) -> (i32, i32) {
    %c = cmp slt %l, %h : i1
    condition %c, %l, %h
  } do (%l2: i32, %h2: i32) {
    %s = add %l2, %h2 : i32
    %mid = lshr %s, %one : i32
    %pm = ptr.index i32 %tab, %mid : ptr<global>
    %p = load %pm : i32
    %lt = cmp slt %v, %p : i1
    %m1 = add %mid, %one : i32
    %nl = select %lt, %l2, %m1 : i32
    %nh = select %lt, %mid, %h2 : i32
    yield %nl, %nh
  }
  %big = cmp sgt %lo, %tid : i1
  %r = select %big, %lo, %tid : i32
  %po = ptr.index i32 %out, %tid : ptr<global>
  store %po, %r
  return
}
"#;
    let c = emitted_c(text, "k");
    assert_eq!(c.matches(" & -(uint32_t)").count(), 2, "{c}");
    assert!(c.contains(" ? "), "{c}");
}

/// The C of kernel `kernel` of IR text `text` after the default pipeline.
fn emitted_c(text: &str, kernel: &str) -> String {
    let mut m = parse_module(text).expect("parses");
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    cucc_cpuify::pipeline::run(
        &mut m,
        &cucc_cpuify::pipeline::Options::verifying(),
        &mut remarks,
        &mut |_, _| {},
    )
    .expect("pipeline");
    let fid = m.function(kernel).expect("kernel");
    cucc_cpuify::emit_c::emit_function(&m, fid).expect("emit").0
}

/// 64-bit indices are written unsigned (`p + idx * 4`, gcc reads the
/// unsigned evolution as affine): a row-major `(size_t)n * row + col`
/// index, and a negative one (`p[-1]` through a pointer one row in), must
/// still address what the interpreter addresses.
#[test]
fn wide_indices_unsigned_and_negative() {
    let text = r#"
kernel @rows(%a: ptr<global> noalias, %out: ptr<global> noalias, %n: i32) {
  %tx = thread_id x : i32
  %ty = thread_id y : i32
  %n64 = sext %n : i64
  %r64 = sext %ty : i64
  %c64 = sext %tx : i64
  %rb = mul %n64, %r64 : i64
  %idx = add %rb, %c64 : i64
  %p = ptr.index f32 %a, %idx : ptr<global>
  %v = load %p : f32
  %row = ptr.index f32 %a, %n64 : ptr<global>
  %m1 = const -1 : i64
  %q = ptr.index f32 %row, %m1 : ptr<global>
  %w = load %q : f32
  %s = fadd %v, %w : f32
  %o = ptr.index f32 %out, %idx : ptr<global>
  store %o, %s
  return
}
"#;
    let n = 5usize;
    let input: Vec<f32> = (0..n * 3).map(|k| k as f32 * 1.5).collect();
    let args = [
        HArg::f32s(&input),
        HArg::f32s(&vec![0.0; n * 3]),
        HArg::i32(n as i32),
    ];
    let m = parse_module(text).expect("parses");
    let out = differential(m, "rows", [1, 1, 1], [n as u32, 3, 1], &args, "wide_idx");
    let got: Vec<f32> = out[1]
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    for (k, &g) in got.iter().enumerate() {
        assert_eq!(g, input[k] + input[n - 1], "out[{k}]");
    }

    let c = emitted_c(text, "rows");
    assert!(
        c.lines()
            .filter(|l| l.contains(" * 4;"))
            .all(|l| !l.contains("(int64_t)")),
        "a 64-bit index converted to int64_t:\n{c}"
    );
}

/// Integer division never traps: by zero and `MIN / -1` the compiled C
/// gives the interpreter's (NVIDIA GPUs') values, at 8, 32 and 64 bits;
/// a constant divisor other than 0 and -1 keeps C's plain operator.
#[test]
fn division_by_zero_and_min_by_minus_one() {
    let text = r#"
kernel @k(%a: ptr<global>, %b: ptr<global>, %out: ptr<global>) {
  %tid = thread_id x : i32
  %pa = ptr.index i32 %a, %tid : ptr<global>
  %pb = ptr.index i32 %b, %tid : ptr<global>
  %x = load %pa : i32
  %y = load %pb : i32
  %q = sdiv %x, %y : i32
  %r = srem %x, %y : i32
  %uq = udiv %x, %y : i32
  %ur = urem %x, %y : i32
  %x64 = sext %x : i64
  %y64 = sext %y : i64
  %q64 = sdiv %x64, %y64 : i64
  %uq64 = urem %x64, %y64 : i64
  %qt = trunc %q64 : i32
  %ut = trunc %uq64 : i32
  %x8 = trunc %x : i8
  %y8 = trunc %y : i8
  %q8 = sdiv %x8, %y8 : i8
  %q8w = sext %q8 : i32
  %seven = const 7 : i32
  %c = sdiv %x, %seven : i32
  %s1 = xor %q, %r : i32
  %s2 = xor %uq, %ur : i32
  %s3 = xor %qt, %ut : i32
  %s4 = xor %q8w, %c : i32
  %three = const 3 : i32
  %base = mul %tid, %three : i32
  %p0 = ptr.index i32 %out, %base : ptr<global>
  store %p0, %s1
  %one = const 1 : i32
  %b1 = add %base, %one : i32
  %p1 = ptr.index i32 %out, %b1 : ptr<global>
  store %p1, %s2
  %two = const 2 : i32
  %b2 = add %base, %two : i32
  %p2 = ptr.index i32 %out, %b2 : ptr<global>
  %s5 = add %s3, %s4 : i32
  store %p2, %s5
  return
}
"#;
    let a = [7, -7, 0, i32::MIN, i32::MIN, -128, 100, -100, 5, 9];
    let b = [0, 0, 0, -1, 0, -1, 7, -3, -1, 255];
    let args = [HArg::i32s(&a), HArg::i32s(&b), HArg::i32s(&[0; 30])];
    let m = parse_module(text).expect("parses");
    let out = differential(m, "k", [1, 1, 1], [10, 1, 1], &args, "int_div");
    let got: Vec<i32> = out[2]
        .chunks(4)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    // x / 0 and x % 0 are all ones: thread 0's signed pair xors to 0.
    assert_eq!(got[0], 0);
    assert_eq!(got[1], 0);
    // INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
    assert_eq!(got[9], i32::MIN);
    let c = emitted_c(text, "k");
    assert!(c.contains("cucc_sdiv32("), "{c}");
    assert!(c.contains("cucc_urem64("), "{c}");
    assert!(c.contains(") / ((int32_t)seven_"), "{c}");
}

/// Shifts clamp as PTX's do: an amount of the width or more gives 0, or
/// the sign for `ashr`, at 8, 32 and 64 bits, in the compiled C as in the
/// interpreter. Amounts known to be below the width (a constant, `n & 31`)
/// keep C's plain shift; others are guarded.
#[test]
fn shifts_clamp_at_the_width() {
    let text = r#"
kernel @k(%a: ptr<global>, %n: ptr<global>, %out: ptr<global>) {
  %tid = thread_id x : i32
  %pa = ptr.index i32 %a, %tid : ptr<global>
  %pn = ptr.index i32 %n, %tid : ptr<global>
  %x = load %pa : i32
  %s = load %pn : i32
  %l = shl %x, %s : i32
  %r = lshr %x, %s : i32
  %ar = ashr %x, %s : i32
  %x64 = sext %x : i64
  %s64 = zext %s : i64
  %l64 = shl %x64, %s64 : i64
  %ar64 = ashr %x64, %s64 : i64
  %m = xor %l64, %ar64 : i64
  %mt = trunc %m : i32
  %hi = const 32 : i64
  %mh = lshr %m, %hi : i64
  %mht = trunc %mh : i32
  %x8 = trunc %x : i8
  %s8 = trunc %s : i8
  %a8 = ashr %x8, %s8 : i8
  %a8w = sext %a8 : i32
  %k31 = const 31 : i32
  %sm = and %s, %k31 : i32
  %w = lshr %x, %sm : i32
  %k3 = const 3 : i32
  %c = shl %x, %k3 : i32
  %s1 = xor %l, %c : i32
  %s2 = add %r, %w : i32
  %s3 = add %mt, %mht : i32
  %s4 = add %ar, %a8w : i32
  %four = const 4 : i32
  %base = mul %tid, %four : i32
  %p0 = ptr.index i32 %out, %base : ptr<global>
  store %p0, %s1
  %one = const 1 : i32
  %b1 = add %base, %one : i32
  %p1 = ptr.index i32 %out, %b1 : ptr<global>
  store %p1, %s2
  %two = const 2 : i32
  %b2 = add %base, %two : i32
  %p2 = ptr.index i32 %out, %b2 : ptr<global>
  store %p2, %s3
  %three = const 3 : i32
  %b3 = add %base, %three : i32
  %p3 = ptr.index i32 %out, %b3 : ptr<global>
  store %p3, %s4
  return
}
"#;
    let a = [-1, -8, 0x7fff_ffff, i32::MIN, 5, -5, 1, -1];
    let n = [32, 33, 64, 31, 0, 1000, -1, 8];
    let args = [HArg::i32s(&a), HArg::i32s(&n), HArg::i32s(&[0; 32])];
    let m = parse_module(text).expect("parses");
    let out = differential(m, "k", [1, 1, 1], [8, 1, 1], &args, "shift_clamp");
    let got: Vec<i32> = out[2]
        .chunks(4)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    // -1 << 32 = 0, so thread 0's first word is just -1 << 3.
    assert_eq!(got[0], -8);
    // -1 >>u 32 = 0, plus -1 >>u (32 & 31).
    assert_eq!(got[1], -1);
    // -1 >>s 32 = -1, and the i8 -1 >>s 0 = -1.
    assert_eq!(got[3], -2);
    let c = emitted_c(text, "k");
    assert!(c.contains(" < 32u ? "), "{c}");
    assert!(c.contains(" < 64u ? "), "{c}");
    assert!(c.contains(" << k3_"), "{c}");
    assert!(c.contains(" >> sm_"), "{c}");
    assert_eq!(c.matches(" < 32u ").count(), 3, "{c}");
}

/// A shift by a loop index under a small bound (a lane loop's
/// `min(n, 32)`, here a `for`) or by an index masked below the width is
/// C's plain shift; by a loop index with an unknown bound it is guarded.
#[test]
fn shift_by_bounded_loop_index_is_plain() {
    let text = r#"
kernel @k(%a: ptr<global>, %out: ptr<global>, %n: i32) {
  %tid = thread_id x : i32
  %pa = ptr.index i32 %a, %tid : ptr<global>
  %x = load %pa : i32
  %zero = const 0 : i32
  %one = const 1 : i32
  %c32 = const 32 : i32
  %lanes = umin %n, %c32 : i32
  %r = for %j = %zero to %lanes step %one iter(%acc = %zero) -> (i32) {
    %s = shl %x, %j : i32
    %t = xor %acc, %s : i32
    yield %t
  }
  %r2 = for %i = %zero to %n step %one iter(%acc2 = %r) -> (i32) {
    %u = lshr %x, %i : i32
    %w = add %acc2, %u : i32
    yield %w
  }
  %po = ptr.index i32 %out, %tid : ptr<global>
  store %po, %r2
  return
}
"#;
    let a = [-1, 5, 0x1234_5678, i32::MIN];
    let args = [HArg::i32s(&a), HArg::i32s(&[0; 4]), HArg::i32(40)];
    let m = parse_module(text).expect("parses");
    let out = differential(m, "k", [1, 1, 1], [4, 1, 1], &args, "shift_iv");
    let got: Vec<i32> = out[1]
        .chunks(4)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let want: Vec<i32> = a
        .iter()
        .map(|&x| {
            let x = x as u32;
            let r = (0..32).fold(0u32, |acc, j| acc ^ (x << j));
            (0..40).fold(r, |acc, i| acc.wrapping_add(x.checked_shr(i).unwrap_or(0))) as i32
        })
        .collect();
    assert_eq!(got, want);
    let c = emitted_c(text, "k");
    assert_eq!(c.matches(" < 32u ? ").count(), 1, "{c}");
    assert!(
        c.contains(" < 32u ? x_") && c.contains(" >> i_"),
        "the lshr is guarded:\n{c}"
    );
    assert!(
        c.contains(" << j_") && !c.contains("? x_4 << "),
        "the shl is plain:\n{c}"
    );
}
