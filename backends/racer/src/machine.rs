//! The versioned machine description (`machine/racer-v1.toml`).
//!
//! The thesis describes RACER without a simulator or encoding, so every
//! number the model uses lives in one text file, each tagged with where it
//! comes from: a thesis line, or `assumed`. The format is a small TOML
//! subset parsed here (no new dependencies): `key = value  [source]`.

use std::collections::BTreeMap;
use std::fmt;

/// The description shipped with the crate.
pub const RACER_V1: &str = include_str!("../machine/racer-v1.toml");

/// The only format version this parser reads.
pub const FORMAT_VERSION: u32 = 1;

/// Where a parameter's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Stated in the thesis at this line.
    Thesis(u32),
    /// Not in the thesis: a choice of this model.
    Assumed,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Thesis(l) => write!(f, "thesis L{l}"),
            Source::Assumed => f.write_str("assumed"),
        }
    }
}

/// One parameter as written in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The key, e.g. `latency.fmul`.
    pub key: String,
    /// The value's text.
    pub value: String,
    /// Its provenance.
    pub source: Source,
    /// Line in the description file (1-based).
    pub line: usize,
}

/// An error reading a description: the file line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineError {
    /// 1-based line, 0 when the error is about the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "machine description: {}", self.message)
        } else {
            write!(
                f,
                "machine description line {}: {}",
                self.line, self.message
            )
        }
    }
}

impl std::error::Error for MachineError {}

/// Which PEs of a block are the enhanced "G" elements (conditional stream
/// control, needed for closed routes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GLayout {
    /// The block's bottom row is G.
    pub bottom_row: bool,
    /// The block's right column is G.
    pub right_column: bool,
}

/// Operator latencies in pipeline stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Latencies {
    /// FP multiply.
    pub fmul: u32,
    /// FP add or subtract.
    pub fadd: u32,
    /// Numeric compare (int or FP).
    pub compare: u32,
    /// Integer add, subtract, multiply, divide.
    pub iadd: u32,
    /// Boolean logic.
    pub logic: u32,
    /// Int/FP conversions.
    pub convert: u32,
    /// Copy, split, merge, synchronise.
    pub steer: u32,
}

/// The parsed machine description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// PE rows of the array.
    pub array_rows: u32,
    /// PE columns of the array.
    pub array_cols: u32,
    /// PE rows of a block.
    pub block_rows: u32,
    /// PE columns of a block.
    pub block_cols: u32,
    /// Where the G elements are.
    pub g_elements: GLayout,
    /// Per-PE capacities, keyed by resource class (`compare`, `fmul`,
    /// `fadd`, `iadd`, `branch`, `merge`, `sync`).
    pub pe_capacity: BTreeMap<String, u32>,
    /// LMU size in bits.
    pub lmu_bits: u32,
    /// Operator latencies.
    pub latency: Latencies,
    /// Pipeline registers on a route between two operators.
    pub route_stages_per_hop: u32,
    /// Pipeline stages of a routing element.
    pub re_stages: u32,
    /// Half-speed mode (full speed is not modelled).
    pub half_speed: bool,
    /// Clocks per element per stage.
    pub cycles_per_element: u32,
    /// Stream width in bits.
    pub stream_bits: u32,
    /// Clock in MHz.
    pub clock_mhz: u32,
    /// Number of memory units.
    pub mu_count: u32,
    /// Clocks per element a memory unit port emits or absorbs.
    pub mu_cycles_per_element: u32,
    /// Every parameter with its source, in file order.
    pub params: Vec<Param>,
}

