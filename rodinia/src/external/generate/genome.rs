//! mummergpu's inputs: a reference genome (FASTA: one header line, then
//! the bases 70 a line, as `NC_003997.fna` is laid out) and reads cut from
//! it (multi-FASTA, `>ridN START-END` then the read on one line, the
//! layout of Rodinia's `genreads.py`).
//!
//! The reference is uniform random bases with repeats pasted in: copies of
//! earlier stretches, a few hundred to a few thousand bases long, each with
//! about one base in a hundred changed, as a bacterial genome repeats its
//! operons and insertion sequences. Reads then match at one place or at
//! several, exactly or in pieces, which is what mummergpu reports. The
//! reads are cut from whichever reference the data directory holds (the
//! real one where it exists), so that they match it.

use super::scenes::Rng;

/// The bases of the real `NC_003997.fna` (Bacillus anthracis Ames).
pub const REFERENCE_BASES: usize = 5_227_293;

const BASES: [u8; 4] = *b"ACGT";
const LINE: usize = 70;

/// The reference genome of `bases` bases, as FASTA text.
pub fn reference(bases: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut seq: Vec<u8> = (0..bases)
        .map(|_| BASES[(rng.next_u64() % 4) as usize])
        .collect();
    // One repeat per 100 kb: a copy of an earlier stretch, slightly changed.
    if bases >= 20_000 {
        for _ in 0..bases / 100_000 {
            let len = 300 + (rng.next_u64() % 5700) as usize;
            let from = (rng.next_u64() % (bases - len) as u64) as usize;
            let to = (rng.next_u64() % (bases - len) as u64) as usize;
            let copy: Vec<u8> = seq[from..from + len].to_vec();
            seq[to..to + len].copy_from_slice(&copy);
            for _ in 0..len / 100 {
                let at = to + (rng.next_u64() % len as u64) as usize;
                seq[at] = BASES[(rng.next_u64() % 4) as usize];
            }
        }
    }
    let mut out = String::with_capacity(bases + bases / LINE + 100);
    out.push_str(&format!(
        ">cucc-generated reference, {bases} bp, seed {seed} (stands in for NC_003997)\n"
    ));
    for line in seq.chunks(LINE) {
        // The bases are ASCII.
        out.extend(line.iter().map(|&b| b as char));
        out.push('\n');
    }
    out
}

/// The bases of a single-sequence FASTA text, upper case; `name` is for
/// errors.
pub fn parse_fasta(text: &str, name: &str) -> Result<Vec<u8>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(h) if h.starts_with('>') => {}
        _ => return Err(format!("{name}:1: not FASTA (no `>` header line)")),
    }
    let mut seq = Vec::with_capacity(text.len());
    for (i, line) in lines.enumerate() {
        if line.starts_with('>') {
            return Err(format!(
                "{name}:{}: a second sequence (one reference sequence is expected)",
                i + 2
            ));
        }
        seq.extend(
            line.bytes()
                .filter(|b| !b.is_ascii_whitespace())
                .map(|b| b.to_ascii_uppercase()),
        );
    }
    Ok(seq)
}

/// `count` reads of `len` bases cut at uniformly drawn places of `seq`,
/// as multi-FASTA text (`>ridN START-END`, 1-based start, end one past the
/// read, as `genreads.py` writes them).
pub fn reads(seq: &[u8], count: usize, len: usize, seed: u64) -> Result<String, String> {
    if seq.len() < len || len == 0 {
        return Err(format!(
            "a reference of {} bases is too short for reads of {len}",
            seq.len()
        ));
    }
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(count * (len + 24));
    let places = (seq.len() - len + 1) as u64;
    for rid in 1..=count {
        let start = (rng.next_u64() % places) as usize;
        out.push_str(&format!(">rid{rid} {}-{}\n", start + 1, start + len + 1));
        out.extend(seq[start..start + len].iter().map(|&b| b as char));
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_round_trips_and_is_seeded() {
        let text = reference(250_000, 8);
        assert_eq!(text, reference(250_000, 8));
        assert_ne!(text, reference(250_000, 9));
        let seq = parse_fasta(&text, "ref").expect("FASTA");
        assert_eq!(seq.len(), 250_000);
        assert!(seq.iter().all(|b| BASES.contains(b)));
        assert!(text.lines().skip(1).all(|l| l.len() <= LINE));
        // The repeats: some 40-base stretch occurs twice.
        let mut seen = std::collections::HashSet::new();
        let twice = seq.windows(40).any(|w| !seen.insert(w));
        assert!(twice, "no repeat");
    }

    #[test]
    fn reads_are_cut_from_the_reference() {
        let seq = parse_fasta(&reference(50_000, 1), "ref").expect("FASTA");
        let text = reads(&seq, 300, 100, 2).expect("reads");
        assert_eq!(text, reads(&seq, 300, 100, 2).expect("reads"));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 600);
        for (i, pair) in lines.chunks(2).enumerate() {
            let (id, span) = pair[0]
                .strip_prefix('>')
                .and_then(|h| h.split_once(' '))
                .expect("header");
            assert_eq!(id, format!("rid{}", i + 1));
            let (a, b) = span.split_once('-').expect("span");
            let start: usize = a.parse().expect("start");
            let end: usize = b.parse().expect("end");
            assert_eq!(end - start, 100);
            assert_eq!(pair[1].as_bytes(), &seq[start - 1..end - 1]);
        }
    }

    #[test]
    fn bad_references_are_reported() {
        assert!(parse_fasta("ACGT\n", "x").is_err_and(|e| e.contains("x:1")));
        assert!(parse_fasta(">a\nAC\n>b\nGT\n", "x").is_err_and(|e| e.contains("x:3")));
        assert_eq!(parse_fasta(">a\nac gt\nTT\n", "x"), Ok(b"ACGTTT".to_vec()));
        assert!(reads(b"ACGT", 1, 100, 1).is_err());
    }
}
