//! Feeds arbitrary text to the PTX frontend: it must return a module or an
//! error, never panic, and whatever it lowers must pass the verifier
//! without panicking either.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = cucc_frontend::ptx::lower_ptx(text, "fuzz.ptx") {
        let _ = cucc_ir::verify_module(&m);
    }
});
