//! Failure reports written for the model that wrote the edit: where the
//! closest place is, how close, which lines differ (and whether only in
//! whitespace), whether the edit looks applied already, and, for an ambiguous
//! match, every place it matched.

use std::fmt::Write;

use super::ladder::{Found, Src};
use super::similarity::{ratio, Pattern};
use super::{py_strip, Difference, DifferenceKind, Failure, LineRange, NearestBlock, Options, Outcome, Reason, Strategy};
use crate::error::Result;
use crate::limits::Budget;

/// Differences kept in a report, and shown in its message.
const MAX_DIFFERENCES: usize = 50;
const SHOWN_DIFFERENCES: usize = 8;
/// Above this many lines the differences are paired by position instead of
/// by an LCS alignment (which needs `n * m` memory).
const MAX_ALIGN: usize = 1000;

pub(crate) fn range(first: usize, last: usize) -> LineRange {
    LineRange { start: first + 1, end: last + 1 }
}

pub(crate) fn lines_text(r: LineRange) -> String {
    if r.start == r.end {
        format!("line {}", r.start)
    } else {
        format!("lines {}-{}", r.start, r.end)
    }
}

pub(crate) fn how(strategy: Strategy, options: &Options) -> String {
    match strategy {
        Strategy::EmptySearch | Strategy::Exact => "exactly".to_string(),
        Strategy::TrailingWs => "ignoring trailing whitespace".to_string(),
        Strategy::Indent => "ignoring indentation".to_string(),
        Strategy::Anchor => "by its first and last lines".to_string(),
        Strategy::Fuzzy => format!("with at least {} of its lines equal", percent(options.threshold)),
    }
}

/// `x * 100` rounded, or `None` when that is not a sensible number.
fn hundredths(x: f64) -> Option<i64> {
    let c = (x * 100.0).round();
    (c.abs() < 1e15).then_some(c as i64)
}

fn percent(x: f64) -> String {
    hundredths(x).map_or_else(|| "NaN%".to_string(), |c| format!("{c}%"))
}

/// `x` with two decimals. Written out by hand: core's float formatting would
/// add some 20 KB to the wasm for these messages alone.
fn decimal2(x: f64) -> String {
    match hundredths(x) {
        Some(c) => format!("{}{}.{:02}", if c < 0 { "-" } else { "" }, c.unsigned_abs() / 100, c.unsigned_abs() % 100),
        None => "NaN".to_string(),
    }
}

/// The failure of an edit whose winning strategy matched several places.
pub(crate) fn ambiguous(src: &Src, strategy: Strategy, found: &Found, similarity: f64, options: &Options) -> Outcome {
    let mut candidates: Vec<LineRange> = found
        .candidates
        .iter()
        .map(|h| {
            let (first, last) = src.lines_of(h.start, h.end);
            range(first, last)
        })
        .collect();
    crate::order::sort_by_key(&mut candidates, |r| (r.start, r.end));
    let mut places = candidates.iter().map(|r| lines_text(*r)).collect::<Vec<_>>().join(", ");
    if found.count > candidates.len() {
        let _ = write!(places, " and {} more", found.count - candidates.len());
    }
    let message = format!(
        "Edit not applied: its SEARCH text matches {} places in the file ({}): {}. Nothing was changed. Make the SEARCH text match one place only: add a line above or below the change that differs between these places.",
        found.count,
        how(strategy, options),
        places
    );
    Outcome {
        strategy: None,
        similarity,
        matches: found.count,
        splice: None,
        failure: Some(Failure { reason: Reason::Ambiguous, message, candidates, nearest: None, already_applied: None }),
        note: None,
        repairs: Vec::new(),
    }
}

