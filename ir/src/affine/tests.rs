use super::*;
use crate::builder::Builder;
use crate::func::{Function, FunctionKind};
use crate::module::Module;
use crate::ops::{BinOp, CastOp, Dim, Level};
use crate::types::Space;

const ONE: Option<u64> = Some(1);

/// A function with a `ptr<global>` and an `i32` parameter; `body` returns
/// the value to analyse.
fn build<F>(kind: FunctionKind, body: F) -> (Module, Function, Value)
where
    F: FnOnce(&mut Builder<'_>, Value, Value) -> Value,
{
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let i32t = m.types.i32();
    let mut f = Function::new("k", kind, &[pg, i32t], &[]);
    let v = {
        let mut b = Builder::new(&mut m.types, &mut f);
        let ps = b.params();
        let v = body(&mut b, ps[0], ps[1]);
        b.ret(vec![]);
        v
    };
    (m, f, v)
}

fn f32_elem(b: &mut Builder<'_>) -> crate::types::TypeId {
    b.types.f32()
}

fn tx_term(c: i64) -> Affine {
    Affine::term(Sym::Thread(Dim::X), c)
}

#[test]
fn a_tx_is_injective_in_x_only() {
    let (m, f, p) = build(FunctionKind::Kernel, |b, a, _| {
        let tx = b.thread_id(Dim::X);
        let e = f32_elem(b);
        b.ptr_index(a, tx, e)
    });
    let (base, off) = address_of(&m, &f, p).expect("affine address");
    assert_eq!(base, Base::Param(0));
    assert_eq!(off, tx_term(4));
    assert!(is_thread_injective(&off, 4, [None, ONE, ONE]));
    assert!(is_thread_injective(&off, 4, [Some(1024), ONE, ONE]));
    // Threads differing only in y would share a[tx].
    assert!(!is_thread_injective(&off, 4, [Some(256), None, ONE]));
    assert!(!is_thread_injective(&off, 4, [Some(256), Some(2), ONE]));
    // An 8-byte access at a 4-byte stride overlaps the neighbour.
    assert!(!is_thread_injective(&off, 8, [None, ONE, ONE]));
}

#[test]
fn row_major_2d_needs_x_extent_within_row() {
    const W: i32 = 16;
    let (m, f, p) = build(FunctionKind::Kernel, |b, a, _| {
        let tx = b.thread_id(Dim::X);
        let ty = b.thread_id(Dim::Y);
        let w = b.i32(W);
        let row = b.binary(BinOp::Mul, ty, w);
        let idx = b.binary(BinOp::Add, row, tx);
        let e = f32_elem(b);
        b.ptr_index(a, idx, e)
    });
    let (_, off) = address_of(&m, &f, p).expect("affine");
    assert_eq!(off.coeff(Sym::Thread(Dim::Y)), 64);
    assert_eq!(off.coeff(Sym::Thread(Dim::X)), 4);
    assert!(is_thread_injective(&off, 4, [Some(16), Some(8), ONE]));
    assert!(is_thread_injective(&off, 4, [Some(10), None, ONE]));
    assert!(!is_thread_injective(&off, 4, [Some(17), Some(8), ONE]));
    assert!(!is_thread_injective(&off, 4, [None, Some(8), ONE]));
    assert!(!is_thread_injective(&off, 4, [Some(16), Some(8), None]));
}

#[test]
fn division_is_not_affine() {
    let (m, f, p) = build(FunctionKind::Kernel, |b, a, _| {
        let tx = b.thread_id(Dim::X);
        let two = b.i32(2);
        let half = b.binary(BinOp::UDiv, tx, two);
        let e = f32_elem(b);
        b.ptr_index(a, half, e)
    });
    let an = AffineAnalysis::new(&m, &f);
    assert_eq!(an.address_of(p), None);
    assert_eq!(an.pointer(p).base, Base::Param(0));
    let idx = f.ops[f.defining_op(p).expect("op")].operands[1];
    assert_eq!(an.affine_of(idx), None);
}

#[test]
fn same_element_for_all_threads_is_not_injective() {
    let (m, f, p) = build(FunctionKind::Kernel, |b, a, _| {
        let z = b.i32(0);
        let e = f32_elem(b);
        b.ptr_index(a, z, e)
    });
    let (_, off) = address_of(&m, &f, p).expect("affine");
    assert_eq!(off, Affine::constant(0));
    assert!(!is_thread_injective(&off, 4, [Some(2), ONE, ONE]));
    assert!(!is_thread_injective(&off, 4, [None, None, None]));
    assert!(is_thread_injective(&off, 4, [ONE, ONE, ONE]));
}

#[test]
fn fixed_values_become_opaque_terms() {
    let (m, f, p) = build(FunctionKind::Kernel, |b, a, n| {
        // a[blockIdx.x * blockDim.x + threadIdx.x + n]
        let bx = b.block_id(Dim::X);
        let bd = b.block_dim(Dim::X);
        let base = b.binary(BinOp::Mul, bx, bd);
        let tx = b.thread_id(Dim::X);
        let i = b.binary(BinOp::Add, base, tx);
        let i = b.binary(BinOp::Add, i, n);
        let e = f32_elem(b);
        b.ptr_index(a, i, e)
    });
    let an = AffineAnalysis::new(&m, &f);
    let (_, off) = an.address_of(p).expect("affine");
    assert_eq!(off.coeff(Sym::Thread(Dim::X)), 4);
    let opaque: Vec<Sym> = off
        .terms
        .keys()
        .copied()
        .filter(|s| matches!(s, Sym::Value(_)))
        .collect();
    assert_eq!(opaque.len(), 2, "{off}");
    assert!(is_thread_injective(&off, 4, [None, ONE, ONE]));
}

#[test]
fn loop_values_and_products_of_thread_values_are_unknown() {
    // tx * tx: not affine.
    let (m, f, v) = build(FunctionKind::Kernel, |b, _, _| {
        let tx = b.thread_id(Dim::X);
        b.binary(BinOp::Mul, tx, tx)
    });
    assert_eq!(affine_of(&m, &f, v), None);
    // A for iv is not known fixed, so it is neither a term nor a value.
    let (m, f, v) = build(FunctionKind::Kernel, |b, _, n| {
        let z = b.i32(0);
        let one = b.i32(1);
        let mut iv = None;
        b.for_(z, n, one, &[], |_, i, _| {
            iv = Some(i);
            vec![]
        });
        iv.expect("iv")
    });
    let an = AffineAnalysis::new(&m, &f);
    assert!(!an.is_fixed(v));
    assert_eq!(an.affine_of(v), None);
    // A load is not fixed either.
    let (m, f, v) = build(FunctionKind::Kernel, |b, a, _| {
        let i32t = b.types.i32();
        b.load(a, i32t)
    });
    assert_eq!(affine_of(&m, &f, v), None);
}

#[test]
fn shifts_and_extensions() {
    let (m, f, v) = build(FunctionKind::Kernel, |b, _, _| {
        let tx = b.thread_id(Dim::X);
        let two = b.i32(2);
        let sh = b.binary(BinOp::Shl, tx, two);
        let minus1 = b.i32(-1);
        let s = b.binary(BinOp::Add, sh, minus1);
        let i64t = b.types.i64();
        let w = b.cast(CastOp::SExt, s, i64t);
        let y = b.thread_id(Dim::Y);
        let yz = b.cast(CastOp::ZExt, y, i64t);
        let d = b.binary(BinOp::Sub, w, yz);
        let i16t = b.types.i16();
        b.cast(CastOp::Trunc, d, i16t)
    });
    let a = affine_of(&m, &f, v).expect("affine");
    assert_eq!(a.constant, -1);
    assert_eq!(a.coeff(Sym::Thread(Dim::X)), 4);
    assert_eq!(a.coeff(Sym::Thread(Dim::Y)), -1);
    // Constants are read as signed values of their width; truncation of a
    // constant folds exactly.
    let (m, f, v) = build(FunctionKind::Kernel, |b, _, _| {
        let big = b.i64(0x1_0000_0005);
        let i32t = b.types.i32();
        b.cast(CastOp::Trunc, big, i32t)
    });
    assert_eq!(affine_of(&m, &f, v), Some(Affine::constant(5)));
}

#[test]
fn overflow_gives_none() {
    let (m, f, v) = build(FunctionKind::Kernel, |b, _, _| {
        let tx = b.thread_id(Dim::X);
        let i64t = b.types.i64();
        let t = b.cast(CastOp::SExt, tx, i64t);
        let big = b.i64(i64::MAX);
        let p = b.binary(BinOp::Mul, t, big);
        b.binary(BinOp::Mul, p, big)
    });
    assert_eq!(affine_of(&m, &f, v), None);
}

#[test]
fn launch_form_ivs_map_to_coordinates() {
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let f32t = m.types.f32();
    let mut f = Function::new("k", FunctionKind::Launch, &[pg], &[]);
    let mut ptr = None;
    {
        let mut b = Builder::new(&mut m.types, &mut f);
        let a = b.params()[0];
        let gx = b.i32(100);
        let bx = b.i32(16);
        let by = b.i32(4);
        b.parallel(Level::Grid, &[gx], |b, g| {
            b.parallel(Level::Block, &[bx, by], |b, t| {
                let row = b.i32(16);
                let r = b.binary(BinOp::Mul, t[1], row);
                let i = b.binary(BinOp::Add, r, t[0]);
                let blk = b.i32(64);
                let o = b.binary(BinOp::Mul, g[0], blk);
                let i = b.binary(BinOp::Add, i, o);
                ptr = Some(b.ptr_index(a, i, f32t));
            });
        });
        b.ret(vec![]);
    }
    let p = ptr.expect("built");
    let (base, off) = address_of(&m, &f, p).expect("affine");
    assert_eq!(base, Base::Param(0));
    assert_eq!(off.coeff(Sym::Thread(Dim::X)), 4);
    assert_eq!(off.coeff(Sym::Thread(Dim::Y)), 64);
    assert_eq!(off.coeff(Sym::Block(Dim::X)), 256);
    assert!(is_thread_injective(&off, 4, [Some(16), Some(4), ONE]));
}

#[test]
fn warp_and_lane_act_as_a_linear_thread_id() {
    let lin = Affine::term(Sym::Warp, 128)
        .checked_add(&Affine::term(Sym::Lane, 4))
        .expect("no overflow");
    assert!(is_thread_injective(&lin, 4, [Some(64), ONE, ONE]));
    // Lane alone names a thread only if the block has one warp.
    let lane = Affine::term(Sym::Lane, 4);
    assert!(!is_thread_injective(&lane, 4, [Some(64), ONE, ONE]));
    assert!(is_thread_injective(&lane, 4, [Some(32), ONE, ONE]));
    assert!(!is_thread_injective(&lane, 4, [None, ONE, ONE]));
    // A warp stride smaller than a warp's span overlaps.
    let bad = Affine::term(Sym::Warp, 64)
        .checked_add(&Affine::term(Sym::Lane, 4))
        .expect("no overflow");
    assert!(!is_thread_injective(&bad, 4, [Some(64), ONE, ONE]));
}

#[test]
fn pairs_of_accesses_across_threads() {
    let c = Coords::from_extents([Some(64), ONE, ONE]);
    let a = tx_term(4);
    let next = a.checked_add_constant(4).expect("no overflow");
    // Thread t reads a[t + 1], which thread t + 1 writes.
    assert!(!thread_disjoint(&a, 4, &next, 4, &c));
    // Interleaved halves of 8-byte slots never meet across threads.
    let wide = tx_term(8);
    let hi = wide.checked_add_constant(4).expect("no overflow");
    assert!(thread_disjoint(&wide, 4, &hi, 4, &c));
    // The same pair overlaps within one thread, which does not matter here.
    assert!(thread_disjoint(&wide, 8, &hi, 4, &c));
    // Reading 8 bytes from the upper half reaches the next thread's slot.
    assert!(!thread_disjoint(&hi, 8, &wide, 4, &c));
    // Different opaque terms cannot be compared.
    let v = Affine::term(Sym::Block(Dim::X), 4);
    let shifted = a.checked_add(&v).expect("no overflow");
    assert!(!thread_disjoint(&a, 4, &shifted, 4, &c));
    assert!(thread_disjoint(&shifted, 4, &shifted, 4, &c));
}

#[test]
fn accesses_with_different_thread_coefficients_apart_over_all_threads() {
    // `s[0][0]` (any thread, as far as the address says) and
    // `s[tx + 1][0]` of an `int s[17][17]`: never the same bytes, whatever
    // the block's size.
    let unknown = Coords::from_extents([None, None, None]);
    let corner = Affine::constant(0);
    let edge = tx_term(68).checked_add_constant(68).expect("no overflow");
    assert!(thread_disjoint(&corner, 4, &edge, 4, &unknown));
    assert!(thread_disjoint(&edge, 4, &corner, 4, &unknown));
    // `s[0][tx + 1]` against the corner: the first row's next element.
    let top = tx_term(4).checked_add_constant(4).expect("no overflow");
    assert!(thread_disjoint(&corner, 4, &top, 4, &unknown));
    // An 8-byte corner reaches `s[0][1]`, thread 0's element.
    assert!(!thread_disjoint(&corner, 8, &top, 4, &unknown));
    // The edge and the top row meet (`s[1][0]` is `s[0][17]`) once the block
    // has 17 threads; with 16 they cannot.
    assert!(!thread_disjoint(&edge, 4, &top, 4, &unknown));
    let sixteen = Coords::from_extents([Some(16), ONE, ONE]);
    assert!(thread_disjoint(&edge, 4, &top, 4, &sixteen));
    // Other dimensions range too: `s[ty][0]` against the corner is not apart.
    let ty = Affine::term(Sym::Thread(Dim::Y), 68);
    assert!(!thread_disjoint(&corner, 4, &ty, 4, &unknown));
    // Opaque terms must agree.
    let opaque = edge
        .checked_add(&Affine::term(Sym::Block(Dim::X), 4))
        .expect("no overflow");
    assert!(!thread_disjoint(&corner, 4, &opaque, 4, &unknown));
}

#[test]
fn thread_values_times_a_fixed_value_are_products() {
    // a[(blockIdx.y * 16 + threadIdx.y) * n + threadIdx.x]
    let (m, f, p) = build(FunctionKind::Kernel, |b, a, n| {
        let by = b.block_id(Dim::Y);
        let sixteen = b.i32(16);
        let row = b.binary(BinOp::Mul, by, sixteen);
        let ty = b.thread_id(Dim::Y);
        let row = b.binary(BinOp::Add, row, ty);
        let row = b.binary(BinOp::Mul, row, n);
        let tx = b.thread_id(Dim::X);
        let i = b.binary(BinOp::Add, row, tx);
        let e = f32_elem(b);
        b.ptr_index(a, i, e)
    });
    let n = f.param_values()[1];
    let (_, off) = address_of(&m, &f, p).expect("affine");
    assert_eq!(off.coeff(Sym::Product(Factor::Thread(Dim::Y), n)), 4);
    assert_eq!(off.coeff(Sym::Product(Factor::Block(Dim::Y), n)), 64);
    assert_eq!(off.coeff(Sym::Thread(Dim::X)), 4);
    assert!(off.varies_by_thread());
    // The run-time coefficient hides the gap between rows.
    assert!(!is_thread_injective(&off, 4, [Some(16), Some(16), ONE]));
    // With one row the product term is the same (0) in every thread.
    assert!(is_thread_injective(&off, 4, [Some(16), ONE, ONE]));
    assert!(is_thread_injective(&off, 4, [None, ONE, ONE]));
    // (n - 1) * tx: the constant part of the fixed factor scales the sum.
    let (m, f, v) = build(FunctionKind::Kernel, |b, _, n| {
        let one = b.i32(1);
        let nm1 = b.binary(BinOp::Sub, n, one);
        let tx = b.thread_id(Dim::X);
        b.binary(BinOp::Mul, nm1, tx)
    });
    let n = f.param_values()[1];
    let a = affine_of(&m, &f, v).expect("affine");
    assert_eq!(a.coeff(Sym::Product(Factor::Thread(Dim::X), n)), 1);
    assert_eq!(a.coeff(Sym::Thread(Dim::X)), -1);
    // A product of fixed values stays one opaque value.
    let (m, f, v) = build(FunctionKind::Kernel, |b, _, n| {
        let bx = b.block_id(Dim::X);
        b.binary(BinOp::Mul, bx, n)
    });
    assert_eq!(affine_of(&m, &f, v), Some(Affine::sym(Sym::Value(v))));
}

#[test]
fn one_stride_separates_accesses_between_threads_exactly() {
    let coords = Coords::from_extents([Some(16), Some(1), Some(1)]);
    let at = |k: i64, c: i64| tx_term(c).checked_add(&Affine::constant(k)).unwrap();
    // An anti-diagonal of a 17-wide int tile: s[m - tx + 1][tx + 1]
    // (byte 72 - 64 tx) written, s[m - tx][tx] (byte -64 tx) read.
    assert!(thread_disjoint(&at(72, -64), 4, &at(0, -64), 4, &coords));
    assert!(thread_disjoint(&at(72, -64), 4, &at(68, -64), 4, &coords));
    assert!(thread_disjoint(&at(72, -64), 4, &at(4, -64), 4, &coords));
    // 64 bytes apart: thread t + 1 reads what t writes.
    assert!(!thread_disjoint(&at(64, -64), 4, &at(0, -64), 4, &coords));
    // a[t] and a[t + 1] meet; a[t] and a[t + 16] only with 17+ threads.
    assert!(!thread_disjoint(&at(0, 4), 4, &at(4, 4), 4, &coords));
    assert!(thread_disjoint(&at(0, 4), 4, &at(64, 4), 4, &coords));
    let wide = Coords::from_extents([Some(17), Some(1), Some(1)]);
    assert!(!thread_disjoint(&at(0, 4), 4, &at(64, 4), 4, &wide));
    // Unknown extent: any distance that is a multiple of the stride meets.
    let any = Coords::from_extents([None, Some(1), Some(1)]);
    assert!(!thread_disjoint(&at(0, 4), 4, &at(64, 4), 4, &any));
    assert!(thread_disjoint(&at(0, 8), 4, &at(4, 8), 4, &any));
    // A second dimension that may vary without a coefficient: threads
    // with equal x share addresses.
    let two_d = Coords::from_extents([Some(16), None, Some(1)]);
    assert!(!thread_disjoint(&at(72, -64), 4, &at(0, -64), 4, &two_d));
    // Wider accesses than the gap between them.
    assert!(thread_disjoint(&at(0, 8), 12, &at(4, 8), 4, &any));
    assert!(!thread_disjoint(&at(0, 8), 13, &at(4, 8), 4, &any));
}

#[test]
fn a_scoped_analysis_takes_values_from_outside_the_scope_as_fixed() {
    // for m { parallel<block> tx { p = a + 4 * (17 * m - 16 * tx) } }
    let mut m = Module::new();
    let pg = m.types.ptr(Space::Global);
    let f32t = m.types.f32();
    let mut f = Function::new("k", FunctionKind::Launch, &[pg], &[]);
    let (mut ptr, mut par, mut iv) = (None, None, None);
    {
        let mut b = Builder::new(&mut m.types, &mut f);
        let a = b.params()[0];
        let zero = b.i32(0);
        let n = b.i32(16);
        let one = b.i32(1);
        let bx = b.i32(16);
        b.for_(zero, n, one, &[], |b, mv, _| {
            iv = Some(mv);
            par = Some(b.parallel(Level::Block, &[bx], |b, t| {
                let c17 = b.i32(17);
                let c16 = b.i32(16);
                let r = b.binary(BinOp::Mul, mv, c17);
                let s = b.binary(BinOp::Mul, t[0], c16);
                let i = b.binary(BinOp::Sub, r, s);
                ptr = Some(b.ptr_index(a, i, f32t));
            }));
            vec![]
        });
        b.ret(vec![]);
    }
    let (p, par, iv) = (ptr.expect("ptr"), par.expect("parallel"), iv.expect("iv"));
    // Function-wide, the loop counter varies: no affine address.
    assert_eq!(address_of(&m, &f, p), None);
    // Within one execution of the thread loop it is a fixed term.
    let an = AffineAnalysis::within(&m, &f, par);
    assert!(an.is_fixed(iv));
    let (base, off) = an.address_of(p).expect("affine within the loop");
    assert_eq!(base, Base::Param(0));
    assert_eq!(off.coeff(Sym::Thread(Dim::X)), -64);
    assert_eq!(off.coeff(Sym::Value(iv)), 68);
    // The loop's own ivs still vary inside it.
    let inner = AffineAnalysis::within(&m, &f, par);
    let tx = f.regions[f.ops[par].regions[0]].args[0];
    assert!(!inner.is_fixed(tx));
}
