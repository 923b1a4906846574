//! An index of the input's lines, built once per input, so that finding a
//! block of lines costs time in proportion to the places it could be, not to
//! the size of the file.
//!
//! Each line gets a fingerprint from its length and its bytes. Lines are grouped
//! by fingerprint bucket in one flat array (counting sort), so the lines of a
//! bucket are a sorted slice and "occurrences at or after line `from`" is a
//! binary search. Candidates are always confirmed byte for byte.
//!
//! The table is built only when it pays: the first searches of a call
//! ([`direct_scans`]) scan the lines instead, comparing lengths first. A diff
//! of a few sections on an ordinary file does only a handful of searches,
//! and a scan costs a fraction of building the table, which hashes every
//! byte of the input. Both give the same places in the same order.
//!
//! Over 600 lines with its unit tests (the code is about 440).

use std::borrow::Cow;
use std::cell::{Cell, OnceCell};

use super::linear;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::MAX_WORK;
use crate::text::{same, Line, Lines};

/// Line comparisons that the searches of one call may make per input line,
/// beyond [`MAX_WORK`]: a few hundred passes over the input.
pub const PASSES: u64 = 256;

/// Scans of every line that one index may do instead of building its
/// fingerprint table, on top of [`SCAN_LINES`]: building the table costs
/// about as much as this many scans of a large file...
pub const DIRECT_SCANS: usize = 6;

/// ... and on a small file, where allocating the table costs more than its
/// hashing, about as much as scans of this many lines in all (a file of 500
/// lines: 16 more scans).
pub const SCAN_LINES: usize = 8_192;

#[cfg(test)]
thread_local! {
    /// Lines compared byte for byte by [`Index::line_is`] on this thread: what
    /// the fingerprints and a scan's length and tail filter save (src/matcher/cost.rs).
    pub(super) static COMPARED: Cell<u64> = const { Cell::new(0) };
    /// Lines a scan (before the table) has read on this thread, to find
    /// those of the searched line's length and tail.
    pub(super) static SCANNED: Cell<u64> = const { Cell::new(0) };
    /// Lines [`fingerprint_at`] hashed from a copy of their own bytes, not
    /// in place (only those that start within eight bytes of the end).
    static COPIED: Cell<u64> = const { Cell::new(0) };
}

/// The searches an index of `lines` lines does by scanning before it builds
/// its table.
pub fn direct_scans(lines: usize) -> usize {
    DIRECT_SCANS + SCAN_LINES / lines.max(1)
}

pub struct Index<'t> {
    lines: &'t Lines<'t>,
    /// Built at the first search after [`direct_scans`] direct ones.
    table: OnceCell<Table>,
    /// Searches that may still scan the lines.
    scans: Cell<usize>,
    /// Line comparisons done by searches so far ([`Index::check_work`]).
    spent: Cell<u64>,
}

/// What an index has built and counted, kept between the sections of a
/// stream ([`Index::save`]).
#[derive(Debug, Default)]
pub struct Saved {
    table: OnceCell<Table>,
    scans: usize,
    spent: u64,
}

/// Every line's fingerprint, and the lines grouped by fingerprint bucket.
#[derive(Debug)]
struct Table {
    fps: Vec<u32>,
    /// Bucket `b` holds `entries[offsets[b]..offsets[b + 1]]`, ascending.
    offsets: Vec<u32>,
    entries: Vec<u32>,
    mask: u32,
}

