//! The rungs of the ladder. Each finds *every* place its rule matches (so a
//! result can say how many there were, and `unique` can refuse ambiguity),
//! in time about linear in the file:
//!
//! - `exact`: substring search (memchr's SIMD `memmem`; Knuth–Morris–Pratt
//!   over the bytes when the SEARCH text can overlap itself).
//! - `trailing-ws`, `indent`: each line becomes the id of its normalised text
//!   among the SEARCH lines', and Knuth–Morris–Pratt finds the windows.
//! - `anchor`: one pass marks the lines equal (stripped) to the first and last
//!   anchors; for each first anchor only the lines within the slack are
//!   looked at, through a "next last-anchor line" table.
//! - `fuzzy`: [`Pattern::scan`](super::similarity::Pattern::scan).
//!
//! Over 600 lines with its unit tests (the code is about 550).

use memchr::memmem;

use super::indent::{self, Fit, Relative, Style};
use super::similarity::{needed_lcs, ratio, LineMap, Pattern, NONE};
use super::{py_strip, Options};
use crate::error::Result;
use crate::limits::Budget;

/// At most this many candidates are kept for reports (all are counted).
pub(crate) const MAX_CANDIDATES: usize = 20;

/// The text split on `\n` as apply-edit-block splits it: `N` newlines make
/// `N + 1` lines (the last one empty when the text ends with a newline). The
/// line table is built on first use: an exact match never needs it.
pub(crate) struct Src<'a> {
    pub text: &'a str,
    table: std::cell::OnceCell<Vec<usize>>,
}

impl<'a> Src<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Src { text, table: std::cell::OnceCell::new() }
    }

    /// Where each line starts.
    fn starts(&self) -> &[usize] {
        self.table.get_or_init(|| {
            let text = self.text;
            let mut starts = Vec::with_capacity(text.len() / 32 + 2);
            starts.push(0);
            // Eight bytes at a time (SWAR): one memchr call per line costs
            // more than the search itself when lines are short.
            let bytes = text.as_bytes();
            let mut chunks = bytes.chunks_exact(8);
            let mut base = 0;
            for chunk in &mut chunks {
                let mut w = [0u8; 8];
                w.copy_from_slice(chunk);
                let x = u64::from_le_bytes(w) ^ 0x0a0a_0a0a_0a0a_0a0a;
                // The high bit of each byte of `x` that is zero, exactly.
                const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
                let mut zeros = !(((x & LOW).wrapping_add(LOW)) | x | LOW);
                while zeros != 0 {
                    starts.push(base + zeros.trailing_zeros() as usize / 8 + 1);
                    zeros &= zeros - 1;
                }
                base += 8;
            }
            for (k, &b) in chunks.remainder().iter().enumerate() {
                if b == b'\n' {
                    starts.push(base + k + 1);
                }
            }
            starts
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.starts().len()
    }

    pub(crate) fn start(&self, i: usize) -> usize {
        self.starts().get(i).copied().unwrap_or(self.text.len())
    }

    /// End of line `i`'s text (its `\n` excluded).
    pub(crate) fn end(&self, i: usize) -> usize {
        self.starts().get(i + 1).map_or(self.text.len(), |s| s - 1)
    }

    /// End of line `i` including its `\n`, if it has one.
    pub(crate) fn end_with_newline(&self, i: usize) -> usize {
        self.starts().get(i + 1).copied().unwrap_or(self.text.len())
    }

    pub(crate) fn line(&self, i: usize) -> &'a str {
        self.text.get(self.start(i)..self.end(i)).unwrap_or("")
    }

    pub(crate) fn lines(&self) -> impl Iterator<Item = &'a str> + '_ {
        (0..self.len()).map(move |i| self.line(i))
    }

    /// The 0-based, inclusive lines bytes `start..end` are on.
    pub(crate) fn lines_of(&self, start: usize, end: usize) -> (usize, usize) {
        (self.line_of(start), self.line_of(end.saturating_sub(1).max(start)))
    }

    /// The 0-based line that byte `offset` is on.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.starts().partition_point(|&s| s <= offset).saturating_sub(1)
    }
}

/// One place a rung matched: bytes `start..end` (its lines:
/// [`Src::lines_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub start: usize,
    pub end: usize,
}

/// How the replacement is re-indented at the winning place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reindent {
    None,
    /// apply-edit-block's shift by a number of characters.
    Shift(i64),
    Relative(Relative),
}

