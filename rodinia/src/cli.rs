//! The `rodinia` command line.

use crate::apps::Size;
use crate::external::ExternalOptions;
use cucc_cpuify::emit_c::CpuTarget;
use std::path::PathBuf;

/// Usage text.
pub const USAGE: &str = "\
usage: rodinia run [--only A,B,...] [--size small|default|rodinia] [--threads N]
                   [--runs N] [--json PATH] [--chart PATH.svg] [--keep] [--timeout SECONDS]
                   [--cpu-arch native|portable|MARCH] [--nvcc PATH]
       rodinia list
       rodinia external DIR [--only A,B,...] [--data DIR] [--threads N] [--json PATH]
                        [--timeout SECONDS] [--keep] [--generate-data DIR] [--nvcc PATH]
       rodinia external --generate-data DIR

run     builds every application's CUDA version with cucc -O3 and its OpenMP twin
        with the system compiler (-O3 -fopenmp), runs both with the same number of
        threads, checks that their results agree and prints both timings (the median
        of --runs runs) and the speedup OpenMP/cucc.
list    prints the applications, their sizes and comparison rules.
external builds a Rodinia 3.1 checkout's CUDA benchmarks with their own Makefiles and
        cucc standing in for nvcc (cucc's CUDA toolkit layout; the checkout is not written to),
        runs each run file's command where its data files exist, runs the OpenMP
        versions, compares the outputs, and prints built/ran/matched per benchmark.

options:
  --only A,B      only these applications
  --size S        small (CI), default (about 1 s), rodinia (Rodinia's own sizes)
  --threads N     threads for both (CUCC_NUM_THREADS / OMP_NUM_THREADS); default all cores
  --runs N        timed runs of each program (default 3)
  --json PATH     write the results as a JSON array
  --chart PATH    write an SVG bar chart of the speedups
  --keep          keep the build directory and print where it is
  --timeout S     kill a program that runs longer than S seconds (default 600;
                  for external: each make and each run)
  --data DIR      (external) Rodinia's data directory (default: DIR/data)
  --generate-data DIR  (external) first write the inputs no public copy of Rodinia
                  carries (seeded: heartwall's and leukocyte's videos, b+tree's keys, bfs's graph,
                  hotspot3D's grids, nn's records, cfd's meshes, mummergpu's genome and
                  reads) under DIR,
                  keeping files already there; DIR is then the data directory
                  unless --data is given; without a checkout, only generate
  --cpu-arch A    (run) the instruction set for both versions: cucc's device code
                  (--cpu-arch=A) and the OpenMP twin (-march=A; none for portable);
                  default native
  --nvcc PATH     (run) also build each CUDA version with this nvcc (-O3, its default
                  static runtime) and run it under `cucc run`: the PTX path, timed (after
                  one untimed run that fills the JIT cache) and verified against the
                  OpenMP twin like the cucc-built program;
                  (external) also build each CUDA benchmark with this nvcc through its
                  Makefile (a toolkit layout around it: its headers and libraries,
                  GPU architectures it no longer supports left out), run it under
                  `cucc run` the same way and compare it with the OpenMP version

environment: CUCC (the cucc binary; default: next to rodinia), CC and CXX (the OpenMP
compilers; default cc and c++), RODINIA_APPS (the apps directory).";

/// What to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Build, run, verify and time.
    Run(RunOptions),
    /// List the applications.
    List,
    /// Build and run a real Rodinia checkout's benchmarks.
    External(ExternalOptions),
    /// Print the usage.
    Help,
}

/// Options of `rodinia run`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOptions {
    /// `--only`: application names.
    pub only: Option<Vec<String>>,
    /// `--size`.
    pub size: Size,
    /// `--threads` (`None`: all cores).
    pub threads: Option<usize>,
    /// `--runs`.
    pub runs: usize,
    /// `--json`.
    pub json: Option<PathBuf>,
    /// `--chart`.
    pub chart: Option<PathBuf>,
    /// `--keep`.
    pub keep: bool,
    /// `--timeout`, in seconds.
    pub timeout: u64,
    /// `--cpu-arch`: `native`, `portable` or a `-march` name, for both
    /// versions (the comparison stays fair whatever the target).
    pub cpu_arch: CpuTarget,
    /// `--nvcc`: NVIDIA's compiler, to also time the nvcc-built program
    /// under `cucc run` (the PTX path).
    pub nvcc: Option<PathBuf>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            only: None,
            size: Size::Default,
            threads: None,
            runs: 3,
            json: None,
            chart: None,
            keep: false,
            timeout: 600,
            cpu_arch: CpuTarget::Native,
            nvcc: None,
        }
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let Some((cmd, rest)) = args.split_first() else {
        return Ok(Command::Help);
    };
    match cmd.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help),
        "list" => match rest.first() {
            None => Ok(Command::List),
            Some(a) => Err(format!("`list` takes no arguments (got `{a}`)")),
        },
        "run" => parse_run(rest).map(Command::Run),
        "external" => parse_external(rest).map(Command::External),
        other => Err(format!(
            "unknown command `{other}` (expected run, list or external)"
        )),
    }
}

