//! The applications of the suite: where their sources are, the command line
//! for each problem size, and how their outputs are compared.

use crate::compare::Compare;
use std::fmt;
use std::path::{Path, PathBuf};

/// A problem size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Tiny inputs for CI: each run takes milliseconds.
    Small,
    /// About a second of OpenMP time with two threads.
    Default,
    /// The problem sizes of Rodinia's own run scripts.
    Rodinia,
}

impl Size {
    /// Parses `small`, `default` or `rodinia`.
    pub fn parse(text: &str) -> Result<Size, String> {
        match text {
            "small" => Ok(Size::Small),
            "default" => Ok(Size::Default),
            "rodinia" => Ok(Size::Rodinia),
            _ => Err(format!(
                "unknown size `{text}` (expected small, default or rodinia)"
            )),
        }
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Default => "default",
            Size::Rodinia => "rodinia",
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One application. Both programs take the same arguments followed by the
/// path of the result file, print `TIME <seconds>` for the timed region and
/// write their result in the same format.
#[derive(Clone, Copy, Debug)]
pub struct App {
    /// Directory name under `apps/`, and the benchmark's name.
    pub name: &'static str,
    /// What it computes, in one line.
    pub summary: &'static str,
    /// The CUDA source, relative to the app's directory.
    pub cuda: &'static str,
    /// The OpenMP source (`.c` or `.cpp`), relative to the app's directory.
    pub openmp: &'static str,
    /// Arguments for [`Size::Small`].
    pub small: &'static [&'static str],
    /// Arguments for [`Size::Default`].
    pub default: &'static [&'static str],
    /// Arguments for [`Size::Rodinia`].
    pub rodinia: &'static [&'static str],
    /// How the two result files must agree.
    pub compare: Compare,
}

impl App {
    /// The arguments for a size (the result path is appended by the runner).
    pub fn args(&self, size: Size) -> &'static [&'static str] {
        match size {
            Size::Small => self.small,
            Size::Default => self.default,
            Size::Rodinia => self.rodinia,
        }
    }

    /// The application's directory under the suite's `apps/`.
    pub fn dir(&self, apps_dir: &Path) -> PathBuf {
        apps_dir.join(self.name)
    }
}

/// Float outputs: relative tolerance for results of the same arithmetic done
/// in a different order (reductions, contracted multiply-adds).
const FLOAT: Compare = Compare::Tolerance {
    rel: 1e-4,
    abs: 1e-6,
};

