//! Verifier tests: two valid modules (kernel and launch form), then one
//! test per rejected invariant, each asserting the exact message.

use super::{verify_function, verify_module};
use crate::builder::Builder;
use crate::func::{Function, FunctionKind, Op, ParamAttrs, Value, ValueData, ValueDef};
use crate::loc::Loc;
use crate::module::{FuncId, Global, GlobalId, GlobalKind, Module};
use crate::ops::*;
use crate::types::{Field, FloatKind, Space, StructType, Type, TypeId};

const I1: Type = Type::Int(1);
const I32: Type = Type::Int(32);
const I64: Type = Type::Int(64);
const F32: Type = Type::Float(FloatKind::F32);
const GPTR: Type = Type::Ptr(Space::Global);

/// A module with one function `@k` whose body `f` builds; a `return` is
/// appended unless `f` already terminated the body.
fn build(
    m: &mut Module,
    kind: FunctionKind,
    params: &[Type],
    f: impl FnOnce(&mut Builder<'_>, &[Value]),
) -> FuncId {
    build_named(m, "k", kind, params, &[], f)
}

fn build_named(
    m: &mut Module,
    name: &str,
    kind: FunctionKind,
    params: &[Type],
    results: &[Type],
    f: impl FnOnce(&mut Builder<'_>, &[Value]),
) -> FuncId {
    let ptys: Vec<TypeId> = params.iter().map(|t| m.types.insert(t.clone())).collect();
    let rtys: Vec<TypeId> = results.iter().map(|t| m.types.insert(t.clone())).collect();
    let mut func = Function::new(name, kind, &ptys, &rtys);
    {
        let mut b = Builder::new(&mut m.types, &mut func);
        let ps = b.params();
        f(&mut b, &ps);
        if !b.is_terminated() {
            b.ret(vec![]);
        }
    }
    m.add_function(func)
}

/// A module with just `@k`.
fn module(
    kind: FunctionKind,
    params: &[Type],
    f: impl FnOnce(&mut Builder<'_>, &[Value]),
) -> Module {
    let mut m = Module::new();
    build(&mut m, kind, params, f);
    m
}

fn kernel(params: &[Type], f: impl FnOnce(&mut Builder<'_>, &[Value])) -> Module {
    module(FunctionKind::Kernel, params, f)
}

fn launch(params: &[Type], f: impl FnOnce(&mut Builder<'_>, &[Value])) -> Module {
    module(FunctionKind::Launch, params, f)
}

fn errors(m: &Module) -> Vec<String> {
    match verify_module(m) {
        Ok(()) => Vec::new(),
        Err(e) => e.messages(),
    }
}

/// The single error the module has.
fn only(m: &Module) -> String {
    let errs = errors(m);
    assert_eq!(errs.len(), 1, "expected exactly one error, got {errs:#?}");
    errs.into_iter().next().unwrap_or_default()
}

fn assert_valid(m: &Module) {
    let errs = errors(m);
    assert!(errs.is_empty(), "unexpected errors: {errs:#?}");
}

fn func(m: &mut Module) -> &mut Function {
    let id = m.function("k").expect("@k exists");
    &mut m.functions[id]
}

fn add_global(m: &mut Module, name: &str, ty: Type, space: Space, kind: GlobalKind) -> GlobalId {
    let ty = m.types.insert(ty);
    m.add_global(Global {
        kind,
        ..Global::new(name, ty, space)
    })
}

// ---- valid modules ----------------------------------------------------------

/// A device function `@sq(f32) -> f32`.
fn add_device(m: &mut Module) -> FuncId {
    build_named(m, "sq", FunctionKind::Device, &[F32], &[F32], |b, p| {
        let r = b.binary(BinOp::FMul, p[0], p[0]);
        b.ret(vec![r]);
    })
}

#[test]
fn valid_kernel_form() {
    let mut m = Module::new();
    let sq = add_device(&mut m);
    let f32t = m.types.f32();
    let f64t = m.types.f64();
    let i8t = m.types.i8();
    let i32t = m.types.i32();
    let i64t = m.types.i64();
    let gptr = m.types.ptr(Space::Global);
    let elems = |len| Type::Array { elem: f32t, len };
    let table = add_global(
        &mut m,
        "table",
        elems(4),
        Space::Constant,
        GlobalKind::Variable,
    );
    m.globals[table].init = Some(vec![0; 16]);
    let tile = add_global(
        &mut m,
        "tile",
        elems(32),
        Space::Shared,
        GlobalKind::Variable,
    );
    let tex = add_global(
        &mut m,
        "tex",
        F32,
        Space::Global,
        GlobalKind::Texture { dims: 2 },
    );
    let pair = m.types.c_struct("Pair", &[("a", i8t), ("b", f64t)]);
    build(
        &mut m,
        FunctionKind::Kernel,
        &[GPTR, GPTR, F32, I32],
        |b, p| {
            let (x, y, a, n) = (p[0], p[1], p[2], p[3]);
            let tx = b.thread_id(Dim::X);
            let bx = b.block_id(Dim::X);
            let bd = b.block_dim(Dim::X);
            let base = b.binary(BinOp::Mul, bx, bd);
            let i = b.binary(BinOp::Add, base, tx);
            let inb = b.cmp(CmpPred::Slt, i, n);
            b.if_then(inb, |b| {
                let f32t = b.types.f32();
                let px = b.ptr_index(x, i, f32t);
                let py = b.ptr_index(y, i, f32t);
                let vx = b.load(px, f32t);
                let vy = b.load(py, f32t);
                let ax = b.binary(BinOp::FMul, a, vx);
                let s = b.binary(BinOp::FAdd, ax, vy);
                let s = b.call(sq, vec![s], &[f32t])[0];
                let s = b.call_extern("sqrtf", vec![s], &[f32t])[0];
                b.store(py, s);
            });
            // Loops with carried values.
            let zero = b.i32(0);
            let one = b.i32(1);
            let four = b.i32(4);
            let f0 = b.f32(0.0);
            let tab = b.global_addr(table, Space::Constant);
            let sum = b.for_(zero, four, one, &[f0], |b, iv, c| {
                let f32t = b.types.f32();
                let p = b.ptr_index(tab, iv, f32t);
                let v = b.load(p, f32t);
                vec![b.binary(BinOp::FAdd, c[0], v)]
            })[0];
            let w = b.while_(
                &[zero],
                |b, args| {
                    let c = b.cmp(CmpPred::Slt, args[0], four);
                    (c, vec![args[0]])
                },
                |b, vals| vec![b.binary(BinOp::Add, vals[0], one)],
            )[0];
            let _ = w;
            // Shared memory, barriers, warp collectives.
            let sh = b.global_addr(tile, Space::Shared);
            let f32t = b.types.f32();
            let slot = b.ptr_index(sh, tx, f32t);
            b.store(slot, sum);
            b.barrier();
            let full = b.const_int(i32t, -1);
            let v = b.load(slot, f32t);
            let width = b.i32(32);
            let sh1 = b.shuffle(ShuffleMode::Down, full, v, one, width);
            let _ = b.vote(VoteKind::Ballot, full, inb);
            b.barrier_warp(full);
            let _ = b.barrier_reduce(BarrierReduceKind::Count, inb);
            // Textures, atomics, memory ops, casts.
            let h = b.op1(OpKind::TexRef(tex), vec![], i64t);
            let fx = b.cast(CastOp::SiToFp, tx, f32t);
            let texel = b.op(
                OpKind::TexFetch(TexKind::Tex2D),
                vec![h, fx, fx],
                &[f32t, f32t],
                vec![],
            );
            let _ = texel;
            let old = b.atomic_rmw(AtomicOp::FAdd, y, sh1);
            let bits = b.cast(CastOp::Bitcast, old, i32t);
            let _ = b.atomic_cas(x, bits, bits);
            let p = b.alloca(Space::Private, pair);
            let fld = b.ptr_field(p, pair, 1);
            let len = b.i64(8);
            let byte = b.const_int(i8t, 0);
            b.memset(fld, byte, len);
            b.memcpy(fld, x, len);
            b.prefetch(x, len);
            let wide = b.cast(CastOp::SExt, tx, i64t);
            let _ = b.cast(CastOp::IntToPtr, wide, gptr);
            let _ = b.op1(OpKind::Clock { wide: true }, vec![], i64t);
            b.op(
                OpKind::Printf {
                    format: "%f\n".into(),
                },
                vec![v],
                &[],
                vec![],
            );
            b.fence(MemScope::Device);
        },
    );
    assert_valid(&m);
    let k = m.function("k").expect("k");
    assert_eq!(verify_function(&m, k), Ok(()));
}

/// `launch @k(ptr<global>)`: grid > (shared alloca, block, warp > lane).
fn valid_launch_module() -> Module {
    launch(&[GPTR], |b, p| {
        let gx = b.grid_dim(Dim::X);
        let bx = b.block_dim(Dim::X);
        b.parallel(Level::Grid, &[gx], |b, _blk| {
            let f32t = b.types.f32();
            let arr = b.types.array(f32t, 256);
            let sh = b.alloca(Space::Shared, arr);
            b.parallel(Level::Block, &[bx], |b, t| {
                let slot = b.ptr_index(sh, t[0], f32t);
                let v = b.load(p[0], f32t);
                b.store(slot, v);
                b.barrier();
                let pred = b.bool(true);
                let _ = b.barrier_reduce(BarrierReduceKind::Or, pred);
                // Warp ops bind to the block's implicit warps.
                let full = b.i32(-1);
                let _ = b.vote(VoteKind::Any, full, pred);
            });
            let nw = b.i32(8);
            let ws = b.i32(32);
            b.parallel(Level::Warp, &[nw], |b, _w| {
                b.barrier();
                b.parallel(Level::Lane, &[ws], |b, lane| {
                    let full = b.i32(-1);
                    let one = b.i32(1);
                    let v = b.shuffle(ShuffleMode::Xor, full, lane[0], one, ws);
                    let _ = v;
                    b.barrier_warp(full);
                    let i32t = b.types.i32();
                    let _ = b.op1(OpKind::ActiveMask, vec![], i32t);
                });
            });
        });
    })
}

#[test]
fn valid_launch_form() {
    assert_valid(&valid_launch_module());
}

// ---- display ------------------------------------------------------------------

#[test]
fn display_has_position_function_and_mnemonic() {
    let mut m = kernel(&[F32], |b, p| {
        b.set_loc(Loc::new(0, 7, 12));
        b.binary(BinOp::Add, p[0], p[0]);
    });
    m.files.push("k.cu".into());
    assert_eq!(
        only(&m),
        "k.cu:7:12: in @k: add: operand 0 (a) has type f32, expected an integer"
    );
    let err = verify_module(&m).expect_err("invalid");
    assert_eq!(err.errors[0].function.as_deref(), Some("k"));
    assert_eq!(err.errors[0].loc, Loc::new(0, 7, 12));
    assert!(err.errors[0].op.is_some());
}

#[test]
fn nsw_only_on_integer_add_sub_mul() {
    let m = kernel(&[I32], |b, p| {
        for op in [BinOp::Add, BinOp::Sub, BinOp::Mul] {
            b.binary_flags(op, ArithFlags::NSW, p[0], p[0]);
        }
    });
    assert_valid(&m);
    let m = kernel(&[I32], |b, p| {
        b.binary_flags(BinOp::Shl, ArithFlags::NSW, p[0], p[0]);
    });
    assert_eq!(
        only(&m),
        "in @k: shl: `nsw` applies only to integer `add`, `sub` and `mul`, not `shl`"
    );
    let m = kernel(&[F32], |b, p| {
        b.binary_flags(BinOp::FAdd, ArithFlags::NSW, p[0], p[0]);
    });
    assert_eq!(
        only(&m),
        "in @k: fadd: `nsw` applies only to integer `add`, `sub` and `mul`, not `fadd`"
    );
}

// ---- handles --------------------------------------------------------------------

#[test]
fn rejects_operand_out_of_range() {
    let mut m = kernel(&[I32], |b, p| {
        b.binary(BinOp::Add, p[0], p[0]);
    });
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    f.ops[op].operands[1] = Value::new(99);
    assert_eq!(
        only(&m),
        "in @k: add: operand 1: value handle 99 is out of range (2 values)"
    );
}

#[test]
fn rejects_op_in_two_places() {
    let mut m = kernel(&[I32], |b, p| {
        b.binary(BinOp::Add, p[0], p[0]);
    });
    let f = func(&mut m);
    let body = f.body;
    let op = f.regions[body].ops[0];
    f.regions[body].ops.insert(1, op);
    assert_eq!(
        only(&m),
        "in @k: add: op 0 appears twice: at position 0 of region 0 and at position 1 of region 0"
    );
}

#[test]
fn rejects_region_with_two_owners() {
    let mut m = kernel(&[I1], |b, p| {
        b.if_then(p[0], |_| {});
        b.if_then(p[0], |_| {});
    });
    let f = func(&mut m);
    let ops = f.regions[f.body].ops.clone();
    let first_then = f.ops[ops[0]].regions[0];
    f.ops[ops[1]].regions[0] = first_then;
    // The second if's own then region is now detached: only the sharing is wrong.
    assert_eq!(
        only(&m),
        "in @k: if: region 0 (region 1) is already region 0 of op 0"
    );
}

#[test]
fn rejects_value_def_mismatch() {
    let mut m = kernel(&[I32], |b, p| {
        b.binary(BinOp::Add, p[0], p[0]);
    });
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    let r = f.ops[op].results[0];
    f.values[r].def = ValueDef::Result { op, index: 3 };
    assert_eq!(
        only(&m),
        "in @k: add: result 0: value 1 records its definition as result 3 of op 0, but appears \
         as result 0 of op 0"
    );
}

#[test]
fn rejects_global_out_of_range() {
    let m = kernel(&[], |b, _| {
        b.global_addr(GlobalId::new(4), Space::Global);
    });
    assert_eq!(
        only(&m),
        "in @k: global.addr: global handle 4 is out of range (0 globals)"
    );
}

#[test]
fn rejects_body_out_of_range_without_panicking() {
    let mut m = kernel(&[], |_, _| {});
    func(&mut m).body = crate::func::Region::new(7);
    assert_eq!(only(&m), "in @k: body region 7 is out of range (1 regions)");
}

#[test]
fn verify_function_rejects_bad_handle() {
    let m = Module::new();
    let e = verify_function(&m, FuncId::new(0)).expect_err("no such function");
    assert_eq!(
        e.to_string(),
        "function handle 0 is out of range (0 functions)"
    );
}

// ---- types ----------------------------------------------------------------------

#[test]
fn rejects_bad_int_width() {
    let mut m = kernel(&[], |_, _| {});
    m.types.insert(Type::Int(7));
    assert_eq!(
        only(&m),
        "type i7: integer width 7 is not one of 1, 8, 16, 32, 64"
    );
}

#[test]
fn rejects_misaligned_struct_field_and_duplicate_name() {
    let mut m = kernel(&[], |_, _| {});
    let i32t = m.types.i32();
    let i8t = m.types.i8();
    m.types.insert(Type::Struct(StructType {
        name: "S".into(),
        fields: vec![
            Field {
                name: "a".into(),
                ty: i8t,
                offset: 0,
            },
            Field {
                name: "b".into(),
                ty: i32t,
                offset: 2,
            },
        ],
        size: 8,
        align: 4,
    }));
    m.types.c_struct("S", &[("x", i32t)]);
    assert_eq!(
        errors(&m),
        vec![
            "type $S: field 1 (i32) at offset 2 is not aligned to 4",
            "type $S: struct name `S` is already used by type 2",
        ]
    );
}

#[test]
fn rejects_struct_size_not_multiple_of_align() {
    let mut m = kernel(&[], |_, _| {});
    let i32t = m.types.i32();
    m.types.insert(Type::Struct(StructType {
        name: "T".into(),
        fields: vec![Field {
            name: "a".into(),
            ty: i32t,
            offset: 4,
        }],
        size: 6,
        align: 4,
    }));
    assert_eq!(
        errors(&m),
        vec![
            "type $T: size 6 is not a multiple of its alignment 4",
            "type $T: field 0 (i32) at offset 4 does not fit in size 6",
        ]
    );
}

#[test]
fn rejects_forward_type_reference() {
    let mut m = Module::new();
    // An array whose element is itself: printing or sizing it would not end.
    m.types.insert(Type::Array {
        elem: TypeId::new(0),
        len: 2,
    });
    assert_eq!(
        only(&m),
        "type 0: element type refers to type 0, which is not interned before it"
    );
}

#[test]
fn rejects_non_scalar_value() {
    let mut m = Module::new();
    let i32t = m.types.i32();
    let pair = m.types.c_struct("Pair", &[("a", i32t)]);
    build(&mut m, FunctionKind::Kernel, &[GPTR], |b, p| {
        b.load(p[0], pair);
    });
    assert_eq!(
        only(&m),
        "in @k: load: result 0 has non-scalar type $Pair; SSA values are scalars"
    );
}

// ---- op shapes --------------------------------------------------------------------

#[test]
fn rejects_binary_operand_mismatch() {
    let m = kernel(&[I32, I64], |b, p| {
        b.binary(BinOp::Add, p[0], p[1]);
    });
    assert_eq!(
        only(&m),
        "in @k: add: operand 1 (b) has type i64, expected i32 (the type of operand 0)"
    );
}

#[test]
fn rejects_float_op_on_ints() {
    let m = kernel(&[I32], |b, p| {
        b.unary(UnOp::FNeg, p[0]);
    });
    assert_eq!(
        only(&m),
        "in @k: fneg: operand 0 has type i32, expected a float"
    );
}

#[test]
fn rejects_int_predicate_on_floats() {
    let m = kernel(&[F32], |b, p| {
        b.cmp(CmpPred::Slt, p[0], p[0]);
    });
    assert_eq!(
        only(&m),
        "in @k: cmp: operand 0 (a) has type f32, expected an integer or a pointer (predicate slt)"
    );
}

#[test]
fn rejects_widening_trunc() {
    let m = kernel(&[I32], |b, p| {
        let i64t = b.types.i64();
        b.cast(CastOp::Trunc, p[0], i64t);
    });
    assert_eq!(
        only(&m),
        "in @k: trunc: cannot convert i32 to i64: trunc takes an integer operand and a narrower \
         integer result"
    );
}

#[test]
fn rejects_bitcast_of_different_sizes() {
    let m = kernel(&[I64], |b, p| {
        let f32t = b.types.f32();
        b.cast(CastOp::Bitcast, p[0], f32t);
    });
    assert_eq!(
        only(&m),
        "in @k: bitcast: cannot convert i64 to f32: bitcast takes an integer and a float of the \
         same size"
    );
}

#[test]
fn rejects_select_without_i1_condition() {
    let m = kernel(&[I32], |b, p| {
        b.select(p[0], p[0], p[0]);
    });
    assert_eq!(
        only(&m),
        "in @k: select: operand 0 (cond) has type i32, expected i1"
    );
}

#[test]
fn rejects_const_that_does_not_fit() {
    let m = kernel(&[], |b, _| {
        let i8t = b.types.i8();
        b.op1(OpKind::Const { bits: 0x1ff }, vec![], i8t);
    });
    assert_eq!(only(&m), "in @k: const: value 0x1ff does not fit in i8");
}

#[test]
fn rejects_load_from_non_pointer() {
    let m = kernel(&[I64], |b, p| {
        let f32t = b.types.f32();
        b.load(p[0], f32t);
    });
    assert_eq!(
        only(&m),
        "in @k: load: operand 0 (ptr) has type i64, expected a pointer"
    );
}

#[test]
fn rejects_ptr_field_out_of_range() {
    let mut m = Module::new();
    let i32t = m.types.i32();
    let pair = m.types.c_struct("Pair", &[("a", i32t)]);
    build(&mut m, FunctionKind::Kernel, &[GPTR], |b, p| {
        b.ptr_field(p[0], pair, 1);
    });
    assert_eq!(
        only(&m),
        "in @k: ptr.field: field 1 is out of range for $Pair (1 field)"
    );
}

#[test]
fn rejects_wrong_operand_count() {
    let m = kernel(&[GPTR], |b, p| {
        b.op(OpKind::Store { volatile: false }, vec![p[0]], &[], vec![]);
    });
    assert_eq!(only(&m), "in @k: store: expected 2 operands, found 1");
}

#[test]
fn rejects_global_addr_in_wrong_space() {
    let mut m = Module::new();
    let g = add_global(&mut m, "g", I32, Space::Shared, GlobalKind::Variable);
    build(&mut m, FunctionKind::Kernel, &[], |b, _| {
        b.global_addr(g, Space::Global);
    });
    assert_eq!(
        only(&m),
        "in @k: global.addr: result 0 has type ptr<global>, expected ptr<shared>"
    );
}

#[test]
fn rejects_tex_ref_of_variable() {
    let mut m = Module::new();
    let g = add_global(&mut m, "g", I32, Space::Global, GlobalKind::Variable);
    build(&mut m, FunctionKind::Kernel, &[], |b, _| {
        let i64t = b.types.i64();
        b.op1(OpKind::TexRef(g), vec![], i64t);
    });
    assert_eq!(only(&m), "in @k: tex.ref: @g is not a texture reference");
}

#[test]
fn rejects_float_atomic_on_int() {
    let m = kernel(&[GPTR, I32], |b, p| {
        b.atomic_rmw(AtomicOp::FAdd, p[0], p[1]);
    });
    assert_eq!(
        only(&m),
        "in @k: atomic.rmw: operand 1 (value) has type i32, expected a float (atomic fadd)"
    );
}

#[test]
fn rejects_memset_with_wide_byte() {
    let m = kernel(&[GPTR, I32, I64], |b, p| {
        b.memset(p[0], p[1], p[2]);
    });
    assert_eq!(
        only(&m),
        "in @k: memset: operand 1 (byte) has type i32, expected i8"
    );
}

#[test]
fn rejects_prefetch_with_i32_length() {
    let m = kernel(&[GPTR, I32], |b, p| {
        b.prefetch(p[0], p[1]);
    });
    assert_eq!(
        only(&m),
        "in @k: prefetch: operand 1 (len) has type i32, expected i64"
    );
}

#[test]
fn rejects_shuffle_of_i16() {
    let m = kernel(&[I32, Type::Int(16)], |b, p| {
        b.shuffle(ShuffleMode::Idx, p[0], p[1], p[0], p[0]);
    });
    assert_eq!(
        only(&m),
        "in @k: shuffle: operand 1 (value) has type i16, expected a 32- or 64-bit integer or float"
    );
}

#[test]
fn rejects_tex_fetch_with_int_coords() {
    let m = kernel(&[I64, I32], |b, p| {
        let f32t = b.types.f32();
        b.op(
            OpKind::TexFetch(TexKind::Tex2D),
            vec![p[0], p[1], p[1]],
            &[f32t],
            vec![],
        );
    });
    assert_eq!(
        errors(&m),
        vec![
            "in @k: tex.fetch: operand 1 (coordinate) has type i32, expected f32",
            "in @k: tex.fetch: operand 2 (coordinate) has type i32, expected f32",
        ]
    );
}

#[test]
fn rejects_wide_thread_id() {
    let m = kernel(&[], |b, _| {
        let i64t = b.types.i64();
        b.op1(OpKind::ThreadId(Dim::Y), vec![], i64t);
    });
    assert_eq!(
        only(&m),
        "in @k: thread_id: result 0 has type i64, expected i32"
    );
}

#[test]
fn rejects_warp_barrier_without_mask() {
    let m = kernel(&[], |b, _| {
        b.op(OpKind::Barrier(BarrierScope::Warp), vec![], &[], vec![]);
    });
    assert_eq!(only(&m), "in @k: barrier: expected 1 operand, found 0");
}

// ---- regions -----------------------------------------------------------------------

#[test]
fn rejects_if_with_one_region() {
    let mut m = kernel(&[I1], |b, p| {
        b.if_then(p[0], |_| {});
    });
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    f.ops[op].regions.pop();
    assert_eq!(only(&m), "in @k: if: expected 2 regions, found 1");
}

#[test]
fn rejects_for_body_argument_type() {
    let mut m = kernel(&[I32, F32], |b, p| {
        b.for_(p[0], p[0], p[0], &[p[1]], |_, _, c| vec![c[0]]);
    });
    let i64t = m.types.i64();
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    let body = f.ops[op].regions[0];
    let iv = f.regions[body].args[0];
    f.values[iv].ty = i64t;
    assert_eq!(
        only(&m),
        "in @k: for: argument 0 of region 0 (body) has type i64, expected i32 (the iv and 1 \
         carried value)"
    );
}

#[test]
fn rejects_parallel_with_four_dims() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Grid, &[p[0], p[0], p[0], p[0]], |_, _| {});
    });
    assert_eq!(
        only(&m),
        "in @k: parallel: expected 1 to 3 operands, found 4"
    );
}

#[test]
fn rejects_while_after_arguments() {
    let mut m = kernel(&[I32], |b, p| {
        b.while_(
            &[p[0]],
            |b, a| {
                let c = b.bool(false);
                (c, vec![a[0]])
            },
            |_, v| vec![v[0]],
        );
    });
    let f32t = m.types.f32();
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    let after = f.ops[op].regions[1];
    let a = f.regions[after].args[0];
    f.values[a].ty = f32t;
    assert_eq!(
        errors(&m),
        vec![
            "in @k: while: argument 0 of region 1 (after) has type f32, expected i32 (the result \
             types)",
            "in @k: yield: operand 0 has type f32, expected i32 (the while's init types)",
        ]
    );
}

// ---- terminators ---------------------------------------------------------------------

#[test]
fn rejects_missing_terminator() {
    let mut m = kernel(&[I1], |b, p| {
        b.if_then(p[0], |_| {});
    });
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    let then_r = f.ops[op].regions[0];
    f.regions[then_r].ops.clear();
    assert_eq!(
        only(&m),
        "in @k: if: the then region of if does not end with a terminator (expected yield)"
    );
}

#[test]
fn rejects_yield_of_wrong_type() {
    let m = kernel(&[I32, F32], |b, p| {
        b.for_(p[0], p[0], p[0], &[p[1]], |_, iv, _| vec![iv]);
    });
    assert_eq!(
        only(&m),
        "in @k: yield: operand 0 has type i32, expected f32 (the for's carried types)"
    );
}

#[test]
fn rejects_condition_outside_while() {
    let m = kernel(&[I1], |b, p| {
        b.if_else(
            p[0],
            &[],
            |b| {
                b.condition(p[0], vec![]);
                vec![]
            },
            |_| vec![],
        );
    });
    assert_eq!(
        only(&m),
        "in @k: condition: cannot end the then region of if; expected yield"
    );
}

#[test]
fn rejects_terminator_in_the_middle() {
    let m = kernel(&[I32], |b, p| {
        b.ret(vec![]);
        b.binary(BinOp::Add, p[0], p[0]);
        b.ret(vec![]);
    });
    assert_eq!(
        only(&m),
        "in @k: return: a terminator must be the last op of its region"
    );
}

#[test]
fn rejects_return_of_wrong_type() {
    let mut m = Module::new();
    build_named(&mut m, "k", FunctionKind::Device, &[I32], &[F32], |b, p| {
        b.ret(vec![p[0]]);
    });
    assert_eq!(
        only(&m),
        "in @k: return: operand 0 has type i32, expected f32 (the function's result types)"
    );
}

#[test]
fn rejects_yield_values_in_parallel() {
    let m = launch(&[I32], |b, p| {
        let (_, body) = b.create_parallel(Level::Grid, &[p[0]]);
        b.set_insertion_end(body);
        b.yield_(vec![p[0]]);
        let fbody = b.func.body;
        b.set_insertion_end(fbody);
    });
    assert_eq!(
        only(&m),
        "in @k: yield: passes 1 value, expected 0 (parallel yields nothing)"
    );
}

// ---- calls ---------------------------------------------------------------------------

#[test]
fn rejects_call_to_kernel() {
    let mut m = Module::new();
    let other = build_named(&mut m, "other", FunctionKind::Kernel, &[], &[], |_, _| {});
    build(&mut m, FunctionKind::Kernel, &[], |b, _| {
        b.call(other, vec![], &[]);
    });
    assert_eq!(
        only(&m),
        "in @k: call: callee @other is a kernel function; only device functions can be called"
    );
}

#[test]
fn rejects_call_argument_type() {
    let mut m = Module::new();
    let sq = add_device(&mut m);
    build(&mut m, FunctionKind::Launch, &[I32], |b, p| {
        let f32t = b.types.f32();
        b.call(sq, vec![p[0]], &[f32t]);
    });
    assert_eq!(
        only(&m),
        "in @k: call: operand 0 has type i32, expected f32 (parameter 0 of @sq)"
    );
}

#[test]
fn rejects_unknown_extern() {
    let m = kernel(&[], |b, _| {
        b.call_extern("system", vec![], &[]);
    });
    assert_eq!(only(&m), "in @k: call: unknown extern function `system`");
}

#[test]
fn rejects_extern_with_wrong_types() {
    let m = kernel(&[Type::Float(FloatKind::F64)], |b, p| {
        let f32t = b.types.f32();
        b.call_extern("sqrtf", vec![p[0]], &[f32t]);
    });
    assert_eq!(
        only(&m),
        "in @k: call: operand 0 has type f64, expected f32 (parameter 0 of `sqrtf`)"
    );
}

// ---- dominance -------------------------------------------------------------------------

#[test]
fn rejects_use_before_definition() {
    let mut m = kernel(&[I32], |b, p| {
        let a = b.binary(BinOp::Add, p[0], p[0]);
        b.binary(BinOp::Mul, a, a);
    });
    let f = func(&mut m);
    let body = f.body;
    f.regions[body].ops.swap(0, 1);
    assert_eq!(
        errors(&m),
        vec![
            "in @k: mul: operand 0 (value 1) is used before its definition",
            "in @k: mul: operand 1 (value 1) is used before its definition",
        ]
    );
}

#[test]
fn rejects_use_from_sibling_region() {
    let inner = std::cell::Cell::new(None);
    let m = kernel(&[I1, I32], |b, p| {
        b.if_else(
            p[0],
            &[],
            |b| {
                inner.set(Some(b.binary(BinOp::Add, p[1], p[1])));
                vec![]
            },
            |b| {
                let v = inner.get().expect("then built first");
                b.binary(BinOp::Mul, v, p[1]);
                vec![]
            },
        );
    });
    assert_eq!(
        only(&m),
        "in @k: mul: operand 0 (value 2) is defined in a region that does not enclose this use"
    );
}

#[test]
fn rejects_iv_used_outside_its_loop() {
    let mut iv_out = None;
    let m = kernel(&[I32], |b, p| {
        b.for_(p[0], p[0], p[0], &[], |_, iv, _| {
            iv_out = Some(iv);
            vec![]
        });
        let iv = iv_out.expect("loop built");
        b.binary(BinOp::Add, iv, p[0]);
    });
    assert_eq!(
        only(&m),
        "in @k: add: operand 0 (value 1) is an argument of a region that does not enclose this use"
    );
}

#[test]
fn rejects_use_of_own_result() {
    let mut m = kernel(&[I32], |b, p| {
        b.binary(BinOp::Add, p[0], p[0]);
    });
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    let r = f.ops[op].results[0];
    f.values[r].name = Some("x".into());
    f.ops[op].operands[1] = r;
    assert_eq!(
        only(&m),
        "in @k: add: operand 1 (value 1 %x) is a result of this same op"
    );
}

#[test]
fn rejects_use_of_detached_op() {
    let mut m = kernel(&[I32], |b, p| {
        b.binary(BinOp::Add, p[0], p[0]);
    });
    let i32t = m.types.i32();
    let f = func(&mut m);
    let p = f.param_values()[0];
    let detached = f.new_op(
        OpKind::Binary(BinOp::Sub, ArithFlags::NONE),
        vec![p, p],
        &[i32t],
        vec![],
        Loc::UNKNOWN,
    );
    let dv = f.result(detached);
    let op = f.regions[f.body].ops[0];
    f.ops[op].operands[0] = dv;
    assert_eq!(
        only(&m),
        "in @k: add: operand 0 (value 2) is the result of an op that is not in the function"
    );
}

// ---- functions and globals ---------------------------------------------------------------

#[test]
fn rejects_duplicate_function_names() {
    let mut m = kernel(&[], |_, _| {});
    build(&mut m, FunctionKind::Device, &[], |_, _| {});
    assert_eq!(
        only(&m),
        "in @k: function name @k is already used by function 0"
    );
}

#[test]
fn rejects_kernel_with_result() {
    let mut m = Module::new();
    build_named(&mut m, "k", FunctionKind::Kernel, &[], &[I32], |b, _| {
        let z = b.i32(0);
        b.ret(vec![z]);
    });
    assert_eq!(
        only(&m),
        "in @k: a kernel function returns nothing, found results (i32)"
    );
}

#[test]
fn rejects_byval_on_non_pointer() {
    let mut m = kernel(&[I32], |_, _| {});
    let f32t = m.types.f32();
    let arr = m.types.array(f32t, 4);
    func(&mut m).params[0].byval = Some(arr);
    assert_eq!(
        only(&m),
        "in @k: parameter 0 is byval but has type i32, expected a pointer"
    );
}

#[test]
fn rejects_param_attribute_count() {
    let mut m = kernel(&[I32], |_, _| {});
    func(&mut m).params.push(ParamAttrs::default());
    assert_eq!(
        only(&m),
        "in @k: has 2 parameter attributes but its body takes 1 argument"
    );
}

#[test]
fn rejects_global_initializer_size() {
    let mut m = Module::new();
    let g = add_global(&mut m, "g", I32, Space::Global, GlobalKind::Variable);
    m.globals[g].init = Some(vec![1, 2]);
    assert_eq!(
        only(&m),
        "global @g: initializer has 2 bytes, expected 4 (the size of i32)"
    );
}

#[test]
fn rejects_shared_global_initializer() {
    let mut m = Module::new();
    let g = add_global(&mut m, "s", I32, Space::Shared, GlobalKind::Variable);
    m.globals[g].init = Some(vec![0; 4]);
    assert_eq!(
        only(&m),
        "global @s: shared globals cannot have an initializer"
    );
}

#[test]
fn rejects_managed_outside_global_space() {
    let mut m = Module::new();
    let c = add_global(&mut m, "c", I32, Space::Constant, GlobalKind::Variable);
    m.globals[c].managed = true;
    let t = add_global(
        &mut m,
        "t",
        F32,
        Space::Global,
        GlobalKind::Texture { dims: 1 },
    );
    m.globals[t].managed = true;
    let g = add_global(&mut m, "g", I32, Space::Global, GlobalKind::Variable);
    m.globals[g].managed = true;
    assert_eq!(
        errors(&m),
        vec![
            "global @c: a managed variable lives in global space, not constant",
            "global @t: a texture reference cannot be managed",
        ]
    );
}

#[test]
fn rejects_texture_dims_and_duplicate_global_names() {
    let mut m = Module::new();
    add_global(
        &mut m,
        "t",
        F32,
        Space::Global,
        GlobalKind::Texture { dims: 4 },
    );
    add_global(&mut m, "t", I32, Space::Global, GlobalKind::Variable);
    assert_eq!(
        errors(&m),
        vec![
            "global @t: a texture reference has 1 to 3 dimensions, found 4",
            "global @t: name is already used by global 0",
        ]
    );
}

// ---- placement ----------------------------------------------------------------------------

#[test]
fn rejects_parallel_in_kernel() {
    let m = kernel(&[I32], |b, p| {
        b.parallel(Level::Block, &[p[0]], |_, _| {});
    });
    assert_eq!(
        only(&m),
        "in @k: parallel: parallel ops are only allowed in launch functions, not in a kernel \
         function"
    );
}

#[test]
fn rejects_shared_alloca_in_device_function() {
    let mut m = Module::new();
    build(&mut m, FunctionKind::Device, &[], |b, _| {
        let f32t = b.types.f32();
        b.alloca(Space::Shared, f32t);
    });
    assert_eq!(
        only(&m),
        "in @k: alloca: shared allocas are only allowed in launch functions, not in a device \
         function"
    );
}

#[test]
fn rejects_block_parallel_outside_grid() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Block, &[p[0]], |_, _| {});
    });
    assert_eq!(
        only(&m),
        "in @k: parallel: a block parallel must be inside a grid parallel"
    );
}

