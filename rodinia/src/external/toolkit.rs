//! A fake CUDA toolkit directory, so that Makefiles written for
//! `/usr/local/cuda` build with cucc unchanged: `bin/nvcc` is cucc,
//! `include` is cucc's headers, `lib64` (and `lib`) hold the library names
//! Makefiles link (`libcudart.so`, `libcuda.so`) pointing at cucc's runtime,
//! and `samples/common/inc` (what `SDK_DIR` names) holds small stand-ins for
//! the two CUDA Samples headers Rodinia includes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where cucc's pieces are.
#[derive(Clone, Debug)]
pub struct CuccInstall {
    /// The `cucc` driver.
    pub cucc: PathBuf,
    /// The directory holding `libcudart.so.13` (or `libcucc_runtime.so`).
    pub runtime_dir: PathBuf,
    /// cucc's CUDA headers.
    pub include_dir: PathBuf,
}

impl CuccInstall {
    /// `cucc` as given; the runtime from `CUCC_RUNTIME_DIR` or next to cucc
    /// (as cucc itself finds it); the headers from `CUCC_INCLUDE_DIR` or the
    /// source tree's `frontend/include`.
    pub fn locate(cucc: &Path) -> Result<CuccInstall, String> {
        let cucc = cucc
            .canonicalize()
            .map_err(|e| format!("cucc not found at {}: {e}", cucc.display()))?;
        let runtime_dir = match std::env::var_os("CUCC_RUNTIME_DIR").filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => {
                let dir = cucc.parent().map(Path::to_path_buf).unwrap_or_default();
                let mut candidates = vec![dir.clone()];
                if let Some(p) = dir.parent() {
                    candidates.push(p.join("lib"));
                }
                candidates
                    .into_iter()
                    .find(|c| runtime_file(c).is_some())
                    .ok_or_else(|| {
                        format!(
                            "cucc's runtime (libcudart.so.13 or libcucc_runtime.so) is not next to {}; \
                             build it with `cargo build -p cucc-runtime` or set CUCC_RUNTIME_DIR",
                            cucc.display()
                        )
                    })?
            }
        };
        let include_dir = match std::env::var_os("CUCC_INCLUDE_DIR").filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../frontend/include"),
        };
        if !include_dir.join("cuda_runtime.h").is_file() {
            return Err(format!(
                "cucc's headers are not in {} (set CUCC_INCLUDE_DIR)",
                include_dir.display()
            ));
        }
        Ok(CuccInstall {
            cucc,
            runtime_dir,
            include_dir,
        })
    }
}

/// The runtime library file in `dir`, by either of its names.
fn runtime_file(dir: &Path) -> Option<PathBuf> {
    ["libcudart.so.13", "libcucc_runtime.so"]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.exists())
}

/// The library names Rodinia's Makefiles link, all pointing at cucc's
/// runtime (it exports the runtime API; `-lcuda` only has to resolve).
const LIB_NAMES: &[&str] = &[
    "libcudart.so",
    "libcudart.so.13",
    "libcuda.so",
    "libcuda.so.1",
];

/// The part of the CUDA Samples' `helper_cuda.h` Rodinia uses (cfd): error
/// checks that print the failing call and exit.
const HELPER_CUDA_H: &str = r#"/* Stand-in for the CUDA Samples' helper_cuda.h, written for cucc's
 * Rodinia harness: checkCudaErrors, getLastCudaError, findCudaDevice. */
