//! Launches written as text: the `--kernel/--grid/--block/--shared/--arg`
//! options of `cucc ir-run` and the `; run:` lines of `.cuir` files, so that
//! an IR file can carry its own test launches (a bug report is one file).
//!
//! A scalar argument is `TYPE=VALUE` (`i32=1000`, `f32=2.5`); a buffer is
//! `TYPE[N]` (zeros), `TYPE[N]=iota` (0, 1, 2, ...), `TYPE[N]=V` (every
//! element V) or `TYPE[N]=a,b,c` (exactly N values). Types: i8, i16, i32,
//! i64, u8, u16, u32, u64, f32, f64.

use super::{Arg, Interpreter, LaunchConfig};
use crate::{Module, Space};
use std::fmt;

/// One launch: which kernel, its shape and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    /// Kernel name (the IR function's name).
    pub kernel: String,
    /// Grid shape.
    pub grid: [u32; 3],
    /// Block shape.
    pub block: [u32; 3],
    /// Dynamic shared memory per block, in bytes.
    pub shared: u32,
    /// Arguments, in parameter order.
    pub args: Vec<ArgSpec>,
}

/// Collects `--kernel`, `--grid`, `--block`, `--shared` and `--arg` options.
#[derive(Default)]
pub struct RunBuilder {
    kernel: Option<String>,
    grid: Option<[u32; 3]>,
    block: Option<[u32; 3]>,
    shared: u32,
    args: Vec<ArgSpec>,
    any: bool,
}

impl RunBuilder {
    /// Takes one option; `value` yields its argument.
    pub fn option(
        &mut self,
        name: &str,
        value: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<(), String> {
        self.any = true;
        match name {
            "--kernel" => self.kernel = Some(value(name)?),
            "--grid" => self.grid = Some(parse_dim3(&value(name)?)?),
            "--block" => self.block = Some(parse_dim3(&value(name)?)?),
            "--shared" => {
                let v = value(name)?;
                self.shared = v
                    .parse()
                    .map_err(|_| format!("`--shared {v}`: not a byte count"))?;
            }
            "--arg" => self.args.push(ArgSpec::parse(&value(name)?)?),
            _ => return Err(format!("unknown option `{name}` for a run")),
        }
        Ok(())
    }

    /// The run described, or `None` if no option was given.
    pub fn finish(self) -> Result<Option<RunSpec>, String> {
        if !self.any {
            return Ok(None);
        }
        Ok(Some(RunSpec {
            kernel: self.kernel.ok_or("`--kernel NAME` is required")?,
            grid: self.grid.unwrap_or([1, 1, 1]),
            block: self.block.unwrap_or([1, 1, 1]),
            shared: self.shared,
            args: self.args,
        }))
    }
}

/// The `; run:` lines of an IR file, parsed.
pub fn runs_in(source: &str) -> Result<Vec<RunSpec>, String> {
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("; run:") else {
            continue;
        };
        let words: Vec<String> = rest.split_whitespace().map(String::from).collect();
        let mut b = RunBuilder::default();
        let mut i = 0;
        while i < words.len() {
            let name = words[i].clone();
            let mut value = |what: &str| -> Result<String, String> {
                i += 1;
                words
                    .get(i)
                    .cloned()
                    .ok_or_else(|| format!("`{what}` needs a value"))
            };
            b.option(&name, &mut value)
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            i += 1;
        }
        if let Some(r) = b.finish().map_err(|e| format!("line {}: {e}", n + 1))? {
            out.push(r);
        }
    }
    Ok(out)
}