#[test]
fn rejects_nested_grid_parallel() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Grid, &[p[0]], |b, _| {
            b.parallel(Level::Grid, &[p[0]], |_, _| {});
        });
    });
    assert_eq!(
        only(&m),
        "in @k: parallel: a grid parallel cannot be nested in another parallel (found inside a \
         grid parallel)"
    );
}

#[test]
fn rejects_block_parallel_in_block_parallel() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Grid, &[p[0]], |b, _| {
            b.parallel(Level::Block, &[p[0]], |b, _| {
                b.parallel(Level::Warp, &[p[0]], |_, _| {});
            });
        });
    });
    assert_eq!(
        only(&m),
        "in @k: parallel: a warp parallel cannot be nested in a block parallel"
    );
}

#[test]
fn rejects_lane_parallel_outside_warp() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Grid, &[p[0]], |b, _| {
            b.parallel(Level::Block, &[p[0]], |b, _| {
                b.parallel(Level::Lane, &[p[0]], |_, _| {});
            });
        });
    });
    assert_eq!(
        only(&m),
        "in @k: parallel: a lane parallel must be directly inside a warp parallel, found inside a \
         block parallel"
    );
}

#[test]
fn rejects_block_barrier_outside_block_parallel() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Grid, &[p[0]], |b, _| {
            b.barrier();
        });
    });
    assert_eq!(
        only(&m),
        "in @k: barrier: a block barrier must be inside a block or warp parallel"
    );
}

