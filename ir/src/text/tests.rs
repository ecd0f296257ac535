//! Round-trip, coverage, error and robustness tests of the text format.

use super::*;
use crate::builder::Builder;
use crate::func::{Function, FunctionKind, ParamAttrs};
use crate::loc::Loc;
use crate::module::{FuncId, Global, GlobalKind, Module};
use crate::ops::*;
use crate::types::{Field, Space, StructType, Type};
use std::collections::BTreeSet;

/// A module exercising every op kind, every attribute value, odd names,
/// locations, struct layouts and globals of every kind.
pub(crate) fn everything() -> Module {
    let mut m = Module::new();
    m.file_id("vadd.cu");
    m.file_id("dir/odd \"name\".cuh");
    let f32t = m.types.f32();
    let i32t = m.types.i32();
    let i64t = m.types.i64();
    let i8t = m.types.i8();
    let i16t = m.types.i16();
    let f64t = m.types.f64();
    let f16t = m.types.f16();
    let bf16t = m.types.bf16();
    let pg = m.types.ptr(Space::Global);
    let pp = m.types.ptr(Space::Private);
    let point = m.types.c_struct("Point", &[("x", f32t), ("y", f32t)]);
    let arr = m.types.array(point, 4);
    let odd = m.types.insert(Type::Struct(StructType {
        name: "ns::Pair<int>".into(),
        fields: vec![
            Field {
                name: String::new(),
                ty: arr,
                offset: 0,
            },
            Field {
                name: "second".into(),
                ty: i64t,
                offset: 32,
            },
        ],
        size: 40,
        align: 8,
    }));
    let tile_ty = m.types.array(f32t, 256);
    let tile = m.add_global(Global {
        loc: Loc::new(0, 2, 1),
        ..Global::new("tile", tile_ty, Space::Shared)
    });
    let coef_ty = m.types.array(f32t, 2);
    m.add_global(Global {
        init: Some(vec![0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]),
        ..Global::new("coef", coef_ty, Space::Constant)
    });
    m.add_global(Global {
        init: Some(vec![5, 0, 0, 0]),
        managed: true,
        ..Global::new("counter", i32t, Space::Global)
    });
    let tex = m.add_global(Global {
        kind: GlobalKind::Texture { dims: 2 },
        loc: Loc::new(1, 9, 4),
        ..Global::new("_ZN3tex\"q", f32t, Space::Global)
    });

    // A device function, called before and after its definition.
    let helper_id = FuncId::new(1);
    let mut k = Function::new("_Z3allPfS_i", FunctionKind::Kernel, &[pg, pp, i32t], &[]);
    k.params[0] = ParamAttrs {
        noalias: true,
        byval: None,
    };
    k.params[1] = ParamAttrs {
        noalias: true,
        byval: Some(odd),
    };
    k.loc = Loc::new(0, 1, 17);
    {
        let mut b = Builder::new(&mut m.types, &mut k);
        let p = b.params();
        b.name(p[0], "a");
        b.name(p[1], "s");
        b.name(p[2], "n");
        b.set_loc(Loc::new(0, 3, 13));
        // Constants of every type, with edge bit patterns.
        let t = b.bool(true);
        b.name(t, "t");
        let fl = b.bool(false);
        b.const_int(i8t, -1);
        b.const_int(i16t, 12345);
        b.i32(-7);
        b.i64(i64::MIN);
        b.f32(1.5);
        b.f32(-0.0);
        b.f32(f32::INFINITY);
        b.op1(OpKind::Const { bits: 0x7fc0_0001 }, vec![], f32t);
        b.f64(0.1);
        b.f64(f64::NEG_INFINITY);
        b.const_float(f16t, 0.333);
        b.const_float(bf16t, -2.5);
        b.op1(OpKind::Const { bits: 0x7e01 }, vec![], f16t);
        b.null(Space::Global);
        b.op1(OpKind::Const { bits: 0x1000 }, vec![], pg);
        b.op1(OpKind::Const { bits: 1 << 40 }, vec![], i32t);
        b.set_loc(Loc::UNKNOWN);
        let u = b.undef(f32t);
        // Arithmetic.
        let x = b.i32(3);
        b.name(x, "x");
        let y = b.i32(4);
        b.name(y, "x"); // repeated name
        let z = b.i32(5);
        b.name(z, "x.1"); // clashes with the uniqued spelling
        let w = b.i32(6);
        b.name(w, "7"); // numeric name
        let e = b.i32(8);
        b.name(e, ""); // empty name
        let q = b.i32(9);
        b.name(q, "a b"); // needs quotes
        let one = b.f32(1.0);
        for &op in BinOp::ALL {
            if op.is_float() {
                b.binary(op, one, u);
            } else {
                b.binary(op, x, y);
                if op.takes_nsw() {
                    b.binary_flags(op, ArithFlags::NSW, x, y);
                }
            }
        }
        for &op in UnOp::ALL {
            if op.is_float() {
                b.unary(op, one);
            } else {
                b.unary(op, z);
            }
        }
        for &pred in CmpPred::ALL {
            if pred.is_float() {
                b.cmp(pred, one, u);
            } else {
                b.cmp(pred, w, e);
            }
        }
        for &op in CastOp::ALL {
            b.cast(op, q, i64t);
        }
        let s = b.select(t, x, y);
        // Structured control flow.
        let r = b.if_else(fl, &[i32t], |b| vec![b.i32(1)], |_| vec![s]);
        b.name(r[0], "r");
        let zero = b.i32(0);
        let step = b.i32(1);
        let acc = b.for_(zero, p[2], step, &[one], |b, iv, carried| {
            let fi = b.cast(CastOp::SiToFp, iv, f32t);
            vec![b.binary(BinOp::FAdd, carried[0], fi)]
        });
        b.name(acc[0], "acc");
        let (_, body) = b.create_for(zero, p[2], step, &[], true);
        b.set_insertion_end(body);
        b.yield_(vec![]);
        b.set_insertion_end(b.func.body);
        // A for whose iv type differs from its bounds (ill-typed but printable).
        let (_, odd_body) = b.create_for(zero, p[2], step, &[x], false);
        b.func.values[b.func.regions[odd_body].args[0]].ty = i64t;
        b.func.values[b.func.regions[odd_body].args[1]].ty = f64t;
        b.set_insertion_end(odd_body);
        b.yield_(vec![x]);
        b.set_insertion_end(b.func.body);
        let wr = b.while_(
            &[zero],
            |b, args| {
                let c = b.cmp(CmpPred::Slt, args[0], x);
                (c, vec![args[0]])
            },
            |b, args| vec![b.binary(BinOp::Add, args[0], step)],
        );
        b.name(wr[0], "i");
        // Calls.
        b.call(helper_id, vec![one], &[f32t]);
        b.call_extern("sinf", vec![one], &[f32t]);
        b.call_extern("weird name", vec![], &[]);
        // Memory.
        let pa = b.alloca(Space::Private, arr);
        let ps = b.alloca(Space::Shared, odd);
        let v = b.load(p[0], f32t);
        b.op1(
            OpKind::Load {
                volatile: true,
                speculative: false,
            },
            vec![p[0]],
            f32t,
        );
        b.op1(
            OpKind::Load {
                volatile: false,
                speculative: true,
            },
            vec![p[0]],
            f32t,
        );
        b.store(p[0], v);
        b.op(OpKind::Store { volatile: true }, vec![p[0], v], &[], vec![]);
        let pi = b.ptr_index(pa, x, point);
        b.ptr_field(pi, point, 1);
        b.ptr_field(ps, odd, 0);
        b.global_addr(tile, Space::Shared);
        let dyn_sh = b.dynamic_shared();
        let len = b.i64(16);
        let byte = b.const_int(i8t, 0);
        b.memcpy(pa, dyn_sh, len);
        b.memset(pa, byte, len);
        b.prefetch(pa, len);
        let scopes = [MemScope::Block, MemScope::Device, MemScope::System];
        for (i, &op) in AtomicOp::ALL.iter().enumerate() {
            let scope = scopes[i % 3];
            let val = if matches!(op, AtomicOp::FAdd | AtomicOp::FMin | AtomicOp::FMax) {
                one
            } else {
                x
            };
            let ty = b.ty(val);
            b.op1(OpKind::AtomicRmw { op, scope }, vec![p[0], val], ty);
        }
        for scope in scopes {
            b.op1(OpKind::AtomicCas { scope }, vec![p[0], x, y], i32t);
            b.fence(scope);
        }
        // GPU.
        for d in Dim::ALL {
            b.thread_id(d);
            b.block_id(d);
            b.block_dim(d);
            b.grid_dim(d);
        }
        b.lane_id();
        b.op1(OpKind::WarpSize, vec![], i32t);
        b.barrier();
        let mask = b.i32(-1);
        b.barrier_warp(mask);
        for &kind in BarrierReduceKind::ALL {
            b.barrier_reduce(kind, t);
        }
        let width = b.i32(32);
        for &mode in ShuffleMode::ALL {
            b.shuffle(mode, mask, one, step, width);
        }
        for &kind in VoteKind::ALL {
            b.vote(kind, mask, t);
        }
        b.op1(OpKind::ActiveMask, vec![], i32t);
        let h = b.op1(OpKind::TexRef(tex), vec![], i64t);
        for &kind in TexKind::ALL {
            let coords: Vec<_> = (0..kind.coords())
                .map(|_| if kind == TexKind::Fetch1D { x } else { one })
                .collect();
            let mut operands = vec![h];
            operands.extend(coords);
            b.op(
                OpKind::TexFetch(kind),
                operands,
                &[f32t, f32t, f32t, f32t],
                vec![],
            );
        }
        let i1t = b.types.i1();
        b.op1(OpKind::AllocDistinct, vec![p[0], p[0]], i1t);
        b.op1(OpKind::Clock { wide: false }, vec![], i32t);
        b.op1(OpKind::Clock { wide: true }, vec![], i64t);
        b.op(
            OpKind::Printf {
                format: "x=%d \"q\"\t\\ %f\n\u{1}é".into(),
            },
            vec![x, one],
            &[],
            vec![],
        );
        b.op(
            OpKind::Printf {
                format: String::new(),
            },
            vec![],
            &[],
            vec![],
        );
        b.op(
            OpKind::Trap {
                message: "assertion `i < n` failed".into(),
                assert: true,
            },
            vec![],
            &[],
            vec![],
        );
        b.set_loc(Loc::new(0, 99, 1));
        b.ret(vec![]);
    }
    m.add_function(k);

    let mut hf = Function::new("helper", FunctionKind::Device, &[f32t], &[f32t]);
    {
        let mut b = Builder::new(&mut m.types, &mut hf);
        let p = b.params();
        let r = b.call(helper_id, vec![p[0]], &[f32t]);
        b.ret(r);
    }
    m.add_function(hf);

    let mut l = Function::new("launch", FunctionKind::Launch, &[pg, i32t, i32t], &[]);
    {
        let mut b = Builder::new(&mut m.types, &mut l);
        let p = b.params();
        b.parallel(Level::Grid, &[p[1]], |b, bid| {
            b.name(bid[0], "bx");
            b.alloca(Space::Shared, tile_ty);
            let warps = b.i32(4);
            let lanes = b.i32(32);
            b.parallel(Level::Block, &[p[2]], |b, _| {
                b.barrier();
            });
            b.parallel(Level::Warp, &[warps], |b, _| {
                b.parallel(Level::Lane, &[lanes], |b, _| {
                    b.barrier();
                });
            });
        });
        let z64 = b.i64(2);
        // Two-dimensional, with an iv whose type differs from its bound.
        let op = b.parallel(Level::Block, &[p[1], z64], |_, _| {});
        let body = b.func.ops[op].regions[0];
        let iv = b.func.regions[body].args[0];
        b.func.values[iv].ty = i64t;
        b.ret(vec![]);
    }
    m.add_function(l);
    m
}