/// Every application, in the suite's order.
pub const APPS: &[App] = &[
    App {
        name: "hotspot",
        summary: "transient chip temperature: 5-point stencil, pyramid tiling in shared memory",
        cuda: "hotspot.cu",
        openmp: "hotspot_omp.c",
        small: &["64", "64", "2", "6"],
        default: &["1024", "1024", "2", "150"],
        rodinia: &["512", "512", "2", "2"],
        compare: FLOAT,
    },
    App {
        name: "pathfinder",
        summary:
            "cheapest top-to-bottom path costs: row-by-row dynamic programming, pyramid tiling",
        cuda: "pathfinder.cu",
        openmp: "pathfinder_omp.c",
        small: &["1000", "50", "5"],
        default: &["100000", "1000", "20"],
        rodinia: &["100000", "100", "20"],
        compare: Compare::Exact,
    },
    App {
        name: "backprop",
        summary: "one training step of a 16-hidden-unit network: shared-memory tree reduction",
        cuda: "backprop.cu",
        openmp: "backprop_omp.c",
        small: &["4096"],
        default: &["983040"],
        rodinia: &["65536"],
        compare: FLOAT,
    },
    App {
        name: "bfs",
        summary:
            "breadth-first search levels of a random graph: frontier kernels, host-polled flag",
        cuda: "bfs.cu",
        openmp: "bfs_omp.c",
        small: &["20000"],
        default: &["8000000"],
        rodinia: &["1000000"],
        compare: Compare::Exact,
    },
    App {
        name: "nw",
        summary:
            "Needleman-Wunsch alignment scores: tile wavefront, anti-diagonals in shared memory",
        cuda: "nw.cu",
        openmp: "nw_omp.c",
        small: &["256", "10"],
        default: &["8192", "10"],
        rodinia: &["2048", "10"],
        compare: Compare::Exact,
    },
    App {
        name: "gaussian",
        summary:
            "Gaussian elimination of a dense system: two launches per pivot, 2-D grid of 4x4 blocks",
        cuda: "gaussian.cu",
        openmp: "gaussian_omp.c",
        small: &["64"],
        default: &["1280"],
        rodinia: &["1024"],
        compare: Compare::Tolerance {
            rel: 1e-3,
            abs: 1e-6,
        },
    },
    App {
        name: "srad_v2",
        summary:
            "speckle-reducing anisotropic diffusion: halo tiles in shared memory, host statistics",
        cuda: "srad_v2.cu",
        openmp: "srad_v2_omp.c",
        small: &["64", "64", "0", "31", "0", "31", "0.5", "2"],
        default: &["2048", "2048", "0", "127", "0", "127", "0.5", "16"],
        rodinia: &["2048", "2048", "0", "127", "0", "127", "0.5", "2"],
        compare: FLOAT,
    },
    App {
        name: "lud",
        summary:
            "blocked LU decomposition: diagonal, perimeter and internal kernels on 16x16 tiles",
        cuda: "lud.cu",
        openmp: "lud_omp.c",
        small: &["64"],
        default: &["1536"],
        rodinia: &["2048"],
        compare: Compare::Tolerance {
            rel: 1e-3,
            abs: 1e-4,
        },
    },
    App {
        name: "nn",
        summary: "k nearest records to target points: one distance per thread, host selection",
        cuda: "nn.cu",
        openmp: "nn_omp.c",
        small: &["1000", "5", "4"],
        default: &["4000000", "10", "40"],
        rodinia: &["42764", "5", "1"],
        compare: Compare::Tolerance {
            rel: 1e-6,
            abs: 1e-7,
        },
    },
    App {
        name: "kmeans",
        summary:
            "k-means clustering: nearest-centre kernel, centres in constant memory, host update",
        cuda: "kmeans.cu",
        openmp: "kmeans_omp.c",
        small: &["2000", "8", "5", "50"],
        default: &["494020", "34", "8", "500"],
        rodinia: &["494020", "34", "5", "500"],
        compare: Compare::Tolerance {
            rel: 1e-5,
            abs: 1e-6,
        },
    },
    App {
        name: "streamcluster",
        summary:
            "facility-location local search: per-point pgain kernel, candidate in shared memory",
        cuda: "streamcluster.cu",
        openmp: "streamcluster_omp.c",
        small: &["2000", "16", "50"],
        default: &["65536", "64", "400"],
        rodinia: &["65536", "256", "200"],
        compare: Compare::Tolerance {
            rel: 1e-5,
            abs: 1e-6,
        },
    },
    App {
        name: "hotspot3D",
        summary: "3-D chip temperature: 7-point stencil, 64x4 blocks marching up their columns",
        cuda: "hotspot3D.cu",
        openmp: "hotspot3D_omp.c",
        small: &["64", "4", "5"],
        default: &["512", "8", "100"],
        rodinia: &["512", "8", "100"],
        compare: FLOAT,
    },
    App {
        name: "lavaMD",
        summary: "particle potentials and forces from neighbour boxes: one block per box, boxes staged in shared memory",
        cuda: "lavaMD.cu",
        openmp: "lavaMD_omp.c",
        small: &["2"],
        default: &["9"],
        rodinia: &["10"],
        compare: FLOAT,
    },
    App {
        name: "srad_v1",
        summary: "speckle-reducing anisotropic diffusion: six kernels, multi-launch shared-memory tree reduction",
        cuda: "srad_v1.cu",
        openmp: "srad_v1_omp.c",
        small: &["10", "0.5", "64", "50"],
        default: &["100", "0.5", "1280", "1280"],
        rodinia: &["100", "0.5", "502", "458"],
        compare: FLOAT,
    },
    App {
        name: "b+tree",
        summary: "B+ tree key and range queries: one block per query, one thread per node slot",
        cuda: "bptree.cu",
        openmp: "bptree_omp.c",
        small: &["20000", "2000", "1000", "300"],
        default: &["1000000", "200000", "120000", "3000"],
        rodinia: &["1000000", "10000", "6000", "3000"],
        compare: Compare::Exact,
    },
    App {
        name: "cfd",
        summary: "Euler equations on an unstructured mesh: step factor, flux and Runge-Kutta kernels, far field in constant memory",
        cuda: "cfd.cu",
        openmp: "cfd_omp.c",
        small: &["32", "32", "50"],
        default: &["312", "312", "40"],
        rodinia: &["312", "312", "2000"],
        compare: FLOAT,
    },
    App {
        name: "particlefilter",
        summary: "particle filter tracking a disk in a video: likelihood, sum, normalise and find-index kernels per frame",
        cuda: "particlefilter.cu",
        openmp: "particlefilter_omp.c",
        small: &["64", "64", "5", "600"],
        default: &["128", "128", "10", "12000"],
        rodinia: &["128", "128", "10", "1000"],
        compare: Compare::Tolerance {
            rel: 1e-6,
            abs: 1e-12,
        },
    },
    App {
        name: "huffman",
        summary: "Huffman encoding: shared-memory histogram, per-block scan of code lengths with atomicOr bit assembly, packing",
        cuda: "huffman.cu",
        openmp: "huffman_omp.c",
        small: &["256"],
        default: &["98304"],
        rodinia: &["1024"],
        compare: Compare::Exact,
    },
    App {
        name: "myocyte",
        summary: "cardiac-myocyte ODE model: per-stage model kernel, host Runge-Kutta-Fehlberg",
        cuda: "myocyte.cu",
        openmp: "myocyte_omp.c",
        small: &["10", "4"],
        default: &["100", "100"],
        rodinia: &["100", "1"],
        compare: FLOAT,
    },
    App {
        name: "dwt2d",
        summary:
            "2-D forward 9/7 or 5/3 wavelet transform of an RGB image: lifting on shared tiles",
        cuda: "dwt2d.cu",
        openmp: "dwt2d_omp.c",
        small: &["67", "45", "3", "97"],
        default: &["3072", "3072", "4", "97"],
        rodinia: &["192", "192", "3", "53"],
        compare: Compare::Tolerance {
            rel: 1e-4,
            abs: 1e-2,
        },
    },
    App {
        name: "hybridsort",
        summary: "bucket sort (shared histograms, atomics, pivots in a texture) then merge sort",
        cuda: "hybridsort.cu",
        openmp: "hybridsort_omp.c",
        small: &["100000"],
        default: &["4194304"],
        rodinia: &["1000000"],
        compare: Compare::Exact,
    },
    App {
        name: "mummergpu",
        summary:
            "exact matches of short queries: host-built suffix tree in textures, a walk per thread",
        cuda: "mummergpu.cu",
        openmp: "mummergpu_omp.c",
        small: &["50000", "2000", "100", "20"],
        default: &["1000000", "30000", "100", "20"],
        rodinia: &["5000000", "50000", "100", "20"],
        compare: Compare::Exact,
    },
    App {
        name: "heartwall",
        summary:
            "heart-wall tracking: one block per point, correlation and argmax in shared memory",
        cuda: "heartwall.cu",
        openmp: "heartwall_omp.c",
        small: &["4", "8"],
        default: &["10", "25"],
        rodinia: &["20", "25"],
        compare: FLOAT,
    },
    App {
        name: "leukocyte",
        summary: "cell detection (GICOV, dilation; textures, constant memory) and MGVF tracking",
        cuda: "leukocyte.cu",
        openmp: "leukocyte_omp.c",
        small: &["160", "200", "4", "2"],
        default: &["320", "480", "16", "6"],
        rodinia: &["480", "640", "24", "5"],
        compare: FLOAT,
    },
];

