//! The CPU the emitted C is compiled for.
//!
//! Device C is compiled for the host's own instruction set by default
//! (`-march=native`): thread loops only vectorise well with the host's
//! vector width and masked stores (guarded bodies). A portable build
//! (`--cpu-arch=portable`, the baseline ISA) or a named one
//! (`--cpu-arch=x86-64-v3`) is chosen by the driver's option or, for the
//! JIT, by `CUCC_CPU_ARCH`. Objects built for `native` are only valid on
//! CPUs with the same features, so [`CpuTarget::identity`] names the
//! features for cache keys.

use std::fmt;

/// Environment variable that chooses the target when no option does.
pub const ENV: &str = "CUCC_CPU_ARCH";

/// A target instruction set for the C compiler.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CpuTarget {
    /// The machine cucc runs on (`-march=native`).
    #[default]
    Native,
    /// The compiler's baseline for the architecture (no `-march`).
    Portable,
    /// A named `-march` value (`x86-64-v3`, `skylake-avx512`, ...).
    Arch(String),
}

impl fmt::Display for CpuTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CpuTarget::Native => f.write_str("native"),
            CpuTarget::Portable => f.write_str("portable"),
            CpuTarget::Arch(a) => f.write_str(a),
        }
    }
}

impl CpuTarget {
    /// Parses an option value: `native`, `portable` (or `generic`), or a
    /// `-march` name made of letters, digits, `-`, `_` and `.`.
    pub fn parse(value: &str) -> Result<CpuTarget, String> {
        match value {
            "native" => Ok(CpuTarget::Native),
            "portable" | "generic" => Ok(CpuTarget::Portable),
            "" => Err("empty CPU architecture (expected native, portable or a -march name)".into()),
            a if a
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) =>
            {
                Ok(CpuTarget::Arch(a.to_string()))
            }
            a => Err(format!(
                "invalid CPU architecture `{a}` (expected native, portable or a -march name)"
            )),
        }
    }

    /// The target `CUCC_CPU_ARCH` names, else [`CpuTarget::Native`].
    pub fn from_env() -> Result<CpuTarget, String> {
        match std::env::var(ENV) {
            Ok(v) if !v.trim().is_empty() => {
                CpuTarget::parse(v.trim()).map_err(|e| format!("{ENV}: {e}"))
            }
            _ => Ok(CpuTarget::Native),
        }
    }

    /// C compiler flags that select the target, and keep floating point
    /// independent of it: no contraction into fused multiply-adds, so a
    /// kernel computes the same bits on every target and in the reference
    /// interpreter (`--use_fast_math` adds `-ffast-math`, which allows it).
    /// Device math never sets `errno` (CUDA has none), so the math
    /// functions are pure and `sqrtf` and friends vectorise.
    pub fn cflags(&self) -> Vec<String> {
        let mut flags = match self {
            CpuTarget::Native => vec!["-march=native".to_string()],
            CpuTarget::Portable => Vec::new(),
            CpuTarget::Arch(a) => vec![format!("-march={a}")],
        };
        flags.push("-ffp-contract=off".into());
        flags.push("-fno-math-errno".into());
        flags
    }

    /// [`CpuTarget::cflags`] plus what C compiler `cc` needs on top: for
    /// GCC, vectorised loops without gathers where it can be told so
    /// (`-mtune-ctrl`; probed once per compiler, as the knob's name
    /// varies between versions and other compilers reject it). A thread
    /// loop's strided serial loop (kmeans' features, `columns[f * n + p]`)
    /// vectorised with gathers ran 1.5x slower than scalar on an AMD EPYC;
    /// generic tuning avoided that but slowed particlefilter's search
    /// loop as much.
    pub fn cflags_for(&self, cc: &str) -> Vec<String> {
        let mut flags = self.cflags();
        if *self != CpuTarget::Portable {
            flags.extend(no_gather_flags(cc));
        }
        flags
    }

    /// What an object built for this target depends on, for cache keys:
    /// `native` adds the host CPU's model and feature flags, so a cache
    /// shared between machines never hands one an object it cannot run.
    pub fn identity(&self) -> String {
        match self {
            CpuTarget::Native => format!("native[{}]", host_cpu_features()),
            other => other.to_string(),
        }
    }
}

/// Emitted C of at least this many bytes gets [`large_source_flags`]: five
/// times the largest Rodinia device object (106 KB), about a kernel of
/// 2,000 statements.
pub const LARGE_SOURCE_BYTES: usize = 512 * 1024;

/// Extra flags for compiling emitted C of `len` bytes with `cc`: for very
/// large sources (one kernel function of thousands of statements), GCC's
/// register allocator in one region for the whole function
/// (`-fira-region=one`, its choice at `-Os`) instead of a region per loop.
/// Regional allocation was 61 % of GCC's time on a 5,000-statement kernel
/// and used 1 GB; one region halves the time (10.8 s to 5.0 s) and needs
/// 175 MB (docs/compile-time.md). Nothing for smaller sources or a
/// compiler that does not take the flag.
pub fn large_source_flags(cc: &str, len: usize) -> Vec<String> {
    if len < LARGE_SOURCE_BYTES {
        return Vec::new();
    }
    probed_flags(cc, "ira", &["-fira-region=one"])
}

