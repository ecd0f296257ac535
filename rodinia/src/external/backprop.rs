//! backprop's check: neither Rodinia version prints or writes what it
//! computes, so the harness records what the CUDA program copies back from
//! the device (the [`super::copies`] preload library) and compares it with
//! a training step it computes itself.
//!
//! The program (`facetrain.c`, `backprop.c`, `imagenet.c`,
//! `backprop_cuda.cu` of Rodinia 3.1): `srand(7)`; `bpnn_create(N, 16, 1)`
//! draws the `(N+1) x 17` input->hidden weights and then the `17 x 2`
//! hidden->output weights row by row as `(float) rand() / RAND_MAX`, zeroes
//! both momentum arrays and sets the target to 0.1; `load` draws inputs
//! 1 to N the same way. `bpnn_train_cuda` then copies back, in order: the
//! forward kernel's per-block partial sums (`N/16 x 16`: block b, hidden
//! unit j+1, the sum over its 16 rows of weight times input), the inputs,
//! and the adjusted input->hidden weights. The host sums each unit's
//! partial sums and its bias weight, squashes, runs the output layer and
//! both error terms; the adjust kernel adds `0.3 * delta_h[j] * x[k]` to
//! weight `[k][j]` (`x[0]` counting as 1; the momentum terms are zero in
//! this first step) for hidden units 1 to 16, leaving column 0 alone.
//!
//! The reference is that step computed exactly (in `f64`), carried as an
//! interval per value ([`Iv`]): each float operation of the program may
//! round by u = 2^-24 relative, a float sum of n terms in any order
//! (the 16-row tree in the kernel, the host's loop over the blocks) by
//! `(n+1) u` times the sum of the terms' magnitudes, a float `exp`-based
//! sigmoid by `4 u`. Each recorded value must lie in its interval: the
//! tolerance is exactly what the program's own float arithmetic allows,
//! whatever the order of its sums. (With the run line's 65536 inputs the
//! hidden sums are near 16000, the sigmoid is 1 in float, the hidden
//! deltas are 0 and the trained weights equal the drawn ones: the partial
//! sums carry the arithmetic there, the weights the data movement.)

/// Unit roundoff of `f32`.
const U: f64 = 1.0 / 16_777_216.0;
/// The hidden layer's size (`bpnn_create(N, 16, 1)`; fixed by the kernels).
pub const HIDDEN: usize = 16;
/// The seed `facetrain.c` passes to `srand`.
pub const SEED: u32 = 7;
/// Learning rate and momentum (`ETA`, `MOMENTUM` in `backprop.h`).
const ETA: f64 = 0.3;

/// glibc's `rand()` after `srand(seed)` (the default `TYPE_3` generator:
/// an additive lagged Fibonacci generator over 31 words seeded by a
/// multiplicative congruential one, its first 310 outputs discarded), so
/// the reference draws the program's numbers.
pub struct GlibcRand {
    ring: [u32; 34],
    next: usize,
}

impl GlibcRand {
    /// The state after `srand(seed)`.
    pub fn new(seed: u32) -> GlibcRand {
        let mut ring = [0u32; 34];
        let mut word = if seed == 0 {
            1i64
        } else {
            i64::from(seed as i32)
        };
        ring[0] = word as u32;
        for slot in ring.iter_mut().take(31).skip(1) {
            // 16807 * word mod (2^31 - 1), by Schrage's method as glibc does.
            let (hi, lo) = (word / 127_773, word % 127_773);
            word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            *slot = word as u32;
        }
        for i in 31..34 {
            ring[i] = ring[i - 31];
        }
        let mut r = GlibcRand { ring, next: 34 };
        for _ in 0..310 {
            r.step();
        }
        r
    }

    fn step(&mut self) -> u32 {
        let n = self.next;
        let v = self.ring[(n - 31) % 34].wrapping_add(self.ring[(n - 3) % 34]);
        self.ring[n % 34] = v;
        self.next += 1;
        v
    }

