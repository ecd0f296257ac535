//! cucc as "the CUDA toolkit" build systems look for: `cucc install
//! --prefix DIR` lays out a toolkit-shaped directory (`bin/nvcc`,
//! `include/`, `lib64/`, `version.json`; see [`layout`]), and a cucc run
//! from such a directory (as `DIR/bin/nvcc` or `DIR/bin/cucc`, directly or
//! through `PATH`) takes its headers and libraries from it and says so in
//! `-v` output, where CMake reads them (docs/toolkit.md).

pub mod layout;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The toolkit directory cucc was started from, if any: the parent of the
/// `bin` directory of the path it was invoked by (argv[0], looked up in
/// `PATH` when it has no slash; links are not followed, so a link to cucc
/// in a toolkit's `bin` counts), else of the executable's real location;
/// for the build's own `cucc` (`target/<profile>/cucc`), the layout the
/// build made beside it (`target/<profile>/cuda`).
pub fn invoked_root() -> Option<&'static Path> {
    static ROOT: OnceLock<Option<PathBuf>> = OnceLock::new();
    ROOT.get_or_init(find_root).as_deref()
}

fn find_root() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(arg0) = std::env::args_os().next().map(PathBuf::from) {
        if arg0.components().count() > 1 {
            candidates.push(arg0);
        } else if let Some(path) = std::env::var_os("PATH") {
            if let Some(found) = std::env::split_paths(&path)
                .map(|d| d.join(&arg0))
                .find(|p| p.is_file())
            {
                candidates.push(found);
            }
        }
    }
    if let Ok(exe) = std::env::current_exe() {
        candidates.push(exe);
    }
    candidates.into_iter().find_map(|exe| {
        let bin = match exe.parent() {
            Some(b) if !b.as_os_str().is_empty() => b.to_path_buf(),
            _ => PathBuf::from("."),
        };
        [bin.join(".."), bin.join("cuda")]
            .into_iter()
            .filter_map(|r| r.canonicalize().ok())
            .find(|r| layout::is_toolkit(r))
    })
}

/// Makes cucc started from a toolkit use that toolkit's headers (the
/// frontend reads `CUCC_INCLUDE_DIR`) unless the user chose others. Called
/// once at start-up, before any thread exists.
pub fn adopt_invoked_root() {
    if std::env::var_os("CUCC_INCLUDE_DIR").is_some_and(|d| !d.is_empty()) {
        return;
    }
    if let Some(root) = invoked_root() {
        std::env::set_var("CUCC_INCLUDE_DIR", root.join("include"));
    }
}

/// The `#$ NAME=value` lines `-v` starts with, as nvcc prints its
/// environment: the toolkit root (`TOP`, only when run from one), the
/// search path for the host compiler, and the include and library
/// directories cucc passes (CMake reads `TOP`, `PATH`, `INCLUDES` and
/// `LIBRARIES`, and finds the link line by the `LIBRARIES` text).
pub fn verbose_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "#$ _CUCC_=cucc {} (CUDA on CPUs), presenting CUDA {}",
        env!("CARGO_PKG_VERSION"),
        layout::CUDA_VERSION
    )];
    if let Some(root) = invoked_root() {
        lines.push(format!("#$ TOP={}", root.display()));
    }
    if let Some(path) = std::env::var_os("PATH") {
        lines.push(format!("#$ PATH={}", path.to_string_lossy()));
    }
    lines.push(format!(
        "#$ INCLUDES=\"-I{}\"",
        cucc_frontend::clang::include_dir().display()
    ));
    if let Ok(rt) = crate::nvcc::runtime_dir() {
        lines.push(format!("#$ LIBRARIES=  {}", library_arg(&rt)));
    }
    lines
}

/// The `-L` argument naming the runtime directory, exactly as the link
/// line's `-v` echo prints it (one quoted argument).
pub fn library_arg(rt: &Path) -> String {
    format!("{:?}", format!("-L{}", rt.display()))
}

/// `cucc install --prefix DIR [--link]`.
pub fn install_main(args: &[String]) -> i32 {
    const USAGE: &str = "usage: cucc install --prefix DIR [--link]";
    let mut prefix = None;
    let mut mode = layout::Mode::Copy;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--prefix" => match it.next() {
                Some(d) => prefix = Some(PathBuf::from(d)),
                None => {
                    eprintln!("cucc install: `--prefix` needs a directory\n{USAGE}");
                    return 2;
                }
            },
            "--link" => mode = layout::Mode::Link,
            "--help" | "-h" => {
                println!("{USAGE}\n  --link  link to this cucc's files instead of copying them");
                return 0;
            }
            _ => match a.strip_prefix("--prefix=") {
                Some(d) => prefix = Some(PathBuf::from(d)),
                None => {
                    eprintln!("cucc install: unknown argument `{a}`\n{USAGE}");
                    return 2;
                }
            },
        }
    }
    let Some(prefix) = prefix.filter(|p| !p.as_os_str().is_empty()) else {
        eprintln!("{USAGE}");
        return 2;
    };
    match install(&prefix, mode) {
        Ok(()) => {
            println!(
                "cucc install: CUDA {} toolkit layout in {} (nvcc: {})",
                layout::CUDA_VERSION,
                prefix.display(),
                prefix.join("bin/nvcc").display()
            );
            0
        }
        Err(e) => {
            eprintln!("cucc install: {e}");
            1
        }
    }
}

/// Lays out a toolkit at `prefix` from this cucc's pieces.
pub fn install(prefix: &Path, mode: layout::Mode) -> Result<(), String> {
    let pieces = this_pieces()?;
    if prefix.exists()
        && prefix
            .canonicalize()
            .is_ok_and(|p| invoked_root() == Some(p.as_path()))
    {
        return Err(format!(
            "{} is the toolkit this cucc runs from; install elsewhere",
            prefix.display()
        ));
    }
    layout::create(prefix, &pieces, mode, env!("CARGO_PKG_VERSION"))
}

/// Where this cucc's driver, libraries and headers are.
fn this_pieces() -> Result<layout::Pieces, String> {
    let resolve = |p: PathBuf| -> Result<PathBuf, String> {
        p.canonicalize()
            .map_err(|e| format!("cannot find {}: {e}", p.display()))
    };
    let driver = resolve(std::env::current_exe().map_err(|e| e.to_string())?)?;
    let rt = crate::nvcc::runtime_dir()
        .map_err(|e| e.trim_start_matches("cucc: error: ").to_string())?;
    let lib = |soname: &str, crate_name: &str| -> Result<PathBuf, String> {
        let p = rt.join(soname);
        if !p.exists() {
            return Err(format!(
                "{soname} is not in {}; build it first (`cargo build -p {crate_name}`)",
                rt.display()
            ));
        }
        resolve(p)
    };
    let headers = cucc_frontend::clang::include_dir();
    if !headers.join("cuda_runtime.h").is_file() {
        return Err(format!(
            "cucc's headers are not in {} (set CUCC_INCLUDE_DIR)",
            headers.display()
        ));
    }
    Ok(layout::Pieces {
        driver,
        runtime: lib("libcudart.so.13", "cucc-runtime")?,
        cublas: lib("libcublas.so.13", "cucc-cublas")?,
        cudnn: lib("libcudnn.so.9", "cucc-cudnn")?,
        libcuda: lib("libcuda.so.1", "cucc-libcuda")?,
        headers: resolve(headers)?,
    })
}
