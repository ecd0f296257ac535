//! cucc where builds look for "the CUDA toolkit": `cucc install --prefix`
//! lays out a toolkit-shaped directory; unmodified Makefiles (through
//! `CUDA_HOME` or `PATH`), a CMake project (`LANGUAGES CUDA`, separable
//! compilation, `find_package(CUDAToolkit)`), a setuptools-built Python
//! extension and an MPI program built with `-ccbin mpicxx` build against it
//! and run. CMake, Open MPI and Python's setuptools and headers come from
//! scripts/setup.sh; without them (outside CI) those tests are skipped.

#[allow(dead_code)]
mod common;
use common::{root, text};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cucc-toolkit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

/// A toolkit installed once for all tests of this file.
fn toolkit() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // The libraries must exist next to the driver.
        common::build_all_libraries();
        // One copy, replaced by each run (it is large).
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cuda-install");
        let out = Command::new(env!("CARGO_BIN_EXE_cucc"))
            .arg("install")
            .arg("--prefix")
            .arg(&dir)
            .output()
            .expect("run cucc install");
        assert!(out.status.success(), "cucc install failed:\n{}", text(&out));
        dir
    })
}

/// `PATH` with the toolkit's `bin` first.
fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut p = std::ffi::OsString::from(dir.join("bin"));
    if let Some(old) = std::env::var_os("PATH") {
        p.push(":");
        p.push(old);
    }
    p
}

/// A program of the test environment, or `None` (a note, or a failure in
/// CI) when it is missing.
fn tool(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        common::note_missing(name, "", "skipping");
    }
    found
}

#[test]
fn install_lays_out_a_toolkit() {
    let dir = toolkit();
    for f in [
        "bin/nvcc",
        "bin/cucc",
        "include/cuda_runtime.h",
        "include/cublas_v2.h",
        "include/cudnn.h",
        "lib64/libcudart.so",
        "lib64/libcudart.so.13",
        "lib64/libcublas.so",
        "lib64/libcudnn.so",
        "lib64/libcudart_static.a",
        "lib64/libcudadevrt.a",
        "lib64/stubs/libcuda.so",
        "lib64/libcuda.so",
        "lib64/libcuda.so.1",
        "nvvm/libdevice",
        "version.json",
    ] {
        assert!(dir.join(f).exists(), "{f} missing in {}", dir.display());
    }
    // The driver API library is its own, with NVIDIA's soname.
    let dynamic = Command::new("readelf")
        .args(["-d"])
        .arg(dir.join("lib64/libcuda.so.1"))
        .output()
        .expect("readelf");
    let dynamic = String::from_utf8_lossy(&dynamic.stdout);
    assert!(dynamic.contains("[libcuda.so.1]"), "{dynamic}");
    let json = std::fs::read_to_string(dir.join("version.json")).expect("version.json");
    assert!(json.contains("\"version\" : \"13.0.0\""), "{json}");

    // What build systems read: the banner, and the toolkit root from -v.
    let out = Command::new(dir.join("bin/nvcc"))
        .arg("--version")
        .output()
        .expect("nvcc --version");
    let banner = text(&out);
    assert!(
        banner.contains("cucc") && banner.contains("V13.0.0"),
        "{banner}"
    );
    let out = Command::new("nvcc")
        .args(["-v", "__cmake_determine_cuda"])
        .env("PATH", path_with(dir))
        .output()
        .expect("nvcc -v");
    let canon = dir.canonicalize().expect("canonical toolkit dir");
    let v = text(&out);
    assert!(v.contains(&format!("#$ TOP={}\n", canon.display())), "{v}");
    assert!(
        v.contains(&format!("#$ LIBRARIES=  \"-L{}/lib64\"", canon.display())),
        "{v}"
    );

    // The static-name stub links cucc's shared runtime.
    let d = tmp("static");
    let src = d.join("v.cu");
    std::fs::write(
        &src,
        "#include <cstdio>\n#include <cuda_runtime.h>\n\
         int main() { int v = 0; cudaRuntimeGetVersion(&v); std::printf(\"%d\\n\", v); return v == 13000 ? 0 : 1; }\n",
    )
    .expect("write source");
    let obj = d.join("v.o");
    let out = Command::new(dir.join("bin/nvcc"))
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(&obj)
        .output()
        .expect("nvcc -c");
    assert!(out.status.success(), "{}", text(&out));
    let exe = d.join("v");
    let out = Command::new("c++")
        .arg(&obj)
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}/lib64", dir.display()))
        .args([
            "-lcudadevrt",
            "-lcudart_static",
            "-lrt",
            "-lpthread",
            "-ldl",
        ])
        .output()
        .expect("c++");
    assert!(out.status.success(), "{}", text(&out));
    let out = Command::new(&exe)
        .env("LD_LIBRARY_PATH", dir.join("lib64"))
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn the_build_leaves_a_linked_toolkit() {
    toolkit(); // the libraries are built
    let built = Path::new(env!("CARGO_BIN_EXE_cucc"))
        .parent()
        .expect("profile dir")
        .join("cuda");
    let out = Command::new(built.join("bin/nvcc"))
        .args(["-v", "__cmake_determine_cuda"])
        .output()
        .expect("run the build's nvcc");
    let canon = built.canonicalize().expect("canonical");
    let v = text(&out);
    assert!(v.contains(&format!("#$ TOP={}\n", canon.display())), "{v}");
    for f in [
        "include/cuda_runtime.h",
        "lib64/libcudart.so",
        "lib64/libcublas.so.13",
    ] {
        assert!(built.join(f).exists(), "{f} missing in {}", built.display());
    }
}

