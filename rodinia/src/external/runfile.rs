//! Rodinia's `run` files: a benchmark's command lines, mixed with prose
//! ("There are three datasets:"), usage notes and comments. A command line
//! is one whose program is a path (`./hotspot`, `cuda/lud_cuda`,
//! `bin/mummergpu`); the input files it names are its arguments that lead
//! into Rodinia's `data/` tree, plus any the benchmark table lists.

use std::path::Path;

/// The command lines of a run file, in order.
pub fn commands(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.contains('/') && !w.ends_with(':'))
        })
        .map(String::from)
        .collect()
}

/// The words of a command line before any redirection or pipe.
pub fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in line.split_whitespace() {
        if w.starts_with('>') || w.starts_with('<') || w == "|" || w == "&&" || w == ";" {
            break;
        }
        out.push(w.trim_matches(|c| c == '"' || c == '\'').to_string());
    }
    out
}

/// The file the line's stdout is redirected to (`> result.txt`).
pub fn redirect_target(line: &str) -> Option<String> {
    let mut it = line.split_whitespace();
    while let Some(w) = it.next() {
        if w == ">" || w == "1>" {
            return it.next().map(String::from);
        }
        if let Some(f) = w.strip_prefix('>').filter(|f| !f.is_empty() && *f != ">") {
            return Some(f.to_string());
        }
    }
    None
}

/// The input files of a command line: arguments that lead into a `data/`
/// directory, and arguments equal to one of `extra`.
pub fn inputs(line: &str, extra: &[&str]) -> Vec<String> {
    words(line)
        .into_iter()
        .skip(1)
        .filter(|w| w.contains("data/") || extra.contains(&w.as_str()))
        .collect()
}

/// Why a data file can't be used: it is missing, or it is a Git LFS /
/// git-annex placeholder instead of the data.
pub fn unusable(dir: &Path, file: &str) -> Option<String> {
    let p = dir.join(file);
    let Ok(meta) = std::fs::metadata(&p) else {
        return Some(format!("{file} is missing"));
    };
    if meta.is_file() && meta.len() < 1024 {
        let head = std::fs::read(&p).unwrap_or_default();
        let head = String::from_utf8_lossy(&head);
        if head.starts_with("version https://git-lfs") || head.contains(".git/annex/objects/") {
            return Some(format!("{file} is a placeholder, not the data"));
        }
    }
    None
}

/// Picks the line to run among `lines` (those containing `pick`, if given):
/// the first whose input files are all usable, else the first with the
/// reason its data is missing.
pub fn choose(
    lines: &[String],
    pick: Option<&str>,
    dir: &Path,
    extra: &[&str],
    needs: &[&str],
) -> Result<String, Choice> {
    let candidates: Vec<&String> = lines
        .iter()
        .filter(|l| pick.is_none_or(|p| l.contains(p)))
        .collect();
    let Some(first) = candidates.first() else {
        return Err(Choice::NoCommand);
    };
    let missing = |l: &str| -> Option<String> {
        inputs(l, extra)
            .iter()
            .map(String::as_str)
            .chain(needs.iter().copied())
            .find_map(|f| unusable(dir, f))
    };
    for l in &candidates {
        if missing(l).is_none() {
            return Ok((*l).clone());
        }
    }
    Err(Choice::NoData {
        line: (*first).clone(),
        why: missing(first).unwrap_or_default(),
    })
}

/// Why no line was chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// The run file has no command line (matching the pick).
    NoCommand,
    /// Every candidate lacks data; the first and its first missing file.
    NoData {
        /// The first candidate line.
        line: String,
        /// What is missing.
        why: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_skip_prose_usage_and_comments() {
        let cfd = "There are three datasets:\n\n./euler3d ../../data/cfd/fvcorr.domn.097K   \n\
                   replace euler3d with other CFD programs";
        assert_eq!(
            commands(cfd),
            vec!["./euler3d ../../data/cfd/fvcorr.domn.097K"]
        );
        let mummer = "usage: mummergpu [options] reference.fna query.fna\n\n\
                      bin/mummergpu ../../data/m/a.fna ../../data/m/b.fna > NC.out";
        assert_eq!(commands(mummer).len(), 1);
        let lud = "# cuda/lud_cuda -i ../../data/lud/256.dat \ncuda/lud_cuda -s 256 -v\n";
        assert_eq!(commands(lud), vec!["cuda/lud_cuda -s 256 -v"]);
        assert!(commands("ls\n").is_empty());
    }

    #[test]
    fn words_redirects_and_inputs() {
        let l = "./pathfinder 100000 100 20 > result.txt";
        assert_eq!(words(l), vec!["./pathfinder", "100000", "100", "20"]);
        assert_eq!(redirect_target(l).as_deref(), Some("result.txt"));
        assert_eq!(redirect_target("./a >out").as_deref(), Some("out"));
        assert_eq!(redirect_target("./a x"), None);
        let h =
            "./hotspot 512 2 2 ../../data/hotspot/temp_512 ../../data/hotspot/power_512 output.out";
        assert_eq!(
            inputs(h, &[]),
            vec![
                "../../data/hotspot/temp_512",
                "../../data/hotspot/power_512"
            ]
        );
        assert_eq!(
            inputs("./dwt2d 192.bmp -d 4x4", &["192.bmp"]),
            vec!["192.bmp"]
        );
    }

    #[test]
    fn choose_prefers_a_line_whose_data_exists() {
        let dir = std::env::temp_dir().join(format!("rodinia-runfile-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).expect("temp dir");
        std::fs::write(dir.join("data/ok"), "1 2 3").expect("write");
        std::fs::write(
            dir.join("data/lfs"),
            "version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 9\n",
        )
        .expect("write");
        let lines = commands("./g -f data/missing\n./g -f data/lfs\n./g -s 16\n");
        assert_eq!(
            choose(&lines, None, &dir, &[], &[]).as_deref(),
            Ok("./g -s 16")
        );
        let Err(Choice::NoData { line, why }) = choose(&lines, Some("-f"), &dir, &[], &[]) else {
            panic!("expected no data")
        };
        assert_eq!(line, "./g -f data/missing");
        assert!(why.contains("missing"), "{why}");
        assert!(unusable(&dir, "data/lfs").is_some_and(|w| w.contains("placeholder")));
        assert_eq!(unusable(&dir, "data/ok"), None);
        assert!(matches!(
            choose(&lines, None, &dir, &[], &["data/lfs"]),
            Err(Choice::NoData { .. })
        ));
        assert_eq!(
            choose(&lines, Some("zzz"), &dir, &[], &[]),
            Err(Choice::NoCommand)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
