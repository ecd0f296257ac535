//! `rodinia external DIR`: builds and runs a real Rodinia 3.1 checkout's
//! CUDA benchmarks with cucc through their own Makefiles, runs their OpenMP
//! versions, and compares the two where the data files are present.
//!
//! The checkout is never written to: each benchmark's directory (with
//! `common/` and `cuda/util/`) is copied into a scratch tree of the same
//! shape, whose `data` links to the data directory, so relative paths such
//! as `../../common/make.config` and `../../data/...` resolve as in the
//! checkout. `make` runs there with cucc's CUDA toolkit layout (see [`toolkit`])
//! named on its command line, and with `HOME` pointing at a directory where
//! `~/rodinia_3.0` is the scratch tree (a Makefile includes
//! `~/rodinia_3.0/common/make.config`).

pub mod backprop;
pub mod benchmarks;
pub mod check;
pub mod clock;
pub mod copies;
pub mod exec;
pub mod generate;
pub mod own;
pub mod report;
pub mod runfile;
pub mod toolkit;

use benchmarks::{Benchmark, Side};
use check::Check;
use exec::{first_error_line, Finished};
use report::{ExternalOutcome, NvccOutcome, Verdict};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toolkit::{CuccInstall, RodiniaToolkit};

/// Options of `rodinia external`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalOptions {
    /// The Rodinia checkout (holding `cuda/`, `openmp/`, `common/`).
    pub dir: PathBuf,
    /// The data directory (default: `DIR/data`).
    pub data: Option<PathBuf>,
    /// `--only`: benchmark names.
    pub only: Option<Vec<String>>,
    /// `--json`.
    pub json: Option<PathBuf>,
    /// `--timeout`: seconds for each make and each run.
    pub timeout: u64,
    /// `--threads` for both versions (`None`: all cores).
    pub threads: Option<usize>,
    /// `--keep`: keep the scratch tree.
    pub keep: bool,
    /// `--generate-data`: write the generated inputs here first (and use
    /// it as the data directory when no `--data` is given).
    pub generate: Option<PathBuf>,
    /// `--nvcc`: also build each CUDA version with NVIDIA's nvcc and run
    /// it under `cucc run`.
    pub nvcc: Option<PathBuf>,
}

impl ExternalOptions {
    /// Defaults for checkout `dir`.
    pub fn new(dir: PathBuf) -> ExternalOptions {
        ExternalOptions {
            dir,
            data: None,
            only: None,
            json: None,
            timeout: 600,
            threads: None,
            keep: false,
            generate: None,
            nvcc: None,
        }
    }
}

/// A scratch tree and the toolkit its builds use.
struct Tree {
    /// The copy of the checkout's shape (`data` links to the data).
    root: PathBuf,
    /// The fake home (`~/rodinia_3.0` is `root`).
    home: PathBuf,
    toolkit: RodiniaToolkit,
}

impl Tree {
    /// Makes `work/{tree,home}` for `checkout` (canonical), linking `data`
    /// (absolute) and copying `common/` and `cuda/util/`.
    fn create(
        work: &Path,
        tree: &str,
        home: &str,
        checkout: &Path,
        data: &Path,
        toolkit: RodiniaToolkit,
    ) -> Result<Tree, String> {
        let root = work.join(tree);
        let home = work.join(home);
        for d in [&root, &home] {
            std::fs::create_dir_all(d)
                .map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        }
        let link = |target: &Path, at: &Path| {
            std::os::unix::fs::symlink(target, at)
                .map_err(|e| format!("cannot link {}: {e}", at.display()))
        };
        link(data, &root.join("data"))?;
        link(&root, &home.join("rodinia_3.0"))?;
        for shared in ["common", "cuda/util"] {
            let from = checkout.join(shared);
            if from.is_dir() {
                copy_tree(&from, &root.join(shared))?;
            }
        }
        Ok(Tree {
            root,
            home,
            toolkit,
        })
    }
}

