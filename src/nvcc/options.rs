//! nvcc's command line, as cucc accepts it.
//!
//! nvcc options come in several spellings (`-o F`, `-oF`; `-arch=sm_80`,
//! `-arch sm_80`, `--gpu-architecture=sm_80`); each option below lists its
//! names once. Options that only matter to a GPU (`-Xptxas`, `-lineinfo`,
//! `--maxrregcount`, ...) are accepted and ignored, and `-v` says so.

use std::path::PathBuf;

/// What kind of file an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// CUDA source (`.cu`, or anything under `-x cu`).
    Cuda,
    /// C source.
    C,
    /// C++ source.
    Cpp,
    /// Object, archive or shared library: passed to the linker.
    Linkable,
}

/// One input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The path as given.
    pub path: PathBuf,
    /// How to treat it.
    pub kind: InputKind,
}

/// Where compilation stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Compile and link an executable (or shared library with `--shared`).
    Link,
    /// `-c`: objects only.
    Compile,
    /// `-E`: preprocess to stdout or `-o`.
    Preprocess,
    /// `-M`: print make dependencies.
    Deps,
    /// `-dlink`: the device-link object of separately compiled (`-rdc`)
    /// objects, to be linked by the host linker with them.
    DeviceLink,
}

/// The parsed command line.
#[derive(Clone, Debug)]
pub struct NvccOptions {
    /// Input files in order.
    pub inputs: Vec<Input>,
    /// `-o`.
    pub output: Option<PathBuf>,
    /// What to produce.
    pub stage: Stage,
    /// `-I` and `-isystem` directories (`(dir, is_system)`).
    pub include_dirs: Vec<(PathBuf, bool)>,
    /// `-D`/`-U` in order, as clang flags (`-DX=1`, `-UX`).
    pub macros: Vec<String>,
    /// `-L` directories.
    pub lib_dirs: Vec<PathBuf>,
    /// `-l` libraries.
    pub libs: Vec<String>,
    /// `-O` level (nvcc's default for host code is 3).
    pub opt: String,
    /// `-g`.
    pub debug: bool,
    /// `-std=`.
    pub std: Option<String>,
    /// `-Xcompiler` arguments, split at commas.
    pub host_flags: Vec<String>,
    /// `-Xlinker` arguments, split at commas.
    pub linker_flags: Vec<String>,
    /// `--shared`.
    pub shared: bool,
    /// `-ccbin`: the host compiler for `.c`/`.cpp` files and the link.
    pub ccbin: Option<String>,
    /// `--use_fast_math`.
    pub fast_math: bool,
    /// The GPU architecture asked for (`sm_80`), which sets `__CUDA_ARCH__`.
    pub arch: Option<String>,
    /// `-MD`: write dependencies beside the compilation.
    pub deps_file: bool,
    /// `-MF`.
    pub deps_output: Option<PathBuf>,
    /// `-MT`: the target named in the dependency file.
    pub deps_target: Option<String>,
    /// `-rdc=true` / `-dc`.
    pub relocatable_device_code: bool,
    /// `-v`.
    pub verbose: bool,
    /// `--dryrun`.
    pub dry_run: bool,
    /// `--keep`: keep intermediate files.
    pub keep: bool,
    /// Options accepted and ignored, for `-v`.
    pub ignored: Vec<String>,
    /// `-cuda`: preprocess each `.cu` file's host side to `FILE.cu.cpp.ii`.
    pub cuda_ii: bool,
    /// cucc: `--emit=ir` prints the device IR instead of compiling.
    pub emit_ir: bool,
    /// cucc: `--cpuify=LIST`.
    pub cpuify: Option<String>,
    /// cucc: `--print-ir-after=PASS` (repeatable).
    pub print_ir_after: Vec<String>,
    /// cucc: `--print-ir-after-all`.
    pub print_ir_after_all: bool,
    /// cucc: `--remarks`.
    pub remarks: bool,
    /// cucc: `--check-barriers`.
    pub check_barriers: bool,
    /// cucc: `--verify-each` (the IR verifier after every cpuify pass).
    pub verify_each: bool,
    /// cucc: `--cpu-arch=native|portable|MARCH`, the instruction set the
    /// device C is compiled for (default: `$CUCC_CPU_ARCH`, else native).
    pub cpu_arch: Option<cucc_cpuify::emit_c::CpuTarget>,
    /// cucc: `--device-ir=FILE` takes the device half from an IR file
    /// instead of lowering the `.cu` file's kernels (for testing the
    /// translator and runtime on hand-written IR).
    pub device_ir: Option<PathBuf>,
}

