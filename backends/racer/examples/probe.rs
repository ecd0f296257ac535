fn main() {
    let p = std::env::args().nth(1).expect("file");
    let m = cucc_frontend::cuda::lower_file(std::path::Path::new(&p), &Default::default())
        .expect("lower");
    print!("{}", cucc_ir::print_module(&m));
}
