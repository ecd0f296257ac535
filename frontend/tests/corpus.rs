//! The project's CUDA corpus (`tests/cuda/` at the repository root): every
//! program compiles on the device and host sides against cucc's headers,
//! and every kernel, lowered by the CUDA frontend and run in the reference
//! interpreter, produces what the program's own host reference computes
//! (mirrored here in Rust, with the same tolerances).

mod common;

use std::collections::HashMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

use cucc_frontend::clang::{ClangOptions, CudaSide};
use cucc_ir::interp::{Arg, Interpreter, LaunchConfig, TextureResolver};
use cucc_ir::{FunctionKind, Module, Space, TexKind};

// ---------------------------------------------------------------- plumbing

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cuda")
}

fn programs() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/cuda exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    out.sort();
    out
}

/// Lowers one program with the CUDA frontend.
fn lower(path: &Path) -> Result<Module, String> {
    // Temporary until `cucc_frontend::lower_file` lands:
    // cucc_frontend::lower_file(path, &cucc_frontend::LowerOptions::default())
    //     .map_err(|d| d.to_string())
    Err(format!(
        "{}: frontend lowering not available",
        path.display()
    ))
}

/// Lowers and verifies `tests/cuda/NAME.cu`.
fn load(name: &str) -> Module {
    let path = corpus_dir().join(format!("{name}.cu"));
    let module = lower(&path).unwrap_or_else(|e| panic!("lowering {name}.cu failed:\n{e}"));
    if let Err(e) = cucc_ir::verify_module(&module) {
        panic!("{name}.cu lowers to an invalid module:\n{e}");
    }
    module
}

/// The symbol of the kernel written `name` in the source: `name` itself
/// (`extern "C"`) or its Itanium mangling, whose prefix is `_Z<len><name>`;
/// `targs` selects a template instantiation by the text that follows
/// (e.g. `IiLi2EE`).
fn kernel_symbol(m: &Module, name: &str, targs: &str) -> String {
    let prefix = format!("_Z{}{}{}", name.len(), name, targs);
    let found: Vec<&str> = m
        .functions
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.kind != FunctionKind::Device)
        .map(|f| f.name.as_str())
        .filter(|n| (targs.is_empty() && *n == name) || n.starts_with(&prefix))
        .collect();
    match found.as_slice() {
        [one] => one.to_string(),
        [] => panic!(
            "no kernel `{name}{targs}` among {:?}",
            m.functions.iter().map(|(_, f)| &f.name).collect::<Vec<_>>()
        ),
        many => panic!("kernel `{name}{targs}` is ambiguous: {many:?}"),
    }
}

/// A value that lives in device memory and can be a kernel argument.
trait Elem: Copy + PartialEq + Debug {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn take(b: &[u8]) -> Self;
    fn arg(self) -> Arg;
}

macro_rules! elem_int {
    ($($t:ty => $u:ty),*) => {$(
        impl Elem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) { out.extend_from_slice(&self.to_le_bytes()) }
            fn take(b: &[u8]) -> Self { <$t>::from_le_bytes(b.try_into().expect("element size")) }
            fn arg(self) -> Arg { Arg::Scalar(self as $u as u64) }
        }
    )*};
}
elem_int!(i8 => u8, u8 => u8, i16 => u16, u16 => u16, i32 => u32, u32 => u32, i64 => u64, u64 => u64);

impl Elem for f32 {
    const SIZE: usize = 4;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes())
    }
    fn take(b: &[u8]) -> Self {
        f32::from_le_bytes(b.try_into().expect("element size"))
    }
    fn arg(self) -> Arg {
        Arg::f32(self)
    }
}

impl Elem for f64 {
    const SIZE: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes())
    }
    fn take(b: &[u8]) -> Self {
        f64::from_le_bytes(b.try_into().expect("element size"))
    }
    fn arg(self) -> Arg {
        Arg::f64(self)
    }
}

impl Elem for bool {
    const SIZE: usize = 1;
    fn put(self, out: &mut Vec<u8>) {
        out.push(u8::from(self))
    }
    fn take(b: &[u8]) -> Self {
        b[0] != 0
    }
    fn arg(self) -> Arg {
        Arg::bool(self)
    }
}

fn bytes_of<T: Elem>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * T::SIZE);
    for &x in v {
        x.put(&mut out);
    }
    out
}

/// One program's device: its module in the interpreter.
struct Dev<'m> {
    m: &'m Module,
    it: Interpreter<'m>,
}

impl<'m> Dev<'m> {
    fn new(m: &'m Module) -> Self {
        let mut it = Interpreter::new(m);
        it.set_step_limit(Some(200_000_000));
        Dev { m, it }
    }

