//! The three-way merge of two diffs against one base, as `git merge-file`
//! merges: changes of one side that neither overlap nor touch a change of the
//! other are taken; the rest are conflicts, except where both sides made the
//! same change. In the `merge` style a conflict is then narrowed to the lines
//! where the sides differ (a diff of one side against the other), and
//! conflicts at most three lines apart, or apart by lines without a letter or
//! digit, are joined. In `diff3` style conflicts stay whole; in `zdiff3` style
//! only the lines both sides begin or end with are taken out.

use super::style::Style;
use super::xdiff::{diff, Change, Counts, Work};
use crate::error::Result;

/// Who a region of the result comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Both sides changed it differently.
    Conflict,
    /// Ours changed it.
    Ours,
    /// Theirs changed it.
    Theirs,
    /// Both sides made the same change (found when narrowing a conflict).
    Same,
}

/// A region: base lines `i0..i0 + chg0`, our lines `i1..i1 + chg1`, their
/// lines `i2..i2 + chg2` (0-based).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    pub mode: Mode,
    pub i0: isize,
    pub chg0: isize,
    pub i1: isize,
    pub chg1: isize,
    pub i2: isize,
    pub chg2: isize,
}

/// The line ids of the three files (equal ids, equal lines, line break
/// included).
pub(crate) struct Files<'a> {
    pub base: &'a [u32],
    pub ours: &'a [u32],
    pub theirs: &'a [u32],
    /// Our lines (for the letters and digits between conflicts).
    pub ours_lines: &'a [&'a str],
}

fn ids(v: &[u32], start: isize, len: isize) -> &[u32] {
    let start = usize::try_from(start).unwrap_or(0).min(v.len());
    let end = start.saturating_add(usize::try_from(len).unwrap_or(0)).min(v.len());
    v.get(start..end).unwrap_or(&[])
}

/// Appends a region, joined to the last one when they overlap or touch on
/// either side (a join of different modes is a conflict).
fn append(regions: &mut Vec<Region>, r: Region) {
    if let Some(m) = regions.last_mut() {
        if r.i1 <= m.i1 + m.chg1 || r.i2 <= m.i2 + m.chg2 {
            if r.mode != m.mode {
                m.mode = Mode::Conflict;
            }
            m.chg0 = r.i0 + r.chg0 - m.i0;
            m.chg1 = r.i1 + r.chg1 - m.i1;
            m.chg2 = r.i2 + r.chg2 - m.i2;
            return;
        }
    }
    regions.push(r);
}

fn signed(c: &Change) -> (isize, isize, isize, isize) {
    (c.i1 as isize, c.chg1 as isize, c.i2 as isize, c.chg2 as isize)
}