#[test]
fn install_rejects_bad_input() {
    let cucc = env!("CARGO_BIN_EXE_cucc");
    let out = Command::new(cucc).arg("install").output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("usage: cucc install --prefix DIR"));
    let d = tmp("bad");
    let file = d.join("file");
    std::fs::write(&file, "x").expect("write");
    let out = Command::new(cucc)
        .arg("install")
        .arg("--prefix")
        .arg(&file)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).starts_with("cucc install: "), "{}", text(&out));
    let out = Command::new(cucc)
        .args(["install", "--prefix"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));

    // Over an existing tree (a /usr/local): others' files stay, and a
    // directory where the layout has a link is not deleted.
    let prefix = d.join("usr-local");
    std::fs::create_dir_all(prefix.join("include")).expect("mkdir");
    std::fs::create_dir_all(prefix.join("lib")).expect("mkdir");
    std::fs::write(prefix.join("include/other.h"), "x").expect("write");
    std::fs::write(prefix.join("lib/libother.so"), "x").expect("write");
    let out = Command::new(cucc)
        .arg("install")
        .arg("--link")
        .arg(format!("--prefix={}", prefix.display()))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("is a directory"), "{}", text(&out));
    assert!(prefix.join("include/other.h").is_file());
    assert!(prefix.join("lib/libother.so").is_file());
}

#[test]
fn makefiles_find_the_toolkit() {
    let dir = toolkit();
    // nvcc from PATH (the Makefile's `NVCC ?= nvcc`).
    let d = tmp("make-path");
    let out = Command::new("make")
        .arg("-C")
        .arg(root().join("tests/make"))
        .arg(format!("OUT={}", d.display()))
        .env("PATH", path_with(dir))
        .output()
        .expect("make");
    assert!(out.status.success(), "make failed:\n{}", text(&out));
    let out = Command::new(d.join("scale_add")).output().expect("run");
    assert!(text(&out).contains("PASS scale_add"), "{}", text(&out));
    // $(CUDA_HOME)/bin/nvcc for .cu files, g++ links -lcudart.
    let d = tmp("make-home");
    let out = Command::new("make")
        .arg("-C")
        .arg(root().join("tests/make"))
        .args(["-f", "Makefile.cuda_home"])
        .arg(format!("OUT={}", d.display()))
        .arg(format!("CUDA_HOME={}", dir.display()))
        .output()
        .expect("make");
    assert!(out.status.success(), "make failed:\n{}", text(&out));
    let out = Command::new(d.join("scale_add_home"))
        .output()
        .expect("run");
    assert!(text(&out).contains("PASS scale_add"), "{}", text(&out));
}

