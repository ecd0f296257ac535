//! The on-disk JIT cache: `<root>/jit/<key>.so` (the compiled kernels) and
//! `<key>.ptx` (the PTX they came from, the file translation errors name).
//! The root is `$CUCC_CACHE_DIR`, else `$XDG_CACHE_HOME/cucc`, else
//! `~/.cache/cucc`. The key is a SHA-256 over the PTX text, cucc's version,
//! the identity of the runtime library itself (size and modification time,
//! so a rebuilt cucc never reuses stale objects) and the compile options.
//! Files are written under a unique temporary name and renamed into place,
//! so processes sharing the cache never see a partial file.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The cache root, from the environment.
pub fn root() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("CUCC_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("cucc");
    }
    if let Some(h) = var("HOME") {
        return PathBuf::from(h).join(".cache").join("cucc");
    }
    // SAFETY: getuid has no preconditions.
    std::env::temp_dir().join(format!("cucc-cache-{}", unsafe { libc::getuid() }))
}

/// The directory holding JIT products, created if missing; a private
/// directory under the system's temporary directory if the cache cannot be
/// created (read-only home, for instance).
pub fn jit_dir() -> Result<PathBuf, String> {
    let dir = root().join("jit");
    match std::fs::create_dir_all(&dir) {
        Ok(()) => Ok(dir),
        Err(e) => {
            // SAFETY: getuid has no preconditions.
            let uid = unsafe { libc::getuid() };
            let fallback = std::env::temp_dir()
                .join(format!("cucc-cache-{uid}"))
                .join("jit");
            crate::log::log(crate::log::Level::Warn, || {
                format!(
                    "cannot create the JIT cache {} ({e}); using {}",
                    dir.display(),
                    fallback.display()
                )
            });
            std::fs::create_dir_all(&fallback)
                .map_err(|e| format!("cannot create the JIT cache {}: {e}", fallback.display()))?;
            Ok(fallback)
        }
    }
}

/// A cache key: 32 bytes, named by their hex form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// The key of `ptx` compiled with `options` by this build of cucc.
    pub fn new(ptx: &str, options: &str) -> Key {
        let mut h = Sha256::new();
        h.update(b"cucc-jit-1\0");
        h.update(env!("CARGO_PKG_VERSION").as_bytes());
        h.update(b"\0");
        h.update(runtime_identity().as_bytes());
        h.update(b"\0");
        h.update(options.as_bytes());
        h.update(b"\0");
        h.update(ptx.as_bytes());
        Key(h.finalize().into())
    }

    /// Lower-case hex, the file stem.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The 16-byte module id the compiled object registers under.
    pub fn module_id(&self) -> [u8; 16] {
        let mut id = [0u8; 16];
        id.copy_from_slice(&self.0[..16]);
        id
    }
}

/// The file holding this code (the runtime library, or a test executable),
/// with its size and modification time.
fn runtime_identity() -> String {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let here = runtime_identity as *const ();
    // SAFETY: dladdr only reads the address and fills `info`.
    if unsafe { libc::dladdr(here.cast(), &mut info) } == 0 || info.dli_fname.is_null() {
        return String::new();
    }
    // SAFETY: dladdr returned a NUL-terminated path.
    let path = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_string_lossy();
    let Ok(meta) = std::fs::metadata(path.as_ref()) else {
        return path.into_owned();
    };
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{path}:{}:{mtime}", meta.len())
}

/// A fresh temporary path next to `target` (same directory, so the final
/// rename is atomic).
pub fn temp_path(target: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = target
        .file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    target.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Writes `bytes` to `target` atomically (temporary file, then rename).
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = temp_path(target);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, target).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!(
            "cannot rename {} to {}: {e}",
            tmp.display(),
            target.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_depend_on_text_and_options() {
        let a = Key::new("ptx a", "-O3");
        assert_eq!(a, Key::new("ptx a", "-O3"));
        assert_ne!(a, Key::new("ptx b", "-O3"));
        assert_ne!(a, Key::new("ptx a", "-O2"));
        assert_eq!(a.hex().len(), 64);
        assert_eq!(a.module_id(), a.0[..16]);
    }

    #[test]
    fn atomic_writes_replace_whole_files() {
        let dir = std::env::temp_dir().join(format!("cucc-cache-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("x.so");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "temporary files left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
