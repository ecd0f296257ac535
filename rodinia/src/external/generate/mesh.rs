//! cfd's meshes, in the text format euler3d reads (`euler3d.cu`, the block
//! after "read in domain geometry"): the element count, then per element
//! its volume (the program calls it `area` and divides the fluxes by it)
//! and, for each of its 4 faces, the neighbour across it and the face's
//! normal scaled by the face's area, pointing out of the element. A
//! neighbour is a 1-based element number, 0 for a wall (the program's
//! "wing boundary") or -1 for the far field (any negative number is).
//!
//! The mesh: a box of cubes of side [`SPACING`], each split into 6
//! tetrahedra along its main diagonal (the Freudenthal split, so faces of
//! neighbouring cubes match), vertices inside the box moved by up to a
//! tenth of a cube in each direction (seeded), and a flattened ellipsoid
//! (size and place seeded) cut out as a wall body in the stream, which
//! flows along x as euler3d's far field does. Elements are numbered with x
//! the slowest index; the box is the smallest of its proportions that
//! holds the count asked for, and the elements after it (at the outflow
//! end) are left out, their faces far field. Every face two elements share
//! has one normal, negated for the second: the normals of each element sum
//! to zero, so the uniform far-field state euler3d starts from only
//! changes at the body.

use super::scenes::Rng;
use std::collections::HashMap;
use std::fmt::Write;

/// The element counts of Rodinia's three meshes: `fvcorr.domn.097K`,
/// `fvcorr.domn.193K` and `missile.domn.0.2M`.
pub const FVCORR_097K: usize = 97_046;
/// See [`FVCORR_097K`].
pub const FVCORR_193K: usize = 193_474;
/// See [`FVCORR_097K`].
pub const MISSILE_0_2M: usize = 232_536;

/// The side of a cube. With euler3d's local time step
/// (`0.5 / (sqrt(volume) * (speed + speed of sound))`) the explicit scheme
/// is stable for small cells; at this size its Courant number stays near
/// 0.2.
pub const SPACING: f64 = 0.02;

/// A neighbour that is a wall.
pub const WALL: i32 = 0;
/// A neighbour that is the far field.
pub const FAR_FIELD: i32 = -1;

/// A mesh as euler3d reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Per element, its volume.
    pub volumes: Vec<f32>,
    /// Per element, its 4 neighbours (1-based, [`WALL`] or [`FAR_FIELD`]).
    pub neighbours: Vec<[i32; 4]>,
    /// Per element, the outward area-scaled normal of each face.
    pub normals: Vec<[[f32; 3]; 4]>,
}

#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Kept(u32),
    Body,
    LeftOut,
}

type Point = [f64; 3];

fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: Point, b: Point) -> Point {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: Point, b: Point) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The body: cells whose centre is inside the ellipsoid.
struct Body {
    centre: Point,
    axes: Point,
}

impl Body {
    fn new(n: [usize; 3], rng: &mut Rng) -> Body {
        let (x, y, z) = (n[0] as f64, n[1] as f64, n[2] as f64);
        Body {
            centre: [
                x * rng.range(0.3, 0.4),
                y * rng.range(0.45, 0.55),
                z * rng.range(0.45, 0.55),
            ],
            axes: [
                x * rng.range(0.1, 0.14),
                y * rng.range(0.18, 0.24),
                z * rng.range(0.08, 0.12),
            ],
        }
    }

    fn holds(&self, cell: [usize; 3]) -> bool {
        (0..3)
            .map(|a| ((cell[a] as f64 + 0.5 - self.centre[a]) / self.axes[a]).powi(2))
            .sum::<f64>()
            < 1.0
    }
}

/// The 6 tetrahedra of a cube as corner offsets, one per order of the axes.
fn cube_tets() -> [[[usize; 3]; 4]; 6] {
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    orders.map(|order| {
        let mut corner = [0usize; 3];
        let mut tet = [[0usize; 3]; 4];
        for (step, axis) in order.iter().enumerate() {
            corner[*axis] = 1;
            tet[step + 1] = corner;
        }
        tet
    })
}

/// Cells of an `n` box outside the body (with its `rng` draws).
fn cells_outside(n: [usize; 3], seed: u64) -> usize {
    let body = Body::new(n, &mut Rng::new(seed));
    let mut count = 0;
    for i in 0..n[0] {
        for j in 0..n[1] {
            for k in 0..n[2] {
                count += usize::from(!body.holds([i, j, k]));
            }
        }
    }
    count
}