/// The regions of the merge, in file order; `None` when one side did not
/// change the base (the result is then the other side).
pub(crate) fn regions(files: &Files, style: Style, counts: &mut Counts, work: &mut Work) -> Result<Option<Vec<Region>>> {
    let ours = diff(files.base, files.ours, counts, work)?;
    let theirs = diff(files.base, files.theirs, counts, work)?;
    if ours.is_empty() || theirs.is_empty() {
        return Ok(None);
    }
    let (nbase, nours, ntheirs) = (files.base.len() as isize, files.ours.len() as isize, files.theirs.len() as isize);
    let mut out: Vec<Region> = Vec::new();
    let (mut a, mut b) = (0usize, 0usize);
    while let (Some(x), Some(y)) = (ours.get(a), theirs.get(b)) {
        let (x_i1, x_chg1, x_i2, x_chg2) = signed(x);
        let (y_i1, y_chg1, y_i2, y_chg2) = signed(y);
        if x_i1 + x_chg1 < y_i1 {
            append(
                &mut out,
                Region { mode: Mode::Ours, i0: x_i1, chg0: x_chg1, i1: x_i2, chg1: x_chg2, i2: y_i2 - y_i1 + x_i1, chg2: x_chg1 },
            );
            a += 1;
            continue;
        }
        if y_i1 + y_chg1 < x_i1 {
            append(
                &mut out,
                Region { mode: Mode::Theirs, i0: y_i1, chg0: y_chg1, i1: x_i2 - x_i1 + y_i1, chg1: y_chg1, i2: y_i2, chg2: y_chg2 },
            );
            b += 1;
            continue;
        }
        let same_change =
            x_i1 == y_i1 && x_chg1 == y_chg1 && x_chg2 == y_chg2 && ids(files.ours, x_i2, x_chg2) == ids(files.theirs, y_i2, y_chg2);
        if !same_change {
            // The conflict starts where the earlier of the two changes
            // starts, and here ends where ours ends (in the base and ours)
            // and theirs ends (in theirs). git's xdl_do_merge widens it to
            // the later of the two ends at once; here `append` does: the
            // change that ends later is not consumed below, so it is
            // appended next (alone or in the next conflict), and being
            // within this conflict it joins it, which sets all three ends
            // from its own. (The recorded triples of git merge-file pin the
            // outcome: tests/merge_differential.rs, tests/merge_large.rs.)
            let off = x_i1 - y_i1;
            let (ahead, behind) = (off.max(0), off.min(0));
            let (i0, i1, i2) = (x_i1 - ahead, x_i2 - ahead, y_i2 + behind);
            let (chg0, chg1, chg2) = (x_i1 + x_chg1 - i0, x_i2 + x_chg2 - i1, y_i2 + y_chg2 - i2);
            append(&mut out, Region { mode: Mode::Conflict, i0, chg0, i1, chg1, i2, chg2 });
        }
        let end1 = x_i1 + x_chg1;
        let end2 = y_i1 + y_chg1;
        if end1 >= end2 {
            b += 1;
        }
        if end2 >= end1 {
            a += 1;
        }
    }
    for x in ours.iter().skip(a) {
        let (i1, chg1, i2, chg2) = signed(x);
        append(&mut out, Region { mode: Mode::Ours, i0: i1, chg0: chg1, i1: i2, chg1: chg2, i2: i1 + ntheirs - nbase, chg2: chg1 });
    }
    for y in theirs.iter().skip(b) {
        let (i1, chg1, i2, chg2) = signed(y);
        append(&mut out, Region { mode: Mode::Theirs, i0: i1, chg0: chg1, i1: i1 + nours - nbase, chg1, i2, chg2 });
    }
    match style {
        Style::Zdiff3 => trim_conflicts(files, &mut out),
        Style::Diff3 => {}
        Style::Merge => {
            out = join_conflicts(files, refine_conflicts(files, out, counts, work)?);
        }
    }
    Ok(Some(out))
}

/// `merge` style: each conflict becomes the changes of a diff of our lines
/// against their lines (an empty diff: both sides made the same change).
fn refine_conflicts(files: &Files, regions: Vec<Region>, counts: &mut Counts, work: &mut Work) -> Result<Vec<Region>> {
    let mut out = Vec::with_capacity(regions.len());
    for mut m in regions {
        if m.mode != Mode::Conflict || m.chg1 == 0 || m.chg2 == 0 {
            out.push(m);
            continue;
        }
        let changes = diff(ids(files.ours, m.i1, m.chg1), ids(files.theirs, m.i2, m.chg2), counts, work)?;
        if changes.is_empty() {
            m.mode = Mode::Same;
            out.push(m);
            continue;
        }
        let (i1, i2) = (m.i1, m.i2);
        for c in changes {
            let (ci1, cchg1, ci2, cchg2) = signed(&c);
            out.push(Region { i1: ci1 + i1, chg1: cchg1, i2: ci2 + i2, chg2: cchg2, ..m });
        }
    }
    Ok(out)
}

fn has_alnum(lines: &[&str], start: isize, len: isize) -> bool {
    let start = usize::try_from(start).unwrap_or(0);
    let len = usize::try_from(len).unwrap_or(0);
    lines.iter().skip(start).take(len).any(|l| l.bytes().any(|b| b.is_ascii_alphanumeric()))
}

