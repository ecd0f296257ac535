//! Reading a program's timing and summarising repeated runs.

/// The seconds from the last `TIME <seconds>` line of a program's output.
pub fn parse_time(stdout: &str) -> Option<f64> {
    stdout.lines().rev().find_map(|line| {
        let rest = line.trim().strip_prefix("TIME")?;
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        let t: f64 = rest.trim().parse().ok()?;
        (t.is_finite() && t >= 0.0).then_some(t)
    })
}

/// The median (the mean of the middle two for an even count); `None` for
/// no samples.
pub fn median(samples: &[f64]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_line_is_found_and_checked() {
        assert_eq!(parse_time("hello\nTIME 1.5\n"), Some(1.5));
        assert_eq!(parse_time("TIME 1\nTIME 2.25\n"), Some(2.25));
        assert_eq!(parse_time("TIMES 3\n"), None);
        assert_eq!(parse_time("TIME -1\n"), None);
        assert_eq!(parse_time("TIME x\n"), None);
        assert_eq!(parse_time(""), None);
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[7.0]), Some(7.0));
        assert_eq!(median(&[]), None);
    }
}
