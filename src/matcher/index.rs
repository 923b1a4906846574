//! An index of the input's lines, built once per input, so that finding a
//! block of lines costs time in proportion to the places it could be, not to
//! the size of the file.
//!
//! Each line gets a fingerprint from its length and three 8-byte samples
//! (start, middle, end): O(1) per line whatever its length. Lines are grouped
//! by fingerprint bucket in one flat array (counting sort), so the lines of a
//! bucket are a sorted slice and "occurrences at or after line `from`" is a
//! binary search. Candidates are always confirmed byte for byte.

use crate::text::Lines;

pub struct Index<'t> {
    lines: &'t Lines<'t>,
    fps: Vec<u32>,
    /// Bucket `b` holds `entries[offsets[b]..offsets[b + 1]]`, ascending.
    offsets: Vec<u32>,
    entries: Vec<u32>,
    mask: u32,
}

impl<'t> Index<'t> {
    pub fn new(lines: &'t Lines<'t>) -> Self {
        let n = lines.len();
        let fps: Vec<u32> = (0..n).map(|i| fingerprint(lines.get(i).as_bytes())).collect();
        let buckets = n.next_power_of_two().clamp(16, 1 << 30);
        let mask = (buckets - 1) as u32;
        let mut offsets = vec![0u32; buckets + 1];
        for fp in &fps {
            if let Some(c) = offsets.get_mut((fp & mask) as usize + 1) {
                *c += 1;
            }
        }
        for b in 0..buckets {
            let prev = offsets.get(b).copied().unwrap_or(0);
            if let Some(c) = offsets.get_mut(b + 1) {
                *c += prev;
            }
        }
        let mut fill = offsets.clone();
        let mut entries = vec![0u32; n];
        for (i, fp) in fps.iter().enumerate() {
            if let Some(slot) = fill.get_mut((fp & mask) as usize) {
                if let Some(e) = entries.get_mut(*slot as usize) {
                    *e = i as u32;
                }
                *slot += 1;
            }
        }
        Index { lines, fps, offsets, entries, mask }
    }

    pub fn lines(&self) -> &'t Lines<'t> {
        self.lines
    }

    /// The lines of `fp`'s bucket at or after line `from`.
    fn bucket_from(&self, fp: u32, from: usize) -> &[u32] {
        let b = (fp & self.mask) as usize;
        let lo = self.offsets.get(b).copied().unwrap_or(0) as usize;
        let hi = self.offsets.get(b + 1).copied().unwrap_or(0) as usize;
        let bucket = self.entries.get(lo..hi).unwrap_or(&[]);
        let skip = bucket.partition_point(|&e| (e as usize) < from);
        bucket.get(skip..).unwrap_or(&[])
    }

    /// Whether input line `i` is exactly `text` (fingerprint first).
    fn line_is(&self, i: usize, fp: u32, text: &str) -> bool {
        self.fps.get(i) == Some(&fp) && self.lines.get(i) == text
    }

    /// Input lines equal to `text`, at or after line `from`, ascending.
    pub fn occurrences<'s>(&'s self, text: &'s str, from: usize) -> impl Iterator<Item = usize> + 's {
        let fp = fingerprint(text.as_bytes());
        self.bucket_from(fp, from).iter().map(|&e| e as usize).filter(move |&i| self.line_is(i, fp, text))
    }

    /// Starts `s >= from` where the input's lines `s..s + block.len()` equal
    /// `block`, ascending. The block must not be empty.
    pub fn find_block<'s>(&'s self, block: &'s [&'s str], from: usize) -> impl Iterator<Item = usize> + 's {
        let fps: Vec<u32> = block.iter().map(|l| fingerprint(l.as_bytes())).collect();
        // Walk the occurrences of the block's rarest line.
        let (pivot, candidates) =
            fps.iter().enumerate().map(|(j, &fp)| (j, self.bucket_from(fp, from + j))).min_by_key(|(_, c)| c.len()).unwrap_or((0, &[]));
        let n = self.lines.len();
        let k = block.len();
        candidates.iter().filter_map(move |&p| {
            let s = (p as usize).checked_sub(pivot)?;
            if s < from || s + k > n {
                return None;
            }
            let all = block.iter().zip(&fps).enumerate().all(|(j, (text, &fp))| self.line_is(s + j, fp, text));
            all.then_some(s)
        })
    }

    /// Whether the input's lines at `s..` equal `block`.
    pub fn block_at(&self, block: &[&str], s: usize) -> bool {
        s + block.len() <= self.lines.len() && block.iter().enumerate().all(|(j, text)| self.lines.get(s + j) == *text)
    }

    /// How many input lines equal `text` (stops counting at `cap`).
    pub fn count(&self, text: &str, cap: usize) -> usize {
        self.occurrences(text, 0).take(cap).count()
    }
}

fn load(b: &[u8], at: usize) -> u64 {
    if let Some(chunk) = b.get(at..at + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        return u64::from_le_bytes(w);
    }
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(b.iter().skip(at)) {
        *d = *s;
    }
    u64::from_le_bytes(w)
}

/// A fingerprint of a line from its length and samples of its bytes.
pub fn fingerprint(b: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let n = b.len();
    let mut h = (n as u64).wrapping_mul(K) ^ load(b, 0);
    if n > 8 {
        h = h.rotate_left(29).wrapping_mul(K) ^ load(b, n.saturating_sub(8));
    }
    if n > 16 {
        h = h.rotate_left(29).wrapping_mul(K) ^ load(b, n / 2 - 4);
    }
    h = (h ^ (h >> 31)).wrapping_mul(K);
    (h >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_blocks_and_occurrences() {
        let text = "a\nb\nc\na\nb\nx\n";
        let lines = Lines::split(text);
        let idx = Index::new(&lines);
        assert_eq!(idx.occurrences("a", 0).collect::<Vec<_>>(), [0, 3]);
        assert_eq!(idx.occurrences("a", 1).collect::<Vec<_>>(), [3]);
        assert_eq!(idx.find_block(&["a", "b"], 0).collect::<Vec<_>>(), [0, 3]);
        assert_eq!(idx.find_block(&["b", "x"], 0).collect::<Vec<_>>(), [4]);
        assert_eq!(idx.find_block(&["x", "y"], 0).count(), 0);
        assert_eq!(idx.find_block(&["a", "b"], 1).collect::<Vec<_>>(), [3]);
        assert_eq!(idx.count("zzz", 5), 0);
    }

    #[test]
    fn long_lines_that_share_samples_are_told_apart() {
        let a = format!("{}X{}", "p".repeat(40), "q".repeat(40));
        let b = format!("{}Y{}", "p".repeat(40), "q".repeat(40));
        let text = format!("{a}\n{b}\n");
        let lines = Lines::split(&text);
        let idx = Index::new(&lines);
        assert_eq!(idx.occurrences(&b, 0).collect::<Vec<_>>(), [1]);
    }
}
