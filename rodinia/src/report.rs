//! The results: one [`Outcome`] per application, shown as a table, written
//! as JSON, drawn as an SVG bar chart.

use serde_json::{json, Value};

/// What happened to one application.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The application.
    pub name: String,
    /// The size it ran at.
    pub size: String,
    /// Both built and ran, and the results agree.
    pub verified: bool,
    /// Median timed-region seconds of the CUDA version under cucc.
    pub cucc_seconds: Option<f64>,
    /// Median timed-region seconds of the OpenMP version.
    pub openmp_seconds: Option<f64>,
    /// Median timed-region seconds of the nvcc-built program under
    /// `cucc run` (`rodinia run --nvcc`).
    pub nvcc_seconds: Option<f64>,
    /// The nvcc-built program's results agree with the OpenMP version's.
    pub nvcc_verified: bool,
    /// What went wrong, if anything.
    pub error: Option<String>,
}

impl Outcome {
    /// OpenMP seconds over cucc seconds (above 1: cucc is faster).
    pub fn speedup(&self) -> Option<f64> {
        match (self.cucc_seconds, self.openmp_seconds) {
            (Some(c), Some(o)) if c > 0.0 => Some(o / c),
            _ => None,
        }
    }

    /// OpenMP seconds over the nvcc-built program's seconds under `cucc run`.
    pub fn nvcc_speedup(&self) -> Option<f64> {
        match (self.nvcc_seconds, self.openmp_seconds) {
            (Some(c), Some(o)) if c > 0.0 => Some(o / c),
            _ => None,
        }
    }
}

/// The geometric mean of the speedups that exist, and how many there are.
pub fn geomean(speedups: impl Iterator<Item = Option<f64>>) -> Option<(f64, usize)> {
    let logs: Vec<f64> = speedups.flatten().map(f64::ln).collect();
    (!logs.is_empty()).then(|| {
        let n = logs.len();
        ((logs.iter().sum::<f64>() / n as f64).exp(), n)
    })
}

fn secs(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |s| format!("{s:.4}"))
}

/// The results as an aligned text table (with the nvcc-built program's
/// columns when any was run), the geometric mean of each speedup column,
/// and errors listed below it.
pub fn table(outcomes: &[Outcome]) -> String {
    let with_nvcc = outcomes.iter().any(|o| o.nvcc_seconds.is_some());
    let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
    let ratio = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{s:.2}x"));
    let mut header: Vec<String> = [
        "benchmark",
        "size",
        "cucc (s)",
        "OpenMP (s)",
        "speedup",
        "verified",
    ]
    .map(String::from)
    .to_vec();
    // Left-aligned columns: names and yes/no.
    let mut left = vec![0, 1, 5];
    if with_nvcc {
        header.extend(["nvcc-built (s)", "speedup", "verified"].map(String::from));
        left.push(8);
    }
    let mut rows: Vec<Vec<String>> = outcomes
        .iter()
        .map(|o| {
            let mut r = vec![
                o.name.clone(),
                o.size.clone(),
                secs(o.cucc_seconds),
                secs(o.openmp_seconds),
                ratio(o.speedup()),
                yes(o.verified),
            ];
            if with_nvcc {
                r.extend([
                    secs(o.nvcc_seconds),
                    ratio(o.nvcc_speedup()),
                    yes(o.nvcc_verified),
                ]);
            }
            r
        })
        .collect();
    let mean = |g: Option<(f64, usize)>| g.map_or("-".to_string(), |(m, _)| format!("{m:.2}x"));
    if let Some((_, n)) = geomean(outcomes.iter().map(Outcome::speedup)) {
        let mut r = vec![format!("geomean ({n})"), String::new(), String::new()];
        r.extend([
            String::new(),
            mean(geomean(outcomes.iter().map(Outcome::speedup))),
            String::new(),
        ]);
        if with_nvcc {
            r.extend([
                String::new(),
                mean(geomean(outcomes.iter().map(Outcome::nvcc_speedup))),
                String::new(),
            ]);
        }
        rows.push(r);
    }
    let mut width: Vec<usize> = header.iter().map(String::len).collect();
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&width).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let w = *w;
            if left.contains(&i) {
                s.push_str(&format!("{c:<w$}"));
            } else {
                s.push_str(&format!("{c:>w$}"));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&header);
    let total: usize = width.iter().sum::<usize>() + 2 * (width.len() - 1);
    out.push_str(&"-".repeat(total));
    out.push('\n');
    for r in &rows {
        out.push_str(&line(r));
    }
    for o in outcomes {
        if let Some(e) = &o.error {
            out.push_str(&format!("{}: {}\n", o.name, e));
        }
    }
    out
}

