//! The source each device module's kernels were built from, kept for the
//! simulated devices, which compile kernels themselves (`crate::snitch`):
//! a cucc object's embedded IR text (`__cucc_register_module_ir`) or an
//! nvcc image's PTX (the JIT records it when it loads the image). Kept
//! only when a simulated device is listed, so CPU-only programs pay
//! nothing.
//!
//! A leaf module: one `Mutex`, taken alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::registry::ModuleId;
use crate::sync::lock;

/// What a module's kernels came from.
#[derive(Debug)]
pub enum Source {
    /// cucc IR text, as the compiler embedded it (before cpuify's pipeline).
    Ir(String),
    /// PTX text of an nvcc image.
    Ptx(String),
}

static SOURCES: Mutex<Option<HashMap<ModuleId, Arc<Source>>>> = Mutex::new(None);

/// Records `id`'s source (the first record wins).
pub fn record(id: ModuleId, source: Source) {
    lock(&SOURCES)
        .get_or_insert_with(HashMap::new)
        .entry(id)
        .or_insert_with(|| Arc::new(source));
}

/// `id`'s source, if recorded.
pub fn get(id: &ModuleId) -> Option<Arc<Source>> {
    lock(&SOURCES).as_ref()?.get(id).cloned()
}

/// The name diagnostics give PTX: the program's, with `.ptx`.
fn ptx_file_name() -> String {
    let exe = std::env::current_exe().ok();
    let name = exe
        .as_ref()
        .and_then(|p| p.file_name())
        .map_or("program".into(), |n| n.to_string_lossy().into_owned());
    format!("{name}.ptx")
}

/// `source` as IR, before any of cpuify's passes: the embedded text
/// parsed, or PTX translated as the JIT translates it. Each simulated
/// device runs the passes its compiler wants on it.
pub fn parse(source: &Source) -> Result<cucc_ir::Module, String> {
    match source {
        Source::Ir(text) => cucc_ir::parse_module(text).map_err(|e| e.to_string()),
        Source::Ptx(ptx) => crate::jit::translate_ptx(ptx, &ptx_file_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_record_wins() {
        let id = [0xa5; 16];
        record(id, Source::Ir("first".into()));
        record(id, Source::Ptx("second".into()));
        match get(&id).as_deref() {
            Some(Source::Ir(t)) => assert_eq!(t, "first"),
            other => panic!("{other:?}"),
        }
        assert!(get(&[0x5a; 16]).is_none());
    }
}
