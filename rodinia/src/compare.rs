//! Comparing two result files. A result file is whitespace-separated
//! tokens; tokens that both parse as integers are compared exactly, others
//! as numbers within the app's tolerance (or exactly, as text, under
//! [`Compare::Exact`]).

/// How an application's CUDA and OpenMP results must agree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Compare {
    /// Every token identical (integer results).
    Exact,
    /// Integers identical; other numbers `|a - b| <= abs + rel * max(|a|, |b|)`.
    Tolerance {
        /// Relative tolerance.
        rel: f64,
        /// Absolute tolerance, for values near zero.
        abs: f64,
    },
    /// Every number within this absolute difference, integers included
    /// (images of integer pixels computed in floating point).
    Within(f64),
}

impl Compare {
    /// A short description for reports and docs.
    pub fn describe(&self) -> String {
        match self {
            Compare::Exact => "exact".to_string(),
            Compare::Tolerance { rel, abs } => format!("rel {rel:e}, abs {abs:e}"),
            Compare::Within(abs) => format!("within {abs} (integers too)"),
        }
    }
}

/// Compares `expected` (the OpenMP result) with `actual` (the CUDA result).
/// The error names the first mismatch by token index and says how many
/// tokens differ.
pub fn compare(expected: &str, actual: &str, rule: Compare) -> Result<(), String> {
    let e: Vec<&str> = expected.split_whitespace().collect();
    let a: Vec<&str> = actual.split_whitespace().collect();
    if e.len() != a.len() {
        return Err(format!(
            "result has {} values, OpenMP's has {}",
            a.len(),
            e.len()
        ));
    }
    let mut first = None;
    let mut bad = 0usize;
    for (i, (x, y)) in e.iter().zip(&a).enumerate() {
        if let Err(why) = token_agrees(x, y, rule) {
            bad += 1;
            first.get_or_insert((i, why));
        }
    }
    match first {
        None => Ok(()),
        Some((i, why)) => Err(format!(
            "{bad} of {} values differ; first at value {i}: {why}",
            e.len()
        )),
    }
}

fn token_agrees(expected: &str, actual: &str, rule: Compare) -> Result<(), String> {
    if expected == actual {
        return Ok(());
    }
    let (rel, abs) = match rule {
        Compare::Exact => return Err(format!("expected {expected}, got {actual}")),
        Compare::Tolerance { rel, abs } => (rel, abs),
        Compare::Within(abs) => (0.0, abs),
    };
    let integers_exact = matches!(rule, Compare::Tolerance { .. });
    if integers_exact && expected.parse::<i64>().is_ok() && actual.parse::<i64>().is_ok() {
        return Err(format!("expected {expected}, got {actual}"));
    }
    let (Ok(x), Ok(y)) = (expected.parse::<f64>(), actual.parse::<f64>()) else {
        return Err(format!("expected {expected}, got {actual}"));
    };
    if x.is_nan() || y.is_nan() {
        return Err(format!("expected {expected}, got {actual}"));
    }
    let diff = (x - y).abs();
    if diff <= abs + rel * x.abs().max(y.abs()) {
        Ok(())
    } else {
        Err(format!(
            "expected {expected}, got {actual} (difference {diff:e})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOL: Compare = Compare::Tolerance {
        rel: 1e-4,
        abs: 1e-6,
    };

    #[test]
    fn exact_needs_identical_tokens_but_not_identical_spacing() {
        assert!(compare("1 2\n3\n", "1\n2\n3", Compare::Exact).is_ok());
        let e = compare("1 2 3", "1 5 4", Compare::Exact).unwrap_err();
        assert!(e.contains("2 of 3"), "{e}");
        assert!(e.contains("value 1: expected 2, got 5"), "{e}");
    }

    #[test]
    fn lengths_must_match() {
        let e = compare("1 2", "1", Compare::Exact).unwrap_err();
        assert!(e.contains("1 values") && e.contains("has 2"), "{e}");
    }

    #[test]
    fn tolerance_is_relative_with_an_absolute_floor() {
        assert!(compare("1.0000000e+03", "1.0000500e+03", TOL).is_ok());
        assert!(compare("1.0000000e+03", "1.0002000e+03", TOL).is_err());
        assert!(compare("0.0000000e+00", "5.0000000e-07", TOL).is_ok());
        assert!(compare("0.0000000e+00", "5.0000000e-06", TOL).is_err());
    }

    #[test]
    fn integers_stay_exact_under_a_tolerance() {
        assert!(compare("100000", "100001", TOL).is_err());
        // A float written without a fraction is still compared as a number.
        assert!(compare("1", "1.00001", TOL).is_ok());
    }

    #[test]
    fn within_covers_integers() {
        assert!(compare("P2 220 3", "P2 221 3", Compare::Within(1.0)).is_ok());
        assert!(compare("P2 220", "P2 222", Compare::Within(1.0)).is_err());
        assert!(compare("P2", "P5", Compare::Within(1.0)).is_err());
    }

    #[test]
    fn nan_and_garbage_never_agree() {
        assert!(compare("nan", "nan", TOL).is_ok()); // identical text
        assert!(compare("1.0", "nan", TOL).is_err());
        assert!(compare("1.0", "x", TOL).is_err());
    }
}