#[test]
fn rejects_shuffle_in_warp_parallel() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Grid, &[p[0]], |b, _| {
            b.parallel(Level::Warp, &[p[0]], |b, _| {
                b.shuffle(ShuffleMode::Idx, p[0], p[0], p[0], p[0]);
            });
        });
    });
    assert_eq!(
        only(&m),
        "in @k: shuffle: a warp-level op must be inside a lane parallel (or a block parallel, \
         binding to its implicit warps)"
    );
}

#[test]
fn rejects_thread_id_in_launch() {
    let m = launch(&[], |b, _| {
        b.thread_id(Dim::X);
    });
    assert_eq!(
        only(&m),
        "in @k: thread_id: thread_id is not allowed in launch functions; read the ivs of the \
         enclosing parallels"
    );
}

#[test]
fn rejects_shared_alloca_inside_block_parallel() {
    let m = launch(&[I32], |b, p| {
        b.parallel(Level::Grid, &[p[0]], |b, _| {
            b.parallel(Level::Block, &[p[0]], |b, _| {
                let f32t = b.types.f32();
                b.alloca(Space::Shared, f32t);
            });
        });
    });
    assert_eq!(
        only(&m),
        "in @k: alloca: a shared alloca must be outside any block, warp or lane parallel, found \
         inside a block parallel"
    );
}

