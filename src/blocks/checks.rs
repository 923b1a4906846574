//! What the `safe` preset adds around the ladder, and what the peers' edit
//! formats ask for beyond SEARCH and REPLACE:
//!
//! - `no_change`: SEARCH equal to REPLACE fails (OpenHands and Roo Code
//!   refuse it: a model that sends one is confused about the file);
//! - `empty_search`: an empty SEARCH on a non-empty file fails with a way to
//!   insert that works (OpenHands and Cline refuse it);
//! - `whole_lines`: an empty REPLACE over whole lines removes their line
//!   breaks too (as Cline and Roo Code do);
//! - `line_hints`: Roo Code's `:start_line:` chooses among equal matches;
//! - `replace_all`: continue.dev's `replace_all`, every exact occurrence.

use memchr::memmem;

use super::explain::{how, lines_text, range};
use super::ladder::{Found, Hit, Src};
use super::{Climb, Failure, Options, Outcome, Reason, Strategy, LINE_HINT_REACH};
use crate::error::Result;
use crate::text::Splice;

fn failed(reason: Reason, message: String) -> Outcome {
    Outcome {
        strategy: None,
        similarity: 0.0,
        matches: 0,
        splice: None,
        failure: Some(Failure { reason, message, candidates: Vec::new(), nearest: None, already_applied: None }),
        note: None,
        repairs: Vec::new(),
    }
}

/// SEARCH and REPLACE are the same text.
pub(crate) fn no_change(search: &str) -> Outcome {
    let what = if search.is_empty() {
        "are both empty".to_string()
    } else {
        let n = search.split('\n').count();
        format!("are the same ({n} line{})", if n == 1 { "" } else { "s" })
    };
    failed(
        Reason::NoChange,
        format!(
            "Edit not applied: its SEARCH and REPLACE texts {what}, so it would change nothing. Nothing was changed. If the change you meant is already in the file, leave this edit out; otherwise write the new text in REPLACE."
        ),
    )
}

/// The shortest run of whole lines at the start (or the end) of `text`, at
/// most five, that occurs exactly once in it: a SEARCH text that works.
fn unique_edge(text: &str, top: bool) -> Option<String> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = body.split('\n').collect();
    (1..=lines.len().min(5)).find_map(|k| {
        let part = if top { lines.get(..k)? } else { lines.get(lines.len() - k..)? };
        let s = part.join("\n");
        (!s.trim().is_empty() && occurs_once(text, &s)).then_some(s)
    })
}

/// Whether `needle` occurs exactly once in `text`, overlapping occurrences
/// counted (as the `exact` rung counts them).
fn occurs_once(text: &str, needle: &str) -> bool {
    let (hay, n) = (text.as_bytes(), needle.as_bytes());
    match memmem::find(hay, n) {
        Some(p) => hay.get(p + 1..).is_none_or(|rest| memmem::find(rest, n).is_none()),
        None => false,
    }
}

/// An empty SEARCH on a non-empty file (`text` is the file as matched).
pub(crate) fn empty_search(text: &str) -> Outcome {
    let n = text.strip_suffix('\n').unwrap_or(text).split('\n').count();
    let mut message = format!(
        "Edit not applied: its SEARCH text is empty, and an empty SEARCH only creates a new file, but this file is not empty ({n} line{}). Nothing was changed. To insert lines, put the lines they go after in SEARCH, and the same lines followed by the new ones in REPLACE",
        if n == 1 { "" } else { "s" }
    );
    match (unique_edge(text, false), unique_edge(text, true)) {
        (Some(last), first) => {
            message.push_str(&format!(": to append at the end, SEARCH {last:?} and REPLACE {last:?} then the new lines"));
            if let Some(first) = first {
                message.push_str(&format!("; to insert at the top, SEARCH {first:?} and REPLACE the new lines then {first:?}"));
            }
            message.push('.');
        }
        (None, Some(first)) => {
            message.push_str(&format!(": to insert at the top, SEARCH {first:?} and REPLACE the new lines then {first:?}."))
        }
        (None, None) => message.push('.'),
    }
    failed(Reason::EmptySearch, message)
}

/// Bytes `start..end` of `text`, widened to take the line break of the whole
/// lines they cover: the one after them, or for a last line without one, the
/// one before (not before `floor`). Unchanged when they do not cover whole
/// lines or already end with a line break.
pub(crate) fn whole_lines(text: &str, start: usize, end: usize, floor: usize) -> (usize, usize) {
    let b = text.as_bytes();
    let line_start = start == 0 || b.get(start - 1) == Some(&b'\n');
    if !line_start || end <= start || b.get(end - 1) == Some(&b'\n') {
        return (start, end);
    }
    match b.get(end) {
        Some(b'\n') => (start, end + 1),
        None if start > floor => (start - 1, end),
        _ => (start, end),
    }
}

