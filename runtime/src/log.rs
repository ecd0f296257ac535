//! The runtime's diagnostics on stderr, filtered by `CUCC_LOG`
//! (`error`, `warn` — the default —, `info`, `debug`, or `off`). Programs
//! run unchanged, so the runtime cannot report through them: what it has
//! to say (a corrupt fat binary, a PTX translation error, JIT timings and
//! cache hits) goes to stderr, prefixed `cucc runtime:`.

use std::sync::OnceLock;

/// How important a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Nothing is printed.
    Off,
    /// A call fails because of it.
    Error,
    /// Something is wrong but the program goes on.
    Warn,
    /// What the runtime does that takes time (JIT translation, cache hits).
    Info,
    /// Details for debugging cucc itself.
    Debug,
}

/// The level `CUCC_LOG` selects.
pub fn max_level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| parse(std::env::var("CUCC_LOG").ok().as_deref()))
}

fn parse(v: Option<&str>) -> Level {
    match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("off" | "none" | "0") => Level::Off,
        Some("error") => Level::Error,
        Some("info") => Level::Info,
        Some("debug" | "trace" | "all") => Level::Debug,
        _ => Level::Warn,
    }
}

/// Whether messages of `level` are printed.
pub fn enabled(level: Level) -> bool {
    level != Level::Off && level <= max_level()
}

/// Prints `msg()` if `level` is enabled.
pub fn log(level: Level, msg: impl FnOnce() -> String) {
    if enabled(level) {
        let tag = match level {
            Level::Error => "error: ",
            Level::Warn => "warning: ",
            Level::Info => "",
            Level::Debug => "debug: ",
            Level::Off => return,
        };
        eprintln!("cucc runtime: {tag}{}", msg());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(parse(None), Level::Warn);
        assert_eq!(parse(Some("INFO")), Level::Info);
        assert_eq!(parse(Some("off")), Level::Off);
        assert_eq!(parse(Some("bogus")), Level::Warn);
        assert!(Level::Error < Level::Info);
    }
}
