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

/// Whether every byte is ASCII: 64 bytes at a time in wasm (`simd128`), 32
/// natively (`<[u8]>::is_ascii` reads one `usize`, four bytes in wasm32, at
/// a time). The wasm binding checks every input this way before reading it
/// as UTF-8, and the UTF-16 offsets of an answer skip their count with it.
pub fn is_ascii(bytes: &[u8]) -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u8x16_bitmask, v128, v128_load, v128_or};
        let mut blocks = bytes.chunks_exact(64);
        for block in &mut blocks {
            let Ok(block) = <&[u8; 64]>::try_from(block) else { break };
            let p = block.as_ptr();
            // SAFETY: the four loads read the 64-byte array, and `v128_load` takes unaligned addresses.
            let any = unsafe {
                v128_or(
                    v128_or(v128_load(p.cast::<v128>()), v128_load(p.add(16).cast::<v128>())),
                    v128_or(v128_load(p.add(32).cast::<v128>()), v128_load(p.add(48).cast::<v128>())),
                )
            };
            if u8x16_bitmask(any) != 0 {
                return false;
            }
        }
        words_ascii(blocks.remainder())
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    words_ascii(bytes)
}

/// [`is_ascii`] a word of eight bytes at a time, four words a step.
fn words_ascii(bytes: &[u8]) -> bool {
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

/// Encodes UTF-16LE code units (`units`, two bytes each) as UTF-8 into
/// `out`, which needs three bytes a unit, and returns the bytes written and
/// whether a lone surrogate was met. A lone surrogate becomes U+FFFD, as
/// `TextEncoder.encodeInto` writes it, so the bytes are the ones that gives.
///
/// The npm wrapper uses it in Node for strings V8 keeps in two bytes a
/// character: Node copies those into wasm memory as they are
/// (`Buffer.ucs2Write`, 11 GB/s) where `encodeInto` encodes them one
/// character at a time (1 GB/s). Sixteen units at a time while they are
/// ASCII (wasm `simd128`; eight natively), one at a time in a block that is not.
pub fn encode_utf8(units: &[u8], out: &mut [u8]) -> (usize, bool) {
    let n = units.len() / 2;
    let unit = |i: usize| {
        units.get(2 * i..2 * i + 2).map_or(0, |b| u16::from_le_bytes([b.first().copied().unwrap_or(0), b.get(1).copied().unwrap_or(0)]))
    };
    let (mut i, mut w, mut lone) = (0usize, 0usize, false);
    loop {
        let run = ascii::run(units.get(2 * i..).unwrap_or(&[]), out.get_mut(w..).unwrap_or(&mut []));
        i += run;
        w += run;
        if i >= n {
            break;
        }
        let block = ascii::BLOCK.min(n - i);
        // One unit at a time to the end of the block (a surrogate pair may
        // end one unit past it).
        let end = i + block;
        while i < end {
            #[cfg(test)]
            ONE_BY_ONE.with(|n| n.set(n.get() + 1));
            let u = unit(i);
            i += 1;
            let c = match u {
                // (Past the end `unit` is 0, not a low surrogate.)
                0xD800..=0xDBFF if (0xDC00..=0xDFFF).contains(&unit(i)) => {
                    let low = unit(i);
                    i += 1;
                    0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                }
                0xD800..=0xDFFF => {
                    lone = true;
                    0xFFFD
                }
                _ => u32::from(u),
            };
            let ch = char::from_u32(c).unwrap_or('\u{FFFD}');
            if let Some(dst) = out.get_mut(w..w + ch.len_utf8()) {
                ch.encode_utf8(dst);
            }
            w += ch.len_utf8();
        }
    }
    (w.min(out.len()), lone)
}

/// Runs of UTF-16LE units that are ASCII, written out one byte a unit.
mod ascii {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub const BLOCK: usize = 16;
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    pub const BLOCK: usize = 8;

    /// How many units of `units` (a multiple of [`BLOCK`]) are whole blocks
    /// of ASCII from the start, each written to `out` as it is checked.
    pub fn run(units: &[u8], out: &mut [u8]) -> usize {
        let mut done = 0;
        for (src, dst) in units.chunks_exact(2 * BLOCK).zip(out.chunks_exact_mut(BLOCK)) {
            let (Ok(src), Ok(dst)) = (<&[u8; 2 * BLOCK]>::try_from(src), <&mut [u8; BLOCK]>::try_from(dst)) else { break };
            if !narrow(src, dst) {
                break;
            }
            done += BLOCK;
        }
        done
    }

    /// Sixteen units as two vectors, narrowed to one.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn narrow(units: &[u8; 32], out: &mut [u8; 16]) -> bool {
        use core::arch::wasm32::{u16x8_splat, u8x16_narrow_i16x8, v128, v128_and, v128_any_true, v128_load, v128_or, v128_store};
        // SAFETY: both loads read within the 32-byte array, and `v128_load`
        // takes unaligned addresses.
        let (a, b) = unsafe { (v128_load(units.as_ptr().cast::<v128>()), v128_load(units.as_ptr().add(16).cast::<v128>())) };
        if v128_any_true(v128_and(v128_or(a, b), u16x8_splat(0xFF80))) {
            return false;
        }
        // SAFETY: the store writes the 16-byte array (unaligned is allowed).
        unsafe { v128_store(out.as_mut_ptr().cast::<v128>(), u8x16_narrow_i16x8(a, b)) };
        true
    }

    /// Eight units as two words: each unit's low byte, when no unit is
    /// above 0x7F.
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    fn narrow(units: &[u8; 16], out: &mut [u8; 8]) -> bool {
        const HIGH: u64 = 0xFF80_FF80_FF80_FF80;
        let (lo, hi) = units.split_at(8);
        let word = |b: &[u8]| u64::from_le_bytes(<[u8; 8]>::try_from(b).unwrap_or([0xFF; 8]));
        let (a, b) = (word(lo), word(hi));
        if (a | b) & HIGH != 0 {
            return false;
        }
        // Each unit's low byte.
        *out = std::array::from_fn(|k| units.get(2 * k).copied().unwrap_or(0));
        true
    }
}