/// Runs `run` in the interpreter; returns the final buffers and the op count.
pub fn interpret(module: &Module, run: &RunSpec) -> Result<(Vec<Vec<u8>>, u64), String> {
    let mut it = Interpreter::new(module);
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for a in &run.args {
        match a {
            ArgSpec::Scalar(_, bytes) => {
                let mut w = [0u8; 8];
                w[..bytes.len()].copy_from_slice(bytes);
                args.push(Arg::Scalar(u64::from_le_bytes(w)));
            }
            ArgSpec::Buffer(_, bytes) => {
                let p = it
                    .memory
                    .try_alloc(
                        Space::Global,
                        bytes.len().max(1) as u64,
                        super::memory::Origin::Host,
                    )
                    .map_err(|e| it.memory.describe(&e, Some(module)))?;
                it.memory.write(p, bytes).map_err(|e| e.to_string())?;
                bufs.push((p, bytes.len()));
                args.push(Arg::ptr(p));
            }
        }
    }
    let cfg = LaunchConfig {
        grid: run.grid,
        block: run.block,
        dynamic_shared: run.shared,
    };
    let stats = it
        .launch(&run.kernel, &cfg, &args)
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (p, n) in bufs {
        out.push(it.memory.read(p, n as u64).map_err(|e| e.to_string())?);
    }
    Ok((out, stats.steps))
}

/// An element or scalar type of an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// Signed integer of this many bytes.
    Int(u8),
    /// Unsigned integer of this many bytes.
    UInt(u8),
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl Elem {
    fn parse(s: &str) -> Result<Elem, String> {
        Ok(match s {
            "i8" => Elem::Int(1),
            "i16" => Elem::Int(2),
            "i32" => Elem::Int(4),
            "i64" => Elem::Int(8),
            "u8" => Elem::UInt(1),
            "u16" => Elem::UInt(2),
            "u32" => Elem::UInt(4),
            "u64" => Elem::UInt(8),
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            _ => {
                return Err(format!(
                    "unknown argument type `{s}` (use i8..i64, u8..u64, f32, f64)"
                ))
            }
        })
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            Elem::Int(n) | Elem::UInt(n) => n as usize,
            Elem::F32 => 4,
            Elem::F64 => 8,
        }
    }

    /// Encodes a number written as text.
    fn encode(self, text: &str) -> Result<Vec<u8>, String> {
        let bad = || format!("`{text}` is not a valid {self}");
        let bytes = match self {
            Elem::F32 => text
                .parse::<f32>()
                .map_err(|_| bad())?
                .to_le_bytes()
                .to_vec(),
            Elem::F64 => text
                .parse::<f64>()
                .map_err(|_| bad())?
                .to_le_bytes()
                .to_vec(),
            Elem::Int(n) => {
                let v = text.parse::<i64>().map_err(|_| bad())?;
                let bits = 8 * u32::from(n);
                if bits < 64 && (v < -(1i64 << (bits - 1)) || v >= (1i64 << (bits - 1))) {
                    return Err(bad());
                }
                v.to_le_bytes()[..n as usize].to_vec()
            }
            Elem::UInt(n) => {
                let v = text.parse::<u64>().map_err(|_| bad())?;
                if n < 8 && v >= (1u64 << (8 * u32::from(n))) {
                    return Err(bad());
                }
                v.to_le_bytes()[..n as usize].to_vec()
            }
        };
        Ok(bytes)
    }

    /// Decodes one element for display.
    pub fn decode(self, b: &[u8]) -> String {
        let mut w = [0u8; 8];
        w[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
        let raw = u64::from_le_bytes(w);
        match self {
            Elem::F32 => format!("{}", f32::from_bits(raw as u32)),
            Elem::F64 => format!("{}", f64::from_bits(raw)),
            Elem::Int(n) => {
                let shift = 64 - 8 * u32::from(n);
                format!("{}", ((raw << shift) as i64) >> shift)
            }
            Elem::UInt(_) => format!("{raw}"),
        }
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Elem::Int(n) => write!(f, "i{}", 8 * n),
            Elem::UInt(n) => write!(f, "u{}", 8 * n),
            Elem::F32 => f.write_str("f32"),
            Elem::F64 => f.write_str("f64"),
        }
    }
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A scalar's little-endian bytes.
    Scalar(Elem, Vec<u8>),
    /// A device buffer's element type and initial bytes.
    Buffer(Elem, Vec<u8>),
}