impl Table {
    fn new(lines: &Lines) -> Self {
        let n = lines.len();
        let text = lines.text().as_bytes();
        let fps: Vec<u32> = lines.lines().iter().map(|l| fingerprint_at(text, l.start, l.end)).collect();
        // About four lines per bucket: smaller tables than one per line, so
        // building them on a large file misses the cache less; a bucket's
        // other lines are told apart by their fingerprints.
        let buckets = (n / 4).next_power_of_two().clamp(16, 1 << 28);
        let mask = (buckets - 1) as u32;
        // Counting sort: `offsets[b]` counts bucket b, then (summed) is where
        // it ends; filling from the last line back moves it to where the
        // bucket starts, each bucket ascending. `offsets[buckets]` is `n`.
        let mut offsets = vec![0u32; buckets + 1];
        for fp in &fps {
            if let Some(c) = offsets.get_mut((fp & mask) as usize) {
                *c += 1;
            }
        }
        let mut sum = 0u32;
        for c in offsets.iter_mut() {
            sum += *c;
            *c = sum;
        }
        let mut entries = vec![0u32; n];
        for (i, fp) in fps.iter().enumerate().rev() {
            if let Some(slot) = offsets.get_mut((fp & mask) as usize) {
                *slot -= 1;
                if let Some(e) = entries.get_mut(*slot as usize) {
                    *e = i as u32;
                }
            }
        }
        Table { fps, offsets, entries, mask }
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
}

/// The lines where a search looks for one given line, ascending: those of
/// its fingerprint bucket, or (scanning) every line of its length. Each is
/// still confirmed byte for byte.
enum Candidates<'s> {
    Bucket(std::slice::Iter<'s, u32>),
    Scan(Scan<'s>),
}

/// Lines of one length whose last eight bytes are the ones given (lines
/// shorter than eight bytes: all of that length), from line `next` on and
/// before line `end`.
struct Scan<'s> {
    lines: &'s [Line],
    text: &'s [u8],
    next: usize,
    end: usize,
    len: usize,
    tail: u64,
}

impl<'s> Scan<'s> {
    fn new(lines: &'s Lines<'s>, from: usize, end: usize, line: &str) -> Self {
        let text = lines.text().as_bytes();
        let end = end.min(lines.len());
        Scan { lines: lines.lines(), text, next: from, end, len: line.len(), tail: tail(line.as_bytes(), line.len()) }
    }
}

/// The eight bytes of `b` that end at `end` (0 when fewer): for lines of
/// eight bytes or more, comparing them rules out most lines of the same
/// length before their bytes are compared.
fn tail(b: &[u8], end: usize) -> u64 {
    end.checked_sub(8).and_then(|start| b.get(start..end)).map_or(0, |w| u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or([0; 8])))
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match self {
            Candidates::Bucket(it) => it.next().map(|&e| e as usize),
            Candidates::Scan(s) => {
                let (len, want, text) = (s.len, s.tail, s.text);
                let rest = s.lines.get(s.next..s.end)?;
                let at = rest.iter().position(|l| l.end - l.start == len && (len < 8 || tail(text, l.end) == want));
                #[cfg(test)]
                SCANNED.with(|c| c.set(c.get() + at.map_or(rest.len(), |a| a + 1) as u64));
                let Some(at) = at else {
                    // Read to its end: a later call reads nothing again.
                    s.next = s.end;
                    return None;
                };
                let i = s.next + at;
                s.next = i + 1;
                Some(i)
            }
        }
    }
}

impl<'t> Index<'t> {
    /// An index for searches whose number is not known: the first
    /// [`direct_scans`] scan the lines, and the next builds the table.
    pub fn new(lines: &'t Lines<'t>) -> Self {
        Index { lines, table: OnceCell::new(), scans: Cell::new(direct_scans(lines.len())), spent: Cell::new(0) }
    }

    /// An index for about `searches` searches (one per section and anchor of
    /// the diffs to find): when they would cost more by scanning than by
    /// building the table, the first search builds it.
    pub fn for_searches(lines: &'t Lines<'t>, searches: usize) -> Self {
        let idx = Index::new(lines);
        if searches > idx.scans.get() {
            idx.scans.set(0);
        }
        idx
    }

    /// Ends the index, keeping what it has built and counted, so that an
    /// index over the same lines can go on later ([`Index::resume`]): a
    /// stream finds its sections one at a time, and builds the table once.
    pub fn save(self) -> Saved {
        Saved { table: self.table, scans: self.scans.get(), spent: self.spent.get() }
    }

    /// An index over `lines` that goes on where a saved one stopped. `lines`
    /// must be the same lines as the saved index's.
    pub fn resume(lines: &'t Lines<'t>, saved: Saved) -> Self {
        Index { lines, table: saved.table, scans: Cell::new(saved.scans), spent: Cell::new(saved.spent) }
    }

