//! Lowering tests: CUDA sources lowered, verified and run in the interpreter
//! against host-computed expectations.

use cucc_frontend::cuda::{lower_source, LowerOptions};
use cucc_ir::interp::{Arg, Interpreter, LaunchConfig};
use cucc_ir::{Module, Space};

fn lower(src: &str) -> Module {
    match lower_source("t.cu", src, &LowerOptions::default()) {
        Ok(m) => {
            cucc_ir::verify_module(&m).expect("verifies");
            m
        }
        Err(d) => panic!("lowering failed:\n{}", d.render()),
    }
}

fn kernel(m: &Module, prefix: &str) -> String {
    m.functions
        .iter()
        .map(|(_, f)| f.name.clone())
        .find(|n| n.contains(prefix))
        .unwrap_or_else(|| panic!("no kernel {prefix}"))
}

#[test]
fn arithmetic_control_flow_structs() {
    let m = lower(
        r#"
struct P { float x; int n; __device__ float get() const { return x * n; } };
__device__ int sq(int v) { return v * v; }
__global__ void vadd(const float *__restrict__ a, float *b, int n, P p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int k = 0; k < 4; ++k) { if (k == 2) continue; s += a[i] * k; }
  switch (i % 3) { case 0: s += 1; case 1: s += 10; break; default: s += 100; }
  int j = 0;
  do { j++; if (j > 5) break; } while (j < 3);
  b[i] = s + sq(i) + p.get() + j;
}
"#,
    );
    let k = kernel(&m, "vadd");
    let mut it = Interpreter::new(&m);
    let n = 40usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let pa = it.memory.alloc(Space::Global, 4 * n as u64);
    let pb = it.memory.alloc(Space::Global, 4 * n as u64);
    it.memory.write_f32s(pa, &a).unwrap();
    let mut pbytes = 2.5f32.to_le_bytes().to_vec();
    pbytes.extend(3i32.to_le_bytes());
    it.launch(
        &k,
        &LaunchConfig::linear(2, 32),
        &[
            Arg::ptr(pa),
            Arg::ptr(pb),
            Arg::i32(n as i32 - 3),
            Arg::Byval(pbytes),
        ],
    )
    .unwrap();
    let b = it.memory.read_f32s(pb, n).unwrap();
    for i in 0..n {
        let exp = if i >= n - 3 {
            0.0
        } else {
            let mut s = 0f32;
            for kk in [0, 1, 3] {
                s += a[i] * kk as f32;
            }
            s += match i % 3 {
                0 => 11.0,
                1 => 10.0,
                _ => 100.0,
            };
            s + (i * i) as f32 + 7.5 + 3.0
        };
        assert_eq!(b[i], exp, "element {i}");
    }
}

#[test]
fn shared_memory_reduction_template() {
    let m = lower(
        r#"
template <class T, int N> __global__ void red(const T *in, T *out) {
  __shared__ T s[N];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * N + t];
  __syncthreads();
  for (int k = N / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}
template __global__ void red<int, 64>(const int *, int *);
"#,
    );
    let k = kernel(&m, "red");
    let mut it = Interpreter::new(&m);
    let v: Vec<i32> = (0..256).collect();
    let pi = it.memory.alloc(Space::Global, 4 * 256);
    let po = it.memory.alloc(Space::Global, 4);
    it.memory.write_i32s(pi, &v).unwrap();
    it.launch(
        &k,
        &LaunchConfig::linear(4, 64),
        &[Arg::ptr(pi), Arg::ptr(po)],
    )
    .unwrap();
    assert_eq!(
        it.memory.read_i32s(po, 1).unwrap()[0],
        v.iter().sum::<i32>()
    );
}