impl Default for NvccOptions {
    fn default() -> Self {
        NvccOptions {
            inputs: Vec::new(),
            output: None,
            stage: Stage::Link,
            include_dirs: Vec::new(),
            macros: Vec::new(),
            lib_dirs: Vec::new(),
            libs: Vec::new(),
            opt: "3".into(),
            debug: false,
            std: None,
            host_flags: Vec::new(),
            linker_flags: Vec::new(),
            shared: false,
            ccbin: None,
            fast_math: false,
            arch: None,
            deps_file: false,
            deps_output: None,
            deps_target: None,
            relocatable_device_code: false,
            verbose: false,
            dry_run: false,
            keep: false,
            ignored: Vec::new(),
            cuda_ii: false,
            emit_ir: false,
            cpuify: None,
            print_ir_after: Vec::new(),
            print_ir_after_all: false,
            remarks: false,
            check_barriers: false,
            verify_each: false,
            cpu_arch: None,
            device_ir: None,
        }
    }
}

/// Options that take a value, by every spelling nvcc accepts (without the
/// value): `-o F`, `-oF`, `--output-file F`, `--output-file=F`.
const VALUED: &[(&[&str], &str)] = &[
    (&["-o", "--output-file"], "o"),
    (&["-I", "--include-path"], "I"),
    (&["-isystem", "--system-include"], "isystem"),
    (&["-D", "--define-macro"], "D"),
    (&["-U", "--undefine-macro"], "U"),
    (&["-L", "--library-path"], "L"),
    (&["-l", "--library"], "l"),
    (&["-x", "--x"], "x"),
    (&["-Xcompiler", "--compiler-options"], "Xcompiler"),
    (&["-Xlinker", "--linker-options"], "Xlinker"),
    (&["-ccbin", "--compiler-bindir"], "ccbin"),
    (&["-arch", "--gpu-architecture"], "arch"),
    (&["-code", "--gpu-code"], "code"),
    (&["-gencode", "--generate-code"], "gencode"),
    (&["-MF", "--dependency-output"], "MF"),
    (&["-MT", "--dependency-target-name"], "MT"),
    (&["-keep-dir", "--keep-dir"], "ignored"),
    (&["-std", "--std"], "std"),
    (&["-cudart", "--cudart"], "cudart"),
    (&["-rdc", "--relocatable-device-code"], "rdc"),
    (&["-Xptxas", "--ptxas-options"], "ignored"),
    (&["-Xnvlink", "--nvlink-options"], "ignored"),
    (&["-Xfatbin", "--fatbin-options"], "ignored"),
    (&["-maxrregcount", "--maxrregcount"], "ignored"),
    (&["-t", "--threads"], "ignored"),
    (&["-Wno-deprecated-gpu-targets"], "flag-ignored"),
    (&["--cpuify"], "cpuify"),
    (&["--print-ir-after"], "print-ir-after"),
    (&["--emit"], "emit"),
    (&["--device-ir"], "device-ir"),
    (&["--cpu-arch"], "cpu-arch"),
];