/// Flags for every compile of emitted C by `cc`: stack probes for frames
/// larger than a page (`-fstack-clash-protection`, if `cc` takes it), so a
/// kernel whose locals outgrow its stack faults on the guard page below it
/// (a sticky `cudaErrorIllegalAddress`) instead of writing past it into
/// other memory. Probes cost a store per page of frame, once per call.
///
/// And `-fno-strict-aliasing`: device memory has no types. PTX reads and
/// writes bytes at addresses, and CUDA code puns types through memory
/// (CUB's radix sort writes 16-bit digit counters into shared memory and
/// scans them as packed 32-bit words; unions; `reinterpret_cast` of
/// buffers), while the C loads and stores through typed pointers: with
/// C's type-based alias rules the compiler may reorder a load of one type
/// across a store of another to the same bytes (it did, under
/// `-mtune=sapphirerapids`). Which memory is disjoint the passes state
/// themselves (`restrict`, `alloc.distinct`).
pub fn device_c_flags(cc: &str) -> Vec<String> {
    let mut flags = vec!["-fno-strict-aliasing".to_string()];
    flags.extend(probed_flags(
        cc,
        "stack-clash",
        &["-fstack-clash-protection"],
    ));
    flags
}

/// The flags that keep `cc` from vectorising with gathers, if it accepts
/// any (cached per compiler for the life of the process).
fn no_gather_flags(cc: &str) -> Vec<String> {
    probed_flags(
        cc,
        "gather",
        &[
            "-mtune-ctrl=^use_gather",
            "-mtune-ctrl=^use_gather_2parts,^use_gather_4parts,^use_gather_8parts",
        ],
    )
}

/// The first of `candidates` that `cc` accepts, as a list (empty if none);
/// probed once per compiler and `what` for the life of the process.
fn probed_flags(cc: &str, what: &str, candidates: &[&str]) -> Vec<String> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    /// Accepted flags by (compiler, what).
    type Probed = HashMap<(String, String), Vec<String>>;
    static PROBED: Mutex<Option<Probed>> = Mutex::new(None);
    let key = (cc.to_string(), what.to_string());
    if let Some(f) = PROBED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return f.clone();
    }
    let found: Vec<String> = candidates
        .iter()
        .find(|flag| accepts(cc, flag))
        .map(|f| vec![f.to_string()])
        .unwrap_or_default();
    PROBED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, found.clone());
    found
}

/// Whether `cc` compiles an empty C file with `flag` (and says nothing).
fn accepts(cc: &str, flag: &str) -> bool {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let child = Command::new(cc)
        .args([flag, "-x", "c", "-S", "-o", "/dev/null", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"int cucc_probe;\n");
    }
    child
        .wait_with_output()
        .is_ok_and(|o| o.status.success() && o.stderr.is_empty())
}

/// The first processor's model name and feature flags from /proc/cpuinfo
/// (empty where that file does not exist).
fn host_cpu_features() -> String {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return String::new();
    };
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    format!("{}; {}", field("model name"), field("flags"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_c_never_assumes_typed_memory() {
        // Whatever the compiler accepts otherwise, type-based aliasing is
        // off: device memory is untyped (see `device_c_flags`).
        for cc in ["cc", "/nonexistent/cc"] {
            assert!(device_c_flags(cc)
                .iter()
                .any(|f| f == "-fno-strict-aliasing"));
        }
    }

    #[test]
    fn only_large_sources_get_extra_flags() {
        assert!(large_source_flags("cc", 0).is_empty());
        assert!(large_source_flags("cc", LARGE_SOURCE_BYTES - 1).is_empty());
        // A compiler that cannot be run accepts nothing.
        assert!(large_source_flags("/nonexistent/cc", LARGE_SOURCE_BYTES).is_empty());
    }

    #[test]
    fn parses_names() {
        assert_eq!(CpuTarget::parse("native"), Ok(CpuTarget::Native));
        assert_eq!(CpuTarget::parse("portable"), Ok(CpuTarget::Portable));
        assert_eq!(
            CpuTarget::parse("x86-64-v3"),
            Ok(CpuTarget::Arch("x86-64-v3".into()))
        );
        assert!(CpuTarget::parse("").is_err());
        assert!(CpuTarget::parse("native; rm -rf").is_err());
    }

    #[test]
    fn flags_and_identity() {
        assert_eq!(
            CpuTarget::Native.cflags(),
            vec!["-march=native", "-ffp-contract=off", "-fno-math-errno"]
        );
        assert_eq!(
            CpuTarget::Portable.cflags(),
            vec!["-ffp-contract=off", "-fno-math-errno"]
        );
        assert_eq!(
            CpuTarget::Arch("znver3".into()).cflags(),
            vec!["-march=znver3", "-ffp-contract=off", "-fno-math-errno"]
        );
        assert!(CpuTarget::Native.identity().starts_with("native["));
        // A compiler that cannot be run accepts no extra flag.
        assert_eq!(
            CpuTarget::Native.cflags_for("/nonexistent/cucc-test-cc"),
            CpuTarget::Native.cflags()
        );
        assert_eq!(
            CpuTarget::Portable.cflags_for("cc"),
            CpuTarget::Portable.cflags()
        );
        assert_eq!(CpuTarget::Portable.identity(), "portable");
    }
}
