//! `CUCC_PROFILE=1`: a C program with known numbers of launches and calls
//! prints a summary at exit whose rows carry those numbers; without the
//! variable it prints nothing.

mod cprog;

use std::process::Command;

/// The whitespace-separated columns of the report row ending in `name`.
fn row<'a>(report: &'a str, name: &str) -> Vec<&'a str> {
    report
        .lines()
        .find(|l| l.ends_with(name))
        .unwrap_or_else(|| panic!("no row for {name} in:\n{report}"))
        .split_whitespace()
        .collect()
}

#[test]
fn profile_report_counts_launches_and_calls() {
    // libstdc++ provides `__cxa_demangle`, as in every C++ program.
    let prog = cprog::build("profile", &["-Wl,--no-as-needed", "-lstdc++"]);
    let out = cprog::output(Command::new(&prog.exe).env("CUCC_PROFILE", "1"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("ok"),
        "{stdout}{report}"
    );
    assert!(
        report.contains("==cucc profile== 2 kernels, 7 launches"),
        "{report}"
    );

    // Kernel rows: Time(%) Total(ms) Launches Mean Min Max Blocks Threads Name.
    let scale = row(&report, "scale(float*, int)");
    assert_eq!(scale[2..3], ["5"], "{report}");
    assert_eq!(scale[6..8], ["20", "640"], "{report}");
    let fill = row(&report, "fill_ones");
    assert_eq!(fill[2..3], ["2"], "{report}");
    assert_eq!(fill[6..8], ["4", "256"], "{report}");
    // Sorted by total time, longest first.
    let kernel_lines: Vec<&str> = report
        .lines()
        .filter(|l| l.ends_with("scale(float*, int)") || l.ends_with("fill_ones"))
        .collect();
    let totals: Vec<f64> = kernel_lines
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|t| t.parse().ok())
                .expect("total")
        })
        .collect();
    assert!(totals[0] >= totals[1], "{report}");

    // API rows: Time(%) Total(ms) Calls Mean Bytes Category.
    for (category, calls, bytes) in [
        ("memcpy HtoD", "2", Some("1024")),
        ("memcpy DtoH", "1", Some("512")),
        ("memcpy DtoD", "1", Some("4")),
        ("memset", "1", Some("4")),
        ("synchronize", "2", None),
        ("malloc", "2", None),
        ("free", "2", None),
    ] {
        let r = row(&report, category);
        assert_eq!(r[2], calls, "{category}: {report}");
        if let Some(b) = bytes {
            assert_eq!(r[4], b, "{category}: {report}");
        }
    }
}

#[test]
fn no_report_without_the_variable() {
    let prog = cprog::build("profile", &[]);
    let out = cprog::output(Command::new(&prog.exe).env_remove("CUCC_PROFILE"));
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("cucc profile"));
}
