//! Line similarity as apply-edit-block defines it — the length of the longest
//! common subsequence of two lists of lines (lines equal byte for byte),
//! divided by the longer list's length — and the window scan of the fuzzy
//! strategy, made cheap without changing a single reported score.
//!
//! - Lines are mapped to small class ids: one per distinct line of the
//!   *pattern* (the SEARCH text); every other line gets `NONE` and can never
//!   be part of a common subsequence, so it costs nothing.
//! - The LCS length is computed bit-parallel (Hyyrö's formulation of the
//!   Allison–Dix algorithm): one pass over the text, `⌈m/64⌉` word operations
//!   per text line that occurs in the pattern.
//! - `Pattern::scan` slides a window of the pattern's length over the text
//!   and computes the exact LCS only where an upper bound says it can still
//!   matter: the bound is the smaller of the multiset intersection of the two
//!   windows' lines (kept up to date in O(1) per step) and the last exact value
//!   plus the pattern lines that entered since (one line in can raise the LCS
//!   by at most one). A window is computed exactly when its bound beats the
//!   best so far (so the best score — which apply-edit-block reports even on
//!   failure — is exact, with ties going to the first window) or when it could
//!   reach the threshold (so every matching window is known and counted).

use std::collections::HashMap;

use crate::error::Result;
use crate::limits::Budget;
use std::hash::{BuildHasherDefault, Hasher};

/// The class of a line that is not in the pattern.
pub(crate) const NONE: u32 = u32::MAX;

/// A small, fast hasher for line strings (FxHash's multiply-rotate over 8-byte
/// words): the maps hold the few SEARCH lines and are probed with every line
/// of the file, and std's SipHash costs far more here. Every byte is hashed:
/// long lines that share their first, middle and last bytes (rows of a table)
/// would otherwise all collide, and each probe compare them all.
#[derive(Default, Clone, Copy)]
pub(crate) struct LineHasher(u64);

const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

fn word(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    if let Some(src) = bytes.get(at..at + 8) {
        w.copy_from_slice(src);
    }
    u64::from_le_bytes(w)
}

impl Hasher for LineHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let mut h = mix(self.0, bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            h = mix(h, word(c, 0));
        }
        for &b in chunks.remainder() {
            h = mix(h, u64::from(b));
        }
        self.0 = h;
    }

    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(K);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type LineMap<'a> = HashMap<&'a str, u32, BuildHasherDefault<LineHasher>>;

/// Most words of dense bit masks a pattern keeps (8 MiB); past it the masks
/// are kept sparse, so a pattern's memory stays linear in its lines.
const DENSE_WORDS: usize = 1 << 20;

/// A pattern (list of lines) ready for bit-parallel LCS against texts.
pub(crate) struct Pattern<'a> {
    /// Class id of each distinct pattern line.
    classes: LineMap<'a>,
    /// Bit `l` is set when some pattern line is `l` bytes long (lengths of
    /// 4096 and more share the last bit): most text lines are ruled out
    /// without hashing.
    lengths: [u64; 64],
    /// Class id of each pattern line, in order.
    ids: Vec<u32>,
    /// Each class's bit mask over the pattern positions: `words` words per
    /// class, or (when that would be too large) only its nonzero words.
    masks: Masks,
    /// How often each class occurs in the pattern.
    counts: Vec<u32>,
    words: usize,
}

enum Masks {
    /// `words` words per class, class after class.
    Dense(Vec<u64>),
    /// The nonzero words `(index, word)` of class `c` are
    /// `words[at[c]..at[c + 1]]`: at most one per pattern line in all.
    Sparse { at: Vec<u32>, words: Vec<(u32, u64)> },
}

