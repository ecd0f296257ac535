//! `rodinia`: builds, verifies and times the suite's applications under
//! cucc and OpenMP. See `rodinia --help` and docs/rodinia.md.

use cucc_rodinia::apps::{self, APPS};
use cucc_rodinia::cli::{self, Command, RunOptions};
use cucc_rodinia::external::{self, ExternalOptions};
use cucc_rodinia::report;
use cucc_rodinia::runner::{run_app, Toolchain};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match cli::parse(&args) {
        Ok(Command::Help) => {
            println!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::List) => {
            list();
            ExitCode::SUCCESS
        }
        Ok(Command::Run(o)) => run(&o),
        Ok(Command::External(o)) => external(&o),
        Err(e) => {
            eprintln!("rodinia: {e}\n\n{}", cli::USAGE);
            ExitCode::from(2)
        }
    }
}

fn external(o: &ExternalOptions) -> ExitCode {
    let mut o = o.clone();
    if let Some(dir) = &o.generate {
        match external::generate::generate(dir) {
            Ok(done) => {
                for (path, written) in done {
                    let verb = if written { "generated" } else { "kept" };
                    eprintln!("rodinia: {verb} {}", path.display());
                }
            }
            Err(e) => {
                eprintln!("rodinia: {e}");
                return ExitCode::FAILURE;
            }
        }
        if o.dir.as_os_str().is_empty() {
            return ExitCode::SUCCESS;
        }
        if o.data.is_none() {
            o.data = Some(dir.clone());
        }
    }
    let o = &o;
    let selected = match external::benchmarks::select(o.only.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rodinia: {e}");
            return ExitCode::from(2);
        }
    };
    let tc = Toolchain::locate();
    let cucc = match external::toolkit::CuccInstall::locate(&tc.cucc) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("rodinia: {e}");
            return ExitCode::from(2);
        }
    };
    let work = std::env::temp_dir().join(format!("rodinia-external-{}", std::process::id()));
    eprintln!(
        "rodinia: {} benchmark(s) of {}; cucc = {}",
        selected.len(),
        o.dir.display(),
        cucc.cucc.display()
    );
    let outcomes = match external::run(o, &cucc, &selected, &work) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("rodinia: {e}");
            let _ = std::fs::remove_dir_all(&work);
            return ExitCode::from(2);
        }
    };
    print!("{}", external::report::table(&outcomes));
    let mut ok = outcomes.iter().all(|o| o.ok());
    if let Some(path) = &o.json {
        ok &= write_output(
            path,
            format!("{:#}\n", external::report::to_json(&outcomes)),
        );
    }
    finish(ok, o.keep, &work, "scratch tree")
}

/// Writes a report file; says so on stderr and answers false when it cannot.
fn write_output(path: &Path, text: String) -> bool {
    match std::fs::write(path, text) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("rodinia: cannot write {}: {e}", path.display());
            false
        }
    }
}

/// Keeps (`--keep`) or removes the directory the programs ran in, then
/// the exit status.
fn finish(ok: bool, keep: bool, dir: &Path, what: &str) -> ExitCode {
    if keep {
        eprintln!("rodinia: {what} kept: {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(dir);
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn list() {
    for app in APPS {
        println!("{:<12} {}", app.name, app.summary);
        for s in [apps::Size::Small, apps::Size::Default, apps::Size::Rodinia] {
            println!("    {:<8} {}", s.name(), app.args(s).join(" "));
        }
        println!("    compare  {}", app.compare.describe());
    }
}

fn run(o: &RunOptions) -> ExitCode {
    let selected = match apps::select(o.only.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rodinia: {e}");
            return ExitCode::from(2);
        }
    };
    let mut tc = Toolchain::locate();
    tc.cpu_arch = o.cpu_arch.clone();
    let apps_dir = apps::apps_dir();
    let threads = o.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let root = std::env::temp_dir().join(format!("rodinia-{}", std::process::id()));
    eprintln!(
        "rodinia: {} application(s), size {}, {threads} thread(s), {} run(s); cucc = {}",
        selected.len(),
        o.size,
        o.runs,
        tc.cucc.display()
    );

    let mut outcomes = Vec::new();
    for (i, app) in selected.iter().enumerate() {
        let tag = format!("[{}/{}] {}", i + 1, selected.len(), app.name);
        let mut progress = |what: &str| eprintln!("{tag}: {what}");
        let outcome = run_app(
            &tc,
            app,
            &apps_dir,
            &root.join(app.name),
            threads,
            o,
            &mut progress,
        );
        let verdict = if outcome.verified {
            "verified".to_string()
        } else {
            format!("FAILED: {}", outcome.error.as_deref().unwrap_or("?"))
        };
        eprintln!("{tag}: {verdict}");
        outcomes.push(outcome);
    }

    print!("{}", report::table(&outcomes));
    let mut ok = outcomes.iter().all(|o| o.verified);
    if let Some(path) = &o.json {
        ok &= write_output(path, format!("{:#}\n", report::to_json(&outcomes)));
    }
    if let Some(path) = &o.chart {
        let title = format!(
            "cucc speedup over OpenMP ({} size, {threads} threads)",
            o.size
        );
        ok &= write_output(path, report::svg_chart(&outcomes, &title));
    }
    finish(ok, o.keep, &root, "build directory")
}