/// The value getter [`walk_options`] hands out: the text after `=`, or the
/// next argument.
type Value<'v> = &'v mut dyn FnMut() -> Result<String, String>;

/// Walks a subcommand's arguments, `--opt value` and `--opt=value` alike:
/// `apply` gets each argument, its option name, whether a value came
/// inline, and the getter that takes the value.
fn walk_options(
    args: &[String],
    mut apply: impl FnMut(&str, &str, bool, Value<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let has_inline = inline.is_some();
        let mut value = || -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("`{name}` needs a value"))
        };
        apply(arg, name, has_inline, &mut value)?;
        i += 1;
    }
    Ok(())
}

/// The comma-separated names of `--only` (at least one `what`).
fn only_names(v: &str, what: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = v
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if names.is_empty() {
        return Err(format!("`--only` needs at least one {what}"));
    }
    Ok(names)
}

fn parse_run(args: &[String]) -> Result<RunOptions, String> {
    let mut o = RunOptions::default();
    walk_options(args, |arg, name, inline, value| {
        match name {
            "--only" => o.only = Some(only_names(&value()?, "application")?),
            "--size" => o.size = Size::parse(&value()?)?,
            "--threads" => o.threads = Some(positive(name, &value()?)?),
            "--runs" => o.runs = positive(name, &value()?)?,
            "--json" => o.json = Some(PathBuf::from(value()?)),
            "--chart" => o.chart = Some(PathBuf::from(value()?)),
            "--timeout" => o.timeout = positive(name, &value()?)? as u64,
            "--keep" if !inline => o.keep = true,
            "--cpu-arch" => {
                o.cpu_arch =
                    CpuTarget::parse(&value()?).map_err(|e| format!("`--cpu-arch`: {e}"))?
            }
            "--nvcc" => o.nvcc = Some(PathBuf::from(value()?)),
            _ => return Err(format!("unknown option `{arg}` for `run`")),
        }
        Ok(())
    })?;
    Ok(o)
}

fn parse_external(args: &[String]) -> Result<ExternalOptions, String> {
    let mut o = ExternalOptions::new(PathBuf::new());
    let mut dir = None;
    walk_options(args, |arg, name, inline, value| {
        match name {
            "--only" => o.only = Some(only_names(&value()?, "benchmark")?),
            "--data" => o.data = Some(PathBuf::from(value()?)),
            "--generate-data" => o.generate = Some(PathBuf::from(value()?)),
            "--threads" => o.threads = Some(positive(name, &value()?)?),
            "--json" => o.json = Some(PathBuf::from(value()?)),
            "--timeout" => o.timeout = positive(name, &value()?)? as u64,
            "--keep" if !inline => o.keep = true,
            "--nvcc" => o.nvcc = Some(PathBuf::from(value()?)),
            _ if !arg.starts_with('-') && dir.is_none() => dir = Some(PathBuf::from(arg)),
            _ => return Err(format!("unknown option `{arg}` for `external`")),
        }
        Ok(())
    })?;
    match (dir, &o.generate) {
        (Some(d), _) => o.dir = d,
        // Only generating the inputs.
        (None, Some(_)) => {}
        (None, None) => return Err("`external` needs the Rodinia checkout directory".into()),
    }
    Ok(o)
}

