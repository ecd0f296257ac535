//! nn's hurricane records, by the rules of Rodinia's own generator
//! (`data/nn/inputGen/hurricanegen.c`), re-implemented with the project's
//! seeded generator: year 1950 to 2004, month, day 1 to 28, hour 0, 6, 12
//! or 18, a storm number 1 to 28, one of 21 names, latitude 7 to 70 and
//! longitude 0 to 358 (a whole part plus a uniform fraction), speed 10 to
//! 164, pressure 0 to 899, written `%4d %2d %2d %2d %2d %-9s %5.1f %5.1f
//! %4d %4d`, one record a line.

use super::scenes::Rng;
use std::fmt::Write;

const NAMES: [&str; 21] = [
    "ALBERTO", "BERYL", "CHRIS", "DEBBY", "ERNESTO", "FLORENCE", "GORDON", "HELENE", "ISAAC",
    "JOYCE", "KIRK", "LESLIE", "MICHAEL", "NADINE", "OSCAR", "PATTY", "RAFAEL", "SANDY", "TONY",
    "VALERIE", "WILLIAM",
];

/// `count` records drawn with `seed`.
pub fn records(count: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(count * 50);
    for _ in 0..count {
        let mut pick = |n: u64| rng.next_u64() % n;
        let year = 1950 + pick(55);
        let month = 1 + pick(12);
        let day = 1 + pick(28);
        let hour = 6 * pick(4);
        let num = 1 + pick(28);
        let name = NAMES[pick(21) as usize];
        let lat_whole = 7 + pick(63);
        let lon_whole = pick(358);
        let speed = 10 + pick(155);
        let press = pick(900);
        let lat = lat_whole as f64 + rng.range(0.0, 1.0);
        let lon = lon_whole as f64 + rng.range(0.0, 1.0);
        let _ = writeln!(
            out,
            "{year:4} {month:2} {day:2} {hour:2} {num:2} {name:<9} {lat:5.1} {lon:5.1} {speed:4} {press:4}"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_width_records() {
        let text = records(200, 9);
        assert_eq!(text, records(200, 9));
        for line in text.lines() {
            // nn reads the coordinates at fixed columns.
            assert_eq!(line.len(), 48, "{line:?}");
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 10);
            let lat: f64 = f[6].parse().expect("lat");
            let lon: f64 = f[7].parse().expect("lon");
            assert!((7.0..=70.0).contains(&lat) && (0.0..=358.0).contains(&lon));
        }
    }
}