/// What a rung found: the place it would use, how many places it matched,
/// and the first few of them in file order.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub winner: Hit,
    pub count: usize,
    pub candidates: Vec<Hit>,
    pub reindent: Reindent,
}

/// What the line rungs work with.
pub(crate) struct Ctx<'s, 'a> {
    pub src: &'s Src<'a>,
    /// The SEARCH text's lines (without the empty line after a final newline
    /// when `consume` is set).
    pub search: &'s [&'s str],
    /// With `newlines`: the SEARCH text ended with a newline, so a line match
    /// takes the newline of its last line too.
    pub consume: bool,
    pub options: &'s Options,
    /// The REPLACE text, for detecting the SEARCH side's indentation style.
    pub replace: &'s str,
    file_style: std::cell::OnceCell<Option<Style>>,
    /// The LCS work the `anchor` and `fuzzy` rungs (and the report of a
    /// failure) may still do.
    pub budget: Budget,
}

impl<'s, 'a> Ctx<'s, 'a> {
    pub(crate) fn new(src: &'s Src<'a>, search: &'s [&'s str], consume: bool, options: &'s Options, replace: &'s str) -> Self {
        Ctx {
            src,
            search,
            consume,
            options,
            replace,
            file_style: std::cell::OnceCell::new(),
            budget: Budget::new("the fuzzy search of this edit"),
        }
    }

    /// The hit for lines `first..=last`; `whole` says the SEARCH text's last
    /// line is matched by `last` (so its newline may be taken).
    fn hit(&self, first: usize, last: usize, whole: bool) -> Hit {
        let end = if self.consume && whole { self.src.end_with_newline(last) } else { self.src.end(last) };
        Hit { start: self.src.start(first), end }
    }

    fn file_style(&self) -> Option<Style> {
        *self.file_style.get_or_init(|| indent::detect(self.src.lines()))
    }

    /// The re-indentation for `relative_indent`, based on SEARCH line `s`
    /// matched to file line `f`, given the fit of the match.
    fn relative(&self, s: usize, f: usize, fit: Fit) -> Reindent {
        let search_ws = indent::leading_ws(self.search.get(s).copied().unwrap_or(""));
        let file_ws = indent::leading_ws(self.src.line(f));
        let search_style = indent::detect(self.search.iter().copied().chain(self.replace.split('\n')));
        let file_style = self.file_style();
        let (file, search) = match fit {
            Fit::Scale { file, search } => (file, search),
            _ => match (file_style, search_style) {
                (Some(f), Some(s)) => (f.width, s.width),
                _ => (1, 1),
            },
        };
        let tabs = match file_style {
            Some(style) => style.tabs,
            None => search_style.is_some_and(|s| s.tabs),
        };
        Reindent::Relative(Relative { search_base: search_ws.to_string(), file_base: file_ws.to_string(), file, search, tabs })
    }
}

fn found(hits: Vec<Hit>, count: usize, reindent: Reindent) -> Option<Found> {
    let winner = *hits.first()?;
    Some(Found { winner, count, candidates: hits, reindent })
}

