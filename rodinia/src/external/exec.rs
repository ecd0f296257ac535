//! Running a build or a benchmark: a child process in its own process group
//! (so a timeout kills `make` together with the compilers it started), its
//! stdout and stderr in files, its wall-clock time measured.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a finished (or killed) process ended.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// It ran past the timeout and was killed.
    pub timed_out: bool,
    /// Wall-clock seconds from start to end.
    pub seconds: f64,
    /// Where its stdout went.
    pub stdout: PathBuf,
    /// Where its stderr went.
    pub stderr: PathBuf,
}

impl Finished {
    /// Exit status 0 within the time limit.
    pub fn success(&self) -> bool {
        self.code == Some(0) && !self.timed_out
    }

    /// "exit status 2", "killed by a signal", "timed out after 60 s".
    pub fn describe(&self, timeout: Duration) -> String {
        if self.timed_out {
            format!("timed out after {} s", timeout.as_secs())
        } else {
            match self.code {
                Some(c) => format!("exit status {c}"),
                None => "killed by a signal".to_string(),
            }
        }
    }
}

/// Runs `program args` in `dir` with `env` added to the environment, writing
/// its output to `log.stdout` and `log.stderr` (`log` is a path prefix).
pub fn run(
    program: &str,
    args: &[String],
    dir: &Path,
    env: &[(String, OsString)],
    log: &Path,
    timeout: Duration,
) -> Result<Finished, String> {
    let stdout = log.with_extension("stdout");
    let stderr = log.with_extension("stderr");
    let create = |p: &Path| {
        std::fs::File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(create(&stdout)?)
        .stderr(create(&stderr)?)
        .process_group(0);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {program} in {}: {e}", dir.display()))?;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                timed_out = true;
                kill_group(child.id());
                let _ = child.kill();
                match child.wait() {
                    Ok(s) => break s,
                    Err(e) => return Err(format!("waiting for {program}: {e}")),
                }
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("waiting for {program}: {e}")),
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    if !timed_out {
        // Children it left behind (a backgrounded job) must not outlive it.
        kill_group(child.id());
    }
    Ok(Finished {
        code: status.code(),
        timed_out,
        seconds,
        stdout,
        stderr,
    })
}

/// Runs a command line of a run script through `sh -c`, so that its
/// redirections (`> result.txt`) work as in the script.
pub fn run_shell(
    line: &str,
    dir: &Path,
    env: &[(String, OsString)],
    log: &Path,
    timeout: Duration,
) -> Result<Finished, String> {
    run(
        "sh",
        &["-c".to_string(), line.to_string()],
        dir,
        env,
        log,
        timeout,
    )
}

/// SIGKILL to the process group `pgid` (the child made itself its leader).
fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .arg("-KILL")
        .arg("--")
        .arg(format!("-{pgid}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The first line of `text` that reports an error (compiler and make
/// diagnostics say `error`; a failed link says `undefined reference`),
/// else its first non-empty line.
pub fn first_error_line(text: &str) -> Option<String> {
    let lines = || text.lines().map(str::trim).filter(|l| !l.is_empty());
    let is_error = |l: &&str| {
        let low = l.to_ascii_lowercase();
        (low.contains("error") && !low.contains("-werror") && !low.contains("warning:"))
            || low.contains("undefined reference")
            || low.contains("no such file")
            || low.contains("not found")
            || low.contains("segmentation fault")
            || low.contains("abort")
    };
    lines()
        .find(is_error)
        .or_else(|| lines().next())
        .map(|l| truncate(l, 300))
}

/// `s` cut to at most `max` characters.
pub fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_preferred_over_chatter() {
        let log = "cd x; make\nfoo.cu:3:1: error: unknown type name 'texture'\nmake: *** Error 1\n";
        assert_eq!(
            first_error_line(log).as_deref(),
            Some("foo.cu:3:1: error: unknown type name 'texture'")
        );
        assert_eq!(
            first_error_line("\n  hello\nworld").as_deref(),
            Some("hello")
        );
        assert_eq!(first_error_line(""), None);
        assert!(truncate(&"x".repeat(400), 10).ends_with('…'));
    }

    #[test]
    fn timeouts_kill_the_whole_group() {
        let dir = std::env::temp_dir().join(format!("rodinia-exec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let shell = |cmd: &str, log: &str, limit: Duration| {
            run_shell(cmd, &dir, &[], &dir.join(log), limit).expect("ran")
        };
        let f = shell("sleep 30 & sleep 30", "log", Duration::from_millis(200));
        assert!(f.timed_out && !f.success());
        assert!(f.describe(Duration::from_secs(1)).contains("timed out"));
        let ok = shell("echo hi; exit 3", "log2", Duration::from_secs(30));
        assert_eq!(ok.code, Some(3));
        assert_eq!(std::fs::read_to_string(&ok.stdout).expect("stdout"), "hi\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
