//! Synthetic videos for the two Rodinia benchmarks that track things in a
//! video, whose real inputs (ultrasound of a mouse heart, microscopy of
//! leukocytes) no public mirror carries. The point is a deterministic
//! input with structure to correlate and track, so the CUDA and OpenMP
//! versions can be compared; the pictures only resemble the real ones in
//! size and in what the programs look for.

use super::avi::GrayVideo;

/// splitmix64: small, seeded, the same on every machine.
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }
}

/// A float image, row-major.
struct Canvas {
    w: usize,
    h: usize,
    px: Vec<f64>,
}

impl Canvas {
    fn new(w: usize, h: usize, fill: f64) -> Canvas {
        Canvas {
            w,
            h,
            px: vec![fill; w * h],
        }
    }

    /// Adds a Gaussian blob of height `amp` and width `sigma` at `(r, c)`.
    fn blob(&mut self, r: f64, c: f64, sigma: f64, amp: f64) {
        let reach = (3.0 * sigma).ceil() as i64;
        let (r0, c0) = (r.round() as i64, c.round() as i64);
        for y in (r0 - reach).max(0)..(r0 + reach + 1).min(self.h as i64) {
            for x in (c0 - reach).max(0)..(c0 + reach + 1).min(self.w as i64) {
                let d2 = (y as f64 - r).powi(2) + (x as f64 - c).powi(2);
                self.px[y as usize * self.w + x as usize] +=
                    amp * (-d2 / (2.0 * sigma * sigma)).exp();
            }
        }
    }

    /// Scatters `count` random blobs over the canvas.
    fn texture(&mut self, rng: &mut Rng, count: usize, sigma: (f64, f64), amp: (f64, f64)) {
        for _ in 0..count {
            let r = rng.range(0.0, self.h as f64);
            let c = rng.range(0.0, self.w as f64);
            let s = rng.range(sigma.0, sigma.1);
            let a = rng.range(amp.0, amp.1);
            self.blob(r, c, s, a);
        }
    }

    /// The `w x h` window at `(top, left)`, as bytes.
    fn window(&self, top: usize, left: usize, w: usize, h: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(w * h);
        for y in top..top + h {
            let row = &self.px[y * self.w + left..y * self.w + left + w];
            out.extend(row.iter().map(|&v| v.round().clamp(0.0, 255.0) as u8));
        }
        out
    }
}

/// heartwall: 640 x 640 frames of a blob texture that moves rigidly by a
/// few pixels, periodically (as the heart wall beats), so that each of the
/// program's 51 x 51 templates finds its match within the search window.
/// The program tracks fixed points (rows 155 to 543, columns 235 to 486),
/// so the frame must reach past them by the search window (66 pixels).
pub fn heartwall(frames: usize, seed: u64) -> GrayVideo {
    const W: usize = 640;
    const H: usize = 640;
    const M: usize = 8;
    let mut rng = Rng::new(seed);
    let mut canvas = Canvas::new(W + 2 * M, H + 2 * M, 70.0);
    canvas.texture(&mut rng, (W * H) / 110, (2.5, 7.0), (-45.0, 95.0));
    let frames = (0..frames)
        .map(|k| {
            let phase = 2.0 * std::f64::consts::PI * k as f64 / 12.0;
            let dy = (3.0 * phase.sin()).round() as i64;
            let dx = (2.0 * (phase + 1.0).sin()).round() as i64;
            canvas.window((M as i64 + dy) as usize, (M as i64 + dx) as usize, W, H)
        })
        .collect();
    video_25fps(W, H, frames)
}

/// leukocyte: 640 x 480 frames of a dim, smooth background with round
/// cells (radius 9 to 12: a bright rim, a darker inside) in the band the
/// program searches (rows 110 to 328), each drifting by under a pixel a
/// frame.
pub fn leukocyte(frames: usize, seed: u64) -> GrayVideo {
    const W: usize = 640;
    const H: usize = 480;
    let mut rng = Rng::new(seed);
    let mut background = Canvas::new(W, H, 95.0);
    background.texture(&mut rng, (W * H) / 400, (4.0, 12.0), (-12.0, 12.0));
    let cells: Vec<[f64; 5]> = (0..14)
        .map(|_| {
            [
                rng.range(135.0, 305.0),
                rng.range(40.0, 600.0),
                rng.range(9.0, 12.0),
                rng.range(-0.8, 0.8),
                rng.range(-0.8, 0.8),
            ]
        })
        .collect();
    let frames = (0..frames)
        .map(|k| {
            let mut img = Canvas {
                w: W,
                h: H,
                px: background.px.clone(),
            };
            for &[r, c, radius, vr, vc] in &cells {
                let (r, c) = (r + vr * k as f64, c + vc * k as f64);
                let reach = (radius + 5.0).ceil() as i64;
                for y in (r as i64 - reach).max(0)..(r as i64 + reach + 1).min(H as i64) {
                    for x in (c as i64 - reach).max(0)..(c as i64 + reach + 1).min(W as i64) {
                        let d = ((y as f64 - r).powi(2) + (x as f64 - c).powi(2)).sqrt();
                        let rim = 85.0 * (-(d - radius).powi(2) / (2.0 * 1.6 * 1.6)).exp();
                        let inside = if d < radius - 2.0 { -25.0 } else { 0.0 };
                        img.px[y as usize * W + x as usize] += rim + inside;
                    }
                }
            }
            img.window(0, 0, W, H)
        })
        .collect();
    video_25fps(W, H, frames)
}

/// Both scenes are written at 25 frames a second (the rate only goes into
/// the header).
fn video_25fps(w: usize, h: usize, frames: Vec<Vec<u8>>) -> GrayVideo {
    GrayVideo {
        width: w as u32,
        height: h as u32,
        fps: 25,
        frames,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_deterministic() {
        let a = heartwall(2, 7);
        let b = heartwall(2, 7);
        assert_eq!(a.frames, b.frames);
        assert_ne!(a.frames, heartwall(2, 8).frames);
        assert_eq!(a.frames[0].len(), 640 * 640);
        // The texture has contrast everywhere the program looks.
        let f = &a.frames[0];
        for (r, c) in [(155, 235), (543, 486), (350, 350)] {
            let patch: Vec<f64> = (r - 25..r + 26)
                .flat_map(|y| (c - 25..c + 26).map(move |x| f64::from(f[y * 640 + x])))
                .collect();
            let mean = patch.iter().sum::<f64>() / patch.len() as f64;
            let var = patch.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / patch.len() as f64;
            assert!(var > 100.0, "flat patch at ({r}, {c}): variance {var}");
        }
        let l = leukocyte(3, 1);
        assert_eq!(l.frames.len(), 3);
        assert_ne!(l.frames[0], l.frames[2]);
    }
}
