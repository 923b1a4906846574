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

pub use crate::error::MergeConflict;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::check_text;
use crate::matcher::index::fingerprint;
use crate::text::{self, Splice};
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
    Ok(merged(base, ours, theirs, options, work, false)?.0)
}

/// The merge, and with `splices` (and a clean merge that took lines from
/// theirs) its changes to ours as minimal splices.
fn merged(
    base: &str,
    ours: &str,
    theirs: &str,
    options: &Merge3Options,
    work: &mut Work,
    splices: bool,
) -> Result<(Merge3, Option<Vec<Splice>>)> {
    let lines = [records(base), records(ours), records(theirs)];
    let [base_lines, ours_lines, theirs_lines] = &lines;
    let mut table = Table::new(base_lines);
    let ours_ids = table.side_ids(ours_lines);
    let theirs_ids = table.side_ids(theirs_lines);
    let files = Files { base: &table.base_ids, ours: &ours_ids, theirs: &theirs_ids, ours_lines };
    let mut counts = Counts::new(table.len());
    let Some(regions) = regions(&files, options.style, &mut counts, work)? else {
        // One side left the base as it was: the result is the other side.
        let (text, none) = if files.base == files.ours { (theirs, None) } else { (ours, Some(Vec::new())) };
        return Ok((Merge3 { text: text.to_string(), conflicts: Vec::new() }, none.filter(|_| splices)));
    };
    let texts = Texts { base: base_lines, ours: ours_lines, theirs: theirs_lines };
    let merge = write(&texts, &regions, options);
    let changes = (splices && merge.conflicts.is_empty()).then(|| changes_to_ours(&texts, &regions, ours));
    Ok((merge, changes))
}

#[cfg(test)]
thread_local! {
    /// Calls of [`changes_to_ours`] (tests: a merge works out its splices only when asked, and clean).
    static CHANGES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A clean merge's changes to ours: each region where the merge took
/// theirs replaces ours' lines there with theirs, trimmed to the characters
/// that differ ([`text::minimize`]). The other regions keep ours' lines.
fn changes_to_ours(t: &Texts, regions: &[Region], ours: &str) -> Vec<Splice> {
    #[cfg(test)]
    CHANGES.with(|n| n.set(n.get() + 1));
    let mut out = Vec::new();
    // Byte offset of ours' line `line`.
    let (mut line, mut at) = (0usize, 0usize);
    let mut offset = |to: usize| {
        at += t.ours.get(line..to.max(line)).unwrap_or(&[]).iter().map(|l| l.len()).sum::<usize>();
        line = to.max(line);
        at
    };
    for m in regions.iter().filter(|m| m.mode == Mode::Theirs) {
        let start = offset(usize::try_from(m.i1).unwrap_or(0));
        let end = offset(usize::try_from(m.i1 + m.chg1).unwrap_or(0));
        out.push(Splice { start, end, text: span(t.theirs, m.i2, m.chg2).concat() });
    }
    text::minimize(ours, &out)
}

/// How far from where a side's line is expected in the base (the line
/// after the base line the previous one matched) the base line it equals is
/// taken as where the side continues.
const RESYNC: usize = 64;

/// The line ids of the three texts: equal lines, equal ids, numbered in the
/// order they first occur (the base's lines, then ours, then theirs).
///
/// Hashing every line of three large texts was most of a merge's time, so
/// the table does as little as it can:
///
/// - a side's line is first compared with the base line where it is
///   expected (after the base line its previous line matched; most lines of
///   a side are the base's), and only hashed when it differs: ordinary
///   edits hash the base and the changed lines, not three texts. The ids are
///   the same either way (a line equal to a base line has that line's id);
/// - the table is open addressing over one `u64` per slot (a line's 32-bit
///   fingerprint and its id), half full at most: a line looked up costs one
///   slot read or a few neighbours, and its text is compared only when the
///   fingerprints are equal. A hash map of `(&str, u32)` entries took three
///   times the memory, and its time went in cache misses;
/// - the base's lines go in bucket by bucket of the table (sorted by their
///   first slot), so that the slots written one after another are near
///   each other: a third less time on a 10 MB base than putting them in in
///   text order, which reads and writes the table anywhere.
struct Table<'a> {
    base: &'a [&'a str],
    /// The base's ids, one per line.
    base_ids: Vec<u32>,
    /// Fingerprint << 32, plus id + 1, per slot; 0: empty. A power of two long.
    slots: Vec<u64>,
    /// Per id: its line.
    lines: Vec<&'a str>,
    /// Per id: its first line in the base, or `u32::MAX` (not in the base).
    first: Vec<u32>,
    /// Lines hashed and slots probed for them (the work the tests count).
    #[cfg(test)]
    hashed: usize,
    #[cfg(test)]
    probed: usize,
}

