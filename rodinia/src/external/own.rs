//! Checks of a CUDA version's result on its own, for the benchmarks whose
//! OpenMP version computes nothing comparable (or does not exist): the
//! program's own self-check, parsed from what it prints, or a reference the
//! harness computes from the program's inputs.
//!
//! Each checker returns `Ok` with a short note of what was checked, or
//! `Err` with the first disagreement.

use std::path::Path;

/// How a CUDA version's result is checked without an OpenMP twin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Own {
    /// The program's own verification: its stdout must contain `pass` and
    /// no line containing `fail`.
    SelfCheck {
        /// Printed on success (or, for lud, before the verification's
        /// findings).
        pass: &'static str,
        /// Printed for each failure, or on failure.
        fail: &'static str,
    },
    /// gaussian: the residual of the printed solution of the system the
    /// command line names (`-f FILE` or `-s N`), see [`gaussian`].
    GaussianResidual,
    /// kmeans: the printed centres are a fixed point of Lloyd's iteration
    /// on the input (`-i FILE`), see [`kmeans`].
    KmeansFixedPoint,
    /// dwt2d: the forward 5/3 transform's output files equal a reference
    /// transform of the input, see [`dwt53`].
    Dwt53,
    /// myocyte: the shape and plausibility of `output.txt`, see
    /// [`myocyte`].
    MyocyteOutput,
    /// backprop: its recorded device-to-host copies against a reference
    /// training step, see [`super::backprop`].
    BackpropStep,
}

impl Own {
    /// A one-line description for reports and docs.
    pub fn describe(&self) -> String {
        match self {
            Own::SelfCheck { pass, fail } => {
                format!("its own check: stdout has `{pass}` and no `{fail}`")
            }
            Own::GaussianResidual => {
                "residual of the printed solution, within its 2 printed decimals".into()
            }
            Own::KmeansFixedPoint => {
                "printed centres are the means of their nearest points, within printing and float sums"
                    .into()
            }
            Own::Dwt53 => "output files vs a reference 5/3 DWT of the input, exact".into(),
            Own::MyocyteOutput => {
                "output.txt: every value finite, time 0 equal to y.txt (no reference)".into()
            }
            Own::BackpropStep => {
                "partial sums and trained weights copied from the device vs a reference training step, within float rounding bounds"
                    .into()
            }
        }
    }

    /// The files the check reads that the program writes (relative to its
    /// run directory), for `command` (the table's, if any): deleted before
    /// the run, so that a stale copy is never checked.
    pub fn result_files(&self, command: Option<&str>) -> Vec<String> {
        match self {
            Own::Dwt53 => command
                .and_then(|c| DwtJob::parse(c).ok())
                .map(|j| {
                    j.suffixes()
                        .iter()
                        .map(|s| format!("{}{s}", j.output))
                        .collect()
                })
                .unwrap_or_default(),
            Own::MyocyteOutput => vec!["output.txt".into()],
            Own::BackpropStep => vec![super::copies::RECORD_FILE.into()],
            _ => Vec::new(),
        }
    }

    /// Checks a CUDA version's result: `dir` is its run directory, `command`
    /// its command line, `stdout` what it printed.
    pub fn check(&self, dir: &Path, command: &str, stdout: &str) -> Result<String, String> {
        match *self {
            Own::SelfCheck { pass, fail } => self_check(stdout, pass, fail),
            Own::GaussianResidual => {
                let words = super::runfile::words(command);
                let system = if let Some(f) = option(&words, "-f") {
                    let text = read(&dir.join(f))?;
                    parse_system(&text)?
                } else if let Some(n) = option(&words, "-s") {
                    let n: usize = n
                        .parse()
                        .map_err(|_| format!("`-s {n}` is not a matrix size"))?;
                    generated_system(n)
                } else {
                    return Err(format!("no `-f FILE` or `-s N` in `{command}`"));
                };
                gaussian(&system, stdout)
            }
            Own::KmeansFixedPoint => {
                let words = super::runfile::words(command);
                if words.iter().any(|w| w == "-b") {
                    return Err("binary kmeans inputs (`-b`) are not read by the check".into());
                }
                let f =
                    option(&words, "-i").ok_or_else(|| format!("no `-i FILE` in `{command}`"))?;
                let points = parse_kmeans_points(&read(&dir.join(f))?)?;
                kmeans(&points, stdout)
            }
            Own::Dwt53 => {
                let job = DwtJob::parse(command)?;
                let path = dir.join("../../data/dwt2d").join(&job.source);
                let image = std::fs::read(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let mut outputs = Vec::new();
                for c in job.suffixes() {
                    let p = dir.join(format!("{}{c}", job.output));
                    outputs.push(
                        std::fs::read(&p)
                            .map_err(|e| format!("cannot read {}: {e}", p.display()))?,
                    );
                }
                dwt53(&job, &image, &outputs)
            }
            Own::MyocyteOutput => {
                let words = super::runfile::words(command);
                let num = |i: usize| -> Result<usize, String> {
                    words
                        .get(i)
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| format!("argument {i} of `{command}` is not a number"))
                };
                let (xmax, workload) = (num(1)?, num(2)?);
                let mode = words.get(3).map_or("0", String::as_str);
                if mode != "0" {
                    return Err(format!("mode {mode} writes no output.txt"));
                }
                let y0 = read(&dir.join("../../data/myocyte/y.txt"))?;
                let out = read(&dir.join("output.txt"))?;
                myocyte(&out, &y0, xmax, workload, stdout)
            }
            Own::BackpropStep => {
                use super::backprop;
                let n = backprop::layer_size(command)?;
                let path = dir.join(super::copies::RECORD_FILE);
                let bytes = std::fs::read(&path).map_err(|e| {
                    format!("cannot read {} (the recorded copies): {e}", path.display())
                })?;
                let copies = backprop::parse_copies(&bytes)?;
                backprop::check(&backprop::rodinia_net(n, backprop::SEED), &copies)
            }
        }
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The word after `flag` in `words`.
fn option<'a>(words: &'a [String], flag: &str) -> Option<&'a str> {
    let i = words.iter().position(|w| w == flag)?;
    words.get(i + 1).map(String::as_str)
}

