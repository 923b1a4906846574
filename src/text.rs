//! The line model every mode shares: a text split into lines that keep their
//! own ending, the edits a matcher produces (line ranges and their new lines),
//! and the rebuild of the text from those edits.
//!
//! Positions here are byte offsets into the input and 0-based line indices;
//! the binding turns them into UTF-16 code units and 1-based lines for JS.

use std::borrow::Cow;

/// How one line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The last line of a text that does not end with a newline.
    None,
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
    /// A lone `\r` (old Mac style; Codex 0.171 treats it as a line break).
    Cr,
}

impl Ending {
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::None => "",
            Ending::Lf => "\n",
            Ending::CrLf => "\r\n",
            Ending::Cr => "\r",
        }
    }

    /// Bytes of the ending (0 for none).
    pub fn byte_len(self) -> usize {
        self.as_str().len()
    }

    pub fn is_none(self) -> bool {
        self == Ending::None
    }
}

/// One line of a text: `text[start..end]` is its content, its ending follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub start: usize,
    pub end: usize,
    pub ending: Ending,
}

/// A text split into lines. An empty text has no lines; a final newline ends
/// the last line and does not start an empty one.
#[derive(Debug)]
pub struct Lines<'a> {
    text: &'a str,
    lines: Vec<Line>,
    /// Whether the text holds a `\r` (every line break is `\n` when not).
    cr: bool,
}

impl<'a> Lines<'a> {
    /// Splits on `\n`, `\r\n` and a lone `\r`.
    pub fn split(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut lines = Vec::with_capacity(bytes.len() / 16 + 1);
        let mut start = 0;
        let mut cr = false;
        for pos in Breaks::new(bytes, b'\n', b'\r') {
            if pos < start {
                // The `\n` of a `\r\n` already consumed below.
                continue;
            }
            let ending = if bytes.get(pos) == Some(&b'\n') {
                Ending::Lf
            } else if bytes.get(pos + 1) == Some(&b'\n') {
                cr = true;
                Ending::CrLf
            } else {
                cr = true;
                Ending::Cr
            };
            lines.push(Line { start, end: pos, ending });
            start = pos + ending.byte_len();
        }
        if start < bytes.len() {
            lines.push(Line { start, end: bytes.len(), ending: Ending::None });
        }
        Lines { text, lines, cr }
    }

    /// The line table alone, to keep while the text is lent elsewhere (a
    /// stream keeps it between sections; [`Lines::from_parts`] puts it back).
    pub fn into_table(self) -> Vec<Line> {
        self.lines
    }

    /// `text` split into `lines`, which must be `Lines::split(text)`'s.
    pub fn from_parts(text: &'a str, lines: Vec<Line>) -> Self {
        let cr = memchr::memchr(b'\r', text.as_bytes()).is_some();
        Lines { text, lines, cr }
    }

    /// Whether the text holds a carriage return: without one, every line
    /// break is LF (found while splitting, so no pass over the text asks).
    pub fn has_cr(&self) -> bool {
        self.cr
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The content of line `i` (without its ending); `""` past the end.
    pub fn get(&self, i: usize) -> &'a str {
        self.lines.get(i).and_then(|l| self.text.get(l.start..l.end)).unwrap_or("")
    }

    #[cfg(test)]
    pub fn ending(&self, i: usize) -> Ending {
        self.lines.get(i).map_or(Ending::None, |l| l.ending)
    }

    /// The ending of the first line that has one (LF when none has).
    pub fn first_ending(&self) -> Ending {
        self.lines.iter().map(|l| l.ending).find(|e| !e.is_none()).unwrap_or(Ending::Lf)
    }

    /// Whether the last line is unterminated (false for an empty text).
    pub fn last_is_open(&self) -> bool {
        self.lines.last().is_some_and(|l| l.ending.is_none())
    }

    /// Offset where line `i` starts, or the end of the text for `i >= len`.
    fn start_of(&self, i: usize) -> usize {
        self.lines.get(i).map_or(self.text.len(), |l| l.start)
    }

    /// The bytes of lines `start..end` (endings included), clamped to the text.
    pub fn byte_range(&self, start: usize, end: usize) -> (usize, usize) {
        (self.start_of(start), self.start_of(end).max(self.start_of(start)))
    }
}

