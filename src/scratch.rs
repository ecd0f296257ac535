//! The driver's scratch directory for intermediate files.
//!
//! A shared temporary directory is writable by every local user, so a name
//! anyone can predict (`/tmp/cucc-<pid>`) could be made in advance by
//! someone else, holding their files. The directory is therefore created
//! fresh under a random name with `mkdir` (which fails on anything already
//! there, symlinks included) and mode 0700, and removed with everything in
//! it when it is dropped, on success and on every error path.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// A private directory of its own, removed when dropped unless kept.
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
    keep: bool,
}

impl ScratchDir {
    /// A new private directory `cucc-<random>` under `$TMPDIR` (else `/tmp`).
    pub fn new() -> Result<ScratchDir, String> {
        Self::new_in(&std::env::temp_dir())
    }

    /// A new private directory `cucc-<random>` under `parent`.
    pub fn new_in(parent: &Path) -> Result<ScratchDir, String> {
        let mut last = None;
        for _ in 0..64 {
            let path = parent.join(format!("cucc-{}", random_suffix()));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(ScratchDir { path, keep: false }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => {
                    return Err(format!(
                        "cannot create a scratch directory in {}: {e}",
                        parent.display()
                    ))
                }
            }
        }
        Err(format!(
            "cannot create a scratch directory in {}: {}",
            parent.display(),
            last.map_or_else(String::new, |e| e.to_string())
        ))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Leaves the directory in place when dropped.
    pub fn keep(&mut self) {
        self.keep = true;
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Twelve hex digits nobody else can predict: the standard library's
/// per-process random hash keys, mixed with the time and a counter.
fn random_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{:012x}", h.finish() & 0xffff_ffff_ffff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn private_unique_and_removed() {
        let parent = ScratchDir::new().expect("parent");
        let a = ScratchDir::new_in(parent.path()).expect("a");
        let b = ScratchDir::new_in(parent.path()).expect("b");
        assert_ne!(a.path(), b.path());
        let mode = std::fs::metadata(a.path())
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::write(a.path().join("x.o"), b"x").expect("write");
        let (pa, pb) = (a.path().to_path_buf(), b.path().to_path_buf());
        drop(a);
        drop(b);
        assert!(!pa.exists() && !pb.exists());
        let mut k = ScratchDir::new_in(parent.path()).expect("kept");
        k.keep();
        let pk = k.path().to_path_buf();
        drop(k);
        assert!(pk.is_dir());
    }

    #[test]
    fn an_existing_directory_is_never_reused() {
        let parent = ScratchDir::new().expect("parent");
        // Directories someone else made in advance, world-writable, are
        // not candidates: creation needs a name that does not exist.
        for _ in 0..8 {
            let d = ScratchDir::new_in(parent.path()).expect("dir");
            let p = d.path().to_path_buf();
            std::mem::forget(d);
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        }
        let before: Vec<_> = std::fs::read_dir(parent.path())
            .expect("list")
            .map(|e| e.expect("entry").path())
            .collect();
        let fresh = ScratchDir::new_in(parent.path()).expect("fresh");
        assert!(!before.contains(&fresh.path().to_path_buf()));
        let mode = std::fs::metadata(fresh.path())
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
    }
}
