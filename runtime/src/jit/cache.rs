//! The on-disk JIT cache: `<root>/jit/<key>.so` (the compiled kernels) and
//! `<key>.ptx` (the PTX they came from, the file translation errors name).
//! The root is `$CUCC_CACHE_DIR`, else `$XDG_CACHE_HOME/cucc`, else
//! `~/.cache/cucc`. The key is a SHA-256 over the PTX text, cucc's version,
//! the identity of the runtime library itself (size and modification time,
//! so a rebuilt cucc never reuses stale objects) and the compile options.
//! Files are written under a unique temporary name and renamed into place,
//! so processes sharing the cache never see a partial file.
//!
//! Loading an object runs its code, so the cache is trusted only as far as
//! nobody else can write it: its directories must belong to the user and
//! be writable by nobody else, or the runtime refuses them (with a warning)
//! and compiles into a private directory of its own. Each object's SHA-256
//! is recorded beside it (`<key>.so.sha256`) and checked on the open file
//! before that same file is loaded, so a replaced object is never run.

use sha2::{Digest, Sha256};
use std::io::Read;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

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

/// The directory holding JIT products: `<root>/jit`, created (mode 0700)
/// if missing, when it and the root are the user's own and writable by
/// nobody else; else, with a warning, a private directory for this process.
pub fn jit_dir() -> Result<PathBuf, String> {
    let root = root();
    let dir = root.join("jit");
    let usable = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .map_err(|e| format!("cannot create it ({e})"))
        .and_then(|()| check_private(&root))
        .and_then(|()| check_private(&dir));
    match usable {
        Ok(()) => Ok(dir),
        Err(why) => {
            let private = private_dir()?;
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| {
                crate::log::log(crate::log::Level::Warn, || {
                    format!(
                        "not using the JIT cache {}: {why}; compiling into the private \
                     directory {} instead (set CUCC_CACHE_DIR to a directory of your own)",
                        dir.display(),
                        private.display()
                    )
                })
            });
            Ok(private)
        }
    }
}

/// `Ok` if `dir` is a directory owned by this user that no other user can
/// write (no group or other write bit), else why not.
pub fn check_private(dir: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    if !meta.is_dir() {
        Err(format!("{} is not a directory", dir.display()))
    } else if meta.uid() != uid {
        Err(format!(
            "{} belongs to user {}, not to this user ({uid})",
            dir.display(),
            meta.uid()
        ))
    } else if meta.mode() & 0o022 != 0 {
        Err(format!(
            "{} is writable by other users (mode {:o})",
            dir.display(),
            meta.mode() & 0o7777
        ))
    } else {
        Ok(())
    }
}

/// This process's own JIT directory, `$TMPDIR/cucc-jit-<random>` (mode
/// 0700, made fresh: never one that exists), removed at exit.
fn private_dir() -> Result<PathBuf, String> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| {
        let parent = std::env::temp_dir();
        let mut last = String::new();
        for n in 0..64u32 {
            let path = parent.join(format!("cucc-jit-{}", random_suffix(n)));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => {
                    let _ = PRIVATE.set(path.clone());
                    // SAFETY: registering a plain extern "C" function.
                    unsafe { libc::atexit(remove_private_dir) };
                    return Ok(path);
                }
                Err(e) => last = e.to_string(),
            }
        }
        Err(format!(
            "cannot create a private JIT directory in {}: {last}",
            parent.display()
        ))
    })
    .clone()
}

static PRIVATE: OnceLock<PathBuf> = OnceLock::new();

extern "C" fn remove_private_dir() {
    if let Some(p) = PRIVATE.get() {
        let _ = std::fs::remove_dir_all(p);
    }
}

/// Sixteen hex digits nobody else can predict (the standard library's
/// random hash keys, the time, the process and `n`).
fn random_suffix(n: u32) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(n);
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{:016x}", h.finish())
}

/// Where the SHA-256 of object `so` is recorded.
pub fn hash_path(so: &Path) -> PathBuf {
    let mut name = so.file_name().unwrap_or_default().to_os_string();
    name.push(".sha256");
    so.with_file_name(name)
}

/// The SHA-256 of everything `file` holds from its current position, hex.
fn hash_file(file: &mut std::fs::File) -> Result<String, std::io::Error> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Opens `so` and checks its contents against the hash recorded beside it;
/// the open file is what must be loaded (see [`fd_path`]).
pub fn open_verified(so: &Path) -> Result<std::fs::File, String> {
    let recorded = std::fs::read_to_string(hash_path(so))
        .map_err(|e| format!("{}: no recorded hash ({e})", so.display()))?;
    let mut file = std::fs::File::open(so).map_err(|e| format!("{}: {e}", so.display()))?;
    let actual = hash_file(&mut file).map_err(|e| format!("{}: {e}", so.display()))?;
    if actual != recorded.trim() {
        return Err(format!(
            "{} does not match the hash recorded when it was built (replaced?)",
            so.display()
        ));
    }
    Ok(file)
}

/// Records the hash of the object `tmp` (about to be renamed to `so`) and
/// returns it open, to be loaded.
pub fn record_hash(tmp: &Path, so: &Path) -> Result<std::fs::File, String> {
    let mut file = std::fs::File::open(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let hash = hash_file(&mut file).map_err(|e| format!("{}: {e}", tmp.display()))?;
    write_atomic(&hash_path(so), hash.as_bytes())?;
    Ok(file)
}

/// A path naming exactly the open `file` (`/proc/self/fd/N`), so what is
/// loaded is what was checked even if the name is replaced meanwhile;
/// `fallback` where `/proc` is not mounted. The descriptor must stay open
/// for as long as the name is used (the loader also matches objects by
/// name, so a reused number would name an older object).
pub fn fd_path(file: &std::fs::File, fallback: &Path) -> PathBuf {
    use std::os::fd::AsRawFd;
    let p = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    if p.exists() {
        p
    } else {
        fallback.to_path_buf()
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

/// Writes `bytes` to `target` atomically (a new temporary file, then rename).
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let tmp = temp_path(target);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", tmp.display())
        })?;
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
