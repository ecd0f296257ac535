//! A record of what a CUDA program copies from the device to the host, for
//! programs that compute on the device but print and write nothing of it
//! (Rodinia's backprop): a tiny preload library, built once per run
//! from the source below with the system C compiler, whose `cudaMemcpy`
//! calls the runtime's (found with `dlsym(RTLD_NEXT, ...)`) and, for each
//! successful device-to-host copy, appends its byte count (8 bytes,
//! little-endian on x86-64) and the bytes to the file named by
//! [`RECORD_ENV`]. The program itself is unchanged; only what it asked the
//! runtime to copy is seen.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming the record file.
pub const RECORD_ENV: &str = "RODINIA_D2H_COPIES";

/// The record file's name in the program's run directory.
pub const RECORD_FILE: &str = "d2h-copies.bin";

/// The interposer's source.
const SOURCE: &str = r#"#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* cudaMemcpy's ABI: cudaError_t and cudaMemcpyKind are C enums (int). */
typedef int (*copy_fn)(void *, const void *, size_t, int);
enum { DEVICE_TO_HOST = 2 };

int cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
    static copy_fn real;
    if (!real) {
        real = (copy_fn)dlsym(RTLD_NEXT, "cudaMemcpy");
        if (!real) {
            fprintf(stderr, "copy recorder: no cudaMemcpy after the preload library\n");
            return 1; /* cudaErrorInvalidValue */
        }
    }
    int status = real(dst, src, count, kind);
    const char *path = getenv("RODINIA_D2H_COPIES");
    if (status == 0 && kind == DEVICE_TO_HOST && path && *path) {
        FILE *f = fopen(path, "ab");
        if (!f) {
            fprintf(stderr, "copy recorder: cannot open %s\n", path);
            return status;
        }
        uint64_t n = count;
        fwrite(&n, sizeof n, 1, f);
        fwrite(dst, 1, count, f);
        fclose(f);
    }
    return status;
}
"#;

/// Builds the preload library in `dir`; returns its path.
pub fn build(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let src = dir.join("record_copies.c");
    let lib = dir.join("librecordcopies.so");
    std::fs::write(&src, SOURCE).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&lib)
        .arg(&src)
        .arg("-ldl")
        .output()
        .map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "building the copy recorder failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(lib)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in runtime whose `cudaMemcpy` copies and answers 0; the
    /// program copies "device" bytes in both directions.
    #[test]
    fn device_to_host_copies_are_recorded_in_order() {
        let dir = std::env::temp_dir().join(format!("rodinia-copies-{}", std::process::id()));
        let lib = build(&dir).expect("build");
        let rt = dir.join("libfakert.so");
        let rt_src = dir.join("fakert.c");
        std::fs::write(
            &rt_src,
            "#include <string.h>\n\
             int cudaMemcpy(void *d, const void *s, size_t n, int k) { (void)k; memcpy(d, s, n); return 0; }\n",
        )
        .expect("write");
        let cc = |args: &[&std::ffi::OsStr]| {
            assert!(Command::new("cc")
                .args(args)
                .status()
                .expect("cc")
                .success());
        };
        cc(&[
            "-shared".as_ref(),
            "-fPIC".as_ref(),
            "-o".as_ref(),
            rt.as_os_str(),
            rt_src.as_os_str(),
        ]);
        let prog_src = dir.join("prog.c");
        std::fs::write(
            &prog_src,
            "#include <stddef.h>\n\
             int cudaMemcpy(void *, const void *, size_t, int);\n\
             int main(void) { float dev[3] = {1.5f, 2.5f, 3.5f}, host[3] = {9.5f, 0, 0};\n\
             cudaMemcpy(dev, host, 4, 1);\n\
             cudaMemcpy(host, dev, 12, 2);\n\
             cudaMemcpy(host, dev + 1, 4, 2);\n\
             return 0; }\n",
        )
        .expect("write");
        let prog = dir.join("prog");
        cc(&[
            prog_src.as_os_str(),
            "-o".as_ref(),
            prog.as_os_str(),
            rt.as_os_str(),
            "-Wl,-rpath".as_ref(),
            dir.as_os_str(),
        ]);
        let record = dir.join(RECORD_FILE);
        let status = Command::new(&prog)
            .env("LD_PRELOAD", &lib)
            .env(RECORD_ENV, &record)
            .status()
            .expect("run");
        assert!(status.success());
        let bytes = std::fs::read(&record).expect("record");
        let copies = super::super::backprop::parse_copies(&bytes).expect("parse");
        let f = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        assert_eq!(copies, vec![f(&[9.5, 2.5, 3.5]), f(&[2.5])]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
