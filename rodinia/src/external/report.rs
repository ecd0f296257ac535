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
        }
    }

    /// Built, ran, and matched or had nothing to match.
    pub fn ok(&self) -> bool {
        self.built
            && self.ran == Verdict::Yes
            && matches!(self.matched, Verdict::Yes | Verdict::NoComparison)
    }

    /// One line for progress output.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "built {}, ran {}, matched {}",
            if self.built { "yes" } else { "no" },
            self.ran.as_str(),
            self.matched.as_str()
        );
        if let Some(e) = &self.error {
            s.push_str(": ");
            s.push_str(e);
        }
        s
    }
}

fn secs(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |s| format!("{s:.3}"))
}

/// The results as an aligned table; the error column last.
pub fn table(outcomes: &[ExternalOutcome]) -> String {
    let header = [
        "benchmark",
        "built",
        "ran",
        "matched",
        "cucc (s)",
        "OpenMP (s)",
        "first error",
    ];
    let rows: Vec<[String; 7]> = outcomes
        .iter()
        .map(|o| {
            [
                o.name.clone(),
                if o.built { "yes" } else { "no" }.to_string(),
                o.ran.as_str().to_string(),
                o.matched.as_str().to_string(),
                secs(o.cucc_seconds),
                secs(o.openmp_seconds),
                o.error.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let mut width = header.map(str::len);
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r).take(6) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let w = if i < 6 { width[i] } else { 0 };
            if i == 4 || i == 5 {
                s.push_str(&format!("{c:>w$}"));
            } else {
                s.push_str(&format!("{c:<w$}"));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&header.map(String::from));
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
    }
}
