//! UTF-16 code units of UTF-8 text. JavaScript strings and the editors built
//! on them (CodeMirror, Monaco) count offsets in UTF-16 code units; the
//! engine's [`Splice`](crate::Splice)s count bytes. The npm binding turns
//! every offset it returns into code units with [`offsets`].
//!
//! ```
//! let mut at = [0, 3, 7];
//! applypatch::utf16::offsets("aé😀b", &mut at);
//! assert_eq!(at, [0, 2, 4]);
//! assert_eq!(applypatch::utf16::len("aé😀".as_bytes()), 4);
//! ```

/// Converts sorted byte offsets of `text` (each on a char boundary) into
/// UTF-16 code unit offsets, in place, in one pass over the text.
pub fn offsets(text: &str, offsets: &mut [usize]) {
    let bytes = text.as_bytes();
    let last = offsets.iter().copied().max().unwrap_or(0).min(bytes.len());
    if bytes.get(..last).is_some_and(is_ascii) {
        return;
    }
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    crate::order::sort_by_key(&mut order, |&i| (offsets.get(i).copied().unwrap_or(0), 0));
    let (mut pos, mut units) = (0usize, 0usize);
    for i in order {
        let Some(slot) = offsets.get_mut(i) else { continue };
        let target = (*slot).min(bytes.len());
        units += len(bytes.get(pos..target).unwrap_or(&[]));
        pos = pos.max(target);
        *slot = units;
    }
}

/// Whether every byte is ASCII, 32 bytes at a time (`<[u8]>::is_ascii`
/// reads one `usize`, four bytes in wasm32, at a time).
pub fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        let any = chunk.chunks_exact(8).fold(0u64, |acc, w| acc | u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or([0; 8])));
        if any & HIGH != 0 {
            return false;
        }
    }
    chunks.remainder().is_ascii()
}

/// Whether UTF-8 `bytes` hold U+FFFD (EF BF BD). `TextEncoder.encodeInto`
/// writes a lone surrogate as that character, so a string whose encoding
/// does not hold it was well-formed UTF-16: the npm wrapper checks a string
/// in full only when this is true. The lead byte is found by `memchr`
/// (16 bytes at a time in wasm), not one byte at a time in JS.
pub fn holds_replacement(bytes: &[u8]) -> bool {
    memchr::memchr_iter(0xEF, bytes).any(|i| bytes.get(i + 1..i + 3) == Some(&[0xBF, 0xBD]))
}

