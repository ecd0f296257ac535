//! The shape of a CUDA toolkit directory made of cucc's pieces: where build
//! systems look for `nvcc`, the headers and the libraries (docs/toolkit.md).
//!
//! One description serves `cucc install --prefix DIR` (copies) and the
//! build's own `target/<profile>/cuda` (symbolic links to the build outputs,
//! made by the root crate's build script, which includes this file), so the
//! two cannot drift apart. std only, for that reason.

use std::path::{Path, PathBuf};

/// The CUDA toolkit version the tree presents: what `nvcc --version`,
/// `version.json`, `cudaRuntimeGetVersion` and the headers' `CUDART_VERSION`
/// say, and the major version in the libraries' sonames.
pub const CUDA_VERSION: &str = "13.0.0";

/// One of cucc's built pieces a toolkit entry is made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The `cucc` driver.
    Driver,
    /// The runtime, `libcudart.so.13` (cargo's `libcucc_runtime.so`).
    Runtime,
    /// The cuBLAS shim, `libcublas.so.13`.
    Cublas,
    /// The cuDNN shim, `libcudnn.so.9`.
    Cudnn,
    /// The driver API, `libcuda.so.1` (cargo's `libcuda.so`): entry points
    /// into the runtime, which holds the driver API's state.
    Libcuda,
    /// The directory of cucc's CUDA headers.
    Headers,
}

/// Where each [`Piece`] is on this machine.
#[derive(Clone, Debug)]
pub struct Pieces {
    pub driver: PathBuf,
    pub runtime: PathBuf,
    pub cublas: PathBuf,
    pub cudnn: PathBuf,
    pub libcuda: PathBuf,
    pub headers: PathBuf,
}

impl Pieces {
    fn get(&self, p: Piece) -> &Path {
        match p {
            Piece::Driver => &self.driver,
            Piece::Runtime => &self.runtime,
            Piece::Cublas => &self.cublas,
            Piece::Cudnn => &self.cudnn,
            Piece::Libcuda => &self.libcuda,
            Piece::Headers => &self.headers,
        }
    }
}