/// Whether two lines are equal. In wasm, `==` on strings calls the runtime's
/// `memcmp`, which compares one byte at a time: 4 to 6% of a call on real
/// edits went there, confirming the lines a search finds. With `simd128`
/// this compares sixteen bytes at a time (eight, then four, on shorter
/// lines, reading the ends of the line twice rather than byte by byte);
/// natively `==` is already fast.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return simd::same(a, b);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    return a == b;
}

/// The positions of every byte of a text equal to `a` or `b`, ascending.
///
/// In wasm (`simd128`) one pass reads thirty-two bytes at a time into a bit
/// mask: text is mostly short lines, and `memchr_iter` starts a new search
/// at every line, which there costs more than the mask. Natively memchr's
/// AVX2 search is the faster one.
pub struct Breaks<'a> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    scan: simd::Scan<'a>,
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    scan: memchr::Memchr2<'a>,
}

impl<'a> Breaks<'a> {
    pub fn new(bytes: &'a [u8], a: u8, b: u8) -> Self {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Breaks { scan: simd::Scan::new(bytes, a, b) };
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        return Breaks { scan: memchr::memchr2_iter(a, b, bytes) };
    }
}

impl Iterator for Breaks<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        self.scan.next()
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128, v128_any_true, v128_load, v128_or, v128_xor};

    /// Whether `a` and `b`, of one length, hold the same bytes.
    pub fn same(a: &[u8], b: &[u8]) -> bool {
        let n = a.len();
        let word = |s: &[u8], at: usize| s.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()).map_or(0, u64::from_le_bytes);
        let half = |s: &[u8], at: usize| s.get(at..at + 4).and_then(|w| <[u8; 4]>::try_from(w).ok()).map_or(0, u32::from_le_bytes);
        if n < 16 {
            return if n >= 8 {
                word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8)
            } else if n >= 4 {
                half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4)
            } else {
                a == b
            };
        }
        let block = |s: &[u8], at: usize| {
            s.get(at..at + 16).and_then(|c| <&[u8; 16]>::try_from(c).ok()).map(|c| {
                // SAFETY: the load reads the 16-byte array, and `v128_load` takes unaligned addresses.
                unsafe { v128_load(c.as_ptr().cast::<v128>()) }
            })
        };
        let differ = |at: usize| match (block(a, at), block(b, at)) {
            (Some(x), Some(y)) => v128_any_true(v128_xor(x, y)),
            _ => true,
        };
        // Blocks from the start, and the last sixteen bytes (which may
        // overlap the block before them).
        let mut at = 0;
        while at + 16 < n {
            if differ(at) {
                return false;
            }
            at += 16;
        }
        !differ(n - 16)
    }

    pub struct Scan<'a> {
        bytes: &'a [u8],
        a: u8,
        b: u8,
        /// Start of the chunk `mask` describes.
        at: usize,
        /// Start of the next chunk to read.
        next: usize,
        /// Bit `i`: byte `at + i` is `a` or `b` (and not returned yet).
        mask: u32,
    }

    impl<'a> Scan<'a> {
        pub fn new(bytes: &'a [u8], a: u8, b: u8) -> Self {
            Scan { bytes, a, b, at: 0, next: 0, mask: 0 }
        }

        /// Bit `i` is set when `chunk[i]` is `a` or `b`.
        fn mask(&self, chunk: &[u8; 16]) -> u32 {
            // SAFETY: the load reads the 16-byte array, and `v128_load` takes unaligned addresses.
            let v = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
            u32::from(u8x16_bitmask(v128_or(u8x16_eq(v, u8x16_splat(self.a)), u8x16_eq(v, u8x16_splat(self.b)))))
        }
    }

    impl Iterator for Scan<'_> {
        type Item = usize;

        fn next(&mut self) -> Option<usize> {
            while self.mask == 0 {
                let at = self.next;
                // Thirty-two bytes at a time (two vectors of sixteen), then
                // sixteen, then the padded tail. Most lines of code are longer
                // than sixteen bytes: one test per 32 bytes then finds more
                // of them without a break than two tests did (real edits 0.91
                // to 0.96 the time; 64 bytes at a time made short lines slower).
                let (mask, len) = if let Some(block) = self.bytes.get(at..at + 32) {
                    let (lo, hi) = block.split_at(16);
                    match (<&[u8; 16]>::try_from(lo), <&[u8; 16]>::try_from(hi)) {
                        (Ok(lo), Ok(hi)) => (self.mask(lo) | self.mask(hi) << 16, 32),
                        _ => (0, 32),
                    }
                } else if let Some(chunk) = self.bytes.get(at..at + 16).and_then(|c| <&[u8; 16]>::try_from(c).ok()) {
                    (self.mask(chunk), 16)
                } else {
                    let rest = self.bytes.get(at..).filter(|r| !r.is_empty())?;
                    // The tail, padded with bytes that are neither `a` nor `b`.
                    let pad = (0..3).find(|&p| p != self.a && p != self.b).unwrap_or(0);
                    let mut c = [pad; 16];
                    c.iter_mut().zip(rest).for_each(|(d, s)| *d = *s);
                    (self.mask(&c), 16)
                };
                self.mask = mask;
                self.at = at;
                self.next = at + len;
            }
            let i = self.mask.trailing_zeros() as usize;
            self.mask &= self.mask - 1;
            Some(self.at + i)
        }
    }
}