impl ArgSpec {
    /// Parses one argument spec (see the module docs).
    pub fn parse(s: &str) -> Result<ArgSpec, String> {
        let (head, value) = match s.split_once('=') {
            Some((h, v)) => (h.trim(), Some(v.trim())),
            None => (s.trim(), None),
        };
        if let Some(open) = head.find('[') {
            let elem = Elem::parse(&head[..open])?;
            let Some(len_text) = head[open + 1..].strip_suffix(']') else {
                return Err(format!("`{s}`: expected TYPE[N]"));
            };
            let n: usize = len_text
                .parse()
                .map_err(|_| format!("`{s}`: `{len_text}` is not an element count"))?;
            if n > (1 << 28) {
                return Err(format!("`{s}`: at most {} elements", 1 << 28));
            }
            let mut bytes = Vec::with_capacity(n * elem.size());
            match value {
                None => bytes.resize(n * elem.size(), 0),
                Some("iota") => {
                    for i in 0..n {
                        bytes.extend(elem.encode(&i.to_string())?);
                    }
                }
                Some(v) if v.contains(',') => {
                    let items: Vec<&str> = v.split(',').map(str::trim).collect();
                    if items.len() != n {
                        return Err(format!(
                            "`{s}`: {} values given for {n} elements",
                            items.len()
                        ));
                    }
                    for item in items {
                        bytes.extend(elem.encode(item)?);
                    }
                }
                Some(v) => {
                    let one = elem.encode(v)?;
                    for _ in 0..n {
                        bytes.extend(&one);
                    }
                }
            }
            Ok(ArgSpec::Buffer(elem, bytes))
        } else {
            let elem = Elem::parse(head)?;
            let Some(v) = value else {
                return Err(format!("`{s}`: a scalar needs a value (TYPE=VALUE)"));
            };
            Ok(ArgSpec::Scalar(elem, elem.encode(v)?))
        }
    }
}

/// Parses `X`, `X,Y` or `X,Y,Z` as a launch dimension.
pub fn parse_dim3(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}`: expected X, X,Y or X,Y,Z"));
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] = p
            .parse()
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(|| format!("`{s}`: `{p}` is not a positive integer"))?;
    }
    Ok(out)
}

#[cfg(test)]
mod arg_tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(
            ArgSpec::parse("i32=7"),
            Ok(ArgSpec::Scalar(Elem::Int(4), vec![7, 0, 0, 0]))
        );
        let ArgSpec::Buffer(e, b) = ArgSpec::parse("f32[3]=iota").expect("iota") else {
            panic!("not a buffer")
        };
        assert_eq!(e, Elem::F32);
        assert_eq!(e.decode(&b[8..12]), "2");
        assert_eq!(
            ArgSpec::parse("u8[2]=1,255"),
            Ok(ArgSpec::Buffer(Elem::UInt(1), vec![1, 255]))
        );
        assert_eq!(
            ArgSpec::parse("i16[2]"),
            Ok(ArgSpec::Buffer(Elem::Int(2), vec![0; 4]))
        );
        assert!(ArgSpec::parse("i8=300")
            .unwrap_err()
            .contains("not a valid i8"));
        assert!(ArgSpec::parse("q32=1")
            .unwrap_err()
            .contains("unknown argument type"));
        assert!(ArgSpec::parse("f32[2]=1,2,3")
            .unwrap_err()
            .contains("3 values given"));
        assert!(ArgSpec::parse("i32").unwrap_err().contains("needs a value"));
        assert_eq!(parse_dim3("4"), Ok([4, 1, 1]));
        assert_eq!(parse_dim3("16,8"), Ok([16, 8, 1]));
        assert!(parse_dim3("0").is_err());
        assert!(parse_dim3("1,2,3,4").is_err());
    }
}

#[cfg(test)]
mod run_tests {
    use super::*;

    #[test]
    fn run_lines() {
        let src = "; run: --kernel k --grid 2 --block 32,2 --arg i32[4]=iota --arg i32=4\n; plain comment\n";
        let runs = runs_in(src).expect("runs");
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].kernel, "k");
        assert_eq!(runs[0].block, [32, 2, 1]);
        assert_eq!(runs[0].args.len(), 2);
        let err = runs_in("; run: --grid 2\n").unwrap_err();
        assert_eq!(err, "line 1: `--kernel NAME` is required");
        let err = runs_in("; run: --kernel k --bogus 1\n").unwrap_err();
        assert_eq!(err, "line 1: unknown option `--bogus` for a run");
    }
}
