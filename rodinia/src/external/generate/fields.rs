//! hotspot3D's power and temperature grids: one value a line (`%f`), in
//! the ranges of the 64 x 8 grids a public mirror carries (power uniform
//! in [0, 1), temperature uniform in [320, 340) kelvin), for the 512 x 8
//! grids the run files name.

use super::scenes::Rng;
use std::fmt::Write;

/// `count` values uniform in `[lo, hi)`, one a line with six decimals.
pub fn uniform_lines(count: usize, lo: f64, hi: f64, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(count * 12);
    for _ in 0..count {
        let _ = writeln!(out, "{:.6}", rng.range(lo, hi));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_in_range_one_a_line() {
        let text = uniform_lines(1000, 320.0, 340.0, 5);
        assert_eq!(text, uniform_lines(1000, 320.0, 340.0, 5));
        let values: Vec<f64> = text.lines().map(|l| l.parse().expect("number")).collect();
        assert_eq!(values.len(), 1000);
        assert!(values.iter().all(|v| (320.0..=340.0).contains(v)));
        let mean = values.iter().sum::<f64>() / 1000.0;
        assert!((mean - 330.0).abs() < 1.0, "{mean}");
    }
}