#ifndef CUCC_HELPER_CUDA_H
#define CUCC_HELPER_CUDA_H
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
static inline void cucc_helper_check(cudaError_t e, const char *what, const char *file, int line) {
    if (e != cudaSuccess) {
        fprintf(stderr, "%s:%d: CUDA error %d (%s): %s\n", file, line, (int)e,
                cudaGetErrorString(e), what);
        exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(call) cucc_helper_check((call), #call, __FILE__, __LINE__)
#define getLastCudaError(msg) cucc_helper_check(cudaGetLastError(), (msg), __FILE__, __LINE__)
static inline int findCudaDevice(int argc, const char **argv) {
    (void)argc;
    (void)argv;
    cudaSetDevice(0);
    return 0;
}
#endif
"#;

/// The part of the CUDA Samples' `helper_timer.h` Rodinia uses (cfd): a
/// wall-clock stopwatch.
const HELPER_TIMER_H: &str = r#"/* Stand-in for the CUDA Samples' helper_timer.h, written for cucc's
 * Rodinia harness: a wall-clock StopWatchInterface and the sdk*Timer calls. */
#ifndef CUCC_HELPER_TIMER_H
#define CUCC_HELPER_TIMER_H
#include <sys/time.h>
struct StopWatchInterface {
    double start_ms, total_ms;
    int sessions, running;
};
static inline double cucc_helper_now_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, 0);
    return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}
static inline bool sdkCreateTimer(StopWatchInterface **t) {
    *t = new StopWatchInterface();
    return true;
}
static inline bool sdkDeleteTimer(StopWatchInterface **t) {
    delete *t;
    *t = 0;
    return true;
}
static inline bool sdkStartTimer(StopWatchInterface **t) {
    (*t)->start_ms = cucc_helper_now_ms();
    (*t)->running = 1;
    return true;
}
static inline bool sdkStopTimer(StopWatchInterface **t) {
    if ((*t)->running) {
        (*t)->total_ms += cucc_helper_now_ms() - (*t)->start_ms;
        (*t)->sessions++;
        (*t)->running = 0;
    }
    return true;
}
static inline bool sdkResetTimer(StopWatchInterface **t) {
    (*t)->total_ms = 0;
    (*t)->sessions = 0;
    (*t)->running = 0;
    return true;
}
static inline float sdkGetTimerValue(StopWatchInterface **t) {
    double run = (*t)->running ? cucc_helper_now_ms() - (*t)->start_ms : 0;
    return (float)((*t)->total_ms + run);
}
static inline float sdkGetAverageTimerValue(StopWatchInterface **t) {
    return (*t)->sessions ? (float)((*t)->total_ms / (*t)->sessions) : 0.0f;
}
#endif
"#;

/// A fake toolkit made by [`FakeToolkit::create`].
#[derive(Clone, Debug)]
pub struct FakeToolkit {
    /// Its root (what `CUDA_DIR` names).
    pub root: PathBuf,
}

impl FakeToolkit {
    /// Makes the toolkit under `root` (which must not exist yet or be empty).
    pub fn create(root: &Path, cucc: &CuccInstall) -> Result<FakeToolkit, String> {
        let err = |what: &str, p: &Path, e: std::io::Error| format!("{what} {}: {e}", p.display());
        for d in ["bin", "lib64", "samples/common/inc"] {
            let p = root.join(d);
            std::fs::create_dir_all(&p).map_err(|e| err("cannot create", &p, e))?;
        }
        let link = |target: &Path, at: PathBuf| -> Result<(), String> {
            let _ = std::fs::remove_file(&at);
            std::os::unix::fs::symlink(target, &at).map_err(|e| err("cannot link", &at, e))
        };
        link(&cucc.cucc, root.join("bin/nvcc"))?;
        link(&cucc.include_dir, root.join("include"))?;
        let rt = runtime_file(&cucc.runtime_dir).ok_or_else(|| {
            format!(
                "no libcudart.so.13 or libcucc_runtime.so in {}",
                cucc.runtime_dir.display()
            )
        })?;
        let rt = rt
            .canonicalize()
            .map_err(|e| err("cannot resolve", &rt, e))?;
        for name in LIB_NAMES {
            link(&rt, root.join("lib64").join(name))?;
        }
        link(Path::new("lib64"), root.join("lib"))?;
        let inc = root.join("samples/common/inc");
        for (name, text) in [
            ("helper_cuda.h", HELPER_CUDA_H),
            ("helper_timer.h", HELPER_TIMER_H),
        ] {
            let p = inc.join(name);
            std::fs::write(&p, text).map_err(|e| err("cannot write", &p, e))?;
        }
        Ok(FakeToolkit {
            root: root.to_path_buf(),
        })
    }

    /// `bin/nvcc`.
    pub fn nvcc(&self) -> PathBuf {
        self.root.join("bin/nvcc")
    }

    /// `lib64`.
    pub fn lib_dir(&self) -> PathBuf {
        self.root.join("lib64")
    }

    /// The variables every build gets on make's command line (where they
    /// override the Makefiles' own assignments, also in sub-makes): the
    /// compiler, the toolkit paths under their Rodinia spellings, an empty
    /// SDK directory.
    pub fn make_vars(&self) -> Vec<String> {
        let root = self.root.display();
        let inc = self.root.join("include");
        let lib = self.lib_dir();
        vec![
            format!("NVCC={}", self.nvcc().display()),
            format!("CUDA_DIR={root}"),
            format!("CUDA_INSTALL_PATH={root}"),
            format!("CUDA_LIB_DIR={}", lib.display()),
            format!("CUDA_INCLUDEPATH={}", inc.display()),
            format!("SDK_DIR={}", self.root.join("samples").display()),
        ]
    }

    /// Environment for builds and runs: `bin` first on `PATH` (Makefiles
    /// that call plain `nvcc`), `lib64` on `LIBRARY_PATH` (`gcc ... -lcuda`
    /// with a hard-coded `-L/usr/local/cuda/lib64`) and `LD_LIBRARY_PATH`
    /// (programs linked by gcc carry no rpath to the runtime).
    pub fn env(&self) -> Vec<(String, OsString)> {
        let prepend = |var: &str, dir: PathBuf| -> (String, OsString) {
            let mut v = OsString::from(dir);
            if let Some(old) = std::env::var_os(var).filter(|o| !o.is_empty()) {
                v.push(":");
                v.push(old);
            }
            (var.to_string(), v)
        };
        vec![
            prepend("PATH", self.root.join("bin")),
            prepend("LIBRARY_PATH", self.lib_dir()),
            prepend("LD_LIBRARY_PATH", self.lib_dir()),
        ]
    }
}
