//! What a failed search tells the model: the closest place in the input, the
//! lines that differ there, and a unique line to anchor on. Only runs after a
//! failure, so it may look at more of the input than a search does, but it
//! stays linear in the input's size.

use std::collections::HashMap;

use super::index::Index;
use super::linear;
use crate::diff::show;
use crate::error::Nearest;

/// Occurrences above which a line is too common to tell where a block is.
const COMMON: usize = 200;

/// A place in the input where a block of lines may have been meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// 0-based input line where the block would start.
    pub start: usize,
    /// How many of the block's lines are byte-for-byte equal there.
    pub equal: usize,
}

/// The place at or after line `from` where most lines of `block` are equal to
/// the input's (ties: the earliest). Falls back to equality after trimming
/// whitespace when no line is equal as is, then to the most similar line.
pub fn nearest(idx: &Index, block: &[&str], from: usize) -> Option<Candidate> {
    let lines = idx.lines();
    let n = lines.len();
    if block.is_empty() || from >= n {
        return None;
    }
    // votes[s - from]: lines of the block equal at their place if it started at s.
    let mut votes = vec![0u32; n - from];
    let vote = |s: usize, votes: &mut Vec<u32>| {
        if let Some(v) = s.checked_sub(from).and_then(|k| votes.get_mut(k)) {
            *v += 1;
        }
    };
    for (j, text) in block.iter().enumerate() {
        let occ: Vec<usize> = idx.occurrences(text, from).take(COMMON + 1).collect();
        if occ.len() > COMMON {
            continue;
        }
        for p in occ {
            if let Some(s) = p.checked_sub(j) {
                vote(s, &mut votes);
            }
        }
    }
    if votes.iter().all(|&v| v == 0) {
        // Nothing equal as is: look for lines equal once whitespace is
        // trimmed (again leaving out lines too common to tell a place).
        let mut wanted: HashMap<&str, (Vec<usize>, Vec<usize>)> = HashMap::new();
        for (j, text) in block.iter().enumerate() {
            if !text.trim().is_empty() {
                wanted.entry(text.trim()).or_default().0.push(j);
            }
        }
        for p in from..n {
            if let Some((_, at)) = wanted.get_mut(lines.get(p).trim()) {
                if at.len() <= COMMON {
                    at.push(p);
                }
            }
        }
        for (js, at) in wanted.values() {
            if at.len() > COMMON {
                continue;
            }
            for &p in at {
                for &j in js.iter().take(COMMON) {
                    if let Some(s) = p.checked_sub(j) {
                        vote(s, &mut votes);
                    }
                }
            }
        }
    }
    if votes.iter().all(|&v| v == 0) {
        // Every line of the block that is there is too common to vote: the
        // place where the longest start of the block is.
        if let Some((start, _)) = linear::longest_prefix(block, n, from, |i| lines.get(i)) {
            let equal = block.iter().enumerate().filter(|(j, t)| start + j < n && lines.get(start + j) == **t).count();
            return Some(Candidate { start, equal });
        }
        return similar_line(idx, block, from);
    }
    // The most votes; the earliest start on ties.
    let (k, _) = votes.iter().enumerate().fold((0, 0), |best, (k, &v)| if v > best.1 { (k, v) } else { best });
    let start = from + k;
    let equal = block.iter().enumerate().filter(|(j, t)| start + j < n && lines.get(start + j) == **t).count();
    Some(Candidate { start, equal })
}

/// Share of two lines covered by their common prefix and suffix: a cheap
/// similarity that catches a changed word or a typo.
fn line_similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (a.trim(), b.trim());
    let longest = a.chars().count().max(b.chars().count());
    if longest == 0 {
        return 1.0;
    }
    let prefix = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let room = a.chars().count().min(b.chars().count()) - prefix;
    let suffix = a.chars().rev().zip(b.chars().rev()).take(room).take_while(|(x, y)| x == y).count();
    (prefix + suffix) as f64 / longest as f64
}

/// When no line of the block is in the input even trimmed: the input line
/// most similar to one of the block's longest lines (at least half alike).
fn similar_line(idx: &Index, block: &[&str], from: usize) -> Option<Candidate> {
    let lines = idx.lines();
    let (j, probe) = block.iter().enumerate().max_by_key(|(_, l)| l.trim().len())?;
    if probe.trim().len() < 3 {
        return None;
    }
    let mut best: Option<(f64, usize)> = None;
    for p in from.max(j)..lines.len().min(from + 1_000_000) {
        let sim = line_similarity(lines.get(p), probe);
        if sim >= 0.5 && best.is_none_or(|(b, _)| sim > b) {
            best = Some((sim, p));
        }
    }
    let (_, p) = best?;
    let start = p - j;
    let equal = block.iter().enumerate().filter(|(k, t)| lines.get(start + k) == **t).count();
    Some(Candidate { start, equal })
}