/// One change in line terms: lines `start..end` of the input are replaced by
/// `new` (an insertion when `start == end`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineEdit<'d> {
    pub start: usize,
    pub end: usize,
    /// The new lines: the diff's own text, or (for a repaired section) a
    /// re-indented copy.
    pub new: Vec<Cow<'d, str>>,
}

/// What happens to the text's final newline when edits are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalNewline {
    /// A text without a final newline (or an empty one) stays without one (Strict).
    Keep,
    /// Every line ends with a newline afterwards (Codex).
    Always,
}

/// One replacement in the input: bytes `start..end` become `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Splice {
    /// First byte replaced.
    pub start: usize,
    /// Byte after the last one replaced (`start` for an insertion).
    pub end: usize,
    /// The new text.
    pub text: String,
}

/// Piece of the rebuilt text: a kept range of the input, or new text.
enum Piece {
    Keep(usize, usize),
    Text(String),
}

/// Turns sorted, non-overlapping line edits into byte splices of the input.
///
/// New lines end with `nl`; kept lines keep their own ending. The rebuild
/// works on the input with a virtual `nl` after an unterminated last line
/// (so every line is whole), then applies the final-newline policy.
pub fn splices(lines: &Lines, edits: &[LineEdit], nl: Ending, policy: FinalNewline) -> Vec<Splice> {
    let len = lines.text().len();
    let virtual_end = if lines.last_is_open() { len + nl.byte_len() } else { len };
    let start_of = |i: usize| if i >= lines.len() { virtual_end } else { lines.start_of(i) };

    let mut pieces = Vec::with_capacity(edits.len() * 2 + 1);
    let mut pos = 0;
    for edit in edits {
        let (a, b) = (start_of(edit.start), start_of(edit.end));
        if a > pos {
            pieces.push(Piece::Keep(pos, a));
        }
        let mut text = String::with_capacity(edit.new.iter().map(|l| l.len() + 2).sum());
        for l in &edit.new {
            text.push_str(l);
            text.push_str(nl.as_str());
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        pos = pos.max(b);
    }
    if virtual_end > pos {
        pieces.push(Piece::Keep(pos, virtual_end));
    }

    if policy == FinalNewline::Keep && (lines.is_empty() || lines.last_is_open()) {
        strip_final_newline(&mut pieces, nl);
    }

    // Kept bytes past the real end are the virtual newline: emit it as text.
    let mut out: Vec<Splice> = Vec::with_capacity(edits.len() + 1);
    let mut kept_to = 0; // end of the last kept range of the input
    let mut pending = String::new();
    let flush = |out: &mut Vec<Splice>, upto: usize, kept_to: usize, pending: &mut String| {
        if upto > kept_to || !pending.is_empty() {
            out.push(Splice { start: kept_to, end: upto, text: std::mem::take(pending) });
        }
    };
    for piece in pieces {
        match piece {
            Piece::Keep(a, b) => {
                let real_b = b.min(len);
                if a < real_b {
                    flush(&mut out, a, kept_to, &mut pending);
                    kept_to = real_b;
                }
                if b > len {
                    pending.push_str(nl.as_str().get(a.max(len) - len..).unwrap_or(""));
                }
            }
            // The edit's text becomes the pending text itself when there is
            // none yet (most splices hold one edit's text): no second copy.
            Piece::Text(t) if pending.is_empty() => pending = t,
            Piece::Text(t) => pending.push_str(&t),
        }
    }
    flush(&mut out, len, kept_to, &mut pending);
    out
}

/// What [`splices`] with [`FinalNewline::Keep`] and then [`minimize`] give
/// for `edits` (sorted, disjoint, each `start <= end`): the splices of a
/// streamed section. Edits that all end before the last line, the common
/// case, are made into splices directly, one per run of edits with no line
/// kept between them, each trimmed in place; others (at the end of the
/// input, whose line break and final newline [`splices`] decides) go
/// through [`splices`].
pub fn minimal_splices(lines: &Lines, edits: &[LineEdit], nl: Ending) -> Vec<Splice> {
    if lines.is_empty() || edits.iter().any(|e| e.end >= lines.len()) {
        return minimize(lines.text(), &splices(lines, edits, nl, FinalNewline::Keep));
    }
    let text = lines.text();
    let mut out = Vec::with_capacity(edits.len());
    let mut rest = edits.iter().peekable();
    while let Some(first) = rest.next() {
        let (start, mut end) = (lines.start_of(first.start), lines.start_of(first.end));
        // Sized for the first edit's lines (a splice is most often one edit).
        let mut new = String::with_capacity(first.new.iter().map(|l| l.len() + nl.as_str().len()).sum());
        let mut edit = Some(first);
        while let Some(e) = edit {
            for l in &e.new {
                new.push_str(l);
                new.push_str(nl.as_str());
            }
            end = end.max(lines.start_of(e.end));
            // The next edit joins this splice when no line is kept before it.
            edit = rest.next_if(|e| lines.start_of(e.start) <= end);
        }
        let old = text.get(start..end).unwrap_or("");
        if let Some((prefix, suffix)) = common_ends(old, &new) {
            new.truncate(new.len() - suffix);
            new.replace_range(..prefix, "");
            out.push(Splice { start: start + prefix, end: end - suffix, text: new });
        }
    }
    out
}

/// Removes the last newline of the rebuilt text (which, being made of whole
/// lines, ends with one unless it is empty).
fn strip_final_newline(pieces: &mut Vec<Piece>, nl: Ending) {
    let emptied = match pieces.last_mut() {
        None => false,
        Some(Piece::Text(t)) => {
            t.truncate(t.len().saturating_sub(nl.byte_len()));
            t.is_empty()
        }
        Some(Piece::Keep(a, b)) => {
            *b = b.saturating_sub(nl.byte_len()).max(*a);
            a == b
        }
    };
    if emptied {
        pieces.pop();
    }
}

/// Applies splices (sorted, non-overlapping) to the text they were made for.
pub fn apply_splices(text: &str, splices: &[Splice]) -> String {
    let extra: usize = splices.iter().map(|s| s.text.len()).sum();
    let mut out = String::with_capacity(text.len() + extra);
    let mut pos = 0;
    for s in splices {
        out.push_str(text.get(pos..s.start).unwrap_or(""));
        out.push_str(&s.text);
        pos = s.end;
    }
    out.push_str(text.get(pos..).unwrap_or(""));
    out
}

/// The one splice that turns `old` into `new`: the part between their common
/// prefix and common suffix (none when they are equal).
pub fn difference(old: &str, new: &str) -> Option<Splice> {
    let (prefix, suffix) = common_ends(old, new)?;
    Some(Splice { start: prefix, end: old.len() - suffix, text: new.get(prefix..new.len() - suffix).unwrap_or("").to_string() })
}

/// The lengths in bytes of the longest common prefix of `old` and `new` and
/// of their longest common suffix after it (whole UTF-8 characters), or
/// `None` when they are equal.
fn common_ends(old: &str, new: &str) -> Option<(usize, usize)> {
    if old == new {
        return None;
    }
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let mut suffix = a.iter().rev().zip(b.iter().rev()).take(room).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    Some((prefix, suffix))
}

/// The splices trimmed to what they change: each one loses the characters
/// its old and new text share at the start and at the end (whole UTF-8
/// characters, so a UTF-16 surrogate pair is never split), and a splice that
/// changes nothing is dropped. Applied to `input` they give the same text.
/// Costs the length of the replaced ranges and their new texts.
pub fn minimize(input: &str, splices: &[Splice]) -> Vec<Splice> {
    splices
        .iter()
        .filter_map(|s| {
            let old = input.get(s.start..s.end)?;
            let d = difference(old, &s.text)?;
            Some(Splice { start: s.start + d.start, end: s.start + d.end, text: d.text })
        })
        .collect()
}

/// Folds `later`, a splice of the text that `done` gives applied to `input`,
/// into `done`, so that `done` (sorted, disjoint splices of `input`) gives
/// what `later` gives applied after it. Splices of `done` that `later`
/// overlaps or touches become one with it; the others keep their place (only
/// those after it see their new text move, and their input range stays). For
/// edits applied in sequence, each to the previous one's output: their
/// splices as splices of the text they started from. Costs the number of
/// splices in `done` plus the length of the merged ones.
pub fn compose(input: &str, done: &mut Vec<Splice>, later: &Splice) {
    // Where each splice of `done` starts in the current text: its input start
    // moved by the growth of those before it.
    let mut shift: isize = 0;
    let mut first: Option<(usize, isize)> = None; // first splice merged, and the shift before it
    let mut last = None; // the splice after the last one merged, and the shift after it
    for (i, d) in done.iter().enumerate() {
        let at = (d.start as isize + shift) as usize;
        let to = at + d.text.len();
        if to < later.start {
            shift += d.text.len() as isize - (d.end - d.start) as isize;
            continue;
        }
        if at > later.end {
            last = Some((i, shift));
            break;
        }
        first.get_or_insert((i, shift));
        shift += d.text.len() as isize - (d.end - d.start) as isize;
    }
    let (stop, after) = last.unwrap_or((done.len(), shift));
    let Some((from, before)) = first else {
        // Nothing of `done` there: the range is unchanged text of the input.
        let (start, end) = ((later.start as isize - after) as usize, (later.end as isize - after) as usize);
        done.insert(stop, Splice { start, end, text: later.text.clone() });
        return;
    };
    let merged = done.get(from..stop).unwrap_or(&[]);
    let (Some(a), Some(z)) = (merged.first(), merged.last()) else { return };
    // The merged range in the current text, and in the input.
    let cur_start = later.start.min((a.start as isize + before) as usize);
    let cur_end = later.end.max((z.end as isize + after) as usize);
    let start = (cur_start as isize - before) as usize;
    let end = (cur_end as isize - after) as usize;
    // The current text of that range, then `later` put in it.
    let mut current = String::new();
    let mut pos = start;
    for d in merged {
        current.push_str(input.get(pos..d.start).unwrap_or(""));
        current.push_str(&d.text);
        pos = d.end;
    }
    current.push_str(input.get(pos..end).unwrap_or(""));
    let mut text = String::with_capacity(current.len() + later.text.len());
    text.push_str(current.get(..later.start - cur_start).unwrap_or(""));
    text.push_str(&later.text);
    text.push_str(current.get(later.end - cur_start..).unwrap_or(""));
    done.splice(from..stop, [Splice { start, end, text }]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit<'d>(start: usize, end: usize, new: &[&'d str]) -> LineEdit<'d> {
        LineEdit { start, end, new: new.iter().map(|&l| Cow::Borrowed(l)).collect() }
    }

    /// minimal_splices is splices (Keep) then minimize, for every kind of
    /// edit run: adjacent edits, insertions, deletions, lines kept between,
    /// an edit that changes nothing, edits at the end of an input with and
    /// without a final newline, CRLF, characters of every width.
    #[test]
    fn minimal_splices_are_the_general_ones_minimized() {
        let words = ["a", "b", "é", "ũ", "😀x", "", "a b", "c"];
        let mut seed = 26u32;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize % n.max(1)
        };
        let mut fast = 0;
        for round in 0..3000 {
            let n = next(9);
            let nl = if round % 3 == 0 { Ending::CrLf } else { Ending::Lf };
            let mut text: String = (0..n).map(|_| format!("{}{}", words[next(words.len())], nl.as_str())).collect();
            if round % 4 == 1 && !text.is_empty() {
                text.truncate(text.len() - nl.as_str().len());
            }
            let lines = Lines::split(&text);
            let mut edits = Vec::new();
            let mut at = 0;
            while at <= lines.len() && next(3) > 0 {
                let start = at + next(2);
                let end = (start + next(3)).min(lines.len());
                if start > end {
                    break;
                }
                let new: Vec<&str> = (0..next(3)).map(|_| words[next(words.len())]).collect();
                edits.push(edit(start, end, &new));
                at = end + next(2);
            }
            if edits.iter().all(|e| e.end < lines.len()) && !lines.is_empty() {
                fast += 1;
            }
            let want = minimize(&text, &splices(&lines, &edits, nl, FinalNewline::Keep));
            assert_eq!(minimal_splices(&lines, &edits, nl), want, "{text:?} {edits:?}");
        }
        assert!(fast > 1000, "{fast} cases took the direct path");
    }

    fn run(text: &str, edits: &[LineEdit], nl: Ending, policy: FinalNewline) -> String {
        let lines = Lines::split(text);
        apply_splices(text, &splices(&lines, edits, nl, policy))
    }

    #[test]
    fn split_keeps_endings() {
        let l = Lines::split("a\r\nb\nc\rd");
        let endings: Vec<_> = l.lines().iter().map(|l| l.ending).collect();
        assert_eq!(endings, [Ending::CrLf, Ending::Lf, Ending::Cr, Ending::None]);
        assert_eq!((l.get(0), l.get(1), l.get(2), l.get(3)), ("a", "b", "c", "d"));
        assert_eq!(Lines::split("").len(), 0);
        assert_eq!(Lines::split("\n").len(), 1);
        assert_eq!(Lines::split("\r").ending(0), Ending::Cr);
    }

    #[test]
    fn rebuild_keeps_missing_final_newline() {
        let keep = FinalNewline::Keep;
        assert_eq!(run("a", &[edit(0, 1, &["b"])], Ending::Lf, keep), "b");
        assert_eq!(run("a", &[edit(1, 1, &["b"])], Ending::Lf, keep), "a\nb");
        assert_eq!(run("a\nb", &[edit(1, 2, &[])], Ending::Lf, keep), "a");
        assert_eq!(run("a\nb", &[edit(0, 1, &["x"]), edit(1, 2, &[])], Ending::Lf, keep), "x");
        assert_eq!(run("a\nb", &[edit(0, 2, &[])], Ending::Lf, keep), "");
        assert_eq!(run("", &[edit(0, 0, &["a"])], Ending::Lf, keep), "a");
        assert_eq!(run("a\n", &[edit(1, 1, &["b"])], Ending::Lf, keep), "a\nb\n");
        assert_eq!(run("a\r\nb\r\n", &[edit(0, 1, &["c"])], Ending::CrLf, keep), "c\r\nb\r\n");
    }

    #[test]
    fn rebuild_always_adds_final_newline() {
        let always = FinalNewline::Always;
        assert_eq!(run("a\r\nb", &[edit(0, 1, &["A"])], Ending::CrLf, always), "A\r\nb\r\n");
        assert_eq!(run("", &[edit(0, 0, &["hello"])], Ending::Lf, always), "hello\n");
        assert_eq!(run("a\nb", &[edit(2, 2, &["c"])], Ending::Lf, always), "a\nb\nc\n");
    }

    #[test]
    fn difference_is_one_minimal_splice() {
        let d = difference("abcXdef", "abcYYdef").unwrap();
        assert_eq!((d.start, d.end, d.text.as_str()), (3, 4, "YY"));
        assert_eq!(difference("same", "same"), None);
        let d = difference("aé", "aè").unwrap();
        assert_eq!(apply_splices("aé", &[d]), "aè");
        let d = difference("aaa", "aa").unwrap();
        assert_eq!(apply_splices("aaa", &[d]), "aa");
        // é (C3 A9) and ũ (C5 A9) end with the same byte: the common end
        // starts inside them, and is moved to the next character's start.
        let d = difference("xéy", "xũy").unwrap();
        assert_eq!((d.start, d.end, d.text.as_str()), (1, 3, "ũ"));
        let d = difference("é", "ũ").unwrap();
        assert_eq!((d.start, d.end, d.text.as_str()), (0, 2, "ũ"));
    }

    #[test]
    fn minimize_trims_shared_characters() {
        let input = "one\ntwo\nthree\n";
        let lines = Lines::split(input);
        let s = splices(&lines, &[edit(1, 2, &["tWo"]), edit(2, 3, &["three"])], Ending::Lf, FinalNewline::Keep);
        let m = minimize(input, &s);
        assert_eq!(m, [Splice { start: 5, end: 6, text: "W".into() }]);
        assert_eq!(apply_splices(input, &m), apply_splices(input, &s));
        // Never inside a character: é and è share their first byte.
        let m = minimize("aé", &[Splice { start: 0, end: 3, text: "aè".into() }]);
        assert_eq!(m, [Splice { start: 1, end: 3, text: "è".into() }]);
        assert_eq!(lines.byte_range(1, 3), (4, 14));
        assert_eq!(lines.byte_range(3, 3), (14, 14));
    }

    #[test]
    fn splices_touch_only_changed_bytes() {
        let text = "one\ntwo\nthree\n";
        let lines = Lines::split(text);
        let s = splices(&lines, &[edit(1, 2, &["2"])], Ending::Lf, FinalNewline::Keep);
        assert_eq!(s, [Splice { start: 4, end: 8, text: "2\n".into() }]);
    }
}