// ---- robustness -----------------------------------------------------------------------------

/// Corrupting any single handle of valid modules yields errors, never a panic.
#[test]
fn corrupted_handles_never_panic() {
    let base = valid_launch_module();
    let f0 = base.function("k").expect("k");
    let (nops, nvals, nregs) = {
        let f = &base.functions[f0];
        (f.ops.len(), f.values.len(), f.regions.len())
    };
    for i in 0..nops {
        for bad in [0usize, 1, 5, 1000] {
            let mut m = base.clone();
            let f = &mut m.functions[f0];
            let op = Op::new(i);
            if let Some(v) = f.ops[op].operands.first_mut() {
                *v = Value::new(bad);
            }
            if let Some(r) = f.ops[op].regions.first_mut() {
                *r = crate::func::Region::new(bad % (nregs + 2));
            }
            if let Some(v) = f.ops[op].results.first_mut() {
                *v = Value::new(bad % (nvals + 2));
            }
            let _ = verify_module(&m);
        }
    }
    for i in 0..nregs {
        let mut m = base.clone();
        let f = &mut m.functions[f0];
        let r = crate::func::Region::new(i);
        f.regions[r].ops.reverse();
        f.regions[r].args.push(Value::new(0));
        assert!(verify_module(&m).is_err());
    }
}