/// Flags without a value.
const FLAGS: &[(&[&str], &str)] = &[
    (&["-c", "--compile"], "c"),
    (&["-E", "--preprocess"], "E"),
    (&["-cuda", "--cuda"], "cuda"),
    (&["-M", "--generate-dependencies"], "M"),
    (&["-MD", "--generate-dependencies-with-compile"], "MD"),
    (&["-g", "--debug"], "g"),
    (&["-G", "--device-debug"], "ignored"),
    (&["-lineinfo", "--generate-line-info"], "ignored"),
    (&["-shared", "--shared"], "shared"),
    (&["-use_fast_math", "--use_fast_math"], "fast-math"),
    (&["-dc", "--device-c"], "dc"),
    (&["-dlink", "--device-link"], "dlink"),
    (&["-v", "--verbose"], "v"),
    (&["-dryrun", "--dryrun"], "dryrun"),
    (&["-keep", "--keep"], "keep"),
    (&["-m64", "--machine=64"], "ignored"),
    (&["-w", "--disable-warnings"], "w"),
    (&["-restrict", "--restrict"], "ignored"),
    (
        &[
            "-extended-lambda",
            "--extended-lambda",
            "--expt-extended-lambda",
        ],
        "ignored",
    ),
    (
        &["-expt-relaxed-constexpr", "--expt-relaxed-constexpr"],
        "ignored",
    ),
    (&["-Wno-deprecated-declarations"], "ignored"),
    (
        &[
            "-forward-unknown-to-host-compiler",
            "--forward-unknown-to-host-compiler",
        ],
        "forward-unknown",
    ),
    (&["--print-ir-after-all"], "print-ir-after-all"),
    (&["--remarks"], "remarks"),
    (&["--check-barriers"], "check-barriers"),
    (&["--verify-each"], "verify-each"),
];

/// Parses nvcc's command line (without the program name).
pub fn parse(args: &[String]) -> Result<NvccOptions, String> {
    let mut o = NvccOptions::default();
    let mut force_cuda = false;
    // nvcc takes this flag wherever it stands.
    let forward_unknown = args.iter().any(|a| {
        a == "-forward-unknown-to-host-compiler" || a == "--forward-unknown-to-host-compiler"
    });
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if let Some(level) = a
            .strip_prefix("-O")
            .or_else(|| a.strip_prefix("--optimize="))
        {
            if !["0", "1", "2", "3", "s", "fast", ""].contains(&level) {
                return Err(format!("invalid optimisation level in `{a}`"));
            }
            o.opt = if level.is_empty() {
                "3".into()
            } else {
                level.into()
            };
            continue;
        }
        if let Some((_, what)) = FLAGS.iter().find(|(names, _)| names.contains(&a)) {
            match *what {
                "c" => o.stage = Stage::Compile,
                "E" => o.stage = Stage::Preprocess,
                "cuda" => {
                    o.stage = Stage::Preprocess;
                    o.cuda_ii = true;
                }
                "M" => o.stage = Stage::Deps,
                "MD" => o.deps_file = true,
                "g" => o.debug = true,
                "shared" => o.shared = true,
                "fast-math" => o.fast_math = true,
                "dc" => {
                    o.relocatable_device_code = true;
                    o.stage = Stage::Compile;
                }
                "dlink" => o.stage = Stage::DeviceLink,
                "v" => o.verbose = true,
                "dryrun" => o.dry_run = true,
                "keep" => o.keep = true,
                "w" => o.host_flags.push("-w".into()),
                "print-ir-after-all" => o.print_ir_after_all = true,
                "remarks" => o.remarks = true,
                "check-barriers" => o.check_barriers = true,
                "verify-each" => o.verify_each = true,
                "forward-unknown" => {}
                _ => o.ignored.push(a.to_string()),
            }
            continue;
        }
        if let Some((value, what)) = valued(a, args, &mut i)? {
            apply(&mut o, what, a, value, &mut force_cuda)?;
            continue;
        }
        if a.starts_with('-') {
            if forward_unknown {
                o.host_flags.push(a.to_string());
                continue;
            }
            return Err(format!("unknown option `{a}`"));
        }
        let path = PathBuf::from(a);
        let kind = if force_cuda {
            InputKind::Cuda
        } else {
            match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
                "cu" => InputKind::Cuda,
                "c" => InputKind::C,
                "cpp" | "cc" | "cxx" | "C" => InputKind::Cpp,
                "o" | "a" | "so" | "obj" => InputKind::Linkable,
                other => {
                    return Err(format!(
                    "`{a}`: unknown input kind `.{other}` (expected .cu, .c, .cpp, .o, .a or .so)"
                ))
                }
            }
        };
        o.inputs.push(Input { path, kind });
    }
    if o.inputs.is_empty() {
        return Err("no input files".into());
    }
    Ok(o)
}

