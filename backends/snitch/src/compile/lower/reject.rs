//! Why each construct the device cannot run is rejected.

use cucc_ir::OpKind;

/// The construct's name and why the device cannot run it.
pub(super) fn rejection(kind: &OpKind) -> (String, String) {
    let name = kind.mnemonic().to_string();
    let why = match kind {
        OpKind::AtomicRmw { .. } | OpKind::AtomicCas { .. } => "atomics need a memory system the streams bypass; the device runs only pure loop nests",
        OpKind::Barrier(_) | OpKind::BarrierReduce(_) => "barriers must be removed by cpuify before the device can run the kernel",
        OpKind::Shuffle(_) | OpKind::Vote(_) | OpKind::ActiveMask | OpKind::LaneId => "warp functions exchange data between threads the device runs one after another",
        OpKind::Call(_) => "calls are not supported (inline them first)",
        OpKind::While => "while loops have no trip count; streams and FREP need counted loops",
        OpKind::If | OpKind::Select | OpKind::Cmp(_) => "conditional code is not supported; only straight-line loop bodies map to streams and FREP",
        OpKind::ThreadId(_) | OpKind::BlockId(_) => "the kernel is in per-thread form; compile it after cpuify's lower-launch",
        OpKind::Alloca { .. } | OpKind::DynamicShared => "local memory (shared and private arrays) needs a place in the TCDM, and the compilation gave none (Options::local_top)",
        OpKind::GlobalAddr(_) => "only memory passed as pointer parameters and the block's shared memory are supported",
        OpKind::Memcpy | OpKind::Memset => "bulk memory operations are not supported",
        OpKind::TexFetch(_) | OpKind::TexRef(_) => "textures are not supported",
        OpKind::Fence { .. } => "fences are not supported",
        OpKind::Printf { .. } | OpKind::Trap { .. } | OpKind::Clock { .. } => "host interaction is not supported",
        OpKind::Cast(_) => "conversions are not supported",
        _ => "not supported by the Snitch compiler",
    };
    (name, why.to_string())
}