fn round_trip(m: &Module) -> (String, Module) {
    let text = print_module(m);
    let parsed = match parse_module(&text) {
        Ok(p) => p,
        Err(e) => panic!("{e}\n{}", numbered(&text)),
    };
    let again = print_module(&parsed);
    assert_eq!(again, text, "print(parse(print(m))) differs");
    (text, parsed)
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("{:4} {l}\n", i + 1))
        .collect()
}

#[test]
fn every_op_kind_round_trips() {
    let m = everything();
    let (_, parsed) = round_trip(&m);

    // Every op of the table and every keyword value occurs.
    let mut seen = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (_, f) in m.functions.iter() {
        for (_, op) in f.walk() {
            seen.insert(f.ops[op].kind.code());
            names.insert(format!("{:?}", f.ops[op].kind));
        }
    }
    let missing: Vec<_> = OpCode::ALL.iter().filter(|c| !seen.contains(c)).collect();
    assert!(missing.is_empty(), "missing ops: {missing:?}");
    for level in Level::ALL {
        assert!(names.contains(&format!("Parallel {{ level: {level:?} }}")));
    }

    // The parsed module is equivalent op by op.
    assert_eq!(parsed.files, m.files);
    assert_eq!(parsed.globals.len(), m.globals.len());
    for ((_, a), (_, b)) in m.globals.iter().zip(parsed.globals.iter()) {
        assert_eq!(
            (&a.name, a.space, &a.init, &a.kind, a.loc),
            (&b.name, b.space, &b.init, &b.kind, b.loc)
        );
        assert_eq!(print_type(&m, a.ty), print_type(&parsed, b.ty));
    }
    for ((_, f), (_, g)) in m.functions.iter().zip(parsed.functions.iter()) {
        assert_eq!(f.name, g.name);
        assert_eq!(f.kind, g.kind);
        assert_eq!(f.loc, g.loc);
        assert_eq!(f.params.len(), g.params.len());
        let (fw, gw) = (f.walk(), g.walk());
        assert_eq!(fw.len(), gw.len());
        for ((_, a), (_, b)) in fw.into_iter().zip(gw) {
            let (a, b) = (&f.ops[a], &g.ops[b]);
            assert_eq!(a.loc, b.loc);
            assert_eq!(a.operands.len(), b.operands.len());
            assert_eq!(a.results.len(), b.results.len());
            assert_eq!(a.regions.len(), b.regions.len());
            match (&a.kind, &b.kind) {
                (OpKind::Alloca { .. }, _)
                | (OpKind::PtrIndex { .. }, _)
                | (OpKind::PtrField { .. }, _) => {
                    assert_eq!(a.kind.code(), b.kind.code())
                }
                _ => assert_eq!(a.kind, b.kind),
            }
            for (&ra, &rb) in a.results.iter().zip(&b.results) {
                let (na, nb) = (&f.values[ra].name, &g.values[rb].name);
                // Names survive up to uniquing.
                if let Some(na) = na {
                    assert!(nb.as_deref().is_some_and(|nb| nb.starts_with(na.as_str())));
                }
            }
        }
    }
}

