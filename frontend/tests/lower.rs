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
fn inline_ptx_unsupported_instruction_is_diagnosed() {
    let src = "__global__ void k(unsigned *o, const unsigned *p) {\n  unsigned x = 0;\n  asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(x), \"l\"(p));\n  o[0] = x;\n}\n";
    assert_eq!(
        diagnose("a.cu", src),
        "a.cu:3:3: error: inline PTX: unsupported instruction `cp.async.ca.shared.global`\n\
         \x20 asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(x), \"l\"(p));\n\
         \x20 ^\n"
    );
}

#[test]
fn inline_ptx_limits_are_diagnosed() {
    let shared = "__global__ void k(unsigned *o) { unsigned x = 0; asm(\"ld.shared.u32 %0, [%1];\" : \"=r\"(x) : \"r\"(x)); o[0] = x; }\n";
    let e = diagnose("s.cu", shared);
    assert!(
        e.contains("s.cu:1:50: error: `ld.shared.u32` in inline PTX: the `.shared` state space is not supported"),
        "{e}"
    );
    let ret = "__global__ void k(unsigned *o) { unsigned x = 0; asm(\"mov.u32 %0, 1; ret;\" : \"=r\"(x)); o[0] = x; }\n";
    assert!(diagnose("r.cu", ret).contains("`ret` in inline PTX: leaving the asm early"));
    let ms = "#define T \"mov.u32 %0, 1;\"\n__global__ void k(unsigned *o) { unsigned x; asm(T : \"=r\"(x)); o[0] = x; }\n";
    assert!(diagnose("m.cu", ms).contains("string literal"));
}

#[test]
fn inline_ptx_operands() {
    // A tied input, named operands, an "n" template argument, 16-bit and
    // 64-bit registers, a pointer in "l", a float in "f", a bool input,
    // a basic asm statement and a local label made unique with `%=`.
    let m = lower(
        r#"
template <int S>
__device__ unsigned shifted(unsigned v) {
  unsigned r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(v), "n"(S));
  return r;
}
__global__ void k(unsigned *o, const unsigned *in) {
  unsigned a = in[threadIdx.x];
  unsigned t;
  asm("add.u32 %0, %1, 7;" : "=r"(t) : "0"(a));
  o[threadIdx.x * 8 + 0] = t;
  unsigned s;
  asm("sub.u32 %[out], %[x], %[y];" : [out] "=r"(s) : [x] "r"(a), [y] "r"(3u));
  o[threadIdx.x * 8 + 1] = s;
  o[threadIdx.x * 8 + 2] = shifted<4>(a);
  unsigned short h = (unsigned short)a, h2;
  asm("xor.b16 %0, %1, 0x00ff;" : "=h"(h2) : "h"(h));
  o[threadIdx.x * 8 + 3] = h2;
  unsigned long long q;
  asm("mul.wide.u32 %0, %1, %1;" : "=l"(q) : "r"(a));
  o[threadIdx.x * 8 + 4] = (unsigned)(q >> 32);
  const unsigned *p;
  asm("add.u64 %0, %1, 4;" : "=l"(p) : "l"(in + threadIdx.x));
  o[threadIdx.x * 8 + 5] = *p;
  float f;
  asm("mul.rn.f32 %0, %1, 0f40000000;" : "=f"(f) : "f"((float)(a & 255)));
  o[threadIdx.x * 8 + 6] = (unsigned)f;
  bool odd = a & 1;
  unsigned c = 0;
  asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t@p bra L%=;\n\tmov.u32 %0, 100;\nL%=:\n\t}" : "+r"(c) : "r"(odd));
  asm volatile("membar.cta;");
  o[threadIdx.x * 8 + 7] = c;
}
"#,
    );
    let k = kernel(&m, "k");
    let mut it = Interpreter::new(&m);
    let n = 32usize;
    let input: Vec<u32> = (0..=n as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x1234)
        .collect();
    let pin = it.memory.alloc(Space::Global, 4 * (n as u64 + 1));
    let pout = it.memory.alloc(Space::Global, 4 * 8 * n as u64);
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    it.memory.write(pin, &bytes).unwrap();
    it.launch(
        &k,
        &LaunchConfig::linear(1, n as u32),
        &[Arg::ptr(pout), Arg::ptr(pin)],
    )
    .unwrap();
    let got = it.memory.read(pout, 4 * 8 * n as u64).unwrap();
    for (i, &a) in input.iter().take(n).enumerate() {
        let want = [
            a.wrapping_add(7),
            a.wrapping_sub(3),
            a << 4,
            u32::from(a as u16 ^ 0xff),
            ((u64::from(a) * u64::from(a)) >> 32) as u32,
            input[i + 1],
            2 * (a & 255),
            if a & 1 == 1 { 0 } else { 100 },
        ];
        for (k, w) in want.iter().enumerate() {
            let at = 4 * (8 * i + k);
            let g = u32::from_le_bytes(got[at..at + 4].try_into().unwrap());
            assert_eq!(g, *w, "thread {i} result {k}");
        }
    }
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
    fn fetch(&self, req: &cucc_ir::interp::TexRequest<'_>) -> Result<Vec<u64>, String> {
        if req.handle != 7 || req.kind != cucc_ir::TexKind::Tex3D || req.coords.len() != 3 {
            return Err(format!("unexpected fetch {} {:?}", req.handle, req.kind));
        }
        let c: Vec<f32> = req
            .coords
            .iter()
            .map(|&b| f32::from_bits(b as u32))
            .collect();
        let v = c[0].floor() + 10.0 * c[1].floor() + 100.0 * c[2].floor();
        Ok(vec![u64::from(v.to_bits()); req.results])
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
