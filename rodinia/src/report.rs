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
}

fn secs(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |s| format!("{s:.4}"))
}

/// The results as an aligned text table, with errors listed below it.
pub fn table(outcomes: &[Outcome]) -> String {
    let header = [
        "benchmark",
        "size",
        "cucc (s)",
        "OpenMP (s)",
        "speedup",
        "verified",
    ];
    let rows: Vec<[String; 6]> = outcomes
        .iter()
        .map(|o| {
            [
                o.name.clone(),
                o.size.clone(),
                secs(o.cucc_seconds),
                secs(o.openmp_seconds),
                o.speedup().map_or("-".to_string(), |s| format!("{s:.2}x")),
                if o.verified { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect();
    let mut width = header.map(str::len);
    for r in &rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(width).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            // Names left-aligned, numbers right-aligned.
            if i < 2 || i == 5 {
                s.push_str(&format!("{c:<w$}"));
            } else {
                s.push_str(&format!("{c:>w$}"));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&header.map(String::from));
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
                error: None,
            },
            Outcome {
                name: "a<b>".into(),
                size: "small".into(),
                verified: false,
                cucc_seconds: None,
                openmp_seconds: Some(2.0),
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
        assert!(lines[0].starts_with("benchmark  size"), "{t}");
        assert!(lines[2].contains("0.5000") && lines[2].contains("2.00x"));
        assert!(lines[2].ends_with("yes"), "{t}");
        assert!(lines[3].contains(" - ") && lines[3].ends_with("no"), "{t}");
        assert_eq!(lines[4], "a<b>: cucc failed");
        // The speedup column ends at the same place in every row.
        let col = lines[0].find("speedup").unwrap() + "speedup".len();
        assert_eq!(&lines[2][col - 5..col], "2.00x");
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