/// Aligns SEARCH lines with file lines on their stripped text (an LCS by
/// dynamic programming; by position above [`MAX_ALIGN`] lines): the matched
/// pairs (SEARCH index, file index), in order.
fn align(search: &[&str], file: &[&str]) -> Vec<(usize, usize)> {
    let (n, m) = (search.len(), file.len());
    let eq = |i: usize, j: usize| py_strip(search.get(i).copied().unwrap_or("")) == py_strip(file.get(j).copied().unwrap_or(""));
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    if n > MAX_ALIGN || m > MAX_ALIGN {
        pairs.extend((0..n.min(m)).filter(|&k| eq(k, k)).map(|k| (k, k)));
        return pairs;
    }
    let w = m + 1;
    let mut dp = vec![0u32; (n + 1) * w];
    let at = |dp: &[u32], i: usize, j: usize| dp.get(i * w + j).copied().unwrap_or(0);
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let v = if eq(i, j) { at(&dp, i + 1, j + 1) + 1 } else { at(&dp, i + 1, j).max(at(&dp, i, j + 1)) };
            if let Some(slot) = dp.get_mut(i * w + j) {
                *slot = v;
            }
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if eq(i, j) && at(&dp, i, j) == at(&dp, i + 1, j + 1) + 1 {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if at(&dp, i + 1, j) >= at(&dp, i, j + 1) {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

/// The differences between the SEARCH lines and the file lines `file`
/// (whose first line is file line index `base`), given their alignment.
fn differences(search: &[&str], file: &[&str], base: usize, pairs: &[(usize, usize)]) -> Vec<Difference> {
    let (n, m) = (search.len(), file.len());
    let mut out = Vec::new();
    let line = |v: &[&str], k: usize| v.get(k).map(|s| s.to_string());
    let push_gap = |out: &mut Vec<Difference>, s: std::ops::Range<usize>, f: std::ops::Range<usize>| {
        let (ls, lf) = (s.len(), f.len());
        for k in 0..ls.max(lf) {
            let (si, fi) = (s.start + k, f.start + k);
            let (has_s, has_f) = (k < ls, k < lf);
            let kind = match (has_s, has_f) {
                (true, true) => DifferenceKind::Changed,
                (true, false) => DifferenceKind::NotInFile,
                _ => DifferenceKind::NotInSearch,
            };
            out.push(Difference {
                kind,
                search_line: has_s.then_some(si + 1),
                search: if has_s { line(search, si) } else { None },
                file_line: has_f.then_some(base + fi + 1),
                file: if has_f { line(file, fi) } else { None },
            });
        }
    };
    let (mut ps, mut pf) = (0, 0);
    for &(i, j) in pairs {
        push_gap(&mut out, ps..i, pf..j);
        if search.get(i) != file.get(j) {
            out.push(Difference {
                kind: DifferenceKind::Whitespace,
                search_line: Some(i + 1),
                search: line(search, i),
                file_line: Some(base + j + 1),
                file: line(file, j),
            });
        }
        ps = i + 1;
        pf = j + 1;
    }
    push_gap(&mut out, ps..n, pf..m);
    out.truncate(MAX_DIFFERENCES);
    out
}

fn describe(d: &Difference) -> String {
    let s = d.search.as_deref().unwrap_or("");
    let f = d.file.as_deref().unwrap_or("");
    let (sl, fl) = (d.search_line.unwrap_or(0), d.file_line.unwrap_or(0));
    match d.kind {
        DifferenceKind::Whitespace => format!("SEARCH line {sl} {s:?} differs from file line {fl} {f:?} only in whitespace"),
        DifferenceKind::Changed => format!("SEARCH line {sl} {s:?} is {f:?} in the file (line {fl})"),
        DifferenceKind::NotInFile => format!("SEARCH line {sl} {s:?} is not in the file there"),
        DifferenceKind::NotInSearch => format!("file line {fl} {f:?} is missing from the SEARCH text"),
    }
}

/// The report of an edit that no strategy matched: the closest window of the
/// SEARCH text's line count, compared line by line with whitespace stripped.
pub(crate) fn not_found(src: &Src, search: &[&str], replace: &str, options: &Options, fuzzy_best: f64, budget: &Budget) -> Result<Failure> {
    let n = search.len();
    let pattern = Pattern::new(search.iter().map(|l| py_strip(l)));
    let classes: Vec<u32> = src.lines().map(|l| pattern.class(py_strip(l))).collect();
    // The best window of the SEARCH text's line count, ignoring whitespace
    // (a file shorter than the SEARCH text is one window)...
    let first = if classes.len() < n { 0 } else { pattern.scan(&classes, n + 1, budget)?.best_index };
    // ...widened by a few lines and trimmed to what aligns with the SEARCH
    // text, so that missing or extra lines do not shift the place reported.
    let pad = (n / 4).max(2);
    let lo = first.saturating_sub(pad);
    let hi = (first + n + pad).min(src.len());
    let region: Vec<&str> = (lo..hi).map(|i| src.line(i)).collect();
    let pairs = align(search, &region);
    let nearest = match (pairs.first(), pairs.last()) {
        // No pair when no SEARCH line is in the file (the best window's LCS is 0).
        (Some(&(i0, j0)), Some(&(il, jl))) => {
            let a = j0.saturating_sub(i0);
            let b = (jl + (n - 1 - il)).min(region.len().saturating_sub(1)).max(jl);
            let file = region.get(a..=b).unwrap_or(&[]);
            let pairs: Vec<(usize, usize)> = pairs.iter().map(|&(i, j)| (i, j - a)).collect();
            Some(NearestBlock {
                lines: range(lo + a, lo + b),
                similarity: ratio(pairs.len(), n.max(file.len())),
                text: file.join("\n"),
                differences: differences(search, file, lo + a, &pairs),
            })
        }
        _ => None,
    };
    let found_lines = nearest.as_ref().map_or(0, |_| pairs.len());

    let already_applied = (!py_strip(replace).is_empty() && search.join("\n") != replace)
        .then(|| memchr::memmem::find(src.text.as_bytes(), replace.as_bytes()))
        .flatten()
        .map(|at| range(src.line_of(at), src.line_of((at + replace.len()).saturating_sub(1).max(at))));

    let mut message =
        format!("Edit not applied: its SEARCH text ({n} line{}) is not in the file. Nothing was changed.", if n == 1 { "" } else { "s" });
    if let Some(r) = already_applied {
        let _ = write!(
            message,
            " Its REPLACE text is already in the file at {}: this edit was probably applied already, so do not send it again.",
            lines_text(r)
        );
    }
    match &nearest {
        None => message.push_str(
            " No line of the SEARCH text is in the file, even ignoring whitespace: check that the edit is meant for this file, and read the file again before editing it.",
        ),
        Some(near) => {
            let _ = write!(
                message,
                " The closest place is {}, where {found_lines} of the {n} SEARCH lines are found in order, ignoring whitespace around lines (fuzzy similarity {}; {} needed).",
                lines_text(near.lines),
                decimal2(fuzzy_best.max(0.0)),
                decimal2(options.threshold)
            );
            if !near.differences.is_empty() {
                message.push_str(" Differences:");
                for d in near.differences.iter().take(SHOWN_DIFFERENCES) {
                    let _ = write!(message, "\n- {}", describe(d));
                }
                if near.differences.len() > SHOWN_DIFFERENCES {
                    let _ = write!(message, "\n- … and {} more", near.differences.len() - SHOWN_DIFFERENCES);
                }
                message.push('\n');
            } else {
                message.push(' ');
            }
            let _ = write!(message, "Copy the SEARCH lines exactly from the file (read {} again if unsure) and send the edit again.", lines_text(near.lines));
        }
    }
    Ok(Failure { reason: Reason::NotFound, message, candidates: Vec::new(), nearest, already_applied })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages() {
        assert_eq!([0.0, 0.5, 0.855, 1.0, -0.25, 2.0 / 3.0].map(decimal2), ["0.00", "0.50", "0.86", "1.00", "-0.25", "0.67"]);
        assert_eq!((decimal2(f64::NAN), percent(0.85), percent(f64::INFINITY)), ("NaN".to_string(), "85%".to_string(), "NaN%".to_string()));
        // Numbers too large to print exactly as an integer are not numbers here.
        assert_eq!((percent(9.99e12), percent(1e13)), ("999000000000000%".to_string(), "NaN%".to_string()));
    }

    /// Every pair of short texts over a small alphabet (empty lines too):
    /// the alignment is a common subsequence (increasing on both sides, equal
    /// lines) as long as the longest one.
    #[test]
    fn alignment_is_a_longest_common_subsequence() {
        let alphabet = ["a", "b", ""];
        let mut texts: Vec<Vec<&str>> = vec![vec![]];
        for len in 1..=4 {
            let mut more = Vec::new();
            for t in texts.iter().filter(|t| t.len() == len - 1) {
                for &c in &alphabet {
                    more.push([t.as_slice(), &[c]].concat());
                }
            }
            texts.extend(more);
        }
        fn lcs(a: &[&str], b: &[&str]) -> usize {
            match (a.split_first(), b.split_first()) {
                (Some((x, ra)), Some((y, rb))) => {
                    if x == y {
                        1 + lcs(ra, rb)
                    } else {
                        lcs(ra, b).max(lcs(a, rb))
                    }
                }
                _ => 0,
            }
        }
        for a in &texts {
            for b in &texts {
                let pairs = align(a, b);
                assert_eq!(pairs.len(), lcs(a, b), "{a:?} {b:?} {pairs:?}");
                for w in pairs.windows(2) {
                    assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{a:?} {b:?} {pairs:?}");
                }
                for &(i, j) in &pairs {
                    assert_eq!(a.get(i), b.get(j), "{a:?} {b:?} {pairs:?}");
                }
            }
        }
    }

    #[test]
    fn alignment_pairs_the_earliest_lines_among_equals() {
        assert_eq!(align(&["a"], &["a", "a"]), [(0, 0)]);
        assert_eq!(align(&["a", "a"], &["a"]), [(0, 0)]);
        assert_eq!(align(&["a", "b"], &["a", "a", "b"]), [(0, 0), (1, 2)]);
    }

    #[test]
    fn alignment_by_lcs_up_to_a_thousand_lines_then_by_position() {
        let lines: Vec<String> = (0..1000).map(|i| format!("l{i}")).collect();
        let shifted = |k: usize| -> Vec<&str> { std::iter::once("x").chain(lines.iter().take(k).map(String::as_str)).collect() };
        let file: Vec<&str> = lines.iter().map(String::as_str).collect();
        // 1,000 lines each side: the LCS pairs the shifted lines.
        let (search, region) = (shifted(999), &file[..1000]);
        assert_eq!(align(&search, region).len(), 999);
        assert_eq!(align(region, &search).len(), 999);
        // Past 1,000 on either side, by position: no line is at its place.
        let search = shifted(1000);
        assert_eq!(align(&search, &file).len(), 0);
        assert_eq!(align(&file, &search).len(), 0);
    }

    #[test]
    fn differences_align_lines() {
        let search = ["a", "  b", "c", "x", "d"];
        let file = ["a", "b", "c", "d", "e"];
        let d = differences(&search, &file, 10, &align(&search, &file));
        let kinds: Vec<_> = d.iter().map(|d| (d.kind, d.search_line, d.file_line)).collect();
        assert_eq!(
            kinds,
            [
                (DifferenceKind::Whitespace, Some(2), Some(12)),
                (DifferenceKind::NotInFile, Some(4), None),
                (DifferenceKind::NotInSearch, None, Some(15)),
            ]
        );
        let (s, f) = (["a", "X", "c"], ["a", "Y", "c"]);
        let d = differences(&s, &f, 0, &align(&s, &f));
        assert_eq!((d[0].kind, d[0].search.as_deref(), d[0].file.as_deref()), (DifferenceKind::Changed, Some("X"), Some("Y")));
    }
}