    /// An index whose first search builds the table (tests of that path).
    #[cfg(test)]
    fn with_table(lines: &'t Lines<'t>) -> Self {
        Index::for_searches(lines, usize::MAX)
    }

    pub fn lines(&self) -> &'t Lines<'t> {
        self.lines
    }

    /// The fingerprint table, or `None` while searches still scan directly
    /// (counting this search as one).
    fn table(&self) -> Option<&Table> {
        if let Some(t) = self.table.get() {
            return Some(t);
        }
        let scans = self.scans.get();
        if scans > 0 {
            self.scans.set(scans - 1);
            return None;
        }
        Some(self.table.get_or_init(|| Table::new(self.lines)))
    }

    /// Counts `units` of search work (a line comparison is one).
    pub fn spend(&self, units: u64) {
        self.spent.set(self.spent.get().saturating_add(units));
    }

    /// The work the searches of this index have done so far: one unit per
    /// line comparison, [`linear::LINEAR_STEP`] per line the linear search
    /// reads. Tests pin the cost of a call with it.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// Fails once the searches of one call have done more than [`MAX_WORK`]
    /// and [`PASSES`] per input line comparisons: each search is linear, but a diff of
    /// very many sections made of lines common all over the input would
    /// repeat that for every section.
    pub fn check_work(&self) -> Result<()> {
        let allowed = MAX_WORK.saturating_add(PASSES.saturating_mul(self.lines.len() as u64));
        if self.spent() > allowed {
            return Err(Error::new(
                ErrorKind::InputTooLarge,
                format!(
                    "Finding the sections of this diff needed more than {allowed} line comparisons ({MAX_WORK} and {PASSES} per input line), the most applypatch does in one call: its sections are made of lines that occur all over the input. Use context lines that occur less often, or fewer sections."
                ),
            ));
        }
        Ok(())
    }