/// A forward goto lowers; a backward one (a loop made with goto) and one
/// into a block that does not enclose it are diagnosed at the goto.
#[test]
fn backward_goto_is_diagnosed() {
    let fwd = "__global__ void k(int *p) {\n  goto end;\n  p[1] = 2;\nend:\n  p[0] = 1;\n}\n";
    assert!(lower_source("f.cu", fwd, &LowerOptions::default()).is_ok());
    let src =
        "__global__ void k(int *p) {\nagain:\n  p[0] += 1;\n  if (p[0] < 10) goto again;\n}\n";
    assert_eq!(
        diagnose("g.cu", src),
        "g.cu:4:18: error: goto to label 'again' jumps backward (a loop made with goto), \
         which is not supported in device code: write the loop as a for/while loop\n  \
         if (p[0] < 10) goto again;\n                 ^\n"
    );
    let into =
        "__global__ void k(int *p) {\n  if (p[0]) goto in;\n  {\n  in:\n    p[1] = 0;\n  }\n}\n";
    assert!(
        diagnose("i.cu", into)
            .starts_with("i.cu:2:13: error: goto to label 'in' jumps into a block"),
        "{}",
        diagnose("i.cu", into)
    );
    // Within one case of a switch: lowered; into the next case: diagnosed.
    let same =
        "__global__ void k(int *p) {\n  switch (p[0]) {\n  case 1:\n    if (p[1]) goto l;\n    \
                p[2] = 0;\n  l:\n    p[3] = 0;\n    break;\n  default:\n    p[4] = 0;\n  }\n}\n";
    assert!(lower_source("s.cu", same, &LowerOptions::default()).is_ok());
    let across = "__global__ void k(int *p) {\n  switch (p[0]) {\n  case 1:\n    goto l;\n  \
                  case 2:\n    p[2] = 0;\n  l:\n    p[3] = 0;\n  }\n}\n";
    assert!(
        diagnose("c.cu", across)
            .starts_with("c.cu:4:5: error: goto to label 'l' jumps across a case label"),
        "{}",
        diagnose("c.cu", across)
    );
}

/// Lowers `src` as `name` and returns the rendered diagnostics.
fn diagnose(name: &str, src: &str) -> String {
    match lower_source(name, src, &LowerOptions::default()) {
        Ok(_) => panic!("{name} lowered without an error"),
        Err(e) => e.render(),
    }
}

#[test]
fn virtual_call_is_diagnosed() {
    let src = "struct Shape { __device__ virtual float area() const { return 0; } };\n\
               __global__ void k(Shape *s, float *o) { o[0] = s->area(); }\n";
    assert_eq!(
        diagnose("v.cu", src),
        "v.cu:2:48: error: virtual calls are not supported in device code\n\
         __global__ void k(Shape *s, float *o) { o[0] = s->area(); }\n\
         \x20                                              ^\n"
    );
}

#[test]
fn recursion_is_diagnosed() {
    let src = "__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n\
               __global__ void k(int *o) { o[0] = fact(5); }\n";
    assert_eq!(
        diagnose("r.cu", src),
        "r.cu:1:54: error: recursion is not supported in device code (call cycle through '_Z4facti')\n\
         __device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n\
         \x20                                                    ^\n"
    );
}

#[test]
fn inline_assembly_is_diagnosed() {
    let src =
        "__global__ void k(int *o) { int x; asm(\"mov.u32 %0, 1;\" : \"=r\"(x)); o[0] = x; }\n";
    assert_eq!(
        diagnose("a.cu", src),
        "a.cu:1:36: error: inline assembly is not supported in device code\n\
         __global__ void k(int *o) { int x; asm(\"mov.u32 %0, 1;\" : \"=r\"(x)); o[0] = x; }\n\
         \x20                                  ^\n"
    );
}

#[test]
fn clang_errors_pass_through() {
    let e = diagnose(
        "c.cu",
        "__global__ void k(int *o) { o[0] = undeclared_name; }\n",
    );
    assert!(
        e.contains("c.cu:1:36: error: use of undeclared identifier 'undeclared_name'"),
        "{e}"
    );
}

