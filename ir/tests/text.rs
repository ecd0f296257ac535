//! The hand-written `.cuir` files under `tests/text/` parse and print back
//! exactly as written.

use cucc_ir::{parse_module, print_module};
use std::path::Path;

/// The text without comment lines (the printer does not keep comments).
fn without_comments(src: &str) -> String {
    src.lines()
        .filter(|l| !l.trim_start().starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn cuir_files_round_trip_exactly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/text");
    let mut count = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/text exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cuir"))
        .collect();
    entries.sort();
    for path in entries {
        let src = std::fs::read_to_string(&path).expect("readable test file");
        let module = match parse_module(&src) {
            Ok(m) => m,
            Err(e) => panic!("{}:{e}", path.display()),
        };
        assert_eq!(
            print_module(&module),
            without_comments(&src),
            "{} does not print back as written",
            path.display()
        );
        count += 1;
    }
    assert!(count >= 3, "expected the .cuir files, found {count}");
}
