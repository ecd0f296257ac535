//! The structurizer: hand-written PTX control flow (diamonds, nested loops,
//! loops with several exits, early returns, a loop around a barrier) runs
//! in the interpreter, before and after the whole cpuify pipeline, with the
//! results a Rust model computes; irreducible control flow is an error.

use cucc_frontend::ptx::lower_ptx;
use cucc_ir::interp::{Arg, Interpreter, LaunchConfig};
use cucc_ir::{FunctionKind, Module, OpKind, Space};

const HEADER: &str = ".version 8.5\n.target sm_80\n.address_size 64\n";

fn lower(src: &str) -> Module {
    let m = lower_ptx(&format!("{HEADER}{src}"), "s.ptx").unwrap_or_else(|e| panic!("{e}"));
    if let Err(e) = cucc_ir::verify_module(&m) {
        panic!("invalid IR:\n{e}\n{m}");
    }
    m
}

fn cpuified(m: &Module) -> Module {
    let mut c = m.clone();
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    cucc_cpuify::pipeline::run(
        &mut c,
        &cucc_cpuify::pipeline::Options::verifying(),
        &mut remarks,
        &mut |_, _| {},
    )
    .unwrap_or_else(|e| panic!("cpuify: {e}\n{m}"));
    cucc_ir::verify_module(&c).unwrap_or_else(|e| panic!("invalid after cpuify: {e}"));
    cucc_cpuify::emit_c::emit_module(&c).unwrap_or_else(|e| panic!("emit_c: {e}"));
    c
}