    /// The next `rand()`: 0 to `RAND_MAX` (2^31 - 1).
    pub fn rand(&mut self) -> u32 {
        self.step() >> 1
    }

    /// `(float) rand() / RAND_MAX`, in float as C evaluates it.
    pub fn unit(&mut self) -> f32 {
        self.rand() as f32 / 2_147_483_647i32 as f32
    }
}

/// The network `bpnn_train_cuda` starts from (one output unit).
#[derive(Clone, Debug)]
pub struct Net {
    /// Input units 0 to N (unit 0 unused by the kernels).
    pub input: Vec<f32>,
    /// Input->hidden weights, `(N+1) x 17`, row k for input k.
    pub weights: Vec<f32>,
    /// Hidden->output weights, `17 x 2`.
    pub hidden_weights: Vec<f32>,
    /// The target of output 1.
    pub target: f32,
}

impl Net {
    /// The number of inputs N.
    pub fn inputs(&self) -> usize {
        self.input.len() - 1
    }
}

/// The network Rodinia's backprop builds for `./backprop n`.
pub fn rodinia_net(n: usize, seed: u32) -> Net {
    let mut r = GlibcRand::new(seed);
    let weights: Vec<f32> = (0..(n + 1) * (HIDDEN + 1)).map(|_| r.unit()).collect();
    let hidden_weights: Vec<f32> = (0..(HIDDEN + 1) * 2).map(|_| r.unit()).collect();
    let mut input = vec![0.0f32; n + 1];
    for x in input.iter_mut().skip(1) {
        *x = r.unit();
    }
    Net {
        input,
        weights,
        hidden_weights,
        target: 0.1,
    }
}