impl<'a> Pattern<'a> {
    pub(crate) fn new<I: IntoIterator<Item = &'a str>>(lines: I) -> Self {
        Self::build(lines, DENSE_WORDS)
    }

    /// A pattern whose masks are dense when they take at most `dense` words.
    fn build<I: IntoIterator<Item = &'a str>>(lines: I, dense: usize) -> Self {
        let mut classes = LineMap::default();
        let mut ids = Vec::new();
        let mut lengths = [0u64; 64];
        for line in lines {
            let bit = line.len().min(4095);
            if let Some(w) = lengths.get_mut(bit / 64) {
                *w |= 1u64 << (bit % 64);
            }
            let next = u32::try_from(classes.len()).unwrap_or(NONE - 1);
            let id = *classes.entry(line).or_insert(next);
            ids.push(id);
        }
        let words = ids.len().div_ceil(64).max(1);
        let mut counts = vec![0u32; classes.len()];
        for &id in &ids {
            if let Some(c) = counts.get_mut(id as usize) {
                *c += 1;
            }
        }
        let masks = if classes.len().saturating_mul(words) <= dense {
            let mut masks = vec![0u64; classes.len() * words];
            for (pos, &id) in ids.iter().enumerate() {
                if let Some(w) = masks.get_mut(id as usize * words + pos / 64) {
                    *w |= 1u64 << (pos % 64);
                }
            }
            Masks::Dense(masks)
        } else {
            // Positions grouped by class (counting sort), in order, so each
            // class's words come out sorted and merged.
            let mut at = vec![0u32; classes.len() + 1];
            for (c, &n) in counts.iter().enumerate() {
                let prev = at.get(c).copied().unwrap_or(0);
                if let Some(slot) = at.get_mut(c + 1) {
                    *slot = prev + n;
                }
            }
            let mut fill = at.clone();
            let mut positions = vec![0u32; ids.len()];
            for (pos, &id) in ids.iter().enumerate() {
                if let Some(slot) = fill.get_mut(id as usize) {
                    if let Some(p) = positions.get_mut(*slot as usize) {
                        *p = pos as u32;
                    }
                    *slot += 1;
                }
            }
            let mut sparse: Vec<(u32, u64)> = Vec::new();
            let mut starts = vec![0u32; classes.len() + 1];
            for c in 0..classes.len() {
                let lo = at.get(c).copied().unwrap_or(0) as usize;
                let hi = at.get(c + 1).copied().unwrap_or(0) as usize;
                for &pos in positions.get(lo..hi).unwrap_or(&[]) {
                    let (w, bit) = (pos / 64, 1u64 << (pos % 64));
                    let own = sparse.len() > starts.get(c).copied().unwrap_or(0) as usize;
                    match sparse.last_mut() {
                        Some((lw, word)) if own && *lw == w => *word |= bit,
                        _ => sparse.push((w, bit)),
                    }
                }
                if let Some(slot) = starts.get_mut(c + 1) {
                    *slot = sparse.len() as u32;
                }
            }
            Masks::Sparse { at: starts, words: sparse }
        };
        Pattern { classes, lengths, ids, masks, counts, words }
    }

    /// Word operations of one LCS step (one text line in the pattern).
    pub(crate) fn step_cost(&self) -> u64 {
        self.words as u64
    }

    /// Number of lines in the pattern.
    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// The class of a text line: its pattern class, or [`NONE`].
    pub(crate) fn class(&self, line: &str) -> u32 {
        let bit = line.len().min(4095);
        if self.lengths.get(bit / 64).is_some_and(|w| w & (1u64 << (bit % 64)) == 0) {
            return NONE;
        }
        #[cfg(test)]
        LOOKED_UP.with(|c| c.set(c.get() + 1));
        self.classes.get(line).copied().unwrap_or(NONE)
    }

    /// The bit mask of `class` (`words` words); a sparse one is written out
    /// into `scratch`.
    fn mask<'s>(&'s self, class: u32, scratch: &'s mut Vec<u64>) -> &'s [u64] {
        match &self.masks {
            Masks::Dense(masks) => {
                let start = class as usize * self.words;
                masks.get(start..start + self.words).unwrap_or(&[])
            }
            Masks::Sparse { at, words } => {
                scratch.clear();
                scratch.resize(self.words, 0);
                let lo = at.get(class as usize).copied().unwrap_or(0) as usize;
                let hi = at.get(class as usize + 1).copied().unwrap_or(0) as usize;
                for &(w, bits) in words.get(lo..hi).unwrap_or(&[]) {
                    if let Some(slot) = scratch.get_mut(w as usize) {
                        *slot = bits;
                    }
                }
                scratch
            }
        }
    }

    /// LCS length of the pattern and a text given as classes. The caller
    /// pays for it: [`Pattern::step_cost`] per text line in the pattern.
    pub(crate) fn lcs<I: IntoIterator<Item = u32>>(&self, text: I, v: &mut Vec<u64>) -> usize {
        v.clear();
        v.resize(self.words, !0u64);
        let mut scratch = Vec::new();
        for class in text {
            if class == NONE {
                continue;
            }
            let mask = self.mask(class, &mut scratch);
            let mut carry = 0u64;
            for (vw, &m) in v.iter_mut().zip(mask) {
                let u = *vw & m;
                let (s1, c1) = vw.overflowing_add(u);
                let (s2, c2) = s1.overflowing_add(carry);
                carry = u64::from(c1 | c2);
                *vw = s2 | (*vw & !m);
            }
        }
        // Zero bits among the pattern's positions are the LCS.
        let m = self.ids.len();
        let mut zeros = 0usize;
        for (w, &word) in v.iter().enumerate() {
            let bits = m.saturating_sub(w * 64).min(64);
            let valid = if bits == 64 { !0u64 } else { (1u64 << bits) - 1 };
            zeros += (!word & valid).count_ones() as usize;
        }
        zeros
    }

    /// Slides a window of `self.len()` lines over `text` (classes of the text's
    /// lines; needs `text.len() >= self.len() > 0`) and returns the best window
    /// (first of the highest LCS) and every window whose LCS is at least
    /// `need` (`need > len` counts none).
    /// Each exact computation is paid from `budget` first (an error when it
    /// runs out).
    pub(crate) fn scan(&self, text: &[u32], need: usize, budget: &Budget) -> Result<Scan> {
        let n = self.len();
        let mut scan = Scan { best_lcs: 0, best_index: 0, matching: Vec::new(), computed: 0 };
        if n == 0 || text.len() < n {
            return Ok(scan);
        }
        let mut in_window = vec![0u32; self.counts.len()];
        // Multiset intersection of the window's and the pattern's lines.
        let mut bag = 0usize;
        let add = |class: u32, in_window: &mut [u32], bag: &mut usize| {
            if let (Some(w), Some(&p)) = (in_window.get_mut(class as usize), self.counts.get(class as usize)) {
                if *w < p {
                    *bag += 1;
                }
                *w += 1;
            }
        };
        let remove = |class: u32, in_window: &mut [u32], bag: &mut usize| {
            if let (Some(w), Some(&p)) = (in_window.get_mut(class as usize), self.counts.get(class as usize)) {
                *w = w.saturating_sub(1);
                if *w < p {
                    *bag = bag.saturating_sub(1);
                }
            }
        };
        // Lines of the window that are in the pattern: what an LCS costs.
        let mut known = 0u64;
        for &c in text.iter().take(n) {
            add(c, &mut in_window, &mut bag);
            known += u64::from(c != NONE);
        }
        let mut best: Option<usize> = None;
        // Upper bound carried from the last exact computation.
        let mut lipschitz = usize::MAX;
        let mut v = Vec::with_capacity(self.words);
        let last = text.len() - n;
        for i in 0..=last {
            if i > 0 {
                if let Some(&out) = text.get(i - 1) {
                    remove(out, &mut in_window, &mut bag);
                    known -= u64::from(out != NONE);
                }
                if let Some(&inc) = text.get(i + n - 1) {
                    add(inc, &mut in_window, &mut bag);
                    if inc != NONE {
                        known += 1;
                        lipschitz = lipschitz.saturating_add(1);
                    }
                }
            }
            let bound = bag.min(lipschitz);
            let could_win = best.is_none_or(|b| bound > b);
            if !could_win && bound < need {
                continue;
            }
            let lcs = if bound == 0 {
                0
            } else {
                scan.computed += 1;
                budget.spend(known * self.step_cost())?;
                self.lcs(text.get(i..i + n).unwrap_or(&[]).iter().copied(), &mut v)
            };
            lipschitz = lcs;
            if best.is_none_or(|b| lcs > b) {
                best = Some(lcs);
                scan.best_index = i;
            }
            if lcs >= need {
                scan.matching.push((i, lcs));
            }
        }
        scan.best_lcs = best.unwrap_or(0);
        Ok(scan)
    }
}