/// A program's own verification: `pass` printed, no line with `fail`.
pub fn self_check(stdout: &str, pass: &str, fail: &str) -> Result<String, String> {
    if let Some(l) = stdout.lines().find(|l| l.contains(fail)) {
        let n = stdout.lines().filter(|l| l.contains(fail)).count();
        return Err(format!(
            "its own check failed ({n} line{} with `{fail}`): {}",
            if n == 1 { "" } else { "s" },
            l.trim()
        ));
    }
    if !stdout.contains(pass) {
        return Err(format!("its own check did not run (no `{pass}` printed)"));
    }
    Ok(format!("`{pass}`"))
}

/// A linear system `a x = b`, `a` row-major `n` x `n`.
#[derive(Clone, Debug, PartialEq)]
pub struct System {
    /// The order.
    pub n: usize,
    /// The matrix, row-major.
    pub a: Vec<f64>,
    /// The right-hand side.
    pub b: Vec<f64>,
}

/// gaussian's input file: `n`, then `n * n` matrix entries, then `n`
/// right-hand side entries (an optional solution after them is ignored).
/// Values are read as the program reads them (`%f`, single precision).
pub fn parse_system(text: &str) -> Result<System, String> {
    let mut words = text.split_whitespace();
    let n: usize = words
        .next()
        .and_then(|w| w.parse().ok())
        .filter(|&n| n > 0)
        .ok_or("the system file does not start with its order")?;
    let mut value = |what: &str, i: usize| -> Result<f64, String> {
        let w = words
            .next()
            .ok_or_else(|| format!("the system file ends before {what} entry {i}"))?;
        w.parse::<f32>()
            .map(f64::from)
            .map_err(|_| format!("{what} entry {i} `{w}` is not a number"))
    };
    let a = (0..n * n)
        .map(|i| value("matrix", i))
        .collect::<Result<Vec<_>, _>>()?;
    let b = (0..n)
        .map(|i| value("right-hand side", i))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(System { n, a, b })
}

/// gaussian's `-s N` system (`create_matrix` in gaussian.cu): a Toeplitz
/// matrix with entries `10 exp(-0.01 |i - j|)` in single precision, and a
/// right-hand side of ones.
pub fn generated_system(n: usize) -> System {
    let coe: Vec<f64> = (0..n)
        .map(|d| f64::from((10.0 * (-0.01f64 * d as f64).exp()) as f32))
        .collect();
    let a = (0..n * n).map(|k| coe[(k / n).abs_diff(k % n)]).collect();
    System {
        n,
        a,
        b: vec![1.0; n],
    }
}

/// The numbers on the first non-empty line after the line containing
/// `marker`.
fn numbers_after(stdout: &str, marker: &str) -> Result<Vec<f64>, String> {
    let mut lines = stdout.lines().skip_while(|l| !l.contains(marker));
    if lines.next().is_none() {
        return Err(format!("no `{marker}` printed"));
    }
    let line = lines
        .find(|l| !l.trim().is_empty())
        .ok_or_else(|| format!("nothing printed after `{marker}`"))?;
    line.split_whitespace()
        .map(|w| {
            w.parse::<f64>()
                .map_err(|_| format!("`{w}` after `{marker}` is not a number"))
        })
        .collect()
}

