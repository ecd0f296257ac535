//! The results of `rodinia external`: one [`ExternalOutcome`] per
//! benchmark, as a text table or JSON.

use serde_json::{json, Value};

/// An answer in the `ran` and `matched` columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It ran / the outputs agree.
    Yes,
    /// It failed / the outputs differ.
    No,
    /// The data files its run line names are absent.
    NoData,
    /// There is nothing meaningful to compare.
    NoComparison,
    /// Not attempted: an earlier step failed.
    NotReached,
}

impl Verdict {
    /// The table's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Yes => "yes",
            Verdict::No => "no",
            Verdict::NoData => "no data",
            Verdict::NoComparison => "no comparison",
            Verdict::NotReached => "-",
        }
    }
}

/// What happened to one benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalOutcome {
    /// The benchmark.
    pub name: String,
    /// Its CUDA version built (the program its run line names exists).
    pub built: bool,
    /// Its CUDA version ran successfully.
    pub ran: Verdict,
    /// Its output agrees with the OpenMP version's.
    pub matched: Verdict,
    /// Wall-clock seconds of the CUDA run under cucc.
    pub cucc_seconds: Option<f64>,
    /// Wall-clock seconds of the OpenMP run.
    pub openmp_seconds: Option<f64>,
    /// The CUDA command line.
    pub command: Option<String>,
    /// The OpenMP command line.
    pub openmp_command: Option<String>,
    /// What is compared.
    pub check: String,
    /// The first error line, for failures.
    pub error: Option<String>,
    /// With `--nvcc`: the same CUDA version built by NVIDIA's nvcc and run
    /// under `cucc run`.
    pub nvcc: Option<NvccOutcome>,
}

/// The nvcc-built CUDA version of a benchmark, run under `cucc run`.
#[derive(Clone, Debug, PartialEq)]
pub struct NvccOutcome {
    /// nvcc built it (the program its run line names exists).
    pub built: bool,
    /// It ran successfully under `cucc run`.
    pub ran: Verdict,
    /// Its output agrees with the OpenMP version's, by the cucc-built
    /// program's rule.
    pub matched: Verdict,
    /// Wall-clock seconds of the timed run (after the untimed one that
    /// filled the JIT cache).
    pub seconds: Option<f64>,
    /// Why it did not build, run or match.
    pub error: Option<String>,
}

impl NvccOutcome {
    /// Built, ran, and matched or had nothing to match; or nvcc could not
    /// build it (not a failure of cucc).
    pub fn ok(&self) -> bool {
        !self.built
            || (self.ran == Verdict::Yes
                && matches!(self.matched, Verdict::Yes | Verdict::NoComparison))
    }
}

/// The report of a failed nvcc build, `make: FIRST ERROR LINE`: what nvcc
/// could not build, with the known cause named (texture references, which
/// CUDA 12 removed; runtime functions such as `cudaThreadSynchronize` and
/// `cudaDeviceProp` fields that CUDA 13 removed; GPU architectures it no
/// longer supports).
pub fn nvcc_build_error(make_error: &str) -> String {
    let line = make_error.strip_prefix("make: ").unwrap_or(make_error);
    let low = line.to_ascii_lowercase();
    let cause = if low.contains("texture") {
        " (texture references, which CUDA 12 removed)"
    } else if low.contains("cudadeviceprop") && low.contains("no member") {
        " (a cudaDeviceProp field CUDA 13 removed)"
    } else if low.contains("identifier \"cuda") && low.contains("is undefined") {
        " (a runtime API function CUDA 13 removed)"
    } else if low.contains("undefined reference to symbol '__cxa_") {
        " (nvcc 13's host code needs libstdc++, which the Makefile's C link leaves out)"
    } else if low.contains("unsupported gpu architecture") {
        " (a GPU architecture it no longer supports)"
    } else {
        ""
    };
    format!("nvcc cannot build it{cause}: {line}")
}