/// Everything a run needs besides the benchmark.
pub struct Session {
    checkout: PathBuf,
    /// cucc's tree: the cucc-built CUDA versions and the OpenMP versions.
    tree: Tree,
    /// With `--nvcc`: the tree where NVIDIA's nvcc builds the CUDA versions.
    nvcc_tree: Option<Tree>,
    /// The `cucc` that runs the nvcc-built programs (`cucc run`).
    cucc: PathBuf,
    threads: usize,
    timeout: Duration,
    /// The preload library pinning `time()`, or why it could not be built.
    pinned_clock: Result<PathBuf, String>,
    /// The preload library recording device-to-host copies, or why it
    /// could not be built.
    copy_recorder: Result<PathBuf, String>,
}

impl Session {
    /// Makes the scratch tree under `work` (created; should be fresh) for
    /// `checkout`, its data link, the toolkit and the fake home; with
    /// `nvcc`, a second tree and toolkit layout for NVIDIA's nvcc.
    pub fn create(
        work: &Path,
        checkout: &Path,
        data: &Path,
        cucc: &CuccInstall,
        nvcc: Option<&Path>,
        threads: usize,
        timeout: Duration,
    ) -> Result<Session, String> {
        let checkout = checkout
            .canonicalize()
            .map_err(|e| format!("{}: {e}", checkout.display()))?;
        if !checkout.join("cuda").is_dir() {
            return Err(format!(
                "{} has no cuda/ directory: not a Rodinia checkout",
                checkout.display()
            ));
        }
        let data = std::path::absolute(data).map_err(|e| format!("{}: {e}", data.display()))?;
        let toolkit = RodiniaToolkit::create(&work.join("cuda-toolkit"), cucc)?;
        let nvcc_tree = match nvcc {
            Some(nvcc) => {
                let nv = RodiniaToolkit::nvidia(&work.join("nvcc-toolkit"), nvcc, &toolkit)?;
                Some(Tree::create(
                    work,
                    "nvcc-tree",
                    "nvcc-home",
                    &checkout,
                    &data,
                    nv,
                )?)
            }
            None => None,
        };
        let tree = Tree::create(work, "tree", "home", &checkout, &data, toolkit)?;
        let pinned_clock = clock::build(&work.join("pinned-clock"));
        let copy_recorder = copies::build(&work.join("copy-recorder"));
        Ok(Session {
            checkout,
            tree,
            nvcc_tree,
            cucc: cucc.cucc.clone(),
            threads,
            timeout,
            pinned_clock,
            copy_recorder,
        })
    }

    fn env(&self, tree: &Tree) -> Vec<(String, OsString)> {
        let mut env = tree.toolkit.env();
        let n = OsString::from(self.threads.to_string());
        env.push(("CUCC_NUM_THREADS".into(), n.clone()));
        env.push(("OMP_NUM_THREADS".into(), n));
        env
    }

    /// Copies `side`'s directory into `tree` unless it is there.
    fn copy_side(&self, tree: &Tree, side: &Side) -> Result<(), String> {
        let dir = tree.root.join(side.dir);
        if !dir.exists() {
            let from = self.checkout.join(side.dir);
            if !from.is_dir() {
                return Err(format!("{} is not in the checkout", side.dir));
            }
            copy_tree(&from, &dir)?;
        }
        Ok(())
    }

    /// Copies `side`'s directory into the tree and runs make there.
    fn build(&self, tree: &Tree, side: &Side, log: &Path) -> Result<Finished, String> {
        self.copy_side(tree, side)?;
        let dir = tree.root.join(side.dir);
        let mut args = vec!["-k".to_string()];
        args.extend(tree.toolkit.make_vars());
        args.extend(side.make_vars.iter().map(|v| v.to_string()));
        let mut env = self.env(tree);
        env.push(("HOME".into(), tree.home.clone().into()));
        env.extend(side.make_env.iter().map(|(k, v)| (k.to_string(), v.into())));
        exec::run("make", &args, &dir, &env, log, self.timeout)
    }