#[cfg(test)]
thread_local! {
    /// Units [`encode_utf8`] encoded one at a time (tests: an ASCII block is not).
    static ONE_BY_ONE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
    /// Every mix of ASCII, two-, three- and four-byte characters and lone
    /// surrogates, at every alignment to the ASCII blocks: the bytes
    /// `String::from_utf16_lossy` gives (what `encodeInto` writes), and
    /// whether a surrogate was lone.
    #[test]
    fn encode_utf8_writes_what_encode_into_does() {
        let palette: [&[u16]; 9] = [&[0x61], &[0x7F], &[0x80], &[0xE9], &[0x20AC], &[0xD83D, 0xDE00], &[0xD83D], &[0xDE00], &[0xFFFD]];
        let mut seed = 11u32;
        for n in 0..400 {
            let mut units: Vec<u16> = Vec::new();
            for k in 0..n % 70 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                // Mostly ASCII, as code is, so that whole blocks are too.
                let pick = (seed >> 16) as usize % (palette.len() * 3);
                units.extend_from_slice(palette.get(pick).copied().unwrap_or(if k % 7 == 0 { &[0x0A] } else { &[0x78] }));
            }
            let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            let mut out = vec![0u8; 3 * units.len()];
            let (written, lone) = encode_utf8(&bytes, &mut out);
            let want = String::from_utf16_lossy(&units);
            assert_eq!(out.get(..written), Some(want.as_bytes()), "{units:x?}");
            assert_eq!(lone, String::from_utf16(&units).is_err(), "{units:x?}");
        }
        // A surrogate pair across the end of a block, and one cut by the end of the text.
        for at in 0..20 {
            let mut units = vec![0x41u16; 20];
            units.splice(at..at, [0xD83D, 0xDE00]);
            let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            let mut out = vec![0u8; 3 * units.len()];
            let (written, lone) = encode_utf8(&bytes, &mut out);
            assert_eq!((out.get(..written), lone), (Some(String::from_utf16_lossy(&units).as_bytes()), false));
            let cut = bytes.get(..2 * (at + 1)).unwrap_or(&[]);
            let (written, lone) = encode_utf8(cut, &mut out);
            assert_eq!((out.get(..written), lone), (Some(format!("{}\u{FFFD}", "A".repeat(at)).as_bytes()), true));
        }
        // An odd byte at the end is not a unit; no room writes nothing past the end.
        assert_eq!(encode_utf8(b"a\0b", &mut [0u8; 3]), (1, false));
        assert_eq!(encode_utf8(&[0x41, 0, 0x42, 0], &mut [0u8; 1]), (1, false));
    }
    /// ASCII runs are encoded a block at a time: a text of ASCII costs no
    /// unit one at a time, one other character costs its block.
    #[test]
    fn encode_utf8_takes_ascii_blocks_at_once() {
        let count = |units: &[u16]| {
            let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            let mut out = vec![0u8; 3 * units.len()];
            ONE_BY_ONE.with(|n| n.set(0));
            let (written, _) = encode_utf8(&bytes, &mut out);
            assert_eq!(out.get(..written), Some(String::from_utf16_lossy(units).as_bytes()));
            ONE_BY_ONE.with(std::cell::Cell::get)
        };
        assert_eq!(count(&[0x61; 800]), 0);
        // One character in the middle: its block of eight, then blocks again.
        let mut one = vec![0x61u16; 800];
        one[400] = 0xE9;
        assert_eq!(count(&one), 8);
        // A tail shorter than a block is one at a time.
        assert_eq!(count(&[0x61; 805]), 5);
    }
}