/// A slot's fingerprint and id (`None`: empty).
fn slot(s: u64) -> Option<(u32, u32)> {
    let id = s as u32;
    (id != 0).then(|| ((s >> 32) as u32, id - 1))
}

/// The first slot to probe for a fingerprint, in a table of `len` slots (a power of two).
fn home(fp: u32, len: usize) -> usize {
    (u64::from(fp).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (len - 1)
}

impl<'a> Table<'a> {
    fn new(base: &'a [&'a str]) -> Self {
        let n = base.len();
        let len = (n * 2).max(16).next_power_of_two();
        let mut slots = vec![0u64; len];
        let fps: Vec<u32> = base.iter().map(|l| fingerprint(l.as_bytes())).collect();
        // The base's lines go in bucket by bucket of their first slot (a
        // counting sort, stable), so the slots written one after another are
        // near each other rather than anywhere in the table.
        let bits = len.trailing_zeros();
        let shift = bits - bits.min(12);
        let mut starts = vec![0usize; (len >> shift) + 1];
        for &fp in &fps {
            if let Some(c) = starts.get_mut((home(fp, len) >> shift) + 1) {
                *c += 1;
            }
        }
        for b in 1..starts.len() {
            let before = starts.get(b - 1).copied().unwrap_or(0);
            if let Some(c) = starts.get_mut(b) {
                *c += before;
            }
        }
        let mut order = vec![0u32; n];
        for (i, &fp) in fps.iter().enumerate() {
            if let Some(at) = starts.get_mut(home(fp, len) >> shift) {
                if let Some(o) = order.get_mut(*at) {
                    *o = i as u32;
                }
                *at += 1;
            }
        }
        // Each line's first equal line (its representative): the first one
        // put in, as a bucket keeps the lines' order. The slots hold line numbers here.
        let mask = len - 1;
        let mut rep = vec![0u32; n];
        for &i in &order {
            let (Some(&fp), Some(&line)) = (fps.get(i as usize), base.get(i as usize)) else { continue };
            let mut at = home(fp, len);
            let found = loop {
                match slots.get(at).copied().and_then(slot) {
                    None => break None,
                    Some((f, j)) if f == fp && base.get(j as usize) == Some(&line) => break Some(j),
                    Some(_) => at = (at + 1) & mask,
                }
            };
            let r = found.unwrap_or_else(|| {
                if let Some(x) = slots.get_mut(at) {
                    *x = (u64::from(fp) << 32) | u64::from(i + 1);
                }
                i
            });
            if let Some(x) = rep.get_mut(i as usize) {
                *x = r;
            }
        }
        // Ids in the order lines first occur, then the slots' line numbers become ids.
        let mut base_ids = Vec::with_capacity(n);
        let mut lines = Vec::with_capacity(n);
        let mut first = Vec::with_capacity(n);
        for (i, (&r, &line)) in rep.iter().zip(base).enumerate() {
            let id = if r as usize == i {
                lines.push(line);
                first.push(i as u32);
                lines.len() as u32 - 1
            } else {
                base_ids.get(r as usize).copied().unwrap_or(0)
            };
            base_ids.push(id);
        }
        for x in &mut slots {
            if let Some((fp, i)) = slot(*x) {
                *x = (u64::from(fp) << 32) | u64::from(base_ids.get(i as usize).copied().unwrap_or(0) + 1);
            }
        }
        Table {
            base,
            base_ids,
            slots,
            lines,
            first,
            #[cfg(test)]
            hashed: n,
            #[cfg(test)]
            probed: 0,
        }
    }

    /// How many distinct lines there are.
    fn len(&self) -> usize {
        self.lines.len()
    }

    /// The id of `line` (new ones numbered on), recording `at` as its first
    /// base line when it is new and `at` is a base line.
    fn id(&mut self, line: &'a str, at: u32) -> u32 {
        #[cfg(test)]
        {
            self.hashed += 1;
        }
        let fp = fingerprint(line.as_bytes());
        let mask = self.slots.len() - 1;
        let mut i = home(fp, self.slots.len());
        loop {
            #[cfg(test)]
            {
                self.probed += 1;
            }
            match self.slots.get(i).copied().and_then(slot) {
                None => break,
                Some((f, id)) if f == fp && self.lines.get(id as usize) == Some(&line) => return id,
                Some(_) => i = (i + 1) & mask,
            }
        }
        let id = self.lines.len() as u32;
        self.lines.push(line);
        self.first.push(at);
        if let Some(s) = self.slots.get_mut(i) {
            *s = (u64::from(fp) << 32) + u64::from(id + 1);
        }
        if self.lines.len() * 2 > self.slots.len() {
            self.grow();
        }
        id
    }

    /// Doubles the slots (the fingerprints are in them: nothing is hashed again).
    fn grow(&mut self) {
        let len = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![0; len]);
        let mask = self.slots.len() - 1;
        for s in old {
            let Some((fp, _)) = slot(s) else { continue };
            let mut i = home(fp, self.slots.len());
            while self.slots.get(i).is_some_and(|&x| x != 0) {
                i = (i + 1) & mask;
            }
            if let Some(x) = self.slots.get_mut(i) {
                *x = s;
            }
        }
    }

    /// The ids of a side's lines.
    fn side_ids(&mut self, side: &[&'a str]) -> Vec<u32> {
        let mut out = Vec::with_capacity(side.len());
        // The base line where the next side line is expected.
        let mut next = 0usize;
        for &line in side {
            if let (Some(&b), Some(&id)) = (self.base.get(next), self.base_ids.get(next)) {
                if b == line {
                    out.push(id);
                    next += 1;
                    continue;
                }
            }
            let id = self.id(line, u32::MAX);
            // Where the side goes on: after this line's first base line, when that is near.
            if let Some(&at) = self.first.get(id as usize) {
                if at != u32::MAX && (at as usize).abs_diff(next) <= RESYNC {
                    next = at as usize + 1;
                }
            }
            out.push(id);
        }
        out
    }
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
/// told (an empty text, or a single line without a break). A last line
/// without a break is told by the line before it. `lines` are [`records`]:
/// every line but the last ends with `\n`.
fn crlf_at(lines: &[&str], i: usize) -> Option<bool> {
    let crlf = |l: &str| l.len() > 1 && l.as_bytes().get(l.len() - 2) == Some(&b'\r');
    let line = lines.get(i)?;
    if line.ends_with('\n') {
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
    Ok(merge_into_with(base, input, patched, false)?.0)
}

/// [`merge_into`], and the merged text's changes to `input` as minimal
/// splices (byte offsets into `input`), from the merge itself: each region
/// where the merge took the patch's lines. `None` when the input is `base`
/// unchanged (the merged text is then `patched`, and its splices the patch's:
/// [`crate::splices_between`] gives them).
///
/// # Errors
/// As [`merge_into`].
pub fn merge_into_splices(base: &str, input: &str, patched: &str) -> Result<(String, Option<Vec<Splice>>)> {
    merge_into_with(base, input, patched, true)
}

fn merge_into_with(base: &str, input: &str, patched: &str, splices: bool) -> Result<(String, Option<Vec<Splice>>)> {
    let options = Merge3Options { style: Style::Merge, labels: [Some("input".into()), None, Some("patch".into())] };
    check_text("The base", base)?;
    check_text("Our text", input)?;
    check_text("Their text", patched)?;
    let (merged, changes) = merged(base, input, patched, &options, &mut Work::new(MAX_MERGE_WORK), splices)?;
    if merged.conflicts.is_empty() {
        return Ok((merged.text, changes));
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

#[cfg(test)]
mod tests {
    use super::{
        crlf_at, merge3, merge3_counted, merge_into, merge_into_splices, records, Merge3Options, Table, Work, CHANGES, MAX_MERGE_WORK,
    };

    /// A last line without a break is told by the line before it (the
    /// fallback that git's conflict markers take their CRLF from).
    #[test]
    fn a_last_line_without_a_break_is_told_by_the_line_before_it() {
        assert_eq!(crlf_at(&records("a\r\nb"), 1), Some(true));
        assert_eq!(crlf_at(&records("a\nb"), 1), Some(false));
        assert_eq!(crlf_at(&records("a\r\nb\n"), 1), Some(false));
        assert_eq!(crlf_at(&records("a\nb\r\n"), 1), Some(true));
        assert_eq!(crlf_at(&records("b"), 0), None);
        assert_eq!(crlf_at(&records(""), 0), None);
        assert_eq!(crlf_at(&records("a\r\n"), 1), None);
    }

    /// A merge's splices are worked out only for `merge_into_splices`, and
    /// only when it is clean.
    #[test]
    fn splices_are_worked_out_only_when_asked_and_clean() {
        let (base, ours, theirs) = ("a\nb\nc\nd\n", "a\nB\nc\nd\n", "a\nb\nc\nD\n");
        let calls = || CHANGES.with(std::cell::Cell::get);
        CHANGES.with(|n| n.set(0));
        assert!(merge3(base, ours, theirs, &Merge3Options::default()).unwrap().is_clean());
        assert_eq!(merge_into(base, ours, theirs).unwrap(), "a\nB\nc\nD\n");
        assert_eq!(calls(), 0);
        let (text, splices) = merge_into_splices(base, ours, theirs).unwrap();
        assert_eq!((text.as_str(), calls()), ("a\nB\nc\nD\n", 1));
        let splices: Vec<_> = splices.unwrap().into_iter().map(|s| (s.start, s.end, s.text)).collect();
        assert_eq!(splices, [(6, 7, "D".to_string())]);
        // Both sides changed line 2: a conflict, and no splices worked out.
        let clash = "a\nX\nc\nd\n";
        assert!(!merge3(base, ours, clash, &Merge3Options::default()).unwrap().is_clean());
        assert!(merge_into_splices(base, ours, clash).is_err());
        assert_eq!(calls(), 1);
        // One side is the base: the result is the other side, as it is, and
        // no regions are worked out. An input that is the base has no
        // splices of its own (they are the patch's); a patch that changed
        // nothing has none.
        assert_eq!(merge_into_splices(base, base, theirs).unwrap(), (theirs.to_string(), None));
        assert_eq!(merge_into_splices(base, ours, base).unwrap(), (ours.to_string(), Some(Vec::new())));
        assert_eq!(calls(), 1);
    }

    /// In the `merge` style only a conflict whose sides both have lines is
    /// diffed again, side against side (as git does): a change of one side
    /// is taken whole, and a conflict where one side removed the lines could
    /// only find every line of the other side new. The merge's work is then
    /// its two diffs against the base.
    #[test]
    fn only_conflicts_with_lines_on_both_sides_are_diffed_again() {
        let base = "a\nb\nc\nd\n";
        for (ours, theirs, conflicts) in [("a\nd\n", "a\nB\nC\nd\n", 1), ("a\nB\nC\nd\n", "a\nd\n", 1), ("a\nB\nc\nd\n", "a\nb\nc\nD\n", 0)]
        {
            let mut work = Work::new(MAX_MERGE_WORK);
            let merged = merge3_counted(base, ours, theirs, &Merge3Options::default(), &mut work).unwrap();
            assert_eq!(merged.conflicts.len(), conflicts);
            let mut alone = Work::new(MAX_MERGE_WORK);
            let mut counts = super::Counts::new(256);
            let ids = |t: &str| -> Vec<u32> { t.lines().map(|l| u32::from(l.as_bytes()[0])).collect() };
            super::xdiff::diff(&ids(base), &ids(ours), &mut counts, &mut alone).unwrap();
            super::xdiff::diff(&ids(base), &ids(theirs), &mut counts, &mut alone).unwrap();
            assert_eq!(MAX_MERGE_WORK - work.left(), MAX_MERGE_WORK - alone.left(), "{ours:?} {theirs:?}");
        }
    }

    /// Where a conflict is in the input: its lines, or the line it follows
    /// when the input deleted the lines the patch changed.
    #[test]
    fn a_conflict_names_its_input_lines() {
        let tail = "Nothing was applied. Read the text again and write the patch against it as it is now.";
        let head =
            "The patch was written against an earlier version of the text, and the text changed since in the same places: 1 conflict at";
        let e = merge_into("a\nb\nc\n", "a\nc\n", "a\nB\nc\n").unwrap_err();
        assert_eq!(e.message, format!("{head} input after line 1 (base lines 2-2). {tail}"));
        let e = merge_into("a\nb\nc\n", "a\nX\nc\n", "a\nB\nc\n").unwrap_err();
        assert_eq!(e.message, format!("{head} input lines 2-2 (base lines 2-2). {tail}"));
    }

    /// Two lines with one fingerprint are two lines: the table compares
    /// their text when the fingerprints agree.
    #[test]
    fn lines_that_share_a_fingerprint_stay_apart() {
        let (a, b) = ("hdifgedhaj\n", "giibiahbfg\n");
        assert_eq!(crate::matcher::index::fingerprint(a.as_bytes()), crate::matcher::index::fingerprint(b.as_bytes()));
        assert_eq!(merge3(a, b, a, &Merge3Options::default()).unwrap().text, b);
        assert_eq!(
            merge3(&format!("x\nm\n{a}"), &format!("x\nm\n{b}"), &format!("y\nm\n{a}"), &Merge3Options::default()).unwrap().text,
            format!("y\nm\n{b}")
        );
    }

    /// The slots double when more than half are taken, and not before: 1,024
    /// lines fill 2,048 slots half (the probes pinned: a mutant that grows later probes more).
    #[test]
    fn the_table_grows_past_half_full() {
        let base: String = (0..4).map(|i| format!("b{i}\n")).collect();
        let side: String = (0..1020).map(|i| format!("s{i}\n")).collect();
        let (b, o) = (records(&base), records(&side));
        let mut table = Table::new(&b);
        assert_eq!(table.slots.len(), 16);
        let ids = table.side_ids(&o);
        assert_eq!(ids, (4..1024).collect::<Vec<u32>>());
        assert_eq!((table.len(), table.slots.len()), (1024, 2048));
        assert_eq!(table.probed, 1_976);
        // Each line again: the same ids, found where they were put.
        assert_eq!(table.side_ids(&o), ids);
    }

    /// Code-like lines: a blank line and a closing brace in ten repeat.
    fn line(i: usize) -> String {
        match i % 10 {
            4 => "\n".to_string(),
            9 => "}\n".to_string(),
            _ => format!("line {i}\n"),
        }
    }

    fn text(n: usize, change: impl Fn(usize) -> Option<String>) -> String {
        (0..n).map(|i| change(i).unwrap_or_else(|| line(i))).collect()
    }

    /// The table hashes every base line once, and of each side only the
    /// lines that differ from the base line where they are expected (and a
    /// line after each change), whatever the size: ordinary edits to a large
    /// text hash about a third of what hashing all three texts did.
    #[test]
    fn sides_hash_only_their_changed_lines() {
        let n = 100_000;
        let base = text(n, |_| None);
        // Ours: a line changed in 50, a line inserted in 100, a line deleted in 200.
        let ours = text(n, |i| match i % 200 {
            0 | 50 | 100 | 150 => Some(format!("line {i} ours\n")),
            7 | 107 => Some(format!("// typed\n{}", line(i))),
            9 => Some(String::new()),
            _ => None,
        });
        // Theirs: blank lines and closing braces (lines the base repeats) inserted, a line changed.
        let theirs = text(n, |i| match i % 100 {
            25 => Some(format!("line {i} theirs\n")),
            30 => Some(format!("\n}}\n{}", line(i))),
            _ => None,
        });
        let [b, o, t] = [records(&base), records(&ours), records(&theirs)];
        let mut table = Table::new(&b);
        assert_eq!(table.hashed, n);
        let ours_ids = table.side_ids(&o);
        let changed_ours = n / 50 + n / 100 + n / 200;
        assert!(table.hashed - n <= 2 * changed_ours, "ours hashed {} lines for {changed_ours} changes", table.hashed - n);
        // And exactly what these edits cost (each side line hashed is counted).
        assert_eq!(table.hashed - n, 5_500);
        let before = table.hashed;
        let theirs_ids = table.side_ids(&t);
        let changed_theirs = n / 100 * 3;
        assert!(table.hashed - before <= 2 * changed_theirs, "theirs hashed {} lines", table.hashed - before);
        assert_eq!(table.hashed - before, 4_001);
        assert_eq!(table.probed, 11_928);
        // The same ids as hashing every line.
        let mut all = std::collections::HashMap::new();
        let mut id = |l: &str| {
            let k = all.len() as u32;
            *all.entry(l.to_string()).or_insert(k)
        };
        let want: Vec<Vec<u32>> = [&b, &o, &t].iter().map(|lines| lines.iter().map(|l| id(l)).collect()).collect();
        assert_eq!([table.base_ids, ours_ids, theirs_ids].to_vec(), want);
    }
}
