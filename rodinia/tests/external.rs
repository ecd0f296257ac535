//! `rodinia external` end to end on a tiny Rodinia-like tree made in a
//! temporary directory: a Makefile that includes `../../common/make.config`
//! and uses `$(CUDA_DIR)/bin/nvcc`, a host part linked by gcc with
//! `-L$(CUDA_LIB_DIR) -lcuda -lcudart`, a run file, data under `data/`, and
//! an OpenMP twin. The CUDA side is built by cucc through its toolkit layout.

use cucc_rodinia::compare::Compare;
use cucc_rodinia::external::benchmarks::{Benchmark, Side};
use cucc_rodinia::external::check::{Check, Lines, Source};
use cucc_rodinia::external::report::Verdict;
use cucc_rodinia::external::toolkit::CuccInstall;
use cucc_rodinia::external::{self, ExternalOptions};
use cucc_rodinia::runner::Toolchain;
use std::path::{Path, PathBuf};
use std::process::Command;

const MAKE_CONFIG: &str = "\
# CUDA toolkit installation path
CUDA_DIR = /usr/local/cuda
CUDA_LIB_DIR := $(CUDA_DIR)/lib
ifeq ($(shell if test -d $(CUDA_DIR)/lib64; then echo T; else echo F; fi), T)
	CUDA_LIB_DIR := $(CUDA_DIR)/lib64
endif
";

const SCALE_MAKEFILE: &str = "\
include ../../common/make.config

NVCC = $(CUDA_DIR)/bin/nvcc

scale: main.o scale_cuda.o
\tgcc main.o scale_cuda.o -o scale -L$(CUDA_LIB_DIR) -lcuda -lcudart -lstdc++ -lm

main.o: main.c
\tgcc -O2 -c main.c

scale_cuda.o: scale_cuda.cu
\t$(NVCC) -I$(CUDA_DIR)/include -O2 -c scale_cuda.cu
";

const SCALE_MAIN: &str = r#"
#include <stdio.h>
#include <stdlib.h>
void scale_on_gpu(float *x, int n, float f);
int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: scale IN OUT FACTOR\n"); return 2; }
    FILE *in = fopen(argv[1], "r");
    if (!in) { fprintf(stderr, "error: cannot open %s\n", argv[1]); return 1; }
    float x[1024]; int n = 0;
    while (n < 1024 && fscanf(in, "%f", &x[n]) == 1) n++;
    fclose(in);
    scale_on_gpu(x, n, (float)atof(argv[3]));
    FILE *out = fopen(argv[2], "w");
    for (int i = 0; i < n; i++) fprintf(out, "%.6f\n", x[i]);
    fclose(out);
    printf("scaled %d values\n", n);
    return 0;
}
"#;

const SCALE_CU: &str = r#"
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void scale(float *x, int n, float f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * f + 0.5f;
}
extern "C" void scale_on_gpu(float *x, int n, float f) {
    float *d;
    cudaMalloc((void **)&d, n * sizeof(float));
    cudaMemcpy(d, x, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(n + 63) / 64, 64>>>(d, n, f);
    cudaMemcpy(x, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
}
"#;

const SCALE_OMP: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: scale IN OUT FACTOR THREADS\n"); return 2; }
    omp_set_num_threads(atoi(argv[4]));
    FILE *in = fopen(argv[1], "r");
    if (!in) return 1;
    float x[1024]; int n = 0;
    while (n < 1024 && fscanf(in, "%f", &x[n]) == 1) n++;
    fclose(in);
    float f = (float)atof(argv[3]);
#pragma omp parallel for
    for (int i = 0; i < n; i++) x[i] = x[i] * f + 0.5f;
    FILE *out = fopen(argv[2], "w");
    for (int i = 0; i < n; i++) fprintf(out, "%.6f\n", x[i]);
    fclose(out);
    return 0;
}
"#;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// cucc, its runtime and shim libraries (its toolkit layout has them all),
/// built for the test.
fn cucc() -> CuccInstall {
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "-q",
            "-p",
            "cucc",
            "-p",
            "cucc-runtime",
            "-p",
            "cucc-cublas",
            "-p",
            "cucc-cudnn",
            "-p",
            "cucc-libcuda",
        ])
        .current_dir(workspace())
        .status()
        .expect("cargo build");
    assert!(status.success());
    CuccInstall::locate(&Toolchain::locate().cucc).expect("cucc install")
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rodinia-ext-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// The tree's files with their sizes and modification times.
fn listing(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let m = e.metadata().expect("metadata");
            if m.is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), m.len(), m.modified().expect("mtime")));
            }
        }
    }
    out.sort();
    out
}

