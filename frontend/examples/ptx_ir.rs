//! Prints the IR the PTX frontend makes from a PTX file, after the cpuify
//! passes before `stop`, and the passes' remarks on stderr (debugging aid).
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
    for pass in cucc_cpuify::pipeline::PASSES {
        if pass.name == stop {
            break;
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