/// Matches `a` against the valued options; returns (value, what).
fn valued(
    a: &str,
    args: &[String],
    i: &mut usize,
) -> Result<Option<(String, &'static str)>, String> {
    for (names, what) in VALUED {
        for name in *names {
            if a == *name {
                if *what == "flag-ignored" {
                    return Ok(Some((String::new(), "ignored")));
                }
                let v = args.get(*i).ok_or_else(|| format!("`{a}` needs a value"))?;
                *i += 1;
                return Ok(Some((v.clone(), what)));
            }
            if let Some(rest) = a.strip_prefix(name) {
                let long = name.starts_with("--") || name.len() > 2;
                if let Some(v) = rest.strip_prefix('=') {
                    return Ok(Some((v.to_string(), what)));
                }
                // Short options glue their value: -Idir, -DX=1, -lm, -ofile.
                if !long && !rest.is_empty() {
                    return Ok(Some((rest.to_string(), what)));
                }
            }
        }
    }
    Ok(None)
}

fn apply(
    o: &mut NvccOptions,
    what: &str,
    a: &str,
    v: String,
    force_cuda: &mut bool,
) -> Result<(), String> {
    match what {
        "o" => o.output = Some(PathBuf::from(v)),
        "I" => o.include_dirs.push((PathBuf::from(v), false)),
        "isystem" => o.include_dirs.push((PathBuf::from(v), true)),
        "D" => o.macros.push(format!("-D{v}")),
        "U" => o.macros.push(format!("-U{v}")),
        "L" => o.lib_dirs.push(PathBuf::from(v)),
        "l" => o.libs.push(v),
        "x" => match v.as_str() {
            "cu" => *force_cuda = true,
            "c" | "c++" | "cpp" => *force_cuda = false,
            _ => return Err(format!("`-x {v}`: unknown language (cu, c, c++)")),
        },
        "Xcompiler" => o
            .host_flags
            .extend(v.split(',').filter(|s| !s.is_empty()).map(String::from)),
        "Xlinker" => o
            .linker_flags
            .extend(v.split(',').filter(|s| !s.is_empty()).map(String::from)),
        "ccbin" => o.ccbin = Some(v),
        "cpu-arch" => {
            o.cpu_arch =
                Some(cucc_cpuify::emit_c::CpuTarget::parse(&v).map_err(|e| format!("`{a}`: {e}"))?)
        }
        "arch" | "code" => {
            if let Some(sm) = gpu_arch(&v) {
                o.arch.get_or_insert(sm);
            }
        }
        "gencode" => {
            // arch=compute_80,code=sm_80
            for part in v.split(',') {
                if let Some(x) = part
                    .strip_prefix("arch=")
                    .or_else(|| part.strip_prefix("code="))
                {
                    if let Some(sm) = gpu_arch(x) {
                        o.arch.get_or_insert(sm);
                    }
                }
            }
        }
        "MF" => o.deps_output = Some(PathBuf::from(v)),
        "MT" => o.deps_target = Some(v),
        "std" => o.std = Some(v),
        // cucc has one runtime, a shared library: every choice links it
        // (`none` too: cucc's translated kernels register through it).
        "cudart" => match v.as_str() {
            "none" | "shared" | "static" => {}
            _ => return Err(format!("`{a} {v}`: the runtime is none, shared or static")),
        },
        "rdc" => o.relocatable_device_code = matches!(v.as_str(), "true" | "1"),
        "cpuify" => o.cpuify = Some(v),
        "device-ir" => o.device_ir = Some(PathBuf::from(v)),
        "print-ir-after" => o.print_ir_after.push(v),
        "emit" => match v.as_str() {
            "ir" => o.emit_ir = true,
            _ => return Err(format!("`--emit={v}`: only `ir` is supported")),
        },
        _ => o.ignored.push(format!("{a} {v}")),
    }
    Ok(())
}

/// The newest architecture clang 16's CUDA mode knows.
const NEWEST_CLANG_ARCH: u32 = 90;

