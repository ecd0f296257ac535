//! The JIT path end to end, in process: fat binaries registered through the
//! host protocol as nvcc-built programs do, their code translated at first
//! use, compiled by the C compiler into the cache, loaded, and run through
//! the registry. The translator is swapped for the CUDA frontend (the
//! "PTX" entries carry CUDA source), so this exercises everything but the
//! PTX frontend itself; `tests/nvcc_built.rs` covers that with real nvcc
//! output. The loaded objects call back into the runtime, so this test
//! binary exports its symbols (`-rdynamic`, see build.rs).
//!
//! One test function: the scenarios share the process-wide registry and
//! the cache directory set in the environment.

mod common;

use std::ffi::c_void;
use std::process::Command;

use common::*;
use cucc_runtime::device::cudaDeviceSynchronize;
use cucc_runtime::errors::cudaError_t;
use cucc_runtime::ffi::Dim3;
use cucc_runtime::launch::cudaLaunchKernel;
use cucc_runtime::memory::{cudaMalloc, cudaMemcpy, cudaMemcpyFromSymbol, cudaMemcpyToSymbol};
use cucc_runtime::registry::{__cudaInitModule, __cudaRegisterManagedVar, __cudaRegisterVar};

const H2D: i32 = 1;
const D2H: i32 = 2;

/// Lowers the entry's text as CUDA source (stands in for the PTX frontend).
fn cuda_translator(src: &str, file: &str) -> Result<cucc_ir::Module, String> {
    let path = std::path::PathBuf::from(format!("{file}.{}.cu", std::process::id()));
    std::fs::write(&path, src).map_err(|e| e.to_string())?;
    cucc_frontend::cuda::lower_file(&path, &cucc_frontend::cuda::LowerOptions::default())
        .map_err(|d| d.to_string())
}

/// Refuses to translate: a run that must find everything in the cache.
fn no_translator(_: &str, file: &str) -> Result<cucc_ir::Module, String> {
    Err(format!("{file}: translation attempted with a warm cache"))
}

/// A translator that fails as the PTX frontend does on unsupported PTX.
fn failing_translator(_: &str, file: &str) -> Result<cucc_ir::Module, String> {
    Err(format!("{file}:3: unsupported instruction `bogus.op`"))
}

/// A fat binary with one uncompressed entry of `kind` (1 PTX, 2 ELF).
fn fatbin(kind: u16, payload: &[u8]) -> &'static [u8] {
    let padded = payload.len().div_ceil(16) * 16;
    let mut e = vec![0u8; 0x50];
    e[0..2].copy_from_slice(&kind.to_le_bytes());
    e[2..4].copy_from_slice(&0x101u16.to_le_bytes());
    e[4..8].copy_from_slice(&0x50u32.to_le_bytes());
    e[8..16].copy_from_slice(&(padded as u64).to_le_bytes());
    e[0x18..0x1c].copy_from_slice(&0x0009_0005u32.to_le_bytes());
    e[0x1c..0x20].copy_from_slice(&80u32.to_le_bytes());
    e[0x28..0x30].copy_from_slice(&0x11u64.to_le_bytes());
    e.extend_from_slice(payload);
    e.resize(0x50 + padded, 0);
    let mut f = Vec::new();
    f.extend_from_slice(&0xBA55ED50u32.to_le_bytes());
    f.extend_from_slice(&1u16.to_le_bytes());
    f.extend_from_slice(&16u16.to_le_bytes());
    f.extend_from_slice(&(e.len() as u64).to_le_bytes());
    f.extend_from_slice(&e);
    Box::leak(f.into_boxed_slice())
}

const SOURCE: &str = r#"
__device__ int bias;
__managed__ int calls;
__global__ void add(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + bias;
  if (i == 0) calls += 1;
}
"#;

struct Program {
    stub: *const std::ffi::c_char,
    bias: *const c_void,
    handle: *mut *mut c_void,
    calls_slot: *mut *mut c_void,
}