/// A mesh of exactly `elements` tetrahedra, drawn with `seed`.
pub fn mesh(elements: usize, seed: u64) -> Mesh {
    // The box: 2m x m x m cells, the smallest m that is large enough.
    let mut m = 2;
    while 6 * cells_outside([2 * m, m, m], seed) < elements {
        m += 1;
    }
    let n = [2 * m, m, m];
    let mut rng = Rng::new(seed);
    let body = Body::new(n, &mut rng);

    // Vertices, those inside the box moved a little.
    let vid = |p: [usize; 3]| (p[0] * (n[1] + 1) + p[1]) * (n[2] + 1) + p[2];
    let mut points = vec![[0.0; 3]; (n[0] + 1) * (n[1] + 1) * (n[2] + 1)];
    for i in 0..=n[0] {
        for j in 0..=n[1] {
            for k in 0..=n[2] {
                let p = [i, j, k];
                let inside = (0..3).all(|a| p[a] > 0 && p[a] < n[a]);
                points[vid(p)] = [0, 1, 2].map(|a| {
                    let jitter = if inside { rng.range(-0.1, 0.1) } else { 0.0 };
                    (p[a] as f64 + jitter) * SPACING
                });
            }
        }
    }

    // Every tetrahedron of the box, x slowest, and what became of it.
    let shapes = cube_tets();
    let mut tets: Vec<[u32; 4]> = Vec::with_capacity(6 * n[0] * n[1] * n[2]);
    let mut slots = Vec::with_capacity(tets.capacity());
    let mut kept = 0usize;
    for i in 0..n[0] {
        for j in 0..n[1] {
            for k in 0..n[2] {
                let in_body = body.holds([i, j, k]);
                for shape in &shapes {
                    tets.push(shape.map(|o| vid([i + o[0], j + o[1], k + o[2]]) as u32));
                    slots.push(if in_body {
                        Slot::Body
                    } else if kept < elements {
                        kept += 1;
                        Slot::Kept(kept as u32)
                    } else {
                        Slot::LeftOut
                    });
                }
            }
        }
    }

    // Faces: the tetrahedra on each side.
    let face = |t: &[u32; 4], opposite: usize| {
        let mut f = [0u32; 3];
        let mut at = 0;
        for (v, &id) in t.iter().enumerate() {
            if v != opposite {
                f[at] = id;
                at += 1;
            }
        }
        f.sort_unstable();
        f
    };
    let mut sides: HashMap<[u32; 3], [u32; 2]> = HashMap::with_capacity(tets.len() * 3);
    for (t, tet) in tets.iter().enumerate() {
        for opposite in 0..4 {
            sides
                .entry(face(tet, opposite))
                .and_modify(|s| s[1] = t as u32)
                .or_insert([t as u32, u32::MAX]);
        }
    }

    let mut mesh = Mesh {
        volumes: Vec::with_capacity(elements),
        neighbours: Vec::with_capacity(elements),
        normals: Vec::with_capacity(elements),
    };
    for (t, tet) in tets.iter().enumerate() {
        if !matches!(slots[t], Slot::Kept(_)) {
            continue;
        }
        let p = tet.map(|v| points[v as usize]);
        let volume = dot(sub(p[1], p[0]), cross(sub(p[2], p[0]), sub(p[3], p[0]))).abs() / 6.0;
        let mut neighbours = [FAR_FIELD; 4];
        let mut normals = [[0.0f32; 3]; 4];
        for opposite in 0..4 {
            let f = face(tet, opposite);
            let s = sides[&f];
            let other = if s[0] == t as u32 { s[1] } else { s[0] };
            neighbours[opposite] = match slots.get(other as usize) {
                Some(Slot::Kept(id)) => *id as i32,
                Some(Slot::Body) => WALL,
                Some(Slot::LeftOut) | None => FAR_FIELD,
            };
            // One normal per face (from its sorted vertices), turned away
            // from the vertex opposite.
            let q = f.map(|v| points[v as usize]);
            let mut normal = cross(sub(q[1], q[0]), sub(q[2], q[0])).map(|c| 0.5 * c);
            if dot(normal, sub(p[opposite], q[0])) > 0.0 {
                normal = normal.map(|c| -c);
            }
            normals[opposite] = normal.map(|c| c as f32);
        }
        mesh.volumes.push(volume as f32);
        mesh.neighbours.push(neighbours);
        mesh.normals.push(normals);
    }
    mesh
}