/// The result of [`Pattern::scan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Scan {
    pub best_lcs: usize,
    /// First window with `best_lcs`.
    pub best_index: usize,
    /// Every window whose LCS reached `need`: `(index, lcs)`, in order.
    pub matching: Vec<(usize, usize)>,
    /// Windows whose LCS was computed (for tests and tuning).
    pub computed: usize,
}

#[cfg(test)]
thread_local! {
    /// Similarities computed on this thread (what an exact match skips).
    pub(crate) static COMPUTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Lines [`Pattern::class`] looked up in its map (what the length filter saves).
    static LOOKED_UP: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// apply-edit-block's `similarity(a, b)`: LCS of the `\n`-separated lines
/// over the longer line count (so `similarity("", "") == 1`).
///
/// Exact, and cheap when the texts are alike or unrelated: common first and
/// last lines count directly, and lines that only one side has are left
/// out. What remains costs (lines of one) x (lines of the other)/64 word
/// operations; over [`MAX_WORK`](crate::limits::MAX_WORK) the call fails with
/// `input_too_large` (as it does for a text over the size limits).
pub fn similarity(a: &str, b: &str) -> Result<f64> {
    #[cfg(test)]
    COMPUTED.with(|c| c.set(c.get() + 1));
    crate::limits::check_text("the first text", a)?;
    crate::limits::check_text("the second text", b)?;
    let la: Vec<&str> = a.split('\n').collect();
    let lb: Vec<&str> = b.split('\n').collect();
    let longest = la.len().max(lb.len());
    let prefix = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (la.get(prefix..).unwrap_or(&[]), lb.get(prefix..).unwrap_or(&[]));
    let suffix = ra.iter().rev().zip(rb.iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (ra.get(..ra.len() - suffix).unwrap_or(&[]), rb.get(..rb.len() - suffix).unwrap_or(&[]));
    // Only lines both sides have can be common; the shorter side is the pattern.
    let in_a = Pattern::new(ma.iter().copied());
    let mb: Vec<&str> = mb.iter().copied().filter(|l| in_a.class(l) != NONE).collect();
    let in_b = Pattern::new(mb.iter().copied());
    let ma: Vec<&str> = ma.iter().copied().filter(|l| in_b.class(l) != NONE).collect();
    let (short, long) = if ma.len() <= mb.len() { (ma, mb) } else { (mb, ma) };
    let pattern = Pattern::new(short.iter().copied());
    let budget = Budget::new("the similarity of these texts");
    budget.spend((long.len() as u64).saturating_mul(pattern.step_cost()))?;
    let middle = if short.is_empty() { 0 } else { pattern.lcs(long.iter().map(|l| pattern.class(l)), &mut Vec::new()) };
    Ok(ratio(prefix + suffix + middle, longest))
}

/// `lcs / len` as apply-edit-block computes it (a float division of integers).
pub(crate) fn ratio(lcs: usize, len: usize) -> f64 {
    if len == 0 {
        return 1.0;
    }
    lcs as f64 / len as f64
}

/// The smallest LCS whose ratio over `n` is `>= threshold` (as floats), or
/// `n + 1` when none is.
pub(crate) fn needed_lcs(n: usize, threshold: f64) -> usize {
    // ratio(l, n) grows with l: binary search the first l that passes.
    let (mut lo, mut hi) = (0usize, n + 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if ratio(mid, n) >= threshold {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Classic O(n·m) LCS by dynamic programming, for tests and small inputs.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) fn naive_lcs<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y { prev[j] + 1 } else { cur[j].max(prev[j + 1]) };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

// Host only: proptest does not build for wasm32 (tests/wasm.rs covers wasm).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_similarity(a: &str, b: &str) -> f64 {
        let la: Vec<&str> = a.split('\n').collect();
        let lb: Vec<&str> = b.split('\n').collect();
        naive_lcs(&la, &lb) as f64 / la.len().max(lb.len()) as f64
    }

    /// The fuzzy scan as apply-edit-block does it: every window, exact LCS.
    fn naive_scan(pattern: &[&str], text: &[&str], threshold: f64) -> (usize, usize, Vec<(usize, usize)>) {
        let n = pattern.len();
        let (mut best, mut best_i) = (None, 0);
        let mut matching = Vec::new();
        for i in 0..=text.len() - n {
            let l = naive_lcs(pattern, &text[i..i + n]);
            if best.is_none_or(|b| l > b) {
                best = Some(l);
                best_i = i;
            }
            if l as f64 / n as f64 >= threshold {
                matching.push((i, l));
            }
        }
        (best.unwrap(), best_i, matching)
    }

    #[test]
    fn similarity_values() {
        assert_eq!(similarity("a\nb\nc", "a\nb\nc").unwrap(), 1.0);
        assert_eq!(similarity("a\nb\nc", "x\ny\nz").unwrap(), 0.0);
        assert_eq!(similarity("", "").unwrap(), 1.0);
        assert_eq!(similarity("  line1 = 1;\n  line2 = 2;\n  line3 = 99;", "  line1 = 1;\n  line2 = 2;\n  line3 = 2;").unwrap(), 2.0 / 3.0);
        assert_eq!(similarity("a", "a\nb\nc\nd").unwrap(), 0.25);
        // Symmetric, and duplicates count once per occurrence.
        assert_eq!(similarity("a\na\nb", "a\nb\na").unwrap(), similarity("a\nb\na", "a\na\nb").unwrap());
    }

    #[test]
    fn lcs_across_words() {
        // Patterns longer than one 64-bit word carry between words.
        let a: Vec<String> = (0..200).map(|i| format!("l{}", i % 37)).collect();
        let b: Vec<String> = (0..150).map(|i| format!("l{}", (i * 7) % 41)).collect();
        let (ja, jb) = (a.join("\n"), b.join("\n"));
        assert_eq!(similarity(&ja, &jb).unwrap(), naive_similarity(&ja, &jb));
    }

    /// A line of a length no pattern line has is no class without a lookup.
    #[test]
    fn lines_of_other_lengths_are_classed_without_a_lookup() {
        let p = Pattern::build(["abc", "de"], usize::MAX);
        let looked = || LOOKED_UP.with(std::cell::Cell::get);
        let before = looked();
        for line in ["x".repeat(5), "y".repeat(64), String::new(), "z".repeat(5000)] {
            assert_eq!(p.class(&line), NONE);
        }
        assert_eq!(looked() - before, 0);
        assert_ne!(p.class("abc"), NONE);
        assert_eq!(p.class("xyz"), NONE);
        assert_eq!(looked() - before, 2);
    }

    /// A text shorter than the pattern has no window.
    #[test]
    fn a_text_shorter_than_the_pattern_has_no_window() {
        let p = Pattern::build(["a", "b", "c"], usize::MAX);
        let text = [p.class("a"), p.class("b")];
        let scan = p.scan(&text, 1, &crate::limits::Budget::new("the test")).unwrap();
        assert_eq!((scan.best_lcs, scan.best_index, scan.matching.len(), scan.computed), (0, 0, 0, 0));
    }

    #[test]
    fn long_lines_differing_between_samples_hash_apart() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let hash = |s: &str| BuildHasherDefault::<LineHasher>::default().hash_one(s);
        let line = |i: usize| format!("{}{i:04}{}", "p".repeat(20), "q".repeat(76));
        let hashes: std::collections::HashSet<u64> = (0..1000).map(|i| hash(&line(i))).collect();
        assert_eq!(hashes.len(), 1000);
    }

    #[test]
    fn sparse_masks_give_the_same_lcs() {
        let a: Vec<String> = (0..300).map(|i| format!("l{}", (i * 13) % 97)).collect();
        let b: Vec<String> = (0..250).map(|i| format!("l{}", (i * 7) % 89)).collect();
        let dense = Pattern::build(a.iter().map(String::as_str), usize::MAX);
        let sparse = Pattern::build(a.iter().map(String::as_str), 0);
        assert!(matches!(dense.masks, Masks::Dense(_)) && matches!(sparse.masks, Masks::Sparse { .. }));
        let classes: Vec<u32> = b.iter().map(|l| dense.class(l)).collect();
        let want = naive_lcs(&a, &b);
        assert_eq!(dense.lcs(classes.iter().copied(), &mut Vec::new()), want);
        assert_eq!(sparse.lcs(classes.iter().copied(), &mut Vec::new()), want);
    }

    #[test]
    fn a_pattern_of_many_distinct_lines_keeps_sparse_masks() {
        // 140,000 distinct lines: dense masks would take 140,000 x 2,188 words (2.4 GB).
        let lines: Vec<String> = (0..140_000).map(|i| format!("{i}")).collect();
        let p = Pattern::new(lines.iter().map(String::as_str));
        let Masks::Sparse { words, .. } = &p.masks else { panic!("dense masks for 140,000 classes") };
        assert_eq!(words.len(), 140_000);
    }

    #[test]
    fn similarity_is_exact_past_common_and_one_sided_lines() {
        // Alike texts: the common first and last lines count without LCS work.
        let a: Vec<String> = (0..300_000).map(|i| format!("line {i}")).collect();
        let mut b = a.clone();
        b[150_000] = "changed".into();
        assert_eq!(similarity(&a.join("\n"), &b.join("\n")).unwrap(), 299_999.0 / 300_000.0);
        // Unrelated texts: no line is on both sides.
        let c: Vec<String> = (0..300_000).map(|i| format!("other {i}")).collect();
        assert_eq!(similarity(&a.join("\n"), &c.join("\n")).unwrap(), 0.0);
        // The same lines in another order: exact within the limit, refused past it.
        let small: Vec<String> = (0..2_000).map(|i| format!("l{i}")).collect();
        let rev: Vec<String> = small.iter().rev().cloned().collect();
        assert_eq!(similarity(&small.join("\n"), &rev.join("\n")).unwrap(), 1.0 / 2_000.0);
        let rev: Vec<String> = a.iter().rev().cloned().collect();
        let e = similarity(&a.join("\n"), &rev.join("\n")).unwrap_err();
        assert_eq!(e.kind, crate::ErrorKind::InputTooLarge);
        assert_eq!(e.message, "the similarity of these texts needs more than 268435456 word operations of line comparison (lines x lines/64), the most applypatch does in one call. Use a shorter text, or a smaller part of the file.");
    }

    #[test]
    fn needed_lcs_matches_float_comparison() {
        for n in 1..40 {
            for t in [0.0, 0.1, 0.5, 0.6, 2.0 / 3.0, 0.85, 0.95, 1.0, 1.5, -1.0, f64::NAN] {
                let need = needed_lcs(n, t);
                let want = (0..=n).find(|&l| l as f64 / n as f64 >= t).unwrap_or(n + 1);
                assert_eq!(need, want, "n={n} t={t}");
            }
        }
    }

    #[test]
    fn scan_skips_most_windows_of_unrelated_text() {
        let pattern: Vec<String> = (0..50).map(|i| format!("search line {i}")).collect();
        let text: Vec<String> = (0..10_000).map(|i| format!("file line {i}")).collect();
        let p = Pattern::new(pattern.iter().map(String::as_str));
        let classes: Vec<u32> = text.iter().map(|l| p.class(l)).collect();
        let s = p.scan(&classes, needed_lcs(50, 0.85), &Budget::new("test")).unwrap();
        assert_eq!((s.best_lcs, s.best_index, s.computed), (0, 0, 0));
    }

    fn small_lines(max: usize) -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec(prop::sample::select(vec!["a", "b", "c", "", "}", "x y"]).prop_map(String::from), 1..max)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

        /// The bounded scan reports exactly what scoring every window reports:
        /// the best score, the first window with it, and every window at or
        /// above the threshold.
        #[test]
        fn bounded_scan_equals_naive_scan(
            pattern in small_lines(12),
            text in small_lines(60),
            threshold in prop::sample::select(vec![0.0, 0.3, 0.5, 0.6, 0.85, 0.95, 1.0]),
        ) {
            prop_assume!(text.len() >= pattern.len());
            let p = Pattern::new(pattern.iter().map(String::as_str));
            let classes: Vec<u32> = text.iter().map(|l| p.class(l)).collect();
            let s = p.scan(&classes, needed_lcs(pattern.len(), threshold), &Budget::new("test")).unwrap();
            let pr: Vec<&str> = pattern.iter().map(String::as_str).collect();
            let tr: Vec<&str> = text.iter().map(String::as_str).collect();
            let (best, best_i, matching) = naive_scan(&pr, &tr, threshold);
            prop_assert_eq!((s.best_lcs, s.best_index), (best, best_i));
            prop_assert_eq!(s.matching, matching);
        }

        #[test]
        fn similarity_equals_naive(a in small_lines(80), b in small_lines(80)) {
            let (a, b) = (a.join("\n"), b.join("\n"));
            prop_assert_eq!(similarity(&a, &b).unwrap(), naive_similarity(&a, &b));
        }
    }
}