    /// `cudaMalloc` + `cudaMemcpy` host to device.
    fn buf<T: Elem>(&mut self, data: &[T]) -> u64 {
        let bytes = bytes_of(data);
        let p = self.it.memory.alloc(Space::Global, bytes.len().max(1) as u64);
        self.it.memory.write(p, &bytes).expect("host write");
        p
    }

    /// `cudaMalloc` of `n` zeroed elements.
    fn zeros<T: Elem>(&mut self, n: usize) -> u64 {
        self.it.memory.alloc(Space::Global, (n * T::SIZE).max(1) as u64)
    }

    /// `cudaMemcpy` device to host.
    fn get<T: Elem>(&self, p: u64, n: usize) -> Vec<T> {
        let bytes = self.it.memory.read(p, (n * T::SIZE) as u64).expect("host read");
        bytes.chunks_exact(T::SIZE).map(T::take).collect()
    }

    /// Overwrites device memory (`cudaMemcpy`/`cudaMemcpyToSymbol`).
    fn put<T: Elem>(&mut self, p: u64, data: &[T]) {
        self.it.memory.write(p, &bytes_of(data)).expect("host write");
    }

    /// The address of a `__device__`/`__constant__` variable.
    fn symbol(&self, name: &str) -> u64 {
        self.it
            .global_ptr(name)
            .unwrap_or_else(|| panic!("no global variable `{name}` in the module"))
    }

    fn launch_cfg(&mut self, name: &str, targs: &str, cfg: LaunchConfig, args: &[Arg]) {
        let sym = kernel_symbol(self.m, name, targs);
        if let Err(e) = self.it.launch(&sym, &cfg, args) {
            panic!("launch of {sym} failed: {e}");
        }
    }

    fn launch(&mut self, name: &str, grid: u32, block: u32, args: &[Arg]) {
        self.launch_cfg(name, "", LaunchConfig::linear(grid, block), args);
    }

    fn launch_t(&mut self, name: &str, targs: &str, grid: u32, block: u32, args: &[Arg]) {
        self.launch_cfg(name, targs, LaunchConfig::linear(grid, block), args);
    }
}

fn p(ptr: u64) -> Arg {
    Arg::ptr(ptr)
}

fn i(v: i32) -> Arg {
    Arg::i32(v)
}

fn cfg(grid: [u32; 3], block: [u32; 3], shared: u32) -> LaunchConfig {
    LaunchConfig {
        grid,
        block,
        dynamic_shared: shared,
    }
}

#[track_caller]
fn same<T: PartialEq + Debug>(what: &str, got: &[T], want: &[T]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| g != w)
        .take(8)
        .map(|(k, (g, w))| format!("[{k}] got {g:?} want {w:?}"))
        .collect();
    assert!(bad.is_empty(), "{what} differs:\n{}", bad.join("\n"));
}

#[track_caller]
fn close32(what: &str, got: &[f32], want: &[f32], rel: f32, abs: f32) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| (*g - *w).abs() > rel * w.abs() + abs || g.is_nan() != w.is_nan())
        .take(8)
        .map(|(k, (g, w))| format!("[{k}] got {g:e} want {w:e}"))
        .collect();
    assert!(bad.is_empty(), "{what} differs:\n{}", bad.join("\n"));
}

#[track_caller]
fn close64(what: &str, got: &[f64], want: &[f64], rel: f64, abs: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| (*g - *w).abs() > rel * w.abs() + abs || g.is_nan() != w.is_nan())
        .take(8)
        .map(|(k, (g, w))| format!("[{k}] got {g:e} want {w:e}"))
        .collect();
    assert!(bad.is_empty(), "{what} differs:\n{}", bad.join("\n"));
}

/// The LCG the programs use: `state = state * a + c` (mod 2^32).
fn lcg(state: &mut u32, a: u32, c: u32) -> u32 {
    *state = state.wrapping_mul(a).wrapping_add(c);
    *state
}

/// Textures for the tests: each handle names a `width x height` array of
/// 32-bit texels (row pitch in texels), read with point filtering,
/// unnormalised coordinates and clamping (fetches out of range give 0).
#[derive(Default)]
struct Textures {
    map: HashMap<u64, (Vec<u32>, usize, usize, usize)>,
}

impl Textures {
    fn add(&mut self, handle: u64, texels: Vec<u32>, width: usize, height: usize, pitch: usize) {
        self.map.insert(handle, (texels, width, height, pitch));
    }
}

