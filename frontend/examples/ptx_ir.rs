//! Prints the IR the PTX frontend makes from a PTX file, after the cpuify
//! default passes before `stop` (as the JIT runs them; not the opt-in ones,
//! nor those named in `CUCC_SKIP_PASSES`, comma separated), and the
//! passes' remarks on stderr (debugging aid).
fn main() {
    let path = std::env::args().nth(1).expect("a .ptx file");
    let stop = std::env::args().nth(2).unwrap_or_default();
    let text = std::fs::read_to_string(&path).expect("read");
    let mut m = match cucc_frontend::ptx::lower_ptx(&text, &path) {
        Ok(m) => m,
        Err(e) => return eprintln!("{e}"),
    };
    let kernels: Vec<_> = m.functions.iter().map(|(h, _)| h).collect();
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    let skip = std::env::var("CUCC_SKIP_PASSES").unwrap_or_default();
    for pass in cucc_cpuify::pipeline::PASSES {
        if pass.name == stop {
            break;
        }
        if pass.opt_in || skip.split(',').any(|s| s == pass.name) {
            continue;
        }
        for &fid in &kernels {
            if let Err(e) =
                cucc_cpuify::pipeline::run_pass(pass.name, &mut m, fid, &mut remarks, false)
            {
                eprintln!("{}: {e}", pass.name);
            }
        }
    }
    print!("{m}");
    eprint!("{}", remarks.render(&m));
}