    /// The command line `side` runs, or why there is none; with a note
    /// when it is the side's fallback.
    fn command(
        &self,
        tree: &Tree,
        side: &Side,
    ) -> Result<(String, Option<String>), runfile::Choice> {
        let dir = tree.root.join(side.dir);
        let threads = self.threads.to_string();
        let lines = match side.command {
            Some(c) => vec![c.replace("{threads}", &threads)],
            None => {
                let text = std::fs::read_to_string(dir.join(side.run_file)).unwrap_or_default();
                runfile::commands(&text)
            }
        };
        let fallback = side.fallback.map(|c| c.replace("{threads}", &threads));
        choose_or_fall_back(&lines, fallback.as_deref(), side, &dir)
    }

    /// Builds and runs one version in `tree`. With `under_cucc` the program
    /// is started by `cucc run` (an nvcc-built program), first once untimed,
    /// which fills the JIT cache, then timed.
    fn version(
        &self,
        tree: &Tree,
        side: &Side,
        tag: &str,
        logs: &Path,
        under_cucc: bool,
    ) -> Version {
        let build = match self.build(tree, side, &logs.join(format!("{tag}-make"))) {
            Ok(f) => f,
            Err(e) => return Version::failed_build(e),
        };
        let make_error = (!build.success()).then(|| {
            let out = std::fs::read_to_string(&build.stderr).unwrap_or_default()
                + &std::fs::read_to_string(&build.stdout).unwrap_or_default();
            format!(
                "make: {}",
                first_error_line(&out).unwrap_or_else(|| build.describe(self.timeout))
            )
        });
        let (line, fell_back) = match self.command(tree, side) {
            Ok(l) => l,
            Err(runfile::Choice::NoCommand) => {
                return Version {
                    built: make_error.is_none(),
                    error: make_error.or(Some(format!("no command line in {}", side.run_file))),
                    ..Version::default()
                }
            }
            Err(runfile::Choice::NoData { line, why }) => {
                return Version {
                    built: make_error.is_none() && program_exists(&tree.root.join(side.dir), &line),
                    command: Some(line),
                    no_data: Some(why),
                    error: make_error,
                    ..Version::default()
                }
            }
        };
        let dir = tree.root.join(side.dir);
        if !program_exists(&dir, &line) {
            return Version {
                command: Some(line.clone()),
                error: Some(make_error.unwrap_or_else(|| {
                    format!(
                        "make succeeded but did not build {}",
                        runfile::words(&line).first().cloned().unwrap_or_default()
                    )
                })),
                ..Version::default()
            };
        }
        let mut env = self.env(tree);
        let mut preload = Vec::new();
        let wanted = [
            (side.pinned_clock, &self.pinned_clock),
            (side.record_copies, &self.copy_recorder),
        ];
        for (_, lib) in wanted.iter().filter(|(on, _)| *on) {
            match lib {
                Ok(lib) => preload.push(lib.clone()),
                Err(e) => {
                    return Version {
                        built: true,
                        command: Some(line),
                        error: Some(e.clone()),
                        ..Version::default()
                    }
                }
            }
        }
        if !preload.is_empty() {
            let joined = std::env::join_paths(&preload)
                .map_err(|e| format!("cannot preload {preload:?}: {e}"));
            match joined {
                Ok(p) => env.push(("LD_PRELOAD".into(), p)),
                Err(e) => return Version::failed_build(e),
            }
        }
        if side.record_copies {
            let record = dir.join(copies::RECORD_FILE);
            env.push((copies::RECORD_ENV.into(), record.into()));
        }
        let shell_line = if under_cucc {
            under_cucc_run(&self.cucc, &line)
        } else {
            line.clone()
        };
        let warmup = if under_cucc {
            exec::run_shell(
                &shell_line,
                &dir,
                &env,
                &logs.join(format!("{tag}-warmup")),
                self.timeout,
            )
        } else {
            Err(String::new())
        };
        let run = match warmup {
            // A failed untimed run is the result: running it again would
            // only fail again, twice as slowly.
            Ok(f) if !f.success() => Ok(f),
            _ => exec::run_shell(
                &shell_line,
                &dir,
                &env,
                &logs.join(format!("{tag}-run")),
                self.timeout,
            ),
        };
        // A failed make can still have built the program run here (make -k):
        // its error stays as a note.
        let mut v = Version {
            built: true,
            command: Some(line.clone()),
            error: make_error.or(fell_back),
            ..Version::default()
        };
        match run {
            Ok(f) if f.success() => {
                v.seconds = Some(f.seconds);
                v.ran = true;
                v.stdout = runfile::redirect_target(&line)
                    .map(|t| dir.join(t))
                    .unwrap_or_else(|| f.stdout.clone());
                v.stderr = f.stderr.clone();
            }
            Ok(f) => {
                let err = std::fs::read_to_string(&f.stderr).unwrap_or_default();
                let out = std::fs::read_to_string(&f.stdout).unwrap_or_default();
                let first = first_error_line(&err).or_else(|| first_error_line(&out));
                v.error = Some(match first {
                    Some(l) => format!("{}: {l}", f.describe(self.timeout)),
                    None => f.describe(self.timeout),
                });
            }
            Err(e) => v.error = Some(e),
        }
        v
    }