    /// Where to look for `text` at or after line `from`: with the table, the
    /// lines of its fingerprint's bucket (and the fingerprint); without, a
    /// scan of every line from `from` on.
    fn candidates<'s>(&'s self, table: Option<&'s Table>, text: &str, from: usize) -> (Candidates<'s>, Option<u32>) {
        match table {
            Some(t) => {
                let fp = fingerprint(text.as_bytes());
                (Candidates::Bucket(t.bucket_from(fp, from).iter()), Some(fp))
            }
            None => (Candidates::Scan(Scan::new(self.lines, from, usize::MAX, text)), None),
        }
    }

    /// Whether input line `i` is exactly `text`: with a table, its fingerprint
    /// `fp` is compared first.
    fn line_is(&self, table: Option<&Table>, i: usize, fp: Option<&u32>, text: &str) -> bool {
        if let Some(t) = table {
            if t.fps.get(i) != fp {
                return false;
            }
        }
        #[cfg(test)]
        COMPARED.with(|c| c.set(c.get() + 1));
        same(self.lines.get(i), text)
    }

    /// Input lines equal to `text`, at or after line `from`, ascending.
    pub fn occurrences<'s>(&'s self, text: &'s str, from: usize) -> impl Iterator<Item = usize> + 's {
        let table = self.table();
        let (candidates, fp) = self.candidates(table, text, from);
        candidates.filter(move |&i| self.line_is(table, i, fp.as_ref(), text))
    }

    /// Starts `s >= from` where the input's lines `s..s + block.len()` equal
    /// `block`, ascending. The block must not be empty.
    ///
    /// Walks the occurrences of the block's rarest line (with the table; its
    /// longest line when scanning) and checks the block at each; when those
    /// checks would cost more than a few passes over the input (a block of
    /// lines repeated all over it), the rest of the search is done by
    /// [`linear::Matches`] in linear time.
    pub fn find_block<'s>(&'s self, block: &'s [&'s str], from: usize) -> impl Iterator<Item = usize> + 's {
        self.find_block_until(block, from, usize::MAX)
    }

    /// [`Index::find_block`] for starts up to `last` only: a scan reads no
    /// line past the block's end at `last`.
    pub fn find_block_until<'s>(&'s self, block: &'s [&'s str], from: usize, last: usize) -> impl Iterator<Item = usize> + 's {
        let mut table = self.table();
        let (mut fps, mut pivot, mut candidates) = self.block_candidates(table, block, from, last);
        let n = self.lines.len();
        let k = block.len();
        let budget = 4 * (n.saturating_sub(from) + k) + 64;
        let mut checks = budget;
        // A scan whose candidates cost more checks than this (its pivot line
        // is common: lines of one length all over the input) builds the
        // table and goes on from the same start with the rarest line.
        let switch = budget.saturating_sub(64 + n / 16);
        let mut linear: Option<linear::Matches<'s, _>> = None;
        std::iter::from_fn(move || {
            if let Some(m) = linear.as_mut() {
                return m.next().filter(|&m| m <= last);
            }
            while let Some(p) = candidates.next() {
                let Some(s) = p.checked_sub(pivot) else { continue };
                if s > last {
                    return None;
                }
                if s < from || s + k > n {
                    continue;
                }
                if table.is_none() && checks < switch {
                    let t = self.table.get_or_init(|| Table::new(self.lines));
                    table = Some(t);
                    (fps, pivot, candidates) = self.block_candidates(table, block, s, last);
                    continue;
                }
                let mut all = true;
                for (j, text) in block.iter().enumerate() {
                    if checks == 0 {
                        let keys = block.iter().map(|b| Cow::Borrowed(*b)).collect();
                        let lines = self.lines;
                        return linear
                            .insert(linear::Matches::new(keys, n, s, move |i| {
                                self.spend(linear::LINEAR_STEP);
                                Cow::Borrowed(lines.get(i))
                            }))
                            .next()
                            .filter(|&m| m <= last);
                    }
                    checks -= 1;
                    self.spend(1);
                    if !self.line_is(table, s + j, fps.get(j), text) {
                        all = false;
                        break;
                    }
                }
                if all {
                    return Some(s);
                }
            }
            None
        })
    }

    /// Where [`Index::find_block`] looks for `block` from line `from` on: the
    /// block's fingerprints (with a table; none when scanning), its pivot
    /// line, and that line's candidate places. With the table the pivot is
    /// the block's rarest line; scanning, its longest (the one fewest other
    /// lines are as long as, usually).
    fn block_candidates<'s>(
        &'s self,
        table: Option<&'s Table>,
        block: &[&str],
        from: usize,
        last: usize,
    ) -> (Vec<u32>, usize, Candidates<'s>) {
        match table {
            Some(t) => {
                let fps: Vec<u32> = block.iter().map(|l| fingerprint(l.as_bytes())).collect();
                let (pivot, bucket) = fps
                    .iter()
                    .enumerate()
                    .map(|(j, &fp)| (j, t.bucket_from(fp, from + j)))
                    .min_by_key(|(_, c)| c.len())
                    .unwrap_or((0, &[]));
                (fps, pivot, Candidates::Bucket(bucket.iter()))
            }
            None => {
                let pivot = block.iter().enumerate().max_by_key(|(j, l)| (l.len(), std::cmp::Reverse(*j))).map_or(0, |(j, _)| j);
                let line = block.get(pivot).copied().unwrap_or("");
                (Vec::new(), pivot, Candidates::Scan(Scan::new(self.lines, from + pivot, last.saturating_add(pivot + 1), line)))
            }
        }
    }

    /// Whether the input's lines at `s..` equal `block`.
    pub fn block_at(&self, block: &[&str], s: usize) -> bool {
        s + block.len() <= self.lines.len() && block.iter().enumerate().all(|(j, text)| same(self.lines.get(s + j), text))
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

const K: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xC2B2_AE3D_27D4_EB4F;

/// A fingerprint of a line from its length and all of its bytes: its first
/// eight bytes and its last eight (which overlap them in a line of 9 to 15
/// bytes) mixed side by side, then every eight between them in a chain. A
/// line of up to sixteen bytes, most lines of code, is hashed without a loop
/// (so lines that share a prefix, a middle and an end still spread).
pub fn fingerprint(b: &[u8]) -> u32 {
    mix(b.len(), load(b, 0), |at| load(b, at))
}

/// [`fingerprint`] of `text[start..end]`, reading whole words of `text`:
/// only the first word of a line shorter than eight bytes is masked to its
/// end, and every other word [`mix`] asks for lies within the line
/// (building the index hashes every line this way). A line with fewer than
/// eight bytes of text from its start is hashed from its own bytes.
fn fingerprint_at(text: &[u8], start: usize, end: usize) -> u32 {
    let len = end.saturating_sub(start);
    match text.get(start..).filter(|rest| rest.len() >= 8 && len <= rest.len()) {
        Some(rest) => {
            // Every word asked for is within `rest`: no fallback to inline
            // (with one, the words were read behind branches, and building
            // the table of 100,000 lines took 0.1 ms more).
            let word = |at: usize| rest.get(at..at + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()).map_or(0, u64::from_le_bytes);
            let head = word(0);
            let first = if len >= 8 { head } else { head & !(u64::MAX << (len * 8)) };
            mix(len, first, word)
        }
        None => {
            #[cfg(test)]
            COPIED.with(|c| c.set(c.get() + 1));
            fingerprint(text.get(start..end).unwrap_or(&[]))
        }
    }
}

/// The fingerprint of a line of `len` bytes that starts with `first` (its
/// first eight bytes, zero past its end), whose eight bytes at `at`
/// (`at <= len - 8`, or 0) `word` gives.
#[inline(always)]
fn mix(len: usize, first: u64, word: impl Fn(usize) -> u64) -> u32 {
    // Read whatever the length, then dropped for a short line: a choice
    // between two values, not a branch around a read.
    let tail = word(len.max(8) - 8);
    let last = if len > 8 { tail } else { 0 };
    let mut h = (len as u64).wrapping_mul(K) ^ (first ^ K2).wrapping_mul(K) ^ (last ^ K).wrapping_mul(K2).rotate_left(29);
    let mut at = 8;
    while at + 8 < len {
        h = h.rotate_left(29).wrapping_mul(K) ^ word(at);
        at += 8;
    }
    finish(h)
}

fn finish(h: u64) -> u32 {
    let h = (h ^ (h >> 31)).wrapping_mul(K);
    (h >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `check` with a fresh index that scans and with one that has its table.
    fn for_both(lines: &Lines, check: impl Fn(&Index)) {
        check(&Index::new(lines));
        check(&Index::with_table(lines));
    }

    /// The starts of `block` in `lines` at or after `from`, by checking every start.
    fn every_start(lines: &Lines, block: &[&str], from: usize) -> Vec<usize> {
        (from..lines.len())
            .filter(|&s| s + block.len() <= lines.len() && block.iter().enumerate().all(|(j, b)| lines.get(s + j) == *b))
            .collect()
    }

    #[test]
    fn scanning_tells_lines_of_one_length_apart_by_any_byte() {
        // Lines of one length that differ in their last eight bytes, before
        // them, or not at all, and a line of seven bytes: texts of 40 lines
        // drawn from them (a fixed pseudo-random sequence), every block of
        // up to three of them.
        let pool = ["abcdefghijkl", "abcdefghijkX", "Xbcdefghijkl", "abcdXfghijkl", "abcdefg", ""];
        let mut seed = 12_345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        for _ in 0..60 {
            let text: String = (0..40).map(|_| format!("{}\n", pool[next() % pool.len()])).collect();
            let lines = Lines::split(&text);
            let table = Index::with_table(&lines);
            for _ in 0..30 {
                let block: Vec<&str> = (0..1 + next() % 3).map(|_| pool[next() % pool.len()]).collect();
                let from = next() % 45;
                let want = every_start(&lines, &block, from);
                assert_eq!(Index::new(&lines).find_block(&block, from).collect::<Vec<_>>(), want, "{text:?} {block:?} {from}");
                assert_eq!(table.find_block(&block, from).collect::<Vec<_>>(), want);
                let line = block[0];
                let want: Vec<usize> = (from..lines.len()).filter(|&i| lines.get(i) == line).collect();
                assert_eq!(Index::new(&lines).occurrences(line, from).collect::<Vec<_>>(), want);
                assert_eq!(table.occurrences(line, from).collect::<Vec<_>>(), want);
            }
        }
    }

    #[test]
    fn a_scan_whose_pivot_is_common_goes_on_with_the_table() {
        // Every line is one byte long, so a scan for a block of them checks
        // the block at every line; past 64 + n/16 checks it builds the table
        // and goes on from the same start with the block's rarest line.
        let text: String = (0..2_000).map(|i| if i % 100 == 99 { "y\n" } else { "x\n" }).collect();
        let lines = Lines::split(&text);
        for (block, from) in [(vec!["x", "x", "y"], 0), (vec!["x", "y", "x"], 150), (vec!["x", "z"], 0), (vec!["x"; 50], 3)] {
            let idx = Index::new(&lines);
            let found: Vec<usize> = idx.find_block(&block, from).collect();
            assert_eq!(found, every_start(&lines, &block, from), "{block:?} from {from}");
            assert!(idx.table.get().is_some(), "{block:?}: the scan went on with the table");
        }
        // A block found before the scan costs that much needs no table: 18
        // checks, or 116 (fewer than 64 + 2,000 / 16).
        for from in [90, 40] {
            let idx = Index::new(&lines);
            assert_eq!(idx.find_block(&["x", "y"], from).next(), Some(98));
            assert!(idx.table.get().is_none(), "from {from}");
        }
    }

    #[test]
    fn the_table_is_built_after_the_direct_scans() {
        let lines = Lines::split("a\nb\nc\n");
        assert_eq!(direct_scans(3), DIRECT_SCANS + SCAN_LINES / 3);
        assert_eq!(direct_scans(0), DIRECT_SCANS + SCAN_LINES);
        assert_eq!(direct_scans(1_000_000), DIRECT_SCANS);
        assert!(Index::for_searches(&lines, direct_scans(3)).table.get().is_none());
        let idx = Index::for_searches(&lines, direct_scans(3) + 1);
        assert_eq!(idx.occurrences("c", 0).collect::<Vec<_>>(), [2]);
        assert!(idx.table.get().is_some());
        let idx = Index::for_searches(&lines, direct_scans(3));
        for _ in 0..direct_scans(3) {
            assert_eq!(idx.find_block(&["b"], 0).collect::<Vec<_>>(), [1]);
            assert!(idx.table.get().is_none());
        }
        assert_eq!(idx.occurrences("c", 0).collect::<Vec<_>>(), [2]);
        assert!(idx.table.get().is_some());
        assert_eq!(idx.occurrences("c", 0).collect::<Vec<_>>(), [2]);
    }

    #[test]
    fn scanning_and_the_table_find_the_same_places() {
        // Every text of up to 5 lines (and a fifth of those of 6) over a small alphabet (lines of equal
        // length that differ, a line and its prefix, empty lines), every
        // block of up to 3 lines, every start.
        let alphabet = ["a", "b", "ab", ""];
        let mut texts = vec![String::new()];
        for len in 1..=6u32 {
            for code in 0..4usize.pow(len) {
                let mut c = code;
                let mut t = String::new();
                for _ in 0..len {
                    t.push_str(alphabet[c % 4]);
                    t.push('\n');
                    c /= 4;
                }
                if len <= 5 || code % 5 == 0 {
                    texts.push(t);
                }
            }
        }
        let mut blocks: Vec<Vec<&str>> = Vec::new();
        for a in alphabet {
            blocks.push(vec![a]);
            for b in alphabet {
                blocks.push(vec![a, b]);
                for c in alphabet {
                    blocks.push(vec![a, b, c]);
                }
            }
        }
        for text in &texts {
            let lines = Lines::split(text);
            let table = Index::with_table(&lines);
            for block in &blocks {
                for from in 0..=lines.len() {
                    let want = every_start(&lines, block, from);
                    assert_eq!(Index::new(&lines).find_block(block, from).collect::<Vec<_>>(), want, "{text:?} {block:?} {from}");
                    assert_eq!(table.find_block(block, from).collect::<Vec<_>>(), want, "{text:?} {block:?} {from}");
                    // Bounded to the starts up to `last`: the same places, cut there.
                    for last in [from, from + 1, from + 3, usize::MAX] {
                        let cut: Vec<usize> = want.iter().copied().filter(|&s| s <= last).collect();
                        let found = Index::new(&lines).find_block_until(block, from, last).collect::<Vec<_>>();
                        assert_eq!(found, cut, "{text:?} {block:?} {from} {last}");
                        assert_eq!(table.find_block_until(block, from, last).collect::<Vec<_>>(), cut, "{text:?} {block:?} {from} {last}");
                    }
                }
            }
            for line in alphabet {
                let want = every_start(&lines, &[line], 0);
                assert_eq!(Index::new(&lines).occurrences(line, 0).collect::<Vec<_>>(), want);
                assert_eq!(table.occurrences(line, 0).collect::<Vec<_>>(), want);
                assert_eq!(Index::new(&lines).count(line, 2), want.len().min(2));
            }
        }
    }

    #[test]
    fn finds_blocks_and_occurrences() {
        let text = "a\nb\nc\na\nb\nx\n";
        let lines = Lines::split(text);
        for_both(&lines, |idx| {
            assert_eq!(idx.occurrences("a", 0).collect::<Vec<_>>(), [0, 3]);
            assert_eq!(idx.occurrences("a", 1).collect::<Vec<_>>(), [3]);
            assert_eq!(idx.find_block(&["a", "b"], 0).collect::<Vec<_>>(), [0, 3]);
            assert_eq!(idx.find_block(&["b", "x"], 0).collect::<Vec<_>>(), [4]);
            assert_eq!(idx.find_block(&["x", "y"], 0).count(), 0);
            assert_eq!(idx.find_block(&["a", "b"], 1).collect::<Vec<_>>(), [3]);
            assert_eq!(idx.count("zzz", 5), 0);
        });
    }

    #[test]
    fn a_block_repeated_everywhere_is_found_in_linear_time() {
        // 20,000 lines 'x' with a 'y' every 1,000: a block of 999 'x' lines matches
        // in 20 places x 2 and the rarest-line walk would check ~20M lines.
        let text: String = (0..20_000).map(|i| if i % 1_000 == 999 { "y\n" } else { "x\n" }).collect();
        let lines = Lines::split(&text);
        for_both(&lines, |idx| {
            let block = vec!["x"; 999];
            let before = idx.spent();
            let found: Vec<usize> = idx.find_block(&block, 0).collect();
            assert_eq!(found, (0..20).map(|b| b * 1_000).collect::<Vec<_>>());
            // The direct checks' budget, 4 x (20,000 + 999) + 64 = 84,060,
            // then the linear search, 8 units a line read.
            let work = idx.spent() - before;
            assert!(work <= 84_060 + 8 * 20_000, "{work}");
            let block = vec!["x"; 1_000];
            assert_eq!(idx.find_block(&block, 0).count(), 0);
            let mut two = block.clone();
            two.truncate(500);
            assert_eq!(idx.find_block(&two, 0).count(), 20 * 500);
            assert_eq!(idx.find_block(&two, 19_000).take(3).collect::<Vec<_>>(), [19_000, 19_001, 19_002]);
        });
    }

    #[test]
    fn searches_of_one_call_have_a_budget() {
        let text = "x\n".repeat(1000);
        let lines = Lines::split(&text);
        let idx = Index::new(&lines);
        assert!(idx.check_work().is_ok());
        idx.spend(MAX_WORK + PASSES * 1000);
        assert!(idx.check_work().is_ok());
        idx.spend(1);
        let e = idx.check_work().unwrap_err();
        assert_eq!(e.kind, ErrorKind::InputTooLarge);
        assert!(
            e.message.starts_with(
                "Finding the sections of this diff needed more than 268691456 line comparisons (268435456 and 256 per input line)"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn fingerprints_read_from_the_text_are_the_lines_own() {
        let text = "a\nbcdefghijklmnop\n\nqrstuvwx\nyz0123456789abcdefg\nend";
        for l in Lines::split(text).lines() {
            let line = &text.as_bytes()[l.start..l.end];
            assert_eq!(fingerprint_at(text.as_bytes(), l.start, l.end), fingerprint(line), "{:?}", std::str::from_utf8(line));
        }
    }

    /// Building the table hashes every line where it lies in the text, but
    /// those that start within eight bytes of its end (a line whose words
    /// would be read behind a fallback took 1.1 times as long).
    #[test]
    fn the_table_hashes_lines_in_place() {
        let text: String = (0..1_000).map(|i| format!("{}\n", "x".repeat(i * 7 % 40))).collect();
        for text in [text.as_str(), &text[..text.len() - 1], "abc\n1234567\n", "abc\n12345678", "abc\nd", ""] {
            let lines = Lines::split(text);
            COPIED.with(|c| c.set(0));
            let table = Table::new(&lines);
            let near_end = lines.lines().iter().filter(|l| text.len() - l.start < 8).count() as u64;
            assert_eq!(COPIED.with(|c| c.get()), near_end);
            assert_eq!(table.fps.len(), lines.len());
        }
    }

    /// Every byte of a line counts: changing any one byte of lines of every
    /// length up to 64 changes its fingerprint, read alone or from a text.
    #[test]
    fn every_byte_changes_the_fingerprint() {
        for len in 1..=64usize {
            let line: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let text = [b"x\n".as_slice(), &line, b"\nmore text after it"].concat();
            let at = |t: &[u8]| fingerprint_at(t, 2, 2 + len);
            assert_eq!(at(&text), fingerprint(&line));
            for i in 0..len {
                let mut other = line.clone();
                other[i] = b'Z';
                assert_ne!(fingerprint(&other), fingerprint(&line), "length {len}, byte {i}");
                let mut t = text.clone();
                t[2 + i] = b'Z';
                assert_eq!(at(&t), fingerprint(&other), "length {len}, byte {i}");
            }
        }
    }

    #[test]
    fn lines_with_the_same_fingerprint_are_still_told_apart() {
        // Two lines whose 32-bit fingerprints collide (found by search): a
        // candidate is confirmed byte for byte, so one never matches the other.
        assert_eq!(fingerprint(b"x27877"), fingerprint(b"x49948"));
        let lines = Lines::split("x27877\nx49948\n");
        for_both(&lines, |idx| {
            assert_eq!(idx.occurrences("x49948", 0).collect::<Vec<_>>(), [1]);
            assert_eq!(idx.find_block(&["x27877"], 0).collect::<Vec<_>>(), [0]);
        });
        let err = crate::apply("x27877\n", "-x49948\n+y").unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::ContextNotFound);
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

    #[test]
    fn fingerprints_spread_lines_over_the_buckets() {
        // 100,000 distinct lines of code-like text in about four lines per
        // bucket: a search for one of them checks its bucket's few lines,
        // not a large share of the file.
        let text: String = (0..100_000).map(|i| format!("    let value_{i} = compute(&input[{i}..]);\n")).collect();
        let lines = Lines::split(&text);
        let t = Table::new(&lines);
        let sizes: Vec<u32> = t.offsets.windows(2).map(|w| w[1] - w[0]).collect();
        assert_eq!(sizes.len(), 32_768);
        let largest = sizes.iter().copied().max().unwrap_or(0);
        assert!(largest <= 24, "the largest bucket holds {largest} lines");
        let used = sizes.iter().filter(|&&c| c > 0).count();
        assert!(used > 30_000, "{used} buckets in use");
        // And a search's work: every line found once, each in a few checks.
        let idx = Index::with_table(&lines);
        for i in (0..100_000).step_by(50) {
            let line = lines.get(i);
            assert_eq!(idx.find_block(&[line], 0).collect::<Vec<_>>(), [i]);
        }
        // Each search compares the lines of one bucket: about 4, on average.
        assert!(idx.spent() <= 2_000 * 8, "{} comparisons for 2,000 searches", idx.spent());
    }

    #[test]
    fn a_block_never_runs_past_the_end_of_the_input() {
        // The block's first line is the input's last: the block would need a
        // line after it, and no line there is not a blank line.
        let lines = Lines::split("x\na\n");
        for_both(&lines, |idx| {
            assert_eq!(idx.find_block(&["a", ""], 0).count(), 0);
            assert_eq!(idx.find_block(&["a"], 0).collect::<Vec<_>>(), [1]);
        });
    }
}
