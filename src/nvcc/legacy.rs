//! Notes, under `-v`, on APIs that CUDA 12 and 13 removed but cucc keeps
//! working, so users know their code would not build with today's nvcc.

/// (identifier, what CUDA did with it).
const REMOVED: &[(&str, &str)] = &[
    (
        "cudaThreadSynchronize",
        "removed in CUDA 12; use cudaDeviceSynchronize",
    ),
    ("cudaThreadExit", "removed in CUDA 12; use cudaDeviceReset"),
    (
        "cudaThreadSetLimit",
        "removed in CUDA 12; use cudaDeviceSetLimit",
    ),
    (
        "cudaThreadGetLimit",
        "removed in CUDA 12; use cudaDeviceGetLimit",
    ),
    (
        "cudaThreadSetCacheConfig",
        "removed in CUDA 12; use cudaDeviceSetCacheConfig",
    ),
    (
        "cudaThreadGetCacheConfig",
        "removed in CUDA 12; use cudaDeviceGetCacheConfig",
    ),
    (
        "cudaBindTexture",
        "texture references were removed in CUDA 12; use texture objects",
    ),
    (
        "cudaBindTexture2D",
        "texture references were removed in CUDA 12; use texture objects",
    ),
    (
        "cudaBindTextureToArray",
        "texture references were removed in CUDA 12; use texture objects",
    ),
    (
        "cudaUnbindTexture",
        "texture references were removed in CUDA 12; use texture objects",
    ),
    (
        "clockRate",
        "cudaDeviceProp field removed in CUDA 13; use cudaDeviceGetAttribute",
    ),
    (
        "deviceOverlap",
        "cudaDeviceProp field removed in CUDA 13; use asyncEngineCount",
    ),
    (
        "computeMode",
        "cudaDeviceProp field removed in CUDA 13; use cudaDeviceGetAttribute",
    ),
    (
        "memoryClockRate",
        "cudaDeviceProp field removed in CUDA 13; use cudaDeviceGetAttribute",
    ),
    (
        "kernelExecTimeoutEnabled",
        "cudaDeviceProp field removed in CUDA 13; use cudaDeviceGetAttribute",
    ),
];

/// One note per removed API `source` mentions, as `FILE: note: ...` lines.
pub fn notes(file: &str, source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (name, what) in REMOVED {
        if mentions(source, name) {
            out.push(format!(
                "{file}: note: `{name}`: {what}; cucc keeps it working"
            ));
        }
    }
    out
}

/// True if `name` occurs in `text` as a whole identifier.
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_whole_identifiers_only() {
        let src = "cudaThreadSynchronize(); int x = p.clockRate; cudaBindTexture2D(0, t, d);";
        let n = notes("a.cu", src);
        assert_eq!(n.len(), 3, "{n:?}");
        assert!(n[0].starts_with("a.cu: note: `cudaThreadSynchronize`: removed in CUDA 12"));
        assert!(notes("b.cu", "myclockRate2 = cudaThreadSynchronizeX;").is_empty());
    }
}
