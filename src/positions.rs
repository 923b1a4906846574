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
}
