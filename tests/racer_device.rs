//! The simulated RACER array processor as a CUDA device:
//! `tests/racer/racer_device.cu` (Mandelbrot and 100 Game of Life
//! generations on the CPU device and the RACER device, compared bit for
//! bit; events in simulated time; a rejected atomic) built by `cucc` and
//! run with the RACER device listed in several ways, `cucc --racer-dump`
//! on the same file, and the nvcc-built program under `cucc run` (the
//! kernels lowered from PTX).

#[allow(dead_code)]
mod common;
use common::{
    cucc_device_program, device_source, fresh_dir, nvcc_device_program, run_with_devices, text,
};
use std::path::PathBuf;
use std::process::{Command, Output};

/// Both devices listed, with the profile the checks read.
const PROFILED: [(&str, &str); 2] = [("CUCC_DEVICES", "cpu,racer"), ("CUCC_PROFILE", "1")];

fn source() -> PathBuf {
    device_source("racer")
}

/// The profile row of `kernel` in the RACER table, split in fields.
fn racer_row(stderr: &str, kernel: &str) -> Vec<String> {
    stderr
        .lines()
        .skip_while(|l| !l.starts_with("==cucc profile== RACER kernels"))
        .skip(2)
        .take_while(|l| !l.starts_with("==cucc profile=="))
        .find(|l| l.contains(kernel))
        .unwrap_or_else(|| panic!("no RACER profile row for {kernel}:\n{stderr}"))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// What a run with `CUCC_DEVICES=cpu,racer CUCC_PROFILE=1` must show;
/// `diag_file` is where the rejected kernel's diagnostic points.
fn check_run(out: &Output, diag_file: &str) {
    let all = text(out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{all}");
    assert!(stdout.contains("PASS racer_device"), "{all}");
    assert!(
        stdout.contains("Mandelbrot: RACER matches the CPU"),
        "{all}"
    );
    assert!(stdout.contains("Life: RACER matches the CPU"), "{all}");
    assert!(
        stdout
            .contains("device 1: RACER array processor (32x32 PEs, simulated), 64 blocks, 700 MHz"),
        "{all}"
    );
    // The rejected launch: the kernel, and the lowering's diagnostic with
    // file, line and construct.
    assert!(
        stderr
            .contains("kernel `count_alive(int const*, int*, int)` cannot run on the RACER array"),
        "{all}"
    );
    let diag = stderr
        .lines()
        .find(|l| l.contains(": error: ") && l.contains("count_alive"))
        .unwrap_or_else(|| panic!("no diagnostic:\n{all}"));
    assert!(diag.contains(diag_file), "{diag}");
    assert!(diag.to_lowercase().contains("atomic"), "{diag}");
    // Profile: time, launches, cycles, elements in, elements out,
    // replicas, PE%, route%.
    let m = racer_row(&stderr, "mandelbrot");
    assert_eq!(m[1], "1", "{m:?}");
    assert_eq!(m[4], "3072", "{m:?}"); // one count per pixel
    assert_eq!(m[5], "64.0", "{m:?}");
    let cycles: u64 = m[2].parse().unwrap_or(0);
    let us: f64 = m[0].parse().unwrap_or(0.0);
    assert!(
        cycles > 0 && (us - cycles as f64 / 700.0).abs() < 0.01,
        "{m:?}"
    );
    let l = racer_row(&stderr, "life");
    assert_eq!(l[1], "100", "{l:?}");
    // Every thread's cell, border columns included (written as 0).
    assert_eq!(l[4], (100 * (16 * 26 - 2)).to_string(), "{l:?}");
    let pe: f64 = l[6].parse().unwrap_or(-1.0);
    assert!(pe > 0.0 && pe <= 100.0, "{l:?}");
}
#[test]
fn cucc_built_program_matches_the_cpu_on_the_racer_device() {
    let (exe, cache) = cucc_device_program("racer", "cucc");
    let out = run_with_devices(&exe, false, &cache, &PROFILED);
    check_run(&out, "racer_device.cu:54:");
}

/// `CUCC_DEVICE=racer` makes it device 0; with the Snitch device listed
/// too the program still finds both of its devices by name.
#[test]
fn racer_device_listed_first_or_next_to_snitch() {
    let (exe, cache) = cucc_device_program("racer", "order");
    let first = run_with_devices(&exe, false, &cache, &[("CUCC_DEVICE", "racer")]);
    assert!(first.status.success(), "{}", text(&first));
    assert!(
        String::from_utf8_lossy(&first.stdout).contains("device 0: RACER"),
        "{}",
        text(&first)
    );
    let three = run_with_devices(&exe, false, &cache, &[("CUCC_DEVICES", "snitch,cpu,racer")]);
    assert!(three.status.success(), "{}", text(&three));
    assert!(
        String::from_utf8_lossy(&three.stdout).contains("device 2: RACER"),
        "{}",
        text(&three)
    );
    // Not listed: the program says so and fails.
    let alone = run_with_devices(&exe, false, &cache, &[]);
    assert_eq!(alone.status.code(), Some(1), "{}", text(&alone));
}

#[test]
fn racer_dump_writes_text_and_svg_per_kernel() {
    let dir = fresh_dir("racer", "dump");
    let out = Command::new(env!("CARGO_BIN_EXE_cucc"))
        .arg(format!("--racer-dump={}", dir.join("d").display()))
        .args(["--racer-launch=48,64", "--racer-arg=5=64"])
        .arg(source())
        .output()
        .expect("run cucc");
    // count_alive is rejected: its diagnostic, a failing status, and the
    // other kernels' dumps.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("racer_device.cu:54:"),
        "{}",
        text(&out)
    );
    for k in ["mandelbrot", "life"] {
        let t = std::fs::read_to_string(dir.join(format!("d/racer_device.{k}.racer.txt")))
            .unwrap_or_else(|e| panic!("{k}: {e}"));
        assert!(t.contains(" of a 32x32 array"), "{t}");
        assert!(t.contains("(0,0)"), "{t}");
        let svg = std::fs::read_to_string(dir.join(format!("d/racer_device.{k}.racer.svg")))
            .unwrap_or_else(|e| panic!("{k}: {e}"));
        assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{k}");
    }
    let t = std::fs::read_to_string(dir.join("d/racer_device.mandelbrot.racer.txt"))
        .unwrap_or_default();
    assert!(t.contains("launch 48 x 64, 64 replicas"), "{t}");
    assert!(t.contains("merge/5") && t.contains("split/5"), "{t}");
}

/// The nvcc-built program under `cucc run`: the kernels come from PTX
/// (fused multiply-adds, an unsigned loop compare, byte addresses on `u64`
/// parameters, an inverted bounds guard, a re-associated neighbour sum)
/// and match the CPU device bit for bit.
#[test]
fn nvcc_built_program_matches_the_cpu_on_the_racer_device() {
    let Some((exe, cache)) = nvcc_device_program("racer") else {
        return;
    };
    let out = run_with_devices(&exe, true, &cache, &PROFILED);
    check_run(&out, "racer_device.ptx:");
}
