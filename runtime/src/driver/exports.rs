//! The entry points of NVIDIA's `libcuda.so.1` and the CUDA version each
//! symbol stands for (`exports.txt`, written by
//! `scripts/driver-exports.py` from NVIDIA's public `cuda.h` and
//! `cudaTypedefs.h`). `libcuda.so.1` exports every one of them;
//! `cuGetProcAddress` maps a base name and a version to one of them.

use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::OnceLock;

/// The list: `symbol base version variant` per line.
pub const EXPORTS_TXT: &str = include_str!("exports.txt");

/// One exported symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Export {
    /// The symbol (`cuMemAlloc_v2`).
    pub symbol: &'static str,
    /// The name programs ask `cuGetProcAddress` for (`cuMemAlloc`).
    pub base: &'static str,
    /// The CUDA version that introduced this form (3020).
    pub version: c_int,
    /// A per-thread-default-stream form (`_ptds`/`_ptsz`).
    pub per_thread: bool,
}

/// Every export, in the file's order.
pub fn all() -> &'static [Export] {
    static ALL: OnceLock<Vec<Export>> = OnceLock::new();
    ALL.get_or_init(|| {
        EXPORTS_TXT
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let mut f = l.split_whitespace();
                Some(Export {
                    symbol: f.next()?,
                    base: f.next()?,
                    version: f.next()?.parse().ok()?,
                    per_thread: f.next()? != "-",
                })
            })
            .collect()
    })
}

/// The exports answering for `base`.
pub fn by_base(base: &str) -> &'static [Export] {
    static BY_BASE: OnceLock<HashMap<&'static str, Vec<Export>>> = OnceLock::new();
    BY_BASE
        .get_or_init(|| {
            let mut m: HashMap<&'static str, Vec<Export>> = HashMap::new();
            for e in all() {
                m.entry(e.base).or_default().push(*e);
            }
            m
        })
        .get(base)
        .map_or(&[], Vec::as_slice)
}

/// Whether `symbol` is one of NVIDIA's exports.
pub fn is_export(symbol: &str) -> bool {
    all().iter().any(|e| e.symbol == symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_parses() {
        assert!(all().len() > 600);
        assert!(is_export("cuMemAlloc_v2"));
        assert!(is_export("cuLaunchKernel_ptsz"));
        let v: Vec<_> = by_base("cuCtxCreate").iter().map(|e| e.version).collect();
        assert!(v.contains(&3020) && v.contains(&12050));
    }
}
