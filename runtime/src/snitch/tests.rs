//! The device's launch path short of the CUDA entry points: compiled
//! programs run on the cores over one TCDM.

use super::kernels::{compile, Compiled, Key};
use super::*;
use crate::kernel_ir::Source;

fn key(grid: u32, block: u32, n: i32, cores: u32) -> Key {
    let mut known_ints = [None; 8];
    known_ints[3] = Some(n);
    Key {
        module: [3; 16],
        kernel: "scale".into(),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        known_ints,
        noalias: vec![true, true, false, false],
        cores,
        dynamic_shared: 0,
    }
}

/// Runs `y = a·x + y` over `n` of `grid·block` elements and returns y and
/// the counters.
fn axpy(grid: u32, block: u32, n: usize, cores: u32) -> (Vec<f64>, LaunchCounters) {
    let c = compile(
        &key(grid, block, n as i32, cores),
        &Source::Ir(crate::test_kernels::scale()),
    );
    let c: &Compiled = c.as_ref().as_ref().unwrap_or_else(|e| panic!("{e}"));
    let total = (grid * block) as usize;
    let params = model();
    let mut tcdm = cucc_snitch::sim::Tcdm::new(params.tcdm_base, params.tcdm_size);
    let x: Vec<f64> = (0..total).map(|i| 0.5 + i as f64).collect();
    let y: Vec<f64> = (0..total).map(|i| 3.0 - 0.25 * i as f64).collect();
    let (xa, ya) = (params.tcdm_base, params.tcdm_base + 8 * total as u32);
    tcdm.write_f64s(xa, &x).expect("fits");
    tcdm.write_f64s(ya, &y).expect("fits");
    let a = 1.5f64.to_bits();
    let words = [xa, ya, a as u32, (a >> 32) as u32, n as u32];
    let counters = run_cores(c, &mut tcdm, &words).unwrap_or_else(|e| panic!("{e:?}"));
    (tcdm.read_f64s(ya, total).expect("in bounds"), counters)
}

/// The blocks dealt out to eight cores give what one core computes alone
/// (and what the host computes with a fused multiply-add), faster.
#[test]
fn eight_cores_compute_what_one_core_computes() {
    let (one, c1) = axpy(16, 32, 500, 1);
    let (eight, c8) = axpy(16, 32, 500, CORES);
    assert_eq!(one, eight);
    for (i, v) in one.iter().enumerate() {
        let want = if i < 500 {
            (0.5 + i as f64).mul_add(1.5, 3.0 - 0.25 * i as f64)
        } else {
            3.0 - 0.25 * i as f64
        };
        assert_eq!(*v, want, "element {i}");
    }
    assert_eq!(c1.cores, 1);
    assert_eq!(c8.cores, 8);
    assert!(c8.cycles < c1.cycles, "{c8:?} vs {c1:?}");
    assert!(c8.core_cycles >= c8.cycles);
    assert!(c8.fpu_issues >= 500);
}

/// Fewer blocks than cores: only those cores run.
#[test]
fn cores_beyond_the_grid_stay_idle() {
    let (one, _) = axpy(3, 16, 48, 1);
    let (eight, c) = axpy(3, 16, 48, CORES);
    assert_eq!(one, eight);
    assert_eq!(c.cores, 3);
}

#[test]
fn properties_describe_the_cluster() {
    crate::sim_device::assert_properties(
        properties(),
        "Snitch cluster (8 cores, simulated)",
        8,
        1_000_000,
        128 * 1024,
    );
}

#[test]
fn sign_extension_of_narrow_integers() {
    assert_eq!(sign_extend(0xffff_ffff, 32), -1);
    assert_eq!(sign_extend(0x7fff_ffff, 32), i32::MAX as i64);
    assert_eq!(sign_extend(0xff, 8), -1);
    assert_eq!(sign_extend(u64::MAX, 64), -1);
}

#[test]
fn the_clock_advances_in_model_time() {
    let before = clock_ns();
    CYCLES.fetch_add(2000, Ordering::AcqRel);
    // 1 GHz: a cycle is a nanosecond.
    assert!(clock_ns() >= before + 2000);
}

/// Each block of 32 reverses its slice through shared memory: a static
/// `__shared__` array, or (`dynamic`) the launch's dynamic shared memory.
fn reverse_source(dynamic: bool) -> String {
    let tile = if dynamic {
        "%t = shared.dynamic : ptr<shared>"
    } else {
        "%t = global.addr @tile : ptr<shared>"
    };
    format!(
        r#"file "rev.cu"

global @tile : [32 x f64] shared

kernel @rev(%x: ptr<global>, %y: ptr<global>) loc(0:1:1) {{
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %c32 = const 32 : i32
  %c31 = const 31 : i32
  %b0 = mul %bx, %c32 : i32
  %i = add %b0, %tx : i32
  %xp = ptr.index f64 %x, %i : ptr<global>
  %v = load %xp : f64
  {tile}
  %tp = ptr.index f64 %t, %tx : ptr<shared>
  store %tp, %v
  barrier block
  %r = sub %c31, %tx : i32
  %tq = ptr.index f64 %t, %r : ptr<shared>
  %w = load %tq : f64
  %yp = ptr.index f64 %y, %i : ptr<global>
  store %yp, %w
  return
}}
"#
    )
}

/// Shared memory on eight cores: each core's region lies below the
/// previous one's, under the stacks, and the blocks compute what the host
/// does.
#[test]
fn shared_memory_gets_a_region_per_core() {
    for dynamic in [false, true] {
        let blocks = 20u32;
        let key = Key {
            module: [11 + dynamic as u8; 16],
            kernel: "rev".into(),
            grid: [blocks, 1, 1],
            block: [32, 1, 1],
            known_ints: [None; 8],
            noalias: vec![true, true],
            cores: CORES,
            dynamic_shared: if dynamic { 256 } else { 0 },
        };
        let c = compile(&key, &Source::Ir(reverse_source(dynamic)));
        let c: &Compiled = c.as_ref().as_ref().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.local_bytes, 8 * 256);
        let mut regions: Vec<(u32, u32)> = c
            .cores
            .iter()
            .flatten()
            .flat_map(|p| p.program.locals.iter().map(|l| (l.addr, l.bytes)))
            .collect();
        regions.sort_unstable();
        for w in regions.windows(2) {
            assert!(w[0].0 + w[0].1 <= w[1].0, "{regions:?}");
        }
        let last = regions.last().map_or(0, |r| r.0 + r.1);
        assert_eq!(last, kernels::local_top());
        let n = (blocks * 32) as usize;
        let params = model();
        let mut tcdm = cucc_snitch::sim::Tcdm::new(params.tcdm_base, params.tcdm_size);
        let x: Vec<f64> = (0..n).map(|i| 0.5 + i as f64).collect();
        let (xa, ya) = (params.tcdm_base, params.tcdm_base + 8 * n as u32);
        tcdm.write_f64s(xa, &x).expect("fits");
        run_cores(c, &mut tcdm, &[xa, ya]).unwrap_or_else(|e| panic!("{e:?}"));
        let y = tcdm.read_f64s(ya, n).expect("in bounds");
        let want: Vec<f64> = (0..n).map(|i| x[i / 32 * 32 + 31 - i % 32]).collect();
        assert_eq!(y, want, "dynamic: {dynamic}");
    }
}
