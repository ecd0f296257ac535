//! A pinned clock for programs that seed their inputs from `time()`
//! (Rodinia's lavaMD and particlefilter): a tiny preload library, built
//! once per session with the system C compiler, whose `time()` always
//! answers the same second, so both versions draw the same inputs and can
//! be compared. Wall-clock timers (`gettimeofday`, `clock_gettime`) are
//! left alone.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The second every pinned `time()` returns (2023-11-14 22:13:20 UTC).
pub const PINNED_SECOND: i64 = 1_700_000_000;

/// Builds the preload library in `dir`; returns its path.
pub fn build(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let src = dir.join("pin_time.c");
    let lib = dir.join("libpintime.so");
    let text = format!(
        "#include <time.h>\n\
         time_t time(time_t *t) {{\n\
         \x20   if (t) *t = {PINNED_SECOND};\n\
         \x20   return {PINNED_SECOND};\n\
         }}\n"
    );
    std::fs::write(&src, text).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&lib)
        .arg(&src)
        .output()
        .map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "building the pinned clock failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(lib)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preloaded_program_sees_the_pinned_second() {
        let dir = std::env::temp_dir().join(format!("rodinia-clock-{}", std::process::id()));
        let lib = build(&dir).expect("build");
        let src = dir.join("now.c");
        std::fs::write(
            &src,
            "#include <stdio.h>\n#include <time.h>\nint main(void) { printf(\"%ld\", (long)time(NULL)); return 0; }\n",
        )
        .expect("write");
        let exe = dir.join("now");
        let ok = Command::new("cc")
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("cc");
        assert!(ok.success());
        let seconds = |preload: bool| -> i64 {
            let mut cmd = Command::new(&exe);
            if preload {
                cmd.env("LD_PRELOAD", &lib);
            }
            let out = cmd.output().expect("run");
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .expect("seconds")
        };
        assert_eq!(seconds(true), PINNED_SECOND);
        assert!(seconds(false) > PINNED_SECOND);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
