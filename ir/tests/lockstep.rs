//! IR-in/IR-out tests of `lockstep::insert_warp_barriers`: each
//! `tests/lockstep/NAME.cuir` is parsed, given its warp barriers, verified
//! and printed; the result must equal `NAME.expected`
//! (`CUCC_BLESS=1 cargo test -p cucc-ir --test lockstep` rewrites them).
//! Applying the transformation twice changes nothing.

use std::path::Path;

#[test]
fn lockstep_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lockstep");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/lockstep")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cuir"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let bless = std::env::var_os("CUCC_BLESS").is_some();
    for f in files {
        let src = std::fs::read_to_string(&f).expect("read");
        let mut m = cucc_ir::parse_module(&src).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let n = cucc_ir::lockstep::insert_warp_barriers(&mut m);
        assert!(n > 0, "{}: nothing inserted", f.display());
        cucc_ir::verify_module(&m).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let out = cucc_ir::print_module(&m);
        assert_eq!(
            cucc_ir::lockstep::insert_warp_barriers(&mut m),
            0,
            "{}: a second application inserted more",
            f.display()
        );
        let exp = f.with_extension("expected");
        if bless {
            std::fs::write(&exp, &out).expect("write expected");
            continue;
        }
        let want = std::fs::read_to_string(&exp).unwrap_or_default();
        assert_eq!(out, want, "{} differs from {}", f.display(), exp.display());
    }
}
