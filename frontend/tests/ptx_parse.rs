//! The PTX lexer and parser: every directive and operand family, and the
//! exact messages (with positions) for malformed input.

use cucc_frontend::ptx::ast::*;
use cucc_frontend::ptx::inst::{DataType, Flag, Guard, Inst, Opcode, ShflMode};
use cucc_frontend::ptx::{lower_ptx, parse::parse, parse::parse_num};

const HEADER: &str = ".version 8.5\n.target sm_80\n.address_size 64\n";

#[test]
fn module_directives_and_variables() {
    let src = format!(
        "{HEADER}\
.global .align 4 .b8 tab[8] = {{1, 0, 0, 0, 255, 255, 255, 255}};
.const .align 4 .f32 gain = 0f40200000;
.shared .align 8 .b8 tile[64];
.extern .shared .align 16 .b8 dyn[];
.global .u32 counter;
.global .texref tref;
.global .attribute(.managed) .align 4 .u32 calls;
"
    );
    let m = parse(&src).expect("parses");
    assert_eq!(m.version.as_deref(), Some("8.5"));
    assert_eq!(m.target, vec!["sm_80".to_string()]);
    assert_eq!(m.address_size, Some(64));
    let names: Vec<&str> = m.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        ["tab", "gain", "tile", "dyn", "counter", "tref", "calls"]
    );
    assert_eq!(m.vars[0].space, StateSpace::Global);
    assert_eq!(m.vars[0].align, Some(4));
    assert_eq!(m.vars[0].dims, vec![Some(8)]);
    assert_eq!(m.vars[0].init.as_ref().map(|v| v.len()), Some(8));
    assert_eq!(m.vars[1].space, StateSpace::Const);
    assert_eq!(m.vars[1].init, Some(vec![Init::Num(Num::F32(0x4020_0000))]));
    assert!(m.vars[3].external);
    assert_eq!(m.vars[3].dims, vec![None]);
    assert_eq!(m.vars[5].ty, PtxType::TexRef);
}

#[test]
fn functions_parameters_and_statements() {
    let src = format!(
        "{HEADER}\
.func (.param .b32 func_retval0) helper(.param .b32 helper_param_0);
.visible .entry k(
    .param .u64 k_param_0,
    .param .align 8 .b8 k_param_1[16]
)
.maxntid 256, 1, 1
{{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .f32 %f1, %f2;
    .local .align 8 .b8 __local_depot0[16];
$L__BB0_1:
    @!%p1 bra $L__BB0_1;
    ld.global.nc.v2.f32 {{%f1, %f2}}, [%rd1+-8];
    tex.2d.v4.f32.f32 {{%f1, %f2, %f1, %f2}}, [%rd1, {{%f1, %f2}}];
    {{ .param .b32 param0;
    st.param.b32 [param0+0], %r1;
    .param .b32 retval0;
    call.uni (retval0), helper, (param0);
    }}
    shfl.sync.down.b32 %r2|%p2, %r1, 1, 31, -1;
    ret;
}}
"
    );
    let m = parse(&src).expect("parses");
    assert_eq!(m.functions.len(), 2);
    let decl = &m.functions[0];
    assert!(!decl.entry && decl.body.is_none());
    assert_eq!(decl.rets.len(), 1);
    let k = &m.functions[1];
    assert!(k.entry);
    assert_eq!(k.params[1].array, Some(16));
    assert_eq!(k.params[1].align, Some(8));
    let body = k.body.as_ref().expect("body");
    let regs: Vec<(&str, Option<u32>)> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::Var(v) if v.space == StateSpace::Reg => Some((v.name.as_str(), v.range)),
            _ => None,
        })
        .collect();
    assert_eq!(
        regs,
        [
            ("%p", Some(3)),
            ("%r", Some(10)),
            ("%f1", None),
            ("%f2", None)
        ]
    );
    let insts: Vec<&Inst> = body.iter().filter_map(Stmt::inst).collect();
    assert_eq!(
        insts[0].guard,
        Some(Guard {
            reg: "%p1".to_string(),
            negated: true
        })
    );
    assert_eq!(insts[0].op, Opcode::Bra);
    assert_eq!(insts[1].op, Opcode::Ld);
    assert_eq!(insts[1].mods.space, Some(StateSpace::Global));
    assert!(insts[1].has(Flag::Nc));
    assert_eq!(insts[1].mods.vector, Some(2));
    assert_eq!(
        insts[1].mods.types,
        [DataType::Scalar(PtxType::Float {
            bits: 32,
            brain: false
        })]
    );
    assert_eq!(insts[1].name, "ld.global.nc.v2.f32");
    assert_eq!(
        insts[1].args[1],
        Operand::Addr(Box::new(Operand::Reg("%rd1".into(), false)), -8)
    );
    assert!(matches!(&insts[2].args[1], Operand::Tex(_, c) if c.len() == 2));
    let call = insts.iter().find(|i| i.op == Opcode::Call).expect("call");
    assert_eq!(call.args.len(), 3);
    assert!(matches!(&call.args[0], Operand::List(r) if r.len() == 1));
    let shfl = insts.iter().find(|i| i.op == Opcode::Shfl).expect("shfl");
    assert_eq!(shfl.mods.shfl, Some(ShflMode::Down));
    assert!(matches!(&shfl.args[0], Operand::Vec(v) if v.len() == 2));
    assert_eq!(shfl.args[4], Operand::Imm(Num::Int(-1)));
    assert!(body
        .iter()
        .any(|s| matches!(s, Stmt::Label(l, _) if l == "$L__BB0_1")));
}