fn scale_tree(root: &Path) {
    write(&root.join("common/make.config"), MAKE_CONFIG);
    write(&root.join("cuda/scale/Makefile"), SCALE_MAKEFILE);
    write(&root.join("cuda/scale/main.c"), SCALE_MAIN);
    write(&root.join("cuda/scale/scale_cuda.cu"), SCALE_CU);
    write(
        &root.join("cuda/scale/run"),
        "usage: scale IN OUT FACTOR\n\n./scale ../../data/scale/in.txt out.txt 2\n",
    );
    write(
        &root.join("openmp/scale/Makefile"),
        "scale: scale.c\n\tgcc -O2 -fopenmp scale.c -o scale\n",
    );
    write(&root.join("openmp/scale/scale.c"), SCALE_OMP);
    write(
        &root.join("openmp/scale/run"),
        "./scale ../../data/scale/in.txt out.txt 2 4\n",
    );
    write(&root.join("cuda/broken/Makefile"), "include ../../common/make.config\nbroken: broken.cu\n\t$(CUDA_DIR)/bin/nvcc broken.cu -o broken\n");
    write(
        &root.join("cuda/broken/broken.cu"),
        "__global__ void k() { undeclared_thing(); }\nint main() { return 0; }\n",
    );
    write(&root.join("cuda/broken/run"), "./broken\n");
    let data: Vec<String> = (0..100)
        .map(|i| format!("{}.25", i as f32 - 50.0))
        .collect();
    write(&root.join("data/scale/in.txt"), &data.join("\n"));
    // A result committed with the sources, as Rodinia ships some: what the
    // OpenMP version writes for factor 2.
    let committed: Vec<String> = (0..100)
        .map(|i| format!("{:.6}", (i as f32 - 50.0 + 0.25) * 2.0 + 0.5))
        .collect();
    write(&root.join("cuda/scale/out.txt"), &committed.join("\n"));
    // A result the checkout keeps in git-annex, absent here: a dangling
    // link, which the program's fopen(..., "w") cannot write through.
    std::os::unix::fs::symlink(
        "../../.git/annex/objects/Xx/out.txt",
        root.join("openmp/scale/out.txt"),
    )
    .expect("symlink");
}

const OUT: Check = Check::Outputs {
    cuda: Source::File("out.txt"),
    openmp: Source::File("out.txt"),
    lines: Lines::All,
    rule: Compare::Tolerance {
        rel: 1e-6,
        abs: 1e-6,
    },
};

static TABLE: &[Benchmark] = &[
    Benchmark {
        name: "scale",
        cuda: Side::new("cuda/scale"),
        openmp: Some(
            Side::new("openmp/scale")
                .command("./scale ../../data/scale/in.txt out.txt 2 {threads}"),
        ),
        check: OUT,
    },
    Benchmark {
        name: "scale-differs",
        cuda: Side::new("cuda/scale"),
        openmp: Some(
            Side::new("openmp/scale").command("./scale ../../data/scale/in.txt out.txt 3 1"),
        ),
        check: OUT,
    },
    Benchmark {
        name: "scale-no-data",
        cuda: Side::new("cuda/scale").command("./scale ../../data/scale/big.txt out.txt 2"),
        openmp: Some(Side::new("openmp/scale")),
        check: OUT,
    },
    Benchmark {
        // Writes its result elsewhere: the committed out.txt must not be
        // taken for it.
        name: "scale-stale",
        cuda: Side::new("cuda/scale").command("./scale ../../data/scale/in.txt elsewhere.txt 2"),
        openmp: Some(
            Side::new("openmp/scale")
                .command("./scale ../../data/scale/in.txt out.txt 2 {threads}"),
        ),
        check: OUT,
    },
    Benchmark {
        name: "broken",
        cuda: Side::new("cuda/broken"),
        openmp: None,
        check: Check::None("no twin"),
    },
];

#[test]
fn a_rodinia_like_tree_builds_runs_and_compares() {
    let cucc = cucc();
    let root = temp("tree");
    let src = root.join("rodinia");
    scale_tree(&src);
    let before = listing(&src);
    let mut o = ExternalOptions::new(src.clone());
    o.threads = Some(2);
    o.timeout = 300;
    let table: Vec<&Benchmark> = TABLE.iter().collect();
    let out = external::run(&o, &cucc, &table, &root.join("work")).expect("session");

    let scale = &out[0];
    assert!(scale.built, "{scale:?}");
    assert_eq!(scale.ran, Verdict::Yes, "{scale:?}");
    assert_eq!(scale.matched, Verdict::Yes, "{scale:?}");
    assert!(scale.cucc_seconds.is_some() && scale.openmp_seconds.is_some());
    assert_eq!(
        scale.command.as_deref(),
        Some("./scale ../../data/scale/in.txt out.txt 2")
    );
    assert_eq!(
        scale.openmp_command.as_deref(),
        Some("./scale ../../data/scale/in.txt out.txt 2 2")
    );

    let differs = &out[1];
    assert_eq!(differs.ran, Verdict::Yes);
    assert_eq!(differs.matched, Verdict::No, "{differs:?}");
    assert!(
        differs
            .error
            .as_deref()
            .is_some_and(|e| e.contains("differ")),
        "{differs:?}"
    );

    let no_data = &out[2];
    assert_eq!(
        (no_data.ran, no_data.matched),
        (Verdict::NoData, Verdict::NoData)
    );
    assert!(
        no_data
            .error
            .as_deref()
            .is_some_and(|e| e.contains("big.txt")),
        "{no_data:?}"
    );

    let stale = &out[3];
    assert_eq!(stale.ran, Verdict::Yes, "{stale:?}");
    assert_eq!(stale.matched, Verdict::No, "{stale:?}");
    assert!(
        stale
            .error
            .as_deref()
            .is_some_and(|e| e.contains("cannot read result")),
        "{stale:?}"
    );

    let broken = &out[4];
    assert!(!broken.built);
    assert_eq!(broken.ran, Verdict::NotReached);
    let err = broken.error.as_deref().unwrap_or_default();
    assert!(
        err.starts_with("make: ") && err.contains("undeclared_thing"),
        "{err}"
    );

    // The checkout was only read.
    assert_eq!(before, listing(&src));
    let _ = std::fs::remove_dir_all(&root);
}

