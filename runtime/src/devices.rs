//! The device list: which CUDA devices the process sees, in what order, and
//! which one each host thread has current.
//!
//! By default there is one device, the CPU. Programs often pick a device
//! with `rank % count` or loop over all of them, so a simulated accelerator
//! is listed only when asked for: `CUCC_DEVICE=snitch` makes the Snitch
//! cluster device 0 (current by default) with the CPU after it, and
//! `CUCC_DEVICES=cpu,snitch` lists devices in any order. The list is read
//! once; an unknown name is reported on stderr and every device call then
//! fails with `cudaErrorNoDevice` rather than running on a device the user
//! did not ask for. Each kind is a [`DeviceKind`]; a new simulated device
//! adds a variant and a name here and its launch path next to
//! [`crate::snitch`] and [`crate::racer`] (`CUCC_DEVICE=racer`), sharing
//! [`crate::sim_device`].

use std::cell::Cell;
use std::sync::OnceLock;

use crate::errors::{CudaResult, Error};

/// What a device is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceKind {
    /// The host CPU (kernels translated to C and run on the block pool).
    Cpu,
    /// The simulated Snitch cluster (`cucc-snitch`): kernels compiled to
    /// Snitch code and run on its cycle model.
    Snitch,
    /// The simulated RACER array processor (`cucc-racer`): kernels lowered
    /// to stream graphs and run on its handshake simulator.
    Racer,
}

impl DeviceKind {
    /// Every kind, for listing names in messages.
    pub const ALL: [DeviceKind; 3] = [DeviceKind::Cpu, DeviceKind::Snitch, DeviceKind::Racer];

    /// The name `CUCC_DEVICE`/`CUCC_DEVICES` use.
    pub fn name(self) -> &'static str {
        match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Snitch => "snitch",
            DeviceKind::Racer => "racer",
        }
    }

    /// Whether the device's time is simulated (events report model time).
    pub fn simulated(self) -> bool {
        self != DeviceKind::Cpu
    }

    fn from_name(name: &str) -> Option<DeviceKind> {
        DeviceKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

/// The device list from the two variables' values (`CUCC_DEVICES` wins
/// when both are set), or why it cannot be built.
pub fn parse(device: Option<&str>, devices: Option<&str>) -> Result<Vec<DeviceKind>, String> {
    let unknown = |v: &str, what: &str| {
        let known: Vec<&str> = DeviceKind::ALL.iter().map(|k| k.name()).collect();
        format!("{what}: unknown device `{v}` (known: {})", known.join(", "))
    };
    if let Some(list) = devices.filter(|s| !s.trim().is_empty()) {
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim) {
            let kind = DeviceKind::from_name(name).ok_or_else(|| unknown(name, "CUCC_DEVICES"))?;
            if out.contains(&kind) {
                return Err(format!("CUCC_DEVICES: `{name}` is listed twice"));
            }
            out.push(kind);
        }
        return Ok(out);
    }
    match device.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(vec![DeviceKind::Cpu]),
        Some(name) => {
            let kind = DeviceKind::from_name(name).ok_or_else(|| unknown(name, "CUCC_DEVICE"))?;
            let mut out = vec![kind];
            if kind != DeviceKind::Cpu {
                out.push(DeviceKind::Cpu);
            }
            Ok(out)
        }
    }
}

/// The process's device list (read from the environment once).
pub fn list() -> CudaResult<&'static [DeviceKind]> {
    static LIST: OnceLock<Result<Vec<DeviceKind>, String>> = OnceLock::new();
    let list = LIST.get_or_init(|| {
        let var = |n: &str| std::env::var(n).ok();
        let r = parse(
            var("CUCC_DEVICE").as_deref(),
            var("CUCC_DEVICES").as_deref(),
        );
        if let Err(e) = &r {
            eprintln!("cucc runtime: {e}; no device is available");
        }
        r
    });
    list.as_deref().map_err(|_| Error::NoDevice)
}

