//! The standard RV32IMAFD encodings checked against an independent
//! assembler: LLVM's `llvm-mc-16` (Debian package `llvm-16`, installed by
//! `scripts/setup.sh`) assembles the printed form of random instances of
//! every standard instruction form, and its words must equal this crate's
//! encoding (and decode back to the same instruction). Snitch's custom
//! instructions are not in upstream LLVM; `encode.rs` checks them against
//! published words.

use std::io::Write;
use std::process::{Command, Stdio};

use super::{decode, encode};
use crate::testgen::{every_form, Forms, Rng};

const LLVM_MC: &str = "llvm-mc-16";

fn llvm_mc_available() -> bool {
    Command::new(LLVM_MC)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Parses `# encoding: [0x13,0x05,0x15,0x00]` into a little-endian word.
fn encoding_word(line: &str) -> Option<u32> {
    let start = line.find("encoding: [")? + "encoding: [".len();
    let end = start + line[start..].find(']')?;
    let bytes: Vec<u8> = line[start..end]
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16))
        .collect::<Result<_, _>>()
        .ok()?;
    let arr: [u8; 4] = bytes.try_into().ok()?;
    Some(u32::from_le_bytes(arr))
}

#[test]
fn standard_encodings_match_llvm_mc() {
    if !llvm_mc_available() {
        eprintln!("skipped: {LLVM_MC} is not installed (Debian package llvm-16; scripts/setup.sh installs it)");
        return;
    }
    let mut rng = Rng(0x5eed);
    let mut insts = Vec::new();
    for _ in 0..100 {
        insts.extend(every_form(&mut rng, Forms::Standard));
    }
    let text: String = insts.iter().map(|i| format!("{i}\n")).collect();
    let mut child = Command::new(LLVM_MC)
        .args([
            "-triple=riscv32",
            "-mattr=+m,+a,+f,+d",
            "-show-encoding",
            "-riscv-no-aliases",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc-16 starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(text.as_bytes())
        .expect("write to llvm-mc");
    let out = child.wait_with_output().expect("llvm-mc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "llvm-mc rejected the printed text:\n{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let words: Vec<u32> = stdout.lines().filter_map(encoding_word).collect();
    assert_eq!(words.len(), insts.len(), "one encoding per instruction");
    let mut forms = std::collections::BTreeSet::new();
    for (inst, llvm) in insts.iter().zip(&words) {
        forms.insert(inst.mnemonic());
        assert_eq!(
            encode(inst),
            Ok(*llvm),
            "`{inst}`: llvm-mc gives {llvm:#010x}"
        );
        assert_eq!(
            decode(*llvm),
            Ok(*inst),
            "decoding llvm-mc's {llvm:#010x} for `{inst}`"
        );
    }
    eprintln!(
        "llvm-mc agreed on {} instructions of {} mnemonics",
        insts.len(),
        forms.len()
    );
}
