//! Robustness: truncations and byte-level mutations of real PTX (nvcc's
//! output for the test programs) never panic the PTX frontend; it either
//! lowers them or returns an error. Deterministic and fast; the cargo-fuzz
//! target `fuzz/fuzz_targets/ptx_parse.rs` explores further.

use std::path::Path;

fn sample(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/ptx")
        .join(name);
    std::fs::read_to_string(p).expect("PTX test data")
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn must_not_panic(text: &str) {
    let r = std::panic::catch_unwind(|| {
        if let Ok(m) = cucc_frontend::ptx::lower_ptx(text, "m.ptx") {
            // Whatever lowers must also verify or be rejected cleanly.
            let _ = cucc_ir::verify_module(&m);
        }
    });
    if r.is_err() {
        panic!("the PTX frontend panicked on:\n{text}");
    }
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ";",
    ",",
    "@",
    "!",
    "%r1",
    "%p1",
    "$L__BB0_1",
    "bra",
    "ret;",
    ".reg",
    ".param",
    ".shared",
    "0f3F800000",
    "-",
    "+",
    "|",
    "<",
    ">",
    "=",
    "0x",
    "_",
    "call",
    ".entry",
    ".func",
    "ld.global.v4.f32",
    "st.shared.u32",
    "\"",
    "/*",
    "bar.sync",
    "setp.lt.s32",
];

#[test]
fn truncations_and_mutations_never_panic() {
    let files = [
        "reduction.ptx",
        "printf_assert_clock.ptx",
        "warp_shuffle.ptx",
        "math_double.ptx",
        "structs_classes.ptx",
        "atomics_int.ptx",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for f in files {
        let text = sample(f);
        let chars: Vec<char> = text.chars().collect();
        // Truncations at many points.
        let step = (chars.len() / 60).max(1);
        for cut in (0..chars.len()).step_by(step) {
            must_not_panic(&chars[..cut].iter().collect::<String>());
        }
        // Token insertions, deletions and replacements (`PTX_MUTATIONS`
        // raises the count for a longer local run).
        let rounds = std::env::var("PTX_MUTATIONS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(120usize);
        for _ in 0..rounds {
            let mut s = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(s.len());
                match rng.below(3) {
                    0 => {
                        let tok: Vec<char> = TOKENS[rng.below(TOKENS.len())].chars().collect();
                        s.splice(at..at, tok);
                    }
                    1 => {
                        let end = (at + 1 + rng.below(12)).min(s.len());
                        s.drain(at..end);
                    }
                    _ => {
                        if at < s.len() {
                            s[at] = char::from(b" %.;{}[]0a-@\n"[rng.below(13)]);
                        }
                    }
                }
            }
            must_not_panic(&s.iter().collect::<String>());
        }
    }
}
