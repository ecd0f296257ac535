//! `-ccbin mpicxx`: an MPI compiler wrapper as the host compiler. The
//! wrapper adds MPI's include directories when it compiles, but cucc
//! compiles the host and device halves of `.cu` files with clang, so it
//! asks the wrapper for them (`-showme:compile` of Open MPI, `-show` of
//! MPICH and its derivatives) and gives clang the `-I`, `-isystem` and
//! `-D` flags found. The wrapper itself compiles `.c`/`.cpp` files and
//! links, adding MPI's libraries as usual.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `ccbin` names an MPI compiler wrapper (`mpicxx`, `mpic++`,
/// `mpiCC`, `mpicc`, `mpiicpx`, ...).
pub fn is_mpi_wrapper(ccbin: &str) -> bool {
    Path::new(ccbin)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("mpi"))
}

/// The preprocessor flags the wrapper `ccbin` adds when compiling.
pub fn compile_flags(ccbin: &str) -> Result<Vec<String>, String> {
    let mut tried = Vec::new();
    for query in ["-showme:compile", "-show"] {
        match Command::new(ccbin).arg(query).output() {
            Ok(out) if out.status.success() => {
                return Ok(preprocessor_flags(&String::from_utf8_lossy(&out.stdout)));
            }
            Ok(out) => tried.push(format!("`{ccbin} {query}` failed ({})", out.status)),
            Err(e) => {
                return Err(format!(
                    "cucc: error: cannot run the host compiler `{ccbin}`: {e}"
                ))
            }
        }
    }
    Err(format!(
        "cucc: error: cannot ask the MPI compiler wrapper `{ccbin}` for its include directories: {}",
        tried.join("; ")
    ))
}

/// Adds the wrapper's flags to the include directories (`(dir, is_system)`)
/// and macro definitions of the command line.
pub fn apply(flags: &[String], include_dirs: &mut Vec<(PathBuf, bool)>, macros: &mut Vec<String>) {
    let mut it = flags.iter();
    while let Some(f) = it.next() {
        let (system, value) = if f == "-I" || f == "-isystem" || f == "-D" {
            (f == "-isystem", it.next().cloned())
        } else if let Some(d) = f.strip_prefix("-isystem") {
            (true, Some(d.to_string()))
        } else {
            (false, Some(f.clone()))
        };
        let Some(value) = value else { continue };
        if f.starts_with("-D") {
            macros.push(if f == "-D" {
                format!("-D{value}")
            } else {
                value
            });
        } else {
            let dir = value.strip_prefix("-I").unwrap_or(&value);
            include_dirs.push((PathBuf::from(dir), system));
        }
    }
}

/// The `-I`, `-isystem` and `-D` flags of a compiler command line (the
/// compiler's own name and other flags are dropped).
fn preprocessor_flags(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = text.split_whitespace();
    while let Some(w) = words.next() {
        if w == "-I" || w == "-isystem" || w == "-D" {
            if let Some(v) = words.next() {
                out.push(w.to_string());
                out.push(v.to_string());
            }
        } else if (w.starts_with("-I") || w.starts_with("-D") || w.starts_with("-isystem"))
            && w.len() > 2
        {
            out.push(w.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_wrapper_output() {
        assert_eq!(
            preprocessor_flags("-I/usr/lib/openmpi/include -I/usr/lib/openmpi/include/openmpi\n"),
            vec![
                "-I/usr/lib/openmpi/include",
                "-I/usr/lib/openmpi/include/openmpi"
            ]
        );
        assert_eq!(
            preprocessor_flags("g++ -O2 -DMPICH_SKIP -I /opt/mpich/include -L/opt/mpich/lib -lmpi"),
            vec!["-DMPICH_SKIP", "-I", "/opt/mpich/include"]
        );
        let (mut dirs, mut macros) = (Vec::new(), Vec::new());
        apply(
            &preprocessor_flags("-I/a -I /b -isystem /c -DX=1 -D Y"),
            &mut dirs,
            &mut macros,
        );
        assert_eq!(
            dirs,
            vec![
                (PathBuf::from("/a"), false),
                (PathBuf::from("/b"), false),
                (PathBuf::from("/c"), true)
            ]
        );
        assert_eq!(macros, vec!["-DX=1", "-DY"]);
        assert!(is_mpi_wrapper("/usr/bin/mpicxx"));
        assert!(!is_mpi_wrapper("g++"));
    }
}
