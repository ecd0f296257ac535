//! The CUDA toolkit Rodinia's Makefiles build against: cucc's own toolkit
//! layout (`cucc install --link`: `bin/nvcc` is cucc, `include` its
//! headers, `lib64` (and `lib`) the library names Makefiles link, among
//! them `libcudart.so` and `libcuda.so`), plus `samples/common/inc` (what
//! `SDK_DIR` names) holding small stand-ins for the two CUDA Samples
//! headers Rodinia includes.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cucc a run uses.
#[derive(Clone, Debug)]
pub struct CuccInstall {
    /// The `cucc` driver.
    pub cucc: PathBuf,
}

impl CuccInstall {
    /// `cucc` as given, which must exist (it finds its own runtime and
    /// headers, honouring `CUCC_RUNTIME_DIR` and `CUCC_INCLUDE_DIR`).
    pub fn locate(cucc: &Path) -> Result<CuccInstall, String> {
        let cucc = cucc
            .canonicalize()
            .map_err(|e| format!("cucc not found at {}: {e}", cucc.display()))?;
        Ok(CuccInstall { cucc })
    }
}

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

/// Writes the CUDA Samples stand-ins under `root/samples/common/inc`.
fn write_samples(root: &Path) -> Result<(), String> {
    let inc = root.join("samples/common/inc");
    std::fs::create_dir_all(&inc).map_err(|e| format!("cannot create {}: {e}", inc.display()))?;
    for (name, text) in [
        ("helper_cuda.h", HELPER_CUDA_H),
        ("helper_timer.h", HELPER_TIMER_H),
    ] {
        let p = inc.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(())
}

/// The runtime functions CUDA 4.0 renamed (`cudaThread*` became
/// `cudaDevice*`, same signatures and meaning) and CUDA 13 removed, as the
/// macros NVIDIA's migration notes prescribe: nearly every Rodinia program
/// calls `cudaThreadSynchronize`, so nvcc 13 would build almost none. The
/// nvcc wrapper pre-includes it (`-include`).
pub const REMOVED_NAMES_H: &str = r#"/* The cudaThread* names CUDA 4.0 renamed to cudaDevice* and CUDA 13
 * removed, written for cucc's Rodinia harness; pre-included by its nvcc. */
#ifndef CUCC_RODINIA_REMOVED_NAMES_H
#define CUCC_RODINIA_REMOVED_NAMES_H
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define cudaThreadGetLimit cudaDeviceGetLimit
#define cudaThreadSetLimit cudaDeviceSetLimit
#define cudaThreadGetCacheConfig cudaDeviceGetCacheConfig
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig
#endif
"#;

/// The oldest GPU architecture nvcc 13 compiles for (`sm_75`): CUDA 12
/// dropped everything below `sm_50`, CUDA 13 everything below `sm_75`.
pub const OLDEST_ARCH: u32 = 75;

/// `bin/nvcc` of [`RodiniaToolkit::nvidia`]: a POSIX shell script running
/// `nvcc` with the arguments it was given, except GPU architectures older
/// than [`OLDEST_ARCH`] (`-arch sm_13`, `-arch=sm_20`,
/// `--gpu-architecture=compute_20`, `--gpu-code=compute_20`, `-gencode
/// arch=compute_20,code=sm_20`, and `--gpu-name sm_13`, an option of the
/// CUDA 2 era that nvcc 13 no longer knows), which are left out so that
/// nvcc's default architecture applies: Rodinia's Makefiles name the GPUs
/// of 2009 to 2013, which nvcc 13 refuses with "Unsupported gpu
/// architecture". cucc reads these options and maps old architectures the
/// same way. A `--gpu-name` naming a current architecture becomes `-arch`.
/// With `include`, `-include INCLUDE` comes first ([`REMOVED_NAMES_H`]).
pub fn nvcc_wrapper(nvcc: &Path, include: Option<&Path>) -> String {
    let quoted = shell_quote(&nvcc.display().to_string());
    let include = include.map_or(String::new(), |p| {
        format!("-include {} ", shell_quote(&p.display().to_string()))
    });
    format!(
        r#"#!/bin/sh
# NVIDIA's nvcc for Rodinia's Makefiles, written by cucc's Rodinia harness:
# GPU architectures older than sm_{OLDEST_ARCH}, which this nvcc refuses, are left out.
old() {{
    case "$1" in
        *_[1-6][0-9] | *_[1-6][0-9][!0-9]* | *_7[0-4] | *_7[0-4][!0-9]*) return 0 ;;
    esac
    return 1
}}
pending=
for a do
    shift
    if [ -n "$pending" ]; then
        if ! old "$a"; then
            if [ "$pending" = --gpu-name ]; then
                set -- "$@" -arch "$a"
            else
                set -- "$@" "$pending" "$a"
            fi
        fi
        pending=
        continue
    fi
    case "$a" in
        -arch | --gpu-architecture | -code | --gpu-code | -gencode | --generate-code | --gpu-name)
            pending=$a
            continue ;;
        -arch=* | --gpu-architecture=* | -code=* | --gpu-code=* | -gencode=* | --generate-code=*)
            if old "$a"; then continue; fi ;;
        --gpu-name=*)
            if ! old "$a"; then set -- "$@" "-arch=${{a#--gpu-name=}}"; fi
            continue ;;
    esac
    set -- "$@" "$a"
