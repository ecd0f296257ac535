//! LZ4 block decoding (the raw block format, no frame), written from the
//! format's description: a block is a list of sequences, each a token byte
//! (high nibble: literal count, low nibble: match length − 4; 15 means more
//! length bytes follow, each added, until one is below 255), the literals, a
//! two-byte little-endian back offset and the match. The last sequence has
//! only literals.

/// Decodes `src` into exactly `expected` bytes; every read and back
/// reference is checked, so corrupt input gives an error, never a panic.
pub fn decompress_block(src: &[u8], expected: usize) -> Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::with_capacity(expected.min(1 << 24));
    let mut i = 0usize;
    let byte = |i: &mut usize| -> Result<u8, String> {
        let b = *src
            .get(*i)
            .ok_or_else(|| format!("input ends at byte {}", *i))?;
        *i += 1;
        Ok(b)
    };
    let length = |i: &mut usize, nibble: u8| -> Result<usize, String> {
        let mut n = usize::from(nibble);
        if nibble == 15 {
            loop {
                let b = byte(i)?;
                n = n.checked_add(usize::from(b)).ok_or("length overflows")?;
                if b != 255 {
                    break;
                }
            }
        }
        Ok(n)
    };
    loop {
        let token = byte(&mut i)?;
        let literals = length(&mut i, token >> 4)?;
        let lit = src
            .get(i..i.saturating_add(literals))
            .ok_or_else(|| format!("{literals} literals at byte {i} run past the input"))?;
        if out.len() + literals > expected {
            return Err(format!("output exceeds the expected {expected} bytes"));
        }
        out.extend_from_slice(lit);
        i += literals;
        if i == src.len() {
            break;
        }
        let lo = byte(&mut i)?;
        let hi = byte(&mut i)?;
        let offset = usize::from(u16::from_le_bytes([lo, hi]));
        if offset == 0 || offset > out.len() {
            return Err(format!(
                "back reference {offset} at byte {} with {} bytes decoded",
                i - 2,
                out.len()
            ));
        }
        let len = length(&mut i, token & 15)?
            .checked_add(4)
            .ok_or("length overflows")?;
        if out.len() + len > expected {
            return Err(format!("output exceeds the expected {expected} bytes"));
        }
        let start = out.len() - offset;
        for k in 0..len {
            let b = out[start + k];
            out.push(b);
        }
    }
    if out.len() != expected {
        return Err(format!("{} bytes decoded instead of {expected}", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_overlapping_matches() {
        // "a" then a match of 7 at offset 1, then literals "bc".
        let block = [0x13, b'a', 1, 0, 0x20, b'b', b'c'];
        assert_eq!(decompress_block(&block, 10).unwrap(), b"aaaaaaaabc");
    }

    #[test]
    fn long_lengths() {
        // 15 + 5 = 20 literals, then a match of 15 + 4 + 1 = 20 at offset 20.
        let mut block = vec![0xff, 5];
        block.extend(b"abcdefghijklmnopqrst");
        block.extend([20, 0, 1, 0x10, b'z']);
        let out = decompress_block(&block, 41).unwrap();
        assert_eq!(&out[..20], &out[20..40]);
        assert_eq!(out[40], b'z');
    }

    #[test]
    fn corrupt_blocks_are_errors() {
        assert!(decompress_block(&[], 1).is_err());
        assert!(decompress_block(&[0x50, b'a'], 5).is_err()); // literals past the end
        assert!(decompress_block(&[0x14, b'a', 2, 0], 9).is_err()); // offset past the output
        assert!(decompress_block(&[0x14, b'a', 0, 0], 9).is_err()); // offset 0
        assert!(decompress_block(&[0x10, b'a'], 2).is_err()); // too short
        assert!(decompress_block(&[0x1f, b'a', 1, 0], 100).is_err()); // length ends early
        assert!(decompress_block(&[0x1f, b'a', 1, 0, 255, 255, 3], 10).is_err());
        // too long
    }
}
