//! The Rodinia 3.1 CUDA benchmarks, how each is built and run, and what of
//! its output is compared with its OpenMP version.
//!
//! The CUDA side runs its `run` file's command line. The OpenMP side runs
//! a command line given here when its own run file uses other inputs than
//! the CUDA one (Rodinia's OpenMP scripts often pick another size) or takes
//! a thread count (`{threads}`: the harness's `--threads`), else its run
//! file's. Make variables given here are added to the toolkit's on make's
//! command line, and environment variables to its environment — mostly to
//! turn on the result printing Rodinia compiles out by default.

use super::check::{Check, Lines, Source};
use super::own::Own;
use crate::compare::Compare;

/// How one version is built and run.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    /// The directory, relative to the checkout, where `make` runs and the
    /// command runs.
    pub dir: &'static str,
    /// Extra make variables.
    pub make_vars: &'static [&'static str],
    /// The run file (relative to `dir`).
    pub run_file: &'static str,
    /// Only run-file lines containing this.
    pub pick: Option<&'static str>,
    /// A command line used instead of the run file's.
    pub command: Option<&'static str>,
    /// A command line run when the data of the run file's (or `command`)
    /// is absent, reported as such: the release's input where it exists,
    /// a smaller one that can always be made otherwise.
    pub fallback: Option<&'static str>,
    /// Arguments that are input files although outside `data/`.
    pub inputs: &'static [&'static str],
    /// Files the program reads that its command line does not name.
    pub needs: &'static [&'static str],
    /// Environment variables for its make (`NVCC_APPEND_FLAGS`, which
    /// cucc honours as nvcc does, reaches Makefiles without a flags variable).
    pub make_env: &'static [(&'static str, &'static str)],
    /// Runs with `time()` pinned to one second ([`super::clock`]): for
    /// programs that seed their inputs from the clock.
    pub pinned_clock: bool,
    /// Runs with its device-to-host copies recorded ([`super::copies`]):
    /// for programs that print and write nothing they compute.
    pub record_copies: bool,
}

impl Side {
    /// A side built and run in `dir` from its `run` file.
    pub const fn new(dir: &'static str) -> Side {
        Side {
            dir,
            make_vars: &[],
            run_file: "run",
            pick: None,
            command: None,
            fallback: None,
            inputs: &[],
            needs: &[],
            make_env: &[],
            pinned_clock: false,
            record_copies: false,
        }
    }
    /// Runs with its device-to-host copies recorded.
    pub const fn record_copies(mut self) -> Side {
        self.record_copies = true;
        self
    }
    /// Runs with `time()` pinned.
    pub const fn pin_clock(mut self) -> Side {
        self.pinned_clock = true;
        self
    }
    /// Adds environment variables for make.
    pub const fn make_env(mut self, e: &'static [(&'static str, &'static str)]) -> Side {
        self.make_env = e;
        self
    }
    /// Runs this command line instead of the run file's.
    pub const fn command(mut self, c: &'static str) -> Side {
        self.command = Some(c);
        self
    }
    /// Runs `c` when the data of the main command line is absent.
    pub const fn fallback(mut self, c: &'static str) -> Side {
        self.fallback = Some(c);
        self
    }
    /// Adds make variables.
    pub const fn vars(mut self, v: &'static [&'static str]) -> Side {
        self.make_vars = v;
        self
    }
    /// Only run-file lines containing `p`.
    pub const fn pick(mut self, p: &'static str) -> Side {
        self.pick = Some(p);
        self
    }
    /// Files read that the command line does not name.
    pub const fn needs(mut self, n: &'static [&'static str]) -> Side {
        self.needs = n;
        self
    }
}

/// One benchmark.
#[derive(Clone, Copy, Debug)]
pub struct Benchmark {
    /// Its name (`srad_v2`).
    pub name: &'static str,
    /// The CUDA version.
    pub cuda: Side,
    /// The OpenMP version, where Rodinia has one.
    pub openmp: Option<Side>,
    /// What is compared.
    pub check: Check,
}

const fn tol(rel: f64, abs: f64) -> Compare {
    Compare::Tolerance { rel, abs }
}

const fn files(cuda: &'static str, openmp: &'static str, lines: Lines, rule: Compare) -> Check {
    Check::Outputs {
        cuda: Source::File(cuda),
        openmp: Source::File(openmp),
        lines,
        rule,
    }
}

const NN_DATA: &[&str] = &[
    "../../data/nn/cane4_0.db",
    "../../data/nn/cane4_1.db",
    "../../data/nn/cane4_2.db",
    "../../data/nn/cane4_3.db",
];