/// gaussian: the solution printed after "The final solution is:" solves
/// `s`. The program prints it with `%.2f`, so each printed component is
/// within 0.005 of the computed one, and row `i` of the residual may be
/// `0.005 * sum_j |a_ij|` from that rounding alone; the rest allowed,
/// `1e-4` of `sum_j |a_ij x_j| + |b_i|`, covers single-precision
/// elimination without pivoting (backward error about `n` units of
/// 2^-24 for the well-conditioned systems Rodinia ships).
pub fn gaussian(s: &System, stdout: &str) -> Result<String, String> {
    let x = numbers_after(stdout, "The final solution is")?;
    if x.len() != s.n {
        return Err(format!(
            "{} solution values printed for a system of order {}",
            x.len(),
            s.n
        ));
    }
    let mut worst = 0.0f64;
    for i in 0..s.n {
        let row = &s.a[i * s.n..(i + 1) * s.n];
        let ax: f64 = row.iter().zip(&x).map(|(a, x)| a * x).sum();
        let r = (ax - s.b[i]).abs();
        let scale: f64 = row.iter().zip(&x).map(|(a, x)| (a * x).abs()).sum::<f64>() + s.b[i].abs();
        let bound = 0.005 * row.iter().map(|a| a.abs()).sum::<f64>() + 1e-4 * scale;
        if r.is_nan() || r > bound {
            return Err(format!(
                "row {i} of the residual is {r:.3e}, more than the printing and rounding allow ({bound:.3e})"
            ));
        }
        worst = worst.max(r / bound);
    }
    Ok(format!(
        "order {}, worst residual {:.0}% of its bound",
        s.n,
        worst * 100.0
    ))
}

/// kmeans' text input as the program reads it (kmeans.c:181-212): per
/// non-empty line an id (skipped) and the features, separated by spaces,
/// tabs or commas; the first line's count is the feature count, and later
/// lines' further words are ignored. Words are read by `atof`: a word that
/// does not start with a number counts as 0 (the kdd_cup file has a few
/// lines with protocol names in place of numbers).
pub fn parse_kmeans_points(text: &str) -> Result<Vec<Vec<f64>>, String> {
    let mut points = Vec::new();
    let mut nfeatures = None;
    for (no, line) in text.lines().enumerate() {
        let line = line.trim_start_matches([' ', '\t']);
        let Some(end) = line
            .find([' ', '\t'])
            .or((!line.is_empty()).then_some(line.len()))
        else {
            continue;
        };
        let words: Vec<&str> = line[end..]
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .collect();
        let n = *nfeatures.get_or_insert(words.len());
        if words.len() < n {
            return Err(format!(
                "line {} has {} features, the first line {n}",
                no + 1,
                words.len()
            ));
        }
        points.push(words[..n].iter().map(|w| f64::from(atof(w))).collect());
    }
    if points.is_empty() || nfeatures == Some(0) {
        return Err("the kmeans input has no points".into());
    }
    Ok(points)
}

/// C's `atof` into a `float`: the longest prefix that is a number, else 0.
fn atof(w: &str) -> f32 {
    (1..=w.len())
        .rev()
        .filter(|&i| w.is_char_boundary(i))
        .find_map(|i| {
            w[..i]
                .parse::<f32>()
                .ok()
                .filter(|_| !w[..i].contains(['i', 'I', 'n', 'N']))
        })
        .unwrap_or(0.0)
}