#[test]
fn rejects_shared_alloca_outside_grid() {
    let m = launch(&[], |b, _| {
        let f32t = b.types.f32();
        b.alloca(Space::Shared, f32t);
    });
    assert_eq!(
        only(&m),
        "in @k: alloca: a shared alloca must be inside a grid parallel (one instance per block)"
    );
}

#[test]
fn rejects_use_of_enclosing_result() {
    let mut m = kernel(&[I1, I32], |b, p| {
        let i32t = b.types.i32();
        b.if_else(p[0], &[i32t], |_| vec![p[1]], |_| vec![p[1]]);
    });
    let f = func(&mut m);
    let op = f.regions[f.body].ops[0];
    let r = f.ops[op].results[0];
    let then_r = f.ops[op].regions[0];
    let y = f.regions[then_r].ops[0];
    f.ops[y].operands[0] = r;
    assert_eq!(
        only(&m),
        "in @k: yield: operand 0 (value 2) is a result of the enclosing if op"
    );
}

#[test]
fn rejects_operand_with_bad_type_handle() {
    let mut m = kernel(&[I32], |b, p| {
        b.binary(BinOp::Add, p[0], p[0]);
    });
    let f = func(&mut m);
    let p = f.param_values()[0];
    f.values[p].ty = TypeId::new(40);
    // The parameter's own type is reported where it appears, and at each use.
    assert_eq!(
        errors(&m),
        vec![
            "in @k: argument 0 of region 0: value 0: type handle 40 is out of range (1 types)",
            "in @k: add: operand 0: value 0: type handle 40 is out of range (1 types)",
            "in @k: add: operand 1: value 0: type handle 40 is out of range (1 types)",
        ]
    );
}

