//! Codex matching: what the OpenAI Codex CLI's `apply_patch` (0.171.0) does.
//! Each chunk is found at its first match at or after the previous one, by
//! four passes over the input (exact, then ignoring trailing whitespace, then
//! surrounding whitespace, then also a few Unicode punctuation look-alikes);
//! an `@@ anchor` line is found the same way. A chunk with no old lines is
//! appended at the end of the file. Only the runs of removed and added lines
//! are replaced, so context lines keep the file's own text and line ending.

use std::borrow::Cow;

use super::diagnose;
use super::index::Index;
use super::linear;
use super::DiffEdit;
use crate::diff::{Diff, LineKind, Section};
use crate::error::{Error, ErrorKind, Result};
use crate::text::LineEdit;

/// The ways Codex compares lines after exact equality (which the index does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    TrimEnd,
    Trim,
    Normalised,
}

/// Codex's table of look-alike characters, compared as their ASCII twin.
fn normalise(c: char) -> char {
    match c {
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' => '-',
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
        '\u{00A0}' | '\u{2002}' | '\u{2003}' | '\u{2004}' | '\u{2005}' | '\u{2006}' | '\u{2007}' | '\u{2008}' | '\u{2009}' | '\u{200A}'
        | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        c => c,
    }
}

impl Pass {
    /// What the pass compares of a line: two lines are equal under the pass
    /// when their keys are.
    fn key(self) -> fn(&str) -> Cow<'_, str> {
        match self {
            Pass::TrimEnd => |l| Cow::Borrowed(l.trim_end()),
            Pass::Trim => |l| Cow::Borrowed(l.trim()),
            Pass::Normalised => |l| {
                let t = l.trim();
                if t.chars().all(|c| normalise(c) == c) {
                    Cow::Borrowed(t)
                } else {
                    Cow::Owned(t.chars().map(normalise).collect())
                }
            },
        }
    }
}

/// Codex's `seek_sequence`: the first start at or after `start` (or, for an
/// end-of-file chunk, only the very end) where `pattern` matches, trying each
/// pass over the whole range before the next.
pub fn seek(idx: &Index, pattern: &[&str], start: usize, eof: bool) -> Option<usize> {
    if pattern.is_empty() {
        return Some(start);
    }
    let lines = idx.lines();
    let last = lines.len().checked_sub(pattern.len())?;
    let from = if eof { last.max(start) } else { start };
    if from > last {
        return None;
    }
    if let Some(s) = idx.find_block(pattern, from).next() {
        return Some(s);
    }
    // Each pass is coarser than the one before (lines equal under one are
    // equal under the next), so the last pass's first match says whether
    // any pass matches, and where the others' first matches can start.
    let line = |i: usize| lines.get(i);
    let seek = |pass: Pass, from: usize| linear::first(pattern, last + pattern.len(), from, line, pass.key(), |u| idx.spend(u));
    let coarsest = seek(Pass::Normalised, from)?;
    for pass in [Pass::TrimEnd, Pass::Trim] {
        let found = seek(pass, coarsest);
        if found.is_some() {
            return found;
        }
    }
    Some(coarsest)
}

/// A chunk as Codex holds it: old and new lines, and where its context lines
/// sit in both.
struct Chunk<'d> {
    old: Vec<&'d str>,
    new: Vec<&'d str>,
    context: Vec<(usize, usize)>,
}

impl<'d> Chunk<'d> {
    fn of(section: &Section<'d>) -> Self {
        // Sized once: grown a line at a time they were reallocated about
        // six times a section, an eighth of a many-section diff's work.
        let n = section.lines.len();
        let context = section.lines.iter().filter(|l| l.kind == LineKind::Context).count();
        let mut c = Chunk { old: Vec::with_capacity(n), new: Vec::with_capacity(n), context: Vec::with_capacity(context) };
        for l in &section.lines {
            match l.kind {
                LineKind::Context => {
                    c.context.push((c.old.len(), c.new.len()));
                    c.old.push(l.text);
                    c.new.push(l.text);
                }
                LineKind::Remove => c.old.push(l.text),
                LineKind::Add => c.new.push(l.text),
            }
        }
        c
    }

