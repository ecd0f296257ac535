//! A writer of uncompressed 8-bit grayscale AVI files: the format of the
//! videos heartwall and leukocyte read through avilib (`00db` frame chunks
//! in a `movi` list, an `idx1` index, a 256-entry gray palette), which
//! reads the raw frame bytes bottom row first, as DIBs are stored.

use std::io::Write;

/// An 8-bit grayscale video: `frames` of `width * height` bytes, top row
/// first.
pub struct GrayVideo {
    /// Pixels per row.
    pub width: u32,
    /// Rows per frame.
    pub height: u32,
    /// Frames per second (for the header only).
    pub fps: u32,
    /// The frames, each `width * height` bytes, top row first.
    pub frames: Vec<Vec<u8>>,
}

fn chunk(out: &mut Vec<u8>, id: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(id);
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    if data.len() % 2 == 1 {
        out.push(0);
    }
}

fn list(out: &mut Vec<u8>, kind: &[u8; 4], body: &[u8]) {
    out.extend_from_slice(b"LIST");
    out.extend_from_slice(&((body.len() + 4) as u32).to_le_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(body);
}

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

impl GrayVideo {
    /// The AVI file's bytes. Errors if a frame has the wrong size or the
    /// file would not fit the 32-bit RIFF sizes.
    pub fn to_avi(&self) -> Result<Vec<u8>, String> {
        let size = self.width as usize * self.height as usize;
        if let Some(i) = self.frames.iter().position(|f| f.len() != size) {
            return Err(format!(
                "frame {i} has {} bytes, not {size}",
                self.frames[i].len()
            ));
        }
        let total = (size + 8) * self.frames.len() + 4096;
        if total > u32::MAX as usize / 2 {
            return Err("video too large for an AVI 1.0 file".into());
        }
        let n = self.frames.len() as u32;
        let (w, h) = (self.width, self.height);
        let avih = words(&[
            1_000_000 / self.fps.max(1),
            size as u32 * self.fps,
            0,
            0x10, // AVIF_HASINDEX
            n,
            0,
            1,
            size as u32,
            w,
            h,
            0,
            0,
            0,
            0,
        ]);
        let mut strh = b"vidsDIB ".to_vec();
        strh.extend(words(&[0, 0, 0, 1, self.fps, 0, n, size as u32, 0, 0]));
        strh.extend_from_slice(&[0; 8]); // rcFrame
        let mut strf = words(&[40, w, h]);
        strf.extend_from_slice(&1u16.to_le_bytes()); // planes
        strf.extend_from_slice(&8u16.to_le_bytes()); // bits per pixel
        strf.extend(words(&[0, size as u32, 0, 0, 256, 0]));
        for g in 0..=255u8 {
            strf.extend_from_slice(&[g, g, g, 0]);
        }
        let mut strl = Vec::new();
        chunk(&mut strl, b"strh", &strh);
        chunk(&mut strl, b"strf", &strf);
        let mut hdrl = Vec::new();
        chunk(&mut hdrl, b"avih", &avih);
        list(&mut hdrl, b"strl", &strl);

        let mut movi = Vec::new();
        let mut idx1 = Vec::new();
        let mut dib = vec![0u8; size];
        for frame in &self.frames {
            // Offsets count from the `movi` fourcc.
            let offset = movi.len() as u32 + 4;
            for (row, out) in dib.chunks_mut(w as usize).enumerate() {
                let src = (h as usize - 1 - row) * w as usize;
                out.copy_from_slice(&frame[src..src + w as usize]);
            }
            chunk(&mut movi, b"00db", &dib);
            idx1.extend_from_slice(b"00db");
            idx1.extend(words(&[0x10, offset, size as u32]));
        }
        let mut body = b"AVI ".to_vec();
        list(&mut body, b"hdrl", &hdrl);
        list(&mut body, b"movi", &movi);
        chunk(&mut body, b"idx1", &idx1);
        let mut out = Vec::with_capacity(body.len() + 8);
        chunk(&mut out, b"RIFF", &body);
        Ok(out)
    }

    /// Writes the video to `path`.
    pub fn write(&self, path: &std::path::Path) -> Result<(), String> {
        let bytes = self.to_avi()?;
        let mut f = std::fs::File::create(path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        f.write_all(&bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    }

    #[test]
    fn layout_matches_what_avilib_reads() {
        let v = GrayVideo {
            width: 3,
            height: 2,
            fps: 25,
            frames: vec![vec![1, 2, 3, 4, 5, 6], vec![7, 8, 9, 10, 11, 12]],
        };
        let b = v.to_avi().expect("avi");
        assert_eq!(&b[0..4], b"RIFF");
        assert_eq!(u32_at(&b, 4) as usize, b.len() - 8);
        assert_eq!(&b[8..12], b"AVI ");
        let find = |tag: &[u8]| b.windows(4).position(|w| w == tag).expect("tag");
        let strh = find(b"strh") + 8;
        assert_eq!(&b[strh..strh + 4], b"vids");
        assert_eq!(u32_at(&b, strh + 20), 1); // scale
        assert_eq!(u32_at(&b, strh + 24), 25); // rate
        assert_eq!(u32_at(&b, strh + 32), 2); // frames
        let strf = find(b"strf") + 8;
        assert_eq!((u32_at(&b, strf + 4), u32_at(&b, strf + 8)), (3, 2));
        // movi_start is just past the `movi` fourcc; an idx1 offset plus
        // movi_start - 4 is the frame chunk, whose rows are bottom-up.
        let movi_start = find(b"movi") + 4;
        let idx = find(b"idx1") + 8;
        for (k, want) in [[4u8, 5, 6, 1, 2, 3], [10, 11, 12, 7, 8, 9]]
            .iter()
            .enumerate()
        {
            let e = idx + 16 * k;
            assert_eq!(&b[e..e + 4], b"00db");
            let at = u32_at(&b, e + 8) as usize + movi_start - 4;
            assert_eq!(&b[at..at + 4], b"00db");
            assert_eq!(u32_at(&b, at + 4), 6);
            assert_eq!(&b[at + 8..at + 14], want);
        }
        let bad = GrayVideo {
            frames: vec![vec![0; 5]],
            ..v
        };
        assert!(bad.to_avi().unwrap_err().contains("frame 0"));
    }
}
