//! Three-way merge of texts: what `git merge-file -p` (git 2.47, its default
//! Myers diff) writes, byte for byte, in the `merge`, `diff3` and `zdiff3`
//! conflict styles.
//!
//! [`merge3`] takes the text both sides started from (`base`), ours and
//! theirs. Where only one side changed a region, the result has that side's
//! lines; where both changed it the same way, those lines; where they changed
//! it differently (or changed regions that touch), a conflict, written
//! between markers:
//!
//! ```text
//! <<<<<<< ours
//! our lines
//! ||||||| base        (diff3 and zdiff3 styles only)
//! the base's lines
//! =======
//! their lines
//! >>>>>>> theirs
//! ```
//!
//! ```
//! use applypatch::merge::{merge3, Merge3Options};
//!
//! let base = "one\ntwo\nthree\n";
//! let ours = "ONE\ntwo\nthree\n";
//! let theirs = "one\ntwo\nTHREE\n";
//! let merged = merge3(base, ours, theirs, &Merge3Options::default()).unwrap();
//! assert_eq!(merged.text, "ONE\ntwo\nTHREE\n");
//! assert!(merged.conflicts.is_empty());
//! ```
//!
//! Lines are compared whole, line break included: a CRLF line differs from
//! the same line with LF, and a last line without a newline from the same
//! line with one. Markers end with CRLF when the lines around the conflict
//! do, as git's do.
//!
//! Cost: linear in the texts for ordinary edits; the diff work is counted and
//! a merge that would need more than [`MAX_MERGE_WORK`] steps stops with
//! [`ErrorKind::InputTooLarge`], as do texts
//! over the limits of [`crate::limits`].

mod diff3;
mod style;
mod xdiff;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub use crate::error::MergeConflict;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::check_text;
use crate::matcher::index::fingerprint;
use diff3::{regions, Files, Mode, Region};
pub use style::Style;
pub use xdiff::MAX_MERGE_WORK;
use xdiff::{Counts, Work};

/// Options of [`merge3`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Merge3Options {
    /// How conflicts are written.
    pub style: Style,
    /// The names written after the markers, as `git merge-file -L`: ours
    /// (after `<<<<<<<`), the base (after `|||||||`) and theirs (after
    /// `>>>>>>>`). `None`: the marker alone.
    pub labels: [Option<String>; 3],
}

/// The result of [`merge3`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Merge3 {
    /// The merged text, with conflict markers where the sides conflict: what
    /// `git merge-file -p` writes.
    pub text: String,
    /// The conflicts, in order (empty: a clean merge). In the `merge` style
    /// a conflict narrowed to part of a region keeps the base range of the
    /// whole region.
    pub conflicts: Vec<MergeConflict>,
}

impl Merge3 {
    /// Whether nothing conflicts.
    pub fn is_clean(&self) -> bool {
        self.conflicts.is_empty()
    }
}

/// Merges `ours` and `theirs`, two versions of `base` (see the module
/// documentation).
///
/// # Errors
/// [`ErrorKind::InputTooLarge`] for a text
/// over the limits or a merge over [`MAX_MERGE_WORK`].
pub fn merge3(base: &str, ours: &str, theirs: &str, options: &Merge3Options) -> Result<Merge3> {
    check_text("The base", base)?;
    check_text("Our text", ours)?;
    check_text("Their text", theirs)?;
    let mut work = Work::new(MAX_MERGE_WORK);
    merge3_counted(base, ours, theirs, options, &mut work)
}

fn merge3_counted(base: &str, ours: &str, theirs: &str, options: &Merge3Options, work: &mut Work) -> Result<Merge3> {
    let lines = [records(base), records(ours), records(theirs)];
    let mut table: HashMap<&str, u32, BuildHasherDefault<LineHasher>> =
        HashMap::with_capacity_and_hasher(lines.iter().map(Vec::len).sum(), BuildHasherDefault::default());
    let [base_ids, ours_ids, theirs_ids] = lines.each_ref().map(|l| {
        l.iter()
            .map(|&line| {
                let n = table.len() as u32;
                *table.entry(line).or_insert(n)
            })
            .collect::<Vec<u32>>()
    });
    let [base_lines, ours_lines, theirs_lines] = &lines;
    let files = Files { base: &base_ids, ours: &ours_ids, theirs: &theirs_ids, ours_lines };
    let mut counts = Counts::new(table.len());
    let Some(regions) = regions(&files, options.style, &mut counts, work)? else {
        // One side left the base as it was: the result is the other side.
        let text = if files.base == files.ours { theirs } else { ours };
        return Ok(Merge3 { text: text.to_string(), conflicts: Vec::new() });
    };
    let texts = Texts { base: base_lines, ours: ours_lines, theirs: theirs_lines };
    Ok(write(&texts, &regions, options))
}

/// Hashes a line with the line index's fingerprint (fast, unkeyed).
#[derive(Default)]
struct LineHasher(u64);

impl Hasher for LineHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(fingerprint(bytes))).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u8(&mut self, _: u8) {}
}

/// A text's lines, each with its line break (the last may have none).
fn records(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

struct Texts<'a> {
    base: &'a [&'a str],
    ours: &'a [&'a str],
    theirs: &'a [&'a str],
}