#[test]
fn every_table_op_round_trips() {
    // Each op of the table, under each of its mnemonics, prints and parses
    // back to the same kind.
    let m = everything();
    let (_, parsed) = round_trip(&m);
    let mut printed = BTreeSet::new();
    for (_, f) in parsed.functions.iter() {
        for (_, op) in f.walk() {
            let kind = &f.ops[op].kind;
            assert_eq!(
                OpKind::from_mnemonic(kind.mnemonic()).map(|h| h.code()),
                Some(kind.code())
            );
            printed.insert(kind.mnemonic());
        }
    }
    for &code in OpCode::ALL {
        for name in code.mnemonics() {
            assert!(
                printed.contains(name),
                "`{name}` ({code:?}) did not round-trip"
            );
        }
    }
}

#[test]
fn printed_forms() {
    let text = print_module(&everything());
    for needle in [
        "file \"dir/odd \\\"name\\\".cuh\"",
        "type $Point = struct size 8 align 4 { x: f32 at 0, y: f32 at 4 }",
        "type $\"ns::Pair<int>\" = struct size 40 align 8 { \"\": [4 x $Point] at 0, second: i64 at 32 }",
        "global @tile : [256 x f32] shared loc(0:2:1)",
        "global @coef : [2 x f32] constant = bytes \"0000803f00000040\"",
        "texture @\"_ZN3tex\\\"q\" : f32 global dims 2 loc(1:9:4)",
        "kernel @_Z3allPfS_i(%a: ptr<global> noalias, %s: ptr<private> noalias byval($\"ns::Pair<int>\"), %n: i32) loc(0:1:17) {",
        "%t = const true : i1 loc(0:3:13)",
        "const -1 : i8 loc(0:3:13)",
        "const -9223372036854775808 : i64",
        "const 1.5 : f32",
        "const -0.0 : f32",
        "const inf : f32",
        "const 0x7fc00001 : f32",
        "const 0.1 : f64",
        "const -inf : f64",
        "const -2.5 : bf16",
        "const 0x7e01 : f16",
        "const null : ptr<global>",
        "const 0x1000 : ptr<global>",
        "const 0x10000000000 : i32",
        "%x = const 3 : i32",
        "%x.1 = const 4 : i32",
        "%x.1.1 = const 5 : i32",
        "%7.1 = const 6 : i32", // "7" is taken by an unnamed value
        "%\"\" = const 8 : i32",
        "%\"a b\" = const 9 : i32",
        "%r = if %0 -> (i32) {",
        "%acc = for %",
        "iter(%",
        "for unsigned %",
        ": i64 = %",
        "%i = while (%",
        "} do (%",
        "call @helper(%",
        "call extern @sinf(%",
        "call extern @\"weird name\"()",
        "alloca private [4 x $Point] : ptr<private>",
        "alloca shared $\"ns::Pair<int>\" : ptr<shared>",
        "load volatile %a : f32",
        "load speculative %a : f32",
        "= add nsw %x, %x.1 : i32",
        "= sub nsw %x, %x.1 : i32",
        "= mul nsw %x, %x.1 : i32",
        "store volatile %a, %",
        "ptr.index $Point %",
        "ptr.field $Point[1] %",
        "global.addr @tile : ptr<shared>",
        "shared.dynamic : ptr<shared>",
        "atomic.rmw fmax system %a, %",
        "atomic.cas block %a, %x, %x.1 : i32",
        "fence system",
        "thread_id z : i32",
        "barrier block",
        "barrier warp %",
        "barrier.reduce count %t : i32",
        "shuffle xor %",
        "vote ballot %",
        "activemask : i32",
        "tex.ref @\"_ZN3tex\\\"q\" : i64",
        "tex.fetch 3d %",
        "clock64 : i64",
        "alloc.distinct %a, %a : i1",
        "printf \"x=%d \\\"q\\\"\\t\\\\ %f\\n\\u{1}é\", %x, %",
        "printf \"\"\n",
        "trap assert \"assertion `i < n` failed\"",
        "return loc(0:99:1)",
        "parallel<grid> (%bx) in (%",
        "parallel<lane> (%",
        "parallel<block> (%",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in\n{text}");
    }
}

