//! `rodinia external --generate-data DIR`: the inputs of Rodinia 3.1 that
//! no public mirror carries, made by the project's own seeded generators
//! and written under `DIR` in the layout of Rodinia's `data/` directory.
//! Files already there are kept, so a directory holding some real inputs
//! can be completed. What each file is, and how it differs from the real
//! one, is in docs/rodinia.md.

pub mod avi;
pub mod fields;
pub mod graph;
pub mod hurricanes;
pub mod keys;
pub mod scenes;

use std::path::{Path, PathBuf};

/// One generated input.
pub struct Generated {
    /// Path under the data directory.
    pub path: &'static str,
    /// What it is, for the report.
    pub what: &'static str,
    make: fn() -> Result<Vec<u8>, String>,
}

/// Every input the generator makes.
pub const INPUTS: &[Generated] = &[
    Generated {
        path: "b+tree/mil.txt",
        what: "the keys 0 to 999999 in a random order, after their count (seed 6)",
        make: || Ok(keys::shuffled_keys(1_000_000, 6).into_bytes()),
    },
    Generated {
        path: "heartwall/test.avi",
        what: "30 frames, 640 x 640, a blob texture moving rigidly (seed 1)",
        make: || scenes::heartwall(30, 1).to_avi(),
    },
    Generated {
        path: "bfs/graph65536.txt",
        what: "65536 nodes, Rodinia's graphgen rules (2 to 4 edges a node each way, weights 1 to 10; source 0; seed 3)",
        make: || Ok(graph::bfs_graph(65536, 3).into_bytes()),
    },
    Generated {
        path: "hotspot3D/power_512x8",
        what: "512 x 512 x 8 power values, uniform in [0, 1) (seed 4)",
        make: || Ok(fields::uniform_lines(512 * 512 * 8, 0.0, 1.0, 4).into_bytes()),
    },
    Generated {
        path: "hotspot3D/temp_512x8",
        what: "512 x 512 x 8 temperatures, uniform in [320, 340) (seed 5)",
        make: || Ok(fields::uniform_lines(512 * 512 * 8, 320.0, 340.0, 5).into_bytes()),
    },
    Generated {
        path: "nn/cane4_0.db",
        what: "10240 hurricane records, Rodinia's hurricanegen rules (seed 10)",
        make: || Ok(hurricanes::records(10240, 10).into_bytes()),
    },
    Generated {
        path: "nn/cane4_1.db",
        what: "10240 hurricane records (seed 11)",
        make: || Ok(hurricanes::records(10240, 11).into_bytes()),
    },
    Generated {
        path: "nn/cane4_2.db",
        what: "10240 hurricane records (seed 12)",
        make: || Ok(hurricanes::records(10240, 12).into_bytes()),
    },
    Generated {
        path: "nn/cane4_3.db",
        what: "10240 hurricane records (seed 13)",
        make: || Ok(hurricanes::records(10240, 13).into_bytes()),
    },
    Generated {
        path: "leukocyte/testfile.avi",
        what: "12 frames, 640 x 480, 14 drifting round cells (seed 2)",
        make: || scenes::leukocyte(12, 2).to_avi(),
    },
];

/// Writes every missing input under `dir`; returns each path with whether
/// it was written (false: it existed and was kept).
pub fn generate(dir: &Path) -> Result<Vec<(PathBuf, bool)>, String> {
    let mut done = Vec::new();
    for input in INPUTS {
        let path = dir.join(input.path);
        if path.exists() {
            done.push((path, false));
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let bytes = (input.make)()?;
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        done.push((path, true));
    }
    Ok(done)
}