/// mummergpu's g++ flags (its Makefile's `CXX` and `LINK` end with
/// `$(PROFILE)`), see its entry.
const MUMMERGPU_VARS: &[&str] = &["PROFILE=-fno-delete-null-pointer-checks -include unistd.h"];

/// The 24 CUDA benchmarks of Rodinia 3.1 (srad counts twice).
pub const BENCHMARKS: &[Benchmark] = &[
    Benchmark {
        name: "b+tree",
        cuda: Side::new("cuda/b+tree"),
        openmp: Some(Side::new("openmp/b+tree").command(
            "./b+tree.out core {threads} file ../../data/b+tree/mil.txt command ../../data/b+tree/command.txt",
        )),
        check: files("output.txt", "output.txt", Lines::All, Compare::Exact),
    },
    Benchmark {
        name: "backprop",
        // Neither version prints or writes anything it computes: what the
        // CUDA version copies back from the device (partial sums, trained
        // input->hidden weights) is recorded and checked against a
        // reference training step ([`super::backprop`]).
        cuda: Side::new("cuda/backprop").record_copies(),
        openmp: Some(Side::new("openmp/backprop").command("./backprop 65536")),
        check: Check::Own(Own::BackpropStep),
    },
    Benchmark {
        name: "bfs",
        // The release's run files name graph1MW_6.txt (a million nodes;
        // no public mirror carries it, the generator makes one by
        // graphgen's rules); without it both sides run the 64K graph,
        // which copies of 3.1 name instead.
        cuda: Side::new("cuda/bfs").fallback("./bfs ../../data/bfs/graph65536.txt"),
        openmp: Some(
            Side::new("openmp/bfs")
                .command("./bfs {threads} ../../data/bfs/graph1MW_6.txt")
                .fallback("./bfs {threads} ../../data/bfs/graph65536.txt"),
        ),
        check: files("result.txt", "result.txt", Lines::All, Compare::Exact),
    },
    Benchmark {
        name: "cfd",
        cuda: Side::new("cuda/cfd"),
        openmp: Some(
            Side::new("openmp/cfd").command("./euler3d_cpu ../../data/cfd/fvcorr.domn.097K"),
        ),
        check: files("density", "density", Lines::PaddedHeader, tol(1e-3, 1e-5)),
    },
    Benchmark {
        name: "dwt2d",
        // The program prefixes `../../data/dwt2d/` to the file it is given.
        cuda: Side::new("cuda/dwt2d")
            .command("./dwt2d 192.bmp -d 192x192 -f -5 -l 3")
            .needs(&["../../data/dwt2d/192.bmp"]),
        openmp: None,
        // Its Makefile always defines OUTPUT: it writes 192.bmp.dwt.{r,g,b}.
        check: Check::Own(Own::Dwt53),
    },
    Benchmark {
        name: "gaussian",
        cuda: Side::new("cuda/gaussian"),
        openmp: None,
        check: Check::Own(Own::GaussianResidual),
    },
    Benchmark {
        name: "heartwall",
        // Both write result.txt only when built with OUTPUT.
        cuda: Side::new("cuda/heartwall").vars(&["OUTPUT=1"]),
        openmp: Some(
            Side::new("openmp/heartwall")
                .vars(&["OUTPUT=1"])
                .command("./heartwall ../../data/heartwall/test.avi 20 {threads}"),
        ),
        check: files("result.txt", "result.txt", Lines::All, tol(1e-3, 1e-3)),
    },
    Benchmark {
        name: "hotspot",
        cuda: Side::new("cuda/hotspot"),
        openmp: Some(Side::new("openmp/hotspot").command(
            "./hotspot 512 512 2 {threads} ../../data/hotspot/temp_512 ../../data/hotspot/power_512 output.out",
        )),
        check: files("output.out", "output.out", Lines::All, tol(1e-3, 1e-3)),
    },
    Benchmark {
        name: "hotspot3D",
        cuda: Side::new("cuda/hotspot3D"),
        openmp: Some(Side::new("openmp/hotspot3D")),
        check: files("output.out", "output.out", Lines::All, tol(1e-3, 1e-3)),
    },
    Benchmark {
        name: "huffman",
        // TESTING=1 (-DTESTING) packs the GPU's code words and compares them
        // with the CPU encoder's (main_test_cu.cu:159-171).
        cuda: Side::new("cuda/huffman").vars(&["TESTING=1"]),
        openmp: None,
        check: Check::Own(Own::SelfCheck {
            pass: "PASS! vectors are matching!",
            fail: "FAIL!",
        }),
    },
    Benchmark {
        name: "hybridsort",
        // VERIFY=1 (-DVERIFY) sorts the same list with qsort and compares
        // (main.cu:119-139).
        cuda: Side::new("cuda/hybridsort").vars(&["VERIFY=1"]),
        openmp: None,
        check: Check::Own(Own::SelfCheck {
            pass: "PASSED.",
            fail: "FAILED.",
        }),
    },
    Benchmark {
        name: "kmeans",
        cuda: Side::new("cuda/kmeans"),
        openmp: Some(
            Side::new("openmp/kmeans")
                .command("./kmeans_openmp/kmeans -n {threads} -i ../../data/kmeans/kdd_cup"),
        ),
        // The OpenMP version's centre printing is commented out
        // (kmeans_openmp/kmeans.c:225-234), and neither prints memberships:
        // the CUDA centres (`-o`) are checked against the input.
        check: Check::Own(Own::KmeansFixedPoint),
    },
    Benchmark {
        name: "lavaMD",
        // Seeded from time() (srand): pinned; result.txt only with OUTPUT.
        cuda: Side::new("cuda/lavaMD").vars(&["OUTPUT=1"]).pin_clock(),
        openmp: Some(
            Side::new("openmp/lavaMD")
                .vars(&["OUTPUT=1"])
                .command("./lavaMD -cores {threads} -boxes1d 10")
                .pin_clock(),
        ),
        check: files(
            "result.txt",
            "result.txt",
            Lines::CommaSeparated,
            tol(1e-3, 1e-3),
        ),
    },
    Benchmark {
        name: "leukocyte",
        cuda: Side::new("cuda/leukocyte").vars(&["OUTPUT=1"]),
        openmp: Some(
            Side::new("openmp/leukocyte")
                .vars(&["OUTPUT=1"])
                .command("./OpenMP/leukocyte 5 {threads} ../../data/leukocyte/testfile.avi"),
        ),
        check: files(
            "result.txt",
            "result.txt",
            Lines::CommaSeparated,
            tol(1e-3, 1e-3),
        ),
    },
    Benchmark {
        name: "lud",
        cuda: Side::new("cuda/lud"),
        openmp: Some(Side::new("openmp/lud").command("./omp/lud_omp -s 256")),
        // Its run line's -v multiplies L and U on the CPU and prints
        // "dismatch" for every entry more than 1e-4 from the input
        // (common/common.c:140-186).
        check: Check::Own(Own::SelfCheck {
            pass: ">>>Verify<<<<",
            fail: "dismatch",
        }),
    },
    Benchmark {
        name: "mummergpu",
        // `SuffixNode::id()` (suffix-tree.cpp:185 as released) tests
        // `if (this)`, and the tree's root has no parent: GCC 6 and later
        // drop that test, so `buildNodeTexture` calls `id()` on NULL and
        // crashes (its host code is built by g++, whatever the toolkit);
        // `-fno-delete-null-pointer-checks` keeps it. The release calls
        // `read`/`lseek` without `<unistd.h>`. The OpenMP copy of
        // mummergpu.cu calls `cuMemGetInfo` with `unsigned int *`, which
        // CUDA 3.2 replaced (`_v2`, `size_t *`); its emulation branch
        // (`__DEVICE_EMULATION__`) skips the call, and with `-C` only the
        // host buffer size it assumes changes (256 to 512 MiB).
        cuda: Side::new("cuda/mummergpu").vars(MUMMERGPU_VARS),
        openmp: Some(
            Side::new("openmp/mummergpu")
                .vars(MUMMERGPU_VARS)
                .make_env(&[("NVCC_APPEND_FLAGS", "-D__DEVICE_EMULATION__")]),
        ),
        check: files("NC_00399.out", "NC_00399.out", Lines::All, Compare::Exact),
    },
    Benchmark {
        name: "myocyte",
        cuda: Side::new("cuda/myocyte").needs(&[
            "../../data/myocyte/y.txt",
            "../../data/myocyte/params.txt",
        ]),
        openmp: Some(
            Side::new("openmp/myocyte")
                .command("./myocyte.out 100 1 0 {threads}")
                .needs(&["../../data/myocyte/y.txt", "../../data/myocyte/params.txt"]),
        ),
        // The OpenMP version's printing of its results is commented out
        // (openmp/myocyte/main.c:320-324) and its Makefile takes no flags.
        check: Check::Own(Own::MyocyteOutput),
    },
    Benchmark {
        name: "nn",
        cuda: Side::new("cuda/nn").needs(NN_DATA),
        openmp: Some(Side::new("openmp/nn").needs(NN_DATA)),
        check: Check::Outputs {
            cuda: Source::Stdout,
            openmp: Source::Stderr,
            lines: Lines::SortedNumbersIn("-->"),
            rule: tol(1e-5, 1e-5),
        },
    },
    Benchmark {
        name: "nw",
        cuda: Side::new("cuda/nw").vars(&["KERNEL_DIM=-DTRACEBACK"]),
        openmp: Some(Side::new("openmp/nw").command("./needle 2048 10 {threads}")),
        check: files("result.txt", "result.txt", Lines::All, Compare::Exact),
    },
    Benchmark {
        name: "particlefilter",
        // Seeded from time(): pinned. Its random generator computes
        // `A*seed + C` in int and overflows; gcc (nvcc's host compiler and
        // the OpenMP build's) wraps, clang -O3 (cucc's host compiler)
        // widens to 64 bits and draws another stream. -fwrapv gives the
        // CUDA build gcc's stream (docs/rodinia.md).
        cuda: Side::new("cuda/particlefilter")
            .make_env(&[("NVCC_APPEND_FLAGS", "-Xcompiler -fwrapv")])
            .pin_clock(),
        openmp: Some(
            Side::new("openmp/particlefilter")
                .command("./particle_filter -x 128 -y 128 -z 10 -np 1000")
                .pin_clock(),
        ),
        check: Check::Outputs {
            cuda: Source::Stdout,
            openmp: Source::Stdout,
            lines: Lines::Containing("E: "),
            rule: tol(1e-6, 1e-6),
        },
    },
    Benchmark {
        name: "pathfinder",
        cuda: Side::new("cuda/pathfinder").make_env(&[("NVCC_APPEND_FLAGS", "-DBENCH_PRINT")]),
        openmp: Some(Side::new("openmp/pathfinder").command("./pathfinder 100000 100 > out")),
        check: files("result.txt", "out", Lines::Numeric, Compare::Exact),
    },
    Benchmark {
        name: "srad_v1",
        cuda: Side::new("cuda/srad/srad_v1").needs(&["../../../data/srad/image.pgm"]),
        openmp: Some(
            Side::new("openmp/srad/srad_v1")
                .command("./srad 100 0.5 502 458 {threads}")
                .needs(&["../../../data/srad/image.pgm"]),
        ),
        check: files(
            "image_out.pgm",
            "image_out.pgm",
            Lines::All,
            Compare::Within(1.0),
        ),
    },
    Benchmark {
        name: "srad_v2",
        cuda: Side::new("cuda/srad/srad_v2").vars(&["KERNEL_DIM=-DOUTPUT"]),
        openmp: Some(
            Side::new("openmp/srad/srad_v2")
                .vars(&["CC_FLAGS=-g -fopenmp -O2 -DOUTPUT"])
                .command("./srad 2048 2048 0 127 0 127 {threads} 0.5 2"),
        ),
        check: Check::Outputs {
            cuda: Source::Stdout,
            openmp: Source::Stdout,
            lines: Lines::Numeric,
            rule: tol(1e-3, 1e-4),
        },
    },
    Benchmark {
        name: "streamcluster",
        cuda: Side::new("cuda/streamcluster"),
        openmp: Some(
            Side::new("openmp/streamcluster")
                .pick("sc_omp")
                .command("./sc_omp 10 20 256 65536 65536 1000 none output.txt {threads}"),
        ),
        check: files("output.txt", "output.txt", Lines::All, tol(1e-3, 1e-4)),
    },
];

