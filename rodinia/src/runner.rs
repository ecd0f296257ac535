//! Building and running the two versions of an application.

use crate::apps::App;
use crate::cli::RunOptions;
use crate::compare::compare;
use crate::report::Outcome;
use crate::stats::{median, parse_time};
use cucc_cpuify::emit_c::CpuTarget;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The compilers the suite needs.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The `cucc` driver.
    pub cucc: PathBuf,
    /// The C compiler for `.c` OpenMP twins.
    pub cc: OsString,
    /// The C++ compiler for `.cpp` OpenMP twins.
    pub cxx: OsString,
    /// The instruction set both versions are built for: `native`,
    /// `portable` (the compilers' baseline) or a `-march` name.
    pub cpu_arch: CpuTarget,
}

impl Toolchain {
    /// `CUCC`, or `cucc` next to this executable (both live in the same
    /// cargo target directory); `CC`/`CXX`, or `cc`/`c++`.
    pub fn locate() -> Toolchain {
        let cucc = std::env::var_os("CUCC")
            .map(PathBuf::from)
            .or_else(|| {
                let exe = std::env::current_exe().ok()?;
                let dir = exe.parent()?;
                // Test binaries live one level deeper, in `deps/`.
                [dir.join("cucc"), dir.parent()?.join("cucc")]
                    .into_iter()
                    .find(|p| p.is_file())
            })
            .unwrap_or_else(|| PathBuf::from("cucc"));
        Toolchain {
            cucc,
            cc: std::env::var_os("CC").unwrap_or_else(|| "cc".into()),
            cxx: std::env::var_os("CXX").unwrap_or_else(|| "c++".into()),
            cpu_arch: CpuTarget::Native,
        }
    }
}

/// The include directory every app uses (`rodinia_common.h`).
fn common_dir(apps_dir: &Path) -> PathBuf {
    apps_dir.join("common")
}

fn run_tool(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", cmd.get_program()))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let first: Vec<&str> = err
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    Err(format!(
        "{what} failed ({}): {}",
        out.status,
        first.join(" | ")
    ))
}

/// Compiles the OpenMP twin into `out_dir`, returning the executable.
pub fn build_openmp(
    tc: &Toolchain,
    app: &App,
    apps_dir: &Path,
    out_dir: &Path,
) -> Result<PathBuf, String> {
    let src = app.dir(apps_dir).join(app.openmp);
    let exe = out_dir.join(format!("{}_omp", app.name));
    let compiler = if app.openmp.ends_with(".c") {
        &tc.cc
    } else {
        &tc.cxx
    };
    let mut cmd = Command::new(compiler);
    // The same target, tuning and floating-point contract as cucc's device
    // C, so the comparison stays fair whatever the target.
    cmd.args(tc.cpu_arch.cflags_for(&compiler.to_string_lossy()));
    cmd.arg("-O3")
        .arg("-fopenmp")
        .arg("-I")
        .arg(common_dir(apps_dir))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm");
    run_tool(&mut cmd, "OpenMP build").map(|()| exe)
}

/// Compiles the CUDA version with `cucc -O3` into `out_dir`.
pub fn build_cuda(
    tc: &Toolchain,
    app: &App,
    apps_dir: &Path,
    out_dir: &Path,
) -> Result<PathBuf, String> {
    let src = app.dir(apps_dir).join(app.cuda);
    let exe = out_dir.join(format!("{}_cuda", app.name));
    let mut cmd = Command::new(&tc.cucc);
    cmd.arg(format!("--cpu-arch={}", tc.cpu_arch))
        .arg("-O3")
        .arg("-I")
        .arg(common_dir(apps_dir))
        .arg(&src)
        .arg("-o")
        .arg(&exe);
    run_tool(&mut cmd, "cucc build").map(|()| exe)
}

/// Compiles the CUDA version with NVIDIA's `nvcc -O3` (its default static
/// runtime, as a user's build would) into `out_dir`: the program `cucc run`
/// translates from the PTX in its fatbinary.
pub fn build_nvcc(
    nvcc: &Path,
    app: &App,
    apps_dir: &Path,
    out_dir: &Path,
) -> Result<PathBuf, String> {
    let src = app.dir(apps_dir).join(app.cuda);
    let exe = out_dir.join(format!("{}_nvcc", app.name));
    let mut cmd = Command::new(nvcc);
    cmd.arg("-O3")
        .arg("-I")
        .arg(common_dir(apps_dir))
        .arg(&src)
        .arg("-o")
        .arg(&exe);
    run_tool(&mut cmd, "nvcc build").map(|()| exe)
}

/// A built program and how to start it.
#[derive(Clone, Debug)]
pub struct Program {
    /// The executable.
    pub exe: PathBuf,
    /// Started as `CUCC run EXE ...` (an nvcc-built program) instead of
    /// directly.
    pub under: Option<PathBuf>,
}

impl Program {
    /// A program started directly.
    pub fn native(exe: PathBuf) -> Program {
        Program { exe, under: None }
    }

    fn command(&self) -> Command {
        match &self.under {
            Some(cucc) => {
                let mut c = Command::new(cucc);
                c.arg("run").arg(&self.exe);
                c
            }
            None => Command::new(&self.exe),
        }
    }
}

