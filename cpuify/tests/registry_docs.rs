//! The README's pass list is the registry's: every pass, in pipeline order.

use cucc_cpuify::pipeline::PASSES;

/// Byte offset of `word` in `text` at or after `from`, as a whole pass name
/// (not part of a longer one such as `collapse` in `collapse-1d`).
fn find_word(text: &str, word: &str, from: usize) -> Option<usize> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '-';
    let mut at = from;
    while let Some(i) = text[at..].find(word) {
        let start = at + i;
        let end = start + word.len();
        let before = text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !is_name(c));
        let after = text[end..].chars().next().is_none_or(|c| !is_name(c));
        if before && after {
            return Some(start);
        }
        at = end;
    }
    None
}

#[test]
fn readme_lists_every_pass_in_order() {
    let readme = include_str!("../../README.md");
    let line = readme
        .lines()
        .find(|l| l.starts_with("| IR → C |"))
        .expect("the README's `IR → C` row");
    let mut at = 0;
    for p in PASSES.iter() {
        match find_word(line, p.name, at) {
            Some(i) => at = i + p.name.len(),
            None => panic!(
                "README's `IR → C` row does not list `{}` after the passes before it",
                p.name
            ),
        }
    }
}