/// The benchmarks named in `only` (all without it); unknown names are an
/// error listing the known ones.
pub fn select(only: Option<&[String]>) -> Result<Vec<&'static Benchmark>, String> {
    let Some(names) = only else {
        return Ok(BENCHMARKS.iter().collect());
    };
    names
        .iter()
        .map(|n| {
            BENCHMARKS.iter().find(|b| b.name == n).ok_or_else(|| {
                let known: Vec<&str> = BENCHMARKS.iter().map(|b| b.name).collect();
                format!("unknown benchmark `{n}` (known: {})", known.join(", "))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_four_distinct_benchmarks() {
        assert_eq!(BENCHMARKS.len(), 24);
        let mut names: Vec<&str> = BENCHMARKS.iter().map(|b| b.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 24);
        for b in BENCHMARKS {
            assert!(b.cuda.dir.starts_with("cuda/"), "{}", b.name);
            if let Some(o) = &b.openmp {
                assert!(o.dir.starts_with("openmp/"), "{}", b.name);
            } else {
                assert!(
                    matches!(b.check, Check::None(_) | Check::Own(_)),
                    "{}",
                    b.name
                );
            }
        }
    }

    #[test]
    fn selection() {
        let only = vec!["nw".to_string(), "bfs".to_string()];
        let s = select(Some(&only)).expect("known");
        assert_eq!(s.iter().map(|b| b.name).collect::<Vec<_>>(), ["nw", "bfs"]);
        let bad = vec!["nope".to_string()];
        assert!(select(Some(&bad)).unwrap_err().contains("srad_v2"));
        assert_eq!(select(None).expect("all").len(), 24);
    }
}