/// `sm_80`, `compute_80`, `[sm_70,sm_80]`, `all`... to an `sm_XX` clang accepts.
fn gpu_arch(v: &str) -> Option<String> {
    let v = v.trim_matches(|c| c == '[' || c == ']' || c == '\'' || c == '"');
    let first = v.split(',').next()?;
    let digits = first
        .strip_prefix("sm_")
        .or_else(|| first.strip_prefix("compute_"))?;
    let digits: String = digits.chars().take_while(char::is_ascii_digit).collect();
    // clang knows nothing older than sm_20; sm_1x code (sm_13 for doubles)
    // runs unchanged with the newer __CUDA_ARCH__. Nor anything newer than
    // sm_90 (clang 16): nvcc 13's sm_100, sm_103, sm_110, sm_120, sm_121
    // compile as sm_90 (`__CUDA_ARCH__` 900).
    match digits.parse::<u32>() {
        Ok(n) if n < 20 => Some("sm_20".to_string()),
        Ok(n) if n > NEWEST_CLANG_ARCH => Some(format!("sm_{NEWEST_CLANG_ARCH}")),
        Ok(_) => Some(format!("sm_{digits}")),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<NvccOptions, String> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn nvcc_spellings() {
        let o = p("-O2 -c -arch=sm_80 -Iinc -I other -DX=1 -D Y -UZ -o out.o a.cu").expect("parse");
        assert_eq!(o.stage, Stage::Compile);
        assert_eq!(o.opt, "2");
        assert_eq!(o.arch.as_deref(), Some("sm_80"));
        assert_eq!(o.include_dirs.len(), 2);
        assert_eq!(o.macros, vec!["-DX=1", "-DY", "-UZ"]);
        assert_eq!(o.output, Some(PathBuf::from("out.o")));
        assert_eq!(o.inputs[0].kind, InputKind::Cuda);
        let o = p(
            "-gencode arch=compute_70,code=sm_70 -Xcompiler -fopenmp,-Wall -lm -L/x main.cpp k.o",
        )
        .expect("parse");
        assert_eq!(o.arch.as_deref(), Some("sm_70"));
        assert_eq!(o.host_flags, vec!["-fopenmp", "-Wall"]);
        assert_eq!(o.libs, vec!["m"]);
        assert_eq!(o.inputs[1].kind, InputKind::Linkable);
        let o = p("-x cu file.c -Xptxas -v -lineinfo").expect("parse");
        assert_eq!(o.inputs[0].kind, InputKind::Cuda);
        assert_eq!(o.ignored.len(), 2);
        for (line, arch) in [
            ("-arch=sm_100 a.cu", "sm_90"),
            ("-arch=sm_120 a.cu", "sm_90"),
            ("-arch=compute_100 a.cu", "sm_90"),
            ("-gencode arch=compute_121,code=sm_121 a.cu", "sm_90"),
            ("-arch=sm_90 a.cu", "sm_90"),
        ] {
            assert_eq!(
                p(line).expect("parse").arch.as_deref(),
                Some(arch),
                "{line}"
            );
        }
        for line in [
            "-cudart shared a.cu",
            "-cudart=static a.cu",
            "--cudart none a.cu",
            "--cudart=shared a.cu",
        ] {
            assert!(p(line).is_ok(), "{line}");
        }
        assert!(p("-cudart dynamic a.cu").is_err());
        let o = p("--gpu-architecture=sm_75 --std=c++14 -rdc=true a.cu").expect("parse");
        assert_eq!(o.arch.as_deref(), Some("sm_75"));
        assert_eq!(o.std.as_deref(), Some("c++14"));
        assert!(o.relocatable_device_code);
    }

    #[test]
    fn legacy_spellings() {
        let o = p("-arch sm_13 a.cu").expect("parse");
        assert_eq!(o.arch.as_deref(), Some("sm_20"));
        let o = p("--gpu-architecture=compute_10 a.cu").expect("parse");
        assert_eq!(o.arch.as_deref(), Some("sm_20"));
        let o = p("-cuda a.cu").expect("parse");
        assert_eq!(o.stage, Stage::Preprocess);
        assert!(o.cuda_ii);
    }

    #[test]
    fn errors() {
        assert_eq!(
            p("--frobnicate a.cu").unwrap_err(),
            "unknown option `--frobnicate`"
        );
        assert_eq!(p("-c").unwrap_err(), "no input files");
        assert!(p("a.zip").unwrap_err().contains("unknown input kind"));
        assert!(p("-o").unwrap_err().contains("needs a value"));
        assert!(p("-O9 a.cu").unwrap_err().contains("optimisation level"));
    }
}
