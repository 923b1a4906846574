//! Where the modes differ: finding each section of a parsed diff in the input.
//! A matcher returns line edits; it never builds text (see `text::splices`).

pub mod codex;
#[cfg(test)]
mod cost;
pub mod diagnose;
pub mod index;
pub mod linear;
pub mod reach;
pub mod strict;

use std::borrow::Cow;

use crate::diff::{LineKind, Section};
use crate::text::LineEdit;

/// A line edit and the diff line it comes from (for overlap reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffEdit<'d> {
    pub edit: LineEdit<'d>,
    pub diff_line: usize,
}

/// The edits of a section whose old lines (context and removed) start at input
/// line `at`: each run of removed and added lines between context lines
/// replaces just those lines, so context lines keep the input's own bytes.
pub fn runs<'d>(section: &Section<'d>, at: usize) -> Vec<DiffEdit<'d>> {
    let mut out = Vec::new();
    let mut old = 0; // lines of the old side seen so far
    let mut run: Option<(usize, DiffEdit<'d>)> = None;
    for (i, l) in section.lines.iter().enumerate() {
        if l.kind == LineKind::Context {
            if let Some((_, mut e)) = run.take() {
                e.edit.end = at + old;
                out.push(e);
            }
            old += 1;
            continue;
        }
        let (_, e) = run.get_or_insert_with(|| {
            // Empty until the run closes and sets its end.
            let start = at + old;
            (old, DiffEdit { edit: LineEdit { start, end: start, new: Vec::new() }, diff_line: l.line })
        });
        match l.kind {
            LineKind::Remove => old += 1,
            LineKind::Add => {
                if e.edit.new.capacity() == 0 {
                    // Room for the section's lines left (at most 16), not 4, 8, 16.
                    e.edit.new.reserve_exact(section.lines.len().saturating_sub(i).min(16));
                }
                e.edit.new.push(Cow::Borrowed(l.text))
            }
            LineKind::Context => {}
        }
    }
    if let Some((_, mut e)) = run.take() {
        e.edit.end = at + old;
        out.push(e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::parse;
    use crate::Mode;

    #[test]
    fn runs_replace_only_changed_lines() {
        let d = parse(" a\n-b\n+B\n c\n+d", Mode::Strict, 1).unwrap();
        let edits: Vec<_> = runs(&d.sections[0], 10).into_iter().map(|e| (e.edit, e.diff_line)).collect();
        assert_eq!(
            edits,
            [(LineEdit { start: 11, end: 12, new: vec!["B".into()] }, 2), (LineEdit { start: 13, end: 13, new: vec!["d".into()] }, 5),]
        );
    }
}