/// The results as a JSON array of objects.
pub fn to_json(outcomes: &[Outcome]) -> Value {
    Value::Array(
        outcomes
            .iter()
            .map(|o| {
                json!({
                    "name": o.name,
                    "size": o.size,
                    "verified": o.verified,
                    "cucc_seconds": o.cucc_seconds,
                    "openmp_seconds": o.openmp_seconds,
                    "speedup": o.speedup(),
                    "nvcc_seconds": o.nvcc_seconds,
                    "nvcc_speedup": o.nvcc_speedup(),
                    "nvcc_verified": o.nvcc_verified,
                    "error": o.error,
                })
            })
            .collect(),
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG bar chart of the speedups, with a line at 1x. Applications
/// without a speedup get an empty slot marked "n/a"; unverified ones are
/// drawn in grey.
pub fn svg_chart(outcomes: &[Outcome], title: &str) -> String {
    const BAR: f64 = 48.0;
    const GAP: f64 = 24.0;
    const LEFT: f64 = 60.0;
    const TOP: f64 = 40.0;
    const PLOT_H: f64 = 240.0;
    const BOTTOM: f64 = 70.0;
    let n = outcomes.len().max(1) as f64;
    let width = LEFT + n * (BAR + GAP) + GAP;
    let height = TOP + PLOT_H + BOTTOM;
    let max = outcomes
        .iter()
        .filter_map(Outcome::speedup)
        .fold(1.0f64, f64::max)
        * 1.1;
    let y = |v: f64| TOP + PLOT_H - v / max * PLOT_H;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    );
    s.push_str(&format!(
        "<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"white\"/>\n\
         <text x=\"{:.1}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
        width / 2.0,
        xml_escape(title)
    ));
    // Axis with a few ticks.
    s.push_str(&format!(
        "<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{:.1}\" stroke=\"black\"/>\n",
        TOP + PLOT_H
    ));
    for k in 0..=4 {
        let v = max * k as f64 / 4.0;
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v:.2}x</text>\n",
            LEFT - 6.0,
            y(v) + 4.0
        ));
    }
    for (i, o) in outcomes.iter().enumerate() {
        let x = LEFT + GAP + i as f64 * (BAR + GAP);
        let cx = x + BAR / 2.0;
        match o.speedup() {
            Some(v) => {
                let fill = if o.verified { "#3b7dd8" } else { "#999999" };
                s.push_str(&format!(
                    "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{BAR}\" height=\"{:.1}\" fill=\"{fill}\">\
                     <title>{}: {v:.2}x</title></rect>\n\
                     <text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{v:.2}x</text>\n",
                    y(v),
                    TOP + PLOT_H - y(v),
                    xml_escape(&o.name),
                    y(v) - 4.0
                ));
            }
            None => s.push_str(&format!(
                "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#999999\">n/a</text>\n",
                TOP + PLOT_H - 6.0
            )),
        }
        s.push_str(&format!(
            "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"end\" transform=\"rotate(-35 {cx:.1} {:.1})\">{}</text>\n",
            TOP + PLOT_H + 16.0,
            TOP + PLOT_H + 16.0,
            xml_escape(&o.name)
        ));
    }
    s.push_str(&format!(
        "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#d33\" stroke-dasharray=\"4 3\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{2:.1}\" x2=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"black\"/>\n",
        y(1.0),
        width - GAP / 2.0,
        TOP + PLOT_H
    ));
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Outcome> {
        vec![
            Outcome {
                name: "hotspot".into(),
                size: "small".into(),
                verified: true,
                cucc_seconds: Some(0.5),
                openmp_seconds: Some(1.0),
                nvcc_seconds: None,
                nvcc_verified: false,
                error: None,
            },
            Outcome {
                name: "a<b>".into(),
                size: "small".into(),
                verified: false,
                cucc_seconds: None,
                openmp_seconds: Some(2.0),
                nvcc_seconds: None,
                nvcc_verified: false,
                error: Some("cucc failed".into()),
            },
        ]
    }

    #[test]
    fn speedup_is_openmp_over_cucc() {
        let o = sample();
        assert_eq!(o[0].speedup(), Some(2.0));
        assert_eq!(o[1].speedup(), None);
    }

    #[test]
    fn table_has_aligned_rows_and_errors() {
        let t = table(&sample());
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].starts_with("benchmark ") && lines[0].contains(" size "),
            "{t}"
        );
        assert!(lines[2].contains("0.5000") && lines[2].contains("2.00x"));
        assert!(lines[2].ends_with("yes"), "{t}");
        assert!(lines[3].contains(" - ") && lines[3].ends_with("no"), "{t}");
        assert!(lines[4].starts_with("geomean (1)") && lines[4].ends_with("2.00x"));
        assert_eq!(lines[5], "a<b>: cucc failed");
        // The speedup column ends at the same place in every row.
        let col = lines[0].find("speedup").unwrap() + "speedup".len();
        assert_eq!(&lines[2][col - 5..col], "2.00x");
        assert!(!t.contains("nvcc"), "{t}");
    }

    #[test]
    fn nvcc_columns_when_the_nvcc_built_program_ran() {
        let mut o = sample();
        o.push(Outcome {
            name: "nw".into(),
            openmp_seconds: Some(1.0),
            cucc_seconds: Some(2.0),
            nvcc_seconds: Some(4.0),
            nvcc_verified: true,
            ..o[0].clone()
        });
        o[0].nvcc_seconds = Some(1.0);
        let t = table(&o);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].contains("nvcc-built (s)"), "{t}");
        // hotspot: 1.0 / 1.0 but not verified; nw: 1.0 / 4.0.
        assert!(lines[2].ends_with("1.0000    1.00x  no"), "{t}");
        assert!(lines[4].ends_with("4.0000    0.25x  yes"), "{t}");
        // Speedups 2 and 0.5 -> 1; 1 and 0.25 -> 0.5.
        assert!(lines[5].starts_with("geomean (2)"), "{t}");
        assert!(
            lines[5].contains("1.00x") && lines[5].ends_with("0.50x"),
            "{t}"
        );
        let j = to_json(&o);
        assert_eq!(j[2]["nvcc_speedup"], 0.25);
        assert_eq!(j[2]["nvcc_verified"], true);
    }

    #[test]
    fn geomean_skips_missing_speedups() {
        assert_eq!(geomean([None, None].into_iter()), None);
        let (m, n) = geomean([Some(4.0), None, Some(1.0)].into_iter()).unwrap();
        assert!((m - 2.0).abs() < 1e-12 && n == 2);
    }

    #[test]
    fn json_has_every_field() {
        let v = to_json(&sample());
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0]["name"], "hotspot");
        assert_eq!(a[0]["speedup"], 2.0);
        assert_eq!(a[0]["error"], Value::Null);
        assert_eq!(a[1]["verified"], false);
        assert_eq!(a[1]["cucc_seconds"], Value::Null);
        assert_eq!(a[1]["error"], "cucc failed");
        for k in [
            "name",
            "size",
            "verified",
            "cucc_seconds",
            "openmp_seconds",
            "speedup",
            "nvcc_seconds",
            "nvcc_speedup",
            "nvcc_verified",
            "error",
        ] {
            assert!(a[1].get(k).is_some(), "{k}");
        }
    }

    #[test]
    fn svg_is_well_formed_and_escaped() {
        let s = svg_chart(&sample(), "speedup & more");
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("speedup &amp; more"));
        assert!(s.contains("a&lt;b&gt;") && !s.contains("a<b>"));
        assert!(s.contains("2.00x") && s.contains("n/a"));
        assert_eq!(s.matches("<rect").count(), 2); // background + one bar
        assert!(svg_chart(&[], "empty").contains("</svg>"));
    }
}
