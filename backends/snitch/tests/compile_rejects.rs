//! Kernels the compiler must reject, each with the construct and the
//! source location in the diagnostic.

use cucc_snitch::compile::{compile, Diagnostic};

fn reject(body: &str, params: &str) -> Diagnostic {
    let text = format!(
        "file \"k.cu\"\n\ndevice @k({params}) loc(0:1:1) {{\n  %c0 = const 0 : i32\n  %c1 = const 1 : i32\n  %c8 = const 8 : i32\n{body}\n  return\n}}\n"
    );
    let m = cucc_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match compile(&m, "k") {
        Ok(p) => panic!("compiled:\n{}", p.asm),
        Err(d) => d,
    }
}

const PTRS: &str = "%x: ptr<global> noalias, %y: ptr<global> noalias";

#[test]
fn atomics_are_rejected_with_their_line() {
    let d = reject(
        "  for %i = %c0 to %c8 step %c1 {\n    %p = ptr.index f32 %x, %i : ptr<global>\n    %one = const 1.0 : f32\n    %o = atomic.rmw fadd device %p, %one : f32 loc(0:7:5)\n    yield\n  }",
        PTRS,
    );
    assert_eq!(d.construct, "atomic.rmw");
    assert_eq!(d.location, "k.cu:7:5");
    assert!(d.message.contains("atomics"), "{d}");
    assert_eq!(
        d.to_string(),
        format!("k.cu:7:5: error: k: atomic.rmw: {}", d.message)
    );
}

#[test]
fn data_dependent_indexing_is_rejected() {
    let d = reject(
        "  for %i = %c0 to %c8 step %c1 {\n    %ip = ptr.index i32 %y, %i : ptr<global>\n    %j = load %ip : i32 loc(0:3:14)\n    %p = ptr.index f64 %x, %j : ptr<global>\n    %v = load %p : f64\n    store %p, %v\n    yield\n  }",
        PTRS,
    );
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("integer load", "k.cu:3:14")
    );
}

#[test]
fn barriers_are_rejected() {
    let d = reject("  barrier block loc(0:4:3)", PTRS);
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("barrier", "k.cu:4:3")
    );
}

#[test]
fn warp_functions_are_rejected() {
    let d = reject(
        "  %m = const -1 : i32\n  %w = const 32 : i32\n  %v = const 1.0 : f32\n  %s = shuffle down %m, %v, %c1, %w : f32 loc(0:9:11)",
        PTRS,
    );
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("shuffle", "k.cu:9:11")
    );
    assert!(d.message.contains("warp"), "{d}");
}

#[test]
fn calls_are_rejected() {
    let d = reject(
        "  %v = const 1.0 : f32\n  %s = call extern @sinf(%v) : f32 loc(0:5:2)",
        PTRS,
    );
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("call", "k.cu:5:2")
    );
}

#[test]
/// A `while` whose trip count is not known at compile time (here an
/// argument bounds it); one on constants runs as a counted loop.
fn while_loops_are_rejected() {
    let d = reject(
        "  %r = while (%i = %c0) -> (i32) {\n    %c = cmp slt %i, %n : i1\n    condition %c, %i\n  } do (%j: i32) {\n    %m = add %j, %c1 : i32\n    yield %m\n  } loc(0:6:3)",
        "%x: ptr<global> noalias, %n: i32",
    );
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("while", "k.cu:6:3")
    );
}

/// An `if` on something only known at run time (an `if` on constants, as
/// cpuify's versioning on a known launch shape, runs its taken arm).
#[test]
fn conditional_code_is_rejected() {
    let d = reject(
        "  %t = cmp slt %n, %c8 : i1\n  if %t {\n    yield\n  } else {\n    yield\n  } loc(0:2:9)",
        "%x: ptr<global> noalias, %n: i32",
    );
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("if", "k.cu:2:9")
    );
}

#[test]
fn per_thread_form_is_rejected() {
    let d = reject("  %t = thread_id x : i32 loc(0:3:3)\n  %p = ptr.index f64 %x, %t : ptr<global>\n  %v = load %p : f64\n  store %p, %v", PTRS);
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("thread_id", "k.cu:3:3")
    );
    assert!(d.message.contains("lower-launch"), "{d}");
}

#[test]
fn non_affine_index_is_rejected() {
    let d = reject(
        "  for %i = %c0 to %c8 step %c1 {\n    %sq = mul %i, %i : i32 loc(0:4:8)\n    %p = ptr.index f64 %x, %sq : ptr<global>\n    %v = load %p : f64\n    store %p, %v\n    yield\n  }",
        PTRS,
    );
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("mul of two variables", "k.cu:4:8")
    );
}

#[test]
fn local_arrays_are_rejected() {
    let d = reject(
        "  %s = alloca private [8 x f64] : ptr<private> loc(0:2:3)",
        PTRS,
    );
    assert_eq!(
        (d.construct.as_str(), d.location.as_str()),
        ("alloca", "k.cu:2:3")
    );
}

#[test]
fn unknown_kernel_is_an_error_not_a_panic() {
    let m = cucc_ir::parse_module("file \"k.cu\"\n").unwrap_or_else(|e| panic!("{e}"));
    let d = compile(&m, "nope")
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    assert_eq!(d.construct, "kernel");
}

/// More accumulators than FP registers: the allocator reports it, it does
/// not spill.
#[test]
fn register_pressure_is_reported() {
    // 40 independent sums carried by one loop.
    let mut body = String::from("  %z = const 0.0 : f64\n");
    let inits: Vec<String> = (0..40).map(|k| format!("%a{k} = %z")).collect();
    let results: Vec<String> = (0..40).map(|k| format!("%r{k}")).collect();
    let types = vec!["f64"; 40].join(", ");
    body.push_str(&format!(
        "  {} = for %i = %c0 to %c8 step %c1 iter({}) -> ({types}) {{\n",
        results.join(", "),
        inits.join(", ")
    ));
    body.push_str("    %p = ptr.index f64 %x, %i : ptr<global>\n    %v = load %p : f64\n");
    let mut yields = Vec::new();
    for k in 0..40 {
        body.push_str(&format!("    %n{k} = fadd %a{k}, %v : f64\n"));
        yields.push(format!("%n{k}"));
    }
    body.push_str(&format!("    yield {}\n  }}\n", yields.join(", ")));
    for k in 0..40 {
        body.push_str(&format!(
            "  %c{k}x = const {k} : i32\n  %q{k} = ptr.index f64 %y, %c{k}x : ptr<global>\n  store %q{k}, %r{k}\n"
        ));
    }
    let d = reject(&body, PTRS);
    assert_eq!(d.construct, "register allocation");
    assert!(d.message.contains("out of FP registers"), "{d}");
}

#[test]
fn malformed_ir_is_a_diagnostic() {
    // A store of a value of the wrong kind: the verifier's message comes back.
    let d = reject("  store %c0, %c1", PTRS);
    assert_eq!(d.construct, "malformed IR");
}
