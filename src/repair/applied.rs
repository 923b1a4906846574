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

use crate::diff::Section;
use crate::error::{Error, ErrorKind, Result};
use crate::matcher::index::Index;

use super::context::{Ctx, Repair, RepairKind};
use super::section::{new_side, plausible};

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
#[inline(never)]
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

/// Where the section's new lines are, when its old lines match once at `o`
/// but the new lines come first (or are the longer text at the same place).
pub fn before_match(idx: &Index, section: &Section, cursor: usize, o: usize) -> Option<(usize, usize)> {
    let new = new_side(section)?;
    let old_len = section.old().count();
    // Only new lines at or before `o` count: looked for there first, so a
    // section whose new lines are not there (nearly every one) does not
    // read the rest of the input for them.
    idx.find_block_until(&new, cursor, o).next()?;
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
    /// `spans`: each section's diff lines, first and last (`Section::span`).
    pub fn finish(&self, spans: &[(usize, usize)], ctx: &mut Ctx) -> Result<bool> {
        let applied: Vec<(usize, usize)> = self.status.iter().enumerate().filter_map(|(i, s)| s.map(|at| (i, at))).collect();
        let Some(&(first_section, first_at)) = applied.first() else { return Ok(false) };
        let name = |si: usize| {
            let (a, b) = spans.get(si).copied().unwrap_or((1, 1));
            if a == b {
                format!("section {} (diff line {a})", si + 1)
            } else {
                format!("section {} (diff lines {a}-{b})", si + 1)
            }
        };
        let places: Vec<String> = applied.iter().map(|&(si, at)| format!("{} at input line {}", name(si), at + 1)).collect();
        let first_line = spans.get(first_section).map_or(1, |s| s.0);
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
