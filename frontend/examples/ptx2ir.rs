//! Prints the IR the PTX frontend makes of a PTX file, for `cucc ir-run`
//! (a kernel of an nvcc-built program that misbehaves under `cucc run`
//! then runs in the reference interpreter, which names the faulting PTX
//! line, and as compiled C).
//!
//! `cargo run -p cucc-frontend --example ptx2ir -- FILE.ptx > FILE.cuir`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: ptx2ir FILE.ptx")?;
    let text = std::fs::read_to_string(&path)?;
    let m = cucc_frontend::ptx::lower_ptx(&text, &path)?;
    print!("{m}");
    Ok(())
}