impl Mesh {
    /// The mesh as euler3d's input text.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.volumes.len() * 240);
        let _ = writeln!(out, "{}", self.volumes.len());
        for e in 0..self.volumes.len() {
            let _ = write!(out, "{:e}", self.volumes[e]);
            for f in 0..4 {
                let n = self.normals[e][f];
                let _ = write!(
                    out,
                    "\t{} {:e} {:e} {:e}",
                    self.neighbours[e][f], n[0], n[1], n[2]
                );
            }
            out.push('\n');
        }
        out
    }

    /// Reads euler3d's input text; `name` is for errors.
    pub fn parse(text: &str, name: &str) -> Result<Mesh, String> {
        let mut lines = text.lines().enumerate();
        let count: usize = lines
            .next()
            .and_then(|(_, l)| l.trim().parse().ok())
            .ok_or_else(|| format!("{name}:1: no element count"))?;
        let mut mesh = Mesh {
            volumes: Vec::with_capacity(count),
            neighbours: Vec::with_capacity(count),
            normals: Vec::with_capacity(count),
        };
        for (at, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let bad = || {
                format!(
                    "{name}:{}: not `volume` then 4 x `neighbour nx ny nz`",
                    at + 1
                )
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() != 17 {
                return Err(bad());
            }
            let float = |w: &str| w.parse::<f32>().map_err(|_| bad());
            mesh.volumes.push(float(words[0])?);
            let mut neighbours = [0; 4];
            let mut normals = [[0.0; 3]; 4];
            for f in 0..4 {
                neighbours[f] = words[1 + 4 * f].parse().map_err(|_| bad())?;
                for (c, slot) in normals[f].iter_mut().enumerate() {
                    *slot = float(words[2 + 4 * f + c])?;
                }
            }
            mesh.neighbours.push(neighbours);
            mesh.normals.push(normals);
        }
        if mesh.volumes.len() != count {
            return Err(format!(
                "{name}: {} elements after a count of {count}",
                mesh.volumes.len()
            ));
        }
        Ok(mesh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_is_seeded() {
        let a = mesh(5000, 7);
        assert_eq!(a.volumes.len(), 5000);
        let text = a.to_text();
        assert_eq!(Mesh::parse(&text, "m"), Ok(a.clone()));
        assert_eq!(text, mesh(5000, 7).to_text());
        assert_ne!(text, mesh(5000, 8).to_text());
    }

    #[test]
    fn geometry_is_consistent() {
        let m = mesh(20_000, 3);
        let (mut walls, mut far) = (0, 0);
        for e in 0..m.volumes.len() {
            assert!(m.volumes[e] > 0.0);
            let mut sum = [0.0f64; 3];
            for f in 0..4 {
                let n = m.normals[e][f];
                let len = n.iter().map(|c| f64::from(*c).powi(2)).sum::<f64>().sqrt();
                assert!(len > 0.05 * SPACING * SPACING, "element {e} face {f}");
                for c in 0..3 {
                    sum[c] += f64::from(n[c]);
                }
                match m.neighbours[e][f] {
                    WALL => walls += 1,
                    FAR_FIELD => far += 1,
                    nb => {
                        // The neighbour lists this element back, with the
                        // opposite normal.
                        let o = (nb - 1) as usize;
                        let back = (0..4)
                            .find(|&g| m.neighbours[o][g] == e as i32 + 1)
                            .expect("symmetric neighbours");
                        assert_eq!(m.normals[o][back], n.map(|c| -c));
                    }
                }
            }
            // A closed element: its outward normals sum to zero.
            assert!(sum.iter().all(|s| s.abs() < 1e-9), "element {e}: {sum:?}");
        }
        assert!(walls > 100, "{walls} wall faces");
        assert!(far > 100, "{far} far-field faces");
    }

    #[test]
    fn bad_text_is_reported() {
        assert!(Mesh::parse("", "m").is_err_and(|e| e.contains("m:1")));
        assert!(Mesh::parse("1\n1.0 2 3\n", "m").is_err_and(|e| e.contains("m:2")));
        assert!(Mesh::parse("2\n", "m").is_err_and(|e| e.contains("0 elements")));
    }
}