#[test]
fn print_function_prints_one_function() {
    let m = everything();
    let text = print_function(&m, FuncId::new(1));
    assert_eq!(
        text,
        "device @helper(%0: f32) -> (f32) {\n  %1 = call @helper(%0) : f32\n  return %1\n}\n"
    );
    assert_eq!(m.to_string(), print_module(&m));
}

#[test]
fn empty_module() {
    assert_eq!(print_module(&Module::new()), "");
    assert_eq!(parse_module("  ; nothing\n// at all\n"), Ok(Module::new()));
}

#[test]
fn hand_written_sugar() {
    // An omitted `else`, one-line regions and comments.
    let src = "kernel @k(%c: i1) {\n  if %c { yield } // then only\n  return\n}\n";
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        print_module(&m),
        "kernel @k(%c: i1) {\n  if %c {\n    yield\n  } else {\n    yield\n  }\n  return\n}\n"
    );
}

#[test]
fn nsw_round_trip() {
    let src = "kernel @k(%a: i32, %b: i64) {\n  %x = add nsw %a, %a : i32\n  %y = sub %a, %x : i32\n  %z = mul nsw %b, %b : i64\n  %w = and nsw %a, %a : i32\n  return\n}\n";
    let m = parse_module(src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(print_module(&m), src);
    let f = &m.functions[m.function("k").expect("@k")];
    let kinds: Vec<&OpKind> = f.regions[f.body]
        .ops
        .iter()
        .map(|&o| &f.ops[o].kind)
        .collect();
    assert_eq!(kinds[0], &OpKind::Binary(BinOp::Add, ArithFlags::NSW));
    assert_eq!(kinds[1], &OpKind::Binary(BinOp::Sub, ArithFlags::NONE));
    assert_eq!(kinds[2], &OpKind::Binary(BinOp::Mul, ArithFlags::NSW));
    // Parsed as written; the verifier rejects `nsw` on `and`.
    assert_eq!(kinds[3], &OpKind::Binary(BinOp::And, ArithFlags::NSW));
    // `nsw` is a keyword only right after the mnemonic.
    assert_eq!(
        err("kernel @k(%a: i32) {\n  %x = add %a, nsw %a : i32\n  return\n}\n"),
        "2:16: expected a value, found `nsw`"
    );
}

fn err(src: &str) -> String {
    match parse_module(src) {
        Ok(_) => "parsed".to_string(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn error_messages() {
    let k = |body: &str| format!("kernel @k(%a: i32) {{\n{body}\n}}\n");
    let mut bad = Vec::new();
    let mut check = |got: String, want: &str| {
        if got != want {
            bad.push(format!("got `{got}`, want `{want}`"));
        }
    };
    check(err(&k("  %x = frob %a : i32")), "2:8: unknown op `frob`");
    check(
        err(&k("  %x = add %a, %b : i32")),
        "2:16: unknown value `%b`",
    );
    check(
        err(&k("  %x = call @g(%a) : i32")),
        "2:13: undefined function @g",
    );
    check(
        err(&k("  %x = const 1 : int")),
        "2:18: expected a type, found `int`",
    );
    check(
        err(&k("  %x = const 1 : ptr<heap>")),
        "2:22: unknown memory space `heap`",
    );
    check(
        err(&k("  %x = const 300 : i8")),
        "2:14: integer literal `300` does not fit in i8",
    );
    check(
        err(&k("  %x = const 1.5 : i32")),
        "2:14: invalid integer literal `1.5`",
    );
    check(
        err(&k("  %x = const 1.5x : f32")),
        "2:14: invalid f32 literal `1.5x`",
    );
    check(
        err(&k("  %a = add %a, %a : i32")),
        "2:3: value `%a` is defined twice",
    );
    check(
        err(&k("  %x = cmp less %a, %a : i1")),
        "2:12: unknown comparison predicate `less`",
    );
    check(
        err(&k("  %x = add %a, %a")),
        "2:8: `add` has 1 result name(s) but 0 result type(s)",
    );
    check(
        err(&k("  %x = add %a, %a : i32 junk")),
        "2:25: expected end of line after `add`, found `junk`",
    );
    check(err(&k("  %x = const 1 : $S")), "2:18: undefined type `$S`");
    check(
        err(&k("  %x = global.addr @g : ptr<global>")),
        "2:20: undefined global `@g`",
    );
    check(
        err(&k("  %x = thread_id w : i32")),
        "2:18: unknown dimension `w`",
    );
    check(
        err(&k("  %r = if %a -> (i32) {\n    yield %a\n  }")),
        "5:1: expected `else` (an `if` with results needs both regions), found `}`",
    );
    check(
        err("kernel @k() {\n  return\n"),
        "3:1: expected `}` closing the region opened at 1:13, found end of input",
    );
    check(
        err("kernel @k() {\n}\ndevice @k() {\n}\n"),
        "3:8: duplicate definition of function `@k`",
    );
    check(
        err("global @g : i32 global\nglobal @g : i32 shared\n"),
        "2:8: duplicate definition of global `@g`",
    );
    check(
        err(
            "type $S = struct size 4 align 4 { a: i32 at 0 }\ntype $S = struct size 0 align 1 {}\n",
        ),
        "2:6: duplicate definition of type `$S`",
    );
    check(
        err("global @g : i32 global = bytes \"0g\"\n"),
        "1:32: invalid hex digits `0g` in byte string",
    );
    check(
        err("func @f() {\n}\n"),
        "1:1: expected `file`, `type`, `global`, `texture`, `external`, `import`, `kernel`, `device` or `launch`, found `func`"
    );
    check(
        err(&k("  parallel<team> (%i) in (%a) {\n  }")),
        "2:12: unknown parallel level `team`",
    );
    check(
        err(&k("  parallel<block> (%i, %j) in (%a) {\n  }")),
        "2:24: induction variable `%j` has no upper bound and no `: type`",
    );
    check(
        err(&k("  %x = const 1 : i32 loc(0:1)")),
        "2:29: expected `:` in `loc(file:line:col)`, found `)`",
    );
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A small deterministic generator for the mutation test.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn mutated_text_never_panics() {
    let text = print_module(&everything());
    let chars: Vec<char> = text.chars().collect();
    let snippets = [
        "%",
        "@",
        "$",
        "\"",
        "{",
        "}",
        "(",
        ")",
        "<",
        ">",
        ",",
        ":",
        "=",
        "->",
        "\n",
        " ",
        "-",
        "0x",
        "1e",
        "i64",
        "i0",
        "i999",
        "f16",
        "ptr<",
        "[",
        "]",
        "x",
        "loc(",
        "yield",
        "if",
        "for",
        "while",
        "do",
        "parallel<block>",
        "else",
        "%0",
        "%x",
        "\\u{",
        "\\",
        ";",
        "//",
        "9999999999999999999999",
        "-inf",
        "nan",
        "byval(",
        "call @helper(",
        "dims",
    ];
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..1500 {
        let mut c = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(c.len());
            match rng.below(4) {
                0 => {
                    let n = 1 + rng.below(8);
                    c.drain(at..(at + n).min(c.len()));
                }
                1 => {
                    let s = snippets[rng.below(snippets.len())];
                    for (i, ch) in s.chars().enumerate() {
                        c.insert(at + i, ch);
                    }
                }
                2 => {
                    let other = rng.below(c.len());
                    c.swap(at, other);
                }
                _ => {
                    let n = rng.below(40);
                    let piece: Vec<char> = c[at..(at + n).min(c.len())].to_vec();
                    let to = rng.below(c.len());
                    for (i, ch) in piece.into_iter().enumerate() {
                        c.insert(to + i, ch);
                    }
                }
            }
        }
        let src: String = c.into_iter().collect();
        match parse_module(&src) {
            Ok(m) => {
                ok += 1;
                // Whatever parses prints and round-trips.
                let printed = print_module(&m);
                match parse_module(&printed) {
                    Ok(again) => assert_eq!(print_module(&again), printed),
                    Err(e) => panic!("{e}\n{}", numbered(&printed)),
                }
            }
            Err(e) => {
                failed += 1;
                assert!(e.line >= 1 && e.col >= 1 && !e.message.is_empty());
            }
        }
    }
    // Some mutations (in comments, names, numbers) still parse.
    assert!(ok > 0 && failed > 0 && ok + failed == 1500);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let mut src = String::from("kernel @k(%c: i1) {\n");
    for _ in 0..10_000 {
        src.push_str("if %c {\n");
    }
    let e = err(&src);
    assert!(
        e.ends_with("regions are nested too deeply (more than 100 levels)"),
        "{e}"
    );
    let mut ty = String::from("global @g : ");
    for _ in 0..10_000 {
        ty.push_str("[1 x ");
    }
    assert!(err(&ty).ends_with("types are nested too deeply"));
}

#[test]
fn malformed_ir_prints_without_panicking() {
    let mut m = Module::new();
    let i32t = m.types.i32();
    let mut f = Function::new("bad", FunctionKind::Kernel, &[i32t], &[]);
    let bogus = crate::func::Value::new(999);
    let op = f.new_op(OpKind::If, vec![bogus], &[], vec![], Loc::UNKNOWN);
    let body = f.body;
    f.regions[body].ops.push(op);
    f.regions[body].ops.push(crate::func::Op::new(77));
    let cyc = f.new_op(
        OpKind::For { unsigned: false },
        vec![],
        &[],
        vec![body],
        Loc::UNKNOWN,
    );
    f.regions[body].ops.push(cyc);
    let c = f.new_op(
        OpKind::Call(Callee::Func(FuncId::new(5))),
        vec![],
        &[],
        vec![],
        Loc::UNKNOWN,
    );
    f.regions[body].ops.push(c);
    m.add_function(f);
    let text = print_module(&m);
    assert!(text.contains("<bad op 77>"), "{text}");
    assert!(text.contains("<region nested in itself>"), "{text}");
    assert!(parse_module(&text).is_err());
}

#[test]
fn linkage_round_trips_and_verifies() {
    let text = "global @hits : i32 global import
global @total : i32 global external = bytes \"07000000\"
import device @scale(%x: f32) -> (f32)
external device @twice(%x: f32) -> (f32) {
  %r = fmul %x, %x : f32
  return %r
}
kernel @k(%p: ptr<global>) {
  %one = const 1.0 : f32
  %s = call @scale(%one) : f32
  %t = call @twice(%s) : f32
  store %p, %t
  return
}
";
    let m = super::parse_test_module(text);
    crate::verify_module(&m).expect("valid");
    assert_eq!(
        m.globals.iter().next().map(|(_, g)| g.linkage),
        Some(crate::Linkage::Import)
    );
    let scale = m.function("scale").expect("declared");
    assert_eq!(m.functions[scale].linkage, crate::Linkage::Import);
    round_trip(&m);
    // A body on an imported function is rejected by the verifier.
    let mut bad = m.clone();
    let twice = bad.function("twice").expect("defined");
    bad.functions[twice].linkage = crate::Linkage::Import;
    let errs = crate::verify_module(&bad).expect_err("body on an import");
    assert!(
        errs.to_string()
            .contains("an imported function has no body"),
        "{errs}"
    );
}
