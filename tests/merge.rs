//! The three-way merge ([`applypatch::merge`]): behaviours of `git merge-file
//! -p` pinned byte for byte (outputs recorded from git 2.47 by hand), the
//! properties any merge must have, and the cost bound. The differential test
//! against git on real histories is tests/merge_differential.rs.

use applypatch::merge::{merge3, Merge3, Merge3Options, MergeConflict, Style};
use applypatch::ErrorKind;

fn labelled(style: Style) -> Merge3Options {
    Merge3Options { style, labels: ["ours", "base", "theirs"].map(|l| Some(l.to_string())) }
}

fn git(base: &str, ours: &str, theirs: &str, style: Style) -> Merge3 {
    merge3(base, ours, theirs, &labelled(style)).unwrap()
}

#[test]
fn edits_on_adjacent_lines_conflict() {
    let m = git("a\nb\nc\n", "A\nb\nc\n", "a\nB\nc\n", Style::Merge);
    assert_eq!(m.text, "<<<<<<< ours\nA\nb\n=======\na\nB\n>>>>>>> theirs\nc\n");
    assert_eq!(m.conflicts, vec![MergeConflict { ours: [1, 2], base: [1, 2], theirs: [1, 2] }]);
}

#[test]
fn edits_one_line_apart_merge() {
    let m = git("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n", Style::Merge);
    assert_eq!(m.text, "A\nb\nC\n");
    assert!(m.is_clean());
}

#[test]
fn crlf_markers_follow_the_lines() {
    let m = git("a\r\nb\r\nc\r\n", "a\r\nX\r\nc\r\n", "a\r\nY\r\nc\r\n", Style::Merge);
    assert_eq!(m.text, "a\r\n<<<<<<< ours\r\nX\r\n=======\r\nY\r\n>>>>>>> theirs\r\nc\r\n");
}

#[test]
fn a_last_line_without_newline_gets_one_inside_a_conflict() {
    let m = git("a\nb\nc", "a\nb\nX", "a\nb\nY", Style::Merge);
    assert_eq!(m.text, "a\nb\n<<<<<<< ours\nX\n=======\nY\n>>>>>>> theirs\n");
}

#[test]
fn a_side_that_deletes_everything_conflicts_with_an_edit() {
    let m = git("a\nb\n", "", "a\nB\n", Style::Merge);
    assert_eq!(m.text, "<<<<<<< ours\n=======\na\nB\n>>>>>>> theirs\n");
    assert_eq!(m.conflicts, vec![MergeConflict { ours: [1, 0], base: [1, 2], theirs: [1, 2] }]);
}

#[test]
fn two_additions_to_an_empty_base_conflict_in_diff3_style() {
    let m = git("", "x\n", "y\n", Style::Diff3);
    assert_eq!(m.text, "<<<<<<< ours\nx\n||||||| base\n=======\ny\n>>>>>>> theirs\n");
}

#[test]
fn zdiff3_takes_out_the_lines_both_sides_share() {
    let base = "a\nb\nc\n";
    let m = git(base, "a\nsame\nX\nc\n", "a\nsame\nY\nc\n", Style::Zdiff3);
    assert_eq!(m.text, "a\nsame\n<<<<<<< ours\nX\n||||||| base\nb\n=======\nY\n>>>>>>> theirs\nc\n");
    let m = git(base, "a\nsame\nX\nc\n", "a\nsame\nY\nc\n", Style::Diff3);
    assert_eq!(m.text, "a\n<<<<<<< ours\nsame\nX\n||||||| base\nb\n=======\nsame\nY\n>>>>>>> theirs\nc\n");
}

#[test]
fn markers_without_labels_are_bare() {
    let m = merge3("a\n", "b\n", "c\n", &Merge3Options::default()).unwrap();
    assert_eq!(m.text, "<<<<<<<\nb\n=======\nc\n>>>>>>>\n");
}

#[test]
fn two_unrelated_texts_of_repeated_lines_are_refused_not_worked_on() {
    // 1.5 M lines from four texts in a pseudo-random order, three times:
    // the diffs would need billions of steps; the work limit stops them.
    let mut seed = 7u64;
    let mut text = || {
        let mut t = String::new();
        for _ in 0..500_000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            t.push_str(["x = 1\n", "}\n", "\n", "return\n"][(seed >> 62) as usize]);
        }
        t
    };
    let (base, ours, theirs) = (text(), text(), text());
    let e = merge3(&base, &ours, &theirs, &Merge3Options::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InputTooLarge);
    assert!(e.message.starts_with("The three-way merge needs more than 33554432 steps"), "{}", e.message);
}

#[test]
fn two_unrelated_texts_of_distinct_lines_merge_at_once() {
    // Lines one text has and the others lack are changed without a search.
    let text = |k: u32| (0..200_000).map(|i| format!("{k} line {i}\n")).collect::<String>();
    let m = merge3(&text(0), &text(1), &text(2), &Merge3Options::default()).unwrap();
    assert_eq!(m.conflicts.len(), 1);
}