fn positive(name: &str, v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{name}` needs a positive integer (got `{v}`)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn defaults() {
        assert_eq!(p(&["run"]), Ok(Command::Run(RunOptions::default())));
        assert_eq!(p(&[]), Ok(Command::Help));
        assert_eq!(p(&["list"]), Ok(Command::List));
    }

    #[test]
    fn every_option_in_both_spellings() {
        let Ok(Command::Run(o)) = p(&[
            "run",
            "--only",
            "nw, bfs",
            "--size=small",
            "--threads",
            "4",
            "--runs=5",
            "--json",
            "r.json",
            "--chart=c.svg",
            "--keep",
            "--timeout",
            "9",
            "--nvcc=/opt/nv/nvcc",
        ]) else {
            panic!("parse failed")
        };
        assert_eq!(o.only, Some(vec!["nw".to_string(), "bfs".to_string()]));
        assert_eq!(o.size, Size::Small);
        assert_eq!(o.threads, Some(4));
        assert_eq!(o.runs, 5);
        assert_eq!(o.json, Some(PathBuf::from("r.json")));
        assert_eq!(o.chart, Some(PathBuf::from("c.svg")));
        assert!(o.keep);
        assert_eq!(o.timeout, 9);
        assert_eq!(o.nvcc, Some(PathBuf::from("/opt/nv/nvcc")));
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(p(&["run", "--runs", "0"]).unwrap_err().contains("--runs"));
        assert!(p(&["run", "--threads"])
            .unwrap_err()
            .contains("needs a value"));
        assert!(p(&["run", "--size", "big"]).unwrap_err().contains("big"));
        assert!(p(&["run", "--frob"]).unwrap_err().contains("--frob"));
        assert!(p(&["run", "--keep=1"]).unwrap_err().contains("--keep=1"));
        assert!(p(&["run", "--only", ","]).unwrap_err().contains("--only"));
        assert!(p(&["bench"]).unwrap_err().contains("bench"));
    }

    #[test]
    fn external_options() {
        let Ok(Command::External(o)) = p(&[
            "external",
            "--only=nw,srad_v2",
            "/src/rodinia",
            "--data",
            "/d",
            "--json",
            "x.json",
            "--timeout",
            "30",
            "--threads=2",
            "--keep",
            "--nvcc",
            "/nv/bin/nvcc",
        ]) else {
            panic!("parse failed")
        };
        assert_eq!(o.dir, PathBuf::from("/src/rodinia"));
        assert_eq!(o.only, Some(vec!["nw".to_string(), "srad_v2".to_string()]));
        assert_eq!(o.data, Some(PathBuf::from("/d")));
        assert_eq!(o.json, Some(PathBuf::from("x.json")));
        assert_eq!((o.timeout, o.threads, o.keep), (30, Some(2), true));
        assert_eq!(o.nvcc, Some(PathBuf::from("/nv/bin/nvcc")));
        let Ok(Command::External(d)) = p(&["external", "/r"]) else {
            panic!("parse failed")
        };
        assert_eq!(d.nvcc, None);
        assert!(p(&["external", "/r", "--nvcc"])
            .unwrap_err()
            .contains("needs a value"));
        assert!(p(&["external"]).unwrap_err().contains("checkout"));
        assert!(p(&["external", "a", "b"]).unwrap_err().contains("`b`"));
        assert!(p(&["external", "a", "--size", "small"])
            .unwrap_err()
            .contains("--size"));
        let Ok(Command::External(g)) = p(&["external", "--generate-data", "/g"]) else {
            panic!("parse failed")
        };
        assert_eq!(
            (g.generate, g.dir),
            (Some(PathBuf::from("/g")), PathBuf::new())
        );
        assert!(p(&["external", "--generate-data"])
            .unwrap_err()
            .contains("needs a value"));
    }
}