/// What a failed block search reports about the closest place.
pub struct Closest {
    /// The diff line to fix: the first that differs there.
    pub diff_line: usize,
    /// The 1-based input line it is compared with there (the one the message
    /// quotes as "input line L is …"; the input's last line when it ends first).
    pub input_line: usize,
    /// "The closest place is input line L, where E of K lines are equal:"
    /// and the differing lines.
    pub text: String,
    pub nearest: Nearest,
}

/// The closest place to `block` at or after line `from`, described.
/// `diff_lines[j]` is the diff line of `block[j]`.
pub fn closest(idx: &Index, block: &[&str], diff_lines: &[usize], from: usize) -> Option<Closest> {
    let c = nearest(idx, block, from)?;
    let first = diff_lines.first().copied().unwrap_or(0);
    let differs = first_difference(idx, block, c);
    let diff_line = differs.and_then(|j| diff_lines.get(j).copied()).unwrap_or(first);
    let input_line = differs.map_or(c.start, |j| c.start + j).min(idx.lines().len().saturating_sub(1)) + 1;
    let text = format!(
        "The closest place is input line {}, where {} of {} lines are equal:{}",
        c.start + 1,
        c.equal,
        block.len(),
        differences(idx, block, diff_lines, c)
    );
    Some(Closest { diff_line, input_line, text, nearest: to_nearest(idx, block, c) })
}

/// Index in `block` of the first line that differs from the input at `c`.
pub fn first_difference(idx: &Index, block: &[&str], c: Candidate) -> Option<usize> {
    let lines = idx.lines();
    block.iter().enumerate().position(|(j, want)| c.start + j >= lines.len() || lines.get(c.start + j) != *want)
}

/// The `Nearest` of an error for a candidate.
pub fn to_nearest(idx: &Index, block: &[&str], c: Candidate) -> Nearest {
    let lines = idx.lines();
    let end = (c.start + block.len()).min(lines.len());
    let text = (c.start..end).map(|i| lines.get(i)).collect::<Vec<_>>().join("\n");
    let similarity = if block.is_empty() { 0.0 } else { c.equal as f64 / block.len() as f64 };
    Nearest { line: c.start + 1, text, similarity }
}

/// Describes how the input at `c` differs from the block: up to three lines,
/// each as "diff line D expects '…' / input line L is '…'". `diff_lines[j]`
/// is the diff line of `block[j]`.
pub fn differences(idx: &Index, block: &[&str], diff_lines: &[usize], c: Candidate) -> String {
    let lines = idx.lines();
    let mut out = String::new();
    let mut shown = 0;
    for (j, want) in block.iter().enumerate() {
        let at = c.start + j;
        let d = diff_lines.get(j).copied().unwrap_or(0);
        if at >= lines.len() {
            out.push_str(&format!("\n  diff line {d} expects {}, but the input ends at line {}", show(want), lines.len()));
            break;
        }
        let have = lines.get(at);
        if have == *want {
            continue;
        }
        if shown == 3 {
            out.push_str("\n  (more lines differ)");
            break;
        }
        shown += 1;
        let note = if have.trim() == want.trim() { "  (only whitespace differs)" } else { "" };
        out.push_str(&format!("\n  diff line {d} expects {}\n  input line {} is    {}{note}", show(want), at + 1, show(have)));
    }
    out
}

/// Least [`line_similarity`] of a line called nearly equal to an anchor.
const NEARLY: f64 = 0.75;

/// For an anchor that equals no line: the first line that equals it once
/// whitespace is trimmed, or else that contains it, or else the line most
/// nearly equal to it (a typo, a changed word; the first on a tie).
pub fn anchor_hint(idx: &Index, text: &str) -> Option<(usize, String)> {
    let lines = idx.lines();
    let want = text.trim();
    if want.is_empty() {
        return None;
    }
    if let Some(i) = (0..lines.len()).find(|&i| lines.get(i).trim() == want) {
        return Some((i, format!("input line {} is {} (only whitespace differs)", i + 1, show(lines.get(i)))));
    }
    // Only lines at least as long can contain it (and `contains` costs the
    // anchor's length each time).
    if let Some(i) = (0..lines.len()).find(|&i| lines.get(i).len() >= want.len() && lines.get(i).contains(want)) {
        return Some((i, format!("input line {} contains it: {}; an anchor is a whole line", i + 1, show(lines.get(i)))));
    }
    let mut best: Option<(f64, usize)> = None;
    for i in 0..lines.len().min(1_000_000) {
        let sim = line_similarity(lines.get(i), want);
        if sim >= NEARLY && best.is_none_or(|(b, _)| sim > b) {
            best = Some((sim, i));
        }
    }
    best.map(|(_, i)| {
        (
            i,
            format!(
                "the nearest is input line {}, {}, nearly equal: if it is the line you meant, copy it exactly (whitespace included)",
                i + 1,
                show(lines.get(i))
            ),
        )
    })
}

/// Lists 1-based line numbers: "3, 7 and 12".
pub fn list_lines(lines: &[usize]) -> String {
    let shown: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match shown.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