impl ExternalOutcome {
    /// A benchmark not yet built.
    pub fn new(name: &str, check: String) -> ExternalOutcome {
        ExternalOutcome {
            name: name.to_string(),
            built: false,
            ran: Verdict::NotReached,
            matched: Verdict::NotReached,
            cucc_seconds: None,
            openmp_seconds: None,
            command: None,
            openmp_command: None,
            check,
            error: None,
            nvcc: None,
        }
    }

    /// Built, ran, and matched or had nothing to match.
    pub fn ok(&self) -> bool {
        self.built
            && self.ran == Verdict::Yes
            && matches!(self.matched, Verdict::Yes | Verdict::NoComparison)
            && self.nvcc.as_ref().is_none_or(NvccOutcome::ok)
    }

    /// One line for progress output.
    pub fn summary(&self) -> String {
        let mut s = stages(self.built, self.ran, self.matched, self.error.as_deref());
        if let Some(n) = &self.nvcc {
            s.push_str("; nvcc-built: ");
            s.push_str(&stages(n.built, n.ran, n.matched, n.error.as_deref()));
        }
        s
    }
}

/// "built yes, ran no, matched -" and the error if any: the same words for
/// the cucc build and the nvcc-built one.
fn stages(built: bool, ran: Verdict, matched: Verdict, error: Option<&str>) -> String {
    let mut s = format!(
        "built {}, ran {}, matched {}",
        if built { "yes" } else { "no" },
        ran.as_str(),
        matched.as_str()
    );
    if let Some(e) = error {
        s.push_str(": ");
        s.push_str(e);
    }
    s
}

fn secs(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |s| format!("{s:.3}"))
}