    /// Builds, runs and compares one benchmark; progress to `progress`.
    pub fn benchmark(&self, b: &Benchmark, progress: &mut dyn FnMut(&str)) -> ExternalOutcome {
        let logs = self.tree.root.join("logs").join(b.name.replace('/', "_"));
        let mut out = ExternalOutcome::new(b.name, b.check.describe());
        if let Err(e) = std::fs::create_dir_all(&logs) {
            out.error = Some(format!("cannot create {}: {e}", logs.display()));
            return out;
        }
        // A checkout may carry a committed result file (Rodinia ships
        // heartwall's and leukocyte's result.txt): compare only what this
        // run writes.
        let mut trees = std::iter::once(&self.tree).chain(&self.nvcc_tree);
        if let Err(e) = trees.try_for_each(|t| self.remove_results(t, b)) {
            out.error = Some(e);
            return out;
        }
        progress("building and running the CUDA version with cucc");
        let cuda = self.version(&self.tree, &b.cuda, "cuda", &logs, false);
        out.built = cuda.built;
        out.command = cuda.command.clone();
        out.cucc_seconds = cuda.seconds;
        let omp = b.openmp.as_ref().map(|side| {
            progress("building and running the OpenMP version");
            self.version(&self.tree, side, "openmp", &logs, false)
        });
        if let Some(o) = &omp {
            out.openmp_command = o.command.clone();
            out.openmp_seconds = o.seconds;
        }
        let judged = self.judge(b, &self.tree, &cuda, omp.as_ref());
        out.ran = judged.ran;
        out.matched = judged.matched;
        out.error = judged.error;
        if let Some(tree) = &self.nvcc_tree {
            progress("building the CUDA version with nvcc and running it under cucc run");
            let nv = self.version(tree, &b.cuda, "nvcc", &logs, true);
            let judged = self.judge(b, tree, &nv, omp.as_ref());
            out.nvcc = Some(NvccOutcome {
                built: nv.built,
                ran: judged.ran,
                matched: judged.matched,
                seconds: nv.seconds,
                error: match judged.error {
                    Some(e) if !nv.built && e.starts_with("make: ") => {
                        Some(report::nvcc_build_error(&e))
                    }
                    e => e,
                },
            });
        }
        out
    }

