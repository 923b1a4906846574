//! "Already applied": a section whose new lines (context and added, in
//! order) are already where it would put them. Strict never applies such a
//! section again, with or without repairs: a diff sent twice must not
//! duplicate its change.
//!
//! A section is already applied when its new lines occur exactly once at or
//! after the cursor, at line `n`, and
//! - its old lines (context and removed) are not there at all (other than
//!   over the new lines themselves, with other whitespace); or
//! - its old lines match once, at `o`, and `n < o` (the new text comes
//!   first: the old text further down is another copy, which a replay would
//!   change), or `n == o` and the new side is longer (an insertion whose
//!   lines already follow its context);
//! - for a section of added lines only, those lines are already right where
//!   they would be inserted.

use crate::diff::{Diff, Section};
use crate::error::{Error, ErrorKind, Result};
use crate::matcher::index::Index;

use super::{Ctx, Repair, RepairKind};

/// Whether a section can be "already applied" at all: it changes something,
/// and leaves some lines to look for.
pub(crate) fn new_side<'d>(section: &Section<'d>) -> Option<Vec<&'d str>> {
    let new: Vec<&str> = section.new_side().map(|l| l.text).collect();
    let old = section.old().map(|l| l.text);
    if new.is_empty() || !section.has_changes() || old.eq(new.iter().copied()) {
        return None;
    }
    Some(new)
}

/// The one place at or after `cursor` where the section's new lines are.
fn unique(idx: &Index, new: &[&str], cursor: usize) -> Option<usize> {
    let mut found = idx.find_block(new, cursor);
    match (found.next(), found.next()) {
        (Some(n), None) => Some(n),
        _ => None,
    }
}

/// Where the section's new lines are (and the line after them), when its
/// old lines are not in the input. `eof`: only at the end.
pub fn instead_of_missing(idx: &Index, section: &Section, cursor: usize) -> Option<(usize, usize)> {
    let new = new_side(section)?;
    let n = if section.eof.is_some() {
        let s = idx.lines().len().checked_sub(new.len()).filter(|&s| s >= cursor && idx.block_at(&new, s))?;
        unique(idx, &new, cursor).filter(|&u| u == s)?
    } else {
        unique(idx, &new, cursor)?
    };
    plausible(idx, section, cursor, n).then_some((n, n + new.len()))
}

/// Whether new lines found at `n`, with the old lines not matching, really
/// are the change done: the old lines are not there even with whitespace
/// and punctuation forgiven, and the lines the section removes before (or
/// after) its new lines are not still right there (a removal whose context
/// lost a line is not a removal done).
pub(crate) fn plausible(idx: &Index, section: &Section, cursor: usize, n: usize) -> bool {
    let old: Vec<&str> = section.old().map(|l| l.text).collect();
    let lines = idx.lines();
    let new_len = section.new_side().count();
    if super::section::loosely_present(idx, &old, cursor, section.eof.is_some(), n..n + new_len) {
        return false;
    }
    // All but one of four or more old lines, in place somewhere else: the
    // old text is still there with one line misremembered, and the new lines
    // found are a coincidence. Not where the new lines are: an insertion
    // whose added lines end like the context after it (a function ending in
    // `}` and a blank line, before another one) leaves its old lines there,
    // shifted, all but one. Nor for a section that only adds lines: its new
    // lines found hold every one of its context lines exactly, in order,
    // with the added ones among them, so they are no coincidence (a file of
    // repeated blocks has its context, all but one line, all over it).
    let removes = section.lines.iter().any(|l| l.kind == crate::diff::LineKind::Remove);
    let whole = |c: &crate::matcher::diagnose::Candidate| c.start + old.len() <= lines.len();
    let elsewhere = |c: &crate::matcher::diagnose::Candidate| c.start + old.len() <= n || c.start >= n + new_len;
    if removes
        && old.len() >= 4
        && crate::matcher::diagnose::nearest(idx, &old, cursor)
            .is_some_and(|c| c.start != n && whole(&c) && elsewhere(&c) && c.equal + 1 >= old.len())
    {
        return false;
    }
    let is_removed = |l: &&crate::diff::DiffLine| l.kind == crate::diff::LineKind::Remove;
    let leading: Vec<&str> = section.lines.iter().take_while(is_removed).map(|l| l.text).collect();
    let trailing: Vec<&str> = section.lines.iter().rev().take_while(is_removed).map(|l| l.text).collect();
    let still_there = |run: &[&str], range: std::ops::Range<usize>| {
        run.iter().filter(|t| !t.trim().is_empty()).any(|t| range.clone().any(|i| i < lines.len() && alike(lines.get(i), t)))
    };
    let before = n.saturating_sub(leading.len() + 2)..n;
    let after = n + new_len..n + new_len + trailing.len() + 2;
    !still_there(&leading, before) && !still_there(&trailing, after)
}