/// The results as an aligned table; the error column last. With nvcc
/// results (`--nvcc`), four columns for the nvcc-built program under
/// `cucc run` follow the OpenMP seconds, and its error follows the cucc
/// one's, after `nvcc-built: `.
pub fn table(outcomes: &[ExternalOutcome]) -> String {
    let with_nvcc = outcomes.iter().any(|o| o.nvcc.is_some());
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut header = vec![
        "benchmark",
        "built",
        "ran",
        "matched",
        "cucc (s)",
        "OpenMP (s)",
    ];
    if with_nvcc {
        header.extend(["nvcc built", "nvcc ran", "nvcc matched", "nvcc-built (s)"]);
    }
    header.push("first error");
    let right = |h: &str| h.ends_with("(s)");
    let rows: Vec<Vec<String>> = outcomes
        .iter()
        .map(|o| {
            let mut r = vec![
                o.name.clone(),
                yes_no(o.built),
                o.ran.as_str().to_string(),
                o.matched.as_str().to_string(),
                secs(o.cucc_seconds),
                secs(o.openmp_seconds),
            ];
            let mut errors: Vec<String> = o.error.iter().cloned().collect();
            if with_nvcc {
                match &o.nvcc {
                    Some(n) => {
                        r.extend([
                            yes_no(n.built),
                            n.ran.as_str().to_string(),
                            n.matched.as_str().to_string(),
                            secs(n.seconds),
                        ]);
                        if let Some(e) = &n.error {
                            errors.push(format!("nvcc-built: {e}"));
                        }
                    }
                    None => r.extend(["-", "-", "-", "-"].map(String::from)),
                }
            }
            r.push(errors.join("; "));
            r
        })
        .collect();
    let padded = header.len() - 1;
    let mut width: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r).take(padded) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let w = if i < padded { width[i] } else { 0 };
            if right(header[i]) {
                s.push_str(&format!("{c:>w$}"));
            } else {
                s.push_str(&format!("{c:<w$}"));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    for r in &rows {
        out.push_str(&line(r));
    }
    let count = |f: &dyn Fn(&ExternalOutcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
    out.push_str(&format!(
        "{} benchmark(s): {} built, {} ran, {} matched, {} without data\n",
        outcomes.len(),
        count(&|o| o.built),
        count(&|o| o.ran == Verdict::Yes),
        count(&|o| o.matched == Verdict::Yes),
        count(&|o| o.ran == Verdict::NoData),
    ));
    if with_nvcc {
        let nv = |f: &dyn Fn(&NvccOutcome) -> bool| count(&|o| o.nvcc.as_ref().is_some_and(f));
        out.push_str(&format!(
            "nvcc-built under cucc run: {} built, {} ran, {} matched\n",
            nv(&|n| n.built),
            nv(&|n| n.ran == Verdict::Yes),
            nv(&|n| n.matched == Verdict::Yes),
        ));
    }
    out
}

/// The results as a JSON array.
pub fn to_json(outcomes: &[ExternalOutcome]) -> Value {
    Value::Array(
        outcomes
            .iter()
            .map(|o| {
                json!({
                    "name": o.name,
                    "built": o.built,
                    "ran": o.ran.as_str(),
                    "matched": o.matched.as_str(),
                    "cucc_seconds": o.cucc_seconds,
                    "openmp_seconds": o.openmp_seconds,
                    "command": o.command,
                    "openmp_command": o.openmp_command,
                    "check": o.check,
                    "error": o.error,
                    "nvcc": o.nvcc.as_ref().map(|n| json!({
                        "built": n.built,
                        "ran": n.ran.as_str(),
                        "matched": n.matched.as_str(),
                        "seconds": n.seconds,
                        "error": n.error,
                    })),
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<ExternalOutcome> {
        let mut a = ExternalOutcome::new("nw", "result.txt, exact".into());
        a.built = true;
        a.ran = Verdict::Yes;
        a.matched = Verdict::Yes;
        a.cucc_seconds = Some(1.25);
        a.openmp_seconds = Some(0.5);
        let mut b = ExternalOutcome::new("cfd", "density".into());
        b.error = Some("make: euler3d.cu:5:10: fatal error: 'helper_cuda.h' file not found".into());
        let mut c = ExternalOutcome::new("hotspot", "output.out".into());
        c.built = true;
        c.ran = Verdict::NoData;
        c.matched = Verdict::NoData;
        vec![a, b, c]
    }

    #[test]
    fn table_has_every_column_and_a_summary() {
        let t = table(&sample());
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("benchmark  built  ran"), "{t}");
        assert!(
            lines[1].contains("nw") && lines[1].contains("1.250") && lines[1].contains("0.500")
        );
        assert!(lines[2].contains("helper_cuda.h"), "{t}");
        assert!(lines[3].contains("no data"), "{t}");
        assert_eq!(
            lines[4],
            "3 benchmark(s): 2 built, 1 ran, 1 matched, 1 without data"
        );
        assert!(sample()[0].ok() && !sample()[1].ok() && !sample()[2].ok());
    }

    #[test]
    fn json_fields() {
        let j = to_json(&sample());
        assert_eq!(j[0]["matched"], "yes");
        assert_eq!(j[1]["built"], false);
        assert_eq!(j[1]["ran"], "-");
        assert!(j[1]["cucc_seconds"].is_null());
        assert_eq!(j[2]["ran"], "no data");
        assert!(j[0]["nvcc"].is_null());
    }

    fn nvcc(built: bool, ran: Verdict, matched: Verdict) -> NvccOutcome {
        NvccOutcome {
            built,
            ran,
            matched,
            seconds: None,
            error: None,
        }
    }

    fn with_nvcc() -> Vec<ExternalOutcome> {
        let mut v = sample();
        let mut n = nvcc(true, Verdict::Yes, Verdict::Yes);
        n.seconds = Some(2.5);
        v[0].nvcc = Some(n);
        let mut n = nvcc(false, Verdict::NotReached, Verdict::NotReached);
        n.error = Some(nvcc_build_error(
            "make: euler3d.cu(7): error: texture is not a template",
        ));
        v[1].nvcc = Some(n);
        v
    }

    #[test]
    fn nvcc_columns_only_with_nvcc_results() {
        assert!(!table(&sample()).contains("nvcc"));
        let t = table(&with_nvcc());
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].contains(
                "OpenMP (s)  nvcc built  nvcc ran  nvcc matched  nvcc-built (s)  first error"
            ),
            "{t}"
        );
        // Seconds are right-aligned under their header.
        let col = lines[0].find("nvcc-built (s)").expect("header") + "nvcc-built (s)".len();
        assert_eq!(&lines[1][col - 5..col], "2.500", "{t}");
        assert!(
            lines[2].contains("file not found; nvcc-built: nvcc cannot build it (texture references, which CUDA 12 removed): euler3d.cu(7)"),
            "{t}"
        );
        // hotspot ran without --nvcc results: dashes.
        assert_eq!(
            lines[3].split_whitespace().filter(|w| *w == "-").count(),
            6,
            "{t}"
        );
        assert_eq!(
            lines[5],
            "nvcc-built under cucc run: 1 built, 1 ran, 1 matched"
        );
        assert!(with_nvcc()[0]
            .summary()
            .ends_with("; nvcc-built: built yes, ran yes, matched yes"));
    }

    #[test]
    fn nvcc_json_and_ok() {
        let j = to_json(&with_nvcc());
        assert_eq!(j[0]["nvcc"]["built"], true);
        assert_eq!(j[0]["nvcc"]["matched"], "yes");
        assert_eq!(j[0]["nvcc"]["seconds"], 2.5);
        assert_eq!(j[1]["nvcc"]["ran"], "-");
        assert!(j[1]["nvcc"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("texture references")));
        assert!(j[2]["nvcc"].is_null());
        // nvcc failing to build is not a failure; failing to run or match is.
        assert!(with_nvcc()[0].ok());
        let mut o = sample().remove(0);
        o.nvcc = Some(nvcc(false, Verdict::NotReached, Verdict::NotReached));
        assert!(o.ok());
        o.nvcc = Some(nvcc(true, Verdict::No, Verdict::NotReached));
        assert!(!o.ok());
        o.nvcc = Some(nvcc(true, Verdict::Yes, Verdict::No));
        assert!(!o.ok());
        o.nvcc = Some(nvcc(true, Verdict::Yes, Verdict::NoComparison));
        assert!(o.ok());
    }

    #[test]
    fn nvcc_build_errors_name_known_causes() {
        assert_eq!(
            nvcc_build_error("make: gaussian.cu(224): error: class \"cudaDeviceProp\" has no member \"clockRate\""),
            "nvcc cannot build it (a cudaDeviceProp field CUDA 13 removed): gaussian.cu(224): error: class \"cudaDeviceProp\" has no member \"clockRate\""
        );
        assert_eq!(
            nvcc_build_error("make: nvcc fatal   : Unsupported gpu architecture 'compute_13'"),
            "nvcc cannot build it (a GPU architecture it no longer supports): nvcc fatal   : Unsupported gpu architecture 'compute_13'"
        );
        assert!(nvcc_build_error(
            "make: k.cu(78): error: identifier \"cudaThreadSynchronize\" is undefined"
        )
        .starts_with("nvcc cannot build it (a runtime API function CUDA 13 removed): k.cu(78)"));
        assert!(nvcc_build_error(
            "make: /usr/bin/ld: k.o: undefined reference to symbol '__cxa_guard_acquire@@CXXABI_1.3'"
        )
        .contains("(nvcc 13's host code needs libstdc++, which the Makefile's C link leaves out): /usr/bin/ld"));
        assert_eq!(
            nvcc_build_error("make: x.cu:1: fatal error: GL/glew.h: No such file or directory"),
            "nvcc cannot build it: x.cu:1: fatal error: GL/glew.h: No such file or directory"
        );
    }
}
