//! Each pass alone: lowering IR in, lowering IR out (text compared with
//! inline expectations), starting from small kernels in IR text.

use super::lir::Func;
use super::*;

/// Lowers kernel `k` of `text` and applies the always-on clean-ups.
fn lir(text: &str) -> Func {
    let m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let id = m.function("k").unwrap_or_else(|| panic!("no kernel k"));
    let mut f =
        lower::lower(&m, &m.functions[id], &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    util::simplify_loops(&mut f.body);
    util::coalesce_moves(&mut f);
    f
}

fn check(f: &Func, want: &str) {
    let got = f.to_string();
    assert_eq!(got.trim(), want.trim(), "got:\n{got}");
}

const MATMUL: &str = r#"
file "mm.cu"
device @k(%x: ptr<global> noalias, %y: ptr<global> noalias, %z: ptr<global> noalias) {
  %c0 = const 0 : i32
  %c1 = const 1 : i32
  %n = const 4 : i32
  %k = const 16 : i32
  %zero = const 0.0 : f64
  for %j = %c0 to %n step %c1 {
    %p = ptr.index f64 %z, %j : ptr<global>
    store %p, %zero
    yield
  }
  for %j2 = %c0 to %n step %c1 {
    for %l = %c0 to %k step %c1 {
      %xp = ptr.index f64 %x, %l : ptr<global>
      %xv = load %xp : f64
      %yr = mul %l, %n : i32
      %yo = add %yr, %j2 : i32
      %yp = ptr.index f64 %y, %yo : ptr<global>
      %yv = load %yp : f64
      %zp = ptr.index f64 %z, %j2 : ptr<global>
      %zv = load %zp : f64
      %prod = fmul %xv, %yv : f64
      %s = fadd %zv, %prod : f64
      store %zp, %s
      yield
    }
    yield
  }
  return
}
"#;

#[test]
fn lowering_contracts_and_keeps_addresses_symbolic() {
    check(
        &lir(MATMUL),
        "
%f0 = const.d 0.0
loop i0 < 4 {
  store.d p2[8*i0], %f0
}
loop i1 < 4 {
  loop i2 < 16 {
    %f1 = load.d p0[8*i2]
    %f2 = load.d p1[8*i1 + 32*i2]
    %f3 = load.d p2[8*i1]
    %f4 = fmadd.d %f1, %f2, %f3
    store.d p2[8*i1], %f4
  }
}",
    );
}

#[test]
fn scalar_replacement_hoists_the_accumulator() {
    let mut f = lir(MATMUL);
    assert!(scalar_replace::run(&mut f));
    check(
        &f,
        "
%f0 = const.d 0.0
loop i0 < 4 {
  store.d p2[8*i0], %f0
}
loop i1 < 4 {
  %f3 = load.d p2[8*i1]
  loop i2 < 16 {
    %f1 = load.d p0[8*i2]
    %f2 = load.d p1[8*i1 + 32*i2]
    %f3 = fmadd.d %f1, %f2, %f3
  }
  store.d p2[8*i1], %f3
}",
    );
}

#[test]
fn fill_fusion_needs_the_hoisted_load() {
    let mut f = lir(MATMUL);
    assert!(
        !fill_fusion::run(&mut f),
        "nothing to fuse before scalar replacement"
    );
    scalar_replace::run(&mut f);
    assert!(fill_fusion::run(&mut f));
    check(
        &f,
        "
%f0 = const.d 0.0
loop i1 < 4 {
  %f3 = fmv.d %f0
  loop i2 < 16 {
    %f1 = load.d p0[8*i2]
    %f2 = load.d p1[8*i1 + 32*i2]
    %f3 = fmadd.d %f1, %f2, %f3
  }
  store.d p2[8*i1], %f3
}",
    );
}

#[test]
fn unroll_and_jam_interleaves_four_chains() {
    let mut f = lir(MATMUL);
    scalar_replace::run(&mut f);
    fill_fusion::run(&mut f);
    assert!(unroll_jam::run(&mut f, 4));
    check(
        &f,
        "
%f0 = const.d 0.0
%f7 = fmv.d %f0
%f10 = fmv.d %f0
%f13 = fmv.d %f0
%f16 = fmv.d %f0
loop i2 < 16 {
  %f5 = load.d p0[8*i2]
  %f6 = load.d p1[32*i2]
  %f7 = fmadd.d %f5, %f6, %f7
  %f8 = load.d p0[8*i2]
  %f9 = load.d p1[32*i2 + 8]
  %f10 = fmadd.d %f8, %f9, %f10
  %f11 = load.d p0[8*i2]
  %f12 = load.d p1[32*i2 + 16]
  %f13 = fmadd.d %f11, %f12, %f13
  %f14 = load.d p0[8*i2]
  %f15 = load.d p1[32*i2 + 24]
  %f16 = fmadd.d %f14, %f15, %f16
}
store.d p2[0], %f7
store.d p2[8], %f10
store.d p2[16], %f13
store.d p2[24], %f16",
    );
}

#[test]
fn unroll_and_jam_keeps_an_outer_loop_when_the_factor_is_smaller() {
    let mut f = lir(MATMUL);
    scalar_replace::run(&mut f);
    fill_fusion::run(&mut f);
    assert!(unroll_jam::run(&mut f, 2));
    let text = f.to_string();
    assert!(text.contains("loop i3 < 2 {"), "{text}");
    assert!(text.contains("p1[32*i2 + 16*i3 + 8]"), "{text}");
}

#[test]
fn streams_merge_dimensions_and_repeat() {
    let mut f = lir(MATMUL);
    scalar_replace::run(&mut f);
    fill_fusion::run(&mut f);
    unroll_jam::run(&mut f, 4);
    assert!(streams::run(&mut f));
    check(
        &f,
        "
%f0 = const.d 0.0
%f7 = fmv.d %f0
%f10 = fmv.d %f0
%f13 = fmv.d %f0
%f16 = fmv.d %f0
streams {
  ft0 read p0[0] [16x8] repeat 4
  ft1 read p1[0] [64x8]
  ft2 write p2[0] [4x8]
} do {
  loop i2 < 16 {
    %f7 = fmadd.d ft0, ft1, %f7
    %f10 = fmadd.d ft0, ft1, %f10
    %f13 = fmadd.d ft0, ft1, %f13
    %f16 = fmadd.d ft0, ft1, %f16
  }
  ft2 = fmv.d %f7
  ft2 = fmv.d %f10
  ft2 = fmv.d %f13
  ft2 = fmv.d %f16
}",
    );
}

#[test]
fn streams_leave_read_write_buffers_alone() {
    let mut f = lir(MATMUL);
    assert!(streams::run(&mut f));
    check(
        &f,
        "
%f0 = const.d 0.0
streams {
  ft0 write p2[0] [4x8]
} do {
  loop i0 < 4 {
    ft0 = fmv.d %f0
  }
}
streams {
  ft0 read p0[0] [16x8, 4x0]
  ft1 read p1[0] [16x32, 4x8]
} do {
  loop i1 < 4 {
    loop i2 < 16 {
      %f3 = load.d p2[8*i1]
      %f4 = fmadd.d ft0, ft1, %f3
      store.d p2[8*i1], %f4
    }
  }
}",
    );
}

#[test]
fn frep_takes_fp_only_bodies() {
    let mut f = lir(MATMUL);
    streams::run(&mut f);
    assert!(frep::run(&mut f));
    let text = f.to_string();
    // The fill's body is one move: FREP. The reduction still loads and
    // stores through the integer core: no FREP.
    assert!(text.contains("frep i0 < 4"), "{text}");
    assert!(text.contains("loop i2 < 16"), "{text}");
}

const SUM_F32: &str = r#"
file "s.cu"
device @k(%x: ptr<global> noalias, %y: ptr<global> noalias) {
  %c0 = const 0 : i32
  %c1 = const 1 : i32
  %n = const 8 : i32
  %h = const 0.5 : f32
  for %i = %c0 to %n step %c1 {
    %xp = ptr.index f32 %x, %i : ptr<global>
    %v = load %xp : f32
    %s = fadd %v, %h : f32
    %yp = ptr.index f32 %y, %i : ptr<global>
    store %yp, %s
    yield
  }
  return
}
"#;

#[test]
fn packing_halves_the_loop_and_packs_constants() {
    let mut f = lir(SUM_F32);
    assert!(pack::run(&mut f));
    check(
        &f,
        "
%f0 = const.s 0.5
%f3 = const.vs 0.5
loop i0 < 4 {
  %f1 = load.vs p0[8*i0]
  %f2 = fadd.vs %f1, %f3
  store.vs p1[8*i0], %f2
}",
    );
}

#[test]
fn packing_skips_odd_counts() {
    let mut f = lir(&SUM_F32.replace("const 8 : i32", "const 7 : i32"));
    assert!(!pack::run(&mut f));
}

/// Addresses in the reference lowering's shape: element index, then a
/// `mul` by the element size; the counter is the iteration number.
#[test]
fn materialize_and_allocate_the_baseline() {
    let mut f = lir(SUM_F32);
    materialize::run(&mut f, false).unwrap_or_else(|e| panic!("{e}"));
    let alloc = regalloc::allocate(&f).unwrap_or_else(|e| panic!("{e}"));
    // Parameters stay in a0 and a1; everything fits in a few temporaries.
    assert_eq!(alloc.x[&f.param_regs[0]], crate::isa::XReg::A0);
    assert!(
        alloc
            .x
            .values()
            .all(|r| ["t0", "t1", "t2", "t3", "a0", "a1"].contains(&r.abi_name())),
        "{alloc:?}"
    );
    check(
        &f,
        "
%f0 = const.s 0.5
%x3 = li 0
%x4 = li 8
loop i0 < 8 ctl(%x3, %x4, up) {
  %x6 = li 4
  %x5 = mul %x3, %x6
  %x7 = add %x0, %x5
  %f1 = load.s 0(%x7)
  %f2 = fadd.s %f1, %f0
  %x9 = li 4
  %x8 = mul %x3, %x9
  %x10 = add %x1, %x8
  store.s 0(%x10), %f2
}",
    );
}

#[test]
fn pass_lists_name_the_switches() {
    let o = Options::default()
        .with_passes("streams, frep")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(o.streams && o.frep && !o.scalar_replacement && !o.pack_f32);
    assert_eq!(Options::none().with_passes("all"), Ok(Options::default()));
    assert_eq!(Options::default().with_passes("none"), Ok(Options::none()));
    let err = Options::default()
        .with_passes("stream")
        .err()
        .unwrap_or_default();
    assert!(err.contains("unknown Snitch pass `stream`"), "{err}");
    for name in Options::PASS_NAMES {
        assert!(Options::none().with_passes(name).is_ok(), "{name}");
    }
    // Table 3.2 follows the reference lowering: no pointer walks.
    assert!(Options::none()
        .with_passes("strength-reduce")
        .is_ok_and(|o| o.strength_reduce));
    assert!(Options::table_3_2().iter().all(|(_, o)| !o.strength_reduce));
}

/// Strength reduction: the inner loop's accesses walk pointers (the one
/// that also depends on the outer loop starts from an address computed
/// before the inner loop; the invariant ones keep theirs), so the inner
/// counter counts down while the outer one stays the iteration number.
#[test]
fn strength_reduction_walks_pointers() {
    let mut f = lir(MATMUL);
    materialize::run(&mut f, true).unwrap_or_else(|e| panic!("{e}"));
    regalloc::allocate(&f).unwrap_or_else(|e| panic!("{e}"));
    check(
        &f,
        "
%f0 = const.d 0.0
%x4 = addi %x2, 0
%x5 = li 4
loop i0 < 4 ctl(%x5) {
  store.d 0(%x4), %f0
  %x4 = addi %x4, 8
}
%x6 = li 0
%x7 = li 4
loop i1 < 4 ctl(%x6, %x7, up) {
  %x8 = addi %x0, 0
  %x10 = li 8
  %x9 = mul %x6, %x10
  %x11 = add %x1, %x9
  %x12 = li 16
  loop i2 < 16 ctl(%x12) {
    %f1 = load.d 0(%x8)
    %f2 = load.d 0(%x11)
    %x14 = li 8
    %x13 = mul %x6, %x14
    %x15 = add %x2, %x13
    %f3 = load.d 0(%x15)
    %f4 = fmadd.d %f1, %f2, %f3
    %x17 = li 8
    %x16 = mul %x6, %x17
    %x18 = add %x2, %x16
    store.d 0(%x18), %f4
    %x8 = addi %x8, 8
    %x11 = addi %x11, 32
  }
}",
    );
}

/// Eight buffers walked in a nest: the pointers, live across the inner
/// loop next to the parameters the outer loop still needs, are more than
/// the integer pool holds, so compilation falls back to the reference
/// addresses (nothing kept across the loop) rather than failing or spilling.
#[test]
fn strength_reduction_falls_back_when_registers_run_out() {
    let mut loads = String::new();
    let mut sum = "v0".to_string();
    for b in 0..7 {
        loads += &format!(
            "      %p{b} = ptr.index f64 %b{b}, %o : ptr<global>\n      %v{b} = load %p{b} : f64\n"
        );
        if b > 0 {
            loads += &format!("      %s{b} = fadd %{sum}, %v{b} : f64\n");
            sum = format!("s{b}");
        }
    }
    let params: Vec<String> = (0..7)
        .map(|b| format!("%b{b}: ptr<global> noalias"))
        .collect();
    let text = format!(
        r#"
file "w.cu"
device @k({}, %y: ptr<global> noalias) {{
  %c0 = const 0 : i32
  %c1 = const 1 : i32
  %n = const 4 : i32
  %m = const 16 : i32
  for %i = %c0 to %n step %c1 {{
    for %j = %c0 to %m step %c1 {{
      %r = mul %i, %m : i32
      %o = add %r, %j : i32
{loads}      %yp = ptr.index f64 %y, %o : ptr<global>
      store %yp, %{sum}
      yield
    }}
    yield
  }}
  return
}}
"#,
        params.join(", ")
    );
    let m = cucc_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    let mut f = lir(&text);
    materialize::run(&mut f, true).unwrap_or_else(|e| panic!("{e}"));
    let err = regalloc::allocate(&f).err();
    assert!(
        err.as_ref().is_some_and(|e| e.class == "integer"),
        "{err:?}"
    );
    let compile = |strength_reduce| {
        let o = Options {
            strength_reduce,
            ..Options::none()
        };
        compile_with(&m, "k", &o)
            .unwrap_or_else(|e| panic!("{e}"))
            .program
    };
    assert_eq!(compile(true).insts, compile(false).insts);
}

/// Accesses of one buffer a constant apart share a pointer (the second
/// at an immediate offset); a loop counted by a parameter counts down.
#[test]
fn strength_reduction_shares_a_pointer_between_neighbours() {
    let text = r#"
file "n.cu"
device @k(%x: ptr<global> noalias, %y: ptr<global> noalias, %n: i32) {
  %c0 = const 0 : i32
  %c1 = const 1 : i32
  for %i = %c0 to %n step %c1 {
    %xp = ptr.index f64 %x, %i : ptr<global>
    %a = load %xp : f64
    %i1 = add %i, %c1 : i32
    %xq = ptr.index f64 %x, %i1 : ptr<global>
    %b = load %xq : f64
    %s = fadd %a, %b : f64
    %yp = ptr.index f64 %y, %i : ptr<global>
    store %yp, %s
    yield
  }
  return
}
"#;
    let mut f = lir(text);
    materialize::run(&mut f, true).unwrap_or_else(|e| panic!("{e}"));
    regalloc::allocate(&f).unwrap_or_else(|e| panic!("{e}"));
    check(
        &f,
        "
%x3 = addi %x0, 0
%x4 = addi %x1, 0
%x5 = addi %x2, 0
loop i0 < p2 ctl(%x5) {
  %f0 = load.d 0(%x3)
  %f1 = load.d 8(%x3)
  %f2 = fadd.d %f0, %f1
  store.d 0(%x4), %f2
  %x3 = addi %x3, 8
  %x4 = addi %x4, 8
}",
    );
}

/// A block's shared tile, its dynamic shared memory and a private array
/// of 1024 (cpuify's per-thread carrier) in launch form, one block of 4
/// threads.
const LOCALS: &str = r#"
file "l.cu"
launch @k(%x: ptr<global> noalias, %y: ptr<global> noalias) {
  %c1 = const 1 : i32
  %c3 = const 3 : i32
  %nt = const 4 : i32
  parallel<grid> (%b) in (%c1) {
    %t = alloca shared [4 x f64] : ptr<shared>
    %p = alloca private [1024 x f64] : ptr<private>
    %d = shared.dynamic : ptr<shared>
    parallel<block> (%i) in (%nt) {
      %xp = ptr.index f64 %x, %i : ptr<global>
      %v = load %xp : f64
      %tp = ptr.index f64 %t, %i : ptr<shared>
      store %tp, %v
      %pp = ptr.index f64 %p, %i : ptr<private>
      store %pp, %v
      yield
    }
    parallel<block> (%j) in (%nt) {
      %r = sub %c3, %j : i32
      %tq = ptr.index f64 %t, %r : ptr<shared>
      %a = load %tq : f64
      %pq = ptr.index f64 %p, %j : ptr<private>
      %c = load %pq : f64
      %s = fadd %a, %c : f64
      %dp = ptr.index f64 %d, %j : ptr<shared>
      store %dp, %s
      %e = load %dp : f64
      %yp = ptr.index f64 %y, %j : ptr<global>
      store %yp, %e
      yield
    }
    yield
  }
  return
}
"#;

fn lir_locals(text: &str, top: u32, dynamic: u32) -> Func {
    let m = cucc_ir::parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    let id = m.function("k").unwrap_or_else(|| panic!("no kernel k"));
    let o = Options {
        local_top: Some(top),
        dynamic_shared: dynamic,
        ..Options::default()
    };
    let mut f = lower::lower(&m, &m.functions[id], &o).unwrap_or_else(|e| panic!("{e}"));
    util::simplify_loops(&mut f.body);
    util::coalesce_moves(&mut f);
    f
}

/// Locals are buffers of their own, laid out below the top in order of
/// first use; the private array keeps only the 32 bytes its accesses
/// reach, shared memory its declared size.
#[test]
fn locals_lower_to_buffers_below_the_top() {
    let f = lir_locals(LOCALS, 0x1000_1000, 64);
    check(
        &f,
        "
local l0 = 32 bytes at 0x1000_0f80 (shared t)
local l1 = 32 bytes at 0x1000_0fa0 (private p)
local l2 = 64 bytes at 0x1000_0fc0 (dynamic shared)
loop i1 < 4 {
  %f0 = load.d p0[8*i1]
  store.d l0[8*i1], %f0
  store.d l1[8*i1], %f0
}
loop i2 < 4 {
  %f1 = load.d l0[-8*i2 + 24]
  %f2 = load.d l1[8*i2]
  %f3 = fadd.d %f1, %f2
  store.d l2[8*i2], %f3
  %f4 = load.d l2[8*i2]
  store.d p1[8*i2], %f4
}"
        .replace("_", "")
        .as_str(),
    );
}

/// A local's address is a constant: one `li` holds it with the offset's
/// constant, and pointer walks start from there.
#[test]
fn local_addresses_are_constants() {
    let mut f = lir_locals(LOCALS, 0x1000_1000, 64);
    materialize::run(&mut f, true).unwrap_or_else(|e| panic!("{e}"));
    let text = f.to_string();
    // The reversed read starts at the tile's last element.
    assert!(text.contains(&format!("li {}", 0x1000_0f80 + 24)), "{text}");
    assert!(text.contains("addi %x") && text.contains(", -8"), "{text}");
}

/// Local memory that does not fit below the top is reported, as is a
/// kernel with local memory compiled without a top.
#[test]
fn locals_need_room_and_a_top() {
    let m = cucc_ir::parse_module(LOCALS).unwrap_or_else(|e| panic!("{e}"));
    let id = m.function("k").unwrap_or_else(|| panic!("no kernel k"));
    let o = Options {
        local_top: Some(64),
        dynamic_shared: 64,
        ..Options::default()
    };
    let e = lower::lower(&m, &m.functions[id], &o).err();
    let e = e.unwrap_or_else(|| panic!("fits"));
    assert_eq!(e.construct, "local memory", "{e}");
    assert!(e.message.contains("128 bytes"), "{e}");
    let e = lower::lower(&m, &m.functions[id], &Options::default()).err();
    assert_eq!(e.map(|e| e.construct), Some("alloca".to_string()));
}

/// nvcc's rotated loop: the body before the test, a counter stepped down
/// by two to zero, another up by two. Evaluated at compile time it runs
/// 3 trips of `before; after` and `before` once more.
#[test]
fn a_while_with_a_computable_trip_count_becomes_a_counted_loop() {
    let text = r#"
file "w.cu"
device @k(%x: ptr<global> noalias) {
  %c0 = const 0 : i32
  %c2 = const 2 : i32
  %m2 = const -2 : i32
  %c8 = const 8 : i32
  %one = const 1.0 : f64
  %i, %n = while (%a = %c0, %b = %c8) -> (i32, i32) {
    %xp = ptr.index f64 %x, %a : ptr<global>
    store %xp, %one
    %a2 = add %a, %c2 : i32
    %b2 = add %b, %m2 : i32
    %go = cmp ne %b2, %c0 : i1
    condition %go, %a2, %b2
  } do (%a3: i32, %b3: i32) {
    yield %a3, %b3
  }
  %last = ptr.index f64 %x, %i : ptr<global>
  store %last, %one
  return
}
"#;
    check(
        &lir(text),
        "
%f0 = const.d 1.0
loop i0 < 3 {
  store.d p0[16*i0], %f0
}
store.d p0[48], %f0
store.d p0[64], %f0",
    );
    // A halving counter has no constant step: its four trips unroll.
    let halving = text
        .replace("%b2 = add %b, %m2 : i32", "%b2 = ashr %b, %c2 : i32")
        .replace("%c8 = const 8", "%c8 = const 64");
    check(
        &lir(&halving),
        "
%f0 = const.d 1.0
store.d p0[0], %f0
store.d p0[16], %f0
store.d p0[32], %f0
store.d p0[48], %f0
store.d p0[64], %f0",
    );
    // A counter from an argument the compiler does not know: rejected,
    // naming the loop.
    let unknown = text
        .replace(
            "device @k(%x: ptr<global> noalias)",
            "device @k(%x: ptr<global> noalias, %start: i32)",
        )
        .replace("(%a = %c0, %b = %c8)", "(%a = %c0, %b = %start)");
    let m = cucc_ir::parse_module(&unknown).unwrap_or_else(|e| panic!("{e}"));
    let id = m.function("k").unwrap_or_else(|| panic!("no kernel k"));
    let e = lower::lower(&m, &m.functions[id], &Options::default()).err();
    let e = e.unwrap_or_else(|| panic!("lowered"));
    assert_eq!(e.construct, "while", "{e}");
    assert!(e.message.contains("start is not known"), "{e}");
}

/// cpuify carries a value every thread computes alike across a barrier in
/// a per-thread integer: the store is remembered, the later load reads
/// it (here as a loop bound); a second, different value is rejected.
#[test]
fn an_integer_all_threads_store_alike_is_tracked() {
    let text = r#"
file "u.cu"
launch @k(%x: ptr<global> noalias) {
  %c1 = const 1 : i32
  %c3 = const 3 : i32
  %nt = const 4 : i32
  %one = const 1.0 : f64
  parallel<grid> (%b) in (%c1) {
    %n = alloca private i32 : ptr<private>
    parallel<block> (%i) in (%nt) {
      store %n, %c3
      yield
    }
    %m = load %n : i32
    %c0 = const 0 : i32
    for %j = %c0 to %m step %c1 {
      %xp = ptr.index f64 %x, %j : ptr<global>
      store %xp, %one
      yield
    }
    yield
  }
  return
}
"#;
    check(
        &lir_locals(text, 0x1000_1000, 0),
        "
local l0 = 8 bytes at 0x10000ff8 (private n)
%f0 = const.d 1.0
loop i2 < 3 {
  store.d p0[8*i2], %f0
}",
    );
    let twice = text.replace(
        "      store %n, %c3\n",
        "      store %n, %c3\n      store %n, %nt\n",
    );
    let m = cucc_ir::parse_module(&twice).unwrap_or_else(|e| panic!("{e}"));
    let id = m.function("k").unwrap_or_else(|| panic!("no kernel k"));
    let o = Options {
        local_top: Some(0x1000_1000),
        ..Options::default()
    };
    let e = lower::lower(&m, &m.functions[id], &o).err();
    assert_eq!(e.map(|e| e.construct), Some("integer store".to_string()));
}

/// The tile is written by one thread loop and read by the next: no region
/// around the block loop can stream it, so each thread loop gets its own,
/// streaming the tile in both.
#[test]
fn streams_go_around_thread_loops_apart_for_a_staged_tile() {
    let text = r#"
file "s.cu"
launch @k(%x: ptr<global> noalias, %y: ptr<global> noalias) {
  %c4 = const 4 : i32
  %c31 = const 31 : i32
  %nt = const 32 : i32
  parallel<grid> (%b) in (%c4) {
    %t = alloca shared [32 x f64] : ptr<shared>
    %base = mul %b, %nt : i32
    parallel<block> (%i) in (%nt) {
      %g = add %base, %i : i32
      %xp = ptr.index f64 %x, %g : ptr<global>
      %v = load %xp : f64
      %tp = ptr.index f64 %t, %i : ptr<shared>
      store %tp, %v
      yield
    }
    parallel<block> (%j) in (%nt) {
      %r = sub %c31, %j : i32
      %tq = ptr.index f64 %t, %r : ptr<shared>
      %a = load %tq : f64
      %g2 = add %base, %j : i32
      %yp = ptr.index f64 %y, %g2 : ptr<global>
      store %yp, %a
      yield
    }
    yield
  }
  return
}
"#;
    let mut f = lir_locals(text, 0x1000_1000, 0);
    assert!(streams::run(&mut f));
    check(
        &f,
        "
local l0 = 256 bytes at 0x10000f00 (shared t)
%f2 = const.d 0.0
loop i0 < 4 {
  streams {
    ft0 read p0[256*i0] [32x8]
    ft1 write l0[0] [32x8]
  } do {
    loop i1 < 32 {
      ft1 = fmv.d ft0
    }
  }
  streams {
    ft0 read l0[248] [32x-8]
    ft1 write p1[256*i0] [32x8]
  } do {
    loop i2 < 32 {
      ft1 = fmv.d ft0
    }
  }
}",
    );
}

/// `if (i < 3)` in a thread loop of 8: the loop splits at 3, the taken arm
/// runs in the first part and the empty second part is dropped; with a
/// guard that changes more than once the `if` stays rejected.
#[test]
fn a_guard_on_the_thread_index_splits_the_thread_loop() {
    let text = r#"
file "g.cu"
launch @k(%x: ptr<global> noalias) {
  %c1 = const 1 : i32
  %c3 = const 3 : i32
  %nt = const 8 : i32
  %one = const 1.0 : f64
  parallel<grid> (%b) in (%c1) {
    parallel<block> (%i) in (%nt) {
      %lt = cmp slt %i, %c3 : i1
      if %lt {
        %xp = ptr.index f64 %x, %i : ptr<global>
        store %xp, %one
        yield
      } else {
        yield
      } loc(0:4:7)
      yield
    }
    yield
  }
  return
}
"#;
    check(
        &lir(text),
        "
%f0 = const.d 1.0
loop i2 < 3 {
  store.d p0[8*i2], %f0
}",
    );
    let odd = text.replace(
        "%lt = cmp slt %i, %c3 : i1",
        "%r = and %i, %c1 : i32\n      %lt = cmp eq %r, %c1 : i1",
    );
    let m = cucc_ir::parse_module(&odd).unwrap_or_else(|e| panic!("{e}"));
    let id = m.function("k").unwrap_or_else(|| panic!("no kernel k"));
    let e = lower::lower(&m, &m.functions[id], &Options::default()).err();
    let e = e.unwrap_or_else(|| panic!("lowered"));
    assert_eq!(
        (e.construct.as_str(), e.location.as_str()),
        ("if", "g.cu:4:7")
    );
}

/// With `remat_bounds` a counting loop's constant bound is loaded at the
/// end of each iteration, so no register holds it across the loop.
#[test]
fn bounds_loaded_at_the_latch() {
    let mut f = lir(MATMUL);
    materialize::run_with(&mut f, false, true).unwrap_or_else(|e| panic!("{e}"));
    let text = f.to_string();
    // The first loop's bound (4) is the last node of its body.
    let first = text
        .split("loop i0 < 4")
        .nth(1)
        .and_then(|rest| rest.split('}').next())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(first.trim_end().ends_with("= li 4"), "{text}");
    regalloc::allocate(&f).unwrap_or_else(|e| panic!("{e}"));
}
