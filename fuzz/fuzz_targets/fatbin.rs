//! Fuzzes the fat binary reader: any bytes must give a parsed fat binary
//! or an error, and every entry must decompress or fail, never panic.
//! Run with `cargo fuzz run fatbin` from `fuzz/` (nightly, cargo-fuzz).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(fb) = cucc_runtime::fatbin::parse(data) {
        for e in &fb.entries {
            let _ = e.contents();
        }
        if let Some(e) = cucc_runtime::fatbin::best_ptx(&fb) {
            let _ = e.ptx_text();
        }
    }
});