/// Keys a description must have, each exactly once.
const KEYS: &[&str] = &[
    "array.rows",
    "array.cols",
    "block.rows",
    "block.cols",
    "block.g_elements",
    "pe.compare",
    "pe.fmul",
    "pe.fadd",
    "pe.iadd",
    "pe.branch",
    "pe.merge",
    "pe.sync",
    "pe.lmu_bits",
    "latency.fmul",
    "latency.fadd",
    "latency.compare",
    "latency.iadd",
    "latency.logic",
    "latency.convert",
    "latency.steer",
    "route.stages_per_hop",
    "route.re_stages",
    "pipeline.half_speed",
    "pipeline.cycles_per_element",
    "stream.bits",
    "clock.mhz",
    "mu.count",
    "mu.cycles_per_element",
];

impl Machine {
    /// The shipped `racer-v1` description.
    pub fn racer_v1() -> Machine {
        match Machine::parse(RACER_V1) {
            Ok(m) => m,
            // The shipped file is tested; a broken one is a build defect.
            Err(e) => panic!("shipped racer-v1 description: {e}"),
        }
    }

    /// Parses a description.
    pub fn parse(text: &str) -> Result<Machine, MachineError> {
        let mut version = None;
        let mut params: Vec<Param> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |message: String| MachineError { line, message };
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            let Some((key, rest)) = body.split_once('=') else {
                return Err(err(format!(
                    "expected `key = value [source]`, found `{body}`"
                )));
            };
            let key = key.trim();
            let rest = rest.trim();
            if key == "racer-machine" {
                let v: u32 = rest
                    .parse()
                    .map_err(|_| err(format!("format version `{rest}` is not a number")))?;
                if v != FORMAT_VERSION {
                    return Err(err(format!(
                        "format version {v} is not supported (this reader reads {FORMAT_VERSION})"
                    )));
                }
                version = Some(v);
                continue;
            }
            if version.is_none() {
                return Err(err(
                    "the first entry must be `racer-machine = <version>`".to_string()
                ));
            }
            if !KEYS.contains(&key) {
                return Err(err(format!("unknown parameter `{key}`")));
            }
            if let Some(p) = params.iter().find(|p| p.key == key) {
                return Err(err(format!(
                    "parameter `{key}` given twice (first on line {})",
                    p.line
                )));
            }
            let (value, source) = match (rest.find('['), rest.ends_with(']')) {
                (Some(open), true) => (
                    rest[..open].trim(),
                    parse_source(&rest[open + 1..rest.len() - 1]).map_err(err)?,
                ),
                _ => {
                    return Err(err(format!(
                        "parameter `{key}` has no source: end the line with `[thesis L<n>]` or `[assumed]`"
                    )))
                }
            };
            if value.is_empty() {
                return Err(err(format!("parameter `{key}` has no value")));
            }
            params.push(Param {
                key: key.to_string(),
                value: value.to_string(),
                source,
                line,
            });
        }
        if version.is_none() {
            return Err(MachineError {
                line: 0,
                message: "missing `racer-machine = <version>`".to_string(),
            });
        }
        let missing: Vec<&str> = KEYS
            .iter()
            .copied()
            .filter(|k| !params.iter().any(|p| p.key == *k))
            .collect();
        if !missing.is_empty() {
            return Err(MachineError {
                line: 0,
                message: format!("missing parameters: {}", missing.join(", ")),
            });
        }
        Self::from_params(params)
    }

    fn from_params(params: Vec<Param>) -> Result<Machine, MachineError> {
        let find = |k: &str| -> &Param {
            // `parse` checked every key is present.
            params.iter().find(|p| p.key == k).unwrap_or(&params[0])
        };
        let num = |k: &str| -> Result<u32, MachineError> {
            let p = find(k);
            match p.value.parse::<u32>() {
                Ok(v) if v > 0 => Ok(v),
                _ => Err(MachineError {
                    line: p.line,
                    message: format!("`{k}` must be a positive integer, found `{}`", p.value),
                }),
            }
        };
        let flag = |k: &str| -> Result<bool, MachineError> {
            let p = find(k);
            match p.value.as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                v => Err(MachineError {
                    line: p.line,
                    message: format!("`{k}` must be true or false, found `{v}`"),
                }),
            }
        };
        let g = find("block.g_elements");
        let mut g_elements = GLayout {
            bottom_row: false,
            right_column: false,
        };
        for part in g.value.split(',').map(str::trim) {
            match part {
                "bottom-row" => g_elements.bottom_row = true,
                "right-column" => g_elements.right_column = true,
                "none" => {}
                other => {
                    return Err(MachineError {
                        line: g.line,
                        message: format!(
                            "`block.g_elements`: unknown part `{other}` (expected bottom-row, right-column or none)"
                        ),
                    })
                }
            }
        }
        let mut pe_capacity = BTreeMap::new();
        for class in ["compare", "fmul", "fadd", "iadd", "branch", "merge", "sync"] {
            pe_capacity.insert(class.to_string(), num(&format!("pe.{class}"))?);
        }
        let m = Machine {
            array_rows: num("array.rows")?,
            array_cols: num("array.cols")?,
            block_rows: num("block.rows")?,
            block_cols: num("block.cols")?,
            g_elements,
            pe_capacity,
            lmu_bits: num("pe.lmu_bits")?,
            latency: Latencies {
                fmul: num("latency.fmul")?,
                fadd: num("latency.fadd")?,
                compare: num("latency.compare")?,
                iadd: num("latency.iadd")?,
                logic: num("latency.logic")?,
                convert: num("latency.convert")?,
                steer: num("latency.steer")?,
            },
            route_stages_per_hop: num("route.stages_per_hop")?,
            re_stages: num("route.re_stages")?,
            half_speed: flag("pipeline.half_speed")?,
            cycles_per_element: num("pipeline.cycles_per_element")?,
            stream_bits: num("stream.bits")?,
            clock_mhz: num("clock.mhz")?,
            mu_count: num("mu.count")?,
            mu_cycles_per_element: num("mu.cycles_per_element")?,
            params: params.clone(),
        };
        let line_of = |k: &str| find(k).line;
        if m.array_rows % m.block_rows != 0 || m.array_cols % m.block_cols != 0 {
            return Err(MachineError {
                line: line_of("block.rows"),
                message: format!(
                    "a {}x{} array is not a whole number of {}x{} blocks",
                    m.array_rows, m.array_cols, m.block_rows, m.block_cols
                ),
            });
        }
        if !m.half_speed || m.cycles_per_element != 2 {
            return Err(MachineError {
                line: line_of("pipeline.half_speed"),
                message: "only half-speed mode with 2 cycles per element is modelled (full speed loses looped control flow, thesis L926)".to_string(),
            });
        }
        Ok(m)
    }

    /// Number of blocks in the array.
    pub fn blocks(&self) -> u32 {
        (self.array_rows / self.block_rows) * (self.array_cols / self.block_cols)
    }

    /// Whether the PE at (`row`, `col`), counted from the top-left of a
    /// block or of a region of blocks, is a G element (every block has
    /// its own).
    pub fn is_g(&self, row: u32, col: u32) -> bool {
        (self.g_elements.bottom_row && row % self.block_rows.max(1) + 1 == self.block_rows)
            || (self.g_elements.right_column && col % self.block_cols.max(1) + 1 == self.block_cols)
    }

    /// The parameter `key` as written, if present.
    pub fn param(&self, key: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.key == key)
    }
}

