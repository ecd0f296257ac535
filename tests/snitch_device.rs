//! The simulated Snitch cluster as a CUDA device: `tests/snitch/snitch_device.cu`
//! (CPU-device and Snitch-device kernels in one program, results compared,
//! events in simulated time, shared-memory kernels, a rejected and an
//! oversized launch) built by
//! `cucc` (kernels compiled for the Snitch from the IR embedded in the
//! object) and by NVIDIA's nvcc run under `cucc run` (kernels compiled
//! for the Snitch from the PTX), each run with `CUCC_DEVICES=cpu,snitch`
//! and `CUCC_PROFILE=1`. Also: without the variable the device is not
//! listed, and an unknown device name is an error naming it.

#[allow(dead_code)]
mod common;
use common::{cucc_device_program, nvcc_device_program, run_with_devices, text};
use std::process::Output;

/// What every build must show with both devices listed.
fn check_mixed_run(out: &Output, diag_file: &str) {
    let all = text(out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{all}");
    assert!(stdout.contains("PASS snitch_device"), "{all}");
    assert!(
        stdout.contains("Snitch cluster (8 cores, simulated), 8 cores, 131072-byte TCDM, 1000 MHz"),
        "{all}"
    );
    // The rejected launch names the kernel and prints the compiler's
    // diagnostic: file, line, construct.
    assert!(
        stderr.contains("count_threads") && stderr.contains("cannot run on the Snitch cluster"),
        "{all}"
    );
    let diag = stderr
        .lines()
        .find(|l| l.contains(": error: ") && l.contains("atomic"))
        .unwrap_or_else(|| panic!("no atomic diagnostic:\n{all}"));
    assert!(diag.contains(diag_file), "{diag}");
    // The oversized launch names the sizes.
    assert!(
        stderr.contains("needs ") && stderr.contains("131072-byte TCDM"),
        "{all}"
    );
    assert!(stderr.contains("(argument 0: 81920 bytes)"), "{all}");
    // Shared memory: the tiled matmul and the dynamic-shared stencil ran
    // (the program compared them with the CPU device's), and eight cores'
    // 16 KiB blocks were rejected naming the shared memory.
    assert!(
        stdout.contains("stencil (512, dynamic) agrees with the CPU device"),
        "{all}"
    );
    assert!(
        stdout.contains("tiled matmul (32x32) agrees with the CPU device"),
        "{all}"
    );
    assert!(
        stdout.contains("tree reduction (8 blocks) agrees with the CPU device"),
        "{all}"
    );
    assert!(
        stdout.contains("8 x 16 KiB of shared memory rejected"),
        "{all}"
    );
    assert!(
        stderr.contains("big_reverse") && stderr.contains("131072 of shared memory"),
        "{all}"
    );
    for kernel in ["matmul_tiled(", "stencil(", "block_sum("] {
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with("snitch") && l.contains(kernel)),
            "no {kernel} profile row:\n{all}"
        );
    }
    // The profile lists the Snitch kernels with their counters.
    assert!(
        stderr.contains("==cucc profile== simulated kernels"),
        "{all}"
    );
    let row = stderr
        .lines()
        .find(|l| l.starts_with("snitch") && l.contains("matmul("))
        .unwrap_or_else(|| panic!("no matmul profile row:\n{all}"));
    let fields: Vec<&str> = row.split_whitespace().collect();
    // Device, time, launches (the run and the two timed ones), cycles,
    // core cycles, FPU issues, occupancy, IPC, cores.
    assert_eq!(fields[2], "3", "{row}");
    let fpu: u64 = fields[5].parse().unwrap_or(0);
    // 8 x 16 outputs of 32 fused multiply-adds, three launches.
    assert!(fpu >= 3 * 8 * 16 * 32, "{row}");
    assert_eq!(fields[8], "8.00", "{row}");
}

#[test]
fn cucc_built_program_mixes_cpu_and_snitch_devices() {
    let (exe, cache) = cucc_device_program("snitch", "cucc");
    let both = [("CUCC_DEVICES", "cpu,snitch"), ("CUCC_PROFILE", "1")];
    check_mixed_run(
        &run_with_devices(&exe, false, &cache, &both),
        "snitch_device.cu:",
    );
    // By default only the CPU is listed: the program says so and fails.
    let alone = run_with_devices(&exe, false, &cache, &[]);
    assert_eq!(alone.status.code(), Some(1), "{}", text(&alone));
    assert!(
        String::from_utf8_lossy(&alone.stdout).contains("1 devices, Snitch at -1"),
        "{}",
        text(&alone)
    );
    // An unknown name: a message naming it, and no device at all.
    let bad = run_with_devices(&exe, false, &cache, &[("CUCC_DEVICE", "gpu")]);
    assert_eq!(bad.status.code(), Some(1), "{}", text(&bad));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("CUCC_DEVICE: unknown device `gpu`"),
        "{}",
        text(&bad)
    );
    assert!(
        String::from_utf8_lossy(&bad.stdout).contains("cudaErrorNoDevice"),
        "{}",
        text(&bad)
    );
}

#[test]
fn nvcc_built_program_mixes_cpu_and_snitch_devices() {
    let Some((exe, cache)) = nvcc_device_program("snitch") else {
        return;
    };
    let both = [("CUCC_DEVICES", "cpu,snitch"), ("CUCC_PROFILE", "1")];
    check_mixed_run(
        &run_with_devices(&exe, true, &cache, &both),
        "snitch_device.ptx:",
    );
}