/// Registers SOURCE's image as an nvcc-built program's constructor would.
fn register(source: &str) -> Program {
    let handle = register_fatbin(fatbin(1, source.as_bytes()));
    let stub = stub();
    register_function(handle, stub, "_Z3addPiPKii");
    let bias = Box::leak(Box::new(0i32)) as *mut i32 as *mut c_void;
    let name = cstr("bias");
    // SAFETY: valid handle, shadow and name.
    unsafe { __cudaRegisterVar(handle, bias.cast(), name as *mut _, name, 0, 4, 0, 0) };
    let calls_slot = Box::leak(Box::new(std::ptr::null_mut::<c_void>())) as *mut *mut c_void;
    let name = cstr("calls");
    // SAFETY: valid handle, slot and name.
    unsafe { __cudaRegisterManagedVar(handle, calls_slot, name as *mut _, name, 0, 4, 0, 0) };
    Program {
        stub,
        bias,
        handle,
        calls_slot,
    }
}

fn dim(x: u32) -> Dim3 {
    Dim3 { x, y: 1, z: 1 }
}

/// Launches the parameterless stub `s` on one thread; for launches that
/// must fail before the kernel runs. Returns the launch's error code.
fn launch_unrun(s: *const std::ffi::c_char) -> cudaError_t {
    let mut none: [*mut c_void; 0] = [];
    // SAFETY: the kernel is never run.
    unsafe {
        cudaLaunchKernel(
            s.cast(),
            dim(1),
            dim(1),
            none.as_mut_ptr(),
            0,
            std::ptr::null_mut(),
        )
    }
}

/// Copies `bias` to the symbol (before any launch), runs `add` and checks it.
fn run_add(p: &Program, bias: i32) -> Result<(), i32> {
    // SAFETY: `bias` is a live i32.
    let rc = unsafe { cudaMemcpyToSymbol(p.bias, (&bias as *const i32).cast(), 4, 0, H2D) };
    if rc != 0 {
        return Err(rc);
    }
    let n = 1000usize;
    let input: Vec<i32> = (0..n as i32).collect();
    let (mut din, mut dout) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(cudaMalloc(&mut din, 4 * n), 0);
        assert_eq!(cudaMalloc(&mut dout, 4 * n), 0);
    }
    // SAFETY: `input` holds the `4 * n` bytes copied.
    assert_eq!(
        unsafe { cudaMemcpy(din, input.as_ptr().cast(), 4 * n, H2D) },
        0
    );
    let mut n_arg = n as i32;
    let mut args: [*mut c_void; 3] = [
        (&mut dout as *mut *mut c_void).cast(),
        (&mut din as *mut *mut c_void).cast(),
        (&mut n_arg as *mut i32).cast(),
    ];
    // SAFETY: three arguments matching the kernel's parameters.
    let rc = unsafe {
        cudaLaunchKernel(
            p.stub.cast(),
            dim(8),
            dim(128),
            args.as_mut_ptr(),
            0,
            std::ptr::null_mut(),
        )
    };
    if rc != 0 {
        return Err(rc);
    }
    assert_eq!(cudaDeviceSynchronize(), 0);
    let mut out = vec![0i32; n];
    // SAFETY: `out` holds the `4 * n` bytes copied.
    assert_eq!(
        unsafe { cudaMemcpy(out.as_mut_ptr().cast(), dout, 4 * n, D2H) },
        0
    );
    for (i, o) in out.iter().enumerate() {
        assert_eq!(*o, i as i32 + bias, "out[{i}]");
    }
    let mut back = 0i32;
    // SAFETY: `back` is a live i32.
    let rc = unsafe { cudaMemcpyFromSymbol((&mut back as *mut i32).cast(), p.bias, 4, 0, D2H) };
    assert_eq!((rc, back), (0, bias));
    Ok(())
}

fn files(dir: &std::path::Path, ext: &str) -> usize {
    std::fs::read_dir(dir.join("jit"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == ext))
                .count()
        })
        .unwrap_or(0)
}

/// A shared object whose constructor creates the file `$CUCC_PLANTED_MARK`:
/// what another local user might put in a cache, to be run by the victim.
fn planted_object(dir: &std::path::Path) -> std::path::PathBuf {
    let c = dir.join("planted.c");
    let so = dir.join("planted.so");
    std::fs::write(
        &c,
        "#include <stdio.h>\n#include <stdlib.h>\n\
         __attribute__((constructor)) static void planted(void) {\n\
           const char *m = getenv(\"CUCC_PLANTED_MARK\");\n\
           if (m) { FILE *f = fopen(m, \"w\"); if (f) fclose(f); }\n}\n",
    )
    .expect("write planted.c");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = Command::new(cc)
        .args(["-shared", "-fPIC", "-o"])
        .arg(&so)
        .arg(&c)
        .status()
        .expect("cc");
    assert!(st.success());
    so
}