#[test]
fn numbers() {
    assert_eq!(parse_num("0f3F800000"), Some(Num::F32(0x3f80_0000)));
    assert_eq!(
        parse_num("0d3FF0000000000000"),
        Some(Num::F64(0x3ff0_0000_0000_0000))
    );
    assert_eq!(parse_num("0x1F"), Some(Num::Int(31)));
    assert_eq!(parse_num("42U"), Some(Num::Int(42)));
    assert_eq!(parse_num("017"), Some(Num::Int(15)));
    assert_eq!(parse_num("1.5"), Some(Num::Dec(1.5)));
    assert_eq!(parse_num("0f3F80"), None);
}

#[test]
fn debug_and_hint_directives_are_skipped() {
    let src = format!(
        "{HEADER}.file 1 \"a.cu\"\n.visible .entry k()\n{{\n.loc 1 3 5\n.pragma \"nounroll\";\nret;\n}}\n.section .debug_str {{ $L: .b8 0 }}\n"
    );
    let m = parse(&src).expect("parses");
    assert_eq!(m.functions.len(), 1);
    assert_eq!(m.functions[0].body.as_ref().map(|b| b.len()), Some(1));
}

fn lower_err(body: &str) -> String {
    let src = format!("{HEADER}.visible .entry k(.param .u64 k_param_0)\n{{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n{body}\n}}\n");
    match lower_ptx(&src, "t.ptx") {
        Ok(_) => panic!("expected an error for:\n{body}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn error_messages_name_file_line_and_construct() {
    // Line 9 is the body's first line.
    assert_eq!(
        lower_err("frob.s32 %r1, %r2;"),
        "t.ptx:9:1: unsupported instruction `frob.s32`"
    );
    assert_eq!(
        lower_err("add.s32 %r1, %r2 %r3;"),
        "t.ptx:9:18: expected `,` or `;` after an operand of `add.s32`, found `%r3`"
    );
    assert_eq!(
        lower_err("  mov.u32 %q1, 0;"),
        "t.ptx:9:3: `%q1` is not a declared register"
    );
    assert_eq!(
        lower_err("add.s32 %r1, %r2, %bogus;"),
        "t.ptx:9:1: unknown register `%bogus`"
    );
    assert_eq!(
        lower_err("bra $nowhere;"),
        "t.ptx:9:1: unknown label `$nowhere`"
    );
    assert_eq!(
        lower_err("add %r1, %r2, 1;"),
        "t.ptx:9:1: `add` needs a type"
    );
    assert_eq!(
        lower_err("mov.u32 %r1, %r2, ;"),
        "t.ptx:9:19: expected an operand, found `;`"
    );
    assert_eq!(
        lower_err("ld.global.u32 %r1, %rd1;"),
        "t.ptx:9:1: expected an address `[...]`"
    );
    assert_eq!(
        lower_err("call.uni mystery, ();"),
        "t.ptx:9:1: call to unknown function `mystery`"
    );
    assert_eq!(
        lower_err("vabsdiff.u32.u32.u32 %r1, %r2, %r3, %r1;"),
        "t.ptx:9:1: unsupported instruction `vabsdiff.u32.u32.u32`"
    );
    assert_eq!(
        lower_err("@%p1 add.foo.s32 %r1, %r2, %r3;"),
        "t.ptx:9:1: unsupported instruction `add.foo.s32` (unknown modifier `.foo`)"
    );
    assert_eq!(
        lower_err("add.s32 %r1, %r2, %r3, %r1;"),
        "t.ptx:9:1: `add.s32` takes at most 3 operands"
    );
    assert_eq!(
        lower_err("shfl.down.b32 %r1, %r2, 1, 31;"),
        "t.ptx:9:1: `shfl.down.b32` without .sync is not supported"
    );
}

#[test]
fn truncated_and_malformed_modules() {
    let e = |s: &str| lower_ptx(s, "t.ptx").expect_err("must fail").to_string();
    assert_eq!(
        e(".version 8.5\n.visible .entry k()\n{\nret;\n"),
        "t.ptx:4:5: expected `}`, found the end of the file"
    );
    assert_eq!(
        e(".version 8.5\n.visible .entry k(\n"),
        "t.ptx:2:19: expected `.param`, found the end of the file"
    );
    assert_eq!(
        e(".address_size 32\n"),
        "t.ptx:1:1: .address_size 32 is not supported (only 64)"
    );
    assert_eq!(
        e(".maxwell 3\n"),
        "t.ptx:1:1: unsupported directive `.maxwell`"
    );
    assert_eq!(e("/* open\n"), "t.ptx:1:1: unterminated comment");
    assert_eq!(
        e(".global .u32 x = ;\n"),
        "t.ptx:1:18: expected an initialiser, found `;`"
    );
    assert_eq!(
        e(".global .u32 x;\n.global .u32 x;\n"),
        "t.ptx:2:14: `x` is declared twice"
    );
    assert_eq!(e("ret; #\n"), "t.ptx:1:6: unexpected character `#`");
    assert_eq!(
        e(".global .attribute(.unified) .u32 x;\n"),
        "t.ptx:1:20: unsupported variable attribute `.unified`"
    );
}

/// The lowering's contract with the JIT: kernel names and parameters,
/// globals by PTX name with initialisers, texture references, shared and
/// dynamic shared memory, printf.
#[test]
fn lowering_conventions() {
    use cucc_ir::{FunctionKind, GlobalKind, OpKind, Space, Type};
    let src = format!(
        "{HEADER}\
.global .align 4 .u32 counter = 7;
.const .align 4 .b8 tab[8] = {{1, 0, 0, 0, 2, 0, 0, 0}};
.global .texref tref;
.global .align 1 .b8 $str[6] = {{104, 105, 32, 37, 100, 0}};
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.shared .align 4 .b8 tile[64];
.extern .shared .align 16 .b8 dyn[];
.visible .entry _Z1kPfiS_(
    .param .u64 _Z1kPfiS__param_0,
    .param .u32 _Z1kPfiS__param_1,
    .param .align 8 .b8 _Z1kPfiS__param_2[24]
)
{{
    .local .align 8 .b8 __local_depot0[8];
    .reg .b64 %SP;
    .reg .b64 %SPL;
    .reg .b32 %r<4>;
    .reg .f32 %f<5>;
    .reg .b64 %rd<6>;
    mov.u64 %SPL, __local_depot0;
    cvta.local.u64 %SP, %SPL;
    ld.param.u32 %r1, [_Z1kPfiS__param_2+8];
    mov.u32 %r2, tile;
    st.shared.u32 [%r2+4], %r1;
    mov.u32 %r3, dyn;
    st.shared.u32 [%r3], %r1;
    tex.1d.v4.f32.s32 {{%f1, %f2, %f3, %f4}}, [tref, {{%r1}}];
    mov.u64 %rd1, $str;
    cvta.global.u64 %rd2, %rd1;
    add.u64 %rd3, %SP, 0;
    add.u64 %rd4, %SPL, 0;
    st.local.u32 [%rd4], %r1;
    {{
    .param .b64 param0;
    st.param.b64 [param0], %rd2;
    .param .b64 param1;
    st.param.b64 [param1], %rd3;
    .param .b32 retval0;
    call.uni (retval0), vprintf, (param0, param1);
    }}
    ret;
}}
"
    );
    let m = lower_ptx(&src, "c.ptx").unwrap_or_else(|e| panic!("{e}"));
    cucc_ir::verify_module(&m).unwrap_or_else(|e| panic!("{e}"));
    let (_, k) = m
        .functions
        .iter()
        .find(|(_, f)| f.kind == FunctionKind::Kernel)
        .expect("kernel");
    assert_eq!(k.name, "_Z1kPfiS_");
    let ptys: Vec<Type> = k
        .param_values()
        .iter()
        .map(|&v| m.types[k.value_type(v)].clone())
        .collect();
    assert_eq!(
        ptys,
        [Type::Int(64), Type::Int(32), Type::Ptr(Space::Private)]
    );
    let byval = k.params[2].byval.expect("byval struct parameter");
    assert_eq!(m.types.size_of(byval), 24);
    let g = |n: &str| {
        let id = m.global(n).unwrap_or_else(|| panic!("global {n}"));
        m.globals[id].clone()
    };
    assert_eq!(g("counter").init, Some(vec![7, 0, 0, 0]));
    assert_eq!(g("counter").space, Space::Global);
    assert_eq!(g("tab").space, Space::Constant);
    assert_eq!(g("tref").kind, GlobalKind::Texture { dims: 1 });
    // Every shared address derives from one variable: `tile` is a shared
    // global of its own, and no window is made.
    let tile = g("tile");
    assert_eq!(tile.space, Space::Shared);
    assert_eq!(m.types.size_of(tile.ty), 64);
    assert!(m.global(cucc_frontend::ptx::lower::SHARED_WINDOW).is_none());
    let kinds: Vec<&OpKind> = k.walk().iter().map(|&(_, op)| &k.ops[op].kind).collect();
    assert!(kinds.iter().any(|o| matches!(o, OpKind::DynamicShared)));
    assert!(kinds.iter().any(|o| matches!(o, OpKind::TexRef(_))));
    assert!(kinds
        .iter()
        .any(|o| matches!(o, OpKind::Printf { format } if format == "hi %d")));
}

#[test]
fn loc_lines_give_instructions_their_cuda_source_position() {
    // nvcc -lineinfo: `.loc` before instructions, `.file` after the code.
    let src = format!(
        "{HEADER}\
.visible .entry k(.param .u64 k_param_0)
{{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    .loc 1 6 0
    ld.param.u64 %rd1, [k_param_0];
    .loc 1 8 3
    mov.u32 %r1, %tid.x;
    st.global.u32 [%rd1], %r1;
    .loc 2 1 1, function_name $L__info, inlined_at 1 8 3
    ret;
}}
.file 1 \"/src/app.cu\"
.file 2 \"/src/helper.cuh\", 1700000000, 1234
"
    );
    let m = parse(&src).expect("parses");
    assert_eq!(
        m.files,
        vec![
            (1, "/src/app.cu".to_string()),
            (2, "/src/helper.cuh".to_string())
        ]
    );
    let srcs: Vec<Option<(u32, u32, u32)>> = m.functions[0]
        .body
        .iter()
        .flatten()
        .filter_map(|s| s.inst().map(|i| i.src))
        .collect();
    assert_eq!(
        srcs,
        vec![
            Some((1, 6, 0)),
            Some((1, 8, 3)),
            Some((1, 8, 3)),
            Some((2, 1, 1))
        ]
    );
    // Lowered ops carry the CUDA file and line.
    let module = lower_ptx(&src, "k.ptx").expect("lowers");
    assert!(
        module.files.iter().any(|f| f == "/src/app.cu"),
        "{:?}",
        module.files
    );
    let (_, f) = module.functions.iter().next().expect("a function");
    let app = module
        .files
        .iter()
        .position(|f| f == "/src/app.cu")
        .expect("app.cu") as u32;
    let lines: std::collections::BTreeSet<u32> = f
        .walk()
        .iter()
        .map(|&(_, o)| f.ops[o].loc)
        .filter(|l| l.file == app)
        .map(|l| l.line)
        .collect();
    assert!(lines.contains(&8), "ops at app.cu lines {lines:?}");
}