/// The apps named in `only` (in the suite's order), or all of them.
pub fn select(only: Option<&[String]>) -> Result<Vec<&'static App>, String> {
    let Some(names) = only else {
        return Ok(APPS.iter().collect());
    };
    for n in names {
        if !APPS.iter().any(|a| a.name == n) {
            let known: Vec<&str> = APPS.iter().map(|a| a.name).collect();
            return Err(format!(
                "unknown application `{n}` (known: {})",
                known.join(", ")
            ));
        }
    }
    Ok(APPS
        .iter()
        .filter(|a| names.iter().any(|n| n == a.name))
        .collect())
}

/// The suite's `apps/` directory: `RODINIA_APPS`, or the one in the source tree.
pub fn apps_dir() -> PathBuf {
    match std::env::var_os("RODINIA_APPS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("apps"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_print() {
        for s in [Size::Small, Size::Default, Size::Rodinia] {
            assert_eq!(Size::parse(s.name()), Ok(s));
        }
        assert!(Size::parse("huge").unwrap_err().contains("huge"));
    }

    #[test]
    fn selection_keeps_suite_order_and_rejects_unknown_names() {
        let only = vec!["nw".to_string(), "hotspot".to_string()];
        let apps = select(Some(&only)).unwrap();
        let names: Vec<&str> = apps.iter().map(|a| a.name).collect();
        assert_eq!(names, ["hotspot", "nw"]);
        let bad = vec!["nope".to_string()];
        assert!(select(Some(&bad)).unwrap_err().contains("nope"));
        assert_eq!(select(None).unwrap().len(), APPS.len());
    }

    #[test]
    fn every_app_has_its_sources_and_arguments() {
        let dir = apps_dir();
        for app in APPS {
            assert!(app.dir(&dir).join(app.cuda).is_file(), "{}", app.name);
            assert!(app.dir(&dir).join(app.openmp).is_file(), "{}", app.name);
            for s in [Size::Small, Size::Default, Size::Rodinia] {
                assert!(!app.args(s).is_empty(), "{} {s}", app.name);
            }
        }
    }
}