/// `merge` style: two conflicts with at most three lines between them, or
/// only lines without an ASCII letter or digit, become one.
fn join_conflicts(files: &Files, regions: Vec<Region>) -> Vec<Region> {
    let mut out: Vec<Region> = Vec::with_capacity(regions.len());
    for next in regions {
        if let Some(m) = out.last_mut() {
            let (begin, end) = (m.i1 + m.chg1, next.i1);
            if m.mode == Mode::Conflict
                && next.mode == Mode::Conflict
                && (end - begin <= 3 || !has_alnum(files.ours_lines, begin, end - begin))
            {
                m.chg1 = next.i1 + next.chg1 - m.i1;
                m.chg2 = next.i2 + next.chg2 - m.i2;
                continue;
            }
        }
        out.push(next);
    }
    out
}

/// `zdiff3` style: the lines a conflict's sides begin and end with in common
/// go out of the conflict.
fn trim_conflicts(files: &Files, regions: &mut [Region]) {
    let line = |v: &[u32], i: isize| usize::try_from(i).ok().and_then(|i| v.get(i).copied());
    for m in regions.iter_mut().filter(|m| m.mode == Mode::Conflict) {
        while m.chg1 > 0 && m.chg2 > 0 && line(files.ours, m.i1).is_some() && line(files.ours, m.i1) == line(files.theirs, m.i2) {
            m.chg1 -= 1;
            m.chg2 -= 1;
            m.i1 += 1;
            m.i2 += 1;
        }
        while m.chg1 > 0
            && m.chg2 > 0
            && line(files.ours, m.i1 + m.chg1 - 1).is_some()
            && line(files.ours, m.i1 + m.chg1 - 1) == line(files.theirs, m.i2 + m.chg2 - 1)
        {
            m.chg1 -= 1;
            m.chg2 -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{append, Mode, Region};

    fn region(mode: Mode, [i0, chg0, i1, chg1, i2, chg2]: [isize; 6]) -> Region {
        Region { mode, i0, chg0, i1, chg1, i2, chg2 }
    }

    fn spans(regions: &[Region]) -> Vec<(Mode, [isize; 6])> {
        regions.iter().map(|r| (r.mode, [r.i0, r.chg0, r.i1, r.chg1, r.i2, r.chg2])).collect()
    }

    /// A region that overlaps or touches the last one on either side joins
    /// it, reaching to its own ends; a join of different modes is a
    /// conflict, of one mode keeps it. (The merge itself joins a change only
    /// to a conflict it is part of; this is the rule as git's
    /// xdl_append_merge states it.)
    #[test]
    fn a_region_joins_the_last_where_it_touches_either_side() {
        // Touching on our side only (ours 2..4, the next from 4): joined.
        let mut out = vec![region(Mode::Ours, [2, 2, 2, 2, 2, 2])];
        append(&mut out, region(Mode::Ours, [5, 1, 4, 3, 9, 1]));
        assert_eq!(spans(&out), [(Mode::Ours, [2, 4, 2, 5, 2, 8])]);
        // Touching on their side only (theirs 2..4, the next from 4).
        let mut out = vec![region(Mode::Ours, [2, 2, 2, 2, 2, 2])];
        append(&mut out, region(Mode::Theirs, [5, 1, 9, 1, 4, 3]));
        assert_eq!(spans(&out), [(Mode::Conflict, [2, 4, 2, 8, 2, 5])]);
        // Apart on both sides by a line: two regions.
        let mut out = vec![region(Mode::Theirs, [2, 2, 2, 2, 2, 2])];
        append(&mut out, region(Mode::Theirs, [5, 1, 5, 1, 5, 1]));
        assert_eq!(spans(&out), [(Mode::Theirs, [2, 2, 2, 2, 2, 2]), (Mode::Theirs, [5, 1, 5, 1, 5, 1])]);
    }
}