    /// The `ran` and `matched` verdicts of CUDA version `cuda`, built in
    /// `tree`, against the OpenMP version `omp`.
    fn judge(&self, b: &Benchmark, tree: &Tree, cuda: &Version, omp: Option<&Version>) -> Judged {
        let mut j = Judged {
            ran: Verdict::NotReached,
            matched: Verdict::NotReached,
            error: None,
        };
        if let Some(why) = &cuda.no_data {
            j.ran = Verdict::NoData;
            j.matched = Verdict::NoData;
            j.error = cuda.error.clone().or(Some(why.clone()));
            return j;
        }
        if !cuda.built || !cuda.ran {
            if cuda.built {
                j.ran = Verdict::No;
            }
            j.error = cuda.error.clone();
            return j;
        }
        j.ran = Verdict::Yes;
        // Built and ran: a make error for another target is still worth a note.
        j.error = cuda.error.clone();
        let (cuda_src, omp_src, lines, rule) = match b.check {
            Check::None(_) => {
                j.matched = Verdict::NoComparison;
                return j;
            }
            Check::Own(own) => {
                let dir = tree.root.join(b.cuda.dir);
                let stdout = std::fs::read(&cuda.stdout)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .map_err(|e| format!("cannot read {}: {e}", cuda.stdout.display()));
                let command = cuda.command.as_deref().unwrap_or_default();
                match stdout.and_then(|out| own.check(&dir, command, &out)) {
                    Ok(_) => j.matched = Verdict::Yes,
                    Err(e) => {
                        j.matched = Verdict::No;
                        j.error = Some(exec::truncate(&e, 300));
                    }
                }
                return j;
            }
            Check::Outputs {
                cuda,
                openmp,
                lines,
                rule,
            } => (cuda, openmp, lines, rule),
        };
        let Some(o) = omp else {
            j.matched = Verdict::NoComparison;
            return j;
        };
        if let Some(why) = &o.no_data {
            j.matched = Verdict::NoData;
            j.error = Some(format!("OpenMP version: {why}"));
            return j;
        }
        if !o.ran {
            j.error = Some(format!(
                "OpenMP version: {}",
                o.error.as_deref().unwrap_or("did not run")
            ));
            return j;
        }
        let cuda_dir = tree.root.join(b.cuda.dir);
        let omp_dir = b
            .openmp
            .map(|s| self.tree.root.join(s.dir))
            .unwrap_or_default();
        let result = check::read(cuda_src, &cuda_dir, &cuda.stdout, &cuda.stderr).and_then(|c| {
            let e = check::read(omp_src, &omp_dir, &o.stdout, &o.stderr)?;
            check::agree(&c, &e, lines, rule)
        });
        match result {
            Ok(()) => j.matched = Verdict::Yes,
            Err(e) => {
                j.matched = Verdict::No;
                j.error = Some(exec::truncate(&e, 300));
            }
        }
        j
    }

    /// Deletes the result files `b`'s comparison reads from the scratch
    /// tree before either version runs (copying the versions' directories
    /// first: a checkout's result file may also be a dangling Git LFS or
    /// git-annex link, which a program's `fopen(..., "w")` and the shell's
    /// `>` cannot write through).
    fn remove_results(&self, tree: &Tree, b: &Benchmark) -> Result<(), String> {
        let files: Vec<(String, Side)> = match b.check {
            Check::Outputs { cuda, openmp, .. } => [(cuda, Some(b.cuda)), (openmp, b.openmp)]
                .into_iter()
                .filter_map(|(source, side)| match (source, side) {
                    (check::Source::File(f), Some(side)) => Some((f.to_string(), side)),
                    _ => None,
                })
                .collect(),
            Check::Own(own) => own
                .result_files(b.cuda.command)
                .into_iter()
                .map(|f| (f, b.cuda))
                .collect(),
            Check::None(_) => Vec::new(),
        };
        for (f, side) in files {
            // A side missing from the checkout is reported by its build.
            if self.checkout.join(side.dir).is_dir() {
                self.copy_side(tree, &side)?;
            }
            let path = tree.root.join(side.dir).join(&f);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("cannot remove {}: {e}", path.display())),
            }
        }
        Ok(())
    }

    /// The scratch tree (for `--keep`).
    pub fn tree(&self) -> &Path {
        &self.tree.root
    }
}