/// Configures, builds and runs tests/cmake with the configure arguments
/// `args` and, when given, `PATH` set to `path`.
fn cmake_build(cmake: &Path, name: &str, args: &[String], path: Option<std::ffi::OsString>) {
    let build = tmp(name);
    let with_env = |cmd: &mut Command| {
        cmd.env_remove("CUDACXX");
        if let Some(p) = &path {
            cmd.env("PATH", p);
        }
    };
    let mut cmd = Command::new(cmake);
    cmd.arg("-S")
        .arg(root().join("tests/cmake"))
        .arg("-B")
        .arg(&build)
        .args(args);
    with_env(&mut cmd);
    let out = cmd.output().expect("run cmake");
    assert!(
        out.status.success(),
        "cmake ({name}) failed:\n{}",
        text(&out)
    );
    let configure = text(&out);
    assert!(
        configure.contains("The CUDA compiler identification is NVIDIA 13.0.0"),
        "{configure}"
    );
    let mut cmd = Command::new(cmake);
    cmd.arg("--build").arg(&build);
    with_env(&mut cmd);
    let out = cmd.output().expect("run cmake --build");
    assert!(
        out.status.success(),
        "cmake --build ({name}) failed:\n{}",
        text(&out)
    );
    let out = Command::new(build.join("smooth")).output().expect("run");
    assert!(
        out.status.success() && text(&out).contains("PASSED"),
        "{}",
        text(&out)
    );
}

#[test]
fn cmake_project_with_cuda_language() {
    let Some(cmake) = tool("cmake") else { return };
    let dir = toolkit();
    let compiler = format!("-DCMAKE_CUDA_COMPILER={}/bin/nvcc", dir.display());
    cmake_build(&cmake, "cmake-compiler", &[compiler], None);
    cmake_build(&cmake, "cmake-path", &[], Some(path_with(dir)));
}

#[test]
fn mpi_halo_exchange_matches_one_rank() {
    let (Some(_), Some(mpirun)) = (tool("mpicxx"), tool("mpirun")) else {
        return;
    };
    let dir = toolkit();
    let d = tmp("mpi");
    let exe = d.join("halo");
    let out = Command::new(dir.join("bin/nvcc"))
        .args(["-O3", "-ccbin", "mpicxx"])
        .arg(root().join("tests/mpi/halo.cu"))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("nvcc -ccbin mpicxx");
    assert!(out.status.success(), "{}", text(&out));
    let run = |ranks: &str| -> String {
        let out = Command::new(&mpirun)
            .args(["--oversubscribe", "-np", ranks])
            .arg(&exe)
            .arg("60")
            // Ranks share the cores: one worker thread each.
            .env("CUCC_NUM_THREADS", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .expect("mpirun");
        assert!(out.status.success(), "mpirun -np {ranks}:\n{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let one = run("1");
    assert!(one.contains("60 steps: sum"), "{one}");
    assert_eq!(run("2"), one);
    assert_eq!(run("4"), one);
}

/// Copies tests/setuptools to a scratch directory (setup.py writes beside
/// its sources), builds the extension with `env` and imports it.
fn setuptools_build(python: &Path, name: &str, env: &[(&str, std::ffi::OsString)]) {
    let d = tmp(name);
    for f in ["setup.py", "saxpy.cu", "module.cpp"] {
        std::fs::copy(root().join("tests/setuptools").join(f), d.join(f)).expect("copy");
    }
    let mut cmd = Command::new(python);
    cmd.args(["setup.py", "-q", "build_ext", "--inplace"])
        .current_dir(&d)
        .env_remove("CUDA_HOME")
        .env_remove("CUDA_PATH");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run setup.py");
    assert!(out.status.success(), "setup.py ({name}):\n{}", text(&out));
    let out = Command::new(python)
        .args([
            "-c",
            "import cucc_saxpy; print(cucc_saxpy.saxpy_sum(1000, 2.0))",
        ])
        .current_dir(&d)
        .output()
        .expect("run python");
    // sum of 2i + 1 for i < 1000
    assert_eq!(text(&out).trim(), "1000000.0", "{}", text(&out));
}

#[test]
fn setuptools_extension_finds_the_toolkit() {
    let Some(python) = tool("python3") else {
        return;
    };
    let has_setuptools = Command::new(&python)
        .args(["-c", "import setuptools, sysconfig, os; assert os.path.exists(sysconfig.get_paths()['include'] + '/Python.h')"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_setuptools {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 lacks setuptools or Python.h: run scripts/setup.sh"
        );
        eprintln!("note: python3 lacks setuptools or Python.h; skipping");
        return;
    }
    let dir = toolkit();
    setuptools_build(&python, "setuptools-home", &[("CUDA_HOME", dir.into())]);
    setuptools_build(&python, "setuptools-path", &[("PATH", path_with(dir))]);
}