/// Whether an input line is the removed line, or a copy of it the model
/// misremembered a little: equal but for whitespace around it, or sharing
/// a start and an end that make up 70% of the longer line.
fn alike(line: &str, removed: &str) -> bool {
    let (a, b) = (line.trim().as_bytes(), removed.trim().as_bytes());
    if a == b {
        return true;
    }
    let longest = a.len().max(b.len());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let rest = a.len().min(b.len()) - prefix;
    let suffix = a.iter().rev().zip(b.iter().rev()).take(rest).take_while(|(x, y)| x == y).count();
    longest > 0 && (prefix + suffix) * 10 >= longest * 7
}

/// Where the section's new lines are, when its old lines match once at `o`
/// but the new lines come first (or are the longer text at the same place).
pub fn before_match(idx: &Index, section: &Section, cursor: usize, o: usize) -> Option<(usize, usize)> {
    let new = new_side(section)?;
    let old_len = section.old().count();
    let n = unique(idx, &new, cursor)?;
    if section.eof.is_some() && n + new.len() != idx.lines().len() {
        return None;
    }
    (n < o || (n == o && new.len() > old_len)).then_some((n, n + new.len()))
}

/// For a section of added lines only, inserted before line `at`: whether
/// those lines are already there (just before `at` for an insertion at the
/// end of the file, just after it otherwise).
pub fn insertion(idx: &Index, section: &Section, at: usize, eof: bool) -> Option<(usize, usize)> {
    let new = new_side(section)?;
    let n = if eof { at.checked_sub(new.len())? } else { at };
    idx.block_at(&new, n).then_some((n, n + new.len()))
}

/// Which sections of a diff were found already applied, and where.
#[derive(Debug, Default)]
pub struct Sections {
    /// Per section in order: `Some(input line index)` when already applied.
    status: Vec<Option<usize>>,
}

impl Sections {
    pub fn applied(&mut self, at: usize) {
        self.status.push(Some(at));
    }

    pub fn fresh(&mut self) {
        self.status.push(None);
    }

    /// The whole diff's verdict: nothing applied yet (go on), all of it
    /// applied (an error, or a reported no-op with the `already-applied`
    /// repair; returns true), or part of it (an error naming the parts).
    pub fn finish(&self, diff: &Diff, ctx: &mut Ctx) -> Result<bool> {
        let applied: Vec<(usize, usize)> = self.status.iter().enumerate().filter_map(|(i, s)| s.map(|at| (i, at))).collect();
        let Some(&(first_section, first_at)) = applied.first() else { return Ok(false) };
        let name = |si: usize| {
            let (a, b) = diff.sections.get(si).map_or((1, 1), Section::span);
            if a == b {
                format!("section {} (diff line {a})", si + 1)
            } else {
                format!("section {} (diff lines {a}-{b})", si + 1)
            }
        };
        let places: Vec<String> = applied.iter().map(|&(si, at)| format!("{} at input line {}", name(si), at + 1)).collect();
        let first_line = diff.sections.get(first_section).map_or(1, Section::first_line);
        let input_lines: Vec<usize> = applied.iter().map(|&(_, at)| at + 1).collect();
        if applied.len() == self.status.len() {
            let what = if applied.len() == 1 {
                "Its new lines are already in the input"
            } else {
                "The new lines of every section are already in the input"
            };
            if ctx.allows(RepairKind::AlreadyApplied) {
                ctx.push(Repair::new(
                    RepairKind::AlreadyApplied,
                    format!("the diff is already applied ({}): nothing was changed. Do not send it again.", places.join("; ")),
                    Some(first_line),
                    Some(first_at + 1),
                ));
                return Ok(true);
            }
            return Err(Error::new(
                ErrorKind::AlreadyApplied,
                format!(
                    "The diff is already applied. {what}, where it would put them: {}. Nothing was changed, and the diff was not applied a second time. Do not send it again; re-read the file if you want to change it further.",
                    places.join("; ")
                ),
            )
            .at_diff_line(first_line)
            .at_input_lines(input_lines));
        }
        let fresh: Vec<String> = self.status.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| name(i)).collect();
        let verb = |n: usize| if n == 1 { "is" } else { "are" };
        Err(Error::new(
            ErrorKind::AlreadyApplied,
            format!(
                "Part of the diff is already applied: {} {} already in the input, but {} {} not. Nothing was changed. Re-read the file, then send only the changes it does not have yet.",
                places.join("; "),
                verb(applied.len()),
                fresh.join(", "),
                verb(fresh.len())
            ),
        )
        .at_diff_line(first_line)
        .at_input_lines(input_lines))
    }
}