/// The kind of device `ordinal`.
pub fn kind(ordinal: i32) -> CudaResult<DeviceKind> {
    let list = list()?;
    usize::try_from(ordinal)
        .ok()
        .and_then(|i| list.get(i).copied())
        .ok_or(Error::InvalidDevice)
}

/// Whether any listed device is simulated (then the runtime keeps the
/// kernels' IR, which only those devices compile).
pub fn any_simulated() -> bool {
    list().is_ok_and(|l| l.iter().any(|k| k.simulated()))
}

thread_local! {
    /// The host thread's current device (CUDA's is per thread).
    static CURRENT: Cell<i32> = const { Cell::new(0) };
}

/// The calling thread's current device ordinal.
pub fn current() -> i32 {
    CURRENT.with(Cell::get)
}

/// The calling thread's current device kind.
pub fn current_kind() -> CudaResult<DeviceKind> {
    kind(current())
}

/// Makes `ordinal` the calling thread's current device.
pub fn set_current(ordinal: i32) -> CudaResult {
    kind(ordinal)?;
    CURRENT.with(|c| c.set(ordinal));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_the_cpu_alone() {
        assert_eq!(parse(None, None), Ok(vec![DeviceKind::Cpu]));
        assert_eq!(parse(Some(" "), Some("")), Ok(vec![DeviceKind::Cpu]));
        assert_eq!(parse(Some("cpu"), None), Ok(vec![DeviceKind::Cpu]));
    }

    #[test]
    fn cucc_device_puts_the_accelerator_first() {
        assert_eq!(
            parse(Some("snitch"), None),
            Ok(vec![DeviceKind::Snitch, DeviceKind::Cpu])
        );
        assert_eq!(
            parse(Some("Snitch"), None),
            Ok(vec![DeviceKind::Snitch, DeviceKind::Cpu])
        );
    }

    #[test]
    fn racer_is_listed_alone_or_with_the_others() {
        assert_eq!(
            parse(Some("racer"), None),
            Ok(vec![DeviceKind::Racer, DeviceKind::Cpu])
        );
        assert_eq!(
            parse(None, Some("cpu,racer,snitch")),
            Ok(vec![DeviceKind::Cpu, DeviceKind::Racer, DeviceKind::Snitch])
        );
        assert!(DeviceKind::Racer.simulated());
    }

    #[test]
    fn cucc_devices_gives_the_order_and_wins() {
        assert_eq!(
            parse(Some("snitch"), Some("cpu, snitch")),
            Ok(vec![DeviceKind::Cpu, DeviceKind::Snitch])
        );
        assert_eq!(parse(None, Some("snitch")), Ok(vec![DeviceKind::Snitch]));
    }

    #[test]
    fn unknown_and_repeated_names_are_errors() {
        let e = parse(Some("gpu"), None).err().unwrap_or_default();
        assert!(e.contains("CUCC_DEVICE: unknown device `gpu`"), "{e}");
        assert!(e.contains("cpu, snitch"), "{e}");
        let e = parse(None, Some("cpu,tpu")).err().unwrap_or_default();
        assert!(e.contains("CUCC_DEVICES: unknown device `tpu`"), "{e}");
        assert!(e.contains("cpu, snitch, racer"), "{e}");
        let e = parse(None, Some("cpu,cpu")).err().unwrap_or_default();
        assert!(e.contains("listed twice"), "{e}");
    }

    #[test]
    fn current_device_is_per_thread_and_checked() {
        // The test process lists only the CPU unless the environment says
        // otherwise; ordinal 0 always exists.
        assert_eq!(set_current(0), Ok(()));
        assert_eq!(set_current(-1), Err(Error::InvalidDevice));
        assert_eq!(set_current(99), Err(Error::InvalidDevice));
        assert_eq!(current(), 0);
        std::thread::spawn(|| assert_eq!(current(), 0))
            .join()
            .unwrap_or_else(|_| panic!("thread"));
    }
}