/// kmeans: the centres printed under "Centroid Coordinates" (`-o`, `%.2f`)
/// are a fixed point of Lloyd's iteration on `points`. The program stops
/// when no membership changed in an iteration (its threshold, 0.001, is
/// compared with a count of changes), so its final centres are the means
/// of the points nearest to them. Each point is assigned here to the
/// nearest printed centre and each populated cluster's mean compared with
/// its centre: allowed are 0.005 for the printing plus `n_k 2^-24` of the
/// mean magnitude, the bound on the program's single-precision running sum
/// of `n_k` points. A point whose nearest centre changes with the rounding
/// moves a mean by its distance over `n_k`, which the bound absorbs for
/// the cluster sizes here. A run stopped by the 500-iteration cap is
/// reported, since its centres need not be a fixed point.
pub fn kmeans(points: &[Vec<f64>], stdout: &str) -> Result<String, String> {
    if let Some(l) = stdout.lines().find(|l| l.starts_with("iterated ")) {
        let n: Option<u32> = l.split_whitespace().nth(1).and_then(|w| w.parse().ok());
        if n.is_some_and(|n| n > 500) {
            return Err(format!("the clustering did not converge ({})", l.trim()));
        }
    }
    let mut centres: Vec<Vec<f64>> = Vec::new();
    let mut lines = stdout
        .lines()
        .skip_while(|l| !l.contains("Centroid Coordinates"));
    if lines.next().is_none() {
        return Err("no centres printed (`Centroid Coordinates`; needs -o)".into());
    }
    for l in lines {
        let Some((id, rest)) = l.split_once(':') else {
            if l.trim().is_empty() {
                continue;
            }
            break;
        };
        if id.trim().parse::<usize>() != Ok(centres.len()) {
            break;
        }
        let c = rest
            .split_whitespace()
            .map(|w| {
                w.parse::<f64>()
                    .map_err(|_| format!("centre {id}: `{w}` is not a number"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        centres.push(c);
    }
    let d = points[0].len();
    if centres.is_empty() {
        return Err("no centres printed".into());
    }
    if let Some((i, c)) = centres.iter().enumerate().find(|(_, c)| c.len() != d) {
        return Err(format!(
            "centre {i} has {} coordinates, the points {d}",
            c.len()
        ));
    }
    let k = centres.len();
    let mut sum = vec![vec![0.0f64; d]; k];
    let mut abs = vec![vec![0.0f64; d]; k];
    let mut count = vec![0usize; k];
    for p in points {
        let dist = |c: &Vec<f64>| -> f64 { c.iter().zip(p).map(|(c, x)| (c - x) * (c - x)).sum() };
        let mut best = 0;
        for (j, c) in centres.iter().enumerate().skip(1) {
            if dist(c) < dist(&centres[best]) {
                best = j;
            }
        }
        count[best] += 1;
        for f in 0..d {
            sum[best][f] += p[f];
            abs[best][f] += p[f].abs();
        }
    }
    let mut worst = 0.0f64;
    for j in 0..k {
        let n = count[j] as f64;
        if count[j] == 0 {
            continue;
        }
        for f in 0..d {
            let mean = sum[j][f] / n;
            let bound = 0.005 + n * 2f64.powi(-24) * (abs[j][f] / n);
            let diff = (mean - centres[j][f]).abs();
            if diff.is_nan() || diff > bound {
                return Err(format!(
                    "centre {j} (of {} points) coordinate {f} is {}, the mean of its points {mean:.4} (allowed {bound:.3})",
                    count[j], centres[j][f]
                ));
            }
            worst = worst.max(diff / bound);
        }
    }
    if count.iter().all(|&c| c == 0) {
        return Err("no point is nearest to any centre".into());
    }
    Ok(format!(
        "{k} centres, {} points; worst {:.0}% of the bound",
        points.len(),
        worst * 100.0
    ))
}

/// dwt2d's command line as far as the reference needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct DwtJob {
    /// The input's name (the program reads `../../data/dwt2d/NAME`).
    pub source: String,
    /// The output prefix (`NAME.dwt` unless given).
    pub output: String,
    /// Width and height.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Colour components (1 or 3).
    pub components: usize,
    /// Transform levels.
    pub levels: usize,
}

impl DwtJob {
    /// Parses `./dwt2d NAME [OUT] -d WxH [-c N] [-l N] -f -5`: only the
    /// forward 5/3 transform written in linear band order is checked.
    pub fn parse(command: &str) -> Result<DwtJob, String> {
        let words = super::runfile::words(command);
        let mut files = Vec::new();
        let (mut size, mut components, mut levels) = (None, 3, 3);
        let (mut dwt53, mut forward, mut visual) = (false, true, false);
        let mut i = 1;
        while i < words.len() {
            let w = words[i].as_str();
            let mut arg = || {
                i += 1;
                words
                    .get(i)
                    .cloned()
                    .ok_or_else(|| format!("`{w}` without its value in `{command}`"))
            };
            match w {
                "-d" | "--dimension" => {
                    let v = arg()?;
                    let (x, y) = v
                        .split_once('x')
                        .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                        .filter(|&(x, y): &(usize, usize)| x > 0 && y > 0)
                        .ok_or_else(|| format!("`-d {v}` is not WIDTHxHEIGHT"))?;
                    size = Some((x, y));
                }
                "-c" | "--components" => {
                    components = arg()?.parse().map_err(|_| "bad `-c`".to_string())?
                }
                "-l" | "--level" => levels = arg()?.parse().map_err(|_| "bad `-l`".to_string())?,
                "-D" | "--device" | "-b" | "--depth" => {
                    arg()?;
                }
                "-f" | "--forward" => forward = true,
                "-r" | "--reverse" => forward = false,
                "-5" | "--53" => dwt53 = true,
                "-9" | "--97" => dwt53 = false,
                "-w" | "--write-visual" => visual = true,
                _ if w.starts_with('-') || w.starts_with('>') => {}
                _ => files.push(w.to_string()),
            }
            i += 1;
        }
        if !(dwt53 && forward && !visual) {
            return Err(
                "only the forward 5/3 transform in linear order (-f -5, no -w) is checked".into(),
            );
        }
        let (width, height) = size.ok_or("no `-d WIDTHxHEIGHT`")?;
        if components != 1 && components != 3 {
            return Err(format!(
                "{components} components (the program handles 1 or 3)"
            ));
        }
        let source = files.first().cloned().ok_or("no input file named")?;
        let output = files
            .get(1)
            .cloned()
            .unwrap_or_else(|| format!("{source}.dwt"));
        Ok(DwtJob {
            source,
            output,
            width,
            height,
            components,
            levels: levels.max(1),
        })
    }

    /// The suffixes of the files written, one per component.
    pub fn suffixes(&self) -> &'static [&'static str] {
        if self.components == 3 {
            &[".r", ".g", ".b"]
        } else {
            &[".lin.out"]
        }
    }
}

/// Symmetric extension of index `i` of a signal of length `n` (the
/// program's `mirror`: `-i` below, `2n - 2 - i` above).
fn mirror(i: isize, n: usize) -> usize {
    let n = n as isize;
    let m = if i < 0 {
        -i
    } else if i >= n {
        2 * n - 2 - i
    } else {
        i
    };
    m.clamp(0, n - 1) as usize
}

/// One level of the reversible 5/3 lifting on a signal, in place:
/// odd samples `c -= (p + n) / 2`, then even ones `c += (p + n + 2) / 4`
/// (ITU-T T.800 F.8 and F.9, as fdwt53.cu writes them: C's division,
/// which truncates towards zero), with symmetric extension.
fn lift53(x: &mut [i32]) {
    let n = x.len();
    if n < 2 {
        return;
    }
    for i in (1..n).step_by(2) {
        let (p, q) = (x[i - 1], x[mirror(i as isize + 1, n)]);
        x[i] -= (p + q) / 2;
    }
    for i in (0..n).step_by(2) {
        let (p, q) = (x[mirror(i as isize - 1, n)], x[mirror(i as isize + 1, n)]);
        x[i] += (p + q + 2) / 4;
    }
}

/// One level of fdwt53.cu's forward 2-D transform of the `w` x `h` image
/// `img` (row-major): every column lifted, then every row, and the four
/// bands stored one after another, each row-major (`VerticalDWTBandIO`):
/// LL, then the high columns of the low rows, the low columns of the high
/// rows, the high columns of the high rows.
fn fdwt53_level(img: &[i32], w: usize, h: usize) -> Vec<i32> {
    let mut t = img.to_vec();
    let mut col = vec![0; h];
    for x in 0..w {
        for y in 0..h {
            col[y] = t[y * w + x];
        }
        lift53(&mut col);
        for y in 0..h {
            t[y * w + x] = col[y];
        }
    }
    for row in t.chunks_mut(w) {
        lift53(row);
    }
    let (lw, lh) = (w.div_ceil(2), h.div_ceil(2));
    let mut out = vec![0; w * h];
    for y in 0..h {
        for x in 0..w {
            let at = if x % 2 == 1 {
                lw * lh + x / 2 + (y / 2) * (w / 2) + (y % 2) * (w * h / 2)
            } else {
                x / 2 + (y / 2) * lw + (y % 2) * (lh * w)
            };
            out[at] = t[y * w + x];
        }
    }
    out
}

/// The program's `levels`-level forward 5/3 transform of one component
/// (`fdwt53` in fdwt53.cu): each further level transforms the previous
/// one's LL band, stored at the start, in place of it.
pub fn fdwt53(img: &[i32], w: usize, h: usize, levels: usize) -> Vec<i32> {
    let mut out = fdwt53_level(img, w, h);
    let (mut w, mut h) = (w, h);
    for _ in 1..levels {
        (w, h) = (w.div_ceil(2), h.div_ceil(2));
        let ll = fdwt53_level(&out[..w * h], w, h);
        out[..w * h].copy_from_slice(&ll);
    }
    out
}

/// dwt2d (forward 5/3): the program reads the first `w h components`
/// bytes of its input file as interleaved 8-bit samples (a BMP's header
/// included), subtracts 128, transforms each component and writes the
/// coefficients plus 128, clamped to 0..255, as bytes (`writeLinear`).
/// The transform is integer arithmetic, so the reference must agree
/// exactly.
pub fn dwt53(job: &DwtJob, image: &[u8], outputs: &[Vec<u8>]) -> Result<String, String> {
    let (w, h, c) = (job.width, job.height, job.components);
    let n = w * h;
    if image.len() < n * c {
        return Err(format!(
            "the input has {} bytes, fewer than {w} x {h} x {c}",
            image.len()
        ));
    }
    for (k, out) in outputs.iter().enumerate() {
        let comp: Vec<i32> = (0..n).map(|p| i32::from(image[p * c + k]) - 128).collect();
        let reference: Vec<u8> = fdwt53(&comp, w, h, job.levels)
            .iter()
            .map(|&r| (r + 128).clamp(0, 255) as u8)
            .collect();
        if out.len() != n {
            return Err(format!(
                "output component {k} has {} bytes, not {n}",
                out.len()
            ));
        }
        if let Some(i) = (0..n).find(|&i| reference[i] != out[i]) {
            let count = (0..n).filter(|&i| reference[i] != out[i]).count();
            return Err(format!(
                "component {k} byte {i} is {}, the reference {} ({count} of {n} bytes differ)",
                out[i], reference[i]
            ));
        }
    }
    Ok(format!(
        "{} components of {w} x {h}, {} levels, identical",
        outputs.len(),
        job.levels
    ))
}

/// myocyte (mode 0): `output.txt` holds, per instance and time step,
/// `EQUATIONS` (91) values `y[i][j][k]=V`. With no OpenMP output to compare
/// (its version prints none) and no reference solver here, this checks
/// what holds for any correct run: every value is there, in order, and
/// finite, time 0 of every instance is the initial state read from
/// `y.txt` (to the `%10.7e` printing), the solver reported no failure
/// (`STATUS`) on stdout, and the state changed over the run.
pub fn myocyte(
    out: &str,
    y0: &str,
    xmax: usize,
    workload: usize,
    stdout: &str,
) -> Result<String, String> {
    const EQUATIONS: usize = 91;
    if let Some(l) = stdout.lines().find(|l| l.contains("STATUS")) {
        return Err(format!("the solver failed: {}", l.trim()));
    }
    let init: Vec<f64> = y0
        .split_whitespace()
        .map(|w| {
            w.parse::<f64>()
                .map_err(|_| format!("y.txt: `{w}` is not a number"))
        })
        .collect::<Result<_, _>>()?;
    if init.len() < EQUATIONS {
        return Err(format!(
            "y.txt has {} values, fewer than {EQUATIONS}",
            init.len()
        ));
    }
    let mut values = Vec::new();
    for l in out.lines().map(str::trim).filter(|l| l.starts_with("y[")) {
        let (name, v) = l
            .split_once('=')
            .ok_or_else(|| format!("output.txt: `{l}` has no value"))?;
        let v: f64 = v
            .trim()
            .parse()
            .map_err(|_| format!("output.txt: `{l}`: not a number"))?;
        let expect = format!(
            "y[{}][{}][{}]",
            values.len() / (EQUATIONS * (xmax + 1)),
            values.len() / EQUATIONS % (xmax + 1),
            values.len() % EQUATIONS
        );
        if name != expect {
            return Err(format!(
                "output.txt: `{name}` where `{expect}` was expected"
            ));
        }
        if !v.is_finite() {
            return Err(format!("output.txt: {name} is {v}"));
        }
        values.push(v);
    }
    let want = workload * (xmax + 1) * EQUATIONS;
    if values.len() != want {
        return Err(format!(
            "output.txt has {} values, not {workload} x {} x {EQUATIONS}",
            values.len(),
            xmax + 1
        ));
    }
    for (i, step) in values.chunks(EQUATIONS).enumerate() {
        if i % (xmax + 1) != 0 {
            continue;
        }
        for (k, (&v, &e)) in step.iter().zip(&init).enumerate() {
            if (v - e).abs() > 1e-6 * e.abs().max(1e-30) {
                return Err(format!(
                    "output.txt: y[{}][0][{k}] is {v:e}, y.txt's {e:e}",
                    i / (xmax + 1)
                ));
            }
        }
    }
    if xmax > 0 && values[..EQUATIONS] == values[xmax * EQUATIONS..(xmax + 1) * EQUATIONS] {
        return Err("output.txt: the state did not change over the run".into());
    }
    Ok(format!("{want} values"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_checks() {
        let lud_ok = "Time consumed(ms): 1.0\nAfter LUD\n>>>Verify<<<<\n";
        assert!(self_check(lud_ok, ">>>Verify<<<<", "dismatch").is_ok());
        let lud_bad =
            ">>>Verify<<<<\ndismatch at (0, 1): (o)1.0 (n)2.0\ndismatch at (3, 3): (o)1 (n)0\n";
        let e = self_check(lud_bad, ">>>Verify<<<<", "dismatch").unwrap_err();
        assert!(e.contains("2 lines") && e.contains("(0, 1)"), "{e}");
        let e = self_check("Time consumed\n", ">>>Verify<<<<", "dismatch").unwrap_err();
        assert!(e.contains("did not run"), "{e}");
        let sort_ok = "Sorting on GPU...done.\nChecking result...PASSED.\n";
        assert!(self_check(sort_ok, "PASSED.", "FAILED.").is_ok());
        let sort_bad = "Sort missmatch on element 3: \nChecking result...FAILED.\n";
        assert!(self_check(sort_bad, "PASSED.", "FAILED.").is_err());
        let huff_bad = "Comparing vectors: \nDiff: data1[0]=1,  data1[0]=2.\nFAIL! vectors are NOT matching!\n";
        assert!(self_check(huff_bad, "PASS! vectors are matching!", "FAIL!").is_err());
    }

    const SYSTEM: &str = "3\n\n2 1 0\n1 3 1\n0 1 4\n\n3 5 5\n\n1 1 1\n";

    #[test]
    fn gaussian_residuals() {
        let s = parse_system(SYSTEM).expect("system");
        assert_eq!(s.n, 3);
        assert_eq!(s.b, [3.0, 5.0, 5.0]);
        let ok = "Array b is: \n9 9 9\n\nThe final solution is: \n1.00 1.00 1.00 \n\n";
        assert!(gaussian(&s, ok).is_ok());
        // Rounded to two decimals: still within the printing's bound.
        let rounded = "The final solution is: \n1.004 0.996 1.00\n";
        assert!(gaussian(&s, rounded).is_ok());
        let wrong = "The final solution is: \n1.00 1.10 1.00\n";
        let e = gaussian(&s, wrong).unwrap_err();
        assert!(e.contains("row 0"), "{e}");
        assert!(gaussian(&s, "The final solution is: \n1 1\n").is_err());
        assert!(gaussian(&s, "no solution\n").is_err());
        assert!(parse_system("3\n1 2\n").is_err());
        assert!(parse_system("x\n").is_err());
        let g = generated_system(3);
        assert_eq!(g.a[0], 10.0);
        assert_eq!(g.a[1], g.a[3]);
        assert_eq!(g.a[2], g.a[6]);
        assert!((g.a[2] - 10.0 * (-0.02f64).exp()).abs() < 1e-5);
    }

    #[test]
    fn kmeans_fixed_points() {
        let input = "1 0 0\n2 0 2\n3 10 10\n4 10 12\n5, 10, 14\n\n";
        let p = parse_kmeans_points(input).expect("points");
        assert_eq!(p.len(), 5);
        assert_eq!(p[4], [10.0, 14.0]);
        let ok = "iterated 2 times\n\n================= Centroid Coordinates =================\n0: 0.00 1.00\n\n1: 10.00 12.00\n\nNumber of Iteration: 1\n";
        assert!(kmeans(&p, ok).is_ok(), "{:?}", kmeans(&p, ok));
        // Not the means of their points.
        let bad = ok.replace("1: 10.00 12.00", "1: 10.00 11.00");
        let e = kmeans(&p, &bad).unwrap_err();
        assert!(e.contains("centre 1"), "{e}");
        let capped = ok.replace("iterated 2", "iterated 501");
        assert!(kmeans(&p, &capped).unwrap_err().contains("converge"));
        assert!(kmeans(&p, "Number of Iteration: 1\n").is_err());
        let short = ok.replace("0: 0.00 1.00", "0: 0.00");
        assert!(kmeans(&p, &short).is_err());
        assert!(parse_kmeans_points("1 2 3\n2 4\n").is_err());
        let atofs = parse_kmeans_points("1 2 tcp 3.5e1x 9\n2 1 2 3 4\n").expect("atof");
        assert_eq!(atofs[0], [2.0, 0.0, 35.0, 9.0]);
        assert!(parse_kmeans_points("\n\n").is_err());
    }

    #[test]
    fn dwt_command_lines() {
        let j = DwtJob::parse("./dwt2d 192.bmp -d 192x192 -f -5 -l 3").expect("job");
        assert_eq!(j.source, "192.bmp");
        assert_eq!(j.output, "192.bmp.dwt");
        assert_eq!(
            (j.width, j.height, j.components, j.levels),
            (192, 192, 3, 3)
        );
        assert_eq!(
            Own::Dwt53.result_files(Some("./dwt2d a.bmp out -d 4x2 -5 -c 1")),
            ["out.lin.out"]
        );
        assert!(DwtJob::parse("./dwt2d a.bmp -d 4x4 -f -9").is_err());
        assert!(DwtJob::parse("./dwt2d a.bmp -d 4x4 -5 -w").is_err());
        assert!(DwtJob::parse("./dwt2d a.bmp -d 4 -5").is_err());
        assert!(DwtJob::parse("./dwt2d a.bmp -5").is_err());
    }

    #[test]
    fn lifting_by_hand() {
        // x = [1, 5, 3, 7]: d1 = 5 - (1+3)/2 = 3, d3 = 7 - (3+3)/2 = 4
        // (mirrored right neighbour); s0 = 1 + (3+3+2)/4 = 3,
        // s2 = 3 + (3+4+2)/4 = 5.
        let mut x = [1, 5, 3, 7];
        lift53(&mut x);
        assert_eq!(x, [3, 3, 5, 4]);
        // Negative sums truncate towards zero, as C's division does:
        // d1 = 0 - (-3)/2 = 1 (floor division would give 2), s0 = 0 +
        // (1+1+2)/4 = 1, s2 = -3 + (1+1+2)/4 = -2.
        let mut y = [0, 0, -3];
        lift53(&mut y);
        assert_eq!(y, [1, 1, -2]);
        // A constant image: LL keeps the value, the other bands are 0.
        let img = vec![7; 16];
        let t = fdwt53(&img, 4, 4, 2);
        assert_eq!(t[0], 7);
        assert!(t[1..].iter().all(|&v| v == 0), "{t:?}");
        // Band layout of one level of a 2 x 2 image: LL, HL, LH, HH.
        let t = fdwt53(&[0, 2, 4, 6], 2, 2, 1);
        assert_eq!(t, [3, 2, 4, 0]);
    }

    #[test]
    fn dwt_reference_against_outputs() {
        let job = DwtJob::parse("./dwt2d in.bmp -d 4x4 -f -5 -l 2").expect("job");
        let image: Vec<u8> = (0..48u8).map(|v| v.wrapping_mul(37)).collect();
        let outputs: Vec<Vec<u8>> = (0..3)
            .map(|k| {
                let c: Vec<i32> = (0..16).map(|p| i32::from(image[p * 3 + k]) - 128).collect();
                fdwt53(&c, 4, 4, 2)
                    .iter()
                    .map(|&v| (v + 128).clamp(0, 255) as u8)
                    .collect()
            })
            .collect();
        assert!(dwt53(&job, &image, &outputs).is_ok());
        let mut wrong = outputs.clone();
        wrong[1][5] ^= 1;
        let e = dwt53(&job, &image, &wrong).unwrap_err();
        assert!(
            e.contains("component 1 byte 5") && e.contains("1 of 16"),
            "{e}"
        );
        assert!(dwt53(&job, &image[..40], &outputs).is_err());
        let mut short = outputs;
        short[2].pop();
        assert!(dwt53(&job, &image, &short).is_err());
    }

    fn myocyte_output(xmax: usize, f: impl Fn(usize, usize) -> f64) -> String {
        let mut s = String::from("WORKLOAD 0:\n");
        for j in 0..=xmax {
            s += &format!("\tTIME {j}:\n");
            for k in 0..91 {
                s += &format!("\t\ty[0][{j}][{k}]={:10.7e}\n", f(j, k));
            }
        }
        s
    }

    #[test]
    fn myocyte_outputs() {
        let y0: String = (0..91).map(|k| format!("{:e}\n", 1.0 + k as f64)).collect();
        let ok = myocyte_output(2, |j, k| 1.0 + k as f64 + j as f64);
        assert!(
            myocyte(&ok, &y0, 2, 1, "").is_ok(),
            "{:?}",
            myocyte(&ok, &y0, 2, 1, "")
        );
        assert!(myocyte(&ok, &y0, 3, 1, "").is_err());
        let nan = ok.replace("y[0][2][5]=8.0000000e0", "y[0][2][5]=nan");
        assert!(nan != ok);
        assert!(myocyte(&nan, &y0, 2, 1, "").unwrap_err().contains("NaN"));
        let start = myocyte_output(2, |j, k| 2.0 + k as f64 + j as f64);
        assert!(myocyte(&start, &y0, 2, 1, "")
            .unwrap_err()
            .contains("y.txt"));
        let still = myocyte_output(2, |_, k| 1.0 + k as f64);
        assert!(myocyte(&still, &y0, 2, 1, "").is_err());
        assert!(myocyte(&ok, &y0, 2, 1, "STATUS: 1\n").is_err());
    }
}