/// What an entry of the tree is.
#[derive(Clone, Debug)]
pub enum Content {
    /// A copy of (or, in the build's tree, a link to) one of cucc's pieces.
    Piece(Piece),
    /// A relative symbolic link inside the tree.
    Link(&'static str),
    /// A GNU ld linker script naming the library file at this path under
    /// the root: a static-library name (`libcudart_static.a`) that links
    /// cucc's shared library, since cucc has no static runtime.
    Script(&'static str),
    /// An archive with no members: a library that exists on NVIDIA's side
    /// only for device code or static builds (`libcudadevrt.a`), needed only
    /// so that link lines naming it succeed.
    EmptyArchive,
    /// A directory.
    Dir,
    /// `version.json`.
    VersionJson,
}

/// The entries in creation order (directories before their contents).
pub const ENTRIES: &[(&str, Content)] = &[
    ("bin", Content::Dir),
    ("bin/cucc", Content::Piece(Piece::Driver)),
    ("bin/nvcc", Content::Link("cucc")),
    ("include", Content::Piece(Piece::Headers)),
    ("lib64", Content::Dir),
    ("lib64/libcudart.so.13", Content::Piece(Piece::Runtime)),
    ("lib64/libcudart.so", Content::Link("libcudart.so.13")),
    ("lib64/libcublas.so.13", Content::Piece(Piece::Cublas)),
    ("lib64/libcublas.so", Content::Link("libcublas.so.13")),
    ("lib64/libcudnn.so.9", Content::Piece(Piece::Cudnn)),
    ("lib64/libcudnn.so", Content::Link("libcudnn.so.9")),
    // The driver API: `libcuda.so.1` jumps into the runtime, which holds
    // its state (docs/driver-api.md).
    ("lib64/libcuda.so.1", Content::Piece(Piece::Libcuda)),
    ("lib64/libcuda.so", Content::Link("libcuda.so.1")),
    ("lib64/stubs", Content::Dir),
    ("lib64/stubs/libcuda.so", Content::Link("../libcuda.so.1")),
    (
        "lib64/libcudart_static.a",
        Content::Script("lib64/libcudart.so.13"),
    ),
    (
        "lib64/libcublas_static.a",
        Content::Script("lib64/libcublas.so.13"),
    ),
    (
        "lib64/libcudnn_static.a",
        Content::Script("lib64/libcudnn.so.9"),
    ),
    ("lib64/libcudadevrt.a", Content::EmptyArchive),
    ("lib64/libculibos.a", Content::EmptyArchive),
    ("lib", Content::Link("lib64")),
    // CMake takes a toolkit's "library root" to be where nvvm/libdevice is;
    // cucc has no libdevice (device math is C), the directory says where.
    ("nvvm", Content::Dir),
    ("nvvm/libdevice", Content::Dir),
    ("version.json", Content::VersionJson),
];

/// `version.json`, in the form NVIDIA's toolkits have it: components with
/// a name and a version, naming cucc as what provides them.
pub fn version_json(cucc_version: &str) -> String {
    let components = [
        ("cuda", "CUDA SDK (cucc: CUDA on CPUs)"),
        ("cuda_cudart", "CUDA Runtime (cudart), cucc's CPU runtime"),
        ("cuda_nvcc", "CUDA NVCC, cucc's nvcc-compatible driver"),
        ("libcublas", "CUDA cuBLAS, cucc's shim on OpenBLAS"),
    ];
    let mut s = String::from("{\n");
    for (key, name) in components {
        s.push_str(&format!(
            "   \"{key}\" : {{\n      \"name\" : \"{name}\",\n      \"version\" : \"{CUDA_VERSION}\"\n   }},\n"
        ));
    }
    s.push_str(&format!(
        "   \"cucc\" : {{\n      \"name\" : \"cucc\",\n      \"version\" : \"{cucc_version}\"\n   }}\n}}\n"
    ));
    s
}

/// How pieces get into the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Copies: the tree stands alone (`cucc install`).
    Copy,
    /// Symbolic links to the pieces: the tree follows rebuilds (the build's
    /// own tree under `target/`, `cucc install --link`).
    Link,
}

/// Makes the tree under `root`, replacing entries that exist.
pub fn create(root: &Path, pieces: &Pieces, mode: Mode, cucc_version: &str) -> Result<(), String> {
    let err =
        |what: &str, p: &Path, e: std::io::Error| format!("cannot {what} {}: {e}", p.display());
    std::fs::create_dir_all(root).map_err(|e| err("create", root, e))?;
    let root = root.canonicalize().map_err(|e| err("resolve", root, e))?;
    let merges = |content: &Content| {
        matches!(content, Content::Dir)
            || (mode == Mode::Copy && matches!(content, Content::Piece(Piece::Headers)))
    };
    // Refuse before changing anything.
    for (rel, content) in ENTRIES {
        let at = root.join(rel);
        let is_dir = std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir());
        if is_dir && !merges(content) {
            return Err(format!(
                "{} is a directory where the toolkit has a file or link; not replacing it",
                at.display()
            ));
        }
    }
    for (rel, content) in ENTRIES {
        let at = root.join(rel);
        remove(&at, merges(content))?;
        match content {
            Content::Dir => std::fs::create_dir_all(&at).map_err(|e| err("create", &at, e))?,
            Content::Piece(p) => {
                let from = pieces.get(*p);
                match mode {
                    Mode::Link => symlink(from, &at).map_err(|e| err("link", &at, e))?,
                    Mode::Copy if from.is_dir() => copy_dir(from, &at)?,
                    Mode::Copy => {
                        std::fs::copy(from, &at)
                            .map_err(|e| err(&format!("copy {} to", from.display()), &at, e))?;
                    }
                }
            }
            Content::Link(target) => {
                symlink(Path::new(target), &at).map_err(|e| err("link", &at, e))?
            }
            Content::Script(lib) => {
                let text = format!(
                    "/* cucc: a static-library name for cucc's shared library */\nINPUT({})\n",
                    root.join(lib).display()
                );
                std::fs::write(&at, text).map_err(|e| err("write", &at, e))?
            }
            Content::EmptyArchive => {
                std::fs::write(&at, b"!<arch>\n").map_err(|e| err("write", &at, e))?
            }
            Content::VersionJson => {
                std::fs::write(&at, version_json(cucc_version)).map_err(|e| err("write", &at, e))?
            }
        }
    }
    Ok(())
}

/// Makes way for an entry at `p`: removes a file or link there. A real
/// directory is kept when the entry is one to merge into (`merge`), and is
/// otherwise an error: an install over an existing tree (`/usr/local`)
/// must not delete what others put there.
fn remove(p: &Path, merge: bool) -> Result<(), String> {
    let err = |e: std::io::Error| format!("cannot replace {}: {e}", p.display());
    match std::fs::symlink_metadata(p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(err(e)),
        Ok(m) if m.is_dir() && merge => Ok(()),
        Ok(m) if m.is_dir() => Err(format!(
            "{} is a directory where the toolkit has a file or link; not replacing it",
            p.display()
        )),
        Ok(_) => std::fs::remove_file(p).map_err(err),
    }
}

fn symlink(target: &Path, at: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::symlink(target, at);
    #[cfg(not(unix))]
    return Err(std::io::Error::other(format!(
        "symbolic links need a Unix system ({})",
        target.display()
    )));
}

/// Copies the directory `from` to `to`, recursively (headers only: files
/// and directories).
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", from.display()))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst)
                .map_err(|e| format!("cannot copy {} to {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

/// Whether `root` has the shape of a toolkit this module made: the
/// headers and the runtime where a build system looks for them.
pub fn is_toolkit(root: &Path) -> bool {
    root.join("include/cuda_runtime.h").is_file() && root.join("lib64/libcudart.so.13").exists()
}