/// Picks `side`'s line among `lines` ([`runfile::choose`]); when their
/// data is absent, `fallback` if its data is there, with a note naming
/// what was missing and what ran instead.
fn choose_or_fall_back(
    lines: &[String],
    fallback: Option<&str>,
    side: &Side,
    dir: &Path,
) -> Result<(String, Option<String>), runfile::Choice> {
    match runfile::choose(lines, side.pick, dir, side.inputs, side.needs) {
        Ok(l) => Ok((l, None)),
        Err(runfile::Choice::NoData { line, why }) => {
            let Some(fb) = fallback else {
                return Err(runfile::Choice::NoData { line, why });
            };
            match runfile::choose(&[fb.to_string()], None, dir, side.inputs, side.needs) {
                Ok(l) => {
                    let note = format!("{why}: ran the fallback `{l}` instead of `{line}`");
                    Ok((l, Some(note)))
                }
                Err(_) => Err(runfile::Choice::NoData { line, why }),
            }
        }
        Err(e) => Err(e),
    }
}

/// The verdicts on one build of a CUDA version.
struct Judged {
    ran: Verdict,
    matched: Verdict,
    error: Option<String>,
}

/// `line` (a run-file command: a program, its arguments, redirections)
/// started by `cucc run`.
fn under_cucc_run(cucc: &Path, line: &str) -> String {
    format!(
        "{} run {}",
        toolkit::shell_quote(&cucc.display().to_string()),
        line.trim_start()
    )
}

/// One version's build and run.
#[derive(Clone, Debug, Default)]
struct Version {
    built: bool,
    ran: bool,
    command: Option<String>,
    no_data: Option<String>,
    seconds: Option<f64>,
    stdout: PathBuf,
    stderr: PathBuf,
    error: Option<String>,
}

impl Version {
    fn failed_build(e: String) -> Version {
        Version {
            error: Some(e),
            ..Version::default()
        }
    }
}

/// The program a command line runs exists under `dir`.
fn program_exists(dir: &Path, line: &str) -> bool {
    runfile::words(line)
        .first()
        .is_some_and(|p| dir.join(p).is_file())
}

/// Copies a directory tree (files keep their permissions; symlinks are
/// recreated as symlinks).
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    let err = |p: &Path, e: std::io::Error| format!("copying {}: {e}", p.display());
    std::fs::create_dir_all(to).map_err(|e| err(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| err(from, e))? {
        let entry = entry.map_err(|e| err(from, e))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let ty = entry.file_type().map_err(|e| err(&src, e))?;
        if ty.is_symlink() {
            let target = std::fs::read_link(&src).map_err(|e| err(&src, e))?;
            std::os::unix::fs::symlink(target, &dst).map_err(|e| err(&dst, e))?;
        } else if ty.is_dir() {
            copy_tree(&src, &dst)?;
        } else if !is_build_product(&src) {
            std::fs::copy(&src, &dst).map_err(|e| err(&src, e))?;
        }
    }
    Ok(())
}

/// True for an ELF file (an object, program or shared library) or an
/// `ar` archive: build products some Rodinia copies carry (one commits
/// openmp/leukocyte's `.o` files, program and a non-PIE `meschach.a`),
/// which would stop make from building anything, run a binary built
/// elsewhere or fail to link. The scratch tree leaves them out.
fn is_build_product(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let n = f.read(&mut magic).unwrap_or(0);
    magic[..n].starts_with(b"\x7fELF") || magic[..n] == *b"!<arch>\n"
}