    /// The same chunk without a trailing empty old line (and one trailing
    /// empty new line): Codex's second try.
    fn without_trailing_empty(&self) -> Option<Self> {
        if self.old.last() != Some(&"") {
            return None;
        }
        let old = self.old.get(..self.old.len() - 1).unwrap_or(&[]).to_vec();
        let new = match self.new.split_last() {
            Some((&"", rest)) => rest.to_vec(),
            _ => self.new.clone(),
        };
        let context = self.context.iter().copied().filter(|&(o, n)| o < old.len() && n < new.len()).collect();
        Some(Chunk { old, new, context })
    }

    /// Edits for the chunk matched at input line `at`: the runs between
    /// context lines.
    fn edits(&self, at: usize, diff_line: usize) -> Vec<DiffEdit<'d>> {
        let mut out = Vec::new();
        let (mut po, mut pn) = (0, 0);
        let ends = self.context.iter().copied().chain(std::iter::once((self.old.len(), self.new.len())));
        for (o, n) in ends {
            if o > po || n > pn {
                let new = self.new.get(pn..n).unwrap_or(&[]).iter().map(|&l| Cow::Borrowed(l)).collect();
                out.push(DiffEdit { edit: LineEdit { start: at + po, end: at + o, new }, diff_line });
            }
            po = o + 1;
            pn = n + 1;
        }
        out
    }
}

/// Finds every chunk of `diff` in the input the Codex way. `path` names the
/// file in messages (Codex prints it; `None` for a diff on its own).
pub fn plan<'d>(idx: &Index, diff: &Diff<'d>, path: Option<&str>) -> Result<Vec<DiffEdit<'d>>> {
    let mut plan = Plan::default();
    let mut edits = Vec::new();
    for section in &diff.sections {
        edits.extend(plan.section(idx, section, path)?.1);
    }
    crate::order::sort_by_key(&mut edits, |e| (e.edit.start, 0));
    Ok(edits)
}

/// Codex's state between chunks: where the next one may start. `plan` runs
/// it over a parsed diff, and `crate::stream` over sections as they arrive;
/// the edits of all chunks, in order, are then sorted by start (stably).
#[derive(Debug, Default)]
pub struct Plan {
    line_index: usize,
}

impl Plan {
    /// Finds the next chunk: where it goes (the input's length for a chunk
    /// with no old lines, appended at the end) and its edits.
    pub fn section<'d>(&mut self, idx: &Index, section: &Section<'d>, path: Option<&str>) -> Result<(usize, Vec<DiffEdit<'d>>)> {
        let n = idx.lines().len();
        let name = path.unwrap_or("the input");
        if let Some(a) = section.anchors.first() {
            match seek(idx, &[a.text], self.line_index, false) {
                Some(i) => self.line_index = i + 1,
                None => {
                    let mut msg = format!("Failed to find context '{}' in {name}", a.text);
                    // Found only above where the previous chunk ends: say so,
                    // rather than compare the line with itself.
                    let above = seek(idx, &[a.text], 0, false).map(|i| {
                        (
                            i,
                            format!(
                                "input line {} is {}, but it is not after input line {}, where the previous chunk ends: chunks and their '@@' lines must follow the order of the file",
                                i + 1,
                                crate::diff::show(idx.lines().get(i)),
                                self.line_index
                            ),
                        )
                    });
                    let hint = above.or_else(|| diagnose::anchor_hint(idx, a.text));
                    if let Some((_, h)) = &hint {
                        msg.push_str(&format!("\n\n({h}.)"));
                    }
                    return Err(Error::new(ErrorKind::AnchorNotFound, msg).at_diff_line(a.line).at_input_lines(hint.map(|(i, _)| i + 1)));
                }
            }
        }
        idx.check_work()?;
        let chunk = Chunk::of(section);
        let first = section.lines.first().map_or(section.first_line(), |l| l.line);
        if chunk.old.is_empty() {
            let edit = DiffEdit {
                edit: LineEdit { start: n, end: n, new: chunk.new.iter().map(|&l| Cow::Borrowed(l)).collect() },
                diff_line: first,
            };
            return Ok((n, vec![edit]));
        }
        let eof = section.eof.is_some();
        let found = match seek(idx, &chunk.old, self.line_index, eof) {
            Some(s) => Some((s, chunk.old.len(), chunk.edits(s, first))),
            None => chunk
                .without_trailing_empty()
                .and_then(|retry| seek(idx, &retry.old, self.line_index, eof).map(|s| (s, retry.old.len(), retry.edits(s, first)))),
        };
        match found {
            Some((s, len, e)) => {
                self.line_index = s + len;
                Ok((s, e))
            }
            None => Err(not_found(idx, section, &chunk.old, self.line_index, name)),
        }
    }
}