#[cfg(test)]
thread_local! {
    /// Words [`len`] counted one at a time (tests: an ASCII block is not).
    pub(crate) static WORDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// UTF-16 code units of whole UTF-8 characters: one per character (every
/// byte that is not a continuation byte `10xxxxxx`), two for a 4-byte one
/// (lead byte `11110xxx`). 32 bytes at a time where they are all ASCII (one
/// unit a byte), else eight at a time.
pub fn len(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |w: &[u8]| u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or([0; 8]));
    let units_of = |w: u64| {
        #[cfg(test)]
        WORDS.with(|n| n.set(n.get() + 1));
        // Bit 7 of each byte: a continuation byte (bits 7-6 are 10), a 4-byte lead (bits 7-3 are 11110).
        let continuation = w & !(w << 1) & HIGH;
        let four = w & (w << 1) & (w << 2) & (w << 3) & HIGH;
        8 - continuation.count_ones() as usize + four.count_ones() as usize
    };
    let mut blocks = bytes.chunks_exact(32);
    let mut units = 0;
    for block in &mut blocks {
        let any = block.chunks_exact(8).fold(0u64, |acc, w| acc | word(w));
        units += if any & HIGH == 0 { 32 } else { block.chunks_exact(8).map(|w| units_of(word(w))).sum() };
    }
    let mut chunks = blocks.remainder().chunks_exact(8);
    for chunk in &mut chunks {
        units += units_of(word(chunk));
    }
    for &b in chunks.remainder() {
        units += usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0);
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_replacement_finds_the_whole_sequence_only() {
        assert!(holds_replacement("a\u{FFFD}b".as_bytes()));
        assert!(holds_replacement("\u{FFFD}".as_bytes()));
        // Other characters led by EF (U+F000 to U+FFFF), and EF BF at the end.
        assert!(!holds_replacement("\u{FF0C}\u{FFFC}\u{F8FF}".as_bytes()));
        assert!(!holds_replacement(&[b'a', 0xEF, 0xBF]));
        assert!(!holds_replacement(&[0xEF, 0xBD, 0xBF]));
        // Past the first EF, and past 16 bytes (memchr's blocks).
        let long = format!("{}\u{FF0C}{}\u{FFFD}", "x".repeat(40), "y".repeat(40));
        assert!(holds_replacement(long.as_bytes()));
        assert!(!holds_replacement(long.replace('\u{FFFD}', "z").as_bytes()));
        assert!(!holds_replacement(b""));
    }

    #[test]
    fn offsets_count_code_units() {
        let text = "aé😀b\n";
        let mut offs = [0, 1, 3, 7, 8, 9];
        offsets(text, &mut offs);
        assert_eq!(offs, [0, 1, 2, 4, 5, 6]);
        // Past the eight bytes counted at a time, every kind of character.
        let long = "ab😀cdé€fgh𝄞ij😀😀klmnoé\nxyz";
        let mut every: Vec<usize> = long.char_indices().map(|(i, _)| i).chain([long.len()]).collect();
        let want: Vec<usize> = every.iter().map(|&i| long[..i].encode_utf16().count()).collect();
        offsets(long, &mut every);
        assert_eq!(every, want);
        assert!(is_ascii(b"") && is_ascii(&[b'a'; 100]));
        for at in 0..100 {
            let mut bytes = [b'a'; 100];
            bytes[at] = 0x80;
            assert!(!is_ascii(&bytes), "{at}");
        }
        // Two words with a non-ASCII byte at the same place in one block.
        let twice = [b"a\xc3\xa9bcdef".as_slice(), b"a\xc3\xa9bcdef", &[b'x'; 16]].concat();
        assert!(!is_ascii(&twice));
        let mut ascii = [2, 0];
        offsets("abc", &mut ascii);
        assert_eq!(ascii, [2, 0]);
    }

    /// 32 and eight bytes at a time as one at a time: every mix of 1- to
    /// 4-byte characters, at every alignment.
    #[test]
    fn len_counts_code_units_in_words() {
        let palette = ['a', '\u{e9}', '\u{20ac}', '\u{1f600}', '\u{7f}', '\u{80}', '\u{7ff}', '\u{800}', '\u{ffff}', '\u{10000}'];
        let mut seed = 7u32;
        for n in 0..200 {
            let text: String = (0..n % 40)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    palette[(seed >> 16) as usize % palette.len()]
                })
                .collect();
            assert_eq!(len(text.as_bytes()), text.encode_utf16().count(), "{text:?}");
        }
        // An all-ASCII block of 32 bytes is counted at once, not a word at a
        // time: 320 ASCII bytes cost no word, one other character costs its
        // block's four.
        WORDS.with(|n| n.set(0));
        assert_eq!(len(&[b'a'; 320]), 320);
        assert_eq!(WORDS.with(std::cell::Cell::get), 0);
        let one: String = (0..100).map(|i| if i == 40 { 'é' } else { 'a' }).collect();
        assert_eq!(len(one.as_bytes()), 100);
        // 101 bytes: three blocks (the second one counted by words) and 5 bytes of tail.
        assert_eq!(WORDS.with(std::cell::Cell::get), 4);
        // 32 ASCII bytes are counted at once: ASCII text with one other
        // character anywhere, in and out of such blocks.
        for n in 0..120 {
            for c in palette {
                let text: String = (0..n).map(|i| if i == n / 2 { c } else { 'x' }).collect();
                assert_eq!(len(text.as_bytes()), text.encode_utf16().count(), "{text:?}");
            }
        }
    }
}