/// Runs `benchmarks` of the checkout in `o` with `cucc`; progress goes to
/// stderr. The scratch tree lives under `work`.
pub fn run(
    o: &ExternalOptions,
    cucc: &CuccInstall,
    benchmarks: &[&Benchmark],
    work: &Path,
) -> Result<Vec<ExternalOutcome>, String> {
    let threads = o.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let data = o.data.clone().unwrap_or_else(|| o.dir.join("data"));
    let session = Session::create(
        work,
        &o.dir,
        &data,
        cucc,
        o.nvcc.as_deref(),
        threads,
        Duration::from_secs(o.timeout),
    )?;
    let mut outcomes = Vec::new();
    for (i, b) in benchmarks.iter().enumerate() {
        let tag = format!("[{}/{}] {}", i + 1, benchmarks.len(), b.name);
        let mut progress = |what: &str| eprintln!("{tag}: {what}");
        let outcome = session.benchmark(b, &mut progress);
        eprintln!("{tag}: {}", outcome.summary());
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvcc_built_programs_start_under_cucc_run() {
        assert_eq!(
            under_cucc_run(Path::new("/o p/cucc"), "  ./needle 2048 10 > result.txt"),
            "'/o p/cucc' run ./needle 2048 10 > result.txt"
        );
    }

    #[test]
    fn the_fallback_runs_only_without_the_main_lines_data() {
        let root = std::env::temp_dir().join(format!("rodinia-fallback-{}", std::process::id()));
        let dir = root.join("cuda/bfs");
        std::fs::create_dir_all(root.join("data/bfs")).expect("mkdir");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let side = Side::new("cuda/bfs");
        let main = vec!["./bfs ../../data/bfs/graph1MW_6.txt".to_string()];
        let fallback = Some("./bfs ../../data/bfs/graph65536.txt");
        let choose = || choose_or_fall_back(&main, fallback, &side, &dir);
        // Neither graph: no data, reported for the main line.
        match choose() {
            Err(runfile::Choice::NoData { line, why }) => {
                assert_eq!(line, main[0]);
                assert!(why.contains("graph1MW_6.txt is missing"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        // Only the small graph: the fallback, with a note saying why.
        std::fs::write(root.join("data/bfs/graph65536.txt"), "1\n0 0\n\n0\n\n0\n").expect("write");
        let (line, note) = choose().expect("fallback");
        assert_eq!(line, "./bfs ../../data/bfs/graph65536.txt");
        let note = note.expect("a note");
        assert!(
            note.contains("graph1MW_6.txt is missing") && note.contains("fallback"),
            "{note}"
        );
        // The release's graph: its own line, no note.
        std::fs::write(root.join("data/bfs/graph1MW_6.txt"), "1\n0 0\n\n0\n\n0\n").expect("write");
        assert_eq!(choose().expect("main"), (main[0].clone(), None));
        // Without a fallback nothing changes for the main line.
        assert_eq!(
            choose_or_fall_back(&main, None, &side, &dir).expect("main"),
            (main[0].clone(), None)
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn copies_leave_out_build_products() {
        let root = std::env::temp_dir().join(format!("rodinia-copy-{}", std::process::id()));
        let from = root.join("from");
        std::fs::create_dir_all(from.join("sub")).expect("mkdir");
        std::fs::write(from.join("main.c"), "int main() { return 0; }\n").expect("write");
        std::fs::write(from.join("sub/main.o"), b"\x7fELF\x02\x01\x01").expect("write");
        std::fs::write(from.join("sub/ELF.txt"), b"ELF is not at the start").expect("write");
        std::fs::write(from.join("sub/lib.a"), b"!<arch>\nmember").expect("write");
        std::fs::write(from.join("sub/empty"), b"").expect("write");
        copy_tree(&from, &root.join("to")).expect("copy");
        assert!(root.join("to/main.c").exists());
        assert!(root.join("to/sub/ELF.txt").exists());
        assert!(!root.join("to/sub/main.o").exists());
        assert!(!root.join("to/sub/lib.a").exists());
        assert!(root.join("to/sub/empty").exists());
        let _ = std::fs::remove_dir_all(&root);
    }
}