/// A count `arity` rejects: one past its bound, or one short of its minimum.
fn rejected(arity: Arity) -> Option<usize> {
    match arity {
        Arity::Exact(k) | Arity::Between(_, k) => Some(k + 1),
        Arity::AtLeast(0) => None,
        Arity::AtLeast(k) => Some(k - 1),
    }
}

/// Every op of the table with a bounded operand or result count, given a
/// count the table rejects, gets an error naming the op and the count.
#[test]
fn arity_errors_name_the_op() {
    let base = crate::text::tests::everything();
    let mut checked = std::collections::BTreeSet::new();
    let mut unbounded = std::collections::BTreeSet::new();
    for (fid, f) in base.functions.iter() {
        for (_, op) in f.walk() {
            let kind = f.ops[op].kind.clone();
            let code = kind.code();
            let mut cases = Vec::new();
            if let Some(n) = rejected(kind.operand_arity()) {
                cases.push(("operand", n));
            }
            // Results can only be added: a dropped result would leave its
            // value dangling, which stops the verifier before op shapes.
            if let Some(n) = rejected(kind.result_arity()).filter(|&n| n > f.ops[op].results.len())
            {
                cases.push(("result", n));
            }
            if cases.is_empty() {
                unbounded.insert(code);
            }
            for (what, n) in cases {
                let mut m = base.clone();
                let g = &mut m.functions[fid];
                let filler = g.values.handles().next().expect("a value");
                if what == "operand" {
                    g.ops[op].operands.resize(n, filler);
                } else {
                    let ty = g.values[filler].ty;
                    while g.ops[op].results.len() < n {
                        let index = g.ops[op].results.len() as u32;
                        let v = g.values.append(ValueData {
                            ty,
                            def: ValueDef::Result { op, index },
                            name: None,
                        });
                        g.ops[op].results.push(v);
                    }
                }
                let errors = verify_module(&m).expect_err("bad count").errors;
                let hit = errors.iter().find(|e| {
                    e.op == Some(op)
                        && e.message.starts_with("expected ")
                        && e.message.contains(what)
                        && e.message.ends_with(&format!(", found {n}"))
                });
                let Some(e) = hit else {
                    panic!("{kind:?} with {n} {what}s: no count error in {errors:#?}");
                };
                assert_eq!(e.mnemonic, Some(kind.mnemonic()));
                assert!(e
                    .to_string()
                    .contains(&format!("{}: expected ", kind.mnemonic())));
                checked.insert(code);
            }
        }
    }
    // Only ops whose counts the table leaves open (checked against a
    // signature or the enclosing region instead) escape.
    let escaped: Vec<_> = unbounded.difference(&checked).collect();
    assert_eq!(escaped, [&OpCode::While, &OpCode::Call]);
    assert_eq!(checked.len() + escaped.len(), OpCode::ALL.len());
}