/// A closed interval holding the value a float computation may give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iv {
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Iv {
    fn point(v: f64) -> Iv {
        Iv { lo: v, hi: v }
    }
    /// Widened by `e` on each side.
    fn widen(self, e: f64) -> Iv {
        Iv {
            lo: self.lo - e,
            hi: self.hi + e,
        }
    }
    /// Widened by `k` float roundings of the largest magnitude in it.
    fn round(self, k: f64) -> Iv {
        self.widen(k * U * self.mag())
    }
    fn mag(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }
    fn add(self, o: Iv) -> Iv {
        Iv {
            lo: self.lo + o.lo,
            hi: self.hi + o.hi,
        }
    }
    fn mul(self, o: Iv) -> Iv {
        let p = [
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        ];
        Iv {
            lo: p.iter().copied().fold(f64::INFINITY, f64::min),
            hi: p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
    /// The sigmoid `1 / (1 + exp(-x))` (increasing), rounded to float.
    fn squash(self) -> Iv {
        let s = |x: f64| 1.0 / (1.0 + (-x).exp());
        Iv {
            lo: s(self.lo),
            hi: s(self.hi),
        }
        .round(4.0)
    }
    /// Holds `v`.
    pub fn holds(self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }
}

/// A float sum of `terms` (any order) as an interval: the exact sum
/// widened by `(n+1) u` times the sum of the magnitudes (each term's own
/// interval included).
fn float_sum(terms: &[Iv]) -> Iv {
    let exact = terms.iter().fold(Iv::point(0.0), |a, &t| a.add(t));
    let mags: f64 = terms.iter().map(|t| t.mag()).sum();
    exact.widen((terms.len() as f64 + 1.0) * U * mags)
}

/// What the program copies back, as intervals: the partial sums
/// (`N/16 x 16`) and the trained weights (`(N+1) x 17`).
#[derive(Clone, Debug)]
pub struct Expected {
    /// Block b, hidden unit j+1 at `b * 16 + j`.
    pub partials: Vec<Iv>,
    /// The input->hidden weights after the step.
    pub weights: Vec<Iv>,
}

/// The reference training step of `bpnn_train_cuda` on `net`.
pub fn expected(net: &Net) -> Expected {
    let n = net.inputs();
    let blocks = n / HIDDEN;
    let w = |k: usize, j: usize| f64::from(net.weights[k * (HIDDEN + 1) + j]);
    let x = |k: usize| f64::from(net.input[k]);
    // Products of two floats are exact in f64.
    let product = |k: usize, j: usize| Iv::point(w(k, j) * x(k));
    let mut partials = Vec::with_capacity(blocks * HIDDEN);
    for b in 0..blocks {
        for j in 1..=HIDDEN {
            let terms: Vec<Iv> = (0..16)
                .map(|t| product(HIDDEN * b + t + 1, j).round(1.0))
                .collect();
            partials.push(float_sum(&terms));
        }
    }
    // Hidden units: the host sums the blocks' partial sums and the bias.
    let mut hidden = vec![Iv::point(1.0); HIDDEN + 1];
    for (j, h) in hidden.iter_mut().enumerate().skip(1) {
        let mut terms: Vec<Iv> = (0..blocks).map(|b| partials[b * HIDDEN + j - 1]).collect();
        terms.push(Iv::point(w(0, j)));
        *h = float_sum(&terms).squash();
    }
    // The output layer (one unit), its delta, the hidden deltas.
    let who = |j: usize, k: usize| Iv::point(f64::from(net.hidden_weights[j * 2 + k]));
    let terms: Vec<Iv> = (0..=HIDDEN)
        .map(|j| who(j, 1).mul(hidden[j]).round(1.0))
        .collect();
    let o = float_sum(&terms).squash();
    let one = Iv::point(1.0);
    let minus = |a: Iv, b: Iv| Iv {
        lo: a.lo - b.hi,
        hi: a.hi - b.lo,
    };
    let t_minus_o = minus(Iv::point(f64::from(net.target)), o).round(1.0);
    let delta_o = o.mul(minus(one, o)).mul(t_minus_o).round(2.0);
    let delta_h: Vec<Iv> = (0..=HIDDEN)
        .map(|j| {
            if j == 0 {
                return Iv::point(0.0);
            }
            let sum = delta_o.mul(who(j, 1)).round(1.0);
            hidden[j].mul(minus(one, hidden[j])).mul(sum).round(2.0)
        })
        .collect();
    // The adjust kernel: in double, one rounding to float at the store.
    let mut weights = Vec::with_capacity((n + 1) * (HIDDEN + 1));
    for k in 0..=n {
        let input = if k == 0 { 1.0 } else { x(k) };
        for (j, d) in delta_h.iter().enumerate() {
            let w0 = Iv::point(w(k, j));
            weights.push(if j == 0 {
                w0
            } else {
                w0.add(d.mul(Iv::point(ETA * input))).round(2.0)
            });
        }
    }
    Expected { partials, weights }
}

/// Splits the record the preload library writes: per device-to-host copy,
/// its byte count (8 bytes, little-endian) and the bytes.
pub fn parse_copies(bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let Some((head, tail)) = rest.split_first_chunk::<8>() else {
            return Err(format!(
                "the copy record ends inside a header ({} bytes)",
                rest.len()
            ));
        };
        let len = usize::try_from(u64::from_le_bytes(*head)).unwrap_or(usize::MAX);
        if tail.len() < len {
            return Err(format!(
                "the copy record ends inside a copy ({len} bytes announced, {} there)",
                tail.len()
            ));
        }
        out.push(tail[..len].to_vec());
        rest = &tail[len..];
    }
    Ok(out)
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Checks the device-to-host copies of `./backprop N` against the
/// reference step on `net`; `Ok` says what was checked.
pub fn check(net: &Net, copies: &[Vec<u8>]) -> Result<String, String> {
    let n = net.inputs();
    let blocks = n / HIDDEN;
    let sizes = [blocks * HIDDEN, n + 1, (n + 1) * (HIDDEN + 1)];
    let got: Vec<usize> = copies.iter().map(|c| c.len()).collect();
    if got != sizes.map(|s| s * 4) {
        return Err(format!(
            "expected 3 device-to-host copies of {:?} bytes (partial sums, inputs, weights), got {got:?}",
            sizes.map(|s| s * 4)
        ));
    }
    let exp = expected(net);
    let partials = floats(&copies[0]);
    compare("partial sum", &partials, &exp.partials, |i| {
        format!("block {}, hidden unit {}", i / HIDDEN, i % HIDDEN + 1)
    })?;
    let inputs = floats(&copies[1]);
    if let Some(k) = (1..=n).find(|&k| inputs[k].to_bits() != net.input[k].to_bits()) {
        return Err(format!(
            "input {k} came back as {} instead of {}",
            inputs[k], net.input[k]
        ));
    }
    let weights = floats(&copies[2]);
    compare("input->hidden weight", &weights, &exp.weights, |i| {
        format!("[{}][{}]", i / (HIDDEN + 1), i % (HIDDEN + 1))
    })?;
    let moved = weights
        .iter()
        .zip(&net.weights)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    Ok(format!(
        "{} partial sums and {} trained weights ({moved} changed by the step) within float rounding of the reference",
        partials.len(),
        weights.len()
    ))
}

/// Every value of `got` in its interval; else the first outside and how
/// many are.
fn compare(
    what: &str,
    got: &[f32],
    want: &[Iv],
    name: impl Fn(usize) -> String,
) -> Result<(), String> {
    let bad: Vec<usize> = (0..got.len())
        .filter(|&i| !want[i].holds(f64::from(got[i])))
        .collect();
    match bad.first() {
        None => Ok(()),
        Some(&i) => Err(format!(
            "{what} {} is {} (reference {:.9e}, allowed [{:.9e}, {:.9e}]); {} of {} outside",
            name(i),
            got[i],
            0.5 * (want[i].lo + want[i].hi),
            want[i].lo,
            want[i].hi,
            bad.len(),
            got.len()
        )),
    }
}

/// `./backprop N`'s N.
pub fn layer_size(command: &str) -> Result<usize, String> {
    let words = super::runfile::words(command);
    let n: usize = words
        .get(1)
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| format!("no input count in `{command}`"))?;
    if n == 0 || n % HIDDEN != 0 {
        return Err(format!(
            "`{command}`: the input count must be a positive multiple of 16"
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// The program's step in its own float arithmetic: the kernels' 16-row
    /// trees, the host's loops in their order, doubles where C promotes.
    fn simulate(net: &Net) -> Vec<Vec<u8>> {
        let n = net.inputs();
        let blocks = n / HIDDEN;
        let w = |k: usize, j: usize| net.weights[k * (HIDDEN + 1) + j];
        let mut partials = vec![0.0f32; blocks * HIDDEN];
        for b in 0..blocks {
            let mut m = [[0.0f32; 16]; 16];
            for (ty, row) in m.iter_mut().enumerate() {
                let k = HIDDEN * b + ty + 1;
                for (tx, v) in row.iter_mut().enumerate() {
                    *v = w(k, tx + 1) * net.input[k];
                }
            }
            for i in 1..=4 {
                let p = 1 << i;
                for ty in (0..16).step_by(p) {
                    let below = m[ty + p / 2];
                    for (v, b) in m[ty].iter_mut().zip(below) {
                        *v += b;
                    }
                }
            }
            partials[b * HIDDEN..(b + 1) * HIDDEN].copy_from_slice(&m[0]);
        }
        let squash = |s: f32| (1.0 / (1.0 + (-f64::from(s)).exp())) as f32;
        let mut hidden = [1.0f32; HIDDEN + 1];
        for (j, h) in hidden.iter_mut().enumerate().skip(1) {
            let mut s = 0.0f32;
            for b in 0..blocks {
                s += partials[b * HIDDEN + j - 1];
            }
            s += w(0, j);
            *h = squash(s);
        }
        let who = |j: usize| net.hidden_weights[j * 2 + 1];
        let mut s = 0.0f32;
        for (j, h) in hidden.iter().enumerate() {
            s += who(j) * h;
        }
        let o = squash(s);
        let delta_o = (f64::from(o) * (1.0 - f64::from(o)) * f64::from(net.target - o)) as f32;
        let mut weights = net.weights.clone();
        for (j, &h) in hidden.iter().enumerate().skip(1) {
            let h = f64::from(h);
            let d = (h * (1.0 - h) * f64::from(delta_o * who(j))) as f32;
            for k in 0..=n {
                let x = if k == 0 { 1.0 } else { f64::from(net.input[k]) };
                let i = k * (HIDDEN + 1) + j;
                weights[i] = (f64::from(weights[i]) + ETA * f64::from(d) * x + ETA * 0.0) as f32;
            }
        }
        let bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        vec![bytes(&partials), bytes(&net.input), bytes(&weights)]
    }

    /// A network far from saturation, so the step moves every weight.
    fn lively_net(n: usize) -> Net {
        let mut r = GlibcRand::new(3);
        let mut net = rodinia_net(n, 3);
        for w in &mut net.weights {
            *w = (r.unit() - 0.5) * 0.2;
        }
        for w in &mut net.hidden_weights {
            *w = r.unit() * 2.0 - 1.0;
        }
        net
    }

    fn set_float(copy: &mut [u8], i: usize, f: impl Fn(f32) -> f32) {
        let old = f32::from_le_bytes([
            copy[4 * i],
            copy[4 * i + 1],
            copy[4 * i + 2],
            copy[4 * i + 3],
        ]);
        copy[4 * i..4 * i + 4].copy_from_slice(&f(old).to_le_bytes());
    }

    #[test]
    fn glibc_rand_matches_the_c_library() {
        let dir = std::env::temp_dir().join(format!("rodinia-rand-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let src = dir.join("rand.c");
        std::fs::write(
            &src,
            "#include <stdio.h>\n#include <stdlib.h>\n\
             int main(void) { unsigned s[] = {7, 1, 0, 12345, 4000000000u};\n\
             for (int i = 0; i < 5; i++) { srand(s[i]);\n\
             for (int j = 0; j < 1000; j++) printf(\"%d\\n\", rand()); }\n\
             return 0; }\n",
        )
        .expect("write");
        let exe = dir.join("rand");
        assert!(Command::new("cc")
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("cc")
            .success());
        let out = Command::new(&exe).output().expect("run");
        let c: Vec<u32> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.parse().expect("number"))
            .collect();
        let mut ours = Vec::new();
        for seed in [7u32, 1, 0, 12345, 4_000_000_000] {
            let mut r = GlibcRand::new(seed);
            ours.extend((0..1000).map(|_| r.rand()));
        }
        assert_eq!(c, ours);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_programs_network() {
        let net = rodinia_net(32, SEED);
        assert_eq!(net.inputs(), 32);
        assert_eq!(net.weights.len(), 33 * 17);
        assert_eq!(net.hidden_weights.len(), 34);
        assert_eq!(net.target, 0.1f32);
        let mut r = GlibcRand::new(SEED);
        assert_eq!(net.weights[0], r.rand() as f32 / 2_147_483_648.0);
        // Inputs come after both weight arrays.
        let mut r = GlibcRand::new(SEED);
        for _ in 0..33 * 17 + 34 {
            r.rand();
        }
        assert_eq!(net.input[1], r.unit());
        assert!(net
            .weights
            .iter()
            .chain(&net.input)
            .all(|v| (0.0..=1.0).contains(v)));
    }

    #[test]
    fn the_programs_arithmetic_passes() {
        for net in [
            rodinia_net(16, SEED),
            rodinia_net(4096, SEED),
            lively_net(16),
            lively_net(1024),
        ] {
            let copies = simulate(&net);
            let ok = check(&net, &copies).expect("within the bounds");
            assert!(ok.contains("trained weights"), "{ok}");
        }
    }

    #[test]
    fn the_run_lines_size_saturates_and_keeps_the_weights() {
        let net = rodinia_net(65536, SEED);
        let copies = simulate(&net);
        let ok = check(&net, &copies).expect("within the bounds");
        assert!(ok.contains("(0 changed"), "{ok}");
        // The weights' intervals are a float rounding or two wide.
        let exp = expected(&net);
        for (iv, w) in exp.weights.iter().zip(&net.weights) {
            assert!(iv.holds(f64::from(*w)));
            assert!(iv.hi - iv.lo <= 8.0 * U * f64::from(*w) + 1e-10);
        }
    }

    #[test]
    fn wrong_results_fail() {
        let net = lively_net(1024);
        let good = simulate(&net);
        // The step not taken: the weights as drawn.
        let mut bad = good.clone();
        bad[2] = net.weights.iter().flat_map(|f| f.to_le_bytes()).collect();
        let e = check(&net, &bad).expect_err("stale weights");
        assert!(e.contains("input->hidden weight"), "{e}");
        // One weight's update a fifth too large (the bounds are within
        // 7% of every update here).
        let mut bad = good.clone();
        let i = 500 * 17 + 3;
        let w0 = net.weights[i];
        assert!((floats(&good[2])[i] - w0).abs() > 1e-5);
        set_float(&mut bad[2], i, |w| w0 + 1.2 * (w - w0));
        let e = check(&net, &bad).expect_err("one weight off");
        assert!(e.contains("[500][3]") && e.contains("1 of"), "{e}");
        // Column 0 must come back untouched.
        let mut bad = good.clone();
        set_float(&mut bad[2], 17 * 9, |w| w + 1e-3);
        assert!(check(&net, &bad).is_err());
        // The update with the wrong sign.
        let mut bad = good.clone();
        for k in 0..=1024 {
            for j in 1..=16 {
                let i = k * 17 + j;
                let w0 = net.weights[i];
                set_float(&mut bad[2], i, |w| 2.0 * w0 - w);
            }
        }
        assert!(check(&net, &bad).is_err());
        // A partial sum, an input, the copies' shape.
        let mut bad = good.clone();
        set_float(&mut bad[0], 37, |p| p * 1.001);
        let e = check(&net, &bad).expect_err("partial sum");
        assert!(e.contains("partial sum block 2, hidden unit 6"), "{e}");
        let mut bad = good.clone();
        set_float(&mut bad[1], 7, |x| x + 0.5);
        assert!(check(&net, &bad).expect_err("input").contains("input 7"));
        assert!(check(&net, &good[..2])
            .expect_err("two copies")
            .contains("expected 3"));
        // At the run line's size wrong weights fail too.
        let net = rodinia_net(65536, SEED);
        let mut bad = simulate(&net);
        set_float(&mut bad[2], 65536 * 17 + 16, |w| w + 1e-4);
        assert!(check(&net, &bad).is_err());
    }

    #[test]
    fn copy_records() {
        let mut rec = Vec::new();
        for c in [&b"abcd"[..], &b""[..], &b"12345678"[..]] {
            rec.extend((c.len() as u64).to_le_bytes());
            rec.extend(c);
        }
        let copies = parse_copies(&rec).expect("parse");
        assert_eq!(copies, vec![b"abcd".to_vec(), vec![], b"12345678".to_vec()]);
        assert!(parse_copies(&rec[..rec.len() - 1]).is_err());
        assert!(parse_copies(&rec[..3]).is_err());
        assert_eq!(parse_copies(&[]).expect("empty"), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn layer_sizes() {
        assert_eq!(layer_size("./backprop 65536").expect("n"), 65536);
        assert!(layer_size("./backprop 65537").is_err());
        assert!(layer_size("./backprop").is_err());
        assert!(layer_size("./backprop x").is_err());
    }
}
