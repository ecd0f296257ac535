//! `rodinia external --generate-data DIR`: the inputs of Rodinia 3.1 that
//! no public mirror carries, made by the project's own seeded generators
//! and written under `DIR` in the layout of Rodinia's `data/` directory.
//! Files already there are kept, so a directory holding some real inputs
//! can be completed. What each file is, and how it differs from the real
//! one, is in docs/rodinia.md.

pub mod avi;
pub mod fields;
pub mod genome;
pub mod graph;
pub mod hurricanes;
pub mod keys;
pub mod mesh;
pub mod scenes;

use std::path::{Path, PathBuf};

/// One generated input.
pub struct Generated {
    /// Path under the data directory.
    pub path: &'static str,
    /// What it is, for the report.
    pub what: &'static str,
    /// Makes the file; given the data directory (for inputs made from
    /// others there).
    make: fn(&Path) -> Result<Vec<u8>, String>,
}

/// Every input the generator makes.
pub const INPUTS: &[Generated] = &[
    Generated {
        path: "b+tree/mil.txt",
        what: "the keys 0 to 999999 in a random order, after their count (seed 6)",
        make: |_| Ok(keys::shuffled_keys(1_000_000, 6).into_bytes()),
    },
    Generated {
        path: "heartwall/test.avi",
        what: "30 frames, 640 x 640, a blob texture moving rigidly (seed 1)",
        make: |_| scenes::heartwall(30, 1).to_avi(),
    },
    Generated {
        path: "bfs/graph65536.txt",
        what: "65536 nodes, Rodinia's graphgen rules (2 to 4 edges a node each way, weights 1 to 10; source 0; seed 3)",
        make: |_| Ok(graph::bfs_graph(65536, 3).into_bytes()),
    },
    Generated {
        path: "bfs/graph1MW_6.txt",
        what: "1000000 nodes, Rodinia's graphgen rules (as graph65536.txt; the release's run files name it; seed 9)",
        make: |_| Ok(graph::bfs_graph(graph::NODES_1MW_6, 9).into_bytes()),
    },
    Generated {
        path: "hotspot3D/power_512x8",
        what: "512 x 512 x 8 power values, uniform in [0, 1) (seed 4)",
        make: |_| Ok(fields::uniform_lines(512 * 512 * 8, 0.0, 1.0, 4).into_bytes()),
    },
    Generated {
        path: "hotspot3D/temp_512x8",
        what: "512 x 512 x 8 temperatures, uniform in [320, 340) (seed 5)",
        make: |_| Ok(fields::uniform_lines(512 * 512 * 8, 320.0, 340.0, 5).into_bytes()),
    },
    Generated {
        path: "nn/cane4_0.db",
        what: "10240 hurricane records, Rodinia's hurricanegen rules (seed 10)",
        make: |_| Ok(hurricanes::records(10240, 10).into_bytes()),
    },
    Generated {
        path: "nn/cane4_1.db",
        what: "10240 hurricane records (seed 11)",
        make: |_| Ok(hurricanes::records(10240, 11).into_bytes()),
    },
    Generated {
        path: "nn/cane4_2.db",
        what: "10240 hurricane records (seed 12)",
        make: |_| Ok(hurricanes::records(10240, 12).into_bytes()),
    },
    Generated {
        path: "nn/cane4_3.db",
        what: "10240 hurricane records (seed 13)",
        make: |_| Ok(hurricanes::records(10240, 13).into_bytes()),
    },
    Generated {
        path: "leukocyte/testfile.avi",
        what: "12 frames, 640 x 480, 14 drifting round cells (seed 2)",
        make: |_| scenes::leukocyte(12, 2).to_avi(),
    },
    Generated {
        path: "cfd/fvcorr.domn.097K",
        what: "97046 tetrahedra around a wall body, far field outside (seed 20)",
        make: |_| Ok(mesh::mesh(mesh::FVCORR_097K, 20).to_text().into_bytes()),
    },
    Generated {
        path: "cfd/fvcorr.domn.193K",
        what: "193474 tetrahedra around a wall body (seed 21)",
        make: |_| Ok(mesh::mesh(mesh::FVCORR_193K, 21).to_text().into_bytes()),
    },
    Generated {
        path: "cfd/missile.domn.0.2M",
        what: "232536 tetrahedra around a wall body (seed 22)",
        make: |_| Ok(mesh::mesh(mesh::MISSILE_0_2M, 22).to_text().into_bytes()),
    },
    Generated {
        path: GENOME,
        what: "5227293 random bases with repeats pasted in (seed 30)",
        make: |_| Ok(genome::reference(genome::REFERENCE_BASES, 30).into_bytes()),
    },
    Generated {
        path: "mummergpu/NC_003997_q100bp.fna",
        what: "50000 reads of 100 bases cut from the reference in the directory (seed 31)",
        make: |dir| {
            let path = dir.join(GENOME);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let seq = genome::parse_fasta(&text, &path.display().to_string())?;
            Ok(genome::reads(&seq, 50_000, 100, 31)?.into_bytes())
        },
    },
];

/// mummergpu's reference, which its reads are cut from.
const GENOME: &str = "mummergpu/NC_003997.fna";

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
        let bytes = (input.make)(dir)?;
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        done.push((path, true));
    }
    Ok(done)
}