done
if [ -n "$pending" ]; then set -- "$@" "$pending"; fi
exec {quoted} {include}"$@"
"#
    )
}

/// `s` quoted for `sh`: in single quotes, each `'` written `'\''`.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// cucc's toolkit layout with the CUDA Samples stand-ins, made by
/// [`RodiniaToolkit::create`].
#[derive(Clone, Debug)]
pub struct RodiniaToolkit {
    /// Its root (what `CUDA_DIR` names).
    pub root: PathBuf,
}

impl RodiniaToolkit {
    /// Makes the toolkit under `root` (which must not exist yet or be empty).
    pub fn create(root: &Path, cucc: &CuccInstall) -> Result<RodiniaToolkit, String> {
        let out = Command::new(&cucc.cucc)
            .args(["install", "--link", "--prefix"])
            .arg(root)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", cucc.cucc.display()))?;
        if !out.status.success() {
            return Err(format!(
                "`{} install --link --prefix {}` failed: {}",
                cucc.cucc.display(),
                root.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        write_samples(root)?;
        Ok(RodiniaToolkit {
            root: root.to_path_buf(),
        })
    }

    /// Makes, under `root` (which must not exist yet or be empty), a
    /// toolkit layout around NVIDIA's `nvcc`: `bin/nvcc` is [`nvcc_wrapper`]
    /// calling it (pre-including `include-compat/cuda_removed_names.h`,
    /// [`REMOVED_NAMES_H`]), `include` links to its toolkit's headers, `lib64` (and
    /// `lib`) hold links to its toolkit's libraries (`lib64`, else `lib`,
    /// next to its `bin`), plus `libcuda.so` from `cucc_toolkit` where the
    /// toolkit has none (the driver library Makefiles link with `-lcuda`; a
    /// toolkit carries only a stub, and `cucc run` supplies cucc's at run
    /// time), and the CUDA Samples stand-ins.
    pub fn nvidia(
        root: &Path,
        nvcc: &Path,
        cucc_toolkit: &RodiniaToolkit,
    ) -> Result<RodiniaToolkit, String> {
        let nvcc = nvcc
            .canonicalize()
            .map_err(|e| format!("nvcc not found at {}: {e}", nvcc.display()))?;
        let home = nvcc
            .parent()
            .and_then(Path::parent)
            .ok_or_else(|| format!("{} is not in a toolkit's bin/", nvcc.display()))?;
        let lib = ["lib64", "lib"]
            .iter()
            .map(|d| home.join(d))
            .find(|d| d.is_dir())
            .ok_or_else(|| format!("{} has no lib64/ or lib/", home.display()))?;
        let include = home.join("include");
        if !include.is_dir() {
            return Err(format!("{} has no include/", home.display()));
        }
        let mkdir = |d: &Path| {
            std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))
        };
        let link = |target: &Path, at: &Path| {
            std::os::unix::fs::symlink(target, at)
                .map_err(|e| format!("cannot link {}: {e}", at.display()))
        };
        let bin = root.join("bin");
        let lib64 = root.join("lib64");
        mkdir(&bin)?;
        mkdir(&lib64)?;
        let compat = root.join("include-compat");
        mkdir(&compat)?;
        let compat = compat.join("cuda_removed_names.h");
        std::fs::write(&compat, REMOVED_NAMES_H)
            .map_err(|e| format!("cannot write {}: {e}", compat.display()))?;
        let wrapper = bin.join("nvcc");
        std::fs::write(&wrapper, nvcc_wrapper(&nvcc, Some(&compat)))
            .map_err(|e| format!("cannot write {}: {e}", wrapper.display()))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| format!("cannot make {} executable: {e}", wrapper.display()))?;
        link(&include, &root.join("include"))?;
        link(Path::new("lib64"), &root.join("lib"))?;
        let entries =
            std::fs::read_dir(&lib).map_err(|e| format!("cannot read {}: {e}", lib.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", lib.display()))?;
            link(&entry.path(), &lib64.join(entry.file_name()))?;
        }
        let driver = lib64.join("libcuda.so");
        if !driver.exists() {
            link(&cucc_toolkit.lib_dir().join("libcuda.so"), &driver)?;
        }
        write_samples(root)?;
        Ok(RodiniaToolkit {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// Runs the wrapper around a stand-in nvcc that prints its arguments,
    /// one a line.
    fn wrapped(args: &[&str]) -> Vec<String> {
        let dir = std::env::temp_dir().join(format!(
            "rodinia-wrapper-{}-{}",
            std::process::id(),
            args.join("_").replace(['/', ' ', '='], "-")
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let fake = dir.join("real nvcc");
        std::fs::write(&fake, "#!/bin/sh\nfor a do printf '%s\\n' \"$a\"; done\n").expect("write");
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let wrapper = dir.join("nvcc");
        std::fs::write(&wrapper, nvcc_wrapper(&fake, None)).expect("write");
        let out = Command::new("sh")
            .arg(&wrapper)
            .args(args)
            .output()
            .expect("run the wrapper");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn old_architectures_are_left_out() {
        assert_eq!(
            wrapped(&["-O3", "-arch", "sm_13", "a.cu", "-o", "a"]),
            ["-O3", "a.cu", "-o", "a"]
        );
        assert_eq!(wrapped(&["-arch=sm_20", "-c", "x.cu"]), ["-c", "x.cu"]);
        assert_eq!(
            wrapped(&[
                "--gpu-architecture=compute_20",
                "--gpu-code=compute_20",
                "e.cu"
            ]),
            ["e.cu"]
        );
        assert_eq!(
            wrapped(&[
                "-gencode",
                "arch=compute_35,code=sm_35",
                "-gencode=arch=compute_70,code=sm_70",
                "k.cu"
            ]),
            ["k.cu"]
        );
        assert_eq!(wrapped(&["--gpu-name", "sm_13", "s.cu"]), ["s.cu"]);
        assert_eq!(wrapped(&["-O3", "-arch=sm_35", "-G"]), ["-O3", "-G"]);
    }

    #[test]
    fn current_architectures_and_other_arguments_stay() {
        assert_eq!(
            wrapped(&["-arch", "sm_75", "-arch=sm_100", "-code=sm_120a", "a b.cu"]),
            ["-arch", "sm_75", "-arch=sm_100", "-code=sm_120a", "a b.cu"]
        );
        assert_eq!(
            wrapped(&["-gencode", "arch=compute_80,code=sm_80"]),
            ["-gencode", "arch=compute_80,code=sm_80"]
        );
        assert_eq!(wrapped(&["--gpu-name", "sm_90"]), ["-arch", "sm_90"]);
        assert_eq!(wrapped(&["--gpu-name=sm_90"]), ["-arch=sm_90"]);
        // Only architecture options are looked at; a value left without
        // its option is passed on for nvcc to report.
        assert_eq!(
            wrapped(&["-DN=sm_13", "-I/x_10", "-Xptxas", "-v", "-arch"]),
            ["-DN=sm_13", "-I/x_10", "-Xptxas", "-v", "-arch"]
        );
    }

    #[test]
    fn the_removed_names_come_first() {
        let w = nvcc_wrapper(Path::new("/nv/nvcc"), Some(Path::new("/t/r.h")));
        assert!(
            w.ends_with("exec '/nv/nvcc' -include '/t/r.h' \"$@\"\n"),
            "{w}"
        );
        assert!(REMOVED_NAMES_H.contains("#define cudaThreadSynchronize cudaDeviceSynchronize"));
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("/a b/nvcc"), "'/a b/nvcc'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