#[cfg(not(target_arch = "wasm32"))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn text() -> impl Strategy<Value = String> {
        (prop::collection::vec(prop::sample::select(vec!["a\n", "b\n", "}\n", "\n", "c\r\n", "d"]), 0..24)).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn an_unchanged_side_gives_the_other(base in text(), other in text()) {
            for style in [Style::Merge, Style::Diff3, Style::Zdiff3] {
                let m = git(&base, &base, &other, style);
                prop_assert_eq!(&m.text, &other);
                prop_assert!(m.is_clean());
                let m = git(&base, &other, &base, style);
                prop_assert_eq!(&m.text, &other);
                prop_assert!(m.is_clean());
            }
        }

        #[test]
        fn the_same_change_on_both_sides_is_that_change(base in text(), x in text()) {
            for style in [Style::Merge, Style::Diff3, Style::Zdiff3] {
                let m = git(&base, &x, &x, style);
                prop_assert_eq!(&m.text, &x);
                prop_assert!(m.is_clean());
            }
        }

        #[test]
        fn disjoint_edits_commute(n in 6usize..40, a in 0usize..40, b in 0usize..40, del_a in 0usize..3, del_b in 0usize..3, add_a in 0usize..3, add_b in 0usize..3) {
            // Distinct lines; two edits with at least one unchanged line between.
            let base: Vec<String> = (0..n).map(|i| format!("line {i}\n")).collect();
            let (a, b) = (a % n, b % n);
            let (first, second) = if a <= b { ((a, del_a, add_a, "A"), (b, del_b, add_b, "B")) } else { ((b, del_b, add_b, "B"), (a, del_a, add_a, "A")) };
            let first_end = (first.0 + first.1).min(n);
            prop_assume!(first_end < second.0);
            let edit = |(at, del, add, tag): (usize, usize, usize, &str)| {
                let mut v = base.clone();
                let end = (at + del).min(n);
                v.splice(at..end, (0..add).map(|k| format!("{tag} {k}\n")));
                v.concat()
            };
            let mut both = base.clone();
            let end = (second.0 + second.1).min(n);
            both.splice(second.0..end, (0..second.2).map(|k| format!("{} {k}\n", second.3)));
            both.splice(first.0..first_end, (0..first.2).map(|k| format!("{} {k}\n", first.3)));
            let (x, y, base) = (edit(first), edit(second), base.concat());
            for style in [Style::Merge, Style::Diff3, Style::Zdiff3] {
                let xy = git(&base, &x, &y, style);
                let yx = git(&base, &y, &x, style);
                prop_assert!(xy.is_clean() && yx.is_clean());
                prop_assert_eq!(&xy.text, &yx.text);
                prop_assert_eq!(&xy.text, &both.concat());
            }
        }
    }
}

#[test]
fn styles_by_name() {
    assert_eq!(Style::from_name("merge"), Some(Style::Merge));
    assert_eq!(Style::from_name("diff3"), Some(Style::Diff3));
    assert_eq!(Style::from_name("zdiff3"), Some(Style::Zdiff3));
    assert_eq!(Style::from_name("zdiff"), None);
}

/// Small random triples over a few distinct lines, against what `git
/// merge-file -p` wrote for them (tests/fixtures/merge-small.json, recorded
/// by tests/differential/record-merge-small.mjs): conflicts joined, trimmed
/// and placed where real histories rarely put them; and 500 with CRLF, mixed
/// and missing line breaks, where git chooses the markers' line break.
#[test]
fn small_dense_triples_merge_as_git_does() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/merge-small.json")).unwrap();
    let recorded: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = recorded["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2000);
    for (i, c) in cases.iter().enumerate() {
        let s = |k: &str| c[k].as_str().unwrap();
        for (name, style) in [("merge", Style::Merge), ("diff3", Style::Diff3), ("zdiff3", Style::Zdiff3)] {
            let m = git(s("base"), s("ours"), s("theirs"), style);
            let want = &c[name];
            assert_eq!(m.text, want[1].as_str().unwrap(), "case {i} ({name})");
            assert_eq!(m.conflicts.len() as u64, want[0].as_u64().unwrap(), "case {i} ({name})");
        }
    }
}

/// A side that only repeats the base's last line (or drops a repeat): the
/// common first lines reach into the lines a common ending would count too,
/// so the ending stops where they start (outputs of `git merge-file -p`).
#[test]
fn a_repeated_last_line_is_counted_once() {
    for (base, ours, theirs, want) in [
        ("x\n", "x\nx\n", "x\n", "x\nx\n"),
        ("a\nx\n", "a\nx\nx\n", "b\nx\n", "b\nx\nx\n"),
        ("x\nx\n", "x\n", "y\nx\nx\n", "y\nx\n"),
        ("a\nb\n", "a\nb\nb\nb\n", "a\nb\n", "a\nb\nb\nb\n"),
    ] {
        let m = git(base, ours, theirs, Style::Merge);
        assert_eq!((m.text.as_str(), m.is_clean()), (want, true), "{base:?} {ours:?} {theirs:?}");
    }
}

