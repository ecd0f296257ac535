//! What the PTX semantics tests share: lowering a hand-written module and
//! reading a result buffer as 32-bit words.

/// The IR of PTX text `src`, verified (a test's kernels must lower).
pub fn lower(src: &str) -> cucc_ir::Module {
    let m = cucc_frontend::ptx::lower_ptx(src, "k.ptx").unwrap_or_else(|e| panic!("{e}"));
    cucc_ir::verify_module(&m).unwrap_or_else(|e| panic!("{e}"));
    m
}

/// Little-endian 32-bit words of `b`.
pub fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