impl TextureResolver for Textures {
    fn fetch(&self, handle: u64, kind: TexKind, coords: &[u64], results: usize) -> Result<Vec<u64>, String> {
        let (data, w, h, pitch) = self
            .map
            .get(&handle)
            .ok_or_else(|| format!("no texture bound to handle {handle:#x}"))?;
        let clamp = |c: u64, n: usize| -> usize {
            let x = f32::from_bits(c as u32).floor();
            if x < 0.0 {
                0
            } else {
                (x as usize).min(n - 1)
            }
        };
        let texel = match kind {
            TexKind::Fetch1D => {
                let k = c_i32(coords[0]);
                usize::try_from(k).ok().and_then(|k| data.get(k)).copied().unwrap_or(0)
            }
            TexKind::Tex1D => data[clamp(coords[0], *w)],
            TexKind::Tex2D => data[clamp(coords[1], *h) * pitch + clamp(coords[0], *w)],
            TexKind::Tex3D => return Err("no 3-D textures in the corpus".into()),
        };
        let mut out = vec![0u64; results];
        if let Some(first) = out.first_mut() {
            *first = u64::from(texel);
        }
        Ok(out)
    }
}

fn c_i32(bits: u64) -> i32 {
    bits as u32 as i32
}

// ------------------------------------------------------- compile checks