fn parse_source(s: &str) -> Result<Source, String> {
    let s = s.trim();
    if s == "assumed" {
        return Ok(Source::Assumed);
    }
    if let Some(rest) = s.strip_prefix("thesis L") {
        if let Ok(l) = rest.trim().parse::<u32>() {
            if l > 0 {
                return Ok(Source::Thesis(l));
            }
        }
    }
    Err(format!(
        "source `[{s}]` must be `[thesis L<line>]` or `[assumed]`"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_description_parses_with_thesis_values() {
        let m = Machine::racer_v1();
        assert_eq!((m.array_rows, m.array_cols), (32, 32));
        assert_eq!((m.block_rows, m.block_cols), (4, 4));
        assert_eq!(m.blocks(), 64);
        assert_eq!(m.pe_capacity["branch"], 4);
        assert_eq!(m.pe_capacity["fmul"], 1);
        assert_eq!(m.clock_mhz, 700);
        assert_eq!(
            m.param("array.rows").map(|p| p.source),
            Some(Source::Thesis(1033))
        );
        assert_eq!(
            m.param("latency.fmul").map(|p| p.source),
            Some(Source::Assumed)
        );
        assert_eq!(m.params.len(), KEYS.len());
    }

    #[test]
    fn docs_list_every_parameter() {
        let docs = include_str!("../../../docs/racer.md");
        for p in &Machine::racer_v1().params {
            assert!(
                docs.contains(&format!("`{}`", p.key)),
                "docs/racer.md lacks `{}`",
                p.key
            );
        }
    }

    #[test]
    fn g_elements_are_bottom_row_and_right_column() {
        let m = Machine::racer_v1();
        let g: usize = (0..4)
            .flat_map(|r| (0..4).map(move |c| (r, c)))
            .filter(|&(r, c)| m.is_g(r, c))
            .count();
        assert_eq!(g, 7);
        assert!(m.is_g(3, 0) && m.is_g(0, 3) && !m.is_g(2, 2));
    }

    fn edit(from: &str, to: &str) -> String {
        assert!(RACER_V1.contains(from), "{from}");
        RACER_V1.replacen(from, to, 1)
    }

    fn line_of(text: &str, needle: &str) -> usize {
        text.lines()
            .position(|l| l.contains(needle))
            .map_or(0, |i| i + 1)
    }

    #[test]
    fn a_value_without_a_source_is_rejected_at_its_line() {
        let t = edit(
            "clock.mhz = 700                        [thesis L1033]",
            "clock.mhz = 700",
        );
        let e = Machine::parse(&t).expect_err("no source");
        assert_eq!(e.line, line_of(&t, "clock.mhz"));
        assert!(e.message.contains("no source"), "{e}");
    }

    #[test]
    fn unknown_duplicate_and_missing_keys_are_named() {
        let t = format!("{RACER_V1}\nwarp.size = 32 [assumed]\n");
        let e = Machine::parse(&t).expect_err("unknown");
        assert!(e.message.contains("unknown parameter `warp.size`"), "{e}");
        let t = format!("{RACER_V1}\nclock.mhz = 600 [assumed]\n");
        let e = Machine::parse(&t).expect_err("twice");
        assert!(e.message.contains("given twice"), "{e}");
        let t = edit("mu.count = 4", "# mu.count = 4");
        let e = Machine::parse(&t).expect_err("missing");
        assert_eq!(e.line, 0);
        assert!(e.message.contains("missing parameters: mu.count"), "{e}");
    }

    #[test]
    fn bad_values_and_versions_are_rejected() {
        let e =
            Machine::parse(&edit("latency.fmul = 4 ", "latency.fmul = four ")).expect_err("nan");
        assert!(e.message.contains("positive integer"), "{e}");
        let e = Machine::parse(&edit("racer-machine = 1", "racer-machine = 2")).expect_err("v2");
        assert!(e.message.contains("version 2"), "{e}");
        let e = Machine::parse(&edit("array.rows = 32 ", "array.rows = 30 ")).expect_err("blocks");
        assert!(e.message.contains("whole number"), "{e}");
        let e = Machine::parse(&edit("[thesis L806]", "[thesis page 3]")).expect_err("src");
        assert!(e.message.contains("must be `[thesis L<line>]`"), "{e}");
        let e = Machine::parse(&edit(
            "pipeline.half_speed = true",
            "pipeline.half_speed = false",
        ))
        .expect_err("full speed");
        assert!(e.message.contains("half-speed"), "{e}");
        let e = Machine::parse("array.rows = 32 [assumed]").expect_err("no header");
        assert!(e.message.contains("racer-machine"), "{e}");
    }
}
