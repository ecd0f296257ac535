//! b+tree's key file: the count on the first line, then the keys one a
//! line. The keys are `0..count` in a seeded random order, so every key the
//! program's queries draw (uniform in `[0, count)`) is in the tree.

use super::scenes::Rng;
use std::fmt::Write;

/// The key file for `count` keys.
pub fn shuffled_keys(count: usize, seed: u64) -> String {
    let mut keys: Vec<usize> = (0..count).collect();
    let mut rng = Rng::new(seed);
    for i in (1..count).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        keys.swap(i, j);
    }
    let mut out = String::with_capacity(count * 8);
    let _ = writeln!(out, "{count}");
    for k in keys {
        let _ = writeln!(out, "{k}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_permutation_after_the_count() {
        let text = shuffled_keys(1000, 6);
        let mut lines = text.lines().map(|l| l.parse::<usize>().expect("number"));
        assert_eq!(lines.next(), Some(1000));
        let mut keys: Vec<usize> = lines.collect();
        assert_ne!(keys, (0..1000).collect::<Vec<_>>());
        keys.sort_unstable();
        assert_eq!(keys, (0..1000).collect::<Vec<_>>());
    }
}