/// One run of a built program: its timed-region seconds. The result goes to
/// `output`; `env` sets the thread count.
pub fn run_program(
    program: &Program,
    args: &[&str],
    output: &Path,
    env: (&str, String),
    timeout: Duration,
) -> Result<f64, String> {
    let exe = &program.exe;
    let name = exe.file_name().map_or_else(
        || exe.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let _ = std::fs::remove_file(output);
    let dir = output.parent().unwrap_or(Path::new("."));
    let stdout_path = dir.join(format!("{name}.stdout"));
    let stderr_path = dir.join(format!("{name}.stderr"));
    let file = |p: &Path| {
        std::fs::File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))
    };
    let mut child = program
        .command()
        .args(args)
        .arg(output)
        .env(env.0, env.1)
        .stdin(Stdio::null())
        .stdout(file(&stdout_path)?)
        .stderr(file(&stderr_path)?)
        .spawn()
        .map_err(|e| format!("cannot start {name}: {e}"))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{name} timed out after {}s", timeout.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for {name}: {e}")),
        }
    };
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    if !status.success() {
        let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        let last: Vec<&str> = stderr.lines().rev().take(2).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        return Err(format!("{name} failed ({status}): {}", last.join(" | ")));
    }
    if !output.is_file() {
        return Err(format!("{name} wrote no result file"));
    }
    parse_time(&stdout).ok_or_else(|| format!("{name} printed no `TIME <seconds>` line"))
}

/// Runs a program `runs` times; the median time and the first run's result.
fn timed_runs(
    exe: &Program,
    args: &[&str],
    output: &Path,
    env: (&str, String),
    o: &RunOptions,
) -> Result<(f64, String), String> {
    let mut times = Vec::new();
    let mut first = None;
    for r in 0..o.runs {
        let path = if r == 0 {
            output.to_path_buf()
        } else {
            output.with_extension(format!("run{r}"))
        };
        times.push(run_program(
            exe,
            args,
            &path,
            env.clone(),
            Duration::from_secs(o.timeout),
        )?);
        if r == 0 {
            first = Some(
                std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            );
        }
    }
    Ok((median(&times).unwrap_or(0.0), first.unwrap_or_default()))
}

/// Builds, runs, verifies and times one application at `o.size` in `work`
/// (a fresh directory). The OpenMP twin runs even when the CUDA build fails, so its
/// time is reported.
pub fn run_app(
    tc: &Toolchain,
    app: &App,
    apps_dir: &Path,
    work: &Path,
    threads: usize,
    o: &RunOptions,
    progress: &mut dyn FnMut(&str),
) -> Outcome {
    let size = o.size;
    let mut outcome = Outcome {
        name: app.name.to_string(),
        size: size.name().to_string(),
        verified: false,
        cucc_seconds: None,
        openmp_seconds: None,
        nvcc_seconds: None,
        nvcc_verified: false,
        error: None,
    };
    if let Err(e) = std::fs::create_dir_all(work) {
        outcome.error = Some(format!("cannot create {}: {e}", work.display()));
        return outcome;
    }
    let args = app.args(size);
    let mut errors = Vec::new();

    progress("building OpenMP twin");
    let omp = build_openmp(tc, app, apps_dir, work).and_then(|exe| {
        progress("running OpenMP twin");
        timed_runs(
            &Program::native(exe),
            args,
            &work.join("openmp.out"),
            ("OMP_NUM_THREADS", threads.to_string()),
            o,
        )
    });
    match &omp {
        Ok((t, _)) => outcome.openmp_seconds = Some(*t),
        Err(e) => errors.push(e.clone()),
    }

    progress("building CUDA version with cucc");
    let cuda = build_cuda(tc, app, apps_dir, work).and_then(|exe| {
        progress("running CUDA version");
        timed_runs(
            &Program::native(exe),
            args,
            &work.join("cuda.out"),
            ("CUCC_NUM_THREADS", threads.to_string()),
            o,
        )
    });
    match &cuda {
        Ok((t, _)) => outcome.cucc_seconds = Some(*t),
        Err(e) => errors.push(e.clone()),
    }

    if let (Ok((_, expected)), Ok((_, actual))) = (&omp, &cuda) {
        match compare(expected, actual, app.compare) {
            Ok(()) => outcome.verified = true,
            Err(e) => errors.push(format!("results differ ({}): {e}", app.compare.describe())),
        }
    }

    if let Some(nvcc) = &o.nvcc {
        progress("building CUDA version with nvcc");
        let built = build_nvcc(nvcc, app, apps_dir, work).and_then(|exe| {
            progress("running the nvcc-built version under cucc run");
            let program = Program {
                exe,
                under: Some(tc.cucc.clone()),
            };
            // The first run translates and compiles the kernels into the
            // JIT cache; the timed runs measure the program, as a user's
            // every later run would.
            run_program(
                &program,
                args,
                &work.join("nvcc.warmup"),
                ("CUCC_NUM_THREADS", threads.to_string()),
                Duration::from_secs(o.timeout),
            )?;
            timed_runs(
                &program,
                args,
                &work.join("nvcc.out"),
                ("CUCC_NUM_THREADS", threads.to_string()),
                o,
            )
        });
        match built {
            Ok((t, actual)) => {
                outcome.nvcc_seconds = Some(t);
                if let Ok((_, expected)) = &omp {
                    match compare(expected, &actual, app.compare) {
                        Ok(()) => outcome.nvcc_verified = true,
                        Err(e) => errors.push(format!(
                            "nvcc-built results differ ({}): {e}",
                            app.compare.describe()
                        )),
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        outcome.error = Some(errors.join("; "));
    }
    outcome
}