/// The `rodinia` binary on a tree shaped like Rodinia's nw (result printing
/// turned on through `KERNEL_DIM`, as the benchmark table does) and hotspot
/// (its data absent), with `--only` and `--json`.
#[test]
fn the_command_reports_a_table_and_json() {
    let _ = cucc();
    let root = temp("cli");
    let src = root.join("rodinia");
    write(&src.join("common/make.config"), MAKE_CONFIG);
    write(
        &src.join("cuda/nw/Makefile"),
        "include ../../common/make.config\nCC := $(CUDA_DIR)/bin/nvcc\nINCLUDE := $(CUDA_DIR)/include\n\
         needle: needle.cu\n\t$(CC) ${KERNEL_DIM} needle.cu -o needle -I$(INCLUDE) -L$(CUDA_LIB_DIR)\n",
    );
    write(
        &src.join("cuda/nw/needle.cu"),
        r#"#include <stdio.h>
#include <stdlib.h>
__global__ void fill(int *s, int n, int p) { int i = threadIdx.x + blockIdx.x * blockDim.x; if (i < n) s[i] = (i * 7) % 13 - p; }
int main(int argc, char **argv) {
    int n = atoi(argv[1]), p = atoi(argv[2]);
    int *d, *h = (int *)malloc(n * sizeof(int));
    cudaMalloc((void **)&d, n * sizeof(int));
    fill<<<(n + 31) / 32, 32>>>(d, n, p);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
#ifdef TRACEBACK
    FILE *f = fopen("result.txt", "w");
    for (int i = 0; i < n; i++) fprintf(f, "%d ", h[i]);
    fclose(f);
#endif
    return 0;
}
"#,
    );
    write(&src.join("cuda/nw/run"), "./needle 2048 10\n");
    write(
        &src.join("openmp/nw/Makefile"),
        "needle: needle.c\n\tgcc -fopenmp needle.c -o needle\n",
    );
    write(
        &src.join("openmp/nw/needle.c"),
        r#"#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int n = atoi(argv[1]), p = atoi(argv[2]);
    FILE *f = fopen("result.txt", "w");
    for (int i = 0; i < n; i++) fprintf(f, "%d ", (i * 7) % 13 - p);
    fclose(f);
    return 0;
}
"#,
    );
    write(&src.join("cuda/hotspot/Makefile"), "hotspot:\n\ttrue\n");
    write(
        &src.join("cuda/hotspot/run"),
        "./hotspot 512 2 2 ../../data/hotspot/temp_512 ../../data/hotspot/power_512 output.out\n",
    );
    let json = root.join("r.json");
    let out = Command::new(env!("CARGO_BIN_EXE_rodinia"))
        .args([
            "external",
            src.to_str().expect("utf8"),
            "--only",
            "nw,hotspot",
            "--threads",
            "2",
        ])
        .arg("--json")
        .arg(&json)
        .output()
        .expect("run rodinia");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.starts_with("benchmark  built  ran"),
        "{stdout}\n{stderr}"
    );
    let nw = stdout
        .lines()
        .find(|l| l.starts_with("nw "))
        .expect("nw row");
    let words: Vec<&str> = nw.split_whitespace().collect();
    assert_eq!(words[1..4], ["yes", "yes", "yes"], "{stdout}\n{stderr}");
    let hotspot = stdout
        .lines()
        .find(|l| l.starts_with("hotspot "))
        .expect("hotspot row");
    assert!(
        hotspot.contains("no data") && hotspot.contains("temp_512"),
        "{stdout}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("parse");
    assert_eq!(v[0]["name"], "nw");
    assert_eq!(v[0]["matched"], "yes");
    assert_eq!(v[0]["openmp_command"], "./needle 2048 10 2");
    assert_eq!(v[1]["ran"], "no data");
    assert!(!out.status.success(), "hotspot's program was never built");
    let _ = std::fs::remove_dir_all(&root);
}