/// Knuth–Morris–Pratt failure function.
fn prefix_function<T: Eq>(needle: &[T]) -> Vec<usize> {
    let mut pi = vec![0usize; needle.len()];
    let mut k = 0usize;
    for i in 1..needle.len() {
        while k > 0 && needle.get(i) != needle.get(k) {
            k = pi.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(i) == needle.get(k) {
            k += 1;
        }
        if let Some(p) = pi.get_mut(i) {
            *p = k;
        }
    }
    pi
}

/// Calls `f` with the start of every (possibly overlapping) occurrence of
/// `needle` in `hay`, in order. `needle` must not be empty.
fn occurrences<T: Eq>(hay: &[T], needle: &[T], pi: &[usize], mut f: impl FnMut(usize)) {
    let m = needle.len();
    if m == 0 {
        return;
    }
    let mut k = 0usize;
    for (i, x) in hay.iter().enumerate() {
        while k > 0 && needle.get(k) != Some(x) {
            k = pi.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(k) == Some(x) {
            k += 1;
        }
        if k == m {
            f(i + 1 - m);
            k = pi.get(k - 1).copied().unwrap_or(0);
        }
    }
}

/// Rung 1: the SEARCH text as a substring (not line-anchored). Every
/// occurrence counts, overlapping ones too.
pub(crate) fn exact(src: &Src, search: &str) -> Option<Found> {
    let (hay, needle) = (src.text.as_bytes(), search.as_bytes());
    let mut find = Substring::new(hay, needle);
    let first = find.next(0)?;
    let mut hits = Vec::new();
    let mut count = 0usize;
    let mut push = |start: usize| {
        count += 1;
        if hits.len() < MAX_CANDIDATES {
            let end = start + needle.len();
            hits.push(Hit { start, end });
        }
    };
    let pi = prefix_function(needle);
    if pi.last().copied().unwrap_or(0) == 0 {
        // Without a border, occurrences cannot overlap: each search starts
        // where the last occurrence ends.
        push(first);
        let mut at = first + needle.len();
        while let Some(p) = find.next(at) {
            push(p);
            at = p + needle.len();
        }
    } else {
        occurrences(hay, needle, &pi, &mut push);
    }
    found(hits, count, Reindent::None)
}

/// Bytes of the SEARCH text that [`Substring`] builds its SIMD searcher on:
/// building one costs in proportion to the needle, and for a SEARCH text of
/// many lines that was most of an exact match in a small file.
const PREFIX: usize = 32;

/// Substring search for a needle that may be long: memchr's `memmem` on its
/// first [`PREFIX`] bytes, each candidate then compared whole. When the
/// candidates that fail are many (a prefix repeated all over the text),
/// the rest is `memmem` on the whole needle, so the search stays linear.
struct Substring<'a> {
    hay: &'a [u8],
    needle: &'a [u8],
    prefix: memmem::Finder<'a>,
    /// Candidates that failed so far, and how many may.
    misses: usize,
    allowed: usize,
}

impl<'a> Substring<'a> {
    fn new(hay: &'a [u8], needle: &'a [u8]) -> Self {
        let prefix = memmem::Finder::new(needle.get(..PREFIX).unwrap_or(needle));
        Substring { hay, needle, prefix, misses: 0, allowed: 16 + hay.len() / needle.len().max(1) }
    }

    /// The first occurrence at or after byte `from`.
    fn next(&mut self, from: usize) -> Option<usize> {
        let mut at = from;
        while self.misses <= self.allowed {
            let p = at + self.prefix.find(self.hay.get(at..)?)?;
            if self.hay.get(p..p + self.needle.len()) == Some(self.needle) {
                return Some(p);
            }
            self.misses += 1;
            at = p + 1;
        }
        memmem::find(self.hay.get(at..)?, self.needle).map(|p| at + p)
    }
}

#[cfg(test)]
thread_local! {
    /// Lines `windows` compares or maps past its first-line filter, on this
    /// thread: what choosing between verifying and KMP saves (tests below).
    static WINDOW_LINES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `n` lines of work in `windows` (tests only).
fn window_lines(_n: usize) {
    #[cfg(test)]
    WINDOW_LINES.with(|c| c.set(c.get() + _n as u64));
}

/// Every window of `ctx.search.len()` lines whose lines equal the SEARCH
/// lines after `norm`.
///
/// A window can only start at a line equal to the first SEARCH line: those
/// are found with one cheap comparison per line and verified directly. When
/// they are so many that verifying could cost more than linear time, the
/// lines are mapped to ids and Knuth–Morris–Pratt finds the windows instead.
fn windows(ctx: &Ctx, norm: fn(&str) -> &str) -> Vec<usize> {
    let n = ctx.search.len();
    if n == 0 || ctx.src.len() < n {
        return Vec::new();
    }
    let search: Vec<&str> = ctx.search.iter().map(|l| norm(l)).collect();
    let first = search.first().copied().unwrap_or("");
    let last_start = ctx.src.len() - n;
    let starts: Vec<usize> = (0..=last_start).filter(|&i| norm(ctx.src.line(i)) == first).collect();
    if starts.len().saturating_mul(n) <= 4 * ctx.src.len() + 64 {
        return starts
            .into_iter()
            .filter(|&i| {
                search.iter().enumerate().all(|(k, s)| {
                    window_lines(1);
                    norm(ctx.src.line(i + k)) == *s
                })
            })
            .collect();
    }
    window_lines(n + ctx.src.len());
    let mut map = LineMap::default();
    let needle: Vec<u32> = ctx
        .search
        .iter()
        .map(|l| {
            let next = u32::try_from(map.len()).unwrap_or(NONE - 1);
            *map.entry(norm(l)).or_insert(next)
        })
        .collect();
    let hay: Vec<u32> = ctx.src.lines().map(|l| map.get(norm(l)).copied().unwrap_or(NONE)).collect();
    let mut out = Vec::new();
    occurrences(&hay, &needle, &prefix_function(&needle), |i| out.push(i));
    out
}

fn strip_trailing(line: &str) -> &str {
    let n = line.bytes().rev().take_while(|&b| b == b' ' || b == b'\t').count();
    line.get(..line.len() - n).unwrap_or(line)
}

fn strip_leading(line: &str) -> &str {
    line.get(indent::leading_ws(line).len()..).unwrap_or(line)
}

/// Rung 2: lines equal after removing trailing spaces and tabs.
pub(crate) fn trailing_ws(ctx: &Ctx) -> Option<Found> {
    let starts = windows(ctx, strip_trailing);
    let n = ctx.search.len();
    let count = starts.len();
    let hits = starts.iter().take(MAX_CANDIDATES).map(|&i| ctx.hit(i, i + n - 1, true)).collect();
    found(hits, count, Reindent::None)
}

/// Rung 3: lines equal after removing leading spaces and tabs. Compatible:
/// the replacement is shifted by the difference of the first lines'
/// indentation in characters. With `relative_indent`: the file lines must be
/// nested like the SEARCH lines (relative indentation, scaled between
/// indentation widths), and the replacement is re-indented relatively.
pub(crate) fn indent(ctx: &Ctx) -> Option<Found> {
    let starts = windows(ctx, strip_leading);
    let n = ctx.search.len();
    if !ctx.options.relative_indent {
        let first = *starts.first()?;
        let delta = indent::leading_ws(ctx.src.line(first)).len() as i64
            - indent::leading_ws(ctx.search.first().copied().unwrap_or("")).len() as i64;
        let hits = starts.iter().take(MAX_CANDIDATES).map(|&i| ctx.hit(i, i + n - 1, true)).collect();
        return found(hits, starts.len(), Reindent::Shift(delta));
    }
    let non_blank: Vec<usize> = (0..n).filter(|&k| !py_strip(ctx.search.get(k).copied().unwrap_or("")).is_empty()).collect();
    let fit_at = |i: usize| {
        indent::fit(non_blank.iter().map(|&k| {
            let s = indent::cols(indent::leading_ws(ctx.search.get(k).copied().unwrap_or("")));
            let f = indent::cols(indent::leading_ws(ctx.src.line(i + k)));
            (s, f)
        }))
    };
    let mut hits = Vec::new();
    let mut count = 0;
    let mut reindent = Reindent::None;
    for &i in &starts {
        let fit = fit_at(i);
        if fit == Fit::Inconsistent {
            continue;
        }
        if count == 0 {
            reindent = match non_blank.first() {
                Some(&b) => ctx.relative(b, i + b, fit),
                None => Reindent::None,
            };
        }
        count += 1;
        if hits.len() < MAX_CANDIDATES {
            hits.push(ctx.hit(i, i + n - 1, true));
        }
    }
    found(hits, count, reindent)
}

/// Rung 4: the first and last non-blank SEARCH lines (stripped of all
/// whitespace) found in the file with a line gap within `anchor_slack` of the
/// SEARCH text's. In file order of the first anchor, then of the last.
///
/// With `anchor_threshold > 0`, the lines between the anchors must be similar
/// enough (LCS of the stripped lines over the longer side; two empty sides are
/// 1), and anchors that collapse onto one file line match nothing when the
/// SEARCH text has two. With `relative_indent`, the two anchors must be
/// nested alike, and the replacement is re-indented from the first.
pub(crate) fn anchor(ctx: &Ctx) -> Result<Option<Found>> {
    let opts = ctx.options;
    let non_empty: Vec<usize> = (0..ctx.search.len()).filter(|&k| !py_strip(ctx.search.get(k).copied().unwrap_or("")).is_empty()).collect();
    let (Some(&fi), Some(&li)) = (non_empty.first(), non_empty.last()) else { return Ok(None) };
    let first = py_strip(ctx.search.get(fi).copied().unwrap_or(""));
    let last = py_strip(ctx.search.get(li).copied().unwrap_or(""));
    let gap = (li - fi) as i128;
    let slack = i128::from(opts.anchor_slack);
    let n_src = ctx.src.len();
    let stripped: Vec<&str> = ctx.src.lines().map(py_strip).collect();
    // next_last[j]: the first line at or after j equal to the last anchor.
    let mut next_last = vec![n_src; n_src + 1];
    for j in (0..n_src).rev() {
        let here = if stripped.get(j).copied() == Some(last) { j } else { next_last.get(j + 1).copied().unwrap_or(n_src) };
        if let Some(slot) = next_last.get_mut(j) {
            *slot = here;
        }
    }
    let check_interior = opts.anchor_threshold > 0.0 || opts.anchor_threshold.is_nan();
    // Built on first use: most SEARCH texts have no anchor pair in the file.
    let interior = std::cell::OnceCell::new();
    let interior = || interior.get_or_init(|| Pattern::new(ctx.search.get(fi + 1..li).unwrap_or(&[]).iter().map(|l| py_strip(l))));
    let mut v = Vec::new();
    let mut interior_ok = |i: usize, j: usize| -> Result<bool> {
        if !check_interior {
            return Ok(true);
        }
        if j == i && li > fi {
            return Ok(false);
        }
        let lines = stripped.get(i + 1..j).unwrap_or(&[]);
        let interior = interior();
        ctx.budget.spend((lines.len() as u64).saturating_mul(interior.step_cost()))?;
        let lcs = interior.lcs(lines.iter().map(|l| interior.class(l)), &mut v);
        Ok(ratio(lcs, interior.len().max(lines.len())) >= opts.anchor_threshold)
    };
    let nested_ok = |i: usize, j: usize| -> bool {
        if !opts.relative_indent {
            return true;
        }
        let w = |s: &str| indent::cols(indent::leading_ws(s));
        let pairs = [
            (w(ctx.search.get(fi).copied().unwrap_or("")), w(ctx.src.line(i))),
            (w(ctx.search.get(li).copied().unwrap_or("")), w(ctx.src.line(j))),
        ];
        indent::fit(pairs) != Fit::Inconsistent
    };
    let mut hits = Vec::new();
    let mut count = 0usize;
    let mut reindent = Reindent::None;
    let whole = li + 1 == ctx.search.len();
    for (i, line) in stripped.iter().enumerate() {
        if *line != first {
            continue;
        }
        let lo = (i as i128 + gap - slack).max(i as i128);
        let hi = (i as i128 + gap + slack).min(n_src as i128 - 1);
        if lo > hi {
            continue;
        }
        let mut j = next_last.get(lo as usize).copied().unwrap_or(n_src);
        while (j as i128) <= hi {
            if nested_ok(i, j) && interior_ok(i, j)? {
                if count == 0 && opts.relative_indent {
                    let w = |s: &str| indent::cols(indent::leading_ws(s));
                    let fit = indent::fit([
                        (w(ctx.search.get(fi).copied().unwrap_or("")), w(ctx.src.line(i))),
                        (w(ctx.search.get(li).copied().unwrap_or("")), w(ctx.src.line(j))),
                    ]);
                    reindent = ctx.relative(fi, i, fit);
                }
                count += 1;
                if hits.len() < MAX_CANDIDATES {
                    hits.push(ctx.hit(i, j, whole));
                }
                break;
            }
            j = next_last.get(j + 1).copied().unwrap_or(n_src);
        }
    }
    Ok(found(hits, count, reindent))
}

/// What the fuzzy rung found, and the best score either way (the similarity a
/// failure reports).
pub(crate) struct Fuzzy {
    pub found: Option<Found>,
    pub best: f64,
}

/// Rung 5: the window of the SEARCH text's line count whose line-LCS
/// similarity is highest (first on ties), if it reaches `threshold`. Places
/// are counted by keeping the best windows that do not overlap a better (or
/// equal, earlier) one: shifting a window by a line is the same place.
pub(crate) fn fuzzy(ctx: &Ctx) -> Result<Fuzzy> {
    let n = ctx.search.len();
    let pattern = Pattern::new(ctx.search.iter().copied());
    let classes: Vec<u32> = ctx.src.lines().map(|l| pattern.class(l)).collect();
    if n == 0 || classes.len() < n {
        let known = classes.iter().filter(|&&c| c != NONE).count() as u64;
        ctx.budget.spend(known.saturating_mul(pattern.step_cost()))?;
        let lcs = pattern.lcs(classes.iter().copied(), &mut Vec::new());
        return Ok(Fuzzy { found: None, best: ratio(lcs, n.max(classes.len())) });
    }
    let need = needed_lcs(n, ctx.options.threshold);
    let scan = pattern.scan(&classes, need, &ctx.budget)?;
    let best = ratio(scan.best_lcs, n);
    if scan.best_lcs < need {
        return Ok(Fuzzy { found: None, best });
    }
    // Non-maximum suppression: best first, earlier first on ties.
    let mut order = scan.matching.clone();
    crate::order::sort_by_key(&mut order, |&(i, lcs)| (usize::MAX - lcs, i));
    let mut kept = std::collections::BTreeSet::new();
    for (i, _) in order {
        let lo = i.saturating_sub(n - 1);
        if kept.range(lo..i + n).next().is_none() {
            kept.insert(i);
        }
    }
    let winner = ctx.hit(scan.best_index, scan.best_index + n - 1, true);
    let mut candidates: Vec<Hit> = kept.iter().take(MAX_CANDIDATES).map(|&i| ctx.hit(i, i + n - 1, true)).collect();
    // The winner leads; the others follow in file order.
    candidates.retain(|h| *h != winner);
    candidates.insert(0, winner);
    Ok(Fuzzy { found: Some(Found { winner, count: kept.len(), candidates, reindent: Reindent::None }), best })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every occurrence at or after each position, as a plain scan finds it.
    fn naive_next(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
        (from..hay.len()).find(|&p| hay[p..].starts_with(needle))
    }

    #[test]
    fn substring_search_on_a_prefix_finds_what_a_plain_scan_finds() {
        let long = "x".repeat(40) + "END";
        let cases: Vec<(String, String)> = vec![
            // The needle's first 32 bytes all over the text, the whole needle twice.
            (format!("{}{long}{}{long}", "x".repeat(500), "x".repeat(41)), long.clone()),
            // A prefix repeated far more often than the misses allowed.
            ("x".repeat(5000) + "END", long.clone()),
            ("abcabc".repeat(30), "abcabcabcabcabcabcabcabcabcabcabcab".to_string()),
            ("short needle here and here".to_string(), "here".to_string()),
            ("no match at all".to_string(), "y".repeat(50)),
        ];
        for (hay, needle) in &cases {
            let (h, n) = (hay.as_bytes(), needle.as_bytes());
            let mut s = Substring::new(h, n);
            for from in 0..=h.len() {
                assert_eq!(s.next(from), naive_next(h, n, from), "from {from} in {} bytes", h.len());
            }
        }
    }

    /// Windows are verified line by line while that is linear, and found by
    /// KMP past it: 1,802 equal places of 200 lines cost the 2,201 lines
    /// mapped, not 360,400 comparisons; one place costs its 3 lines.
    #[test]
    fn windows_cost_stays_linear_whichever_way_they_are_found() {
        let spent = |source: &str, search: &str| {
            let before = WINDOW_LINES.with(std::cell::Cell::get);
            let _ = crate::blocks::apply_edit(source, &crate::blocks::Edit::new(search, "y"), &Options::SAFE).unwrap();
            WINDOW_LINES.with(std::cell::Cell::get) - before
        };
        let same = "x\n".repeat(2000);
        assert_eq!(spent(&same, &"x \n".repeat(200)), 2201); // 200 + the file's 2,001 (an empty last line)
        let distinct: String = (0..2000).map(|i| format!("l{i}\n")).collect();
        assert_eq!(spent(&distinct, "l5 \nl6 \nl7 "), 3);
    }

    #[test]
    fn kmp_finds_overlapping_occurrences() {
        let mut found = Vec::new();
        let needle = b"aba";
        occurrences(b"ababababa", needle, &prefix_function(needle), |i| found.push(i));
        assert_eq!(found, [0, 2, 4, 6]);
    }

    #[test]
    fn exact_counts_overlaps() {
        let src = Src::new("aaaa\nb");
        let f = exact(&src, "aa").unwrap();
        assert_eq!((f.count, f.winner.start), (3, 0));
        let f = exact(&src, "a\nb").unwrap();
        assert_eq!((f.count, src.lines_of(f.winner.start, f.winner.end)), (1, (0, 1)));
        assert!(exact(&src, "c").is_none());
    }

    #[test]
    fn src_lines_like_python_split() {
        let s = Src::new("a\nb\n");
        assert_eq!(s.len(), 3);
        assert_eq!((s.line(0), s.line(1), s.line(2)), ("a", "b", ""));
        assert_eq!((s.start(1), s.end(1), s.end_with_newline(1)), (2, 3, 4));
        assert_eq!(s.line_of(2), 1);
        assert_eq!(Src::new("").len(), 1);
    }
}