#[test]
fn sincos_and_ldg() {
    use cucc_ir::interp::{Arg, Interpreter, LaunchConfig};
    let src = "__global__ void k(const float *in, float *s, float *c) {\n\
               int i = threadIdx.x;\n\
               float x = __ldg(&in[i]);\n\
               sincosf(x, &s[i], &c[i]);\n\
               }\n";
    let m = lower_source("sc.cu", src, &LowerOptions::default()).expect("lowers");
    cucc_ir::verify_module(&m).expect("valid");
    let mut it = Interpreter::new(&m);
    let input: Vec<f32> = (0..8).map(|i| i as f32 * 0.4).collect();
    let pin = it.memory.alloc(cucc_ir::Space::Global, 32);
    it.memory.write_f32s(pin, &input).expect("write");
    let ps = it.memory.alloc(cucc_ir::Space::Global, 32);
    let pc = it.memory.alloc(cucc_ir::Space::Global, 32);
    let name = m
        .functions
        .iter()
        .map(|(_, f)| f.name.clone())
        .find(|n| n.starts_with("_Z1k"))
        .expect("kernel");
    it.launch(
        &name,
        &LaunchConfig::linear(1, 8),
        &[Arg::ptr(pin), Arg::ptr(ps), Arg::ptr(pc)],
    )
    .expect("runs");
    let s = it.memory.read_f32s(ps, 8).expect("read");
    let c = it.memory.read_f32s(pc, 8).expect("read");
    for i in 0..8 {
        assert_eq!(s[i], input[i].sin());
        assert_eq!(c[i], input[i].cos());
    }
}

/// A 3-D texture whose texel at (x, y, z) is x + 10y + 100z (point
/// sampling at the floor of unnormalised coordinates).
struct Cube;

impl cucc_ir::interp::TextureResolver for Cube {
    fn fetch(
        &self,
        handle: u64,
        kind: cucc_ir::TexKind,
        coords: &[u64],
        results: usize,
    ) -> Result<Vec<u64>, String> {
        if handle != 7 || kind != cucc_ir::TexKind::Tex3D || coords.len() != 3 {
            return Err(format!("unexpected fetch {handle} {kind:?}"));
        }
        let c: Vec<f32> = coords.iter().map(|&b| f32::from_bits(b as u32)).collect();
        let v = c[0].floor() + 10.0 * c[1].floor() + 100.0 * c[2].floor();
        Ok(vec![u64::from(v.to_bits()); results])
    }
}

#[test]
fn tex3d_on_a_texture_object() {
    use cucc_ir::interp::{Arg, Interpreter, LaunchConfig};
    let src = "__global__ void k(cudaTextureObject_t t, float *o) {\n\
               int i = threadIdx.x;\n\
               o[i] = tex3D<float>(t, i + 0.5f, 2.5f, 3.5f);\n\
               }\n";
    let m = lower_source("t3.cu", src, &LowerOptions::default()).expect("lowers");
    cucc_ir::verify_module(&m).expect("valid");
    let mut it = Interpreter::new(&m);
    it.set_textures(Box::new(Cube));
    let po = it.memory.alloc(cucc_ir::Space::Global, 16);
    let name = m
        .functions
        .iter()
        .map(|(_, f)| f.name.clone())
        .find(|n| n.starts_with("_Z1k"))
        .expect("kernel");
    it.launch(
        &name,
        &LaunchConfig::linear(1, 4),
        &[Arg::i64(7), Arg::ptr(po)],
    )
    .expect("runs");
    assert_eq!(
        it.memory.read_f32s(po, 4).expect("read"),
        vec![320.0, 321.0, 322.0, 323.0]
    );
}

#[test]
fn lambda_init_captures_and_int128_are_diagnosed() {
    let src = "__global__ void k(int *p) {\n  int x = p[0];\n  auto f = [y = x + 1](int v) { return v * y; };\n  p[1] = f(2);\n}\n";
    assert_eq!(
        diagnose("l.cu", src),
        "l.cu:3:44: error: init-captures such as 'y' in `[y = ...]` are not supported in device code\n  auto f = [y = x + 1](int v) { return v * y; };\n                                           ^\n"
    );
    let src = "__global__ void k(unsigned long long *p) {\n  unsigned __int128 w = (unsigned __int128)p[0] * p[1];\n  p[2] = (unsigned long long)(w >> 64);\n}\n";
    let e = diagnose("w.cu", src);
    assert!(
        e.contains("128-bit integers ('unsigned __int128') are not supported in device code"),
        "{e}"
    );
}

#[test]
fn double_fma_with_directed_rounding_is_diagnosed() {
    let src = "__global__ void k(double *o) { o[0] = __fma_rd(o[1], o[2], o[3]); }\n";
    let d = diagnose("f.cu", src);
    assert!(
        d.starts_with("f.cu:1:39: error: `__fma_rd`: a double-precision fma rounded toward zero or an infinity is not supported"),
        "{d}"
    );
}
