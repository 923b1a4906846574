//! Splices between two texts the engine already produced: the file results
//! of a patch, a unified diff or edit blocks (whose engines return whole new
//! contents) as minimal splices of the file they were applied to, for
//! editors. The lines that differ come from the engine's bounded line diff
//! (`unified::write::line_ops`); each run of them is then trimmed to the
//! characters that differ ([`text::minimize`]).

use crate::text::{self, Splice};
use crate::unified::write::{line_ops, Op};

/// Minimal splices that turn `old` into `new`, sorted and disjoint: the runs
/// of lines that differ (the shortest line script while it stays bounded,
/// else the differing middle as one run), each trimmed to the characters
/// that differ. For the file results of a patch, a unified diff or edit
/// blocks; [`crate::Changes::minimal`] gives a diff's own positions without
/// comparing texts.
///
/// ```
/// let s = applypatch::splices_between("a\nkeep\nb\n", "A\nkeep\nb\n");
/// assert_eq!((s[0].start, s[0].end, s[0].text.as_str()), (0, 1, "A"));
/// ```
pub fn splices_between(old: &str, new: &str) -> Vec<Splice> {
    if old == new {
        return Vec::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let mut out = Vec::new();
    // Byte positions in `old` and `new` of the lines passed so far.
    let (mut pa, mut pb) = (0usize, 0usize);
    let mut run: Option<(usize, usize)> = None; // where the current run starts in old and new
    let flush = |run: &mut Option<(usize, usize)>, pa: usize, pb: usize, out: &mut Vec<Splice>| {
        if let Some((sa, sb)) = run.take() {
            out.push(Splice { start: sa, end: pa, text: new.get(sb..pb).unwrap_or("").to_string() });
        }
    };
    for op in line_ops(&a, &b) {
        match op.op {
            Op::Equal => {
                flush(&mut run, pa, pb, &mut out);
                pa += a.get(op.a).map_or(0, |l| l.len());
                pb += b.get(op.b).map_or(0, |l| l.len());
            }
            Op::Delete => {
                run.get_or_insert((pa, pb));
                pa += a.get(op.a).map_or(0, |l| l.len());
            }
            Op::Insert => {
                run.get_or_insert((pa, pb));
                pb += b.get(op.b).map_or(0, |l| l.len());
            }
        }
    }
    flush(&mut run, pa, pb, &mut out);
    text::minimize(old, &out)
}

/// The splices trimmed to what they change: each loses the characters its
/// old and new text share at each end (never splitting a character), and a
/// splice that changes nothing is dropped. For the whole-line splices the
/// engine places ([`crate::Changes::splices`], [`crate::Written::splices`]);
/// applied to `input` they give the same text. Costs the length of the
/// replaced ranges and their new texts.
///
/// ```
/// let s = applypatch::minimal_splices("a\nkeep\n", &[applypatch::Splice { start: 0, end: 7, text: "A\nkeep\n".into() }]);
/// assert_eq!((s[0].start, s[0].end, s[0].text.as_str()), (0, 1, "A"));
/// ```
pub fn minimal_splices(input: &str, splices: &[Splice]) -> Vec<Splice> {
    text::minimize(input, splices)
}

/// Folds `later`, a splice of the text that `done` gives applied to
/// `input`, into `done`: `done` (sorted, disjoint splices of `input`) then
/// gives what `later` gives applied after it, the splices `later` overlaps or
/// touches merged with it. For edits applied one after another, each to the
/// previous one's output (edit blocks: [`crate::blocks::find_each`] gives each
/// edit's splice of the text it applied to): their splices as splices of the
/// first text, which [`minimal_splices`] then trims. Compares no texts.
///
/// ```
/// use applypatch::{compose_splices, minimal_splices, Splice};
/// let mut done = Vec::new();
/// compose_splices("one two three", &mut done, &Splice { start: 4, end: 7, text: "2".into() }); // "one 2 three"
/// compose_splices("one two three", &mut done, &Splice { start: 6, end: 11, text: "3".into() }); // "one 2 3"
/// let s = minimal_splices("one two three", &done);
/// assert_eq!((s[0].start, s[0].end, s[1].start, s[1].end), (4, 7, 8, 13));
/// ```
pub fn compose_splices(input: &str, done: &mut Vec<Splice>, later: &Splice) {
    text::compose(input, done, later);
}

/// Minimal splices of edits placed in `input` (sorted, disjoint splices, as
/// [`compose_splices`] leaves them): each widened to the whole lines it
/// touches (those sharing a line become one), then split into the runs of
/// lines that differ between its old lines and its new text and trimmed, as
/// [`splices_between`] does for whole texts. A SEARCH/REPLACE edit names
/// where it goes but not which of its lines change: this compares only the
/// lines each edit covers, never the rest of the text, so an edit's
/// unchanged lines stay out of its splices and a cursor there keeps its
/// place. Costs the bounded line diff of the edited lines.
///
/// ```
/// use applypatch::{edit_splices, Splice};
/// let input = "a\nkeep\nb\nrest\n";
/// let s = edit_splices(input, &[Splice { start: 0, end: 9, text: "A\nkeep\nB\n".into() }]);
/// let got: Vec<_> = s.iter().map(|s| (s.start, s.end, s.text.as_str())).collect();
/// assert_eq!(got, [(0, 1, "A"), (7, 8, "B")]);
/// ```
pub fn edit_splices(input: &str, placed: &[Splice]) -> Vec<Splice> {
    let line_start = |at: usize| input.get(..at).and_then(|t| t.rfind('\n')).map_or(0, |i| i + 1);
    // Where a group's comparison ends: at `at` when it starts a line, else
    // after the line break of its line (the whole line is compared, so the
    // line diff pairs whole lines, as it does for the whole texts).
    let line_end = |at: usize| {
        if line_start(at) == at {
            at
        } else {
            input.get(at..).and_then(|t| t.find('\n')).map_or(input.len(), |i| at + i + 1)
        }
    };
    let mut out = Vec::new();
    let mut rest = placed.iter().peekable();
    while let Some(first) = rest.next() {
        // The whole lines of this splice and of those that share a line with them.
        let (start, mut end) = (line_start(first.start), line_end(first.end));
        let mut group = vec![first];
        while let Some(next) = rest.next_if(|n| line_start(n.start) < end) {
            end = end.max(line_end(next.end));
            group.push(next);
        }
        let mut text = String::new();
        let mut pos = start;
        for s in group {
            text.push_str(input.get(pos..s.start).unwrap_or(""));
            text.push_str(&s.text);
            pos = s.end;
        }
        text.push_str(input.get(pos..end).unwrap_or(""));
        let old = input.get(start..end).unwrap_or("");
        out.extend(splices_between(old, &text).into_iter().map(|s| Splice { start: s.start + start, end: s.end + start, text: s.text }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distant_changes_are_separate_minimal_splices() {
        let old = "a\nkeep\nb😀\nkeep\nc";
        let new = "A\nkeep\nb😁\nkeep\nc\nd";
        let s = splices_between(old, new);
        assert_eq!(text::apply_splices(old, &s), new);
        let got: Vec<(usize, usize, &str)> = s.iter().map(|s| (s.start, s.end, s.text.as_str())).collect();
        // 😀 and 😁 share three of their four bytes: the splice is the whole character.
        assert_eq!(got, [(0, 1, "A"), (8, 12, "😁"), (19, 19, "\nd")]);
        assert!(splices_between("same", "same").is_empty());
        assert_eq!(text::apply_splices("", &splices_between("", "x\n")), "x\n");
    }

    fn placed(list: &[(usize, usize, &str)]) -> Vec<Splice> {
        list.iter().map(|&(start, end, text)| Splice { start, end, text: text.into() }).collect()
    }

    fn shape(s: &[Splice]) -> Vec<(usize, usize, &str)> {
        s.iter().map(|s| (s.start, s.end, s.text.as_str())).collect()
    }

    #[test]
    fn edits_in_the_middle_of_lines_are_grouped_by_the_lines_they_share() {
        // Two lines, one edit each: two splices.
        let input = "ab\ncd\n";
        assert_eq!(shape(&edit_splices(input, &placed(&[(0, 1, "X"), (3, 4, "Y")]))), [(0, 1, "X"), (3, 4, "Y")]);
        // An edit that ends at a line's start does not reach the next line.
        assert_eq!(shape(&edit_splices(input, &placed(&[(0, 3, "Q\n"), (3, 4, "Y")]))), [(0, 2, "Q"), (3, 4, "Y")]);
        // Two edits of one line: the line's one splice.
        assert_eq!(shape(&edit_splices("abc\n", &placed(&[(0, 1, "X"), (2, 3, "Z")]))), [(0, 3, "XbZ")]);
        // An edit that ends just before the line break, or in the middle of the line.
        assert_eq!(shape(&edit_splices("abc\n", &placed(&[(1, 3, "Z")]))), [(1, 3, "Z")]);
        assert_eq!(shape(&edit_splices("abcd\nx", &placed(&[(1, 2, "")]))), [(1, 2, "")]);
        // Deleting a line break and the line after it: the line diff of the
        // whole lines deletes the second line with its own break.
        assert_eq!(shape(&edit_splices("a\nb\n", &placed(&[(1, 3, "")]))), [(2, 4, "")]);
        // On a last line without a line break.
        assert_eq!(shape(&edit_splices("ab\ncd", &placed(&[(4, 5, "Y")]))), [(4, 5, "Y")]);
    }
}
