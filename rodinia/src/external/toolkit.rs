//! A fake CUDA toolkit directory, so that Makefiles written for
//! `/usr/local/cuda` build with cucc unchanged: `bin/nvcc` is cucc,
//! `include` is cucc's headers, `lib64` (and `lib`) hold the library names
//! Makefiles link (`libcudart.so`, `libcuda.so`) pointing at cucc's runtime.

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