/// Every corpus program compiles without a diagnostic on both sides.
#[test]
fn tests_cuda_programs_compile() {
    let Some(clang) = common::clang() else {
        eprintln!("skipping: no clang to compile tests/cuda with");
        return;
    };
    let progs = programs();
    assert!(progs.len() >= 32, "expected the corpus, found {progs:?}");
    let mut failures = Vec::new();
    for src in &progs {
        for side in [CudaSide::Device, CudaSide::Host] {
            match clang.check(src, side, &ClangOptions::default()) {
                Ok(out) if out.stderr.trim().is_empty() => {}
                Ok(out) => failures.push(format!("{} ({side:?}): warnings:\n{}", src.display(), out.stderr)),
                Err(e) => failures.push(format!("{} ({side:?}):\n{e}", src.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every program has its case below, and says PASS under its own name.
#[test]
fn every_program_has_a_case() {
    let this = include_str!("corpus.rs");
    for src in programs() {
        let name = src.file_stem().and_then(|s| s.to_str()).expect("UTF-8 name").to_string();
        assert!(this.contains(&format!("fn {name}()")), "tests/cuda/{name}.cu has no case in corpus.rs");
        let text = std::fs::read_to_string(&src).expect("readable program");
        assert!(text.contains(&format!("PASS {name}")), "{name}.cu does not print `PASS {name}`");
        assert!(text.contains("int main("), "{name}.cu has no main");
    }
}

// ------------------------------------------------------------ the cases

macro_rules! affine_case {
    ($d:expr, $t:ty, $code:literal, $a:expr, $b:expr) => {{
        let a: $t = $a;
        let b: $t = $b;
        let input: Vec<$t> = (0..64).map(|k| (k % 11) as $t).collect();
        let pin = $d.buf(&input);
        let pout = $d.zeros::<$t>(64);
        $d.launch_t("affine", $code, 2, 32, &[p(pout), p(pin), a.arg(), b.arg(), i(64)]);
        let want: Vec<$t> = input.iter().map(|&x| affine_ref!($t, x, a, b)).collect();
        same(concat!("affine<", stringify!($t), ">"), &$d.get::<$t>(pout, 64), &want);
    }};
}

macro_rules! affine_ref {
    (f32, $x:expr, $a:expr, $b:expr) => {
        $x * $a + $b
    };
    (f64, $x:expr, $a:expr, $b:expr) => {
        $x * $a + $b
    };
    ($t:ty, $x:expr, $a:expr, $b:expr) => {
        (($x as i128) * ($a as i128) + ($b as i128)) as $t
    };
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn scalar_types() {
    let m = load("scalar_types");
    let mut d = Dev::new(&m);
    affine_case!(d, i8, "IcEE", 3, 5);
    affine_case!(d, i8, "IaEE", 3, -50);
    affine_case!(d, u8, "IhEE", 29, 7);
    affine_case!(d, i16, "IsEE", 1000, -3000);
    affine_case!(d, u16, "ItEE", 7000, 1);
    affine_case!(d, i32, "IiEE", -123456, 7);
    affine_case!(d, u32, "IjEE", 0x9E37_79B9, 1);
    affine_case!(d, i64, "IxEE", 1 << 40, -3);
    affine_case!(d, u64, "IyEE", 0x9E37_79B9_7F4A_7C15, 11);
    affine_case!(d, f32, "IfEE", 1.5, 0.25);
    affine_case!(d, f64, "IdEE", 1e10 + 0.5, -0.125);
    let input: Vec<i32> = (0..64).map(|k| (k * 7) % 23).collect();
    let pin = d.buf(&input);
    let pout = d.zeros::<bool>(64);
    d.launch("logic", 1, 64, &[p(pout), p(pin), i(64)]);
    let want: Vec<bool> = input.iter().map(|&x| (x % 2 == 0) != (x > 10)).collect();
    same("logic", &d.get::<bool>(pout, 64), &want);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn half_arith() {
    let m = load("half_arith");
    let mut d = Dev::new(&m);
    let n = 96;
    let a: Vec<f32> = (0..n).map(|k| (k % 16) as f32 * 0.5 - 3.0).collect();
    let b: Vec<f32> = (0..n).map(|k| (k % 7) as f32 * 0.25 + 1.0).collect();
    let (pa, pb, pout) = (d.buf(&a), d.buf(&b), d.zeros::<f32>(6 * n));
    d.launch("half_ops", 3, 32, &[p(pa), p(pb), p(pout), i(n as i32)]);
    let mut want = Vec::new();
    for k in 0..n {
        let (x, y) = (a[k], b[k]);
        let lt = if x < y { 1.0 } else if x == y { 0.5 } else { 0.0 };
        want.extend([x + y, x - y, x * y, x * y + (x + y), x * y + (x + y) - (x - y), lt]);
    }
    same("half_ops", &d.get::<f32>(pout, 6 * n), &want);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn pointers_arrays() {
    let m = load("pointers_arrays");
    let mut d = Dev::new(&m);
    let n = 40usize;
    let input: Vec<i32> = (0..n as i32 * 8).map(|k| (k * 37) % 101 - 50).collect();
    let (pin, pout) = (d.buf(&input), d.zeros::<i32>(4 * n));
    d.launch("rows", 2, 32, &[p(pin), p(pout), i(n as i32)]);
    let mut want = Vec::new();
    for t in 0..n {
        let row = &input[t * 8..t * 8 + 8];
        let mut local = [[0i32; 4]; 4];
        for (r, line) in local.iter_mut().enumerate() {
            for (c, v) in line.iter_mut().enumerate() {
                *v = row[(r + c) % 8] * (r as i32 + 1) - c as i32;
            }
        }
        let diag: i32 = (0..4).map(|k| local[k][k]).sum();
        want.extend([
            row.iter().sum::<i32>(),
            diag,
            4 * (local[3][0] + local[1][2]),
            local[3][3] - row[6] + 9,
        ]);
    }
    same("rows", &d.get::<i32>(pout, 4 * n), &want);
    let mat: Vec<f32> = (0..48).map(|k| k as f32 * 0.5).collect();
    let pm = d.buf(&mat);
    d.launch("scale_rows", 6, 8, &[p(pm), i(6)]);
    let want: Vec<f32> = mat.iter().enumerate().map(|(k, v)| v * 2.0 + (k / 8) as f32).collect();
    same("scale_rows", &d.get::<f32>(pm, 48), &want);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn structs_classes() {
    let m = load("structs_classes");
    let mut d = Dev::new(&m);
    let n = 64usize;
    let mut parts = Vec::new();
    for k in 0..n {
        parts.extend([k as f32 * 0.5, 10.0 - k as f32, (k % 5) as f32 * 0.25, 1.0 + (k % 3) as f32]);
    }
    let (pp, pq, pe) = (d.buf(&parts), d.zeros::<f32>(4 * n), d.zeros::<f32>(n));
    let mut params = bytes_of(&[n as i32]);
    params.extend(bytes_of(&[2.0f32]));
    d.launch("physics", 2, 32, &[p(pp), p(pq), p(pe), Arg::Byval(params)]);
    let vel = [2.0f32, -4.0, 1.0];
    let dot = vel.iter().map(|v| v * v).sum::<f32>();
    let mut want_q = Vec::new();
    let mut want_e = Vec::new();
    for k in 0..n {
        let q = &parts[4 * k..4 * k + 4];
        want_q.extend([q[0] + vel[0] + 0.25, q[1] + vel[1] + 0.25, q[2] + vel[2] + 0.25, q[3]]);
        want_e.push(0.5 * q[3] * dot);
    }
    same("physics particles", &d.get::<f32>(pq, 4 * n), &want_q);
    same("physics energy", &d.get::<f32>(pe, n), &want_e);

    let input: Vec<i32> = (0..n as i32).map(|k| (k * 13) % 71 - 10).collect();
    let (pin, pout, pbits) = (d.buf(&input), d.zeros::<i32>(3 * n), d.zeros::<u32>(n));
    d.launch("misc", 1, n as u32, &[p(pin), p(pout), p(pbits), i(n as i32)]);
    let mut want = Vec::new();
    for &v in &input {
        let (a, b) = (v.min(50 - v), v.max(50 - v));
        want.extend([v * 7, 4000 + a, b]);
    }
    same("misc", &d.get::<i32>(pout, 3 * n), &want);
    let bits: Vec<u32> = input.iter().map(|&v| (v as f32 * 0.5).to_bits()).collect();
    same("misc union bits", &d.get::<u32>(pbits, n), &bits);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn templates_namespaces() {
    let m = load("templates_namespaces");
    let mut d = Dev::new(&m);
    let input: Vec<i32> = (0..50).map(|k| k - 25).collect();
    for (targs, k) in [("IiLi2EE", 2), ("IiLi3EE", 3)] {
        let pd = d.buf(&input);
        d.launch_t("scale_k", targs, 2, 32, &[p(pd), i(50)]);
        let want: Vec<i32> = input.iter().map(|&v| (v * k + k * k).clamp(-100, 100)).collect();
        same(targs, &d.get::<i32>(pd, 50), &want);
    }
    let fin: Vec<f32> = input.iter().map(|&v| v as f32).collect();
    let pf = d.buf(&fin);
    d.launch_t("scale_k", "IfLi4EE", 2, 32, &[p(pf), i(50)]);
    let want: Vec<f32> = fin.iter().map(|&v| (v * 4.0 + 16.0).clamp(-100.0, 100.0)).collect();
    same("scale_k<float,4>", &d.get::<f32>(pf, 50), &want);
    let lin: Vec<i64> = input.iter().map(|&v| v as i64).collect();
    let pl = d.buf(&lin);
    d.launch_t("scale_k", "IxLi5EE", 2, 32, &[p(pl), i(50)]);
    let want: Vec<i64> = lin.iter().map(|&v| (v * 5 + 25).clamp(-100, 100)).collect();
    same("scale_k<long long,5>", &d.get::<i64>(pl, 50), &want);

    let n = 64;
    let a: Vec<i32> = (0..n).map(|k| k % 9 - 4).collect();
    let b: Vec<i32> = (0..n).map(|k| (k * 5) % 11 - 5).collect();
    let (pa, pb, pout, pfo) = (d.buf(&a), d.buf(&b), d.zeros::<i32>(2 * n as usize), d.zeros::<f32>(n as usize));
    let ops: [(&str, fn(i32, i32) -> i32); 3] = [
        ("ILN4geom4ModeE0EE", |x, y| x + y),
        ("ILN4geom4ModeE1EE", |x, y| x * y),
        ("ILN4geom4ModeE2EE", |x, y| x.max(y)),
    ];
    for (targs, f) in ops {
        d.launch_t("combine", targs, 1, n as u32, &[p(pa), p(pb), p(pout), i(n)]);
        let want: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect();
        same(targs, &d.get::<i32>(pout, n as usize), &want);
    }
    d.launch("misc", 2, 32, &[p(pa), p(pout), p(pfo), i(n)]);
    let mut want = Vec::new();
    for &v in &a {
        let pw = if v & 1 != 0 { v * v * v } else { v * v };
        want.extend([pw + 32, v + 1 + v * 3]);
    }
    same("misc", &d.get::<i32>(pout, 2 * n as usize), &want);
    let wf: Vec<f32> = a.iter().map(|&v| v as f32 * 2.0).collect();
    same("misc float", &d.get::<f32>(pfo, n as usize), &wf);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn vector_types() {
    let m = load("vector_types");
    let mut d = Dev::new(&m);
    let n = 48usize;
    let (mut f4, mut i2, mut px) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..n {
        let kf = k as f32;
        f4.extend([kf * 0.5, kf - 7.0, 3.0 - kf * 0.25, (k % 5) as f32]);
        i2.extend([k as i32 * 3 - 20, 17 - k as i32]);
        px.extend([(k * 5) as u8, (255 - k) as u8, (k * k) as u8, (k % 7) as u8]);
    }
    let (p4, p2, pp) = (d.buf(&f4), d.buf(&i2), d.buf(&px));
    let (o4, oi, od) = (d.zeros::<f32>(4 * n), d.zeros::<i32>(4 * n), d.zeros::<f64>(2 * n));
    d.launch("vec_kernel", 2, 32, &[p(p4), p(p2), p(pp), p(o4), p(oi), p(od), i(n as i32)]);
    let (mut w4, mut wi, mut wd) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..n {
        let v = &f4[4 * k..4 * k + 4];
        w4.extend([v[2] + v[0], v[3] - v[1], (v[0] + v[1]) * 2.0, v[3]]);
        let (ax, ay) = (i2[2 * k], i2[2 * k + 1]);
        let q = &px[4 * k..4 * k + 4];
        wi.extend([
            ax + ay,
            q[0] as i32 + q[1] as i32 + q[2] as i32,
            (ax - ay) as i16 as i32 * q[3] as i16 as i32,
            ax + ay + (ax & 0x3f) - 3,
        ]);
        let (dx, dy) = (v[0] as f64, ay as f64);
        wd.extend([dx * dy, dx + dy]);
    }
    same("float4", &d.get::<f32>(o4, 4 * n), &w4);
    same("int4", &d.get::<i32>(oi, 4 * n), &wi);
    same("double2", &d.get::<f64>(od, 2 * n), &wd);
}

fn ops_ref(a: i32, b: i32, u: u32) -> Vec<i32> {
    let mut o = Vec::new();
    o.push(a.wrapping_add(b * 3).wrapping_sub(a / b).wrapping_add(a % b));
    o.push((a & b) | (a ^ !b));
    o.push(((a & 0xff) << 3) + (a >> 2) + (u >> 5) as i32 + (u << 7) as i32);
    let t = |c: bool| c as i32;
    o.push(t(a < b) + 2 * t(a <= b) + 4 * t(a > b) + 8 * t(a >= b) + 16 * t(a == b) + 32 * t(a != b));
    let mut calls = 0;
    let x = (a > 0 && {
        calls += 1;
        calls > 0
    }) || {
        calls += 1;
        b > 0
    };
    let y = !(a < 0 || {
        calls += 1;
        calls != 0
    });
    o.push(calls * 4 + t(x) * 2 + t(y));
    let mut c = a;
    c += 5;
    c -= b;
    c *= 3;
    c /= 2;
    c %= 1000;
    c += 1000;
    c <<= 2;
    c >>= 1;
    c &= 0xfff;
    c |= 0x1000;
    c ^= 0x55;
    o.push(c);
    let mut v = u;
    v = v.wrapping_add(7);
    v = v.wrapping_sub(3);
    v = v.wrapping_mul(5);
    v /= 3;
    v %= 100000;
    v <<= 3;
    v >>= 2;
    v &= 0xffff;
    v |= 1;
    v ^= 0xff;
    o.push(v as i32);
    o.push((a + 1) * 1111 + a);
    o.push(b * 2);
    o.push(if a > b { a - b } else if a == b { 0 } else { b - a });
    o.push(-a + b);
    o.push(t(a == 0) + t(b == 0) * 2);
    o.push(!a);
    o.push(((a as i64 * 100000 + b as i64) % 99991) as i32);
    o.push((u as u16).wrapping_add(65530) as i32);
    o.push(a + (a + b) + 2);
    o
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn operators() {
    let m = load("operators");
    let mut d = Dev::new(&m);
    let n = 100;
    let a: Vec<i32> = (0..n).map(|k| (k * 37) % 200 - 100).collect();
    let b: Vec<i32> = (0..n).map(|k| (k * 11) % 19 - 9).map(|v| if v == 0 { 7 } else { v }).collect();
    let u: Vec<u32> = (0..n as u32).map(|k| 0x12345u32.wrapping_mul(k).wrapping_add(977)).collect();
    let (pa, pb, pu, pout) = (d.buf(&a), d.buf(&b), d.buf(&u), d.zeros::<i32>(16 * n as usize));
    d.launch("all_ops", 4, 32, &[p(pa), p(pb), p(pu), p(pout), i(n)]);
    let want: Vec<i32> = (0..n as usize).flat_map(|k| ops_ref(a[k], b[k], u[k])).collect();
    same("all_ops", &d.get::<i32>(pout, 16 * n as usize), &want);
}

fn casts_ref(f: f32, i: i32, d: f64) -> Vec<i64> {
    vec![
        f as i32 as i64,
        (f * 10.0) as i32 as i64,
        d as i32 as i64,
        (d * 1000.0) as i64,
        i as u8 as i64,
        (i * 3) as i8 as i64,
        (i * 1000) as i16 as i64,
        i as u32 as i64,
        i as u32 as i64,
        i as i64,
        (i != 0) as i64 + 2 * (f != 0.0) as i64,
        ((i as f32 * 0.5) as f64 + f as f64) as i64,
        ((d as f32) * 4.0) as i64,
        f.abs() as u32 as i64,
        f.to_bits() as i64,
        i as i64 + 1,
        (i & 3) as i64 + 1,
        12,
        2,
        (1i64 << 31) - 56,
    ]
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn casts_sizeof() {
    let m = load("casts_sizeof");
    let mut d = Dev::new(&m);
    let n = 64;
    let f: Vec<f32> = (0..n).map(|t| (t - 32) as f32 * 0.37).collect();
    let iv: Vec<i32> = (0..n).map(|t| (t * 9973) % 1000 - 500).collect();
    let dv: Vec<f64> = (0..n).map(|t| (t - 20) as f64 * 1.0625).collect();
    let (pf, pi, pd, pout) = (d.buf(&f), d.buf(&iv), d.buf(&dv), d.zeros::<i64>(20 * n as usize));
    d.launch("cast_kernel", 2, 32, &[p(pf), p(pi), p(pd), p(pout), i(n)]);
    let want: Vec<i64> = (0..n as usize).flat_map(|t| casts_ref(f[t], iv[t], dv[t])).collect();
    same("cast_kernel", &d.get::<i64>(pout, 20 * n as usize), &want);
    let ps = d.zeros::<i32>(16);
    d.launch("sizes", 1, 1, &[p(ps)]);
    same("sizes", &d.get::<i32>(ps, 16), &[1, 2, 4, 8, 4, 8, 8, 16, 16, 16, 16, 16, 8, 28, 3, 8]);
}

fn classify(v: i32) -> i32 {
    match v % 8 {
        0 => 11,
        1 => 10,
        2 | 3 => 1100,
        4 => 1000,
        5 => -1,
        _ => 7,
    }
}

fn flow_ref(v: i32) -> Vec<i32> {
    let mut x = v as u32 + 1;
    let mut steps = 0;
    while x > 1 {
        x = if x & 1 != 0 { 3 * x + 1 } else { x / 2 };
        steps += 1;
        if steps >= 500 {
            break;
        }
    }
    let mut s = 0;
    for k in 0..20 {
        if k % 3 == 0 {
            continue;
        }
        if k * v > 400 {
            break;
        }
        s += k;
    }
    let mut digits = 0;
    let mut y = v;
    loop {
        digits += 1;
        y /= 10;
        if y == 0 {
            break;
        }
    }
    let mut found = -1;
    'outer: for a in 1..10 {
        for b in 1..10 {
            if a * b == v % 50 {
                found = a * 10 + b;
                break 'outer;
            }
        }
    }
    let mut w = 0;
    while w * w < v {
        w += 1;
    }
    vec![classify(v), steps, s, digits, found, w]
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn control_flow() {
    let m = load("control_flow");
    let mut d = Dev::new(&m);
    let n = 80;
    let input: Vec<i32> = (0..n).map(|k| if k % 10 == 9 { -k } else { (k * 29) % 311 }).collect();
    let (pin, pout) = (d.buf(&input), d.zeros::<i32>(6 * n as usize));
    d.launch("flow_kernel", 3, 32, &[p(pin), p(pout), i(n)]);
    let want: Vec<i32> = input
        .iter()
        .flat_map(|&v| if v < 0 { vec![0; 6] } else { flow_ref(v) })
        .collect();
    same("flow_kernel", &d.get::<i32>(pout, 6 * n as usize), &want);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn shared_static() {
    let m = load("shared_static");
    let mut d = Dev::new(&m);
    let (bs, blocks) = (128usize, 3usize);
    let input: Vec<i32> = (0..(bs * blocks) as i32).map(|k| (k * 7919) % 503).collect();
    let (pin, pout) = (d.buf(&input), d.zeros::<i32>(bs * blocks));
    d.launch("reverse_blocks", blocks as u32, bs as u32, &[p(pin), p(pout)]);
    let mut want = Vec::new();
    for blk in input.chunks(bs) {
        let mx = *blk.iter().max().expect("non-empty");
        for t in 0..bs {
            let left = if t > 0 { blk[t - 1] } else { 0 };
            let r = bs - 1 - t;
            want.push(blk[r] * 1000 + left + blk[4 * (r / 4) + (t + 1) % 4] * 2 - mx);
        }
    }
    same("reverse_blocks", &d.get::<i32>(pout, bs * blocks), &want);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn shared_dynamic() {
    let m = load("shared_dynamic");
    let mut d = Dev::new(&m);
    let (blocks, bs, shift) = (4usize, 96usize, 5usize);
    let input: Vec<f32> = (0..blocks * bs).map(|k| k as f32 * 0.25).collect();
    let (pin, pout) = (d.buf(&input), d.zeros::<f32>(blocks * bs));
    d.launch_cfg("rotate", "", cfg([4, 1, 1], [96, 1, 1], 96 * 4), &[p(pin), p(pout), i(shift as i32)]);
    let want: Vec<f32> = (0..blocks * bs).map(|k| input[k / bs * bs + (k % bs + shift) % bs]).collect();
    same("rotate", &d.get::<f32>(pout, blocks * bs), &want);
    let bs2 = 64usize;
    let hi: Vec<i32> = (0..2 * bs2 as i32).map(|k| (k * 31) % 97).collect();
    let (pi, pio, pfo) = (d.buf(&hi), d.zeros::<i32>(2 * bs2), d.zeros::<f32>(2 * bs2));
    d.launch_cfg("split", "", cfg([2, 1, 1], [64, 1, 1], 64 * 8), &[p(pi), p(pio), p(pfo)]);
    let (mut wi, mut wf) = (Vec::new(), Vec::new());
    for c in hi.chunks(bs2) {
        for t in 0..bs2 {
            wi.push(c[bs2 - 1 - t] + c[t]);
            wf.push(c[(t + 1) % bs2] as f32 * 0.5 + c[t] as f32 * 0.5);
        }
    }
    same("split ints", &d.get::<i32>(pio, 2 * bs2), &wi);
    same("split floats", &d.get::<f32>(pfo, 2 * bs2), &wf);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn constant_memory() {
    let m = load("constant_memory");
    let mut d = Dev::new(&m);
    let coeffs = [1.0f32, -0.5, 0.25, 0.125, 10.0, 20.0, 30.0, 40.0];
    let pc = d.symbol("coeffs");
    d.put(pc, &coeffs);
    let n = 100usize;
    let x: Vec<f32> = (0..n).map(|k| (k % 16) as f32 * 0.5 - 4.0).collect();
    let (px, py, pidx) = (d.buf(&x), d.zeros::<f32>(n), d.zeros::<i32>(n));
    d.launch("eval_poly", 4, 32, &[p(px), p(py), p(pidx), i(n as i32)]);
    let off = [1i32, -1, 2, -2];
    let mut wy = Vec::new();
    let mut wi = Vec::new();
    for k in 0..n {
        let mut acc = 0.0f32;
        for c in coeffs[..4].iter().rev() {
            acc = acc * x[k] + c;
        }
        wy.push(acc * 2.5 + 0.5 + coeffs[4 + k % 4]);
        wi.push((k as i32 + off[k % 4]).clamp(0, n as i32 - 1));
    }
    same("eval_poly y", &d.get::<f32>(py, n), &wy);
    same("eval_poly idx", &d.get::<i32>(pidx, n), &wi);
}

#[test]
#[ignore = "needs the CUDA lowering"]
fn device_globals() {
    let m = load("device_globals");
    let mut d = Dev::new(&m);
    let counter = d.symbol("counter");
    d.put(counter, &[5i32]);
    d.launch("fill_table", 1, 32, &[0.5f32.arg()]);
    let n = 128usize;
    let input: Vec<i32> = (0..n as i32).map(|k| (k * 53) % 113).collect();
    let (pin, pout) = (d.buf(&input), d.zeros::<i32>(n));
    d.launch("use_table", 4, 32, &[p(pin), p(pout), i(n as i32)]);
    let want: Vec<i32> = input
        .iter()
        .map(|&v| ((v % 16) as f32 * (v % 16) as f32 * 0.5) as i32 + (v % 4) * 4 + (v / 4) % 4 + 1)
        .collect();
    same("use_table", &d.get::<i32>(pout, n), &want);
    let want_counter = 5 + input.iter().filter(|&&v| v % 3 == 0).count() as i32;
    same("counter", &d.get::<i32>(counter, 1), &[want_counter]);
    let table: Vec<f32> = (0..16).map(|k| (k * k) as f32 * 0.5).collect();
    same("table", &d.get::<f32>(d.symbol("table"), 16), &table);
    same("stamp", &d.get::<u64>(d.symbol("stamp"), 1), &[0x12_3456_7891]);
    let hf: Vec<f32> = (0..n).map(|k| k as f32 * 0.25).collect();
    let pf = d.buf(&hf);
    d.launch("volatile_update", 4, 32, &[p(pf), i(n as i32)]);
    let want: Vec<f32> = hf.iter().enumerate().map(|(k, v)| (v + 1.0) * 2.0 + (k + 3) as f32).collect();
    same("volatile_update", &d.get::<f32>(pf, n), &want);
}