/// Runs this test as a cold-cache child on `cache` with `tmpdir` as its
/// temporary directory; returns its stderr (it must succeed).
fn cold_child(cache: &std::path::Path, tmpdir: &std::path::Path, mark: &std::path::Path) -> String {
    let out = Command::new(std::env::current_exe().expect("exe"))
        .args(["--exact", "jit_end_to_end", "--nocapture"])
        .env("CUCC_JIT_TEST_CHILD", "cold")
        .env("CUCC_CACHE_DIR", cache)
        .env("TMPDIR", tmpdir)
        .env("CUCC_PLANTED_MARK", mark)
        .env("CUCC_LOG", "warn")
        .output()
        .expect("child");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "child failed:\n{stderr}");
    assert!(!mark.exists(), "a planted object ran:\n{stderr}");
    stderr
}

/// SHA-256 of `bytes`, lower-case hex.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The cache's one object (`<key>.so`).
fn the_object(cache: &std::path::Path) -> std::path::PathBuf {
    std::fs::read_dir(cache.join("jit"))
        .expect("cache")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "so"))
        .expect("an object")
}

#[test]
fn jit_end_to_end() {
    match std::env::var("CUCC_JIT_TEST_CHILD").as_deref() {
        Ok("warm") => {
            // A second process on the warm cache: nothing may be translated.
            cucc_runtime::jit::set_translator(no_translator);
            let p = register(SOURCE);
            run_add(&p, 7).expect("warm-cache run");
            return;
        }
        Ok(_) => {
            // One of several processes racing on a cold cache.
            cucc_runtime::jit::set_translator(cuda_translator);
            let p = register(SOURCE);
            run_add(&p, 3).expect("cold-cache run");
            return;
        }
        Err(_) => {}
    }
    let cache = std::env::temp_dir().join(format!("cucc-jit-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    std::env::set_var("CUCC_CACHE_DIR", &cache);
    cucc_runtime::jit::set_translator(cuda_translator);

    // A symbol copy before the first launch triggers the JIT; the kernel sees it.
    let p = register(SOURCE);
    run_add(&p, 5).expect("first run");
    assert_eq!((files(&cache, "so"), files(&cache, "ptx")), (1, 1));
    // The managed variable's slot points at the JIT module's storage.
    // SAFETY: valid handle.
    assert_eq!(unsafe { __cudaInitModule(p.handle) }, 1);
    // SAFETY: the slot was filled with 4-byte storage.
    let calls = unsafe { *(*p.calls_slot as *const i32) };
    assert_eq!(calls, 1, "managed variable written by the kernel");

    // The same code in a second image reuses the loaded module.
    let q = register(SOURCE);
    run_add(&q, 9).expect("second image");
    assert_eq!(files(&cache, "so"), 1);

    // Another process finds the object in the cache and compiles nothing.
    let exe = std::env::current_exe().expect("exe");
    let out = Command::new(exe)
        .args(["--exact", "jit_end_to_end", "--nocapture"])
        .env("CUCC_JIT_TEST_CHILD", "warm")
        .env("CUCC_CACHE_DIR", &cache)
        .env("CUCC_LOG", "info")
        .output()
        .expect("child");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{stderr}");
    assert!(stderr.contains("JIT cache hit"), "{stderr}");
    assert_eq!(files(&cache, "so"), 1);

    // Hostile caches. A replaced object is detected by its recorded hash
    // and rebuilt, never loaded.
    use std::os::unix::fs::PermissionsExt;
    let scratch = std::env::temp_dir().join(format!("cucc-jit-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch");
    let planted = planted_object(&scratch);
    let mark = scratch.join("planted-ran");
    let child_tmp = scratch.join("tmp");
    std::fs::create_dir_all(&child_tmp).expect("tmp");
    let object = the_object(&cache);
    // A new file under the old name (this process still maps the old one).
    std::fs::remove_file(&object).expect("remove the object");
    std::fs::copy(&planted, &object).expect("replace the object");
    let err = cold_child(&cache, &child_tmp, &mark);
    assert!(err.contains("does not match the hash"), "{err}");
    assert_ne!(std::fs::read(&object).ok(), std::fs::read(&planted).ok());
    // A cache others can write is not used at all, even with a planted
    // object and a matching hash: the child compiles into a private
    // directory of its own, gone when it exits.
    let open_cache = scratch.join("open-cache");
    std::fs::create_dir_all(open_cache.join("jit")).expect("open cache");
    let name = object.file_name().expect("name");
    let planted_here = open_cache.join("jit").join(name);
    std::fs::copy(&planted, &planted_here).expect("plant");
    let hash = sha256_hex(&std::fs::read(&planted).expect("read"));
    let mut hash_name = name.to_os_string();
    hash_name.push(".sha256");
    std::fs::write(open_cache.join("jit").join(hash_name), hash).expect("hash");
    for d in [&open_cache, &open_cache.join("jit")] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    }
    let err = cold_child(&open_cache, &child_tmp, &mark);
    assert!(err.contains("writable by other users"), "{err}");
    assert!(
        std::fs::read_dir(&child_tmp).expect("tmp").next().is_none(),
        "the private JIT directory was left behind"
    );
    // A cache directory of another user (only root can make one here).
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } == 0 {
        for d in [&open_cache, &open_cache.join("jit")] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).expect("chmod");
            std::os::unix::fs::chown(d, Some(65534), Some(65534)).expect("chown");
        }
        let err = cold_child(&open_cache, &child_tmp, &mark);
        assert!(err.contains("belongs to user 65534"), "{err}");
    } else {
        eprintln!("note: not root; the foreign-owned cache case is skipped");
    }
    let _ = std::fs::remove_dir_all(&scratch);

    // Only GPU code: cudaErrorNoKernelImageForDevice, for kernels and symbols.
    let elf = register_fatbin(fatbin(2, b"\x7fELF not really"));
    let s = stub();
    register_function(elf, s, "_Z3addPiPKii");
    let rc = launch_unrun(s);
    assert_eq!(rc, 209);

    // A corrupt fat binary: cudaErrorInvalidKernelImage.
    let corrupt = {
        let mut f = fatbin(1, b"x").to_vec();
        f[16 + 8..16 + 16].copy_from_slice(&(1u64 << 20).to_le_bytes());
        Box::leak(f.into_boxed_slice())
    };
    let h = register_fatbin(corrupt);
    let s = stub();
    register_function(h, s, "_Z3addPiPKii");
    let rc = launch_unrun(s);
    assert_eq!(rc, 200);

    // Untranslatable code: cudaErrorInvalidPtx at the launch and at a symbol
    // copy, and the managed variable still has (zeroed) storage.
    cucc_runtime::jit::set_translator(failing_translator);
    let f = register("// different text, so not cached\n");
    assert_eq!(run_add(&f, 1), Err(218));
    // SAFETY: valid handle.
    assert_eq!(unsafe { __cudaInitModule(f.handle) }, 0);
    assert!(!unsafe { *f.calls_slot }.is_null());
    let one = 1i32;
    // SAFETY: `one` is a live i32.
    let rc = unsafe { cudaMemcpyToSymbol(f.bias, (&one as *const i32).cast(), 4, 0, H2D) };
    assert_eq!(rc, 218);

    let _ = std::fs::remove_dir_all(&cache);

    // Processes compiling the same code at once into one cache all succeed
    // and leave one object and no temporary files.
    let cold = std::env::temp_dir().join(format!("cucc-jit-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cold);
    let exe = std::env::current_exe().expect("exe");
    let children: Vec<_> = (0..3)
        .map(|_| {
            Command::new(&exe)
                .args(["--exact", "jit_end_to_end", "--nocapture"])
                .env("CUCC_JIT_TEST_CHILD", "cold")
                .env("CUCC_CACHE_DIR", &cold)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("child")
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().expect("child");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let names: Vec<String> = std::fs::read_dir(cold.join("jit"))
        .expect("cache")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files(&cold, "so"), 1, "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    let _ = std::fs::remove_dir_all(&cold);
}