/// Overlapping changes that end apart: the conflict takes each side's lines
/// through the later end. And two conflicts with four lines between them
/// that hold no letter or digit are one conflict in the `merge` style (only
/// three lines of any kind join them otherwise). Outputs of `git merge-file -p`.
#[test]
fn conflicts_reach_the_later_end_and_join_over_punctuation() {
    // base, ours, theirs, and per style (merge, diff3, zdiff3) git's conflicts and text.
    type Case<'a> = (&'a str, &'a str, &'a str, [(usize, &'a str); 3]);
    let cases: [Case; 3] = [
        (
            "a\n}\n}\n}\n}\nb\n",
            "A\n}\n}\n}\n}\nB\n",
            "X\n}\n}\n}\n}\nY\n",
            [
                (1, "<<<<<<< ours\nA\n}\n}\n}\n}\nB\n=======\nX\n}\n}\n}\n}\nY\n>>>>>>> theirs\n"),
                (2, "<<<<<<< ours\nA\n||||||| base\na\n=======\nX\n>>>>>>> theirs\n}\n}\n}\n}\n<<<<<<< ours\nB\n||||||| base\nb\n=======\nY\n>>>>>>> theirs\n"),
                (2, "<<<<<<< ours\nA\n||||||| base\na\n=======\nX\n>>>>>>> theirs\n}\n}\n}\n}\n<<<<<<< ours\nB\n||||||| base\nb\n=======\nY\n>>>>>>> theirs\n"),
            ],
        ),
        (
            "a\nb\nc\nd\n",
            "a\nB\nC\nd\n",
            "a\nX\nc\nd\n",
            [
                (1, "a\n<<<<<<< ours\nB\nC\n=======\nX\nc\n>>>>>>> theirs\nd\n"),
                (1, "a\n<<<<<<< ours\nB\nC\n||||||| base\nb\nc\n=======\nX\nc\n>>>>>>> theirs\nd\n"),
                (1, "a\n<<<<<<< ours\nB\nC\n||||||| base\nb\nc\n=======\nX\nc\n>>>>>>> theirs\nd\n"),
            ],
        ),
        (
            "a\nb\nc\nd\ne\n",
            "a\nB\nC\nD\ne\n",
            "a\nb\nX\nd\ne\n",
            [
                (1, "a\n<<<<<<< ours\nB\nC\nD\n=======\nb\nX\nd\n>>>>>>> theirs\ne\n"),
                (1, "a\n<<<<<<< ours\nB\nC\nD\n||||||| base\nb\nc\nd\n=======\nb\nX\nd\n>>>>>>> theirs\ne\n"),
                (1, "a\n<<<<<<< ours\nB\nC\nD\n||||||| base\nb\nc\nd\n=======\nb\nX\nd\n>>>>>>> theirs\ne\n"),
            ],
        ),
    ];
    for (base, ours, theirs, want) in cases {
        for (style, (conflicts, text)) in [Style::Merge, Style::Diff3, Style::Zdiff3].into_iter().zip(want) {
            let m = git(base, ours, theirs, style);
            assert_eq!((m.conflicts.len(), m.text.as_str()), (conflicts, text), "{style:?} {ours:?} {theirs:?}");
            // Swapped sides: the same conflicts, each side's lines on its side.
            let s = git(base, theirs, ours, style);
            assert_eq!((s.conflicts.len(), swap_sides(&s.text)), (conflicts, text.to_string()), "{style:?} swapped");
        }
    }
}

/// A merge's text with the lines of the two sides of each conflict
/// exchanged (the labels stay): what the merge of the swapped sides writes.
fn swap_sides(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("<<<<<<< ") {
        out.push_str(&rest[..open]);
        let c = &rest[open..];
        let eol = |s: &str| s.find('\n').map_or(s.len(), |i| i + 1);
        let first_label = &c[..eol(c)];
        let body = &c[first_label.len()..];
        let mid = body.find("\n=======\n").map(|i| i + 1).or_else(|| body.starts_with("=======\n").then_some(0)).unwrap();
        let (first, after) = body.split_at(mid);
        let (first_side, base) = match first.find("||||||| ") {
            Some(b) => first.split_at(b),
            None => (first, ""),
        };
        let after = &after["=======\n".len()..];
        let close = after.find(">>>>>>> ").unwrap();
        let second = &after[..close];
        let close_line = &after[close..close + eol(&after[close..])];
        let first_name = &first_label["<<<<<<< ".len()..];
        let second_name = &close_line[">>>>>>> ".len()..];
        out.push_str(&format!("<<<<<<< {first_name}{second}{base}=======\n{first_side}>>>>>>> {second_name}"));
        rest = &after[close + close_line.len()..];
    }
    out.push_str(rest);
    out
}