/// Runs kernel `k` over `block` threads (one block) with an `i32` input
/// buffer and an `i32` output buffer of `n` elements; returns the output.
fn run(m: &Module, k: &str, block: u32, input: &[i32], n: usize, extra: &[Arg]) -> Vec<i32> {
    let mut it = Interpreter::new(m);
    it.set_step_limit(Some(50_000_000));
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let pin = it.memory.alloc(Space::Global, bytes.len().max(4) as u64);
    it.memory.write(pin, &bytes).expect("write");
    let pout = it.memory.alloc(Space::Global, (4 * n).max(4) as u64);
    let mut args = vec![Arg::ptr(pin), Arg::ptr(pout)];
    args.extend_from_slice(extra);
    it.launch(k, &LaunchConfig::linear(1, block), &args)
        .unwrap_or_else(|e| panic!("launch {k}: {e}"));
    let out = it.memory.read(pout, (4 * n) as u64).expect("read");
    out.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Checks the kernel before and after cpuify against `want`.
fn check(src: &str, k: &str, block: u32, input: &[i32], want: &[i32], extra: &[Arg]) -> Module {
    let m = lower(src);
    assert_eq!(
        run(&m, k, block, input, want.len(), extra),
        want,
        "per-thread IR"
    );
    let c = cpuified(&m);
    assert_eq!(
        run(&c, k, block, input, want.len(), extra),
        want,
        "after cpuify"
    );
    m
}

const PARAMS: &str = "(.param .u64 in, .param .u64 out, .param .u32 n)";
const REGS: &str = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n";
/// Loads in/out as global addresses, n in %r30, tid in %r31, &out[tid] in %rd3.
const PROLOGUE: &str =
    "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\nld.param.u32 %r30, [n];\n\
cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\nmov.u32 %r31, %tid.x;\n\
mul.wide.u32 %rd4, %r31, 4;\nadd.s64 %rd3, %rd2, %rd4;\n";

fn kernel(name: &str, body: &str) -> String {
    format!(".visible .entry {name}{PARAMS}\n{{\n{REGS}{PROLOGUE}{body}\n}}\n")
}

#[test]
fn diamond() {
    let src = kernel(
        "diamond",
        "setp.lt.u32 %p1, %r31, 4;\n@%p1 bra $then;\nmul.lo.s32 %r2, %r31, 10;\nbra.uni $join;\n\
$then:\nadd.s32 %r2, %r31, 100;\n$join:\nst.global.u32 [%rd3], %r2;\nret;",
    );
    let want: Vec<i32> = (0..8)
        .map(|t| if t < 4 { t + 100 } else { t * 10 })
        .collect();
    check(&src, "diamond", 8, &[], &want, &[Arg::i32(0)]);
}

#[test]
fn nested_loops() {
    // out[t] = sum over i < t + 1, j < i of (i * j).
    let src = kernel(
        "nested",
        "mov.u32 %r2, 0;\nmov.u32 %r3, 0;\nadd.s32 %r9, %r31, 1;\n\
$outer:\nmov.u32 %r4, 0;\nsetp.ge.s32 %p1, %r4, %r3;\n@%p1 bra $inner_done;\n\
$inner:\nmul.lo.s32 %r5, %r3, %r4;\nadd.s32 %r2, %r2, %r5;\nadd.s32 %r4, %r4, 1;\n\
setp.lt.s32 %p2, %r4, %r3;\n@%p2 bra $inner;\n\
$inner_done:\nadd.s32 %r3, %r3, 1;\nsetp.lt.s32 %p3, %r3, %r9;\n@%p3 bra $outer;\n\
st.global.u32 [%rd3], %r2;\nret;",
    );
    let want: Vec<i32> = (0..6)
        .map(|t| (0..t + 1).map(|i| (0..i).map(|j| i * j).sum::<i32>()).sum())
        .collect();
    check(&src, "nested", 6, &[], &want, &[Arg::i32(0)]);
}

#[test]
fn loop_with_several_exits_and_an_early_return() {
    // Searches in[0..n) for tid: writes the index if found, -1 if a negative
    // value comes first, returns early (writing 7777) when in[0] == tid + 100.
    let src = kernel(
        "search",
        "ld.global.u32 %r2, [%rd1];\nadd.s32 %r3, %r31, 100;\nsetp.eq.s32 %p1, %r2, %r3;\n\
@%p1 bra $early;\nmov.u32 %r4, 0;\n\
$loop:\nsetp.ge.s32 %p2, %r4, %r30;\n@%p2 bra $notfound;\n\
mul.wide.s32 %rd5, %r4, 4;\nadd.s64 %rd6, %rd1, %rd5;\nld.global.u32 %r5, [%rd6];\n\
setp.lt.s32 %p3, %r5, 0;\n@%p3 bra $negative;\nsetp.eq.s32 %p4, %r5, %r31;\n@%p4 bra $found;\n\
add.s32 %r4, %r4, 1;\nbra.uni $loop;\n\
$found:\nst.global.u32 [%rd3], %r4;\nret;\n\
$negative:\nmov.u32 %r6, -1;\nst.global.u32 [%rd3], %r6;\nret;\n\
$notfound:\nmov.u32 %r7, -2;\nst.global.u32 [%rd3], %r7;\nret;\n\
$early:\nmov.u32 %r8, 7777;\nst.global.u32 [%rd3], %r8;\nret;",
    );
    let input = [103, 2, 0, 5, 1, -3, 4];
    let n = input.len() as i32;
    let want: Vec<i32> = (0..8)
        .map(|t| {
            if input[0] == t + 100 {
                return 7777;
            }
            for (i, &v) in input.iter().enumerate() {
                if v < 0 {
                    return -1;
                }
                if v == t {
                    return i as i32;
                }
            }
            -2
        })
        .collect();
    check(&src, "search", 8, &input, &want, &[Arg::i32(n)]);
}

#[test]
fn loop_with_a_barrier_is_interchanged() {
    // Shared-memory tree reduction: a uniform loop around bar.sync.
    let src = format!(
        ".shared .align 4 .b8 sdata[256];\n{}",
        kernel(
            "tree",
            "mul.wide.u32 %rd5, %r31, 4;\nadd.s64 %rd6, %rd1, %rd5;\nld.global.u32 %r2, [%rd6];\n\
mov.u32 %r3, sdata;\nshl.b32 %r4, %r31, 2;\nadd.s32 %r5, %r3, %r4;\nst.shared.u32 [%r5], %r2;\n\
bar.sync 0;\nmov.u32 %r6, %ntid.x;\nshr.u32 %r7, %r6, 1;\n\
$loop:\nsetp.eq.s32 %p1, %r7, 0;\n@%p1 bra $done;\nsetp.ge.u32 %p2, %r31, %r7;\n@%p2 bra $skip;\n\
shl.b32 %r8, %r7, 2;\nadd.s32 %r9, %r5, %r8;\nld.shared.u32 %r10, [%r9];\nld.shared.u32 %r11, [%r5];\n\
add.s32 %r12, %r11, %r10;\nst.shared.u32 [%r5], %r12;\n\
$skip:\nbar.sync 0;\nshr.u32 %r7, %r7, 1;\nbra.uni $loop;\n\
$done:\nld.shared.u32 %r13, [%r3];\nst.global.u32 [%rd3], %r13;\nret;"
        )
    );
    let input: Vec<i32> = (0..64).map(|k| (k * 7) % 13 - 5).collect();
    let total: i32 = input.iter().sum();
    let m = check(&src, "tree", 64, &input, &vec![total; 64], &[Arg::i32(64)]);
    // The loop is a `while` containing the barrier (what `distribute` interchanges).
    let (_, k) = m
        .functions
        .iter()
        .find(|(_, f)| f.kind == FunctionKind::Kernel)
        .expect("kernel");
    let parents = k.parents();
    let barrier_in_while = k.walk().iter().any(|&(_, op)| {
        matches!(k.ops[op].kind, OpKind::Barrier(_))
            && parents
                .ancestors(op)
                .iter()
                .any(|&a| k.ops[a].kind == OpKind::While)
    });
    assert!(barrier_in_while, "{m}");
}

#[test]
fn irreducible_control_flow_is_an_error() {
    let src = format!(
        "{HEADER}{}",
        kernel(
            "irr",
            "setp.lt.u32 %p1, %r31, 4;\n@%p1 bra $a;\nbra.uni $b;\n\
$a:\nadd.s32 %r2, %r2, 1;\nsetp.lt.s32 %p2, %r2, 10;\n@%p2 bra $b;\nret;\n\
$b:\nadd.s32 %r2, %r2, 2;\nsetp.lt.s32 %p3, %r2, 20;\n@%p3 bra $a;\nret;"
        )
    );
    let e = lower_ptx(&src, "irr.ptx")
        .expect_err("irreducible")
        .to_string();
    assert!(
        e.starts_with("irr.ptx:")
            && e.ends_with("irreducible control flow in `irr` (a second entry into a loop)"),
        "{e}"
    );
}

#[test]
fn structurizer_plans() {
    use cucc_frontend::ptx::structure::{analyze, Cfg, Edge};
    // 0 -> 1 -> {2, 3}; 2 -> 1 (back edge); 3 exits; 1 also -> 4 -> 3.
    let cfg = Cfg {
        succs: vec![vec![1], vec![2, 4], vec![1], vec![], vec![3]],
    };
    let p = analyze(&cfg).expect("reducible");
    assert!(p.header[1]);
    assert_eq!(p.edge(2, 1), Edge::Continue);
    assert_eq!(p.edge(1, 2), Edge::Inline);
    // 4 leaves the loop {1, 2}: it is placed after the loop.
    assert_eq!(p.outside[1], vec![4]);
    assert_eq!(p.edge(1, 4), Edge::Exit);
    // Diamond: 0 -> {1, 2} -> 3: 3 is a merge node of 0.
    let d = Cfg {
        succs: vec![vec![1, 2], vec![3], vec![3], vec![]],
    };
    let p = analyze(&d).expect("reducible");
    assert_eq!(p.inside[0], vec![3]);
    assert_eq!(p.edge(1, 3), Edge::Exit);
    // Two entries into the cycle {1, 2}.
    let irr = Cfg {
        succs: vec![vec![1, 2], vec![2], vec![1]],
    };
    assert!(analyze(&irr).is_err());
}

#[test]
fn jump_table_switch() {
    // switch (tid % 5) { case 0: 10; case 1, 3: 20 + tid; case 2: 30; default(4): 40 }
    let src = kernel(
        "sw",
        "rem.u32 %r2, %r31, 5;\n$tbl: .branchtargets $c0, $c13, $c2, $c13, $c4;\nbrx.idx %r2, $tbl;\n\
$c0:\nmov.u32 %r3, 10;\nbra.uni $end;\n$c13:\nadd.s32 %r3, %r31, 20;\nbra.uni $end;\n\
$c2:\nmov.u32 %r3, 30;\nbra.uni $end;\n$c4:\nmov.u32 %r3, 40;\n\
$end:\nst.global.u32 [%rd3], %r3;\nret;",
    );
    let want: Vec<i32> = (0..12)
        .map(|t| match t % 5 {
            0 => 10,
            1 | 3 => 20 + t,
            2 => 30,
            _ => 40,
        })
        .collect();
    check(&src, "sw", 12, &[], &want, &[Arg::i32(0)]);
}
