//! What of a Rodinia benchmark's output is compared between its CUDA and
//! OpenMP versions, and how.

use super::own::Own;
use crate::compare::{compare, Compare};
use std::path::Path;

/// Where a version's result is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// What it printed on stdout (after the run line's own redirection,
    /// if any: then the redirected file).
    Stdout,
    /// What it printed on stderr.
    Stderr,
    /// A file it wrote, relative to its run directory.
    File(&'static str),
}

/// Which lines of a result take part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lines {
    /// Every line.
    All,
    /// Lines containing this text (the text stays in, so it must match too).
    Containing(&'static str),
    /// Lines made only of numbers (drops banners and timings).
    Numeric,
    /// The numbers of the lines containing this text (a word `x=1.5`
    /// counts as `1.5`): for two versions that print the same values with
    /// different labels.
    NumbersIn(&'static str),
    /// As `NumbersIn`, with the lines sorted: for two versions that print
    /// the same set of records in another order.
    SortedNumbersIn(&'static str),
    /// Every line, with commas separating values as spaces do
    /// (leukocyte's `cell,x,y` records: each value is compared under the
    /// rule, not the record as one word).
    CommaSeparated,
    /// Every line, but of the first only its first word: cfd's header is
    /// `nel nelr`, and `nelr` is `nel` padded to each version's own block
    /// size.
    PaddedHeader,
}

/// A benchmark's comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// Nothing meaningful to compare, and why.
    None(&'static str),
    /// The CUDA version's result checked on its own (its self-check or a
    /// reference computed from its inputs): the OpenMP version computes
    /// nothing comparable, or there is none.
    Own(Own),
    /// The selected lines of both results agree under `rule`.
    Outputs {
        /// The CUDA version's result.
        cuda: Source,
        /// The OpenMP version's result.
        openmp: Source,
        /// The lines compared.
        lines: Lines,
        /// The agreement rule.
        rule: Compare,
    },
}

impl Check {
    /// A one-line description for reports and docs.
    pub fn describe(&self) -> String {
        match self {
            Check::None(why) => format!("no comparison ({why})"),
            Check::Own(own) => own.describe(),
            Check::Outputs {
                cuda,
                openmp,
                lines,
                rule,
            } => {
                let src = |s: &Source| match s {
                    Source::Stdout => "stdout".to_string(),
                    Source::Stderr => "stderr".to_string(),
                    Source::File(f) => (*f).to_string(),
                };
                let which = match lines {
                    Lines::All => String::new(),
                    Lines::Containing(t) => format!(", lines with `{t}`"),
                    Lines::Numeric => ", numeric lines".to_string(),
                    Lines::NumbersIn(t) => format!(", numbers of lines with `{t}`"),
                    Lines::SortedNumbersIn(t) => {
                        format!(", numbers of lines with `{t}`, in any order")
                    }
                    Lines::CommaSeparated => ", commas separating values".to_string(),
                    Lines::PaddedHeader => ", of the header its first word".to_string(),
                };
                let what = if cuda == openmp {
                    src(cuda)
                } else {
                    format!("{} vs {}", src(cuda), src(openmp))
                };
                format!("{what}{which}, {}", rule.describe())
            }
        }
    }
}

/// The selected lines of `text`, joined by newlines.
pub fn select(text: &str, lines: Lines) -> String {
    if let Lines::NumbersIn(t) | Lines::SortedNumbersIn(t) = lines {
        let mut rows: Vec<String> = text
            .lines()
            .filter(|l| l.contains(t))
            .map(|l| {
                l.split_whitespace()
                    .map(|w| w.rsplit('=').next().unwrap_or(w))
                    .filter(|w| w.parse::<f64>().is_ok())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        if matches!(lines, Lines::SortedNumbersIn(_)) {
            rows.sort();
        }
        return rows.join("\n");
    }
    if lines == Lines::CommaSeparated {
        return text.replace(',', " ");
    }
    if lines == Lines::PaddedHeader {
        let mut rows = text.lines();
        let head = rows
            .next()
            .and_then(|h| h.split_whitespace().next())
            .unwrap_or_default();
        return std::iter::once(head)
            .chain(rows)
            .collect::<Vec<_>>()
            .join("\n");
    }
    let keep = |l: &&str| match lines {
        Lines::All | Lines::CommaSeparated | Lines::PaddedHeader => true,
        Lines::Containing(t) => l.contains(t),
        Lines::NumbersIn(_) | Lines::SortedNumbersIn(_) => true,
        Lines::Numeric => {
            let mut words = l.split_whitespace().peekable();
            words.peek().is_some() && words.all(|w| w.parse::<f64>().is_ok())
        }
    };
    text.lines().filter(keep).collect::<Vec<_>>().join("\n")
}

/// Reads a result: `stdout` and `stderr` are the files the version's
/// streams went to.
pub fn read(
    source: Source,
    run_dir: &Path,
    stdout: &Path,
    stderr: &Path,
) -> Result<String, String> {
    let path = match source {
        Source::Stdout => stdout.to_path_buf(),
        Source::Stderr => stderr.to_path_buf(),
        Source::File(f) => run_dir.join(f),
    };
    let bytes =
        std::fs::read(&path).map_err(|e| format!("cannot read result {}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Compares the CUDA result with the OpenMP one under `check`'s lines and
/// rule; `Ok` when they agree. Empty selections never agree: a comparison
/// of nothing would hide a program that printed nothing.
pub fn agree(cuda: &str, openmp: &str, lines: Lines, rule: Compare) -> Result<(), String> {
    let (c, o) = (select(cuda, lines), select(openmp, lines));
    if o.trim().is_empty() {
        return Err("the OpenMP version's result has nothing to compare".into());
    }
    if c.trim().is_empty() {
        return Err("the CUDA version's result has nothing to compare".into());
    }
    compare(&o, &c, rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: Compare = Compare::Tolerance {
        rel: 1e-3,
        abs: 1e-6,
    };

    #[test]
    fn selections() {
        let t = "pyramid 20\n1 2 3\nTime 0.5 s\n4.5e1 -2\n\nx --> Distance=3.0\n";
        assert_eq!(select(t, Lines::Numeric), "1 2 3\n4.5e1 -2");
        assert_eq!(
            select(t, Lines::Containing("Distance")),
            "x --> Distance=3.0"
        );
        assert_eq!(select("a\nb", Lines::All), "a\nb");
        assert_eq!(
            select(
                "T 1 --> Distance=2.5\nx\nU 3 --> 4",
                Lines::NumbersIn("-->")
            ),
            "1 2.5\n3 4"
        );
        assert_eq!(
            select("B 3 --> 4\nA 1 --> 2.5", Lines::SortedNumbersIn("-->")),
            "1 2.5\n3 4"
        );
    }

    #[test]
    fn commas_and_padded_headers() {
        assert_eq!(
            select("\n0,1.5,2\n1,3,4", Lines::CommaSeparated),
            "\n0 1.5 2\n1 3 4"
        );
        assert!(agree("0,1.5001,2", "0,1.5,2", Lines::CommaSeparated, TOL).is_ok());
        assert!(agree("0,1.6,2", "0,1.5,2", Lines::CommaSeparated, TOL).is_err());
        assert!(agree("0,1.5001,2", "0,1.5,2", Lines::All, TOL).is_err());
        assert_eq!(
            select("97046 97152\n1.5\n2", Lines::PaddedHeader),
            "97046\n1.5\n2"
        );
        assert!(agree(
            "97046 97152\n1.5",
            "97046 97048\n1.5",
            Lines::PaddedHeader,
            TOL
        )
        .is_ok());
        assert!(agree(
            "97045 97152\n1.5",
            "97046 97048\n1.5",
            Lines::PaddedHeader,
            TOL
        )
        .is_err());
        assert!(agree(
            "97046 97152\n1.7",
            "97046 97048\n1.5",
            Lines::PaddedHeader,
            TOL
        )
        .is_err());
    }

    #[test]
    fn agreement_within_the_rule() {
        assert!(agree("1 2.0001\ntime 9", "1 2\ntime 3", Lines::Numeric, TOL).is_ok());
        let e = agree("1 3", "1 2", Lines::All, TOL).unwrap_err();
        assert!(e.contains("expected 2, got 3"), "{e}");
        let e = agree("", "1 2", Lines::All, TOL).unwrap_err();
        assert!(e.contains("CUDA"), "{e}");
        assert!(agree("1", "", Lines::All, TOL).is_err());
    }

    #[test]
    fn descriptions() {
        let c = Check::Outputs {
            cuda: Source::File("result.txt"),
            openmp: Source::File("result.txt"),
            lines: Lines::All,
            rule: Compare::Exact,
        };
        assert_eq!(c.describe(), "result.txt, exact");
        assert!(Check::None("random seed")
            .describe()
            .contains("random seed"));
    }
}