/// With several exact matches: the one that starts nearest `line` (1-based),
/// if it is within [`LINE_HINT_REACH`] lines and nearer than any other; and
/// the note saying so.
pub(crate) fn by_start_line(src: &Src, strategy: Strategy, found: &Found, line: usize, options: &Options) -> Option<(Hit, String)> {
    if strategy != Strategy::Exact {
        return None;
    }
    let places: Vec<(Hit, usize, usize)> = found
        .candidates
        .iter()
        .map(|h| {
            let (first, last) = src.lines_of(h.start, h.end);
            (*h, first + 1, last + 1)
        })
        .collect();
    // Places beyond the ones kept lie further down the file.
    let last_kept = places.iter().map(|p| p.1).max()?;
    if found.count > places.len() && line + LINE_HINT_REACH >= last_kept {
        return None;
    }
    let best = places.iter().min_by_key(|p| p.1.abs_diff(line))?;
    let d = best.1.abs_diff(line);
    if d > LINE_HINT_REACH || places.iter().filter(|p| p.1.abs_diff(line) == d).count() > 1 {
        return None;
    }
    let all: Vec<String> = places.iter().map(|p| lines_text(range(p.1 - 1, p.2 - 1))).collect();
    let note = format!(
        "The SEARCH text matches {} places in the file ({}): {}; applied at {}, the one nearest its startLine {line}.",
        found.count,
        how(strategy, options),
        all.join(", "),
        lines_text(range(best.1 - 1, best.2 - 1))
    );
    Some((best.0, note))
}

/// An ambiguity that a `start_line` did not resolve: say why.
pub(crate) fn with_start_line(mut outcome: Outcome, line: Option<usize>) -> Outcome {
    if let (Some(line), Some(f)) = (line, outcome.failure.as_mut()) {
        f.message.push_str(&format!(
            " Its startLine {line} did not choose one: it chooses only among exact matches, the one starting within {LINE_HINT_REACH} lines of it and nearer than the others."
        ));
    }
    outcome
}

/// Every non-overlapping exact occurrence of `search` in `src` replaced.
/// `source` is the file itself, `to_source` maps offsets of `src` to it and
/// `write` gives the replacement as written into it.
pub(crate) fn replace_all(
    src: &Src,
    source: &str,
    search: &str,
    replace: &str,
    options: &Options,
    to_source: impl Fn(usize) -> usize,
    write: impl Fn(&str) -> String,
) -> Result<Outcome> {
    let text = src.text;
    let mut places: Vec<(usize, usize)> = Vec::new();
    for s in memmem::find_iter(text.as_bytes(), search.as_bytes()) {
        let e = s + search.len();
        let floor = places.last().map_or(0, |p| p.1);
        places.push(if options.whole_lines && replace.is_empty() { whole_lines(text, s, e, floor) } else { (s, e) });
    }
    let (Some(&(first, _)), Some(&(_, last))) = (places.first(), places.last()) else {
        return match super::climb(src, search, replace, options)? {
            Climb::Failed(outcome) => Ok(outcome),
            Climb::Matched(strategy, found) => {
                let (a, b) = src.lines_of(found.winner.start, found.winner.end);
                Ok(failed(
                    Reason::NotFound,
                    format!(
                        "Edit not applied: replaceAll replaces exact copies of the SEARCH text, and the file has none; it matches {} at {}. Nothing was changed. Copy the SEARCH text exactly from the file, or send the edit without replaceAll.",
                        how(strategy, options),
                        lines_text(range(a, b))
                    ),
                ))
            }
        };
    };
    let mut out = String::new();
    let mut at = first;
    for &(s, e) in &places {
        out.push_str(source.get(to_source(at)..to_source(s)).unwrap_or(""));
        out.push_str(&write(replace));
        at = e;
    }
    let lines: Vec<String> = places
        .iter()
        .take(20)
        .map(|&(s, e)| {
            let (a, b) = src.lines_of(s, e);
            lines_text(range(a, b))
        })
        .collect();
    let more = if places.len() > lines.len() { format!(" and {} more", places.len() - lines.len()) } else { String::new() };
    let note = format!(
        "Replaced {} place{} (every exact copy of the SEARCH text): {}{more}.",
        places.len(),
        if places.len() == 1 { "" } else { "s" },
        lines.join(", ")
    );
    Ok(Outcome {
        strategy: Some(Strategy::Exact),
        similarity: 1.0,
        matches: places.len(),
        splice: Some(Splice { start: to_source(first), end: to_source(last), text: out }),
        failure: None,
        note: Some(note),
        repairs: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_lines_take_one_line_break() {
        assert_eq!(whole_lines("a\nb\nc\n", 2, 3, 0), (2, 4));
        assert_eq!(whole_lines("a\nb", 2, 3, 0), (1, 3));
        assert_eq!(whole_lines("a\nb\n", 2, 4, 0), (2, 4));
        assert_eq!(whole_lines("ab\n", 1, 2, 0), (1, 2));
        assert_eq!(whole_lines("b", 0, 1, 0), (0, 1));
    }

    #[test]
    fn unique_edges() {
        assert_eq!(unique_edge("a\n}\nb\n}\n", false).as_deref(), Some("b\n}"));
        assert_eq!(unique_edge("x\ny\n", true).as_deref(), Some("x"));
        assert_eq!(unique_edge("z\nz\nz\nz\nz\nz\n", true), None);
        // The last two lines, not the last half.
        assert_eq!(unique_edge("p\nq\nr\n}\ns\n}\n", false).as_deref(), Some("s\n}"));
        assert!(!occurs_once("z\nz\nz", "z\nz"));
    }
}