fn not_found(idx: &Index, section: &Section, old: &[&str], from: usize, name: &str) -> Error {
    let mut msg = format!("Failed to find expected lines in {name}:\n{}", old.join("\n"));
    let diff_lines: Vec<usize> = section.old().map(|l| l.line).collect();
    let first = diff_lines.first().copied().unwrap_or(section.first_line());
    let closest = diagnose::closest(idx, old, &diff_lines, from);
    // Every line equal there: only '*** End of File' kept the chunk from
    // matching (a place with no difference has nothing to list).
    let whole = closest.as_ref().filter(|c| c.nearest.similarity >= 1.0);
    match (&closest, whole, section.eof) {
        (Some(c), Some(_), Some(eof)) => msg.push_str(&format!(
            "\n\n(These lines are at input line {}, but they are not the last lines of the file, and '*** End of File' (diff line {eof}) says they are. Remove '*** End of File', or add the lines that follow them, up to the end of the file, as context.)",
            c.nearest.line
        )),
        _ => {
            if let Some(c) = &closest {
                msg.push_str(&format!("\n\n({})", c.text));
            }
            if section.eof.is_some() {
                msg.push_str("\n\n(With '*** End of File' these lines must be the last lines of the file.)");
            }
        }
    }
    Error::new(ErrorKind::ContextNotFound, msg)
        .at_diff_line(closest.as_ref().map_or(first, |c| c.diff_line))
        .at_input_lines(closest.as_ref().map(|c| c.input_line))
        .with_nearest(closest.map(|c| c.nearest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Lines;

    fn seek_in(text: &str, pattern: &[&str], start: usize, eof: bool) -> Option<usize> {
        let lines = Lines::split(text);
        let idx = Index::new(&lines);
        seek(&idx, pattern, start, eof)
    }

    #[test]
    fn passes_in_order_and_first_match() {
        assert_eq!(seek_in("a \nb\na\n", &["a"], 0, false), Some(2), "a later exact match beats an earlier fuzzy one");
        assert_eq!(seek_in("a \nb\n", &["a"], 0, false), Some(0));
        assert_eq!(seek_in("  a\n", &["a  "], 0, false), Some(0));
        assert_eq!(seek_in("x \u{2013} \u{201C}y\u{201D}\u{00A0}\n", &["x - \"y\""], 0, false), Some(0));
        assert_eq!(seek_in("a\u{2026}\n", &["a..."], 0, false), None, "the ellipsis is not normalised");
        // A line made only of characters that normalise: every one of them is.
        assert_eq!(seek_in("x\n\u{201C}\u{2014}\u{201D}\n", &["\"-\""], 0, false), Some(1));
        assert_eq!(seek_in("a\nb\na\n", &["a"], 1, false), Some(2));
        assert_eq!(seek_in("a\nb\n", &[], 1, false), Some(1));
    }

    #[test]
    fn end_of_file_only_matches_the_end() {
        assert_eq!(seek_in("a\nb\na\n", &["a"], 0, true), Some(2));
        assert_eq!(seek_in("a\nb\n", &["a"], 0, true), None);
        assert_eq!(seek_in("a\n", &["a", "b"], 0, true), None);
    }
}