fn span<'a>(lines: &'a [&'a str], start: isize, len: isize) -> &'a [&'a str] {
    let start = usize::try_from(start).unwrap_or(0).min(lines.len());
    let end = start.saturating_add(usize::try_from(len).unwrap_or(0)).min(lines.len());
    lines.get(start..end).unwrap_or(&[])
}

/// Appends lines; with `add_nl`, a line break after a last line without one
/// (CRLF when `crlf`).
fn copy(out: &mut String, lines: &[&str], add_nl: bool, crlf: bool) {
    for l in lines {
        out.push_str(l);
    }
    if add_nl && lines.last().is_some_and(|l| !l.ends_with('\n')) {
        out.push_str(if crlf { "\r\n" } else { "\n" });
    }
}

/// Whether line `i` of a text ends with CRLF; `None` when that cannot be
/// told (an empty text, or a single line without a break).
fn crlf_at(lines: &[&str], i: usize) -> Option<bool> {
    let crlf = |l: &str| l.len() > 1 && l.as_bytes().get(l.len() - 2) == Some(&b'\r');
    let line = lines.get(i)?;
    if i + 1 < lines.len() || line.ends_with('\n') {
        return Some(crlf(line));
    }
    if i == 0 {
        return None;
    }
    lines.get(i - 1).map(|l| crlf(l))
}

/// Whether a conflict's markers (and a line break added to a side's last
/// line) are CRLF, as git decides: the lines before the conflict on either
/// side must not end with LF alone, and the base's first line must end with
/// CRLF.
fn needs_cr(t: &Texts, m: &Region) -> bool {
    let before = |i: isize| usize::try_from(i - 1).unwrap_or(0);
    crlf_at(t.ours, before(m.i1)) != Some(false) && crlf_at(t.theirs, before(m.i2)) != Some(false) && crlf_at(t.base, 0) == Some(true)
}

fn marker(out: &mut String, c: char, label: Option<&str>, crlf: bool) {
    for _ in 0..7 {
        out.push(c);
    }
    if let Some(label) = label {
        out.push(' ');
        out.push_str(label);
    }
    out.push_str(if crlf { "\r\n" } else { "\n" });
}

fn range(start: isize, len: isize) -> [usize; 2] {
    let start = usize::try_from(start).unwrap_or(0);
    let len = usize::try_from(len).unwrap_or(0);
    [start + 1, start + len]
}

fn write(t: &Texts, regions: &[Region], options: &Merge3Options) -> Merge3 {
    let mut text = String::new();
    let mut conflicts = Vec::new();
    let [ours_label, base_label, theirs_label] = options.labels.each_ref().map(|l| l.as_deref());
    let mut i: isize = 0;
    for m in regions {
        if m.mode == Mode::Same {
            continue;
        }
        copy(&mut text, span(t.ours, i, m.i1 - i), false, false);
        match m.mode {
            Mode::Conflict => {
                let crlf = needs_cr(t, m);
                marker(&mut text, '<', ours_label, crlf);
                copy(&mut text, span(t.ours, m.i1, m.chg1), true, crlf);
                if options.style != Style::Merge {
                    marker(&mut text, '|', base_label, crlf);
                    copy(&mut text, span(t.base, m.i0, m.chg0), true, crlf);
                }
                marker(&mut text, '=', None, crlf);
                copy(&mut text, span(t.theirs, m.i2, m.chg2), true, crlf);
                marker(&mut text, '>', theirs_label, crlf);
                conflicts.push(MergeConflict { ours: range(m.i1, m.chg1), base: range(m.i0, m.chg0), theirs: range(m.i2, m.chg2) });
            }
            Mode::Ours => copy(&mut text, span(t.ours, m.i1, m.chg1), false, false),
            Mode::Theirs => copy(&mut text, span(t.theirs, m.i2, m.chg2), false, false),
            Mode::Same => {}
        }
        i = m.i1 + m.chg1;
    }
    copy(&mut text, span(t.ours, i, isize::MAX), false, false);
    Merge3 { text, conflicts }
}

/// Merges `patched` (a patch applied to `base`) into `input` (the text as it
/// is now, changed since `base`): what the `base` option of the apply
/// functions does after applying the patch to `base`. Returns the merged
/// text, or a [`ErrorKind::MergeConflict`] error whose `input_lines` are the
/// first input line of each conflict and whose `conflicts` list them.
///
/// ```
/// use applypatch::merge::merge_into;
///
/// let base = "fn a() {}\nfn b() {}\n";
/// let input = "// the user's comment\nfn a() {}\nfn b() {}\n";
/// let patched = "fn a() {}\nfn b() { todo() }\n";
/// assert_eq!(merge_into(base, input, patched).unwrap(), "// the user's comment\nfn a() {}\nfn b() { todo() }\n");
/// ```
///
/// # Errors
/// [`ErrorKind::MergeConflict`] where the input and the patch changed the
/// same or touching lines; [`ErrorKind::InputTooLarge`] as [`merge3`].
pub fn merge_into(base: &str, input: &str, patched: &str) -> Result<String> {
    let options = Merge3Options { style: Style::Merge, labels: [Some("input".into()), None, Some("patch".into())] };
    let merged = merge3(base, input, patched, &options)?;
    if merged.conflicts.is_empty() {
        return Ok(merged.text);
    }
    let lines: Vec<usize> = merged.conflicts.iter().map(|c| c.ours[0]).collect();
    let places = merged
        .conflicts
        .iter()
        .map(|c| {
            let ours =
                if c.ours[1] < c.ours[0] { format!("after line {}", c.ours[1]) } else { format!("lines {}-{}", c.ours[0], c.ours[1]) };
            format!("input {ours} (base lines {}-{})", c.base[0], c.base[1])
        })
        .collect::<Vec<_>>()
        .join(", ");
    let n = merged.conflicts.len();
    let mut e = Error::new(
        ErrorKind::MergeConflict,
        format!(
            "The patch was written against an earlier version of the text, and the text changed since in the same places: {n} conflict{} at {places}. Nothing was applied. Read the text again and write the patch against it as it is now.",
            if n == 1 { "" } else { "s" }
        ),
    );
    e.input_lines = lines;
    e.conflicts = merged.conflicts;
    Err(e)
}
